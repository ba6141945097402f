"""Score kg's relation rules (:mod:`kg.extract.relations`) against SciERC's relation annotations.

SciERC (``{train,dev,test}.json``, :mod:`kg.evaluate.scierc`) annotates, per sentence, directed
relations ``[arg1, arg2, label]`` between its entity spans; how kg's types map onto them is
:mod:`kg.evaluate.scierc_relation_gold`'s table (FEATURE-OF and CONJUNCTION are no kg type:
left out of the scores, and counted as missed in the "all relations" figure).

Two settings:

* **gold**: the relation step alone. The gold entity spans (all six labels, ``Generic`` too)
  are the mentions; the text is tokenised and tagged by kg's base pipeline, sentences are
  SciERC's.
* **end-to-end**: kg's full pipeline finds the mentions (its own sentences), plus SciERC's
  ``Generic`` mentions ("the method", "it"), which the graph leaves out but SciERC relates:
  28% of SciERC test's relations have one. They come from the shipped recogniser's own
  ``Generic`` spans (its re-typer drops them for the graph) and/or generic nouns
  (:data:`GENERIC_SOURCES`).

A predicted relation is right when both argument spans are exact and the type is right
(SciERC's end-to-end "Rel" figure); *directed* also needs head and tail the right way round
(never for COMPARED_WITH), *undirected* not. Predicted spans are first widened to the SciERC
tokens they touch, as the predictions file writes them (:class:`~kg.evaluate.scierc_format.
TokenIndex`), so a scorer reading that file gets the same figures. Micro = sums over kg's six
types; "all relations" = the same hits against every gold relation, FEATURE-OF and CONJUNCTION
too, which is how papers report SciERC's Rel.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import InputError
from kg.evaluate.scierc import (
    DEFAULT_DATA,
    KG_TO_SCIERC,
    PRF,
    SciercDoc,
    Span,
    kg_to_scierc,
)
from kg.evaluate.scierc_format import TokenIndex, write_predictions
from kg.evaluate.scierc_relation_gold import (
    ENTITY_LABELS,
    LEFT_OUT,
    SYMMETRIC,
    GoldSummary,
    RelationDoc,
    Triple,
    directed,
    gold_summary,
    load_relation_split,
    to_scierc,
    undirected,
)
from kg.extract.relation_model import RELATION_TYPES
from kg.extract.relations import Relation, relations_in
from kg.extract.spans import DERIVED_SOURCES, pseudo_mention
from kg.extract.stand_ins import is_generic_head

if TYPE_CHECKING:  # spaCy is imported where the pipeline is loaded
    from spacy.language import Language
    from spacy.tokens import Doc


# -- predicting ------------------------------------------------------------------------------


def gold_mentions(
    doc: SciercDoc, labels: Mapping[str, str] = ENTITY_LABELS
) -> list[dict[str, Any]]:
    """The gold entity spans as ``kg_mentions`` dicts (their labels through ``labels``)."""
    bounds = [*doc.sentence_starts, len(doc.text) + 1]
    out = []
    for start, end, label in doc.gold:
        k = max(i for i, b in enumerate(bounds[:-1]) if b <= start)
        out.append(
            {
                "start": start,
                "end": end,
                "text": doc.text[start:end],
                "label": labels[label],
                "role": "",
                "canonical": doc.text[start:end],
                "sent_start": bounds[k],
                "sent_end": bounds[k + 1] - 1,
                "source": "gold",
                "confidence": 1.0,
            }
        )
    return out


def predict_gold(
    docs: Sequence[RelationDoc], labels: Mapping[str, str] = ENTITY_LABELS
) -> list[list[Relation]]:
    """Relations over the gold mentions, the corpus' sentences, kg's tokens and tags."""
    from kg.extract.pipeline import load_pipeline

    nlp = load_pipeline()
    return [
        relations_in(tagged_doc(nlp, rd), gold_mentions(rd.doc, labels), proposed=None,
                     stand_in=False)
        for rd in docs
    ]  # fmt: skip


def tagged_doc(nlp: Language, rd: RelationDoc) -> Doc:
    """``rd``'s text tokenised and tagged by kg's pipeline ``nlp``, with the corpus' own
    sentences (gold mentions are scored within them): what the relation stage reads."""
    doc = nlp.make_doc(rd.doc.text)
    starts = set(rd.doc.sentence_starts)
    for tok in doc:
        tok.is_sent_start = tok.idx in starts
    return nlp.get_pipe("tagger")(doc)


#: Pronouns SciERC annotates as Generic mentions ("it outperforms X"; 65 relation arguments in
#: train). kg cannot tell what they refer to: only this evaluation uses them.
PRONOUNS = frozenset({"it", "they"})
#: Where the end-to-end setting's Generic mentions come from: the shipped recogniser's own
#: ``Generic`` spans, generic nouns and pronouns (:func:`generic_mentions`), both, or none.
GENERIC_SOURCES = ("recogniser", "nouns", "both", "none")
#: Chosen on SciERC dev, end-to-end directed micro F1: recogniser 14.4, both 14.4, nouns 13.4,
#: none 10.5 (Generic mention F1: recogniser 77.0, both 74.9, nouns 66.2).
DEFAULT_GENERIC = "recogniser"


def generic_mentions(doc: Any, mentions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """SciERC-style Generic mentions kg's pipeline does not make (the graph has no use for
    them): a generic head noun ("method", "approach": the 20 commonest of SciERC's Generic
    mentions) or "it"/"they", on a token no other mention covers."""
    covered = _covered(doc, mentions)
    return [
        pseudo_mention(tok, "generic")
        for tok in doc
        if not covered[tok.i] and (tok.lower_ in PRONOUNS or is_generic_head(tok))
    ]


def _covered(doc: Any, mentions: Iterable[dict[str, Any]]) -> list[bool]:
    """Per token of ``doc``, whether one of ``mentions`` (not a derived one) covers it."""
    covered = [False] * len(doc)
    for m in mentions:
        span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
        if span is not None and m.get("source") not in DERIVED_SOURCES:
            covered[span.start : span.end] = [True] * len(span)
    return covered


def recognised_generics(
    doc: Any, spans: Iterable[Span], mentions: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The recogniser's ``Generic`` spans (``spans``: its raw output on ``doc.text``) as
    mention dicts, those on tokens no mention covers."""
    covered = _covered(doc, mentions)
    out = []
    for start, end, label in spans:
        span = doc.char_span(start, end, alignment_mode="expand")
        if label != "Generic" or span is None or any(covered[span.start : span.end]):
            continue
        covered[span.start : span.end] = [True] * len(span)
        out.append({
            **pseudo_mention(span[0], "recogniser"),
            "end": span.end_char, "text": span.text, "canonical": span.text,
        })  # fmt: skip
    return out


