"""SciERC's gold relations in kg's types, and what a split holds: what
:mod:`kg.evaluate.scierc_relations` scores kg's relations against, and
:mod:`kg.train.relations` trains on.

SciERC (``{train,dev,test}.json``, :mod:`kg.evaluate.scierc`) annotates, per sentence, directed
relations ``[arg1, arg2, label]`` between its entity spans. kg's types map onto them:

========================  ==================================================================
SciERC                    kg (head → tail)
========================  ==================================================================
USED-FOR(a1, a2)          a1 USED_FOR a2 ("a1 is used for a2")
EVALUATE-FOR(a1, a2)      a2 MEASURED_BY a1 when a1 is a Metric, else a2 EVALUATED_ON a1
                          (SciERC: "a1 evaluates a2"; "accuracy" evaluates a parser, "Penn
                          Treebank" evaluates it: kg's head is the thing evaluated)
COMPARE(a1, a2)           a1 COMPARED_WITH a2 (symmetric: its direction is never scored)
PART-OF(a1, a2)           a1 PART_OF a2
HYPONYM-OF(a1, a2)        a1 IS_A a2
FEATURE-OF, CONJUNCTION   not kg types: left out of the scores (:data:`LEFT_OUT`), and
                          counted as missed in the "all relations" figure
========================  ==================================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.scierc import SPLITS, SciercDoc, doc_from_record, read_docs, token_offsets
from kg.evaluate.scierc_format import SciercRelation
from kg.extract.spans import GENERIC

#: SciERC entity label → the label kg's relation rules read.
ENTITY_LABELS = {
    "Method": "Method",
    "Task": "Task",
    "Material": "Dataset",
    "Metric": "Metric",
    "OtherScientificTerm": "Concept",
    "Generic": GENERIC,
}
#: The types whose direction is never scored.
SYMMETRIC = frozenset({"COMPARED_WITH"})
#: SciERC's relation labels kg has no type for.
LEFT_OUT = ("FEATURE-OF", "CONJUNCTION")
#: kg type → SciERC label, and whether SciERC writes the arguments the other way round.
TO_SCIERC = {
    "USED_FOR": ("USED-FOR", False),
    "EVALUATED_ON": ("EVALUATE-FOR", True),
    "MEASURED_BY": ("EVALUATE-FOR", True),
    "COMPARED_WITH": ("COMPARE", False),
    "PART_OF": ("PART-OF", False),
    "IS_A": ("HYPONYM-OF", False),
}

CharSpan = tuple[int, int]
#: (head span, kg type, tail span)
Triple = tuple[CharSpan, str, CharSpan]


def undirected(t: Triple) -> Triple:
    """``t`` with its ends in text order (how a comparison is matched either way round)."""
    head, kind, tail = t
    return (min(head, tail), kind, max(head, tail))


def directed(t: Triple) -> Triple:
    """``t`` as scored directed: a :data:`SYMMETRIC` type's ends in text order."""
    return undirected(t) if t[1] in SYMMETRIC else t


def map_relation(label: str, arg1: CharSpan, arg2: CharSpan, arg1_label: str) -> Triple | None:
    """A SciERC relation as kg's (head, type, tail), or None for a type kg does not have.

    >>> map_relation("EVALUATE-FOR", (0, 8), (20, 26), "Metric")
    ((20, 26), 'MEASURED_BY', (0, 8))
    >>> map_relation("EVALUATE-FOR", (0, 8), (20, 26), "Material")
    ((20, 26), 'EVALUATED_ON', (0, 8))
    >>> map_relation("CONJUNCTION", (0, 8), (20, 26), "Method") is None
    True
    """
    if label == "EVALUATE-FOR":
        return arg2, "MEASURED_BY" if arg1_label == "Metric" else "EVALUATED_ON", arg1
    simple = {
        "USED-FOR": "USED_FOR",
        "COMPARE": "COMPARED_WITH",
        "PART-OF": "PART_OF",
        "HYPONYM-OF": "IS_A",
    }
    return (arg1, simple[label], arg2) if label in simple else None


