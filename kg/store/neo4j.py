"""The Neo4j store: load kg's graph into Neo4j, and ask it for related papers.

The graph is written in ``UNWIND $rows`` batches (the rows and the statements:
:mod:`kg.store.neo4j_rows`) with ``MERGE`` on each node's stable ``id`` (a uniqueness
constraint per label backs every MERGE), inside the driver's managed transactions
(``execute_write`` retries transient failures). Loading the same graph twice therefore leaves
the same counts, and a load that died half-way can simply be run again.

Every node kg writes carries ``kg_managed = true``, so ``replace=True`` removes exactly what
kg loaded before and nothing else that lives in the same database.

**A load can sync** (``sync=True``; ``kg load`` does by default): afterwards kg's part of the
database equals the graph. Each node's and relationship's properties are set to the file's
(``SET n = row.props``: a property the file no longer has goes), then the relationships and
the nodes kg loaded before that the file no longer has are deleted, in batches. kg's part is:
nodes with the ``kg_managed`` marker, and relationships of kg's types between two of them.
Nothing else is touched: nodes without the marker (whatever their label), other labels'
nodes, relationships of other types or to other nodes. (A relationship of a user's attached
to a kg node the file no longer has goes with that node: Neo4j keeps no relationship without
its ends. A property a user set on a kg node goes at the next sync.) The database is never
empty meanwhile, unlike with ``replace=True``, and a sync killed half-way converges when run
again. ``sync=False`` (the library's default, as before) only adds and updates
(``SET n +=``).

Relationships run from papers to entities (:class:`kg.schema.Rel`) and between entities
(:class:`kg.schema.EntityRel`: ``USED_FOR``, ``IS_A``, ..., whose ``papers`` and ``evidence``
are lists); loading, syncing and deleting treat both alike.

Labels and relationship types come from :mod:`kg.schema` (never from user input); every value
reaches Cypher as a parameter. Every failure becomes one readable :class:`kg.errors.Neo4jError`
(the connection and its errors: :mod:`kg.store.neo4j_connection`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg.schema import (
    KEY,
    LABEL_ATTR,
    NAME,
    TYPE_ATTR,
    EntityRel,
    Label,
    Rel,
    ResultRel,
    TopicRel,
)
from kg.store.neo4j_connection import Neo4jConnection
from kg.store.neo4j_rows import (
    ALL_RELS,
    MANAGED,
    GraphRows,
    RelType,
    delete_statement,
    graph_to_rows,
    ident,
    node_statement,
    rel_statement,
    schema_statements,
    stale_nodes_statement,
    stale_rels_statement,
)

DEFAULT_BATCH_SIZE = 5000

if TYPE_CHECKING:  # networkx is imported lazily: `kg --help` should not pay for it
    import networkx as nx

Progress = Callable[[int], None]


# --------------------------------------------------------------------------- loading


@dataclass
class LoadSummary:
    """What a load wrote: rows per label and per relationship type, and how long it took."""

    uri: str
    database: str | None
    nodes: dict[str, int]
    rels: dict[str, int]
    seconds: float
    deleted: int = 0  # kg nodes removed first (replace=True)
    batches: int = 0
    #: What the sync removed because the graph no longer has it (sync=True).
    removed_nodes: int = 0
    removed_rels: int = 0
    removed_props: int = 0
    synced: bool = False

    @property
    def removed(self) -> int:
        return self.removed_nodes + self.removed_rels + self.removed_props

    @property
    def node_count(self) -> int:
        return sum(self.nodes.values())

    @property
    def rel_count(self) -> int:
        return sum(self.rels.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "uri": self.uri, "database": self.database, "nodes": self.nodes, "rels": self.rels,
            "node_count": self.node_count, "rel_count": self.rel_count,
            "seconds": round(self.seconds, 3), "deleted": self.deleted, "batches": self.batches,
            "synced": self.synced,
            "removed": {"nodes": self.removed_nodes, "rels": self.removed_rels,
                        "properties": self.removed_props},
        }


def _batches(rows: list[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def ensure_schema(conn: Neo4jConnection, dimensions: int | None = None) -> None:
    """Create kg's constraints and indexes if missing and wait until they are online."""
    for stmt in schema_statements(dimensions):
        conn.write(stmt)
    conn.write("CALL db.awaitIndexes(300)")


