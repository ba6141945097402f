"""The Neo4j Browser served by the test server runs a canned query and draws its result, in
kg's style once `:style` is given `kg query style`'s text.

Headless Chromium opens http://127.0.0.1:<http port>/browser/, connects (the test server has
auth off) and pastes, as a user does, the `:param` line and the query exactly as `kg query
show` prints them; the graph view must draw the paper's neighbourhood. The style test first
pastes `:style` followed by the GraSS text, then checks the drawn nodes and links carry
kg's colours (kg/schema.py) and names as captions. Screenshots: exports/neo4j-browser.png,
exports/neo4j-browser-style.png. Requests that leave 127.0.0.1 (the Browser's fonts and
telemetry) are blocked.

Statements are pasted (a ``paste`` event on the editor), not typed: the editor auto-indents
and closes brackets as one types, which adds a "}" to a typed GraSS text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.query.canned import get_query
from kg.schema import EDGE_COLOR, NODE_STYLE, REL_TYPES, Label
from tests.integration.conftest import neo4j_conn, neo4j_uri, seeds_loaded  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.neo4j]

QUERY = "paper_neighbourhood"
#: Pastes ``text`` into the Browser's editor as a clipboard paste does.
_PASTE = """text => {
  const area = document.querySelector('.monaco-editor textarea');
  const data = new DataTransfer();
  data.setData('text/plain', text);
  area.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true,
                                                  cancelable: true}));
}"""
_SUMMARY = r"Displaying (\d+) nodes, (\d+) relationships"


def browser_url(bolt_uri: str) -> str:
    if os.environ.get("NEO4J_BROWSER_URL"):
        return os.environ["NEO4J_BROWSER_URL"]
    http = os.environ.get("NEO4J_TEST_HTTP_PORT", "7474")
    return f"http://127.0.0.1:{http}/browser/?dbms={bolt_uri}&preselectAuthMethod=NO_AUTH"


class BrowserSession:
    """One connected Browser page (a fresh context: no style or history from another test)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def run(self, statement: str) -> Any:
        """Paste a statement into the editor, run it, wait for its result frame (returned)."""
        page = self.page
        frames = len(page.query_selector_all("[data-testid='frame']"))
        page.click(".monaco-editor")
        page.keyboard.press("Control+A")
        page.keyboard.press("Delete")
        page.evaluate(_PASTE, statement)
        page.keyboard.press("Control+Enter")
        # (Polled from Python: the Browser's CSP forbids Playwright's evaluated predicates.)
        for _ in range(300):
            shown = page.query_selector_all("[data-testid='frame']")
            if len(shown) > frames:
                return shown[0]  # the newest frame is on top
            page.wait_for_timeout(200)
        raise AssertionError(f"no result frame for {statement[:60]!r}; errors: {self.errors}")

    def run_canned(self, name: str) -> tuple[int, int]:
        """Run a canned query as `kg query show` prints it; (nodes, relationships) drawn."""
        query = get_query(name)
        for line in query.browser_text().splitlines():
            if line.startswith(":param"):
                self.run(line.rstrip(";"))
        self.run(query.text)
        summary = self.page.wait_for_selector(f"text=/{_SUMMARY}/", timeout=60_000)
        assert summary is not None, self.errors
        self.page.wait_for_timeout(1500)  # let the force layout settle for the screenshot
        shown = re.search(_SUMMARY, summary.inner_text())
        assert shown, summary.inner_text()
        return int(shown.group(1)), int(shown.group(2))


@contextmanager
def browser_session(browser: Any, bolt_uri: str) -> Iterator[BrowserSession]:
    if os.environ.get("NEO4J_PASSWORD"):
        pytest.skip("the Browser test logs in without a password (the test server's default)")
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    blocked: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    try:
        page.goto(browser_url(bolt_uri))
        page.wait_for_selector("text=Connected to Neo4j", timeout=120_000)
        yield BrowserSession(page)
    finally:
        context.close()


def _paper_id(seeds_graph: nx.MultiDiGraph) -> str:
    paper = get_query(QUERY).example_params()["paper"]
    return next(n for n, a in seeds_graph.nodes(data=True)
                if a["label"] == "Paper" and a.get("display_name") == paper)  # fmt: skip


