"""Unit tests for the offline HTML export (kg.html) on small synthetic graphs (no browser)."""

from __future__ import annotations

import json
import re
from collections import Counter

import networkx as nx
import pytest

import kg.html.subgraph as html_subgraph
from kg.errors import InputError
from kg.html import export_html, left_out_note, parse_types, select
from kg.html.render import shorten
from kg.html.subgraph import peel_to
from kg.schema import (
    DEFAULT_ROLE,
    EDGE_COLOR,
    LABEL_ATTR,
    NODE_STYLE,
    TYPE_ATTR,
    Label,
    Rel,
    entity_id,
)

NASTY_TITLE = 'Beyond </script><img src=x onerror="alert(1)"> & "Quotes": a <b>Study</b>'


def _paper(G: nx.MultiDiGraph, pid: str, short: str, title: str) -> None:
    G.add_node(
        pid, id=pid, label=Label.PAPER.value, name=short, display_name=short, title=title,
        abstract=f"{short} is studied here. " * 30, venue="ICLR", year=2026, keywords=[],
        authors=["A. Author", "B. Author"], primary_area="testing", url="", source="t:1",
    )  # fmt: skip


def _entity(G: nx.MultiDiGraph, label: Label, name: str, aliases: list[str]) -> str:
    eid = entity_id(label, name.lower())
    G.add_node(eid, id=eid, label=label.value, name=name, aliases=aliases, paper_count=0)
    return eid


def _link(G: nx.MultiDiGraph, pid: str, eid: str, rel: Rel | None = None) -> None:
    rel = rel or DEFAULT_ROLE[Label(G.nodes[eid][LABEL_ATTR])]
    G.add_edge(
        pid, eid, key=rel.value, **{TYPE_ATTR: rel.value},
        evidence=f"Evidence <for> {G.nodes[eid]['name']} & co.", start=0, end=3,
        confidence=0.9, count=2,
    )  # fmt: skip
    G.nodes[eid]["paper_count"] += 1


@pytest.fixture()
def tiny() -> nx.MultiDiGraph:
    """Three papers: P1 and P2 share a method and a dataset, P3 shares only a concept with P2."""
    G = nx.MultiDiGraph(kg_format=1)
    _paper(G, "paper:1", "MetaEmbed", NASTY_TITLE)
    _paper(G, "paper:2", "GenRep", "GenRep: unified understanding and synthesis")
    _paper(G, "paper:3", "AskLLM", "How to train data-efficient LLMs")
    m = _entity(G, Label.METHOD, "Late Interaction", ["late interaction", "LI"])
    d = _entity(G, Label.DATASET, "MMEB", ["MMEB", "mmeb"])
    t = _entity(G, Label.TASK, "Retrieval", ["retrieval"])
    c = _entity(G, Label.CONCEPT, "LLM", ["LLM", "large language models"])
    k = _entity(G, Label.METRIC, "Accuracy", ["accuracy"])
    _link(G, "paper:1", m, Rel.PROPOSES)
    _link(G, "paper:1", d)
    _link(G, "paper:1", t)
    _link(G, "paper:2", m)
    _link(G, "paper:2", d)
    _link(G, "paper:2", c)
    _link(G, "paper:3", c)
    _link(G, "paper:3", k)
    return G


def _page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', html, re.S)
    assert m, "no embedded graph data"
    return json.loads(m.group(1))


def test_export_is_self_contained(tiny, tmp_path):
    html = export_html(tiny, tmp_path / "g.html").path.read_text(encoding="utf-8")
    # No external script, stylesheet, import or font: everything is inline.
    assert not re.search(r"<script[^>]*\ssrc=", html, re.I)
    assert not re.search(r"<link[^>]*\shref=[\"']?(https?:)?//", html, re.I)
    assert not re.search(r"@import|url\(\s*[\"']?(https?:)?//", html, re.I)
    assert not re.search(r"(src|href)\s*=\s*[\"']?https?://", html, re.I)
    assert "vis-network" in html and "new vis.Network" in html  # the library is really inlined
    assert len(html) > 400_000