def delete_kg_nodes(conn: Neo4jConnection, batch_size: int = DEFAULT_BATCH_SIZE) -> int:
    """Delete every node kg loaded and its relationships, in bounded transactions (the
    relationships first, so a popular entity never drags thousands of them into one
    transaction). Returns the number of nodes deleted."""
    paper = ident(Label.PAPER.value)
    rels = (f"MATCH (p:{paper})-[r]->() WHERE p.{MANAGED} = true "
            "WITH r LIMIT $limit DELETE r RETURN count(*) AS deleted")
    while conn.write(rels, limit=batch_size * 5)[0]["deleted"]:
        pass
    # Then those between kg's entities (USED_FOR, ...), for the same reason.
    between = "|".join(ident(kind.value) for kind in (*EntityRel, *ResultRel))
    rels = (f"MATCH (a)-[r:{between}]->(b) WHERE a.{MANAGED} = true AND b.{MANAGED} = true "
            "WITH r LIMIT $limit DELETE r RETURN count(*) AS deleted")
    while conn.write(rels, limit=batch_size * 5)[0]["deleted"]:
        pass
    total = 0
    for label in tuple(Label):
        while True:
            deleted = conn.write(delete_statement(label), limit=batch_size)[0]["deleted"]
            total += deleted
            if deleted < batch_size:
                break
    return total


def _deleted_until_done(conn: Neo4jConnection, stmt: str, limit: int, **params: Any) -> int:
    """Run a ``LIMIT $limit ... RETURN count(*) AS deleted`` statement until it deletes fewer
    than ``limit``: each batch is a transaction of its own. Returns the total deleted."""
    total = 0
    while True:
        records = conn.write(stmt, limit=limit, **params)
        deleted = int(records[0]["deleted"]) if records else 0
        total += deleted
        if deleted < limit:
            return total


#: Separates the two ids of a relationship's key in :func:`stale_rels_statement`.
_REL_KEY_SEP = "\u0000"


def delete_stale(
    conn: Neo4jConnection, rows: GraphRows, batch_size: int = DEFAULT_BATCH_SIZE
) -> tuple[int, int]:
    """Delete the kg relationships, then the kg nodes, that ``rows`` no longer has, in batches
    of bounded transactions. Returns (nodes, relationships) deleted."""
    keep_rels: dict[RelType, list[str]] = {rel: [] for rel in ALL_RELS}
    for (rel, _, _), rel_rows in rows.rels.items():
        keep_rels[rel].extend(r["src"] + _REL_KEY_SEP + r["dst"] for r in rel_rows)
    rels = sum(
        _deleted_until_done(conn, stale_rels_statement(rel), batch_size * 5, keep=keep,
                            sep=_REL_KEY_SEP)
        for rel, keep in keep_rels.items()
    )
    nodes = sum(
        _deleted_until_done(conn, stale_nodes_statement(label), batch_size,
                            keep=[r["id"] for r in rows.nodes.get(label, [])])
        for label in tuple(Label)
    )
    return nodes, rels


def add_text_vectors(G: nx.MultiDiGraph, rows: GraphRows) -> int:
    """Give each Paper row its vectors (:data:`~kg.schema.VECTOR_PROPERTIES`: the text and each
    facet's, 6 decimals); a paper without a word kg knows, or without a sentence of a facet,
    lacks that vector (a zero vector has no cosine). Returns the vectors' dimensions (0 when
    there is no paper)."""
    from kg.query.text_index import paper_vectors, papers_of

    papers = papers_of(G)
    if not papers:
        return 0
    vectors = paper_vectors(papers)
    row_of = {str(G.nodes[pid].get(KEY, pid)): i for i, (pid, _, _) in enumerate(papers)}
    for row in rows.nodes.get(Label.PAPER, []):
        i = row_of.get(row["id"])
        if i is None:
            continue
        for prop, matrix in vectors.items():
            if matrix[i].any():
                row["props"][prop] = [round(float(x), 6) for x in matrix[i]]
    return int(next(iter(vectors.values())).shape[1])


