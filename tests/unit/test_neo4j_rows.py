"""The Neo4j store without a server: rows, Cypher text, batching, error lines, canned queries.

The tests that talk to a real Neo4j are in tests/integration/test_neo4j_*.py.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg.errors import Neo4jError, QueryError
from kg.query.canned import cypher_literal, get_query, list_queries, parse_param_pairs, parse_query
from kg.schema import ENTITY_LABELS, TEXT_WEIGHT, TYPE_WEIGHT, Label, Rel
from kg.store.neo4j import load_graph_into_neo4j
from kg.store.neo4j_connection import Neo4jConnection, neo4j_error
from kg.store.neo4j_rows import (
    MANAGED,
    GraphRows,
    delete_statement,
    graph_to_rows,
    node_statement,
    rel_statement,
    schema_statements,
)

REPO = Path(__file__).resolve().parent.parent.parent


def small_graph(papers: int = 5) -> nx.MultiDiGraph:
    """A graph shaped like the contract's: papers linked to shared entities."""
    G = nx.MultiDiGraph(kg_format=1)
    ents = [("method:m", Label.METHOD), ("dataset:d", Label.DATASET), ("task:t", Label.TASK),
            ("metric:acc", Label.METRIC), ("concept:c", Label.CONCEPT)]
    for eid, label in ents:
        G.add_node(eid, label=label.value, name=eid.split(":")[1].upper(), aliases=[eid],
                   paper_count=papers)
    for i in range(papers):
        pid = f"paper:{i:016x}"
        G.add_node(pid, label="Paper", name=f"P{i}", title=f"Title {i}", display_name=f"P{i}",
                   abstract="text", venue="V", year=2024 if i else None, keywords=["a", "b"],
                   authors=[], primary_area="", url="", source=f"f.txt:{i}")
        for eid, label in ents:
            rel = Rel.PROPOSES if (i == 0 and label == Label.METHOD) else {
                Label.METHOD: Rel.USES, Label.DATASET: Rel.EVALUATES_ON, Label.TASK: Rel.ADDRESSES,
                Label.METRIC: Rel.MEASURES, Label.CONCEPT: Rel.MENTIONS}[label]
            G.add_edge(pid, eid, key=rel.value, type=rel.value, evidence=f"ev {i}", start=0,
                       end=3, confidence=0.9, count=1)
    return G


# --------------------------------------------------------------------------- graph_to_rows


def test_rows_per_label_and_type() -> None:
    G = small_graph(4)
    rows = graph_to_rows(G)
    assert {label: len(r) for label, r in rows.nodes.items()} == {
        Label.PAPER: 4, **{label: 1 for label in ENTITY_LABELS}}
    assert rows.node_count == G.number_of_nodes()
    assert rows.rel_count == G.number_of_edges()
    assert rows.total == G.number_of_nodes() + G.number_of_edges()
    # Relationships are grouped by (type, source label, target label): PROPOSES -> Method once.
    assert len(rows.rels[(Rel.PROPOSES, Label.PAPER, Label.METHOD)]) == 1
    assert len(rows.rels[(Rel.USES, Label.PAPER, Label.METHOD)]) == 3
    rel_row = rows.rels[(Rel.EVALUATES_ON, Label.PAPER, Label.DATASET)][0]
    assert rel_row["src"].startswith("paper:") and rel_row["dst"] == "dataset:d"
    assert rel_row["props"] == {"confidence": 0.9, "count": 1, "end": 3, "evidence": "ev 0",
                                "start": 0}


def test_rows_properties_are_neo4j_values() -> None:
    G = small_graph(2)
    G.nodes["paper:0000000000000000"]["weird"] = {"nested": [1, 2]}
    G.nodes["paper:0000000000000000"]["mixed"] = ["a", 1, None]
    rows = graph_to_rows(G)
    paper = next(r for r in rows.nodes[Label.PAPER] if r["id"] == "paper:0000000000000000")
    props = paper["props"]
    assert props["id"] == "paper:0000000000000000"  # the node key becomes the id property
    assert "label" not in props  # the label is a Neo4j label, not a property
    assert props["keywords"] == ["a", "b"]
    assert props["year"] is None  # SET n += {year: null} removes a stale year
    assert props["weird"] == '{"nested": [1, 2]}'
    assert props["mixed"] == ["a", "1"]


