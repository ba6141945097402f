"""The embedded store for big corpora: the graph in one SQLite file, read a node at a time.

``kg build -o graph.db`` writes it; every command that takes a graph reads it as well as the
node-link JSON. ``kg related`` and ``kg show`` read only what they answer from (a paper, its
entities, their papers: :class:`StoreIndex`, :func:`neighbourhood`), ``kg stats`` counts in
SQL; the exports and ``kg load`` read the whole graph (:func:`load_store`), and ``kg export
json`` turns a store into the graph file a JSON build writes, byte for byte.

Why SQLite, not DuckDB: kg's reads are point lookups (a node by id, the links of a node, a name),
which SQLite's B-tree indexes answer in microseconds from a file of any size, where a columnar
engine is built for scans and aggregates. And it is in Python's standard library on every
platform: the store adds no dependency.

Tables (:data:`SCHEMA`): ``nodes`` and ``links`` hold each node's and link's node-link dict as
JSON, in the graph file's order, with the columns the lookups need beside it; ``names`` holds
every name a node answers to (as :mod:`kg.query.lookup` matches them); ``meta`` the rest of
the node-link data. A store is written to a temporary file and renamed: a build killed half-way
leaves the old store.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from kg import atomic
from kg.errors import GraphFileError
from kg.graph.paper_link import plain
from kg.query.index import PaperIndex, index_node
from kg.schema import ENTITY_LABELS, LABEL_ATTR, TYPE_ATTR, Label, Rel

if TYPE_CHECKING:
    import networkx as nx

#: The suffixes of a store; any other graph path is a node-link JSON file.
STORE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
STORE_FORMAT = "1"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (
    id TEXT PRIMARY KEY, label TEXT NOT NULL, name TEXT, weight INTEGER NOT NULL, data BLOB NOT NULL
);
CREATE TABLE links (
    source TEXT NOT NULL, target TEXT NOT NULL, type TEXT NOT NULL, data BLOB NOT NULL
);
CREATE TABLE names (name TEXT NOT NULL, folded TEXT NOT NULL, id TEXT NOT NULL, paper INTEGER);
"""
# Made after the rows are in: building an index once is faster than keeping it up row by row.
# The links' indexes hold the other end too, so the links of a node (and the papers of an
# entity: tens of thousands in a big corpus) are read from the index alone.
INDEXES = """
CREATE INDEX links_source ON links (source, type, target);
CREATE INDEX links_target ON links (target, type, source);
CREATE INDEX nodes_label ON nodes (label, weight);
CREATE INDEX names_name ON names (name, paper);
CREATE INDEX names_folded ON names (folded, paper);
"""
_ROLES = tuple(r.value for r in Rel)  # the paper→entity links kg related counts
_MARKS = ",".join("?" * len(_ROLES))
#: A paper's entities, and an entity's papers (:class:`StoreIndex`): read from the links'
#: indexes alone.
LINKS_OF = f"SELECT target, type FROM links WHERE source = ? AND type IN ({_MARKS})"
PAPERS_OF = f"SELECT source FROM links WHERE target = ? AND type IN ({_MARKS})"


def is_store(path: str | Path) -> bool:
    """Whether ``path`` names a store (by its suffix) rather than a graph file."""
    return Path(path).suffix.lower() in STORE_SUFFIXES


def _weight(node: dict[str, Any]) -> int:
    # What ranks a node among its label: an entity's papers, a topic's size.
    return int(node.get("paper_count") or node.get("size") or 0)


def _names(data: dict[str, Any]) -> Iterator[tuple[str, str, int]]:
    """(name, node id, 1 for a paper's name) for every name a node answers to: a paper's id,
    title, display name and the names of what it proposes; an entity's or a topic's id, name
    and aliases; a result's id (see :mod:`kg.query.lookup`)."""
    nodes = {n["id"]: n for n in data["nodes"]}
    for n in data["nodes"]:
        label = n[LABEL_ATTR]
        names: tuple[Any, ...]
        if label == Label.PAPER.value:
            names = (n["id"], n.get("title"), n.get("display_name"))
        elif label == Label.RESULT.value:
            names = (n["id"],)
        else:
            names = (n["id"], n.get("name"), *n.get("aliases", []))
        for name in dict.fromkeys(x for x in names if x):
            yield name, n["id"], int(label == Label.PAPER.value)
    for e in data["links"]:
        if (
            e[TYPE_ATTR] == Rel.PROPOSES.value
            and nodes[e["source"]][LABEL_ATTR] == Label.PAPER.value
        ):
            entity = nodes[e["target"]]
            for name in dict.fromkeys(x for x in (entity.get("name"), *entity.get("aliases", []))):
                if name:
                    yield name, e["source"], 1


