"""Fixtures for tests against a real Neo4j.

The server is the one NEO4J_URI names (scripts/test and CI start one with
scripts/neo4j-test-server), else this file starts one with that script and stops it at the end
of the session. No server: the Neo4j tests skip on a developer's machine, and FAIL in CI.
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SERVER_SCRIPT = REPO / "scripts" / "neo4j-test-server"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

#: The second server (authentication on) for the credential and server-gone tests.
AUTH_BOLT_PORT = int(os.environ.get("NEO4J_TEST_AUTH_BOLT_PORT", "7688"))
AUTH_HTTP_PORT = int(os.environ.get("NEO4J_TEST_AUTH_HTTP_PORT", "7475"))
AUTH_USER, AUTH_PASSWORD = "kgtest", "kg-test-password"


def no_server(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"Neo4j is required in CI: {reason}")
    pytest.skip(f"no Neo4j for the tests: {reason}")


def run_script(*args: str, env: dict[str, str] | None = None,
               timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SERVER_SCRIPT), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def neo4j_uri() -> Iterator[str]:
    """The Bolt URI of the test server (started here if NEO4J_URI is not set)."""
    uri = os.environ.get("NEO4J_URI")
    if uri:
        yield uri
        return
    if run_script("status").returncode == 0:  # someone else's server: use it, leave it running
        port = os.environ.get("NEO4J_TEST_BOLT_PORT", "7687")
        yield f"bolt://127.0.0.1:{port}"
        return
    done = run_script("start")
    if done.returncode != 0:
        no_server(f"scripts/neo4j-test-server start failed:\n{done.stderr[-3000:]}")
    uri = done.stdout.strip().splitlines()[-1]
    try:
        yield uri
    finally:
        run_script("stop")


@pytest.fixture(scope="session")
def neo4j_conn(neo4j_uri: str) -> Iterator[Any]:
    """An open connection to the test server (credentials from NEO4J_USERNAME/PASSWORD)."""
    from kg.errors import Neo4jError
    from kg.store.neo4j_connection import Neo4jConnection

    conn = Neo4jConnection.from_env(uri=neo4j_uri)
    try:
        conn.open()
    except Neo4jError as exc:
        no_server(str(exc))
    yield conn
    conn.close()


def wipe(conn: Any) -> None:
    conn.write("MATCH (n) DETACH DELETE n")


@pytest.fixture
def empty_db(neo4j_conn: Any) -> Any:
    """The test server's database, emptied (the schema is kept)."""
    wipe(neo4j_conn)
    return neo4j_conn


@pytest.fixture(scope="module")
def seeds_loaded(neo4j_conn: Any, seeds_graph: Any) -> Any:
    """The test server holding exactly the seeds graph."""
    from kg.store.neo4j import load_graph_into_neo4j

    wipe(neo4j_conn)
    load_graph_into_neo4j(seeds_graph, neo4j_conn, batch_size=100)
    return neo4j_conn


def snapshot(conn: Any) -> tuple[list[Any], list[Any]]:
    """Every node (labels, properties) and relationship (ends, type, properties), sorted."""
    nodes = conn.read("MATCH (n) RETURN labels(n) AS labels, properties(n) AS props")
    rels = conn.read(
        "MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS type, b.id AS b, properties(r) AS props"
    )
    key = repr
    return sorted(nodes, key=key), sorted(rels, key=key)


class AuthServer:
    """A second test server with authentication on, (re)started on demand."""

    def __init__(self) -> None:
        self.env = {"NEO4J_TEST_BOLT_PORT": str(AUTH_BOLT_PORT),
                    "NEO4J_TEST_HTTP_PORT": str(AUTH_HTTP_PORT)}
        self.uri = f"bolt://127.0.0.1:{AUTH_BOLT_PORT}"
        self.user, self.password = AUTH_USER, AUTH_PASSWORD

    def start(self) -> str:
        done = run_script("start", "--auth", f"{self.user}:{self.password}", env=self.env)
        if done.returncode != 0:
            no_server(f"could not start the auth test server:\n{done.stderr[-3000:]}")
        return done.stdout.strip().splitlines()[-1]

    def stop(self) -> None:
        run_script("stop", env=self.env)


@pytest.fixture(scope="session")
def auth_server() -> Iterator[AuthServer]:
    """A Neo4j with authentication on (user kgtest), on its own ports; stopped at the end."""
    if not SERVER_SCRIPT.exists():
        no_server("scripts/neo4j-test-server is missing")
    server = AuthServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
