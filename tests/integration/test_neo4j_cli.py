"""`kg load`, `kg query` and `kg related --backend neo4j` as a user runs them, against a real
Neo4j: the happy path and the one-line failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import AuthServer, free_port

pytestmark = pytest.mark.neo4j

KG = str(Path(sys.executable).parent / "kg")


def kg(*args: str, uri: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, **env}
    if uri:
        environ["NEO4J_URI"] = uri
    return subprocess.run([KG, *args], capture_output=True, text=True, env=environ, timeout=300)


def assert_one_line_failure(done: subprocess.CompletedProcess[str], expected: str) -> None:
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("Error: ") and expected in lines[0], lines[0]
    assert "Traceback" not in done.stdout + done.stderr


def test_kg_load_prints_a_summary(empty_db: Any, neo4j_uri: str, seeds_graph_path: Path,
                                  seeds_graph: Any) -> None:
    done = kg("load", str(seeds_graph_path), "--batch-size", "64", uri=neo4j_uri)
    assert done.returncode == 0, done.stderr
    assert "Loaded" in done.stdout and "nodes:" in done.stdout and "relationships:" in done.stdout
    assert f"(total {seeds_graph.number_of_nodes()})" in done.stdout
    again = kg("load", str(seeds_graph_path), "--replace", "--json", uri=neo4j_uri)
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert summary["node_count"] == seeds_graph.number_of_nodes()
    assert summary["rel_count"] == seeds_graph.number_of_edges()
    assert summary["deleted"] == seeds_graph.number_of_nodes()


def test_wrong_password_is_one_line(auth_server: AuthServer, seeds_graph_path: Path) -> None:
    auth_server.start()
    done = kg("load", str(seeds_graph_path), "--uri", auth_server.uri, "--user",
              auth_server.user, "--password", "not-the-password")
    assert_one_line_failure(done, "rejected the credentials of user 'kgtest'")
    ok = kg("query", "run", "most_used_datasets", "--uri", auth_server.uri, "--user",
            auth_server.user, "--password", auth_server.password)
    assert ok.returncode == 0, ok.stderr


def test_server_down_is_one_line(seeds_graph_path: Path) -> None:
    uri = f"bolt://127.0.0.1:{free_port()}"
    done = kg("load", str(seeds_graph_path), uri=uri)
    assert_one_line_failure(done, f"cannot reach Neo4j at {uri}")
    done = kg("query", "run", "most_used_datasets", uri=uri)
    assert_one_line_failure(done, "cannot reach Neo4j")


def test_unknown_database_is_one_line(neo4j_conn: Any, neo4j_uri: str,
                                      seeds_graph_path: Path) -> None:
    done = kg("load", str(seeds_graph_path), "--database", "nosuchdb", uri=neo4j_uri)
    assert_one_line_failure(done, "has no database 'nosuchdb'")


def test_query_commands(seeds_loaded: Any, neo4j_uri: str) -> None:
    listing = kg("query", "list")
    assert listing.returncode == 0 and len(listing.stdout.splitlines()) >= 10
    shown = kg("query", "show", "papers_on_dataset", "-p", "dataset=MMEB")
    assert shown.stdout.startswith(":param dataset => 'MMEB';")
    done = kg("query", "run", "papers_on_dataset", "-p", "dataset=MMEB", "--json", uri=neo4j_uri)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["params"] == {"dataset": "MMEB"}
    assert [r["paper"] for r in result["rows"]] == ["MetaEmbed"]
    table = kg("query", "run", "shortest_connection", uri=neo4j_uri)
    assert table.returncode == 0 and "-[" in table.stdout
    bad = kg("query", "run", "papers_on_dataset", "-p", "nope=1", uri=neo4j_uri)
    assert_one_line_failure(bad, "has no parameter 'nope'")


def test_related_backends_agree_in_the_cli(seeds_loaded: Any, neo4j_uri: str,
                                          seeds_graph_path: Path) -> None:
    file_out = kg("related", "WebGen-Agent", "--graph", str(seeds_graph_path), "-k", "10",
                  "--ranking", "graph", "--json")
    neo_out = kg("related", "WebGen-Agent", "--backend", "neo4j", "-k", "10", "--json",
                 uri=neo4j_uri)
    assert file_out.returncode == 0, file_out.stderr
    assert neo_out.returncode == 0, neo_out.stderr
    assert json.loads(neo_out.stdout) == json.loads(file_out.stdout)
    assert json.loads(file_out.stdout), "the example paper has related papers"
