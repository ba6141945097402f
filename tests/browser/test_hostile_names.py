"""Hostile names (HTML, JavaScript, Cypher metacharacters) stay data: in the HTML export, opened
in headless Chromium, nothing executes and the text shows as written; in Neo4j they are
stored as given and read back equal. (Here, beside the other Chromium tests, whose browser it
shares: Playwright's sync API runs once per process.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.schema import LABEL_ATTR, Label
from tests.integration.conftest import empty_db, neo4j_conn, neo4j_uri  # noqa: F401

#: Each one sets window.__pwned (or opens a dialog) if it ever runs as code.
PAYLOADS = [
    "<script>window.__pwned=1</script>",
    '"><img src=x onerror="window.__pwned=1">',
    "</script><script>window.__pwned=1</script>",
    "<svg onload=alert(1)>",
    "javascript:window.__pwned=1",
    "<!--<script>window.__pwned=1//-->",
    "'}) DETACH DELETE n //",
    '"}) MATCH (n) DETACH DELETE n RETURN 1 //',
    "`x` $param ${window.__pwned=1} {{constructor.constructor('window.__pwned=1')()}}",
    "&lt;b&gt; &amp; \u2028\u2029 \\u003c/script\\u003e",
]
NAMES = st.lists(
    st.builds(lambda a, b, c: f"{a}{b}{c}".strip() or "x", st.sampled_from(PAYLOADS),
              st.text(alphabet="<>'\"`&;/\\{}()$ ", max_size=6), st.sampled_from(PAYLOADS)),
    min_size=4, max_size=4,
)


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def hostile_graph(names: list[str]) -> nx.MultiDiGraph:
    """A small graph of the kg contract whose names, titles, abstracts and URLs are ``names``."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("kg_bench_html_render_fuzz",
                                                  root / "benchmarks" / "html_render.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    G = module.synthetic_graph(4, 12, seed=3)
    for i, (_node, attrs) in enumerate(sorted(G.nodes(data=True))):
        name = names[i % len(names)]
        attrs["name"] = name
        if attrs[LABEL_ATTR] == Label.PAPER.value:
            attrs.update(title=name, display_name=name, abstract=f"{name} {name}.", url=name,
                         venue=name, authors=[name])
        else:
            attrs["aliases"] = [name]
    return G


@pytest.mark.browser
@fuzz_settings(6)
@given(names=NAMES)
def test_hostile_names_in_the_html_page_are_text(offline_page: Any, tmp_path: Path,  # noqa: F811
                                                 names: list[str]) -> None:
    from kg.html import export_html

    G = hostile_graph(names)
    result = export_html(G, tmp_path / "hostile.html")
    page = result.path.read_text()
    for name in set(names):
        assert name not in page or "<" not in name  # (only escaped inside the page)
    dialogs: list[str] = []
    p = offline_page
    p.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    p.open(result.path)
    assert p.js("typeof window.__pwned") == "undefined"
    assert dialogs == [] and p.console_errors == [] and p.blocked == []
    # No element was made from the data: the page's scripts are those of the file, and no
    # element has an event-handler attribute.
    tags = len(re.findall(r"(?m)^\s*<script\b", page))  # (vis.js has "<script>" in a string)
    assert p.js("document.querySelectorAll('script').length") == tags
    assert p.js("document.querySelectorAll('[onerror], [onload], img').length") == 0
    shown = p.js("""() => kg.nodes.get().map(n => [n.id, n.kgName,
                   n.title ? n.title.firstChild.textContent : null])""")
    assert len(shown) == G.number_of_nodes()
    for node_id, kg_name, heading in shown:
        assert kg_name == G.nodes[node_id]["name"]
        assert heading == (G.nodes[node_id].get("title") or G.nodes[node_id]["name"])
    p.page.fill("#kg-search-input", names[0])  # typed text is searched, not run
    p.page.press("#kg-search-input", "Enter")
    assert p.js("typeof window.__pwned") == "undefined" and dialogs == []


@pytest.mark.neo4j
@fuzz_settings(5)
@given(names=NAMES)
def test_hostile_names_in_neo4j_are_stored_as_data(empty_db: Any, names: list[str]) -> None:  # noqa: F811
    from kg.store.neo4j import load_graph_into_neo4j

    G = hostile_graph(names)
    empty_db.write("MERGE (:Sentinel {id: 'not kg'})")
    load_graph_into_neo4j(G, empty_db, batch_size=7)
    rows = empty_db.read("MATCH (n) WHERE n.id IS NOT NULL AND NOT n:Sentinel "
                         "RETURN n.id AS id, n.name AS name, n.title AS title, n.url AS url")
    assert {r["id"]: r["name"] for r in rows} == {n: a["name"] for n, a in G.nodes(data=True)}
    for r in rows:
        attrs = G.nodes[r["id"]]
        assert (r["title"], r["url"]) == (attrs.get("title"), attrs.get("url"))
    assert empty_db.read("MATCH (s:Sentinel) RETURN count(s) AS c")[0]["c"] == 1
    assert empty_db.read("MATCH ()-[r]->() RETURN count(r) AS c")[0]["c"] == G.number_of_edges()
    # Loading again changes nothing: the names matched themselves, as data.
    load_graph_into_neo4j(G, empty_db, batch_size=7)
    assert empty_db.read("MATCH (n) RETURN count(n) AS c")[0]["c"] == G.number_of_nodes() + 1
