"""An abstract's sentences and the facet each one is about: background, method or result.

``kg related --facet`` compares what two papers say about one facet: the problem they address
(background), how they address it (method), or what they find (result). Abstracts follow that
order closely, and a handful of phrasings ("we propose", "results show", "however") say the
rest, so a sentence's facet is its position's vote plus one vote per cue it matches
(``data/facet_cues.tsv``). On CSFCube's 4,205 abstracts this agrees with the sentence labels
CSFCube ships (a supervised classifier's) on 72% of the sentences: docs/benchmarks.md.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from kg.schema import Label

FACETS = ("background", "method", "result")
#: The facet of a sentence about none of them: where the code or data is (``data/facet_cues.tsv``).
OTHER = "other"
#: The entity types each facet is about.
FACET_LABELS: dict[str, tuple[str, ...]] = {
    "background": (Label.TASK.value,),
    "method": (Label.METHOD.value,),
    "result": (Label.DATASET.value, Label.METRIC.value),
}

#: A sentence ends at ., ! or ? followed by white space and a capital, digit or bracket: what
#: abstracts do, without splitting "e.g. the" or "Fig. 3"-style abbreviations before lower case.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[\"'])")


def sentences(text: str) -> list[str]:
    """The sentences of ``text``.

    >>> sentences("We study X. It works, e.g. on Y. Results: 3% better!")
    ['We study X.', 'It works, e.g. on Y.', 'Results: 3% better!']
    """
    return [s for s in _SENTENCE_END.split(text.strip()) if s]


@lru_cache(maxsize=1)
def cues() -> dict[str, list[re.Pattern[str]]]:
    """The cue patterns of each facet, from ``data/facet_cues.tsv``."""
    out: dict[str, list[re.Pattern[str]]] = {f: [] for f in (*FACETS, OTHER)}
    text = resources.files("kg.query").joinpath("data/facet_cues.tsv").read_text("utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            facet, pattern = line.split("\t", 1)
            out[facet].append(re.compile(pattern))
    return out


def _position_votes(i: int, n: int) -> dict[str, float]:
    """What the place of sentence ``i`` of ``n`` says: abstracts open with background and close
    with results."""
    p = i / (n - 1) if n > 1 else 0.0
    return {
        "background": 1.5 * (1 - p) + (1.0 if i == 0 else 0.0),
        "method": 1.25 - abs(p - 0.5),
        "result": 2.0 * p - 0.5 + (0.5 if n > 2 and i == n - 1 else 0.0),
    }


def facet_of(sentence: str, i: int, n: int) -> str:
    """The facet of ``sentence``, the ``i``-th of ``n`` in its abstract (or :data:`OTHER`).

    >>> facet_of("However, parsing remains hard for long inputs.", 0, 4)
    'background'
    >>> facet_of("We propose a chart parser trained with a margin loss.", 1, 4)
    'method'
    >>> facet_of("Experiments show it outperforms strong baselines.", 3, 4)
    'result'
    >>> facet_of("Code is available at https://github.com/x/y.", 4, 4)
    'other'
    """
    lowered = sentence.lower()
    if any(p.search(lowered) for p in cues()[OTHER]):
        return OTHER
    votes = _position_votes(i, n)
    for facet in FACETS:
        votes[facet] += sum(1 for p in cues()[facet] if p.search(lowered))
    return max(FACETS, key=lambda f: votes[f])  # ties: the earlier facet, the abstract's order


def facets(text: str) -> list[tuple[str, str]]:
    """Each sentence of an abstract with its facet.

    >>> [f for _, f in facets("Parsing is hard. We propose P. P beats all baselines.")]
    ['background', 'method', 'result']
    """
    sents = sentences(text)
    return [(s, facet_of(s, i, len(sents))) for i, s in enumerate(sents)]
