"""Extraction results as rows: the form they travel between processes and are cached in.

A :data:`RawMention` is a ``kg_mentions`` dict as a tuple, with its merge key: a conference's
mentions come back from the cache on every build, and as tuples they decode faster (marshal)
and take much less memory than dicts. :func:`doc_mentions` makes them :class:`Mention` s.

A text's rows are its mention rows followed by its :data:`RawRelation` rows (``kg_relations``)
and its :data:`RawResult` rows (``kg_results``), which name their mentions by index: one flat
list, so that the workers, the warm extractor and the cache carry relations and results exactly
as they carried mentions. :func:`split_rows` tells them apart (by width), :func:`doc_relations`
and :func:`doc_results` make the relations and the results.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from kg.extract.normalize import normalize_key
from kg.models import Mention, RelationMention, ResultMention
from kg.schema import Label, Rel

#: The ``source`` of the mention "we" stands for in an abstract that names no proposal
#: (:func:`kg.extract.stand_ins.unnamed_proposal`, :data:`UNNAMED_ROW`).
UNNAMED = "unnamed_proposal"

#: Enum members by value: a dict look-up, where ``Label(value)`` costs a Python call (and this
#: runs for every mention of a corpus).
_LABEL = {label.value: label for label in Label}
_REL = {rel.value: rel for rel in Rel}

#: A big build holds its corpus's mentions until its graph is made, and most of their fields
#: repeat: the source ("model", "head"), the merge key, the confidence, the offsets, and the
#: canonical form is mostly the text itself. :func:`doc_mentions` makes one object per value,
#: not one per mention (at 43,020 papers the repeats held about a third of the mentions' memory).
_OFFSETS = tuple(range(4096))
_CONFIDENCES: dict[float, float] = {}
_MAX_CONFIDENCES = 1024  # (confidences are a few rounded values: a bound, should they not be)


#: A mention as extraction hands it over and the cache keeps it: the fields of a
#: ``kg_mentions`` dict in this order, with its merge key. Tuples, not dicts: a conference's
#: mentions come back from the cache on every build, and as tuples they decode faster
#: (marshal) and take much less memory (measured: docs/benchmarks.md).
RawMention = tuple[int, int, str, str, str, int, int, str, float, str, str, bool]


#: A relation as extraction hands it over (a ``kg_relations`` row): head and tail (indexes into
#: the text's mentions), type, evidence sentence, confidence, rule.
RawRelation = tuple[int, int, str, str, float, str]
#: A result as extraction hands it over (a ``kg_results`` row): where its value is
#: (characters), the value as written, its number, unit, whether it is relative, the sentence,
#: and its method, dataset, metric and task as indexes into the text's mentions (-1: none).
RawResult = tuple[int, int, str, float, str, bool, str, int, int, int, int]
#: The index a relation or result row gives the paper's proposal where the abstract names none
#: (:func:`kg.extract.stand_ins.unnamed_proposal`): "our approach" in an abstract whose title
#: alone names it. :func:`doc_relations` and :func:`doc_results` make it a mention of source
#: :data:`UNNAMED` with no entity.
UNNAMED_ROW = -2
_RELATION_WIDTH = 6  # a RawMention has 12 fields, a RawResult 11
_RESULT_WIDTH = 11
_RESULT_ARGS = ("method", "dataset", "metric", "task")


def raw_rows(
    found: list[dict[str, Any]],
    relations: list[dict[str, Any]] | None = None,
    results: list[dict[str, Any]] | None = None,
) -> list[Any]:
    """``kg_mentions``' dicts as :data:`RawMention` rows, with each mention's merge key
    (:func:`normalize_key`): computed in the extraction workers and cached with the mentions,
    it is not computed again on every build (it was a large part of entity resolution's time;
    docs/benchmarks.md). Then ``relations`` (``kg_relations``' rows) as :data:`RawRelation` s
    and ``results`` (``kg_results``' rows) as :data:`RawResult` s.

    >>> rows = raw_rows([], [{"head": 0, "tail": 1, "type": "IS_A", "evidence": "s.",
    ...                       "confidence": 0.9, "rule": "r"}],
    ...                 [{"start": 4, "end": 9, "value": "85.3%", "number": 85.3, "unit": "%",
    ...                   "relative": False, "evidence": "s.", "method": None, "dataset": 0,
    ...                   "metric": None, "task": None}])
    >>> split_rows(rows)
    ([], [(0, 1, 'IS_A', 's.', 0.9, 'r')], [(4, 9, '85.3%', 85.3, '%', False, 's.', -1, 0, -1, -1)])
    """
    return (
        _mention_rows(found)
        + [
            (r["head"], r["tail"], r["type"], r["evidence"], r["confidence"], r["rule"])
            for r in relations or ()
        ]
        + [
            (r["start"], r["end"], r["value"], r["number"], r["unit"], r["relative"],
             r["evidence"], *(-1 if r[k] is None else r[k] for k in _RESULT_ARGS))
            for r in results or ()
        ]  # fmt: skip
    )


def split_rows(rows: list[Any]) -> tuple[list[RawMention], list[RawRelation], list[RawResult]]:
    """A text's rows as (mention rows, relation rows, result rows): the results are the rows at
    the end that are :data:`RawResult` wide, the relations those before them that are
    :data:`RawRelation` wide."""
    n = len(rows)
    while n and len(rows[n - 1]) == _RESULT_WIDTH:
        n -= 1
    r = n
    while r and len(rows[r - 1]) == _RELATION_WIDTH:
        r -= 1
    if r == len(rows):
        return rows, [], []  # (no copy: most texts state no relation and report no result)
    return rows[:r], rows[r:n], rows[n:]


def doc_relations(rows: list[Any], mentions: list[Mention]) -> list[RelationMention]:
    """The relations among a text's rows, their arguments the :class:`Mention` s
    :func:`doc_mentions` made of the same rows (so they follow the mentions through entity
    resolution)."""
    mention = _by_index(mentions)
    return [
        RelationMention(head_mention, kind, tail_mention, evidence, confidence, rule)
        for head, tail, kind, evidence, confidence, rule in split_rows(rows)[1]
        if (head_mention := mention(head)) is not None
        and (tail_mention := mention(tail)) is not None
    ]


def doc_results(rows: list[Any], mentions: list[Mention]) -> list[ResultMention]:
    """The results among a text's rows, with their mentions from :func:`doc_mentions` (like
    :func:`doc_relations`)."""
    mention = _by_index(mentions)
    return [
        ResultMention(value, number, unit, relative, evidence, start, end,
                      mention(method), mention(dataset), mention(metric), mention(task))
        for (start, end, value, number, unit, relative, evidence,
             method, dataset, metric, task) in split_rows(rows)[2]
    ]  # fmt: skip


def mention_index(mentions: Sequence[dict[str, Any]]) -> Callable[[Any], int | None]:
    """A ``kg_mentions`` dict → its index in ``mentions``; :data:`UNNAMED_ROW` for the unnamed
    proposal (:func:`kg.extract.stand_ins.unnamed_proposal`, in no text's mentions); None for
    None or a mention not among them. How relation and result rows name their mentions."""
    index = {id(m): i for i, m in enumerate(mentions)}

    def of(m: Any) -> int | None:
        i = index.get(id(m))
        if i is None and m is not None and m.get("source") == UNNAMED:
            return UNNAMED_ROW
        return i

    return of


def _by_index(mentions: list[Mention]) -> Callable[[int], Mention | None]:
    """A row's mention index → the mention (one unnamed proposal for :data:`UNNAMED_ROW`), or
    None (-1, or an index past the text's mentions)."""
    n = len(mentions)
    unnamed: list[Mention] = []

    def mention(i: int) -> Mention | None:
        if 0 <= i < n:
            return mentions[i]
        if i != UNNAMED_ROW:
            return None
        if not unnamed:  # (no entity: the build names it from the title, or drops it)
            unnamed.append(Mention(0, 0, "", Label.METHOD, Rel.PROPOSES, "", source=UNNAMED))
        return unnamed[0]

    return mention


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
    label, rel, mention, intern = _LABEL, _REL, Mention, sys.intern
    offsets, n_offsets, confidences = _OFFSETS, len(_OFFSETS), _CONFIDENCES
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
        shared = confidences.get(confidence)
        if shared is None and len(confidences) < _MAX_CONFIDENCES:
            shared = confidences[confidence] = confidence
        out.append(
            mention(
                offsets[start] if 0 <= start < n_offsets else start,
                offsets[end] if 0 <= end < n_offsets else end,
                surface,
                label[lab],
                rel[role],
                sentence,
                surface if canonical == surface else canonical,
                "",  # entity: resolution's
                confidence if shared is None else shared,
                intern(source),
                intern(key),
                compound,
            )
        )
    return out
