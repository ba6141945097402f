"""kg.graph.similarity: the TF-IDF it computes without scikit-learn, and the neighbour lists."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kg.graph.similarity import Neighbour, text_neighbours, tfidf_matrix
from kg.models import Paper

TEXTS = [
    "Graph neural networks for molecule property prediction on QM9.",
    "We study graph neural networks and message passing for molecules.",
    "Diffusion models generate images; we speed up diffusion sampling.",
    "A benchmark for image generation with diffusion models and GANs.",
    "Reinforcement learning agents explore sparse-reward environments.",
    "The the and of a an: only stop words here!",
    "Exploration bonuses help reinforcement learning in sparse reward games.",
]


def papers(texts: list[str]) -> list[Paper]:
    return [Paper(id=f"p{i:02d}", abstract=t, title="") for i, t in enumerate(texts)]


def test_tfidf_matches_scikit_learn() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    # Words as scikit-learn's token pattern finds them: single letters, underscores, digits,
    # apostrophes and letters beyond ASCII too.
    odd = "Naïve x_y a b c d'être ÉCOLE 3D 2 ∑ αβ-γ CO₂ _ __init__ 12 mm²"
    docs = [f". {t}" for t in [*TEXTS, odd]]
    ours, vocab = tfidf_matrix(docs)
    ref = TfidfVectorizer(sublinear_tf=True, stop_words="english")
    theirs = ref.fit_transform(docs)
    assert vocab == list(ref.get_feature_names_out())
    assert np.allclose(ours.toarray(), theirs.toarray(), atol=1e-12)


def brute_force(ps: list[Paper], k: int) -> dict[str, list[tuple[str, float]]]:
    """The obvious O(n^2) ranking: cosine rounded to 6 places, best first, ties by id."""
    X, _ = tfidf_matrix([f"{p.title}. {p.abstract}" for p in ps])
    S = (X @ X.T).toarray()
    out = {}
    for i, p in enumerate(ps):
        cands = [(ps[j].id, round(float(S[i, j]), 6)) for j in range(len(ps)) if j != i]
        cands = [c for c in cands if c[1] > 0]
        out[p.id] = sorted(cands, key=lambda c: (-c[1], c[0]))[:k]
    return out


@pytest.mark.parametrize("k", [1, 2, 3, 10])
def test_neighbours_are_the_best_k_by_cosine_ties_by_id(k: int) -> None:
    ps = papers(TEXTS + TEXTS[:2])  # exact duplicates make ties
    got = text_neighbours(ps, top_n=k)
    want = brute_force(ps, k)
    assert {pid: [(n.id, n.score) for n in ns] for pid, ns in got.items()} == want


def test_shared_terms_are_in_both_papers_and_explain_the_score() -> None:
    ps = papers(TEXTS)
    got = text_neighbours(ps)
    assert [n.id for n in got["p00"]][:1] == ["p01"]
    first = got["p00"][0]
    assert set(first.terms) <= {"graph", "neural", "networks", "molecule", "molecules"}
    assert first.terms[:3] and "graph" in first.terms
    for pid, ns in got.items():
        mine = set(ps[int(pid[1:])].abstract.lower().replace(";", " ").split())
        for n in ns:
            theirs = set(ps[int(n.id[1:])].abstract.lower().replace(";", " ").split())
            assert all(any(t in w for w in mine) and any(t in w for w in theirs) for t in n.terms)
    assert got["p05"] == []  # only stop words: similar to nothing


def test_small_inputs() -> None:
    assert text_neighbours([]) == {}
    assert text_neighbours(papers(["one paper"])) == {"p00": []}
    # "alpha beta" vs "beta gamma": idf(alpha) = idf(gamma) = ln(3/2) + 1, idf(beta) = 1.
    a = np.log(1.5) + 1
    got = text_neighbours(papers(["alpha beta", "beta gamma"]))
    assert got["p00"] == [Neighbour("p01", round(1 / (1 + a * a), 6), ("beta",))]


def test_neighbour_lists_are_text_neighbours_as_lists() -> None:
    from kg.graph.similarity import neighbour_lists

    ps = papers(["graph neural networks", "graph networks for molecules", "protein folding"])
    want = {
        pid: ([n.id for n in ns], [n.score for n in ns], [", ".join(n.terms) for n in ns])
        for pid, ns in text_neighbours(ps).items()
    }
    assert neighbour_lists(ps) == want
    assert neighbour_lists(ps[:1]) == {"p00": ([], [], [])}


@pytest.mark.parametrize("top", [90_000, 2**20 - 1, 5_000_000])
def test_one_sort_key_orders_by_row_then_value_largest_first_ties_kept(top: int) -> None:
    from kg.graph.similarity import _row_major_order

    rng = np.random.default_rng(7)
    rows = np.sort(np.append(rng.integers(0, top, 20_000), top))
    # Rounded values with many ties, down to differences of 1e-9, and values of 1.
    values = np.round(rng.choice([1.0, 0.5, 0.25, 1e-9, 2e-9, *rng.random(50)], len(rows)), 9)
    assert (_row_major_order(rows, values) == np.lexsort((-values, rows))).all()


def test_shared_terms_in_chunks_of_pairs_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.graph.similarity

    ps = papers(TEXTS + TEXTS[:2])
    whole = text_neighbours(ps)
    monkeypatch.setattr(kg.graph.similarity, "PAIR_CHUNK", 3)  # many chunks, one not full
    assert text_neighbours(ps) == whole
    assert sum(len(ns) for ns in whole.values()) > 3 * 3


@pytest.mark.parametrize(("share", "cap"), [(0.3, 2), (0.3, 512), (0.0, 512), (2.0, 512)])
def test_frequent_terms_as_dense_columns_give_the_same_neighbours(
    monkeypatch: pytest.MonkeyPatch, share: float, cap: int
) -> None:
    import kg.graph.similarity
    from kg.graph.similarity import _split_frequent

    ps = papers(TEXTS + TEXTS[:2])
    monkeypatch.setattr(kg.graph.similarity, "DENSE_SHARE", share)
    monkeypatch.setattr(kg.graph.similarity, "DENSE_TERMS", cap)
    monkeypatch.setattr(kg.graph.similarity, "BLOCK", 4)  # blocks of rows, the last one short
    X, _ = tfidf_matrix([f"{p.title}. {p.abstract}" for p in ps])
    dense, rest = _split_frequent(X)
    df = np.bincount(X.indices, minlength=X.shape[1])
    assert dense.shape[1] == min(cap, int((df >= share * X.shape[0]).sum()))
    assert dense.shape[1] + rest.shape[1] == X.shape[1]
    assert np.allclose(dense @ dense.T + (rest @ rest.T).toarray(), (X @ X.T).toarray())
    got = text_neighbours(ps, top_n=3)
    assert {pid: [(n.id, n.score) for n in ns] for pid, ns in got.items()} == brute_force(ps, 3)


def test_term_counts_kept_in_a_cache_folder_are_counted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    import kg.graph.similarity
    from kg.graph.similarity import term_counts

    texts = [f". {t}" for t in TEXTS]
    plain = term_counts(texts)
    assert plain[0] == (
        ("graph", "neural", "networks", "molecule", "property", "prediction", "qm9"),
        (1, 1, 1, 1, 1, 1, 1),
    )
    assert term_counts(texts, tmp_path) == plain  # counted, and stored
    counted: list[str] = []
    real = kg.graph.similarity._count_terms

    def counting(text: str, stops: frozenset[str]) -> tuple:
        counted.append(text)
        return real(text, stops)

    monkeypatch.setattr(kg.graph.similarity, "_count_terms", counting)
    more = [*texts, "Graph graph networks again."]
    assert term_counts(more, tmp_path) == [*plain, (("graph", "networks"), (2, 1))]
    assert counted == ["Graph graph networks again."]  # only the new text
    (path,) = tmp_path.glob("terms-*.sqlite")
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE terms SET value = ?", (b"\xff damaged",))
    db.close()
    assert term_counts(texts, tmp_path) == plain and len(counted) == 1 + len(texts)
    X, vocab = tfidf_matrix(texts, tmp_path)
    Y, same = tfidf_matrix(texts)
    assert vocab == same and (X != Y).nnz == 0
    # A cache folder that cannot be used (a file is in the way) only costs the time.
    blocked = tmp_path / "blocked"
    blocked.write_text("not a folder")
    assert term_counts(texts, blocked) == plain


# --------------------------------------------------------------------------- the capped index


def synthetic(n: int, seed: int = 5) -> list[Paper]:
    """``n`` seeded abstracts: 50 words drawn by a Zipf law (a few words in most texts, most in
    few) and 15 of one of 25 topics' words, so that papers have close neighbours and frequent
    terms are in far more papers than the index lists."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(3000)])
    zipf = 1 / np.arange(1, 3001) ** 1.1
    topics = [rng.choice(3000, 40, replace=False) for _ in range(25)]

    def abstract() -> str:
        common = rng.choice(3000, 50, p=zipf / zipf.sum())
        topical = rng.choice(topics[rng.integers(25)], 15)
        return " ".join(words[np.concatenate([common, topical])])

    return [Paper(id=f"s{i:04d}", title="", abstract=abstract()) for i in range(n)]


