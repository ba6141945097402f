"""benchmarks/top_lists.py: the most linked entities of each type, most papers first."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import networkx as nx


def test_top_lists_rank_each_type_by_papers(
    benchmark_module: Callable[[str], ModuleType], seeds_graph: nx.MultiDiGraph
) -> None:
    top_lists = benchmark_module("top_lists")
    tops = top_lists.top_entities(seeds_graph, 5)
    assert set(tops) == {"Method", "Task", "Dataset", "Metric", "Concept"}
    for label, entities in tops.items():
        assert 0 < len(entities) <= 5
        counts = [e["papers"] for e in entities]
        assert counts == sorted(counts, reverse=True)
        assert all(seeds_graph.nodes[e["id"]]["label"] == label for e in entities)
    most = max(
        (a["paper_count"], n)
        for n, a in seeds_graph.nodes(data=True)
        if a["label"] == "Method"
    )
    assert tops["Method"][0]["papers"] == most[0]
