"""Ranking-quality metrics for related-paper retrieval: NDCG@k, average precision, P@k.

Pure functions over plain Python lists so benchmarks and tests share one definition.

Conventions (chosen to match the published CSFCube baseline figures, Mysore et al. 2021):

* ``ranking`` is the ordered list of candidate ids a method returned (best first).
* ``grades`` maps candidate id -> graded relevance (CSFCube: adjudicated 0-3). Ids missing from
  ``grades`` count as grade 0 (unjudged = not relevant).
* NDCG uses the grade itself as a *linear* gain with the usual ``1/log2(rank+1)`` discount. The
  ideal DCG is computed from the grades of the *judged pool* (all of ``grades``), so a method is
  not rewarded for ranking only part of the pool.
* Average precision treats ``grade >= min_grade`` as relevant (CSFCube: 2) and divides by the
  number of relevant ids in the judged pool (retrieved or not).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def dcg(gains: Sequence[float], k: int | None = None) -> float:
    """Discounted cumulative gain of ``gains`` in rank order, cut at ``k``.

    >>> round(dcg([3, 2, 0]), 6)
    4.26186
    >>> dcg([3, 2, 0], k=1)
    3.0
    """
    top = gains if k is None else gains[:k]
    return sum(g / math.log2(i + 2) for i, g in enumerate(top))


def ndcg_at_k(ranking: Sequence[str], grades: Mapping[str, float], k: int = 20) -> float:
    """NDCG@k with linear gain; 0.0 when the pool holds no positive grade.

    >>> ndcg_at_k(["a", "b", "c"], {"a": 3, "b": 2, "c": 0}, k=2)
    1.0
    >>> round(ndcg_at_k(["c", "b", "a"], {"a": 3, "b": 2, "c": 0}, k=2), 4)
    0.2961
    >>> ndcg_at_k(["x"], {"a": 0})
    0.0
    """
    ideal = dcg(sorted(grades.values(), reverse=True), k)
    if ideal <= 0:
        return 0.0
    return dcg([grades.get(c, 0) for c in ranking], k) / ideal


def average_precision(
    ranking: Sequence[str], grades: Mapping[str, float], min_grade: float = 2
) -> float:
    """Average precision with ``grade >= min_grade`` relevant; 0.0 when nothing is relevant.

    >>> average_precision(["a", "x", "b"], {"a": 2, "b": 3, "x": 0})
    0.8333333333333333
    >>> average_precision(["a"], {"a": 2, "b": 2})  # b never retrieved: counts against recall
    0.5
    >>> average_precision(["a"], {"a": 1})
    0.0
    """
    n_relevant = sum(1 for g in grades.values() if g >= min_grade)
    if n_relevant == 0:
        return 0.0
    hits, total = 0, 0.0
    for i, c in enumerate(ranking, start=1):
        if grades.get(c, 0) >= min_grade:
            hits += 1
            total += hits / i
    return total / n_relevant


def precision_at_k(relevant: Sequence[bool], k: int = 10) -> float:
    """Fraction of the first ``k`` results that are relevant (missing results count as misses).

    >>> precision_at_k([True, False, True, True], k=2)
    0.5
    >>> precision_at_k([True], k=4)
    0.25
    """
    if k <= 0:
        raise ValueError("k must be positive")
    return sum(1 for r in relevant[:k] if r) / k


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean, 0.0 for an empty sequence.

    >>> mean([1.0, 0.0])
    0.5
    >>> mean([])
    0.0
    """
    return sum(values) / len(values) if values else 0.0


def ndcg_at_share(ranking: Sequence[str], grades: Mapping[str, float], share: float = 0.2) -> float:
    """CSFCube's published NDCG%20 (Aspire's ``ranking_eval``): NDCG over the first ``share`` of
    the ranked pool (``int(share * len(ranking))`` ranks), the grade as gain, and the first two
    ranks undiscounted (weights 1, 1, 1/log2(3), ...). The ideal is the ranking's own grades
    sorted, so ``ranking`` must be the whole judged pool; 0.0 when it holds no positive grade.

    >>> pool = [f"c{i}" for i in range(10)]
    >>> ndcg_at_share(pool, {"c0": 3, "c1": 2})  # 2 ranks cut, both right
    1.0
    >>> ndcg_at_share(pool, {"c1": 3, "c0": 2})  # undiscounted: the order of the first two is free
    1.0
    >>> round(ndcg_at_share(pool, {"c2": 3, "c0": 2}), 4)
    0.4
    """
    gains = [float(grades.get(c, 0)) for c in ranking]
    k = int(share * len(gains))

    def dcg0(values: Sequence[float]) -> float:
        top = values[:k]
        return sum(g / (math.log2(i + 1) if i else 1.0) for i, g in enumerate(top))

    ideal = dcg0(sorted(gains, reverse=True))
    return dcg0(gains) / ideal if ideal > 0 else 0.0
