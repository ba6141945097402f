"""`load_graph_into_neo4j` against a real Neo4j: idempotence, interruption, parameters,
replace, and one-line errors when the server goes away."""

from __future__ import annotations

import time
from typing import Any

import networkx as nx
import pytest

from kg.errors import Neo4jError
from kg.store.neo4j import count_kg_graph, load_graph_into_neo4j
from kg.store.neo4j_connection import Neo4jConnection
from kg.store.neo4j_rows import FULLTEXT_INDEX, MANAGED, graph_to_rows
from tests.integration.conftest import AuthServer, snapshot

pytestmark = pytest.mark.neo4j

NASTY_TITLE = (
    "It's \"quoted\" {braces} $param `ticks` \\back\\slash '}) MATCH (n) DETACH DELETE n //"
    " RETURN 1; CREATE (x:Evil) -- ünïcødé 🚀"
)


def expected_counts(G: nx.MultiDiGraph) -> dict[str, dict[str, int]]:
    rows = graph_to_rows(G)
    nodes = {label.value: len(r) for label, r in rows.nodes.items()}
    rels: dict[str, int] = {}
    for (rel, _, _), r in rows.rels.items():
        rels[rel.value] = rels.get(rel.value, 0) + len(r)
    return {"nodes": nodes, "rels": rels}


