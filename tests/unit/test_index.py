from __future__ import annotations

from pathlib import Path

import pytest

from kg.query.index import PaperIndex, index_path, load_index
from kg.query.related import related_papers
from kg.store.file import save_graph
from tests.unit.test_related_lookup_store import small_graph


def test_index_answers_like_the_graph() -> None:
    G = small_graph()
    idx = PaperIndex.from_graph(G)
    assert related_papers(idx, "a") == related_papers(G, "a")
    assert idx.backlinks["concept:llm"] == ["a", "b", "c", "d"]


def test_cached_index_is_rebuilt_when_the_graph_changes(tmp_path: Path) -> None:
    G = small_graph()
    graph = save_graph(G, tmp_path / "g.json")
    cache = tmp_path / "cache"
    first = load_index(graph, cache)
    assert index_path(graph, cache).exists()
    assert load_index(graph, cache).nodes == first.nodes  # served from the cache
    G.add_node("e", label="Paper", title="A new paper", display_name="E", name="E")
    G.add_edge("e", "dataset:mmeb", key="EVALUATES_ON", type="EVALUATES_ON")
    save_graph(G, graph)
    fresh = load_index(graph, cache)
    assert "e" in fresh.nodes and "e" in fresh.backlinks["dataset:mmeb"]


def test_the_cache_keeps_the_indexes_of_the_graphs_queried_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import time

    import kg.query.index

    monkeypatch.setattr(kg.query.index, "KEEP_INDEXES", 2)
    cache = tmp_path / "cache"
    graphs = [save_graph(small_graph(), tmp_path / f"g{i}.json") for i in range(4)]
    for i, graph in enumerate(graphs[:2]):
        load_index(graph, cache)
        os.utime(index_path(graph, cache), (1000 + i, 1000 + i))
    load_index(graphs[0], cache)  # used again: now the most recent
    assert os.stat(index_path(graphs[0], cache)).st_mtime > time.time() - 60
    legacy = cache / "index" / "0123456789abcdef0123.pickle"  # an index of kg before 90d73bb
    legacy.write_bytes(b"old")
    load_index(graphs[2], cache)  # a third graph: the least recent index goes
    assert [index_path(g, cache).exists() for g in graphs] == [True, False, True, False]
    assert not legacy.exists()
