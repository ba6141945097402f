"""benchmarks/make_corpus.py: the synthetic corpus of the scaling curve, on a tiny corpus.

The scaling figures are only comparable between runs and machines if the same N gives the
same corpus, and only meaningful if the corpus has N distinct papers shaped like real ones:
these properties are checked here without the shared ICLR data.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def mc(benchmark_module: Callable[[str], ModuleType]) -> ModuleType:
    return benchmark_module("make_corpus")


@pytest.fixture(scope="module")
def base(mc: ModuleType) -> list:
    """Two primary areas of four papers each, every sentence distinct and telling its paper."""
    docs = []
    for area, tag in (("vision", "V"), ("theory", "T")):
        for p in range(4):
            n = 4 + p  # 4 to 7 sentences
            abstract = " ".join(f"Paper {tag}{p} says thing {s} about {area}." for s in range(n))
            docs.append(
                mc.Doc(
                    id=f"{tag}{p}",
                    title=f"Title {tag}{p}",
                    abstract=abstract,
                    keywords=[area, f"kw{p}"],
                    primary_area=area,
                    venue="ICLR 2026 Poster",
                    url=f"https://openreview.net/forum?id={tag}{p}",
                )
            )
    return docs


def test_same_n_gives_the_same_records_in_any_base_order(mc: ModuleType, base: list) -> None:
    a = list(mc.synthetic_docs(base, 40))
    b = list(mc.synthetic_docs(list(reversed(base)), 40))
    assert a == b
    assert list(mc.synthetic_docs(base, 40, seed=1)) != a


def test_n_records_unique_ids_and_abstracts(mc: ModuleType, base: list) -> None:
    for n in (0, 3, len(base), 9, 41):
        docs = list(mc.synthetic_docs(base, n))
        assert len(docs) == n
        assert len({d.id for d in docs}) == n
        assert len({" ".join(d.abstract.split()) for d in docs}) == n


def test_a_sample_below_the_base_size_is_real_papers_unchanged(mc: ModuleType, base: list) -> None:
    by_id = {d.id: d for d in base}
    docs = list(mc.synthetic_docs(base, 5))
    assert [d.id for d in docs] == sorted(d.id for d in docs)
    for d in docs:
        assert d.abstract == by_id[d.id].abstract and d.title == by_id[d.id].title
        assert d.url == "" and d.year == 2026


def test_variants_keep_the_first_sentence_and_swap_half_within_the_area(
    mc: ModuleType, base: list
) -> None:
    by_id = {d.id: d for d in base}
    area_sentences = {
        area: {s for d in base if d.primary_area == area for s in mc.sentences(d.abstract)[1:]}
        for area in {d.primary_area for d in base}
    }
    docs = list(mc.synthetic_docs(base, 40))
    assert [d.id for d in docs[: len(base)]] == sorted(by_id)  # the real papers come first
    variants = docs[len(base) :]
    assert len(variants) == 32
    for v in variants:
        base_id, k = v.id.rsplit("-v", 1)
        orig = by_id[base_id]
        assert v.title == f"{orig.title} (variant {k})"
        assert (v.primary_area, v.keywords, v.venue, v.year) == (
            orig.primary_area,
            orig.keywords,
            orig.venue,
            2026,
        )
        own, new = mc.sentences(orig.abstract), mc.sentences(v.abstract)
        assert len(new) == len(own) and new[0] == own[0]
        swapped = [s for s, o in zip(new[1:], own[1:], strict=True) if s != o]
        others = len(own) - 1
        assert 1 <= len(swapped) <= (others + 1) // 2
        assert all(s in area_sentences[orig.primary_area] for s in swapped)
        assert not any(s in own for s in swapped)  # from other papers, not reshuffled


def test_make_corpus_writes_the_same_bytes_and_kg_fields(
    mc: ModuleType, base: list, tmp_path: Path
) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert mc.make_corpus(20, a, base) == 20
    mc.make_corpus(20, b, list(reversed(base)))
    assert a.read_bytes() == b.read_bytes()
    assert not (tmp_path / "a.jsonl.tmp").exists()
    records = [json.loads(line) for line in a.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 20
    assert set(records[-1]) == {
        "id", "title", "abstract", "keywords", "primary_area", "venue", "year",
    }


def test_an_area_of_one_paper_cannot_lend_sentences(mc: ModuleType, base: list) -> None:
    lonely = [d for d in base if d.primary_area == "vision"][:1]
    with pytest.raises(ValueError, match="distinct variants"):
        list(mc.synthetic_docs(lonely, 3))
