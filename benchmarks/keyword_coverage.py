"""How much of what authors call their paper's subject the graph links the paper to.

Of each paper's author keywords, those written literally in its own title or abstract (case
folded, on word boundaries) are things the text names; a keyword is *covered* when one of the
paper's links goes to an entity whose name or an alias has the keyword's merge key (case,
plural, hyphen and space folded: "Diffusion Models" covers "diffusion model"). Also reported:
covered by a non-Concept entity, and covered leniently (the keyword's key contains, or is
contained in, a linked entity's key on word boundaries: "LLM reasoning" for "reasoning").

Build the graph with the keywords withheld, or the figure measures nothing::

    kg build ../shared/data/corpora/iclr2026-alickzhu --no-keywords -o /tmp/iclr26.json
    .venv/bin/python benchmarks/keyword_coverage.py /tmp/iclr26.json [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from iclr_gold import split_at_numbers  # noqa: E402  (also puts the repo on sys.path)

from kg.extract.normalize import normalize_key  # noqa: E402
from kg.store.file import load_graph  # noqa: E402


def in_text(keyword: str, text: str) -> bool:
    """Whether ``keyword`` is written in ``text`` (case folded, on word boundaries).

    >>> in_text("GRPO", "We study grpo."), in_text("RL", "a URL")
    (True, False)
    """
    return re.search(rf"(?<!\w){re.escape(keyword.lower())}(?!\w)", text.lower()) is not None


def _contains(a: str, b: str) -> bool:
    # a letter meeting a number is a word boundary, as before merge keys joined them
    a, b = split_at_numbers(a), split_at_numbers(b)
    return f"-{a}-" in f"-{b}-" or f"-{b}-" in f"-{a}-"


def coverage(G: Any) -> dict[str, Any]:
    """Coverage of the in-text author keywords of every paper of ``G``."""
    keys_of: dict[str, set[str]] = {}
    for node, attrs in G.nodes(data=True):
        if attrs.get("label") != "Paper":
            names = [attrs.get("name", ""), *attrs.get("aliases", [])]
            keys_of[node] = {normalize_key(n) for n in names if n}
    totals: dict[str, int] = defaultdict(int)
    for pid, attrs in G.nodes(data=True):
        if attrs.get("label") != "Paper" or not attrs.get("keywords"):
            continue
        text = f"{attrs.get('title', '')} {attrs.get('abstract', '')}"
        linked = [v for _, v in G.out_edges(pid)]
        all_keys = set().union(*(keys_of.get(v, set()) for v in linked)) if linked else set()
        named_keys = (
            set().union(
                *(keys_of.get(v, set()) for v in linked if G.nodes[v].get("label") != "Concept")
            )
            if linked
            else set()
        )
        for kw in dict.fromkeys(attrs["keywords"]):
            key = normalize_key(kw)
            if not key or not in_text(kw, text):
                continue
            totals["in_text"] += 1
            totals["covered"] += key in all_keys
            totals["covered_named"] += key in named_keys
            totals["covered_lenient"] += any(_contains(key, k) for k in all_keys)
    n = totals["in_text"] or 1
    return {
        "keywords_in_text": totals["in_text"],
        "covered": round(totals["covered"] / n, 4),
        "covered_by_non_concept": round(totals["covered_named"] / n, 4),
        "covered_lenient": round(totals["covered_lenient"] / n, 4),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", type=Path, help="a graph built with --no-keywords")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    G = load_graph(args.graph)
    if any(d.get("evidence_kind") for _, _, d in G.edges(data=True)):
        sys.exit(f"{args.graph} has author-keyword links: build it with --no-keywords")
    result = {"graph": str(args.graph), **coverage(G)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for k, v in result.items():
        print(f"{k:24} {v}")


if __name__ == "__main__":
    main()
