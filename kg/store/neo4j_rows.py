"""What kg writes to Neo4j, as plain data and Cypher text: pure functions, no driver.

:func:`graph_to_rows` splits a graph into ``UNWIND $rows`` parameter rows, per label and per
(relationship type, source label, target label), in a fixed order; the statements
(:func:`schema_statements`, :func:`node_statement`, :func:`rel_statement`, the deletes) take
them. Labels and relationship types come from :mod:`kg.schema`, quoted as identifiers; every
value is a parameter. :mod:`kg.store.neo4j` runs them; :mod:`kg.store.neo4j_import` writes
the same rows as the bulk importer's CSV files.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg.errors import Neo4jError
from kg.schema import (
    KEY,
    LABEL_ATTR,
    NAME,
    REL_TYPES,
    TYPE_ATTR,
    VECTOR_PROPERTIES,
    EntityRel,
    Label,
    Rel,
    ResultRel,
    TopicRel,
    vector_index,
)

if TYPE_CHECKING:  # networkx is imported lazily: `kg --help` should not pay for it
    import networkx as nx

#: A relationship type: from a paper to an entity, or between two entities.
RelType = Rel | EntityRel | ResultRel | TopicRel
#: Every relationship type kg writes (what a sync or a replace may remove).
ALL_RELS: tuple[RelType, ...] = (*Rel, *EntityRel, *ResultRel, *TopicRel)
#: The property that marks a node as written by kg (what ``replace=True`` deletes).
MANAGED = "kg_managed"
#: The full-text index over paper titles/abstracts and entity names.
FULLTEXT_INDEX = "kg_text"
#: Node properties that are bookkeeping, not graph data (left out of row comparisons).
NODE_SKIP = {LABEL_ATTR}


# --------------------------------------------------------------------------- rows


@dataclass
class GraphRows:
    """A graph as Cypher parameter rows: nodes per label and relationships per (type, target
    label). Node rows are ``{"id", "props"}``; relationship rows ``{"src", "dst", "props"}``."""

    nodes: dict[Label, list[dict[str, Any]]]
    rels: dict[tuple[RelType, Label, Label], list[dict[str, Any]]]

    @property
    def node_count(self) -> int:
        return sum(len(rows) for rows in self.nodes.values())

    @property
    def rel_count(self) -> int:
        return sum(len(rows) for rows in self.rels.values())

    @property
    def total(self) -> int:
        return self.node_count + self.rel_count


def neo4j_value(value: Any) -> Any:
    """A property value Neo4j can store: scalars and homogeneous lists as they are; None stays
    None (``SET n += props`` then removes the property); anything else as JSON text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        items = [v for v in value if v is not None]
        if all(isinstance(v, str) for v in items) or all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in items
        ):
            return list(items)
        return [v if isinstance(v, str) else json.dumps(v, sort_keys=True) for v in items]
    return json.dumps(value, sort_keys=True, default=str)


def node_properties(node: Any, attrs: Any) -> tuple[Label, dict[str, Any]]:
    """A node's label and the properties kg writes for it (values as Neo4j stores them, ``id``
    and ``name`` always set); an unknown label is rejected, since it would be pasted into Cypher.
    """
    try:
        label = Label(attrs[LABEL_ATTR])
    except (KeyError, ValueError):
        raise Neo4jError(f"node {node!r} has no kg label (got {attrs.get(LABEL_ATTR)!r})") from None
    node_id = str(attrs.get(KEY, node))
    props = {k: neo4j_value(v) for k, v in attrs.items() if k not in NODE_SKIP}
    props[KEY] = node_id
    props.setdefault(NAME, attrs.get("display_name") or node_id)
    return label, props


def graph_to_rows(G: nx.MultiDiGraph) -> GraphRows:
    """Split ``G`` into parameter rows for the loader. Pure: no database involved.

    Rows come in a fixed order (sorted by id) so batches are reproducible. Unknown labels or
    relationship types are rejected: they would have to be pasted into Cypher text.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("p1", id="p1", label="Paper", name="P", title="T", year=2024)
    >>> G.add_node("dataset:x", id="dataset:x", label="Dataset", name="X", paper_count=1)
    >>> _ = G.add_edge("p1", "dataset:x", key="EVALUATES_ON", type="EVALUATES_ON", count=2)
    >>> rows = graph_to_rows(G)
    >>> rows.nodes[Label.PAPER]
    [{'id': 'p1', 'props': {'id': 'p1', 'name': 'P', 'title': 'T', 'year': 2024}}]
    >>> rows.rels[(Rel.EVALUATES_ON, Label.PAPER, Label.DATASET)]
    [{'src': 'p1', 'dst': 'dataset:x', 'props': {'count': 2}}]
    """
    labels: dict[str, Label] = {}
    nodes: dict[Label, list[dict[str, Any]]] = {}
    for node, attrs in sorted(G.nodes(data=True), key=lambda na: str(na[0])):
        label, props = node_properties(node, attrs)
        labels[node] = label
        nodes.setdefault(label, []).append({"id": props[KEY], "props": dict(sorted(props.items()))})
    rels: dict[tuple[RelType, Label, Label], list[dict[str, Any]]] = {}
    for u, v, key, attrs in sorted(
        G.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2]))
    ):
        rel = REL_TYPES.get(attrs.get(TYPE_ATTR) or key)
        if rel is None:
            raise Neo4jError(f"edge {u!r} -> {v!r} has no kg type (got {key!r})")
        props = {k: neo4j_value(x) for k, x in attrs.items() if k != TYPE_ATTR}
        row = {
            "src": str(G.nodes[u].get(KEY, u)),
            "dst": str(G.nodes[v].get(KEY, v)),
            "props": dict(sorted(props.items())),
        }
        rels.setdefault((rel, labels[u], labels[v]), []).append(row)
    return GraphRows(nodes=nodes, rels=rels)


