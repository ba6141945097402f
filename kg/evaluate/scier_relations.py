"""Score kg's relation rules against SciER's relations (Zhang et al., EMNLP 2024): measure only.

SciER (GPL-3.0, :mod:`kg.evaluate.scier`) annotates relations ``[s1, e1, s2, e2, label]``
between Dataset, Method and Task mentions of full papers, within a sentence. Its nine labels
map onto kg's types as SciERC would annotate the same fact (kg's types are SciERC's, and its
rules were written on SciERC):

==============================  ============================================================
SciER                           kg (head → tail)
==============================  ============================================================
Used-For(a1, a2)                a1 USED_FOR a2
Trained-With(method, data)      data USED_FOR method (SciERC: "a parser trained on X" is
                                USED-FOR(X, parser); kg's rule "Y trained on X" says so)
Evaluated-With(method, data)    method EVALUATED_ON data
Benchmark-For(data, task)       task EVALUATED_ON data (SciERC: EVALUATE-FOR(data, task))
Compare-With(a1, a2)            a1 COMPARED_WITH a2 (symmetric)
Part-Of(a1, a2)                 a1 PART_OF a2
SubClass-Of(a1, a2)             a1 IS_A a2
SubTask-Of(task1, task2)        task1 IS_A task2 (SciERC's Task-Task pairs are HYPONYM-OF
                                31 times in train, PART-OF 13)
Synonym-Of                      left out: kg merges synonyms into one entity, no relation
==============================  ============================================================

SciER annotates no metrics and no concepts, so kg's relations with a Metric or Concept
argument are dropped before scoring (MEASURED_BY always is), as ``kg eval scier`` drops those
mentions. A definition "long form ( ACR )", one kg mention, is two SciER mentions: as an
argument it is its long form (:func:`kg.evaluate.scier.definition_parts`). Scoring, the two
settings (gold and end-to-end mentions; no Generic mentions, SciER has none) and the report are
SciERC's (:mod:`kg.evaluate.scierc_relations`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.scier import DEFAULT_DATA, SPLIT_FILES, definition_parts, doc_from_scier
from kg.evaluate.scierc import read_docs
from kg.evaluate.scierc_relation_gold import RelationDoc, Triple, corpus_relations, gold_summary
from kg.evaluate.scierc_relations import RelationReport, predict_gold, score_relations, snapped
from kg.extract.relations import Relation, relations_in
from kg.extract.spans import DERIVED_SOURCES

#: SciER label → kg type, and whether kg's head is SciER's second argument.
MAPPING: dict[str, tuple[str, bool]] = {
    "Used-For": ("USED_FOR", False),
    "Trained-With": ("USED_FOR", True),
    "Evaluated-With": ("EVALUATED_ON", False),
    "Benchmark-For": ("EVALUATED_ON", True),
    "Compare-With": ("COMPARED_WITH", False),
    "Part-Of": ("PART_OF", False),
    "SubClass-Of": ("IS_A", False),
    "SubTask-Of": ("IS_A", False),
}
LEFT_OUT = ("Synonym-Of",)
#: kg's types SciER can score (no metrics in SciER: no MEASURED_BY), in report order.
SCORED_TYPES = ("USED_FOR", "EVALUATED_ON", "COMPARED_WITH", "PART_OF", "IS_A")
#: SciER's entity labels are kg's.
ENTITY_LABELS = {"Method": "Method", "Task": "Task", "Dataset": "Dataset"}


def map_scier(label: str, arg1: tuple[int, int], arg2: tuple[int, int]) -> Triple | None:
    """A SciER relation as kg's (head, type, tail), or None for one kg has no type for.

    >>> map_scier("Benchmark-For", (0, 4), (9, 20))
    ((9, 20), 'EVALUATED_ON', (0, 4))
    >>> map_scier("Synonym-Of", (0, 4), (9, 20)) is None
    True
    """
    if label not in MAPPING:
        return None
    kind, swapped = MAPPING[label]
    return (arg2, kind, arg1) if swapped else (arg1, kind, arg2)


def relation_doc(rec: dict[str, Any]) -> RelationDoc:
    """One SciER paper with its relations, mapped (:func:`map_scier`) and as written."""
    corpus = corpus_relations(rec)
    mapped = {t for a1, a2, label in corpus if (t := map_scier(label, a1, a2)) is not None}
    return RelationDoc(doc_from_scier(rec), sorted(mapped), corpus)


def load_relation_split(data_dir: str | Path, split: str) -> list[RelationDoc]:
    """A SciER split (``dev``, ``test``, ``ood``) with its relations; InputError when missing
    or malformed."""
    if split not in SPLIT_FILES:
        raise InputError(f"unknown SciER split {split!r}; choose one of {', '.join(SPLIT_FILES)}")
    docs = read_docs(Path(data_dir) / SPLIT_FILES[split], relation_doc, "SciER")
    unknown = {label for d in docs for *_, label in d.corpus} - set(MAPPING) - set(LEFT_OUT)
    if unknown:
        raise InputError(f"SciER {split}: unknown relation labels {sorted(unknown)}")
    return docs


def scier_argument(
    span: tuple[int, int], text: str, acronyms: Sequence[tuple[int, int]]
) -> tuple[int, int]:
    """An argument's span as SciER would write it: a definition's long form (else its acronym).

    >>> scier_argument((4, 15), "Use CRF ( CRF ) for it", [(10, 13)])
    (4, 7)
    """
    long_form, inner = definition_parts(span[0], text[span[0] : span[1]], acronyms)
    return long_form or inner or span


def predict_end_to_end(docs: Sequence[RelationDoc]) -> list[list[Relation]]:
    """kg's full pipeline over each paper (one text, as ``kg eval scier``); the relations
    between its mentions whose arguments are both SciER's types, spans as SciER writes them."""
    from kg.extract.pipeline import load_pipeline

    nlp = load_pipeline()
    out = []
    for doc in nlp.pipe((rd.doc.text for rd in docs), batch_size=4):
        mentions = doc._.kg_mentions
        acronyms = [(m["start"], m["end"]) for m in mentions if m.get("source") == "defined"]
        own = [m for m in mentions if m.get("source") not in DERIVED_SOURCES]
        found = []
        for r in relations_in(doc, own, proposed=None, stand_in=False):  # SciER: no "we"
            if r.head["label"] in ENTITY_LABELS and r.tail["label"] in ENTITY_LABELS:
                head = scier_argument(r.head_span, doc.text, acronyms)
                tail = scier_argument(r.tail_span, doc.text, acronyms)
                found.append(replace(r, head_span=head, tail_span=tail))
        out.append(found)
    return out


def run_relations(split: str = "test", data: str | Path = DEFAULT_DATA) -> RelationReport:
    """Both settings on a SciER split (:mod:`kg.evaluate.scierc_relations`' report)."""
    docs = load_relation_split(data, split)
    summary = gold_summary(docs, lambda label: label not in LEFT_OUT)
    gold = [d.relations for d in docs]
    seconds = {}
    started = time.perf_counter()
    e2e = [snapped(d.doc, p) for d, p in zip(docs, predict_end_to_end(docs), strict=True)]
    seconds["end-to-end"] = time.perf_counter() - started
    started = time.perf_counter()
    preds = predict_gold(docs, ENTITY_LABELS)
    with_gold = [snapped(d.doc, p) for d, p in zip(docs, preds, strict=True)]
    seconds["gold"] = time.perf_counter() - started
    settings = {"end-to-end": score_relations(gold, e2e), "gold": score_relations(gold, with_gold)}
    return RelationReport("SciER", split, "none", summary, settings, None, seconds, "papers")
