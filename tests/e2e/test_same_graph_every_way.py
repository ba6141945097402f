"""The same graph, byte for byte, with the fast paths off (``KG_FAST=0``) and under every start
method (``KG_START_METHOD``), through the ``kg`` command as a user runs it.

The seeds are below the size at which kg starts extraction workers on its own, so ``--jobs 2``
makes it start them: forked workers inherit the loaded pipeline, spawned ones load their own.
``benchmarks/same_graph.py CORPUS`` runs the same comparison on a corpus of any size.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

WAYS = {
    "fast paths off": ({"KG_FAST": "0"}, []),
    "spawn": ({"KG_START_METHOD": "spawn"}, []),
    "inline": ({"KG_START_METHOD": "inline"}, []),
    "forked workers": ({"KG_START_METHOD": "fork"}, ["--jobs", "2"]),
    "spawned workers": ({"KG_START_METHOD": "spawn"}, ["--jobs", "2"]),
    "spawned workers, fast paths off": ({"KG_START_METHOD": "spawn", "KG_FAST": "0"}, ["-j", "2"]),
}


@pytest.fixture(scope="module")
def build(
    repo_root: Path, benchmark_module: Callable[[str], ModuleType]
) -> Callable[[Path, dict[str, str], list[str]], bytes]:
    """Build the seeds to a path with some switches set, as benchmarks/same_graph.py does."""
    run_build = benchmark_module("same_graph").run_build

    def seeds_graph(out: Path, env: dict[str, str], args: list[str]) -> bytes:
        done = run_build([str(repo_root / "seeds")], out, env, args)
        assert done.returncode == 0, done.stderr[-3000:]
        assert "FastPathWarning" not in done.stderr, done.stderr  # no fast path fell back
        return out.read_bytes()

    return seeds_graph


@pytest.fixture(scope="module")
def default_graph(build: Callable[..., bytes], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return build(tmp_path_factory.mktemp("default") / "graph.json", {}, [])


@pytest.mark.slow
@pytest.mark.parametrize("way", list(WAYS))
def test_the_graph_is_the_same_byte_for_byte(
    way: str, default_graph: bytes, build: Callable[..., bytes], tmp_path: Path
) -> None:
    if "fork" in way and "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("this system cannot fork")
    env, args = WAYS[way]
    assert build(tmp_path / "graph.json", env, args) == default_graph


def test_this_sessions_graph_is_the_default_one(
    seeds_graph_path: Path, default_graph: bytes
) -> None:
    """The seeds graph the other e2e tests read, built in this process under this session's
    KG_FAST and KG_START_METHOD (``scripts/test`` runs the e2e tests under each), is the
    default build's, byte for byte."""
    assert seeds_graph_path.read_bytes() == default_graph
