"""The SciERC scorer and loader on tiny hand-made examples with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.evaluate.scierc import (
    doc_from_record,
    evaluate,
    format_table,
    kg_to_scierc,
    load_split,
    score,
)

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "scierc"


def test_loader_builds_text_and_char_spans() -> None:
    docs = load_split(FIXTURE, "dev")
    assert [d.doc_key for d in docs] == ["toy_1", "toy_2"]
    d = docs[0]
    # PTB escapes become brackets; tokens are joined by single spaces
    assert d.text == "We propose a parser ( TP ) . It improves accuracy on Penn Treebank ."
    spans = {(d.text[s:e], label) for s, e, label in d.gold}
    assert spans == {("parser", "Generic"), ("TP", "Method"), ("accuracy", "Metric"),
                     ("Penn Treebank", "Material")}
    assert d.sentence_starts == [0, d.text.index("It")]
    assert docs[1].gold == [(0, 19, "Task")]


def test_loader_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_split(tmp_path, "test")
    (tmp_path / "test.json").write_text('{"doc_key": "x"}\n')
    with pytest.raises(InputError, match="test.json:1"):
        load_split(tmp_path, "test")


def test_exact_and_relaxed_counts() -> None:
    gold = [[(0, 10, "Method"), (20, 30, "Task"), (40, 45, "Metric"), (50, 55, "Generic")]]
    pred = [[
        (0, 10, "Method"),  # exact TP
        (18, 30, "Task"),  # boundary error: exact FP+FN, relaxed TP
        (40, 45, "Material"),  # wrong type: FP for Material, FN for Metric (both modes)
        (50, 55, "OtherScientificTerm"),  # covers a Generic gold: still a false positive
    ]]
    s = score(gold, pred)
    m = s.exact["micro"]
    assert (m.tp, m.fp, m.fn) == (1, 3, 2)
    assert m.precision == pytest.approx(1 / 4)
    assert m.recall == pytest.approx(1 / 3)
    assert m.f1 == pytest.approx(2 * (1 / 4) * (1 / 3) / (1 / 4 + 1 / 3))
    r = s.relaxed["micro"]
    assert (r.tp, r.fp, r.fn) == (2, 2, 1)
    assert (s.exact["Task"].tp, s.exact["Task"].fp, s.exact["Task"].fn) == (0, 1, 1)
    assert (s.exact["Material"].fp, s.exact["Metric"].fn) == (1, 1)
    # untyped boundaries: (0,10), (40,45) match; (50,55) is Generic gold, not scored
    assert (s.span.tp, s.span.fp, s.span.fn) == (2, 2, 1)


def test_relaxed_matching_is_one_to_one() -> None:
    gold = [[(0, 5, "Task"), (6, 10, "Task")]]
    pred = [[(0, 10, "Task")]]  # one long prediction overlapping two gold spans
    r = score(gold, pred).relaxed["micro"]
    assert (r.tp, r.fp, r.fn) == (1, 0, 1)


def test_empty_and_perfect() -> None:
    s = score([[]], [[]])
    assert s.exact["micro"].f1 == 0.0
    gold = [[(0, 3, "Task")], [(1, 2, "Metric")]]
    assert score(gold, gold).exact["micro"].f1 == 1.0
    with pytest.raises(ValueError):
        score(gold, [[]])


def test_duplicate_predictions_count_once() -> None:
    s = score([[(0, 3, "Task")]], [[(0, 3, "Task"), (0, 3, "Task")]])
    assert (s.exact["micro"].tp, s.exact["micro"].fp) == (1, 0)


def test_kg_types_map_to_scierc() -> None:
    from kg.schema import Label

    spans = [(0, 1, Label.DATASET), (2, 3, "Concept"), (4, 5, Label.PAPER), (6, 7, "Method")]
    assert kg_to_scierc(spans) == [(0, 1, "Material"), (2, 3, "OtherScientificTerm"),
                                   (6, 7, "Method")]


def test_evaluate_with_a_fake_extractor() -> None:
    docs = load_split(FIXTURE, "dev")

    def extract(texts: list[str]) -> list[list[tuple[int, int, str]]]:
        out = []
        for t in texts:
            i = t.find("Penn Treebank")
            out.append([(i, i + 13, "Material")] if i >= 0 else [])
        return out

    s = evaluate(extract, docs)
    m = s.exact["micro"]
    assert (m.tp, m.fp, m.fn) == (1, 0, 3)
    table = format_table(s, "toy")
    assert "Material" in table and "micro" in table
    assert json.loads(json.dumps(s.as_dict()))["exact"]["micro"]["tp"] == 1


def test_record_with_nested_spans_keeps_both() -> None:
    rec = {"doc_key": "n", "sentences": [["a", "b", "c"]], "ner": [[[0, 2, "Task"],
           [1, 1, "Method"]]], "relations": [[]], "clusters": []}
    d = doc_from_record(rec)
    assert d.gold == [(0, 5, "Task"), (2, 3, "Method")]


def test_cli_reports_missing_data(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kg.cli import main

    result = CliRunner().invoke(main, ["eval", "scierc", "--data", str(tmp_path),
                                       "--component", "model"])
    assert result.exit_code == 1
    assert "SciERC file not found" in result.output


def test_predictions_in_scierc_format_score_like_the_spans_they_came_from(tmp_path: Path) -> None:
    """Gold spans written as predictions give back SciERC's own ``ner`` lists, and a scorer
    reading the file scores them perfectly."""
    from kg.evaluate.scierc_format import write_predictions

    docs = load_split(FIXTURE, "dev")
    path = write_predictions(docs, [d.gold for d in docs], tmp_path / "pred.json")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    originals = [
        json.loads(line) for line in (FIXTURE / "dev.json").read_text().splitlines() if line
    ]
    for written, original in zip(records, originals, strict=True):
        assert written["sentences"] == original["sentences"]
        assert written["ner"] == [sorted(s) for s in original["ner"]]
        assert written["relations"] == [[] for _ in original["sentences"]]
    again = [doc_from_record(r) for r in records]
    assert score([d.gold for d in docs], [d.gold for d in again]).exact["micro"].f1 == 1.0


def test_cli_writes_the_extractors_predictions_and_scores_them_alike(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kg.cli import main

    out = tmp_path / "pred.json"
    args = ["eval", "scierc", "--data", str(FIXTURE), "--split", "dev", "--json"]
    result = CliRunner().invoke(main, [*args, "--predictions", str(out)])
    assert result.exit_code == 0, result.output
    reported = json.loads(result.stdout)["exact"]["micro"]
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["doc_key"] for r in records] == ["toy_1", "toy_2"]
    predicted = [doc_from_record(r).gold for r in records]
    gold = [d.gold for d in load_split(FIXTURE, "dev")]
    again = score(gold, predicted).exact["micro"]
    assert (again.tp, again.fp, again.fn) == (reported["tp"], reported["fp"], reported["fn"])
