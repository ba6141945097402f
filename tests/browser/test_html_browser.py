"""The HTML export in a real headless Chromium with the network off (pytest -m browser)."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from kg.html import export_html
from kg.schema import LABEL_ATTR, Label
from kg.store.file import load_graph

pytestmark = pytest.mark.browser

COUNTS = "[network.body.data.nodes.length, network.body.data.edges.length]"


def _most_linked_paper(G: nx.MultiDiGraph) -> str:
    papers = [n for n, a in G.nodes(data=True) if a[LABEL_ATTR] == Label.PAPER.value]
    return max(papers, key=lambda n: (G.degree(n), n))


def _heading(G: nx.MultiDiGraph, paper: str) -> str:
    """The first tooltip line of a paper: its full title (the seeds have none: its name)."""
    attrs = G.nodes[paper]
    heading = attrs.get("title") or attrs.get("name") or paper
    assert heading
    return " ".join(heading.split())


def _hover_tooltip(p: Any, node_ids: list[str]) -> tuple[str, str]:
    """Hover the first node in ``node_ids`` that is on top at its own centre; its tooltip."""
    canvas = p.page.locator("#kg-network canvas").bounding_box()
    for node_id in node_ids:
        pos = p.js(
            """id => { const c = network.canvasToDOM(network.getPositions([id])[id]);
                      return {x: c.x, y: c.y, top: network.getNodeAt(c)}; }""",
            node_id,
        )
        inside = 0 < pos["x"] < canvas["width"] and 0 < pos["y"] < canvas["height"]
        if pos["top"] != node_id or not inside:
            continue
        p.page.mouse.move(canvas["x"] + 5, canvas["y"] + 5)
        p.page.mouse.move(canvas["x"] + pos["x"], canvas["y"] + pos["y"], steps=4)
        tip = p.page.locator("div.vis-tooltip")
        tip.wait_for(state="visible", timeout=10_000)
        return node_id, tip.inner_text()
    raise AssertionError("no node could be hovered")


def _check_page(p: Any, G: nx.MultiDiGraph, sub: nx.MultiDiGraph) -> None:
    nodes, edges = p.js(COUNTS)
    assert (nodes, edges) == (sub.number_of_nodes(), sub.number_of_edges())
    assert sorted(p.js("network.body.data.nodes.getIds()")) == sorted(sub.nodes)
    assert p.js("network.physics.options.enabled") is False  # the picture holds still
    assert p.console_errors == []
    assert p.blocked == []  # nothing tried to reach the network


def without_topics(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    return G.subgraph(n for n, a in G.nodes(data=True) if a["label"] != Label.TOPIC.value)


def test_seeds_export_in_chromium(offline_page: Any, html_graph_path, screenshot_dir, tmp_path):
    G = load_graph(html_graph_path)
    result = export_html(G, tmp_path / "graph.html")
    page = without_topics(G)  # topics are the overview page's
    if not result.selection.capped:
        assert result.nodes == page.number_of_nodes() and result.edges == page.number_of_edges()
    p = offline_page
    p.open(result.path)
    _check_page(p, G, result.selection.graph)

    # Hover a paper: its tooltip shows the full title, the type and an abstract excerpt.
    sub = result.selection.graph
    papers = sorted(
        (n for n in sub if G.nodes[n][LABEL_ATTR] == Label.PAPER.value),
        key=lambda n: (-G.degree(n), n),
    )
    node_id, text = _hover_tooltip(p, papers)
    attrs = G.nodes[node_id]
    assert _heading(G, node_id) in text and "Paper" in text
    assert attrs["abstract"][:40] in text
    p.page.screenshot(path=str(screenshot_dir / "html-seeds.png"))  # overview + one tooltip

    # The legend shows every type; the search box finds and selects an entity by name.
    legend = p.page.locator("#kg-legend").inner_text()
    assert all(label.value in legend for label in Label)
    entity = max((n for n in sub if n not in papers), key=lambda n: (G.degree(n), n))
    p.page.fill("#kg-search-input", G.nodes[entity]["name"])
    p.page.press("#kg-search-input", "Enter")
    assert p.js("network.getSelectedNodes()") == [entity]

    # Unticking a type hides its nodes and their links; ticking it shows them again.
    label = G.nodes[entity][LABEL_ATTR]
    p.page.uncheck(f"#kg-toggle-{label}")
    hidden = p.js("kg.nodes.get({filter: n => n.hidden}).map(n => n.id)")
    assert sorted(hidden) == sorted(n for n in sub if G.nodes[n][LABEL_ATTR] == label)
    assert p.js("kg.edges.get({filter: e => e.hidden}).length") == sum(
        1 for u, v in sub.edges() if label in (G.nodes[u][LABEL_ATTR], G.nodes[v][LABEL_ATTR])
    )  # (a link goes with either end: a concept may be a method's part)
    p.page.check(f"#kg-toggle-{label}")
    assert p.js("kg.nodes.get({filter: n => n.hidden}).length") == 0

    assert p.console_errors == []


def test_focus_export_in_chromium(offline_page: Any, html_graph_path, screenshot_dir, tmp_path):
    G = load_graph(html_graph_path)
    focus = _most_linked_paper(G)
    # Focus by name as a user would (kg.query.lookup.find_paper matches it as `kg related` does).
    query = G.nodes[focus].get("display_name") or G.nodes[focus]["title"]
    result = export_html(G, tmp_path / "focus.html", focus=query, depth=2)
    assert result.selection.focus == focus
    expected = nx.ego_graph(without_topics(G), focus, radius=2, undirected=True)
    assert set(result.selection.graph) == set(expected)  # complete: no cap on a focus export
    p = offline_page
    p.open(result.path)
    _check_page(p, G, expected)
    assert p.js("network.getSelectedNodes()") == [focus]
    node_id, text = _hover_tooltip(p, [focus])
    assert _heading(G, focus) in text
    p.page.screenshot(path=str(screenshot_dir / "html-focus.png"))
    assert p.console_errors == []
