"""Related-paper quality of `kg related` against real judgments and baselines, in one run.

Two evaluations:

* **CSFCube** (expert judgments, 50 queries, each about one facet), under its published
  protocol (Aspire's ``ranking_eval``): each query's *judged pool* (minus the query itself) is
  ranked by every method; NDCG%20 (NDCG over the first 20% of the pool, the adjudicated grade
  0-3 as gain, the first two ranks undiscounted), NDCG@20 and MAP (grade >= 2 relevant), per
  facet and overall (mean over the 50 queries), and a paired bootstrap of kg's methods against
  TF-IDF and against SPECTER.
* **ICLR 2026** (no judgments): for 300 random query papers (fixed seed), over the whole
  corpus minus the query: P@10 of "same primary_area" and mean author-keyword overlap of the
  top 10 (Jaccard of the lower-cased keyword sets, keywords equal to a primary-area name
  dropped; also the mean number of shared keywords).

Methods: ``kg`` (kg related's default, :mod:`kg.query.hybrid`, with the shipped weights, on a
graph built from the same papers; on CSFCube about each query's facet), ``kg-cv`` (CSFCube
only: the same signals, every query ranked by weights learned on the other fold's dev
queries), ``kg-graph`` (``--ranking graph``: shared entities and the stored TF-IDF neighbours),
``tfidf`` (scikit-learn cosine on title + abstract), ``bm25`` (rank-bm25 Okapi, the query's
title + abstract as the query), ``specter`` (the shipped CSFCube rankings; CSFCube only),
``random`` (seeded shuffle). Ties are broken by paper id.

Usage::

    .venv/bin/python benchmarks/related_quality.py                 # both evaluations, table
    .venv/bin/python benchmarks/related_quality.py --only csfcube --methods kg-cv,tfidf,specter
    .venv/bin/python benchmarks/related_quality.py --only csfcube --methods kg-cv \
        --write-weights kg/query/data/related_weights.json        # relearn the shipped weights
    .venv/bin/python benchmarks/related_quality.py --json > quality.json
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    DEFAULT_CSFCUBE,
    DEFAULT_ICLR,
    Doc,
    read_csfcube_texts,
    read_iclr,
    stage,
    table,
    write_jsonl,
)

from kg.evaluate.related_metrics import (  # noqa: E402
    average_precision,
    mean,
    ndcg_at_k,
    ndcg_at_share,
    precision_at_k,
)

FACETS = ("background", "method", "result")
SEED = 20261129
ALL_METHODS = ("kg", "kg-cv", "kg-graph", "tfidf", "bm25", "specter", "random")


# =========================================================================== data


@dataclass
class Query:
    pid: str
    facet: str
    grades: dict[str, int]  # judged pool (query itself removed) -> adjudicated grade


def load_csfcube(
    path: Path, keep_self: bool = False
) -> tuple[dict[str, Doc], list[Query], dict[tuple[str, str], list[str]]]:
    """Texts of all 4,205 papers, the 50 queries with their judged pools, SPECTER rankings."""
    docs = read_csfcube_texts(path)
    queries: list[Query] = []
    with (path / "queries-release.csv").open(encoding="utf-8", newline="") as fh:
        release = [(r["pid"], r["facet"]) for r in csv.DictReader(fh)]
    anns = {f: json.loads((path / f"test-pid2anns-csfcube-{f}.json").read_text()) for f in FACETS}
    for pid, facet in release:
        a = anns[facet][pid]
        # One query (8781666, background and result) lists itself among its candidates, graded
        # 3. A paper is not "related to itself" (kg related never returns it), so it is dropped
        # by default. keep_self=True reproduces CSFCube's published figures: SPECTER's file
        # never ranks the query, so keeping it costs SPECTER and helps TF-IDF (cosine 1.0).
        grades = {
            c: int(g)
            for c, g in zip(a["cands"], a["relevance_adju"], strict=True)
            if keep_self or c != pid
        }
        queries.append(Query(pid, facet, grades))
    specter: dict[tuple[str, str], list[str]] = {}
    for f in FACETS:
        ranked = json.loads(
            (
                path / "sample_ranked_pools" / f"test-pid2pool-csfcube-specter-{f}-ranked.json"
            ).read_text()
        )
        for pid, pairs in ranked.items():
            # smaller distance = more similar; ties by id for determinism
            specter[(f, pid)] = [c for c, _ in sorted(pairs, key=lambda p: (p[1], p[0]))]
    missing = {q.pid for q in queries} | {c for q in queries for c in q.grades}
    missing -= set(docs)
    if missing:
        print(
            f"warning: {len(missing)} judged papers have no text: {sorted(missing)[:5]}",
            file=sys.stderr,
        )
    return docs, queries, specter


# =========================================================================== methods
# Every method is a *scorer*: query id -> {paper id: score} over the whole corpus (a missing
# paper scores 0). Rankings sort by score descending, ties by paper id ascending, so results
# are deterministic. The CSFCube evaluation ranks each query's judged pool by these scores; the
# ICLR evaluation takes the top 10 of the whole corpus. SPECTER only exists as pool rankings.

Scorer = Callable[[str], dict[str, float]]


def pipeline_fingerprint() -> str:
    """kg's extraction fingerprint now (a graph built here uses it; a reused one may not)."""
    try:
        from kg.extract.pipeline import pipeline_version

        return pipeline_version()
    except ImportError:
        return ""


