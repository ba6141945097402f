"""Text similarity between papers, computed once at build time.

kg's related-paper ranking is hybrid: what two papers share in the graph, plus how similar
their words are. Entity overlap alone leaves many pairs at zero (on CSFCube, much of each judged
pool shares no entity with the query: docs/benchmarks.md), while the words of two abstracts on the
same problem overlap even when their extracted entities do not. Each paper stores its
``TOP_N`` most similar papers (TF-IDF cosine over title and abstract, sublinear term
frequencies) with the terms that weigh most in the overlap, so the similarity is explained too.
Below ``INDEX_FROM`` papers they come from every pair's cosine; from there on, from the exact
cosines of candidates that a capped inverted index proposes, which grows with the corpus, not
with its square.
"""

from __future__ import annotations

import hashlib
import marshal
import re
import sqlite3
import sys
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, islice
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from kg.data import english_stop_words
from kg.models import Paper
from kg.schema import BIG_CORPUS_PAPERS

TOP_N = 30
TERMS_PER_PAIR = 5
#: Words of two or more word characters: what scikit-learn's default token pattern
#: ``(?u)\b\w\w+\b`` finds (a greedy run of word characters ends only where a boundary is),
#: without testing the boundaries, which only cost time.
TOKEN = re.compile(r"\w\w+")
BLOCK = 512  # rows of the similarity matrix held dense at a time
TERMS_CHUNK = 5000  # texts whose term counts are read from or written to the cache at a time
PAIR_CHUNK = 8192  # pairs whose shared terms are found at a time
#: Terms in at least this share of the papers are multiplied as dense columns (see
#: :func:`_split_frequent`), at most ``DENSE_TERMS`` of them.
DENSE_SHARE = 1 / 20
DENSE_TERMS = 512

#: From this many papers on, ``method="auto"`` takes the neighbours from a capped inverted
#: index (:func:`_index_top_k`) instead of all pairs (:func:`_all_pairs_top_k`). All pairs
#: cost the square of the corpus size and are exact; the index costs about the corpus size
#: and can miss a neighbour. Below this size all pairs are about as fast (the sizes where the
#: two cross: benchmarks/neighbours_recall.py), so small corpora keep exact lists and the
#: graphs they had; above it the square soon dominates a build.
INDEX_FROM = BIG_CORPUS_PAPERS
#: In the index each term lists the ``CAP`` papers that weigh it most (ties by paper), and a
#: term in at most ``RARE`` papers lists them all; a pair is a candidate when it shares a term
#: on which one of the two is listed. The words most papers use are what makes all pairs
#: cost the square: their weights are low, so they add little to a pair's cosine except in
#: the papers where they weigh most, the ones listed. Rare words, which say most about a
#: pair, are listed whole. With these values the index finds 99% or more of the exact lists'
#: neighbours on ICLR 2026 and on synthetic corpora of 43k and 100k papers
#: (benchmarks/neighbours_recall.py).
CAP = 100
RARE = 1000
#: Candidates per paper (those with the largest partial cosines) whose exact cosines are
#: computed: ``CANDIDATES``, or ``CANDIDATES_PER_NEIGHBOUR`` per neighbour asked for if more.
CANDIDATES = 300
CANDIDATES_PER_NEIGHBOUR = 10
INDEX_BLOCK = 256  # rows of candidates' partial cosines held at a time (sparse)


@dataclass(frozen=True)
class Neighbour:
    id: str
    score: float  # cosine, rounded to 6 decimals
    terms: tuple[str, ...]  # the words that weigh most in the overlap


#: A text's words (stop words removed) and how often each occurs, in first-seen order.
TermCounts = tuple[tuple[str, ...], tuple[int, ...]]
#: The files in a cache folder (``--cache-dir``) that keep each text's :data:`TermCounts`:
#: ``terms-{version}.sqlite``.
TERMS_KIND = "terms"


def _count_terms(text: str, stops: frozenset[str]) -> TermCounts:
    counts = Counter(w for w in TOKEN.findall(text.lower()) if w not in stops)
    return tuple(map(sys.intern, counts)), tuple(counts.values())


@lru_cache(maxsize=1)
def _terms_version() -> bytes:
    """What term counts depend on: the token pattern and the stop words."""
    parts = [TOKEN.pattern, *sorted(english_stop_words())]
    return hashlib.sha256("\0".join(parts).encode()).digest()


