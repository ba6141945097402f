"""kg's Louvain gives networkx's communities (topics depend on it: the same graph file)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from kg.graph.louvain import louvain_communities


def _random_graph(trial: int) -> tuple[int, list[int], list[int], list[float]]:
    """Nodes and edges of every shape topics meet and some they do not: sparse and dense,
    unit and float weights, a few self-loops, edges given in sorted or shuffled order."""
    r = random.Random(trial)
    n = r.randint(1, 90)
    p = r.choice([0.02, 0.05, 0.1, 0.3])
    edges = {}
    for i in range(n):
        for j in range(i, n):
            if (i != j or r.random() < 0.05) and r.random() < p:
                edges[(i, j)] = r.choice([1.0, r.random(), r.randint(1, 5) * 0.5])
    items = list(edges.items())
    if trial % 2:
        r.shuffle(items)
    a = [i for (i, _), _ in items]
    b = [j for (_, j), _ in items]
    return n, a, b, [w for _, w in items]


def _as_sorted(communities: list[set[int]]) -> list[list[int]]:
    return sorted(sorted(c) for c in communities)


@pytest.mark.parametrize("trial", range(120))
def test_the_communities_are_networkxs(trial: int) -> None:
    n, a, b, w = _random_graph(trial)
    resolution = (0.5, 1.0, 2.5)[trial % 3]
    seed = trial % 4
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(a, b, w, strict=True))
    want = nx.community.louvain_communities(G, resolution=resolution, seed=seed)
    got = louvain_communities(n, a, b, w, resolution=resolution, seed=seed)
    assert _as_sorted(got) == _as_sorted(want)


def test_two_cliques_joined_by_one_edge_are_two_communities() -> None:
    a = [0, 0, 1, 3, 3, 4, 2]
    b = [1, 2, 2, 4, 5, 5, 3]
    assert _as_sorted(louvain_communities(6, a, b, [1.0] * 7)) == [[0, 1, 2], [3, 4, 5]]


def test_a_graph_without_edges_is_all_singletons() -> None:
    assert _as_sorted(louvain_communities(3, [], [], [])) == [[0], [1], [2]]


def test_an_edge_given_twice_keeps_its_last_weight_as_networkx_does() -> None:
    a, b, w = [0, 1, 0, 2, 0], [1, 2, 2, 3, 1], [1.0, 1.0, 1.0, 1.0, 9.0]
    G = nx.Graph()
    G.add_nodes_from(range(4))
    G.add_weighted_edges_from(zip(a, b, w, strict=True))
    want = nx.community.louvain_communities(G, seed=1)
    assert _as_sorted(louvain_communities(4, a, b, w, seed=1)) == _as_sorted(want)
