"""Finding a paper or an entity in the graph by what a person would type.

Matching goes exact → case-insensitive → fuzzy (rapidfuzz). A paper answers to its title, its
display name, its id, and the names of what it proposes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from kg.errors import AmbiguousError, NotFoundError
from kg.query.index import PaperIndex, as_index
from kg.schema import Label

if TYPE_CHECKING:
    import networkx as nx

FUZZY_THRESHOLD = 80.0
FUZZY_MARGIN = 8.0  # a fuzzy winner must beat the next paper by this much, or it's ambiguous


def fold(text: str) -> str:
    """A name as names are compared case-insensitively: casefolded, spaces collapsed."""
    return re.sub(r"\s+", " ", text).strip().casefold()


def paper_names(source: nx.MultiDiGraph | PaperIndex) -> Mapping[str, set[str]]:
    """Every name a paper answers to → the paper ids (:meth:`PaperIndex.paper_names`)."""
    return as_index(source).paper_names()


def entity_names(source: nx.MultiDiGraph | PaperIndex) -> Mapping[str, set[str]]:
    """Every name an entity or a topic answers to (name, aliases, id) → the node ids; a result
    answers to its id only (:meth:`PaperIndex.entity_names`)."""
    return as_index(source).entity_names()


def _describe(idx: PaperIndex, node: str) -> str:
    attrs = idx.nodes[node]
    if attrs["label"] == Label.PAPER.value:
        what = attrs.get("title") or attrs.get("snippet", "")
        return f"{attrs.get('display_name') or node}: {what}"
    return f"{attrs.get('name')} ({attrs['label']})"


def _exact(query: str, names: Mapping[str, set[str]]) -> set[str]:
    hits = names.get(query, set())
    if not hits:
        folded = fold(query)
        if hasattr(names, "folded"):  # a store's names: an indexed lookup (kg.store.sqlite)
            return set(names.folded(folded))
        hits = {n for name, ids in names.items() if fold(name) == folded for n in ids}
    return set(hits)


def _one(idx: PaperIndex, query: str, hits: set[str], what: str) -> str:
    if len(hits) == 1:
        return next(iter(hits))
    listing = "; ".join(_describe(idx, n) for n in sorted(hits)[:10])
    raise AmbiguousError(
        f"{query!r} matches {len(hits)} {what}s: {listing}. Use a fuller title or the id."
    )


def _fuzzy(idx: PaperIndex, query: str, names: Mapping[str, set[str]], what: str) -> str:
    scored = process.extract(query, list(names), scorer=fuzz.WRatio, processor=fold, limit=20)
    best: dict[str, float] = {}
    for name, score, _ in scored:
        for n in names[name]:
            best[n] = max(best.get(n, 0.0), score)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))
    if ranked and ranked[0][1] >= FUZZY_THRESHOLD:
        if len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= FUZZY_MARGIN:
            return ranked[0][0]
        close = [n for n, s in ranked if ranked[0][1] - s < FUZZY_MARGIN][:10]
        listing = "; ".join(_describe(idx, n) for n in close)
        raise AmbiguousError(f"{query!r} is close to several {what}s: {listing}. Be more specific.")
    suggestions = "; ".join(_describe(idx, n) for n, _ in ranked[:3])
    hint = f" Closest: {suggestions}." if suggestions else ""
    raise NotFoundError(f"no {what} matches {query!r}.{hint}")


def resolve_name(
    source: nx.MultiDiGraph | PaperIndex, query: str, names: Mapping[str, set[str]], what: str
) -> str:
    """The single node ``query`` names among ``names``: exact, then case-insensitive, then
    fuzzy; a NotFoundError (with the closest names) or AmbiguousError otherwise."""
    idx = as_index(source)
    query = query.strip()
    hits = _exact(query, names)
    return _one(idx, query, hits, what) if hits else _fuzzy(idx, query, names, what)


def find_paper(source: nx.MultiDiGraph | PaperIndex, query: str) -> str:
    """The id of the paper ``query`` names (title, display name, id, or a proposed entity)."""
    idx = as_index(source)
    return resolve_name(idx, query, paper_names(idx), "paper")


def find_node(source: nx.MultiDiGraph | PaperIndex, query: str) -> str:
    """A paper or an entity by name (for ``kg show``): an exact or case-insensitive match on a
    paper, then on an entity, then the best fuzzy match over both. When several papers answer
    to the name (by what they propose: "GRPO"), the entity of that very name is meant."""
    idx = as_index(source)
    query = query.strip()
    papers, entities = paper_names(idx), entity_names(idx)
    for names, what in ((papers, "paper"), (entities, "entity")):
        hits = _exact(query, names)
        if len(hits) > 1 and what == "paper":
            named = {n for n in entities.get(query, set()) if idx.nodes[n].get("name") == query}
            if len(named) == 1:
                return named.pop()
        if hits:
            return _one(idx, query, hits, what)
    combined: dict[str, set[str]] = defaultdict(set)
    for names in (papers, entities):
        for name, ids in names.items():
            combined[name] |= ids
    return _fuzzy(idx, query, combined, "paper or entity")
