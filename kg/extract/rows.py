"""Extraction results as rows: the form they travel between processes and are cached in.

A :data:`RawMention` is a ``kg_mentions`` dict as a tuple, with its merge key: a conference's
mentions come back from the cache on every build, and as tuples they decode faster (marshal)
and take much less memory than dicts. :func:`doc_mentions` makes them :class:`Mention` s.

A text's rows are its mention rows followed by its :data:`RawRelation` rows (``kg_relations``),
which name their arguments by index into the mentions: one flat list, so that the workers, the
warm extractor and the cache carry relations exactly as they carried mentions.
:func:`split_rows` tells them apart (by width), :func:`doc_relations` makes the relations.
"""

from __future__ import annotations

from typing import Any

from kg.extract.normalize import normalize_key
from kg.models import Mention, RelationMention
from kg.schema import Label, Rel

#: Enum members by value: a dict look-up, where ``Label(value)`` costs a Python call (and this
#: runs for every mention of a corpus).
_LABEL = {label.value: label for label in Label}
_REL = {rel.value: rel for rel in Rel}


#: A mention as extraction hands it over and the cache keeps it: the fields of a
#: ``kg_mentions`` dict in this order, with its merge key. Tuples, not dicts: a conference's
#: mentions come back from the cache on every build, and as tuples they decode faster
#: (marshal) and take much less memory (measured: docs/benchmarks.md).
RawMention = tuple[int, int, str, str, str, int, int, str, float, str, str, bool]


#: A relation as extraction hands it over (a ``kg_relations`` row): head and tail (indexes into
#: the text's mentions), type, evidence sentence, confidence, rule.
RawRelation = tuple[int, int, str, str, float, str]
_RELATION_WIDTH = 6  # a RawMention has 12 fields


def raw_rows(
    found: list[dict[str, Any]], relations: list[dict[str, Any]] | None = None
) -> list[Any]:
    """``kg_mentions``' dicts as :data:`RawMention` rows, with each mention's merge key
    (:func:`normalize_key`): computed in the extraction workers and cached with the mentions,
    it is not computed again on every build (it was a large part of entity resolution's time;
    docs/benchmarks.md). Then ``relations`` (``kg_relations``' rows) as :data:`RawRelation` s.

    >>> rows = raw_rows([], [{"head": 0, "tail": 1, "type": "IS_A", "evidence": "s.",
    ...                       "confidence": 0.9, "rule": "r"}])
    >>> split_rows(rows)
    ([], [(0, 1, 'IS_A', 's.', 0.9, 'r')])
    """
    return _mention_rows(found) + [
        (r["head"], r["tail"], r["type"], r["evidence"], r["confidence"], r["rule"])
        for r in relations or ()
    ]


def split_rows(rows: list[Any]) -> tuple[list[RawMention], list[RawRelation]]:
    """A text's rows as (mention rows, relation rows): the relations are the rows at the end
    that are :data:`RawRelation` wide."""
    n = len(rows)
    while n and len(rows[n - 1]) == _RELATION_WIDTH:
        n -= 1
    if n == len(rows):
        return rows, []  # (no copy: most texts state no relation)
    return rows[:n], rows[n:]


def doc_relations(rows: list[Any], mentions: list[Mention]) -> list[RelationMention]:
    """The relations among a text's rows, their arguments the :class:`Mention` s
    :func:`doc_mentions` made of the same rows (so they follow the mentions through entity
    resolution)."""
    return [
        RelationMention(mentions[head], kind, mentions[tail], evidence, confidence, rule)
        for head, tail, kind, evidence, confidence, rule in split_rows(rows)[1]
        if head < len(mentions) and tail < len(mentions)
    ]


def _mention_rows(found: list[dict[str, Any]]) -> list[RawMention]:
    return [
        (
            m["start"],
            m["end"],
            m["text"],
            m["label"],
            m["role"],
            m["sent_start"],
            m["sent_end"],
            m["canonical"],
            m["confidence"],
            m["source"],
            normalize_key(m["canonical"] or m["text"]),
            m.get("compound", False),
        )
        for m in found
    ]


def doc_mentions(text: str, rows: list[Any]) -> list[Mention]:
    """Mentions from a text's :data:`RawMention` rows (the mentions of one sentence share one
    string for it); its relation rows are :func:`doc_relations`'."""
    rows = split_rows(rows)[0]
    label, rel, mention = _LABEL, _REL, Mention
    sentences: dict[tuple[int, int], str] = {}
    out = []
    for (
        start,
        end,
        surface,
        lab,
        role,
        s0,
        s1,
        canonical,
        confidence,
        source,
        key,
        compound,
    ) in rows:
        sentence = sentences.get((s0, s1))
        if sentence is None:
            sentence = sentences[s0, s1] = text[s0:s1].strip()
        out.append(
            mention(
                start,
                end,
                surface,
                label[lab],
                rel[role],
                sentence,
                canonical,
                "",  # entity: resolution's
                confidence,
                source,
                key,
                compound,
            )
        )
    return out