def _json(value: Any) -> bytes:
    # Sorted keys, as in a graph file: a node read from the store is the dict read from the file.
    return orjson.dumps(value, default=plain, option=orjson.OPT_SORT_KEYS)


def write_store(
    data: dict[str, Any], path: str | Path, meta: dict[str, str] | None = None
) -> Path:
    """Write node-link ``data`` (as :func:`kg.store.file.write_graph_data` takes it) as a store
    at ``path``, atomically; ``meta``: more (key, value) pairs for :meth:`Store.meta`."""
    from kg.query.lookup import fold

    target = Path(path)
    atomic.remove_debris(target)
    temp = atomic.temp_path(target)
    try:
        con = sqlite3.connect(temp)
        try:
            # A fresh temporary file needs no journal: a failure discards it whole.
            con.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + SCHEMA)
            rest = {k: v for k, v in data.items() if k not in ("nodes", "links")}
            con.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("format", STORE_FORMAT), ("data", _json(rest).decode()), *(meta or {}).items(),
            ])  # fmt: skip
            con.executemany(
                "INSERT INTO nodes VALUES (?, ?, ?, ?, ?)",
                ((n["id"], n[LABEL_ATTR], n.get("name"), _weight(n), _json(n))
                 for n in data["nodes"]),
            )  # fmt: skip
            con.executemany(
                "INSERT INTO links VALUES (?, ?, ?, ?)",
                ((e["source"], e["target"], e[TYPE_ATTR], _json(e)) for e in data["links"]),
            )
            con.executemany(
                "INSERT INTO names VALUES (?, ?, ?, ?)",
                ((name, fold(name), node, paper) for name, node, paper in _names(data)),
            )
            con.executescript(INDEXES)
            con.commit()
        finally:
            con.close()
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, (OSError, sqlite3.Error)):
            raise GraphFileError(f"{target}: cannot write the store ({exc})") from None
        raise
    return target


