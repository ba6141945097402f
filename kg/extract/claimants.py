"""Who a result is claimed for: the method of "FooNet reaches 85.3% on ImageNet", which
:mod:`kg.extract.results` links as the result's ``FOR_METHOD``.

A sentence often names several methods before its number: a baseline ("outperforms GRPO by
7%"), the model a metric is measured of ("the accuracy of Qwen3-8B"), a model the claim was
made on ("on LLaDA-8B-Instruct"), a component inside the claim's own clause. The claimant is
the one the sentence makes the claim of: the clause's subject, or the paper's own method when
"we"/"it" speaks.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.lexicon import load_lexicon, read_data_lines
from kg.extract.normalize import singularize
from kg.extract.spans import FINITE_VERB_TAGS, Arg, Mention

#: Words that compare on their own: the verbs of compare_cues.txt ("outperforms"), "than",
#: "versus".
COMPARE_WORDS = frozenset(
    {"than", "vs", "vs.", "versus"}
    | {w.lower() for w in read_data_lines("relations/compare_cues.txt")}
)
#: Words before a mention that make it the baseline a claim is measured against, not the
#: method that makes it ("3.5× faster than X", "improves over X", "outperforms X").
_COMPARED = COMPARE_WORDS | {"over", "to", "against", "upon", "beyond"}
_SETTING_PREPOSITIONS = frozenset(read_data_lines("relations/setting_prepositions.txt"))
_MERIT_NOUNS = frozenset(read_data_lines("relations/merit_nouns.txt"))
#: Head words of a metric's name ("appearance score", "MathQA accuracy"): metric_heads.txt.
_METRIC_HEADS = load_lexicon().metric_heads


def claimant(
    doc: Doc,
    span: Span,
    in_sentence: list[Arg],
    proposed: Mention | None,
    own: list[int],
) -> tuple[Mention | None, Mention | None]:
    """The method a result is claimed for, and the method-typed mention it was claimed on.

    The claimant is the nearest method before the number that is no baseline
    (:func:`is_compared`), not the model a metric is measured of (:func:`_measured_of`) and
    not where the claim was made (:func:`is_setting_of`: "improves the GSM8K score from 78.6
    to 81.2 on LLaDA-8B-Instruct"); of those, the nearest that is its clause's subject
    (:func:`is_subject`) when one is and the number is not written on the nearest
    (:func:`_written_on`). Or it is the proposed one when "we"/"our method" (``own``: their
    character offsets) comes after the claimant and before the number. When the nearest
    method is where the claim was made, it is returned second: the result's dataset when
    the corpus types it one ("56.3% on MAESTRO-E", "MAESTRO-E" read as a method;
    :func:`kg.graph.results.result_graph` links a result only to an entity of the label its
    link needs)."""
    sent = span.sent
    before = [
        (s, e, m)
        for s, e, m in in_sentence
        if e <= span.start
        and m["label"] == "Method"
        and not is_compared(doc, s, e, sent.start)
        and not _measured_of(doc, s, in_sentence)
    ]
    settings = {s for s, _, _ in before if is_setting_of(doc, s, sent.start)}
    setting = before[-1][2] if before and before[-1][0] in settings else None
    claimants = [(e, m) for s, e, m in before if s not in settings]
    # A claim is made by its clause's subject: "TD-MoE achieves ... under 20% parameter
    # reduction, and delivers 11% gains" is TD-MoE's, whatever method is nearer the number;
    # but not a number written on a method ("Qwen2.5-VL-32B: 39.54%", "DINO (50.9 mAP)").
    if claimants and not _written_on(doc, claimants[-1][0], span.start):
        claimants = [c for c in claimants if is_subject(doc, c[0])] or claimants
    claimant = claimants[-1][1] if claimants else None
    said = [c for c in own if sent.start_char <= c < span.start_char]
    if said and proposed is not None and (claimant is None or said[-1] > claimant["start"]):
        return proposed, setting
    return claimant, setting


def _written_on(doc: Doc, end: int, start: int) -> bool:
    """Whether the mention that ends before token ``end`` labels the number at ``start``:
    nothing but a colon, a bracket or "=" between ("Qwen2.5-VL-32B: 39.54%")."""
    return 0 <= start - end <= 2 and all(t.text in (":", "(", "=") for t in doc[end:start])


def is_subject(doc: Doc, end: int) -> bool:
    """Whether the mention that ends before token ``end`` is a clause's subject: a finite verb
    follows it, adverbs or a closing bracket between ("TD-MoE achieves ...", "the strongest
    model (GPT-5) achieves")."""
    while end < len(doc) and (doc[end].tag_ in ("RB", "-RRB-") or doc[end].text == ")"):
        end += 1
    return end < len(doc) and doc[end].tag_ in FINITE_VERB_TAGS


def _measured_of(doc: Doc, start: int, in_sentence: list[Arg]) -> bool:
    """Whether the mention at token ``start`` follows "<metric> of": the model whose score a
    method raises, not the method ("it increases the accuracy of Qwen3-Coder-Flash from 51.6%
    to 62.0%", "reducing the harmfulness score of OLMoE from 62.0 to 5.0")."""
    if start < 2 or doc[start - 1].lower_ != "of":
        return False
    if singularize(doc[start - 2].lower_) in _METRIC_HEADS:
        return True
    return any(e == start - 1 and m["label"] == "Metric" for _, e, m in in_sentence)


def is_setting_of(doc: Doc, start: int, sent_start: int) -> bool:
    """Whether the mention at token ``start`` is the object of a preposition of setting
    (setting_prepositions.txt), modifiers between: what a claim was made on or against, not
    its claimant ("improves the GSM8K score from 78.6 to 81.2 on LLaDA-8B-Instruct"). Not
    after a noun of merit ("the effectiveness of IDEA": merit_nouns.txt)."""
    i = start - 1
    while i > sent_start and (doc[i].tag_ in _MODIFIER_TAGS or inside_compound(doc, i)):
        i -= 1
    if i < sent_start or doc[i].lower_ not in _SETTING_PREPOSITIONS:
        return False
    return not (doc[i].lower_ == "of" and i > sent_start and doc[i - 1].lower_ in _MERIT_NOUNS)


#: Tags of the words between a preposition and the mention it governs: "on the strong
#: LLaDA-8B-Instruct", "of 16-bit LoRA".
_MODIFIER_TAGS = frozenset({"DT", "PRP$", "JJ", "JJR", "JJS", "CD", "HYPH", "VBN"})
#: Tokens that may stand between a comparison cue and a baseline it names ("outperforms
#: strong baselines, X, Y, and Z"): list joins, determiners, modifiers, nouns.
BASELINE_GAP_TAGS = frozenset({
    "DT", "JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "CC", ",", "CD", "HYPH", "RB", "VBN",
    "VBG", "PRP$",
})  # fmt: skip


def is_compared(doc: Doc, start: int, end: int, sent_start: int) -> bool:
    """Whether the mention at token ``start`` is what a result is measured against: "than X",
    "over X", "outperforms X" (compare_cues.txt), modifiers between ("outperforms the
    state-of-the-art method AsFT"), or a later member of such a list ("outperforms
    fine-tuning, transfer learning, and X"). Not a mention between a comma and a verb: the
    subject after an opening clause ("Compared to previous state-of-the-art solvers, MaskCO
    achieves")."""
    subject = end < len(doc) and doc[end].tag_ in FINITE_VERB_TAGS
    if subject and start > 0 and doc[start - 1].text == ",":
        return False
    i = start - 1
    while (
        i >= sent_start
        and i > start - 12
        and (doc[i].tag_ in BASELINE_GAP_TAGS or inside_compound(doc, i))
    ):
        if doc[i].lower_ in _COMPARED:
            return True
        i -= 1
    return i >= sent_start and doc[i].lower_ in _COMPARED


def inside_compound(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is inside a hyphenated compound ("of" in "state-of-the-art")."""
    return 0 < i < len(doc) - 1 and doc[i - 1].text == "-" and doc[i + 1].text == "-"
