"""Evaluation frames: the datasets a sentence evaluates the paper's own method on.

Abstracts report their evaluation in sentences that name the method and put the datasets
under "on", "across" or "over", often far apart and in every order: "On five math reasoning
benchmarks (i.e., AIME'24, AMC'23, ...), ReMix achieves 52.1%", "Experiments on NATS-Bench
demonstrate that ConNAS ...", "WaltzRL reduces unsafe responses (from 39.0% to 4.6% on
WildJailbreak)". No token pattern between two mentions catches that: the words between vary
without end. So a sentence is read as a frame instead: when it names the paper's proposed
method (by its name, its acronym or "our method") and a named dataset stands under one of
those prepositions, the method is EVALUATED_ON the dataset.

The preposition must govern the dataset: scanning left from the dataset, only nouns,
adjectives, numbers, brackets, commas, "and" and list openers ("such as", "including",
"e.g.": ``list_openers.txt``) may stand between them; a verb, a relative pronoun or another
preposition ends the scan, and so does a noun of a kind of method ("across architectures
including ResNet": those are models, whatever their type). Training data is not an evaluation: "trained on ImageNet", "based
on LAION" (``training_words.txt``) do not count.

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

from kg.extract.lexicon import load_lexicon, read_data_lines

#: The ``rule`` of a relation an evaluation frame found, and its confidence.
FRAME_RULE = "evaluation_frame"
FRAME_CONFIDENCE = 0.55
#: What a frame says of the proposed method and a mention under evaluation, by the mention's
#: label: evaluated on a dataset, used for a task ("Our results on image classification and
#: survival analysis tasks demonstrate that CENs ..."). A dataset must be named (a capital or
#: a digit): "on standard benchmarks" names none.
FRAME_TYPES = {"Dataset": "EVALUATED_ON", "Task": "USED_FOR"}

_PREPOSITIONS = frozenset(read_data_lines("relations/evaluation_prepositions.txt"))
_OPENERS = tuple(tuple(w.split()) for w in read_data_lines("relations/list_openers.txt"))
_TRAINING = frozenset(read_data_lines("relations/training_words.txt"))
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

Arg = tuple[int, int, dict[str, Any]]


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
    (``training_words.txt``; adverbs between are skipped).
    """
    i = start - 1
    while i >= first:
        tok = doc[i]
        word = tok.lower_
        if word in _PREPOSITIONS:
            j = i - 1
            while j >= first and doc[j].tag_ in ("RB", "RBR", "RBS"):
                j -= 1
            return j < first or doc[j].lower_ not in _TRAINING
        if word not in _PASSED and tok.tag_ in _ENDS_SCAN:
            return False
        if word in _METHOD_NOUNS and tok.tag_.startswith("NN"):
            return False
        i -= 1
    return False


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
    by_sentence: dict[int, list[Arg]] = {}
    for arg in args:
        by_sentence.setdefault(sentence_of[arg[0]], []).append(arg)
    found = []
    for first, group in by_sentence.items():
        heads = [a for a in group if _is_own(a[2], names)]
        if not heads:
            continue
        for arg in group:
            m = arg[2]
            kind = FRAME_TYPES.get(m["label"])
            if (
                kind is not None
                and m.get("role") != "PROPOSES"
                and (kind != "EVALUATED_ON" or any(c.isupper() or c.isdigit() for c in m["text"]))
                and under_evaluation(doc, arg[0], first)
            ):
                found.append((heads[0], kind, arg))
    return found


def _is_own(m: dict[str, Any], names: frozenset[str]) -> bool:
    if m.get("source") == "stand_in":
        return m.get("refers") == "own"
    return m["label"] == "Method" and m["text"].casefold() in names
