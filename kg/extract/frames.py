"""Frames: relations a sentence states by its shape, not by the words between two mentions.

Three frames, each a finder of :data:`FRAME_FINDERS` that ``kg_relations`` runs after its token
patterns: *evaluation frames*, the datasets and tasks a sentence evaluates the paper's own method
on (below); *component frames*, the parts a sentence lists after announcing them ("ReMix
consists of three major components: (1) ..., (2) ...": :func:`component_frames`); and *contrast
frames*, the methods a sentence sets the paper's against ("Unlike GRPO, ReMix ...":
:func:`contrast_frames`). A fourth, the *baseline frame* (:mod:`kg.extract.baselines`), joins
them: the named methods a sentence's claimant outperforms, however far apart.

Abstracts report their evaluation in sentences that name the method and put the datasets
under "on", "across" or "over", often far apart and in every order: "On five math reasoning
benchmarks (i.e., AIME'24, AMC'23, ...), ReMix achieves 52.1%", "Experiments on NATS-Bench
demonstrate that ConNAS ...", "WaltzRL reduces unsafe responses (from 39.0% to 4.6% on
WildJailbreak)". No token pattern between two mentions catches that: the words between vary
without end. So a sentence is read as a frame instead: when it names the paper's proposed
method (by its name, its acronym or "our method") and a named dataset stands under one of
those prepositions, the method is EVALUATED_ON the dataset. A sentence that reports an
evaluation without naming the method ("Experiments on ZsRE and CounterFact show ...") speaks of
it as well when an evaluation cue stands right before the preposition (``evaluation_cues.txt``).

The preposition must govern the dataset: scanning left from the dataset, only nouns,
adjectives, numbers, brackets, commas, "and" and list openers ("such as", "including",
"e.g.": ``list_openers.txt``) may stand between them; a verb, a relative pronoun or another
preposition ends the scan, and so does a noun of a kind of method ("across architectures
including ResNet": those are models, whatever their type). Training data is not an evaluation:
"trained on ImageNet", "based on LAION" (``training_words.txt``) do not count.

>>> from kg.extract.pipeline import load_pipeline
>>> from kg.extract.relations import relations_in
>>> doc = load_pipeline()("We propose FooNet. On ImageNet, FooNet reaches 81% top-1 accuracy.")
>>> [(r.head["text"], r.type, r.tail["text"], r.rule) for r in relations_in(doc, doc._.kg_mentions)
...  if r.type == "EVALUATED_ON"]
[('FooNet', 'EVALUATED_ON', 'ImageNet', 'evaluation_frame')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from spacy.tokens import Doc

from kg.extract.baselines import BASELINE_CONFIDENCE, BASELINE_RULE, baseline_frames
from kg.extract.lexicon import load_lexicon, read_data_lines
from kg.extract.names import has_capital_or_digit
from kg.extract.spans import Arg, by_sentence, pseudo_mention

#: The ``rule`` of a relation an evaluation frame found, and its confidence.
FRAME_RULE = "evaluation_frame"
FRAME_CONFIDENCE = 0.55
COMPONENT_RULE = "component_frame"
COMPONENT_CONFIDENCE = 0.6
CONTRAST_RULE = "contrast_frame"
CONTRAST_CONFIDENCE = 0.6
#: What a frame says of the proposed method and a mention under evaluation, by the mention's
#: label: evaluated on a dataset, used for a task ("Our results on image classification and
#: survival analysis tasks demonstrate that CENs ..."). A dataset must be named (a capital or
#: a digit): "on standard benchmarks" names none.
FRAME_TYPES = {"Dataset": "EVALUATED_ON", "Task": "USED_FOR"}

_PREPOSITIONS = frozenset(read_data_lines("relations/evaluation_prepositions.txt"))
_CUES = frozenset(read_data_lines("relations/evaluation_cues.txt"))
#: Prepositions that govern a dataset only after an evaluation cue: "experiments using X".
_CUE_PREPOSITIONS = frozenset({"using", "with"})
#: Verbs that are an evaluation cue after one: "experiments ... were conducted on X".
_DONE = frozenset({"conducted", "performed"})
#: Labels of what, written before an evaluation cue, makes the evaluation another system's.
_OTHER_SYSTEMS = frozenset({"Method", "Concept", "Generic"})
_OPENERS = tuple(tuple(w.split()) for w in read_data_lines("relations/list_openers.txt"))
TRAINING_WORDS = frozenset(read_data_lines("relations/training_words.txt"))
_QUANTITIES = frozenset(read_data_lines("relations/quantity_nouns.txt"))
#: Tags that end the scan from a dataset back to its preposition: verbs, relatives, modals,
#: "to", and prepositions (other than the evaluation ones, checked first).
_ENDS_SCAN = frozenset(
    {"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "WDT", "WP", "MD", "TO", "IN", "EX"}
)
#: Words the scan passes over although their tag would end it ("benchmarks like GQA").
_PASSED = frozenset(w for opener in _OPENERS for w in opener)
#: Nouns of a kind of method (``method_heads.txt``, singular and plural): a list they head
#: holds models, whatever its members are typed ("across architectures including ResNet").
_METHOD_NOUNS = frozenset(h + s for h in load_lexicon().method_heads for s in ("", "s"))

#: Component frames: the nouns that announce a system's parts, the words that count them, and
#: the sentence openers that stand for the paper's method ("It consists of two modules: ...").
_COMPONENT_NOUNS = frozenset(read_data_lines("relations/component_nouns.txt"))
_NUMBER_WORDS = frozenset({
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several",
    "multiple", "following",
})  # fmt: skip
_OWN_OPENERS = frozenset({"it", "this", "our"})
#: A comma item that opens with a verb or a relative ends an unnumbered list.
_ENDS_LIST = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "WDT", "WP", "MD", "TO"})
#: ... unless it is a relative clause of the item before and "and" or "or" goes on after it.
_RELATIVES = frozenset({"WDT", "WP"})
#: Contrast frames: the openers that set another method against the paper's.
_CONTRASTS = tuple(tuple(w.split()) for w in read_data_lines("relations/contrast_openers.txt"))
_CONTRAST_FIRST_WORDS = frozenset(words[0] for words in _CONTRASTS)
#: The words after which a contrast opens a clause: "Results show that, compared to Y, X ...".
_CLAUSE_OPENERS = frozenset({",", "that"})
#: How near the comma another method, not the paper's, must begin to be what the clause sets
#: against the contrasted ones ("Compared to FusedKV, FusedKV-Lite ...": at once).
NAMED_AFTER_COMMA = 1
_ROMAN = frozenset({"i", "ii", "iii", "iv", "v", "vi", "a", "b", "c", "d", "e"})


def own_names(proposed: dict[str, Any], args: Sequence[Arg]) -> frozenset[str]:
    """The casefolded names the paper's proposed mention goes by: its text, its canonical
    form, and an acronym written in brackets inside it ("Dendritic LIF (DLIF) model")."""
    names = {proposed["text"].casefold(), proposed["canonical"].casefold()}
    for _, _, m in args:
        if f"({m['text']})" in proposed["text"]:
            names.add(m["text"].casefold())
    return frozenset(names)


def under_evaluation(doc: Doc, start: int, first: int) -> bool:
    """Whether an evaluation preposition (``evaluation_prepositions.txt``) governs the mention
    that begins at token ``start`` of the sentence that begins at token ``first``.

    The words before the preposition must not make the mention training data
    (``training_words.txt``; adverbs between are skipped). "<quantity> of" is read through
    ("on a wide range of tasks such as X": ``quantity_nouns.txt``).
    """
    return governing_preposition(doc, start, first) is not None


def governing_preposition(doc: Doc, start: int, first: int) -> int | None:
    """The token index of the evaluation preposition that governs the mention beginning at
    token ``start`` (:func:`under_evaluation`), or None. "using" and "with" govern it too right
    after an evaluation cue ("experiments using the QuickDraw dataset": ``evaluation_cues.txt``).
    """
    i = start - 1
    while i >= first:
        tok = doc[i]
        word = tok.lower_
        cue_preposition = word in _CUE_PREPOSITIONS and _cue_before(doc, i, first) is not None
        if word in _PREPOSITIONS or cue_preposition:
            j = _skip_adverbs(doc, i - 1, first)
            return i if j < first or doc[j].lower_ not in TRAINING_WORDS else None
        if word == "of" and i > first and doc[i - 1].lower_ in _QUANTITIES:
            i -= 2  # "on a suite of benchmarks including X": the suite is what is under "on"
            continue
        if word not in _PASSED and tok.tag_ in _ENDS_SCAN and not _modifies_noun(doc, i):
            return None
        if word in _METHOD_NOUNS and tok.tag_.startswith("NN"):
            return None
        i -= 1
    return None


#: Tags after which a gerund modifies what follows ("question answering benchmarks",
#: "challenging reasoning tasks") rather than opening a clause.
_NOUN_PHRASE_TAGS = frozenset({"NN", "NNS", "JJ", "HYPH"})


def _modifies_noun(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is a gerund inside a noun phrase ("answering" of "question answering
    benchmarks"): followed by a common noun, an adjective or a hyphen, and no preposition of a
    cue ("using")."""
    tok = doc[i]
    return (
        tok.tag_ == "VBG"
        and tok.lower_ not in _CUE_PREPOSITIONS
        and i + 1 < len(doc)
        and doc[i + 1].tag_ in _NOUN_PHRASE_TAGS
    )


