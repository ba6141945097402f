#!/usr/bin/env python3
"""Rebuild kg/resolve/data/general_words.txt: lower-case words common in general English.

A single everyday word ("signals", "overhead", "patterns") that a recogniser calls a concept
names nothing a researcher would look up, so kg makes no Concept node of it; a rare word
("overfitting", "sycophancy", "quantization") may well be a research concept. "Common" is
measured, not hand-picked: wordfreq's Zipf frequency in English (Speer, 2022; its data is
CC BY-SA 4.0, see kg/resolve/data/ATTRIBUTION.md), at least --min-zipf (3.0: once in a million
words). Needs ``pip install wordfreq`` (a development tool, not a dependency of kg).

Usage: python scripts/build_general_words.py [--min-zipf 3.0]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "kg" / "resolve" / "data" / "general_words.txt"


def main() -> None:
    from wordfreq import top_n_list, zipf_frequency

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-zipf", type=float, default=3.0)
    args = ap.parse_args()
    words = sorted(
        w
        for w in top_n_list("en", 100_000)
        if re.fullmatch(r"[a-z]{3,}", w) and zipf_frequency(w, "en") >= args.min_zipf
    )
    header = (
        f"# Lower-case English words of Zipf frequency {args.min_zipf} or more (wordfreq, "
        "CC BY-SA 4.0; scripts/build_general_words.py):\n"
        "# everyday words, no Concept node on their own.\n"
    )
    OUT.write_text(header + "\n".join(words) + "\n", encoding="utf-8")
    print(f"{len(words)} general words -> {OUT}")


if __name__ == "__main__":
    main()
