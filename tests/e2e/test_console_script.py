"""The installed ``kg`` console script (kg.cli:run), as a user runs it: output complete, exit
statuses kept, although the process skips Python's teardown at exit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

KG = str(Path(sys.executable).parent / "kg")


def kg(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KG, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_a_build_prints_all_its_output_and_exits_0(tmp_path: Path, repo_root: Path) -> None:
    out = tmp_path / "g.json"
    done = kg("build", str(repo_root / "seeds"), "-o", str(out), "--no-cache", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)  # all of it reached the pipe: it parses
    assert summary["papers"] == 38
    assert json.loads(out.read_bytes())["directed"] is True  # the graph file is complete


def test_an_error_is_one_line_and_exit_status_1(tmp_path: Path) -> None:
    done = kg("related", "MetaEmbed", "--graph", str(tmp_path / "missing.json"))
    assert done.returncode == 1
    assert done.stderr.startswith("Error: ") and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_usage_errors_keep_click_exit_status_2() -> None:
    done = kg("related")
    assert done.returncode == 2 and "Usage:" in done.stderr


def test_a_reader_that_stops_early_gets_no_traceback(repo_root: Path) -> None:
    # The seeds' mentions are ~230 KB: far more than a pipe holds, so kg is still writing when
    # head has gone.
    shell = subprocess.run(
        f"'{KG}' extract seeds --jsonl | head -n 1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=repo_root,
    )
    assert json.loads(shell.stdout)["id"]
    assert "Traceback" not in shell.stderr