def test_page_data_follows_schema(tiny, tmp_path):
    data = _page_data(export_html(tiny, tmp_path / "g.html").path.read_text(encoding="utf-8"))
    assert len(data["nodes"]) == tiny.number_of_nodes()
    assert len(data["edges"]) == tiny.number_of_edges()
    for node in data["nodes"]:
        style = NODE_STYLE[Label(node["type"])]
        assert (node["color"], node["shape"]) == (style["color"], style["shape"])
    for edge in data["edges"]:
        assert edge["color"] == EDGE_COLOR[Rel(edge["type"])]
    by_id = {n["id"]: n for n in data["nodes"]}
    assert by_id["paper:1"]["label"] == "MetaEmbed"  # short label, full title in the tooltip
    tip = [text for _, text in by_id["paper:1"]["tip"]]
    assert tip[0] == NASTY_TITLE
    assert any(t.startswith("MetaEmbed is studied here.") and t.endswith("…") for t in tip)
    assert any("Paper" in t for t in tip)
    ent_tip = " ".join(text for _, text in by_id["method:late interaction"]["tip"])
    assert "Late Interaction" in ent_tip and "in 2 papers" in ent_tip and "LI" in ent_tip
    # size grows with degree
    assert by_id["method:late interaction"]["size"] > by_id["metric:accuracy"]["size"]
    edge = next(e for e in data["edges"] if e["to"] == "dataset:mmeb" and e["from"] == "paper:1")
    assert any("Evidence <for> MMEB & co." in text for _, text in edge["tip"])
    legend = {item["type"]: item for item in data["legend"]}
    assert legend["Method"]["count"] == 1 and legend["Method"]["toggle"] is True
    assert legend["Paper"]["toggle"] is False


def test_graph_text_cannot_break_out_of_the_page(tiny, tmp_path):
    html = export_html(tiny, tmp_path / "g.html").path.read_text(encoding="utf-8")
    # Only our own three script blocks close; the title's "</script>" and tags are escaped.
    assert html.count("</script>") == 3
    assert "<img src=x" not in html and "<b>Study</b>" not in html
    nodes = {n["id"]: n for n in _page_data(html)["nodes"]}
    assert nodes["paper:1"]["tip"][0][1] == NASTY_TITLE  # ... and the text round-trips intact


def test_page_title_is_escaped(tiny, tmp_path):
    html = export_html(tiny, tmp_path / "g.html", title="A <b> & 'c'").path.read_text("utf-8")
    assert "<title>A &lt;b&gt; &amp; &#x27;c&#x27;</title>" in html


def test_parse_types():
    assert parse_types(None) is None
    assert parse_types("Method,dataset") == (Label.METHOD, Label.DATASET)
    assert parse_types(["Tasks", "Paper", "Task"]) == (Label.TASK,)
    with pytest.raises(InputError, match="unknown node type 'Gadget'"):
        parse_types("Method,Gadget")
    with pytest.raises(InputError):
        parse_types("Paper")


def test_types_keep_papers_and_chosen_entities(tiny):
    sel = select(tiny, types=parse_types("Method,Dataset"))
    labels = Counter(tiny.nodes[n][LABEL_ATTR] for n in sel.graph)
    assert labels == {"Paper": 3, "Method": 1, "Dataset": 1}
    assert sel.omitted_nodes == {"Concept": 1, "Metric": 1, "Task": 1}
    assert not sel.capped


def test_focus_neighbourhood_by_depth(tiny):
    one = select(tiny, focus="paper:1", depth=1)
    assert set(one.graph) == {
        "paper:1",
        "method:late interaction",
        "dataset:mmeb",
        "task:retrieval",
    }
    two = select(tiny, focus="paper:1", depth=2)
    assert set(two.graph) == set(one.graph) | {"paper:2"}
    three = select(tiny, focus="paper:1", depth=3)
    assert "concept:llm" in three.graph and "paper:3" not in three.graph
    zero = select(tiny, focus="paper:1", depth=0)
    assert set(zero.graph) == {"paper:1"}
    with pytest.raises(InputError):
        select(tiny, focus="paper:1", depth=-1)
    with pytest.raises(InputError):
        select(tiny, focus="paper:404")


def test_focus_is_complete_unless_max_nodes_given(tiny, monkeypatch):
    monkeypatch.setattr(html_subgraph, "DEFAULT_MAX_NODES", 3)
    assert select(tiny).graph.number_of_nodes() == 3  # the default cap applies ...
    full = select(tiny, focus="paper:1", depth=9)
    assert full.graph.number_of_nodes() == tiny.number_of_nodes()  # ... but not to a focus
    capped = select(tiny, focus="paper:3", depth=9, max_nodes=2)
    assert "paper:3" in capped.graph and capped.graph.number_of_nodes() == 2 and capped.capped
    assert select(tiny, max_nodes=0).graph.number_of_nodes() == tiny.number_of_nodes()
    with pytest.raises(InputError):
        select(tiny, max_nodes=-5)


