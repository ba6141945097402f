"""A compact, read-only index of a graph for the questions asked most: which paper is this
name, and which papers share entities with it.

Loading the full node-link JSON of a conference (large: abstracts and evidence sentences) and
building a NetworkX graph from it is slow; ``kg related`` needs only ids, names and
links. :func:`load_index` keeps them per graph file in kg's cache folder, as a small SQLite
store read a row at a time (:mod:`kg.store.sqlite`), and makes it again whenever the graph file
changes (size or modification time), so answers never go stale. :class:`PaperIndex` holds the
same in memory, for a graph object.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from kg.schema import LABEL_ATTR, TYPE_ATTR, Label, Rel

INDEX_VERSION = 4
_NODE_KEYS = (
    "name",
    "title",
    "display_name",
    "aliases",
    "paper_count",
    "similar",
    "similar_scores",
    "similar_terms",
)


@dataclass
class PaperIndex:
    #: node id -> {"label", "name", "title", "display_name", "aliases", "paper_count", "snippet"}
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: paper id -> [(entity id, relationship type)], sorted: the paper→entity links
    #: (:class:`~kg.schema.Rel`), not its results or its topic
    links: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: entity id -> [paper ids], sorted
    backlinks: dict[str, list[str]] = field(default_factory=dict)
    #: every name a paper answers to -> the paper ids (:meth:`paper_names`), made on first use
    _paper_names: dict[str, set[str]] | None = field(default=None, repr=False)

    @classmethod
    def from_graph(cls, G: nx.MultiDiGraph) -> PaperIndex:
        idx = cls()
        for n, attrs in G.nodes(data=True):
            idx.nodes[n] = index_node(attrs)
        paper_ids = {n for n, node in idx.nodes.items() if node["label"] == Label.PAPER.value}
        roles = {r.value for r in Rel}
        for u, v, attrs in G.edges(data=True):
            if u not in paper_ids or attrs[TYPE_ATTR] not in roles:
                continue  # not what kg related counts: an entity relation, a result, a topic
            idx.links.setdefault(u, []).append((v, attrs[TYPE_ATTR]))
            idx.backlinks.setdefault(v, []).append(u)
        for lst in idx.links.values():
            lst.sort()
        for papers in idx.backlinks.values():
            papers.sort()
        return idx

    def paper_names(self) -> Mapping[str, set[str]]:
        """Every name a paper answers to (its id, title and display name, and the names and
        aliases of what it proposes) → the paper ids."""
        if self._paper_names is None:
            names: dict[str, set[str]] = {}
            for n, attrs in self.nodes.items():
                if attrs["label"] == Label.PAPER.value:
                    for name in (n, attrs.get("title"), attrs.get("display_name")):
                        if name:
                            names.setdefault(name, set()).add(n)
            for paper, links in self.links.items():
                for entity, rel in links:
                    if rel == Rel.PROPOSES.value:
                        ent = self.nodes[entity]
                        for name in (ent.get("name"), *ent.get("aliases", [])):
                            if name:
                                names.setdefault(name, set()).add(paper)
            self._paper_names = names
        return self._paper_names

    def entity_names(self) -> Mapping[str, set[str]]:
        """Every name an entity or a topic answers to (name, aliases, id) → the node ids; a
        result answers to its id only (its name is a claim, not a name)."""
        names: dict[str, set[str]] = {}
        for n, attrs in self.nodes.items():
            if attrs["label"] == Label.RESULT.value:
                found: tuple[Any, ...] = (n,)
            elif attrs["label"] != Label.PAPER.value:
                found = (n, attrs.get("name"), *attrs.get("aliases", []))
            else:
                continue
            for name in found:
                if name:
                    names.setdefault(name, set()).add(n)
        return names

    def is_paper(self, node: str) -> bool:
        return self.nodes[node]["label"] == Label.PAPER.value


def index_node(attrs: dict[str, Any]) -> dict[str, Any]:
    """What the index keeps of a node's attributes (:data:`_NODE_KEYS`, the label, and the
    start of a paper's abstract)."""
    node = {k: attrs[k] for k in _NODE_KEYS if k in attrs}
    node["label"] = attrs[LABEL_ATTR]
    if attrs[LABEL_ATTR] == Label.PAPER.value:
        node["snippet"] = (attrs.get("abstract") or "")[:70]
    return node


