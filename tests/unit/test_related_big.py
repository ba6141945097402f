"""``kg related`` in a big corpus: the costly signals worked out for candidates and a sample
(kg.query.hybrid.candidate_rows), measured against every paper's in docs/benchmarks.md."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from kg.query import hybrid, text_index
from kg.query.index import PaperIndex
from kg.query.text_index import TextIndex, papers_of
from tests.unit.test_related_hybrid import PAPERS


def corpus() -> nx.MultiDiGraph:
    """Papers made of the sentences of the hybrid tests' four papers, three at a time."""
    sentences = [s.strip() + "." for _, a in PAPERS.values() for s in a.split(". ") if s]
    titles = [t for t, _ in PAPERS.values()]
    G = nx.MultiDiGraph()
    combos = itertools.islice(itertools.combinations(range(len(sentences)), 3), 0, None, 7)
    for n, picked in enumerate(combos):
        abstract = " ".join(sentences[i] for i in picked)
        G.add_node(f"p{n:03d}", label="Paper", title=titles[n % 4], abstract=abstract)
    papers = list(G)
    G.add_node("dataset:ptb", label="Dataset", name="Penn Treebank", paper_count=10)
    for p in papers[::3]:
        G.add_edge(p, "dataset:ptb", key="USES", type="USES")
    return G


@pytest.fixture(scope="module")
def indexes() -> tuple[PaperIndex, TextIndex]:
    G = corpus()
    return PaperIndex.from_graph(G), TextIndex.from_papers(papers_of(G))


def test_candidate_signals_are_every_papers_at_those_rows(indexes) -> None:  # type: ignore[no-untyped-def]
    _, text = indexes
    rows = np.array([0, 3, 4, 17, len(text.ids) - 1])
    for paper in text.ids[:5]:
        for facet in (None, "method"):
            whole, some = text.signals(paper, facet), text.candidate_signals(paper, facet, rows)
            assert set(some) == {"chars", "align", "align_facet", "transport"}
            for name, values in some.items():
                assert np.allclose(values, whole[name][rows], atol=1e-5), name


def test_with_every_paper_a_candidate_the_big_path_scores_as_the_exact_one(
    indexes, monkeypatch  # type: ignore[no-untyped-def]
) -> None:
    idx, text = indexes
    n = len(text.ids)
    exact = {p: hybrid.hybrid_scores(idx, text, p) for p in text.ids[:6]}
    monkeypatch.setattr(hybrid, "BIG_CORPUS_PAPERS", 2)
    monkeypatch.setattr(hybrid, "CANDIDATES", n)
    monkeypatch.setattr(hybrid, "SAMPLE", n)
    monkeypatch.setattr(text_index, "CHAR_COLUMNS", 10**6)  # (the n-gram cut apart)
    for paper, scores in exact.items():
        assert np.array_equal(hybrid.hybrid_scores(idx, text, paper), scores)
        # (the reference stays the exact path whatever the corpus' size)
        assert np.array_equal(hybrid.hybrid_scores(idx, text, paper, every_paper=True), scores)


def test_the_rest_get_the_samples_lowest_and_the_sample_sets_the_spread(
    indexes, monkeypatch  # type: ignore[no-untyped-def]
) -> None:
    idx, text = indexes
    monkeypatch.setattr(hybrid, "BIG_CORPUS_PAPERS", 2)
    monkeypatch.setattr(hybrid, "CANDIDATES", 4)
    monkeypatch.setattr(hybrid, "SAMPLE", 5)
    paper = text.ids[1]
    parts = hybrid.signals(idx, text, paper)
    cheap = hybrid.signals(idx, text, paper)  # the same twice: nothing random
    assert all(np.array_equal(parts[k], cheap[k]) for k in parts)
    z = {k: hybrid.standardised(v, 1) for k, v in text.paper_signals(paper, big=True).items()}
    z.update((k, parts[k]) for k in ("entities", "facet_entities"))
    rows, basis = hybrid.candidate_rows(z, 1, hybrid.default_weights(), 4, 5)
    assert len(rows) <= 4 + 5 + 1 and 1 in rows
    raw = text.candidate_signals(paper, None, rows)
    sample = rows[basis[rows[basis] != 1]]
    for name in ("align", "transport", "chars"):
        got = parts[name]
        values = raw[name][np.searchsorted(rows, sample)].astype(np.float64)
        expected = (raw[name] - values.mean()) / values.std()
        assert np.allclose(got[rows], expected, atol=1e-6), name
        rest = np.setdiff1d(np.arange(len(text.ids)), rows)
        assert np.all(got[rest] == got[rows[basis]].min()), name


def test_top_rows_keeps_ties_by_id_and_leaves_the_query_out() -> None:
    ids = [f"p{i}" for i in range(6)]
    scores = np.array([9.0, 1.0, 5.0, 5.0, 5.0, 0.0])
    assert hybrid.top_rows(scores, 2, skip=0, ids=ids) == [2, 3]
    assert hybrid.top_rows(scores, 10, skip=4, ids=ids) == [0, 2, 3, 1, 5]
    assert hybrid.top_rows(scores, 0, skip=0, ids=ids) == []
