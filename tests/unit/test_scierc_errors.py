"""The error kinds of benchmarks/scierc_errors.py on hand-made gold and predictions."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType, SimpleNamespace


def test_each_mismatch_gets_one_kind(benchmark_module: Callable[[str], ModuleType]) -> None:
    module = benchmark_module("scierc_errors")
    text = "We use graph neural networks for link prediction on Cora with accuracy ."
    gold = [
        (7, 28, "Method"),  # predicted exactly
        (33, 48, "Task"),  # predicted as a Method: a type confusion
        (52, 56, "Material"),  # predicted shorter
        (62, 70, "Metric"),  # missed
        (0, 2, "Generic"),  # not scored
    ]
    pred = [(7, 28, "Method"), (33, 48, "Method"), (52, 55, "Material"), (0, 2, "Method")]
    kinds, examples = module.error_kinds([SimpleNamespace(text=text, gold=gold)], [pred])
    assert kinds == {
        "type Task -> Method": 1,
        "boundary: predicted shorter": 1,
        "missed Metric": 1,
        "spurious Method (on a Generic span)": 1,
    }
    assert examples["missed Metric"] == ["accuracy"]