def term_counts(texts: list[str], cache_dir: str | Path | None = None) -> list[TermCounts]:
    """Each text's :data:`TermCounts`. With ``cache_dir``, they are kept there by text: a
    rebuild counts only the new texts (counting is the costly part of making the TF-IDF
    matrix: docs/benchmarks.md). The cache only saves time: when it cannot be read or written, the
    counts are made here."""
    stops = english_stop_words()
    if cache_dir is None:
        return [_count_terms(t, stops) for t in texts]
    from kg.cache import versioned_table

    version = _terms_version()
    try:
        table = versioned_table(cache_dir, TERMS_KIND, version.hex(), "terms")
        try:
            out: list[TermCounts] = []
            # A chunk at a time: a big corpus's cached or fresh values, all held at once, took
            # as much memory as the counts made of them.
            for start in range(0, len(texts), TERMS_CHUNK):
                chunk = texts[start : start + TERMS_CHUNK]
                keys = [hashlib.sha256(version + t.encode()).digest() for t in chunk]
                known = table.get_many(keys)
                fresh: list[tuple[bytes, bytes]] = []
                for key, text in zip(keys, chunk, strict=True):
                    counts = _loaded(known.get(key))
                    if counts is None:
                        counts = _count_terms(text, stops)
                        fresh.append((key, marshal.dumps(counts)))
                    out.append(counts)
                table.put_many(fresh)
            return out
        finally:
            table.close()
    except (sqlite3.Error, OSError):
        return [_count_terms(t, stops) for t in texts]


def _loaded(value: bytes | None) -> TermCounts | None:
    if value is None:
        return None
    try:
        words, counts = marshal.loads(value)
    except (ValueError, EOFError, TypeError):
        return None  # damaged: counted again
    # One string per word, not one per text that has it: a corpus's counts took most of the
    # memory of the similarity's process.
    return tuple(map(sys.intern, words)), counts


def tfidf_matrix(
    texts: list[str], cache_dir: str | Path | None = None
) -> tuple[sp.csr_matrix, list[str]]:
    """Rows of L2-normalised TF-IDF weights (sublinear tf, smoothed idf, English stop words
    removed) and the vocabulary in column order (sorted). ``cache_dir``: see
    :func:`term_counts`.

    The same numbers as scikit-learn's ``TfidfVectorizer(sublinear_tf=True,
    stop_words="english")`` (a unit test checks it), without importing scikit-learn.
    """
    counts = term_counts(texts, cache_dir)
    vocab = sorted(set().union(*(words for words, _ in counts)))
    column = {w: i for i, w in enumerate(vocab)}
    indptr = np.zeros(len(texts) + 1, dtype=np.int64)
    lengths = np.fromiter((len(n) for _, n in counts), dtype=np.int64, count=len(counts))
    np.cumsum(lengths, out=indptr[1:])
    # Straight into arrays: lists of a corpus's entries took more memory than the matrix.
    nnz = int(indptr[-1])
    every_word = chain.from_iterable(words for words, _ in counts)
    indices = np.fromiter(map(column.__getitem__, every_word), dtype=np.int64, count=nnz)
    tf = np.fromiter(chain.from_iterable(n for _, n in counts), dtype=np.float64, count=nnz)
    X = sp.csr_matrix((tf, indices, indptr), shape=(len(texts), len(vocab)))
    X.sort_indices()
    df = np.bincount(X.indices, minlength=len(vocab))
    idf = np.log((1 + len(texts)) / (1 + df)) + 1.0
    X.data = (np.log(X.data) + 1.0) * idf[X.indices]
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    X.data /= np.repeat(norms, np.diff(X.indptr))
    return X, vocab


#: Rows below this keep :func:`_row_major_order` exact (float64 resolves 5e-10 at 2**21).
_ONE_KEY_ROWS = 2**20


