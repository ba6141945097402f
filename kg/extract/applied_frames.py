"""Applied frames: the named models a sentence's claimant is applied to.

Abstracts that propose a method for models say which models they tried it on, in words no
pattern between two mentions covers: "DND boosts the performances of the dense Qwen3-1.7B,
Llama3.2-1B, and Gemma3-1B by 1.88%, ...", "MoBE can reduce the parameter counts of
Qwen3-235B-A22B ...", "SlowFast Sampling achieves up to 15.63× speedup on LLaDA", "we applied
RegionE to state-of-the-art base models, including Step1X-Edit". Each says that the method is
used for the model (``USED_FOR``, Method → Method, as SciERC writes "X applied to Y").

A model is governed by one of these cues, scanning left over modifiers, nouns and list joins
as the baseline frame does (:mod:`kg.extract.baselines`):

* "<quality> of": a metric's head, a Metric mention, or a quality of a model
  (``model_qualities.txt``: "performance", "parameter counts", "latency") before "of", in a
  sentence that reports a change (``result_change_cues.txt``: "boosts", "reduces");
* a verb that changes its object (``applied_verbs.txt``: "boosts", "raises", "accelerates"),
  the model its direct object ("raising Llama-3.3 (70B) by 41%");
* "to" after a form of "apply" ("applied X to Y");
* "on", in a sentence that reports a change, when the mention names a model
  (:func:`names_a_model`: a parameter count, "Qwen3-1.7B", or a family of
  ``model_families.txt``, "LLaDA"): "on" also governs datasets that a corpus types Method.

The method is the one the sentence claims the change for (:func:`kg.extract.claimants.claimant`
at the cue's place: the clause's subject, or the paper's own method where "we" speaks); a model
it is compared with is none of these ("outperforms Qwen3-8B"). When the models stand in the
sentence's opening phrase, under one of these cues or "with", the method is the subject after
it ("When paired with X and Y, ReGraphT enables ...", "When applied to the LLaDA-8B-Instruct
model, dParallel reduces ..."). A name of a family is a model however the sentence types it
("gains of 24.3% on Qwen2.5-3B" reads as a dataset): the graph decides by the corpus' type
(:func:`kg.extract.relations.fits_graph`).

>>> from kg.extract.pipeline import load_pipeline
>>> from kg.extract.relations import relations_in
>>> text = "FooNet boosts the accuracy of Llama-3-8B by 5%."
>>> doc = load_pipeline()(text)
>>> [(r.head["text"], r.type, r.tail["text"], r.rule) for r in relations_in(doc, doc._.kg_mentions)
...  if r.rule == "applied_frame"]
[('FooNet', 'USED_FOR', 'Llama-3-8B', 'applied_frame')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from spacy.tokens import Doc

from kg.extract.baselines import claimant_arg, names_one, names_one_method, under_comparison
from kg.extract.claimants import (
    BASELINE_GAP_TAGS,
    COMPARE_WORDS,
    claimant,
    inside_compound,
    is_subject,
)
from kg.extract.lexicon import load_lexicon, read_data_lines
from kg.extract.names import has_capital_or_digit
from kg.extract.normalize import singularize
from kg.extract.spans import FINITE_VERB_TAGS, Arg, Mention, after_opening_adverb, by_sentence

APPLIED_RULE = "applied_frame"
APPLIED_CONFIDENCE = 0.5
#: How far left of a model its cue may stand, in tokens: lists of models are long ("the
#: dense Qwen3-1.7B, Llama3.2-1B, and Gemma3-1B" is 13 tokens).
_REACH = 16
#: What may stand between a cue and the model it governs: the baseline frame's words, and
#: brackets ("Qwen1.5-MoE (14B) and DeepSeek-MoE (16B)").
_GAP_TAGS = BASELINE_GAP_TAGS | {"-LRB-", "-RRB-"}
#: The same without verbs: between "with" and the models of an opening phrase.
_NAME_GAP_TAGS = _GAP_TAGS - {"VBN", "VBG"}
_CHANGE = frozenset(read_data_lines("relations/result_change_cues.txt"))
_VERBS = frozenset(read_data_lines("relations/applied_verbs.txt"))
_QUALITIES = frozenset(read_data_lines("relations/model_qualities.txt")) | frozenset(
    load_lexicon().metric_heads
)
_FAMILIES = frozenset(read_data_lines("relations/model_families.txt"))
_NOUNS = frozenset({"NN", "NNS"})
_MATCH = frozenset({"match", "matches", "matching", "matched", "rival", "rivals", "rivaling"})
_APPLY = frozenset({"apply", "applies", "applied", "applying", "application"})
#: A parameter count in a model's name: "7B", "1.7B", "30B-A3B", "(70B)", "125M".
_SIZE = re.compile(r"(?<![A-Za-z])\d+(?:\.\d+)?[BMT](?![a-z])")
#: The first word of a name, for its family: "qwen" of "Qwen2.5-VL-7B", "llada" of "LLaDA".
_FIRST_WORD = re.compile(r"[A-Za-z]+")


def applied_frames(
    doc: Doc,
    args: Sequence[Arg],
    proposed: dict[str, Any] | None,
    sentence_of: Sequence[int],
) -> list[tuple[Arg, str, Arg]]:
    """(method, "USED_FOR", model) for each named method an applied cue governs
    (:func:`_applied_cue`) and the method its sentence claims the change for; ``args`` in text
    order, as :func:`kg.extract.relations.argument_tokens` gives them. "We" and "our method"
    stand for ``proposed``."""
    found = []
    for first, group in by_sentence(args, sentence_of).items():
        changes = _Changes(doc, first)
        own = [a for a in group if a[2].get("refers") in ("we", "own")]
        offsets = [a[2]["start"] for a in own]
        mentions = [a for a in group if a[2].get("source") != "stand_in"]
        for arg in group:
            start, end, m = arg
            if not (_names_a_method(doc, arg) and _all_named(m["text"])):
                continue  # "improving RL fine-tuning", "enhances the stability of LoRA"
            if m.get("role") == "PROPOSES":
                continue  # "With SelfReflect, we ...": the paper's own, applied to nothing
            if under_comparison(doc, start, first):
                continue
            cue = _applied_cue(doc, arg, first, changes)
            if cue is None:
                subject = _in_opening(doc, arg, first) and _opening_subject(doc, group, end)
                if subject:
                    found.append((subject, "USED_FOR", arg))  # "When paired with X, Y ..."
                continue
            applied = _applied_before(group, doc, cue, first)
            head = (
                applied[2]
                if applied
                else claimant(doc, doc[cue : cue + 1], mentions, proposed, offsets)[0]
            )
            if head is not None and not _applicable(doc, group, head, m):
                continue
            head_arg = applied or (
                claimant_arg(head, proposed, own, cue, group) if head is not None else None
            )
            if head_arg is None or head_arg[0] > start:
                # the claim's method may come after an opening phrase that names the model:
                # "When applied to the LLaDA-8B-Instruct model, dParallel reduces ..."
                opening = _opening(doc, first, start)
                head_arg = _opening_subject(doc, group, end) if opening else None
            if head_arg is not None:
                found.append((head_arg, "USED_FOR", arg))
    return found


def _opening(doc: Doc, first: int, start: int) -> bool:
    """Whether token ``start`` is in the opening phrase of the sentence that begins at token
    ``first``, before its subject: the sentence opens with a preposition or "when" (an adverb
    and a comma before it: "Notably, on Qwen3-8B, ..."), and no finite verb comes between."""
    first = after_opening_adverb(doc, first)
    opens = doc[first].tag_ == "IN" or doc[first].lower_ == "when"
    return opens and not any(t.tag_ in FINITE_VERB_TAGS for t in doc[first:start])


def _in_opening(doc: Doc, arg: Arg, first: int) -> bool:
    """Whether the mention ``arg`` is under "with" in its sentence's opening phrase, only
    names, modifiers and list joins between: "When paired with X and Y, ...", "On HH-RLHF ...
    with Qwen2-7B, Mistral-7B, ...", not "With a backbone optimized using SFT"."""
    if not _opening(doc, first, arg[0]):
        return False
    i = arg[0] - 1
    while i >= first and (doc[i].tag_ in _NAME_GAP_TAGS or inside_compound(doc, i)):
        i -= 1
    return i >= first and doc[i].lower_ == "with"


