"""Unit tests for kg.evaluate.related_metrics (used by benchmarks/related_quality.py)."""

from __future__ import annotations

import math

import pytest

from kg.evaluate.related_metrics import (
    average_precision,
    dcg,
    mean,
    ndcg_at_k,
    precision_at_k,
)


def test_dcg_uses_linear_gain_and_log2_discount() -> None:
    assert dcg([3, 3]) == pytest.approx(3 + 3 / math.log2(3))


def test_ndcg_perfect_ranking_is_one() -> None:
    grades = {"a": 3, "b": 2, "c": 1, "d": 0}
    assert ndcg_at_k(["a", "b", "c", "d"], grades, k=20) == pytest.approx(1.0)


def test_ndcg_ideal_comes_from_whole_judged_pool() -> None:
    # Ranking only the weak candidate must not look perfect: the ideal includes "a".
    grades = {"a": 3, "b": 1}
    assert ndcg_at_k(["b"], grades, k=20) == pytest.approx(1 / (3 + 1 / math.log2(3)))


def test_ndcg_cutoff_ignores_later_ranks() -> None:
    grades = {"a": 3, "x": 0, "y": 0}
    assert ndcg_at_k(["x", "y", "a"], grades, k=2) == 0.0


def test_ndcg_unjudged_ids_are_zero_gain() -> None:
    assert ndcg_at_k(["zz", "a"], {"a": 1}, k=2) == pytest.approx(1 / math.log2(3))


def test_ndcg_empty_pool_or_no_positive_is_zero() -> None:
    assert ndcg_at_k([], {}) == 0.0
    assert ndcg_at_k(["a"], {"a": 0}) == 0.0


def test_average_precision_threshold() -> None:
    grades = {"a": 1, "b": 2, "c": 3}
    # Relevant = b, c (grade >= 2); ranking a, b, c -> (1/2 + 2/3) / 2
    assert average_precision(["a", "b", "c"], grades) == pytest.approx((1 / 2 + 2 / 3) / 2)
    # With threshold 1, a is relevant too -> all hits, AP = 1
    assert average_precision(["a", "b", "c"], grades, min_grade=1) == pytest.approx(1.0)


def test_average_precision_no_relevant_is_zero() -> None:
    assert average_precision(["a"], {"a": 0}) == 0.0


def test_precision_at_k() -> None:
    assert precision_at_k([True] * 10, k=10) == 1.0
    assert precision_at_k([False, True], k=2) == 0.5
    with pytest.raises(ValueError):
        precision_at_k([True], k=0)


def test_mean() -> None:
    assert mean([0.25, 0.75]) == 0.5
    assert mean([]) == 0.0
