"""Read-only views of a graph for people: one node with its links (``kg show``) and the
graph's shape (``kg stats``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from kg.schema import (
    ENTITY_LABELS,
    LABEL_ATTR,
    REL_TYPES,
    TYPE_ATTR,
    EntityRel,
    Label,
    Rel,
    ResultRel,
    TopicRel,
)

if TYPE_CHECKING:  # networkx is imported where a graph is made (a slow import)
    from pathlib import Path

    import networkx as nx


def describe_node(G: nx.MultiDiGraph, node: str, limit: int = 50) -> dict[str, Any]:
    """A node's properties and its links (with evidence), as plain data.

    For a paper the links are the entities it proposes, uses, evaluates on...; for an entity
    they are the papers that link to it. An entity's ``relations`` are its links to other
    entities (:class:`~kg.schema.EntityRel`), both ways, with their evidence sentences. A paper
    and an entity have ``results``: the results the paper reports, or that are about the entity
    (:func:`kg.query.results.result_row`). A paper has its ``topic`` (or None); a result's
    links are its paper and the entities it is about.
    """
    from kg.query.results import result_row, results_of

    attrs = {"id": node, **G.nodes[node]}  # node-link loading moves "id" into the node key
    label = attrs[LABEL_ATTR]
    is_paper = label == Label.PAPER.value
    if label == Label.RESULT.value:
        edges = [*G.in_edges(node, data=True), *G.out_edges(node, data=True)]
        kinds = {r.value for r in ResultRel}
    else:
        edges = G.out_edges(node, data=True) if is_paper else G.in_edges(node, data=True)
        kinds = {r.value for r in Rel} if label != Label.TOPIC.value else {TopicRel.IN_TOPIC.value}
    links = []
    for u, v, e in edges:
        if e.get(TYPE_ATTR) not in kinds:
            continue  # an entity relation, a result or a topic: in their own lists
        other = v if u == node else u
        o = G.nodes[other]
        links.append(
            {
                "type": e[TYPE_ATTR],
                "direction": "out" if u == node else "in",
                "id": other,
                "label": o[LABEL_ATTR],
                "name": o.get("name") or other,
                "title": o.get("title", ""),
                "evidence": e.get("evidence", ""),
                "start": e.get("start"),
                "end": e.get("end"),
                "count": e.get("count", 1),
            }
        )
    rel_order = list(REL_TYPES)
    links.sort(
        key=lambda x: (rel_order.index(x["type"]), x["label"], x["name"].casefold(), x["id"])
    )
    out = {"node": attrs, "links": links[:limit], "total_links": len(links)}
    if label in _ENTITY_VALUES:
        out["relations"] = entity_relations(G, node)[:limit]
    if is_paper or label in _ENTITY_VALUES:
        out["results"] = [result_row(G, r) for r in results_of(G, node)][:limit]
    if is_paper:
        topics = [v for _, v, t in G.out_edges(node, data=TYPE_ATTR) if t == TopicRel.IN_TOPIC]
        out["topic"] = (
            {"id": topics[0], "name": G.nodes[topics[0]].get("name", topics[0])} if topics else None
        )
    return out


_ENTITY_VALUES = frozenset(label.value for label in ENTITY_LABELS)


def entity_relations(G: nx.MultiDiGraph, node: str) -> list[dict[str, Any]]:
    """The entity→entity links of ``node`` (``direction`` "out": it is the source), most
    papers first."""
    kinds = {r.value for r in EntityRel}
    out = []
    for direction, edges in (("out", G.out_edges(node, data=True)),
                             ("in", G.in_edges(node, data=True))):  # fmt: skip
        for u, v, e in edges:
            if e.get(TYPE_ATTR) not in kinds:
                continue
            other = v if direction == "out" else u
            o = G.nodes[other]
            out.append(
                {
                    "type": e[TYPE_ATTR],
                    "direction": direction,
                    "id": other,
                    "label": o[LABEL_ATTR],
                    "name": o.get("name") or other,
                    "papers": list(e.get("papers") or []),
                    "evidence": list(e.get("evidence") or []),
                    "count": e.get("count", 1),
                }
            )
    out.sort(key=lambda x: (-len(x["papers"]), x["type"], x["direction"], x["id"]))
    return out


def graph_counts(G: nx.MultiDiGraph) -> dict[str, Any]:
    """Papers, entities per label and edges per relationship type (the `kg build` summary)."""
    return count_summary(
        Counter(a[LABEL_ATTR] for _, a in G.nodes(data=True)),
        Counter(a[TYPE_ATTR] for _, _, a in G.edges(data=True)),
    )


def data_counts(data: dict[str, Any]) -> dict[str, Any]:
    """:func:`graph_counts` of node-link ``data`` (see :func:`kg.graph.graph_data`)."""
    return count_summary(
        Counter(n[LABEL_ATTR] for n in data["nodes"]),
        Counter(e[TYPE_ATTR] for e in data["links"]),
    )


def count_summary(nodes: Counter[str], edges: Counter[str]) -> dict[str, Any]:
    """The counts ``kg stats`` prints, from nodes per label and links per type."""
    return {
        "papers": nodes.get(Label.PAPER.value, 0),
        "entities": {lab.value: nodes.get(lab.value, 0) for lab in ENTITY_LABELS},
        "results": nodes.get(Label.RESULT.value, 0),
        "topics": nodes.get(Label.TOPIC.value, 0),
        "edges": {name: edges.get(name, 0) for name in REL_TYPES},
    }


def graph_stats(G: nx.MultiDiGraph, top: int = 5) -> dict[str, Any]:
    """Counts per label and relationship type, the most linked entities of each type and the
    largest topics."""
    top_entities: dict[str, list[dict[str, Any]]] = {}
    for label in ENTITY_LABELS:
        ents = [(n, a) for n, a in G.nodes(data=True) if a[LABEL_ATTR] == label.value]
        ents.sort(key=lambda na: (-int(na[1].get("paper_count", 0)), na[1].get("name", "")))
        top_entities[label.value] = [
            {"id": n, "name": a.get("name"), "paper_count": a.get("paper_count", 0)}
            for n, a in ents[:top]
        ]
    topics = [(n, a) for n, a in G.nodes(data=True) if a[LABEL_ATTR] == Label.TOPIC.value]
    topics.sort(key=lambda na: (-int(na[1].get("size", 0)), str(na[0])))
    return {
        **graph_counts(G),
        "top_entities": top_entities,
        "top_topics": [
            {"id": n, "name": a.get("name"), "size": a.get("size", 0)} for n, a in topics[:top]
        ],
    }


def show_node(graph_path: str | Path, name: str, limit: int = 50) -> dict[str, Any]:
    """:func:`describe_node` of the paper or entity ``name`` (:func:`kg.query.lookup.find_node`)
    in the graph file or store at ``graph_path``. From a store, only the node's neighbourhood
    is read (:func:`kg.store.sqlite.neighbourhood`)."""
    from kg.query.lookup import find_node
    from kg.store.file import load_graph
    from kg.store.sqlite import Store, StoreIndex, is_store, neighbourhood

    if not is_store(graph_path):
        G = load_graph(graph_path)
        return describe_node(G, find_node(G, name), limit)
    with Store(graph_path) as store:
        node = find_node(StoreIndex(store), name)
        return describe_node(neighbourhood(store, node), node, limit)


def stats_of(graph_path: str | Path) -> dict[str, Any]:
    """:func:`graph_stats` of the graph file or store at ``graph_path`` (a store's in SQL)."""
    from kg.store.file import load_graph
    from kg.store.sqlite import Store, is_store

    if not is_store(graph_path):
        return graph_stats(load_graph(graph_path))
    with Store(graph_path) as store:
        return store.stats()
