"""kg.atomic and its users: a write that fails half-way leaves the old file and no debris;
debris of a killed writer goes with the next write of the same target."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from kg import atomic
from kg.atomic import atomic_write, remove_debris, temp_path


class Boom(Exception):
    pass


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_a_write_that_fails_half_way_leaves_the_old_file_and_nothing_beside_it(
    tmp_path: Path,
) -> None:
    target = tmp_path / "g.json"
    target.write_bytes(b"old, complete")
    with pytest.raises(Boom), atomic_write(target) as f:
        f.write(b"new, half")
        f.flush()
        assert len(beside(target)) == 2  # the half-written temporary file, beside the target
        raise Boom
    assert target.read_bytes() == b"old, complete"
    assert beside(target) == ["g.json"]


def test_a_completed_write_replaces_the_file_and_keeps_the_umask_permissions(
    tmp_path: Path,
) -> None:
    target = tmp_path / "sub" / "g.json"
    old_umask = os.umask(0o022)
    try:
        atomic.write_text(target, "ünï")
    finally:
        os.umask(old_umask)
    assert target.read_text(encoding="utf-8") == "ünï"
    assert target.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0o600
    assert beside(target) == ["g.json"]


def test_debris_of_a_dead_writer_goes_and_a_live_writers_file_stays(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead_pid = int(dead.stdout)  # that process has ended: its pid names no process now
    debris = target.with_name(f"g.json.{dead_pid}-0badc0de.tmp")
    live = temp_path(target)  # this process's, as if another thread were writing it
    legacy = target.with_name("g.json.tmp")  # older releases' fixed name
    other = tmp_path / "h.json.1-aaaa.tmp"  # another target's: not ours to judge
    for p in (debris, live, legacy, other):
        p.write_bytes(b"half")
    atomic.write_bytes(target, b"new")
    assert beside(target) == sorted(["g.json", live.name, other.name])
    assert remove_debris(target) == 0


def test_a_failed_graph_write_keeps_the_previous_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.errors import GraphFileError
    from kg.store.file import export_graph, save_graph

    G = nx.MultiDiGraph()
    G.add_node("p1", label="Paper", name="P")
    target = save_graph(G, tmp_path / "g.json")
    before = target.read_bytes()
    G.add_node("p2", label="Paper", name="Q")

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(GraphFileError, match="cannot write .No space left on device"):
        save_graph(G, target)
    with pytest.raises(GraphFileError, match="cannot write"):
        export_graph(G, tmp_path / "g.graphml", "graphml")
    assert target.read_bytes() == before
    assert beside(target) == ["g.json"]


def test_exports_html_and_the_query_index_are_written_through_atomic_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each writer goes through kg.atomic: interrupted, none leaves a file or debris."""
    from kg.html import export_html
    from kg.query.index import index_path, load_index
    from kg.store.file import export_graph, save_graph

    G = nx.MultiDiGraph()
    G.add_node("p1", label="Paper", name="P", title="T", abstract="A")
    graph = save_graph(G, tmp_path / "g.json")
    real_replace = os.replace

    def interrupted(src: str, dst: str) -> None:
        raise Boom

    monkeypatch.setattr(os, "replace", interrupted)
    for fmt in ("graphml", "gexf"):
        with pytest.raises(Boom):
            export_graph(G, tmp_path / f"g.{fmt}", fmt)
    with pytest.raises(Boom):
        export_html(G, tmp_path / "g.html")
    with pytest.raises(Boom):
        load_index(graph, cache_dir=tmp_path / "cache")
    assert beside(graph) == ["cache", "g.json"]
    assert not list((tmp_path / "cache").rglob("*.*"))
    monkeypatch.setattr(os, "replace", real_replace)
    load_index(graph, cache_dir=tmp_path / "cache")
    assert index_path(graph, tmp_path / "cache").is_file()
