"""``kg build --dask ADDRESS`` against a real Dask cluster: a scheduler and two single-threaded
worker processes on 127.0.0.1, started here as a user would start them (``dask scheduler``,
``dask worker``) and killed at the end.

The graph must be a local build's, byte for byte: cold, incremental (only the texts the cache
lacks go to the cluster), and when a worker dies mid-build. An unreachable scheduler is one
readable line and a non-zero exit, and leaves the previous graph file as it was.

Without the ``dask`` extra these tests skip, except in CI, which installs it (the test extra).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kg.cli import main

REPO = Path(__file__).resolve().parent.parent.parent
SEEDS = REPO / "seeds"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
#: How long a cluster process may take to come up on a busy 2-core machine.
START_TIMEOUT = 60.0
#: A task on workers that died this many times is given up (Dask's default is 3): the
#: second kill of one batch's worker fails the build.
ALLOWED_FAILURES = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This environment without a scheduler of the user's (a local build must be local)."""
    env = {k: v for k, v in os.environ.items() if k != "KG_DASK_SCHEDULER"}
    return {**env, **(extra or {})}


def kg_build(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``kg build ARGS`` in a child process, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-c", "from kg.cli import run; run()", "build", *map(str, args)],
        env=build_env(env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def kg_build_start(*args: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from kg.cli import run; run()", "build", *map(str, args)],
        env=build_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


class Cluster:
    """A scheduler and two worker processes (each under a nanny, which restarts it if it dies),
    each command in a process group of its own, so that killing the group leaves nothing."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.processes: list[subprocess.Popen[bytes]] = []
        self.address = ""
        self.client: Any = None

    def _spawn(self, module: str, *args: str, log: str) -> None:
        env = {
            **os.environ,
            "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": str(ALLOWED_FAILURES),
            "DASK_TEMPORARY_DIRECTORY": str(self.root),  # scratch space: not the shared /tmp
        }
        with open(self.root / log, "wb") as out:
            self.processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", f"distributed.cli.{module}", *args],
                    cwd=self.root,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,
                )
            )

    def start(self) -> None:
        from distributed import Client

        scheduler_file = self.root / "scheduler.json"
        self._spawn(
            "dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(scheduler_file),
            log="scheduler.log",
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not scheduler_file.exists():
            if time.monotonic() > deadline or self.processes[0].poll() is not None:
                raise RuntimeError(f"no scheduler: {self.log('scheduler.log')}")
            time.sleep(0.1)
        self.address = json.loads(scheduler_file.read_text())["address"]
        for i in (1, 2):
            self._spawn(
                "dask_worker",
                self.address,
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--host",
                "127.0.0.1",
                "--no-dashboard",
                "--local-directory",
                str(self.root / f"worker{i}"),
                log=f"worker{i}.log",
            )
        self.client = Client(self.address, set_as_default=False, timeout=START_TIMEOUT)
        self.client.wait_for_workers(2, timeout=START_TIMEOUT)

    def log(self, name: str) -> str:
        path = self.root / name
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def worker_pids(self) -> dict[str, int]:
        """The worker processes (not their nannies) by address."""
        pids: dict[str, int] = self.client.run(os.getpid, on_error="ignore")  # (one may be dying)
        return pids

    def stop(self) -> None:
        if self.client is not None:
            self.client.close()
        for p in reversed(self.processes):
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):  # (gone meanwhile)
                    os.killpg(p.pid, signal.SIGKILL)  # its own group: the nanny and its worker
            p.wait(timeout=30)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    if importlib.util.find_spec("distributed") is None:
        if IN_CI:
            pytest.fail("the dask extra is missing in CI: the test extra must bring it")
        pytest.skip("needs Dask's distributed scheduler: pip install -e '.[dask]'")
    running = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def local_graph(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A cold local build of the seeds, with the flags the cluster builds use."""
    out = tmp_path_factory.mktemp("local") / "graph.json"
    done = kg_build(SEEDS, "--no-cache", "-o", out)
    assert done.returncode == 0, done.stderr[-3000:]
    return out.read_bytes()


def test_a_cluster_build_is_the_local_build_byte_for_byte(
    cluster: Cluster, local_graph: bytes, tmp_path: Path
) -> None:
    out = tmp_path / "graph.json"
    done = kg_build(SEEDS, "--no-cache", "-o", out, "--dask", cluster.address)
    assert done.returncode == 0, done.stderr[-3000:]
    assert out.read_bytes() == local_graph


def test_only_the_texts_the_cache_lacks_go_to_the_cluster(
    cluster: Cluster, local_graph: bytes, tmp_path: Path
) -> None:
    cache, out = tmp_path / "cache", tmp_path / "graph.json"
    first = sorted(SEEDS.iterdir())[0]  # one of the seed files, extracted here
    done = kg_build(first, "--cache-dir", cache, "-o", tmp_path / "part.json", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    part = json.loads(done.stdout)["papers"]
    # The env variable names the scheduler as --dask does.
    done = kg_build(
        SEEDS, "--cache-dir", cache, "-o", out, "--json", env={"KG_DASK_SCHEDULER": cluster.address}
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert 0 < summary["from_cache"] == part < summary["papers"]
    assert out.read_bytes() == local_graph


def _running_batch(
    cluster: Cluster, build: subprocess.Popen[str], key: str | None = None, dead: str = ""
) -> tuple[str, str]:
    """(worker, key) as soon as a worker runs one of the build's batches (``key``, or any),
    ``dead`` aside (a worker just killed, which the scheduler may not have noticed yet)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and build.poll() is None:
        for worker, keys in cluster.client.processing().items():
            running = [str(k) for k in keys if str(k).startswith("kg-extract-")]
            if worker != dead and (key in running if key else running):
                return worker, key or running[0]
        time.sleep(0.02)
    raise AssertionError(f"no worker ran a batch of the build: {build.communicate()}")


def test_a_worker_dying_mid_build_changes_nothing(
    cluster: Cluster, local_graph: bytes, tmp_path: Path
) -> None:
    out = tmp_path / "graph.json"
    pids = cluster.worker_pids()
    build = kg_build_start(SEEDS, "--no-cache", "-o", out, "--dask", cluster.address)
    worker, _ = _running_batch(cluster, build)
    os.kill(pids[worker], signal.SIGKILL)  # its nanny starts another
    stdout, stderr = build.communicate(timeout=300)
    assert build.returncode == 0, stderr[-3000:]
    assert out.read_bytes() == local_graph
    cluster.client.wait_for_workers(2, timeout=START_TIMEOUT)


def test_a_build_the_cluster_gives_up_on_leaves_the_old_graph(
    cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "graph.json"
    out.write_bytes(b"the previous graph")
    pids = cluster.worker_pids()
    build = kg_build_start(SEEDS, "--no-cache", "-o", out, "--dask", cluster.address)
    worker, key = _running_batch(cluster, build)
    (other,) = set(pids) - {worker}
    # The other worker is stopped, so that it cannot finish the batch before it is killed
    # again: the batch waits for it, or runs on the restarted worker (which loads the pipeline
    # first). Either way it is killed a second time, and the scheduler gives it up.
    os.kill(pids[other], signal.SIGSTOP)
    try:
        os.kill(pids[worker], signal.SIGKILL)
        second, _ = _running_batch(cluster, build, key, dead=worker)
        if second not in pids:  # the restarted one
            pids.update(cluster.client.run(os.getpid, workers=[second], on_error="ignore"))
        os.kill(pids[second], signal.SIGKILL)
    finally:
        os.kill(pids[other], signal.SIGCONT)  # (a no-op if it was the second)
    stdout, stderr = build.communicate(timeout=300)
    assert build.returncode != 0
    assert stderr.strip().splitlines()[-1].startswith("Error: Dask workers kept dying"), stderr
    assert out.read_bytes() == b"the previous graph"
    cluster.client.wait_for_workers(2, timeout=START_TIMEOUT)


def test_an_unreachable_scheduler_is_one_line_and_keeps_the_old_graph(tmp_path: Path) -> None:
    if importlib.util.find_spec("distributed") is None and not IN_CI:
        pytest.skip("needs Dask's distributed scheduler: pip install -e '.[dask]'")
    out = tmp_path / "graph.json"
    out.write_bytes(b"the previous graph")
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    done = kg_build(
        SEEDS,
        "--no-cache",
        "-o",
        out,
        "--dask",
        address,
        env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"},
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"Error: cannot reach the Dask scheduler at {address}"
    ), done.stderr
    assert out.read_bytes() == b"the previous graph"


def test_without_the_extra_dask_is_one_line_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    done = CliRunner().invoke(
        main,
        [
            "build",
            str(SEEDS),
            "--no-cache",
            "-o",
            str(tmp_path / "g.json"),
            "--dask",
            "tcp://127.0.0.1:8786",
        ],
    )
    assert done.exit_code != 0
    assert done.output.strip().splitlines() == [
        "Error: --dask needs Dask's distributed scheduler, from kg's dask extra: "
        "pip install 'kg[dask]' (in a checkout: pip install -e \".[dask]\")"
    ]
    assert not (tmp_path / "g.json").exists()