def test_rows_are_deterministic() -> None:
    G = small_graph(6)
    H = nx.MultiDiGraph()
    H.add_nodes_from(reversed(list(G.nodes(data=True))))
    H.add_edges_from(reversed(list(G.edges(keys=True, data=True))))
    assert graph_to_rows(G) == graph_to_rows(H)


def test_rows_reject_unknown_labels_and_types() -> None:
    G = nx.MultiDiGraph()
    G.add_node("x", label="Paper) DETACH DELETE (n")
    with pytest.raises(Neo4jError, match="no kg label"):
        graph_to_rows(G)
    G = small_graph(1)
    G.add_edge("paper:0000000000000000", "method:m", key="EVIL`]->()", type="EVIL`]->()")
    with pytest.raises(Neo4jError, match="no kg type"):
        graph_to_rows(G)


# --------------------------------------------------------------------------- Cypher text


def test_schema_statements_are_idempotent_and_cover_every_label() -> None:
    stmts = schema_statements()
    assert all("IF NOT EXISTS" in s for s in stmts)
    for label in (Label.PAPER, *ENTITY_LABELS):
        assert any(f"(n:`{label.value}`) REQUIRE n.id IS UNIQUE" in s for s in stmts)
    fulltext = [s for s in stmts if "FULLTEXT" in s]
    assert len(fulltext) == 1 and "n.title" in fulltext[0] and "n.abstract" in fulltext[0]


def test_statements_take_values_only_as_parameters() -> None:
    stmts = [node_statement(Label.PAPER), rel_statement(Rel.USES, Label.PAPER, Label.METHOD),
             delete_statement(Label.TASK)]
    for s in stmts:
        # No quoted string literal anywhere: every value arrives through $rows / $limit.
        assert "'" not in s and '"' not in s
    assert "UNWIND $rows AS row MERGE" in stmts[0] and f"n.{MANAGED} = true" in stmts[0]
    assert "MERGE (a)-[r:`USES`]->(b)" in stmts[1]
    assert f"n.{MANAGED} = true" in stmts[2] and "LIMIT $limit" in stmts[2]


# --------------------------------------------------------------------------- load (fake server)


class FakeConnection(Neo4jConnection):
    """Records what the loader writes instead of talking to a server."""

    def __init__(self) -> None:
        super().__init__(uri="bolt://fake:7687")
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def open(self) -> FakeConnection:
        return self

    def write(self, query: str, **params: Any) -> Any:
        self.calls.append((query, params))
        if query.startswith("MATCH") and "DELETE" in query:
            return [{"deleted": 0}]
        return []


def test_load_batches_rows_and_reports_progress() -> None:
    G = small_graph(7)  # 12 nodes, 35 relationships
    conn = FakeConnection()
    seen: list[int] = []
    summary = load_graph_into_neo4j(G, conn, batch_size=3, progress=seen.append)
    data_calls = [(q, p) for q, p in conn.calls if "$rows" in q]
    assert all(len(p["rows"]) <= 3 for _, p in data_calls)
    assert sum(seen) == G.number_of_nodes() + G.number_of_edges()
    assert summary.batches == len(data_calls) == len(seen)
    assert summary.nodes == {"Paper": 7, "Method": 1, "Task": 1, "Dataset": 1, "Metric": 1,
                             "Concept": 1} or summary.node_count == 12
    assert summary.node_count == 12 and summary.rel_count == 35
    # The schema comes first, then every node batch before any relationship batch.
    first_data = conn.calls.index(data_calls[0])
    assert all("CREATE" in q or "awaitIndexes" in q for q, _ in conn.calls[:first_data])
    kinds = ["MERGE (n:" in q for q, _ in data_calls]
    assert kinds == sorted(kinds, reverse=True)


