"""Mentions made from extraction rows (:func:`kg.extract.rows.doc_mentions`)."""

from __future__ import annotations

import marshal

from kg.extract.rows import doc_mentions, raw_rows
from kg.schema import Label, Rel


def _found(start: int, text: str, canonical: str = "", confidence: float = 0.8) -> dict:
    return {"start": start, "end": start + len(text), "text": text, "label": "Dataset",
            "role": "USES", "sent_start": 0, "sent_end": 40, "canonical": canonical,
            "confidence": confidence, "source": "model"}  # fmt: skip


def _from_cache(rows: list) -> list:
    # As a build reads them back: every field a fresh object, none shared between texts.
    return marshal.loads(marshal.dumps(rows))


def test_mentions_keep_every_field_of_their_rows() -> None:
    text = "We evaluate on ImageNet and Penn Treebank (PTB)." + " " * 5000
    rows = raw_rows([_found(15, "ImageNet"), _found(43, "PTB", "Penn Treebank", 1.0),
                     _found(4500, "far")], [], [])  # fmt: skip
    first, second, far = doc_mentions(text, _from_cache(rows))
    assert (first.start, first.end, first.text, first.canonical) == (15, 23, "ImageNet", "")
    assert (first.type, first.role, first.confidence, first.source) == (
        Label.DATASET, Rel.USES, 0.8, "model")
    assert first.key == "imagenet" and first.sentence == text[:40].strip()
    assert (second.canonical, second.confidence, second.key) == (
        "Penn Treebank", 1.0, "penn-treebank")
    assert (far.start, far.end) == (4500, 4503)  # past the shared offsets


def test_repeated_fields_are_one_object_across_texts() -> None:
    """A big build holds every mention of its corpus: a value repeated across mentions is
    held once."""
    text = " " * 300 + "On ImageNet, ImageNet."  # (offsets past CPython's small ints)
    made = [
        doc_mentions(text, _from_cache(raw_rows(
            [_found(303, "ImageNet", "ImageNet"), _found(313, "ImageNet", "ImageNet")], [], [])))
        for _ in range(2)
    ]  # fmt: skip
    (a, b), (c, _) = made
    assert a.source is c.source and a.key is c.key
    assert a.confidence is c.confidence and a.start is c.start and b.end is made[1][1].end
    assert a.canonical is a.text  # the canonical form written as the text is the text
