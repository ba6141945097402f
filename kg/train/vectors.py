"""Reproduce kg's shipped word vectors (``kg/data/word_vectors.npz``, :mod:`kg.query.vectors`).

Skip-gram word2vec (gensim) over the sentences of public abstracts, lower-cased and split as
:func:`kg.query.vectors.words` splits them, words seen at least three times. No label of any
kind is used. Which abstracts went in, and why, is in docs/benchmarks.md. One worker thread,
so that a retrained file is the shipped one (more threads make word2vec order-dependent).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from kg.train import require_train_extra

DIMENSIONS = 128


def train_word_vectors(texts: Iterable[str], output: str | Path, workers: int = 1) -> int:
    """Train the vectors on ``texts`` and write them to ``output`` (.npz: ``words`` and float16
    ``vectors``); returns the number of words."""
    require_train_extra("gensim")
    from gensim.models import Word2Vec

    from kg.query.facets import sentences
    from kg.query.vectors import words

    corpus = [words(s) for text in texts for s in sentences(text)]
    model = Word2Vec(
        corpus, vector_size=DIMENSIONS, window=8, min_count=3, workers=workers, epochs=10,
        sg=1, negative=5, sample=1e-4, seed=0,
    )  # fmt: skip
    vocab = list(model.wv.index_to_key)
    np.savez_compressed(
        output, words=np.asarray(vocab, dtype=str), vectors=model.wv.vectors.astype(np.float16)
    )
    return len(vocab)