def rank_pool(scores: dict[str, float], cands: Sequence[str]) -> list[str]:
    """Candidates by score descending, ties by id ascending."""
    return sorted(cands, key=lambda c: (-scores.get(c, 0.0), c))


def top_k(scores: dict[str, float], qid: str, k: int, positive_only: bool = False) -> list[str]:
    """The k best papers other than the query (only score > 0 ones when ``positive_only``)."""
    items = [(c, v) for c, v in scores.items() if c != qid and (v > 0 or not positive_only)]
    return [c for c, _ in sorted(items, key=lambda cv: (-cv[1], cv[0]))[:k]]


class TfidfScorer:
    """Cosine of TF-IDF vectors of title + abstract, fitted on the whole corpus.

    Defaults (sublinear tf, no stop-word list, unigrams) were chosen as the *strongest* of the
    word-level settings tried on CSFCube, so kg is compared with a fair baseline: sublinear tf
    helps clearly, a stop-word list costs a little (measured: docs/benchmarks.md).
    """

    def __init__(self, docs: dict[str, Doc], **kwargs: Any) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.ids = sorted(docs)
        self.index = {d: i for i, d in enumerate(self.ids)}
        params: dict[str, Any] = {"sublinear_tf": True}
        params.update(kwargs)
        self.vec = TfidfVectorizer(**params)
        self.X = self.vec.fit_transform([docs[i].text for i in self.ids])  # rows L2-normalised

    def __call__(self, qid: str) -> dict[str, float]:
        sims = (self.X @ self.X[self.index[qid]].T).toarray().ravel()
        return dict(zip(self.ids, map(float, sims), strict=True))


