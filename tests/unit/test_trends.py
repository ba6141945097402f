"""kg trends: shares of each year's papers, rising and falling (kg.query.trends)."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.query.trends import TrendsError, entity_trends
from kg.store.file import save_graph


def two_years() -> nx.MultiDiGraph:
    """2018: 10 papers, 6 on GANs; 2026: 40 papers, 4 on GANs and 20 on GRPO."""
    G = nx.MultiDiGraph()
    for name, label in [("GAN", "Method"), ("GRPO", "Method"), ("ImageNet", "Dataset")]:
        G.add_node(name, id=name, label=label, name=name)
    for year, n, uses in [
        (2018, 10, {"GAN": 6, "ImageNet": 5}),
        (2026, 40, {"GAN": 4, "GRPO": 20, "ImageNet": 20}),
    ]:
        for i in range(n):
            pid = f"p{year}-{i}"
            G.add_node(pid, id=pid, label="Paper", name=pid, year=year)
            for entity, k in uses.items():
                if i < k:
                    G.add_edge(pid, entity, key="USES", type="USES")
    return G


def test_shares_not_counts_decide() -> None:
    t = entity_trends(two_years())
    assert [i["name"] for i in t["rising"]] == ["GRPO"]
    # ImageNet: 5 of 10 papers, then 20 of 40: the same share, neither rising nor falling.
    assert [i["name"] for i in t["falling"]] == ["GAN"]
    assert t["falling"][0]["share"] == {2018: 0.6, 2026: 0.1}
    assert t["falling"][0]["counts"] == {2018: 6, 2026: 4}


def test_type_filter_and_support() -> None:
    G = two_years()
    assert entity_trends(G, label="Dataset") == {"rising": [], "falling": []}
    assert entity_trends(G, min_papers=21) == {"rising": [], "falling": []}


def test_one_year_is_an_error() -> None:
    G = two_years()
    G.remove_nodes_from([n for n, a in G.nodes(data=True) if a.get("year") == 2018])
    with pytest.raises(TrendsError, match="one year"):
        entity_trends(G)


def test_cli_json_and_plot(tmp_path: Path) -> None:
    path = save_graph(two_years(), tmp_path / "g.json")
    out = CliRunner().invoke(main, ["trends", "--graph", str(path), "--type", "Method", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["rising"][0]["name"] == "GRPO" and data["falling"][0]["name"] == "GAN"
    svg = tmp_path / "t.svg"
    out = CliRunner().invoke(main, ["trends", "--graph", str(path), "--plot", str(svg)])
    assert out.exit_code == 0, out.output
    assert svg.read_text().lstrip().startswith(("<?xml", "<svg")) and "GRPO" in svg.read_text()


def test_build_year_fills_only_missing_years(tmp_path: Path) -> None:
    from kg.build import build

    (tmp_path / "a.jsonl").write_text(
        json.dumps({"title": "A", "abstract": "We evaluate GRPO on GSM8K.", "year": 2024})
        + "\n"
        + json.dumps({"title": "B", "abstract": "We train a GAN on ImageNet."})
        + "\n",
        encoding="utf-8",
    )
    result = build([tmp_path / "a.jsonl"], year=2018)
    assert sorted(p.year for p in result.papers) == [2018, 2024]
