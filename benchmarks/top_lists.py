"""What users see first, for a person to read: the most linked entities of each type, and the
first rows of each aggregate canned query.

Aggregates are dominated by a few high-degree nodes, so this is where noise in the graph
shows. The top lists come from the graph file itself; the canned queries need Neo4j: with
``--uri`` (or ``NEO4J_URI``) and ``--yes`` the graph is loaded there first (``kg load
--replace``: what kg loaded before is replaced) and each aggregate query runs with the example
values of its header.

Usage::

    .venv/bin/python benchmarks/top_lists.py G.json                      # top lists only
    .venv/bin/python benchmarks/top_lists.py G.json --uri bolt://127.0.0.1:7687 --yes
    .venv/bin/python benchmarks/top_lists.py G.json --top 60 --json > lists.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kg.query.explore import graph_stats  # noqa: E402
from kg.store.file import load_graph  # noqa: E402

#: Canned queries whose answer is a ranking over the whole graph (not one paper's view).
AGGREGATE_QUERIES = (
    "most_used_datasets",
    "methods_for_task",
    "tasks_for_method",
    "bridging_concepts",
    "new_benchmarks",
    "co_occurring_methods",
)


def top_entities(G: Any, top: int) -> dict[str, list[dict[str, Any]]]:
    """The ``top`` entities of each type by the number of papers linked to them (``kg stats``'
    ranking, :func:`kg.query.explore.graph_stats`)."""
    return {
        label: [{"name": e["name"], "papers": e["paper_count"], "id": e["id"]} for e in ents]
        for label, ents in graph_stats(G, top)["top_entities"].items()
    }


def query_rows(G: Any, uri: str, rows: int) -> dict[str, Any]:
    """Load ``G`` into the Neo4j at ``uri`` and run each aggregate query."""
    from kg.query.canned import run_query
    from kg.store.neo4j import load_graph_into_neo4j
    from kg.store.neo4j_connection import Neo4jConnection

    with Neo4jConnection.from_env(uri) as conn:
        load_graph_into_neo4j(G, conn, replace=True)
        out = {}
        for name in AGGREGATE_QUERIES:
            result = run_query(conn, name)
            out[name] = {"params": result.params, "rows": result.rows[:rows]}
    return out


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return "; ".join(_cell(v) for v in value[:4]) + (" …" if len(value) > 4 else "")
    return str(value)


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("graph", type=Path, help="a kg graph file")
    ap.add_argument("--top", type=int, default=25, help="entities per type [25]")
    ap.add_argument("--rows", type=int, default=10, help="rows per canned query [10]")
    ap.add_argument("--uri", default=os.environ.get("NEO4J_URI"),
                    help="a Neo4j to run the canned queries on [NEO4J_URI]")
    ap.add_argument("--yes", action="store_true",
                    help="agree that the graph replaces what kg loaded into that Neo4j")
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = ap.parse_args()
    G = load_graph(args.graph)
    report: dict[str, Any] = {"graph": str(args.graph), "top": top_entities(G, args.top)}
    if args.uri and not args.yes:
        print(f"Not loading into {args.uri} without --yes: top lists only.", file=sys.stderr)
    elif args.uri:
        report["queries"] = query_rows(G, args.uri, args.rows)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    for label, ents in report["top"].items():
        print(f"\n## {label}: the {len(ents)} most linked")
        for i, e in enumerate(ents, 1):
            print(f"{i:3}. {e['name']}  ({e['papers']} papers)")
    for name, answer in report.get("queries", {}).items():
        print(f"\n## {name} {json.dumps(answer['params'], ensure_ascii=False)}")
        for row in answer["rows"]:
            print("  - " + " | ".join(f"{k}: {_cell(v)}" for k, v in row.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
