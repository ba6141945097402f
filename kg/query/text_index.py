"""What ``kg related`` compares in the papers' words, made once per graph file.

Views of each paper's title and abstract, each scoring every paper against a query paper:

* ``words``: cosine of word TF-IDF vectors (kg's, :func:`kg.graph.similarity.tfidf_matrix`);
* ``chars``: cosine of character 3–5-gram TF-IDF vectors within words, which meets
  "bootstrapping" with "bootstrapped" and "Bi-LSTM" with "BiLSTM";
* ``dense``: cosine of SIF paper vectors (:mod:`kg.query.vectors`), which meets words that
  mean alike;
* ``titles``: cosine of the titles' SIF vectors;
* ``align``: each query sentence's best match among the paper's sentences (cosine of SIF
  sentence vectors), averaged: Aspire's max-sim sentence alignment. With a facet, only the
  query's sentences of that facet align; ``align_facet`` aligns them with the paper's sentences
  of that facet and its title only. Sentences about where the code is align with nothing.
* ``transport``: the optimal-transport alignment of the same sentences (otAspire's,
  :mod:`kg.query.transport`), where a paper's sentences must cover the query's together.

:func:`load_text_index` keeps the index beside the graph's :class:`~kg.query.index.PaperIndex`
in kg's cache folder, rebuilt whenever the graph file changes.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kg.query.facets import FACETS, OTHER, facets
from kg.query.index_arrays import Sentences, SparseRows, save_arrays, spans, write_char_rows
from kg.query.vectors import common_direction, sif_vectors, sif_weights, without

TEXT_INDEX_VERSION = 7
#: In a big corpus (:data:`kg.schema.BIG_CORPUS_PAPERS`) a query's candidates are chosen on
#: its CHAR_COLUMNS heaviest character n-grams (:meth:`TextIndex.paper_signals`), and then
#: compared on all of them (:meth:`TextIndex.candidate_signals`).
CHAR_COLUMNS = 100
#: The facet code of a title among the sentence facets: it aligns with every facet.
TITLE = len(FACETS)
#: The code of a sentence about no facet (:data:`kg.query.facets.OTHER`): it aligns with none.
NO_FACET = TITLE + 1


@dataclass
class TextIndex:
    ids: list[str]  # paper ids, in row order
    words: SparseRows  # word TF-IDF, rows L2-normalised
    chars: SparseRows  # character n-gram TF-IDF, rows L2-normalised
    dense: np.ndarray  # SIF paper vectors, unit rows
    sentences: Sequence[str]  # every paper's title, then its abstract's sentences
    sentence_vectors: np.ndarray  # unit rows, aligned with ``sentences``
    sentence_facets: np.ndarray  # FACETS index per sentence, TITLE for titles
    offsets: np.ndarray  # paper i's sentences are offsets[i]:offsets[i + 1]
    #: each paper's first sentence vector (its title's), kept apart: gathered from every
    #: paper's sentences, they cost a big corpus's query a read across the whole matrix
    title_vectors: np.ndarray

    @classmethod
    def from_papers(cls, papers: list[tuple[str, str, str]]) -> TextIndex:
        """The index of ``papers``: (id, title, abstract) triples."""
        from kg.query.bags import char_tfidf

        texts, views = _sentence_views(papers)
        return cls(
            **views, words=_word_rows(texts), chars=SparseRows.of(char_tfidf(texts))
        )

    @classmethod
    def write(cls, folder: Path, papers: list[tuple[str, str, str]], signature: Any) -> None:
        """What :meth:`from_papers` then :meth:`save` write, a view at a time, each freed once
        written: a big corpus's character n-grams (:func:`write_char_rows`) go to their files
        block by block, by row and by column, and never whole into memory."""
        folder.mkdir(parents=True, exist_ok=True)
        texts, views = _sentence_views(papers)
        save_arrays(folder, cls.plain_arrays(views))
        del views
        words = _word_rows(texts)
        save_arrays(folder, cls.sparse_arrays("words", words))
        meta = {"signature": signature, "words": words.columns}
        del words
        meta["chars"] = write_char_rows(folder, "chars", texts)
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")

    def _arrays(self) -> dict[str, np.ndarray]:
        """The arrays :meth:`save` writes, one ``.npy`` file each, by name."""
        return {
            **self.plain_arrays(vars(self)),
            **self.sparse_arrays("words", self.words),
            **self.sparse_arrays("chars", self.chars),
        }

    @staticmethod
    def plain_arrays(views: dict[str, Any]) -> dict[str, np.ndarray]:
        """The arrays of every view but the sparse ones (``views``: the fields by name)."""
        sentences = views["sentences"]
        if not isinstance(sentences, Sentences):
            sentences = Sentences.of(list(sentences))
        return {
            "ids": np.asarray(views["ids"], dtype=str),
            "dense": views["dense"],
            "sentence_text": sentences.buffer,
            "sentence_offsets": sentences.offsets,
            "sentence_vectors": views["sentence_vectors"],
            "sentence_facets": views["sentence_facets"],
            "offsets": views["offsets"],
            "title_vectors": views["title_vectors"],
        }

    @staticmethod
    def sparse_arrays(view: str, rows: SparseRows) -> dict[str, np.ndarray]:
        out = {f"{view}_{k}": getattr(rows, k) for k in ("data", "indices", "indptr")}
        if rows.by_column is not None:
            out.update(zip((f"{view}_colptr", f"{view}_colrows", f"{view}_coldata"),
                           rows.by_column, strict=True))  # fmt: skip
        return out

    def save(self, folder: Path, signature: Any) -> None:
        """Write the index as a folder of ``.npy`` files, and last ``meta.json`` with
        ``signature`` and the matrices' widths: a folder without it is incomplete."""
        folder.mkdir(parents=True, exist_ok=True)
        save_arrays(folder, self._arrays())
        meta = {"signature": signature, "words": self.words.columns, "chars": self.chars.columns}
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")

    @classmethod
    def open(cls, folder: Path) -> tuple[Any, TextIndex]:
        """The signature and the index :meth:`save` wrote in ``folder``, its arrays mapped
        from their files (read as a query touches them, shared between processes)."""
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        a = {p.stem: np.load(p, mmap_mode="r", allow_pickle=False) for p in folder.glob("*.npy")}

        def rows(view: str) -> SparseRows:
            data, indices, indptr = (a[f"{view}_{k}"] for k in ("data", "indices", "indptr"))
            by_column = None
            if f"{view}_colptr" in a:
                by_column = a[f"{view}_colptr"], a[f"{view}_colrows"], a[f"{view}_coldata"]
            return SparseRows(data, indices, indptr, int(meta[view]), by_column)

        index = cls(
            ids=a["ids"].tolist(),
            words=rows("words"),
            chars=rows("chars"),
            dense=a["dense"],
            sentences=Sentences(a["sentence_text"], a["sentence_offsets"]),
            sentence_vectors=a["sentence_vectors"],
            sentence_facets=a["sentence_facets"],
            offsets=a["offsets"],
            title_vectors=a["title_vectors"],
        )
        return tuple_of(meta["signature"]), index

    def row(self, paper: str) -> int:
        at = int(self.rows_of([paper])[0])
        if at < 0:
            raise KeyError(paper)
        return at

    def rows_of(self, papers: Sequence[str]) -> np.ndarray:
        """Each paper's row, -1 for a paper the index does not hold. A binary search of the
        ids, all papers at once: a map of a big corpus's ids took longer to make than the
        query it served.

        >>> index = TextIndex(["b", "c", "a"], *[None] * 8)  # type: ignore[arg-type]
        >>> index.rows_of(["a", "c", "x"]).tolist(), "b" in index, index.row("c")
        ([2, 1, -1], True, 1)
        """
        ids, order = self._sorted_ids()
        if not len(ids):
            return np.full(len(papers), -1, dtype=np.int64)
        wanted = np.asarray(papers, dtype=str)
        at = np.minimum(np.searchsorted(ids, wanted), len(ids) - 1)
        found = ids[at] == wanted
        rows = at if order is None else order[at]
        return np.where(found, rows, -1).astype(np.int64)

    def _sorted_ids(self) -> tuple[np.ndarray, np.ndarray | None]:
        """The ids sorted, and the row of each (None when the rows are in id order, as every
        index kg makes is)."""
        held = self.__dict__.get("_sorted")
        if held is None:
            ids = np.asarray(self.ids, dtype=str)
            if len(ids) > 1 and not bool(np.all(ids[1:] > ids[:-1])):
                order = np.argsort(ids, kind="stable")
                held = (ids[order], order)
            else:
                held = (ids, None)
            self.__dict__["_sorted"] = held
        return held

    def __contains__(self, paper: object) -> bool:
        return isinstance(paper, str) and bool(self.rows_of([paper])[0] >= 0)

    def signals(self, paper: str, facet: str | None = None) -> dict[str, np.ndarray]:
        """Each view's score of every paper (in row order) against ``paper``: the
        :meth:`paper_signals` and the :meth:`sentence_signals`."""
        return {**self.paper_signals(paper), **self.sentence_signals(paper, facet)}

    def paper_signals(self, paper: str, big: bool = False) -> dict[str, np.ndarray]:
        """``words``, ``chars``, ``dense`` and ``titles``: one vector per paper against the
        query's, for every paper (in row order). ``big`` compares only the query's
        :data:`CHAR_COLUMNS` heaviest character n-grams (:meth:`SparseRows.cosines`): the
        rarest, whose columns are the shortest."""
        i = self.row(paper)
        titles = self.title_vectors
        return {
            "words": self.words.cosines(i),
            "chars": self.chars.cosines(i, CHAR_COLUMNS if big else None),
            "dense": self.dense @ self.dense[i],
            "titles": titles @ titles[i],
        }

    def candidate_signals(
        self, paper: str, facet: str | None, rows: np.ndarray
    ) -> dict[str, np.ndarray]:
        """``chars`` on all of the query's n-grams, and the :meth:`sentence_signals`, for the
        papers at ``rows`` (in that order)."""
        chars = self.chars.row_cosines(self.row(paper), rows)
        return {"chars": chars, **self.sentence_signals(paper, facet, rows)}

    def sentence_signals(
        self, paper: str, facet: str | None = None, rows: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """``align``, ``align_facet`` and ``transport``: the query's sentences aligned with each
        paper's, for the papers at ``rows`` (in that order; all papers when None). With a
        facet, ``align`` and ``transport`` align the query's sentences of that facet with all
        of each paper's, and ``align_facet`` with the paper's sentences of that facet (and its
        title) only.

        Every sentence of the query meets every sentence of the chosen papers, which in a big
        corpus costs more than the rest of a query together: :mod:`kg.query.hybrid` then
        chooses ``rows``."""
        from kg.query.transport import transport_scores

        if rows is None:
            vectors, codes, offsets = self.sentence_vectors, self.sentence_facets, self.offsets
        else:
            starts = self.offsets[rows]
            columns = spans(starts, self.offsets[rows + 1] - starts)
            vectors, codes = self.sentence_vectors[columns], self.sentence_facets[columns]
            offsets = np.concatenate([[0], np.cumsum(self.offsets[rows + 1] - starts)])
        sims = self.sentence_vectors[self._query_sentences(self.row(paper), facet)] @ vectors.T
        align = alignment(sims, offsets, codes)
        return {
            "align": align,
            "align_facet": align if facet is None else alignment(sims, offsets, codes, facet),
            "transport": transport_scores(sims.astype(np.float64), offsets, codes != NO_FACET),
        }

    def _query_sentences(self, i: int, facet: str | None) -> np.ndarray:
        own = np.arange(self.offsets[i], self.offsets[i + 1])
        own = own[self.sentence_facets[own] != NO_FACET]  # the title is always left
        if facet is None:
            return own
        chosen = own[self.sentence_facets[own] == FACETS.index(facet)]
        return chosen if len(chosen) else own  # an abstract without such a sentence: all of it

    def best_pair(
        self,
        query: str,
        other: str,
        facet: str | None = None,
        words: Sequence[str] = (),
    ) -> tuple[str, str, float]:
        """The query sentence and ``other``'s sentence that align best, and their cosine. With
        ``words`` (the words the two papers share: a paper's ``similar_terms``), the
        best of the pairs where both sentences hold one of them, when there is such a pair:
        two sentences that only read alike ("experiments show our method outperforms ...")
        say less of what the papers share than two that name it."""
        i, j = self.row(query), self.row(other)
        q = self._query_sentences(i, facet)
        theirs = np.arange(self.offsets[j], self.offsets[j + 1])
        theirs = theirs[self.sentence_facets[theirs] != NO_FACET]  # the title is always left
        if facet is not None:
            fitting = theirs[fits(self.sentence_facets[theirs], facet)]
            theirs = fitting if len(fitting) else theirs
        sims = self.sentence_vectors[q] @ self.sentence_vectors[theirs].T
        if words:
            shared = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.I)
            mine = np.array([bool(shared.search(self.sentences[k])) for k in q])
            yours = np.array([bool(shared.search(self.sentences[k])) for k in theirs])
            both = np.outer(mine, yours)
            if both.any():
                sims = np.where(both, sims, -np.inf)
        a, b = np.unravel_index(int(sims.argmax()), sims.shape)
        return self.sentences[q[a]], self.sentences[theirs[b]], round(float(sims[a, b]), 4)


