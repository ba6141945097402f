"""How often `kg related`'s big-corpus shortcut returns the top 10 of the exact ranking.

In a corpus of ``BIG_CORPUS_PAPERS`` papers or more, a query works out its costly signals
(the sentence alignments, and the character n-grams beyond its ``CHAR_COLUMNS`` rarest) for the
``CANDIDATES`` papers the cheap signals rank highest and a sample of ``SAMPLE`` papers
(kg/query/hybrid.py). This ranks queries picked at random (fixed seed) both ways, in this
process, and prints:

* agreement@10: the share of the exact top 10 that the shortcut returns, averaged over the
  queries, and the lowest for one query;
* each way's median time per query (the exact way works out every signal for every paper).

Usage::

    .venv/bin/python benchmarks/related_candidates.py --graph big.db -n 50
    .venv/bin/python benchmarks/related_candidates.py --graph big.db -n 20 --facet method --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Timer, percentile, table  # noqa: E402

SEED = 20261205


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--graph", type=Path, required=True, help="graph file or store")
    ap.add_argument("-n", type=int, default=50, help="number of queries (default 50)")
    ap.add_argument("-k", type=int, default=10, help="results compared per query (default 10)")
    ap.add_argument("--facet", choices=("background", "method", "result"), default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from kg.query import hybrid, text_index
    from kg.query.index import load_index
    from kg.query.text_index import load_text_index

    idx, text = load_index(args.graph), load_text_index(args.graph)
    if len(text.ids) < hybrid.BIG_CORPUS_PAPERS:
        raise SystemExit(
            f"{args.graph}: {len(text.ids)} papers, below BIG_CORPUS_PAPERS "
            f"({hybrid.BIG_CORPUS_PAPERS}): every query is exact already"
        )
    agreement, fast, exact = [], [], []
    for paper in random.Random(SEED).sample(text.ids, min(args.n, len(text.ids))):
        row = text.row(paper)
        with Timer() as t:
            mine = hybrid.hybrid_scores(idx, text, paper, args.facet)
        fast.append(t.seconds)
        with Timer() as t:
            every = hybrid.hybrid_scores(idx, text, paper, args.facet, every_paper=True)
        exact.append(t.seconds)
        top = set(hybrid.top_rows(mine, args.k, row, text.ids))
        want = set(hybrid.top_rows(every, args.k, row, text.ids))
        agreement.append(len(top & want) / max(len(want), 1))
    out = {
        "graph": str(args.graph),
        "papers": len(text.ids),
        "queries": len(agreement),
        "facet": args.facet,
        "candidates": hybrid.CANDIDATES,
        "sample": hybrid.SAMPLE,
        "char_columns": text_index.CHAR_COLUMNS,
        f"agreement@{args.k}": round(sum(agreement) / len(agreement), 4),
        "lowest": min(agreement),
        "median_s": round(percentile(fast, 50), 4),
        "exact_median_s": round(percentile(exact, 50), 4),
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(table([[k, v] for k, v in out.items()], ["", "value"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
