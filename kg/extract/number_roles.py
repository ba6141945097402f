"""What the words around a number say it is: a claim of the abstract, the baseline's number of
a comparison, a setting of the experiment, or a score a metric takes (:mod:`kg.extract.results`
decides from these which numbers are results, and how they read).

"from 60% to 75%": 60% is where it started (:func:`is_baseline`), 75% the level reached
(:func:`ends_from_to`); "4-bit", "8-shot" name how it was run (:func:`is_setting`); "an F1 of
0.89" is a score the metric takes (:func:`metric_takes`); "compared to 22.58% for GPT-4o" is
the baseline's (:func:`baselines_number`); "improves by up to 18%" a change (:func:`after_by`).
"""

from __future__ import annotations

from spacy.tokens import Doc

from kg.extract.lexicon import load_lexicon, read_data_lines
from kg.extract.spans import Arg

#: Verbs before a result: "achieves", "scores" (``result_verbs.txt``).
RESULT_VERBS = frozenset(read_data_lines("relations/result_verbs.txt"))
_LINKS = frozenset(read_data_lines("relations/metric_links.txt"))
#: Head words of a metric's name ("appearance score", "MathQA accuracy"): metric_heads.txt.
_METRIC_HEADS = load_lexicon().metric_heads


def in_one_list(doc: Doc, end: int, start: int) -> bool:
    """Whether a claim ending at token ``end`` and the next, starting at ``start``, are in one
    list: a few words between, no verb, no bracket, no word that brings in a setting ("an
    FID of 1.02 with only 0.36% additional training compute": :data:`SETTING_CUES`), one
    sentence."""
    between = doc[end:start]
    return (
        0 < len(between) <= 6
        and not any(
            t.tag_.startswith("VB") or t.text in "()[]" or t.lower_ in SETTING_CUES
            for t in between
        )
        and not any(t.is_sent_start for t in doc[end : start + 1])
    )


def metric_takes(doc: Doc, i: int, spans: list[Arg]) -> bool:
    """Whether a metric mention takes the bare number at token ``i``: right after it ("0.89
    F1") or before it, linked ("an F1 of 0.89", "accuracy = 92.1") or straight before a number
    with decimals ("FID 3.34": ICLR 2026 writes 13 in 7 abstracts), or a result verb comes
    just before the number and a metric follows within a few words ("scores 71.2 on BLEU")."""
    for start, end, m in spans:
        if m["label"] != "Metric":
            continue
        if start == i + 1 or (end == i and "." in doc[i].text):
            return True
        if end <= i and i - end <= 2 and all(t.lower_ in _LINKS for t in doc[end:i]) and end < i:
            return True
    verb = i > 0 and doc[i - 1].lower_ in RESULT_VERBS
    near = any(s > i and s - i <= 3 and m["label"] == "Metric" for s, _, m in spans)
    return bool(verb and near) or metric_from_to(doc, i, spans)


#: Words that, before "of", make the bare number after them a score reached.
_SCORE_NOUNS = frozenset({"score", "accuracy"})


def score_of(doc: Doc, i: int) -> bool:
    """Whether the bare number at token ``i`` follows "score of" or "accuracy of", whatever
    names the score: "achieves a state-of-the-art score of 55.4 on the VSI-Bench", "an overall
    score of 0.63", "a GenEval score of 0.83" (ICLR 2026: 8 such numbers no metric mention
    took; "a token rate of 12.5 Hz" is a setting, and "rate" is not among the words)."""
    return i >= 2 and doc[i - 1].lower_ == "of" and doc[i - 2].lower_ in _SCORE_NOUNS


def metric_from_to(doc: Doc, i: int, spans: list[Arg]) -> bool:
    """Whether the bare number at token ``i`` is the "to" of "<metric> from A to B": "reduces
    gFID from 6.18 to 1.61", "the GenEval score from 0.24 to 0.98", "RadGraph F1 (from 29.4 to
    44.0)" — the level the method reaches (A is the baseline's, :func:`is_baseline`)."""
    if not (i >= 3 and doc[i - 1].lower_ == "to" and doc[i - 3].lower_ == "from"):
        return False
    if i + 1 < len(doc) and doc[i + 1].tag_.startswith("NN"):
        return False  # "from 512 to 2048 resolution": a range of settings
    at = i - 3  # "from"
    if at > 0 and doc[at - 1].text == "(":
        at -= 1
    if at > 0 and doc[at - 1].lower_ in _METRIC_HEADS:  # "the appearance score from ..."
        return True
    return any(m["label"] == "Metric" and at - 2 <= end <= at for _, end, m in spans)


