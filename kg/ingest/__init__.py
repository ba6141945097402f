"""Ingest: corpus files → cleaned, deduplicated :class:`~kg.models.Paper` records.

>>> result = read_papers(["seeds/"])               # doctest: +SKIP
>>> len(result.papers), result.problems, result.duplicates   # doctest: +SKIP

Formats by extension: ``.txt`` (the seeds format), ``.csv``/``.tsv``, ``.json`` (a list of
records or an object holding one), ``.jsonl``/``.ndjson``. Folders are walked recursively in
sorted order; hidden files and files of other types found there are ignored, while a file
named explicitly with an unknown extension is a problem.

Bad input never stops the run (unless ``strict``): each bad file or record becomes a
:class:`~kg.models.Problem` whose source is ``path:line`` (just ``path`` when the whole file
could not be opened), and everything else is still read.

Words that a PDF's line breaks split ("classifi- cation") are written whole, as the other
abstracts write them (:mod:`kg.ingest.linebreaks`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import InputError, NoUsableInputError
from kg.ingest.clean import clean_text, normalise_abstract
from kg.ingest.linebreaks import mend_line_breaks
from kg.ingest.memo import RecordMemo
from kg.ingest.readers import READERS, Raw, decode
from kg.ingest.records import to_paper
from kg.models import Paper, Problem

__all__ = ["IngestResult", "read_papers", "clean_text", "SUPPORTED_EXTENSIONS"]

SUPPORTED_EXTENSIONS = tuple(READERS)
_MERGED_FIELDS = ("title", "venue", "year", "keywords", "authors", "primary_area", "url")


@dataclass
class IngestResult:
    """What :func:`read_papers` read."""

    papers: list[Paper] = field(default_factory=list)  # deduplicated, in input order
    problems: list[Problem] = field(default_factory=list)  # skipped files and records
    duplicates: int = 0  # records merged into an earlier paper (same id or abstract)
    files: int = 0  # files read


def read_papers(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    strict: bool = False,
    memo_dir: str | os.PathLike[str] | None = None,
) -> IngestResult:
    """Read papers from files and folders (recursively).

    ``memo_dir``: remember cleaned records there (see :mod:`kg.ingest.memo`), so reading the
    same records again skips the cleaning. With ``strict`` the first bad file or record raises
    :class:`~kg.errors.InputError` (``"path:line: reason"``). Raises
    :class:`~kg.errors.NoUsableInputError` when no paper at all could be read; its message
    says why.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    inputs = [Path(p) for p in paths]
    result = IngestResult()
    dedupe = _Deduper()

    def problem(p: Problem) -> None:
        if strict:
            raise InputError(str(p))
        result.problems.append(p)

    memo = RecordMemo(Path(memo_dir)) if memo_dir is not None else None
    try:
        for item in _files(inputs):
            if isinstance(item, Problem):
                problem(item)
                continue
            result.files += 1
            for paper in _file_papers(item, memo):
                if isinstance(paper, Problem):
                    problem(paper)
                else:
                    dedupe.add(paper)
    finally:
        if memo is not None:
            memo.close()

    # After the deduplication, which compares the abstracts as the records give them.
    result.papers, result.duplicates = mend_line_breaks(dedupe.papers), dedupe.duplicates
    if not result.papers:
        raise NoUsableInputError(_nothing_usable(inputs, result.problems))
    return result


def _files(inputs: list[Path]) -> Iterator[Path | Problem]:
    """The files to read, each once, in order; folders walked in sorted order."""
    seen: set[Path] = set()
    for path in inputs:
        if path.is_dir():
            found = _walk(path)
            if not found:
                yield Problem(str(path), f"no {_extensions()} files in this folder")
            candidates = found
        elif path.is_file() or path.is_symlink():
            if path.suffix.lower() not in READERS:
                yield Problem(
                    str(path),
                    f"unknown file type {path.suffix or '(none)'!r}; expected {_extensions()}",
                )
                continue
            candidates = [path]
        elif path.exists():
            yield Problem(str(path), "not a regular file")
            continue
        else:
            yield Problem(str(path), "no such file or folder")
            continue
        for file in candidates:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                yield file


def _walk(folder: Path) -> list[Path]:
    """Corpus files under ``folder``, hidden ones skipped, sorted by their relative path (so
    ``a.txt`` < ``b/c.txt`` < ``d.txt``, the same on every machine)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.startswith(".") and Path(name).suffix.lower() in READERS:
                found.append(Path(root) / name)
    return sorted(found, key=lambda p: p.relative_to(folder).parts)


def _file_papers(path: Path, memo: RecordMemo | None) -> list[Paper | Problem]:
    """A file's papers and problems, in file order (from the memo when it has read the file)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [Problem(str(path), f"cannot read: {exc.strerror or exc}")]
    if memo is None:
        return _parsed(path, data, lambda raws: [to_paper(r, path.stem) for r in raws])
    key = memo.file_key(path, data)
    papers = memo.file_items(key)
    if papers is None:
        papers = _parsed(path, data, lambda raws: memo.to_papers(raws, path.stem))
        memo.remember_file(key, papers, len(data))
    return papers


def _parsed(
    path: Path, data: bytes, convert: Callable[[list[Raw]], list[Paper | Problem]]
) -> list[Paper | Problem]:
    """The file's records made papers by ``convert``, and its problems, in file order."""
    items = list(_read_file(path, data))
    converted = iter(convert([r for r in items if isinstance(r, Raw)]))
    return [record if isinstance(record, Problem) else next(converted) for record in items]


def _read_file(path: Path, data: bytes) -> Iterator[Raw | Problem]:
    # Sources ("path:line") go into the graph: written with "/" on every system, so the same
    # input gives the same graph file on Windows too.
    name = path.as_posix()
    if not data.strip():
        yield Problem(f"{name}:1", "empty file")
        return
    text, bad = decode(path, data)
    if bad is not None or text is None:
        yield bad or Problem(name, "cannot decode")
        return
    produced = False
    for item in READERS[path.suffix.lower()](path, text, name):
        produced = True
        yield item
    if not produced:
        yield Problem(f"{name}:1", "no records")


class _Deduper:
    """Keeps the first of papers sharing an id or a normalised abstract; later duplicates only
    fill in fields the first one lacks."""

    def __init__(self) -> None:
        self.papers: list[Paper] = []
        self.duplicates = 0
        self._by_id: dict[str, Paper] = {}
        self._by_abstract: dict[str, Paper] = {}

    def add(self, paper: Paper) -> None:
        key = normalise_abstract(paper.abstract)
        kept = self._by_id.get(paper.id) or self._by_abstract.get(key)
        if kept is None:
            self.papers.append(paper)
            kept = paper
        else:
            self.duplicates += 1
            for name in _MERGED_FIELDS:
                if getattr(kept, name) in ("", None, []) and getattr(paper, name) not in (
                    "",
                    None,
                    [],
                ):
                    setattr(kept, name, getattr(paper, name))
        self._by_id.setdefault(paper.id, kept)
        self._by_abstract.setdefault(key, kept)


def _extensions() -> str:
    return ", ".join(SUPPORTED_EXTENSIONS)


def _nothing_usable(inputs: list[Path], problems: list[Problem]) -> str:
    where = ", ".join(str(p) for p in inputs) or "(no inputs given)"
    if not problems:
        return f"no papers read from {where}"
    shown = "; ".join(str(p) for p in problems[:5])
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return f"no usable papers in {where}: {shown}{more}"
