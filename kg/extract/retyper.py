"""A second stage for the trained SciERC recogniser: decide each span's type again, or drop it.

Why: the recogniser (``models/scierc_ner``) finds span boundaries reasonably well but mistypes
many of them. A classifier trained on SciERC *train* gold spans types them better. It never
sees the recogniser's labels, so it cannot just learn to copy them. Boundaries are never
changed: the re-typer keeps a span with a new type, or drops it.

How a span is decided:

* :func:`~kg.extract.features.span_features`: sparse indicator features of the span and its
  context (words, suffixes, shape, POS tags, neighbours, parentheses, "X ( ACR )"
  definitions, kg's lexicon).
* :class:`~kg.extract.features.StaticVectors`: the recogniser's own word vectors, as the mean
  over the span plus the last word. At load time they are projected through the classifier's
  weights, so at run time a span costs two table look-ups.
* A multinomial logistic regression over those features gives ``p_clf`` over the five scored
  types, ``Generic`` and ``NONE`` (not an entity). ``NONE`` examples are the recogniser's own
  train predictions that match no gold span.
* Product of experts with the recogniser: ``log p = log p_clf + alpha * log p_ner``, where
  ``p_ner`` is the recogniser's probability that an entity of each type, or none (O), starts at
  the span's first token (:class:`NerScorer`, computed exactly from the token vectors the
  recogniser leaves on each doc).
* Spans with the same lower-cased text in one abstract average their probabilities: one
  abstract rarely uses the same term for two types.
* A span is kept with its most probable class when that class is one of the five scored types
  and its probability is at least ``threshold``. Generic and NONE spans are dropped.

The **noun-phrase model** (:data:`RECOVERY_MODEL`) is the same classifier trained on every noun
phrase of SciERC train (:func:`~kg.extract.features.noun_phrases`); at run time it is asked
about the noun phrases outside the recogniser's spans, without the recogniser's term (the
recogniser said "no entity" there), and picks entities among them.

The settings were chosen on SciERC dev; the figures, the ablations and what did not help are in
``docs/extraction-quality.md``. A model is one ``.npz`` of plain arrays (feature names, float16
weights, bias, settings), loaded with ``allow_pickle=False``. Training: :mod:`kg.train.retyper`
(``kg train retyper``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kg.extract.features import StaticVectors, TokenSpan, span_features

#: The classifier's classes. The first five are SciERC's scored types and the first six line
#: up with the recogniser's labels, so the product of experts is one element-wise sum.
CLASSES: tuple[str, ...] = (
    "Method",
    "Task",
    "Material",
    "Metric",
    "OtherScientificTerm",
    "Generic",
    "NONE",
)
SCORED: tuple[str, ...] = CLASSES[:5]
#: ``doc.user_data`` key under which the recogniser leaves its token vectors for the re-typer.
TOKVEC_KEY = "kg_ner_tokvecs"
SHIPPED_MODEL = Path(__file__).parent / "models" / "scierc_retyper.npz"
#: The same classifier trained on noun phrases (:func:`~kg.extract.features.noun_phrases`), for
#: the phrases the recogniser left alone (``kg train retyper`` makes both).
RECOVERY_MODEL = Path(__file__).parent / "models" / "scierc_recovery.npz"


# --------------------------------------------------------------------------- the recogniser


class NerScorer:
    """Computes the recogniser's probability that an entity of each type starts at a token.

    spaCy's NER state features are three tokens: the next token, the first token of the open
    entity and the token before the next one. With no entity open, the last two are padding.
    So the scores of "an entity of type X starts at token s" depend only on token s's vector.
    Two small matrix products give them exactly, for any span (re-running the recogniser's
    greedy decoding from these matrices reproduces its predictions).
    """

    LABELS = CLASSES[:6]

    def __init__(
        self,
        W: np.ndarray,
        b: np.ndarray,
        pad: np.ndarray,
        Wu: np.ndarray,
        bu: np.ndarray,
        names: Sequence[str],
    ) -> None:
        W = np.asarray(W, dtype=np.float32)  # (features, hidden, pieces, width)
        b = np.asarray(b, dtype=np.float32)  # (hidden, pieces)
        pad = np.asarray(pad, dtype=np.float32).reshape(W.shape[:3])
        self.W0 = W[0].reshape(-1, W.shape[-1])  # the "next token" feature's weights
        self.const = b + pad[1] + pad[2]  # the other two features: no entity open
        self.Wu = np.asarray(Wu, dtype=np.float32)  # (actions, hidden)
        self.bu = np.asarray(bu, dtype=np.float32)
        idx = {name: i for i, name in enumerate(names)}
        # B-X opens a multi-token entity, U-X is a one-token entity; O is "no entity here".
        self.begin = np.array([idx[f"B-{x}"] for x in self.LABELS] + [idx["O"]])
        self.unit = np.array([idx[f"U-{x}"] for x in self.LABELS] + [idx["O"]])

    @classmethod
    def from_ner(cls, ner: Any) -> NerScorer:
        """From a loaded spaCy ``ner`` component (its hidden and output layers)."""
        lower, upper = ner.model.layers[1], ner.model.layers[2]
        names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
        return cls(
            lower.get_param("W"),
            lower.get_param("b"),
            lower.get_param("pad"),
            upper.get_param("W"),
            upper.get_param("b"),
            names,
        )

    def start_probs(self, tokvecs: np.ndarray, spans: Sequence[TokenSpan]) -> np.ndarray:
        """(n, 7) p(an entity of each of the six types, or none, starts at the span's first
        token), with B or U actions by the span's length. The order is CLASSES (O for NONE)."""
        starts = np.array([s for s, _ in spans])
        single = np.array([e - s == 1 for s, e in spans])
        h = (tokvecs[starts].astype(np.float32) @ self.W0.T).reshape(len(starts), *self.const.shape)
        scores = (h + self.const).max(-1) @ self.Wu.T + self.bu
        v = np.where(single[:, None], scores[:, self.unit], scores[:, self.begin])
        v = np.exp(v - v.max(1, keepdims=True))
        return np.asarray(v / v.sum(1, keepdims=True))


