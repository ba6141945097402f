"""Entity quality of the ICLR 2026 graph against a hand-annotated sample (40 abstracts).

Disjoint samples ship in ``benchmarks/data`` (``iclr2026_gold_*.jsonl``), each annotated by an
LLM helper blind to kg and described in the ``.md`` beside it (how it was drawn, the judgement
calls, and how it was used: ``iclr2026_gold_sample.jsonl`` is the default, the one kg's rules
were chosen on; the others were held out, scored, and some then used for development too).
``--gold`` may be given several times, or ``--all``, to pool samples (micro figures over every
paper).
A sample lists, per paper, the *named* methods, datasets, tasks and metrics it proposes or uses,
with aliases, annotated as the guidelines in the ``.md`` beside it say: full names with acronyms
as aliases, broad model classes ("large language models") are concepts and so not listed,
benchmarks and environments are datasets.
Entries marked ``uncertain`` are "don't care": a kg entity that matches one is neither a hit nor a
false positive, and missing one is no miss. ``title_only`` entries are left out, and a kg link
only the title makes (its evidence is the title: :mod:`kg.resolve.titles`) is a hit when it
matches a gold entity and otherwise not judged: the gold lists what abstracts name.

The graph is the real thing: the whole corpus is built (``kg.build.build``, with the user's
cache unless ``--no-cache``), or an existing graph file is read (``--graph``), and each sample
paper's edges to Method/Dataset/Task/Metric entities are compared with its gold entities.

Matching: a kg entity and a gold entity match when a surface form of one (name or alias) and a
surface form of the other have the same merge key (:func:`kg.extract.normalize.normalize_key`:
case, plurals, hyphens); ``lenient`` also accepts one key being a whole-word part of the other
("HumanRef-CoT dataset" ~ "HumanRef-CoT"). Each gold entity is matched at most once.

Reported, per paper (macro) and pooled (micro): recall of gold entities, precision of kg's
entities of the four types, typed variants (the types must agree too), and the accuracy of
PROPOSES versus not on matched pairs.

Usage::

    python benchmarks/iclr_gold.py                    # build ICLR 2026 (cached) and score
    python benchmarks/iclr_gold.py --graph G.json     # score an existing graph
    python benchmarks/iclr_gold.py --gold benchmarks/data/iclr2026_gold_heldout.jsonl
    python benchmarks/iclr_gold.py --all --graph G.json   # every sample pooled
    python benchmarks/iclr_gold.py --json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_ICLR, iclr_csv_files  # noqa: E402

from kg.extract.normalize import normalize_key  # noqa: E402

GOLD = Path(__file__).resolve().parent / "data" / "iclr2026_gold_sample.jsonl"
TYPES = ("Method", "Dataset", "Task", "Metric")


@dataclass
class Item:
    """One entity of one paper, from the gold file or the graph."""

    name: str
    type: str
    proposes: bool
    keys: frozenset[str]
    uncertain: bool = False
    title_only: bool = False  # a graph link only the paper's title makes


#: Where a letter meets the number after it in a merge key ("cifar10", "llama3-8b").
_LETTER_NUMBER = re.compile(r"(?<=[a-z])(?=\d)")


def split_at_numbers(key: str) -> str:
    """``key`` with a hyphen where a letter meets a number ("llama3" → "llama-3"): the merge key
    joins them, and a lenient match still takes "Llama" as a whole-word part of "Llama-3"."""
    return _LETTER_NUMBER.sub("-", key)


def keys_of(names: list[str]) -> frozenset[str]:
    """The merge keys of ``names``, and each also split where a letter meets a number
    (:func:`split_at_numbers`)."""
    keys = {k for k in (normalize_key(n) for n in names) if k}
    return frozenset(keys | {split_at_numbers(k) for k in keys})


def matches(a: Item, b: Item, lenient: bool) -> bool:
    if a.keys & b.keys:
        return True
    if not lenient:
        return False
    # keys are "-"-joined words: whole-word containment either way
    return any(f"-{x}-" in f"-{y}-" or f"-{y}-" in f"-{x}-" for x in a.keys for y in b.keys)


def read_gold(path: Path) -> dict[str, list[Item]]:
    gold = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        gold[rec["id"]] = [
            Item(
                name=e["name"],
                type=e["type"],
                proposes=e["role"] == "proposes",
                keys=keys_of([e["name"], *e.get("aliases", [])]),
                uncertain=bool(e.get("uncertain")),
            )
            for e in rec["entities"]
            if not e.get("title_only")
        ]
    return gold


def graph_items(data: dict[str, Any], urls: set[str]) -> dict[str, list[Item]]:
    """Each sample paper's entities of the four types, from node-link graph data."""
    nodes = {n["id"]: n for n in data["nodes"]}
    paper_of = {
        n["id"]: n.get("url") or n["id"] for n in data["nodes"] if n.get("label") == "Paper"
    }
    found: dict[str, dict[str, Item]] = {u: {} for u in urls}
    for e in data["links"]:
        url = paper_of.get(e["source"])
        if url not in found:
            continue
        ent = nodes[e["target"]]
        if ent.get("label") not in TYPES:
            continue
        item = found[url].setdefault(
            ent["id"],
            Item(
                name=ent["name"],
                type=ent["label"],
                proposes=False,
                keys=keys_of([ent["name"], *ent.get("aliases", [])]),
            ),
        )
        item.proposes |= e["type"] == "PROPOSES"
        item.title_only = e.get("evidence") == nodes[e["source"]].get("title")
    return {u: list(items.values()) for u, items in found.items()}


