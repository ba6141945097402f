"""The sync part of the Neo4j loader with a fake driver: what it sends (parameters only, kg's
labels and types only) and how it counts. Against a real server: tests/integration/
test_neo4j_sync.py."""

from __future__ import annotations

from typing import Any

import networkx as nx

from kg.schema import Label, Rel
from kg.store.neo4j import load_graph_into_neo4j
from kg.store.neo4j_connection import Neo4jConnection
from kg.store.neo4j_rows import (
    MANAGED,
    node_statement,
    rel_statement,
    stale_nodes_statement,
    stale_rels_statement,
)


class FakeServer(Neo4jConnection):
    """Answers a delete whose text has a key of ``deletes`` with that key's next count (else 0),
    an upsert with ``removed`` properties."""

    def __init__(self, deletes: dict[str, list[int]] | None = None, removed: int = 0) -> None:
        super().__init__(uri="bolt://fake:7687")
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.deletes = deletes or {}
        self.removed = removed

    def open(self) -> FakeServer:
        return self

    def write(self, query: str, **params: Any) -> Any:
        self.calls.append((query, params))
        if "DELETE" in query:
            counts = next((c for key, c in self.deletes.items() if key in query), [])
            return [{"deleted": counts.pop(0) if counts else 0}]
        if "RETURN sum(stale)" in query:
            return [{"removed": self.removed}]
        return []


def graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    G.add_node("paper:1", label="Paper", name="P", title="T")
    G.add_node("method:m", label="Method", name="M")
    G.add_edge("paper:1", "method:m", key="USES", type="USES", count=1)
    return G


def test_sync_statements_take_every_value_as_a_parameter() -> None:
    stmts = [node_statement(Label.PAPER, sync=True),
             rel_statement(Rel.USES, Label.PAPER, Label.METHOD, sync=True),
             stale_rels_statement(Rel.USES), stale_nodes_statement(Label.TASK)]
    assert all("'" not in s and '"' not in s for s in stmts)
    assert "SET n = row.props" in stmts[0] and "k <> $managed" in stmts[0]
    assert "SET r = row.props" in stmts[1]
    assert f"a.{MANAGED} = true AND b.{MANAGED} = true" in stmts[2] and "$keep" in stmts[2]
    assert f"n.{MANAGED} = true AND NOT n.id IN $keep" in stmts[3]
    assert all("LIMIT $limit" in s for s in stmts[2:])
    assert "SET n += row.props" in node_statement(Label.PAPER)  # --no-sync: as before


def test_a_sync_deletes_in_batches_until_a_short_one_and_counts_what_went() -> None:
    # USES: two full batches of relationships then a short one; Paper nodes: one full batch.
    batch = 2
    deletes = {"[r:`USES`]": [batch * 5, batch * 5, 3], "(n:`Paper`)": [batch, 1]}
    conn = FakeServer(deletes=deletes, removed=2)
    summary = load_graph_into_neo4j(graph(), conn, batch_size=batch, sync=True)
    assert (summary.removed_nodes, summary.removed_rels) == (batch + 1, 2 * batch * 5 + 3)
    assert summary.removed_props == 3 * 2  # two node batches (one per label), one of links
    assert summary.removed == 3 + 23 + 6
    sent = [(q, p) for q, p in conn.calls if "$keep" in q]
    uses = [p for q, p in sent if "`USES`" in q]
    assert len(uses) == 3 and all(p["keep"] == ["paper:1\0method:m"] for p in uses)
    assert all(p["keep"] == [] for q, p in sent if "`MEASURES`" in q)  # none left in the file
    papers = [p for q, p in sent if "(n:`Paper`)" in q]
    assert len(papers) == 2 and papers[0]["keep"] == ["paper:1"]
    labels = {q.split("(n:`")[1].split("`")[0] for q, _ in sent if "(n:`" in q}
    assert labels == {label.value for label in Label}


def test_without_sync_nothing_is_deleted_and_nothing_counted() -> None:
    conn = FakeServer(deletes={"DELETE": [5, 5, 5]})
    summary = load_graph_into_neo4j(graph(), conn, sync=False)
    assert not any("DELETE" in q for q, _ in conn.calls) and summary.removed == 0
    assert summary.to_dict()["removed"] == {"nodes": 0, "rels": 0, "properties": 0}


def test_after_a_replace_the_sync_has_nothing_left_to_delete() -> None:
    conn = FakeServer()
    load_graph_into_neo4j(graph(), conn, replace=True, sync=True)
    assert not any("$keep" in q for q, _ in conn.calls)