def fits(codes: np.ndarray, facet: str) -> np.ndarray:
    """Which sentences (by facet code) align with a query's sentences of ``facet``: the
    facet's own and titles."""
    return (codes == FACETS.index(facet)) | (codes == TITLE)


def alignment(
    sims: np.ndarray, offsets: np.ndarray, codes: np.ndarray, within: str | None = None
) -> np.ndarray:
    """Each paper's max-sim alignment with the query sentences whose cosines with the papers'
    sentences (facet ``codes``; paper ``j``'s are columns ``offsets[j]:offsets[j + 1]``) are
    ``sims``: the mean over the query's sentences of the best cosine among the paper's
    sentences (those of facet ``within`` and the title, when given).

    >>> sims = np.array([[0.9, 0.1, 0.3], [0.2, 0.4, 0.8]])
    >>> alignment(sims, np.array([0, 2, 3]), np.array([TITLE, 0, NO_FACET])).round(2).tolist()
    [0.65, -1.0]
    """
    sims = sims.copy()
    sims[:, ~fits(codes, within) if within else codes == NO_FACET] = -1.0
    return np.maximum.reduceat(sims, offsets[:-1], axis=1).mean(axis=0)


def _sentence_views(papers: list[tuple[str, str, str]]) -> tuple[list[str], dict[str, Any]]:
    """The papers' texts (title and abstract) and the :class:`TextIndex` fields that are no
    TF-IDF matrix, by name."""
    texts, sentences, codes, offsets, sentence_vectors, dense = _embedded(papers)
    return texts, {
        "ids": [pid for pid, _, _ in papers],
        "dense": dense,
        "sentences": Sentences.of(sentences),
        "sentence_vectors": sentence_vectors,
        "sentence_facets": np.asarray(codes, dtype=np.int8),
        "offsets": np.asarray(offsets, dtype=np.int64),
        "title_vectors": sentence_vectors[np.asarray(offsets[:-1], dtype=np.int64)],
    }