@dataclass
class Predicted:
    """One abstract's end-to-end predictions: entity spans (SciERC labels, ``Generic`` too;
    the predictions file's ``ner``) and relations."""

    spans: list[Span]
    relations: list[Relation]


def predict_end_to_end(
    docs: Sequence[RelationDoc], generic: str = DEFAULT_GENERIC
) -> list[Predicted]:
    """kg's full pipeline over the texts: its mentions (not the derived ones) plus ``generic``
    Generic mentions (:data:`GENERIC_SOURCES`), and the relations between them."""
    from kg.extract.pipeline import load_pipeline

    if generic not in GENERIC_SOURCES:
        raise InputError(f"unknown Generic source {generic!r}; choose {', '.join(GENERIC_SOURCES)}")
    texts = [rd.doc.text for rd in docs]
    raw: list[list[Span]] = [[] for _ in docs]
    if generic in ("recogniser", "both"):
        from kg.evaluate.scierc import model_extractor

        raw = model_extractor(retyper=None)(texts)  # its own labels: Generic is one
    nlp = load_pipeline()
    out = []
    for doc, recognised in zip(nlp.pipe(texts, batch_size=32), raw, strict=True):
        own = scorable_mentions(doc)
        generics = recognised_generics(doc, recognised, own)
        if generic in ("nouns", "both"):
            generics += generic_mentions(doc, [*own, *generics])
        relations = relations_in(doc, [*own, *generics], proposed=None, stand_in=False)
        spans = kg_to_scierc((m["start"], m["end"], m["label"]) for m in own)
        spans += [(m["start"], m["end"], "Generic") for m in generics]
        out.append(Predicted(spans, relations))
    return out