def words_and_tags(doc: Any) -> tuple[list[str], list[str]]:
    """A doc's token texts and POS tags as lists (from one array: making Token objects to read
    them costs several times as much)."""
    strings = doc.vocab.strings
    arr = doc.to_array(["ORTH", "TAG"])
    return [strings[int(o)] for o in arr[:, 0]], [strings[int(t)] for t in arr[:, 1]]


def pop_tokvecs(doc: Any) -> np.ndarray | None:
    """Take the recogniser's token vectors off ``doc``. They are big, and a doc that is kept,
    pickled or sent to another process must not carry them."""
    out: np.ndarray | None = doc.user_data.pop(TOKVEC_KEY, None)
    return out


# --------------------------------------------------------------------------- the model


class Retyper:
    """The trained classifier and its settings, as loaded from the ``.npz``."""

    def __init__(
        self,
        feats: Sequence[str],
        w_sparse: np.ndarray,
        w_dense: np.ndarray,
        bias: np.ndarray,
        threshold: float = 0.4,
        alpha: float = 0.5,
        consistency: bool = True,
        vectors: StaticVectors | None = None,
        scorer: NerScorer | None = None,
    ) -> None:
        self.feats = list(feats)
        self.index = {f: i for i, f in enumerate(self.feats)}
        self.w_sparse = np.asarray(w_sparse, dtype=np.float32)  # (features, classes)
        self.w_dense = np.asarray(w_dense, dtype=np.float32)  # (2 * vector width, classes)
        self.bias = np.asarray(bias, dtype=np.float32)
        self.threshold = threshold
        #: weight of the recogniser's own start probabilities (ignored without a scorer)
        self.alpha = alpha
        self.consistency = consistency
        self.scorer = scorer
        self.vectors: StaticVectors | None = None
        if vectors is not None:
            self.set_vectors(vectors)

    def set_vectors(self, vectors: StaticVectors) -> None:
        """Fold the dense weights into the vector table once. A span's dense score is then the
        mean of its known words' projected rows plus its last word's row. The last row of each
        table is zeros, for unknown words."""
        d = vectors.width
        zero = np.zeros((1, len(CLASSES)), np.float32)
        self._p_mean = np.vstack([vectors.data @ self.w_dense[:d], zero])
        self._p_last = np.vstack([vectors.data @ self.w_dense[d : 2 * d], zero])
        self.vectors = vectors

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            path,
            classes=np.array(CLASSES, dtype=str),
            feats=np.array(self.feats, dtype=str),
            w_sparse=self.w_sparse.astype(np.float16),
            w_dense=self.w_dense.astype(np.float32),
            bias=self.bias.astype(np.float32),
            threshold=np.float32(self.threshold),
            alpha=np.float32(self.alpha),
            consistency=np.array(self.consistency),
        )

    @classmethod
    def load(cls, path: str | Path, ner: Any = None) -> Retyper:
        """Load a model file (plain arrays, never pickle).

        ``ner`` is the recogniser component. It supplies the static vectors (through its
        vocab) and the start probabilities. Without it, neither term is used.
        """
        with np.load(path, allow_pickle=False) as z:
            if tuple(str(c) for c in z["classes"]) != CLASSES:
                raise ValueError(f"{path}: not a re-typer model for {CLASSES}")
            return cls(
                [str(f) for f in z["feats"]],
                z["w_sparse"],
                z["w_dense"],
                z["bias"],
                threshold=float(z["threshold"]),
                alpha=float(z["alpha"]),
                consistency=bool(z["consistency"]),
                vectors=StaticVectors(ner.vocab) if ner is not None else None,
                scorer=NerScorer.from_ner(ner) if ner is not None else None,
            )

    def proba(
        self,
        words: Sequence[str],
        tags: Sequence[str],
        spans: Sequence[TokenSpan],
        tokvecs: np.ndarray | None = None,
    ) -> np.ndarray:
        """(spans, classes) probabilities: classifier x recogniser, then same-text averaging."""
        n = len(spans)
        out = np.tile(self.bias, (n, 1))
        rows: list[int] = []
        cols: list[int] = []
        for i, (s, e) in enumerate(spans):
            for f in span_features(words, tags, s, e):
                j = self.index.get(f)
                if j is not None:
                    rows.append(i)
                    cols.append(j)
        if cols:
            np.add.at(out, rows, self.w_sparse[cols])
        if self.vectors is not None:
            unknown = len(self._p_mean) - 1
            row = self.vectors.row
            known_rows: list[int] = []
            known_span: list[int] = []
            count = np.ones(n, np.float32)
            last: list[int] = []
            for i, (s, e) in enumerate(spans):
                r = [row(w) for w in words[s:e]]
                known = [x for x in r if x >= 0]
                known_rows += known
                known_span += [i] * len(known)
                count[i] = max(len(known), 1)
                last.append(r[-1] if r[-1] >= 0 else unknown)
            mean = np.zeros_like(out)
            if known_rows:
                np.add.at(mean, known_span, self._p_mean[known_rows])
            out += mean / count[:, None] + self._p_last[last]
        if self.alpha and self.scorer is not None and tokvecs is not None:
            p_ner = self.scorer.start_probs(tokvecs, spans)
            out += self.alpha * np.log(np.clip(p_ner, 1e-6, 1.0))
        out -= out.max(1, keepdims=True)
        np.exp(out, out=out)
        out /= out.sum(1, keepdims=True)
        if self.consistency and n > 1:
            groups: dict[str, list[int]] = {}
            for i, (s, e) in enumerate(spans):
                groups.setdefault(" ".join(words[s:e]).lower(), []).append(i)
            for idx in groups.values():
                if len(idx) > 1:
                    out[idx] = out[idx].mean(0)
        return out

    def decide(
        self, spans: Sequence[TokenSpan], proba: np.ndarray
    ) -> list[tuple[int, int, str]]:
        """Each span with its most probable class if that is a scored type reaching the
        threshold. Other spans, including Generic and NONE, are dropped."""
        out = []
        for (s, e), p in zip(spans, proba, strict=True):
            k = int(np.argmax(p))
            if k < len(SCORED) and p[k] >= self.threshold:
                out.append((s, e, SCORED[k]))
        return out

    def retype_tokens(
        self,
        words: Sequence[str],
        tags: Sequence[str],
        spans: Sequence[TokenSpan],
        tokvecs: np.ndarray | None = None,
    ) -> list[tuple[int, int, str]]:
        """Token spans → the kept spans with their types (SciERC labels)."""
        if not spans:
            return []
        return self.decide(spans, self.proba(words, tags, spans, tokvecs))

    def retype(
        self, doc: Any, spans: Sequence[Any], words_tags: tuple[list[str], list[str]] | None = None
    ) -> list[Any]:
        """The recogniser's spans on ``doc`` (spaCy Spans) → re-typed spans, some dropped.
        ``words_tags``: :func:`words_and_tags` of the doc, when the caller has them.

        Consumes the token vectors the recogniser left on the doc (``doc.user_data[TOKVEC_KEY]``,
        :func:`kg.extract.recogniser.run_pipeline`), so call it once per doc, right after the
        recogniser ran.
        """
        from spacy.tokens import Span

        tokvecs = pop_tokvecs(doc)
        if not spans:
            return []
        words, tags = words_tags or words_and_tags(doc)
        kept = self.retype_tokens(words, tags, [(sp.start, sp.end) for sp in spans], tokvecs)
        return [Span(doc, s, e, label=label) for s, e, label in kept]