#: Nouns of data (``dataset_heads.txt``, singular and plural): a list they head holds
#: datasets, whatever its members are typed ("on five benchmarks—BrowserComp, GAIA, ...").
_DATA_NOUNS = frozenset(h + s for h in load_lexicon().dataset_heads for s in ("", "s"))
#: The tags of what stands between a list's head and its members: punctuation, names,
#: numbers, "and".
_LIST_TAGS = frozenset({",", ":", "HYPH", "CC", "NNP", "NNPS", "CD", "-LRB-", "-RRB-"})


def _data_list_member(doc: Doc, start: int, first: int) -> bool:
    """Whether the mention at token ``start`` is a member of a list a noun of data heads
    ("benchmarks—BrowserComp, GAIA", "datasets (GAIA, Seal-0 and WebWalker)", "benchmarks,
    including X"): only list words, names and punctuation between them."""
    i = start - 1
    while i >= first:
        tok = doc[i]
        if tok.lower_ in _DATA_NOUNS and tok.tag_.startswith("NN"):
            return True
        if tok.tag_ not in _LIST_TAGS and tok.lower_ not in _PASSED:
            return False
        i -= 1
    return False


def _skip_adverbs(doc: Doc, j: int, first: int) -> int:
    while j >= first and doc[j].tag_ in ("RB", "RBR", "RBS"):
        j -= 1
    return j


