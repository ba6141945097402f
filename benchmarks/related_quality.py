"""Related-paper quality of `kg related` against real judgments and baselines, in one run.

Two evaluations (issue 6):

* **CSFCube** (expert judgments, 50 faceted queries): each query's *judged pool* (the
  candidates in ``test-pid2anns-csfcube-{facet}.json``, minus the query itself) is ranked by
  every method; NDCG@20 (adjudicated grade 0-3 as linear gain, ideal from the judged pool) and
  MAP (grade >= 2 relevant) are reported per facet and overall (mean over the 50 queries).
* **ICLR 2026** (no judgments): for 300 random query papers (fixed seed), over the whole
  corpus minus the query: P@10 of "same primary_area" and mean author-keyword overlap of the
  top 10 (Jaccard of the lower-cased keyword sets, keywords equal to a primary-area name
  dropped; also the mean number of shared keywords).

Methods: ``kg`` (kg.related's score on a graph built from the same papers; papers sharing no
entity score 0; ties broken by paper id ascending, i.e. arbitrarily but deterministically),
``tfidf`` (scikit-learn cosine on title + abstract), ``bm25`` (rank-bm25 Okapi, the query's
title + abstract as the query), ``specter`` (the shipped CSFCube rankings; CSFCube only),
``random`` (seeded shuffle). ``--variants`` adds prototype re-rankers (see VARIANTS) computed
from the same kg graph — experiments for improving kg.related, not shipped code.

Usage::

    .venv/bin/python benchmarks/related_quality.py                 # both evaluations, table
    .venv/bin/python benchmarks/related_quality.py --only csfcube --methods tfidf,bm25,specter
    .venv/bin/python benchmarks/related_quality.py --json > quality.json
"""

from __future__ import annotations

import argparse
import csv
import json
import math
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
    precision_at_k,
)

FACETS = ("background", "method", "result")
SEED = 20261129
ALL_METHODS = ("kg", "tfidf", "bm25", "specter", "random")

# A ranker gets the query id and the candidate ids (sorted) and returns them best first.
Ranker = Callable[[str, Sequence[str]], list[str]]


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
        # by default. keep_self=True reproduces the reference figures: SPECTER's file
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


# =========================================================================== baselines


def rank_by_scores(cands: Sequence[str], score: Callable[[str], float]) -> list[str]:
    """Candidates by score descending, ties by id ascending (deterministic)."""
    return sorted(cands, key=lambda c: (-score(c), c))


class TfidfRanker:
    """Cosine similarity of TF-IDF vectors of title + abstract, fitted on the whole corpus."""

    def __init__(self, docs: dict[str, Doc], **kwargs: Any) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.ids = sorted(docs)
        self.index = {d: i for i, d in enumerate(self.ids)}
        # sublinear tf matters (+0.08 NDCG@20); English stop-word removal costs ~0.004 here.
        params: dict[str, Any] = {"sublinear_tf": True}
        params.update(kwargs)
        self.vec = TfidfVectorizer(**params)
        self.X = self.vec.fit_transform([docs[i].text for i in self.ids])  # rows L2-normalised

    def scores(self, qid: str, cands: Sequence[str]) -> dict[str, float]:
        q = self.X[self.index[qid]]
        rows = self.X[[self.index[c] for c in cands]]
        sims = (rows @ q.T).toarray().ravel()
        return dict(zip(cands, sims.tolist(), strict=True))

    def top_k(self, qid: str, k: int) -> list[str]:
        """Top-k over the whole corpus, the query excluded."""
        sims = (self.X @ self.X[self.index[qid]].T).toarray().ravel()
        order = sorted(range(len(self.ids)), key=lambda i: (-sims[i], self.ids[i]))
        return [self.ids[i] for i in order if self.ids[i] != qid][:k]

    def __call__(self, qid: str, cands: Sequence[str]) -> list[str]:
        s = self.scores(qid, cands)
        return rank_by_scores(cands, s.__getitem__)


