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


def standardised(values: np.ndarray, skip: int) -> np.ndarray:
    """``values`` as z-scores over all rows but ``skip`` (all zeros when they do not vary).

    >>> standardised(np.array([9.0, 1.0, 2.0, 3.0]), skip=0).round(3).tolist()
    [8.573, -1.225, 0.0, 1.225]
    """
    rest = np.delete(values, skip)
    sd = float(rest.std()) if len(rest) else 0.0
    if sd == 0.0:
        return np.zeros_like(values, dtype=np.float64)
    return (values - rest.mean()) / sd


def signals(
    idx: PaperIndex, text: TextIndex, paper: str, facet: str | None = None
) -> dict[str, np.ndarray]:
    """Every signal of :data:`SIGNALS`, standardised, for every paper (in ``text.ids`` order)."""
    row = text.row(paper)
    raw = text.signals(paper, facet)
    for name, labels in (("entities", None), ("facet_entities", FACET_LABELS.get(facet or ""))):
        if name == "facet_entities" and labels is None:
            raw[name] = raw["entities"]
            continue
        scores, _ = shared_entities(idx, paper, labels)
        # Filled from the papers that share something (a few thousand), not looked up for
        # every paper of the corpus.
        values = np.zeros(len(text.ids))
        found = [(text.row(p), s) for p, s in scores.items() if p in text]
        if found:
            at, shared = zip(*found, strict=True)
            values[list(at)] = shared
        raw[name] = values
    return {name: standardised(np.asarray(raw[name], dtype=np.float64), row) for name in SIGNALS}


def hybrid_scores(
    idx: PaperIndex,
    text: TextIndex,
    paper: str,
    facet: str | None = None,
    weights: dict[str, float] | None = None,
) -> np.ndarray:
    """The weighted sum of the standardised signals, for every paper in ``text.ids`` order."""
    weights = default_weights() if weights is None else weights
    parts = signals(idx, text, paper, facet)
    return sum((w * parts[name] for name, w in weights.items() if w), np.zeros(len(text.ids)))


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
    row = text.row(paper)
    others = (i for i in range(len(scores)) if i != row)
    order = sorted(others, key=lambda i: (-scores[i], text.ids[i]))[:k]
    _, shared = shared_entities(idx, paper, FACET_LABELS.get(facet or ""))
    me = idx.nodes[paper]
    stored = dict(zip(me.get("similar", []), zip(me.get("similar_scores", []),
                                                me.get("similar_terms", []), strict=True),
                      strict=True))  # fmt: skip
    out = []
    for i in order:
        other = text.ids[i]
        attrs = idx.nodes[other]
        mine, theirs, cosine = text.best_pair(paper, other, facet)
        similarity, terms = stored.get(other, (0.0, ""))
        out.append(
            Related(
                other,
                attrs.get("title", ""),
                attrs.get("display_name", ""),
                round(float(scores[i]), 6),
                sorted(shared.get(other, []), key=lambda s: (-s.weight, s.name)),
                similarity,
                terms.split(", ") if terms else [],
                facet,
                [mine, theirs],
                cosine,
            )
        )
    return out
