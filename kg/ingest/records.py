"""Raw record (a dict from any reader) → :class:`~kg.models.Paper`. Only the abstract is
required; see :mod:`kg.ingest.fields` for the column names understood."""

from __future__ import annotations

import re
from typing import Any

from kg.ingest.clean import abstract_hash, clean_text
from kg.ingest.fields import FIELD_NAMES, field_key
from kg.ingest.readers import Raw
from kg.models import Paper, Problem

_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?(?:[^#\s]*&)?id=([A-Za-z0-9_\-]+)")
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/([A-Za-z\-.]*/?\d{4}\.?\d{4,5})(?:v\d+)?")
_DOI = re.compile(r"doi\.org/(10\.\d{4,9}/\S+)")
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_AND = re.compile(r"\s+and\s+|\s*&\s*")


def pick(fields: dict[str, Any]) -> dict[str, Any]:
    """The first non-empty value for each Paper field, found under any accepted name."""
    by_key: dict[str, Any] = {}
    for name, value in fields.items():
        by_key.setdefault(field_key(str(name)), value)
    picked: dict[str, Any] = {}
    for target, names in FIELD_NAMES.items():
        for name in names:
            value = by_key.get(name)
            if value not in (None, "", [], {}) and not (
                isinstance(value, str) and not value.strip()
            ):
                picked[target] = value
                break
    return picked


def to_paper(raw: Raw, origin: str) -> Paper | Problem:
    """Build a Paper from a raw record; a record without a usable abstract is a Problem.

    ``origin`` is the file's stem (kept for provenance in messages).
    """
    try:
        return _to_paper(raw, origin)
    except RecursionError:  # a field of lists in lists, ~1000 deep (JSON allows it)
        return Problem(raw.source, "a field is nested too deeply to read")


def _to_paper(raw: Raw, origin: str) -> Paper | Problem:
    values = pick(raw.fields)
    if "abstract" not in values:
        return Problem(raw.source, "record has no abstract")
    abstract = clean_text(_as_text(values["abstract"]))
    if not abstract:
        return Problem(raw.source, "abstract is empty after cleaning")
    venue = clean_text(_as_text(values.get("venue", "")))
    url = _as_text(values.get("url", "")).strip()
    return Paper(
        id=paper_id(values.get("id"), url, abstract, origin),
        abstract=abstract,
        title=clean_text(_as_text(values.get("title", ""))),
        venue=venue,
        year=parse_year(values.get("year")) or parse_year(venue),
        keywords=split_keywords(values.get("keywords")),
        authors=split_authors(values.get("authors")),
        primary_area=clean_text(_as_text(values.get("primary_area", ""))),
        url=url,
        source=raw.source,
    )


def paper_id(given: Any, url: str, abstract: str, origin: str) -> str:
    """A source id when the record has one (as given; OpenReview forum ids from URLs; arXiv
    and DOI links as ``arxiv:``/``doi:``), else ``paper:`` + hash of the abstract."""
    if given not in (None, "") and not isinstance(given, (list, dict)):
        if isinstance(given, float) and given.is_integer():
            given = int(given)
        text = str(given).strip()
        if text:
            # Kept exactly as given, numeric ones too (CSFCube and S2 ids are numbers): the
            # id is what `kg related --json` reports, and the same id means the same paper.
            return text
    if url:
        for pattern, prefix in ((_OPENREVIEW, ""), (_ARXIV, "arxiv:"), (_DOI, "doi:")):
            m = pattern.search(url)
            if m:
                return prefix + m.group(1)
    return abstract_hash(abstract)


def parse_year(value: Any) -> int | None:
    """2018, "2018", "2018.0", "2018-05-01", "ICLR 2026 Poster" → the year; else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        year = int(value)
        return year if 1800 <= year <= 2099 and year == value else None
    m = _YEAR.search(str(value))
    return int(m.group(1)) if m else None


def split_keywords(value: Any) -> list[str]:
    """A list, or a string split on ';' (when it has any) or ','."""
    if value in (None, ""):
        return []
    if isinstance(value, (list, tuple)):
        parts = [_as_text(v) for v in value]
    else:
        text = _as_text(value)
        parts = text.split(";") if ";" in text else text.split(",")
    return _unique(clean_text(p) for p in parts)


def split_authors(value: Any) -> list[str]:
    """A list (of names or of {"name": ...} objects), or a string separated by ';', ',' or
    'and' ("A; B", "A, B and C", "Smith, J. and Doe, J.")."""
    if value in (None, ""):
        return []
    if isinstance(value, (list, tuple)):
        names = [v.get("name", "") if isinstance(v, dict) else _as_text(v) for v in value]
    else:
        text = _as_text(value)
        if ";" in text:
            names = text.split(";")
        else:
            parts = [p for p in _AND.split(text) if p.strip()]
            if len(parts) > 1 and all(p.count(",") == 1 for p in parts):
                names = parts  # BibTeX style "Last, First and Last, First"
            else:
                names = [n for p in parts for n in p.split(",")]
    return _unique(clean_text(re.sub(r"^\s*and\s+", "", n)) for n in names)


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, (list, tuple)):
        return str(value)
    # Abstracts stored as a list of paragraphs: the leaves, in order, joined by blank lines
    # (without recursion, as lists in lists can be nested as deep as JSON allows).
    leaves: list[str] = []
    stack: list[Any] = [iter(value)]
    while stack:
        item = next(stack[-1], stack)  # the stack itself: this list is done
        if item is stack:
            stack.pop()
        elif isinstance(item, (list, tuple)):
            if item:
                stack.append(iter(item))
            else:
                leaves.append("")
        else:
            leaves.append("" if item is None else str(item))
    return "\n\n".join(leaves)


def _unique(items: Any) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item and item not in seen:
            seen[item] = None
    return list(seen)
