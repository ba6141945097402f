"""A cache fault costs time, never the build: damaged, truncated or unusable cache files are
set aside or bypassed with one CacheWarning, and the caller gets correct (possibly empty)
answers."""

from __future__ import annotations

import os
import sqlite3
import warnings
from pathlib import Path

import pytest

from kg.cache import (
    BlobTable,
    CacheWarning,
    ExtractionCache,
    ResolverSnapshots,
    cache_usage,
    clear_cache,
    set_aside,
    versioned_table,
)


def filled(path: Path, rows: int = 200) -> None:
    table = BlobTable(path, "t")
    table.put_many([(f"k{i}", os.urandom(500)) for i in range(rows)])
    table.close()


def test_a_file_of_random_bytes_is_set_aside_and_started_again(tmp_path: Path) -> None:
    path = tmp_path / "extractions-x.sqlite"
    filled(path)
    path.write_bytes(os.urandom(path.stat().st_size))
    with pytest.warns(CacheWarning) as caught:
        table = BlobTable(path, "t")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "is damaged (file is not a database)" in message
    assert "set aside as extractions-x.sqlite.corrupt-1" in message
    assert not table.in_memory and table.get_many(["k1"]) == {}
    table.put_many([("k1", b"v")])
    assert table.get_many(["k1"]) == {"k1": b"v"}
    table.close()
    assert (tmp_path / "extractions-x.sqlite.corrupt-1").is_file()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # sound again: no warning
        assert BlobTable(path, "t").get_many(["k1"]) == {"k1": b"v"}


def test_damage_inside_a_file_with_a_sound_header_is_found_too(tmp_path: Path) -> None:
    path = tmp_path / "records-x.sqlite"
    filled(path)
    data = bytearray(path.read_bytes())
    page = 4096  # the first page (header, schema) stays; the table's pages are garbage
    data[page:] = os.urandom(len(data) - page)
    path.write_bytes(bytes(data))
    with pytest.warns(CacheWarning, match="is damaged"):
        table = BlobTable(path, "t")
        found = table.get_many([f"k{i}" for i in range(200)])
    assert found == {}
    table.put_many([("k", b"v")])
    assert table.get_many(["k"]) == {"k": b"v"}


def test_a_truncated_file_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "terms-x.sqlite"
    filled(path, rows=2000)
    with path.open("r+b") as f:
        f.truncate(path.stat().st_size // 3)
    with pytest.warns(CacheWarning, match="is damaged"):
        table = BlobTable(path, "t")
        assert table.get_many([f"k{i}" for i in range(2000)]) == {}


def test_an_unusable_folder_means_a_table_in_memory_and_one_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    with pytest.warns(CacheWarning, match="this build runs without it") as caught:
        table = versioned_table(blocker, "extractions", "v1", "t")
    assert len(caught) == 1 and table.in_memory
    table.put_many([("k", b"v")])
    assert table.get_many(["k"]) == {"k": b"v"}  # for this build


def test_a_write_that_fails_later_drops_the_rows_with_a_warning(tmp_path: Path) -> None:
    table = BlobTable(tmp_path / "x.sqlite", "t")

    class FullDisk:
        def __enter__(self) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        def __exit__(self, *exc: object) -> None:
            pass

        def close(self) -> None:
            pass

    table.db = FullDisk()  # type: ignore[assignment]
    with pytest.warns(CacheWarning, match="disk is full"):
        table.put_many([("k", b"v")])
    assert table.in_memory and table.get_many(["k"]) == {}


def test_a_busy_file_is_not_mistaken_for_a_damaged_one(tmp_path: Path) -> None:
    from kg.cache import is_damaged

    assert is_damaged(sqlite3.DatabaseError("file is not a database"))
    assert not is_damaged(sqlite3.OperationalError("database is locked"))


def test_damaged_and_truncated_snapshots_are_set_aside(tmp_path: Path) -> None:
    snaps = ResolverSnapshots(tmp_path, "ns")
    papers = {"p1": "d1", "p2": "d2"}
    good = snaps.save(("state",), papers)
    assert snaps.load(papers) == (("state",), {"p1", "p2"})
    # Truncated inside the state: the header reads, the state does not.
    whole = good.read_bytes()
    good.write_bytes(whole[:-3])
    with pytest.warns(CacheWarning, match="is damaged"):
        assert snaps.load(papers) is None
    assert not good.exists() and good.with_name(good.name + ".corrupt-1").exists()
    # Random bytes, and a file cut inside its header.
    snaps.save(("state",), papers).write_bytes(os.urandom(len(whole)))
    cut = snaps.folder / "cut.marshal"
    cut.write_bytes(whole[:20])
    with pytest.warns(CacheWarning) as caught:
        assert snaps.load(papers) is None
    assert len(caught) == 2
    assert sorted(p.name for p in snaps.folder.iterdir()) == sorted(
        [f"{good.name}.corrupt-2", "cut.marshal.corrupt-1"]
    )  # the first set-aside copy gave way to the second
    assert snaps.save(("state",), papers) == good and snaps.load(papers) is not None


def test_the_cache_folders_parts_include_what_was_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "extractions-x.sqlite"
    filled(path)
    set_aside(path)
    snaps = ResolverSnapshots(tmp_path, "ns")
    set_aside(snaps.save(("s",), {"p": "d"}))
    usage = cache_usage(tmp_path)
    assert usage["extractions"]["files"] == 1 and usage["entity resolution"]["files"] == 1
    assert clear_cache(tmp_path)["files"] == 2


def test_damaged_rows_in_a_sound_file_are_extracted_again(tmp_path: Path) -> None:
    cache = ExtractionCache(tmp_path, "model:v1")
    cache.put_many([("text a", [("m", 0, 1)]), ("text b", [("n", 0, 1)])])
    cache.table.put_many([(cache.key("text b"), b"\xffnot marshal")])
    assert cache.get_many(["text a", "text b"]) == {"text a": [("m", 0, 1)]}
