"""The words that stand for a paper's proposed entity: "we", "our method", "this approach", an
"It" that opens a sentence with what a method does; and which mention is the proposed one.

kg's relation rules (:mod:`kg.extract.relations`) and result claims (:mod:`kg.extract.results`)
take a stand-in as they take a mention, and state what they find of the proposed mention.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacy.tokens import Doc, Token

from kg.extract.lexicon import read_data_lines
from kg.extract.rows import UNNAMED
from kg.extract.spans import Arg, Mention, pseudo_mention
from kg.schema import Rel

GENERIC_HEADS = "relations/generic_heads.txt"
STAND_IN_DETERMINERS = "relations/stand_in_determiners.txt"
IT_VERBS_SKIPPED = "relations/it_verbs_skipped.txt"
IT_OPENERS_SKIPPED = "relations/it_openers_skipped.txt"
_HEADS = frozenset(
    w + plural for w in map(str.lower, read_data_lines(GENERIC_HEADS)) for plural in ("", "s")
)
_OWN = tuple(tuple(d.split()) for d in read_data_lines(STAND_IN_DETERMINERS))
_MODIFIER_TAGS = frozenset({"JJ", "JJR", "JJS", "VBN", "VBG", "CC"})
_IT_SKIPPED = frozenset(read_data_lines(IT_VERBS_SKIPPED))
_IT_OPENERS_SKIPPED = tuple(tuple(o.split()) for o in read_data_lines(IT_OPENERS_SKIPPED))
#: The most tokens of an opening phrase before ", it" ("In particular, it achieves").
_IT_OPENER = 3


def stand_ins(doc: Doc, taken: Sequence[bool]) -> list[Mention]:
    """Words for the paper's proposed entity, as :data:`GENERIC` mention dicts (``source``
    "stand_in") on tokens no mention takes (``taken``): "we" (``refers`` "we": the authors'
    method), and a generic head noun (generic_heads.txt) after "our", "this", "the proposed"
    (stand_in_determiners.txt), modifiers between ("our simple method"; ``refers`` "own"), and
    "It" opening a sentence with what a method does ("It outperforms ...": :func:`is_own_it`,
    ``refers`` "own"). The span is the noun alone, as SciERC writes a Generic mention."""
    found = []
    for tok in doc:
        if taken[tok.i]:
            continue
        if tok.lower_ == "we":
            found.append(pseudo_mention(tok, "stand_in", refers="we"))
        elif (is_generic_head(tok) and _after_own_determiner(doc, tok.i)) or is_own_it(tok):
            found.append(pseudo_mention(tok, "stand_in", refers="own"))
    return found


def is_own_it(tok: Token) -> bool:
    """Whether ``tok`` is an "It" that opens a sentence and does something, adverbs between:
    "It outperforms ...", "It also reaches 80.3% on MMVP", "It then extracts ...".

    Why: in ICLR 2026 abstracts about 245 sentences open so (not counting "It is", "It can"),
    and in a sample of 30 all but two speak of the paper's own method or benchmark, named in
    the sentence before ("We propose FullPart, ... It first derives ..."). The expletive "It is
    worth", "It can be shown" and verbs of a finding ("It indicates that") are left out
    (``it_verbs_skipped.txt``).

    So is an "it" after a short opening phrase and a comma ("Moreover, it outperforms ...",
    "In particular, it achieves ..."): about 150 ICLR 2026 sentences, most of them about the
    paper's method or benchmark, but not after a contrast, a time before the paper or a
    concession ("However, it remains", "While promising, it poses": ``it_openers_skipped.txt``).
    """
    if tok.lower_ != "it" or not (tok.is_sent_start or _after_an_opener(tok)):
        return False
    verb = next((t for t in tok.doc[tok.i + 1 : tok.i + 4] if t.tag_ not in ("RB", ",")), None)
    if verb is None or verb.lower_ in _IT_SKIPPED:
        return False
    if verb.tag_ == "MD":
        return verb.i + 1 < len(tok.doc) and tok.doc[verb.i + 1].lower_ != "be"
    return verb.tag_ in ("VBZ", "VBD")


def _after_an_opener(tok: Token) -> bool:
    """Whether ``tok`` follows a comma that closes a sentence's first one to
    :data:`_IT_OPENER` tokens, which no word of ``it_openers_skipped.txt`` begins."""
    doc, start = tok.doc, tok.sent.start
    if not (tok.i >= 2 and doc[tok.i - 1].text == "," and tok.i - 1 - start <= _IT_OPENER):
        return False
    words = tuple(t.lower_ for t in doc[start : tok.i - 1])
    return not any(words[: len(o)] == o for o in _IT_OPENERS_SKIPPED)


def is_generic_head(tok: Token) -> bool:
    """A generic head noun ("method"), not the modifier of another noun ("method design")."""
    last = tok.i + 1 == len(tok.doc)
    return tok.lower_ in _HEADS and tok.tag_.startswith("NN") and (
        last or not tok.nbor(1).tag_.startswith("NN")
    )  # fmt: skip


def _after_own_determiner(doc: Doc, i: int) -> bool:
    """Whether "our", "this", "the proposed" ... comes before token ``i``, modifiers between."""
    start = i
    while start > 0 and i - start < 4 and doc[start - 1].tag_ in _MODIFIER_TAGS:
        start -= 1
    for k in range(start, i + 1):  # the modifiers may begin a determiner ("the proposed")
        words = tuple(t.lower_ for t in doc[max(0, k - 3) : k])
        if any(words[len(words) - len(d) :] == d for d in _OWN):
            return True
    return False


def proposed_mention(mentions: Sequence[Mention]) -> Mention | None:
    """The mention of the paper's proposed entity: its first PROPOSES method, else its first
    PROPOSES mention, else None."""
    proposed = [m for m in mentions if m.get("role") == str(Rel.PROPOSES)]
    methods = [m for m in proposed if m["label"] == "Method"]
    return (methods or proposed)[0] if proposed else None


def unnamed_proposal() -> Mention:
    """What "we" and "our method" stand for in an abstract that names no proposal: a method
    no sentence writes. "RayI2P: Learning Rays for Image-to-Point Cloud Registration" says
    "Experiments on KITTI and nuScenes show that our approach ..." and names RayI2P only in
    its title. The relations and results stated of it travel as row
    :data:`~kg.extract.rows.UNNAMED_ROW`; the build gives them the title's name
    (:func:`kg.resolve.titles.link_titles`) or, without one, drops them."""
    return {
        "start": -1, "end": -1, "text": "", "label": "Method", "role": str(Rel.PROPOSES),
        "canonical": "", "sent_start": -1, "sent_end": -1, "source": UNNAMED, "confidence": 1.0,
    }  # fmt: skip


def proposal_of(mentions: Sequence[Mention]) -> Mention:
    """What "we" and "our method" stand for: the paper's proposed mention
    (:func:`proposed_mention`), else :func:`unnamed_proposal`."""
    return proposed_mention(mentions) or unnamed_proposal()


def own_names(proposed: dict[str, Any], args: Sequence[Arg]) -> frozenset[str]:
    """The casefolded names the paper's proposed mention goes by: its text, its canonical
    form, and an acronym written in brackets inside it ("Dendritic LIF (DLIF) model")."""
    names = {proposed["text"].casefold(), proposed["canonical"].casefold()}
    for _, _, m in args:
        if f"({m['text']})" in proposed["text"]:
            names.add(m["text"].casefold())
    return frozenset(names)


def own_stand_in(doc: Doc, at: int, refers: str = "own") -> Arg:
    """The token at ``at`` as a stand-in for the paper's own method: an evaluation cue
    ("Experiments on ..."), the noun after "our", an opening "It"."""
    return (at, at + 1, pseudo_mention(doc[at], "stand_in", refers=refers))


def is_own(m: dict[str, Any], names: frozenset[str]) -> bool:
    """Whether an argument is the paper's own method: "our method" (not "we"), or a method
    written by one of its ``names`` (:func:`own_names`)."""
    if m.get("source") == "stand_in":
        return m.get("refers") == "own"
    return m["label"] == "Method" and m["text"].casefold() in names
