"""Reproduce the shipped relation classifier (``kg/extract/models/relations/relations.npz``).

See :mod:`kg.extract.relation_model` for what the model is. Recipe (``kg train relations``, a
minute or two on one core):

1. SciERC **train**, in two settings, as ``kg eval scierc --relations`` predicts them
   (:mod:`kg.evaluate.scierc_relations`): **gold** mentions (kg's tokens and tags, SciERC's
   sentences) and **predicted** ones (kg's full pipeline and the recogniser's ``Generic``
   spans). Every candidate pair of arguments of a sentence
   (:func:`~kg.extract.relation_model.candidate_pairs`) is an example; its class is the gold
   relation between the two spans, mapped onto kg's types as the scorer maps them
   (:func:`~kg.evaluate.scierc_relation_gold.map_relation`: FEATURE-OF and CONJUNCTION are NONE).
   A predicted mention stands for a gold one when both spans are the same or, for training
   only, nearly so (:func:`near_gold`: overlapping, one end shared).
2. Fit a multinomial logistic regression (scikit-learn, lbfgs; deterministic) on the hashed
   features and keep the weights of the buckets seen, as plain arrays.
3. With gold mentions, on SciERC **dev** and on train out of fold (five models, each trained
   without a fifth of the abstracts, :func:`out_of_fold`: dev alone has 25 to 44 relations
   of most types), choose each type's probability threshold: the lowest at which what the
   model adds to the rules is :data:`TARGET_PRECISION` precise, and stays so at every higher
   threshold (:func:`choose_thresholds`). Test is not used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kg.evaluate.scierc_format import TokenIndex
from kg.evaluate.scierc_relation_gold import RelationDoc, Triple, load_relation_split
from kg.evaluate.scierc_relations import (
    RelationScores,
    gold_mentions,
    recognised_generics,
    scorable_mentions,
    score_relations,
    tagged_doc,
)
from kg.extract.relation_model import (
    BUCKETS,
    CLASS_TYPE,
    CLASSES,
    HEAD_FIRST,
    METRIC,
    RELATION_TYPES,
    RelationModel,
    candidate_pairs,
    doc_features,
    hashed,
    lower_and_tags,
    sentence_index,
)
from kg.extract.relations import Relation, argument_tokens, relations_in
from kg.train import require_train_extra

#: Each type's threshold is chosen for this precision on SciERC dev with gold mentions.
TARGET_PRECISION = 0.70
#: The thresholds tried. The lowest is 0.5: the model adds only a relation it finds more
#: likely than none. Below it, on 110 random ICLR 2026 abstracts read by hand, most of what a
#: model with lower thresholds added was wrong (COMPARED_WITH 1 of 6 right, IS_A 3 of 6),
#: though SciERC train out of fold had those 80% right.
GRID = tuple(round(t, 2) for t in np.arange(0.50, 0.96, 0.05))
DEFAULT_C = 0.1
#: The threshold of a type no threshold makes precise enough: the model never adds it.
NEVER = 1.01
#: The thresholds are chosen on dev and on train out of fold: dev alone has too few of most
#: types (25 EVALUATED_ON, 27 PART_OF, 25 MEASURED_BY).
FOLDS = 5
CharSpan = tuple[int, int]


@dataclass
class PairDoc:
    """One abstract's candidate pairs in one setting: their features, their argument spans
    (SciERC tokens), their classes, and what the rules alone find there."""

    features: list[list[str]] = field(default_factory=list)
    spans: list[tuple[CharSpan, CharSpan]] = field(default_factory=list)  # first, second
    raw_spans: list[tuple[CharSpan, CharSpan]] = field(default_factory=list)  # unsnapped
    metric: list[tuple[bool, bool]] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    rules: list[Relation] = field(default_factory=list)  # snapped
    #: the pairs of (unsnapped) spans the rules relate, either way round
    related: set[frozenset[CharSpan]] = field(default_factory=set)
    gold: list[Triple] = field(default_factory=list)


def pair_class(a: CharSpan | None, b: CharSpan | None, gold: set[Triple]) -> int:
    """The class of the pair (``a``, ``b``), ``a`` first, given the gold triples."""
    if a is None or b is None:
        return 0
    for kind in RELATION_TYPES:
        if kind == "COMPARED_WITH":
            if (a, kind, b) in gold or (b, kind, a) in gold:
                return CLASSES.index(kind)
        elif (a, kind, b) in gold:
            return CLASSES.index(kind + ">")
        elif (b, kind, a) in gold:
            return CLASSES.index(kind + "<")
    return 0


def near_gold(span: CharSpan, gold: Sequence[CharSpan], exact_only: bool) -> CharSpan | None:
    """The gold span ``span`` stands for: itself, or (unless ``exact_only``) the gold span
    that overlaps it most among those sharing its start or its end ("the parser" for
    "parser")."""
    if span in gold:
        return span
    if exact_only:
        return None
    best, overlap = None, 0
    for g in gold:
        o = min(g[1], span[1]) - max(g[0], span[0])
        if o > overlap and (g[0] == span[0] or g[1] == span[1]):
            best, overlap = g, o
    return best


def _pair_doc(doc: Any, rd: RelationDoc, mentions: list[dict[str, Any]], exact: bool) -> PairDoc:
    args = argument_tokens(doc, mentions, stand_in=False)
    index = TokenIndex(rd.doc)
    words, tags = lower_and_tags(doc)
    sentence_of, sentence_end = sentence_index(doc)
    model_args = [(s, e, m["label"]) for s, e, m in args]
    pairs = candidate_pairs(model_args, sentence_of, sentence_end)
    gold = set(rd.relations)
    gold_spans = sorted({(s, e) for s, e, _ in rd.doc.gold})
    out = PairDoc(gold=list(rd.relations))
    out.features = doc_features(words, tags, model_args, pairs, sentence_of, sentence_end)
    for i, j in pairs:
        raw = tuple((args[k][2]["start"], args[k][2]["end"]) for k in (i, j))
        a, b = (index.snap(span) for span in raw)
        out.raw_spans.append(raw)  # type: ignore[arg-type]
        out.spans.append((a, b))
        out.metric.append((model_args[i][2] == METRIC, model_args[j][2] == METRIC))
        ga, gb = near_gold(a, gold_spans, exact), near_gold(b, gold_spans, exact)
        out.labels.append(pair_class(ga, gb, gold))
    rules = relations_in(doc, mentions, proposed=None, stand_in=False, model=None)
    out.rules = [
        Relation(r.head, r.type, r.tail, "", r.confidence, r.rule,
                 index.snap(r.head_span), index.snap(r.tail_span))
        for r in rules
    ]  # fmt: skip
    out.related = {frozenset((r.head_span, r.tail_span)) for r in rules}
    return out


def gold_pair_docs(docs: Sequence[RelationDoc]) -> list[PairDoc]:
    """The candidate pairs of gold mentions, tokenised as :func:`~kg.evaluate.
    scierc_relations.predict_gold` does."""
    from kg.extract.pipeline import load_pipeline

    nlp = load_pipeline()
    return [_pair_doc(tagged_doc(nlp, rd), rd, gold_mentions(rd.doc), exact=True) for rd in docs]


def predicted_pair_docs(docs: Sequence[RelationDoc], exact: bool) -> list[PairDoc]:
    """The candidate pairs of kg's own mentions and the recogniser's Generic spans, as
    :func:`~kg.evaluate.scierc_relations.predict_end_to_end` finds them. ``exact``: whether a
    pair's class needs both spans exact (scoring), or near ones do (training)."""
    from kg.evaluate.scierc import model_extractor
    from kg.extract.pipeline import load_pipeline

    texts = [rd.doc.text for rd in docs]
    raw = model_extractor(retyper=None)(texts)
    nlp = load_pipeline()
    out = []
    for rd, doc, recognised in zip(docs, nlp.pipe(texts, batch_size=32), raw, strict=True):
        own = scorable_mentions(doc)
        mentions = [*own, *recognised_generics(doc, recognised, own)]
        out.append(_pair_doc(doc, rd, mentions, exact))
    return out