def test_load_replace_deletes_kg_nodes_first() -> None:
    conn = FakeConnection()
    load_graph_into_neo4j(small_graph(2), conn, replace=True)
    deletes = [i for i, (q, _) in enumerate(conn.calls) if "DELETE" in q]
    merges = [i for i, (q, _) in enumerate(conn.calls) if "MERGE" in q]
    # Relationships first (one query from papers, one between entities), then each label's
    # nodes; all before any MERGE.
    assert "DELETE r" in conn.calls[deletes[0]][0] and "DELETE r" in conn.calls[deletes[1]][0]
    assert len(deletes) == 2 + len(Label) and max(deletes) < min(merges)


def test_load_without_replace_deletes_nothing() -> None:
    conn = FakeConnection()
    load_graph_into_neo4j(small_graph(2), conn)
    assert not any("DELETE" in q for q, _ in conn.calls)


def test_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError):
        load_graph_into_neo4j(small_graph(1), FakeConnection(), batch_size=0)


def test_graph_rows_totals() -> None:
    assert GraphRows(nodes={}, rels={}).total == 0


# --------------------------------------------------------------------------- error lines


def test_error_lines_are_one_readable_line() -> None:
    import neo4j.exceptions as ne

    conn = Neo4jConnection(uri="bolt://db.example:7687", user="alice", database="kg")
    cases = {
        ne.AuthError("The client is unauthorized"): "rejected the credentials of user 'alice'",
        ne.ServiceUnavailable("Couldn't connect\nmore"): "cannot reach Neo4j at bolt://db.example",
        OSError("refused"): "cannot reach Neo4j",
    }
    for exc, expected in cases.items():
        line = str(neo4j_error(exc, conn))
        assert expected in line and "\n" not in line
    db = ne.ClientError("Database does not exist. Database name: 'kg'.")
    db._neo4j_code = "Neo.ClientError.Database.DatabaseNotFound"  # as the driver fills it in
    if getattr(db, "code", None) == "Neo.ClientError.Database.DatabaseNotFound":
        assert str(neo4j_error(db, conn)) == "Neo4j at bolt://db.example:7687 has no database 'kg'"
    conn.loading = True
    line = str(neo4j_error(ne.ServiceUnavailable("gone"), conn))
    assert "lost the connection" in line and "idempotent" in line


def test_bad_uri_scheme_is_one_line() -> None:
    with pytest.raises(Neo4jError, match="must start with bolt://"):
        Neo4jConnection(uri="http://localhost:7474").open()


def test_connection_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j://h:1")
    monkeypatch.setenv("NEO4J_USERNAME", "u")
    monkeypatch.setenv("NEO4J_PASSWORD", "p")
    monkeypatch.setenv("NEO4J_DATABASE", "d")
    conn = Neo4jConnection.from_env()
    assert (conn.uri, conn.user, conn.password, conn.database) == ("neo4j://h:1", "u", "p", "d")
    conn = Neo4jConnection.from_env("bolt://x:2", "v", "q", "e")
    assert (conn.uri, conn.user, conn.password, conn.database) == ("bolt://x:2", "v", "q", "e")
    for var in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        monkeypatch.delenv(var)
    conn = Neo4jConnection.from_env()
    assert (conn.uri, conn.user, conn.password, conn.database) == (
        "bolt://localhost:7687", "neo4j", None, None)


# --------------------------------------------------------------------------- canned queries


def test_at_least_ten_canned_queries_with_headers() -> None:
    queries = list_queries()
    assert len(queries) >= 10
    names = [q.name for q in queries]
    assert len(set(names)) == len(names)
    for q in queries:
        assert Path(q.path).name == f"{q.name}.cypher", "file name and header name agree"
        assert q.answers.endswith((".", "?")), q.name
        assert re.search(r"\bLIMIT\b", q.body), f"{q.name}: unbounded"
        used = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", q.body))
        declared = {p.name for p in q.params}
        assert used == declared, f"{q.name}: parameters used {used} vs declared {declared}"
        # Values come as parameters: no quoted literal compares against a property value.
        assert not re.search(r"[=<>]\s*['\"]", q.body), q.name


def test_required_topics_are_covered() -> None:
    names = {q.name for q in list_queries()}
    assert {"related_papers", "papers_on_dataset", "most_used_datasets", "methods_for_task",
            "tasks_for_method", "shared_between_papers", "bridging_concepts", "new_benchmarks",
            "shortest_connection", "co_occurring_methods"} <= names