_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased word tokens minus English stop words (scikit-learn's list)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return [t for t in _TOKEN.findall(text.lower()) if t not in ENGLISH_STOP_WORDS]


class Bm25Scorer:
    """BM25 Okapi (rank-bm25 defaults k1=1.5, b=0.75) with the query's title + abstract."""

    def __init__(self, docs: dict[str, Doc]) -> None:
        from rank_bm25 import BM25Okapi

        self.ids = sorted(docs)
        self.index = {d: i for i, d in enumerate(self.ids)}
        self.tokens = [bm25_tokens(docs[i].text) for i in self.ids]
        self.bm25 = BM25Okapi(self.tokens)

    def __call__(self, qid: str) -> dict[str, float]:
        sims = self.bm25.get_scores(self.tokens[self.index[qid]])
        return dict(zip(self.ids, map(float, sims), strict=True))


def random_scorer(ids: Sequence[str], seed: int = SEED) -> Scorer:
    ids = sorted(ids)

    def score(qid: str) -> dict[str, float]:
        rng = random.Random(f"{seed}:{qid}")
        return {c: rng.random() for c in ids}

    return score


class SpecterRanker:
    """The shipped SPECTER rankings (pool only); pool members it did not rank go last."""

    def __init__(self, ranked: dict[tuple[str, str], list[str]]) -> None:
        self.ranked = ranked

    def __call__(self, qid: str, cands: Sequence[str], facet: str) -> list[str]:
        order = {c: i for i, c in enumerate(self.ranked.get((facet, qid), []))}
        return sorted(cands, key=lambda c: (order.get(c, len(order)), c))


# --------------------------------------------------------------------------- kg


def build_kg_graph(docs: Sequence[Doc], workdir: Path, cache_dir: Path | None = None) -> Any:
    """Build a kg graph from ``docs`` through kg's library function (kg.build.build)."""
    import kg.build as kb

    jsonl = write_jsonl(docs, workdir / "papers.jsonl")
    # Author keywords withheld: the ICLR measure scores keyword overlap.
    result = kb.build([jsonl], cache_dir=cache_dir, keywords=False)
    if result.problems:
        print(
            f"kg build: {len(result.problems)} problems, e.g. {result.problems[0]}", file=sys.stderr
        )
    return result.graph


def align_graph(G: Any, docs: Sequence[Doc]) -> dict[str, str]:
    """Rename the graph's paper nodes to the benchmark's doc ids; return twin aliases.

    kg may give a paper another id than ours (it prefixes all-digit source ids with the file
    name) and merges records with the same abstract (CSFCube has 8 such pairs under different
    ids). Papers are matched by id, else by the line of the JSONL we wrote (``source``
    "file:line", line i = docs[i-1]); a doc kg merged into its twin is aliased to the twin, so
    both get the twin's scores. The aliases are also kept in ``G.graph["bench_aliases"]``.
    """
    import networkx as nx

    from kg.schema import LABEL_ATTR, Label

    ids = {d.id for d in docs}
    mapping: dict[str, str] = {}
    for node, attrs in G.nodes(data=True):
        if attrs.get(LABEL_ATTR) != Label.PAPER.value or node in ids:
            continue
        try:
            line = int(str(attrs.get("source", "")).rsplit(":", 1)[1])
            mapping[node] = docs[line - 1].id
        except (IndexError, ValueError):
            continue
    if mapping:
        nx.relabel_nodes(G, mapping, copy=False)
    by_abstract = {d.abstract: d.id for d in docs if d.id in G}
    aliases = {
        d.id: by_abstract[d.abstract] for d in docs if d.id not in G and d.abstract in by_abstract
    }
    unmatched = [d.id for d in docs if d.id not in G and d.id not in aliases]
    if unmatched:
        print(
            f"warning: {len(unmatched)} papers not in the kg graph: {unmatched[:5]}",
            file=sys.stderr,
        )
    G.graph["bench_aliases"] = aliases
    return aliases


def with_aliases(G: Any, inner: Callable[[str], dict[str, float]]) -> Scorer:
    """Wrap a scorer over graph ids so merged twins get their twin's scores."""
    aliases: dict[str, str] = G.graph.get("bench_aliases", {})
    back: dict[str, list[str]] = defaultdict(list)
    for doc, node in aliases.items():
        back[node].append(doc)
    cache: dict[str, dict[str, float]] = {}

    def score(qid: str) -> dict[str, float]:
        if qid not in cache:
            s = dict(inner(aliases.get(qid, qid)))
            for node, docs in back.items():
                for d in docs:
                    if node in s:
                        s[d] = s[node]
            cache[qid] = s
        return cache[qid]

    return score


def kg_scorer(G: Any) -> Scorer:
    """kg.query.related.related_papers' score (all papers sharing an entity; others score 0)."""
    from kg.query.related import related_papers

    def inner(qid: str) -> dict[str, float]:
        if qid not in G:
            return {}
        return {r.id: float(r.score) for r in related_papers(G, qid, k=None)}

    return with_aliases(G, inner)


# --------------------------------------------------------------------------- kg hybrid


class Hybrid:
    """kg's default ranking (kg.query.hybrid) over a graph built from the benchmark's papers:
    its standardised signals per query, and scores under any weights (to learn them)."""

    def __init__(self, G: Any) -> None:
        from kg.query.index import PaperIndex
        from kg.query.text_index import TextIndex
        from kg.schema import LABEL_ATTR, Label

        self.G = G
        self.idx = PaperIndex.from_graph(G)
        papers = sorted(n for n, a in G.nodes(data=True) if a.get(LABEL_ATTR) == Label.PAPER.value)
        with stage(f"text index ({len(papers)} papers)"):
            self.text = TextIndex.from_papers(
                [(p, G.nodes[p].get("title", ""), G.nodes[p].get("abstract", "")) for p in papers]
            )
        self._signals: dict[tuple[str, str | None], dict[str, Any]] = {}

    def signals(self, qid: str, facet: str | None) -> dict[str, Any]:
        from kg.query.hybrid import signals

        if (qid, facet) not in self._signals:
            self._signals[(qid, facet)] = signals(self.idx, self.text, qid, facet)
        return self._signals[(qid, facet)]

    def scorer(self, weights: dict[str, float] | None = None, facet: str | None = None) -> Scorer:
        """Scores under ``weights`` (default: the shipped ones) about ``facet``."""
        from kg.query.hybrid import default_weights

        w = default_weights() if weights is None else weights

        def inner(qid: str) -> dict[str, float]:
            if qid not in self.text:
                return {}
            parts = self.signals(qid, facet)
            total = sum(v * parts[name] for name, v in w.items() if v)
            return dict(zip(self.text.ids, map(float, total), strict=True))

        return with_aliases(self.G, inner)


WEIGHT_GRID = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)