def nonzero(counts: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {k: {t: n for t, n in v.items() if n} for k, v in counts.items()}


def test_loading_twice_leaves_identical_counts(empty_db: Any, seeds_graph: nx.MultiDiGraph) -> None:
    first = load_graph_into_neo4j(seeds_graph, empty_db, batch_size=50)
    after_first = count_kg_graph(empty_db)
    snap_first = snapshot(empty_db)
    second = load_graph_into_neo4j(seeds_graph, empty_db, batch_size=50)
    assert count_kg_graph(empty_db) == after_first
    assert snapshot(empty_db) == snap_first
    assert nonzero(after_first) == expected_counts(seeds_graph)
    # results and topics go to Neo4j like the rest (every paper in one topic)
    assert after_first["nodes"]["Result"] > 0 and after_first["nodes"]["Topic"] > 0
    assert after_first["rels"]["IN_TOPIC"] == after_first["nodes"]["Paper"]
    assert first.node_count == second.node_count == seeds_graph.number_of_nodes()
    assert first.rel_count == second.rel_count == seeds_graph.number_of_edges()


def test_schema_is_created(empty_db: Any, seeds_graph: nx.MultiDiGraph) -> None:
    load_graph_into_neo4j(seeds_graph, empty_db)
    constraints = empty_db.read("SHOW CONSTRAINTS YIELD labelsOrTypes, properties, type")
    unique = {c["labelsOrTypes"][0] for c in constraints
              if c["type"] == "UNIQUENESS" and c["properties"] == ["id"]}
    assert {"Paper", "Method", "Task", "Dataset", "Metric", "Concept"} <= unique
    index = empty_db.read("SHOW FULLTEXT INDEXES YIELD name, state WHERE name = $n",
                          n=FULLTEXT_INDEX)
    assert index and index[0]["state"] == "ONLINE"


def test_interrupted_load_then_rerun_gives_the_same_graph(
    empty_db: Any, seeds_graph: nx.MultiDiGraph
) -> None:
    load_graph_into_neo4j(seeds_graph, empty_db, batch_size=20)
    clean = snapshot(empty_db)
    empty_db.write("MATCH (n) DETACH DELETE n")

    class Boom(Exception):
        pass

    batches = []

    def die_after_three(n: int) -> None:
        batches.append(n)
        if len(batches) == 3:
            raise Boom

    with pytest.raises(Boom):
        load_graph_into_neo4j(seeds_graph, empty_db, batch_size=20, progress=die_after_three)
    partial = snapshot(empty_db)
    assert 0 < len(partial[0]) < len(clean[0]), "the load stopped half-way"
    load_graph_into_neo4j(seeds_graph, empty_db, batch_size=20)
    assert snapshot(empty_db) == clean


def test_values_with_quotes_braces_and_keywords_round_trip(empty_db: Any) -> None:
    G = nx.MultiDiGraph()
    G.add_node("paper:nasty", label="Paper", name=NASTY_TITLE, title=NASTY_TITLE,
               display_name=NASTY_TITLE, abstract=NASTY_TITLE * 2, keywords=[NASTY_TITLE, "x"],
               authors=["O'Brien", "{Smith}"], year=2026)
    G.add_node("method:n", label="Method", name="M'}) RETURN 1 //", aliases=[NASTY_TITLE],
               paper_count=1)
    G.add_edge("paper:nasty", "method:n", key="USES", type="USES", evidence=NASTY_TITLE,
               start=0, end=5, confidence=0.5, count=1)
    empty_db.write("CREATE (:Bystander {name: 'keep me'})")
    load_graph_into_neo4j(G, empty_db)
    paper = empty_db.read("MATCH (p:Paper {id: 'paper:nasty'}) RETURN properties(p) AS p")[0]["p"]
    assert paper["title"] == paper["name"] == NASTY_TITLE
    assert paper["abstract"] == NASTY_TITLE * 2
    assert paper["keywords"] == [NASTY_TITLE, "x"]
    assert paper["authors"] == ["O'Brien", "{Smith}"]
    rel = empty_db.read("MATCH (:Paper)-[r:USES]->(m:Method) RETURN r.evidence AS e, m.name AS m,"
                        " m.aliases AS a")
    assert rel == [{"e": NASTY_TITLE, "m": "M'}) RETURN 1 //", "a": [NASTY_TITLE]}]
    assert empty_db.read("MATCH (n) RETURN count(n) AS c")[0]["c"] == 3  # nothing injected
    assert empty_db.read("MATCH (n:Evil) RETURN count(n) AS c")[0]["c"] == 0


def test_replace_removes_only_what_kg_loaded(empty_db: Any, seeds_graph: nx.MultiDiGraph) -> None:
    empty_db.write("CREATE (:Paper {id: 'foreign', title: 'not from kg'})-[:CITES]->(:Note)")
    G = nx.MultiDiGraph()
    G.add_node("paper:old", label="Paper", name="Old", title="Old")
    load_graph_into_neo4j(G, empty_db)
    summary = load_graph_into_neo4j(seeds_graph, empty_db, replace=True)
    assert summary.deleted == 1
    ids = {r["id"] for r in empty_db.read("MATCH (p:Paper) RETURN p.id AS id")}
    assert "paper:old" not in ids and "foreign" in ids
    assert empty_db.read("MATCH (:Paper {id: 'foreign'})-[:CITES]->(n:Note) RETURN count(n) AS c"
                         )[0]["c"] == 1
    managed = empty_db.read(f"MATCH (n) WHERE n.{MANAGED} RETURN count(n) AS c")[0]["c"]
    assert managed == seeds_graph.number_of_nodes()


def test_server_gone_mid_load_is_one_line(auth_server: AuthServer,
                                          seeds_graph: nx.MultiDiGraph) -> None:
    auth_server.start()  # (re)start: this test stops it
    conn = Neo4jConnection(uri=auth_server.uri, user=auth_server.user,
                           password=auth_server.password, max_retry_time=3.0,
                           connection_timeout=2.0)
    conn.open()
    batches = []

    def stop_server_after_first_batch(n: int) -> None:
        batches.append(n)
        if len(batches) == 1:
            auth_server.stop()

    t0 = time.monotonic()
    try:
        with pytest.raises(Neo4jError) as err:
            load_graph_into_neo4j(seeds_graph, conn, batch_size=10,
                                  progress=stop_server_after_first_batch)
    finally:
        conn.close()
    message = str(err.value)
    assert "\n" not in message
    assert "lost the connection to Neo4j" in message or "cannot reach Neo4j" in message
    assert auth_server.uri in message
    assert time.monotonic() - t0 < 120, "the retries are bounded"