def _word_rows(texts: list[str]) -> SparseRows:
    """The word TF-IDF view of ``texts`` (kg's, :func:`kg.graph.similarity.tfidf_matrix`)."""
    from kg.graph.similarity import tfidf_matrix

    return SparseRows.of(tfidf_matrix(texts)[0].astype(np.float32))


def _sentences(papers: list[tuple[str, str, str]]) -> tuple[list[str], list[int], list[int]]:
    """Every paper's title and sentences, their facet codes, and where each paper's start."""
    sentences: list[str] = []
    codes: list[int] = []
    offsets = [0]
    for _, title, abstract in papers:
        labelled = facets(abstract)
        sentences += [title, *(s for s, _ in labelled)]
        codes += [TITLE, *(NO_FACET if f == OTHER else FACETS.index(f) for _, f in labelled)]
        offsets.append(len(sentences))
    return sentences, codes, offsets


def _embedded(
    papers: list[tuple[str, str, str]],
) -> tuple[list[str], list[str], list[int], list[int], np.ndarray, np.ndarray]:
    """The papers' texts (title and abstract), sentences with their facet codes and offsets
    (:func:`_sentences`), the sentences' SIF vectors and the papers': SIF weights from this
    corpus, its common direction removed, unit length."""
    sentences, codes, offsets = _sentences(papers)
    weights = sif_weights(sentences)
    raw = sif_vectors(sentences, weights)
    shared = common_direction(raw)
    texts = [f"{title} {abstract}".strip() for _, title, abstract in papers]
    dense = without(sif_vectors(texts, weights), shared)
    return texts, sentences, codes, offsets, without(raw, shared), dense


