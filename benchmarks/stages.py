"""Where extraction spends its time: each component of kg's pipeline, timed in one process.

The abstracts are cleaned as ``kg build`` cleans them, then go through the pipeline one
component at a time, every component over all of them, in batches of the extractor's size
(:data:`kg.extract.extractor.CHUNK`), so each component's seconds are its own. The share of
each component in the whole is the figure to compare between runs (the machine's speed
varies): ``docs/benchmarks.md`` quotes it.

Usage::

    .venv/bin/python benchmarks/stages.py                     # 1,500 ICLR 2026 abstracts
    .venv/bin/python benchmarks/stages.py --limit 500 --repeat 3 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_ICLR, Timer  # noqa: E402  (also puts the repo on sys.path)


def stage_seconds(texts: list[str], batch_size: int) -> dict[str, float]:
    """Seconds each pipeline component takes over ``texts``, in pipeline order."""
    from kg.extract.pipeline import load_pipeline

    nlp = load_pipeline()
    list(nlp.pipe(texts[:32]))  # (lazy loads and first-call costs out of the figures)
    docs = [nlp.make_doc(t) for t in texts]
    seconds: dict[str, float] = {}
    for name, proc in nlp.pipeline:
        with Timer() as timer:
            if hasattr(proc, "pipe"):
                docs = list(proc.pipe(docs, batch_size=batch_size))
            else:
                docs = [proc(d) for d in docs]
        seconds[name] = timer.seconds
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    from kg.extract.extractor import CHUNK
    from kg.ingest import read_papers

    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--corpus", type=Path, default=DEFAULT_ICLR, help="a kg input path")
    ap.add_argument("--limit", type=int, default=1500, help="abstracts timed (default 1500)")
    ap.add_argument("--repeat", type=int, default=1, help="runs, each reported")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    texts = [p.abstract for p in read_papers([args.corpus]).papers][: args.limit]
    runs = [stage_seconds(texts, CHUNK) for _ in range(args.repeat)]
    if args.json:
        print(json.dumps({"abstracts": len(texts), "runs": runs}, indent=2))
        return 0
    print(f"{len(texts)} abstracts, batches of {CHUNK}, one process")
    for seconds in runs:
        total = sum(seconds.values())
        for name, s in seconds.items():
            print(f"  {name:<16} {s:7.2f} s  {100 * s / total:5.1f}%")
        print(f"  {'all':<16} {total:7.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
