"""The most frequent kinds of error kg's full extractor makes on a SciERC split.

Each gold mention that is not predicted exactly is a type confusion (same span, other type), a
boundary error (overlapping prediction of the same type: longer, shorter or shifted), a
boundary-and-type error, or a miss; each prediction that overlaps no gold mention is spurious
(noted when it covers a ``Generic`` gold span, which is not scored).

Usage::

    python benchmarks/scierc_errors.py                  # dev, top 12
    python benchmarks/scierc_errors.py --split train --top 20 --data PATH
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common  # noqa: E402,F401  (puts the repository on sys.path)

from kg.evaluate import scierc  # noqa: E402


def overlaps(a: tuple, b: tuple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def error_kinds(docs: list, preds: list) -> tuple[Counter[str], dict[str, list[str]]]:
    kinds: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    for d, pred in zip(docs, preds, strict=True):
        gold = [g for g in d.gold if g[2] in scierc.SCORED_TYPES]
        found = set(pred)
        for g in gold:
            if g in found:
                continue
            same_span = [q for q in pred if q[:2] == g[:2]]
            same_type = [q for q in pred if overlaps(g, q) and q[2] == g[2]]
            if same_span:
                kind = f"type {g[2]} -> {same_span[0][2]}"
            elif same_type:
                q = same_type[0]
                if q[0] <= g[0] and q[1] >= g[1]:
                    kind = "boundary: predicted longer"
                elif q[0] >= g[0] and q[1] <= g[1]:
                    kind = "boundary: predicted shorter"
                else:
                    kind = "boundary: shifted"
            elif any(overlaps(g, q) for q in pred):
                kind = "boundary and type"
            else:
                kind = f"missed {g[2]}"
            kinds[kind] += 1
            examples[kind].append(d.text[g[0] : g[1]])
        for q in pred:
            if q in set(gold) or any(overlaps(q, g) for g in gold):
                continue
            generic = any(overlaps(q, g) for g in d.gold if g[2] == "Generic")
            kind = f"spurious {q[2]}" + (" (on a Generic span)" if generic else "")
            kinds[kind] += 1
            examples[kind].append(d.text[q[0] : q[1]])
    return kinds, examples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=scierc.SPLITS)
    ap.add_argument("--data", type=Path, default=scierc.DEFAULT_DATA)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = ap.parse_args(argv)
    docs = scierc.load_split(args.data, args.split)
    preds = scierc.full_extractor()([d.text for d in docs])
    kinds, examples = error_kinds(docs, preds)
    if args.json:
        top = [{"kind": k, "count": n, "examples": examples[k][:4]}
               for k, n in kinds.most_common(args.top)]
        print(json.dumps({"split": args.split, "errors": sum(kinds.values()), "kinds": top}))
        return 0
    print(f"SciERC {args.split}: {sum(kinds.values())} errors, most frequent kinds")
    for kind, n in kinds.most_common(args.top):
        print(f"{n:5}  {kind:34} e.g. {'; '.join(examples[kind][:4])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