def pair_docs(docs: Sequence[RelationDoc], setting: str, exact: bool = True) -> list[PairDoc]:
    """:func:`gold_pair_docs` (``setting`` "gold") or :func:`predicted_pair_docs`."""
    if setting == "gold":
        return gold_pair_docs(docs)
    return predicted_pair_docs(docs, exact)


# -- fitting ---------------------------------------------------------------------------------


def design(pair_docs: Iterable[PairDoc]) -> tuple[list[list[int]], list[int]]:
    """Every pair's buckets and class."""
    rows: list[list[int]] = []
    labels: list[int] = []
    for d in pair_docs:
        rows += [hashed(f) for f in d.features]
        labels += d.labels
    return rows, labels


def fit(pair_docs: Sequence[PairDoc], C: float = DEFAULT_C) -> RelationModel:
    """A logistic regression on the pairs' hashed features; thresholds all 0.5 (then
    :func:`choose_thresholds`)."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    rows, labels = design(pair_docs)
    buckets = sorted({b for r in rows for b in r})
    column = {b: k for k, b in enumerate(buckets)}
    indptr, indices = [0], []
    for r in rows:
        cols = sorted({column[b] for b in r})
        indices += cols
        indptr.append(len(indices))
    x = sparse.csr_matrix(
        (np.ones(len(indices), np.float32), indices, indptr), shape=(len(rows), len(buckets))
    )
    y = np.array(labels)
    clf = LogisticRegression(C=C, max_iter=5000)
    clf.fit(x, y)
    w = np.zeros((len(buckets), len(CLASSES)), np.float32)
    bias = np.full(len(CLASSES), -30.0, np.float32)  # a class never seen: never chosen
    for k, c in enumerate(clf.classes_):
        w[:, c] = clf.coef_[k]
        bias[c] = clf.intercept_[k]
    keep = np.abs(w).max(1) >= 1e-3
    assert max(buckets) < BUCKETS
    return RelationModel(np.array(buckets)[keep], w[keep], bias, dict.fromkeys(RELATION_TYPES, 0.5))


# -- choosing thresholds, scoring --------------------------------------------------------------


def decided(model: RelationModel, d: PairDoc) -> list[tuple[int, int, float]]:
    """Per pair of ``d``: its best class but NONE and that class' probability (no threshold)."""
    if not d.features:
        return []
    proba = model.proba(d.features, np.array(d.metric, dtype=bool).reshape(-1, 2))
    best = 1 + np.argmax(proba[:, 1:], axis=1)
    return [(k, int(c), float(proba[k, c])) for k, c in enumerate(best)]


