"""The topic overview page in a real headless Chromium with the network off (pytest -m browser):
topics are drawn, hovering one shows its entities, clicking one opens its papers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kg.html.overview import export_overview, topic_data
from kg.schema import LABEL_ATTR, Label
from kg.store.file import load_graph
from tests.browser.test_hostile_names import PAYLOADS, hostile_graph
from tests.browser.test_html_browser import _hover_tooltip

pytestmark = pytest.mark.browser
#: The ids of the papers the open panel lists, in order.
PAPERS_SHOWN = (
    "[...document.querySelectorAll('#kg-panel li[data-paper]')].map(li => li.dataset.paper)"
)


def _members(data: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for e in data["links"]:
        if e["type"] == "IN_TOPIC":
            out.setdefault(e["target"], []).append(e["source"])
    return out


def _click_node(p: Any, node_id: str) -> None:
    """A real mouse click on the node's centre (it must be on top there)."""
    canvas = p.page.locator("#kg-network canvas").bounding_box()
    pos = p.js(
        """id => { const c = network.canvasToDOM(network.getPositions([id])[id]);
                  return {x: c.x, y: c.y, top: network.getNodeAt(c)}; }""",
        node_id,
    )
    assert pos["top"] == node_id, "the node is hidden under another"
    p.page.mouse.click(canvas["x"] + pos["x"], canvas["y"] + pos["y"])


def test_overview_in_chromium(offline_page: Any, html_graph_path, screenshot_dir, tmp_path):
    G = load_graph(html_graph_path)
    data, _ = topic_data(G)
    result = export_overview(data, tmp_path / "overview.html")
    topics = {n["id"]: n for n in data["nodes"] if n[LABEL_ATTR] == Label.TOPIC.value}
    nodes = {n["id"]: n for n in data["nodes"]}
    members = _members(data)
    p = offline_page
    p.open(result.path)

    # The topics are drawn, as topics, and the picture holds still.
    assert sorted(p.js("kg.nodes.getIds()")) == sorted(topics)
    assert set(p.js("kg.nodes.get().map(n => n.kgType)")) == {"Topic"}
    assert p.js("kg.edges.length") == result.links
    assert p.js("network.physics.options.enabled") is False
    assert p.js("document.getElementById('kg-panel').hidden") is True

    p.page.screenshot(path=str(screenshot_dir / "html-overview.png"))  # the topics

    # Hover the largest topic: its name, its size and its top entities, as text.
    by_size = sorted(topics, key=lambda t: (-topics[t]["size"], t))
    node_id, text = _hover_tooltip(p, by_size)
    topic = topics[node_id]
    assert topic["name"] in text and f"{topic['size']} papers" in text
    for name in topic["top_methods"][:2]:
        assert name in text

    # Click it: the panel lists its papers, every one, and its entities.
    _click_node(p, node_id)
    p.page.locator("#kg-panel").wait_for(state="visible", timeout=10_000)
    assert p.js("kg.openTopicId") == node_id
    panel = p.js("document.getElementById('kg-panel').textContent")  # (headings in capitals)
    assert topic["name"] in panel and f"Papers ({topic['size']})" in panel
    shown = p.js(
        "[...document.querySelectorAll('#kg-panel li[data-paper]')].map(li => li.dataset.paper)"
    )
    assert sorted(shown) == sorted(members[node_id])
    first = nodes[shown[0]]
    assert " ".join((first.get("title") or first["name"]).split()) in panel
    p.page.screenshot(path=str(screenshot_dir / "html-overview-topic.png"))  # and a topic open

    # Searching a paper's title opens its topic with the paper marked; Escape closes it.
    other = next(t for t in by_size if t != node_id) if len(by_size) > 1 else node_id
    paper = nodes[sorted(members[other])[0]]
    p.page.fill("#kg-search-input", paper.get("title") or paper["name"])
    p.page.press("#kg-search-input", "Enter")
    assert p.js("kg.openTopicId") == other
    assert p.js("document.querySelector('li.kg-panel-found').dataset.paper") == paper["id"]
    p.page.keyboard.press("Escape")
    assert p.js("document.getElementById('kg-panel').hidden") is True

    assert p.console_errors == []
    assert p.blocked == []  # nothing tried to reach the network


def test_hostile_names_in_the_overview_are_text(offline_page: Any, tmp_path: Path) -> None:
    names = [PAYLOADS[0], PAYLOADS[1], PAYLOADS[2], PAYLOADS[8]]
    G = hostile_graph(names)
    result = export_overview(G, tmp_path / "hostile.html")
    page = result.path.read_text()
    dialogs: list[str] = []
    p = offline_page

    def dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    p.page.on("dialog", dialog)
    p.open(result.path)
    for topic in p.js("kg.nodes.getIds()"):
        p.js("id => kg.openTopic(id)", topic)
    titles = p.js("[...document.querySelectorAll('.kg-panel-title')].map(a => a.textContent)")
    assert set(titles) <= set(names)
    assert p.js("document.querySelectorAll('#kg-panel a[href]').length") == 0  # no web address
    p.page.fill("#kg-search-input", names[1])
    p.page.press("#kg-search-input", "Enter")
    assert p.js("typeof window.__pwned") == "undefined" and dialogs == []
    tags = len(re.findall(r"(?m)^\s*<script\b", page))
    assert p.js("document.querySelectorAll('script').length") == tags
    assert p.js("document.querySelectorAll('[onerror], [onload], img').length") == 0
    assert p.console_errors == [] and p.blocked == []
