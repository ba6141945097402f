"""A second stage for the trained SciERC recogniser: decide each span's type again, or drop it.

Why: the recogniser (``models/scierc_ner``) finds span boundaries reasonably well but mistypes
many of them. A classifier trained on SciERC *train* gold spans types them better. It never
sees the recogniser's labels, so it cannot just learn to copy them. Measured with the shipped
file on SciERC dev (exact typed micro F1), the recogniser alone goes from 53.6 to 58.8 and
kg's full extractor from 51.5 to 56.2. On test (run once): 50.1 → 55.4 and 48.7 → 52.9.
Boundaries are never changed: the re-typer keeps a span with a new type, or drops it.

How a span is decided:

* :func:`span_features`: sparse indicator features of the span and its context (words,
  suffixes, shape, POS tags, neighbours, parentheses, "X ( ACR )" definitions, kg's lexicon).
* :class:`StaticVectors`: the recogniser's own 96-d word vectors, as the mean over the span plus
  the last word. At load time they are projected through the classifier's weights, so at run
  time a span costs two table look-ups.
* A multinomial logistic regression over those features gives ``p_clf`` over the five scored
  types, ``Generic`` and ``NONE`` (not an entity). ``NONE`` examples are the recogniser's own
  train predictions that match no gold span.
* Product of experts with the recogniser: ``log p = log p_clf + alpha * log p_ner``, where
  ``p_ner`` is the recogniser's probability that an entity of each type, or none (O), starts at
  the span's first token (:class:`NerScorer`, computed exactly from its token vectors, which
  :func:`install_hook` captures while it runs).
* Spans with the same lower-cased text in one abstract average their probabilities. One
  abstract rarely uses the same term for two types.
* A span is kept with its most probable class when that class is one of the five scored types
  and its probability is at least ``threshold``. Generic and NONE spans are dropped.

The shipped settings (alpha 0.5, threshold 0.4, C 1, consistency on) were chosen on dev.
In the experiment, the dev score stayed in 57.4-59.0 across alpha 0..1 and threshold 0..0.5.

Measured and not shipped (dev micro F1, recogniser alone; baseline 53.6). These were
measured in the experiment. Its feature set also had copies of some features crossed with a
constant placeholder label; it scored 59.0 on dev with the same settings:

* training on the recogniser's own predictions, with its label as a feature: 54.7. Honest
  4-fold predictions instead: 54.6 to 55.6. Adding the gold spans to those: 56.5. The
  re-typer mostly learns to copy the label;
* the recogniser's token vectors as features: 53.7 (they are overfit on train);
* boundary candidates: add left/right modifiers, or merge spans across "and", ",", "of", then
  pick the best non-overlapping set by weighted interval scheduling. Scored 58.2-58.4 against
  58.6 without them;
* extra context features (nearest verbs, third word left, previous word x last word):
  58.8-59.4, within noise;
* without static vectors (sparse features only): 57.8. Without the recogniser term
  (alpha 0): 58.6.

Cost: about 2 ms per abstract (~27 spans), mostly building feature strings.

**Recovery of missed phrases** (since 2026-11-29 night). The recogniser misses some mentions
outright (95 of 664 on dev; 68 of them are exactly a noun phrase). A second model with the same
features, trained on *every* noun phrase of SciERC train (:func:`noun_phrases`; 3,486 of 10,234
are gold entities), is asked about the noun phrases outside the recogniser's spans, without
the recogniser's term (alpha 0: it said "no entity" there); a phrase is kept when its most
probable class is a scored type with probability at least 0.5. Dev (exact micro F1): recogniser
+ re-typer 58.84 -> 59.49, full extractor 58.9 -> 59.6. Chosen on dev among alpha 0 / 0.5 / 1
and thresholds 0.3-0.7 (58.8-59.5), so the gain is small and partly selection. Trained on the
phrases outside the recogniser's train spans instead, it had 18 positives of 4,081 and kept
nothing. File: ``models/scierc_recovery.npz`` (:data:`RECOVERY_MODEL`).

The model is one ``.npz`` of plain arrays (feature names, float16 weights, bias, settings). It
is loaded with ``allow_pickle=False``. Training: :mod:`kg.train.retyper`
(``kg train retyper``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

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
#: The same classifier trained on noun phrases (:func:`noun_phrases`), for the phrases the
#: recogniser left alone (``kg train retyper`` makes both).
RECOVERY_MODEL = Path(__file__).parent / "models" / "scierc_recovery.npz"
#: Spans are a token range [start, end).
TokenSpan = tuple[int, int]


# --------------------------------------------------------------------------- features

_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_PHRASE_TAGS = _NOUN_TAGS | {"JJ", "JJR", "JJS", "VBG", "VBN", "HYPH", "CD"}


def noun_phrases(tags: Sequence[str], taken: Sequence[TokenSpan] = ()) -> list[TokenSpan]:
    """Maximal runs of adjective, noun, participle, number and hyphen tags, cut back to end at
    a noun, that overlap none of the token spans ``taken``.

    Why: the recogniser misses 95 of SciERC dev's 664 scored mentions outright (14%), and 68
    of them are exactly such a phrase. A classifier trained on every such phrase of
    SciERC train (entity or not) picks some of them back up.

    >>> noun_phrases(["DT", "JJ", "NN", "NN", "VBZ", "JJ", "NNS", "IN"])
    [(1, 4), (5, 7)]
    >>> noun_phrases(["DT", "JJ", "NN", "NN", "VBZ", "JJ", "NNS"], taken=[(3, 4)])
    [(5, 7)]
    """
    out: list[TokenSpan] = []
    i, n = 0, len(tags)
    while i < n:
        if tags[i] not in _PHRASE_TAGS:
            i += 1
            continue
        j = i
        while j < n and tags[j] in _PHRASE_TAGS:
            j += 1
        end = j
        while end > i and tags[end - 1] not in _NOUN_TAGS:
            end -= 1
        if end > i and not any(s < end and i < e for s, e in taken):
            out.append((i, end))
        i = j
    return out



@dataclass(frozen=True)
class _LexiconTables:
    gazetteer: dict[str, str]  # lower-cased name or alias -> kg type
    heads: dict[str, str]  # head word -> which of kg's head-word lists has it
    metrics: frozenset[str]  # kg's curated metric names, lower-cased


@lru_cache(maxsize=1)
def _lexicon_tables() -> _LexiconTables:
    """kg's lexicon as plain lookups. Read once per process and inherited by forked workers."""
    from kg.extract.lexicon import load_lexicon

    lex = load_lexicon()
    gazetteer: dict[str, str] = {}
    for label, rows in lex.gazetteers.items():
        for name, aliases in rows:
            for n in (name, *aliases):
                gazetteer.setdefault(n.lower(), str(label.value))
    heads: dict[str, str] = {}
    for kind, words in (
        ("task", lex.task_heads),
        ("data", lex.dataset_heads),
        ("meth", lex.method_heads),
        ("gen", lex.generic_nouns),
        ("common", lex.common_words),
    ):
        for w in words:
            heads.setdefault(w, kind)
    return _LexiconTables(gazetteer, heads, frozenset(m.lower() for m in lex.metric_terms))


