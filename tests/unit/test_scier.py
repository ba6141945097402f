"""SciER's loader, text units, definition convention and scoring, on hand-written records in
SciER's format (tests/fixtures/scier) with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.evaluate.scier import (
    format_table,
    load_split,
    passages,
    predict,
    scier_spans,
    score_scier,
)
from kg.models import Mention
from kg.schema import Label, Rel

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "scier"


def test_loader_reads_papers_as_text_and_character_spans() -> None:
    docs = load_split(FIXTURE, "test")
    assert [d.doc_key for d in docs] == ["toy_paper_1", "toy_paper_2"]
    d = docs[0]
    assert d.text.startswith("We train a convolutional neural network ( CNN ) for image")
    assert d.sentence_starts == [0, d.text.index("We evaluate")]
    spans = [(d.text[s:e], label) for s, e, label in d.gold]
    assert spans == [("convolutional neural network", "Method"), ("CNN", "Method"),
                     ("image classification", "Task"), ("ImageNet", "Dataset")]
    assert [d.doc_key for d in load_split(FIXTURE, "ood")] == ["toy_ood_1"]


def test_loader_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown SciER split"):
        load_split(FIXTURE, "train")  # SciER's train split is not kg's to use
    with pytest.raises(InputError, match="not found"):
        load_split(tmp_path, "dev")
    (tmp_path / "dev.jsonl").write_text('{"doc_id": "x"}\n')
    with pytest.raises(InputError, match="dev.jsonl:1"):
        load_split(tmp_path, "dev")
    record = {"doc_id": "x", "sentences": [["A", "B"]], "ner": [[[0, 0, "Metric"]]]}
    (tmp_path / "dev.jsonl").write_text(json.dumps(record) + "\n")
    with pytest.raises(InputError, match="unknown entity types"):
        load_split(tmp_path, "dev")


def test_passages_cover_the_paper_at_sentence_boundaries() -> None:
    d = load_split(FIXTURE, "test")[0]
    pieces = passages(d, 5)  # the first sentence (13 tokens) closes a piece on its own
    assert [offset for offset, _ in pieces] == d.sentence_starts
    for offset, text in pieces:
        assert d.text[offset : offset + len(text)] == text
    assert " ".join(text for _, text in pieces) == d.text
    assert passages(d, 0) == [(0, d.text)]


def test_predictions_come_back_in_the_papers_offsets() -> None:
    docs = load_split(FIXTURE, "test")

    def one_word_per_text(texts: list[str]) -> list[list[tuple[int, int, str]]]:
        # each text's last word before the full stop, typed Material (kg's Dataset)
        return [[(len(t) - 2 - len(t.split()[-2]), len(t) - 2, "Material")] for t in texts]

    per_sentence = predict(one_word_per_text, docs, max_words=1)
    assert [[docs[0].text[s:e] for s, e, _ in per_sentence[0]],
            [docs[1].text[s:e] for s, e, _ in per_sentence[1]]] == [
        ["classification", "ImageNet"], ["hard"]]
    whole = predict(one_word_per_text, docs, max_words=0)
    assert [docs[0].text[s:e] for s, e, _ in whole[0]] == ["ImageNet"]


def test_scores_map_dataset_and_ignore_types_scier_does_not_annotate() -> None:
    gold = [[(0, 10, "Method"), (20, 30, "Task"), (40, 48, "Dataset")]]
    pred = [[
        (0, 10, "Method"),  # exact TP
        (18, 30, "Task"),  # boundary error: exact FP + FN, relaxed TP
        (40, 48, "Material"),  # kg's Dataset in SciERC's labels: exact TP
        (50, 55, "Metric"),  # SciER has no metrics: not scored, not a false positive
        (60, 65, "OtherScientificTerm"),  # nor concepts
    ]]
    s = score_scier(gold, pred)
    assert list(s.exact) == ["Method", "Task", "Dataset", "micro"]
    m = s.exact["micro"]
    assert (m.tp, m.fp, m.fn) == (2, 1, 1)
    assert (s.exact["Dataset"].tp, s.exact["Task"].fp, s.exact["Task"].fn) == (1, 1, 1)
    r = s.relaxed["micro"]
    assert (r.tp, r.fp, r.fn) == (3, 0, 0)
    wrong_type = score_scier(gold, [[(40, 48, "Method")]])
    assert (wrong_type.exact["Method"].fp, wrong_type.exact["Dataset"].fn) == (1, 1)
    table = format_table(s, "toy")
    assert "Dataset" in table and "Material" not in table and "micro" in table


def _mention(text: str, whole: str, label: Label, source: str) -> Mention:
    start = whole.index(text)
    return Mention(start, start + len(text), text, label, Rel.USES, whole, source=source)


def test_a_definition_is_scored_as_long_form_and_acronym() -> None:
    text = "We train a convolutional neural network ( CNN ) on ImageNet ."
    mentions = [
        _mention("convolutional neural network ( CNN )", text, Label.METHOD, "model"),
        _mention("CNN", text, Label.METHOD, "defined"),
        _mention("ImageNet", text, Label.DATASET, "gazetteer"),
        _mention("network", text, Label.CONCEPT, "head"),  # derived: left out
    ]
    spans = [(text[s:e], label) for s, e, label in scier_spans(mentions)]
    assert spans == [("convolutional neural network", "Method"), ("CNN", "Method"),
                     ("ImageNet", "Material")]


def test_cli_scores_kg_on_the_fixture() -> None:
    from click.testing import CliRunner

    from kg.cli import main

    args = ["eval", "scier", "--data", str(FIXTURE), "--split", "test", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["split"], out["n_docs"]) == ("test", 2)
    assert out["exact"]["micro"]["tp"] + out["exact"]["micro"]["fn"] == 5  # gold mentions
    assert out["exact"]["Dataset"]["tp"] == 1  # kg finds ImageNet whatever else changes
    table = CliRunner().invoke(main, ["eval", "scier", "--data", str(FIXTURE), "--split", "ood"])
    assert table.exit_code == 0, table.output
    assert "SciER ood" in table.output and "1 papers" in table.output


def test_cli_reports_missing_data(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kg.cli import main

    result = CliRunner().invoke(main, ["eval", "scier", "--data", str(tmp_path)])
    assert result.exit_code != 0
    assert "SciER file not found" in result.output