class Store:
    """A store opened read-only. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise GraphFileError(f"{path}: no graph store here (build one with "
                                 f"`kg build INPUT... -o {self.path.name}`)")  # fmt: skip
        try:
            self.con = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            found = self.con.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.Error as exc:
            raise GraphFileError(f"{path}: not a readable kg store ({exc})") from None
        if found is None or found[0] != STORE_FORMAT:
            raise GraphFileError(f"{path}: a kg store of another format ({found and found[0]})")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.con.close()

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._rows(sql, params))

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        """The rows of a query one at a time; an unreadable store is one readable error."""
        try:
            yield from self.con.execute(sql, params)
        except sqlite3.Error as exc:
            raise GraphFileError(f"{self.path}: cannot read the store ({exc})") from None

    def meta(self, key: str) -> str | None:
        """A value :func:`write_store` was given in ``meta``."""
        rows = self._all("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def node(self, node_id: str) -> dict[str, Any] | None:
        """A node's node-link dict (with its ``id``), or None."""
        rows = self._all("SELECT data FROM nodes WHERE id = ?", (node_id,))
        return orjson.loads(rows[0][0]) if rows else None

    def nodes(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The node-link dicts of those of ``ids`` the store holds, by id."""
        out: dict[str, dict[str, Any]] = {}
        for start in range(0, len(ids), 500):  # (SQLite caps the parameters of a statement)
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for (data,) in self._all(f"SELECT data FROM nodes WHERE id IN ({marks})", tuple(chunk)):
                node = orjson.loads(data)
                out[node["id"]] = node
        return out

    def paper_texts(self) -> list[tuple[str, str, str]]:
        """Every paper as (id, title, abstract), by id: what a text index is made of, read
        without the rest of the graph."""
        out = []
        sql = "SELECT data FROM nodes WHERE label = ? ORDER BY id"
        for (data,) in self._rows(sql, (Label.PAPER.value,)):
            node = orjson.loads(data)
            out.append((node["id"], node.get("title") or "", node.get("abstract") or ""))
        return out

    def links_of(self, node_id: str, direction: str = "out") -> list[dict[str, Any]]:
        """The node-link dicts of the links from (``"out"``) or to (``"in"``) a node."""
        column = "source" if direction == "out" else "target"
        rows = self._all(f"SELECT data FROM links WHERE {column} = ? ORDER BY rowid", (node_id,))
        return [orjson.loads(data) for (data,) in rows]

    def names(self, name: str, folded: bool = False, papers: bool | None = None) -> set[str]:
        """The nodes that answer to ``name`` (its casefolded form, with ``folded``): papers'
        names only, or only other nodes', or both (``papers`` None)."""
        column = "folded" if folded else "name"
        sql = f"SELECT id FROM names WHERE {column} = ?"
        params: tuple[Any, ...] = (name,)
        if papers is not None:
            sql, params = sql + " AND paper = ?", (name, int(papers))
        return {node for (node,) in self._all(sql, params)}

    def all_names(self, papers: bool | None = None) -> dict[str, set[str]]:
        """Every name → the nodes answering to it (a fuzzy match reads them all)."""
        sql, params = "SELECT name, id FROM names", ()  # type: tuple[str, tuple[Any, ...]]
        if papers is not None:
            sql, params = sql + " WHERE paper = ?", (int(papers),)
        out: dict[str, set[str]] = {}
        for name, node in self._all(sql, params):
            out.setdefault(name, set()).add(node)
        return out

    def counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """Nodes per label and links per type."""
        labels = dict(self._all("SELECT label, COUNT(*) FROM nodes GROUP BY label"))
        types = dict(self._all("SELECT type, COUNT(*) FROM links GROUP BY type"))
        return labels, types

    def top(self, label: str, k: int, ties: str = "name") -> list[dict[str, Any]]:
        """The ``k`` nodes of ``label`` with the most papers (topics: the largest), ties in
        the order of their ``name`` or their ``id``."""
        order = "name, id" if ties == "name" else "id"
        rows = self._all(
            f"SELECT data FROM nodes WHERE label = ? ORDER BY weight DESC, {order} LIMIT ?",
            (label, k),
        )
        return [orjson.loads(data) for (data,) in rows]

    def stats(self, top: int = 5) -> dict[str, Any]:
        """:func:`kg.query.explore.graph_stats` of the store, counted in SQL."""
        from collections import Counter

        from kg.query.explore import count_summary

        labels, types = self.counts()
        top_entities = {
            label.value: [
                {"id": n["id"], "name": n.get("name"), "paper_count": n.get("paper_count", 0)}
                for n in self.top(label.value, top)
            ]
            for label in ENTITY_LABELS
        }
        topics = self.top(Label.TOPIC.value, top, ties="id")
        return {
            **count_summary(Counter(labels), Counter(types)),
            "top_entities": top_entities,
            "top_topics": [{"id": t["id"], "name": t.get("name"), "size": t.get("size", 0)}
                           for t in topics],
        }  # fmt: skip

    def data(self) -> dict[str, Any]:
        """The whole graph as node-link data, as the graph file of the same build holds it."""
        rest = orjson.loads(self._all("SELECT value FROM meta WHERE key = 'data'")[0][0])
        nodes = [orjson.loads(d) for (d,) in self._all("SELECT data FROM nodes ORDER BY rowid")]
        links = [orjson.loads(d) for (d,) in self._all("SELECT data FROM links ORDER BY rowid")]
        return {**rest, "nodes": nodes, "links": links}


def load_store(path: str | Path) -> nx.MultiDiGraph:
    """The whole graph of the store at ``path`` as a networkx graph (for the exports and
    ``kg load``, which write every node anyway)."""
    from kg.runtime import paused_gc
    from kg.store.file import graph_from_data

    with Store(path) as store, paused_gc():
        return graph_from_data(store.data())


def neighbourhood(store: Store, node_id: str) -> nx.MultiDiGraph:
    """The part of the graph that :func:`kg.query.explore.describe_node` reads for
    ``node_id``: the node, its links both ways and the nodes at their other ends, and the
    links of the results among them (a result's method, dataset, metric and task)."""
    from kg.store.file import graph_from_data

    links: dict[bytes, dict[str, Any]] = {}

    def add_links_of(node: str) -> None:
        for direction in ("out", "in"):
            for e in store.links_of(node, direction):
                links[_json(e)] = e

    add_links_of(node_id)
    ends = {x for e in links.values() for x in (e["source"], e["target"])} | {node_id}
    nodes = store.nodes(sorted(ends))
    for other in sorted(ends - {node_id}):
        if nodes[other][LABEL_ATTR] == Label.RESULT.value:
            add_links_of(other)
    more = {x for e in links.values() for x in (e["source"], e["target"])} - set(nodes)
    nodes.update(store.nodes(sorted(more)))
    data = {"directed": True, "multigraph": True, "graph": {}, "nodes": list(nodes.values()),
            "links": list(links.values())}  # fmt: skip
    return graph_from_data(data)


class _LazyMap(Mapping[str, Any]):
    """A read-only mapping whose values are read on first use (``fetch(key)``, None when
    absent) and kept. Iterating it reads every key (``keys()``)."""

    def __init__(self, fetch: Any, keys: Any) -> None:
        self._fetch, self._keys = fetch, keys
        self._seen: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._seen:
            self._seen[key] = self._fetch(key)
        value = self._seen[key]
        if value is None:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


class StoreIndex(PaperIndex):
    """A :class:`~kg.query.index.PaperIndex` read from a store on demand: a query reads the
    rows it touches (the paper, its entities, their papers), not the graph."""

    def __init__(self, store: Store) -> None:  # (not the dataclass': nothing is held)
        self.store = store
        self.nodes = _LazyMap(  # type: ignore[assignment]
            lambda n: None if (d := store.node(n)) is None else index_node(d),
            lambda: [n for (n,) in store._all("SELECT id FROM nodes ORDER BY rowid")],
        )
        self.links = _LazyMap(  # type: ignore[assignment]
            lambda p: sorted(store._all(LINKS_OF, (p, *_ROLES))) or None,
            lambda: [p for p, in store._all(
                f"SELECT DISTINCT source FROM links WHERE type IN ({_MARKS})", _ROLES
            )],
        )  # fmt: skip
        self.backlinks = _LazyMap(  # type: ignore[assignment]
            lambda e: sorted(p for p, in store._all(PAPERS_OF, (e, *_ROLES))) or None,
            lambda: [e for e, in store._all(
                f"SELECT DISTINCT target FROM links WHERE type IN ({_MARKS})", _ROLES
            )],
        )  # fmt: skip

    def paper_names(self) -> StoreNames:
        return StoreNames(self.store, papers=True)

    def entity_names(self) -> StoreNames:
        return StoreNames(self.store, papers=False)


class StoreNames(Mapping[str, set[str]]):
    """The names of a store's papers (or its other nodes) as the mapping
    :mod:`kg.query.lookup` matches against: an exact or casefolded name is one indexed
    lookup (:meth:`folded`); only iterating, for a fuzzy match, reads them all."""

    def __init__(self, store: Store, papers: bool) -> None:
        self.store, self.papers = store, papers
        self._all: dict[str, set[str]] | None = None

    def get(self, name: str, default: Any = None) -> Any:
        return self.store.names(name, papers=self.papers) or default

    def __getitem__(self, name: str) -> set[str]:
        found = self.get(name)
        if not found:
            raise KeyError(name)
        return found

    def folded(self, folded_name: str) -> set[str]:
        return self.store.names(folded_name, folded=True, papers=self.papers)

    def _every(self) -> dict[str, set[str]]:
        if self._all is None:
            self._all = self.store.all_names(papers=self.papers)
        return self._all

    def __iter__(self) -> Iterator[str]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())
