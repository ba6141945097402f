"""Choose which part of the graph goes into an HTML export.

Three steps, in this order: keep only the requested entity types (papers always stay), cut out
the neighbourhood of one focus node if asked, then cap the node count.

The cap keeps "the most connected nodes" in the sense that matters for a bipartite
paper-entity graph: it peels off the node with the least link weight *among the nodes still
kept*, over and over, until the cap is reached (a weighted k-core peeling order). Ranking by
global degree alone would keep the big entities and drop the papers that link them, leaving a
picture of disconnected dots; peeling keeps a dense core where every node still has links.

A link weighs what a shared entity weighs in ``kg related``: ``TYPE_WEIGHT[label] /
ln(1 + paper_count)``. With plain link counts the core of the ICLR 2026 graph is mostly broad
concepts ("signals", "pipeline") and MENTIONS links; weighted, it keeps named methods, datasets
and tasks, and fewer links (measured: docs/benchmarks.md).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kg.errors import InputError
from kg.query.related import entity_weight
from kg.schema import ENTITY_LABELS, LABEL_ATTR, TYPE_WEIGHT, Label

if TYPE_CHECKING:  # networkx is imported where a graph is made (a slow import)
    import networkx as nx

#: Default node cap for exports without --focus. Chosen from benchmarks/html_render.py
#: (measured: docs/benchmarks.md): at this cap the ICLR 2026 graph settles about as soon as the
#: seeds graph; with more nodes the wait grows faster than the node count, and labels stop
#: being readable.
DEFAULT_MAX_NODES = 400


@dataclass
class Selection:
    """The nodes picked for an export and what was left out (for the stderr note)."""

    graph: nx.MultiDiGraph  # the subgraph to draw (a view on the input graph)
    focus: str | None = None  # the focus node id, if any
    total_nodes: int = 0  # nodes in the input graph
    total_edges: int = 0
    omitted_nodes: dict[str, int] = field(default_factory=dict)  # label -> count left out
    omitted_edges: int = 0
    capped: bool = False  # True when the node cap removed something

    @property
    def omitted_total(self) -> int:
        return sum(self.omitted_nodes.values())


def parse_types(spec: str | Iterable[str] | None) -> tuple[Label, ...] | None:
    """Parse ``"Method,Dataset"`` (case-insensitive) into entity labels; ``None`` means all.

    >>> parse_types("method, DATASET")
    (<Label.METHOD: 'Method'>, <Label.DATASET: 'Dataset'>)
    """
    if spec is None:
        return None
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    by_name = {label.value.lower(): label for label in Label}
    labels: list[Label] = []
    for raw in parts:
        name = str(raw).strip().lower()
        if not name:
            continue
        label = by_name.get(name) or by_name.get(name.rstrip("s"))  # "methods" is fine too
        if label is None:
            known = ", ".join(label.value for label in ENTITY_LABELS)
            raise InputError(f"unknown node type {raw.strip()!r} (choose from {known})")
        if label not in labels and label is not Label.PAPER:
            labels.append(label)
    if not labels:
        raise InputError("--types needs at least one entity type, e.g. --types Method,Dataset")
    return tuple(labels)


def _label(G: nx.MultiDiGraph, node: str) -> str:
    return str(G.nodes[node].get(LABEL_ATTR, ""))


def neighbourhood(G: nx.MultiDiGraph, center: str, depth: int) -> set[str]:
    """Nodes within ``depth`` links of ``center``, ignoring edge direction."""
    if depth < 0:
        raise InputError(f"--depth must be 0 or more (got {depth})")
    import networkx as nx

    lengths = nx.single_source_shortest_path_length(
        G.to_undirected(as_view=True), center, cutoff=depth
    )
    return set(lengths)


def link_weight(G: nx.MultiDiGraph, u: str, v: str) -> float:
    """How much the link between ``u`` and ``v`` says: the weight ``kg related`` gives the entity.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("p", label="Paper"); G.add_node("m", label="Method", paper_count=1)
    >>> round(link_weight(G, "p", "m"), 3)
    1.443
    """
    entity = v if G.nodes[u].get(LABEL_ATTR) == Label.PAPER.value else u
    attrs = G.nodes[entity]
    papers = int(attrs.get("paper_count") or G.degree(entity) or 1)
    label = _LABELS.get(str(attrs.get(LABEL_ATTR)))
    if label in TYPE_WEIGHT:
        return entity_weight(label.value, papers)  # the very formula kg related uses
    return 1.0 / math.log(1 + max(papers, 1))  # an unknown label counts like a named entity


_LABELS = {label.value: label for label in Label}


def peel_to(
    G: nx.MultiDiGraph, max_nodes: int, keep: Iterable[str] = (), nodes: Iterable[str] | None = None
) -> set[str]:
    """The ``max_nodes`` of ``nodes`` (default: all) that survive repeatedly removing the
    least-linked node.

    A node's degree is the summed :func:`link_weight` of its links to the nodes still present;
    ties go to the node id so the result is deterministic. Nodes in ``keep`` are never removed.
    """
    alive = set(G.nodes) if nodes is None else set(nodes)
    if len(alive) <= max_nodes:
        return alive
    protected = set(keep) & alive
    cache: dict[str, float] = {}  # the weight depends on the entity end only
    adjacency: dict[str, dict[str, float]] = {n: {} for n in alive}
    # One pass over the edges of the base graph: much faster than neighbour or subgraph views.
    for u, v in G.edges(alive):
        if u == v or v not in alive:
            continue
        entity = v if G.nodes[u].get(LABEL_ATTR) == Label.PAPER.value else u
        if entity not in cache:
            cache[entity] = link_weight(G, u, v)
        adjacency[u][v] = adjacency[v][u] = cache[entity]
    degree = {n: sum(adj.values()) for n, adj in adjacency.items()}
    heap = [(d, n) for n, d in degree.items() if n not in protected]
    heapq.heapify(heap)
    while len(alive) > max_nodes and heap:
        d, n = heapq.heappop(heap)
        if n not in alive or d != degree[n]:
            continue  # a stale heap entry: the degree dropped since it was pushed
        alive.discard(n)
        for m, weight in adjacency[n].items():
            if m in alive:
                degree[m] -= weight
                if m not in protected:
                    heapq.heappush(heap, (degree[m], m))
    return alive


#: What a page draws beside papers unless asked for other types: every label but topics. A
#: topic is a hub of hundreds of papers (and a focus paper's topic would bring them all in at
#: depth 2): the overview page draws them (:mod:`kg.html.overview`).
PAGE_LABELS = tuple(label for label in Label if label not in (Label.PAPER, Label.TOPIC))


def select(
    G: nx.MultiDiGraph,
    *,
    focus: str | None = None,
    depth: int = 2,
    types: Iterable[Label] | None = None,
    max_nodes: int | None = None,
) -> Selection:
    """Pick the subgraph to draw.

    ``focus`` is a node id (already resolved). ``types``: the labels drawn beside papers
    (default :data:`PAGE_LABELS`). ``max_nodes``: ``None`` means the default cap without a
    focus and no cap with one (a focus export is complete); ``0`` means no cap.
    """
    drawn = PAGE_LABELS if types is None else types
    wanted = {Label.PAPER.value, *(label.value for label in drawn)}
    nodes = {n for n in G.nodes if _label(G, n) in wanted}
    if focus is not None:
        if focus not in G:
            raise InputError(f"focus node {focus!r} is not in the graph")
        nodes.add(focus)
        nodes = neighbourhood(G.subgraph(nodes), focus, depth)
    cap = max_nodes if max_nodes is not None else (None if focus else DEFAULT_MAX_NODES)
    if cap is not None and cap < 0:
        raise InputError(f"--max-nodes must be 0 (no limit) or more (got {cap})")
    capped = False
    if cap and len(nodes) > cap:
        nodes = peel_to(G, cap, keep=[focus] if focus else [], nodes=nodes)
        capped = True
    sub = G.subgraph(nodes)
    left_out = Counter(_label(G, n) for n in G.nodes if n not in nodes)
    return Selection(
        graph=sub,
        focus=focus,
        total_nodes=G.number_of_nodes(),
        total_edges=G.number_of_edges(),
        omitted_nodes=dict(sorted(left_out.items())),
        omitted_edges=G.number_of_edges() - sub.number_of_edges(),
        capped=capped,
    )
