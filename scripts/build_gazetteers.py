#!/usr/bin/env python3
"""Rebuild kg's shipped gazetteers (kg/extract/data/gazetteers/*.tsv) from the Papers with Code
name lists in ../shared/data/gazetteers (CC BY-SA 4.0; see ATTRIBUTION.md beside the output).

Many PwC names are common words ("Score", "Attention", "Yelp"), so only entries that look like
names are kept: a digit or an inner capital ("CIFAR-10", "ImageNet", "LoRA"), an all-caps
acronym of 3+ letters, or a multi-word name. Multi-word entries are matched case-insensitively,
single-word entries case-sensitively (see kg/extract/gazetteer.py).

Usage: python scripts/build_gazetteers.py [--data ../shared/data/gazetteers]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "kg" / "extract" / "data" / "gazetteers"
NAMEISH = re.compile(r"(\d|[a-z][A-Z]|^[A-Z]{3,}|^[A-Z][a-z]*[A-Z])")
BAD_CHARS = re.compile(r"[,()\[\]:;\"*$%\\{}]|\bx\b|\d+x\d+")
# Words that must not become entity names even though a list contains them.
COMMON = {
    "score",
    "attention",
    "dropout",
    "softmax",
    "data",
    "model",
    "image",
    "text",
    "video",
    "accuracy",
    "time",
    "speed",
    "memory",
    "error",
    "loss",
    "cost",
    "size",
    "parameters",
    "average",
    "mean",
    "median",
    "total",
    "overall",
    "all",
    "none",
    "other",
    "others",
}


DATA = OUT.parent
STOP = {
    "a",
    "an",
    "and",
    "or",
    "the",
    "of",
    "for",
    "in",
    "on",
    "to",
    "with",
    "by",
    "at",
    "from",
    "as",
    "is",
    "it",
    "its",
    "this",
    "that",
    "new",
    "all",
    "per",
    "via",
    "vs",
    "training",
    "test",
    "validation",
    "dev",
    "train",
    "size",
    "number",
    "rate",
    "time",
    "total",
}


def _words(name: str, data: Path = DATA) -> set[str]:
    path = data / name
    return {
        ln.strip().lower()
        for ln in path.read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    }


UNINFORMATIVE = (
    STOP | _words("generic_nouns.txt") | _words("dataset_heads.txt") | _words("method_heads.txt")
)


#: ... and, for datasets, words that rate or place a thing: "Real-world Datasets", "LOCAL
#: DATASET" and "HARD" are PwC dataset entries that would make "7 real-world datasets" a name.
#: (Not for methods and tasks: "Adaptive Instance Normalization" is one.)
RATING = _words("generic_modifiers.txt", OUT.parents[2] / "resolve" / "data")


def informative(name: str, uninformative: set[str] = UNINFORMATIVE) -> bool:
    """False for names made only of stop words, generic nouns and heads ("The Benchmark",
    "AND Dataset", "model size"): matching those would tag ordinary prose. A hyphenated word
    counts whole ("real-world") or by its parts."""

    def plain(w: str) -> bool:
        return w in uninformative or w.rstrip("s") in uninformative

    for word in name.lower().split():
        word = word.strip(".-")
        parts = [p for p in word.split("-") if p]
        if word and not plain(word) and not all(plain(p) for p in parts):
            return True
    return False


def looks_like_name(name: str, uninformative: set[str] = UNINFORMATIVE) -> bool:
    words = name.split()
    if not informative(name, uninformative):
        return False
    if name.lower() in COMMON or len(name) < 3 or len(name) > 60 or BAD_CHARS.search(name):
        return False
    if len(words) >= 2:
        return len(words) <= 7
    return bool(NAMEISH.search(name))


#: Words that name a measure: a metric name of several words needs one (measure_words.txt).
MEASURE_WORDS = _words("measure_words.txt", Path(__file__).resolve().parent)
#: A word that reads as a metric's acronym: two capitals ("AP", "mIoU"), or letters then a
#: digit ("F1", "R@1").
ACRONYM = re.compile(r"[A-Z].*[A-Z]|[A-Za-z]@?\d")


def names_a_measure(name: str) -> bool:
    """Whether a metric name is one: a single word passes (``looks_like_name`` asks a single
    word to read as a name already), a longer name needs a measure word ("Jaccard Index",
    "Average Return") or a metric's acronym ("Macro F1", "box AP", "Test WER"), so that
    leaderboard columns ("Reference images") are left out."""
    if len(name.split()) < 2 or any(ACRONYM.search(w) for w in name.split()):
        return True
    words = name.lower().replace("&", " ").split()
    parts = {p.strip(".'’()") for w in words for p in [w, *w.split("-")]}
    return any(p in MEASURE_WORDS or p.rstrip("s") in MEASURE_WORDS for p in parts)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def write(kind: str, rows: dict[str, set[str]]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# kg gazetteer: {kind}. name<TAB>alias|alias. "
        "Derived from Papers with Code (CC BY-SA 4.0)."
    ]
    for name in sorted(rows, key=str.lower):
        aliases = sorted(a for a in rows[name] if a != name)
        lines.append(name + ("\t" + "|".join(aliases) if aliases else ""))
    (OUT / f"{kind}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{kind}: {len(rows)} entries")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data/gazetteers"))
    args = ap.parse_args()
    d = args.data

    datasets: dict[str, set[str]] = {}
    for rec in read_jsonl(d / "merged" / "DERIVED_datasets_merged.jsonl"):
        name = rec["name"].strip()
        if not looks_like_name(name, UNINFORMATIVE | RATING):
            continue
        # Leaderboard variants ("CelebA 64x64", "MNIST-test") are not aliases; full names are.
        aliases = {
            a.strip()
            for a in rec.get("aliases", [])
            if looks_like_name(a.strip(), UNINFORMATIVE | RATING) and name.lower() not in a.lower()
        }
        datasets.setdefault(name, set()).update(aliases)
    metric_names = {
        rec["name"].strip().lower()
        for rec in read_jsonl(d / "merged" / "DERIVED_metrics_merged.jsonl")
    } | _words("metric_terms.txt")
    # A name that is also a metric ("PSNR") is a metric: datasets lists carry some by mistake.
    datasets = {n: a for n, a in datasets.items() if n.lower() not in metric_names}
    write("datasets", datasets)

    methods: dict[str, set[str]] = {}
    for rec in read_jsonl(
        d / "pwc-methods_kuefmz-pow_categories" / "DERIVED_methods_compact.jsonl"
    ):
        name, full = rec["name"].strip(), (rec.get("full_name") or "").strip()
        names = [n for n in (name, full) if looks_like_name(n)]
        if names:
            methods.setdefault(names[0], set()).update(names[1:])
    write("methods", methods)

    metrics: dict[str, set[str]] = {}
    for rec in read_jsonl(d / "merged" / "DERIVED_metrics_merged.jsonl"):
        name = rec["name"].strip()
        if (
            looks_like_name(name)
            and names_a_measure(name)
            and rec.get("orkg_tdm_paper_annotations", 0) >= 3
        ):
            metrics.setdefault(name, set())
    write("metrics", metrics)

    tasks: dict[str, set[str]] = {}
    for rec in read_jsonl(d / "merged" / "DERIVED_tasks_merged.jsonl"):
        name = rec["name"].strip()
        if len(name.split()) >= 2 and looks_like_name(name) and not re.search(r"\d", name):
            tasks.setdefault(name, set())
    write("tasks", tasks)


if __name__ == "__main__":
    main()