def test_browser_runs_a_canned_query(
    browser: Any,
    seeds_loaded: Any,  # noqa: F811
    neo4j_uri: str,  # noqa: F811
    seeds_graph: nx.MultiDiGraph,
    screenshot_dir: Path,
) -> None:
    pid = _paper_id(seeds_graph)
    expected_nodes = 1 + len(set(seeds_graph.successors(pid)))
    expected_rels = seeds_graph.out_degree(pid)
    with browser_session(browser, neo4j_uri) as session:
        shown = session.run_canned(QUERY)
        session.page.screenshot(path=str(screenshot_dir / "neo4j-browser.png"))
        assert shown == (expected_nodes, expected_rels)
        assert len(session.page.query_selector_all("svg .node")) == expected_nodes
        assert not session.errors


def _captions(node: Any) -> str:
    """A drawn node's caption: its lines joined (the Browser splits and shortens it with "…")."""
    lines = node.query_selector_all("text.caption")
    return " ".join((t.text_content() or "").strip() for t in lines)


def test_browser_draws_in_kgs_style(
    browser: Any,
    seeds_loaded: Any,  # noqa: F811
    neo4j_uri: str,  # noqa: F811
    screenshot_dir: Path,
) -> None:
    """`:style` + `kg query style`, as the README says: Paper nodes drawn in
    NODE_STYLE[PAPER]["color"] and larger, every label and link type in its colour, names as
    captions."""
    style = CliRunner().invoke(main, ["query", "style"])
    assert style.exit_code == 0, style.output
    with browser_session(browser, neo4j_uri) as session:
        frame = session.run(":style " + style.output)
        # The frame lists the rules the Browser read, as it serialises them again. Its GraSS
        # parser knows no comments and takes a quote anywhere (an apostrophe in a comment) for
        # the start of a string: the rules then run together and nothing is styled.
        read = [" ".join(line.split()) for line in frame.inner_text().splitlines()]
        assert {"node {", "node.Paper {", "relationship.PROPOSES {"} <= set(read), (
            "the Browser did not read kg's style as rules:\n" + "\n".join(read[:8])
        )
        nodes, rels = session.run_canned(QUERY)
        page = session.page
        page.screenshot(path=str(screenshot_dir / "neo4j-browser-style.png"))
        assert not session.errors, session.errors

        drawn = page.query_selector_all("svg .node")
        assert len(drawn) == nodes
        ids = {}
        for node in drawn:
            found = re.fullmatch(r"graph-node(\d+)", node.get_attribute("aria-label") or "")
            assert found, node.get_attribute("aria-label")
            ids[found.group(1)] = node
        rows = seeds_loaded.read(
            "MATCH (n) WHERE split(elementId(n), ':')[-1] IN $ids "
            "RETURN split(elementId(n), ':')[-1] AS id, labels(n) AS labels, n.name AS name",
            ids=list(ids),
        )
        assert {r["id"] for r in rows} == set(ids)
        labels_seen = set()
        for row in rows:
            node, (label,) = ids[row["id"]], row["labels"]
            circle = node.query_selector("circle.b-outline")
            assert circle is not None
            labels_seen.add(label)
            fill = (circle.get_attribute("fill") or "").lower()
            assert fill == NODE_STYLE[Label(label)]["color"], (label, row["name"], fill)
            # GraSS diameters: 65px for papers, 50px for the rest.
            radius = float(circle.get_attribute("r") or 0)
            assert radius == (32.5 if label == Label.PAPER.value else 25.0), (label, radius)
            caption = _captions(node)
            name = " ".join(str(row["name"]).split())
            # (a long caption, a topic's, may show a middle line only)
            assert caption and caption.rstrip("…").rstrip() in name, (caption, name)
        assert Label.PAPER.value in labels_seen and len(labels_seen) >= 3

        # The summary counts the query's relationships; the canvas also draws those between
        # the nodes it shows ("connect result nodes"): MetaEmbed EVALUATED_ON its benchmark.
        between = seeds_loaded.read(
            "MATCH (a)-[r]->(b) WHERE NOT a:Paper AND split(elementId(a), ':')[-1] IN $ids "
            "AND split(elementId(b), ':')[-1] IN $ids RETURN count(r) AS n",
            ids=list(ids),
        )[0]["n"]
        links = page.query_selector_all("svg .relationship")
        assert len(links) == rels + between
        for link in links:
            rel = (link.query_selector("text").text_content() or "").strip()
            path = link.query_selector("path.b-outline")
            assert path is not None
            # A short link's caption is cut ("EVALUATES_…"): any type it may be.
            cut = rel.endswith("…")
            types = [t for t in REL_TYPES if t.startswith(rel.rstrip("…"))] if cut else [rel]
            colours = {EDGE_COLOR[REL_TYPES[t]] for t in types}
            assert (path.get_attribute("fill") or "").lower() in colours, rel
