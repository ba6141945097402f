"""A synthetic corpus of N abstracts made from ICLR 2026's, the same bytes for the same N.

kg's figures are measured on ICLR 2026's 4,302 papers; this makes the larger corpora a
scaling curve needs (benchmarks/scale.py) without a larger real one. Each synthetic
abstract is a real paper's first sentence followed by the rest of its sentences, about half
of them swapped for sentences of other papers of the same primary area, each taken from about
the same place in its abstract (from anywhere after the first sentence when that keeps
giving a variant already made; a one-sentence abstract gets a sentence added instead). So the
text keeps the vocabulary, the entity density and the background → method → result order of
real abstracts (what extraction and ranking cost depends on), while every abstract is
distinct: kg would merge identical abstracts into one paper, and a corpus of copies would not
measure anything.

* N up to 4,302: a sample of the real papers (a fixed-seed choice, in id order), unchanged.
* N above: all 4,302 real papers, then variants: variant k of paper P has the id ``P-vk``,
  the title "P's title (variant k)", and P's primary area, keywords, venue and year. Every
  paper gets N // 4302 - 1 variants or one more, its variants written together.

Each paper's variants come from a random generator seeded by the paper's id, so variant k of
a paper is the same in every corpus that has it, and the output is byte-identical for the
same N and ``--seed`` (given the same ICLR files and kg's sentence splitter,
``kg.query.facets.sentences``). Records are written one at a time (to ``OUT.tmp``, renamed when
complete), so N can be in the millions: memory holds the 4,302 base papers, not N records.

The records are JSONL that ``kg build`` reads: id, title, abstract, keywords, primary_area,
venue, year.

Usage::

    .venv/bin/python benchmarks/make_corpus.py 43020 /tmp/corpus-43020.jsonl
    .venv/bin/python benchmarks/make_corpus.py 1000 sample.jsonl --corpus path/to/iclr/csvs
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_ICLR, Doc, read_iclr, write_jsonl  # noqa: E402

from kg.query.facets import sentences  # noqa: E402

SEED = 20260422
#: Draws of donor sentences (from about the same place) before any place will do, and in all,
#: before a variant is given up on as impossible to make distinct.
_PLACED_TRIES = 10
_MAX_TRIES = 200
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


def _year(doc: Doc) -> int | None:
    """The year a record states, else the one in its venue ("ICLR 2026 Poster" → 2026)."""
    if doc.year is not None:
        return doc.year
    m = _YEAR.search(doc.venue)
    return int(m.group(1)) if m else None


def _key(sents: Sequence[str]) -> str:
    """What kg's duplicate check would compare: the text with white space collapsed."""
    return " ".join(" ".join(s.split()) for s in sents)