def _row_major_order(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The order "by row, then by value, largest first", equal values in their given order, for
    values in (0, 1] rounded to 9 decimals or fewer: ``np.lexsort((-values, rows))``. One stable
    argsort of ``2 * row + (1 - value)`` gives it many times faster (measured:
    docs/benchmarks.md), exactly while rows stay below :data:`_ONE_KEY_ROWS`."""
    if len(rows) and rows.max() >= _ONE_KEY_ROWS:
        return np.lexsort((-values, rows))
    return np.argsort(rows * 2.0 + (1.0 - values), kind="stable")


def _split_frequent(X: sp.csr_matrix) -> tuple[np.ndarray, sp.csr_matrix]:
    """X's columns of the most frequent terms as a dense array, and the other columns.

    Nearly every pair of abstracts shares a word, so ``X @ X.T`` is dense, and in the sparse
    product the words most papers use dominate: a term in ``df`` papers costs it ``df**2``
    steps. For those terms one dense product (BLAS) is cheaper; the sparse product
    keeps the rest. Together they are faster than the sparse product alone (measured:
    docs/benchmarks.md).
    Only the order of the additions changes: the cosines rounded to six decimals, and so the
    neighbour lists, came out identical on ICLR 2026, CSFCube and the seeds.
    """
    df = np.bincount(X.indices, minlength=X.shape[1])
    frequent = np.argsort(-df, kind="stable")[:DENSE_TERMS]
    frequent = np.sort(frequent[df[frequent] >= DENSE_SHARE * X.shape[0]])
    others = np.ones(X.shape[1], dtype=bool)
    others[frequent] = False
    return X[:, frequent].toarray(), X[:, others].tocsr()


def _top_k(block: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``block``, the columns of its ``k`` largest positive values, best first,
    ties by column: (row index, column) pairs in that order, for the whole block at once."""
    n = block.shape[1]
    if k < n:
        kth = np.partition(block, n - k, axis=1)[:, n - k]
        rows, cols = np.nonzero((block >= kth[:, None]) & (block > 0))
    else:
        rows, cols = np.nonzero(block > 0)
    # Best first within each row, ties by column: np.nonzero gives rows in order and columns
    # ascending within a row, so one stable sort of "row, then 1 - cosine" keeps that order.
    order = _row_major_order(rows, block[rows, cols])
    rows, cols = rows[order], cols[order]
    # Ties at the k-th value can leave more than k candidates: keep the first k of each row.
    starts = np.searchsorted(rows, rows, side="left")
    keep = np.arange(len(rows)) - starts < k
    return rows[keep], cols[keep]


def _shared_terms(
    X: sp.csr_matrix, rows: np.ndarray, cols: np.ndarray, vocab: list[str]
) -> list[tuple[str, ...]]:
    """For each pair (rows[p], cols[p]), the ``TERMS_PER_PAIR`` terms with the largest product
    of weights, ties by term. Vectorised: one sparse product for all pairs."""
    P = X[rows].multiply(X[cols]).tocsr()
    P.sort_indices()
    pair = np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
    # Rounded so that last-bit noise in the weights never decides an order; ties go by term
    # (a stable sort keeps the sorted term order within a pair).
    order = _row_major_order(pair, np.round(P.data, 9))
    pair, terms = pair[order], P.indices[order]
    starts = P.indptr[:-1]
    rank = np.arange(len(pair)) - starts[pair]
    keep = rank < TERMS_PER_PAIR
    names = iter(np.asarray(vocab, dtype=object)[terms[keep]].tolist())
    per_pair = np.bincount(pair[keep], minlength=P.shape[0]).tolist()
    return [tuple(islice(names, c)) for c in per_pair]


#: Rows, columns and cosines of the chosen (paper, neighbour) pairs, best first per paper.
TopPairs = tuple[np.ndarray, np.ndarray, np.ndarray]


def _all_pairs_top_k(X: sp.csr_matrix, k: int) -> TopPairs:
    """Each row's ``k`` best columns by cosine (rounded to 6 decimals; ties by column, zeros
    left out), from every pair's cosine, ``BLOCK`` rows at a time."""
    n = X.shape[0]
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    scores: list[np.ndarray] = []
    dense, rest = _split_frequent(X)
    rest_t = rest.T.tocsr()
    for start in range(0, n, BLOCK):
        block = dense[start : start + BLOCK] @ dense.T
        block += (rest[start : start + BLOCK] @ rest_t).toarray()
        block = np.round(block, 6)
        block[np.arange(len(block)), np.arange(start, start + len(block))] = -1.0  # not yourself
        r, c = _top_k(block, k)
        rows.append(r + start)
        cols.append(c)
        scores.append(block[r, c])
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(scores)


def _listed(X: sp.csr_matrix) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """X split in two: the entries the index lists (see :data:`CAP`) and the others.

    Each term's papers are ranked by weight (largest first; rounded to 9 decimals so that
    last-bit noise never decides, then by paper), and the first ``CAP`` of them kept, or all of
    them for a term in at most ``RARE`` papers."""
    by_term = X.tocsc()
    by_term.sort_indices()  # each term's papers in row order: a stable sort keeps ties by paper
    term = np.repeat(np.arange(by_term.shape[1]), np.diff(by_term.indptr))
    order = _row_major_order(term, np.round(by_term.data, 9))
    rank = np.empty(by_term.nnz, dtype=np.int64)
    rank[order] = np.arange(by_term.nnz) - by_term.indptr[term[order]]
    listed = (rank < CAP) | (np.diff(by_term.indptr)[term] <= RARE)

    def part(mask: np.ndarray) -> sp.csr_matrix:
        # Copies of the index arrays: eliminate_zeros rewrites them in place.
        m = sp.csc_matrix(
            (by_term.data * mask, by_term.indices.copy(), by_term.indptr.copy()), X.shape
        )
        m.eliminate_zeros()
        return m.tocsr()

    return part(listed), part(~listed)


def _index_top_k(X: sp.csr_matrix, k: int) -> TopPairs:
    """What :func:`_all_pairs_top_k` returns, from a capped inverted index: the work grows
    with the corpus size, not its square, and a paper can miss a neighbour (rarely: the
    recall is measured by benchmarks/neighbours_recall.py).

    With ``X = L + U`` (``L``: the entries the index lists, ``U`` the others: :func:`_listed`),
    the product ``X·Lᵀ + L·Uᵀ`` is each pair's cosine less ``U·Uᵀ``, the products of two
    unlisted weights (which are small), and it is nonzero only for pairs that share a listed
    entry: sparse, ``INDEX_BLOCK`` rows at a time. The pairs with the largest such partial
    cosine are the candidates (:func:`_candidates`); adding their ``U·Uᵀ`` gives their exact
    cosines, which choose the neighbours."""
    n = X.shape[0]
    listed, unlisted = _listed(X)
    left = sp.hstack([X, listed], format="csr")
    right_t = sp.hstack([listed, unlisted], format="csr").T.tocsr()
    per_row = max(CANDIDATES, CANDIDATES_PER_NEIGHBOUR * k)
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    scores: list[np.ndarray] = []
    for start in range(0, n, INDEX_BLOCK):
        partial = left[start : start + INDEX_BLOCK] @ right_t
        cands = [
            _candidates(
                partial.indices[partial.indptr[r] : partial.indptr[r + 1]],
                partial.data[partial.indptr[r] : partial.indptr[r + 1]],
                start + r,
                per_row,
            )
            for r in range(partial.shape[0])
        ]
        rest = _dot_products(unlisted, start, [c for c, _ in cands])
        for i, (cand, part), more in zip(
            range(start, start + len(cands)), cands, rest, strict=True
        ):
            best, cosine = _best(cand, np.round(part + more, 6), k)
            rows.append(np.full(len(best), i, dtype=np.int64))
            cols.append(best)
            scores.append(cosine)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(scores)


def _best(cols: np.ndarray, cosines: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` columns with the largest cosines, best first, ties by column, and their
    cosines; only positive ones, as in the all-pairs path."""
    best = np.lexsort((cols, -cosines))[:k]
    best = best[cosines[best] > 0]
    return cols[best].astype(np.int64), cosines[best]


def _candidates(
    cols: np.ndarray, partial: np.ndarray, row: int, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """A row's candidates, columns ascending, with their partial cosines: the ``count``
    largest and any tied with the smallest of them (so no order among equal values decides
    which stay), the row itself left out."""
    keep = cols != row
    others = int(keep.sum())
    if others > count:
        kth = np.partition(partial[keep], others - count)[others - count]
        keep &= partial >= kth
    cols, partial = cols[keep], partial[keep]
    order = np.argsort(cols)
    return cols[order], partial[order]


def _dot_products(M: sp.csr_matrix, start: int, cands: list[np.ndarray]) -> list[np.ndarray]:
    """For each row ``start + r`` of M, its dot products with the rows ``cands[r]``: the
    candidates' rows gathered at once, each row's products taken from its slice of them."""
    gathered = M[np.concatenate(cands)]
    query = np.zeros(M.shape[1])  # one row of M, dense
    out = []
    first = 0  # the row's first candidate in gathered
    for i, cand in enumerate(cands, start):
        terms = M.indices[M.indptr[i] : M.indptr[i + 1]]
        query[terms] = M.data[M.indptr[i] : M.indptr[i + 1]]
        bounds = gathered.indptr[first : first + len(cand) + 1]
        lo, hi = bounds[0], bounds[-1]
        products = gathered.data[lo:hi] * query[gathered.indices[lo:hi]]
        sums = np.zeros(len(cand))
        # reduceat sums from each start to the next: empty slices (no entry in M) left out.
        full = np.flatnonzero(bounds[1:] > bounds[:-1])
        if len(full):
            sums[full] = np.add.reduceat(products, bounds[full] - lo)
        out.append(sums)
        query[terms] = 0.0
        first += len(cand)
    return out


def _neighbour_pairs(
    papers: list[Paper],
    top_n: int,
    cache_dir: str | Path | None = None,
    method: str = "auto",
) -> tuple[list[str], list[int], list[int], list[float], list[str]]:
    """Paper ids (sorted) and, for every (paper, neighbour) pair, best first per paper: row,
    column, cosine and shared terms (joined by ", "). ``method``: see :func:`neighbour_lists`."""
    ordered = sorted(papers, key=lambda p: p.id)
    ids = [p.id for p in ordered]
    X, vocab = tfidf_matrix([f"{p.title}. {p.abstract}" for p in ordered], cache_dir)
    n = len(ids)
    k = min(top_n, n - 1)
    if _uses_index(n, method):
        all_rows, all_cols, all_scores = _index_top_k(X, k)
    else:
        all_rows, all_cols, all_scores = _all_pairs_top_k(X, k)
    # The shared terms of (i, j) and (j, i) are the same: compute each unordered pair once (many
    # pairs are mutual neighbours).
    pair_ids, where = np.unique(
        np.minimum(all_rows, all_cols) * n + np.maximum(all_rows, all_cols), return_inverse=True
    )
    # In chunks: all pairs at once made arrays so big that each came as fresh pages from the
    # kernel, much of the child's system time; chunks of 8k pairs reuse the same heap memory.
    first, second = pair_ids // n, pair_ids % n
    # Joined once per pair: (i, j) and (j, i) then share one string, here and in the graph.
    unique_terms = [
        ", ".join(terms)
        for start in range(0, len(pair_ids), PAIR_CHUNK)
        for terms in _shared_terms(
            X, first[start : start + PAIR_CHUNK], second[start : start + PAIR_CHUNK], vocab
        )
    ]
    terms = [unique_terms[w] for w in where.tolist()]
    return ids, all_rows.tolist(), all_cols.tolist(), all_scores.tolist(), terms


#: The ways to find the neighbours: ``"auto"`` (the index from ``INDEX_FROM`` papers on),
#: ``"exact"`` (all pairs) and ``"index"``.
METHODS = ("auto", "exact", "index")


def _uses_index(n: int, method: str) -> bool:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    return method == "index" or (method == "auto" and n >= INDEX_FROM)


def text_neighbours(
    papers: list[Paper], top_n: int = TOP_N, *, method: str = "auto"
) -> dict[str, list[Neighbour]]:
    """Each paper's ``top_n`` most similar papers, best first (ties by id). Deterministic.
    (:func:`neighbour_lists` as objects; terms are words, so ", " splits them back.)"""
    return {
        pid: [
            Neighbour(j, score, tuple(terms.split(", ")) if terms else ())
            for j, score, terms in zip(near, cosines, words, strict=True)
        ]
        for pid, (near, cosines, words) in neighbour_lists(papers, top_n, method=method).items()
    }


#: A paper's nearest papers as the graph stores them: their ids, the cosines and the shared
#: terms joined by ", " (parallel lists).
NeighbourLists = tuple[list[str], list[float], list[str]]


def neighbour_lists(
    papers: list[Paper],
    top_n: int = TOP_N,
    cache_dir: str | Path | None = None,
    *,
    method: str = "auto",
) -> dict[str, NeighbourLists]:
    """:func:`text_neighbours` as plain lists per paper. A build computes them in a child
    process: sending back ``Neighbour`` objects cost the parent far more unpickling at the end
    of an incremental build than plain lists do (measured: docs/benchmarks.md). ``cache_dir``
    keeps the texts' term counts (:func:`term_counts`).

    ``method`` (one of :data:`METHODS`): ``"exact"`` compares all pairs; ``"index"`` takes
    candidates from a capped inverted index and their exact cosines (:func:`_index_top_k`);
    ``"auto"``, the default, the index from ``INDEX_FROM`` papers on, all pairs below."""
    if len(papers) < 2:
        _uses_index(len(papers), method)  # an unknown method is an error whatever the size
        return {p.id: ([], [], []) for p in papers}
    ids, rows, cols, scores, terms = _neighbour_pairs(papers, top_n, cache_dir, method)
    out: dict[str, NeighbourLists] = {i: ([], [], []) for i in ids}
    for i, j, s, t in zip(rows, cols, scores, terms, strict=True):
        near, cosines, words = out[ids[i]]
        near.append(ids[j])
        cosines.append(s)
        words.append(t)
    return out
