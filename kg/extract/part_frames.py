"""Component frames: the parts of a system a sentence lists after announcing them.

"ReMix consists of three major components: (1) Mix-policy proximal policy gradient ...; (2)
KL-Convex policy constraint ...", "It integrates two key designs: a Linearized Metric Path and
a ... mechanism": each listed method is PART_OF the system (the paper's own, where the words
before the colon name it or say "we", "our", "It"). A frame finder of
:data:`kg.extract.frames.FRAME_FINDERS`.

>>> from kg.extract.pipeline import load_pipeline
>>> from kg.extract.relations import relations_in
>>> doc = load_pipeline()("We propose ReMix. ReMix consists of two components: (1) a Mix-policy "
...                        "gradient; (2) a KL-Convex policy constraint.")
>>> [(r.head["text"], r.tail["text"]) for r in relations_in(doc, doc._.kg_mentions)
...  if r.rule == COMPONENT_RULE]
[('Mix-policy gradient', 'ReMix'), ('KL-Convex policy constraint', 'ReMix')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from spacy.tokens import Doc

from kg.extract.lexicon import read_data_lines
from kg.extract.names import named_method
from kg.extract.spans import CLAUSE_TAGS, Arg, by_sentence
from kg.extract.stand_ins import is_own, own_names, own_stand_in

#: The ``rule`` of a relation a component frame found, and its confidence.
COMPONENT_RULE = "component_frame"
COMPONENT_CONFIDENCE = 0.6
#: The nouns that announce a system's parts, the words that count them, and the sentence
#: openers that stand for the paper's method ("It consists of two modules: ...").
_COMPONENT_NOUNS = frozenset(read_data_lines("relations/component_nouns.txt"))
_NUMBER_WORDS = frozenset({
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several",
    "multiple", "following",
})  # fmt: skip
_OWN_OPENERS = frozenset({"it", "this", "our"})
#: A comma item that opens with a verb or a relative (:data:`~kg.extract.spans.CLAUSE_TAGS`)
#: ends an unnumbered list, unless it is a relative clause of the item before and "and" or
#: "or" goes on after it.
_RELATIVES = frozenset({"WDT", "WP"})
_ROMAN = frozenset({"i", "ii", "iii", "iv", "v", "vi", "a", "b", "c", "d", "e"})


def component_frames(
    doc: Doc,
    args: Sequence[Arg],
    proposed: dict[str, Any] | None,
    sentence_of: Sequence[int],
) -> list[tuple[Arg, str, Arg]]:
    """(part, "PART_OF", whole) for each method a sentence lists as a part of a system after
    announcing its parts: "ReMix consists of three major components: (1) Mix-policy proximal
    policy gradient ...; (2) KL-Convex policy constraint ...", "It integrates two key designs:
    a Linearized Metric Path and a ... mechanism".

    The announcement is a component noun (``component_nouns.txt``) right before a colon, a
    number or "several" a few words before it. The whole is the paper's proposed method when
    the words before the colon name it or say "we", "our ...", or open with "It"/"This";
    otherwise the first named method before the colon; else there is none. The parts are the
    first method of each item after the colon: items are marked "(1)", "(i)", "1)" when the
    sentence numbers them, else split at commas, semicolons and "and".
    """
    names = own_names(proposed, args) if proposed and proposed["label"] == "Method" else None
    grouped = by_sentence(args, sentence_of)
    found = []
    for colon in _announcements(doc, sentence_of):
        first = sentence_of[colon]
        group = grouped.get(first, [])
        end = colon
        while end < len(doc) and sentence_of[end] == first:
            end += 1
        whole = _whole(doc, [a for a in group if a[0] < colon], names, first)
        if whole is None:
            continue
        for part in _items(doc, [a for a in group if a[0] > colon], colon + 1, end):
            if part[2]["label"] == "Method" and part[2] is not whole[2]:
                found.append((part, "PART_OF", whole))
    return found


def _announcements(doc: Doc, sentence_of: Sequence[int]) -> list[int]:
    """The colons after "N [key] components" (token indexes), the first of each sentence. The
    colons are found in the doc's array of words: reading every token would cost more."""
    colon_id = doc.vocab.strings[":"]
    colons = np.flatnonzero(doc.to_array("ORTH") == colon_id).tolist()
    found: dict[int, int] = {}
    for i in colons:
        first = sentence_of[i]
        if i == first or first in found or doc[i - 1].lower_ not in _COMPONENT_NOUNS:
            continue
        before = doc[max(first, i - 5) : i - 1]
        if any(t.tag_ == "CD" or t.lower_ in _NUMBER_WORDS for t in before):
            found[first] = i
    return sorted(found.values())


def _whole(
    doc: Doc, before: Sequence[Arg], names: frozenset[str] | None, first: int
) -> Arg | None:
    if names is not None:
        for arg in before:
            m = arg[2]
            if is_own(m, names) or m.get("refers") == "we":
                return arg
        if doc[first].lower_ in _OWN_OPENERS:
            return own_stand_in(doc, first, refers="it")
    for arg in before:
        if named_method(arg[2]):
            return arg
    return None


def _items(doc: Doc, after: Sequence[Arg], start: int, end: int) -> list[Arg]:
    """The first argument of each item of the list from token ``start``."""
    marks = [
        i + 2 if doc[i].text == "(" else i + 1
        for i in range(start, end - 1)
        if (doc[i].text == "(" and i + 2 < end and _is_enumerator(doc[i + 1].text)
            and doc[i + 2].text == ")")
        or (doc[i].text != "(" and _is_enumerator(doc[i].text) and doc[i + 1].text == ")"
            and (i == start or doc[i - 1].text != "("))
    ]  # fmt: skip
    numbered = bool(marks)
    if not numbered:
        marks = [start] + [i + 1 for i in range(start, end) if doc[i].lower_ in (",", ";", "and")]
    items = []
    for a, b in zip(marks, [*marks[1:], end], strict=True):
        inside = [arg for arg in after if a <= arg[0] < b]
        if not numbered and a < b and doc[a].tag_ in CLAUSE_TAGS:
            if inside and inside[0][0] == a:
                pass  # a name the tagger read as a verb: "Directed Prior Augmentation (DPA)"
            elif doc[a].tag_ in _RELATIVES and b < end and doc[b].lower_ in ("and", "or"):
                continue  # "the Actor Agent, which plays the game, and the Evolver Agent"
            else:
                break  # "A, B and C, reaching D": the list is over
        if inside:
            items.append(inside[0])
    return items


def _is_enumerator(text: str) -> bool:
    return text.isdigit() and len(text) == 1 or text in _ROMAN