def _opening_subject(doc: Doc, group: Sequence[Arg], end: int) -> Arg | None:
    """The subject after the opening phrase that holds the mention ending at token ``end``:
    the first method (or "we"/"our method") right after a comma and before a finite verb,
    with no finite verb before it ("When paired with X, ReGraphT enables ...")."""
    for arg in group:
        start, stop, m = arg
        if start < end:
            continue
        if any(t.tag_ in FINITE_VERB_TAGS for t in doc[end:start]):
            return None
        own = m.get("refers") in ("we", "own")
        if doc[start - 1].text == "," and (own or m["label"] == "Method"):
            return arg if is_subject(doc, stop) else None
    return None


class _Changes:
    """Whether the sentence that begins at token ``first`` reports a change
    (``result_change_cues.txt``): read only when a cue asks, as few sentences need it."""

    def __init__(self, doc: Doc, first: int) -> None:
        self._doc = doc
        self._first = first

    @cached_property
    def found(self) -> bool:
        return any(t.lower_ in _CHANGE for t in self._doc[self._first].sent)


def _applied_cue(doc: Doc, arg: Arg, first: int, changes: _Changes) -> int | None:
    """The token of the cue that makes the mention ``arg`` a model something is applied to, or
    None: scanning left from it over modifiers, nouns and list joins, the first other word."""
    start, end, m = arg
    i = start - 1
    while i >= first and i > start - _REACH:
        word = doc[i].lower_
        if word in COMPARE_WORDS or word == "%":
            return None  # "outperforming much larger models (e.g., X)", "+6.1% FG-ARI"
        if word in _VERBS and doc[i].tag_.startswith("VB"):
            # the model is the object, not a modifier of it ("improves LLM reasoning")
            return i if not (end < len(doc) and doc[end].tag_ in _NOUNS) else None
        if word == "of" and changes.found and i > first and _quality(doc, i - 1):
            return None if _matched(doc, i - 2, first) else i - 1
        if word == "to" and any(t.lower_ in _APPLY for t in doc[max(first, i - 6) : i]):
            return i
        if word == "on" and changes.found and names_a_model(doc, start, end, m["text"]):
            return i
        if not (doc[i].tag_ in _GAP_TAGS or inside_compound(doc, i)):
            return None
        i -= 1
    return None


