"""The canned query rising_methods against `kg trends` on a graph of two years, in a real Neo4j.

(The seeds are all of one year, so the canned-query checks of test_neo4j_queries.py see no
trend: this graph has some.)"""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from kg.query.canned import run_query
from kg.store.neo4j import load_graph_into_neo4j
from tests.integration.test_neo4j_queries import rising_methods

pytestmark = pytest.mark.neo4j


def two_years() -> nx.MultiDiGraph:
    """2018: 4 papers, 2026: 8. GRPO rises (0 -> 5 papers), PPO less (1 -> 3), ViT stays at a
    quarter of the papers, GAN falls."""
    G = nx.MultiDiGraph()
    uses = {
        2018: [["GAN"], ["GAN", "ViT"], ["GAN"], ["PPO"]],
        2026: [["GRPO"], ["GRPO", "ViT"], ["GRPO", "PPO"], ["GRPO", "ViT"], ["PPO"],
               ["GRPO", "PPO"], ["GAN"], ["GAN"]],
    }
    for year, papers in uses.items():
        for i, methods in enumerate(papers):
            pid = f"p{year}-{i}"
            G.add_node(pid, label="Paper", title=pid, year=year, abstract=f"Paper {pid}.")
            for m in methods:
                mid = f"method:{m.lower()}"
                G.add_node(mid, label="Method", name=m, paper_count=0)
                G.add_edge(pid, mid, key="USES", type="USES")
    for n, a in G.nodes(data=True):
        if a["label"] == "Method":
            a["paper_count"] = G.in_degree(n)
    return G


def test_rising_methods_matches_kg_trends(empty_db: Any) -> None:
    G = two_years()
    load_graph_into_neo4j(G, empty_db)
    result = run_query(empty_db, "rising_methods", {"min_papers": 1, "top": 10})
    got = [(r["method"], r["papers_first"], r["papers_last"], r["share_first"], r["share_last"])
           for r in result.rows]
    expected = rising_methods(G, 1, 10)
    assert [m for m, *_ in expected] == ["GRPO", "PPO"]  # the graph is what it says
    assert got == expected
    # a threshold above what PPO reaches in any year leaves GRPO alone
    above = run_query(empty_db, "rising_methods", {"min_papers": 4, "top": 10})
    assert [r["method"] for r in above.rows] == ["GRPO"]
    assert [m for m, *_ in rising_methods(G, 4, 10)] == ["GRPO"]