def learn_weights(hybrid: Hybrid, queries: Sequence[Query], rounds: int = 3) -> dict[str, float]:
    """Coordinate ascent over :data:`WEIGHT_GRID` for the mean NDCG%20 of ``queries`` (each about
    its own facet), from equal weights, the word TF-IDF weight fixed at 1 (only ratios
    matter)."""
    from kg.query.hybrid import SIGNALS

    def value(w: dict[str, float]) -> float:
        total = []
        for q in queries:
            sc = hybrid.scorer(w, q.facet)(q.pid)
            total.append(ndcg_at_share(rank_pool(sc, sorted(q.grades)), q.grades))
        return mean(total)

    w = {name: 1.0 for name in SIGNALS}  # from equal weights: a prior the few queries adjust
    best = value(w)
    for _ in range(rounds):
        improved = False
        for name in SIGNALS:
            if name == "words":
                continue
            for g in WEIGHT_GRID:
                trial = {**w, name: g}
                v = value(trial)
                if v > best + 1e-9:
                    best, w, improved = v, trial, True
        if not improved:
            break
    return w


def cross_validated_hybrid(
    hybrid: Hybrid, queries: Sequence[Query], splits: dict[str, Any]
) -> dict[str, Any]:
    """Weights learned on each CSFCube dev fold, every query ranked by the weights learned
    without it (fold1_test == fold2_dev: the test folds partition the 50 queries)."""
    per_key: dict[tuple[str, str], Query] = {(q.facet, q.pid): q for q in queries}
    learned: dict[str, dict[str, float]] = {}
    rankings: dict[tuple[str, str], list[str]] = {}
    for fold in ("fold1", "fold2"):
        def keys(part: str) -> list[tuple[str, str]]:
            return [(f, k.rsplit("_", 1)[0]) for f in FACETS for k in splits[f][part]]

        with stage(f"learn the hybrid's weights on {fold}_dev"):
            w = learn_weights(hybrid, [per_key[k] for k in keys(f"{fold}_dev")])
        learned[fold] = w
        for key in keys(f"{fold}_test"):
            q = per_key[key]
            sc = hybrid.scorer(w, q.facet)(q.pid)
            rankings[key] = rank_pool(sc, sorted(q.grades))
    return {"weights": learned, "rankings": rankings}


# =========================================================================== evaluations