def _cue_before(doc: Doc, i: int, first: int) -> int | None:
    """The evaluation cue right before token ``i`` (adverbs between), or None: a word of
    ``evaluation_cues.txt``, or "conducted"/"performed" after one ("experiments involving the
    editing of 10,000 facts were conducted on ZsRE")."""
    j = _skip_adverbs(doc, i - 1, first)
    if j < first:
        return None
    word = doc[j].lower_
    if word in _CUES:
        return j
    if word in _DONE and any(doc[k].lower_ in _CUES for k in range(first, j)):
        return j
    return None


def _own_cue(doc: Doc, group: Sequence[Arg], cue: int, first: int) -> bool:
    """Whether the evaluation cue at token ``cue`` reports the paper's own evaluation: nothing
    before it in its sentence names another system ("bidirectional LMs outperform unidirectional
    LMs across extensive experiments on ...": a method, a concept or a generic "methods"; "we"
    may) and no relative clause holds it ("methods, which are trained and evaluated on ...")."""
    if any(doc[i].tag_ in ("WDT", "WP") for i in range(first, cue)):
        return False
    return not any(
        a[0] < cue and a[2]["label"] in _OTHER_SYSTEMS and a[2].get("refers") != "we"
        for a in group
    )


def _own_stand_in(doc: Doc, at: int, refers: str = "own") -> Arg:
    """The token at ``at`` as a stand-in for the paper's own method: an evaluation cue
    ("Experiments on ..."), the noun after "our", an opening "It"."""
    return (at, at + 1, pseudo_mention(doc[at], "stand_in", refers=refers))


