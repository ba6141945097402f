"""Result nodes and the relation queries in a real Neo4j: Results load with their links,
``leaderboard`` ranks them as ``kg leaderboard`` does, and ``compared_methods``,
``method_components`` and ``method_hierarchy`` answer from COMPARED_WITH, PART_OF and IS_A."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from kg.query.canned import run_query
from kg.query.results import leaderboard
from kg.store.neo4j import count_kg_graph, load_graph_into_neo4j

pytestmark = pytest.mark.neo4j


def relation(G: nx.MultiDiGraph, a: str, kind: str, b: str, sentence: str) -> None:
    G.add_edge(a, b, key=kind, type=kind, papers=["p1"], count=1, evidence=[sentence],
               confidence=0.8)


def graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    for pid in ("p1", "p2", "p3"):
        G.add_node(pid, id=pid, label="Paper", name=pid.upper(), display_name=pid.upper(),
                   title=f"Paper {pid}")
    for eid, lab, name in [("method:grpo", "Method", "GRPO"), ("method:ppo", "Method", "PPO"),
                           ("method:rl", "Method", "reinforcement learning"),
                           ("method:critic", "Method", "value critic"),
                           ("method:drgrpo", "Method", "Dr. GRPO"),
                           ("dataset:gsm8k", "Dataset", "GSM8K"),
                           ("metric:acc", "Metric", "accuracy"),
                           ("metric:err", "Metric", "error rate"),
                           ("concept:clip", "Concept", "clipped surrogate objective")]:
        G.add_node(eid, id=eid, label=lab, name=name, aliases=[], paper_count=1)
    relation(G, "method:grpo", "COMPARED_WITH", "method:ppo", "GRPO outperforms PPO.")
    relation(G, "method:critic", "PART_OF", "method:ppo", "PPO's value critic ...")
    relation(G, "concept:clip", "PART_OF", "method:ppo", "PPO has a clipped surrogate objective.")
    relation(G, "method:grpo", "IS_A", "method:rl", "GRPO, an RL algorithm.")
    relation(G, "method:drgrpo", "IS_A", "method:grpo", "Dr. GRPO, a GRPO variant.")
    claims = [("p1", "71.2%", 71.2, "metric:acc", False),
              ("p2", "85.0%", 85.0, "metric:acc", False),
              ("p3", "3.1%", 3.1, "metric:err", False), ("p2", "9.9%", 9.9, "metric:err", False),
              ("p3", "+4.0%", 4.0, "metric:acc", True)]
    for n, (pid, value, number, metric, rel) in enumerate(claims, 1):
        rid = f"result:{pid}:{n}"
        G.add_node(rid, id=rid, label="Result", name=f"{value} on GSM8K", value=value,
                   number=number, unit="%", relative=rel, evidence=f"{value} on GSM8K.",
                   paper=pid)
        G.add_edge(pid, rid, key="REPORTS", type="REPORTS", evidence=f"{value} on GSM8K.",
                   start=0, end=len(value))
        for kind, target in (("ON_DATASET", "dataset:gsm8k"), ("IN_METRIC", metric),
                             ("FOR_METHOD", "method:grpo")):
            G.add_edge(rid, target, key=kind, type=kind)
    return G


def test_results_load_and_the_leaderboard_ranks_them(empty_db: Any) -> None:
    G = graph()
    summary = load_graph_into_neo4j(G, empty_db, sync=True)
    assert summary.nodes["Result"] == 5 and summary.rels["REPORTS"] == 5
    counts = count_kg_graph(empty_db)
    assert counts["nodes"]["Result"] == 5 and counts["rels"]["ON_DATASET"] == 5
    rows = run_query(empty_db, "leaderboard", {"dataset": "gsm8k", "metric": ""}).rows
    got = [(r["metric"], r["value"], r["paper"], r["method"]) for r in rows]
    assert got == [("accuracy", "85.0%", "P2", "GRPO"), ("accuracy", "71.2%", "P1", "GRPO"),
                   ("error rate", "3.1%", "P3", "GRPO"), ("error rate", "9.9%", "P2", "GRPO")]
    python = {b["metric"]: [r["value"] for r in b["rows"]]
              for b in leaderboard(G, "GSM8K")["boards"]}
    assert python == {"accuracy": ["85.0%", "71.2%"], "error rate": ["3.1%", "9.9%"]}
    only = run_query(empty_db, "leaderboard", {"dataset": "GSM8K", "metric": "ERROR"}).rows
    assert [r["value"] for r in only] == ["3.1%", "9.9%"]
    # Loaded again: the same, nothing doubled (MERGE by id and by (source, type, target)).
    load_graph_into_neo4j(G, empty_db, sync=True)
    assert count_kg_graph(empty_db) == counts


def test_a_sync_removes_the_results_a_graph_lost(empty_db: Any) -> None:
    G = graph()
    load_graph_into_neo4j(G, empty_db, sync=True)
    G.remove_node("result:p3:3")
    summary = load_graph_into_neo4j(G, empty_db, sync=True)
    assert summary.removed_nodes == 1
    assert count_kg_graph(empty_db)["nodes"]["Result"] == 4


def test_relation_queries(empty_db: Any) -> None:
    load_graph_into_neo4j(graph(), empty_db, sync=True)
    rows = run_query(empty_db, "compared_methods", {"method": "ppo"}).rows
    assert [(r["compared_with"], r["direction"], r["evidence"]) for r in rows] == [
        ("GRPO", "in", "GRPO outperforms PPO.")]
    rows = run_query(empty_db, "method_components", {"method": "PPO"}).rows
    # a part the paper describes is a Concept: listed with the named ones
    assert [(r["relation"], r["other"]) for r in rows] == [
        ("component", "clipped surrogate objective"), ("component", "value critic")]
    rows = run_query(empty_db, "method_components", {"method": "value critic"}).rows
    assert [(r["relation"], r["other"]) for r in rows] == [("part of", "PPO")]
    rows = run_query(empty_db, "method_hierarchy", {"name": "Dr. GRPO"}).rows
    assert [(r["direction"], r["depth"], r["other"]) for r in rows] == [
        ("broader", 1, "GRPO"), ("broader", 2, "reinforcement learning")]
    rows = run_query(empty_db, "method_hierarchy", {"name": "GRPO"}).rows
    assert [(r["direction"], r["depth"], r["other"]) for r in rows] == [
        ("broader", 1, "reinforcement learning"), ("narrower", 1, "Dr. GRPO")]
