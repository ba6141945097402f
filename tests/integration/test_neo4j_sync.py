"""``kg load`` syncs against a real Neo4j: after loading graph A then graph B, kg's part of the
database is B (papers dropped, a property changed and one removed, a link dropped), what is not
kg's survives, ``--no-sync`` keeps the old, and a sync that dies half-way converges when re-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg.schema import Label
from kg.store.file import load_graph, save_graph
from kg.store.neo4j import load_graph_into_neo4j
from kg.store.neo4j_rows import MANAGED
from tests.integration.conftest import wipe

pytestmark = pytest.mark.neo4j

KG = str(Path(sys.executable).parent / "kg")


def kg(*args: str, uri: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NEO4J_URI": uri}
    return subprocess.run([KG, *args], capture_output=True, text=True, timeout=300, env=env)


def papers(G: nx.MultiDiGraph) -> list[str]:
    return sorted(n for n, a in G.nodes(data=True) if a["label"] == "Paper")


def graph_b(A: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A with the second half of its papers gone (and the entities only they had), one
    paper's title changed and its year removed, and one link of a kept paper dropped."""
    B = A.copy()
    gone = papers(A)[len(papers(A)) // 2 :]
    B.remove_nodes_from(gone)
    B.remove_nodes_from([n for n in list(B) if B.nodes[n]["label"] != "Paper" and not B.degree(n)])
    first = papers(B)[0]
    B.nodes[first]["title"] = "A changed title"
    B.nodes[first].pop("year", None)
    u, v, k = next(iter(B.out_edges(first, keys=True)))
    B.remove_edge(u, v, key=k)
    return B


def kg_part(conn: Any) -> tuple[list[Any], list[Any]]:
    """kg's nodes (labels, properties) and relationships (ends, type, properties), sorted."""
    nodes = conn.read(f"MATCH (n) WHERE n.{MANAGED} = true RETURN "
                      "[x IN labels(n) WHERE x IN $kg] AS labels, properties(n) AS props",
                      kg=[label.value for label in Label])  # (a label of a user's is not kg's)
    rels = conn.read(f"MATCH (a)-[r]->(b) WHERE a.{MANAGED} = true AND b.{MANAGED} = true "
                     "RETURN a.id AS a, type(r) AS type, b.id AS b, properties(r) AS props")
    return sorted(nodes, key=repr), sorted(rels, key=repr)


@pytest.fixture(scope="module")
def graphs(seeds_graph: nx.MultiDiGraph) -> tuple[nx.MultiDiGraph, nx.MultiDiGraph]:
    return seeds_graph, graph_b(seeds_graph)


@pytest.fixture(scope="module")
def only_b(neo4j_conn: Any, graphs: tuple[nx.MultiDiGraph, nx.MultiDiGraph]) -> Any:
    """kg's part of a database into which B alone was loaded."""
    wipe(neo4j_conn)
    load_graph_into_neo4j(graphs[1], neo4j_conn, batch_size=50)
    return kg_part(neo4j_conn)


FOREIGN = """
CREATE (note:Note {text: 'mine'})
CREATE (stranger:Paper {id: 'foreign-paper', title: 'not from kg'})
CREATE (note)-[:ABOUT]->(stranger)
CREATE (stranger)-[:USES]->(note)
WITH note
MATCH (p:Paper {id: $kept}), (q:Paper {id: $gone})
SET p:Favourite
CREATE (note)-[:ABOUT {why: 'kept'}]->(p)
CREATE (p)-[:CITES]->(note)
"""


def foreign(conn: Any) -> dict[str, Any]:
    return {
        "notes": conn.read("MATCH (n:Note) RETURN n.text AS t"),
        "stranger": conn.read("MATCH (p:Paper {id: 'foreign-paper'}) RETURN p.title AS t"),
        "stranger_rels": conn.read(
            "MATCH (:Paper {id: 'foreign-paper'})-[r]-() RETURN type(r) AS t ORDER BY t"),
        "favourite": conn.read("MATCH (p:Favourite) RETURN p.id AS id"),
        "on_kept": conn.read(
            "MATCH (:Note)-[r:ABOUT]->(p:Paper) WHERE p.kg_managed RETURN r.why AS why"),
        "cites": conn.read("MATCH (:Paper)-[r:CITES]->(:Note) RETURN count(r) AS c"),
    }


def test_loading_b_after_a_leaves_exactly_b_and_everything_not_kgs(
    empty_db: Any, graphs: tuple[nx.MultiDiGraph, nx.MultiDiGraph], only_b: Any
) -> None:
    A, B = graphs
    conn = empty_db
    load_graph_into_neo4j(A, conn, batch_size=50, sync=True)
    kept, gone = papers(B)[1], papers(A)[-1]
    conn.write(FOREIGN, kept=kept, gone=gone)
    before = foreign(conn)
    summary = load_graph_into_neo4j(B, conn, batch_size=7, sync=True)  # several delete batches

    assert kg_part(conn) == only_b  # kg's part is B, exactly
    assert foreign(conn) == before  # and nothing that is not kg's changed
    assert before["favourite"] == [{"id": kept}] and before["cites"] == [{"c": 1}]
    removed_nodes = A.number_of_nodes() - B.number_of_nodes()  # B is part of A
    removed_rels = A.number_of_edges() - B.number_of_edges()
    assert (summary.removed_nodes, summary.removed_rels) == (removed_nodes, removed_rels)
    assert summary.removed_props == 1  # the year
    assert removed_nodes >= 19 and removed_rels > 1
    title = conn.read("MATCH (p:Paper {id: $id}) RETURN p.title AS t, p.year AS y",
                      id=papers(B)[0])
    assert title == [{"t": "A changed title", "y": None}]


def test_no_sync_keeps_what_the_graph_no_longer_has(
    empty_db: Any, graphs: tuple[nx.MultiDiGraph, nx.MultiDiGraph]
) -> None:
    A, B = graphs
    load_graph_into_neo4j(A, empty_db, batch_size=50)
    summary = load_graph_into_neo4j(B, empty_db, batch_size=50, sync=False)
    assert summary.removed == 0
    nodes, _ = kg_part(empty_db)
    assert len(nodes) == A.number_of_nodes()  # the dropped papers are still there
    year = empty_db.read("MATCH (p:Paper {id: $id}) RETURN p.year AS y", id=papers(B)[0])
    assert year[0]["y"] is not None  # and the property B removed


def test_a_sync_that_dies_half_way_converges_when_run_again(
    empty_db: Any, graphs: tuple[nx.MultiDiGraph, nx.MultiDiGraph], only_b: Any
) -> None:
    """Killed while writing, then while deleting: each re-run gives B."""
    A, B = graphs

    class Boom(Exception):
        pass

    real_write = empty_db.write

    def dying_at_the_third(statement_part: str) -> Any:
        seen = []

        def write(query: str, **params: Any) -> Any:
            if statement_part in query:
                seen.append(query)
                if len(seen) == 3:
                    raise Boom
            return real_write(query, **params)

        return write

    for statement_part in ("$rows", "NOT n.id IN $keep"):  # an upsert, a deletion of nodes
        wipe(empty_db)
        load_graph_into_neo4j(A, empty_db, batch_size=50)
        empty_db.write = dying_at_the_third(statement_part)
        try:
            with pytest.raises(Boom):
                load_graph_into_neo4j(B, empty_db, batch_size=5, sync=True)
        finally:
            del empty_db.write
        assert kg_part(empty_db) != only_b, "it stopped half-way"
        load_graph_into_neo4j(B, empty_db, batch_size=50, sync=True)
        assert kg_part(empty_db) == only_b


def test_kg_load_syncs_by_default_and_says_what_it_removed(
    empty_db: Any, neo4j_uri: str, graphs: tuple[nx.MultiDiGraph, nx.MultiDiGraph],
    tmp_path: Path, only_b: Any,
) -> None:
    A, B = graphs
    a_path, b_path = save_graph(A, tmp_path / "a.json"), save_graph(B, tmp_path / "b.json")
    assert kg("load", str(a_path), uri=neo4j_uri).returncode == 0
    empty_db.write("CREATE (:Bystander {name: 'keep me'})")
    kept = kg("load", str(b_path), "--no-sync", "--json", uri=neo4j_uri)
    assert json.loads(kept.stdout)["removed"] == {"nodes": 0, "rels": 0, "properties": 0}
    done = kg("load", str(b_path), uri=neo4j_uri)
    assert done.returncode == 0, done.stderr
    nodes = A.number_of_nodes() - B.number_of_nodes()
    rels = A.number_of_edges() - B.number_of_edges()
    assert f"synced:   removed {nodes} nodes, {rels} relationships and 1 properties" in done.stdout
    assert kg_part(empty_db) == only_b
    assert empty_db.read("MATCH (n:Bystander) RETURN n.name AS n") == [{"n": "keep me"}]
    again = kg("load", str(b_path), "--json", uri=neo4j_uri)
    summary = json.loads(again.stdout)
    assert summary["synced"] and summary["removed"] == {"nodes": 0, "rels": 0, "properties": 0}


def test_kg_load_killed_mid_sync_then_run_again_gives_the_file(
    empty_db: Any, neo4j_uri: str, graphs: tuple[nx.MultiDiGraph, nx.MultiDiGraph],
    tmp_path: Path, only_b: Any,
) -> None:
    """A real SIGKILL of the ``kg load`` process, once it has written some batches."""
    A, B = graphs
    load_graph_into_neo4j(A, empty_db, batch_size=50)
    b_path = save_graph(B, tmp_path / "b.json")
    env = {**os.environ, "NEO4J_URI": neo4j_uri}
    load = subprocess.Popen([KG, "load", str(b_path), "--batch-size", "1"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    changed = f"MATCH (p:Paper) WHERE p.{MANAGED} AND p.title = $t RETURN count(p) AS c"
    end = time.monotonic() + 120
    while (load.poll() is None and time.monotonic() < end
           and not empty_db.read(changed, t="A changed title")[0]["c"]):
        time.sleep(0.02)
    load.send_signal(signal.SIGKILL)
    load.wait()
    assert load.returncode == -signal.SIGKILL, "the load ended before it could be killed"
    assert kg_part(empty_db) != only_b, "it stopped half-way"
    done = kg("load", str(b_path), uri=neo4j_uri)
    assert done.returncode == 0, done.stderr
    assert kg_part(empty_db) == only_b
    assert load_graph(b_path).number_of_nodes() == len(kg_part(empty_db)[0])
