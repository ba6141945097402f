"""`kg export neo4j-import` through Neo4j's real bulk importer: the database that
``neo4j-admin database import full`` makes from the files (and after-import.cypher) equals the
one ``kg load`` makes from the same graph file: nodes, labels, properties with their Cypher
types, relationships, constraints and indexes; and every canned query answers the same.

The importer needs its server stopped, so it runs into an instance of its own of
scripts/neo4j-test-server (``NEO4J_TEST_IMPORT_BOLT_PORT``, default 7690, and
``NEO4J_TEST_IMPORT_HTTP_PORT``, default 7477), never the shared test server. The same server,
emptied, then takes ``kg load`` of the same graph file: nothing else writes there meanwhile.
Skipped only without Java (the importer is Java).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.query.canned import QueryResult, list_queries, run_query
from kg.schema import EntityRel, Label, Rel
from kg.store.file import load_graph, save_graph
from kg.store.neo4j import count_kg_graph
from kg.store.neo4j_connection import Neo4jConnection
from kg.store.neo4j_import import run_after_import
from tests.integration.conftest import SERVER_SCRIPT, no_server, run_script, wipe

pytestmark = pytest.mark.neo4j

BOLT = int(os.environ.get("NEO4J_TEST_IMPORT_BOLT_PORT", "7690"))
HTTP = int(os.environ.get("NEO4J_TEST_IMPORT_HTTP_PORT", "7477"))
ENV = {"NEO4J_TEST_BOLT_PORT": str(BOLT), "NEO4J_TEST_HTTP_PORT": str(HTTP),
       "NEO4J_TEST_HEAP": os.environ.get("NEO4J_TEST_HEAP", "512m")}


def java_missing() -> bool:
    java_home = os.environ.get("JAVA_HOME")
    return not (Path(java_home, "bin", "java").exists() if java_home else shutil.which("java"))


def awkward_graph() -> nx.MultiDiGraph:
    """Values that CSV makes hard: quotes, commas, new lines, backslashes, the importer's
    default array delimiter, empty strings and lists, mixed types within one property."""
    G = nx.MultiDiGraph()
    paper, method, concept = Label.PAPER.value, Label.METHOD.value, Label.CONCEPT.value
    G.add_node("paper:awkward-1", label=paper, name="Awk \"One\"", display_name="Awk",
               title=' It\'s "quoted", {braces}; \\"back\\slash\\" ünïcødé 🚀 ',
               abstract="Line one,\nline two;\r\nline three.", year=2024, url="",
               keywords=["a;b", 'x"y', "line\nbreak", ""], authors=[],
               similar=["paper:awkward-2"], similar_scores=[1, 0.5], flagged=True,
               flags=[True, False], extra={"nested": [1, 2]}, missing=None)
    G.add_node("paper:awkward-2", label=paper, name="Awk Two", title="Two", year="2025",
               similar_scores=[0.25], similar_terms=[""], authors=["A. Author"], keywords=[])
    G.add_node("method:awkward", label=method, name="AwkNet", aliases=[], paper_count=2)
    G.add_node("concept:awkward", label=concept, name="awkwardness", aliases=["awk"],
               paper_count=1)
    G.add_edge("paper:awkward-1", "method:awkward", key=Rel.USES.value, type=Rel.USES.value,
               evidence="We use AwkNet,\n\"daily\".", start=0, end=6, confidence=1, count=1)
    G.add_edge("paper:awkward-2", "method:awkward", key=Rel.USES.value, type=Rel.USES.value,
               evidence="", start=0, end=6, confidence=0.5, count=2,
               evidence_kind="author keyword")
    G.add_edge("method:awkward", "concept:awkward", key=EntityRel.IS_A.value,
               type=EntityRel.IS_A.value, papers=[], count=1, evidence=["a; b", "c"],
               confidence=0.7)
    return G


@pytest.fixture(scope="module")
def graph_path(tmp_path_factory: pytest.TempPathFactory, seeds_graph: nx.MultiDiGraph) -> Path:
    """The seeds graph and the awkward one, in one graph file."""
    path = tmp_path_factory.mktemp("neo4j-import") / "graph.json"
    save_graph(nx.compose(seeds_graph, awkward_graph()), path)
    return path


@pytest.fixture(scope="module")
def exported(graph_path: Path) -> dict[str, Any]:
    """``kg export neo4j-import --json`` of the graph file."""
    out = graph_path.parent / "csv"
    result = CliRunner().invoke(
        main, ["export", "neo4j-import", str(out), "--graph", str(graph_path), "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def import_and_serve(exported: dict[str, Any]) -> None:
    """Run the importer on the export into the import instance, then start its server."""
    run_script("stop", "--now", env=ENV)  # one a killed run left behind
    # What the command printed, after `neo4j-admin database import full`.
    args = exported["admin_args"]
    assert args[:3] == ["database", "import", "full"]
    done = run_script("import", "--", *args[3:], env=ENV)
    assert done.returncode == 0, done.stderr[-4000:]
    done = run_script("start", "--keep-data", env=ENV)
    if done.returncode != 0:
        no_server(f"could not start the import test server:\n{done.stderr[-3000:]}")


@dataclass
class Database:
    """What the tests compare of one database."""

    counts: dict[str, dict[str, int]]
    snapshot: tuple[list[str], list[str]]
    schema: tuple[list[Any], list[Any]]
    queries: dict[str, QueryResult]
    awkward: dict[str, list[dict[str, Any]]]


def capture(conn: Neo4jConnection) -> Database:
    return Database(
        counts=count_kg_graph(conn), snapshot=typed_snapshot(conn), schema=schema(conn),
        queries={q.name: run_query(conn, q.name) for q in list_queries()},
        awkward={name: conn.read(query) for name, query in AWKWARD_QUERIES.items()},
    )


def drop_everything(conn: Neo4jConnection) -> None:
    """An empty database again: no node, constraint or index (but the built-in lookups)."""
    wipe(conn)
    for c in conn.read("SHOW CONSTRAINTS YIELD name"):
        conn.write(f"DROP CONSTRAINT `{c['name']}`")
    for i in conn.read("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP'"):
        conn.write(f"DROP INDEX `{i['name']}`")


@pytest.fixture(scope="module")
def databases(exported: dict[str, Any], graph_path: Path) -> Iterator[tuple[Database, Database]]:
    """(the database the importer made, after after-import.cypher; the database ``kg load``
    makes of the same graph file). Both on the import server, one after the other: nothing
    else uses it, unlike the shared test server."""
    if java_missing():
        pytest.skip("no Java: Neo4j's importer cannot run")
    if not SERVER_SCRIPT.exists():
        no_server("scripts/neo4j-test-server is missing")
    uri = f"bolt://127.0.0.1:{BOLT}"
    conn = Neo4jConnection(uri=uri)
    try:
        import_and_serve(exported)
        conn.open()
        run_after_import(conn, exported["after_import"])
        imported = capture(conn)
        drop_everything(conn)
        # (No NEO4J_* settings of the shared server's: this one has auth off, database neo4j.)
        unset: dict[str, str | None] = {k: None for k in os.environ if k.startswith("NEO4J_")}
        load = CliRunner(env=unset).invoke(main, ["load", str(graph_path), "--uri", uri])
        assert load.exit_code == 0, load.output
        yield imported, capture(conn)
    finally:
        conn.close()
        run_script("stop", "--now", env=ENV)  # (its database is thrown away)


@pytest.fixture(scope="module")
def imported(databases: tuple[Database, Database]) -> Database:
    return databases[0]


@pytest.fixture(scope="module")
def loaded(databases: tuple[Database, Database]) -> Database:
    return databases[1]


def typed_snapshot(conn: Any) -> tuple[list[str], list[str]]:
    """Every node and relationship with its properties and each property's Cypher type
    (Python alone reads 1 and 1.0 as equal), sorted."""
    nodes = conn.read(
        "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props, "
        "[k IN keys(n) | [k, valueType(n[k])]] AS types")
    rels = conn.read(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS type, b.id AS b, "
        "properties(r) AS props, [k IN keys(r) | [k, valueType(r[k])]] AS types")

    def key(row: dict[str, Any]) -> str:  # (keys() come in store order, which may differ)
        return json.dumps({**row, "types": sorted(row["types"])}, sort_keys=True,
                          ensure_ascii=False)

    return sorted(map(key, nodes)), sorted(map(key, rels))


def schema(conn: Any) -> tuple[list[Any], list[Any]]:
    constraints = conn.read(
        "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties "
        "RETURN name, type, labelsOrTypes, properties ORDER BY name")
    indexes = conn.read(
        "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, state, owningConstraint "
        "WHERE type <> 'LOOKUP' RETURN name, type, labelsOrTypes, properties, state, "
        "owningConstraint ORDER BY name")
    return constraints, indexes


AWKWARD_QUERIES = {
    "papers": "MATCH (p:Paper) WHERE p.id STARTS WITH 'paper:awkward' RETURN p.id AS id, "
              "properties(p) AS props, valueType(p.year) AS year, "
              "valueType(p.similar_scores) AS scores ORDER BY id",
    "uses": "MATCH (:Paper)-[r:USES]->(:Method {id: 'method:awkward'}) "
            "RETURN r.evidence AS evidence, valueType(r.confidence) AS confidence "
            "ORDER BY evidence",
    "is_a": "MATCH ()-[r:IS_A]->(:Concept {id: 'concept:awkward'}) RETURN properties(r) AS props",
}


def test_the_import_holds_what_kg_load_writes(
    imported: Database, loaded: Database, graph_path: Path, exported: dict[str, Any]
) -> None:
    G = load_graph(graph_path)
    counts = imported.counts
    assert counts == loaded.counts
    assert sum(counts["nodes"].values()) == G.number_of_nodes() == exported["node_count"]
    assert sum(counts["rels"].values()) == G.number_of_edges() == exported["rel_count"]
    assert {k: v for k, v in counts["nodes"].items() if v} == exported["nodes"]
    assert {k: v for k, v in counts["rels"].items() if v} == exported["rels"]
    got, want = imported.snapshot, loaded.snapshot
    assert len(got[0]) == len(want[0]) and len(got[1]) == len(want[1])
    assert [n for n in got[0] if n not in want[0]] == []  # (a short diff on failure)
    assert [r for r in got[1] if r not in want[1]] == []
    assert got == want


def test_the_awkward_values_come_back_as_kg_load_stores_them(
    imported: Database, loaded: Database
) -> None:
    assert imported.awkward == loaded.awkward
    rows = imported.awkward["papers"]
    one, two = (r["props"] for r in rows)
    assert one["title"] == ' It\'s "quoted", {braces}; \\"back\\slash\\" ünïcødé 🚀 '
    assert one["abstract"] == "Line one,\nline two;\r\nline three."
    assert one["keywords"] == ["a;b", 'x"y', "line\nbreak", ""]
    assert one["authors"] == [] and one["url"] == "" and one["flagged"] is True
    assert one["flags"] == ["true", "false"] and one["extra"] == '{"nested": [1, 2]}'
    assert "missing" not in one and "kg_empty_lists" not in one and one["kg_managed"] is True
    assert [r["year"] for r in rows] == ["INTEGER NOT NULL", "STRING NOT NULL"]
    assert rows[0]["scores"] == "LIST<FLOAT NOT NULL> NOT NULL" and one["similar_scores"] == [
        1.0, 0.5]
    assert two["keywords"] == [] and two["authors"] == ["A. Author"]
    assert two["similar_terms"] == [""] and "kg_blank_lists" not in two
    assert imported.awkward["uses"] == [
        {"evidence": "", "confidence": "FLOAT NOT NULL"},
        {"evidence": 'We use AwkNet,\n"daily".', "confidence": "INTEGER NOT NULL"}]
    assert imported.awkward["is_a"] == [{"props": {"papers": [], "count": 1,
                                                   "evidence": ["a; b", "c"],
                                                   "confidence": 0.7}}]


def test_the_import_has_kg_loads_constraints_and_indexes(
    imported: Database, loaded: Database
) -> None:
    constraints, indexes = imported.schema
    assert (constraints, indexes) == loaded.schema
    unique = {c["labelsOrTypes"][0] for c in constraints if c["properties"] == ["id"]}
    assert unique == {label.value for label in Label}
    assert all(i["state"] == "ONLINE" for i in indexes)


@pytest.mark.parametrize("name", [q.name for q in list_queries()])
def test_every_canned_query_answers_the_same(
    imported: Database, loaded: Database, name: str
) -> None:
    got, want = imported.queries[name], loaded.queries[name]
    assert got.columns == want.columns
    assert comparable(got.rows) == comparable(want.rows)


#: Columns that show a few examples of an unordered collection (``collect(...)[..5]``, one of
#: the shortest paths): which ones depends on the order of the store, in any two databases.
SAMPLES = {"example_tasks", "examples", "via", "example", "path"}


def comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with each sample column reduced to its size (which the query fixes)."""
    def size(value: Any) -> Any:
        if isinstance(value, list):
            return len(value)
        return value.get("length") if isinstance(value, dict) else value is None

    return [{k: size(v) if k in SAMPLES else v for k, v in row.items()} for row in rows]