def test_related_query_uses_the_schema_weights() -> None:
    body = get_query("related_papers").body
    for label, weight in TYPE_WEIGHT.items():
        assert re.search(rf"WHEN '{label.value}' THEN {weight}\b", body), label
    assert f"{TEXT_WEIGHT} * similarity" in body


def test_every_cypher_file_is_a_listed_query_and_no_symlink_is_needed() -> None:
    folder = REPO / "kg" / "cypher"
    assert folder.is_dir() and not folder.is_symlink()
    files = sorted(p.name for p in folder.glob("*.cypher"))
    assert files and files == sorted(Path(q.path).name for q in list_queries())


def test_browser_text_and_params() -> None:
    q = get_query("papers_on_dataset")
    text = q.browser_text({"dataset": "it's"})
    assert text.startswith(":param dataset => 'it\\'s';\n")
    assert q.text in text
    assert q.bind() == {"dataset": q.params[0].example}
    with pytest.raises(QueryError, match="no parameter 'x'"):
        q.bind({"x": 1})
    assert parse_param_pairs(["k=5", "name=MMEB", 'q="5"', "l=[1,2]"]) == {
        "k": 5, "name": "MMEB", "q": "5", "l": [1, 2]}
    with pytest.raises(QueryError):
        parse_param_pairs(["novalue"])
    assert cypher_literal([1, "a", None, True]) == "[1, 'a', null, true]"


def test_unknown_query_suggests_names() -> None:
    with pytest.raises(QueryError, match="did you mean papers_on_dataset"):
        get_query("papers_on_datasets")


def test_malformed_header_is_a_query_error() -> None:
    with pytest.raises(QueryError, match="needs"):
        parse_query("MATCH (n) RETURN n LIMIT 1")
    with pytest.raises(QueryError, match="not JSON"):
        parse_query("// name: x\n// answers: y.\n// param a: MMEB\nRETURN $a LIMIT 1")


@pytest.mark.slow
def test_wheel_ships_the_cypher_files(tmp_path: Path) -> None:
    """A non-editable install gets the queries: build the wheel and look inside."""
    import shutil
    import subprocess
    import sys

    # Build from a copy so the work tree gets no build/ or egg-info litter.
    src = tmp_path / "src"
    shutil.copytree(REPO, src, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".neo4j", "exports", "build", "*.egg-info", "__pycache__", ".*_cache"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(src)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = next(tmp_path.glob("kg-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(Path(n).name for n in names if n.startswith("kg/cypher/"))
    cypher = REPO / "kg" / "cypher"
    assert shipped == sorted(p.name for p in [*cypher.glob("*.cypher"), *cypher.glob("*.grass")])


# --------------------------------------------------------------------------- CLI, no server


def test_cli_query_list_and_show() -> None:
    from click.testing import CliRunner

    from kg.cli import main

    runner = CliRunner()
    listed = runner.invoke(main, ["query", "list"])
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert len(lines) == len(list_queries()) >= 10
    assert lines[0].split()[0] == list_queries()[0].name
    shown = runner.invoke(main, ["query", "show", "shortest_connection", "-p", "paper_a=X"])
    assert shown.exit_code == 0
    assert shown.output.startswith(":param paper_a => 'X';\n:param paper_b => ")
    assert "shortestPath" in shown.output
    bad = runner.invoke(main, ["query", "show", "nope"])
    assert bad.exit_code == 1 and "no canned query called 'nope'" in bad.output


def test_cli_load_unreachable_server_is_one_line(tmp_path: Path) -> None:
    import socket

    from click.testing import CliRunner

    from kg.cli import main
    from kg.store.file import save_graph

    graph = save_graph(small_graph(2), tmp_path / "g.json")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(main, ["load", str(graph), "--uri", f"bolt://127.0.0.1:{port}"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: cannot reach Neo4j at bolt://127.0.0.1:{port}: is it running? "
        "(`docker compose up -d --wait`, or set --uri / NEO4J_URI)"
    ]
