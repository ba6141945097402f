"""kg's numpy decoder of the recogniser (kg/extract/fast/ner_decode.py) finds what spaCy's
finds, and the fence around it (kg.extract.fast) falls back to spaCy's where it must."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc, Span

from kg.extract import fast
from kg.extract.fast import FastPathWarning, ner_decode, spacy_ner_pipe
from kg.extract.pipeline import SHIPPED_MODEL_DIR, load_pipeline

SEEDS = sorted((Path(__file__).parents[2] / "seeds").glob("*.txt"))

TEXTS = [
    "We propose SparseFormer, a transformer for image classification on ImageNet.",
    "Graph neural networks (GNNs) learn node embeddings.  We evaluate them on Cora and "
    "PubMed with accuracy and F1.\n\nOur method beats GraphSAGE.",
    "BLEU",  # one token
    "",  # no tokens
    "Results  on \t COCO and  LVIS show gains in mAP. A new loss. Another sentence here",
]


@pytest.fixture(scope="module")
def host() -> Any:
    """kg's pipeline, and docs as they reach the recogniser (tagged, split into sentences)."""
    nlp = load_pipeline()
    texts = TEXTS + [p.read_text()[:3000] for p in SEEDS[:3]]
    return nlp, list(nlp.pipe(texts, disable=["kg_trained_ner", "kg_mentions", "kg_roles"]))


def spacy_entities(ner: Any, docs: list[Doc]) -> list[list[tuple[int, int, str]]]:
    out = list(ner.pipe([d.copy() for d in docs], batch_size=4))
    return [[(e.start, e.end, e.label_) for e in d.ents] for d in out]


def recogniser(nlp: Any, seed: int | None = None) -> Any:
    """The shipped recogniser; with ``seed``, its output layer replaced by random weights, so
    that every kind of action wins somewhere (the trained model seldom tries an invalid one)."""
    model = spacy.load(SHIPPED_MODEL_DIR, vocab=nlp.vocab, exclude=["tokenizer"])
    ner = model.get_pipe("ner")
    if seed is not None:
        upper = ner.model.layers[2]
        rng = np.random.default_rng(seed)
        upper.set_param("W", rng.normal(0, 1, upper.get_param("W").shape).astype(np.float32))
        upper.set_param("b", rng.normal(0, 1, upper.get_param("b").shape).astype(np.float32))
    return ner


def test_the_shipped_recogniser_is_decoded_in_numpy(host: Any) -> None:
    nlp, _ = host
    assert ner_decode.unsupported(recogniser(nlp)) is None


def test_same_entities_as_spacy_with_the_shipped_model(host: Any) -> None:
    nlp, docs = host
    ner = recogniser(nlp)
    want = spacy_entities(ner, docs)
    assert sum(map(len, want)) > 20  # the comparison has something to compare
    assert ner_decode.decode(ner, [d.copy() for d in docs])[0] == want


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_same_entities_as_spacy_with_random_scores(host: Any, seed: int) -> None:
    nlp, docs = host
    ner = recogniser(nlp, seed)
    want = spacy_entities(ner, docs)
    # Random scores try every action: entities that would cross a sentence boundary, start on
    # whitespace or run off the end of the doc are what the validity rules forbid.
    assert sum(map(len, want)) > 100
    assert ner_decode.decode(ner, [d.copy() for d in docs])[0] == want


def test_the_recogniser_needs_none_of_its_own_strings(host: Any) -> None:
    """kg's pipeline loads the recogniser without its strings.json (kg_trained_ner): the same
    entities as the recogniser loaded with them."""
    nlp, docs = host
    bare = nlp.get_pipe("kg_trained_ner").model.get_pipe("ner")
    got = spacy_entities(bare, docs)
    assert sum(map(len, got)) > 20
    assert got == spacy_entities(recogniser(nlp), docs)  # (this one loads them)


def test_pipe_sets_entities_and_marks_the_rest_outside(host: Any) -> None:
    nlp, docs = host
    ner = recogniser(nlp, seed=5)
    want = list(ner.pipe([d.copy() for d in docs], batch_size=3))
    got = list(ner_decode.pipe(ner, [d.copy() for d in docs], batch_size=3))
    for a, b in zip(want, got, strict=True):
        assert [(e.start, e.end, e.label_) for e in a.ents] == [
            (e.start, e.end, e.label_) for e in b.ents
        ]
        assert [t.ent_iob_ for t in a] == [t.ent_iob_ for t in b]


def test_docs_with_preset_entities_go_to_spacy(host: Any) -> None:
    nlp, docs = host
    ner = recogniser(nlp, seed=6)
    doc = docs[1].copy()
    doc.set_ents([Span(doc, 0, 3, label="Task")], default="unmodified")
    assert ner_decode.has_preset_entities(doc)
    (out,) = list(ner_decode.pipe(ner, [doc], batch_size=8))
    # spaCy keeps a preset entity; kg's decoder would not know to.
    assert (0, 3, "Task") in [(e.start, e.end, e.label_) for e in out.ents]


def test_beam_search_and_unseen_classes_are_left_to_spacy(
    host: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    nlp, _ = host
    ner = recogniser(nlp)
    monkeypatch.setitem(ner.cfg, "beam_width", 4)
    assert ner_decode.unsupported(ner) is not None
    ner = recogniser(nlp)
    monkeypatch.setitem(ner.model.attrs, "unseen_classes", {3})
    assert ner_decode.unsupported(ner) is not None


def test_spacys_decoding_leaves_the_same_token_vectors_as_kgs(host: Any) -> None:
    """Under KG_FAST=0 the re-typer's token vectors come from a second run of the recogniser's
    token-to-vector layer: the same rows, to the bit, as kg's decoder keeps from its one run."""
    nlp, docs = host
    ner = recogniser(nlp)
    key = "test_tokvecs"
    ours = list(ner_decode.pipe(ner, [d.copy() for d in docs], 3, key))
    theirs = list(spacy_ner_pipe(ner, [d.copy() for d in docs], 3, key))
    for a, b in zip(ours, theirs, strict=True):
        assert [(e.start, e.end, e.label_) for e in a.ents] == [
            (e.start, e.end, e.label_) for e in b.ents
        ]
        assert a.user_data[key].shape == (len(a), 64)
        assert np.array_equal(a.user_data[key], b.user_data[key])


def test_the_switch_and_the_check_choose_spacys_decoder(
    host: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    nlp, docs = host
    ner = recogniser(nlp)
    want = spacy_entities(ner, docs)
    monkeypatch.setenv("KG_FAST", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # switched off is no fall-back: nothing to warn about
        run = fast.ner_runner(ner)
    monkeypatch.setattr(ner_decode, "pipe", lambda *a: pytest.fail("kg's decoder ran"))
    got = list(run([d.copy() for d in docs], 4, None))
    assert [[(e.start, e.end, e.label_) for e in d.ents] for d in got] == want
    monkeypatch.setenv("KG_FAST", "1")
    monkeypatch.setitem(ner.cfg, "beam_width", 4)
    with pytest.warns(FastPathWarning, match="beam search"):
        run = fast.ner_runner(ner)
    monkeypatch.setitem(ner.cfg, "beam_width", 1)
    got = list(run([d.copy() for d in docs], 4, None))
    assert [[(e.start, e.end, e.label_) for e in d.ents] for d in got] == want
