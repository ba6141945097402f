"""Contrast frames: the methods a sentence sets the paper's against.

"Compared to SAEs, our Sparse CLIP representations ...", "Unlike GRPO and PPO, we ...",
"Results show that, compared to SFT, SecP-Tuning ...": the sentence or a clause opens with a
contrast (``contrast_openers.txt``), and the paper's method (or another named method right
after the comma) is COMPARED_WITH each method the contrast names. A frame finder of
:data:`kg.extract.frames.FRAME_FINDERS`.

>>> from kg.extract.pipeline import load_pipeline
>>> from kg.extract.relations import relations_in
>>> doc = load_pipeline()("We propose ReMix. Unlike GRPO, ReMix reuses off-policy data.")
>>> [(r.head["text"], r.tail["text"]) for r in relations_in(doc, doc._.kg_mentions)
...  if r.rule == CONTRAST_RULE]
[('ReMix', 'GRPO')]
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

#: The ``rule`` of a relation a contrast frame found, and its confidence.
CONTRAST_RULE = "contrast_frame"
CONTRAST_CONFIDENCE = 0.6
#: The openers that set another method against the paper's.
_CONTRASTS = tuple(tuple(w.split()) for w in read_data_lines("relations/contrast_openers.txt"))
_CONTRAST_FIRST_WORDS = frozenset(words[0] for words in _CONTRASTS)
#: The words after which a contrast opens a clause: "Results show that, compared to Y, X ...".
_CLAUSE_OPENERS = frozenset({",", "that"})
#: How near the comma another method, not the paper's, must begin to be what the clause sets
#: against the contrasted ones ("Compared to FusedKV, FusedKV-Lite ...": at once).
NAMED_AFTER_COMMA = 1


def contrast_frames(
    doc: Doc,
    args: Sequence[Arg],
    proposed: dict[str, Any] | None,
    sentence_of: Sequence[int],
) -> list[tuple[Arg, str, Arg]]:
    """(method, "COMPARED_WITH", other method) for each method a clause sets against another
    before the next comma: "Compared to SAEs, our Sparse CLIP representations ...", "Unlike
    GRPO and PPO, we ...", "Results show that, compared to SFT, SecP-Tuning ...". The sentence
    or a clause after "that" or a comma opens with a contrast (``contrast_openers.txt``), and
    what follows the comma names the paper's method, says "we" or "our method", or is another
    method written as a name right after it ("Compared to FusedKV, FusedKV-Lite ...")."""
    starts = _contrast_starts(doc)
    names = own_names(proposed, args) if proposed and proposed["label"] == "Method" else None
    found = []
    for first, group in by_sentence(args, sentence_of).items():
        opener = _contrast_opener(doc, starts, first, group[-1][0])
        if opener is None:
            continue
        comma = next((i for i in range(opener, len(doc)) if doc[i].text == ","), None)
        if comma is None or sentence_of[comma] != first:
            continue
        after = next((a for a in group if a[0] > comma), None)
        if after is None:
            continue
        if names is not None and doc[after[0] - 1].lower_ == "our" and not is_own(after[2], names):
            after = own_stand_in(doc, after[0])  # "our Sparse CLIP representations"
        elif not (
            (names is not None and (is_own(after[2], names) or after[2].get("refers") == "we"))
            or (
                after[0] - comma <= NAMED_AFTER_COMMA
                and named_method(after[2])
                and not _in_list(doc, after[1])
            )
        ):
            continue
        # The contrasted methods end where a clause begins: "Unlike prior methods that rely
        # on sparse attention, ..." sets the paper against the methods, not their parts.
        end = next((i for i in range(opener, comma) if _opens_clause(doc, i)), comma)
        for arg in group:
            if opener <= arg[0] < end and arg[2]["label"] == "Method":
                found.append((after, "COMPARED_WITH", arg))
    return found


def _opens_clause(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is a verb or a relative, not a participle that modifies a noun
    ("existing methods", "fine-tuned models")."""
    tok = doc[i]
    if tok.tag_ in ("VBG", "VBN") and i + 1 < len(doc):
        return not doc[i + 1].tag_.startswith(("NN", "JJ"))
    return tok.tag_ in CLAUSE_TAGS


def _contrast_starts(doc: Doc) -> np.ndarray:
    """The tokens whose word may open a contrast ("compared", "unlike", "in" ...), found in the
    doc's array of words: reading every token would cost more."""
    ids = [doc.vocab.strings[w] for w in _CONTRAST_FIRST_WORDS]
    return np.flatnonzero(np.isin(doc.to_array("LOWER"), ids))


def _contrast_opener(doc: Doc, starts: np.ndarray, first: int, last: int) -> int | None:
    """The token after the contrast that opens the sentence at token ``first``, or a clause
    after "that" or a comma before token ``last``; None when there is none. ``starts``: the
    doc's :func:`_contrast_starts`."""
    for start in starts[np.searchsorted(starts, first) : np.searchsorted(starts, last)].tolist():
        if start > first and doc[start - 1].lower_ not in _CLAUSE_OPENERS:
            continue
        for words in _CONTRASTS:
            end = start + len(words)
            if end <= len(doc) and tuple(t.lower_ for t in doc[start:end]) == words:
                return end
    return None


def _in_list(doc: Doc, end: int) -> bool:
    """Whether a list goes on after the argument ending at token ``end``: "such as CFG, NASA,
    and NAG, ..." names NASA among the contrasted, not against them."""
    return end < len(doc) and doc[end].lower_ in (",", "and", "or")
