"""A paper's link to an entity, as node-link data holds it, in a third of a dict's memory.

A build holds every paper→entity link of the corpus at once, between making them and writing
the graph: about 22 a paper, and as a dict of ten keys each was a quarter of the main process at
43,020 papers. :class:`PaperLink` is read-only and reads as that dict (the same keys in the same
order, ``==`` to it), so the graph file, the store, networkx and the topics take it unchanged;
:func:`plain` turns it into the dict where a serialiser needs one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kg.schema import EVIDENCE_KIND_ATTR, TYPE_ATTR

#: The keys of a link, in the order a dict made for it would have them (GraphML and GEXF
#: exports write attributes in this order). ``key`` is the type: one link per paper, entity
#: and type.
_KEYS = (TYPE_ATTR, "evidence", "start", "end", "confidence", "count", "source", "target", "key")
_SLOT = {k: k if k != "key" else TYPE_ATTR for k in _KEYS} | {EVIDENCE_KIND_ATTR: "kind"}


class PaperLink(Mapping[str, Any]):
    """One paper→entity link: ``type`` (its role), the first mention's ``evidence`` sentence
    and offsets, the highest ``confidence``, the ``count`` of mentions, ``source`` (the paper)
    and ``target`` (the entity); ``kind``: the evidence kind (:data:`EVIDENCE_KIND_ATTR`) of a
    link only the authors' keywords make, else None (then the key is absent).

    >>> link = PaperLink("USES", "We use X.", 7, 8, 0.9, 1, "paper:a", "method:x")
    >>> link["key"], link.get("evidence_kind"), len(link)
    ('USES', None, 9)
    >>> link == {"type": "USES", "evidence": "We use X.", "start": 7, "end": 8,
    ...          "confidence": 0.9, "count": 1, "source": "paper:a", "target": "method:x",
    ...          "key": "USES"}
    True
    """

    __slots__ = ("type", "evidence", "start", "end", "confidence", "count", "source", "target",
                 "kind")  # fmt: skip

    def __init__(
        self,
        type: str,
        evidence: str,
        start: int,
        end: int,
        confidence: float,
        count: int,
        source: str,
        target: str,
        kind: str | None = None,
    ) -> None:
        self.type = type
        self.evidence = evidence
        self.start = start
        self.end = end
        self.confidence = confidence
        self.count = count
        self.source = source
        self.target = target
        self.kind = kind

    def __getitem__(self, key: str) -> Any:
        slot = _SLOT.get(key)
        if slot is None or (slot == "kind" and self.kind is None):
            raise KeyError(key)
        return getattr(self, slot)

    def __iter__(self) -> Iterator[str]:
        yield from _KEYS
        if self.kind is not None:
            yield EVIDENCE_KIND_ATTR

    def __len__(self) -> int:
        return len(_KEYS) + (self.kind is not None)

    def __repr__(self) -> str:
        return f"PaperLink({dict(self)!r})"

    def as_dict(self) -> dict[str, Any]:
        """``dict(self)``, made directly (a graph file makes one per link).

        >>> for kind in (None, "author keyword"):
        ...     link = PaperLink("USES", "We use X.", 7, 8, 0.9, 1, "paper:a", "method:x", kind)
        ...     print(list(link.as_dict().items()) == list(dict(link).items()))
        True
        True
        """
        out = {
            TYPE_ATTR: self.type,
            "evidence": self.evidence,
            "start": self.start,
            "end": self.end,
            "confidence": self.confidence,
            "count": self.count,
            "source": self.source,
            "target": self.target,
            "key": self.type,
        }
        if self.kind is not None:
            out[EVIDENCE_KIND_ATTR] = self.kind
        return out


def plain(value: Any) -> dict[str, Any]:
    """``value`` as a dict, for a serialiser's ``default`` hook (orjson writes dicts only).

    >>> import orjson
    >>> orjson.dumps({"links": [PaperLink("USES", "s", 0, 1, 1.0, 1, "p", "e", "kw")]},
    ...              default=plain, option=orjson.OPT_SORT_KEYS)[:44]
    b'{"links":[{"confidence":1.0,"count":1,"end":'
    """
    if isinstance(value, PaperLink):
        return value.as_dict()
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
