"""Data files more than one stage reads: the English stop words (the text similarity leaves
them out of its terms; entity resolution skips them when it reads a phrase's words)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def english_stop_words() -> frozenset[str]:
    """``english_stop_words.txt``, one word a line (``#`` comments left out).

    >>> {"the", "of"} <= english_stop_words()
    True
    """
    text = resources.files("kg.data").joinpath("english_stop_words.txt").read_text("utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))
