"""The same graph, byte for byte, with the fast paths off (``KG_FAST=0``) and under every start
method (``KG_START_METHOD``), through the ``kg`` command as a user runs it.

The seeds are below the size at which kg starts extraction workers on its own, so ``--jobs 2``
makes it start them: forked workers inherit the loaded pipeline, spawned ones load their own.
``benchmarks/same_graph.py CORPUS`` runs the same comparison on a corpus of any size.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

KG = [sys.executable, "-c", "from kg.cli import run; run()"]

WAYS = {
    "fast paths off": ({"KG_FAST": "0"}, []),
    "spawn": ({"KG_START_METHOD": "spawn"}, []),
    "inline": ({"KG_START_METHOD": "inline"}, []),
    "forked workers": ({"KG_START_METHOD": "fork"}, ["--jobs", "2"]),
    "spawned workers": ({"KG_START_METHOD": "spawn"}, ["--jobs", "2"]),
    "spawned workers, fast paths off": ({"KG_START_METHOD": "spawn", "KG_FAST": "0"}, ["-j", "2"]),
}


def build(repo_root: Path, out: Path, env: dict[str, str], args: list[str]) -> bytes:
    clean = {k: v for k, v in os.environ.items() if k not in ("KG_FAST", "KG_START_METHOD")}
    done = subprocess.run(
        [*KG, "build", str(repo_root / "seeds"), "--no-cache", "-o", str(out), *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "FastPathWarning" not in done.stderr, done.stderr  # no fast path fell back
    return out.read_bytes()


@pytest.fixture(scope="module")
def default_graph(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return build(repo_root, tmp_path_factory.mktemp("default") / "graph.json", {}, [])


@pytest.mark.slow
@pytest.mark.parametrize("way", list(WAYS))
def test_the_graph_is_the_same_byte_for_byte(
    way: str, default_graph: bytes, repo_root: Path, tmp_path: Path
) -> None:
    if "fork" in way and "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("this system cannot fork")
    env, args = WAYS[way]
    assert build(repo_root, tmp_path / "graph.json", env, args) == default_graph


def test_this_sessions_graph_is_the_default_one(
    seeds_graph_path: Path, default_graph: bytes
) -> None:
    """The seeds graph the other e2e tests read, built in this process under this session's
    KG_FAST and KG_START_METHOD (``scripts/test`` runs the e2e tests under each), is the
    default build's, byte for byte."""
    assert seeds_graph_path.read_bytes() == default_graph
