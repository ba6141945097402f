"""The SQLite store (kg/store/sqlite.py): what a command reads from it is what it reads from the
graph file, and writing one is all or nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from kg.errors import GraphFileError
from kg.query.explore import show_node, stats_of
from kg.query.index import PaperIndex, load_index
from kg.query.lookup import find_node, find_paper
from kg.query.related import related_papers
from kg.store import sqlite as store_module
from kg.store.file import convert_graph, graph_to_data, load_graph, save_graph, write_graph_data
from kg.store.sqlite import Store, StoreIndex, write_store


def small_graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    G.add_node("p1", label="Paper", title="Fast Graphs", display_name="FastG", abstract="A b.")
    G.add_node("p2", label="Paper", title="Slow Graphs", display_name="p2", abstract="C d.",
               similar=["p1"], similar_scores=[0.4], similar_terms=["graphs"])  # fmt: skip
    G.add_node("p3", label="Paper", title="Other Things", display_name="p3", abstract="")
    G.add_node("method:fastg", label="Method", name="FastG", aliases=["Fast Graph"],
               paper_count=2)  # fmt: skip
    G.add_node("method:grpo", label="Method", name="GRPO", aliases=["G R P O"], paper_count=3)
    G.add_node("dataset:x", label="Dataset", name="X-Bench", aliases=[], paper_count=2)
    G.add_node("topic:0", label="Topic", name="graphs · X-Bench", size=3)
    G.add_node("result:p1:0", label="Result", name="91.2% on X-Bench", value="91.2%")
    links = [
        ("p1", "method:fastg", "PROPOSES"), ("p2", "method:fastg", "USES"),
        ("p1", "dataset:x", "EVALUATES_ON"), ("p3", "dataset:x", "EVALUATES_ON"),
        ("p1", "method:grpo", "PROPOSES"), ("p2", "method:grpo", "PROPOSES"),
        ("p3", "method:grpo", "USES"), ("method:fastg", "dataset:x", "EVALUATED_ON"),
        ("p1", "result:p1:0", "REPORTS"), ("result:p1:0", "method:fastg", "FOR_METHOD"),
        ("result:p1:0", "dataset:x", "ON_DATASET"),
        *((p, "topic:0", "IN_TOPIC") for p in ("p1", "p2", "p3")),
    ]  # fmt: skip
    for u, v, kind in links:
        G.add_edge(u, v, key=kind, type=kind, evidence=f"{u} {kind} {v}.")
    return G


@pytest.fixture
def both(tmp_path: Path) -> tuple[Path, Path]:
    """The small graph as a graph file and as a store."""
    json_path, db_path = tmp_path / "g.json", tmp_path / "g.db"
    save_graph(small_graph(), json_path)
    convert_graph(json_path, db_path)
    return json_path, db_path


def test_a_store_gives_back_the_graph_file_byte_for_byte(both: tuple[Path, Path]) -> None:
    json_path, db_path = both
    back = convert_graph(db_path, db_path.with_name("back.json"))
    assert back.read_bytes() == json_path.read_bytes()
    assert graph_to_data(load_graph(db_path)) == graph_to_data(load_graph(json_path))


def test_the_store_index_answers_as_the_paper_index(both: tuple[Path, Path]) -> None:
    json_path, db_path = both
    want = PaperIndex.from_graph(load_graph(json_path))
    got = load_index(db_path)
    assert isinstance(got, StoreIndex)
    assert dict(got.nodes) == want.nodes
    assert dict(got.links) == want.links
    assert dict(got.backlinks) == want.backlinks
    assert "nowhere" not in got.nodes and "p1" in got.nodes
    for mine, theirs in ((got.paper_names(), want.paper_names()),
                         (got.entity_names(), want.entity_names())):  # fmt: skip
        assert dict(mine) == dict(theirs)
        assert all(mine.get(name) == ids for name, ids in theirs.items())
    for paper in ("p1", "p2", "p3"):
        assert related_papers(got, paper, k=None) == related_papers(want, paper, k=None)


@pytest.mark.parametrize("query", ["FastG", "fast graphs", "Fast Graph", "GRPO", "X-Bench",
                                   "x-bench", "topic:0", "result:p1:0", "Slow Grphs"])  # fmt: skip
def test_show_reads_the_same_node_from_a_store(both: tuple[Path, Path], query: str) -> None:
    json_path, db_path = both
    assert show_node(db_path, query) == show_node(json_path, query)


def test_lookups_and_stats_agree(both: tuple[Path, Path]) -> None:
    json_path, db_path = both
    G, idx = load_graph(json_path), load_index(db_path)
    assert find_paper(idx, "fast graphs") == find_paper(G, "fast graphs") == "p1"
    # Two papers propose GRPO: the entity of that very name is what `kg show GRPO` means.
    assert find_node(idx, "GRPO") == find_node(G, "GRPO") == "method:grpo"
    assert stats_of(db_path) == stats_of(json_path)
    assert stats_of(db_path)["top_topics"] == [{"id": "topic:0", "name": "graphs · X-Bench",
                                                 "size": 3}]  # fmt: skip


def test_a_store_gives_its_paper_texts_without_the_graph(both: tuple[Path, Path]) -> None:
    from kg.query.text_index import papers_of

    json_path, db_path = both
    with Store(db_path) as store:
        texts = store.paper_texts()
    assert texts == papers_of(load_graph(json_path))
    assert texts[0] == ("p1", "Fast Graphs", "A b.") and len(texts) == 3


def test_a_missing_or_foreign_store_is_one_readable_error(tmp_path: Path) -> None:
    with pytest.raises(GraphFileError, match="no graph store here"):
        Store(tmp_path / "none.db")
    (tmp_path / "text.db").write_text("not a database\n")
    with pytest.raises(GraphFileError, match="not a readable kg store"):
        load_graph(tmp_path / "text.db")
    other = sqlite3.connect(tmp_path / "other.db")
    other.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    other.commit()
    other.close()
    with pytest.raises(GraphFileError, match="another format"):
        stats_of(tmp_path / "other.db")


def test_a_write_that_fails_half_way_leaves_the_old_store(
    both: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    json_path, db_path = both
    before = db_path.read_bytes()

    def broken(data: dict[str, Any]) -> Any:
        yield "a name", "p1", 1
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module, "_names", broken)
    data = graph_to_data(load_graph(json_path))
    data["nodes"] = [n for n in data["nodes"] if n["id"] != "p3"]
    data["links"] = [e for e in data["links"] if "p3" not in (e["source"], e["target"])]
    with pytest.raises(GraphFileError, match="cannot write the store"):
        write_graph_data(data, db_path)
    assert db_path.read_bytes() == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == ["g.db", "g.json"]
    monkeypatch.undo()
    write_store(data, db_path)  # and it can be re-run
    assert stats_of(db_path)["papers"] == 2 and "p3" not in load_index(db_path).nodes


def test_links_and_papers_of_a_node_are_read_from_an_index_alone(
    both: tuple[Path, Path],
) -> None:
    # A big corpus's entity has tens of thousands of papers: reading each row of the table
    # besides its index entry made kg related's reads of them ten times slower.
    _, db_path = both
    con = sqlite3.connect(db_path)
    roles = store_module._ROLES
    for sql in (store_module.LINKS_OF, store_module.PAPERS_OF):
        plan = " ".join(str(row) for row in con.execute(f"EXPLAIN QUERY PLAN {sql}", ("x", *roles)))
        assert "COVERING INDEX" in plan, plan
