"""kg related's default (hybrid) ranking: sentence facets, the text index and the mixing."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from kg.query.facets import FACET_LABELS, FACETS, OTHER, facet_of, facets, sentences
from kg.query.hybrid import SIGNALS, default_weights, rank_related, signals, standardised
from kg.query.index import PaperIndex
from kg.query.text_index import TextIndex, load_text_index, papers_of
from kg.query.vectors import sif_vectors, sif_weights, word_vectors
from kg.schema import Label
from kg.store.file import save_graph

PAPERS = {
    "parse": (
        "Fast dependency parsing with transition systems",
        "Dependency parsing remains slow for long sentences. We propose a transition-based "
        "parser trained with a dynamic oracle. Experiments show it outperforms graph-based "
        "parsers on the Penn Treebank. Code is available at https://github.com/x/parse.",
    ),
    "parse2": (
        "Transition-based dependency parsers with dynamic oracles",
        "Greedy dependency parsers make errors that compound. We introduce a dynamic oracle "
        "for transition-based parsing. Results on the Penn Treebank improve accuracy. Our code "
        "is available at https://github.com/y/oracle.",
    ),
    "vision": (
        "Contrastive pretraining for image classification",
        "Labelled images are scarce. We pretrain a convolutional network with a contrastive "
        "loss on unlabelled photos. It achieves higher accuracy on ImageNet.",
    ),
    "speech": (
        "Streaming speech recognition with transducers",
        "Speech recognition on devices needs low latency. We train a recurrent transducer "
        "with a streaming encoder. Word error rates fall on LibriSpeech.",
    ),
}


def graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    for pid, (title, abstract) in PAPERS.items():
        G.add_node(pid, label="Paper", title=title, abstract=abstract, display_name=pid)
    entities = {
        "dataset:ptb": ("Dataset", "Penn Treebank", ["parse", "parse2"]),
        "task:parsing": ("Task", "dependency parsing", ["parse", "parse2"]),
        "method:oracle": ("Method", "dynamic oracle", ["parse", "parse2"]),
        "metric:accuracy": ("Metric", "accuracy", ["parse2", "vision"]),
    }
    for eid, (label, name, papers) in entities.items():
        G.add_node(eid, label=label, name=name, paper_count=len(papers))
        for p in papers:
            G.add_edge(p, eid, key="USES", type="USES")
    return G


@pytest.fixture(scope="module")
def indexes() -> tuple[PaperIndex, TextIndex]:
    G = graph()
    return PaperIndex.from_graph(G), TextIndex.from_papers(papers_of(G))


def test_sentences_and_facets_follow_an_abstract() -> None:
    text = PAPERS["parse"][1]
    assert len(sentences(text)) == 4
    assert [f for _, f in facets(text)] == ["background", "method", "result", OTHER]
    # mid-abstract, the cues decide
    assert facet_of("Experiments show that our parser outperforms all baselines.", 2, 5) == "result"
    assert facet_of("We propose a parser.", 2, 5) == "method"
    assert facet_of("However, parsers remain slow.", 2, 5) == "background"


def test_every_facet_names_entity_types_of_the_schema() -> None:
    assert set(FACET_LABELS) == set(FACETS)
    labels = {label.value for label in Label}
    assert all(set(ls) <= labels for ls in FACET_LABELS.values())


def test_sif_vectors_meet_related_words_and_skip_unknown_ones() -> None:
    vocab, matrix = word_vectors()
    assert matrix.shape[0] == len(vocab) and np.allclose(np.linalg.norm(matrix[:50], axis=1), 1)
    texts = ["dependency parsing", "syntactic parsing", "image classification", "zzqx qqzx"]
    vecs = sif_vectors(texts, sif_weights(texts))
    cos = vecs @ vecs.T / np.outer(*(2 * [np.linalg.norm(vecs, axis=1) + 1e-12]))
    assert cos[0, 1] > cos[0, 2]
    assert not vecs[3].any()


def test_the_closest_paper_ranks_first_with_its_reasons(indexes) -> None:  # type: ignore[no-untyped-def]
    idx, text = indexes
    results = rank_related(idx, text, "parse", k=3)
    assert [r.id for r in results][0] == "parse2"
    assert "parse" not in [r.id for r in results]
    assert sorted(r.id for r in rank_related(idx, text, "parse", k=50)) == [
        "parse2", "speech", "vision"
    ]  # never the query itself, even when k exceeds the corpus
    top = results[0]
    assert {s.name for s in top.shared} == {"Penn Treebank", "dependency parsing", "dynamic oracle"}
    mine, theirs = top.evidence
    assert mine in text.sentences and theirs in text.sentences
    assert "github" not in mine + theirs  # where the code is says nothing about the paper
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_a_facet_counts_only_its_entity_types(indexes) -> None:  # type: ignore[no-untyped-def]
    idx, text = indexes
    top = rank_related(idx, text, "parse", k=1, facet="method")[0]
    assert top.facet == "method"
    assert {s.label for s in top.shared} == {"Method"}
    result = rank_related(idx, text, "parse2", k=3, facet="result")
    assert all(s.label in ("Dataset", "Metric") for r in result for s in r.shared)
    with pytest.raises(ValueError):
        rank_related(idx, text, "parse", facet="novelty")


def test_signals_are_standardised_without_the_query(indexes) -> None:  # type: ignore[no-untyped-def]
    idx, text = indexes
    parts = signals(idx, text, "vision")
    assert set(parts) == set(SIGNALS)
    row = text.row("vision")
    for values in parts.values():
        rest = np.delete(values, row)
        assert abs(rest.mean()) < 1e-9 and (rest.std() == 0 or abs(rest.std() - 1) < 1e-9)
    assert not standardised(np.array([3.0, 1.0, 1.0]), skip=0).any()


def test_shipped_weights_name_known_signals() -> None:
    weights = default_weights()
    assert set(weights) <= set(SIGNALS) and any(weights.values())


def test_the_text_index_is_cached_and_follows_the_graph_file(tmp_path: Path) -> None:
    G = graph()
    path = tmp_path / "g.json"
    save_graph(G, path)
    first = load_text_index(path, tmp_path / "cache")
    assert load_text_index(path, tmp_path / "cache").ids == first.ids
    G.remove_node("speech")
    save_graph(G, path)
    assert "speech" not in load_text_index(path, tmp_path / "cache")


def test_cli_facet_json_and_the_graph_ranking(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kg.cli import main

    path = tmp_path / "g.json"
    save_graph(graph(), path)
    runner = CliRunner()
    out = runner.invoke(
        main, ["related", "parse", "--graph", str(path), "--facet", "method", "--json", "-k", "2"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data[0]["id"] == "parse2" and data[0]["facet"] == "method" and data[0]["evidence"]
    text = runner.invoke(main, ["related", "parse", "--graph", str(path), "-k", "1"]).output
    assert "aligned" in text and "shares:" in text
    graph_ranking = runner.invoke(
        main, ["related", "parse", "--graph", str(path), "--ranking", "graph", "--facet",
               "result", "--json"],
    )  # fmt: skip
    assert graph_ranking.exit_code == 0, graph_ranking.output
    ranked = json.loads(graph_ranking.stdout)
    assert ranked and all(r["facet"] == "result" and not r["evidence"] for r in ranked)
    assert {s["label"] for r in ranked for s in r["shared"]} == {"Dataset"}


def test_char_tfidf_gives_scikit_learns_numbers() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    from kg.query.bags import char_tfidf

    texts = [a for _, a in PAPERS.values()] + ["Bi-LSTM and BiLSTM", ""]
    ours = char_tfidf(texts)
    theirs = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), sublinear_tf=True)
    ref = theirs.fit_transform(texts)
    assert ours.shape == ref.shape
    assert np.allclose((ours @ ours.T).toarray(), (ref @ ref.T).toarray(), atol=1e-5)


def test_sentence_vectors_made_a_block_at_a_time_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kg.query.vectors as vectors
    from kg.query.bags import mean_rows

    texts = [a for _, a in PAPERS.values()] * 3 + [""]
    weights = vectors.sif_weights(texts)
    vocab, matrix = vectors.word_vectors()
    whole = mean_rows([vectors.words(t) for t in texts], vocab, matrix,
                      lambda w: weights.get(w, 0.0))  # fmt: skip
    monkeypatch.setattr(vectors, "TEXT_BLOCK", 4)
    blocks = vectors.sif_vectors(texts, weights)
    assert blocks.dtype == whole.dtype and np.array_equal(blocks, whole)
    assert vectors.sif_vectors([], weights).shape == (0, matrix.shape[1])


def test_sparse_rows_cosines_equal_scipys(indexes) -> None:  # type: ignore[no-untyped-def]
    import scipy.sparse as sp

    _, text = indexes
    rows = text.chars
    shape = (len(text.ids), rows.columns)
    matrix = sp.csr_matrix((rows.data, rows.indices, rows.indptr), shape=shape)
    for i in range(len(text.ids)):
        expected = (matrix @ matrix[i].T).toarray().ravel()
        assert np.allclose(rows.cosines(i), expected, atol=1e-6)


def test_a_saved_text_index_scores_as_the_one_made(tmp_path: Path) -> None:
    # The cached index is a folder of arrays mapped from their files (TextIndex.save / open).
    from kg.query.index_arrays import Sentences
    from kg.query.text_index import TextIndex

    made = TextIndex.from_papers(papers_of(graph()))
    made.save(tmp_path / "t", signature=(4, [1, 2]))
    signature, opened = TextIndex.open(tmp_path / "t")
    assert signature == (4, (1, 2)) and opened.ids == made.ids
    for paper in made.ids:
        for facet in (None, "method"):
            mine, theirs = opened.signals(paper, facet), made.signals(paper, facet)
            assert all(np.array_equal(mine[k], theirs[k]) for k in theirs)
        assert opened.best_pair(made.ids[0], paper) == made.best_pair(made.ids[0], paper)
    words = Sentences.of(["naïve café", "", "🚀 rocket"])
    assert (len(words), words[0], words[1], words[-1], words[1:]) == (
        3, "naïve café", "", "🚀 rocket", ["", "🚀 rocket"],
    )  # fmt: skip


def test_cosines_by_column_equal_the_scan_of_every_row() -> None:
    from kg.query.index_arrays import SparseRows
    from kg.query.text_index import TextIndex

    made = TextIndex.from_papers(papers_of(graph()))
    for view in (made.words, made.chars):
        assert view.by_column is not None
        scan_only = SparseRows(view.data, view.indices, view.indptr, view.columns)
        for i in range(len(made.ids)):
            by_column, scanned = view.cosines(i), view.scanned_cosines(i)
            assert by_column.dtype == scanned.dtype and len(by_column) == len(made.ids)
            assert np.allclose(by_column, scanned, atol=1e-6)
            assert np.array_equal(scan_only.cosines(i), scanned)
            assert by_column[i] == pytest.approx(1.0, abs=1e-5)  # (unit rows)


def test_cosines_of_a_query_cut_to_its_heaviest_columns() -> None:
    from kg.query.text_index import TextIndex

    chars = TextIndex.from_papers(papers_of(graph())).chars
    n = len(chars.indptr) - 1
    dense = np.zeros((n, chars.columns))
    for r in range(n):
        a, b = chars.indptr[r], chars.indptr[r + 1]
        dense[r, chars.indices[a:b]] = chars.data[a:b]
    for i in range(n):
        a, b = chars.indptr[i], chars.indptr[i + 1]
        weights = chars.data[a:b]
        kept = np.sort(np.argsort(-weights, kind="stable")[:5])
        query = np.zeros(chars.columns)
        query[chars.indices[a:b][kept]] = weights[kept]
        assert b - a > 5
        assert np.allclose(chars.cosines(i, top=5), dense @ query, atol=1e-6)
        assert np.allclose(chars.cosines(i, top=b - a), chars.scanned_cosines(i), atol=1e-6)


def test_an_index_written_a_view_at_a_time_is_the_one_made_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # TextIndex.write keeps a big corpus's character n-grams out of memory: the counts wait in
    # files and the columns are gathered a range at a time. Small ranges and reads make the
    # seeds take every path: several ranges, several blocks of rows, a range a block skips.
    from kg.query import index_arrays
    from kg.query.text_index import TextIndex

    monkeypatch.setattr(index_arrays, "COLUMN_BUDGET", 500)
    monkeypatch.setattr(index_arrays, "READ_ROWS", 3)
    papers = papers_of(graph())
    TextIndex.from_papers(papers).save(tmp_path / "memory", signature=[1])
    TextIndex.write(tmp_path / "written", papers, signature=[1])
    files = sorted(p.name for p in (tmp_path / "memory").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "written").iterdir())
    for name in files:
        if name.endswith(".npy"):
            a, b = (np.load(tmp_path / d / name) for d in ("memory", "written"))
            assert a.dtype == b.dtype and np.array_equal(a, b), name
    meta = [(tmp_path / d / "meta.json").read_text() for d in ("memory", "written")]
    assert json.loads(meta[0]) == json.loads(meta[1])


def test_word_bags_and_sentence_vectors_do_not_depend_on_their_blocks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kg.query import bags, vectors
    from kg.query.bags import bag_matrix, word_bags

    texts = [f"{title} {abstract}" for _, title, abstract in papers_of(graph())]
    whole, vocab = bag_matrix([t.lower().split() for t in texts])
    rows = vectors.sif_vectors(texts, vectors.sif_weights(texts))
    direction = vectors.common_direction(rows)
    unit = vectors.without(rows, direction)
    monkeypatch.setattr(bags, "WORD_BLOCK", 2)
    monkeypatch.setattr(vectors, "ROW_BLOCK", 3)
    monkeypatch.setattr(vectors, "TEXT_BLOCK", 2)
    blocked, blocked_vocab = word_bags(texts)
    assert list(blocked_vocab) == list(vocab)
    assert all(np.array_equal(getattr(whole, k), getattr(blocked, k))
               for k in ("data", "indices", "indptr"))  # fmt: skip
    assert np.array_equal(vectors.sif_vectors(texts, vectors.sif_weights(texts)), rows)
    assert np.allclose(vectors.common_direction(rows), direction, atol=1e-6)
    assert np.array_equal(vectors.without(rows, direction), unit)


def test_the_aligned_pair_names_a_shared_word_where_one_can(indexes) -> None:  # type: ignore[no-untyped-def]
    _, text = indexes
    best = text.best_pair("parse", "parse2")
    assert "oracle" in best[0] and "oracle" in best[1]
    # the words the papers share: the best pair of sentences that both hold one
    a, b, _ = text.best_pair("parse", "parse2", words=["treebank"])
    assert (a, b) == ("Experiments show it outperforms graph-based parsers on the Penn Treebank.",
                      "Results on the Penn Treebank improve accuracy.")  # fmt: skip
    # no pair holds one: the best pair, as without words
    assert text.best_pair("parse", "parse2", words=["zzqx"]) == best
