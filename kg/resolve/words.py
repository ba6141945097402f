"""The word lists entity resolution reads, and the fingerprint of the resolution stage.

Resolution reads its own lists (``kg/resolve/data``) and part of the extraction's lexicon (the
gazetteers, the curated metric names, the task heads).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.extract.lexicon import load_lexicon, read_word_list
from kg.extract.normalize import normalize_key
from kg.schema import Label

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class ResolutionWords:
    task_heads: frozenset[str]  # the extraction's task_heads.txt
    modifiers: frozenset[str]  # generic_modifiers.txt: words that rate or place
    techniques: frozenset[str]  # technique_heads.txt
    generic_names: frozenset[str]  # merge keys of generic_names.txt
    metrics: frozenset[str]  # merge keys of metric_terms.txt's entries but capitalised words


@lru_cache(maxsize=1)
def resolution_words() -> ResolutionWords:
    """The word lists entity resolution reads, loaded once."""

    def words(name: str) -> frozenset[str]:
        return frozenset(w.lower() for w in read_word_list(DATA / name))

    return ResolutionWords(
        task_heads=load_lexicon().task_heads,
        modifiers=words("generic_modifiers.txt"),
        techniques=words("technique_heads.txt"),
        generic_names=frozenset(
            normalize_key(w) for w in read_word_list(DATA / "generic_names.txt")
        ),
        # Not single capitalised words: "mAP" is matched as written, and its key "map" is a word.
        metrics=frozenset(
            normalize_key(w)
            for w in load_lexicon().metric_terms
            if w.islower() or " " in w or "-" in w
        ),
    )


@lru_cache(maxsize=1)
def known_terms() -> frozenset[str]:
    """Merge keys of every name in the shipped gazetteers and the curated metric list."""
    lex = load_lexicon()
    names = [n for rows in lex.gazetteers.values() for name, al in rows for n in (name, *al)]
    return frozenset(normalize_key(n) for n in [*names, *lex.metric_terms])


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


@lru_cache(maxsize=1)
def resolution_version() -> str:
    """A fingerprint of the resolution stage: this package's code and word lists, and
    :mod:`kg.schema`. A saved resolver (:class:`kg.cache.ResolverSnapshots`) holds entities this
    code made, so changing it must make old snapshots unusable. (Snapshots are also keyed by the
    extraction's fingerprint, which covers the extraction lexicon resolution reads.)"""
    import kg.schema

    root = Path(__file__).parent
    h = hashlib.sha256(Path(kg.schema.__file__).read_bytes())
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]
