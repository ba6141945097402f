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
from typing import Any

import orjson
import platformdirs


def default_cache_dir() -> Path:
    env = os.environ.get("KG_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kg"))


class ExtractionCache:
    """``get``/``put`` raw mention lists by (text, model, pipeline version) in one SQLite file."""

    def __init__(self, directory: str | Path, namespace: str) -> None:
        self.path = Path(directory) / "extractions.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.namespace = namespace
        self.db = sqlite3.connect(self.path)
        self.db.execute("CREATE TABLE IF NOT EXISTS mentions (key TEXT PRIMARY KEY, value BLOB)")

    @staticmethod
    def exists(directory: str | Path) -> bool:
        """Whether a cache was written in ``directory`` (by an earlier build)."""
        return (Path(directory) / "extractions.sqlite").exists()

    def key(self, text: str) -> str:
        return hashlib.sha256(f"{self.namespace}\0{text}".encode()).hexdigest()

    def get_many(self, texts: list[str]) -> dict[str, list[dict[str, Any]]]:
        """Cached results for the texts that have one, by text."""
        by_key = {self.key(t): t for t in texts}
        found: dict[str, list[dict[str, Any]]] = {}
        keys = list(by_key)
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            marks = ",".join("?" * len(chunk))
            for k, v in self.db.execute(
                f"SELECT key, value FROM mentions WHERE key IN ({marks})", chunk
            ):
                found[by_key[k]] = orjson.loads(v)
        return found

    def put_many(self, items: list[tuple[str, list[dict[str, Any]]]]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO mentions VALUES (?, ?)",
                [(self.key(t), orjson.dumps(v, option=orjson.OPT_SORT_KEYS)) for t, v in items],
            )

    def close(self) -> None:
        self.db.close()
