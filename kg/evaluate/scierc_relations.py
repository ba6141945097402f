"""Score kg's relation rules (:mod:`kg.extract.relations`) against SciERC's relation annotations.

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
FEATURE-OF, CONJUNCTION   not kg types: left out of gold and of the scores
========================  ==================================================================

Two settings:

* **gold**: the relation step alone. The gold entity spans (all six labels, ``Generic`` too)
  are the mentions; the text is tokenised and tagged by kg's base pipeline, sentences are
  SciERC's.
* **end-to-end**: kg's full pipeline finds the mentions (its own sentences), plus the generic
  nouns SciERC relates ("the method", "it": SciERC's ``Generic``, :func:`generic_mentions`).

A predicted relation is right when both argument spans are exact (characters) and the type is
right; *directed* also needs head and tail the right way round (never for COMPARED_WITH),
*undirected* not. Micro = sums over kg's six types.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.scierc import PRF, SciercDoc, doc_from_record, token_offsets
from kg.extract.relations import (
    GENERIC,
    RELATION_TYPES,
    Relation,
    is_generic_head,
    pseudo_mention,
    relations_in,
)
from kg.extract.spans import DERIVED_SOURCES

#: SciERC entity label → the label kg's relation rules read.
ENTITY_LABELS = {
    "Method": "Method",
    "Task": "Task",
    "Material": "Dataset",
    "Metric": "Metric",
    "OtherScientificTerm": "Concept",
    "Generic": GENERIC,
}
SYMMETRIC = frozenset({"COMPARED_WITH"})

CharSpan = tuple[int, int]
#: (head span, kg type, tail span)
Triple = tuple[CharSpan, str, CharSpan]


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


@dataclass
class RelationDoc:
    """A SciERC abstract with its gold relations in kg's types (character spans)."""

    doc: SciercDoc
    relations: list[Triple] = field(default_factory=list)


def record_relations(rec: dict[str, Any]) -> list[Triple]:
    """The gold relations of one SciERC record, mapped (:func:`map_relation`)."""
    tokens, starts, _ = token_offsets(rec["sentences"])
    labels = {(s, e): label for sent in rec["ner"] for s, e, label in sent}

    def chars(s: int, e: int) -> CharSpan:
        return starts[s], starts[e] + len(tokens[e])

    out = []
    for sent in rec.get("relations", []):
        for s1, e1, s2, e2, label in sent:
            mapped = map_relation(label, chars(s1, e1), chars(s2, e2), labels.get((s1, e1), ""))
            if mapped:
                out.append(mapped)
    return sorted(set(out))


def load_relation_split(data_dir: str | Path, split: str) -> list[RelationDoc]:
    """``<data_dir>/<split>.json`` with its relations; InputError when missing or malformed."""
    path = Path(data_dir) / f"{split}.json"
    if not path.is_file():
        raise InputError(f"SciERC file not found: {path} (use --data to point at the folder)")
    docs = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rec = json.loads(line)
                    docs.append(RelationDoc(doc_from_record(rec), record_relations(rec)))
                except (ValueError, KeyError, IndexError, TypeError) as exc:
                    raise InputError(f"{path}:{lineno}: not a SciERC record ({exc})") from exc
    return docs


# -- predicting ------------------------------------------------------------------------------


def gold_mentions(doc: SciercDoc) -> list[dict[str, Any]]:
    """SciERC's gold entity spans as ``kg_mentions`` dicts (labels: :data:`ENTITY_LABELS`)."""
    bounds = [*doc.sentence_starts, len(doc.text) + 1]
    out = []
    for start, end, label in doc.gold:
        k = max(i for i, b in enumerate(bounds[:-1]) if b <= start)
        out.append(
            {
                "start": start,
                "end": end,
                "text": doc.text[start:end],
                "label": ENTITY_LABELS[label],
                "role": "",
                "canonical": doc.text[start:end],
                "sent_start": bounds[k],
                "sent_end": bounds[k + 1] - 1,
                "source": "gold",
                "confidence": 1.0,
            }
        )
    return out


def predict_gold(docs: Sequence[RelationDoc]) -> list[list[Relation]]:
    """Relations over the gold mentions, SciERC's sentences, kg's tokens and tags."""
    from kg.extract.pipeline import load_pipeline

    nlp = load_pipeline()
    tagger = nlp.get_pipe("tagger")
    out = []
    for rd in docs:
        doc = nlp.make_doc(rd.doc.text)
        starts = set(rd.doc.sentence_starts)
        for tok in doc:
            tok.is_sent_start = tok.idx in starts
        doc = tagger(doc)
        out.append(relations_in(doc, gold_mentions(rd.doc), proposed=None, stand_in=False))
    return out


#: Pronouns SciERC annotates as Generic mentions ("it outperforms X"; 65 relation arguments in
#: train). kg cannot tell what they refer to: only this evaluation uses them.
PRONOUNS = frozenset({"it", "they"})


