"""The Neo4j Browser served by the test server runs a canned query and draws its result.

Headless Chromium opens http://127.0.0.1:<http port>/browser/, connects (the test server has
auth off), pastes the `:param` line and the query exactly as `kg query show` prints them, and
checks the graph view draws the paper's neighbourhood. Screenshot: exports/neo4j-browser.png.
Requests that leave 127.0.0.1 (the Browser's fonts and telemetry) are blocked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg.query.canned import get_query
from tests.integration.conftest import neo4j_conn, neo4j_uri, seeds_loaded  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.neo4j]

QUERY = "paper_neighbourhood"


def browser_url(bolt_uri: str) -> str:
    if os.environ.get("NEO4J_BROWSER_URL"):
        return os.environ["NEO4J_BROWSER_URL"]
    http = os.environ.get("NEO4J_TEST_HTTP_PORT", "7474")
    return f"http://127.0.0.1:{http}/browser/?dbms={bolt_uri}&preselectAuthMethod=NO_AUTH"


def test_browser_runs_a_canned_query(browser: Any, seeds_loaded: Any,  # noqa: F811
                                     neo4j_uri: str, seeds_graph: nx.MultiDiGraph,  # noqa: F811
                                     screenshot_dir: Path) -> None:
    if os.environ.get("NEO4J_PASSWORD"):
        pytest.skip("the Browser test logs in without a password (the test server's default)")
    query = get_query(QUERY)
    paper = query.example_params()["paper"]
    pid = next(n for n, a in seeds_graph.nodes(data=True)
               if a["label"] == "Paper" and a.get("display_name") == paper)
    expected_nodes = 1 + len(set(seeds_graph.successors(pid)))
    expected_rels = seeds_graph.out_degree(pid)

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    blocked: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    try:
        page.goto(browser_url(neo4j_uri))
        page.wait_for_selector("text=Connected to Neo4j", timeout=120_000)

        def run(statement: str) -> None:
            """Type a statement into the editor, run it, wait for its result frame."""
            frames = len(page.query_selector_all("[data-testid='frame']"))
            page.click(".monaco-editor")
            page.keyboard.press("Control+A")
            page.keyboard.press("Delete")
            page.keyboard.insert_text(statement)
            page.keyboard.press("Control+Enter")
            # (Polled from Python: the Browser's CSP forbids Playwright's evaluated predicates.)
            for _ in range(300):
                if len(page.query_selector_all("[data-testid='frame']")) > frames:
                    return
                page.wait_for_timeout(200)
            raise AssertionError(f"no result frame for {statement[:60]!r}")

        for line in query.browser_text().splitlines():
            if line.startswith(":param"):
                run(line.rstrip(";"))
        run(query.text)
        summary = page.wait_for_selector("text=/Displaying \\d+ nodes, \\d+ relationships/",
                                         timeout=60_000)
        assert summary is not None
        page.wait_for_timeout(1500)  # let the force layout settle for the screenshot
        page.screenshot(path=str(screenshot_dir / "neo4j-browser.png"))
        shown = re.search(r"Displaying (\d+) nodes, (\d+) relationships", summary.inner_text())
        assert shown and (int(shown.group(1)), int(shown.group(2))) == (
            expected_nodes, expected_rels)
        assert len(page.query_selector_all("svg .node")) == expected_nodes
    finally:
        page.close()
