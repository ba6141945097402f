"""The phrases of a title that name an entity of the corpus (:mod:`kg.resolve.titles` links
and relates what they name).

A title is written in title case, so its phrases are looked up by merge key against what the
abstracts of the corpus name (:class:`TitleIndex`: entities two papers or more name, by the keys
their mentions have), longest first from the left (:func:`find_phrases`). Words that open or
close a phrase (``TITLE_STOP_WORDS``) never start or end a matched phrase: "A Regularization
Perspective" is not "regularization". One capitalised word cannot be told from a name in title
case ("Reasoning", "Memory"), so a single word counts only when written as a name is
(:func:`written_as_name`: "GRPO", "LoRA", "GPT-4o").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from kg.extract.lexicon import read_data_lines
from kg.extract.normalize import fold_letter_numbers, normalize_key
from kg.models import Entity, Mention
from kg.resolve.names import name_key
from kg.resolve.words import word_list

#: Papers whose abstracts must name an entity before a title's phrase links to it: one
#: abstract's odd typing or span does not spread to every title that shares its words.
MIN_SUPPORT = 2
#: The longest phrase looked up, in words.
MAX_WORDS = 8
#: Words that never open or close a matched phrase: ``title_stop_words.txt``.
TITLE_STOP_WORDS = frozenset(word_list("title_stop_words.txt"))

#: The words normalize_key drops from the start of a form (it would from a title's phrase).
_LEADING_WORDS = frozenset(read_data_lines("leading_words.txt"))
_WORD = re.compile(r"[\w$\\][\w$\\'’+./-]*")


@dataclass(frozen=True)
class Phrase:
    """An entity a title names: words ``start``..``end`` (exclusive) of its segment."""

    start: int
    end: int
    text: str
    entity: str


def title_words(text: str) -> list[str]:
    """The words of a title segment, trailing dots and hyphens off.

    >>> title_words("KV-Cache Transform Coding for LLMs.")
    ['KV-Cache', 'Transform', 'Coding', 'for', 'LLMs']
    """
    return [w.rstrip(".-") for w in _WORD.findall(text) if w.rstrip(".-")]


def written_as_name(word: str) -> bool:
    """Whether one title word reads as a name whatever the title's case: a capital or a digit
    after its first letter.

    >>> [written_as_name(w) for w in ("GRPO", "LoRA", "GPT-4o", "Reasoning", "memory", "3D")]
    [True, True, True, False, False, True]
    """
    return len(word) > 1 and (word[1:].lower() != word[1:] or any(c.isdigit() for c in word))


#: A title word :func:`span_key` can put together without :func:`normalize_key`: ASCII letters
#: and digits, single hyphens inside (no dots, no markup).
_PLAIN = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


#: A plain word's parts of a merge key: inside a phrase, alone, last of a phrase.
WordKeys = tuple[str, str, str]


@lru_cache(maxsize=1 << 16)
def _word_keys(word: str) -> WordKeys | None:
    """The parts a plain word gives a merge key: inside a phrase, alone, and last of a phrase
    (singular there when it reads as a plural); None for any other word."""
    if not _PLAIN.fullmatch(word):
        return None
    # (after "0", not a letter: "x 3D" would fold to "x3d")
    return word.lower(), name_key(word), normalize_key("0 " + word)[2:]


def span_key(words: list[str], i: int, j: int, parts: Sequence[WordKeys | None] = ()) -> str:
    """``normalize_key`` of ``words[i:j]`` joined, put together from each word's parts (a
    title has a few dozen phrases to look up, and each is new); ``parts``: the words'
    :func:`_word_keys`, when known.

    >>> words = title_words("Large Language Models for Code")
    >>> span_key(words, 0, 3), span_key(words, 4, 5), span_key(words, 2, 3)
    ('large-language-model', 'code', 'models')
    """
    inner = parts[i:j] if parts else [_word_keys(w) for w in words[i:j]]
    if any(p is None for p in inner) or words[i].lower() in _LEADING_WORDS:
        return normalize_key(" ".join(words[i:j]))
    if j - i == 1:
        return inner[0][1]  # type: ignore[index]
    joined = "-".join([*(p[0] for p in inner[:-1]), inner[-1][2]])  # type: ignore[index]
    return fold_letter_numbers(joined)


def find_phrases(
    words: list[str],
    lookup: Callable[[str], str | None],
    starts: Collection[str] | None = None,
    ends: Collection[str] | None = None,
) -> list[Phrase]:
    """The entities ``words`` name, longest first from the left, not overlapping, each ending
    its noun phrase (a stop word or the end comes after it). ``starts``
    and ``ends``: the first and last words of ``lookup``'s keys, when known; a phrase of plain
    words whose key would open or close with another word is not looked up.

    >>> lookup = {"diffusion-model": "concept:dm", "grpo": "method:grpo"}.get
    >>> [p.text for p in find_phrases(title_words("GRPO for Diffusion Models"), lookup)]
    ['GRPO', 'Diffusion Models']
    >>> find_phrases(title_words("A Diffusion Perspective"), {"diffusion": "m:d"}.get)
    []
    >>> lookup = {"contextual-information": "c:ci", "information-retrieval": "t:ir"}.get
    >>> [p.text for p in find_phrases(title_words("Contextual Information Retrieval"), lookup)]
    ['Information Retrieval']
    """
    parts = [_word_keys(w) for w in words]
    found: list[Phrase] = []
    i = 0
    while i < len(words):
        hit = None
        first = parts[i]
        if words[i].lower() not in TITLE_STOP_WORDS:
            opens = starts is None or first is None or first[0].partition("-")[0] in starts
            for j in range(min(len(words), i + MAX_WORDS), i, -1):
                if words[j - 1].lower() in TITLE_STOP_WORDS:
                    continue
                # A phrase ends its noun phrase: "Contextual Information" of "Contextual
                # Information Retrieval" is no phrase there, and must not hide the one that is.
                if j < len(words) and words[j].lower() not in TITLE_STOP_WORDS:
                    continue
                if j - i == 1 and not written_as_name(words[i]):
                    break
                last = parts[j - 1]
                if j - i > 1 and last is not None and first is not None:
                    if not opens:
                        continue
                    if ends is not None and last[2].rpartition("-")[2] not in ends:
                        continue
                eid = lookup(span_key(words, i, j, parts))
                if eid is not None:
                    hit = Phrase(i, j, " ".join(words[i:j]), eid)
                    break
        if hit is None:
            i += 1
        else:
            found.append(hit)
            i = hit.end
    return found


class TitleIndex:
    """The entities abstracts name in :data:`MIN_SUPPORT` papers or more, by the merge keys
    their mentions have (an acronym's too), for :func:`find_phrases`; a key two entities share
    is the one more papers name's. ``starts`` and ``ends``: the first and last words of every
    mention's key."""

    def __init__(self, mentions: dict[str, list[Mention]], entities: dict[str, Entity]) -> None:
        self.support = {eid: e.paper_count for eid, e in entities.items()}
        keys: dict[str, set[str]] = {}
        for ms in mentions.values():
            for m in ms:
                if m.key and m.entity in entities:
                    keys.setdefault(m.entity, {m.entity.partition(":")[2]}).update(mention_keys(m))
        self.entity_of: dict[str, str] = {}
        for eid in sorted(keys):
            if self.support[eid] < MIN_SUPPORT:
                continue
            for key in keys[eid]:
                held = self.entity_of.get(key)
                if key and (held is None or self.support[eid] > self.support[held]):
                    self.entity_of[key] = eid
        every = set().union(*keys.values()) if keys else set()
        self.starts = frozenset(key.partition("-")[0] for key in every)
        self.ends = frozenset(key.rpartition("-")[2] for key in every)


def mention_keys(m: Mention) -> tuple[str, ...]:
    """The merge keys a mention's entity is written with here: its own, and an acronym's
    ("RAS" of Retrieval-And-Structuring)."""
    if m.canonical and m.canonical != m.text:
        return m.key, name_key(m.text)
    return (m.key,)
