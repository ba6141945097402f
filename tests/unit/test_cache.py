"""kg.cache.ExtractionCache: rows come back as stored; damaged ones are missing, not errors."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kg.cache import FILE_NAME, ExtractionCache

ROW = (
    3,
    11,
    "ImageNet",
    "Dataset",
    "EVALUATES_ON",
    0,
    40,
    "",
    0.97,
    "gazetteer",
    "imagenet",
    False,
)


def test_rows_come_back_as_stored_by_text_and_namespace(tmp_path: Path) -> None:
    cache = ExtractionCache(tmp_path, "model:v1")
    cache.put_many([("We use ImageNet.", [ROW, (*ROW[:-1], True)]), ("Nothing here.", [])])
    assert cache.get_many(["We use ImageNet.", "Nothing here.", "New text."]) == {
        "We use ImageNet.": [ROW, (*ROW[:-1], True)],
        "Nothing here.": [],
    }
    cache.close()
    assert ExtractionCache(tmp_path, "model:v2").get_many(["We use ImageNet."]) == {}


def test_a_damaged_value_is_a_miss(tmp_path: Path) -> None:
    cache = ExtractionCache(tmp_path, "model:v1")
    cache.put_many([("a", [ROW]), ("b", [ROW]), ("c", [ROW])])
    cache.close()
    db = sqlite3.connect(tmp_path / FILE_NAME)
    with db:
        keys = [k for (k,) in db.execute("SELECT key FROM mentions")]
        db.execute("UPDATE mentions SET value = ? WHERE key = ?", (b"\xff garbage", keys[0]))
        db.execute("UPDATE mentions SET value = ? WHERE key = ?", (b"i\x05\x00\x00\x00", keys[1]))
    db.close()
    got = ExtractionCache(tmp_path, "model:v1").get_many(["a", "b", "c"])
    assert list(got.values()) == [[ROW]]  # the one left whole (an int is not a list of rows)
