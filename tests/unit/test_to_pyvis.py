"""kg.html.to_pyvis: kg's picture as a pyvis Network, for notebooks (issue 24, item 6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner
from pyvis.network import Network

from kg.cli import main
from kg.html import export_html, select, to_pyvis
from kg.html.render import LABEL_MAX, shorten
from kg.query.lookup import find_paper
from kg.schema import EDGE_COLOR, LABEL_ATTR, NAME, NODE_STYLE, REL_TYPES, TYPE_ATTR, Label
from kg.store.file import save_graph

HOSTILE = '</script><img src=x onerror="alert(1)"> <a href="javascript:alert(2)">x</a> & co'


def test_nodes_and_links_carry_kgs_styling(seeds_graph: nx.MultiDiGraph) -> None:
    net = to_pyvis(seeds_graph, max_nodes=0)
    assert isinstance(net, Network)
    drawn = seeds_graph.subgraph(n for n, a in seeds_graph.nodes(data=True)
                                 if a[LABEL_ATTR] != Label.TOPIC.value)  # (the overview's)
    assert net.num_nodes() == drawn.number_of_nodes()
    assert net.num_edges() == drawn.number_of_edges()  # directed: no link merged away
    for node in net.nodes:
        attrs = seeds_graph.nodes[node["id"]]
        style = NODE_STYLE[Label(attrs[LABEL_ATTR])]
        assert (node["color"], node["shape"]) == (style["color"], style["shape"])
        assert node["label"] == shorten(attrs[NAME], LABEL_MAX)
        assert node["kg_name"] == attrs[NAME]
        assert isinstance(node["title"], str) and node["title"].startswith(
            str(attrs.get("title") or attrs[NAME])
        )
    for edge in net.edges:
        assert edge["color"] == EDGE_COLOR[REL_TYPES[edge["kg_type"]]]
        assert edge["arrows"] == "to"
        assert seeds_graph.has_edge(edge["from"], edge["to"], key=edge["kg_type"])
    shapes = {n["kg_type"]: n["shape"] for n in net.nodes}
    assert shapes[Label.PAPER.value] == "dot" and shapes[Label.METHOD.value] == "diamond"


def test_without_focus_the_picture_is_the_html_exports(seeds_graph: nx.MultiDiGraph) -> None:
    for cap in (None, 60):
        net = to_pyvis(seeds_graph, max_nodes=cap)
        assert set(net.get_nodes()) == set(select(seeds_graph, max_nodes=cap).graph.nodes)


def test_focus_selects_what_kg_export_html_focus_selects(
    seeds_graph: nx.MultiDiGraph, seeds_graph_path: Path, tmp_path: Path
) -> None:
    paper = find_paper(seeds_graph, "MetaEmbed")
    proposed = next(v for _, v, k in seeds_graph.out_edges(paper, keys=True) if k == "PROPOSES")
    # A paper by display name and by id; an entity by id.
    for query, hops in (("MetaEmbed", 1), ("MetaEmbed", 2), (paper, 1), (proposed, 1)):
        net = to_pyvis(seeds_graph, query, hops=hops)
        sel = export_html(seeds_graph, tmp_path / "page.html", focus=query, depth=hops).selection
        assert set(net.get_nodes()) == set(sel.graph.nodes)
        assert {e["id"] for e in net.edges} == {
            f"{u}|{k}|{v}" for u, v, k in sel.graph.edges(keys=True)
        }
        focus = [n for n in net.nodes if n.get("borderWidth") == 4]
        assert [n["id"] for n in focus] == [sel.focus]
    # The command line, as a user gives it.
    result = CliRunner().invoke(
        main,
        ["export", "html", str(seeds_graph_path), "-o", str(tmp_path / "cli.html"),
         "--focus", "MetaEmbed", "--depth", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    net = to_pyvis(seeds_graph, "MetaEmbed", hops=1)
    assert (printed["nodes"], printed["edges"]) == (net.num_nodes(), net.num_edges())
    assert printed["focus"] in net.get_nodes()


def test_generate_html_and_show_work_as_in_pyvis(
    seeds_graph: nx.MultiDiGraph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = to_pyvis(seeds_graph, "MetaEmbed", hops=1)
    page = net.generate_html()
    assert "new vis.Network" in page and "vis-network" in page
    assert "cdnjs.cloudflare.com" not in page  # vis inlined: works offline and in notebooks
    assert json.dumps(net.nodes[0]["id"]) in page
    monkeypatch.chdir(tmp_path)
    notebook = to_pyvis(seeds_graph, "MetaEmbed", hops=1, notebook=True)
    frame = notebook.show("metaembed.html")
    assert (tmp_path / "metaembed.html").stat().st_size > 100_000
    assert frame.src == "metaembed.html"


def hostile_graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    G.add_node("paper:x", label="Paper", name=HOSTILE, display_name=HOSTILE, title=HOSTILE,
               abstract=HOSTILE * 3, authors=[HOSTILE], venue=HOSTILE)  # fmt: skip
    G.add_node("method:x", label="Method", name=HOSTILE, aliases=[HOSTILE + "2"], paper_count=1)
    G.add_edge("paper:x", "method:x", key="USES", **{TYPE_ATTR: "USES"}, evidence=HOSTILE)
    return G


def test_a_hostile_name_stays_text() -> None:
    net = to_pyvis(hostile_graph(), heading=HOSTILE)
    for item in (*net.nodes, *net.edges):
        # Hover text is a plain string (vis-network shows it with innerText) ...
        assert isinstance(item["title"], str) and "<img src=x" in item["title"]
        # ... with no "href" in it: pyvis renders every node title as HTML when one has one.
        assert "href" not in item["title"]
    page = net.generate_html()
    assert "popup.innerHTML" not in page  # pyvis's HTML popup is not in the page
    assert "<img src=x" not in page and "</script><img" not in page
    assert "&lt;img src=x" in page  # the heading, escaped
    node_data = page.split("new vis.DataSet(", 1)[1].split(");", 1)[0]
    assert json.loads(node_data)[0]["kg_name"] == HOSTILE


def test_importing_kg_html_does_not_import_pyvis() -> None:
    code = "import sys, kg.html; assert 'pyvis' not in sys.modules; from kg.html import to_pyvis"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    code += "; import networkx; to_pyvis(networkx.MultiDiGraph()); assert 'pyvis' in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_types_and_options_pass_through(tmp_path: Path) -> None:
    G = hostile_graph()
    G.add_node("dataset:d", label="Dataset", name="D", paper_count=1)
    G.add_edge("paper:x", "dataset:d", key="EVALUATES_ON", **{TYPE_ATTR: "EVALUATES_ON"})
    net = to_pyvis(G, types="Dataset", height="400px", directed=False, font_color="#333333")
    assert set(net.get_nodes()) == {"paper:x", "dataset:d"}
    assert net.height == "400px" and not net.directed
    assert all(n["font"]["color"] == "#333333" and n["font"]["size"] for n in net.nodes)
    save_graph(G, tmp_path / "g.json")  # a graph file round trip keeps the picture
    from kg.store.file import load_graph

    again = to_pyvis(load_graph(tmp_path / "g.json"))
    assert [n["title"] for n in again.nodes] == [n["title"] for n in to_pyvis(G).nodes]