def eval_csfcube(
    queries: Sequence[Query],
    scorers: dict[str, Callable[[Query], dict[str, float]]],
    specter: SpecterRanker | None = None,
    rankings: dict[str, dict[tuple[str, str], list[str]]] | None = None,
) -> dict[str, Any]:
    """Per-method, per-facet and overall NDCG%20 (the published protocol), NDCG@20 and MAP,
    plus per-query values. ``rankings``: methods given as their ranked pools per (facet, query)."""

    def by_scores(
        sc: Callable[[Query], dict[str, float]],
    ) -> Callable[[Query, list[str]], list[str]]:
        return lambda q, cands: rank_pool(sc(q), cands)

    def given(r: dict[tuple[str, str], list[str]]) -> Callable[[Query, list[str]], list[str]]:
        return lambda q, cands: r[(q.facet, q.pid)]

    methods: dict[str, Callable[[Query, list[str]], list[str]]] = {
        name: by_scores(sc) for name, sc in scorers.items()
    }
    methods.update({name: given(r) for name, r in (rankings or {}).items()})
    if specter is not None:
        spec = specter
        methods["specter"] = lambda q, cands: spec(q.pid, cands, q.facet)
    out: dict[str, Any] = {}
    for name, rank in methods.items():
        per_query: list[dict[str, Any]] = []
        for q in queries:
            cands = sorted(q.grades)
            ranking = rank(q, cands)
            assert sorted(ranking) == cands, f"{name} did not return the pool for {q.pid}"
            per_query.append(
                {
                    "query": q.pid,
                    "facet": q.facet,
                    "ndcg%20": ndcg_at_share(ranking, q.grades, 0.2),
                    "ndcg@20": ndcg_at_k(ranking, q.grades, 20),
                    "map": average_precision(ranking, q.grades, 2),
                }
            )
        summary: dict[str, dict[str, float]] = {}
        for facet in (*FACETS, "all"):
            rows = [r for r in per_query if facet in ("all", r["facet"])]
            summary[facet] = {
                "ndcg%20": mean([r["ndcg%20"] for r in rows]),
                "ndcg@20": mean([r["ndcg@20"] for r in rows]),
                "map": mean([r["map"] for r in rows]),
                "n": len(rows),
            }
        out[name] = {"summary": summary, "per_query": per_query}
    return out