_SHAPE_TABLE = str.maketrans(
    {
        **{c: "X" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
        **{c: "x" for c in "abcdefghijklmnopqrstuvwxyz"},
        **{c: "d" for c in "0123456789"},
    }
)


def word_shape(word: str) -> str:
    """Character classes, with runs cut to two, so that similar names share a shape.

    >>> word_shape("BERT-2"), word_shape("ImageNet")
    ('XX-d', 'XxxXxx')
    """
    out: list[str] = []
    for c in word.translate(_SHAPE_TABLE):
        if len(out) >= 2 and out[-1] == c and out[-2] == c:
            continue
        out.append(c)
    return "".join(out)


def span_features(words: Sequence[str], tags: Sequence[str], s: int, e: int) -> list[str]:
    """Indicator features of the span ``words[s:e]`` (no duplicates, in a fixed order).

    The order is fixed, not a set's, so the float sums of the weights do not depend on the
    process's string hash seed. The recogniser's label is deliberately not a feature: a
    classifier trained on it only learns to trust it.
    """
    lw = [w.lower() for w in words[s:e]]
    n = len(words)
    first, last = lw[0], lw[-1]
    f = [
        f"len={min(e - s, 6)}",
        f"first={first}",
        f"last={last}",
        f"suf3={last[-3:]}",
        f"suf4={last[-4:]}",
        f"ftag={tags[s]}",
        f"ltag={tags[e - 1]}",
        f"tagseq={'_'.join(tags[s:e][:4])}",
        f"lshape={word_shape(words[e - 1])}",
    ]
    f += [f"w={w}" for w in lw]
    if e - s >= 2:
        f.append(f"bigr_last={lw[-2]}_{last}")
    span_text = " ".join(lw)
    if any(w.isupper() and len(w) > 1 for w in words[s:e]):
        f.append("has_caps")
    if any(c.isdigit() for c in span_text):
        f.append("has_digit")
    if "CC" in tags[s:e]:
        f.append("has_cc")
    if "," in lw:
        f.append("has_comma")
    if "(" in lw or ")" in lw:
        f.append("has_paren")
    for k in (1, 2):
        f.append(f"p{k}={words[s - k].lower() if s - k >= 0 else '<s>'}")
        f.append(f"n{k}={words[e + k - 1].lower() if e + k - 1 < n else '</s>'}")
        f.append(f"pt{k}={tags[s - k] if s - k >= 0 else '<s>'}")
        f.append(f"nt{k}={tags[e + k - 1] if e + k - 1 < n else '</s>'}")
    if s > 0 and e < n and words[s - 1] == "(" and words[e] == ")":
        f.append("in_parens")
    if e + 2 < n and words[e] == "(" and words[e + 2] == ")":
        f.append("defines_acronym")
    if e - s >= 4 and words[e - 1] == ")" and words[e - 3] == "(":
        f.append("ends_with_acronym")
    lex = _lexicon_tables()
    gaz = lex.gazetteer.get(span_text)
    if gaz:
        f.append(f"gaz={gaz}")
    gaz_last = lex.gazetteer.get(last)
    if gaz_last and e - s > 1:
        f.append(f"gazlast={gaz_last}")
    head = lex.heads.get(last)
    if head:
        f.append(f"head={head}")
    if span_text in lex.metrics:
        f.append("metric_term")
    f.append(f"pos={min(s * 5 // max(n, 1), 4)}")  # where in the abstract, in fifths
    return list(dict.fromkeys(f))


class StaticVectors:
    """The recogniser's static word vectors (keyed by the lower-cased word), L2-normalised.

    A word's row is looked up once and cached. Unknown words get row -1.
    """

    def __init__(self, vocab: Any) -> None:
        vectors = vocab.vectors
        data = np.asarray(vectors.data, dtype=np.float32)
        self.data = data / np.maximum(np.linalg.norm(data, axis=1, keepdims=True), 1e-6)
        self.key2row: dict[int, int] = dict(vectors.key2row)
        self.strings = vocab.strings
        self._rows: dict[str, int] = {}

    @property
    def width(self) -> int:
        return int(self.data.shape[1])

    def row(self, word: str) -> int:
        w = word.lower()
        r = self._rows.get(w)
        if r is None:
            r = self.key2row.get(self.strings[w], -1) if w in self.strings else -1
            self._rows[w] = r
        return r

    def span(self, words: Sequence[str], s: int, e: int) -> np.ndarray:
        """The mean vector of the span's known words, then the last word's vector (zeros when
        unknown). These are the classifier's dense inputs. At run time :class:`Retyper` gets
        the same values from projected tables."""
        rows = [self.row(w) for w in words[s:e]]
        known = [r for r in rows if r >= 0]
        zero = np.zeros(self.width, np.float32)
        mean = self.data[known].mean(0) if known else zero
        last = self.data[rows[-1]] if rows[-1] >= 0 else zero
        return np.concatenate([mean, last])


# --------------------------------------------------------------------------- the recogniser


class NerScorer:
    """Computes the recogniser's probability that an entity of each type starts at a token.

    spaCy's NER state features are three tokens: the next token, the first token of the open
    entity and the token before the next one. With no entity open, the last two are padding.
    So the scores of "an entity of type X starts at token s" depend only on token s's vector.
    Two small matrix products give them exactly, for any span. Re-running the recogniser's
    greedy decoding from these matrices reproduced its predictions on all 50 dev abstracts.
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
    them costs four times as much)."""
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
