"""Column names: which record fields feed which :class:`~kg.models.Paper` attribute.

Names are matched case-insensitively, with spaces and hyphens read as underscores, against the
usual names of paper lists (OpenReview dumps, Paper Copilot, Semantic Scholar-style exports).
"""

from __future__ import annotations

import functools
import re

# Paper attribute → accepted column names, best first.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "abstract": ("abstract", "summary", "abstract_text", "paper_abstract", "text"),
    "title": ("title", "paper_title"),
    "keywords": ("keywords", "keyword", "author_keywords", "tags"),
    "authors": ("authors", "author", "author_names"),
    "year": ("year", "publication_year", "pub_year"),
    "venue": ("venue", "conference", "journal", "booktitle"),
    "id": ("id", "paper_id", "paperid", "openreview_id", "forum_id", "forum"),
    "url": ("url", "openreview_url", "openreview", "link", "paper_url", "forum_url", "site"),
    "primary_area": ("primary_area", "area", "subject_area"),
}


@functools.lru_cache(maxsize=1024)
def field_key(name: str) -> str:
    """ "Primary Area" / "primary-area" / " PRIMARY_AREA " → "primary_area"."""
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def has_abstract_column(columns: list[str]) -> bool:
    return any(field_key(c) in FIELD_NAMES["abstract"] for c in columns)
