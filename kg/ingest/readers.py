"""Format readers: each turns one file into raw records (dicts with a source line) and
problems. They know about file formats only; :mod:`kg.ingest.records` turns a raw record into
a :class:`~kg.models.Paper`.

Every reader is a generator of :class:`Raw` and :class:`~kg.models.Problem` items, in file
order, so that strict mode can stop at the first problem.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kg.ingest.fields import has_abstract_column
from kg.models import Problem

# Abstracts can be long and a CSV field can hold several KB of LLM text (explain_zh).
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


@dataclass
class Raw:
    """One record as found in a file: field name → value, and where it starts."""

    fields: dict[str, Any]
    source: str  # "path:line" (or "path:item N" when a line is not known)


Item = Raw | Problem
Reader = Callable[[Path, str, str], Iterator[Item]]


def decode(path: Path, data: bytes) -> tuple[str | None, Problem | None]:
    """UTF-8 (with or without BOM) → text, or a Problem pointing at the bad byte's line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start : exc.start + 1].hex()
        return None, Problem(f"{path}:{line}", f"not valid UTF-8 (byte 0x{byte})")
    return text.replace("\r\n", "\n").replace("\r", "\n"), None


# --- plain text: the seeds format -----------------------------------------------------------

_SENTENCE_PUNCT = re.compile(r"[.!?;:]\s|[.!?;]$")


def is_header(paragraph: str) -> bool:
    """A collection header: one short line without sentence punctuation ("ICLR 2026 Papers")."""
    return (
        "\n" not in paragraph
        and len(paragraph) <= 100
        and len(paragraph.split()) <= 12
        and not _SENTENCE_PUNCT.search(paragraph)
    )


def paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """Blank-line-separated paragraphs with the 1-based line where each starts."""
    start = 0
    lines: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            if not lines:
                start = number
            lines.append(line.strip())
        elif lines:
            yield start, "\n".join(lines)
            lines = []
    if lines:
        yield start, "\n".join(lines)


def read_txt(path: Path, text: str, name: str) -> Iterator[Item]:
    """The seeds format: optional header line naming the collection, then one abstract per
    paragraph. The header becomes the papers' venue (and year, when it holds one)."""
    paras = list(paragraphs(text))
    header = ""
    if len(paras) > 1 and is_header(paras[0][1]):
        header = paras.pop(0)[1]
    elif len(paras) == 1 and is_header(paras[0][1]):
        yield Problem(f"{name}:{paras[0][0]}", "only a header line, no abstracts")
        return
    for line, para in paras:
        # Hard-wrapped paragraphs are one abstract: join their lines.
        fields: dict[str, Any] = {"abstract": " ".join(para.split("\n"))}
        if header:
            fields["venue"] = header
        yield Raw(fields, f"{name}:{line}")


# --- CSV / TSV --------------------------------------------------------------------------------