@dataclass
class Tally:
    tp: int = 0  # gold entities found
    gold: int = 0
    correct: int = 0  # kg entities that match a gold entity
    pred: int = 0
    per_paper: list[tuple[float, float]] = field(default_factory=list)

    def add(self, tp: int, gold: int, correct: int, pred: int) -> None:
        self.tp, self.gold, self.correct, self.pred = (
            self.tp + tp,
            self.gold + gold,
            self.correct + correct,
            self.pred + pred,
        )
        self.per_paper.append((tp / gold if gold else 1.0, correct / pred if pred else 1.0))

    def summary(self) -> dict[str, float]:
        n = len(self.per_paper) or 1
        return {
            "recall_macro": sum(r for r, _ in self.per_paper) / n,
            "precision_macro": sum(p for _, p in self.per_paper) / n,
            "recall_micro": self.tp / self.gold if self.gold else 0.0,
            "precision_micro": self.correct / self.pred if self.pred else 0.0,
            "gold": self.gold,
            "predicted": self.pred,
        }


def score(
    gold: dict[str, list[Item]], pred: dict[str, list[Item]], lenient: bool, typed: bool
) -> dict[str, Any]:
    tally = Tally()
    roles = Counter()
    misses: Counter[str] = Counter()
    spurious: Counter[str] = Counter()
    for url, gitems in gold.items():
        kitems = pred.get(url, [])

        def ok(g: Item, k: Item) -> bool:
            return matches(g, k, lenient) and (not typed or g.type == k.type)

        certain = [g for g in gitems if not g.uncertain]
        hit = [g for g in certain if any(ok(g, k) for k in kitems)]
        right = [k for k in kitems if any(ok(g, k) for g in certain)]
        # a kg entity that matches only an uncertain gold entity is not judged, nor one only
        # the title names that matches none: the gold lists what abstracts name
        judged = [
            k for k in kitems if k in right or not (k.title_only or any(ok(g, k) for g in gitems))
        ]
        tally.add(len(hit), len(certain), len(right), len(judged))
        for g in certain:
            k = next((k for k in kitems if ok(g, k)), None)
            if k is None:
                misses[g.type] += 1
            else:
                roles["right" if k.proposes == g.proposes else "wrong"] += 1
        for k in judged:
            if k not in right:
                spurious[k.type] += 1
    out: dict[str, Any] = tally.summary()
    out["proposes_accuracy"] = roles["right"] / max(1, roles["right"] + roles["wrong"])
    out["misses_by_type"] = dict(misses)
    out["false_positives_by_type"] = dict(spurious)
    return out


def build_graph_data(corpus: Path, no_cache: bool) -> dict[str, Any]:
    from kg.build import build
    from kg.cache import default_cache_dir

    res = build(
        iclr_csv_files(corpus), cache_dir=None if no_cache else default_cache_dir(), keywords=False
    )
    return res.data


def examples(gold: dict[str, list[Item]], pred: dict[str, list[Item]], n: int = 3) -> list[str]:
    lines = []
    for url in list(gold)[:n]:
        g = sorted(f"{i.name}{'?' if i.uncertain else ''} [{i.type}]" for i in gold[url])
        k = sorted(f"{i.name} [{i.type}{', proposed' if i.proposes else ''}]" for i in pred[url])
        lines.append(f"{url}\n  gold: {'; '.join(g)}\n  kg:   {'; '.join(k)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--gold",
        type=Path,
        action="append",
        help="a gold sample (repeat to pool several; default: the development sample)",
    )
    ap.add_argument("--all", action="store_true", help="pool every sample in benchmarks/data")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_ICLR, help="ICLR 2026 CSV directory")
    ap.add_argument("--graph", type=Path, help="score this graph file instead of building")
    ap.add_argument("--no-cache", action="store_true", help="build without the extraction cache")
    ap.add_argument("--examples", type=int, default=0, help="print N papers side by side")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    files = sorted(GOLD.parent.glob("iclr2026_gold_*.jsonl")) if args.all else args.gold or [GOLD]
    gold: dict[str, list[Item]] = {}
    for path in files:
        gold.update(read_gold(path))
    if args.graph:
        data = json.loads(args.graph.read_text(encoding="utf-8"))
    else:
        data = build_graph_data(args.corpus, args.no_cache)
    pred = graph_items(data, set(gold))
    missing = [u for u in gold if not pred[u]]
    results = {
        f"{'typed' if typed else 'untyped'}_{'lenient' if lenient else 'strict'}": score(
            gold, pred, lenient, typed
        )
        for typed in (False, True)
        for lenient in (False, True)
    }
    report = {"papers": len(gold), "papers_without_entities": missing, "results": results}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"ICLR 2026 gold: {len(gold)} papers ({', '.join(f.name for f in files)})")
    cols = ("R macro", "P macro", "R micro", "P micro")
    print(f"{'match':18} " + " ".join(f"{c:>8}" for c in cols) + f" {'proposes':>9}")
    for name, r in results.items():
        print(
            f"{name:18} {r['recall_macro']:8.3f} {r['precision_macro']:8.3f} "
            f"{r['recall_micro']:8.3f} {r['precision_micro']:8.3f} {r['proposes_accuracy']:9.3f}"
        )
    r = results["untyped_lenient"]
    print(f"gold entities (certain): {r['gold']}; kg entities judged: {r['predicted']}")
    print(f"misses by type: {r['misses_by_type']}; false positives: {r['false_positives_by_type']}")
    for line in examples(gold, pred, args.examples):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
