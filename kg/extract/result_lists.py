"""Claims listed in order with what they are on: "improving high-level metrics by 6.2% and
9.9% on ChartMimic and ReachQA", "gains of +3.79%, +2.90%, and +3.95% on GSM8K, CoLA, and
ARC-C, respectively", "On MMBench and VLGuard, it improves by 59.1% and 44.3%, respectively".

A list of numbers and a list of as many datasets or tasks pair by position. Without this, each
number took the dataset nearest to it, so all of a list's numbers went to one dataset.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc

from kg.extract.relations import Arg

#: What a listed claim is on.
_ON = frozenset({"Dataset", "Task"})
#: The most tokens between the last number and the list after it ("% performance gains on").
_GAP = 6


def pair_in_order(
    doc: Doc, runs: Sequence[Sequence[tuple[int, int]]], spans: Sequence[Arg]
) -> list[list[Arg | None]]:
    """For each run of listed numbers (their token spans, in order), the dataset or task
    mention each is on, or None for every one where no list pairs with the run.

    The list of datasets or tasks (commas between, "and" or "or" before the last) must have as
    many members as the run has numbers, and either come right after the last number (at most
    :data:`_GAP` tokens, no verb between) or, when the sentence says "respectively" after the
    numbers, end before the first (datasets only, then: :func:`_list_before`).

    >>> from kg.extract.pipeline import load_pipeline
    >>> doc = load_pipeline()("It gains 6.2% and 9.9% on ChartMimic and ReachQA.")
    >>> from kg.extract.relations import argument_tokens
    >>> spans = argument_tokens(doc, doc._.kg_mentions, stand_in=False)
    >>> [[m[2]["text"] for m in run] for run in pair_in_order(doc, [[(2, 4), (5, 7)]], spans)]
    [['ChartMimic', 'ReachQA']]
    """
    on = {s: (s, e, m) for s, e, m in spans if m["label"] in _ON}
    paired: list[list[Arg | None]] = []
    for run in runs:
        first, last = run[0][0], run[-1][1]
        sent = doc[first].sent
        members = _list_after(doc, on, last, sent.end)
        if len(members) != len(run) and _respectively(doc, last, sent.end):
            members = _list_before(doc, on, first, sent.start)
        paired.append(list(members) if len(members) == len(run) else [None] * len(run))
    return paired


def _list_after(doc: Doc, on: dict[int, Arg], end: int, sent_end: int) -> list[Arg]:
    """The list whose first member is the first mention of ``on`` after token ``end``, at most
    :data:`_GAP` tokens on and no verb between."""
    for j in range(end, min(end + _GAP + 1, sent_end)):
        if j in on:
            return _list_from(doc, on, j)
        if doc[j].tag_.startswith("VB"):
            return []
    return []


def _list_before(doc: Doc, on: dict[int, Arg], start: int, sent_start: int) -> list[Arg]:
    """The last list of the sentence that ends before token ``start``, when its members are
    all datasets and no verb follows it: a list of tasks there ("sets new SOTA results on
    language modeling and retrieval tasks ..., delivers 80% and 58.2% gains on MQAR and RULER
    tasks, ..., respectively") is as often the sentence's topic, and a list a verb follows is
    its subject ("On Pick-a-Pic V2, Poly-DPO achieves")."""
    best: list[Arg] = []
    j = sent_start
    while j < start:
        if j in on:
            members = _list_from(doc, on, j)
            if members[-1][1] > start:
                break
            best, j = members, members[-1][1]
        else:
            j += 1
    if not best or any(m["label"] != "Dataset" for _, _, m in best):
        return []
    end = best[-1][1]
    return [] if end < len(doc) and doc[end].tag_.startswith("VB") else best


def _list_from(doc: Doc, on: dict[int, Arg], j: int) -> list[Arg]:
    """The mentions of the list that starts at token ``j``: commas between them, and "and" or
    "or" before the last."""
    members: list[Arg] = []
    last = False
    while j in on:
        members.append(on[j])
        j = on[j][1]
        if last:
            break
        comma = j < len(doc) and doc[j].text == ","
        j += comma
        if j < len(doc) and doc[j].lower_ in ("and", "or"):
            j, last = j + 1, True
        elif not comma:
            break
    return members


def _respectively(doc: Doc, end: int, sent_end: int) -> bool:
    return any(t.lower_ == "respectively" for t in doc[end:sent_end])
