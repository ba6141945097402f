"""Claims listed in order with what they are on: "improving high-level metrics by 6.2% and
9.9% on ChartMimic and ReachQA", "gains of +3.79%, +2.90%, and +3.95% on GSM8K, CoLA, and
ARC-C, respectively", "On MMBench and VLGuard, it improves by 59.1% and 44.3%, respectively".

A list of numbers and a list of as many datasets or tasks pair by position. Without this, each
number took the dataset nearest to it, so all of a list's numbers went to one dataset. And a
change word after a list's last number makes each number a change ("3.2% and 4.6%
improvements"). :func:`kg.extract.results.results_in` finds the numbers and their runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import takewhile
from typing import TYPE_CHECKING

from spacy.tokens import Doc

from kg.extract.spans import FINITE_VERB_TAGS as FINITE
from kg.extract.spans import Arg, coordinated

if TYPE_CHECKING:  # (results imports this module)
    from kg.extract.results import Result

#: The token spans of the numbers of one list, in order.
Run = list[tuple[int, int]]

#: What a listed claim is on.
_ON = frozenset({"Dataset", "Task"})
#: What a list that opens with a dataset may go on with: a sentence's recogniser types some
#: benchmarks as methods or metrics ("on CIFAR-100, ImageNet-R, and CUB-200", ImageNet-R a
#: method); the graph links a member only where the corpus makes it a dataset.
_MISTYPED = frozenset({"Method", "Metric"})
#: The most tokens between the last number and the list after it ("% performance gains on"),
#: and when the sentence says "respectively" ("% gains over state-of-the-art baselines on").
_GAP = 6
_RESPECTIVELY_GAP = 15
#: The verbs after a subject: finite, and the base form the tagger gives a plural's present
#: ("Gemini-2.5-Pro and GPT-5-Think, achieve").
_PRESENT = FINITE | {"VB"}


@dataclass(frozen=True)
class _Candidates:
    """A sentence's mentions a list may be made of, by first token: those it may open with
    (``first``), those it may hold (``members``), and where each of those ends."""

    first: dict[int, Arg]
    members: dict[int, Arg]
    ends: dict[int, int]

    @classmethod
    def of(
        cls, spans: Iterable[Arg], first: frozenset[str], more: frozenset[str] = frozenset()
    ) -> _Candidates:
        """The mentions of ``spans`` labelled ``first`` open a list, those labelled ``first``
        or ``more`` may be in one."""
        members = {s: (s, e, m) for s, e, m in spans if m["label"] in first | more}
        opening = {s: arg for s, arg in members.items() if arg[2]["label"] in first}
        return cls(opening, members, {s: e for s, e, _ in members.values()})

    def list_at(self, doc: Doc, j: int) -> list[Arg]:
        """The members of the list that starts at token ``j`` (a mention of ``first``)."""
        return [self.members[s] for s in coordinated(doc, self.ends, j)]


def pair_in_order(
    doc: Doc, runs: Sequence[Sequence[tuple[int, int]]], spans: Sequence[Arg]
) -> list[list[Arg] | None]:
    """For each run of listed numbers (their token spans, in order), the dataset or task
    mention each is on, or None where no list pairs with the run.

    The list of datasets or tasks (commas between, "and" or "or" before the last) must have as
    many members as the run has numbers, and either come right after the last number (at most
    :data:`_GAP` tokens, :data:`_RESPECTIVELY_GAP` when the sentence says "respectively", no
    verb between) or, when it says "respectively" after the numbers, end before the first
    (datasets only, then: :func:`_list_before`).

    >>> from kg.extract.pipeline import load_pipeline
    >>> doc = load_pipeline()("It gains 6.2% and 9.9% on ChartMimic and ReachQA.")
    >>> from kg.extract.relations import argument_tokens
    >>> spans = argument_tokens(doc, doc._.kg_mentions, stand_in=False)
    >>> [[m[2]["text"] for m in run] for run in pair_in_order(doc, [[(2, 4), (5, 7)]], spans)]
    [['ChartMimic', 'ReachQA']]
    """
    on = _Candidates.of(spans, _ON, _MISTYPED)
    paired: list[list[Arg] | None] = []
    for run in runs:
        first, last = run[0][0], run[-1][1]
        sent = doc[first].sent
        respectively = _respectively(doc, last, sent.end)
        gap = _RESPECTIVELY_GAP if respectively else _GAP
        members = _list_after(doc, on, last, sent.end, gap)
        if len(members) != len(run) and respectively:
            members = _list_before(doc, on, first, sent.start)
        paired.append(list(members) if len(members) == len(run) else None)
    return paired


def _list_after(doc: Doc, on: _Candidates, end: int, sent_end: int, gap: int) -> list[Arg]:
    """The list whose first member is the first dataset or task (``on.first``) after token
    ``end``, at most ``gap`` tokens on and no verb between; a list that opens with a dataset
    may go on with :data:`_MISTYPED` mentions."""
    for j in range(end, min(end + gap + 1, sent_end)):
        if j in on.first:
            members = on.list_at(doc, j)
            if on.first[j][2]["label"] != "Dataset":  # a list of tasks is of tasks only
                members = list(takewhile(lambda a: a[0] in on.first, members))
            return members
        if doc[j].tag_.startswith("VB"):
            return []
    return []


def _list_before(doc: Doc, on: _Candidates, start: int, sent_start: int) -> list[Arg]:
    """The last list of the sentence that ends before token ``start``, when its members are
    all datasets and no verb follows it: a list of tasks there ("sets new SOTA results on
    language modeling and retrieval tasks ..., delivers 80% and 58.2% gains on MQAR and RULER
    tasks, ..., respectively") is as often the sentence's topic, and a list a verb follows is
    its subject ("On Pick-a-Pic V2, Poly-DPO achieves"). As after the numbers, a list that
    opens with a dataset may go on with :data:`_MISTYPED` mentions."""
    best = _last_list(doc, on, start, sent_start)
    if not best or best[0][2]["label"] != "Dataset" or any(m["label"] == "Task" for *_, m in best):
        return []
    return [] if _verb_follows(doc, best[-1][1]) else best


def _last_list(doc: Doc, on: _Candidates, start: int, sent_start: int) -> list[Arg]:
    """The last list that opens with a mention of ``on.first`` in the sentence and ends before
    token ``start``."""
    best: list[Arg] = []
    j = sent_start
    while j < start:
        if j in on.first:
            members = on.list_at(doc, j)
            if members[-1][1] > start:
                break
            best, j = members, members[-1][1]
        else:
            j += 1
    return best


def _verb_follows(doc: Doc, end: int, tags: frozenset[str] | None = None) -> bool:
    """Whether a verb (of ``tags``, when given) comes right after token ``end``, a comma or
    adverbs between."""
    while end < len(doc) and (doc[end].text == "," or doc[end].tag_ in ("RB", "RBR")):
        end += 1
    if end >= len(doc):
        return False
    return doc[end].tag_ in tags if tags is not None else doc[end].tag_.startswith("VB")


def _respectively(doc: Doc, end: int, sent_end: int) -> bool:
    return any(t.lower_ == "respectively" for t in doc[end:sent_end])


def pair_lists(doc: Doc, out: list[Result], runs: list[Run], spans: Sequence[Arg]) -> None:
    """Each result of a run (``out``: the results, in order; ``runs``: their numbers' token
    spans, a run per list) on the dataset or task in the same place of a list beside it
    (:func:`pair_in_order`): "+3.79%, +2.90%, and +3.95% on GSM8K, CoLA, and ARC-C"."""
    k = 0
    listed = [r for r in runs if len(r) > 1]
    pairs_of = iter(pair_in_order(doc, listed, spans))
    for run in runs:
        results = out[k : k + len(run)]
        k += len(run)
        if len(run) == 1:
            continue
        pairs = next(pairs_of)
        if pairs is None:
            continue
        members = {id(m) for _, _, m in pairs}
        for result, (_, _, m) in zip(results, pairs, strict=True):
            if result.dataset is not None and id(result.dataset) in members:
                result.dataset = None
            if result.task is not None and id(result.task) in members:
                result.task = None
            if m["label"] == "Task":
                result.task = m
            else:  # a dataset, or a benchmark its sentence typed otherwise (_MISTYPED)
                result.dataset = m


def pair_methods(doc: Doc, out: list[Result], runs: list[Run], spans: Sequence[Arg]) -> None:
    """Each result of a run for the method in the same place of the list of as many methods
    ("A, B and C") that is the subject before it (a verb of :data:`_PRESENT` follows), when the
    sentence says "respectively": "the strongest models, Gemini-2.5-Pro and GPT-5-Think,
    achieve only 38.20% and 37.20% accuracy, respectively" (``out``, ``runs``: as
    :func:`pair_lists`'s).
    Not "On Qwen3-4B, qTTT improves ... by +12.6 and +14.1 on LongBench-v2 and ZeroSCROLLS,
    respectively": no list of methods."""
    if all(len(run) < 2 for run in runs):  # (most abstracts: no list of numbers)
        return
    methods = _Candidates.of(spans, frozenset({"Method"}))
    k = 0
    for run in runs:
        results = out[k : k + len(run)]
        k += len(run)
        sent = doc[run[0][0]].sent if len(run) > 1 else None
        if sent is None or not _respectively(doc, run[-1][1], sent.end):
            continue
        members = _last_list(doc, methods, run[0][0], sent.start)
        joined = len(members) > 1 and doc[members[-1][0] - 1].lower_ in ("and", "or")
        if len(members) == len(run) and joined and _verb_follows(doc, members[-1][1], _PRESENT):
            for result, (_, _, m) in zip(results, members, strict=True):
                result.method = m


#: What may stand between the numbers of a list that :func:`share_change` reads as one.
_LIST_JOINS = frozenset({",", "and", "or", "to", "-", "–"})


def share_change(doc: Doc, out: list[Result], runs: list[Run], change: frozenset[str]) -> None:
    """Every result of a run is a change when a change word (``change``) follows its last
    number, words between ("3.2% and 4.6% improvements", "11%, 14%, and 19% performance gains":
    the word is too far from the first numbers for their own reading to see). Only a plain
    list: not "3.34 with ∼50% less", "(71.56% vs. 31.83%)", "to 15.8%, a 70% relative
    improvement"."""
    k = 0
    for run in runs:
        results = out[k : k + len(run)]
        k += len(run)
        gaps = [doc[a:b] for (_, a), (b, _) in zip(run, run[1:], strict=False)]
        joined = all(t.lower_ in _LIST_JOINS for gap in gaps for t in gap)
        if len(run) < 2 or not joined:
            continue
        for t in doc[run[-1][1] : run[-1][1] + 3]:
            if t.lower_ in change:
                for result in results:
                    result.relative = True
            if not t.is_alpha or t.lower_ in change:
                break