def evaluation_frames(
    doc: Doc,
    args: Sequence[Arg],
    proposed: dict[str, Any] | None,
    sentence_of: Sequence[int],
) -> list[tuple[Arg, str, Arg]]:
    """(method argument, relation type, dataset or task argument) for each named dataset and
    each task a sentence evaluates the paper's proposed method on (see the module's
    docstring; :data:`FRAME_TYPES`); ``args`` in text order, as
    :func:`kg.extract.relations.argument_tokens` gives them; ``sentence_of``: each token's
    sentence's first token. The method argument is the name as written or the stand-in "our
    method"; "we" is not one: "we train on X and test on Y" puts X under "on" too."""
    if proposed is None or proposed["label"] != "Method":
        return []
    names = own_names(proposed, args)
    found = []
    for first, group in by_sentence(args, sentence_of).items():
        heads = [a for a in group if _is_own(a[2], names)]
        for arg in group:
            m = arg[2]
            kind = FRAME_TYPES.get(m["label"])
            unnamed = not has_capital_or_digit(m["text"])
            if kind is None and m["label"] == "Method" and _data_list_member(doc, arg[0], first):
                kind = "EVALUATED_ON"  # "on five benchmarks—BrowserComp, GAIA, ...": data
            if kind is None or m.get("role") == "PROPOSES" or (kind == "EVALUATED_ON" and unnamed):
                continue
            at = governing_preposition(doc, arg[0], first)
            if at is None:
                continue
            if heads:
                found.append((heads[0], kind, arg))
            elif (cue := _cue_before(doc, at, first)) is not None and _own_cue(
                doc, group, cue, first
            ):
                # A sentence that reports an evaluation without naming what it evaluates:
                # the paper's own method ("Experiments on ZsRE and CounterFact show ...").
                found.append((_own_stand_in(doc, cue), kind, arg))
    return found


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
            if _is_own(m, names) or m.get("refers") == "we":
                return arg
        if doc[first].lower_ in _OWN_OPENERS:
            return _own_stand_in(doc, first, refers="it")
    for arg in before:
        if _named_method(arg[2]):
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
        if not numbered and a < b and doc[a].tag_ in _ENDS_LIST:
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


def _is_own(m: dict[str, Any], names: frozenset[str]) -> bool:
    if m.get("source") == "stand_in":
        return m.get("refers") == "own"
    return m["label"] == "Method" and m["text"].casefold() in names


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
        if names is not None and doc[after[0] - 1].lower_ == "our" and not _is_own(after[2], names):
            after = _own_stand_in(doc, after[0])  # "our Sparse CLIP representations"
        elif not (
            (names is not None and (_is_own(after[2], names) or after[2].get("refers") == "we"))
            or (
                after[0] - comma <= NAMED_AFTER_COMMA
                and _named_method(after[2])
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
    return tok.tag_ in _ENDS_LIST


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


def _named_method(m: dict[str, Any]) -> bool:
    return m["label"] == "Method" and has_capital_or_digit(m["text"])


#: Each frame finder, the ``rule`` its relations carry and their confidence.
FRAME_FINDERS = (
    (evaluation_frames, FRAME_RULE, FRAME_CONFIDENCE),
    (component_frames, COMPONENT_RULE, COMPONENT_CONFIDENCE),
    (contrast_frames, CONTRAST_RULE, CONTRAST_CONFIDENCE),
    (baseline_frames, BASELINE_RULE, BASELINE_CONFIDENCE),
)