def scorable_mentions(doc: Doc) -> list[dict[str, Any]]:
    """``doc``'s ``kg_mentions`` that SciERC can score as relation arguments: not the derived
    ones, which overlap the one they come from (SciERC's flat gold cannot hold them), and of a
    label SciERC has a name for."""
    return [
        m
        for m in doc._.kg_mentions
        if m.get("source") not in DERIVED_SOURCES and m["label"] in KG_TO_SCIERC
    ]


def triple(r: Relation) -> Triple:
    return r.head_span, r.type, r.tail_span


def snapped(doc: SciercDoc, relations: Sequence[Relation]) -> list[Relation]:
    """``relations`` with their argument spans widened to whole SciERC tokens (what the
    predictions file says)."""
    index = TokenIndex(doc)
    return [
        replace(r, head_span=index.snap(r.head_span), tail_span=index.snap(r.tail_span))
        for r in relations
    ]


# -- scoring ---------------------------------------------------------------------------------


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
    tables = {"directed": directed, "undirected": undirected}
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
        gold_directed = {directed(t) for t in gold_raw}
        for r in preds:
            hit = directed(triple(r)) in gold_directed
            rules.setdefault(r.rule, Counter())["tp" if hit else "fp"] += 1
    for table in scores.values():
        micro = PRF()
        for kind in RELATION_TYPES:
            micro.add(table[kind])
        table["micro"] = micro
    return RelationScores(scores["directed"], scores["undirected"], rules, len(gold_docs))


def evaluate(
    docs: Sequence[RelationDoc], setting: str = "gold", generic: str = DEFAULT_GENERIC
) -> RelationScores:
    """Predict (``gold`` or ``end-to-end`` mentions) and score."""
    if setting not in ("gold", "end-to-end"):
        raise InputError(f"unknown setting {setting!r}; choose gold or end-to-end")
    if setting == "gold":
        preds = predict_gold(docs)
    else:
        preds = [p.relations for p in predict_end_to_end(docs, generic)]
    return score_relations(
        [d.relations for d in docs], [snapped(d.doc, p) for d, p in zip(docs, preds, strict=True)]
    )


def all_relations(scores: RelationScores, summary: GoldSummary) -> PRF:
    """The directed micro hits against every gold relation (left-out labels count as missed)."""
    micro = scores.directed["micro"]
    return PRF(micro.tp, micro.fp, summary.distinct - micro.tp)


# -- the report ------------------------------------------------------------------------------


@dataclass
class RelationReport:
    """``kg eval scierc --relations``: both settings on one split, the gold relations' counts,
    the end-to-end Generic mentions' exact-span scores, and the seconds each setting took."""

    corpus: str
    split: str
    generic: str
    summary: GoldSummary
    settings: dict[str, RelationScores]  # "end-to-end", "gold" (mentions)
    generic_mentions: PRF | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    unit: str = "abstracts"

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "corpus": self.corpus,
            "split": self.split,
            "generic": self.generic,
            "gold_relations": self.summary.as_dict(),
        }
        for name, scores in self.settings.items():
            out[name] = {
                **scores.as_dict(),
                "all_relations": all_relations(scores, self.summary).as_dict(),
                "seconds": round(self.seconds.get(name, 0.0), 1),
            }
        if self.generic_mentions is not None:
            out["generic_mentions"] = self.generic_mentions.as_dict()
        return out


def generic_scores(docs: Sequence[RelationDoc], predicted: Sequence[Predicted]) -> PRF:
    """Exact-span scores of the predicted ``Generic`` mentions against the gold ones."""
    prf = PRF()
    for rd, p in zip(docs, predicted, strict=True):
        index = TokenIndex(rd.doc)
        gold = {(s, e) for s, e, label in rd.doc.gold if label == "Generic"}
        pred = {index.snap((s, e)) for s, e, label in p.spans if label == "Generic"}
        prf.add(PRF(len(gold & pred), len(pred - gold), len(gold - pred)))
    return prf


