"""The Neo4j server stopped in the middle of a ``kg load``: one readable line, a non-zero exit,
and after the server is back a re-run that leaves the database equal to the file.

Stopping a server is disruptive, so this runs its own instance of scripts/neo4j-test-server
(auth off) on other ports (``NEO4J_TEST_FAULT_BOLT_PORT``, default 7689, and
``NEO4J_TEST_FAULT_HTTP_PORT``, default 7476), never the shared test server.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg.store.file import load_graph
from kg.store.neo4j import load_graph_into_neo4j
from kg.store.neo4j_connection import Neo4jConnection
from tests.integration.conftest import SERVER_SCRIPT, no_server, run_script, wipe
from tests.integration.test_neo4j_sync import kg_part

pytestmark = pytest.mark.neo4j

KG = str(Path(sys.executable).parent / "kg")
BOLT = int(os.environ.get("NEO4J_TEST_FAULT_BOLT_PORT", "7689"))
HTTP = int(os.environ.get("NEO4J_TEST_FAULT_HTTP_PORT", "7476"))


class FaultServer:
    """A test server of its own, stopped and restarted (with its data) by the test."""

    def __init__(self) -> None:
        self.env = {"NEO4J_TEST_BOLT_PORT": str(BOLT), "NEO4J_TEST_HTTP_PORT": str(HTTP),
                    "NEO4J_TEST_HEAP": os.environ.get("NEO4J_TEST_HEAP", "512m")}
        self.uri = f"bolt://127.0.0.1:{BOLT}"

    def start(self, *flags: str) -> None:
        done = run_script("start", *flags, env=self.env)
        if done.returncode != 0:
            no_server(f"could not start the fault test server:\n{done.stderr[-3000:]}")

    def stop(self) -> None:
        run_script("stop", env=self.env)

    def connect(self) -> Any:
        conn = Neo4jConnection(uri=self.uri, max_retry_time=3.0, connection_timeout=2.0)
        conn.open()
        return conn


@pytest.fixture(scope="module")
def fault_server() -> Iterator[FaultServer]:
    if not SERVER_SCRIPT.exists():
        no_server("scripts/neo4j-test-server is missing")
    server = FaultServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def any_nodes(conn: Any) -> int:
    return int(conn.read("MATCH (n) RETURN count(n) AS c")[0]["c"])  # (wiped before)


def test_server_stopped_mid_load_is_one_line_and_a_rerun_gives_the_file(
    fault_server: FaultServer, seeds_graph_path: Path, seeds_graph: nx.MultiDiGraph
) -> None:
    env = {**os.environ, "NEO4J_URI": fault_server.uri, "KG_NEO4J_RETRY_SECONDS": "3"}
    env.pop("NEO4J_PASSWORD", None)
    conn = fault_server.connect()
    wipe(conn)
    # One row per transaction: the load is still running when its first nodes are visible.
    load = subprocess.Popen([KG, "load", str(seeds_graph_path), "--batch-size", "1"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 120
        while load.poll() is None and time.monotonic() < end and not any_nodes(conn):
            time.sleep(0.02)
        conn.close()
        assert load.poll() is None, "the load ended before the server could be stopped"
        fault_server.stop()
        _, err = load.communicate(timeout=300)
    finally:
        if load.poll() is None:
            load.kill()
            load.wait()
    assert load.returncode > 0, err  # an exit, not a signal
    assert "Traceback" not in err, err[-3000:]
    lines = [line for line in err.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("Error:")]
    assert len(errors) == 1 and fault_server.uri in errors[0], err[-3000:]
    # Which line depends on how far the server's shutdown got: "lost the connection", "cannot
    # reach" or (database already closing) "kept failing transiently". All name the server.
    assert "Neo4j at " in errors[0] and "\n" not in errors[0], errors[0]

    fault_server.start("--keep-data")
    conn = fault_server.connect()
    try:
        half = kg_part(conn)
        assert 0 < len(half[0]) < seeds_graph.number_of_nodes() or (
            len(half[1]) < seeds_graph.number_of_edges()), "the load stopped half-way"
        again = subprocess.run([KG, "load", str(seeds_graph_path)], env=env,
                               capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr[-3000:]
        after_rerun = kg_part(conn)
        # The database a clean load of the file gives, for comparison.
        wipe(conn)
        load_graph_into_neo4j(load_graph(seeds_graph_path), conn)
        assert after_rerun == kg_part(conn)
        assert len(after_rerun[0]) == seeds_graph.number_of_nodes()
        assert len(after_rerun[1]) == seeds_graph.number_of_edges()
    finally:
        conn.close()
