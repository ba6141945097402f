"""What a sentence's relations say of other arguments: of the other members of a list ("X
for Y, Z and W" uses X for Z and W too: :func:`with_lists`), of the examples a sentence gives of
a class ("cybersecurity benchmarks (e.g., CTI-Bench, CyberMetric)": :func:`through_examples`),
and of the name an apposition gives a kind ("RATE, a novel transformer-based architecture for
offline RL": :func:`through_kinds`). Each such relation is its source's, its rule marked
("+list", "+examples", "+kind") and a little less sure.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from spacy.tokens import Doc

from kg.extract.spans import GENERIC, Arg, Mention

if TYPE_CHECKING:  # (relations imports this module)
    from kg.extract.relations import Relation

_JOINS = frozenset({",", "and", "or"})


def with_lists(doc: Doc, relations: list[Relation], args: list[Arg]) -> list[Relation]:
    """``relations`` and what they say of the other members of a list their arguments are in:
    "X for Y, Z and W" says X for Z and W; "such as A, B and C": each is one. (SciERC, gold
    mentions: 99 such relations in train, 74 right; 8 in dev, 6 right.)"""
    lists = _lists(doc, args)
    seen = {(r.head_span, r.type, r.tail_span) for r in relations}
    out = list(relations)
    for r in relations:
        for side in ("head", "tail"):
            for member in lists.get(getattr(r, f"{side}_span"), ()):
                span = (member["start"], member["end"])
                spans = (span, r.tail_span) if side == "head" else (r.head_span, span)
                if spans[0] == spans[1] or (spans[0], r.type, spans[1]) in seen:
                    continue
                seen.add((spans[0], r.type, spans[1]))
                changed: dict[str, Any] = {side: member, "rule": r.rule + "+list"}
                out.append(replace(r, **changed, head_span=spans[0], tail_span=spans[1],
                                   confidence=round(r.confidence * 0.9, 3)))  # fmt: skip
    return out


#: Relations that hold of a class's examples too, and the rules that give a class examples.
_PASSED_TO_EXAMPLES = frozenset({"EVALUATED_ON", "USED_FOR"})
_EXAMPLE_RULES = ("y_such_as_x", "y_examples_in_brackets")


def through_examples(relations: list[Relation]) -> list[Relation]:
    """``relations`` and what they say of the examples a sentence gives of their tail: "RedSage
    is evaluated on cybersecurity benchmarks (e.g., CTI-Bench, CyberMetric)" evaluates it on
    CTI-Bench and CyberMetric, which the sentence says are such benchmarks (IS_A)."""
    return _through_is_a(relations, _EXAMPLE_RULES, _PASSED_TO_EXAMPLES, "tail", "+examples")


#: The rules of an apposition that says what kind of thing a name is ("X, a Y").
_KIND_RULES = ("x_a_y", "x_the_first_y")


def through_kinds(relations: list[Relation]) -> list[Relation]:
    """``relations`` and what an apposition's kind is used for, and what is used for it, said
    of the name: "We propose RATE, a novel transformer-based architecture for offline RL" uses
    RATE for offline RL (the sentence says RATE is such an architecture, IS_A); in "DEFT, an
    innovative DRL policy architecture that leverages a specialized mixture of experts" the
    mixture of experts is used for DEFT; in "EfRLFN, an efficient real-time model that
    integrates Efficient Channel Attention" the attention is part of EfRLFN."""
    used = frozenset({"USED_FOR"})
    relations = _through_is_a(relations, _KIND_RULES, used, "head", "+kind")
    return _through_is_a(relations, _KIND_RULES, used | {"PART_OF"}, "tail", "+kind")


def _through_is_a(
    relations: list[Relation],
    rules: tuple[str, ...],
    passed: frozenset[str],
    side: str,
    tag: str,
) -> list[Relation]:
    """``relations`` and, for each relation of a ``passed`` type whose ``side`` ("head" or
    "tail") a sentence's IS_A of ``rules`` has as its broader end, the same relation of the
    narrower end (its rule marked ``tag``, a little less sure)."""
    broader: dict[tuple[int, int], list[Relation]] = {}
    for r in relations:
        if r.type == "IS_A" and r.rule.startswith(rules):
            broader.setdefault(r.tail_span, []).append(r)
    if not broader:
        return relations
    other = "tail" if side == "head" else "head"
    seen = {(r.head_span, r.type, r.tail_span) for r in relations}
    out = list(relations)
    for r in relations:
        if r.type not in passed:
            continue
        for isa in broader.get(getattr(r, f"{side}_span"), ()):
            spans = {side: isa.head_span, other: getattr(r, f"{other}_span")}
            key = (spans["head"], r.type, spans["tail"])
            if key in seen or isa.head_span == spans[other]:
                continue
            seen.add(key)
            moved: dict[str, Any] = {side: isa.head, f"{side}_span": isa.head_span}
            out.append(replace(r, **moved, rule=r.rule + tag,
                               confidence=round(r.confidence * 0.9, 3)))  # fmt: skip
    return out


def _lists(doc: Doc, args: list[Arg]) -> dict[tuple[int, int], list[Mention]]:
    """Each mention's span -> the other members of its list: mentions of one label (not
    :data:`GENERIC`) joined by ",", "and", "or" alone ("A, B, and C")."""
    lists: dict[tuple[int, int], list[Mention]] = {}
    run: list[Mention] = []
    ends: list[tuple[int, int, Mention | None]] = [*args[1:], (len(doc), 0, None)]
    for (_, end, m1), (start, _, m2) in zip(args, ends[: len(args)], strict=True):
        between = [t.lower_ for t in doc[end:start]]
        if (
            m2 is not None
            and 0 < len(between) <= 2
            and all(w in _JOINS for w in between)
            and m1["label"] == m2["label"] != GENERIC
            and not doc[start].is_sent_start
        ):
            run = run or [m1]
            run.append(m2)
            continue
        for m in run:
            lists[m["start"], m["end"]] = [o for o in run if o is not m]
        run = []
    return lists
