"""A cache of per-abstract extraction results, so rebuilding after adding papers only runs the
pipeline on the new ones.

Keyed by the abstract's text, the base model's name and the pipeline's fingerprint
(:func:`kg.extract.pipeline.pipeline_version`): any change to the extraction code, its data files
or the shipped model makes every old entry unreachable, so a stale result is never reused.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path
from typing import Any, TypeVar

import orjson
import platformdirs

FILE_NAME = "extractions.sqlite"
Key = TypeVar("Key", str, bytes)


def default_cache_dir() -> Path:
    env = os.environ.get("KG_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kg"))


class BlobTable:
    """One SQLite table of key → bytes: the store behind kg's caches (the extraction cache,
    :class:`kg.ingest.memo.RecordMemo`). Reads and writes go in batches."""

    def __init__(self, path: Path, table: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.table = table  # a constant of the caller's, never user input
        self.db = sqlite3.connect(path)
        # A cache needs no durability: without a disk sync per commit, storing an incremental
        # build's few new rows took 0.4 s per table (syncing a 70 MB file). WAL keeps the file
        # consistent if kg is killed mid-write; a power cut may lose the last rows, which only
        # means extracting them again.
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key PRIMARY KEY, value BLOB)")

    def get_many(self, keys: list[Key]) -> dict[Key, bytes]:
        found: dict[Key, bytes] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            marks = ",".join("?" * len(chunk))
            found.update(
                self.db.execute(
                    f"SELECT key, value FROM {self.table} WHERE key IN ({marks})", chunk
                )
            )
        return found

    def put_many(self, items: list[tuple[Key, bytes]]) -> None:
        with self.db:
            self.db.executemany(f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?)", items)

    def close(self) -> None:
        self.db.close()


class ExtractionCache:
    """``get``/``put`` raw mention lists by (text, model, pipeline version) in one SQLite file."""

    def __init__(self, directory: str | Path, namespace: str) -> None:
        self.namespace = namespace
        self.table = BlobTable(Path(directory) / FILE_NAME, "mentions")

    @staticmethod
    def exists(directory: str | Path) -> bool:
        """Whether a cache was written in ``directory`` (by an earlier build)."""
        return (Path(directory) / FILE_NAME).exists()

    def key(self, text: str) -> str:
        return hashlib.sha256(f"{self.namespace}\0{text}".encode()).hexdigest()

    def get_many(self, texts: list[str]) -> dict[str, list[dict[str, Any]]]:
        """Cached results for the texts that have one, by text."""
        by_key = {self.key(t): t for t in texts}
        return {by_key[k]: orjson.loads(v) for k, v in self.table.get_many(list(by_key)).items()}

    def put_many(self, items: list[tuple[str, list[dict[str, Any]]]]) -> None:
        self.table.put_many(
            [(self.key(t), orjson.dumps(v, option=orjson.OPT_SORT_KEYS)) for t, v in items]
        )

    def close(self) -> None:
        self.table.close()
