"""Which mentions of its sentence a claim's number is about: the dataset, the method, the
metric, the task (:func:`kg.extract.results.results_in` weighs them; here are the readings
it asks for).

* **Where.** A claim's part of the sentence ends at ";", ":", brackets and commas
  (:func:`clause_of`); within it, the nearest mention of a type is the claim's
  (:func:`nearest`).
* **On what.** A dataset after "on", "in" or "for" (:func:`on_a_mention`,
  :func:`method_on` for a benchmark the recogniser typed a method), in the metric's own name
  ("AIME score": :func:`dataset_in_metric`), in brackets after it ("on HarmBench (+72.7%)":
  :func:`bracketed_after`), or opening the sentence ("On the X dataset, ...":
  :func:`opening_dataset`), or the sentence's only dataset, brought in before its claims
  (:func:`sentence_dataset`); not what something was trained on (:func:`trained_on`), nor
  one member of a list the claim is on as a whole (:func:`one_of_a_list`).
* **Whose.** A baseline's number is given to the method named right after it ("22.58% for
  GPT-4o": :func:`baseline_named`).
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc, Span

from kg.extract.baselines import under_comparison
from kg.extract.frames import TRAINING_WORDS
from kg.extract.spans import GENERIC, Arg, Mention, after_opening_adverb, coordinated

#: What ends a claim's part of its sentence (with commas: :func:`clause_of`).
_CLAUSE_END = frozenset({";", ":", "(", ")"})


#: The prepositions between a training word and its data: "trained on X", "tuned with X".
_TRAINED_ON = frozenset({"on", "with", "using", "from"})


def trained_on(doc: Doc, start: int) -> bool:
    """Whether the mention at token ``start`` is what something was trained on: a training
    word (``training_words.txt``), a preposition and determiners or adjectives before it."""
    i = start - 1
    while i >= 0 and doc[i].tag_ in ("DT", "JJ", "CD"):
        i -= 1
    return i > 0 and doc[i].lower_ in _TRAINED_ON and doc[i - 1].lower_ in TRAINING_WORDS


def dataset_in_metric(metric: Mention | None, mentions: Sequence[Mention]) -> Mention | None:
    """The dataset a metric's name holds ("AIME" of "AIME score"): what the result is on,
    wherever other datasets stand in the sentence."""
    if metric is None:
        return None
    return next(
        (
            m
            for m in mentions
            if m["label"] == "Dataset"
            and metric["start"] <= m["start"]
            and m["end"] <= metric["end"]
            and m is not metric
        ),
        None,
    )


def _mention_after(
    doc: Doc, end: int, spans: list[Arg], words: tuple[str, ...]
) -> Mention | None:
    """The mention that one of ``words`` and an optional "the" put right after token ``end``
    ("on MMStar", "in the Dynamic Degree")."""
    if end >= len(doc) or doc[end].lower_ not in words:
        return None
    at = end + 1 + (end + 1 < len(doc) and doc[end + 1].lower_ == "the")
    return next((m for s, _, m in spans if s == at), None)


def on_a_mention(doc: Doc, end: int, spans: list[Arg]) -> bool:
    """Whether "on", "in" or "for" and a mention follow the number ending at token ``end``:
    "+4.1 on MMStar", "+25.28 in Dynamic Degree" (ICLR 2026 writes 18 signed numbers so, 11
    of which no other cue made a claim)."""
    return _mention_after(doc, end, spans, ("on", "in", "for")) is not None


def method_on(doc: Doc, end: int, in_sentence: list[Arg]) -> Mention | None:
    """The method-typed mention "on" puts the number ending at token ``end`` on, a bracketed
    aside between: "62.29% (+12.79%) on AIME25", AIME25 read as a method. It is the result's
    dataset where the corpus types it one (kg.graph.results), and comes before the method a
    claim earlier in the sentence was made on (:func:`kg.extract.claimants.claimant`)."""
    if end < len(doc) and doc[end].text == "(":  # an aside of a few tokens: skipped
        close = next((i for i in range(end, min(end + 6, len(doc))) if doc[i].text == ")"), None)
        end = close + 1 if close is not None else end
    methods = [x for x in in_sentence if x[2]["label"] == "Method"]
    return _mention_after(doc, end, methods, ("on",))


#: How far after a baseline's number the preposition naming its method may come ("22.58%
#: Pass@1 for GPT-4o").
_BASELINE_WINDOW = 4


def baseline_named(doc: Doc, end: int, in_sentence: list[Arg]) -> Mention | None:
    """The method a baseline's number ending at token ``end`` is given to, a few words on:
    "22.58% for GPT-4o", "50.9 mAP of the DINO", "66.67% with Qwen2.5-VL"."""
    for i in range(end, min(end + _BASELINE_WINDOW, len(doc))):
        named = _mention_after(doc, i, in_sentence, ("for", "of", "with", "by"))
        # (a name after a score may be read as what it was scored on: the corpus decides)
        if named is not None and named["label"] in ("Method", "Dataset"):
            return named
        if doc[i].is_punct:
            return None
    return None


def clause_of(doc: Doc, span: Span) -> tuple[int, int]:
    """The token range of the part of the sentence around ``span``, cut at ";", ":" and
    brackets, and at commas (a list of claims: "85.3% on ImageNet, 2.1 BLEU on WMT")."""
    sent = span.sent
    start = span.start
    while start > sent.start and doc[start - 1].text not in _CLAUSE_END | {","}:
        start -= 1
    end = span.end
    while end < sent.end and doc[end].text not in _CLAUSE_END | {","}:
        end += 1
    return start, end


def one_of_a_list(doc: Doc, mention: Mention, of_sentence: list[Arg]) -> bool:
    """Whether ``mention`` is a member of a list of mentions of its sentence (``of_sentence``,
    :func:`_a_list`), such as "MATH, AMC23, and AIME" or "on GSM8K and MATH500" (a recogniser
    may type a member otherwise: any label but a stand-in's counts)."""
    ends = {s: e for s, e, m in of_sentence if m["label"] != GENERIC}
    starts = sorted(ends)
    at = next((s for s, _, m in of_sentence if m is mention), None)
    if at is None:
        return False
    for s in starts:
        if s > at:
            break
        members = coordinated(doc, ends, s)
        if at in members and _a_list(doc, members, ends):
            return True
    return False


def _a_list(doc: Doc, members: list[int], ends: dict[int, int]) -> bool:
    """Whether coordinated mentions (their first tokens) make a list: "and" or "or" before the
    last, three or more, or two in brackets of their own ("(VOC, COCO)"). Not two that only a
    comma parts: "On Meta-World, MoW attains ..." opens with a dataset, then names the method."""
    if len(members) < 2:
        return False
    joined = doc[ends[members[-2]] : members[-1]]
    last_end = ends[members[-1]]
    bracketed = (
        members[0] > 0 and doc[members[0] - 1].text == "("
        and last_end < len(doc) and doc[last_end].text == ")"
    )  # fmt: skip
    return len(members) > 2 or bracketed or any(t.lower_ in ("and", "or") for t in joined)


#: Nouns after a dataset's name in an opening "On the X dataset,".
_DATASET_NOUNS = frozenset({"dataset", "benchmark", "datasets", "benchmarks", "suite", "task"})


def opening_dataset(doc: Doc, first: int, spans: list[Arg]) -> Mention | None:
    """The dataset of a sentence that opens "On <dataset>," (from token ``first``): every claim
    of the sentence is made on it ("On the WebGen-Bench dataset, WebGen-Agent increases the
    accuracy ... from 26.4% to 51.9% and its appearance score from 3.0 to 3.9"), an adverb and
    a comma before it ("Notably, on LongBench-V1, FASA reaches ...")."""
    first = after_opening_adverb(doc, first)
    if doc[first].lower_ not in ("on", "across"):
        return None
    for start, end, m in spans:
        if start > first and m["label"] == "Dataset":
            comma = end < len(doc) and doc[end].text == ","
            named = end < len(doc) - 1 and doc[end].lower_ in _DATASET_NOUNS
            between = doc[first + 1 : start]
            if (comma or (named and doc[end + 1].text == ",")) and all(
                t.tag_ in ("DT", "JJ", "CD") for t in between
            ):
                return m
            return None
    return None


#: Tags of the words between a comparison cue and a baseline typed a dataset ("outperforms
#: the strongest baseline, Gemini Flash", "surpassing OpenAI's o1-preview"): no verb, no
#: preposition ("achieving a GenEval score" is a claim's own dataset).
BASELINE_NAME_TAGS = frozenset(
    {"DT", "JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", ",", "CC", "CD", "HYPH", "POS"}
)


#: What may stand between the preposition that brings in a sentence's dataset and its name
#: ("in our Hard Suite evaluations", "on the challenging DM Control benchmarks").
_BEFORE_NAME_TAGS = frozenset({"DT", "PRP$", "JJ", "JJS", "CD"})


def sentence_dataset(
    doc: Doc,
    span: Span,
    of_sentence: list[Arg],
    numbers: list[int],
) -> Mention | None:
    """The dataset of the claim at ``span`` when it is the sentence's only one and "on", "in"
    or "across" brings it in before all the sentence's claims (``numbers``: their first
    tokens): each claim is made on it ("We improve baseline CLIP model performance on NegBench
    from 25.5% to 67.0% for MCQ and from 50.9% to 56.1% for retrieval tasks", "In particular,
    on the HellaSwag benchmark (10K samples), our method preserves ... within 5% using 25×
    fewer samples").

    Not a subject or an object ("MBU-Net attains ...", "improving FinQA from 12.0% to
    24.7%"), what something was trained on, a baseline typed a dataset
    (:func:`kg.extract.baselines.under_comparison` over :data:`BASELINE_NAME_TAGS`), nor one
    of a list; and not for a claim that another place may come before ("on GSM8K, it
    accelerates inference by 6; on Flickr30K captioning, it achieves a 10× ...", "on SWE-bench
    from 20.0% to 50.0%, and on Polyglot from 14.2% to 30.7%": a ";" or an "on" between).
    """
    datasets = [x for x in of_sentence if x[2]["label"] == "Dataset"]
    if len(datasets) != 1:
        return None
    start, end, dataset = datasets[0]
    sent = doc[start].sent
    i = start - 1
    while i > sent.start and doc[i].tag_ in _BEFORE_NAME_TAGS:
        i -= 1
    if doc[i].lower_ not in ("on", "in", "across") or trained_on(doc, start):
        return None
    if one_of_a_list(doc, dataset, of_sentence) or under_comparison(
        doc, start, sent.start, BASELINE_NAME_TAGS
    ):
        return None
    claims = [n for n in numbers if sent.start <= n < sent.end]
    if not claims or claims[0] < start:
        return None
    if any(t.text == ";" or t.lower_ == "on" for t in doc[end : span.start]):
        return None
    return dataset


def bracketed_after(doc: Doc, span: Span, in_sentence: list[Arg], label: str) -> Mention | None:
    """The mention of ``label`` right before the bracket that opens on ``span``: "jailbreaking
    on HarmBench (+72.7%) and on the GSM8K benchmark (+1.6%)" claims +1.6% on GSM8K, though
    another claim comes before it."""
    if span.start == 0 or doc[span.start - 1].text != "(":
        return None
    return next(
        (m for s, e, m in in_sentence if e == span.start - 1 and m["label"] == label), None
    )


def nearest(
    span: Span,
    candidates: list[Arg],
    clause: tuple[int, int] | None,
) -> Mention | None:
    """The candidate mention nearest ``span`` (within ``clause`` when given, or the only
    one of the sentence)."""
    if clause is not None:
        inside = [c for c in candidates if clause[0] <= c[0] and c[1] <= clause[1]]
        if not inside:
            return candidates[0][2] if len(candidates) == 1 else None
        candidates = inside
    if not candidates:
        return None

    def distance(c: Arg) -> int:
        return c[0] - span.end if c[0] >= span.end else span.start - c[1]

    return min(candidates, key=distance)[2]