def small_index(monkeypatch: pytest.MonkeyPatch, cap: int, candidates: int) -> None:
    """An index that lists few papers per term, as a big corpus's index does."""
    import kg.graph.similarity

    monkeypatch.setattr(kg.graph.similarity, "CAP", cap)
    monkeypatch.setattr(kg.graph.similarity, "RARE", cap)
    monkeypatch.setattr(kg.graph.similarity, "CANDIDATES", candidates)


def recall(exact: dict, index: dict) -> float:
    """The share of each paper's exact neighbours that the index returns, averaged."""
    shares = [len(set(index[p][0]) & set(near)) / len(near) for p, (near, _, _) in exact.items()]
    return sum(shares) / len(shares)


@pytest.mark.parametrize("k", [1, 3, 10])
def test_the_index_listing_every_paper_gives_the_exact_neighbours_ties_by_id(k: int) -> None:
    # On a small corpus every term is rare (RARE): the index holds every pair that shares a
    # word, and the candidates' exact cosines give the brute-force lists, ties included.
    ps = papers(TEXTS + TEXTS[:2])
    got = text_neighbours(ps, top_n=k, method="index")
    assert {pid: [(n.id, n.score) for n in ns] for pid, ns in got.items()} == brute_force(ps, k)
    assert got == text_neighbours(ps, top_n=k, method="exact")


