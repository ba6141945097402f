"""Entity→entity relations (USED_FOR, IS_A, ...) in a real Neo4j: they load with their list
properties, ``methods_for_task`` answers through them, and a sync removes one the graph lost."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from kg.query.canned import run_query
from kg.store.neo4j import count_kg_graph, load_graph_into_neo4j

pytestmark = pytest.mark.neo4j


def graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    for pid in ("p1", "p2"):
        G.add_node(pid, id=pid, label="Paper", name=pid.upper(), display_name=pid.upper(),
                   title=f"Paper {pid}")
    G.add_node("method:grpo", id="method:grpo", label="Method", name="GRPO", paper_count=2)
    G.add_node("method:rl", id="method:rl", label="Method", name="reinforcement learning",
               paper_count=1)
    G.add_node("task:math", id="task:math", label="Task", name="math reasoning", paper_count=2)
    G.add_node("dataset:gsm8k", id="dataset:gsm8k", label="Dataset", name="GSM8K", paper_count=1)
    for pid, ent, rel in [("p1", "method:grpo", "PROPOSES"), ("p1", "task:math", "ADDRESSES"),
                          ("p2", "method:grpo", "USES"), ("p2", "task:math", "ADDRESSES"),
                          ("p2", "method:rl", "USES"), ("p2", "dataset:gsm8k", "EVALUATES_ON")]:
        G.add_edge(pid, ent, key=rel, type=rel, evidence="s.", start=0, end=1, confidence=1.0,
                   count=1)
    G.add_edge("method:grpo", "task:math", key="USED_FOR", type="USED_FOR", papers=["p1", "p2"],
               count=3, evidence=["GRPO for math reasoning.", "We apply GRPO to math."],
               confidence=0.8)
    G.add_edge("method:grpo", "method:rl", key="IS_A", type="IS_A", papers=["p2"], count=1,
               evidence=["GRPO, an RL algorithm."], confidence=0.7)
    G.add_edge("method:grpo", "dataset:gsm8k", key="EVALUATED_ON", type="EVALUATED_ON",
               papers=["p2"], count=1, evidence=["GRPO is evaluated on GSM8K."], confidence=0.9)
    return G


def relations(conn: Any) -> list[dict[str, Any]]:
    return conn.read(
        "MATCH (a)-[r:USED_FOR|IS_A|EVALUATED_ON]->(b) RETURN a.id AS a, type(r) AS type, "
        "b.id AS b, r.papers AS papers, r.evidence AS evidence, r.count AS count "
        "ORDER BY a, type, b"
    )


def test_relations_load_and_answer_methods_for_task(empty_db: Any) -> None:
    summary = load_graph_into_neo4j(graph(), empty_db, sync=True)
    assert summary.rels["USED_FOR"] == 1 and summary.rels["IS_A"] == 1
    got = relations(empty_db)
    assert [(r["a"], r["type"], r["b"]) for r in got] == [
        ("method:grpo", "EVALUATED_ON", "dataset:gsm8k"), ("method:grpo", "IS_A", "method:rl"),
        ("method:grpo", "USED_FOR", "task:math")]
    assert got[2]["papers"] == ["p1", "p2"] and len(got[2]["evidence"]) == 2
    assert count_kg_graph(empty_db)["rels"]["USED_FOR"] == 1

    rows = run_query(empty_db, "methods_for_task", {"task": "Math Reasoning"}).rows
    assert [(r["method"], r["stated"], r["papers"]) for r in rows] == [
        ("GRPO", 2, 2), ("reinforcement learning", 0, 1)]
    assert rows[0]["evidence"] == "GRPO for math reasoning." and rows[1]["evidence"] is None

    # Loading it again changes nothing (MERGE per (source, type, target)).
    load_graph_into_neo4j(graph(), empty_db, sync=True)
    assert relations(empty_db) == got


def test_sync_and_replace_remove_relations(empty_db: Any) -> None:
    load_graph_into_neo4j(graph(), empty_db, sync=True)
    B = graph()
    B.remove_edge("method:grpo", "method:rl", key="IS_A")
    B.edges["method:grpo", "task:math", "USED_FOR"]["papers"] = ["p1"]
    summary = load_graph_into_neo4j(B, empty_db, sync=True)
    assert summary.removed_rels == 1
    got = relations(empty_db)
    assert [r["type"] for r in got] == ["EVALUATED_ON", "USED_FOR"]
    assert got[1]["papers"] == ["p1"]
    # A user's relationship of another type between kg nodes is not kg's: it stays.
    empty_db.write("MATCH (a {id: 'method:grpo'}), (b {id: 'method:rl'}) "
                   "CREATE (a)-[:LIKES]->(b)")
    load_graph_into_neo4j(B, empty_db, sync=True)
    assert empty_db.read("MATCH ()-[r:LIKES]->() RETURN count(r) AS c")[0]["c"] == 1
    load_graph_into_neo4j(B, empty_db, replace=True)
    assert len(relations(empty_db)) == 2
