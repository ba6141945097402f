"""Louvain communities of a weighted undirected graph given as edge lists.

This is networkx's ``louvain_communities`` (networkx 3.x, undirected, no ``max_level``) step
for step, over plain lists and dicts instead of a ``networkx.Graph``: the same random node
orders, the same sums in the same order (so the same floating-point gains and modularity),
the same tie-breaking, hence the same communities. Only what it does not need is left out:
the sets of original nodes networkx carries through every level (their contents are found
once, at the end), the graph objects' views, and the type dispatch. Topics need nothing
else from networkx, and on a conference graph this is several times faster; a unit test
holds it to networkx's answer on random graphs.

>>> sorted(map(sorted, louvain_communities(6, [0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3],
...                                         [1.0] * 7, seed=0)))
[[0, 1, 2], [3, 4, 5]]
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

#: One node's neighbours and the weights of its edges, in the order networkx would keep them
#: (insertion order; a self-loop is its own neighbour).
Adjacency = list[dict[int, float]]

#: networkx's default: a level that gains no more modularity than this ends the search.
THRESHOLD = 0.0000001


def adjacency(n: int, a: Sequence[int], b: Sequence[int], w: Sequence[float]) -> Adjacency:
    """The adjacency of nodes ``0..n-1`` with edges ``(a[i], b[i])`` of weight ``w[i]``, as
    ``Graph.add_weighted_edges_from`` builds it (an edge given twice keeps its first place
    and its last weight)."""
    adj: Adjacency = [{} for _ in range(n)]
    for u, v, wt in zip(a, b, w, strict=True):
        adj[u][v] = wt
        adj[v][u] = wt
    return adj


def louvain_communities(
    n: int,
    a: Sequence[int],
    b: Sequence[int],
    w: Sequence[float],
    resolution: float = 1.0,
    seed: int = 0,
) -> list[set[int]]:
    """The communities networkx's ``louvain_communities(G, resolution=..., seed=seed)``
    finds in the graph of nodes ``0..n-1`` (added in that order) and edges ``(a[i], b[i],
    w[i])`` (added in that order)."""
    return louvain_of(adjacency(n, a, b, w), resolution, seed)


def louvain_of(adj: Adjacency, resolution: float = 1.0, seed: int = 0) -> list[set[int]]:
    """:func:`louvain_communities` of an adjacency built as :func:`adjacency` builds it."""
    n = len(adj)
    if not any(adj):
        return [{u} for u in range(n)]
    rng = random.Random(seed)
    mod = modularity(adj, [{u} for u in range(n)], resolution)
    graph = _copy_order(adj)
    m = sum(_degrees(graph)) / 2
    # which community of the current level each original node is in
    where = list(range(n))
    inner, _ = _one_level(graph, m, resolution, rng)
    where = _follow(where, inner)
    improvement = True  # networkx weighs the first level's modularity even when none moved
    while improvement:
        new_mod = modularity(graph, inner, resolution)
        if new_mod - mod <= THRESHOLD:
            break
        mod = new_mod
        graph = _gen_graph(graph, inner)
        inner, improvement = _one_level(graph, m, resolution, rng)
        where = _follow(where, inner)
    out: list[set[int]] = [set() for _ in inner]
    for u, c in enumerate(where):
        out[c].add(u)
    return out


def modularity(adj: Adjacency, communities: list[set[int]], resolution: float) -> float:
    """networkx's ``modularity(G, communities, resolution=resolution)``, summed in its order."""
    degree = _degrees(adj)
    deg_sum = sum(degree)
    m = deg_sum / 2
    norm = 1 / deg_sum**2

    def contribution(community: set[int]) -> float:
        comm = set(community)
        inside = sum(wt for u, v, wt in _edges(adj, comm) if v in comm)
        degree_sum = sum(degree[u] for u in comm)
        return inside / m - resolution * degree_sum * degree_sum * norm

    return sum(map(contribution, communities))


def _degrees(adj: Adjacency) -> list[float]:
    """Each node's weighted degree, a self-loop counted twice (``G.degree(weight=...)``)."""
    return [sum(nbrs.values()) + (u in nbrs and nbrs[u]) for u, nbrs in enumerate(adj)]


def _edges(adj: Adjacency, nodes: Iterable[int]) -> Iterator[tuple[int, int, float]]:
    """Each edge at ``nodes`` once, in ``G.edges(nodes, data=...)``'s order."""
    seen = set()
    for u in nodes:
        for v, wt in adj[u].items():
            if v not in seen:
                yield u, v, wt
        seen.add(u)


def _copy_order(adj: Adjacency) -> Adjacency:
    """The adjacency as a copy made by adding ``G.edges`` one by one orders it."""
    copy: Adjacency = [{} for _ in adj]
    for u, v, wt in _edges(adj, range(len(adj))):
        copy[u][v] = wt
        copy[v][u] = wt
    return copy


def _one_level(
    adj: Adjacency, m: float, resolution: float, rng: random.Random
) -> tuple[list[set[int]], bool]:
    """One pass of local moves (networkx's ``_one_level``): the non-empty communities, as sets
    of this level's nodes, and whether any node moved."""
    n = len(adj)
    node2com = list(range(n))
    inner = [{u} for u in range(n)]
    degrees = _degrees(adj)
    stot = list(degrees)
    nbrs = [{v: wt for v, wt in adj[u].items() if v != u} for u in range(n)]
    order = list(range(n))
    rng.shuffle(order)
    scale = 2 * m**2
    moves = 1
    improvement = False
    while moves > 0:
        moves = 0
        for u in order:
            best_mod: float = 0
            best_com = node2com[u]
            weights2com: defaultdict[int, float] = defaultdict(float)
            for v, wt in nbrs[u].items():
                weights2com[node2com[v]] += wt
            degree = degrees[u]
            stot[best_com] -= degree
            # reading weights2com[best_com] adds it last when absent, as networkx does
            remove_cost = (
                -weights2com[best_com] / m + resolution * (stot[best_com] * degree) / scale
            )
            for com, wt in weights2com.items():
                gain = remove_cost + wt / m - resolution * (stot[com] * degree) / scale
                if gain > best_mod:
                    best_mod = gain
                    best_com = com
            stot[best_com] += degree
            if best_com != node2com[u]:
                inner[node2com[u]].remove(u)
                inner[best_com].add(u)
                improvement = True
                moves += 1
                node2com[u] = best_com
    return [c for c in inner if c], improvement


def _follow(where: list[int], inner: list[set[int]]) -> list[int]:
    """``where`` (original node → node of this level) carried to the level's communities."""
    community = {}
    for i, members in enumerate(inner):
        for u in members:
            community[u] = i
    return [community[u] for u in where]


def _gen_graph(adj: Adjacency, inner: list[set[int]]) -> Adjacency:
    """The graph of the communities (networkx's ``_gen_graph``): an edge's weight is the sum of
    the edges between (or, a self-loop, inside) them, added in the same order."""
    node2com = {}
    for i, members in enumerate(inner):
        for u in members:
            node2com[u] = i
    out: Adjacency = [{} for _ in inner]
    for u, v, wt in _edges(adj, range(len(adj))):
        c1, c2 = node2com[u], node2com[v]
        total = wt + out[c1].get(c2, 0)
        out[c1][c2] = total
        out[c2][c1] = total
    return out