def as_index(source: nx.MultiDiGraph | PaperIndex) -> PaperIndex:
    """``source`` itself when it is an index (a store's included: kg.store.sqlite.StoreIndex),
    else the index of graph ``source``."""
    return source if isinstance(source, PaperIndex) else PaperIndex.from_graph(source)


def _signature(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return (INDEX_VERSION, st.st_size, st.st_mtime_ns)


def index_path(graph_path: Path, cache_dir: Path) -> Path:
    key = hashlib.sha256(str(graph_path.resolve()).encode()).hexdigest()[:20]
    return cache_dir / "index" / f"{key}.db"


def load_index(graph_path: str | Path, cache_dir: str | Path | None = None) -> PaperIndex:
    """The index of the graph at ``graph_path``, read on demand from a store
    (:class:`kg.store.sqlite.StoreIndex`): a store (.db) is its own; a graph file's is a small
    store of what the index holds (:func:`index_data`) in the cache folder, made again whenever
    the file changes. Opening it costs the same for any corpus."""
    from kg.cache import default_cache_dir
    from kg.errors import GraphFileError
    from kg.store.file import load_graph
    from kg.store.sqlite import Store, StoreIndex, is_store, write_store

    if is_store(graph_path):
        return StoreIndex(Store(graph_path))
    graph_path = Path(graph_path)
    cached = index_path(graph_path, Path(cache_dir) if cache_dir else default_cache_dir())
    if graph_path.exists() and cached.exists():
        with contextlib.suppress(GraphFileError):
            store = Store(cached)
            if store.meta("signature") == _signature_text(graph_path):
                with contextlib.suppress(OSError):
                    os.utime(cached)  # recently used (see KEEP_INDEXES)
                return StoreIndex(store)
            store.close()
    G = load_graph(graph_path)  # raises GraphFileError if missing
    new_graph = not cached.exists()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_store(index_data(G), cached, meta={"signature": _signature_text(graph_path)})
    except (OSError, GraphFileError):
        return PaperIndex.from_graph(G)  # a read-only cache folder only costs speed
    if new_graph:
        _prune(cached.parent)
    return StoreIndex(Store(cached))


def _signature_text(path: Path) -> str:
    return ",".join(map(str, _signature(path)))


def index_data(G: nx.MultiDiGraph) -> dict[str, Any]:
    """What the index needs of graph ``G``, as node-link data: every node's
    :func:`index_node` attributes (with its abstract's start, from which the snippet is cut),
    and the paper→entity links (:class:`~kg.schema.Rel`)."""
    roles = {r.value for r in Rel}
    nodes = []
    for n, attrs in G.nodes(data=True):
        node = {"id": n, LABEL_ATTR: attrs[LABEL_ATTR]}
        node.update((k, attrs[k]) for k in _NODE_KEYS if k in attrs)
        if attrs[LABEL_ATTR] == Label.PAPER.value:
            node["abstract"] = (attrs.get("abstract") or "")[:70]
        nodes.append(node)
    papers = {n["id"] for n in nodes if n[LABEL_ATTR] == Label.PAPER.value}
    links = [
        {"source": u, "target": v, TYPE_ATTR: attrs[TYPE_ATTR], "key": attrs[TYPE_ATTR]}
        for u, v, attrs in G.edges(data=True)
        if u in papers and attrs[TYPE_ATTR] in roles
    ]
    return {"directed": True, "multigraph": True, "graph": {}, "nodes": nodes, "links": links}


#: Indexes kept in the cache folder: those of the graph files queried most recently. (One per
#: graph file path: without a limit, every graph ever queried left its index behind.)
KEEP_INDEXES = 32


def _prune(folder: Path) -> None:
    import shutil

    from kg.cache import recent_first

    for legacy in folder.glob("*.pickle"):  # the pickled indexes of kg before 90d73bb
        legacy.unlink(missing_ok=True)
    for old in recent_first(folder.glob("*.db"))[KEEP_INDEXES:]:
        old.unlink(missing_ok=True)
        shutil.rmtree(old.with_suffix(".text"), ignore_errors=True)  # its text index