def paired_bootstrap(a: Sequence[float], b: Sequence[float], n: int = 10000) -> dict[str, float]:
    """Mean of a - b over queries with a 95% bootstrap interval, and wins/losses/ties."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    rng = random.Random(SEED)
    means = sorted(mean([rng.choice(diffs) for _ in diffs]) for _ in range(n))
    return {
        "mean_diff": mean(diffs),
        "ci95_low": means[int(0.025 * n)],
        "ci95_high": means[int(0.975 * n) - 1],
        "wins": sum(1 for d in diffs if d > 1e-12),
        "losses": sum(1 for d in diffs if d < -1e-12),
        "ties": sum(1 for d in diffs if abs(d) <= 1e-12),
    }


def keyword_set(d: Doc, areas: set[str]) -> set[str]:
    return {k.lower() for k in d.keywords} - areas


def eval_iclr(
    docs: list[Doc],
    scorers: dict[str, Scorer],
    positive_only: Sequence[str] = (),
    n_queries: int = 300,
    k: int = 10,
) -> dict[str, Any]:
    """P@10 same primary_area and keyword overlap of the top 10 over the whole corpus.

    Methods in ``positive_only`` return only papers with a positive score (kg related returns
    only papers that share something); missing results count as misses / zero overlap.
    """
    by_id = {d.id: d for d in docs}
    areas = {d.primary_area.lower() for d in docs}
    kws = {d.id: keyword_set(d, areas) for d in docs}
    qids = random.Random(SEED).sample(sorted(by_id), n_queries)
    out: dict[str, Any] = {}
    for name, sc in scorers.items():
        p_at_k, jacc, shared_n, returned = [], [], [], []
        for qid in qids:
            top = [c for c in top_k(sc(qid), qid, k, name in positive_only) if c in by_id]
            returned.append(len(top))
            q = by_id[qid]
            p_at_k.append(precision_at_k([by_id[c].primary_area == q.primary_area for c in top], k))
            for c in top:
                a, b = kws[qid], kws[c]
                jacc.append(len(a & b) / len(a | b) if a | b else 0.0)
                shared_n.append(len(a & b))
            jacc.extend([0.0] * (k - len(top)))
            shared_n.extend([0] * (k - len(top)))
        out[name] = {
            "p@10_same_area": mean(p_at_k),
            "kw_jaccard@10": mean(jacc),
            "kw_shared@10": mean(shared_n),
            "mean_returned": mean(returned),
        }
    return out


# =========================================================================== main


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--csfcube", type=Path, default=DEFAULT_CSFCUBE)
    ap.add_argument("--iclr", type=Path, default=DEFAULT_ICLR)
    ap.add_argument("--methods", default=",".join(ALL_METHODS))
    ap.add_argument("--only", choices=("csfcube", "iclr"), help="run one evaluation")
    ap.add_argument("--iclr-graph", type=Path, help="reuse a built ICLR graph (node-link JSON)")
    ap.add_argument("--csfcube-graph", type=Path, help="reuse a built CSFCube graph")
    ap.add_argument("--cache-dir", type=Path, help="kg extraction cache (faster re-runs)")
    ap.add_argument("--save-graphs", type=Path, help="directory to save the graphs built here")
    ap.add_argument(
        "--keep-self", action="store_true", help="keep a query in its own judged pool (as judged)"
    )
    ap.add_argument(
        "--write-weights",
        type=Path,
        help="write the hybrid weights learned on CSFCube fold1_dev here (the shipped file is "
        "kg/query/data/related_weights.json)",
    )
    ap.add_argument("--per-query", action="store_true", help="print per-query NDCG%%20")
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = ap.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = set(methods) - set(ALL_METHODS)
    if unknown:
        ap.error(f"unknown methods: {sorted(unknown)}")
    result: dict[str, Any] = {"seed": SEED, "kg_pipeline": pipeline_fingerprint()}
    kg_methods = {"kg", "kg-graph", "kg-cv"} & set(methods)

    def get_graph(docs: Sequence[Doc], saved: Path | None, name: str) -> Any:
        from kg.store.file import load_graph, save_graph

        if saved:
            G = load_graph(saved)
        else:
            with tempfile.TemporaryDirectory() as tmp, stage(f"kg build {name} ({len(docs)})"):
                G = build_kg_graph(docs, Path(tmp), args.cache_dir)
            if args.save_graphs:
                save_graph(G, args.save_graphs / f"{name}.json")
        align_graph(G, docs)
        return G

    def scorers_for(
        docs: dict[str, Doc], name: str, saved: Path | None, facet: str | None = None
    ) -> tuple[dict[str, Scorer], Hybrid | None]:
        out: dict[str, Scorer] = {}
        hyb = None
        if kg_methods:
            G = get_graph([docs[i] for i in sorted(docs)], saved, name)
            hyb = Hybrid(G)
            if "kg" in methods:
                out["kg"] = hyb.scorer(facet=facet)
            if "kg-graph" in methods:
                out["kg-graph"] = kg_scorer(G)
        for m in methods:
            if m == "tfidf":
                out["tfidf"] = TfidfScorer(docs)
            elif m == "bm25":
                with stage(f"BM25 index {name}"):
                    out["bm25"] = Bm25Scorer(docs)
            elif m == "random":
                out["random"] = random_scorer(list(docs))
        return out, hyb

    if args.only in (None, "csfcube"):
        with stage("load CSFCube"):
            docs, queries, specter = load_csfcube(args.csfcube, keep_self=args.keep_self)
        scorers, hyb = scorers_for(docs, "csfcube", args.csfcube_graph)
        # CSFCube asks each query about one facet, and kg's ranking takes it
        by_facet: dict[str, dict[str | None, Scorer]] = {n: {None: sc} for n, sc in scorers.items()}
        if hyb is not None and "kg" in scorers:
            by_facet["kg"] = {f: hyb.scorer(facet=f) for f in FACETS}
        rankings = {}
        splits = json.loads((args.csfcube / "evaluation_splits.json").read_text())
        if hyb is not None and ("kg-cv" in methods or args.write_weights):
            cv = cross_validated_hybrid(hyb, queries, splits)
            result["csfcube_cv_weights"] = cv["weights"]
            if "kg-cv" in methods:
                rankings["kg-cv"] = cv["rankings"]
            if args.write_weights:
                write_weights(args.write_weights, cv["weights"]["fold1"])
        with stage("CSFCube ranking"):
            cs = eval_csfcube(
                queries,
                {n: per_facet(fs) for n, fs in by_facet.items()},
                SpecterRanker(specter) if "specter" in methods else None,
                rankings,
            )
        result["csfcube_paired"] = {
            base: {
                name: paired_bootstrap(
                    [r["ndcg%20"] for r in v["per_query"]],
                    [r["ndcg%20"] for r in cs[base]["per_query"]],
                )
                for name, v in cs.items()
                if name.startswith("kg")
            }
            for base in ("tfidf", "specter")
            if base in cs
        }
        result["csfcube"] = cs
        result["csfcube_papers"] = len(docs)
    if args.only in (None, "iclr"):
        with stage("load ICLR 2026"):
            idocs = read_iclr(args.iclr)
        scorers, _ = scorers_for({d.id: d for d in idocs}, "iclr2026", args.iclr_graph)
        with stage("ICLR top-10"):
            result["iclr"] = eval_iclr(idocs, scorers, ["kg-graph"])
        result["iclr_papers"] = len(idocs)

    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print_report(result, per_query=args.per_query)
    return 0


def per_facet(scorers: dict[str | None, Scorer]) -> Callable[[Query], dict[str, float]]:
    """A CSFCube query's scores: from the scorer about its facet, else the one for all."""

    def score(q: Query) -> dict[str, float]:
        return scorers.get(q.facet, scorers.get(None, lambda _: {}))(q.pid)

    return score


