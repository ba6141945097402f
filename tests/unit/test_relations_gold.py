"""The scoring of benchmarks/relations_gold.py: a hand-made graph against a hand-made gold file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import networkx as nx
import pytest

from kg.store.file import save_graph

P26 = "https://openreview.net/forum?id=p26AbC"  # gold id as the ICLR 2026 CSV gives it
ABSENT = "https://openreview.net/forum?id=zzzNotThere"
P18 = "B1x-18"  # gold id as the ICLR 2018 JSON gives it


@pytest.fixture(scope="module")
def rg(benchmark_module: Callable[[str], ModuleType]) -> ModuleType:
    return benchmark_module("relations_gold")


def rel(head: str, type_: str, tail: str, uncertain: bool = False, **extra: object) -> dict:
    out = {"head": head, "type": type_, "tail": tail, "sentence": f"{head} {type_} {tail}."}
    if uncertain:
        out["uncertain"] = True
    return {**out, **extra}


def res(value: str, number: float, dataset: str | None = None, uncertain: bool = False) -> dict:
    out = {
        "value": value,
        "number": number,
        "relative": False,
        "method": "ReMix",
        "dataset": dataset,
        "metric": None,
        "sentence": f"It reaches {value}.",
    }
    return {**out, "uncertain": True} if uncertain else out


GOLD = [
    {
        "id": P26,
        "year": 2026,
        "title": "ReMix",
        "relations": [
            rel("ReMix", "EVALUATED_ON", "MATH500"),  # hit (and a duplicate prediction: FP)
            rel("PPO", "USED_FOR", "ReMix"),  # hit
            rel("GRPO", "USED_FOR", "ReMix"),  # predicted the wrong way round: miss
            rel("ReMix", "EVALUATED_ON", "AIME'24"),  # predicted with the wrong type: miss
            rel("ReMix", "COMPARED_WITH", "SFT"),  # predicted reversed: a hit (undirected)
            rel("MATH500", "MEASURED_BY", "Pass@1 accuracy", uncertain=True),  # don't care
        ],
        "results": [
            res("52.10%", 52.1),  # hit at the written precision
            res("+8.6%", 8.6, dataset="MM-Vet"),  # predicted on the wrong dataset: miss
            res("4.6%", 4.6, dataset="WildJailbreak"),  # hit (result linked by REPORTS only)
            res("+6.7 points", 6.7, uncertain=True),  # don't care
        ],
    },
    {
        "id": ABSENT,
        "year": 2026,
        "title": "not built",
        "relations": [rel("X", "USED_FOR", "Y")],
        "results": [res("1.5", 1.5)],
    },
    {
        "id": P18,
        "year": 2018,
        "title": "An LSTM paper",
        "relations": [rel("LSTM", "IS_A", "recurrent neural networks (RNNs)")],
        "results": [res("10x", 10.0)],
    },
]


def build_graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    G.add_node("p26AbC", label="Paper", name="ReMix", url=P26)
    G.add_node(P18, label="Paper", name="An LSTM paper", url="")
    for node, label, name, aliases in (
        ("method:remix", "Method", "ReMix", ["Reincarnating Mix-policy Proximal Policy Gradient"]),
        ("method:remix-long", "Method", "Reincarnating Mix-policy Proximal Policy Gradient", []),
        ("method:ppo", "Method", "Proximal Policy Optimization", ["PPO"]),
        ("method:grpo", "Method", "GRPO", []),
        ("method:sft", "Method", "supervised fine-tuning", ["SFT"]),
        ("method:lstm", "Method", "LSTM", []),
        ("concept:rnn", "Concept", "RNN", ["recurrent neural network"]),
        ("dataset:math500", "Dataset", "MATH500", []),
        ("dataset:aime-24", "Dataset", "AIME'24", []),
        ("dataset:mmstar", "Dataset", "MMStar", []),
        ("dataset:wildjailbreak", "Dataset", "WildJailbreak benchmark", []),
        ("metric:pass-1", "Metric", "Pass@1", []),
    ):
        G.add_node(node, label=label, name=name, aliases=aliases)

    def link(u: str, type_: str, v: str, papers: list[str]) -> None:
        G.add_edge(u, v, key=type_, type=type_, papers=papers, evidence=[f"{u} {v}"], count=1)

    link("method:remix", "EVALUATED_ON", "dataset:math500", ["p26AbC"])
    link("method:remix-long", "EVALUATED_ON", "dataset:math500", ["p26AbC"])  # duplicate: FP
    link("method:ppo", "USED_FOR", "method:remix", ["p26AbC"])
    link("method:remix", "USED_FOR", "method:grpo", ["p26AbC"])  # wrong direction: FP
    link("method:remix", "USED_FOR", "dataset:aime-24", ["p26AbC"])  # wrong type: FP
    link("method:sft", "COMPARED_WITH", "method:remix", ["p26AbC"])
    link("dataset:math500", "MEASURED_BY", "metric:pass-1", ["p26AbC"])  # uncertain: ignored
    # stated by the 2018 paper only: no hit for the 2026 paper's gold, an FP for the 2018 one
    link("method:remix", "EVALUATED_ON", "dataset:aime-24", [P18])
    link("method:lstm", "IS_A", "concept:rnn", [P18])

    def result(node: str, number: float, paper: str | None, datasets: list[str]) -> None:
        attrs = {"paper": paper} if paper else {}
        G.add_node(
            node,
            label="Result",
            name=str(number),
            value=f"{number}%",
            number=number,
            unit="%",
            relative=False,
            evidence="…",
            **attrs,
        )
        G.add_edge(paper or "p26AbC", node, key="REPORTS", type="REPORTS")
        G.add_edge(node, "method:remix", key="FOR_METHOD", type="FOR_METHOD")
        for d in datasets:
            G.add_edge(node, d, key="ON_DATASET", type="ON_DATASET")

    result("result:1", 52.1, "p26AbC", [])  # hit
    result("result:2", 8.6, "p26AbC", ["dataset:mmstar"])  # wrong dataset: FP
    result("result:3", 4.6, None, ["dataset:wildjailbreak"])  # hit, via REPORTS only
    result("result:4", 52.13, "p26AbC", [])  # 52.13 is not 52.10: FP
    result("result:5", -6.7, "p26AbC", [])  # an uncertain gold result, unsigned: ignored
    result("result:6", 10.0, P18, [])  # hit
    return G


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(g) + "\n" for g in GOLD), encoding="utf-8")
    graph = save_graph(build_graph(), tmp_path / "graph.json")
    return graph, gold


def counts(summary: dict) -> tuple[int, int, int]:
    return summary["hits"], summary["gold"], summary["predicted"]


def test_exact_counts_per_year_type_and_pooled(rg: ModuleType, files: tuple[Path, Path]) -> None:
    graph, gold = files
    report = rg.score(rg.read_gold(gold), build_graph())
    assert report["papers_not_in_graph"] == [ABSENT]
    g26, g18, pooled = (report["groups"][k] for k in ("2026", "2018", "all"))
    assert list(report["groups"]) == ["2026", "2018", "all"]

    # 2026: hits MATH500, PPO, SFT (reversed); misses GRPO (direction), AIME'24 (type) and the
    # absent paper's relation; FPs the duplicate, the reversed and the mistyped edge
    assert counts(g26["relations"]) == (3, 6, 6)
    assert counts(g18["relations"]) == (1, 1, 2)
    assert counts(pooled["relations"]) == (4, 7, 8)
    assert pooled["relations"]["precision"] == 0.5
    assert pooled["relations"]["recall"] == pytest.approx(4 / 7)
    by_type = pooled["relations_by_type"]
    assert counts(by_type["EVALUATED_ON"]) == (1, 2, 3)
    assert counts(by_type["USED_FOR"]) == (1, 3, 3)
    assert counts(by_type["COMPARED_WITH"]) == (1, 1, 1)
    assert counts(by_type["IS_A"]) == (1, 1, 1)
    assert counts(by_type["MEASURED_BY"]) == (0, 0, 0)  # the uncertain one is not judged

    # results: 52.1 and 4.6 hit; 8.6 on MMStar (gold: MM-Vet) and 52.13 are FPs; -6.7 ignored
    assert counts(g26["results"]) == (2, 4, 4)
    assert counts(g18["results"]) == (1, 1, 1)
    assert counts(pooled["results"]) == (3, 5, 5)
    assert pooled["results_method_agreement"] == 1.0

    errors = {e["id"]: e for e in report["errors"]}
    assert {m["relation"] for m in errors[P26]["relation_misses"]} == {
        "GRPO -USED_FOR-> ReMix",
        "ReMix -EVALUATED_ON-> AIME'24",
    }
    assert [m["result"] for m in errors[P26]["result_misses"]] == ["+8.6% on MM-Vet [ReMix]"]
    assert not errors[ABSENT]["in_graph"]


def test_a_right_prediction_turns_a_miss_into_a_hit(
    rg: ModuleType, files: tuple[Path, Path]
) -> None:
    G = build_graph()
    G.add_edge("method:grpo", "method:remix", key="USED_FOR", type="USED_FOR", papers=["p26AbC"])
    G.add_node("dataset:mm-vet", label="Dataset", name="MM-Vet", aliases=[])
    G.add_edge("result:2", "dataset:mm-vet", key="ON_DATASET", type="ON_DATASET")
    report = rg.score(rg.read_gold(files[1]), G)
    g26 = report["groups"]["2026"]
    assert counts(g26["relations"]) == (4, 6, 7)  # the reversed edge stays a false positive
    assert counts(g26["relations_by_type"]["USED_FOR"]) == (2, 3, 4)
    assert counts(g26["results"]) == (3, 4, 4)  # one of its datasets is the gold's; 52.13 stays FP


def test_a_task_the_result_is_measured_on_stands_for_the_gold_dataset(
    rg: ModuleType, files: tuple[Path, Path]
) -> None:
    G = build_graph()
    G.add_node("task:mm-vet", label="Task", name="MM-Vet", aliases=[])
    G.add_edge("result:2", "task:mm-vet", key="FOR_TASK", type="FOR_TASK")
    g26 = rg.score(rg.read_gold(files[1]), G)["groups"]["2026"]
    assert counts(g26["results"]) == (3, 4, 4)  # as with the dataset itself


def test_main_prints_json_and_errors(
    rg: ModuleType, files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    graph, gold = files
    assert rg.main([str(graph), "--gold", str(gold), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "errors" not in report
    assert counts(report["groups"]["all"]["relations"]) == (4, 7, 8)
    assert rg.main([str(graph), "--gold", str(gold), "--errors"]) == 0
    out = capsys.readouterr().out
    assert "== ICLR 2026 (2 papers) ==" in out and "== pooled (3 papers) ==" in out
    assert "miss        GRPO -USED_FOR-> ReMix" in out
    assert "fp          ReMix -USED_FOR-> GRPO" in out
    assert "(paper not in the graph)" in out


def test_numbers_compare_at_the_written_precision(rg: ModuleType) -> None:
    def gold(value: str, number: float):  # noqa: ANN202
        return rg.GoldResult(value, number, rg.decimals_of(value, number), None, None, False)

    assert rg.decimals_of("52.10%", 52.1) == 2 and rg.decimals_of("30x", 30) == 0
    assert rg.same_number(gold("52.10%", 52.1), 52.1)
    assert not rg.same_number(gold("52.10%", 52.1), 52.13)
    assert rg.same_number(gold("+6.7 points", 6.7), -6.7)
    assert not rg.same_number(gold("85%", 85.0), 0.85)
    assert not rg.same_number(gold("85%", 85.0), None)
    assert rg.surface_forms("Graph Signal Processing (GSP)") == [
        "Graph Signal Processing (GSP)",
        "Graph Signal Processing",
        "GSP",
    ]


def test_abstract_only_leaves_what_the_title_states_out_of_both_sides(
    rg: ModuleType, files: tuple[Path, Path]
) -> None:
    """For gold whose annotators read the abstract alone: a relation the title states is
    neither a gold item nor a prediction (a link's evidence for a paper is its title when no
    sentence of its abstract states it)."""
    G = build_graph()
    G.nodes["p26AbC"]["title"] = "ReMix: PPO for Reasoning"
    G["method:ppo"]["method:remix"]["USED_FOR"]["evidence"] = ["ReMix: PPO for Reasoning"]
    G["method:remix"]["method:grpo"]["USED_FOR"]["evidence"] = ["ReMix: PPO for Reasoning"]
    gold = [
        {**GOLD[0], "title": "ReMix: PPO for Reasoning",
         "relations": [*GOLD[0]["relations"],
                       rel("ReMix", "USED_FOR", "Reasoning", sentence="ReMix: PPO for Reasoning")]},
    ]  # fmt: skip
    path = files[1].with_name("titled.jsonl")
    path.write_text("".join(json.dumps(g) + "\n" for g in gold), encoding="utf-8")
    assert counts(rg.score(rg.read_gold(path), G)["groups"]["2026"]["relations"]) == (3, 6, 6)
    # the PPO hit and the reversed-GRPO FP (title evidence) and the title's gold miss go
    g26 = rg.score(rg.read_gold(path), G, abstract_only=True)["groups"]["2026"]
    assert counts(g26["relations"]) == (2, 5, 4)


@pytest.mark.parametrize("name", ["iclr_relations_dev.jsonl", "iclr_results_dev.jsonl"])
def test_the_development_samples_in_the_repository_read(rg: ModuleType, name: str) -> None:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / name
    papers = rg.read_gold(path)
    assert len({p.id for p in papers}) == len(papers) >= 40
    assert {r.type for p in papers for r in p.relations} <= set(rg.REL_TYPES)
    assert all(p.title and r.sentence for p in papers for r in p.relations)
    if name.startswith("iclr_results"):
        assert sum(not r.uncertain for p in papers for r in p.results) >= 60
