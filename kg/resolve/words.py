"""The word lists entity resolution reads, and the fingerprint of the resolution stage.

Resolution reads its own lists (``kg/resolve/data``, all through :func:`word_list`) and part of
the extraction's lexicon (the gazetteers, the curated metric names, the task heads).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.data import english_stop_words
from kg.extract.lexicon import load_lexicon, read_word_list
from kg.extract.normalize import normalize_key
from kg.fingerprint import tree_digest
from kg.schema import Label

DATA = Path(__file__).parent / "data"


def word_list(name: str) -> list[str]:
    """The entries of ``kg/resolve/data/<name>``, in file order (:func:`read_word_list`).

    >>> word_list("class_heads.txt")
    ['model', 'agent']
    """
    return read_word_list(DATA / name)


def with_plurals(words: list[str]) -> frozenset[str]:
    """``words`` and each one with "s" appended, but for a word that ends in -s already, which
    is its own plural (the kind words of ``kind_words.txt``).

    >>> sorted(with_plurals(["framework", "series"]))
    ['framework', 'frameworks', 'series']
    """
    return frozenset(f"{w}{s}" for w in words for s in (("",) if w.endswith("s") else ("", "s")))


@dataclass(frozen=True)
class ResolutionWords:
    task_heads: frozenset[str]  # the extraction's task_heads.txt
    modifiers: frozenset[str]  # generic_modifiers.txt: words that rate or place
    techniques: frozenset[str]  # technique_heads.txt
    generic_names: frozenset[str]  # merge keys of generic_names.txt and broad_fields.txt
    fields: frozenset[str]  # merge keys of broad_fields.txt
    metrics: frozenset[str]  # merge keys of metric_terms.txt's entries but capitalised words
    general: frozenset[str]  # general_words.txt: everyday English words
    generic_nouns: frozenset[str]  # the extraction's generic_nouns.txt
    ml_common: frozenset[str]  # ml_common_words.txt, with plurals
    stop: frozenset[str]  # kg/data/english_stop_words.txt, as the text similarity's


@lru_cache(maxsize=1)
def resolution_words() -> ResolutionWords:
    """The word lists entity resolution reads, loaded once."""

    def words(name: str) -> frozenset[str]:
        return frozenset(w.lower() for w in word_list(name))

    fields = frozenset(normalize_key(w) for w in word_list("broad_fields.txt"))
    return ResolutionWords(
        task_heads=load_lexicon().task_heads,
        modifiers=words("generic_modifiers.txt"),
        techniques=words("technique_heads.txt"),
        generic_names=fields | {normalize_key(w) for w in word_list("generic_names.txt")},
        fields=fields,
        # Not single capitalised words: "mAP" is matched as written, and its key "map" is a word.
        metrics=frozenset(
            normalize_key(w)
            for w in load_lexicon().metric_terms
            if w.islower() or " " in w or "-" in w
        ),
        general=frozenset(word_list("general_words.txt")),
        generic_nouns=load_lexicon().generic_nouns,
        ml_common=with_plurals(word_list("ml_common_words.txt")),
        stop=english_stop_words(),
    )


@lru_cache(maxsize=1)
def known_terms() -> frozenset[str]:
    """Merge keys of every name in the shipped gazetteers and the curated metric list."""
    lex = load_lexicon()
    return frozenset().union(
        *map(listed, lex.gazetteers), (normalize_key(n) for n in lex.metric_terms)
    )


@lru_cache(maxsize=1)
def gazetteer_methods() -> frozenset[str]:
    """Merge keys of the shipped method names of more than one word ("weight decay",
    "stochastic depth"). Single words are left out: the list holds common ones ("Attention")."""
    return frozenset(
        normalize_key(n)
        for name, aliases in load_lexicon().gazetteers.get(Label.METHOD, [])
        for n in (name, *aliases)
        if " " in n or "-" in n
    )


def listed_datasets() -> frozenset[str]:
    """Merge keys of the shipped dataset names and their aliases."""
    return listed(Label.DATASET)


@lru_cache(maxsize=8)
def listed(label: Label) -> frozenset[str]:
    """Merge keys of the shipped names of ``label`` and their aliases."""
    return frozenset(
        normalize_key(n)
        for name, aliases in load_lexicon().gazetteers.get(label, [])
        for n in (name, *aliases)
    )


@lru_cache(maxsize=1)
def acronym_meanings() -> dict[str, tuple[Label, str]]:
    """The type and the name of each undefined acronym of ``acronym_types.tsv``, by merge key.

    >>> acronym_meanings()["kl"]
    (<Label.CONCEPT: 'Concept'>, 'KL divergence')
    """
    out = {}
    for line in word_list("acronym_types.tsv"):
        acronym, label, name = line.split("\t")
        out[normalize_key(acronym)] = (Label(label), name)
    return out


@lru_cache(maxsize=1)
def modifier_acronyms() -> frozenset[str]:
    """The merge keys of ``modifier_acronyms.tsv``: each acronym and its long form.

    >>> sorted(modifier_acronyms())
    ['ar', 'autoregressive', 'key-value', 'kv']
    """
    lines = word_list("modifier_acronyms.tsv")
    return frozenset(normalize_key(form) for line in lines for form in line.split("\t"))


@lru_cache(maxsize=1)
def model_families() -> frozenset[str]:
    """The lower-cased first words of model names (``model_families.txt``)."""
    return frozenset(w.lower() for w in word_list("model_families.txt"))


@lru_cache(maxsize=1)
def resolution_version() -> str:
    """A fingerprint of the resolution stage: this package's code and word lists, and
    :mod:`kg.schema`. A saved resolver (:class:`kg.cache.ResolverSnapshots`) holds entities this
    code made, so changing it must make old snapshots unusable. (Snapshots are also keyed by the
    extraction's fingerprint, which covers the extraction lexicon resolution reads.)"""
    return resolution_digest(Path(__file__).parent)


def resolution_digest(root: Path) -> str:
    """:func:`resolution_version` of the resolution package at ``root``."""
    import kg.schema

    h = hashlib.sha256(Path(kg.schema.__file__).read_bytes())
    h.update(tree_digest(root).encode())
    return h.hexdigest()[:16]