def write_weights(path: Path, weights: dict[str, float]) -> None:
    path.write_text(
        json.dumps(
            {
                "learned_on": "CSFCube fold1_dev (24 queries), coordinate ascent on NDCG%20 "
                "(benchmarks/related_quality.py --write-weights)",
                "weights": weights,
            },
            indent=1,
        )
        + "\n"
    )


def print_report(result: dict[str, Any], per_query: bool = False) -> None:
    if "csfcube" in result:
        cs = result["csfcube"]
        print(
            f"CSFCube: {result['csfcube_papers']} papers, 50 queries; NDCG%20 (the published "
            "protocol) / MAP (grade>=2) per facet, then NDCG@20 over all"
        )
        rows = []
        for name, r in cs.items():
            s = r["summary"]
            rows.append(
                [
                    name,
                    *(100 * s[f]["ndcg%20"] for f in (*FACETS, "all")),
                    *(100 * s[f]["map"] for f in (*FACETS, "all")),
                    100 * s["all"]["ndcg@20"],
                ]
            )
        hdr = [
            "method",
            *(f"ndcg%20:{f[:4]}" for f in (*FACETS, "all")),
            *(f"map:{f[:4]}" for f in (*FACETS, "all")),
            "ndcg@20",
        ]
        print(table(rows, hdr))
        for base, by_name in result.get("csfcube_paired", {}).items():
            print()
            print(f"NDCG%20 minus {base} per query (paired bootstrap over the 50 queries):")
            rows = [
                [
                    n,
                    100 * d["mean_diff"],
                    f"[{100 * d['ci95_low']:+.1f}, {100 * d['ci95_high']:+.1f}]",
                    f"{d['wins']}/{d['losses']}/{d['ties']}",
                ]
                for n, d in by_name.items()
            ]
            print(table(rows, ["method", "mean diff", "95% CI", "win/loss/tie"]))
        if "csfcube_cv_weights" in result:
            print()
            for fold, w in result["csfcube_cv_weights"].items():
                print(f"weights learned on {fold}_dev: " + ", ".join(
                    f"{k} {v:g}" for k, v in w.items() if v))
        if per_query:
            names = list(cs)
            pq = [
                [q["facet"][:4], q["query"], *(cs[n]["per_query"][i]["ndcg%20"] for n in names)]
                for i, q in enumerate(cs[names[0]]["per_query"])
            ]
            print()
            print(table(pq, ["facet", "query", *names]))
        print()
    if "iclr" in result:
        print(
            f"ICLR 2026: {result['iclr_papers']} papers, 300 random queries "
            f"(seed {result['seed']}), top 10 excluding the query"
        )
        rows = [
            [n, r["p@10_same_area"], r["kw_jaccard@10"], r["kw_shared@10"], r["mean_returned"]]
            for n, r in result["iclr"].items()
        ]
        print(table(rows, ["method", "P@10 same area", "kw Jaccard", "kw shared", "returned"]))


if __name__ == "__main__":
    raise SystemExit(main())
