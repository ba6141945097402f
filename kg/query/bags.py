"""Texts as sparse bags of tokens, and what :mod:`kg.query.text_index` makes of them.

Both the character n-gram TF-IDF and the SIF vectors are sums over a text's words, so each is
one sparse product: (texts × words counts) @ (words × features). A word's n-grams or vector is
then worked out once per distinct word, not once per occurrence, which keeps indexing a
conference to seconds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp


def bag_matrix(
    docs: Sequence[Sequence[str]], vocab: dict[str, int] | None = None
) -> tuple[sp.csr_matrix, dict[str, int]]:
    """Counts of each token per doc (rows) and the token -> column map. With ``vocab``, only its
    tokens are counted; else every token gets a column, in first-seen order.

    >>> X, vocab = bag_matrix([["a", "b", "a"], ["c"]])
    >>> X.toarray().tolist(), vocab
    ([[2, 1, 0], [0, 0, 1]], {'a': 0, 'b': 1, 'c': 2})
    """
    if vocab is None:  # every token, numbered in first-seen order (dict building runs in C)
        columns = {t: i for i, t in enumerate(dict.fromkeys(t for doc in docs for t in doc))}
        kept: Sequence[Sequence[str]] = docs
    else:
        columns = vocab
        kept = [[t for t in doc if t in columns] for doc in docs]
    lengths = np.fromiter((len(doc) for doc in kept), dtype=np.int64, count=len(kept))
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = np.fromiter(
        (columns[t] for doc in kept for t in doc), dtype=np.int64, count=int(indptr[-1])
    )
    X = sp.csr_matrix(
        (np.ones(len(indices), dtype=np.int64), indices, indptr),
        shape=(len(docs), len(columns)),
    )
    X.sum_duplicates()
    return X, columns


def char_wb_ngrams(word: str, low: int = 3, high: int = 5) -> list[str]:
    """The n-grams of ``word`` padded with a space on each side, as scikit-learn's ``char_wb``
    analyzer makes them (a word shorter than n gives itself, once).

    >>> char_wb_ngrams("ab")
    [' ab', 'ab ', ' ab ']
    """
    padded = f" {word} "
    out: list[str] = []
    for n in range(low, high + 1):
        if len(padded) <= n:
            out.append(padded)
            break
        out.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    return out


def char_tfidf(texts: Sequence[str], low: int = 3, high: int = 5) -> sp.csr_matrix:
    """Character ``low``–``high``-gram TF-IDF within words (lower-cased, split at white space),
    the numbers of ``TfidfVectorizer(analyzer="char_wb", ngram_range=(low, high),
    sublinear_tf=True)`` (a unit test checks it)."""
    return tfidf_of_product(*char_bags(texts, low, high))


def char_bags(
    texts: Sequence[str], low: int = 3, high: int = 5
) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """The texts × words counts and the words × character n-grams counts whose product
    :func:`char_tfidf` weighs."""
    words, vocab = word_bags(texts)
    grams, _ = bag_matrix([char_wb_ngrams(w, low, high) for w in vocab])
    return words, grams


#: Texts :func:`word_bags` splits into words at a time.
WORD_BLOCK = 8192


def word_bags(texts: Sequence[str]) -> tuple[sp.csr_matrix, dict[str, int]]:
    """:func:`bag_matrix` of the texts' lower-cased words (split at white space), a block of
    texts split at a time: a corpus's words, all split at once, took twice the memory of the
    whole index's character n-grams.

    >>> X, vocab = word_bags(["A b a", "c"])
    >>> X.toarray().tolist(), vocab
    ([[2, 1, 0], [0, 0, 1]], {'a': 0, 'b': 1, 'c': 2})
    """
    columns: dict[str, int] = {}
    lengths, indices = [], []
    for lo in range(0, len(texts), WORD_BLOCK):
        docs = [t.lower().split() for t in texts[lo : lo + WORD_BLOCK]]
        for word in dict.fromkeys(t for doc in docs for t in doc):  # first seen, first numbered
            if word not in columns:
                columns[word] = len(columns)
        sizes = np.fromiter((len(doc) for doc in docs), dtype=np.int64, count=len(docs))
        lengths.append(sizes)
        indices.append(np.fromiter(
            (columns[t] for doc in docs for t in doc), dtype=np.int64, count=int(sizes.sum())
        ))  # fmt: skip
    indptr = np.zeros(len(texts) + 1, dtype=np.int64)
    if lengths:
        np.cumsum(np.concatenate(lengths), out=indptr[1:])
    every = np.concatenate(indices) if indices else np.zeros(0, dtype=np.int64)
    X = sp.csr_matrix(
        (np.ones(len(every), dtype=np.int64), every, indptr), shape=(len(texts), len(columns))
    )
    X.sum_duplicates()
    return X, columns


#: Rows of a product :func:`tfidf_of_product` makes at a time.
PRODUCT_BLOCK = 4096


@dataclass
class WeightedRows:
    """The rows :func:`tfidf_blocks` weighs: where each row starts (``indptr``), each column's
    number of rows (``df``), the width, and the rows' (data, indices) a block at a time, in
    row order (an iterator: each block is made when asked for)."""

    indptr: np.ndarray
    df: np.ndarray
    columns: int
    blocks: Iterator[tuple[np.ndarray, np.ndarray]]


def tfidf_of_product(
    left: sp.csr_matrix, right: sp.csr_matrix, block: int = PRODUCT_BLOCK
) -> sp.csr_matrix:
    """The counts ``left @ right`` as L2-normalised TF-IDF rows (sublinear tf, smoothed idf:
    scikit-learn's ``TfidfVectorizer(sublinear_tf=True)`` weighting), made ``block`` rows at a
    time (:func:`tfidf_blocks`) into one matrix.

    >>> import numpy as np, scipy.sparse as sp
    >>> a = sp.random(9, 5, density=0.5, format="csr", random_state=1)
    >>> a.data[:] = 1
    >>> b = sp.random(5, 7, density=0.5, format="csr", random_state=2)
    >>> b.data[:] = 2
    >>> whole, blocks = tfidf_of_product(a, b, block=9), tfidf_of_product(a, b, block=2)
    >>> all(np.array_equal(getattr(whole, k), getattr(blocks, k))
    ...     for k in ("data", "indices", "indptr"))
    True
    """
    rows = tfidf_blocks(left, right, block)
    data = np.empty(int(rows.indptr[-1]), dtype=np.float32)
    indices = np.empty(int(rows.indptr[-1]), dtype=np.int32)
    at = 0
    for values, columns in rows.blocks:
        data[at : at + len(values)] = values
        indices[at : at + len(values)] = columns
        at += len(values)
    return sp.csr_matrix((data, indices, rows.indptr), shape=(left.shape[0], rows.columns))


def tfidf_blocks(
    left: sp.csr_matrix, right: sp.csr_matrix, block: int = PRODUCT_BLOCK,
    spill: Path | None = None,
) -> WeightedRows:  # fmt: skip
    """The weighted rows of :func:`tfidf_of_product`, a block at a time.

    The product of a corpus's texts × words and words × character n-grams has thousands of
    cells per text; made whole, in int64 and then float64 with a squared copy for the norms,
    it took about five times the memory of the float32 result. Block by block, the counts wait
    as int32 until the idf (which needs every row) is known, and each block is weighted when
    asked for: each row gets the same operations whatever the block. With ``spill`` (a folder),
    the counts wait in files there instead of in memory.
    """
    n, width = left.shape[0], right.shape[1]
    counts: list[sp.csr_matrix | Path] = []
    df = np.zeros(width, dtype=np.int64)
    sizes = []
    for lo in range(0, n, block):
        part = (left[lo : lo + block] @ right).tocsr()
        part.sort_indices()
        df += np.bincount(part.indices, minlength=width)
        sizes.append(np.diff(part.indptr))
        kept = sp.csr_matrix((part.data.astype(np.int32), part.indices.astype(np.int32),
                              part.indptr), shape=part.shape)  # fmt: skip
        if spill is None:
            counts.append(kept)
        else:
            path = spill / f"counts-{lo}.npz"
            sp.save_npz(path, kept, compressed=False)
            counts.append(path)
    idf = np.log((1 + n) / (1 + df)) + 1.0
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.concatenate(sizes) if sizes else np.zeros(0, dtype=np.int64), out=indptr[1:])

    def weighted() -> Iterator[tuple[np.ndarray, np.ndarray]]:
        waiting = deque(counts)  # each block's counts are freed as its rows are weighted
        counts.clear()
        while waiting:
            kept = waiting.popleft()
            if isinstance(kept, Path):
                path, kept = kept, sp.load_npz(kept)
                path.unlink()
            X = kept.astype(np.float64)
            X.data = (np.log(X.data) + 1.0) * idf[X.indices]
            norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
            norms[norms == 0] = 1.0
            X.data /= np.repeat(norms, np.diff(X.indptr))
            yield X.data.astype(np.float32), X.indices.astype(np.int32)

    return WeightedRows(indptr, df, width, weighted())


def mean_rows(
    docs: Sequence[Sequence[str]], vocab: dict[str, int], matrix: np.ndarray,
    weight: Callable[[str], float],
) -> np.ndarray:  # fmt: skip
    """Per doc, the ``weight``-weighted mean of its known tokens' rows of ``matrix`` (a token
    counted as often as it occurs; zeros for a doc without a known token)."""
    counts, _ = bag_matrix(docs, vocab)
    words = sorted(vocab, key=vocab.__getitem__)
    weights = np.fromiter((weight(w) for w in words), dtype=np.float64, count=len(words))
    n_known = np.asarray(counts.sum(axis=1)).ravel()
    n_known[n_known == 0] = 1
    scaled = sp.diags(1.0 / n_known) @ counts @ sp.diags(weights)
    return np.asarray(scaled @ matrix, dtype=np.float32)