def test_a_capped_index_finds_the_exact_neighbours_with_their_exact_cosines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kg.graph.similarity import _listed, neighbour_lists

    ps = synthetic(500)
    exact = neighbour_lists(ps, method="exact")
    small_index(monkeypatch, cap=15, candidates=60)
    X, _ = tfidf_matrix([f"{p.title}. {p.abstract}" for p in ps])
    listed, unlisted = _listed(X)
    assert unlisted.nnz > 0.3 * X.nnz  # the cap leaves out much: the test means something
    index = neighbour_lists(ps, method="index")
    assert recall(exact, index) >= 0.99
    assert sum(index[p] == exact[p] for p in exact) >= 0.9 * len(exact)
    for pid, (near, cosines, terms) in index.items():
        want = dict(zip(exact[pid][0], exact[pid][1], strict=True))
        theirs = dict(zip(exact[pid][0], exact[pid][2], strict=True))
        assert cosines == sorted(cosines, reverse=True) and len(near) == 30
        for j, s, t in zip(near, cosines, terms, strict=True):
            if j in want:  # the same pair: the same cosine and the same shared terms
                assert (s, t) == (want[j], theirs[j])


def test_the_listed_entries_are_each_terms_largest_weights_ties_by_paper(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kg.graph.similarity import _listed

    small_index(monkeypatch, cap=3, candidates=60)
    # "common" in all six texts with equal weights in the first four: ties go by paper.
    texts = ["common alpha", "common beta", "common gamma", "common delta", "common", "common"]
    X, vocab = tfidf_matrix(texts)
    listed, unlisted = _listed(X)
    assert (abs(listed + unlisted - X) > 0).nnz == 0 and listed.multiply(unlisted).nnz == 0
    common = vocab.index("common")
    # Alone in its text, "common" weighs 1 in the last two; then the first of the tied four.
    assert listed[:, common].nonzero()[0].tolist() == [0, 4, 5]
    others = [vocab.index(w) for w in ("alpha", "beta", "gamma", "delta")]
    assert listed[:, others].nnz == 4  # in one paper each: rare, listed whole


def test_the_index_is_deterministic_across_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    import json
    import subprocess
    import sys

    from kg.graph.similarity import neighbour_lists

    small_index(monkeypatch, cap=15, candidates=60)
    ps = synthetic(300, seed=11)
    once = neighbour_lists(ps, method="index")
    assert neighbour_lists(list(reversed(ps)), method="index") == once
    code = (
        "import json, sys\n"
        "import kg.graph.similarity as s\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from test_similarity import synthetic\n"
        "s.CAP = s.RARE = 15; s.CANDIDATES = 60\n"
        "print(json.dumps(s.neighbour_lists(synthetic(300, seed=11), method='index')))\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == json.dumps(once)


def test_index_blocks_and_fewer_candidates_than_papers(monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.graph.similarity
    from kg.graph.similarity import _listed, neighbour_lists

    ps = synthetic(120, seed=3) + papers(["The the and of a an: only stop words here!"])
    small_index(monkeypatch, cap=10, candidates=40)
    whole = neighbour_lists(ps, method="index")
    monkeypatch.setattr(kg.graph.similarity, "INDEX_BLOCK", 7)  # many blocks, the last short
    assert neighbour_lists(ps, method="index") == whole
    assert whole["p00"] == ([], [], [])  # only stop words: similar to nothing
    # Ten candidates per neighbour: with 121 papers, every paper that shares a listed entry
    # with it is one, so its list is the exact one less the pairs that share none.
    everything = neighbour_lists(ps, top_n=500, method="index")
    exact = neighbour_lists(ps, top_n=500, method="exact")
    ordered = sorted(ps, key=lambda p: p.id)
    row = {p.id: i for i, p in enumerate(ordered)}
    X, _ = tfidf_matrix([f"{p.title}. {p.abstract}" for p in ordered])
    listed, unlisted = _listed(X)
    shares = (X @ listed.T + listed @ unlisted.T).toarray() > 0
    assert (~shares & ((X @ X.T).toarray() > 0)).any()  # some pairs share no listed entry
    for pid, (near, cosines, terms) in exact.items():
        kept = [x for x in zip(near, cosines, terms, strict=True) if shares[row[pid], row[x[0]]]]
        assert everything[pid] == ([x[0] for x in kept], [x[1] for x in kept], [x[2] for x in kept])


def test_auto_compares_all_pairs_below_the_threshold_and_uses_the_index_above(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kg.graph.similarity
    from kg.graph.similarity import INDEX_FROM, neighbour_lists

    assert INDEX_FROM == 20_000
    ps = synthetic(60, seed=2)
    exact = neighbour_lists(ps, method="exact")
    used: list[str] = []
    for name in ("_all_pairs_top_k", "_index_top_k"):
        real = getattr(kg.graph.similarity, name)

        def spy(*args: object, real: object = real, name: str = name) -> object:
            used.append(name)
            return real(*args)  # type: ignore[operator]

        monkeypatch.setattr(kg.graph.similarity, name, spy)
    assert neighbour_lists(ps) == exact and used == ["_all_pairs_top_k"]
    monkeypatch.setattr(kg.graph.similarity, "INDEX_FROM", 60)
    assert neighbour_lists(ps) == neighbour_lists(ps, method="index")
    assert used == ["_all_pairs_top_k", "_index_top_k", "_index_top_k"]
    monkeypatch.setattr(kg.graph.similarity, "INDEX_FROM", 61)
    neighbour_lists(ps)
    assert used[-1] == "_all_pairs_top_k"
    with pytest.raises(ValueError, match="method"):
        neighbour_lists(ps, method="hnsw")
    with pytest.raises(ValueError, match="method"):
        neighbour_lists(ps[:1], method="hnsw")