def paper_vectors(papers: list[tuple[str, str, str]]) -> dict[str, np.ndarray]:
    """What ``kg load`` gives Neo4j, by property (:data:`kg.schema.VECTOR_PROPERTIES`): each
    paper's :attr:`TextIndex.dense` row, and per facet the unit mean of its sentence vectors of
    that facet (zeros without one), without the rest of the index."""
    from kg.schema import FACET_VECTORS, TEXT_VECTOR

    _, _, codes, offsets, unit, dense = _embedded(papers)
    out = {TEXT_VECTOR: dense}
    code = np.asarray(codes)
    for facet, prop in FACET_VECTORS.items():
        mine = np.where(code == FACETS.index(facet), 1.0, 0.0).astype(np.float32)
        sums = np.add.reduceat(unit * mine[:, None], offsets[:-1], axis=0)
        out[prop] = without(sums, np.zeros(unit.shape[1], dtype=np.float32))
    return out


def text_index_path(graph_path: Path, cache_dir: Path) -> Path:
    """The folder that holds the text index of the graph at ``graph_path``."""
    from kg.query.index import index_path

    return index_path(graph_path, cache_dir).with_suffix(".text")


def tuple_of(value: Any) -> Any:
    """``value`` with its lists made tuples, at any depth (a signature read back from JSON)."""
    return tuple(map(tuple_of, value)) if isinstance(value, list) else value


