"""Result nodes end to end on the file side: extraction rows through the cache format, the
graph's Result nodes and links, `kg show`, `kg leaderboard` and `kg extract --jsonl`."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.build import build
from kg.cli import main
from kg.extract.rows import doc_mentions, doc_results, raw_rows, split_rows
from kg.query.canned import get_query
from kg.query.results import higher_is_better, leaderboard, lower_is_better_words
from kg.store.file import save_graph

ABSTRACTS = [
    {"id": "a", "title": "ZetaNet for image classification",
     "abstract": "We propose ZetaNet, a convolutional network for image classification. "
                 "ZetaNet achieves 85.3% top-1 accuracy on ImageNet and improves BLEU by 2.1 "
                 "points on WMT14."},
    {"id": "b", "title": "OmegaNet",
     "abstract": "We propose OmegaNet for image classification. OmegaNet achieves 87.1% "
                 "top-1 accuracy on ImageNet, with a top-1 error of 12.9% on ImageNet."},
]


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("results")
    corpus = folder / "papers.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in ABSTRACTS), encoding="utf-8")
    result = build([corpus], cache_dir=None)
    path = folder / "graph.json"
    save_graph(result.graph, path)
    return path


@pytest.fixture(scope="module")
def G(graph_file: Path) -> nx.MultiDiGraph:
    from kg.store.file import load_graph

    return load_graph(graph_file)


def results(G: nx.MultiDiGraph) -> dict[str, dict[str, Any]]:
    return {n: a for n, a in G.nodes(data=True) if a["label"] == "Result"}


def test_rows_carry_results_with_their_mentions() -> None:
    found = [{"start": 0, "end": 8, "text": "ImageNet", "label": "Dataset", "role": "USES",
              "sent_start": 0, "sent_end": 20, "canonical": "", "confidence": 1.0,
              "source": "model"}]
    result = {"start": 12, "end": 17, "value": "85.3%", "number": 85.3, "unit": "%",
              "relative": False, "evidence": "s", "method": None, "dataset": 0, "metric": None,
              "task": None}
    rows = raw_rows(found, [], [result])
    assert [len(part) for part in split_rows(rows)] == [1, 0, 1]
    mentions = doc_mentions("ImageNet is 85.3% here", rows)
    [r] = doc_results(rows, mentions)
    assert (r.value, r.number, r.relative) == ("85.3%", 85.3, False)
    assert r.dataset is mentions[0] and r.method is None


def test_each_claim_is_a_result_node_linked_to_its_paper_and_entities(G: nx.MultiDiGraph) -> None:
    found = results(G)
    by_value = {a["value"]: (n, a) for n, a in found.items()}
    assert {"85.3%", "2.1 points", "87.1%"} <= set(by_value)
    rid, attrs = by_value["85.3%"]
    assert attrs["relative"] is False and attrs["number"] == 85.3 and attrs["unit"] == "%"
    assert "85.3%" in attrs["evidence"] and G.nodes[attrs["paper"]]["label"] == "Paper"
    assert G.has_edge(attrs["paper"], rid, key="REPORTS")
    targets = {k: G.nodes[v]["name"] for _, v, k in G.out_edges(rid, keys=True)}
    assert targets["ON_DATASET"] == "ImageNet" and "accuracy" in targets["IN_METRIC"]
    assert by_value["2.1 points"][1]["relative"] is True
    assert attrs["name"].startswith("85.3%") and attrs["name"].endswith("on ImageNet")


def test_leaderboard_ranks_levels_best_first_and_errors_lowest_first(G: nx.MultiDiGraph) -> None:
    board = leaderboard(G, "imagenet")
    by_metric = {b["metric"]: b for b in board["boards"]}
    accuracy = next(b for m, b in by_metric.items() if m and "accuracy" in m)
    assert [r["value"] for r in accuracy["rows"]] == ["87.1%", "85.3%"]
    assert accuracy["higher_is_better"] and [r["rank"] for r in accuracy["rows"]] == [1, 2]
    errors = [b for m, b in by_metric.items() if m and "error" in m]
    assert all(not b["higher_is_better"] for b in errors)
    # only the levels reached: "improves BLEU by 2.1 points" is a change, and not on ImageNet
    assert all(not r["relative"] for b in board["boards"] for r in b["rows"])


def test_lower_is_better_follows_the_metric_name() -> None:
    assert not higher_is_better("top-1 error") and not higher_is_better("Perplexity")
    assert higher_is_better("accuracy") and higher_is_better("BLEU")


def test_the_canned_leaderboard_uses_the_same_words() -> None:
    """The Cypher query spells kg/query/data/lower_is_better.txt as a regular expression."""
    body = get_query("leaderboard").body
    [alternatives] = re.findall(r"\\\\b\(([^)]*)\)\\\\b", body)
    assert set(alternatives.split("|")) == lower_is_better_words()
    assert resources.files("kg.query").joinpath("data/lower_is_better.txt").is_file()


def test_show_and_leaderboard_commands(graph_file: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["leaderboard", "ImageNet", "--graph", str(graph_file)])
    assert done.exit_code == 0, done.output
    accuracy = done.output.split("ImageNet · ")[1]  # the first board: most results
    first, second = (ln for ln in accuracy.splitlines() if ln.lstrip()[:2] in ("1.", "2."))
    assert "87.1%" in first and "85.3%" in second
    assert "(2 results;" in done.output and "(1 result;" in done.output  # top-1 error: 12.9%
    done = runner.invoke(main, ["leaderboard", "ImageNet", "--metric", "accuracy", "--json",
                                "--graph", str(graph_file)])
    data = json.loads(done.output)
    assert all("accuracy" in b["metric"] for b in data["boards"])
    done = runner.invoke(main, ["leaderboard", "ImageNet", "--metric", "FID",
                                "--graph", str(graph_file)])
    assert done.exit_code != 0 and "FID" in done.output
    done = runner.invoke(main, ["show", "ImageNet", "--graph", str(graph_file)])
    assert done.exit_code == 0 and "result: 85.3%" in done.output
    assert "(Metric; 2 papers)" in done.output
    assert "<-EVALUATED_ON- OmegaNet (Method; 1 paper)\n" in done.output


def test_extract_jsonl_carries_results(tmp_path: Path) -> None:
    corpus = tmp_path / "papers.jsonl"
    corpus.write_text(json.dumps(ABSTRACTS[0]) + "\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["extract", str(corpus), "--jsonl"])
    assert done.exit_code == 0, done.output
    [record] = [json.loads(ln) for ln in done.output.splitlines() if ln.startswith("{")]
    by_value = {r["value"]: r for r in record["results"]}
    level = by_value["85.3%"]
    assert record["mentions"][level["dataset"]]["text"] == "ImageNet"
    assert level["relative"] is False and by_value["2.1 points"]["relative"] is True


def test_a_benchmark_paper_s_unplaced_results_are_on_its_benchmark() -> None:
    from kg.graph.assemble import graph_data
    from kg.models import Entity, Mention, Paper, ResultMention
    from kg.schema import Label, Rel

    def at(text: str, entity: str, label: Label, role: Rel) -> Mention:
        return Mention(0, len(text), text, label, role, "s", entity=entity)

    ents = {
        "dataset:foobench": Entity("dataset:foobench", Label.DATASET, "FooBench"),
        "dataset:gsm8k": Entity("dataset:gsm8k", Label.DATASET, "GSM8K"),
        "method:gpt-5": Entity("method:gpt-5", Label.METHOD, "GPT-5"),
    }
    bench = at("FooBench", "dataset:foobench", Label.DATASET, Rel.PROPOSES)
    gpt = at("GPT-5", "method:gpt-5", Label.METHOD, Rel.USES)
    gsm = at("GSM8K", "dataset:gsm8k", Label.DATASET, Rel.EVALUATES_ON)

    def best() -> ResultMention:
        return ResultMention("36.3%", 36.3, "%", False, "GPT-5 reaches only 36.3%.", 0, 5,
                             method=gpt)  # fmt: skip

    def on(mentions: list[Mention]) -> set[str]:
        data = graph_data([Paper("p", "x")], {"p": mentions}, ents, results={"p": [best()]})
        return {x["target"] for x in data["links"] if x.get("type") == "ON_DATASET"}

    assert on([bench, gpt]) == {"dataset:foobench"}
    # a paper that links another dataset too, or uses one it does not introduce: no guess
    assert on([bench, gpt, gsm]) == set()
    assert on([gsm, gpt]) == set()


def test_a_result_on_a_suite_of_benchmarks_is_in_the_task_they_are_named_by() -> None:
    from kg.graph.assemble import graph_data
    from kg.models import Entity, Mention, Paper, ResultMention
    from kg.schema import Label, Rel

    sentence = "Across six math reasoning benchmarks, ZetaNet gains 7.77 points."
    ents = {
        "task:math-reasoning": Entity("task:math-reasoning", Label.TASK, "math reasoning"),
        "concept:suite": Entity("concept:suite", Label.CONCEPT, "six math reasoning benchmarks"),
        "concept:skills": Entity("concept:skills", Label.CONCEPT, "six math reasoning skills"),
    }

    def task_of(phrase: str, entity: str) -> set[str]:
        start = sentence.index(phrase) if phrase in sentence else 0
        suite = Mention(start, start + len(phrase), phrase, Label.CONCEPT, Rel.MENTIONS,
                        sentence, entity=entity)  # fmt: skip
        task = Mention(90, 104, "math reasoning", Label.TASK, Rel.ADDRESSES, "s",
                       entity="task:math-reasoning")  # fmt: skip
        result = ResultMention("7.77 points", 7.77, "points", True, sentence, 52, 63,
                               dataset=suite)  # fmt: skip
        data = graph_data([Paper("p", "x")], {"p": [suite, task]}, ents, results={"p": [result]})
        return {x["target"] for x in data["links"] if x.get("type") == "FOR_TASK"}

    # The suite makes no node: the result is in the task its words before "benchmarks" name.
    assert task_of("six math reasoning benchmarks", "concept:suite") == {"task:math-reasoning"}
    # Not a phrase that names no suite.
    assert task_of("six math reasoning skills", "concept:skills") == set()
