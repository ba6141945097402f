"""Baseline frames: a named method a sentence measures its claimant against, however far
apart the two are written.

"ATLAS showcases its superior overall planning performance, achieving an 84% final pass rate
which significantly outperforms baselines including ReAct", "We introduce ULCB-Hoeffding, ...,
which enjoys fine-grained regret guarantees and empirically outperforms AMB": the token
patterns of ``relations.jsonl`` relate "X outperforms Y" when X stands right before the verb;
here a clause or a result comes between. The sentence still says who outperforms: the
claimant of :mod:`kg.extract.claimants`, the same reading that gives a result its method (the
clause's subject, or the paper's own method where "we" speaks). So each named method a
comparison cue governs is COMPARED_WITH the claimant at its place.

A comparison cue is a verb of ``compare_cues.txt`` ("outperforms", "surpasses", "beats"),
"than", "versus", or "to"/"with" after "compared", "relative", "superior" ... (``COMPARE_TO``);
as in :func:`kg.extract.claimants.claimant`, modifiers, nouns and list joins may stand between
the cue and the method ("outperforms strong baselines, including ReAct and Reflexion").

>>> from kg.extract.pipeline import load_pipeline
>>> from kg.extract.relations import relations_in
>>> text = "FooNet reaches an 84% pass rate, which clearly outperforms baselines including GRPO."
>>> doc = load_pipeline()(text)
>>> [(r.head["text"], r.type, r.tail["text"], r.rule) for r in relations_in(doc, doc._.kg_mentions)
...  if r.type == "COMPARED_WITH"]
[('FooNet', 'COMPARED_WITH', 'GRPO', 'baseline_frame')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacy.tokens import Doc

from kg.extract.claimants import BASELINE_GAP_TAGS, COMPARE_WORDS, claimant, inside_compound
from kg.extract.names import has_capital_or_digit
from kg.extract.spans import Arg, Mention, by_sentence, in_compound

BASELINE_RULE = "baseline_frame"
BASELINE_CONFIDENCE = 0.55
#: Words before "to" or "with" that make it a comparison ("compared to", "superior to").
COMPARE_TO = frozenset({"compared", "comparison", "relative", "superior", "comparable", "par"})
#: Word beginnings before "against" that make what follows a threat, not a baseline:
#: "robust(ness) against", "defends against", "protection against", "safeguard against".
_SHIELDS = ("robust", "defen", "protect", "guard", "resilien", "safe", "secur")
#: How far left of a method a cue may stand, in tokens.
_REACH = 12


def baseline_frames(
    doc: Doc,
    args: Sequence[Arg],
    proposed: dict[str, Any] | None,
    sentence_of: Sequence[int],
) -> list[tuple[Arg, str, Arg]]:
    """(claimant, "COMPARED_WITH", baseline) for each named method a comparison cue governs
    (:func:`under_comparison`) and the method its sentence claims the comparison for
    (:func:`kg.extract.claimants.claimant` at the baseline's place); ``args`` in text order,
    as :func:`kg.extract.relations.argument_tokens` gives them. "We" and "our method" stand
    for ``proposed``."""
    found = []
    for first, group in by_sentence(args, sentence_of).items():
        own = [a for a in group if a[2].get("refers") in ("we", "own")]
        offsets = [a[2]["start"] for a in own]
        mentions = [a for a in group if a[2].get("source") != "stand_in"]
        for arg in group:
            start, end, m = arg
            if not (names_one_method(doc, arg) and under_comparison(doc, start, first)):
                continue
            head, _ = claimant(doc, doc[start:end], mentions, proposed, offsets)
            if head is None or head is m or head["text"] == m["text"]:
                continue
            head_arg = claimant_arg(head, proposed, own, start, group)
            if head_arg is not None and head_arg[0] < start:
                found.append((head_arg, "COMPARED_WITH", arg))
    return found


def claimant_arg(
    head: Mention, proposed: Mention | None, own: Sequence[Arg], before: int, group: Sequence[Arg]
) -> Arg | None:
    """Where a claimant is written in its sentence (``group``): the last "we"/"our method" of
    ``own`` before token ``before`` when the claimant is the ``proposed`` method it stands for,
    else the claimant's own mention (None if the sentence does not hold it)."""
    said = [a for a in own if a[0] < before]
    if head is proposed and said:
        return said[-1]
    return next((a for a in group if a[2] is head), None)


def names_one_method(doc: Doc, arg: Arg) -> bool:
    """Whether an argument names one method: a Method written as one name
    (:func:`names_one`). A comparison with unnamed baselines is no relation."""
    return arg[2]["label"] == "Method" and names_one(doc, arg)


def names_one(doc: Doc, arg: Arg) -> bool:
    """Whether an argument is written as one name: a capital or a digit, whole words
    (:func:`kg.extract.spans.in_compound`: not "VL-7B" of "Qwen2.5-VL-7B" nor "OGA-" of
    "OGA-UCT"), not a class: a plural ("RAG baselines", "non-reasoning LLMs") or the
    modifier of one ("DRL baselines", "7 TTA methods")."""
    start, end, m = arg
    plural = ("NNS", "NNPS")
    return (
        has_capital_or_digit(m["text"])
        and not in_compound(doc, start, end)
        and "-" not in (m["text"][0], m["text"][-1])
        and doc[end - 1].tag_ not in plural
        and not (end < len(doc) and doc[end].tag_ in plural)
    )


def under_comparison(
    doc: Doc, start: int, first: int, gap_tags: frozenset[str] = BASELINE_GAP_TAGS
) -> bool:
    """Whether a comparison cue governs the mention at token ``start`` of the sentence that
    begins at token ``first``: scanning left over modifiers, nouns and list joins (``gap_tags``),
    the first other word is a cue, or a cue stands among them ("outperforms the strong GRPO
    and X"). "against" is a cue but after a word of defence ("robustness against GCG")."""
    i = start - 1
    while i >= first and i > start - _REACH:
        word = doc[i].lower_
        if word in COMPARE_WORDS or (word in ("to", "with") and i > first and _compares(doc, i)):
            return True
        if word == "against" and not (i > first and doc[i - 1].lower_.startswith(_SHIELDS)):
            return True  # "a 66% win rate against GPT-4o mini", not "robustness against GCG"
        if not (doc[i].tag_ in gap_tags or inside_compound(doc, i)):
            return False
        i -= 1
    return False


def _compares(doc: Doc, i: int) -> bool:
    """Whether the "to" or "with" at token ``i`` compares: "compared to", "superior to", "on
    par with"."""
    return doc[i - 1].lower_ in COMPARE_TO
