"""Recall@30 of the capped inverted index against all pairs, with each path's time and memory.

A build stores each paper's 30 most similar papers by text (kg/graph/similarity.py). Below
``INDEX_FROM`` papers it compares all pairs; from there on it takes candidates from a capped
inverted index and ranks them by their exact cosines, which can miss a neighbour. This runs
both on the same papers, each in a process of its own (so each peak memory is its own), and
prints:

* the threshold and the index's settings (``INDEX_FROM``, ``CAP``, ``RARE``, ``CANDIDATES``);
* per path: the wall time of ``neighbour_lists`` (TF-IDF and shared terms included), of the
  neighbour search alone, and the process's peak resident memory;
* recall@30: for each paper with a neighbour, the share of its exact list that the index
  returns, averaged over the papers; the lowest per paper; the share of papers whose lists
  are identical; and the largest difference between the two cosines of a pair both return.

CORPUS is anything ``kg build`` reads (a folder of ICLR CSVs, a JSONL file of
benchmarks/make_corpus.py ...); ``--papers N`` keeps the first N papers read.

Usage::

    .venv/bin/python benchmarks/make_corpus.py 43020 /tmp/corpus-43020.jsonl
    .venv/bin/python benchmarks/neighbours_recall.py /tmp/corpus-43020.jsonl
    .venv/bin/python benchmarks/neighbours_recall.py ../shared/data/corpora/iclr2026-alickzhu
    .venv/bin/python benchmarks/neighbours_recall.py CORPUS --papers 20000 --json
"""

from __future__ import annotations

import argparse
import json
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Timer, peak_rss_mb, table  # noqa: E402

PATHS = ("exact", "index")


def run_path(papers_file: Path, method: str, out_file: Path) -> None:
    """In the child: one path's neighbour lists (to ``out_file``) and its figures (stdout)."""
    import kg.graph.similarity as similarity

    papers = pickle.loads(papers_file.read_bytes())
    search = {"exact": "_all_pairs_top_k", "index": "_index_top_k"}[method]
    found = getattr(similarity, search)
    timer = Timer()

    def timed(*args: Any) -> Any:
        with timer:
            return found(*args)

    setattr(similarity, search, timed)  # to time the search apart from TF-IDF and terms
    with Timer() as whole:
        lists = similarity.neighbour_lists(papers, method=method)
    out_file.write_bytes(pickle.dumps({pid: near for pid, (near, _, _) in lists.items()}))
    scores = {pid: cosines for pid, (_, cosines, _) in lists.items()}
    out_file.with_suffix(".scores").write_bytes(pickle.dumps(scores))
    figures = {"seconds": whole.seconds, "search_seconds": timer.seconds, "peak_mb": peak_rss_mb()}
    print(json.dumps(figures))


def recall(
    exact: dict[str, list[str]],
    index: dict[str, list[str]],
    exact_scores: dict[str, list[float]],
    index_scores: dict[str, list[float]],
) -> dict[str, float]:
    """Recall@k of ``index`` against ``exact`` (mean and lowest per paper), the share of
    identical lists and the largest cosine difference on a pair both lists hold."""
    shares = []
    identical = 0
    worst_diff = 0.0
    for pid, want in exact.items():
        got = index.get(pid, [])
        identical += got == want
        if not want:
            continue
        shares.append(len(set(want) & set(got)) / len(want))
        mine = dict(zip(got, index_scores[pid], strict=True))
        for j, s in zip(want, exact_scores[pid], strict=True):
            if j in mine:
                worst_diff = max(worst_diff, abs(mine[j] - s))
    return {
        "recall": sum(shares) / len(shares) if shares else 1.0,
        "lowest": min(shares, default=1.0),
        "identical_lists": identical / len(exact) if exact else 1.0,
        "largest_cosine_difference": worst_diff,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("corpus", type=Path, metavar="CORPUS", help="papers, as kg build reads them")
    ap.add_argument("--papers", type=int, metavar="N", help="keep the first N papers read")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--run", choices=PATHS, help=argparse.SUPPRESS)  # the child's part
    ap.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run:
        run_path(args.work / "papers.pickle", args.run, args.work / f"{args.run}.pickle")
        return 0

    from kg.graph import similarity
    from kg.ingest import read_papers

    papers = read_papers(args.corpus).papers
    if args.papers is not None:
        papers = papers[: args.papers]
    figures: dict[str, Any] = {
        "corpus": str(args.corpus),
        "papers": len(papers),
        "top_n": similarity.TOP_N,
        "index_from": similarity.INDEX_FROM,
        "auto_uses": "index" if len(papers) >= similarity.INDEX_FROM else "exact",
        "cap": similarity.CAP,
        "rare": similarity.RARE,
        "candidates": similarity.CANDIDATES,
    }
    with tempfile.TemporaryDirectory(prefix="neighbours-recall-") as tmp:
        work = Path(tmp)
        (work / "papers.pickle").write_bytes(pickle.dumps(papers))
        lists, scores = {}, {}
        for method in PATHS:
            print(f"[{method}] ...", file=sys.stderr, flush=True)
            child = subprocess.run(
                [sys.executable, __file__, str(args.corpus), "--run", method, "--work", tmp],
                capture_output=True,
                text=True,
            )
            if child.returncode != 0:
                raise SystemExit(f"the {method} path failed:\n{child.stderr}")
            figures[method] = json.loads(child.stdout.strip().splitlines()[-1])
            print(f"[{method}] {figures[method]['seconds']:.1f}s", file=sys.stderr, flush=True)
            lists[method] = pickle.loads((work / f"{method}.pickle").read_bytes())
            scores[method] = pickle.loads((work / f"{method}.scores").read_bytes())
    figures.update(recall(lists["exact"], lists["index"], scores["exact"], scores["index"]))
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"{figures['corpus']}: {figures['papers']:,} papers, top {figures['top_n']}; "
        f"the index from {figures['index_from']:,} papers on (here a build uses: "
        f"{figures['auto_uses']}); CAP {figures['cap']}, RARE {figures['rare']}, "
        f"CANDIDATES {figures['candidates']}"
    )
    rows = [
        [m, figures[m]["seconds"], figures[m]["search_seconds"], round(figures[m]["peak_mb"])]
        for m in PATHS
    ]
    print(table(rows, ["path", "neighbour_lists s", "search s", "peak MiB"]))
    print(
        f"recall@{figures['top_n']} of the index: {figures['recall']:.4f} "
        f"(lowest for a paper {figures['lowest']:.3f}; identical lists for "
        f"{figures['identical_lists']:.1%} of the papers; largest cosine difference on a "
        f"shared pair {figures['largest_cosine_difference']:g})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
