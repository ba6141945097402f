"""What the span re-typer and the noun-phrase model see of a span: indicator features, the
recogniser's static word vectors, and the noun phrases the noun-phrase model is asked about.

Training (:mod:`kg.train.retyper`) and inference (:mod:`kg.extract.retyper`) compute the same
features from these functions, so a model file always meets the features it was trained on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

#: Spans are a token range [start, end).
TokenSpan = tuple[int, int]

_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_PHRASE_TAGS = _NOUN_TAGS | {"JJ", "JJR", "JJS", "VBG", "VBN", "HYPH", "CD"}


def noun_phrases(tags: Sequence[str], taken: Sequence[TokenSpan] = ()) -> list[TokenSpan]:
    """Maximal runs of adjective, noun, participle, number and hyphen tags, cut back to end at
    a noun, that overlap none of the token spans ``taken``.

    Why: most of the mentions the recogniser misses outright are exactly such a phrase
    (docs/extraction-quality.md). A classifier trained on every such phrase of SciERC train
    (entity or not) picks some of them back up.

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