def generic_mentions(doc: Any, mentions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """SciERC-style Generic mentions kg's pipeline does not make (the graph has no use for
    them): a generic head noun ("method", "approach": the 20 commonest of SciERC's Generic
    mentions) or "it"/"they", on a token no other mention covers."""
    covered = [False] * len(doc)
    for m in mentions:
        span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
        if span is not None and m.get("source") not in DERIVED_SOURCES:
            covered[span.start : span.end] = [True] * len(span)
    return [
        pseudo_mention(tok, "generic")
        for tok in doc
        if not covered[tok.i] and (tok.lower_ in PRONOUNS or is_generic_head(tok))
    ]


def predict_end_to_end(docs: Sequence[RelationDoc]) -> list[list[Relation]]:
    """Relations over the mentions kg's full pipeline finds, plus :func:`generic_mentions`
    (SciERC scores relations of Generic mentions: "our method" is one, not the proposed entity)."""
    from kg.extract.pipeline import load_pipeline

    nlp = load_pipeline()
    out = []
    for doc in nlp.pipe((rd.doc.text for rd in docs), batch_size=32):
        mentions = [*doc._.kg_mentions, *generic_mentions(doc, doc._.kg_mentions)]
        out.append(relations_in(doc, mentions, proposed=None, stand_in=False))
    return out


def triple(r: Relation) -> Triple:
    return r.head_span, r.type, r.tail_span


# -- scoring ---------------------------------------------------------------------------------


def _undirected(t: Triple) -> Triple:
    head, kind, tail = t
    return (min(head, tail), kind, max(head, tail))


def _directed(t: Triple) -> Triple:
    return _undirected(t) if t[1] in SYMMETRIC else t


@dataclass
class RelationScores:
    directed: dict[str, PRF]
    undirected: dict[str, PRF]
    rules: dict[str, Counter[str]]  # rule -> {"tp": n, "fp": n} (directed)
    n_docs: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "n_docs": self.n_docs,
            "directed": {k: v.as_dict() for k, v in self.directed.items()},
            "undirected": {k: v.as_dict() for k, v in self.undirected.items()},
            "rules": {k: dict(v) for k, v in sorted(self.rules.items())},
        }


def score_relations(
    gold_docs: Sequence[Iterable[Triple]], pred_docs: Sequence[Sequence[Relation]]
) -> RelationScores:
    """Per-type and micro P/R/F1 of predicted relations, directed and undirected."""
    tables = {"directed": _directed, "undirected": _undirected}
    scores = {name: {t: PRF() for t in RELATION_TYPES} for name in tables}
    rules: dict[str, Counter[str]] = {}
    for gold_raw, preds in zip(gold_docs, pred_docs, strict=True):
        for name, norm in tables.items():
            gold = {norm(t) for t in gold_raw}
            pred = {norm(triple(r)) for r in preds}
            for t in gold | pred:
                cell = scores[name][t[1]]
                cell.tp += t in gold and t in pred
                cell.fp += t in pred and t not in gold
                cell.fn += t in gold and t not in pred
        gold_directed = {_directed(t) for t in gold_raw}
        for r in preds:
            hit = _directed(triple(r)) in gold_directed
            rules.setdefault(r.rule, Counter())["tp" if hit else "fp"] += 1
    for table in scores.values():
        micro = PRF()
        for kind in RELATION_TYPES:
            micro.add(table[kind])
        table["micro"] = micro
    return RelationScores(scores["directed"], scores["undirected"], rules, len(gold_docs))


def evaluate(docs: Sequence[RelationDoc], setting: str = "gold") -> RelationScores:
    """Predict (``gold`` or ``end-to-end`` mentions) and score."""
    if setting not in ("gold", "end-to-end"):
        raise InputError(f"unknown setting {setting!r}; choose gold or end-to-end")
    preds = predict_gold(docs) if setting == "gold" else predict_end_to_end(docs)
    return score_relations([d.relations for d in docs], preds)


def format_relation_table(scores: RelationScores, title: str = "") -> str:
    """One row per type: gold and predicted counts, directed P/R/F1, undirected F1 (percent)."""
    head = f"{'type':<14} {'gold':>5} {'pred':>5} | {'P':>5} {'R':>5} {'F1':>5} | {'uF1':>5}"
    lines = [title] if title else []
    lines += [head, "-" * len(head)]
    for t in (*RELATION_TYPES, "micro"):
        d, u = scores.directed[t], scores.undirected[t]
        lines.append(
            f"{t:<14} {d.tp + d.fn:>5} {d.tp + d.fp:>5} | {100 * d.precision:5.1f} "
            f"{100 * d.recall:5.1f} {100 * d.f1:5.1f} | {100 * u.f1:5.1f}"
        )
    return "\n".join(lines)
