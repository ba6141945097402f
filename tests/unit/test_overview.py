"""The topic overview page (kg.html.overview, ``kg export html --overview``), without a browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import kg.cli.html_cmds as html_cmds
from kg.cli import main
from kg.graph.topics import add_topics
from kg.html.overview import SHARES, export_overview, overview_data, with_topics
from kg.schema import LABEL_ATTR, Label
from kg.store.file import graph_from_data, write_graph_data
from tests.unit.test_topics import FIELDS, clusters

HOSTILE = '</script><img src=x onerror="window.__pwned=1"> & <b>bold</b>'


def _page_data(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', html, re.S)
    assert m, "no embedded page data"
    return json.loads(m.group(1))


def _with_topics() -> dict[str, Any]:
    data = clusters()
    add_topics(data)
    return data


def test_topics_are_the_nodes_and_their_links_what_they_share() -> None:
    data = _with_topics()
    page = overview_data(data)
    topics = [n for n in data["nodes"] if n[LABEL_ATTR] == Label.TOPIC.value]
    assert sorted(n["id"] for n in page["nodes"]) == sorted(t["id"] for t in topics)
    assert {n["type"] for n in page["nodes"]} == {"Topic"}
    for node in page["nodes"]:
        topic = next(t for t in topics if t["id"] == node["id"])
        assert node["name"] == topic["name"]
        assert node["label"].split("\n") == [
            *topic["name"].split(" · "),
            f"({topic['size']} papers)",
        ]
        tip = [line for _, line in node["tip"]]
        assert tip[0] == topic["name"] and f"{topic['size']} papers" in tip[1]
        assert any(line.startswith("Methods: ") for line in tip)
    # The clusters share only a concept too broad to count: no two topics are linked.
    assert page["edges"] == []
    # Every paper is in its topic's panel, once.
    listed = [row[0] for panel in page["topics"].values() for row in panel["papers"]]
    papers = [n["id"] for n in data["nodes"] if n[LABEL_ATTR] == Label.PAPER.value]
    assert sorted(listed) == sorted(papers)
    for panel in page["topics"].values():
        assert {name for _, name, _ in panel["entities"]} <= {
            name for ents in FIELDS.values() for _, name in ents
        }
    assert page["legend"][0]["type"] == "Topic" and page["legend"][0]["count"] == len(topics)


def test_topics_that_share_entities_are_linked() -> None:
    data = clusters()
    # A method of vision papers that two graph papers use too.
    for p in ("paper:g00", "paper:g01"):
        data["links"].append({"type": "USES", "key": "USES", "source": p, "target": "method:vit"})
    data["links"].sort(key=lambda e: (e["source"], e["target"], e["key"]))
    add_topics(data)
    page = overview_data(data)
    member = {e["source"]: e["target"] for e in data["links"] if e["type"] == "IN_TOPIC"}
    link = {tuple(sorted((member["paper:v00"], member["paper:g00"])))}
    assert {tuple(sorted((e["from"], e["to"]))) for e in page["edges"]} == link
    edge = page["edges"][0]
    assert edge["type"] == SHARES and "ViT" in edge["tip"][1][1]
    assert edge["tip"][2][1] == "1 shared entity"


def test_an_old_graph_file_gets_topics_on_the_fly(tmp_path: Path) -> None:
    plain = clusters()
    made, computed = with_topics(plain)
    assert computed and not any(n[LABEL_ATTR] == "Topic" for n in plain["nodes"])  # a copy
    assert with_topics(made) == (made, False)
    result = export_overview(graph_from_data(plain), tmp_path / "o.html")
    assert result.computed and result.topics == len(FIELDS) and result.papers == 40
    again = export_overview(made, tmp_path / "p.html")
    assert not again.computed
    assert result.path.read_text() == again.path.read_text().replace("p.html", "o.html")


def test_hostile_text_stays_data(tmp_path: Path) -> None:
    data = clusters()
    for n in data["nodes"]:
        if n["id"] == "paper:v00":
            n.update(title=HOSTILE, abstract=HOSTILE, url="javascript:window.__pwned=1")
        if n["id"] == "method:vit":
            n["name"] = HOSTILE
        if n["id"] == "paper:v01":
            n["url"] = "https://openreview.net/forum?id=x"
    result = export_overview(data, tmp_path / "o.html")
    html = result.path.read_text()
    assert HOSTILE not in html and "<img" not in html.split('id="kg-data">')[1].split("</")[0]
    page = _page_data(html)
    rows = {row[0]: row for panel in page["topics"].values() for row in panel["papers"]}
    assert rows["paper:v00"][1] == HOSTILE and rows["paper:v00"][3] == ""  # no such link
    assert rows["paper:v01"][3] == "https://openreview.net/forum?id=x"
    shown = [e[1] for panel in page["topics"].values() for e in panel["entities"]]
    assert HOSTILE in shown  # as text, in the data


def test_the_plain_page_has_no_overview_script(tmp_path: Path) -> None:
    from kg.html import export_html

    G = graph_from_data(_with_topics())
    html = export_html(G, tmp_path / "g.html").path.read_text()
    assert "kg.openTopic" not in html and '"overview"' not in html
    overview = export_overview(G, tmp_path / "o.html").path.read_text()
    assert "kg.openTopic" in overview and _page_data(overview)["overview"] is True


def test_cli_overview(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    graph = write_graph_data(clusters(), tmp_path / "graph.json")
    out = tmp_path / "page.html"
    runner = CliRunner()
    res = runner.invoke(main, ["export", "html", str(graph), "-o", str(out), "--overview"])
    assert res.exit_code == 0, res.output
    assert f"Wrote {out} (4 topics of 40 papers, 0 links)" in res.stdout
    assert "has no topics" in res.stderr  # made on the fly, and said so
    assert _page_data(out.read_text())["overview"] is True

    # Under the cap: the graph itself.
    res = runner.invoke(main, ["export", "html", str(graph), "-o", str(out), "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["overview"] is False

    # Over the cap: the overview, with a note on how to get the graph instead.
    monkeypatch.setattr(html_cmds, "DEFAULT_MAX_NODES", 10)
    res = runner.invoke(main, ["export", "html", str(graph), "-o", str(out), "--json"])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.stdout)
    assert printed["overview"] is True and printed["topics"] == 4 and printed["papers"] == 40
    assert "over the 10-node cap" in res.stderr and "--no-overview" in res.stderr
    for flags in (["--no-overview"], ["--max-nodes", "30"], ["--types", "Method"]):
        res = runner.invoke(main, ["export", "html", str(graph), "-o", str(out), "--json", *flags])
        assert res.exit_code == 0 and json.loads(res.stdout)["overview"] is False, flags

    res = runner.invoke(main, ["export", "html", str(graph), "--overview", "--focus", "x"])
    assert res.exit_code == 1 and "--overview" in res.output


def test_cli_over_the_cap_without_topics_to_show_draws_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Papers that share nothing: one topic of one paper and "other", nothing to overview.
    loners = clusters(fields="v")
    loners["links"] = []
    for n in loners["nodes"]:
        n.update(similar=[], similar_scores=[], similar_terms=[])
    graph = write_graph_data(loners, tmp_path / "graph.json")
    monkeypatch.setattr(html_cmds, "DEFAULT_MAX_NODES", 5)
    res = CliRunner().invoke(main, ["export", "html", str(graph), "-o", str(tmp_path / "g.html"),
                                    "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["overview"] is False