_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased word tokens minus English stop words (scikit-learn's list)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return [t for t in _TOKEN.findall(text.lower()) if t not in ENGLISH_STOP_WORDS]


class Bm25Ranker:
    """BM25 Okapi (rank-bm25) with the query paper's title + abstract as the query."""

    def __init__(self, docs: dict[str, Doc]) -> None:
        from rank_bm25 import BM25Okapi

        self.ids = sorted(docs)
        self.index = {d: i for i, d in enumerate(self.ids)}
        self.tokens = [bm25_tokens(docs[i].text) for i in self.ids]
        self.bm25 = BM25Okapi(self.tokens)

    def __call__(self, qid: str, cands: Sequence[str]) -> list[str]:
        sims = self.bm25.get_batch_scores(
            self.tokens[self.index[qid]], [self.index[c] for c in cands]
        )
        s = dict(zip(cands, map(float, sims), strict=True))
        return rank_by_scores(cands, s.__getitem__)


class SpecterRanker:
    """The shipped SPECTER rankings; pool members it did not rank go last (by id)."""

    def __init__(self, ranked: dict[tuple[str, str], list[str]]) -> None:
        self.ranked = ranked

    def __call__(self, qid: str, cands: Sequence[str], facet: str = "") -> list[str]:
        order = {c: i for i, c in enumerate(self.ranked.get((facet, qid), []))}
        return sorted(cands, key=lambda c: (order.get(c, len(order)), c))


def random_ranker(seed: int = SEED) -> Ranker:
    def rank(qid: str, cands: Sequence[str]) -> list[str]:
        out = sorted(cands)
        random.Random(f"{seed}:{qid}").shuffle(out)
        return out

    return rank


# =========================================================================== kg


def build_kg_graph(docs: Sequence[Doc], workdir: Path, cache_dir: Path | None = None) -> Any:
    """Build a kg graph from ``docs`` through the lead's library function (kg.build.build)."""
    import kg.build as kb

    jsonl = write_jsonl(docs, workdir / "papers.jsonl")
    build = getattr(kb, "build", None) or kb.build_graph
    result = build([jsonl], cache_dir=cache_dir) if cache_dir else build([jsonl])
    if result.problems:
        print(
            f"kg build: {len(result.problems)} problems, e.g. {result.problems[0]}", file=sys.stderr
        )
    return result.graph


class KgRanker:
    """kg.related's score; papers sharing nothing score 0; ties by id ascending."""

    def __init__(self, G: Any) -> None:
        from kg.related import related_papers

        self.G = G
        self._related = related_papers
        self._cache: dict[str, dict[str, float]] = {}

    def scores(self, qid: str) -> dict[str, float]:
        if qid not in self._cache:
            if qid not in self.G:
                self._cache[qid] = {}
            else:
                res = self._related(self.G, qid, k=None)
                self._cache[qid] = {r.id: float(r.score) for r in res}
        return self._cache[qid]

    def __call__(self, qid: str, cands: Sequence[str]) -> list[str]:
        s = self.scores(qid)
        return rank_by_scores(cands, lambda c: s.get(c, 0.0))

    def top_k(self, qid: str, k: int) -> list[str]:
        s = self.scores(qid)
        ranked = sorted((c for c in s if c != qid), key=lambda c: (-s[c], c))
        return ranked[:k]


# --------------------------------------------------------------------------- prototypes
# Variants of kg's relatedness built from the same graph, to find what would close the gap to
# the text baselines. Each is a function (qid, cands) -> ranking, built by make_variants().


def paper_entities(G: Any) -> dict[str, dict[str, tuple[str, int]]]:
    """paper id -> {entity id: (label, mention count)} from the Paper -> entity edges."""
    from kg.schema import LABEL_ATTR, Label

    out: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for u, v, data in G.edges(data=True):
        if G.nodes[u].get(LABEL_ATTR) == Label.PAPER.value:
            out[u][v] = (G.nodes[v].get(LABEL_ATTR, ""), int(data.get("count", 1) or 1))
    return out


def make_variants(G: Any, docs: dict[str, Doc], tfidf: TfidfRanker) -> dict[str, Ranker]:
    """Prototype re-rankers (see the module docstring); names say what they do."""
    from kg.schema import TYPE_WEIGHT, Label

    ents = paper_entities(G)
    n_papers = max(1, len(ents))
    df: dict[str, int] = defaultdict(int)
    for es in ents.values():
        for e in es:
            df[e] += 1
    tw = {lab.value: w for lab, w in TYPE_WEIGHT.items()}
    label_of = {e: lab for es in ents.values() for e, (lab, _) in es.items()}

    def v1(p: str, q: str) -> float:
        shared = ents.get(p, {}).keys() & ents.get(q, {}).keys()
        return sum(
            tw.get(label_of[e], 0.5) / math.log(1 + max(1, G.nodes[e].get("paper_count", df[e])))
            for e in shared
        )

    def vec(p: str) -> dict[str, float]:
        # IDF-weighted entity vector (type weight x log idf), L2-normalised
        v = {
            e: tw.get(lab, 0.5) * math.log((1 + n_papers) / (1 + df[e]))
            for e, (lab, _) in ents.get(p, {}).items()
        }
        n = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {e: x / n for e, x in v.items()}

    vcache: dict[str, dict[str, float]] = {}

    def cos(p: str, q: str) -> float:
        a = vcache.setdefault(p, vec(p))
        b = vcache.setdefault(q, vec(q))
        if len(a) > len(b):
            a, b = b, a
        return sum(x * b.get(e, 0.0) for e, x in a.items())

    def no_concept_v1(p: str, q: str) -> float:
        shared = ents.get(p, {}).keys() & ents.get(q, {}).keys()
        return sum(
            tw.get(label_of[e], 0.5) / math.log(1 + max(1, df[e]))
            for e in shared
            if label_of[e] != Label.CONCEPT.value
        )

    def hybrid(graph_score: Callable[[str, str], float], alpha: float) -> Ranker:
        # alpha * graph score (max-normalised over the pool) + (1 - alpha) * TF-IDF cosine
        def rank(qid: str, cands: Sequence[str]) -> list[str]:
            t = tfidf.scores(qid, cands)
            g = {c: graph_score(qid, c) for c in cands}
            gmax = max(g.values(), default=0.0) or 1.0
            tmax = max(t.values(), default=0.0) or 1.0
            return rank_by_scores(cands, lambda c: alpha * g[c] / gmax + (1 - alpha) * t[c] / tmax)

        return rank

    def plain(score: Callable[[str, str], float]) -> Ranker:
        def rank(qid: str, cands: Sequence[str]) -> list[str]:
            s = {c: score(qid, c) for c in cands}
            return rank_by_scores(cands, s.__getitem__)

        return rank

    def tiebreak_tfidf(score: Callable[[str, str], float]) -> Ranker:
        def rank(qid: str, cands: Sequence[str]) -> list[str]:
            t = tfidf.scores(qid, cands)
            return sorted(cands, key=lambda c: (-round(score(qid, c), 6), -t[c], c))

        return rank

    return {
        "kg-v1-tfidf-ties": tiebreak_tfidf(v1),
        "kg-no-concepts": plain(no_concept_v1),
        "kg-cosine": plain(cos),
        "hyb-v1-0.3": hybrid(v1, 0.3),
        "hyb-v1-0.5": hybrid(v1, 0.5),
        "hyb-cos-0.3": hybrid(cos, 0.3),
        "hyb-cos-0.5": hybrid(cos, 0.5),
    }


# =========================================================================== evaluations


def eval_csfcube(queries: Sequence[Query], rankers: dict[str, Ranker]) -> dict[str, Any]:
    """Per-method, per-facet and overall NDCG@20 / MAP, plus per-query values."""
    out: dict[str, Any] = {}
    for name, rank in rankers.items():
        per_query = []
        for q in queries:
            cands = sorted(q.grades)
            if isinstance(rank, SpecterRanker):  # its rankings are per (facet, query)
                ranking = rank(q.pid, cands, facet=q.facet)
            else:
                ranking = rank(q.pid, cands)
            assert sorted(ranking) == cands, f"{name} did not return the pool for {q.pid}"
            per_query.append(
                {
                    "query": q.pid,
                    "facet": q.facet,
                    "ndcg@20": ndcg_at_k(ranking, q.grades, 20),
                    "map": average_precision(ranking, q.grades, 2),
                }
            )
        summary: dict[str, dict[str, float]] = {}
        for facet in (*FACETS, "all"):
            rows = [r for r in per_query if facet in ("all", r["facet"])]
            summary[facet] = {
                "ndcg@20": mean([r["ndcg@20"] for r in rows]),
                "map": mean([r["map"] for r in rows]),
                "n": len(rows),
            }
        out[name] = {"summary": summary, "per_query": per_query}
    return out


def keyword_set(d: Doc, areas: set[str]) -> set[str]:
    return {k.lower() for k in d.keywords} - areas


def eval_iclr(
    docs: list[Doc],
    top_k: dict[str, Callable[[str, int], list[str]]],
    n_queries: int = 300,
    k: int = 10,
) -> dict[str, Any]:
    """P@10 same primary_area and keyword overlap of the top 10 over the whole corpus."""
    by_id = {d.id: d for d in docs}
    areas = {d.primary_area.lower() for d in docs}
    kws = {d.id: keyword_set(d, areas) for d in docs}
    qids = random.Random(SEED).sample(sorted(by_id), n_queries)
    out: dict[str, Any] = {}
    for name, fn in top_k.items():
        p_at_k, jacc, shared_n, returned = [], [], [], []
        for qid in qids:
            top = [c for c in fn(qid, k) if c != qid][:k]
            returned.append(len(top))
            q = by_id[qid]
            p_at_k.append(precision_at_k([by_id[c].primary_area == q.primary_area for c in top], k))
            for c in top:
                a, b = kws[qid], kws[c]
                jacc.append(len(a & b) / len(a | b) if a | b else 0.0)
                shared_n.append(len(a & b))
            # missing results (fewer than k) count as zero overlap
            jacc.extend([0.0] * (k - len(top)))
            shared_n.extend([0] * (k - len(top)))
        out[name] = {
            "p@10_same_area": mean(p_at_k),
            "kw_jaccard@10": mean(jacc),
            "kw_shared@10": mean(shared_n),
            "mean_returned": mean(returned),
        }
    return out


def random_top_k(ids: Sequence[str]) -> Callable[[str, int], list[str]]:
    ids = sorted(ids)

    def top(qid: str, k: int) -> list[str]:
        rng = random.Random(f"{SEED}:{qid}")
        return rng.sample([i for i in ids if i != qid], k)

    return top


# =========================================================================== main


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--csfcube", type=Path, default=DEFAULT_CSFCUBE)
    ap.add_argument("--iclr", type=Path, default=DEFAULT_ICLR)
    ap.add_argument("--methods", default=",".join(ALL_METHODS))
    ap.add_argument("--only", choices=("csfcube", "iclr"), help="run one evaluation")
    ap.add_argument("--variants", action="store_true", help="also run prototype kg variants")
    ap.add_argument("--iclr-graph", type=Path, help="reuse a built ICLR graph (node-link JSON)")
    ap.add_argument("--csfcube-graph", type=Path, help="reuse a built CSFCube graph")
    ap.add_argument("--cache-dir", type=Path, help="kg extraction cache (faster re-runs)")
    ap.add_argument("--save-graphs", type=Path, help="directory to save the graphs built here")
    ap.add_argument(
        "--keep-self", action="store_true", help="keep a query in its own judged pool (as judged)"
    )
    ap.add_argument("--per-query", action="store_true", help="print per-query NDCG@20")
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = ap.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = set(methods) - set(ALL_METHODS)
    if unknown:
        ap.error(f"unknown methods: {sorted(unknown)}")
    result: dict[str, Any] = {"seed": SEED}

    def get_graph(docs: Sequence[Doc], saved: Path | None, name: str) -> Any:
        from kg.store.file import load_graph, save_graph

        if saved:
            return load_graph(saved)
        with tempfile.TemporaryDirectory() as tmp, stage(f"kg build {name} ({len(docs)} papers)"):
            G = build_kg_graph(docs, Path(tmp), args.cache_dir)
        if args.save_graphs:
            save_graph(G, args.save_graphs / f"{name}.json")
        return G

    if args.only in (None, "csfcube"):
        with stage("load CSFCube"):
            docs, queries, specter = load_csfcube(args.csfcube, keep_self=args.keep_self)
        rankers: dict[str, Ranker] = {}
        tfidf = TfidfRanker(docs)
        for m in methods:
            if m == "tfidf":
                rankers[m] = tfidf
            elif m == "bm25":
                with stage("BM25 index"):
                    rankers[m] = Bm25Ranker(docs)
            elif m == "specter":
                rankers[m] = SpecterRanker(specter)
            elif m == "random":
                rankers[m] = random_ranker()
            elif m == "kg":
                G = get_graph([docs[i] for i in sorted(docs)], args.csfcube_graph, "csfcube")
                rankers[m] = KgRanker(G)
                if args.variants:
                    rankers.update(make_variants(G, docs, tfidf))
        with stage("CSFCube ranking"):
            result["csfcube"] = eval_csfcube(queries, rankers)
        result["csfcube_papers"] = len(docs)
    if args.only in (None, "iclr"):
        with stage("load ICLR 2026"):
            idocs = read_iclr(args.iclr)
        top_fns: dict[str, Callable[[str, int], list[str]]] = {}
        for m in methods:
            if m == "tfidf":
                top_fns[m] = TfidfRanker({d.id: d for d in idocs}).top_k
            elif m == "random":
                top_fns[m] = random_top_k([d.id for d in idocs])
            elif m == "kg":
                G = get_graph(idocs, args.iclr_graph, "iclr2026")
                missing = sum(1 for d in idocs if d.id not in G)
                if missing:
                    print(f"warning: {missing} ICLR ids are not graph nodes", file=sys.stderr)
                top_fns[m] = KgRanker(G).top_k
        with stage("ICLR top-10"):
            result["iclr"] = eval_iclr(idocs, top_fns)
        result["iclr_papers"] = len(idocs)

    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print_report(result, per_query=args.per_query)
    return 0


def print_report(result: dict[str, Any], per_query: bool = False) -> None:
    if "csfcube" in result:
        cs = result["csfcube"]
        print(
            f"CSFCube: {result['csfcube_papers']} papers, 50 queries; "
            "NDCG@20 (linear gain, judged pool) / MAP (grade>=2)"
        )
        rows = []
        for name, r in cs.items():
            s = r["summary"]
            rows.append(
                [
                    name,
                    *(s[f]["ndcg@20"] for f in (*FACETS, "all")),
                    *(s[f]["map"] for f in (*FACETS, "all")),
                ]
            )
        hdr = [
            "method",
            *(f"ndcg:{f[:4]}" for f in (*FACETS, "all")),
            *(f"map:{f[:4]}" for f in (*FACETS, "all")),
        ]
        print(table(rows, hdr))
        if per_query:
            names = list(cs)
            pq = [
                [q["facet"][:4], q["query"], *(cs[n]["per_query"][i]["ndcg@20"] for n in names)]
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
