"""Faults, through the ``kg`` command as a user runs it: a cache folder of garbage, a build
killed with SIGKILL (while its workers run, and while it writes the graph file), two builds at
once on one fresh cache folder, a full disk.

Every process of a test's builds carries a marker in its environment, so the test finds all of
them, also those re-parented to init after their parent was killed."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

psutil = pytest.importorskip("psutil")

KG = str(Path(sys.executable).parent / "kg")
MARKER = "KG_FAULT_TEST"
#: How long the children of a killed build may take to end (they poll twice a second).
ORPHAN_DEADLINE = 5.0


def kg_env(token: str, **extra: str) -> dict[str, str]:
    return {**os.environ, MARKER: token, **extra}


def kg(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KG, *args], capture_output=True, text=True, timeout=300, env=env)


def marked(token: str) -> list[Any]:
    """The running processes whose environment has ``MARKER=token``."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(MARKER) == token and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


@pytest.fixture
def token() -> Iterator[str]:
    """A marker for this test's processes; any still running at the end are killed."""
    value = uuid.uuid4().hex
    yield value
    for proc in marked(value):
        proc.kill()


def wait_gone(token: str, deadline: float) -> list[Any]:
    """The marked processes still running after ``deadline`` seconds (none, once all end)."""
    end = time.monotonic() + deadline
    while (alive := marked(token)) and time.monotonic() < end:
        time.sleep(0.1)
    return alive


# --------------------------------------------------------------------------- damaged cache


def cold_graph_and_cache(tmp_path: Path, repo_root: Path) -> tuple[str, Path, Path]:
    """The seeds built without a cache (the graph to compare with), and built once more
    filling the cache folder: (seeds, cache folder, cold graph file)."""
    seeds = str(repo_root / "seeds")
    cache, cold = tmp_path / "cache", tmp_path / "cold.json"
    assert kg("build", seeds, "--no-cache", "-o", str(cold)).returncode == 0
    warm = kg("build", seeds, "--cache-dir", str(cache), "-o", str(tmp_path / "a.json"))
    assert warm.returncode == 0, warm.stderr[-3000:]
    return seeds, cache, cold