def load_graph_into_neo4j(
    G: nx.MultiDiGraph,
    conn: Neo4jConnection,
    batch_size: int = DEFAULT_BATCH_SIZE,
    replace: bool = False,
    progress: Progress | None = None,
    sync: bool = False,
    vectors: bool = True,
) -> LoadSummary:
    """Write ``G`` into Neo4j: nodes first (MERGE on ``id``), then relationships; with
    ``sync`` (``kg load``'s default) then remove what kg loaded before that ``G`` no longer
    has (see the module's doc), so that kg's part of the database equals ``G``.

    ``progress(n)`` is called after each batch with the number of rows it wrote (the total is
    ``G.number_of_nodes() + G.number_of_edges()``). ``replace=True`` first deletes what kg
    loaded before. Idempotent: running it again (also after an interruption) converges to
    the same graph. ``vectors``: give the papers their text and facet vectors and Neo4j a
    vector index of each (:func:`add_text_vectors`; the canned query ``similar_papers``).
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    rows = graph_to_rows(G)
    dimensions = add_text_vectors(G, rows) if vectors else 0
    t0 = time.perf_counter()
    conn.open()
    batches = 0
    removed_props = removed_nodes = removed_rels = 0
    conn.loading = True
    try:
        ensure_schema(conn, dimensions)
        deleted = delete_kg_nodes(conn, batch_size) if replace else 0
        extra = {"managed": MANAGED} if sync else {}
        for label, node_rows in rows.nodes.items():
            stmt = node_statement(label, sync)
            for batch in _batches(node_rows, batch_size):
                removed_props += _removed(conn.write(stmt, rows=batch, **extra))
                batches += 1
                if progress:
                    progress(len(batch))
        for (rel, src, dst), rel_rows in rows.rels.items():
            stmt = rel_statement(rel, src, dst, sync)
            for batch in _batches(rel_rows, batch_size):
                removed_props += _removed(conn.write(stmt, rows=batch))
                batches += 1
                if progress:
                    progress(len(batch))
        if sync and not replace:  # (after a replace nothing old is left)
            removed_nodes, removed_rels = delete_stale(conn, rows, batch_size)
    finally:
        conn.loading = False
    rel_counts: dict[str, int] = {}
    for (rel, _, _), rel_rows in rows.rels.items():
        rel_counts[rel.value] = rel_counts.get(rel.value, 0) + len(rel_rows)
    return LoadSummary(
        uri=conn.uri,
        database=conn.database,
        nodes={label.value: len(r) for label, r in rows.nodes.items()},
        rels=rel_counts,
        seconds=time.perf_counter() - t0,
        deleted=deleted,
        batches=batches,
        removed_nodes=removed_nodes,
        removed_rels=removed_rels,
        removed_props=removed_props,
        synced=sync,
    )


def _removed(records: Any) -> int:
    return int(records[0].get("removed") or 0) if records else 0


def count_kg_graph(conn: Neo4jConnection) -> dict[str, dict[str, int]]:
    """Counts of kg-managed nodes per label and their relationships per type, in the DB."""
    nodes = {
        label.value: conn.read(
            f"MATCH (n:{ident(label.value)}) WHERE n.{MANAGED} = true RETURN count(n) AS c"
        )[0]["c"]
        for label in tuple(Label)
    }
    rels = {
        rel.value: conn.read(
            f"MATCH (:{ident(Label.PAPER.value)} {{{MANAGED}: true}})-[r:{ident(rel.value)}]->() "
            "RETURN count(r) AS c"
        )[0]["c"]
        for rel in (*Rel, ResultRel.REPORTS, TopicRel.IN_TOPIC)
    }
    for kind in (*EntityRel, *(r for r in ResultRel if r is not ResultRel.REPORTS)):
        rels[kind.value] = conn.read(
            f"MATCH (a)-[r:{ident(kind.value)}]->(b) WHERE a.{MANAGED} = true "
            f"AND b.{MANAGED} = true RETURN count(r) AS c"
        )[0]["c"]
    return {"nodes": nodes, "rels": rels}


# --------------------------------------------------------------------------- related papers


def related_papers_neo4j(
    conn: Neo4jConnection, paper_id: str, k: int | None = 10, facet: str | None = None
) -> list[Any]:
    """The Cypher twin of :func:`kg.query.related.related_papers`: the same ranking and reasons
    (with ``facet``, counting only its entity types), computed by the canned query
    ``related_papers`` inside Neo4j."""
    from kg.errors import NotFoundError
    from kg.query.canned import get_query
    from kg.query.facets import FACET_LABELS
    from kg.query.related import Related, Shared

    query = get_query("related_papers")
    labels = list(FACET_LABELS[facet]) if facet else None
    records = conn.read(
        query.text, paper=paper_id, k=k if k is not None else 2**31 - 1, labels=labels
    )
    if not records and not conn.read(
        f"MATCH (p:{ident(Label.PAPER.value)} {{{KEY}: $id}}) RETURN count(p) AS c", id=paper_id
    )[0]["c"]:
        raise NotFoundError(f"paper {paper_id!r} is not in Neo4j at {conn.where} (run `kg load`)")
    out = []
    for rec in records:
        shared = [
            Shared(s["id"], s["name"], s["label"], s["weight"]) for s in rec["shared"]
        ]
        shared.sort(key=lambda s: (-s.weight, s.name))
        out.append(
            Related(rec["id"], rec["title"] or "", rec["display_name"] or "", rec["score"], shared,
                    float(rec.get("similarity") or 0.0), list(rec.get("terms") or []), facet)
        )
    return out


def paper_lookup_graph(conn: Neo4jConnection) -> nx.MultiDiGraph:
    """A small graph of the papers in Neo4j and what they propose: enough for
    :func:`kg.query.lookup.find_paper` to resolve a title or name without the graph file."""
    import networkx as nx

    G = nx.MultiDiGraph()
    paper = ident(Label.PAPER.value)
    for rec in conn.read(
        f"MATCH (p:{paper}) RETURN p.{KEY} AS id, p.title AS title, "
        "p.display_name AS display_name, left(coalesce(p.abstract, ''), 100) AS abstract"
    ):
        G.add_node(rec["id"], **{LABEL_ATTR: Label.PAPER.value, **rec})
    for rec in conn.read(
        f"MATCH (p:{paper})-[:{ident(Rel.PROPOSES.value)}]->(e) "
        f"RETURN p.{KEY} AS paper, e.{KEY} AS id, e.{NAME} AS name, labels(e)[0] AS label, "
        "coalesce(e.aliases, []) AS aliases"
    ):
        G.add_node(rec["id"], **{LABEL_ATTR: rec["label"], NAME: rec["name"],
                                 "aliases": rec["aliases"]})
        G.add_edge(rec["paper"], rec["id"], key=Rel.PROPOSES.value,
                   **{TYPE_ATTR: Rel.PROPOSES.value})
    return G


def find_paper_neo4j(conn: Neo4jConnection, query: str) -> tuple[str, dict[str, Any]]:
    """Resolve ``query`` (title, display name, id or proposed entity) to a paper in Neo4j,
    the same way :func:`kg.query.lookup.find_paper` does on the file. Returns (id, attributes)."""
    from kg.query.lookup import find_paper

    G = paper_lookup_graph(conn)
    pid = find_paper(G, query)
    return pid, dict(G.nodes[pid])
