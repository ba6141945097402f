"""kg's cache folder (``--cache-dir``): per-abstract extraction results, so rebuilding after
adding papers only runs the pipeline on the new ones (:class:`ExtractionCache`); the saved entity
resolvers (:class:`ResolverSnapshots`); and what kg's caches share: SQLite tables of bytes, one
file per version of the code that fills them (:func:`versioned_table`), what the folder holds
and emptying it (:func:`cache_usage`, :func:`clear_cache`).

Extractions are keyed by the abstract's text, the base model's name and the pipeline's
fingerprint (:func:`kg.extract.pipeline.pipeline_version`): any change to the extraction code,
its data files or the shipped model makes every old entry unreachable, so a stale result is
never reused.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sqlite3
import time
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import platformdirs

from kg.atomic import atomic_write
from kg.errors import CacheError

Key = TypeVar("Key", str, bytes)
#: A cache folder keeps the tables of this many versions of each kind (:func:`versioned_table`).
KEEP_VERSIONS = 4


def default_cache_dir() -> Path:
    env = os.environ.get("KG_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kg"))


class CacheWarning(UserWarning):
    """A cache file could not be used: the build goes on without it (slower, never wrong)."""


def warn(message: str) -> None:
    """Say ``message`` on one line, as a :class:`CacheWarning`. (Told where it came from, the
    default warning display would add a second line, the source line of the call.)"""
    warnings.warn_explicit(message, CacheWarning, "kg", 0)


#: SQLite's result codes for a file that is not (or no longer) a sound database.
_SQLITE_DAMAGED = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


def is_damaged(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says the database file is damaged (rather than busy, read-only, full)."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if code is not None:
        return code & 0xFF in _SQLITE_DAMAGED
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def set_aside(path: Path) -> Path:
    """Rename a damaged cache file to ``{name}.corrupt-{n}`` (kept for a look, the previous
    one deleted; ``kg cache clear`` deletes it too), so the next open starts a new one.
    Returns the new name. Another build may have moved it already: that is fine."""
    taken = [int(m) for p in path.parent.glob(f"{path.name}.corrupt-*")
             if (m := p.name.rpartition("-")[2]).isdigit()]
    for n in taken:
        with contextlib.suppress(OSError):
            path.with_name(f"{path.name}.corrupt-{n}").unlink()
    aside = path.with_name(f"{path.name}.corrupt-{max(taken, default=0) + 1}")
    with contextlib.suppress(FileNotFoundError):
        path.replace(aside)
    return aside


class BlobTable:
    """One SQLite table of key → bytes: the store behind kg's caches (the extraction cache,
    :class:`kg.ingest.memo.RecordMemo`). Reads and writes go in batches.

    A cache only saves time, so no fault of its file fails a build: a damaged file is set
    aside (:func:`set_aside`) and started again; one that cannot be opened or written (a
    read-only folder, a full disk) leaves a table in memory, for this build only. Each says so
    in one :class:`CacheWarning`. Several processes may use one file at once (WAL mode, with a
    busy timeout).
    """

    #: Seconds a write waits for another process's transaction on the same file.
    BUSY_TIMEOUT = 60.0

    def __init__(self, path: Path, table: str) -> None:
        self.path = path
        self.table = table  # a constant of the caller's, never user input
        self.in_memory = False
        self.db = self._open()

    def _connect(self, where: Path | str) -> sqlite3.Connection:
        db = sqlite3.connect(where, timeout=self.BUSY_TIMEOUT)
        try:
            # A cache needs no durability: with a disk sync per commit, storing an incremental
            # build's few new rows waited on a sync of the whole file, table by table
            # (measured: docs/benchmarks.md). WAL keeps the file consistent if kg is killed
            # mid-write, and lets readers and a writer of several builds work at once; a power
            # cut may lose the last rows, which only means extracting them again.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"CREATE TABLE IF NOT EXISTS {self.table} (key PRIMARY KEY, value BLOB)")
            # The header alone can look right: read a row too, so damage shows here.
            db.execute(f"SELECT key FROM {self.table} LIMIT 1").fetchall()
        except BaseException:
            db.close()
            raise
        return db

    #: Tries at opening a file another build is creating: switching a new file to WAL can
    #: fail at once with "database is locked", without waiting for the busy timeout.
    OPEN_TRIES = 50

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for _ in range(self.OPEN_TRIES - 1):
                try:
                    return self._connect(self.path)
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc):
                        raise
                    time.sleep(0.1)
            return self._connect(self.path)
        except sqlite3.Error as exc:
            if not is_damaged(exc):
                return self._in_memory(exc)
            return self._start_again(exc)
        except OSError as exc:
            return self._in_memory(exc)

    def _start_again(self, exc: sqlite3.Error) -> sqlite3.Connection:
        aside = set_aside(self.path)
        for suffix in ("-wal", "-shm"):  # they belong to the damaged file
            with contextlib.suppress(OSError):
                self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
        warn(f"{self.path} is damaged ({exc}); set aside as {aside.name}, starting it again")
        try:
            return self._connect(self.path)
        except (sqlite3.Error, OSError) as again:
            return self._in_memory(again)

    def _in_memory(self, exc: BaseException) -> sqlite3.Connection:
        warn(f"cannot use {self.path} ({_reason(exc)}); this build runs without it")
        self.in_memory = True
        return self._connect(":memory:")

    def _recover(self, exc: sqlite3.Error) -> None:
        # A fault found after opening (damage deeper in the file, a disk that filled up).
        self.db.close()
        self.db = self._start_again(exc) if is_damaged(exc) else self._in_memory(exc)

    def get_many(self, keys: list[Key]) -> dict[Key, bytes]:
        found: dict[Key, bytes] = {}
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                marks = ",".join("?" * len(chunk))
                found.update(
                    self.db.execute(
                        f"SELECT key, value FROM {self.table} WHERE key IN ({marks})", chunk
                    )
                )
        except sqlite3.Error as exc:
            self._recover(exc)
            return {}  # what was read from a damaged file is not trusted either
        return found

    def has_many(self, keys: list[Key]) -> set[Key]:
        """The keys that have a row (read without their values)."""
        found: set[Key] = set()
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                marks = ",".join("?" * len(chunk))
                found.update(
                    k
                    for (k,) in self.db.execute(
                        f"SELECT key FROM {self.table} WHERE key IN ({marks})", chunk
                    )
                )
        except sqlite3.Error as exc:
            self._recover(exc)
            return set()
        return found

    def put_many(self, items: list[tuple[Key, bytes]]) -> None:
        try:
            with self.db:
                self.db.executemany(f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?)", items)
        except sqlite3.Error as exc:
            self._recover(exc)  # the rows are lost: the next build computes them again

    def close(self) -> None:
        self.db.close()


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def versioned_table(directory: str | Path, kind: str, version: str, table: str) -> BlobTable:
    """The cache table of ``kind`` (``"extractions"``, ``"records"``, ``"terms"``) for
    ``version`` (of the code that fills it), in a file of its own, ``{kind}-{digest}.sqlite``.

    Rows of another version can never be read again: a new pipeline version starts a new file,
    and the files of all but the :data:`KEEP_VERSIONS` most recently used versions of a kind are
    deleted then (with the unversioned file of older kg releases). Without this, every edit of
    the extraction code left a whole corpus's extractions behind for good, and a developer's
    cache folder only ever grew. Several versions are kept, for a user who switches between
    base models or kg releases.
    """
    folder = Path(directory)
    digest = hashlib.blake2b(version.encode(), digest_size=8).hexdigest()
    path = folder / f"{kind}-{digest}.sqlite"
    known = path.exists()
    blobs = BlobTable(path, table)
    if known:
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: reads alone would not change its time
    else:
        _prune_versions(folder, kind, path)
    return blobs


def recent_first(paths: Iterable[Path]) -> list[Path]:
    """``paths`` by modification time, the most recent first (vanished files last)."""

    def used(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(paths, key=used, reverse=True)


def _prune_versions(folder: Path, kind: str, current: Path) -> None:
    others = recent_first(p for p in folder.glob(f"{kind}-*.sqlite") if p != current)
    for old in [*others[KEEP_VERSIONS - 1 :], folder / f"{kind}.sqlite"]:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                old.with_name(old.name + suffix).unlink(missing_ok=True)


#: What kg keeps in a cache folder, by part: glob patterns relative to the folder (the files of
#: older releases included).
CACHE_PARTS: dict[str, tuple[str, ...]] = {
    # (The patterns take in the damaged files set aside, "{name}.corrupt-{n}".)
    "extractions": ("extractions-*.sqlite*", "extractions.sqlite*"),
    "cleaned records": ("records-*.sqlite*", "records.sqlite*"),
    "word counts": ("terms-*.sqlite*", "terms.sqlite*"),
    "entity resolution": (
        "resolution/*.marshal",
        "resolution/*.marshal.corrupt-*",
        "resolution/*.tmp",
        "resolution/*.partial",  # the temporary files of older releases
    ),
    "gazetteer tokens": ("tokens/*.json", "tokens/*.marshal", "tokens/*.tmp"),
    "related indexes": ("index/*.pickle", "index/*.tmp"),
}


def _part_files(folder: Path, patterns: tuple[str, ...]) -> list[Path]:
    return sorted({p for pattern in patterns for p in folder.glob(pattern) if p.is_file()})


def cache_usage(directory: str | Path) -> dict[str, dict[str, int]]:
    """Files and bytes per part of what kg keeps in the cache folder ``directory``.

    >>> cache_usage("/no/such/folder")["extractions"]
    {'files': 0, 'bytes': 0}
    """
    folder = Path(directory)
    usage = {}
    for part, patterns in CACHE_PARTS.items():
        files = _part_files(folder, patterns)
        usage[part] = {"files": len(files), "bytes": sum(_size(f) for f in files)}
    return usage


def clear_cache(directory: str | Path) -> dict[str, int]:
    """Delete what kg keeps in the cache folder ``directory`` (the next build is a cold one);
    other files there are left alone. Returns the files and bytes deleted."""
    folder = Path(directory)
    deleted = {"files": 0, "bytes": 0}
    for patterns in CACHE_PARTS.values():
        for f in _part_files(folder, patterns):
            size = _size(f)
            try:
                f.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise CacheError(f"{f}: cannot delete ({exc.strerror or exc})") from None
            deleted["files"] += 1
            deleted["bytes"] += size
    return deleted


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


#: How the extraction cache stores a text's mentions: marshal of a list of tuples of builtins
#: (``kg.extract.rows.RawMention`` s, then ``RawRelation`` s, then ``RawResult`` s). Part of
#: the key: rows of another format are not read (3: relations follow the mentions; 4: results
#: follow the relations).
_ROWS_FORMAT = 4


#: The extraction cache's files: ``extractions-{version}.sqlite`` (:func:`versioned_table`).
KIND = "extractions"


class ExtractionCache:
    """``get``/``put`` raw mention lists by (text, model, pipeline version) in one SQLite file.

    Values are :mod:`marshal` data (builtins only: loading one runs no code), which loads a
    conference's mention tuples faster than JSON dicts (measured: docs/benchmarks.md).
    """

    def __init__(self, directory: str | Path, namespace: str) -> None:
        self.namespace = namespace
        self.table = versioned_table(directory, KIND, f"{namespace}\0{_ROWS_FORMAT}", "mentions")

    @staticmethod
    def exists(directory: str | Path) -> bool:
        """Whether an extraction cache was written in ``directory`` (by an earlier build)."""
        return any(Path(directory).glob(f"{KIND}-*.sqlite"))

    def key(self, text: str) -> str:
        return hashlib.sha256(f"{self.namespace}\0{_ROWS_FORMAT}\0{text}".encode()).hexdigest()

    def cached(self, texts: list[str]) -> set[str]:
        """The texts that have a cached result (one found damaged when read is missing then)."""
        by_key = {self.key(t): t for t in texts}
        return {by_key[k] for k in self.table.has_many(list(by_key))}

    def get_many(self, texts: list[str]) -> dict[str, list[tuple[Any, ...]]]:
        """Cached results for the texts that have one, by text (a damaged one is missing)."""
        by_key = {self.key(t): t for t in texts}
        found = {}
        for k, v in self.table.get_many(list(by_key)).items():
            try:
                rows = marshal.loads(v)
            except (ValueError, EOFError, TypeError):
                continue  # extracted again, and stored again
            if isinstance(rows, list):
                found[by_key[k]] = rows
        return found

    def put_many(self, items: list[tuple[str, list[tuple[Any, ...]]]]) -> None:
        self.table.put_many([(self.key(t), marshal.dumps(v)) for t, v in items])

    def close(self) -> None:
        self.table.close()


#: Saved resolvers (:class:`ResolverSnapshots`) live in this folder of the cache directory.
SNAPSHOT_DIR = "resolution"
#: How many snapshots to keep: one per corpus built recently with this cache directory.
KEEP_SNAPSHOTS = 4
_SNAPSHOT_FORMAT = 5
_SIZE_BYTES = 8  # a snapshot file starts with its header's size


def _header_size(f: BinaryIO) -> int:
    size = int.from_bytes(f.read(_SIZE_BYTES), "little")
    if not 0 < size <= os.fstat(f.fileno()).st_size - _SIZE_BYTES:
        raise ValueError("not a snapshot")
    return size


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class ResolverSnapshots:
    """The entity resolver of recent builds, saved with the papers it had resolved, so the next
    build of a grown corpus resolves only the new papers (:class:`kg.resolve.resolver.Resolver`
    is incremental). A snapshot is used only when every paper in it is still in the corpus with
    the same abstract, and was made with the same model and pipeline version; otherwise a build
    resolves everything, as without a cache. A missing, stale or damaged snapshot is ignored.

    Written with :mod:`marshal` (plain builtins only; loading one runs no code), each file
    holding its header's size, a small header (format, namespace, the papers) and then the
    resolver's state, so choosing a snapshot reads only the headers.
    """

    def __init__(self, directory: str | Path, namespace: str) -> None:
        self.folder = Path(directory) / SNAPSHOT_DIR
        self.namespace = namespace

    def load(self, papers: dict[str, str]) -> tuple[Any, set[str]] | None:
        """The saved state covering the most of ``papers`` (paper id → :func:`text_digest` of
        its abstract), and the ids it covers; ``None`` when no snapshot fits. A damaged or
        truncated snapshot is set aside with a :class:`CacheWarning`."""
        best: tuple[Path, int, dict[str, str]] | None = None  # path, header size, its papers
        for path in self.folder.glob("*.marshal") if self.folder.is_dir() else ():
            try:
                with path.open("rb") as f:
                    size = _header_size(f)
                    fmt, namespace, saved = marshal.loads(f.read(size))
                if not isinstance(saved, dict):
                    raise ValueError("no paper list")
            except FileNotFoundError:
                continue  # pruned by another build meanwhile
            except (OSError, EOFError, ValueError, TypeError) as exc:
                self._damaged(path, exc)
                continue
            if fmt != _SNAPSHOT_FORMAT or namespace != self.namespace:
                continue
            fits = all(papers.get(pid) == digest for pid, digest in saved.items())
            if fits and (best is None or len(saved) > len(best[2])):
                best = (path, size, saved)
        if best is None:
            return None
        path, size, saved = best
        try:
            with path.open("rb") as f:
                f.seek(_SIZE_BYTES + size)
                # From bytes: marshal.load() on a file reads it in tiny pieces, and loads() of
                # the bytes is many times faster (measured: docs/benchmarks.md).
                return marshal.loads(f.read()), set(saved)
        except (OSError, EOFError, ValueError, TypeError) as exc:
            self._damaged(path, exc)
            return None

    @staticmethod
    def _damaged(path: Path, exc: BaseException) -> None:
        aside = set_aside(path)
        warn(f"{path} is damaged ({_reason(exc)}); set aside as {aside.name}, resolving anew")

    def save(self, state: tuple[Any, ...], papers: dict[str, str]) -> Path:
        """Store ``state`` for the corpus ``papers``; keep the most recent snapshots only."""
        head = marshal.dumps((_SNAPSHOT_FORMAT, self.namespace, papers))
        path = self.folder / f"{hashlib.blake2b(head, digest_size=16).hexdigest()}.marshal"
        if path.exists():  # the same corpus again: the state is the same
            path.touch()
        else:
            # atomic: an interrupted save leaves no damaged snapshot, and its debris goes
            with atomic_write(path) as f:
                f.write(len(head).to_bytes(_SIZE_BYTES, "little"))
                f.write(head)
                f.write(marshal.dumps(state))
        saved = recent_first(self.folder.glob("*.marshal"))
        for old in saved[KEEP_SNAPSHOTS:]:
            old.unlink(missing_ok=True)
        return path