def to_scierc(t: Triple) -> SciercRelation:
    """kg's (head, type, tail) in SciERC's terms (arg1, arg2, label): :func:`map_relation`
    undone.

    >>> to_scierc(((20, 26), "MEASURED_BY", (0, 8)))
    ((0, 8), (20, 26), 'EVALUATE-FOR')
    >>> to_scierc(((0, 3), "IS_A", (5, 9)))
    ((0, 3), (5, 9), 'HYPONYM-OF')
    """
    head, kind, tail = t
    label, swapped = TO_SCIERC[kind]
    return (tail, head, label) if swapped else (head, tail, label)


@dataclass
class RelationDoc:
    """An abstract with its gold relations in kg's types (character spans), and all of the
    corpus' own relations as written (``corpus``: arg1, arg2, label; characters)."""

    doc: SciercDoc
    relations: list[Triple] = field(default_factory=list)
    corpus: list[SciercRelation] = field(default_factory=list)


def corpus_relations(rec: dict[str, Any]) -> list[SciercRelation]:
    """A SciERC-layout record's relations as written, in character spans."""
    tokens, starts, _ = token_offsets(rec["sentences"])

    def chars(s: int, e: int) -> CharSpan:
        return starts[s], starts[e] + len(tokens[e])

    return [
        (chars(s1, e1), chars(s2, e2), label)
        for sent in rec.get("relations", [])
        for s1, e1, s2, e2, label in sent
    ]


def record_relations(rec: dict[str, Any]) -> list[Triple]:
    """The gold relations of one SciERC record, mapped (:func:`map_relation`)."""
    tokens, starts, _ = token_offsets(rec["sentences"])
    ends = [start + len(token) for start, token in zip(starts, tokens, strict=True)]
    labels = {(starts[s], ends[e]): label for sent in rec["ner"] for s, e, label in sent}
    out = []
    for arg1, arg2, label in corpus_relations(rec):
        mapped = map_relation(label, arg1, arg2, labels.get(arg1, ""))
        if mapped:
            out.append(mapped)
    return sorted(set(out))


def relation_doc(rec: dict[str, Any]) -> RelationDoc:
    """One SciERC record as a :class:`RelationDoc`."""
    return RelationDoc(doc_from_record(rec), record_relations(rec), corpus_relations(rec))


def load_relation_split(data_dir: str | Path, split: str) -> list[RelationDoc]:
    """``<data_dir>/<split>.json`` with its relations; InputError when missing or malformed."""
    if split not in SPLITS:
        raise InputError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return read_docs(Path(data_dir) / f"{split}.json", relation_doc, "SciERC")


@dataclass
class GoldSummary:
    """What a split's gold relations are: how many, how many scored (distinct, in kg's types),
    which left out, and how many have a ``Generic`` argument."""

    total: int
    scored: int
    left_out: dict[str, int]
    with_generic: int

    @property
    def merged(self) -> int:
        """Gold relations scored as one with another: the same pair and type twice, or a
        comparison written both ways."""
        return self.total - self.scored - sum(self.left_out.values())

    @property
    def distinct(self) -> int:
        """The gold relations "all relations" is scored against: scored plus left out."""
        return self.scored + sum(self.left_out.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "scored": self.scored,
            "left_out": self.left_out,
            "merged": self.merged,
            "with_generic": self.with_generic,
        }


def gold_summary(docs: Sequence[RelationDoc], kept: Callable[[str], bool]) -> GoldSummary:
    """Counts of ``docs``' gold relations; ``kept``: whether a corpus label is scored."""
    left_out: Counter[str] = Counter()
    with_generic = 0
    for rd in docs:
        generic = {(s, e) for s, e, label in rd.doc.gold if label == "Generic"}
        for arg1, arg2, label in rd.corpus:
            with_generic += arg1 in generic or arg2 in generic
            if not kept(label):
                left_out[label] += 1
    scored = sum(len({directed(t) for t in rd.relations}) for rd in docs)
    total = sum(len(rd.corpus) for rd in docs)
    return GoldSummary(total, scored, dict(sorted(left_out.items())), with_generic)