def _random_bipartite(n_papers: int, n_entities: int, seed: int) -> nx.MultiDiGraph:
    import random

    rng = random.Random(seed)
    G = nx.MultiDiGraph(kg_format=1)
    labels = [Label.METHOD, Label.DATASET, Label.TASK, Label.CONCEPT]
    ents = [_entity(G, labels[i % 4], f"E{i}", [f"E{i}"]) for i in range(n_entities)]
    for p in range(n_papers):
        pid = f"paper:{p:04d}"
        _paper(G, pid, f"P{p}", f"Paper {p}")
        for eid in set(rng.choices(ents, weights=[1 / (i + 1) for i in range(n_entities)], k=6)):
            _link(G, pid, eid)
    return G


def test_cap_keeps_a_connected_core_and_reports_the_rest():
    G = _random_bipartite(300, 600, seed=3)
    sel = select(G, max_nodes=100)
    sub = sel.graph
    assert sub.number_of_nodes() == 100 and sel.capped
    U = sub.to_undirected(as_view=True)
    assert min(dict(U.degree()).values()) >= 2  # every kept node has links in the picture
    assert sum(sel.omitted_nodes.values()) == G.number_of_nodes() - 100
    assert sel.omitted_edges == G.number_of_edges() - sub.number_of_edges()
    assert set(select(G, max_nodes=100).graph) == set(sub)  # deterministic
    note = left_out_note(sel)
    assert note and note.startswith(f"left out {G.number_of_nodes() - 100:,} of")
    assert "Paper" in note and "--max-nodes" in note
    # peeling by core beats ranking by raw degree: the top-degree entities come along
    top_entity = max((n for n in G if not n.startswith("paper:")), key=G.degree)
    assert top_entity in sub


def test_peel_to_respects_keep():
    G = _random_bipartite(50, 80, seed=1)
    loner = min(G, key=lambda n: (G.degree(n), n))
    kept = peel_to(G, 10, keep=[loner])
    assert loner in kept and len(kept) == 10


def test_no_note_when_nothing_left_out(tiny):
    assert left_out_note(select(tiny)) is None


def test_empty_graph_exports(tmp_path):
    out = export_html(nx.MultiDiGraph(kg_format=1), tmp_path / "sub" / "e.html")
    assert out.nodes == 0 and out.path.exists()
    assert _page_data(out.path.read_text("utf-8"))["nodes"] == []


def test_shorten():
    assert shorten("abc", 10) == "abc"
    assert shorten("a  b\n c", 10) == "a b c"
    assert len(shorten("word " * 50, 30)) <= 30


def test_cli_export_html(tiny, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kg.cli import main
    from kg.store.file import save_graph

    graph = save_graph(tiny, tmp_path / "graph.json")
    out = tmp_path / "out" / "g.html"
    runner = CliRunner()
    res = runner.invoke(main, ["export", "html", str(graph), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert f"Wrote {out} (8 nodes, 8 links)" in res.output
    assert out.exists()

    monkeypatch.setattr(html_subgraph, "DEFAULT_MAX_NODES", 4)
    res = runner.invoke(main, ["export", "html", str(graph), "-o", str(out), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["nodes"] == 4
    assert "left out 4 of 8 nodes" in res.stderr and "--max-nodes" in res.stderr

    res = runner.invoke(
        main, ["export", "html", str(graph), "-o", str(out), "--focus", "GenRep", "--depth", "1"]
    )
    assert res.exit_code == 0, res.output
    assert "(4 nodes, 3 links)" in res.stdout and res.stderr == ""  # complete, uncapped

    res = runner.invoke(main, ["export", "html", str(graph), "--types", "Gadget", "-o", str(out)])
    assert res.exit_code == 1 and "unknown node type 'Gadget'" in res.output

    res = runner.invoke(main, ["export", "html", str(graph), "--focus", "Zzyzx Qwerty"])
    assert res.exit_code == 1 and res.output.startswith("Error:")

    res = runner.invoke(main, ["export", "html", str(tmp_path / "missing.json")])
    assert res.exit_code == 1 and "no graph file" in res.output

    res = runner.invoke(main, ["export", "html", "--help"])
    assert res.exit_code == 0 and "--focus" in res.output and "kg export html" in res.output


def test_link_weight_prefers_specific_entities(tiny):
    from kg.html.subgraph import link_weight

    tiny.nodes["concept:llm"]["paper_count"] = 500  # a broad concept says little per link
    assert link_weight(tiny, "paper:2", "concept:llm") < link_weight(
        tiny, "paper:2", "dataset:mmeb"
    )
    assert link_weight(tiny, "paper:2", "dataset:mmeb") == link_weight(
        tiny, "dataset:mmeb", "paper:2"
    )