class _Variants:
    """Makes the variants of the base papers: sentences swapped within a primary area."""

    def __init__(self, base: Sequence[Doc], seed: int) -> None:
        self.base = base
        self.seed = seed
        self.sents = [sentences(d.abstract) for d in base]
        self.mates: dict[str, list[int]] = defaultdict(list)
        for i, d in enumerate(base):
            self.mates[d.primary_area].append(i)

    def _donor(self, i: int, pos: float, placed: bool, rng: random.Random) -> str | None:
        """A sentence (never a first one) of another paper of paper ``i``'s primary area:
        from relative place ``pos`` (0 first, 1 last) give or take one when ``placed``."""
        mates = self.mates[self.base[i].primary_area]
        for _ in range(20):
            j = mates[rng.randrange(len(mates))]
            n = len(self.sents[j])
            if j == i or n < 2:
                continue
            if placed:
                k = min(max(round(pos * (n - 1)) + rng.randint(-1, 1), 1), n - 1)
            else:
                k = rng.randrange(1, n)
            return self.sents[j][k]
        return None

    def _draw(self, i: int, placed: bool, rng: random.Random) -> list[str]:
        """One candidate: about half of the sentences after the first swapped (a one-sentence
        abstract, having none, gets a closing sentence added instead)."""
        own = self.sents[i]
        others = len(own) - 1
        if not others:
            donor = self._donor(i, 1.0, placed, rng)
            return own + [donor] if donor else list(own)
        new = list(own)
        n_swaps = max(1, (others + rng.randint(0, 1)) // 2)
        for s in rng.sample(range(1, len(own)), n_swaps):
            donor = self._donor(i, s / others, placed, rng)
            if donor is not None:
                new[s] = donor
        return new

    def of(self, i: int, count: int) -> Iterator[Doc]:
        """The first ``count`` variants of paper ``i``, distinct from it and from each other.

        Seeded by the paper's id, so they do not depend on the other papers' variants.
        """
        doc = self.base[i]
        rng = random.Random(f"{self.seed}:{doc.id}")
        seen = {_key(self.sents[i])}
        for v in range(1, count + 1):
            for attempt in range(_MAX_TRIES):
                new = self._draw(i, attempt < _PLACED_TRIES, rng)
                if _key(new) not in seen:
                    break
            else:
                raise ValueError(
                    f"cannot make {count} distinct variants of {doc.id!r}: its primary area "
                    f"{doc.primary_area!r} has {len(self.mates[doc.primary_area]) - 1} other "
                    "paper(s) with sentences to lend"
                )
            seen.add(_key(new))
            yield replace(
                doc, id=f"{doc.id}-v{v}", title=f"{doc.title} (variant {v})", abstract=" ".join(new)
            )


def synthetic_docs(base: Sequence[Doc], n: int, seed: int = SEED) -> Iterator[Doc]:
    """The ``n`` papers of the synthetic corpus made from ``base``, one at a time.

    Deterministic: the same ``base`` (in any order), ``n`` and ``seed`` give the same papers
    in the same order. Records are plain (no url), with the year from the venue when the
    record has none.
    """
    if n < 0:
        raise ValueError("n must be >= 0")
    base = sorted(base, key=lambda d: d.id)
    if len({d.id for d in base}) != len(base):
        raise ValueError("base papers must have distinct ids")

    def plain(d: Doc) -> Doc:
        return replace(d, url="", year=_year(d))

    if n <= len(base):
        picked = sorted(random.Random(seed).sample(range(len(base)), n))
        for i in picked:
            yield plain(base[i])
        return
    base = [plain(d) for d in base]
    yield from base
    extra = n - len(base)
    each, rest = divmod(extra, len(base))
    variants = _Variants(base, seed)
    for i in range(len(base)):
        count = each + (1 if i < rest else 0)
        if count:
            yield from variants.of(i, count)


def make_corpus(n: int, out: Path, base: Sequence[Doc], seed: int = SEED) -> int:
    """Write the synthetic corpus of ``n`` papers to ``out`` (atomically); return ``n``.

    Written to ``out.tmp`` and renamed, so an interrupted run never leaves a partial file that
    a cache (benchmarks/scale.py's work directory) would take for a finished one.
    """
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    written = 0

    def counted() -> Iterator[Doc]:
        nonlocal written
        for d in synthetic_docs(base, n, seed):
            written += 1
            yield d

    write_jsonl(counted(), tmp)
    os.replace(tmp, out)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("n", type=int, metavar="N", help="number of papers")
    ap.add_argument("out", type=Path, metavar="OUT", help="the JSONL file to write")
    ap.add_argument(
        "--corpus", type=Path, default=DEFAULT_ICLR, help="the ICLR 2026 CSVs (a directory)"
    )
    ap.add_argument("--seed", type=int, default=SEED, help=f"default {SEED}")
    args = ap.parse_args(argv)
    if args.n < 0:
        ap.error("N must be >= 0")
    base = read_iclr(args.corpus)
    if not base:
        ap.error(f"no papers in {args.corpus}")
    written = make_corpus(args.n, args.out, base, args.seed)
    print(f"wrote {written} papers to {args.out} (from {len(base)})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