def _applied_before(group: Sequence[Arg], doc: Doc, cue: int, first: int) -> Arg | None:
    """The method written between a form of "apply" and the "to" at ``cue``: what is applied
    ("directly applying point-based drag editing to DiTs"), or None."""
    if doc[cue].lower_ != "to":
        return None
    verbs = [i for i in range(max(first, cue - 6), cue) if doc[i].lower_ in _APPLY]
    if not verbs:
        return None
    between = [a for a in group if verbs[-1] < a[0] and a[1] <= cue]
    return between[-1] if between else None


def _matched(doc: Doc, i: int, first: int) -> bool:
    """Whether a comparison governs the quality that ends before token ``i + 1``: "matches
    the performance of the original 100-NFE model" compares, it applies nothing."""
    while i >= first and doc[i].tag_ in ("DT", "JJ", "JJR", "JJS", "RB", "PRP$"):
        i -= 1
    return i >= first and (doc[i].lower_ in _MATCH or doc[i].lower_ in COMPARE_WORDS)


def _all_named(text: str) -> bool:
    """Whether every word of a mention is written as a name (a capital or a digit), but a
    last "model": a model or a method's name ("LLaVA-1.5 model"), not a phrase about one
    ("RL fine-tuning", "LLM's marginalization")."""
    words = text.split()
    if len(words) > 1 and words[-1] == "model":
        words.pop()
    return all(has_capital_or_digit(w) for w in words)


def _applicable(doc: Doc, group: Sequence[Arg], head: Mention, model: Mention) -> bool:
    """Whether ``head`` may be what is applied to ``model``: another thing, and no model
    itself (a model is what methods are applied to)."""
    if head is model or head["text"] == model["text"]:
        return False
    start, end = next(((a[0], a[1]) for a in group if a[2] is head), (0, 0))
    return not names_a_model(doc, start, end, head["text"])


def _quality(doc: Doc, i: int) -> bool:
    """Whether token ``i`` names a quality of a model: "accuracy", "performances", "counts"."""
    word = doc[i].lower_
    return word in _QUALITIES or singularize(word) in _QUALITIES


def _names_a_method(doc: Doc, arg: Arg) -> bool:
    """Whether an argument names one method, or one model of a family however the sentence
    types it: "gains of 24.3% on Qwen2.5-3B" reads as a dataset, but the corpus types every
    name of a family a method."""
    if arg[2]["label"] == "Dataset":
        return of_a_family(arg[2]["text"]) and names_one(doc, arg)
    return names_one_method(doc, arg)


def reads_as_model(doc: Doc, arg: Arg) -> bool:
    """Whether a mention is a model, whatever the sentence types it: a Method that names one
    (:func:`names_a_model`), or a name of a family the sentence types a Dataset ("gains of
    24.3% on Qwen2.5-3B")."""
    start, end, m = arg
    if m["label"] == "Method":
        return names_a_model(doc, start, end, m["text"])
    return m["label"] == "Dataset" and of_a_family(m["text"])


def of_a_family(text: str) -> bool:
    """Whether a name begins with the name of a family of models (``model_families.txt``)."""
    word = _FIRST_WORD.match(text)
    return word is not None and word.group().lower() in _FAMILIES


def names_a_model(doc: Doc, start: int, end: int, text: str) -> bool:
    """Whether a method's name names a trained model: a parameter count in it or right after
    it ("Qwen3-1.7B", "Llama-3.3 (70B)"), or the first word of a family of
    ``model_families.txt`` ("LLaDA", "Qwen-Image-Edit")."""
    after = doc[end : end + 3].text if end < len(doc) and doc[end].text == "(" else ""
    return bool(_SIZE.search(text) or _SIZE.search(after)) or of_a_family(text)
