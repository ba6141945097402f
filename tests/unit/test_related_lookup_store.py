from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from kg.errors import AmbiguousError, GraphFileError, NotFoundError
from kg.query.lookup import find_node, find_paper
from kg.query.related import related_papers
from kg.store.file import export_graph, load_graph, save_graph


def small_graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    papers = {
        "a": ("MetaEmbed: Scaling Multimodal Retrieval", "MetaEmbed"),
        "b": ("Dense retrieval at scale", "DenseX"),
        "c": ("Chat models for law", "LawChat"),
        "d": ("Chat models for medicine", "MedChat"),
    }
    for pid, (title, name) in papers.items():
        G.add_node(pid, label="Paper", title=title, display_name=name, name=name)
    ents = {
        "dataset:mmeb": ("Dataset", "MMEB", ["Massive Multimodal Embedding Benchmark"]),
        "concept:llm": ("Concept", "large language model", []),
        "method:metaembed": ("Method", "MetaEmbed", []),
    }
    for eid, (label, name, aliases) in ents.items():
        G.add_node(eid, label=label, name=name, aliases=aliases, paper_count=0)
    for u, v, t in [
        ("a", "dataset:mmeb", "EVALUATES_ON"),
        ("b", "dataset:mmeb", "EVALUATES_ON"),
        ("a", "concept:llm", "MENTIONS"),
        ("b", "concept:llm", "MENTIONS"),
        ("c", "concept:llm", "MENTIONS"),
        ("d", "concept:llm", "MENTIONS"),
        ("a", "method:metaembed", "PROPOSES"),
    ]:
        G.add_edge(u, v, key=t, type=t)
    for eid in ents:
        G.nodes[eid]["paper_count"] = G.in_degree(eid)
    return G


def test_rare_specific_entities_outrank_common_concepts() -> None:
    results = related_papers(small_graph(), "a", k=10)
    assert [r.id for r in results] == ["b", "c", "d"]
    assert [s.name for s in results[0].shared] == ["MMEB", "large language model"]
    assert results[0].score > results[1].score == results[2].score  # tie broken by id
    assert related_papers(small_graph(), "a", k=1)[0].id == "b"


def test_find_paper_exact_case_fuzzy_and_proposed_name() -> None:
    G = small_graph()
    assert find_paper(G, "DenseX") == "b"
    assert find_paper(G, "densex") == "b"
    assert find_paper(G, "MetaEmbed") == "a"  # display name and proposed method agree
    assert find_paper(G, "Dense retreival at scale") == "b"  # typo: fuzzy


def test_find_paper_ambiguous_and_missing() -> None:
    G = small_graph()
    with pytest.raises(AmbiguousError) as exc:
        find_paper(G, "Chat models for")
    assert "LawChat" in str(exc.value) and "MedChat" in str(exc.value)
    with pytest.raises(NotFoundError):
        find_paper(G, "zzzz qqqq")


def test_find_node_reaches_entities_by_alias() -> None:
    assert find_node(small_graph(), "Massive Multimodal Embedding Benchmark") == "dataset:mmeb"


def test_store_round_trip_and_errors(tmp_path: Path) -> None:
    G = small_graph()
    path = save_graph(G, tmp_path / "g.json")
    H = load_graph(path)
    assert set(H.nodes) == set(G.nodes) and H.number_of_edges() == G.number_of_edges()
    assert H.nodes["dataset:mmeb"]["aliases"] == ["Massive Multimodal Embedding Benchmark"]
    with pytest.raises(GraphFileError, match="no graph file"):
        load_graph(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(GraphFileError, match="not a readable kg graph"):
        load_graph(tmp_path / "bad.json")


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_exports_read_back(tmp_path: Path, fmt: str) -> None:
    out = export_graph(small_graph(), tmp_path / f"g.{fmt}", fmt)
    H = nx.read_graphml(out) if fmt == "graphml" else nx.read_gexf(out)
    assert H.number_of_nodes() == 7
    assert H.nodes["dataset:mmeb"]["aliases"] == "Massive Multimodal Embedding Benchmark"
