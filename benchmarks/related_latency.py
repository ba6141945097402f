"""End-to-end latency of `kg related` on a built graph: process start to output, p50/p95.

Each of the 50 queries is a fresh ``kg related "<title>" --graph PATH`` subprocess (what a user
waits for), over paper titles picked at random (fixed seed) from the graph, after a first call
that prepares the graph's text index (timed apart). For context the
script also times, once each: a bare ``python -c pass`` start, ``import kg.cli`` alone, and the
in-process ``load_graph`` + ``related_papers`` calls, so a slow p50 can be attributed.

Usage::

    .venv/bin/python benchmarks/related_latency.py --graph exports/iclr2026.json
    .venv/bin/python benchmarks/related_latency.py --graph G.json -n 20 --json
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import REPO_ROOT, Timer, compile_kg_bytecode, percentile, table  # noqa: E402

PY = sys.executable
KG_BIN = Path(PY).with_name("kg")
SEED = 20261129


def wall(argv: Sequence[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    t0 = time.perf_counter()
    p = subprocess.run(list(argv), capture_output=True, text=True, cwd=REPO_ROOT)
    return time.perf_counter() - t0, p


def graph_option() -> str:
    """The option `kg related` uses for the graph file (``--graph`` unless its help says else)."""
    p = subprocess.run([str(KG_BIN), "related", "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"`kg related --help` failed: {p.stderr.strip() or p.stdout.strip()}")
    for opt in ("--graph", "--graph-file", "-g"):
        if opt in p.stdout:
            return opt
    raise SystemExit("`kg related` has no --graph option; cannot point it at a graph file")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--graph", type=Path, required=True, help="graph file (node-link JSON)")
    ap.add_argument("-n", type=int, default=50, help="number of queries (default 50)")
    ap.add_argument("-k", type=int, default=10, help="results per query (default 10)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT))
    print(compile_kg_bytecode(), file=sys.stderr)
    from kg.schema import LABEL_ATTR, Label
    from kg.store.file import load_graph

    with Timer() as t_load:
        G = load_graph(args.graph)
    papers = sorted(
        n
        for n, d in G.nodes(data=True)
        if d.get(LABEL_ATTR) == Label.PAPER.value and d.get("title")
    )
    if not papers:
        raise SystemExit(f"{args.graph}: no paper with a title")
    picks = random.Random(SEED).sample(papers, min(args.n, len(papers)))
    opt = graph_option()

    from kg.query.related import related_papers

    with Timer() as t_rel:
        for pid in picks:
            related_papers(G, pid, k=args.k)
    t_start, _ = wall([PY, "-c", "pass"])
    t_import, _ = wall([PY, "-c", "import kg.cli"])

    # The first call on a graph file prepares its text index (kg.query.text_index): timed apart,
    # as a user meets it once per graph.
    first = G.nodes[picks[0]]["title"]
    t_first, _ = wall([str(KG_BIN), "related", first, opt, str(args.graph), "-k", str(args.k)])
    # Each query also runs with --ranking graph right after, a baseline in the same minute:
    # the shared machine's load moves both alike.
    times: list[float] = []
    graph_times: list[float] = []
    failures: list[str] = []
    for pid in picks:
        title = G.nodes[pid]["title"]
        command = [str(KG_BIN), "related", title, opt, str(args.graph), "-k", str(args.k)]
        for series, extra in ((times, []), (graph_times, ["--ranking", "graph"])):
            secs, p = wall(command + extra)
            series.append(secs)
            if p.returncode != 0:
                failures.append(f"{title[:60]!r}: {(p.stderr or p.stdout).strip()[:200]}")
    result: dict[str, Any] = {
        "graph": str(args.graph),
        "nodes": G.number_of_nodes(),
        "papers": len(papers),
        "queries": len(times),
        "first_call_s": t_first,
        "p50_s": percentile(times, 50),
        "p95_s": percentile(times, 95),
        "max_s": max(times),
        "graph_ranking_p50_s": percentile(graph_times, 50),
        "graph_ranking_p95_s": percentile(graph_times, 95),
        "failures": failures,
        "context": {
            "python_start_s": t_start,
            "import_kg_cli_s": t_import,
            "load_graph_in_process_s": t_load.seconds,
            "related_papers_mean_in_process_s": t_rel.seconds / len(picks),
        },
    }
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print(f"graph {args.graph}: {result['nodes']} nodes, {result['papers']} papers")
        print(f"first call (prepares the text index): {result['first_call_s']:.2f} s")
        rows = [
            ["kg related (CLI, end to end)", result["p50_s"], result["p95_s"], result["max_s"]],
            ["  --ranking graph", result["graph_ranking_p50_s"], result["graph_ranking_p95_s"],
             max(graph_times)],
        ]
        print(table(rows, [f"{len(times)} queries", "p50 s", "p95 s", "max s"]))
        c = result["context"]
        print(
            f"context: python start {c['python_start_s']:.3f}s, import kg.cli "
            f"{c['import_kg_cli_s']:.3f}s, load_graph {c['load_graph_in_process_s']:.3f}s, "
            f"related_papers {c['related_papers_mean_in_process_s'] * 1000:.1f} ms/query"
        )
        for f in failures:
            print(f"FAILED {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