def papers_of(G: Any) -> list[tuple[str, str, str]]:
    """Every paper of graph ``G`` as (id, title, abstract), by id."""
    from kg.schema import LABEL_ATTR, Label

    return sorted(
        (n, a.get("title") or "", a.get("abstract") or "")
        for n, a in G.nodes(data=True)
        if a.get(LABEL_ATTR) == Label.PAPER.value
    )


def _paper_texts(graph_path: Path) -> list[tuple[str, str, str]]:
    """:func:`papers_of` the graph at ``graph_path``; a store's are read alone (its whole
    graph, made into networkx objects, would take many times the memory of a big corpus)."""
    from kg.store.file import load_graph
    from kg.store.sqlite import Store, is_store

    if is_store(graph_path):
        with Store(graph_path) as store:
            return store.paper_texts()
    return papers_of(load_graph(graph_path))


def load_text_index(
    graph_path: str | Path,
    cache_dir: str | Path | None = None,
    on_build: Callable[[int], None] | None = None,
) -> TextIndex:
    """The text index of the graph file (or store) at ``graph_path``, from the cache when it
    is current; else made, after calling ``on_build(number of papers)`` (for a "please wait"
    line). The cached index is a folder of arrays mapped from their files, so opening it
    costs the same for any corpus."""
    from kg.cache import default_cache_dir
    from kg.query.index import _signature

    graph_path = Path(graph_path)
    cached = text_index_path(graph_path, Path(cache_dir) if cache_dir else default_cache_dir())
    signature: Any = (TEXT_INDEX_VERSION, _signature(graph_path))
    try:
        stored, index = TextIndex.open(cached)
        if stored == signature:
            return index
    except (OSError, ValueError, KeyError, TypeError):
        pass  # missing, incomplete or unreadable: made again below
    papers = _paper_texts(graph_path)
    if on_build is not None:
        on_build(len(papers))
    if _replace_folder(cached, lambda folder: TextIndex.write(folder, papers, signature)):
        return TextIndex.open(cached)[1]
    return TextIndex.from_papers(papers)  # (a cache folder that cannot be written)


def _replace_folder(target: Path, write: Callable[[Path], None]) -> bool:
    """Write a folder beside ``target`` and swap it in: a reader finds the old complete folder,
    the new one, or none (then it makes the index itself). Whether it is in place: a
    read-only cache folder only costs time."""
    import shutil

    from kg.atomic import temp_path

    temp = temp_path(target)
    try:
        write(temp)
        old = temp_path(target)
        with contextlib.suppress(FileNotFoundError):
            target.rename(old)
        temp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
        return True
    except OSError:
        return False
    finally:
        shutil.rmtree(temp, ignore_errors=True)