def run_relations(
    split: str = "dev",
    data: str | Path = DEFAULT_DATA,
    generic: str = DEFAULT_GENERIC,
    predictions: str | Path | None = None,
) -> RelationReport:
    """Both settings on a SciERC split. ``predictions``: also write the end-to-end predictions
    there in SciERC's format, relations included (:func:`~kg.evaluate.scierc_format.
    write_predictions`)."""
    docs = load_relation_split(data, split)
    summary = gold_summary(docs, lambda label: label not in LEFT_OUT)
    gold = [d.relations for d in docs]
    seconds = {}
    started = time.perf_counter()
    predicted = predict_end_to_end(docs, generic)
    e2e = [snapped(d.doc, p.relations) for d, p in zip(docs, predicted, strict=True)]
    seconds["end-to-end"] = time.perf_counter() - started
    started = time.perf_counter()
    with_gold = [snapped(d.doc, p) for d, p in zip(docs, predict_gold(docs), strict=True)]
    seconds["gold"] = time.perf_counter() - started
    if predictions is not None:
        write_predictions(
            [d.doc for d in docs],
            [p.spans for p in predicted],
            predictions,
            [[to_scierc(triple(r)) for r in rels] for rels in e2e],
        )
    settings = {"end-to-end": score_relations(gold, e2e), "gold": score_relations(gold, with_gold)}
    return RelationReport(
        "SciERC", split, generic, summary, settings, generic_scores(docs, predicted), seconds
    )


def _prf_cells(prf: PRF) -> str:
    return (
        f"{prf.tp + prf.fp:>5} {100 * prf.precision:5.1f} {100 * prf.recall:5.1f} "
        f"{100 * prf.f1:5.1f}"
    )


_SETTING_NAMES = {"end-to-end": "end to end", "gold": "gold mentions"}


def format_report(report: RelationReport, types: Sequence[str] = RELATION_TYPES) -> str:
    """A plain-text table: per kg type and micro, the gold count and, for each setting, the
    predicted count and directed P/R/F1 (percent); then the "all relations" row and notes."""
    return "\n".join(line.rstrip() for line in [*_table(report, types), *_notes(report)])


def _table(report: RelationReport, types: Sequence[str]) -> list[str]:
    settings = [(_SETTING_NAMES[k], v) for k, v in report.settings.items()]
    head = f"{'':<15} {'':>5} |" + "|".join(f" {n:^23} " for n, _ in settings)
    cols = f"{'type':<15} {'gold':>5} |" + "|".join(
        f" {'pred':>5} {'P':>5} {'R':>5} {'F1':>5} " for _ in settings
    )
    lines = [
        f"{report.corpus} {report.split}, relations: both argument spans exact, type right "
        f"(directed; {', '.join(sorted(SYMMETRIC))} either way)",
        head,
        cols,
        "-" * len(cols),
    ]
    for t in (*types, "micro"):
        gold = settings[0][1].directed[t]
        cells = "|".join(f" {_prf_cells(v.directed[t])} " for _, v in settings)
        lines.append(f"{t:<15} {gold.tp + gold.fn:>5} |{cells}")
    cells = "|".join(f" {_prf_cells(all_relations(v, report.summary))} " for _, v in settings)
    lines.append(f"{'all relations':<15} {report.summary.distinct:>5} |{cells}")
    return lines


def _notes(report: RelationReport) -> list[str]:
    """What was scored and left out, the Generic mentions, the time taken."""
    s = report.summary
    left = ", ".join(f"{k} {v}" for k, v in s.left_out.items())
    merged = f"; {s.merged} the same as another, scored once" if s.merged else ""
    lines = [
        f"{s.total} gold relations: {s.scored} scored, {sum(s.left_out.values())} left out"
        + (f" ({left}): kg has no such types; 'all relations' counts them missed" if left else "")
        + f"{merged}."
    ]
    if s.with_generic:
        lines.append(
            f"{s.with_generic} of them ({100 * s.with_generic / s.total:.0f}%) have a Generic "
            "argument ('this method', 'it'), which the graph leaves out."
        )
    if report.generic_mentions is not None:
        g = report.generic_mentions
        lines.append(
            f"End to end, Generic mentions from {report.generic}: {g.tp + g.fp} predicted, "
            f"P {100 * g.precision:.1f} R {100 * g.recall:.1f} F1 {100 * g.f1:.1f} "
            f"(against {g.tp + g.fn} gold)."
        )
    timing = ", ".join(f"{_SETTING_NAMES[k]} {v:.1f}s" for k, v in report.seconds.items())
    n_docs = report.settings["gold"].n_docs
    lines.append(f"{n_docs} {report.unit}; {timing}, loading the models included.")
    return lines
