"""Frames: relations a sentence states by its shape, not by the words between two mentions.

Five frames, each a finder of :data:`FRAME_FINDERS` that ``kg_relations`` runs after its token
patterns: *evaluation frames*, the datasets and tasks a sentence evaluates the paper's own method
on (this module); *component frames*, the parts a sentence lists after announcing them ("ReMix
consists of three major components: (1) ..., (2) ...": :mod:`kg.extract.part_frames`);
*contrast frames*, the methods a sentence sets the paper's against ("Unlike GRPO, ReMix ...":
:mod:`kg.extract.contrast_frames`); the *baseline frame* (:mod:`kg.extract.baselines`), the
named methods a sentence's claimant outperforms, however far apart; and the *applied frame*
(:mod:`kg.extract.applied_frames`), the named models it is applied to ("boosts the accuracy of
Qwen3-8B").

Abstracts report their evaluation in sentences that name the method and put the datasets
under "on", "across" or "over", often far apart and in every order: "On five math reasoning
benchmarks (i.e., AIME'24, AMC'23, ...), ReMix achieves 52.1%", "Experiments on NATS-Bench
demonstrate that ConNAS ...", "WaltzRL reduces unsafe responses (from 39.0% to 4.6% on
WildJailbreak)". No token pattern between two mentions catches that: the words between vary
without end. So a sentence is read as a frame instead: when it names the paper's proposed
method (by its name, its acronym or "our method") and a named dataset stands under one of
those prepositions, the method is EVALUATED_ON the dataset; a named model there ("Experiments
on Qwen2.5-7B and Llama-3-8B show ...": :func:`kg.extract.applied_frames.reads_as_model`) is
one the method is applied to, USED_FOR, unless the preposition compares ("improves over X").
A sentence that reports an evaluation without naming the method ("Experiments on ZsRE and
CounterFact show ...") speaks of it as well when an evaluation cue stands right before the
preposition (``evaluation_cues.txt``).

The preposition must govern the dataset: scanning left from the dataset, only nouns,
adjectives, numbers, brackets, commas, "and", list openers ("such as", "including",
"e.g.": ``list_openers.txt``) and the words of hyphenated names ("Needle-In-A-Haystack",
"text-to-image") may stand between them; a verb, a relative pronoun or another
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

from spacy.tokens import Doc

from kg.extract.applied_frames import (
    APPLIED_CONFIDENCE,
    APPLIED_RULE,
    applied_frames,
    reads_as_model,
)
from kg.extract.baselines import BASELINE_CONFIDENCE, BASELINE_RULE, baseline_frames
from kg.extract.claimants import inside_compound, is_compared
from kg.extract.contrast_frames import CONTRAST_CONFIDENCE, CONTRAST_RULE, contrast_frames
from kg.extract.lexicon import load_lexicon, read_data_lines
from kg.extract.names import has_capital_or_digit
from kg.extract.part_frames import COMPONENT_CONFIDENCE, COMPONENT_RULE, component_frames
from kg.extract.spans import CLAUSE_TAGS, Arg, by_sentence
from kg.extract.stand_ins import is_own, own_names, own_stand_in

#: The ``rule`` of a relation an evaluation frame found, and its confidence.
FRAME_RULE = "evaluation_frame"
FRAME_CONFIDENCE = 0.55
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
#: Tags that end the scan from a dataset back to its preposition: what opens a clause (verbs,
#: relatives, modals, "to"), prepositions (other than the evaluation ones, checked first) and
#: an existential "there".
_ENDS_SCAN = CLAUSE_TAGS | {"IN", "EX"}
#: Words the scan passes over although their tag would end it ("benchmarks like GQA").
_PASSED = frozenset(w for opener in _OPENERS for w in opener)
#: Nouns of a kind of method (``method_heads.txt``, singular and plural): a list they head
#: holds models, whatever its members are typed ("across architectures including ResNet").
_METHOD_NOUNS = frozenset(h + s for h in load_lexicon().method_heads for s in ("", "s"))




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
        # (a word inside a hyphenated name is part of the name: "on Needle-In-A-Haystack,
        # LongBench, ...")
        if tok.tag_ in _ENDS_SCAN and not (
            word in _PASSED or _modifies_noun(doc, i) or inside_compound(doc, i)
        ):
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
        heads = [a for a in group if is_own(a[2], names)]
        for arg in group:
            m = arg[2]
            kind = FRAME_TYPES.get(m["label"])
            unnamed = not has_capital_or_digit(m["text"])
            if kind is None and m["label"] == "Method" and _data_list_member(doc, arg[0], first):
                kind = "EVALUATED_ON"  # "on five benchmarks—BrowserComp, GAIA, ...": data
            if reads_as_model(doc, arg) and not is_compared(doc, arg[0], arg[1], first):
                # "Experiments on Qwen2.5-7B and Llama-3-8B show ...": models the paper's method
                # is applied to, however the sentence types them (kg.extract.applied_frames)
                kind = "USED_FOR"
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
                found.append((own_stand_in(doc, cue), kind, arg))
    return found


#: Each frame finder, the ``rule`` its relations carry and their confidence.
FRAME_FINDERS = (
    (evaluation_frames, FRAME_RULE, FRAME_CONFIDENCE),
    (component_frames, COMPONENT_RULE, COMPONENT_CONFIDENCE),
    (contrast_frames, CONTRAST_RULE, CONTRAST_CONFIDENCE),
    (baseline_frames, BASELINE_RULE, BASELINE_CONFIDENCE),
    (applied_frames, APPLIED_RULE, APPLIED_CONFIDENCE),
)
