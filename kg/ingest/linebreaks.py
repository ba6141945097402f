"""Words a PDF's line breaks split: "classifi- cation", "CI- FAR10", "data- centric".

Abstracts copied from a PDF keep the hyphen that broke a word at the end of a line, and a space
for the line break (about 70 of the 5,296 ICLR 2018 and 2026 abstracts, 170 words). A name
broken so is a broken node ("Soft At- tention", "CI- FAR10"), and a sentence with a broken word
reads badly as evidence. Whether the hyphen was the line's or the word's ("data- centric") the
text alone cannot say, so the corpus decides: the word is mended as the other abstracts write
it, joined ("classification") or hyphenated ("data-centric"), and left as it is when they
write it neither way. "pre- and post-training" is a list, never a break.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from kg.models import Paper

#: A word, a hyphen, a space and a word: where a line may have broken a word.
_BREAK = re.compile(r"\b([A-Za-z][A-Za-z0-9]*)- ([A-Za-z][A-Za-z0-9]*)\b")
#: A word as the corpus writes it (lower case), hyphenated compounds whole.
_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: Words after "X- " that make it one half of a list: "pre- and post-training", "on- vs.
#: off-policy", "short- to long-term".
_LIST_WORDS = frozenset({"and", "or", "nor", "to", "vs", "versus", "as", "but", "than", "from"})


def mend_line_breaks(papers: list[Paper]) -> list[Paper]:
    """``papers`` with the words their abstracts' line breaks split written whole, as the
    titles and abstracts of ``papers`` write them elsewhere (the same objects when there is
    nothing to mend).

    >>> from kg.models import Paper
    >>> ps = [Paper("a", "A classifi- cation of data- centric and pre- and post-training."),
    ...       Paper("b", "Data-centric classification.")]
    >>> mend_line_breaks(ps)[0].abstract
    'A classification of data-centric and pre- and post-training.'
    """
    breaks = {(a, b) for p in papers if "- " in p.abstract for a, b in _BREAK.findall(p.abstract)}
    breaks = {(a, b) for a, b in breaks if b.lower() not in _LIST_WORDS}
    if not breaks:
        return papers
    wanted = {f"{a}{b}".lower() for a, b in breaks} | {f"{a}-{b}".lower() for a, b in breaks}
    written = _written(wanted, (text for p in papers for text in (p.title, p.abstract)))

    def mended(m: re.Match[str]) -> str:
        a, b = m.group(1), m.group(2)
        if b.lower() in _LIST_WORDS:
            return m.group(0)
        if f"{a}{b}".lower() in written:
            return f"{a}{b}"
        if f"{a}-{b}".lower() in written:
            return f"{a}-{b}"
        return m.group(0)

    out = []
    for p in papers:
        text = _BREAK.sub(mended, p.abstract) if "- " in p.abstract else p.abstract
        out.append(p if text == p.abstract else replace(p, abstract=text))
    return out


def _written(wanted: set[str], texts: Iterable[str]) -> set[str]:
    """The words of ``wanted`` (lower case) that ``texts`` write, whole or as a part of a
    hyphenated compound ("classification" in "classification-based")."""
    found: set[str] = set()
    for text in texts:
        for word in _WORD.findall(text.lower()):
            if word in wanted:
                found.add(word)
            if "-" in word:
                found.update(part for part in word.split("-") if part in wanted)
    return found
