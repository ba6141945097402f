"""kg.cache.ExtractionCache: rows come back as stored; damaged ones are missing, not errors."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kg.cache import ExtractionCache

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
    db = sqlite3.connect(cache.table.path)
    with db:
        keys = [k for (k,) in db.execute("SELECT key FROM mentions")]
        db.execute("UPDATE mentions SET value = ? WHERE key = ?", (b"\xff garbage", keys[0]))
        db.execute("UPDATE mentions SET value = ? WHERE key = ?", (b"i\x05\x00\x00\x00", keys[1]))
    db.close()
    got = ExtractionCache(tmp_path, "model:v1").get_many(["a", "b", "c"])
    assert list(got.values()) == [[ROW]]  # the one left whole (an int is not a list of rows)


def test_a_folder_keeps_the_files_of_the_last_versions_used(tmp_path: Path) -> None:
    import os

    from kg.cache import KEEP_VERSIONS, versioned_table

    legacy = tmp_path / "extractions.sqlite"  # the one file of older kg releases
    legacy.write_bytes(b"old rows")
    (tmp_path / "records-0123.sqlite").write_bytes(b"another kind")
    paths = []
    for i in range(KEEP_VERSIONS + 2):
        cache = ExtractionCache(tmp_path, f"model:v{i}")
        cache.put_many([("text", [ROW])])
        cache.close()
        paths.append(cache.table.path)
        os.utime(cache.table.path, (1000 + i, 1000 + i))  # used in this order
    kept = sorted(tmp_path.glob("extractions-*.sqlite"))
    assert kept == sorted(paths[-KEEP_VERSIONS:]) and not legacy.exists()
    assert (tmp_path / "records-0123.sqlite").exists()  # other kinds are theirs to prune
    assert ExtractionCache.exists(tmp_path) and not ExtractionCache.exists(tmp_path / "none")
    # Using a kept version again makes it the most recent: the next new one prunes another.
    assert ExtractionCache(tmp_path, f"model:v{2}").get_many(["text"]) == {"text": [ROW]}
    versioned_table(tmp_path, "extractions", "model:new\x002", "mentions").close()
    left = set(tmp_path.glob("extractions-*.sqlite"))
    assert paths[2] in left and paths[3] not in left and len(left) == KEEP_VERSIONS


def _fill(folder: Path) -> None:
    for name, size in [
        ("extractions-0123.sqlite", 300),
        ("extractions-0123.sqlite-wal", 50),
        ("extractions.sqlite", 100),  # an older release's
        ("records-4567.sqlite", 20),
        ("terms-89ab.sqlite", 10),
        ("resolution/abc.marshal", 7),
        ("tokens/def.json", 5),
        ("index/0a1b.pickle", 3),
        ("notes.txt", 1),  # not kg's
        ("resolution/README", 1),  # not kg's either
    ]:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"x" * size)


def test_cache_usage_and_clear_count_and_delete_only_kgs_files(tmp_path: Path) -> None:
    from kg.cache import cache_usage, clear_cache

    _fill(tmp_path)
    usage = cache_usage(tmp_path)
    assert usage["extractions"] == {"files": 3, "bytes": 450}
    assert [u["files"] for u in usage.values()] == [3, 1, 1, 1, 1, 1]
    assert clear_cache(tmp_path) == {"files": 8, "bytes": 495}
    assert sum(u["files"] for u in cache_usage(tmp_path).values()) == 0
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["README", "notes.txt"]
    assert clear_cache(tmp_path / "missing") == {"files": 0, "bytes": 0}


def test_a_file_that_cannot_be_deleted_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from kg.cli import main

    _fill(tmp_path)

    def refuse(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    result = CliRunner().invoke(main, ["cache", "clear", "--cache-dir", str(tmp_path), "--yes"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "cannot delete (Permission denied)" in result.output
