"""Static word vectors and the sentence vectors made from them.

Two abstracts about the same thing often share few words ("bootstrapping" and "self-training",
"sarcasm" and "irony"); word vectors trained on scientific abstracts place such words close.
kg ships 128-dimensional skip-gram vectors (``kg/data/word_vectors.npz``, made by
:func:`kg.train.vectors.train_word_vectors` from public abstracts: docs/benchmarks.md) and turns
a sentence into the SIF average of its words' vectors (Arora et al., 2017: each word weighted
``a / (a + p(word))``, ``p`` its frequency in the corpus at hand, so words every abstract uses
weigh little), minus the corpus' common direction.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources

import numpy as np

#: Lower-cased words as the vectors were trained on them (hyphenated words stay whole).
WORD = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
#: SIF's ``a``: a word as frequent as one in a thousand tokens weighs half as much as a rare one.
SIF_A = 1e-3
#: Texts :func:`sif_vectors` splits into words at a time.
TEXT_BLOCK = 8192
#: Rows of vectors :func:`common_direction` and :func:`without` work on at a time.
ROW_BLOCK = 65536


def words(text: str) -> list[str]:
    """
    >>> words("Self-training of BERT's heads, in 2 steps.")
    ['self-training', 'of', "bert's", 'heads', 'in', '2', 'steps']
    """
    return WORD.findall(text.lower())


@lru_cache(maxsize=1)
def word_vectors() -> tuple[dict[str, int], np.ndarray]:
    """The shipped word vectors: word -> row, and the rows (float32, unit length)."""
    with resources.files("kg.data").joinpath("word_vectors.npz").open("rb") as fh:
        data = np.load(fh, allow_pickle=False)
        vocab = [str(w) for w in data["words"]]
        matrix = data["vectors"].astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return {w: i for i, w in enumerate(vocab)}, matrix / norms


def sif_weights(texts: Iterable[str]) -> dict[str, float]:
    """Each known word's SIF weight in the corpus ``texts``."""
    vocab, _ = word_vectors()
    counts = Counter(w for t in texts for w in words(t) if w in vocab)
    total = sum(counts.values()) or 1
    return {w: SIF_A / (SIF_A + c / total) for w, c in counts.items()}


def sif_vectors(texts: Sequence[str], weights: dict[str, float]) -> np.ndarray:
    """One row per text: the SIF-weighted mean of its words' vectors (zeros when none is known)."""
    from kg.query.bags import mean_rows

    vocab, matrix = word_vectors()
    def weight(word: str) -> float:
        return weights.get(word, 0.0)

    # A block of texts at a time: a corpus's sentences, all split into words at once, took
    # far more memory than their vectors (each row is the same either way).
    out = np.empty((len(texts), matrix.shape[1]), dtype=np.float32)
    for i in range(0, len(texts), TEXT_BLOCK):
        block = [words(t) for t in texts[i : i + TEXT_BLOCK]]
        out[i : i + len(block)] = mean_rows(block, vocab, matrix, weight)
    return out


def common_direction(rows: np.ndarray) -> np.ndarray:
    """The first singular vector of ``rows``: what every sentence of the corpus shares."""
    if not len(rows):
        return np.zeros(rows.shape[1], dtype=np.float32)
    # the top eigenvector of rows' Gram matrix (dimensions x dimensions): the same direction
    # as the first right singular vector, at a fraction of an SVD of all the rows; summed a
    # block of rows at a time (a corpus's sentence vectors in float64 took twice their memory)
    gram = np.zeros((rows.shape[1], rows.shape[1]))
    for i in range(0, len(rows), ROW_BLOCK):
        block = rows[i : i + ROW_BLOCK].astype(np.float64)
        gram += block.T @ block
    direction = np.linalg.eigh(gram)[1][:, -1]
    return direction.astype(np.float32)


def without(rows: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """``rows`` minus their component along ``direction``, scaled to unit length (zero rows stay
    zero); a block of rows at a time, each step of which made a copy of all of them."""
    out = np.empty(rows.shape, dtype=np.float32)
    for i in range(0, len(rows), ROW_BLOCK):
        block = rows[i : i + ROW_BLOCK]
        # a product row by row: its sums do not depend on how many rows the block has
        block = block - np.outer(np.einsum("ij,j->i", block, direction), direction)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        out[i : i + len(block)] = block / norms
    return out
