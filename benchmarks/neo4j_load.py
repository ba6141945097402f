"""Neo4j load throughput: kg's batched ``UNWIND $rows … MERGE`` loader against a naive
one-row-per-transaction ``MERGE`` baseline, in the same run, on the same server.

The graph is a graph file (``--graph``, e.g. the ICLR 2026 build) or a synthetic one with the
contract's shape (``--papers``: papers linked to Zipf-popular methods, tasks, datasets, metrics
and concepts; about 8 relationships per paper). The batched loader writes the whole graph; the
baseline runs the very same loader and statements with one row per transaction
(``batch_size=1``: one ``MERGE`` per managed transaction) on a sample of the graph
(``--baseline-rows``: the first papers with their entities) on an empty database first. Both
report rows/s; the ratio is batched / baseline.

Usage (a server from ``scripts/neo4j-test-server start`` or ``docker compose up -d --wait``)::

    .venv/bin/python benchmarks/neo4j_load.py --uri bolt://127.0.0.1:7687 --papers 13000
    .venv/bin/python benchmarks/neo4j_load.py --graph exports/iclr2026.json --json

The database is wiped first (it is a benchmark server): pass --yes to confirm.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.schema import DEFAULT_ROLE, ENTITY_LABELS, Label, Rel, entity_id  # noqa: E402
from kg.store.neo4j import load_graph_into_neo4j  # noqa: E402
from kg.store.neo4j_connection import Neo4jConnection  # noqa: E402

SEED = 20261129
#: Entities per label for a synthetic graph of n papers, and links per paper.
ENTITY_SHARE = {
    Label.METHOD: 0.6,
    Label.TASK: 0.3,
    Label.DATASET: 0.2,
    Label.METRIC: 0.02,
    Label.CONCEPT: 0.5,
}
LINKS = {Label.METHOD: 2, Label.TASK: 2, Label.DATASET: 1, Label.METRIC: 1, Label.CONCEPT: 2}


def synthetic_graph(n_papers: int, seed: int = SEED) -> nx.MultiDiGraph:
    """A graph of the contract's shape with Zipf-like entity popularity."""
    rng = random.Random(seed)
    G = nx.MultiDiGraph(kg_format=1)
    pools: dict[Label, list[str]] = {}
    for label in ENTITY_LABELS:
        count = max(5, int(n_papers * ENTITY_SHARE[label]))
        pools[label] = [entity_id(label, f"{label.value.lower()}-{i}") for i in range(count)]
        for i, eid in enumerate(pools[label]):
            G.add_node(
                eid, label=label.value, name=f"{label.value} {i}", aliases=[f"E{i}"], paper_count=0
            )
    for p in range(n_papers):
        pid = f"paper:{p:016x}"
        G.add_node(
            pid,
            label="Paper",
            name=f"Paper {p}",
            display_name=f"Paper {p}",
            title=f"A synthetic paper number {p}",
            abstract="word " * 150,
            venue="Synth",
            year=2026,
            keywords=["k1", "k2"],
            authors=["A. Author"],
            primary_area="",
            url="",
            source=f"synthetic:{p}",
        )
        for label, k in LINKS.items():
            pool = pools[label]
            for _ in range(k):
                eid = pool[
                    min(int(rng.paretovariate(1.2)) - 1, len(pool) - 1)
                    if rng.random() < 0.5
                    else rng.randrange(len(pool))
                ]
                if G.has_edge(pid, eid):
                    continue
                rel = Rel.PROPOSES if rng.random() < 0.03 else DEFAULT_ROLE[label]
                G.add_edge(
                    pid,
                    eid,
                    key=rel.value,
                    type=rel.value,
                    evidence=f"Paper {p} uses {eid} in a sentence.",
                    start=10,
                    end=20,
                    confidence=0.8,
                    count=1,
                )
    for n in pools.values():
        for eid in n:
            G.nodes[eid]["paper_count"] = G.in_degree(eid)
    G.remove_nodes_from([n for n in list(G) if G.degree(n) == 0])
    return G


def sample(G: nx.MultiDiGraph, rows: int) -> nx.MultiDiGraph:
    """The first papers (by id) with their entities, about ``rows`` nodes + relationships."""
    keep: set[str] = set()
    edges = 0
    for p in sorted(n for n, a in G.nodes(data=True) if a["label"] == "Paper"):
        new = {p, *G.successors(p)} - keep
        keep |= new
        edges += G.out_degree(p)
        if len(keep) + edges >= rows:
            break
    return G.subgraph(keep).copy()


def baseline(conn: Neo4jConnection, G: nx.MultiDiGraph, rows: int) -> tuple[int, float]:
    """The same loader and statements, one row per transaction, on a sample of the graph."""
    S = sample(G, rows)
    summary = load_graph_into_neo4j(S, conn, batch_size=1)
    return S.number_of_nodes() + S.number_of_edges(), summary.seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uri", default=None, help="Bolt URI [env NEO4J_URI]")
    ap.add_argument("--user", default=None)
    ap.add_argument("--password", default=None)
    ap.add_argument("--graph", type=Path, help="a graph file instead of a synthetic graph")
    ap.add_argument("--papers", type=int, default=13000, help="synthetic graph size")
    ap.add_argument("--batch-size", type=int, default=5000)
    ap.add_argument("--baseline-rows", type=int, default=2000)
    ap.add_argument("--yes", action="store_true", help="wipe the database without asking")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not args.yes:
        ap.error("this wipes the database first; pass --yes")

    if args.graph:
        from kg.store.file import load_graph

        G, source = load_graph(args.graph), str(args.graph)
    else:
        G, source = synthetic_graph(args.papers), f"synthetic ({args.papers} papers)"
    rows_total = G.number_of_nodes() + G.number_of_edges()

    with Neo4jConnection.from_env(args.uri, args.user, args.password) as conn:
        _wipe(conn)
        # Baseline first, on an empty database; then wipe and load everything batched.
        base_rows, base_s = baseline(conn, G, args.baseline_rows)
        base_rate = base_rows / base_s
        _wipe(conn)
        summary = load_graph_into_neo4j(G, conn, batch_size=args.batch_size)
        batched_rate = rows_total / summary.seconds
    result: dict[str, Any] = {
        "graph": source,
        "nodes": G.number_of_nodes(),
        "relationships": G.number_of_edges(),
        "batch_size": args.batch_size,
        "batched": {
            "rows": rows_total,
            "seconds": round(summary.seconds, 2),
            "rows_per_s": round(batched_rate),
            "nodes_per_s": round(G.number_of_nodes() / summary.seconds),
        },
        "baseline": {
            "rows": base_rows,
            "seconds": round(base_s, 2),
            "rows_per_s": round(base_rate, 1),
        },
        "ratio": round(batched_rate / base_rate, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"graph: {source}: {result['nodes']} nodes, {result['relationships']} relationships")
        print(
            f"batched (UNWIND, {args.batch_size}/tx): {rows_total} rows in "
            f"{summary.seconds:.1f}s = {batched_rate:,.0f} rows/s"
        )
        print(
            f"baseline (1 MERGE/tx):    {base_rows} rows in {base_s:.1f}s = {base_rate:,.1f} rows/s"
        )
        print(f"ratio: {result['ratio']}x  (target: at least 20x)")
    return 0


def _wipe(conn: Neo4jConnection) -> None:
    # Small deletes so a big leftover graph does not need one huge transaction.
    while conn.write("MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS c")[0]["c"]:
        pass


if __name__ == "__main__":
    sys.exit(main())
