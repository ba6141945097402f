"""Loads the word lists and gazetteers kept as data files in ``kg/extract/data``.

:class:`Lexicon` holds the lists that several components share (and the re-typer's features
are made of: its fields must keep their contents for the shipped model); a list that one module
reads is read there, with :func:`read_data_lines`. Each file says at its top what it is for.
Resolution's own lists are in ``kg/resolve/data`` (:mod:`kg.resolve.words`), kg_rules' token
patterns in ``kg/extract/data/patterns`` (:mod:`kg.extract.patterns`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.schema import Label

DATA = Path(__file__).parent / "data"

GAZETTEER_FILES: dict[Label, str] = {
    Label.DATASET: "gazetteers/datasets.tsv",
    Label.METHOD: "gazetteers/methods.tsv",
    Label.METRIC: "gazetteers/metrics.tsv",
    Label.TASK: "gazetteers/tasks.tsv",
}


def read_word_list(path: Path) -> list[str]:
    """The entries of a word list: its non-empty lines that are not ``#`` comments, stripped."""
    text = path.read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def read_data_lines(name: str) -> list[str]:
    """The entries of ``kg/extract/data/<name>`` (:func:`read_word_list`)."""
    return read_word_list(DATA.joinpath(*name.split("/")))


@dataclass(frozen=True)
class Lexicon:
    task_heads: frozenset[str]
    dataset_heads: frozenset[str]
    method_heads: frozenset[str]
    #: head words of a metric's name ("... score", "... accuracy", "... rate")
    metric_heads: frozenset[str]
    #: heads that make a phrase a method whatever else it says ("... algorithm", "... network")
    strong_method_heads: frozenset[str]
    generic_nouns: frozenset[str]
    common_words: frozenset[str]
    proposal_cues: tuple[str, ...]
    metric_terms: tuple[str, ...]
    #: label -> list of (name, aliases)
    gazetteers: dict[Label, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)


def _gazetteer(name: str) -> list[tuple[str, tuple[str, ...]]]:
    rows = []
    for line in read_data_lines(name):
        parts = line.split("\t")
        aliases = tuple(a for a in parts[1].split("|") if a) if len(parts) > 1 else ()
        rows.append((parts[0], aliases))
    return rows


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The lexicon shipped with kg (cached: it is read once per process)."""

    def words(name: str) -> frozenset[str]:
        return frozenset(w.lower() for w in read_data_lines(name))

    return Lexicon(
        task_heads=words("task_heads.txt"),
        dataset_heads=words("dataset_heads.txt"),
        method_heads=words("method_heads.txt"),
        metric_heads=words("metric_heads.txt"),
        strong_method_heads=words("strong_method_heads.txt"),
        generic_nouns=words("generic_nouns.txt"),
        common_words=words("common_words.txt"),
        proposal_cues=tuple(read_data_lines("proposal_cues.txt")),
        metric_terms=tuple(read_data_lines("metric_terms.txt")),
        gazetteers={label: _gazetteer(path) for label, path in GAZETTEER_FILES.items()},
    )
