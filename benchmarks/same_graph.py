"""Build one corpus every way kg can run and compare the graph files byte for byte.

The ways: the default; ``KG_FAST=0`` (spaCy's and thinc's own code instead of kg's fast paths,
no process tuning); ``KG_START_METHOD=spawn`` (workers that load their own pipeline);
``KG_START_METHOD=inline`` (one process). Each is a cold ``kg build --no-cache`` in a child
process, timed, so the report also says what each way costs on this machine. The graphs must
be identical; the script exits 1 when one differs.

Usage::

    .venv/bin/python benchmarks/same_graph.py                       # ICLR 2026 from ../shared
    .venv/bin/python benchmarks/same_graph.py seeds/ --ways default,spawn --json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_ICLR, table  # noqa: E402

WAYS: dict[str, dict[str, str]] = {
    "default": {},
    "KG_FAST=0": {"KG_FAST": "0"},
    "spawn": {"KG_START_METHOD": "spawn"},
    "inline": {"KG_START_METHOD": "inline"},
}


def run_build(
    inputs: list[str], out: Path, env: dict[str, str], args: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """A cold ``kg build`` of ``inputs`` to ``out`` in a child process, with ``env`` set over an
    environment that has neither switch (so the default is the default)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("KG_FAST", "KG_START_METHOD")}
    return subprocess.run(
        [sys.executable, "-c", "from kg.cli import run; run()", "build", *inputs,
         "--no-cache", "-o", str(out), *args],
        env={**clean, **env}, capture_output=True, text=True,
    )


def build(inputs: list[str], out: Path, env: dict[str, str]) -> tuple[float, str]:
    """Seconds of a cold build of ``inputs`` with ``env`` set, and the graph file's sha256."""
    started = time.perf_counter()
    done = run_build(inputs, out, env)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"kg build failed with {env}:\n{done.stderr[-3000:]}")
    return seconds, hashlib.sha256(out.read_bytes()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("inputs", nargs="*", default=[str(DEFAULT_ICLR)],
                    help="corpus files or folders [default: ICLR 2026 in ../shared]")
    ap.add_argument("--ways", default=",".join(WAYS),
                    help=f"comma-separated, of {', '.join(WAYS)} [default: all]")
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = ap.parse_args()
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    unknown = [w for w in ways if w not in WAYS]
    if unknown:
        ap.error(f"unknown ways: {', '.join(unknown)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for way in ways:
            seconds, digest = build(args.inputs, Path(tmp) / f"{len(rows)}.json", WAYS[way])
            rows.append({"way": way, "seconds": round(seconds, 1), "sha256": digest})
            print(f"{way}: {seconds:.1f} s, {digest[:16]}", file=sys.stderr)
    identical = len({r["sha256"] for r in rows}) == 1
    if args.json:
        print(json.dumps({"inputs": args.inputs, "identical": identical, "builds": rows}))
    else:
        print(table([[r["way"], r["seconds"], r["sha256"][:16]] for r in rows],
                    ["way", "seconds", "graph sha256"]))
        print("identical" if identical else "DIFFERENT")
    return 0 if identical else 1


if __name__ == "__main__":
    raise SystemExit(main())