#: Arrows between a baseline and the level reached: "19.6% → 57.1%" (ICLR 2026: 21 in 11
#: abstracts).
_ARROWS = frozenset({"→", "->", "⟶", "⇒"})


def is_baseline(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` are the "from" number of "from 60% to 75%", or the number
    before an arrow ("19.6% → 57.1%")."""
    if end < len(doc) and doc[end].text in _ARROWS:
        return True
    return (
        start > 0 and end < len(doc) and doc[start - 1].lower_ == "from" and doc[end].lower_ == "to"
    )


def is_setting(doc: Doc, end: int) -> bool:
    """Whether the number ending at token ``end`` is written on into a word: "1-step FID",
    "4-bit", "8-shot" (ICLR 2026: 55 in 38 abstracts) name how it was run, not a result."""
    return (
        end + 1 < len(doc)
        and doc[end].text == "-"
        and doc[end].whitespace_ == ""
        and doc[end + 1].is_alpha
    )


#: Words between "by" and the number of a change: "by up to 18%", "by nearly 2x".
_HEDGES = frozenset({
    "up", "to", "nearly", "about", "around", "approximately", "roughly", "over", "almost", "an",
    "a", "average", "of", "more", "than", "at", "least",
})  # fmt: skip


#: Words before a number that make it a setting of the experiment, not a result ("under 128×
#: update ratio", "using 10% of the data"), unless a change word follows it ("with 2× fewer").
SETTING_CUES = frozenset({"under", "using", "at", "given", "with"})


def word_before(doc: Doc, start: int, clause_start: int) -> str:
    """The word before the number at ``start``, hedges ("up to", "nearly") skipped."""
    i = start - 1
    while i > clause_start and doc[i].lower_ in _HEDGES:
        i -= 1
    return doc[i].lower_ if i >= clause_start else ""


#: What a cheaper model keeps of a fuller one's quality: ``retained_nouns.txt``.
_RETAINED = frozenset(read_data_lines("relations/retained_nouns.txt"))
#: How many words may come between "of" and a retained noun ("of the original model's
#: performance").
RETAINED_WORDS = 4


def share_of_quality(doc: Doc, end: int, sent_end: int) -> bool:
    """Whether the percent ending before token ``end`` is a share of a fuller model's quality:
    "of", then a noun of :data:`_RETAINED` within a few words ("maintaining 98.7% of the
    original performance"). It is a result relative to that model; a share of anything else
    ("10% of the data") is how a method was run."""
    if end >= sent_end or doc[end].lower_ != "of":
        return False
    after = doc[end + 1 : min(sent_end, end + 2 + RETAINED_WORDS)]
    for t in after:
        if t.lower_ in _RETAINED:
            return True
        if t.is_punct and t.text not in ("'", "-"):
            return False
    return False


#: Words before a number that make it the baseline's in a comparison: "44.0% vs. 24.0%",
#: "compared to 22.58% for GPT-4o" ("to", a hedge, is skipped: :func:`word_before`).
_VERSUS = frozenset({"vs", "vs.", "versus", "compared"})


def baselines_number(doc: Doc, start: int, clause_start: int) -> bool:
    """Whether the number at token ``start`` is the baseline's of a comparison: after "vs.",
    "versus" or "compared to/with" (hedges such as "only" between)."""
    word = word_before(doc, start, clause_start)
    if word == "with":  # "compared with 22.58%"
        i = start - 1
        while i > clause_start and doc[i].lower_ in _HEDGES | {"only", "just"}:
            i -= 1
        return i > clause_start and doc[i - 1].lower_ == "compared"
    if word in ("only", "just") and start >= 2:  # "vs. only 17%"
        return baselines_number(doc, start - 1, clause_start)
    return word in _VERSUS


def after_by(doc: Doc, start: int, clause_start: int) -> bool:
    """Whether "by" comes before the number at ``start`` ("improves by up to 18%"): a change."""
    return word_before(doc, start, clause_start) == "by"


def ends_from_to(doc: Doc, start: int) -> bool:
    """Whether the number starting at token ``start`` is the "to" of "from 60% to 75%", or
    comes after an arrow ("19.6% → 57.1%")."""
    if start >= 1 and doc[start - 1].text in _ARROWS:
        return True
    return (
        start >= 3
        and doc[start - 1].lower_ == "to"
        and any(t.lower_ == "from" for t in doc[max(0, start - 5) : start - 2])
    )
