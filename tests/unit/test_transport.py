"""The optimal-transport alignment of ``kg related`` (kg.query.transport)."""

from __future__ import annotations

import numpy as np
import pytest

from kg.query.transport import transport_scores


def brute_force_plan(sims: np.ndarray, epsilon: float, iterations: int = 500) -> float:
    """The entropic transport score of one candidate, by plain Sinkhorn on its own matrix."""
    m, n = sims.shape
    K = np.exp((sims - 1.0) / epsilon)
    u, v = np.ones(m), np.ones(n)
    for _ in range(iterations):
        u = (1.0 / m) / (K @ v)
        v = (1.0 / n) / (K.T @ u)
    plan = u[:, None] * K * v[None, :]
    assert plan.sum(axis=1) == pytest.approx(np.full(m, 1.0 / m))
    assert plan.sum(axis=0) == pytest.approx(np.full(n, 1.0 / n))
    return float((plan * sims).sum())


def test_every_candidate_gets_the_score_of_its_own_sinkhorn_plan() -> None:
    rng = np.random.default_rng(7)
    lengths = [3, 1, 5, 2]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    sims = rng.uniform(-0.2, 1.0, size=(4, offsets[-1]))
    keep = np.ones(offsets[-1], dtype=bool)
    keep[5] = False  # one sentence of the third candidate takes no part
    got = transport_scores(sims, offsets, keep, epsilon=0.2, iterations=300)
    for j in range(len(lengths)):
        cols = [c for c in range(offsets[j], offsets[j + 1]) if keep[c]]
        assert got[j] == pytest.approx(brute_force_plan(sims[:, cols], 0.2), abs=1e-6)


def test_one_sentence_like_everything_cannot_stand_in_for_the_rest() -> None:
    # query sentences A and B. Candidate 0: X, like both (0.9), and Y, like neither. Candidate
    # 1: A' and B', each like one (0.8). Max-sim ranks 0 first (0.9 against 0.8); transport
    # must move half of the query's mass onto Y, so it ranks 1 first.
    sims = np.array(
        [
            [0.9, 0.0, 0.8, 0.2],  # A against X, Y, A', B'
            [0.9, 0.0, 0.2, 0.8],  # B against the same
        ]
    )
    offsets, keep = np.array([0, 2, 4]), np.ones(4, dtype=bool)
    max_sim = np.maximum.reduceat(sims, offsets[:-1], axis=1).mean(axis=0)
    assert max_sim[0] > max_sim[1]
    stand_in, cover = transport_scores(sims, offsets, keep)
    assert cover > stand_in
    # (entropy blurs the plan a little: a sliver of mass takes the 0.2 pairs)
    assert stand_in == pytest.approx(0.45, abs=5e-3) and cover == pytest.approx(0.8, abs=5e-3)


def test_empty_candidates_and_candidates_without_kept_sentences_score_lowest() -> None:
    sims = np.array([[0.5, 0.9]])
    offsets = np.array([0, 0, 1, 2])  # the first candidate has no sentence
    keep = np.array([False, True])
    assert transport_scores(sims, offsets, keep).tolist() == [-1.0, -1.0, pytest.approx(0.9)]