def union(
    d: PairDoc, best: Sequence[tuple[int, int, float]], thresholds: dict[str, float]
) -> list[Relation]:
    """The rules' relations and the model's between pairs the rules do not relate: what
    :func:`~kg.extract.relations.relations_in` returns, snapped."""
    out = list(d.rules)
    related = d.related
    for k, c, p in best:
        kind = CLASS_TYPE[c]
        if kind is None or p < thresholds[kind] or frozenset(d.raw_spans[k]) in related:
            continue
        a, b = d.spans[k]
        head, tail = (a, b) if HEAD_FIRST[c] else (b, a)
        out.append(Relation({}, kind, {}, "", p, "model", head, tail))
    return out


def score(
    model: RelationModel, docs: Sequence[PairDoc], thresholds: dict[str, float] | None = None
) -> RelationScores:
    """The rules and ``model`` together on ``docs``, as ``kg eval scierc --relations``
    scores them."""
    thresholds = thresholds or model.thresholds
    preds = [union(d, decided(model, d), thresholds) for d in docs]
    return score_relations([d.gold for d in docs], preds)


def choose_thresholds(
    docs: Sequence[PairDoc],
    best: Sequence[Sequence[tuple[int, int, float]]],
    target: float = TARGET_PRECISION,
) -> dict[str, float]:
    """Per type, the lowest threshold of :data:`GRID` at which what the model adds to the
    rules on ``docs`` (``best``: :func:`decided` of each) is ``target`` precise, and stays so
    at every higher one (:data:`NEVER` when not even the highest is)."""
    gold = [d.gold for d in docs]
    rules = score_relations(gold, [d.rules for d in docs]).directed
    chosen = {}
    for kind in RELATION_TYPES:
        precise = []
        for t in GRID:
            thresholds = dict.fromkeys(RELATION_TYPES, 2.0) | {kind: t}
            preds = [union(d, b, thresholds) for d, b in zip(docs, best, strict=True)]
            cell = score_relations(gold, preds).directed[kind]
            tp, n = cell.tp - rules[kind].tp, cell.tp + cell.fp - rules[kind].tp - rules[kind].fp
            precise.append(tp >= target * n)
        k = len(GRID)
        while k > 0 and precise[k - 1]:
            k -= 1
        chosen[kind] = GRID[k] if k < len(GRID) else NEVER
    return chosen


def out_of_fold(
    docs: Sequence[PairDoc], others: Sequence[PairDoc], folds: int, C: float
) -> list[list[tuple[int, int, float]]]:
    """:func:`decided` of each of ``docs`` by a model trained without its fold (abstract
    ``i`` is in fold ``i % folds``), on ``docs`` and ``others`` (the same abstracts in the
    other setting) of the other folds."""
    out: list[list[tuple[int, int, float]]] = [[] for _ in docs]
    for f in range(folds):
        rest = [d for ds in (docs, others) for i, d in enumerate(ds) if i % folds != f]
        model = fit(rest, C)
        for i, d in enumerate(docs):
            if i % folds == f:
                out[i] = decided(model, d)
    return out


def train(
    data_dir: str | Path,
    output: str | Path | None = None,
    C: float = DEFAULT_C,
    target: float = TARGET_PRECISION,
    folds: int = FOLDS,
) -> tuple[Path, RelationModel, int]:
    """Train on SciERC train (both settings), choose the thresholds (:func:`choose_thresholds`)
    on dev and on train out of fold (``folds``; 0: dev alone), all with gold mentions, and
    save to ``output``. Returns the path, the model and the number of training pairs."""
    from kg.extract.relation_model import SHIPPED_MODEL

    require_train_extra("sklearn")
    train_docs = load_relation_split(data_dir, "train")
    gold, predicted = pair_docs(train_docs, "gold"), pair_docs(train_docs, "predicted", False)
    model = fit([*gold, *predicted], C)
    dev = pair_docs(load_relation_split(data_dir, "dev"), "gold")
    docs, best = list(dev), [decided(model, d) for d in dev]
    if folds > 1:
        docs += gold
        best += out_of_fold(gold, predicted, folds, C)
    thresholds = choose_thresholds(docs, best, target)
    model = RelationModel(model.buckets, model.weights, model.bias, thresholds)
    path = Path(output or SHIPPED_MODEL)
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    return path, model, sum(len(d.labels) for d in (*gold, *predicted))
