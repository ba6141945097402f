#!/usr/bin/env python3
"""Rebuild kg/extract/data/common_words.txt: words found in more than --min-df of ML abstracts.

A single word that most abstracts use ("training", "parameters", "evaluation") relates nothing,
so kg does not make it a concept on its own. The list is measured, not hand-picked: document
frequencies over the ICLR 2018 and 2026 abstracts in ../shared/data/corpora.

Usage: python scripts/build_common_words.py [--corpora ../shared/data/corpora] [--min-df 0.06]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from kg.ingest import read_papers

OUT = Path(__file__).resolve().parent.parent / "kg" / "extract" / "data" / "common_words.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=Path("../shared/data/corpora"))
    ap.add_argument("--min-df", type=float, default=0.06)
    args = ap.parse_args()
    papers = read_papers([args.corpora]).papers
    df: Counter[str] = Counter()
    for p in papers:
        df.update(set(re.findall(r"\b[a-z]{4,}\b", p.abstract)))
    cutoff = args.min_df * len(papers)
    words = sorted(w for w, n in df.items() if n >= cutoff)
    header = (
        f"# Words in at least {args.min_df:.0%} of {len(papers)} ML abstracts "
        "(scripts/build_common_words.py): too common to be a concept on their own.\n"
    )
    OUT.write_text(header + "\n".join(words) + "\n", encoding="utf-8")
    print(f"{len(words)} common words -> {OUT}")


if __name__ == "__main__":
    main()
