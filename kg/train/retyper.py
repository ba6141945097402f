"""Reproduce the shipped span re-typer (``kg/extract/models/scierc_retyper.npz``).

See :mod:`kg.extract.retyper` for what the re-typer does and what was measured. Recipe
(``kg train retyper``, quick on one core):

1. Run the shipped recogniser (kg's small tagger, then the SciERC NER, exactly as
   :func:`kg.evaluate.scierc.load_model` builds it) over SciERC **train**.
2. The examples are train's gold spans, aligned to tokens, with their six SciERC types. The
   recogniser's own train spans that match no gold span are added as ``NONE``. They teach the
   classifier what a spurious span looks like. Dev and test are not used.
3. Fit a multinomial logistic regression (scikit-learn, lbfgs, C=1; deterministic). Its inputs
   are the sparse span features and the recogniser's static word vectors (span mean, last
   word). Save the weights as plain arrays.

The run-time settings (alpha 0.5, threshold 0.4, same-text consistency) are stored with the
weights. They were chosen on dev. Training is deterministic: ``kg train retyper`` rewrites the
shipped file with identical arrays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kg.evaluate.scierc import Span, load_model, load_split
from kg.extract.features import StaticVectors, TokenSpan, noun_phrases, span_features
from kg.extract.retyper import CLASSES, RECOVERY_MODEL, SHIPPED_MODEL, Retyper, words_and_tags
from kg.train import require_train_extra

#: One training abstract: its words, POS tags and the spans to classify.
Example = tuple[list[str], list[str], list[TokenSpan]]


def gold_token_spans(doc: Any, gold: Sequence[Span]) -> dict[TokenSpan, str]:
    """Gold character spans → token spans of ``doc``. A gold span that does not align to
    tokens is skipped. The recogniser could not predict it either."""
    out: dict[TokenSpan, str] = {}
    for start, end, label in gold:
        span = doc.char_span(start, end)
        if span is not None:
            out[(span.start, span.end)] = label
    return out


def training_examples(nlp: Any, data_dir: str | Path) -> tuple[list[Example], list[str]]:
    """SciERC train's gold spans plus the recogniser's spurious spans (``NONE``), with labels."""
    docs = load_split(data_dir, "train")
    examples: list[Example] = []
    labels: list[str] = []
    for d, doc in zip(docs, nlp.pipe([d.text for d in docs], batch_size=64), strict=True):
        gold = gold_token_spans(doc, d.gold)
        spans = list(gold)
        labels += gold.values()
        for ent in doc.ents:
            if (ent.start, ent.end) not in gold:
                spans.append((ent.start, ent.end))
                labels.append("NONE")
        words, tags = words_and_tags(doc)
        examples.append((words, tags, spans))
    return examples, labels


def design_matrix(examples: Sequence[Example], vocab: dict[str, int],
                  vectors: StaticVectors) -> Any:
    """Sparse features (0/1 columns in ``vocab``), then the static-vector block."""
    from scipy import sparse

    rows: list[int] = []
    cols: list[int] = []
    dense: list[np.ndarray] = []
    i = 0
    for words, tags, spans in examples:
        for s, e in spans:
            for f in span_features(words, tags, s, e):
                j = vocab.get(f)
                if j is not None:
                    rows.append(i)
                    cols.append(j)
            dense.append(vectors.span(words, s, e))
            i += 1
    x = sparse.csr_matrix(
        (np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(i, len(vocab))
    )
    return sparse.hstack([x, sparse.csr_matrix(np.stack(dense))]).tocsr()


def fit(examples: Sequence[Example], labels: Sequence[str], vectors: StaticVectors,
        C: float = 1.0, threshold: float = 0.4, alpha: float = 0.5,
        consistency: bool = True) -> Retyper:
    """Fit the classifier and wrap its weights (plain arrays) with the run-time settings."""
    from sklearn.linear_model import LogisticRegression

    counts = Counter(
        f for words, tags, spans in examples for s, e in spans
        for f in span_features(words, tags, s, e)
    )
    feats = sorted(counts)
    vocab = {f: i for i, f in enumerate(feats)}
    x = design_matrix(examples, vocab, vectors)
    y = np.array([CLASSES.index(label) for label in labels])
    clf = LogisticRegression(C=C, max_iter=3000)
    clf.fit(x, y)
    w = np.zeros((x.shape[1], len(CLASSES)), dtype=np.float32)
    bias = np.full(len(CLASSES), -30.0, dtype=np.float32)  # a class never seen: never chosen
    for k, c in enumerate(clf.classes_):
        w[:, c] = clf.coef_[k]
        bias[c] = clf.intercept_[k]
    n = len(feats)
    return Retyper(feats, w[:n], w[n:], bias, threshold=threshold, alpha=alpha,
                   consistency=consistency)


def train(data_dir: str | Path, output: str | Path = SHIPPED_MODEL, C: float = 1.0,
          threshold: float = 0.4, alpha: float = 0.5,
          consistency: bool = True) -> tuple[Path, int, int]:
    """Train on SciERC train and save to ``output``. Returns the path, the number of training
    spans and how many of them are ``NONE``."""
    require_train_extra("sklearn")
    nlp = load_model()
    examples, labels = training_examples(nlp, data_dir)
    model = fit(examples, labels, StaticVectors(nlp.vocab), C=C, threshold=threshold,
                alpha=alpha, consistency=consistency)
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    model.save(output)
    return output, len(labels), labels.count("NONE")


def recovery_examples(nlp: Any, data_dir: str | Path) -> tuple[list[Example], list[str]]:
    """Every noun phrase (:func:`~kg.extract.features.noun_phrases`) of SciERC train, labelled
    with the gold type of the same span or ``NONE``.

    All of them, not only those outside the recogniser's spans: on train, the recogniser (fit
    to it) leaves almost no entity outside its spans (docs/extraction-quality.md), so those
    would teach nothing. At run time the model sees the phrases outside the recogniser's spans."""
    docs = load_split(data_dir, "train")
    examples: list[Example] = []
    labels: list[str] = []
    for d, doc in zip(docs, nlp.pipe([d.text for d in docs], batch_size=64), strict=True):
        gold = gold_token_spans(doc, d.gold)
        words, tags = words_and_tags(doc)
        spans = noun_phrases(tags)
        labels += [gold.get(span, "NONE") for span in spans]
        examples.append((words, tags, spans))
    return examples, labels


def train_recovery(data_dir: str | Path, output: str | Path = RECOVERY_MODEL, C: float = 1.0,
                   threshold: float = 0.5) -> tuple[Path, int, int]:
    """Train the noun-phrase model on SciERC train and save it to ``output``. Its settings:
    the recogniser's own probabilities are not used (alpha 0: it said "no entity" at every
    phrase it is asked about), and a phrase is kept when its most probable class is a scored
    type (threshold 0.5, chosen on dev: ``docs/extraction-quality.md``). Returns the path, the
    number of phrases and how many are ``NONE``."""
    require_train_extra("sklearn")
    nlp = load_model()
    examples, labels = recovery_examples(nlp, data_dir)
    model = fit(examples, labels, StaticVectors(nlp.vocab), C=C, threshold=threshold, alpha=0.0)
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    model.save(output)
    return output, len(labels), labels.count("NONE")
