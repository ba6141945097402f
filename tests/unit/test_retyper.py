"""The span re-typer (kg/extract/retyper.py) on a hand-made abstract, with the shipped models."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from spacy.tokens import Doc, Span

from kg.extract.extractor import Extractor
from kg.extract.features import StaticVectors, span_features
from kg.extract.pipeline import SHIPPED_MODEL_DIR, load_pipeline
from kg.extract.recogniser import TrainedRecognizer
from kg.extract.retyper import CLASSES, RECOVERY_MODEL, SHIPPED_MODEL, TOKVEC_KEY, Retyper

TEXT = (
    "We present a statistical parser ( SP ) for machine translation and evaluate it on the "
    "Penn Treebank using BLEU ."
)
TEXTS = [
    TEXT,
    "",
    "Deep learning .",
    "We propose FooNet, a sparse encoder for protein folding, and evaluate it on CASP14 with "
    "GDT-TS. FooNet outperforms AlphaFold on long proteins.",
    "Word embeddings help named entity recognition on the CoNLL 2003 dataset.",
]


@pytest.fixture(scope="module")
def nlp() -> Any:
    return load_pipeline()


@pytest.fixture(scope="module")
def recognizer(nlp: Any) -> TrainedRecognizer:
    rec = nlp.get_pipe("kg_trained_ner")
    assert rec.retyper is not None, "the shipped pipeline re-types the recogniser's spans"
    return rec


def tagged(nlp: Any, text: str) -> Doc:
    """``text`` tokenised and POS-tagged by kg's base pipeline, nothing else."""
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name in ("tok2vec", "tagger"):
            doc = proc(doc)
    return doc


def recognised(nlp: Any, rec: TrainedRecognizer, text: str) -> Doc:
    """The recogniser run on ``text``, its token vectors left on the doc."""
    return next(iter(rec.run_ner([tagged(nlp, text)], 1, TOKVEC_KEY)))


@pytest.mark.parametrize("path", [SHIPPED_MODEL, RECOVERY_MODEL])
def test_model_files_are_plain_arrays(path: Any) -> None:
    with np.load(path, allow_pickle=False) as z:  # raises on any pickled object
        assert {"feats", "w_sparse", "w_dense", "bias", "classes"} <= set(z.files)
        assert all(z[k].dtype != object for k in z.files)
        assert tuple(z["classes"]) == CLASSES
    rt = Retyper.load(path)
    assert rt.w_sparse.shape == (len(rt.feats), len(CLASSES))
    assert rt.vectors is None and rt.scorer is None  # no recogniser given: classifier alone


def test_recovered_phrases_lie_outside_the_recognisers_spans(
    nlp: Any, recognizer: TrainedRecognizer
) -> None:
    assert recognizer.recovery is not None and recognizer.recovery.alpha == 0.0
    for text in TEXTS:
        doc = recognised(nlp, recognizer, text)
        found = list(doc.ents)
        recovered = recognizer._recovered(doc, found)
        doc.user_data.pop(TOKVEC_KEY, None)
        for s, e, label in recovered:
            assert label in CLASSES[:5]
            assert not any(f.start < e and s < f.end for f in found)
            assert all(t.tag_.startswith(("NN", "JJ", "VB", "CD", "HYPH")) for t in doc[s:e])
            assert doc[e - 1].tag_.startswith("NN")  # a phrase ends at its noun
    # Were the recogniser to miss every phrase of a sentence, the model keeps the entities.
    doc = recognised(nlp, recognizer, "We use dynamic programming and beam search for "
                     "decoding , and report word error rate on spontaneous speech .")
    kept = {doc[s:e].text: label for s, e, label in recognizer._recovered(doc, [])}
    doc.user_data.pop(TOKVEC_KEY, None)
    assert kept.get("dynamic programming") == "Method"
    assert kept.get("spontaneous speech") == "Material"
    assert "word error rate" not in kept or kept["word error rate"] == "Metric"


def test_retype_changes_keeps_and_drops(nlp: Any, recognizer: TrainedRecognizer) -> None:
    doc = recognised(nlp, recognizer, TEXT)
    assert doc.user_data[TOKVEC_KEY].shape[0] == len(doc)
    words = [t.text for t in doc]

    def span(text: str, label: str) -> Span:
        start = words.index(text.split()[0])
        return Span(doc, start, start + len(text.split()), label=label)

    # Wrong types on purpose, one right one, a pronoun and a stray preposition.
    given = [
        span("statistical parser", "Task"),
        span("SP", "Task"),
        span("machine translation", "Method"),
        span("it", "Method"),
        span("on", "Method"),
        span("Penn Treebank", "Method"),
        span("BLEU", "Metric"),
    ]
    doc.ents = given
    out = recognizer.retyper.retype(doc, list(doc.ents))  # type: ignore[union-attr]
    assert [(s.text, s.label_) for s in out] == [
        ("statistical parser", "Method"),  # changed
        ("SP", "Method"),  # changed: an acronym of a method
        ("machine translation", "Task"),  # changed
        ("Penn Treebank", "Material"),  # changed
        ("BLEU", "Metric"),  # kept
    ]  # "it" (Generic) and "on" (not an entity) dropped
    assert TOKVEC_KEY not in doc.user_data  # retype consumed the token vectors


