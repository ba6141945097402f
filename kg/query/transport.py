"""Optimal-transport alignment of two papers' sentences: ``kg related``'s ``transport`` signal.

Max-sim alignment lets every query sentence take the candidate's best sentence, so one
candidate sentence that resembles everything can stand in for all of them. Aspire's best
model (otAspire, Mysore et al., 2022) instead *transports* the query's sentences onto the
candidate's: each side has a unit of mass spread evenly over its sentences, mass moves along
similar pairs, and the score is the similarity the moved mass carries. A candidate then scores
high only when its sentences, together, cover the query's.

The plan is Cuturi's entropic one (Sinkhorn iterations), computed for every candidate at once
over the flat array of all sentences: no padding, so the cost is that of the max-sim alignment
times :data:`ITERATIONS`.
"""

from __future__ import annotations

import numpy as np

#: The entropy weight: small enough that mass goes to the best pairs, large enough that the
#: iterations settle (it was chosen on CSFCube's training folds: docs/benchmarks.md).
EPSILON = 0.1
#: Sinkhorn's iterations: on CSFCube the scores are then within 2e-4 of where they settle.
ITERATIONS = 30


def transport_scores(
    sims: np.ndarray,
    offsets: np.ndarray,
    keep: np.ndarray,
    epsilon: float = EPSILON,
    iterations: int = ITERATIONS,
) -> np.ndarray:
    """Each candidate's transport score.

    ``sims`` holds the cosines of the query's ``m`` sentences (rows) with every sentence of the
    corpus (columns); candidate ``j`` owns columns ``offsets[j]:offsets[j + 1]``, of which only
    those where ``keep`` is true take part. A candidate with no such sentence scores -1, the
    lowest cosine.

    With one query sentence the plan spreads its mass evenly, so the score is the mean cosine;
    with identical sentence sets it moves each sentence onto itself:

    >>> sims = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]])
    >>> offsets, keep = np.array([0, 2, 3]), np.array([True, True, True])
    >>> transport_scores(sims, offsets, keep).round(3).tolist()
    [1.0, 0.5]
    >>> transport_scores(sims[:1], offsets, keep).round(3).tolist()
    [0.5, 0.5]
    >>> transport_scores(sims, offsets, np.array([True, True, False])).round(3).tolist()
    [1.0, -1.0]
    """
    m, total = sims.shape
    lengths = np.diff(offsets)
    owner = np.repeat(np.arange(len(lengths)), lengths)  # the candidate of each column
    starts = offsets[:-1]
    counts = np.add.reduceat(keep.astype(np.float64), starts) if total else np.zeros(0)
    counts[lengths == 0] = 0.0  # reduceat reads an empty segment as the next column
    has = counts > 0
    # each kept sentence carries 1 / (its candidate's kept sentences); the query's, 1 / m
    b = np.where(keep, 1.0 / np.maximum(counts, 1.0)[owner], 0.0)
    K = np.exp((sims - 1.0) / epsilon) * keep  # the Gibbs kernel of the cost 1 - cosine
    u = np.full((len(lengths), m), 1.0 / m)
    v = b.copy()
    for _ in range(iterations):
        Kv = _per_candidate(K * v, starts, lengths)  # (candidates, m)
        u = np.divide(1.0 / m, Kv, out=np.zeros_like(Kv), where=Kv > 0)
        KTu = np.einsum("ms,sm->s", K, u[owner])
        v = np.divide(b, KTu, out=np.zeros_like(b), where=KTu > 0)
    carried = _per_candidate(K * sims * v, starts, lengths)  # (candidates, m)
    scores = (u * carried).sum(axis=1)
    scores[~has] = -1.0
    return scores


def _per_candidate(columns: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each candidate's sum of ``columns`` (rows of the query's sentences), as (candidates, m)."""
    if not columns.shape[1]:
        return np.zeros((len(starts), columns.shape[0]))
    sums = np.add.reduceat(columns, starts.clip(max=columns.shape[1] - 1), axis=1).T
    sums[lengths == 0] = 0.0
    return sums
