"""Helpers shared by the benchmark scripts: timing, peak memory, corpus readers, tables.

Only the standard library (plus numpy where a script already needs it): benchmarks must not
pull in extra dependencies just to measure. Paths default to the read-only shared data next to
the repository (``../shared/data``), resolved from this file so the scripts run from any cwd.
"""

from __future__ import annotations

import csv
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
DEFAULT_CSFCUBE = SHARED_DATA / "csfcube"
DEFAULT_ICLR = SHARED_DATA / "corpora" / "iclr2026-alickzhu"

# Make `import kg` work when a script is run as `python benchmarks/x.py` without installing.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))


# --------------------------------------------------------------------------- time and memory


@dataclass
class Timer:
    """Wall-clock seconds of a ``with`` block (``time.perf_counter``)."""

    seconds: float = 0.0
    _start: float = field(default=0.0, repr=False)

    def __enter__(self) -> Timer:
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._start


def peak_rss_mb(children: bool = False) -> float:
    """Peak resident set size in MiB of this process (or of its waited-for children).

    ``ru_maxrss`` is in KiB on Linux and bytes on macOS. Note that for children it is the
    maximum over all children, not their sum.
    """
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    rss = resource.getrusage(who).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def current_rss_mb() -> float:
    """Current resident set size in MiB (Linux /proc; 0.0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


def _session_processes(sid: int) -> Iterator[tuple[str, list[bytes]]]:
    """The /proc entries of session ``sid``'s processes, with their ``stat`` fields after the
    command name (state ppid pgrp session ...); nothing where there is no /proc."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 21 and int(fields[3]) == sid:
            yield entry, fields


def session_rss_kb(sid: int) -> int:
    """Summed RSS (KiB) of every process of session ``sid``, from /proc (0 elsewhere).

    A session rather than a parent/child walk, so worker processes that outlive or are
    re-parented away from their parent still count. Shared copy-on-write pages count once per
    process: an upper bound of what the tree holds, as ``top`` would add it up.
    """
    # rss (pages) is field 24 of stat overall
    return sum(int(fields[21]) * _PAGE_KB for _, fields in _session_processes(sid))


def session_pss_kb(sid: int) -> int:
    """Summed proportional set size (KiB) of session ``sid``'s processes, from
    /proc/PID/smaps_rollup (0 where there is none): each shared page is divided among the
    processes that map it, so the sum is what the tree takes from the machine. Forked
    extraction workers share much of their parent's heap, which :func:`session_rss_kb` counts
    once per worker."""
    total = 0
    for entry, _ in _session_processes(sid):
        try:
            with open(f"/proc/{entry}/smaps_rollup", "rb") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith(b"Pss:")), 0)
        except (OSError, ValueError):
            continue
    return total


