"""The rows `kg leaderboard` draws from, for a person to judge: every result on each of the
benchmarks with the most results, one tab-separated line each.

A leaderboard is only as good as each row's value, dataset, metric and method, and a few
benchmarks (GSM8K, ImageNet, AIME ...) hold most of the rows users read. ``--dump`` writes the
rows of the ``--top`` benchmarks (by number of results) with their sentences, for a judge who
sees nothing else; ``--score`` reads the judge's verdicts back (``n<TAB>right|wrong ...``, the
first column of the dump's line) and counts them. Rows are keyed by (benchmark, value,
sentence), so ``--score`` can also count the rows of another graph that a judged dump already
holds (``--graph``), leaving the new ones to judge.

Usage::

    .venv/bin/python benchmarks/leaderboard_rows.py G.json --top 20 --dump rows.tsv
    .venv/bin/python benchmarks/leaderboard_rows.py G.json --dump rows.tsv --score verdicts.tsv
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx  # noqa: E402

from kg.query.results import result_row, results_of  # noqa: E402
from kg.schema import TYPE_ATTR, ResultRel  # noqa: E402
from kg.store.file import load_graph  # noqa: E402

COLUMNS = ("n", "benchmark", "value", "kind", "metric", "method", "sentence")


def top_benchmarks(G: nx.MultiDiGraph, top: int) -> list[str]:
    """The ids of the ``top`` datasets with the most results on them (ties by id)."""
    on = Counter(v for _, v, t in G.edges(data=TYPE_ATTR) if t == ResultRel.ON_DATASET.value)
    return [d for d, _ in sorted(on.items(), key=lambda x: (-x[1], x[0]))[:top]]


def rows(G: nx.MultiDiGraph, benchmarks: list[str]) -> list[dict[str, str]]:
    """One row per result on each of ``benchmarks``, sorted by benchmark, sentence and value."""
    out = []
    for did in benchmarks:
        for rid in results_of(G, did):  # (a dataset's: its Result nodes only)
            r = result_row(G, rid)
            out.append({
                "benchmark": G.nodes[did].get("name", did),
                "value": str(r["value"]),
                "kind": "relative" if r["relative"] else "absolute",
                "metric": r["metric"] or "",
                "method": r["method"] or "",
                "sentence": " ".join(r["evidence"].split()),
            })  # fmt: skip
    out.sort(key=lambda r: (r["benchmark"], r["sentence"], r["value"]))
    return out


def key(row: dict[str, str]) -> tuple[str, str, str]:
    return row["benchmark"], row["value"], row["sentence"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", type=Path, help="a graph file written by `kg build`")
    ap.add_argument("--top", type=int, default=20, help="benchmarks with the most results")
    ap.add_argument("--dump", type=Path, required=True, help="the rows, judged or to judge")
    ap.add_argument("--score", type=Path, help="verdicts on --dump's rows: count this graph's")
    args = ap.parse_args()
    G = load_graph(args.graph)
    if args.score is None:
        found = rows(G, top_benchmarks(G, args.top))
        with args.dump.open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            for n, r in enumerate(found, 1):
                w.writerow([n, *(r[c] for c in COLUMNS[1:])])
        print(f"{len(found)} rows of {args.top} benchmarks -> {args.dump}")
        return
    with args.dump.open(encoding="utf-8") as f:
        dumped = {(r[1], r[2], r[6]): r[0] for r in csv.reader(f, delimiter="\t")}
    with args.score.open(encoding="utf-8") as f:
        verdict = {r[0]: r[1] for r in csv.reader(f, delimiter="\t") if r and r[0].isdigit()}
    benchmarks = {b for b, _, _ in dumped}
    ids = [d for d, a in G.nodes(data=True) if a.get("name") in benchmarks]
    counts = Counter(verdict.get(dumped.get(key(r), ""), "not judged") for r in rows(G, ids))
    print(f"{sum(counts.values())} rows on the dump's {len(benchmarks)} benchmarks:", dict(counts))


if __name__ == "__main__":
    main()
