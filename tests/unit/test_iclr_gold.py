"""The scoring of benchmarks/iclr_gold.py (hand-made items) and the shipped gold sample's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def ig(benchmark_module):  # noqa: ANN001, ANN201
    return benchmark_module("iclr_gold")


def item(ig, names: list[str], type_: str, proposes: bool = False, uncertain: bool = False):  # noqa: ANN001, ANN201
    return ig.Item(names[0], type_, proposes, ig.keys_of(names), uncertain)


def test_scores_count_hits_misses_and_dont_cares(ig) -> None:  # noqa: ANN001
    gold = {
        "p": [
            item(ig, ["Group Relative Policy Optimization", "GRPO"], "Method", proposes=True),
            item(ig, ["ImageNet"], "Dataset"),
            item(ig, ["RL"], "Method", uncertain=True),
        ]
    }
    pred = {
        "p": [
            item(ig, ["GRPO"], "Method", proposes=True),  # hit via the alias, role right
            item(ig, ["ImageNet benchmark"], "Dataset"),  # lenient hit only
            item(ig, ["RL"], "Task"),  # matches a don't-care: not judged
            item(ig, ["regularization method"], "Method"),  # false positive
        ]
    }
    strict = ig.score(gold, pred, lenient=False, typed=False)
    assert (strict["recall_micro"], strict["precision_micro"]) == (0.5, 1 / 3)
    assert strict["proposes_accuracy"] == 1.0
    lenient = ig.score(gold, pred, lenient=True, typed=False)
    assert (lenient["recall_micro"], lenient["precision_micro"]) == (1.0, 2 / 3)
    # typed: "RL" as a Task no longer matches the don't-care Method, so it is judged (wrong)
    typed = ig.score(gold, pred, lenient=True, typed=True)
    assert (typed["recall_micro"], typed["precision_micro"]) == (1.0, 2 / 4)


def test_gold_samples_are_well_formed_and_disjoint(ig) -> None:  # noqa: ANN001
    ids = []
    for name in (
        "iclr2026_gold_sample.jsonl",
        "iclr2026_gold_heldout.jsonl",
        "iclr2026_gold_fresh.jsonl",
        "iclr2026_gold_fresh2.jsonl",
        "iclr2026_gold_fresh3.jsonl",
        "iclr2026_gold_fresh4.jsonl",
        "iclr2026_gold_fresh5.jsonl",
        "iclr2026_gold_fresh6.jsonl",
        "iclr2026_gold_fresh7.jsonl",
    ):
        lines = (BENCH / "data" / name).read_text(encoding="utf-8")
        records = [json.loads(line) for line in lines.splitlines()]
        assert len(records) == 40
        ids += [r["id"] for r in records]
        for r in records:
            for e in r["entities"]:
                assert e["type"] in ig.TYPES and e["role"] in ("proposes", "uses"), e
    assert len(set(ids)) == 360  # unique: the nine samples share no paper


def test_samples_pool(ig, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps({"nodes": [], "links": []}), encoding="utf-8")
    data = BENCH / "data"
    two = ["--gold", str(data / "iclr2026_gold_sample.jsonl")]
    two += ["--gold", str(data / "iclr2026_gold_fresh4.jsonl")]
    assert ig.main(["--graph", str(graph), *two, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["papers"] == 80
    assert ig.main(["--graph", str(graph), "--all", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["papers"] == 360


def test_a_link_only_the_title_makes_is_out_of_the_golds_scope(ig) -> None:  # noqa: ANN001
    gold = {"p": [item(ig, ["video generation"], "Task")]}
    title_only = item(ig, ["diffusion models"], "Method")
    title_only.title_only = True
    found = item(ig, ["Video Generation"], "Task")
    found.title_only = True
    got = ig.score(gold, {"p": [found, title_only]}, lenient=False, typed=True)
    # the title's link that the gold lists is a hit; the one it cannot list is not judged
    assert (got["recall_micro"], got["precision_micro"]) == (1.0, 1.0)