# --------------------------------------------------------------------------- Cypher text
# Labels and types below are schema enum values, quoted as identifiers; values are parameters.


def ident(name: str) -> str:
    """``name`` quoted as a Cypher identifier: a schema label or type, checked (never user
    text)."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"not a safe Cypher identifier: {name!r}")
    return f"`{name}`"


def schema_statements(dimensions: int | None = None) -> list[str]:
    """Constraints (one unique ``id`` per label), the full-text index and, with the papers'
    text vectors' ``dimensions``, their vector index: all IF NOT EXISTS."""
    stmts = [
        f"CREATE CONSTRAINT kg_{label.value.lower()}_id IF NOT EXISTS "
        f"FOR (n:{ident(label.value)}) REQUIRE n.{KEY} IS UNIQUE"
        for label in tuple(Label)
    ]
    all_labels = "|".join(ident(label.value) for label in tuple(Label))
    stmts.append(
        f"CREATE FULLTEXT INDEX {FULLTEXT_INDEX} IF NOT EXISTS FOR (n:{all_labels}) "
        f"ON EACH [n.title, n.abstract, n.{NAME}]"
    )
    if dimensions:
        config = f"`vector.dimensions`: {int(dimensions)}, `vector.similarity_function`: 'cosine'"
        stmts += [
            f"CREATE VECTOR INDEX {vector_index(prop)} IF NOT EXISTS "
            f"FOR (p:{ident(Label.PAPER.value)}) ON (p.{ident(prop)}) "
            f"OPTIONS {{indexConfig: {{{config}}}}}"
            for prop in VECTOR_PROPERTIES
        ]
    return stmts


def node_statement(label: Label, sync: bool = False) -> str:
    """Upsert ``$rows`` of ``label``. With ``sync`` the node's properties become the row's (the
    marker kept), and it returns ``removed``: the properties that went (``$managed`` names the
    marker, not counted)."""
    merge = f"UNWIND $rows AS row MERGE (n:{ident(label.value)} {{{KEY}: row.id}}) "
    if not sync:
        return merge + f"SET n += row.props, n.{MANAGED} = true"
    return (
        merge
        + "WITH n, row, size([k IN keys(n) WHERE row.props[k] IS NULL AND k <> $managed]) "
        f"AS stale SET n = row.props, n.{MANAGED} = true RETURN sum(stale) AS removed"
    )


def rel_statement(rel: RelType, src: Label, dst: Label, sync: bool = False) -> str:
    """Upsert ``$rows`` of ``rel`` from ``src`` to ``dst`` nodes; with ``sync`` as in
    :func:`node_statement` (``removed``: the properties that went)."""
    merge = (
        f"UNWIND $rows AS row "
        f"MATCH (a:{ident(src.value)} {{{KEY}: row.src}}) "
        f"MATCH (b:{ident(dst.value)} {{{KEY}: row.dst}}) "
        f"MERGE (a)-[r:{ident(rel.value)}]->(b) "
    )
    if not sync:
        return merge + "SET r += row.props"
    return (
        merge + "WITH r, row, size([k IN keys(r) WHERE row.props[k] IS NULL]) AS stale "
        "SET r = row.props RETURN sum(stale) AS removed"
    )


def stale_rels_statement(rel: RelType) -> str:
    """Delete up to ``$limit`` relationships of ``rel`` between kg nodes whose
    ``source id + $sep + target id`` is not in ``$keep``. (kg ids are unique across labels:
    an entity's starts with its type.)"""
    return (
        f"MATCH (a)-[r:{ident(rel.value)}]->(b) WHERE a.{MANAGED} = true AND b.{MANAGED} = true "
        f"AND NOT a.{KEY} + $sep + b.{KEY} IN $keep "
        "WITH r LIMIT $limit DELETE r RETURN count(*) AS deleted"
    )


def stale_nodes_statement(label: Label) -> str:
    """Delete up to ``$limit`` kg nodes of ``label`` whose id is not in ``$keep``."""
    return (
        f"MATCH (n:{ident(label.value)}) WHERE n.{MANAGED} = true AND NOT n.{KEY} IN $keep "
        "WITH n LIMIT $limit DETACH DELETE n RETURN count(*) AS deleted"
    )


def delete_statement(label: Label) -> str:
    return (
        f"MATCH (n:{ident(label.value)}) WHERE n.{MANAGED} = true "
        "WITH n LIMIT $limit DETACH DELETE n RETURN count(*) AS deleted"
    )