def read_csv(path: Path, text: str, name: str, delimiter: str = ",") -> Iterator[Item]:
    """CSV with a header row (RFC 4180 quoting, newlines inside quoted fields)."""
    # csv wants lines *with* their newlines to keep the newlines inside quoted fields; split
    # on "\n" only so that line_num counts the file's real lines.
    rows = csv.reader(io.StringIO(text, newline="\n"), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    start = 1
    try:
        for row in rows:
            line, start = start, rows.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = [cell.strip() for cell in row]
                if not has_abstract_column(header):
                    yield Problem(
                        f"{name}:{line}", f"no abstract column (columns: {', '.join(header)})"
                    )
                    return
                continue
            if len(row) > len(header):
                extra = row[len(header) :]
                if any(cell.strip() for cell in extra):
                    yield Problem(
                        f"{name}:{line}",
                        f"row has {len(row)} fields but the header has {len(header)}",
                    )
                    continue
            yield Raw(dict(zip(header, row, strict=False)), f"{name}:{line}")
    except csv.Error as exc:
        yield Problem(f"{name}:{start}", f"malformed CSV: {exc}")


def read_tsv(path: Path, text: str, name: str) -> Iterator[Item]:
    return read_csv(path, text, name, delimiter="\t")


# --- JSON and JSON Lines ---------------------------------------------------------------------

_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
# Where a top-level object keeps its records ({"papers": [...]}, {"data": [...]}, ...).
_LIST_KEYS = ("papers", "records", "data", "items", "results", "entries", "rows", "notes")


#: Python's json module parses nested arrays and objects recursively: deeper ones cannot be read.
_TOO_DEEP = "JSON nested too deeply to read (more than about 1000 levels)"


def _json_error(name: str, exc: json.JSONDecodeError) -> Problem:
    return Problem(f"{name}:{exc.lineno}", f"malformed JSON: {exc.msg} (column {exc.colno})")


def read_json(path: Path, text: str, name: str) -> Iterator[Item]:
    """A JSON list of records, or an object holding one (``{"papers": [...]}``). A top-level
    list is walked item by item so that every record gets the line where it starts."""
    pos = _WS.match(text).end()  # type: ignore[union-attr]
    if text.startswith("[", pos):
        parsed = _json_list_items(text, pos, name)
        if isinstance(parsed, Problem):
            yield parsed
            return
        items, end = parsed
        end = _WS.match(text, end).end()  # type: ignore[union-attr]
        if end != len(text):
            yield _problem_at(name, text, end, "extra data after the list")
            return
        yield from _records(items)
        return
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        yield _json_error(name, exc)
        return
    except RecursionError:
        yield Problem(f"{name}:1", _TOO_DEEP)
        return
    if isinstance(doc, dict):
        records = _find_record_list(doc)
        if records is None:
            if _looks_like_record(doc):  # a single record
                yield Raw(doc, f"{name}:1")
            else:
                yield Problem(f"{name}:1", "JSON object holds no list of records")
            return
        key, values = records
        yield from _records(_located(text, key, values, name))
        return
    yield Problem(f"{name}:1", f"expected a JSON list of records, found {type(doc).__name__}")


def _located(text: str, key: str, values: list[Any], name: str) -> list[tuple[str, Any]]:
    """Sources for the records of ``{"key": [...]}``: the item's line when the list can be
    found again in the text unambiguously, else ``path:item N``."""
    starts = [m.end() - 1 for m in re.finditer(json.dumps(key) + r"\s*:\s*\[", text)]
    if len(starts) == 1:
        parsed = _json_list_items(text, starts[0], name)
        if not isinstance(parsed, Problem) and [v for _, v in parsed[0]] == values:
            return parsed[0]
    return [(f"{name}:item {i}", v) for i, v in enumerate(values, start=1)]


def _json_list_items(text: str, pos: int, name: str) -> tuple[list[tuple[str, Any]], int] | Problem:
    """Parse the list ``[item, item, ...]`` starting at ``pos`` one item at a time, recording
    each item's start line; return the items and the position after the list. A malformed
    file yields one Problem and no records: it is one document."""
    items: list[tuple[str, Any]] = []
    line, counted = 1, 0

    def line_at(at: int) -> int:
        nonlocal line, counted
        line += text.count("\n", counted, at)
        counted = at
        return line

    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    if text.startswith("]", pos):
        pos += 1
    else:
        while True:
            try:
                value, end = _DECODER.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                return _json_error(name, exc)
            except RecursionError:
                return Problem(f"{name}:{line_at(pos)}", _TOO_DEEP)
            items.append((f"{name}:{line_at(pos)}", value))
            pos = _WS.match(text, end).end()  # type: ignore[union-attr]
            if text.startswith(",", pos):
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                continue
            if text.startswith("]", pos):
                pos += 1
                break
            return _problem_at(name, text, pos, "expected ',' or ']'")
    return items, pos


def _problem_at(name: str, text: str, pos: int, what: str) -> Problem:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Problem(f"{name}:{line}", f"malformed JSON: {what} (column {column})")


def _find_record_list(doc: dict[str, Any]) -> tuple[str, list[Any]] | None:
    lowered = {str(k).lower(): k for k in doc}
    for key in _LIST_KEYS:
        if key in lowered and isinstance(doc[lowered[key]], list):
            return lowered[key], doc[lowered[key]]
    for key, value in doc.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return key, value
    return None


def _looks_like_record(doc: dict[str, Any]) -> bool:
    return any(str(k).lower() in ("abstract", "summary") for k in doc)


def _records(items: list[tuple[str, Any]]) -> Iterator[Item]:
    for source, value in items:
        if isinstance(value, dict):
            yield Raw(value, source)
        else:
            yield Problem(source, f"expected a JSON object, found {type(value).__name__}")


def read_jsonl(path: Path, text: str, name: str) -> Iterator[Item]:
    """One JSON object per line; blank lines are skipped, a bad line is a Problem."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            yield Problem(
                f"{name}:{number}", f"malformed JSON line: {exc.msg} (column {exc.colno})"
            )
            continue
        except RecursionError:
            yield Problem(f"{name}:{number}", _TOO_DEEP)
            continue
        if isinstance(value, dict):
            yield Raw(value, f"{name}:{number}")
        else:
            yield Problem(
                f"{name}:{number}", f"expected a JSON object, found {type(value).__name__}"
            )


READERS: dict[str, Reader] = {
    ".txt": read_txt,
    ".csv": read_csv,
    ".tsv": read_tsv,
    ".json": read_json,
    ".jsonl": read_jsonl,
    ".ndjson": read_jsonl,
}