def test_a_cache_folder_of_garbage_warns_and_builds_the_same_graph(
    tmp_path: Path, repo_root: Path
) -> None:
    seeds, cache, cold = cold_graph_and_cache(tmp_path, repo_root)
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} >= {".sqlite", ".marshal"}  # there was a cache to damage
    for f in files:
        f.write_bytes(os.urandom(max(f.stat().st_size, 64)))

    out = tmp_path / "b.json"
    done = kg("build", seeds, "--cache-dir", str(cache), "-o", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    warnings = [line for line in done.stderr.splitlines() if "CacheWarning" in line]
    assert warnings and all("is damaged" in w and "set aside as" in w for w in warnings)
    assert out.read_bytes() == cold.read_bytes()
    # The cache works again: the next build reads its extractions back, without a warning.
    again = kg("build", seeds, "--cache-dir", str(cache), "-o", str(out), "--json")
    assert again.returncode == 0 and "CacheWarning" not in again.stderr, again.stderr
    assert '"from_cache": 38' in again.stdout
    assert out.read_bytes() == cold.read_bytes()


def test_damaged_rows_in_a_sound_cache_are_extracted_again_for_the_same_graph(
    tmp_path: Path, repo_root: Path
) -> None:
    seeds, cache, cold = cold_graph_and_cache(tmp_path, repo_root)
    (extractions,) = cache.glob("extractions-*.sqlite")
    with sqlite3.connect(extractions) as db:  # the file stays sound: only three values are not
        db.execute(
            "UPDATE mentions SET value = x'ff00'"
            " WHERE rowid IN (SELECT rowid FROM mentions LIMIT 3)"
        )
    db.close()
    out = tmp_path / "b.json"
    done = kg("build", seeds, "--cache-dir", str(cache), "-o", str(out), "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    assert '"from_cache": 35' in done.stdout
    assert out.read_bytes() == cold.read_bytes()


# --------------------------------------------------------------------------- orphans

START_METHODS = [m for m in ("fork", "spawn") if m in multiprocessing.get_all_start_methods()]


@pytest.mark.parametrize("method", START_METHODS)
def test_a_killed_build_leaves_no_process_running(
    method: str, tmp_path: Path, repo_root: Path, token: str
) -> None:
    """A cold build with extraction workers (``--jobs 2``), SIGKILLed once its workers run:
    every process it started ends within seconds."""
    env = kg_env(token, KG_START_METHOD=method)
    build = subprocess.Popen(
        [KG, "build", str(repo_root / "seeds"), "--no-cache", "--jobs", "2",
         "-o", str(tmp_path / "g.json")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        parent = psutil.Process(build.pid)
        # The reader (or similarity) stage and two extraction workers (spawn: and the
        # resource tracker): kill when the workers have started. The reader ends as soon as
        # it has handed over its values, often before the workers start.
        seen: dict[int, Any] = {}
        while build.poll() is None:
            try:
                live = parent.children(recursive=True)
            except psutil.NoSuchProcess:  # one ended while they were listed
                continue
            seen.update((p.pid, p) for p in live)
            if len(live) >= 2 and len(seen) >= 3:
                break
            time.sleep(0.05)
        assert build.poll() is None, "the build ended before its workers could be seen"
        build.send_signal(signal.SIGKILL)
        build.wait()
    finally:
        if build.poll() is None:
            build.kill()
    assert len(seen) >= 3
    survivors = wait_gone(token, ORPHAN_DEADLINE)
    assert not survivors, [(p.pid, p.cmdline()) for p in survivors]


# --------------------------------------------------------------------------- graph file

#: Runs the kg command with the graph write made to die by SIGKILL at a chosen point.
DYING_KG = """
import os, signal, sys
import kg.atomic as atomic

def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)

def half_then_die(path, data):
    with atomic.atomic_write(path) as f:
        f.write(data[: len(data) // 2])
        f.flush()
        die()

if sys.argv[1] == "mid-write":
    atomic.write_bytes = half_then_die
else:  # before-rename: the temporary file is complete, the rename never comes
    atomic.os.replace = lambda src, dst: die()
from kg.cli import main
main(sys.argv[2:])
"""


def is_seeds_graph(content: bytes) -> bool:
    """Whether ``content`` is a whole graph file of the 38 seeds papers. (Not compared byte for
    byte with a build made earlier: while the extraction code is being edited in this checkout,
    a later build may differ; tests/e2e/test_same_graph_every_way.py compares bytes.)"""
    data = orjson.loads(content)
    return content.endswith(b"\n") and sum(n["label"] == "Paper" for n in data["nodes"]) == 38


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> dict[str, bytes]:
    """The old graph (one seeds file) and the new one (all seeds), built cold."""
    folder = tmp_path_factory.mktemp("graphs")
    seeds = sorted((repo_root / "seeds").iterdir())
    out = {}
    for name, inputs in (("old", seeds[:1]), ("new", seeds)):
        done = kg("build", *map(str, inputs), "--no-cache", "-o", str(folder / name))
        assert done.returncode == 0, done.stderr[-2000:]
        out[name] = (folder / name).read_bytes()
    assert out["old"] != out["new"]
    return out


@pytest.mark.parametrize("point", ["mid-write", "before-rename"])
def test_a_build_killed_while_writing_the_graph_leaves_the_old_file(
    point: str, tmp_path: Path, repo_root: Path, graphs: dict[str, bytes]
) -> None:
    target = tmp_path / "G.json"
    target.write_bytes(graphs["old"])
    args = ["build", str(repo_root / "seeds"), "--no-cache", "-o", str(target)]
    done = subprocess.run([sys.executable, "-c", DYING_KG, point, *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    assert target.read_bytes() == graphs["old"]
    assert len(list(tmp_path.iterdir())) == 2  # the dead build's temporary file
    again = kg(*args)
    assert again.returncode == 0, again.stderr[-2000:]
    assert is_seeds_graph(target.read_bytes())
    assert [p.name for p in tmp_path.iterdir()] == ["G.json"]  # its debris is gone


def test_a_build_killed_at_any_moment_leaves_a_complete_graph_file(
    tmp_path: Path, repo_root: Path, graphs: dict[str, bytes], token: str
) -> None:
    """SIGKILLs from outside, at moments spread over a whole build: each time the file is the
    old complete graph or the new complete one."""
    target = tmp_path / "G.json"
    target.write_bytes(graphs["old"])
    args = [KG, "build", str(repo_root / "seeds"), "--no-cache", "-o", str(target)]
    for delay in (0.5, 1.5, 2.2, 2.8, 3.4):
        build = subprocess.Popen(args, env=kg_env(token), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        time.sleep(delay)
        build.kill()
        build.wait()
        content = target.read_bytes()
        assert content == graphs["old"] or is_seeds_graph(content), f"broken after {delay}s"
        target.write_bytes(graphs["old"])
    assert not wait_gone(token, ORPHAN_DEADLINE)
    done = kg(*args[1:])
    assert done.returncode == 0 and is_seeds_graph(target.read_bytes())
    assert [p.name for p in tmp_path.iterdir()] == ["G.json"]


# --------------------------------------------------------------------------- shared cache


def test_two_builds_at_once_on_one_fresh_cache_folder_give_the_no_cache_graph(
    tmp_path: Path, repo_root: Path, graphs: dict[str, bytes], token: str
) -> None:
    """Two cold builds started together, writing one cache folder that neither has seen."""
    cache = tmp_path / "cache"
    outs = [tmp_path / "A.json", tmp_path / "B.json"]
    builds = [
        subprocess.Popen([KG, "build", str(repo_root / "seeds"), "--cache-dir", str(cache),
                          "-o", str(out)], env=kg_env(token), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
        for out in outs
    ]
    errors = [b.communicate(timeout=600)[1] for b in builds]
    for build, err in zip(builds, errors, strict=True):
        assert build.returncode == 0, err[-3000:]
        assert "Traceback" not in err and "Warning" not in err, err[-3000:]
    assert any(cache.rglob("*.sqlite")), "the builds shared no cache"
    for out in outs:
        assert out.read_bytes() == graphs["new"], out.name


# --------------------------------------------------------------------------- full disk

#: The file-size limit of the full-disk test, in bash's 1024-byte blocks.
FSIZE_BLOCKS = 64


def test_a_full_disk_is_one_line_and_keeps_the_old_graph(
    tmp_path: Path, repo_root: Path, graphs: dict[str, bytes]
) -> None:
    """``ulimit -f``: no file may grow past 64 KiB, so writing the new graph fails (EFBIG, as
    ENOSPC would; Python ignores SIGXFSZ)."""
    assert len(graphs["new"]) > FSIZE_BLOCKS * 1024, "the new graph must not fit"
    target = tmp_path / "G.json"
    target.write_bytes(graphs["old"])
    command = (f"ulimit -f {FSIZE_BLOCKS}; exec {KG} build {repo_root / 'seeds'} --no-cache "
               f"-o {target}")
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and str(target) in errors[0], done.stderr[-3000:]
    assert target.read_bytes() == graphs["old"]
    assert [p.name for p in tmp_path.iterdir()] == ["G.json"]  # no temporary file left