@dataclass
class TreeRun:
    """One child process measured together with every process it started."""

    argv: list[str]
    seconds: float
    returncode: int | None  # None when it was killed at the timeout
    timed_out: bool
    tree_rss_mb: float  # sampled peak of the summed RSS of the child's session
    peak_rss_mb: float  # the largest single process (wait4: the child and its waited-for children)
    cpu_s: float  # user + system CPU seconds of the child and its waited-for children
    tree_pss_mb: float = 0.0  # sampled peak of the summed PSS (shared pages counted once)
    stdout: str = field(repr=False, default="")
    stderr: str = field(repr=False, default="")

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def _kill_session(sid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(sid, signal.SIGKILL)


def run_tree(
    argv: Sequence[str],
    *,
    timeout: float | None = None,
    interval: float = 0.2,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO_ROOT,
) -> TreeRun:
    """Run ``argv`` in a session of its own: wall time, peak RSS of its tree, output.

    The session is what makes the measurement and the timeout whole: RSS is summed over every
    process in it (sampled every ``interval`` seconds), and at ``timeout`` (or on Ctrl-C) the
    whole session is killed, worker processes included, so a run that is given up on leaves
    nothing behind on a shared machine. Output goes to temporary files, not pipes, so a chatty
    child never blocks and nothing needs reader threads.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            list(argv),
            stdout=out,
            stderr=err,
            env={**os.environ, **(env or {})},
            cwd=cwd,
            start_new_session=True,
        )
        peak_kb = peak_pss_kb = 0
        done = threading.Event()
        timed_out = threading.Event()

        def sample() -> None:
            nonlocal peak_kb, peak_pss_kb
            while not done.is_set():
                peak_kb = max(peak_kb, session_rss_kb(proc.pid))
                peak_pss_kb = max(peak_pss_kb, session_pss_kb(proc.pid))
                if timeout is not None and time.perf_counter() - t0 > timeout:
                    timed_out.set()
                    _kill_session(proc.pid)
                done.wait(interval)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            _kill_session(proc.pid)
            proc.wait()
            raise
        finally:
            done.set()
            sampler.join()
        seconds = time.perf_counter() - t0
        _kill_session(proc.pid)  # workers the child left running
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return TreeRun(
            argv=list(argv),
            seconds=seconds,
            returncode=None if timed_out.is_set() else proc.returncode,
            timed_out=timed_out.is_set(),
            tree_rss_mb=peak_kb / 1024,
            peak_rss_mb=usage.ru_maxrss / 1024,
            cpu_s=usage.ru_utime + usage.ru_stime,
            tree_pss_mb=peak_pss_kb / 1024,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (``q`` in 0..100), like numpy's default.

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    >>> percentile([5.0], 95)
    5.0
    """
    if not values:
        raise ValueError("no values")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# --------------------------------------------------------------------------- corpora


@dataclass
class Doc:
    """A paper as the benchmarks see it (independent of kg's own ingest)."""

    id: str
    title: str
    abstract: str
    keywords: list[str] = field(default_factory=list)
    primary_area: str = ""
    venue: str = ""
    url: str = ""
    year: int | None = None

    @property
    def text(self) -> str:
        return f"{self.title}. {self.abstract}" if self.title else self.abstract


def iclr_csv_files(path: Path) -> list[Path]:
    """The CSV files of a corpus directory (sorted), or the single file given."""
    path = Path(path)
    return sorted(path.glob("*.csv")) if path.is_dir() else [path]


def openreview_id(url: str) -> str:
    """The forum id of an OpenReview URL (``...forum?id=VaS6xcDrTb`` -> ``VaS6xcDrTb``).

    >>> openreview_id("https://openreview.net/forum?id=VaS6xcDrTb")
    'VaS6xcDrTb'
    """
    m = re.search(r"[?&]id=([^&#]+)", url)
    return m.group(1) if m else url


def read_iclr(path: Path) -> list[Doc]:
    """Read the ICLR 2026 CSVs (UTF-8 with BOM, RFC-4180, embedded newlines)."""
    csv.field_size_limit(1 << 30)
    docs: dict[str, Doc] = {}
    for f in iclr_csv_files(path):
        with f.open(encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                kws = [k.strip() for k in (row.get("keywords") or "").split(",") if k.strip()]
                doc = Doc(
                    id=openreview_id(row.get("openreview_url", "")),
                    title=(row.get("title") or "").strip(),
                    abstract=(row.get("abstract") or "").strip(),
                    keywords=kws,
                    primary_area=(row.get("primary_area") or "").strip(),
                    venue=(row.get("venue") or "").strip(),
                    url=row.get("openreview_url", ""),
                )
                docs.setdefault(doc.id, doc)
    return sorted(docs.values(), key=lambda d: d.id)


# S2ORC artifact: about 700 CSFCube abstracts start with the section heading, often glued to
# the first word ("AbstractWe present ..."); kg would take "AbstractWe" for a coined method
# name shared by 100+ papers. "Abstract Meaning Representation" is a real topic: kept.
_ABSTRACT_HEADING = re.compile(r"^Abstract[\s.:—-]*(?!Meaning)(?=[A-Z])")
_FACET_PREFIX = re.compile(r"^(?:background|method|result|objective|other)_label:\s*", re.M)


def read_csfcube_texts(csfcube: Path) -> dict[str, Doc]:
    """Title + abstract of every paper in ``readable_annotations/`` (queries and candidates).

    The abstract sentences carry facet prefixes (``method_label: ...``), one per line; they are
    stripped and the sentences joined with spaces.
    """
    docs: dict[str, Doc] = {}
    for f in sorted((Path(csfcube) / "readable_annotations").glob("*.txt")):
        text = f.read_text(encoding="utf-8")
        for record in re.split(r"^=+\s*$", text, flags=re.M):
            m_id = re.search(r"^paper_id:\s*(\S+?);", record, re.M)
            m_title = re.search(r"^TITLE:\s*(.*)$", record, re.M)
            m_abs = re.search(r"^ABSTRACT:\s*(.*)", record, re.M | re.S)
            if not m_id or not m_title:
                continue
            abstract = ""
            if m_abs:
                lines = [ln.strip() for ln in m_abs.group(1).strip().splitlines() if ln.strip()]
                abstract = " ".join(_FACET_PREFIX.sub("", ln) for ln in lines)
                abstract = _ABSTRACT_HEADING.sub("", abstract)
            pid = m_id.group(1)
            if pid not in docs or (abstract and not docs[pid].abstract):
                docs[pid] = Doc(id=pid, title=m_title.group(1).strip(), abstract=abstract)
    return docs


def write_jsonl(docs: Iterable[Doc], path: Path) -> Path:
    """Write docs as JSONL records kg can ingest (id/title/abstract/keywords/primary_area...).

    One line per doc as it comes, so a generator of any length streams to disk.
    """
    with Path(path).open("w", encoding="utf-8") as fh:
        for d in docs:
            rec: dict[str, Any] = {"id": d.id, "title": d.title, "abstract": d.abstract}
            if d.keywords:
                rec["keywords"] = d.keywords
            if d.primary_area:
                rec["primary_area"] = d.primary_area
            if d.venue:
                rec["venue"] = d.venue
            if d.year is not None:
                rec["year"] = d.year
            if d.url:
                rec["url"] = d.url
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return Path(path)


# --------------------------------------------------------------------------- kg availability


def compile_kg_bytecode() -> str:
    """Compile kg's modules to bytecode before anything is timed, and say how it was.

    A Python that writes bytecode (the default) has kg's compiled modules from its first run
    on. The machines kg is measured on set ``PYTHONDONTWRITEBYTECODE=1``, so with kg installed
    in editable mode every ``kg`` process compiled kg's modules again, a noticeable part of an
    incremental build (docs/benchmarks.md). Python still *reads* bytecode that exists, so
    compiling once here measures kg as it runs after its first use. (Installed packages,
    spaCy's among them, were compiled by pip.)
    """
    import compileall
    import os

    compileall.compile_dir(REPO_ROOT / "kg", quiet=1)
    setting = os.environ.get("PYTHONDONTWRITEBYTECODE")
    return f"kg's bytecode compiled before timing (PYTHONDONTWRITEBYTECODE={setting or 'unset'})"


def kg_build_available() -> bool:
    """True when the lead's ``kg.build.build`` exists."""
    try:
        from kg.build import build  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- output


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str]) -> str:
    """A plain fixed-width text table (floats with 3 decimals).

    >>> print(table([["tfidf", 0.5]], ["method", "ndcg"]))
    method  ndcg
    ------  -----
    tfidf   0.500
    """

    def fmt(v: Any) -> str:
        return f"{v:.3f}" if isinstance(v, float) else str(v)

    cells = [[fmt(v) for v in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)


@contextmanager
def stage(name: str, quiet: bool = False) -> Iterator[Timer]:
    """Time a named stage and log it to stderr (so --json stdout stays clean)."""
    t = Timer()
    if not quiet:
        print(f"[{name}] ...", file=sys.stderr, flush=True)
    with t:
        yield t
    if not quiet:
        print(f"[{name}] {t.seconds:.1f}s", file=sys.stderr, flush=True)
