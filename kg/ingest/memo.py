"""A persistent memo of cleaned records: an incremental build re-cleans only the new ones.

Cleaning (LaTeX, markdown, unicode) every record of a conference again would be a sizeable
part of an incremental build (measured: docs/benchmarks.md). Records are keyed by their raw
fields, the file's stem and a fingerprint of the ingest code, so a change to the cleaning never
serves a stale record. Lives beside the extraction cache (``--cache-dir``).

A file read before with the same bytes, under the same path, is not parsed again at all: its
papers and problems come back whole (:meth:`RecordMemo.file_items`). Parsing a conference's
CSV and looking up its records was a sizeable part of an incremental build too.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import lru_cache
from pathlib import Path

import orjson

from kg.cache import versioned_table
from kg.ingest.readers import Raw
from kg.ingest.records import to_paper
from kg.models import Paper, Problem

#: The memo's files in a cache folder: ``records-{version}.sqlite``.
KIND = "records"
_PAPER_FIELDS = tuple(f.name for f in dataclasses.fields(Paper))
#: Files whose papers take more than this are remembered record by record only.
MAX_FILE_BYTES = 256 << 20
#: Cleaned records written to the memo at a time: a big corpus's, all held until the end,
#: took as much memory as its papers.
WRITE_BATCH = 5000


@lru_cache(maxsize=1)
def ingest_version() -> str:
    """A fingerprint of the code that turns a raw record into a Paper."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted([*here.glob("*.py"), here.parent / "models.py"]):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


class RecordMemo:
    """``to_paper`` with a memory: ``memo.to_papers(raws, origin)`` then ``memo.close()``."""

    def __init__(self, directory: str | Path) -> None:
        self.table = versioned_table(directory, KIND, ingest_version(), "papers")
        self.prefix = ingest_version().encode()
        self.fresh: list[tuple[bytes, bytes]] = []

    def key(self, raw: Raw, origin: str) -> bytes | None:
        """The record's key; None for one orjson cannot write (nested more than 255 deep):
        such a record is cleaned every time, not remembered."""
        try:
            data = orjson.dumps(
                [origin, raw.fields],
                option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS,
                default=str,
            )
        except orjson.JSONEncodeError:
            return None
        return hashlib.sha256(self.prefix + b"\0" + data).digest()

    def file_key(self, path: Path, data: bytes) -> bytes:
        h = hashlib.sha256(self.prefix + b"\0file\0" + str(path).encode() + b"\0")
        h.update(data)
        return h.digest()

    def file_items(self, key: bytes) -> list[Paper | Problem] | None:
        """The papers and problems, in file order, of the file with this :meth:`file_key`, when
        it was read before."""
        found = self.table.get_many([key]).get(key)
        if found is None:
            return None
        return [
            Paper(**item) if isinstance(item, dict) else Problem(*item)
            for item in orjson.loads(found)
        ]

    def remember_file(self, key: bytes, items: list[Paper | Problem], file_bytes: int) -> None:
        """Remember a file's papers and problems whole, when they fit in one value. A file of
        more than :data:`MAX_FILE_BYTES` is not dumped to find out: its papers would be about as
        big (its records are remembered one by one)."""
        if file_bytes > MAX_FILE_BYTES:
            return
        value = orjson.dumps(
            [
                {f: getattr(item, f) for f in _PAPER_FIELDS}
                if isinstance(item, Paper)
                else [item.source, item.reason]
                for item in items
            ]
        )
        if len(value) <= MAX_FILE_BYTES:  # SQLite takes at most 1 GB in one value
            self.fresh.append((key, value))

    def to_papers(self, raws: list[Raw], origin: str) -> list[Paper | Problem]:
        """``to_paper`` of each record, in order; one look-up for the whole batch."""
        keys = [self.key(raw, origin) for raw in raws]
        known = self.table.get_many([k for k in keys if k is not None])
        out: list[Paper | Problem] = []
        for raw, key in zip(raws, keys, strict=True):
            if key is not None and key in known:
                out.append(Paper(**orjson.loads(known[key]), source=raw.source))
                continue
            paper = to_paper(raw, origin)
            if isinstance(paper, Paper) and key is not None:
                fields = dataclasses.asdict(paper)
                del fields["source"]  # where the record is, not what it says
                self.fresh.append((key, orjson.dumps(fields)))
                if len(self.fresh) >= WRITE_BATCH:
                    self.table.put_many(self.fresh)
                    self.fresh = []
            out.append(paper)
        return out

    def close(self) -> None:
        self.table.put_many(self.fresh)
        self.table.close()
        self.fresh = []