def test_recogniser_term_and_vector_tables(nlp: Any, recognizer: TrainedRecognizer) -> None:
    rt = recognizer.retyper
    assert rt is not None and rt.vectors is not None
    doc = recognised(nlp, recognizer, TEXT)
    tokvecs = doc.user_data.pop(TOKVEC_KEY)
    words, tags = [t.text for t in doc], [t.tag_ for t in doc]
    spans = [(3, 5), (9, 11), (14, 15), (16, 18)]
    with_ner = rt.proba(words, tags, spans, tokvecs)
    without = rt.proba(words, tags, spans, None)
    assert not np.allclose(with_ner, without)
    assert np.allclose(with_ner.sum(1), 1.0)
    # The recogniser says "on" starts no entity: that alone makes it NONE.
    assert CLASSES[int(np.argmax(with_ner[2]))] == "NONE"
    assert CLASSES[int(np.argmax(without[2]))] != "NONE"
    # The projected vector tables give what training's dense features give (StaticVectors.span).
    plain = Retyper(rt.feats, rt.w_sparse, rt.w_dense, rt.bias, alpha=0.0, consistency=False)
    sv = StaticVectors(nlp.vocab)
    logits = np.log(plain.proba(words, tags, spans))
    plain.set_vectors(sv)
    logits_sv = np.log(plain.proba(words, tags, spans))
    dense = np.stack([sv.span(words, s, e) for s, e in spans]) @ rt.w_dense
    shift = logits_sv - logits - dense
    assert np.allclose(shift - shift[:, :1], 0.0, atol=1e-4)  # equal up to normalisation


def test_pipe_batches_leave_no_token_vectors(nlp: Any, recognizer: TrainedRecognizer) -> None:
    docs = list(nlp.pipe(TEXTS, batch_size=2))
    assert all(TOKVEC_KEY not in d.user_data for d in docs)
    assert any(d._.kg_mentions for d in docs)
    # Batched and one-by-one runs give each doc its own rows.
    batch = list(recognizer.run_ner([tagged(nlp, t) for t in TEXTS], 4, TOKVEC_KEY))
    for text, doc in zip(TEXTS, batch, strict=True):
        alone = recognised(nlp, recognizer, text)
        if len(doc):
            assert doc.user_data[TOKVEC_KEY].shape == (len(doc), 64)
            assert np.allclose(doc.user_data.pop(TOKVEC_KEY), alone.user_data.pop(TOKVEC_KEY),
                               atol=1e-5)
        doc.user_data.pop(TOKVEC_KEY, None)


def test_forked_workers_match_one_process() -> None:
    texts = TEXTS * 3
    one = list(Extractor(n_process=1).raw_mentions(texts))
    assert list(Extractor(n_process=2).raw_mentions(texts)) == one


def test_deterministic(nlp: Any, recognizer: TrainedRecognizer) -> None:
    doc = recognised(nlp, recognizer, TEXT)
    tokvecs = doc.user_data.pop(TOKVEC_KEY)
    words, tags = [t.text for t in doc], [t.tag_ for t in doc]
    spans = [(e.start, e.end) for e in doc.ents]
    assert span_features(words, tags, 3, 5) == span_features(words, tags, 3, 5)
    again = Retyper.load(SHIPPED_MODEL, ner=recognizer.model.get_pipe("ner"))
    first = recognizer.retyper.proba(words, tags, spans, tokvecs)  # type: ignore[union-attr]
    assert np.array_equal(first, again.proba(words, tags, spans, tokvecs))
    assert np.array_equal(first, again.proba(words, tags, spans, tokvecs))


def test_disabled_without_a_model_file(nlp: Any, tmp_path: Any) -> None:
    rec = TrainedRecognizer(nlp, str(SHIPPED_MODEL_DIR), str(tmp_path / "absent.npz"))
    assert rec.retyper is None and rec.recovery is None
    doc = rec(tagged(nlp, TEXT))
    assert TOKVEC_KEY not in doc.user_data and len(doc.spans["kg_candidates"]) > 0
