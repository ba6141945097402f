"""The default ranking of ``kg related``: what two papers share in the graph *and* in their words.

Nine signals score every paper of the graph against the query paper (with ``facet``, the
facet's share of each paper):

* ``entities``: the shared entities' weight (:func:`kg.query.related.shared_entities`);
* ``facet_entities``: the same, counting only the facet's entity types (:data:`FACET_LABELS`);
* ``words``, ``chars``, ``dense``, ``titles``, ``align``, ``align_facet``, ``transport``: the
  text views of
  :class:`~kg.query.text_index.TextIndex`.

Each signal is standardised over the corpus (z-scores, the query left out), so a signal that
barely separates papers for this query weighs little, and the weighted sum ranks. The weights
(``data/related_weights.json``) were learned on one half of CSFCube's queries and measured on
the other half (``benchmarks/related_quality.py``, docs/benchmarks.md); nothing was tuned on the
ICLR corpus.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

import numpy as np

from kg.query.facets import FACET_LABELS, FACETS
from kg.query.index import PaperIndex
from kg.query.related import Related, shared_entities
from kg.query.text_index import TextIndex
from kg.schema import BIG_CORPUS_PAPERS

SIGNALS = (
    "entities",
    "facet_entities",
    "words",
    "chars",
    "dense",
    "align",
    "align_facet",
    "transport",
    "titles",
)


@lru_cache(maxsize=1)
def default_weights() -> dict[str, float]:
    """The shipped weight of each signal."""
    text = resources.files("kg.query").joinpath("data/related_weights.json").read_text("utf-8")
    weights: dict[str, float] = json.loads(text)["weights"]
    return weights


def standardised(values: np.ndarray, skip: int, basis: np.ndarray | None = None) -> np.ndarray:
    """``values`` as z-scores over all rows but ``skip`` (all zeros when they do not vary); with
    ``basis``, the mean and spread are those of the rows at ``basis`` but ``skip``.

    >>> standardised(np.array([9.0, 1.0, 2.0, 3.0]), skip=0).round(3).tolist()
    [8.573, -1.225, 0.0, 1.225]
    >>> some = np.array([0, 1, 2, 3])
    >>> standardised(np.array([9.0, 1.0, 2.0, 3.0, 7.0]), 0, some).round(3).tolist()
    [8.573, -1.225, 0.0, 1.225, 6.124]
    """
    rest = np.delete(values, skip) if basis is None else values[basis[basis != skip]]
    sd = float(rest.std()) if len(rest) else 0.0
    if sd == 0.0:
        return np.zeros_like(values, dtype=np.float64)
    return (values - rest.mean()) / sd


def signals(
    idx: PaperIndex,
    text: TextIndex,
    paper: str,
    facet: str | None = None,
    weights: dict[str, float] | None = None,
    every_paper: bool = False,
) -> dict[str, np.ndarray]:
    """Every signal of :data:`SIGNALS`, standardised, for every paper (in ``text.ids`` order).

    In a big corpus (:data:`~kg.schema.BIG_CORPUS_PAPERS`) the costly signals (the sentence
    alignments, and the character n-grams beyond the query's rarest) are worked out for some
    papers only (:func:`candidate_rows`, chosen under ``weights``); the others get the lowest
    score of the sample. ``every_paper`` works them out for all (what that choice is measured
    against)."""
    row = text.row(paper)
    big = not every_paper and len(text.ids) >= BIG_CORPUS_PAPERS
    raw = text.paper_signals(paper, big)
    for name, labels in (("entities", None), ("facet_entities", FACET_LABELS.get(facet or ""))):
        if name == "facet_entities" and labels is None:
            raw[name] = raw["entities"]
            continue
        scores, _ = shared_entities(idx, paper, labels)
        # Filled from the papers that share something (a few thousand), not looked up for
        # every paper of the corpus.
        values = np.zeros(len(text.ids))
        at = text.rows_of(list(scores))
        held = at >= 0
        values[at[held]] = np.fromiter(scores.values(), dtype=np.float64, count=len(at))[held]
        raw[name] = values
    if not big:
        raw.update(text.sentence_signals(paper, facet))
    out = {name: standardised(np.asarray(raw[name], dtype=np.float64), row) for name in raw}
    if not big:
        return out
    weights = default_weights() if weights is None else weights
    rows, basis = candidate_rows(out, row, weights, CANDIDATES, SAMPLE)
    for name, values in text.candidate_signals(paper, facet, rows).items():
        z = standardised(values.astype(np.float64), int(np.searchsorted(rows, row)), basis)
        out[name] = np.full(len(text.ids), z[basis].min())
        out[name][rows] = z
    return out


#: In a big corpus the costly signals are worked out for the CANDIDATES papers that the cheap
#: ones rank highest and for SAMPLE papers spread evenly over the corpus, which set each
#: signal's mean and spread: docs/benchmarks.md measures the top 10 against every paper's.
CANDIDATES = 1000
SAMPLE = 1000


def candidate_rows(
    parts: dict[str, np.ndarray],
    row: int,
    weights: dict[str, float],
    candidates: int,
    sample: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The rows whose costly signals a big corpus works out (sorted; the query's ``row``
    among them), and where among them the sample is: the ``candidates`` best by the weighted
    sum of ``parts`` (the cheap signals, standardised), and ``sample`` evenly spread.

    >>> parts = {"dense": np.array([0.0, 5.0, 1.0, 4.0, 2.0, 3.0])}
    >>> rows, basis = candidate_rows(parts, 0, {"dense": 1.0, "align": 1.0}, 2, 2)
    >>> rows.tolist(), basis.tolist()
    ([0, 1, 3, 5], [0, 3])
    """
    n = len(next(iter(parts.values())))
    partial = sum((w * parts[k] for k, w in weights.items() if w and k in parts), np.zeros(n))
    partial[row] = -np.inf
    best = np.argpartition(-partial, candidates)[:candidates] if n > candidates else np.arange(n)
    spread = np.unique(np.linspace(0, n - 1, min(sample, n)).astype(np.int64))
    rows = np.unique(np.concatenate([best, spread, [row]]))
    return rows, np.searchsorted(rows, spread)


def hybrid_scores(
    idx: PaperIndex,
    text: TextIndex,
    paper: str,
    facet: str | None = None,
    weights: dict[str, float] | None = None,
    every_paper: bool = False,
) -> np.ndarray:
    """The weighted sum of the standardised signals, for every paper in ``text.ids`` order
    (``every_paper``: as :func:`signals`)."""
    weights = default_weights() if weights is None else weights
    parts = signals(idx, text, paper, facet, weights, every_paper)
    return sum((w * parts[name] for name, w in weights.items() if w), np.zeros(len(text.ids)))


def top_rows(scores: np.ndarray, k: int, skip: int, ids: list[str]) -> list[int]:
    """The rows of the ``k`` highest ``scores`` but ``skip``, best first, ties by id.

    >>> top_rows(np.array([0.5, 0.9, 0.5, 0.1]), 2, skip=1, ids=["d", "c", "b", "a"])
    [2, 0]
    """
    scores = scores.astype(np.float64)
    scores[skip] = -np.inf
    k = min(k, len(scores) - 1)
    if k <= 0:
        return []
    # every row that ties the k-th score can enter the top k: only those are sorted
    kth = np.partition(scores, len(scores) - k)[len(scores) - k]
    close = np.flatnonzero(scores >= kth)
    return sorted(close.tolist(), key=lambda i: (-scores[i], ids[i]))[:k]


def rank_related(
    idx: PaperIndex, text: TextIndex, paper: str, k: int = 10, facet: str | None = None
) -> list[Related]:
    """The ``k`` papers most related to ``paper`` (about ``facet``, when given), best first, each
    with its reasons: shared entities (of the facet's types), the stored words behind the text
    similarity, and the pair of sentences that align best.
    """
    if facet is not None and facet not in FACETS:
        raise ValueError(f"facet must be one of {', '.join(FACETS)}")
    scores = hybrid_scores(idx, text, paper, facet)
    order = top_rows(scores, k, text.row(paper), text.ids)
    _, shared = shared_entities(idx, paper, FACET_LABELS.get(facet or ""))
    me = idx.nodes[paper]
    stored = dict(zip(me.get("similar", []), zip(me.get("similar_scores", []),
                                                me.get("similar_terms", []), strict=True),
                      strict=True))  # fmt: skip
    out = []
    for i in order:
        other = text.ids[i]
        attrs = idx.nodes[other]
        similarity, terms = stored.get(other, (0.0, ""))
        words = terms.split(", ") if terms else []
        mine, theirs, cosine = text.best_pair(paper, other, facet, words)
        out.append(
            Related(
                other,
                attrs.get("title", ""),
                attrs.get("display_name", ""),
                round(float(scores[i]), 6),
                sorted(shared.get(other, []), key=lambda s: (-s.weight, s.name)),
                similarity,
                words,
                facet,
                [mine, theirs],
                cosine,
            )
        )
    return out
