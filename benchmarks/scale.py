"""The scaling curve: a cold `kg build` and `kg related` on corpora of growing size.

For each size N (default 4,302 and 43,020; ``--full`` adds 200,000 and 1,000,000) this makes
the synthetic corpus of benchmarks/make_corpus.py (cached in the work directory, so a rerun
reuses it), then measures, each as a subprocess of its own:

1. **cold build** — ``kg build CORPUS -o G.json --no-cache --no-keywords --cache-dir
   WORK/cache-N --json``: wall time, papers/s, CPU seconds, the peak of the summed RSS of its
   whole process tree (extraction workers included, sampled every 0.2 s) and of its summed
   PSS (a page shared by forked processes counted once: what the tree takes from the
   machine), the largest single process, the graph file's size (``--store``: a ``.db``). A
   build that fails or runs past ``--timeout`` is reported as such and the next size still
   runs.
2. **kg related** — the first call on the new graph (which prepares its text index in a
   fresh cache folder, what a user meets once per graph), then the median of ``--queries``
   later calls, each a fresh ``kg related TITLE --graph G.json`` process (process start to
   output), over titles picked with a fixed seed.

Once per run, right after the 4,302-paper build (ICLR 2026 itself, whatever ``--sizes``
says), the naive baseline of benchmarks/build.py (``spacy.load`` + ``nlp.pipe`` of
en_core_web_sm over the same cleaned abstracts, one process) gives the speed ratio in the
same minutes, as the README's figure is measured; ``--no-naive`` skips it (a few minutes).

Run it niced on a shared machine; absolute times move with the machine's load (reported),
the shape of the curve much less.

Usage::

    nice -n 10 .venv/bin/python benchmarks/scale.py --workdir /tmp/kg-scale
    nice -n 10 .venv/bin/python benchmarks/scale.py --sizes 4302,43020,200000 --json
    nice -n 10 .venv/bin/python benchmarks/scale.py --full --timeout 7200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build as build_bench  # noqa: E402
from _common import (  # noqa: E402
    DEFAULT_ICLR,
    Doc,
    Timer,
    TreeRun,
    compile_kg_bytecode,
    percentile,
    read_iclr,
    run_tree,
    table,
)
from make_corpus import SEED, make_corpus  # noqa: E402

PY = sys.executable
KG_BIN = Path(PY).with_name("kg")
DEFAULT_SIZES = (4302, 43020)
FULL_SIZES = (200_000, 1_000_000)
#: Titles kg's cleaning leaves as they are, so `kg related TITLE` matches exactly, as a user's
#: copied title would, rather than testing the fuzzy fallback.
_PLAIN_TITLE = re.compile(r"^[A-Za-z0-9 ,:;'()?!&/+.\-]+$")


def parse_sizes(text: str) -> list[int]:
    """``"4302,43020"`` → ``[4302, 43020]`` (``_`` allowed as a digit separator).

    >>> parse_sizes("4302, 43_020")
    [4302, 43020]
    """
    sizes = [int(s.strip().replace("_", "")) for s in text.split(",") if s.strip()]
    if not sizes or any(n <= 0 for n in sizes):
        raise argparse.ArgumentTypeError(f"sizes must be positive integers: {text!r}")
    return sizes


def pick_titles(corpus: Path, n_records: int, k: int, seed: int) -> list[str]:
    """``k`` plain titles of the corpus, picked with ``seed``, read without parsing it all.

    Line numbers are drawn first (five per title wanted, enough as most titles are plain),
    then only those lines are parsed: a million-record corpus is not loaded to pick ten.
    """
    rng = random.Random(seed)
    order = rng.sample(range(n_records), min(n_records, 5 * k))
    wanted = set(order)
    titles: dict[int, str] = {}
    with corpus.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i in wanted:
                title = json.loads(line).get("title", "")
                if _PLAIN_TITLE.match(title):
                    titles[i] = title
    return [titles[i] for i in order if i in titles][:k]


def status(run: TreeRun | None, timeout: float) -> str:
    if run is None:
        return "not run"
    if run.timed_out:
        return f"timeout ({timeout:.0f} s)"
    return "ok" if run.returncode == 0 else f"exit {run.returncode}"


def failure_tail(run: TreeRun) -> str:
    return "\n".join((run.stderr or run.stdout).strip().splitlines()[-3:])


def measure_size(
    n: int, base: Sequence[Doc], work: Path, args: argparse.Namespace
) -> dict[str, Any]:
    """Make (or reuse) the corpus of ``n`` papers, build it cold, time `kg related` on it."""
    corpus = work / f"corpus-{n}-seed{args.seed}.jsonl"
    row: dict[str, Any] = {"size": n, "corpus": str(corpus)}
    if corpus.exists():
        row["make_s"] = None  # cached
    else:
        print(f"[corpus {n}] making {corpus} ...", file=sys.stderr, flush=True)
        with Timer() as t:
            make_corpus(n, corpus, base, args.seed)
        row["make_s"] = t.seconds
    row["corpus_mb"] = corpus.stat().st_size / 2**20

    cache = work / f"cache-{n}"
    graph = work / f"graph-{n}.{'db' if args.store else 'json'}"
    # A fresh cache folder each time: the text index of an earlier run's (byte-identical)
    # graph would otherwise make the "first" `kg related` call a warm one.
    shutil.rmtree(cache, ignore_errors=True)
    graph.unlink(missing_ok=True)
    argv = [str(KG_BIN), "build", str(corpus), "-o", str(graph), "--no-cache", "--no-keywords"]
    argv += ["--cache-dir", str(cache), "--json"]
    row["build_command"] = shlex.join(argv)
    print(f"[build {n}] {row['build_command']}", file=sys.stderr, flush=True)
    run = run_tree(argv, timeout=args.timeout)
    row["build_status"] = status(run, args.timeout)
    row.update(
        build_s=run.seconds,
        cpu_s=run.cpu_s,
        tree_rss_mb=run.tree_rss_mb,
        tree_pss_mb=run.tree_pss_mb,
        max_process_rss_mb=run.peak_rss_mb,
    )
    print(f"[build {n}] {row['build_status']}, {run.seconds:.1f} s", file=sys.stderr, flush=True)
    if not run.ok:
        row["error"] = failure_tail(run)
        return row
    try:
        out = json.loads(run.stdout)
    except json.JSONDecodeError:
        out = {}
    row["papers"] = out.get("papers", n)
    row["papers_per_s"] = row["papers"] / run.seconds
    row["duplicates"] = out.get("duplicates")
    row["entities"] = sum(out.get("entities", {}).values())
    row["edges"] = sum(out.get("edges", {}).values())
    row["graph_mb"] = graph.stat().st_size / 2**20

    titles = pick_titles(corpus, n, args.queries + 1, args.seed)
    env = {"KG_CACHE_DIR": str(cache)}
    row["related_titles"] = titles
    if not titles:
        row["related_status"] = "no plain title to ask for"
        return row
    first = run_tree(
        [str(KG_BIN), "related", titles[0], "--graph", str(graph), "-k", "10"],
        timeout=args.timeout,
        env=env,
    )
    row["related_first_s"] = first.seconds
    row["related_status"] = status(first, args.timeout)
    if not first.ok:
        row["error"] = failure_tail(first)
        return row
    later: list[float] = []
    failures: list[str] = []
    for title in titles[1:]:
        r = run_tree(
            [str(KG_BIN), "related", title, "--graph", str(graph), "-k", "10"],
            timeout=args.timeout,
            env=env,
        )
        later.append(r.seconds)
        if not r.ok:
            failures.append(f"{title[:60]!r}: {status(r, args.timeout)} {failure_tail(r)}")
    row["related_later_s"] = later
    row["related_median_s"] = percentile(later, 50) if later else None
    row["related_rss_mb"] = first.tree_rss_mb
    if failures:
        row["related_status"] = f"{len(failures)} of {len(later)} later calls failed"
        row["related_failures"] = failures
    print(
        f"[related {n}] first {first.seconds:.1f} s, median "
        f"{row['related_median_s'] or 0:.2f} s of {len(later)}",
        file=sys.stderr,
        flush=True,
    )
    return row


def measure_naive(row: dict[str, Any], work: Path, args: argparse.Namespace) -> dict[str, Any]:
    """benchmarks/build.py's naive baseline on the corpus of ``row``, and kg's ratio to it."""
    corpus = Path(row["corpus"])
    texts, how = build_bench.cleaned_abstracts([corpus])
    tj = work / "naive-abstracts.json"
    tj.write_text(json.dumps(texts), encoding="utf-8")
    argv = [PY, "-c", build_bench.NAIVE_CODE, str(tj), build_bench.NAIVE_MODEL]
    print(f"[naive] {build_bench.NAIVE_MODEL}, {len(texts)} abstracts ...", file=sys.stderr)
    run = run_tree(argv, timeout=args.timeout)
    naive: dict[str, Any] = {
        "model": build_bench.NAIVE_MODEL,
        "texts": how,
        "papers": len(texts),
        "status": status(run, args.timeout),
        "seconds": run.seconds,
        "tree_rss_mb": run.tree_rss_mb,
    }
    print(f"[naive] {naive['status']}, {run.seconds:.1f} s", file=sys.stderr, flush=True)
    if not run.ok:
        naive["error"] = failure_tail(run)
        return naive
    for line in run.stdout.splitlines():
        if line.startswith("@@"):
            naive.update(json.loads(line[2:]))
    naive["pipe_papers_per_s"] = len(texts) / naive["pipe_s"]
    if row.get("papers_per_s"):
        # The README's definition: kg end to end over naive nlp.pipe alone (conservative).
        naive["speedup_vs_pipe"] = row["papers_per_s"] / naive["pipe_papers_per_s"]
        naive["kg_build_s_over_naive_s"] = row["build_s"] / run.seconds
        naive["kg_build_s_over_naive_pipe_s"] = row["build_s"] / naive["pipe_s"]
    return naive


def fmt(v: Any, spec: str = ".1f") -> str:
    return "-" if v is None else format(v, spec)


def print_report(report: dict[str, Any]) -> None:
    lb, la = report["loadavg_before"][0], report["loadavg_after"][0]
    print(
        f"cpus: {report['cpus']}  load average before/after: {lb:.1f}/{la:.1f}  "
        f"seed {report['seed']}  timeout {report['timeout']:.0f} s  {report['bytecode']}"
    )
    rows = []
    for r in report["sizes"]:
        state = r["build_status"]
        if state == "ok" and r.get("related_status") != "ok":
            state = f"related: {r.get('related_status')}"
        rows.append(
            [
                r["size"],
                fmt(r.get("corpus_mb"), ".0f"),
                fmt(r.get("build_s")),
                fmt(r.get("papers_per_s")),
                fmt(r.get("cpu_s"), ".0f"),
                fmt(r.get("tree_rss_mb"), ".0f"),
                fmt(r.get("tree_pss_mb"), ".0f"),
                fmt(r.get("max_process_rss_mb"), ".0f"),
                fmt(r.get("graph_mb"), ".0f"),
                fmt(r.get("entities"), "d"),
                fmt(r.get("edges"), "d"),
                fmt(r.get("related_first_s")),
                fmt(r.get("related_median_s"), ".2f"),
                fmt(r.get("related_rss_mb"), ".0f"),
                state,
            ]
        )
    headers = [
        "papers",
        "corpus MiB",
        "build s",
        "papers/s",
        "CPU s",
        "tree RSS MiB",
        "tree PSS MiB",
        "max proc MiB",
        "graph MiB",
        "entities",
        "edges",
        "related 1st s",
        "related p50 s",
        "related 1st RSS MiB",
        "status",
    ]
    print(table(rows, headers))
    for r in report["sizes"]:
        if r.get("error"):
            print(f"{r['size']}: {r['error']}")
        for f in r.get("related_failures", []):
            print(f"{r['size']}: related FAILED {f}")
        if r.get("duplicates"):
            print(f"{r['size']}: kg merged {r['duplicates']} duplicate records")
    naive = report.get("naive")
    if naive is None:
        print("naive baseline: skipped (--no-naive)")
    elif naive["status"] != "ok":
        print(f"naive baseline: {naive['status']}: {naive.get('error', '')}")
    else:
        print(
            f"naive {naive['model']} on ICLR 2026 ({naive['papers']} abstracts, one process): "
            f"{naive['seconds']:.1f} s end to end, nlp.pipe {naive['pipe_s']:.1f} s = "
            f"{naive['pipe_papers_per_s']:.1f} papers/s"
        )
        if "speedup_vs_pipe" in naive:
            print(
                f"kg cold build vs naive: {naive['speedup_vs_pipe']:.2f}x naive nlp.pipe "
                f"papers/s; kg build time / naive time {naive['kg_build_s_over_naive_s']:.2f} "
                f"(/ nlp.pipe alone {naive['kg_build_s_over_naive_pipe_s']:.2f})"
            )
    for r in report["sizes"]:
        print(f"{r['size']}: {r.get('build_command', '')}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--sizes",
        type=parse_sizes,
        default=list(DEFAULT_SIZES),
        help="comma-separated corpus sizes (default 4302,43020)",
    )
    ap.add_argument("--full", action="store_true", help="add 200000 and 1000000 to the sizes")
    ap.add_argument(
        "--workdir",
        type=Path,
        help="keep corpora (reused by later runs with the same seed: delete them after "
        "changing make_corpus.py), graphs and caches here (default: a temporary directory, "
        "deleted at the end)",
    )
    ap.add_argument(
        "--timeout", type=float, default=3600, help="seconds per build or call (default 3600)"
    )
    ap.add_argument(
        "--store",
        action="store_true",
        help="build each graph into a store (graph-N.db), the form for big corpora",
    )
    ap.add_argument("--no-naive", action="store_true", help="skip the naive spaCy baseline")
    ap.add_argument("--queries", type=int, default=10, help="later `kg related` calls (10)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_ICLR, help="the ICLR 2026 CSVs")
    ap.add_argument("--seed", type=int, default=SEED, help=f"corpus and title seed ({SEED})")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not KG_BIN.exists():
        ap.error(f"no kg command beside {PY}: pip install -e . first")
    base = read_iclr(args.corpus)
    if not base:
        ap.error(f"no papers in {args.corpus}")
    sizes = list(dict.fromkeys(args.sizes + (list(FULL_SIZES) if args.full else [])))
    if not args.no_naive and len(base) not in sizes:
        print(f"adding {len(base)} (ICLR 2026 itself) for the naive ratio", file=sys.stderr)
        sizes.insert(0, len(base))
    bytecode = compile_kg_bytecode()

    tmp = None if args.workdir else tempfile.TemporaryDirectory(prefix="kg-scale-")
    work = args.workdir or Path(tmp.name)  # type: ignore[union-attr]
    work.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "loadavg_before": os.getloadavg(),
        "bytecode": bytecode,
        "seed": args.seed,
        "timeout": args.timeout,
        "workdir": str(work),
        "sizes": [],
        "naive": None,
    }
    try:
        for n in sizes:
            row = measure_size(n, base, work, args)
            report["sizes"].append(row)
            if n == len(base) and not args.no_naive:
                report["naive"] = measure_naive(row, work, args)
    finally:
        report["loadavg_after"] = os.getloadavg()
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    else:
        print_report(report)
    ok = all(r["build_status"] == "ok" and r.get("related_status") == "ok" for r in report["sizes"])
    naive_ok = report["naive"] is None or report["naive"]["status"] == "ok"
    return 0 if ok and naive_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
