"""Extraction results as rows: the form they travel between processes and are cached in.

A :data:`RawMention` is a ``kg_mentions`` dict as a tuple, with its merge key: a conference's
mentions come back from the cache on every build, and as tuples they decode faster (marshal)
and take much less memory than dicts. :func:`doc_mentions` makes them :class:`Mention` s.
"""

from __future__ import annotations

from typing import Any

from kg.extract.normalize import normalize_key
from kg.models import Mention
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


def raw_rows(found: list[dict[str, Any]]) -> list[RawMention]:
    """``kg_mentions``' dicts as :data:`RawMention` rows, with each mention's merge key
    (:func:`normalize_key`): computed in the extraction workers and cached with the mentions,
    it is not computed again on every build (it was a large part of entity resolution's time;
    docs/benchmarks.md)."""
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


def doc_mentions(text: str, rows: list[RawMention]) -> list[Mention]:
    """Mentions from :data:`RawMention` rows (the mentions of one sentence share one string
    for it)."""
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
