"""The embedded default store: the graph as a node-link JSON file (plus GraphML/GEXF exports).

The JSON is written with sorted keys and a fixed node/edge order so the same graph gives the
same bytes (builds are reproducible and diffable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:  # networkx is imported where it is used: the CLI starts faster without it
    import networkx as nx

from kg import atomic
from kg.errors import GraphFileError
from kg.graph.paper_link import plain
from kg.runtime import paused_gc
from kg.schema import LABEL_ATTR, TYPE_ATTR

DEFAULT_GRAPH_PATH = Path("exports") / "graph.json"
FORMAT_VERSION = 1


def graph_to_data(G: nx.MultiDiGraph) -> dict[str, Any]:
    """``G`` as the node-link data a graph file holds: nodes sorted by id, links by
    (source, target, key)."""
    import networkx as nx

    with paused_gc():  # node_link_data makes a dict per node and edge
        data = nx.node_link_data(G, edges="links")
    data["nodes"] = sorted(data["nodes"], key=lambda n: n["id"])
    data["links"] = sorted(
        data["links"], key=lambda e: (e["source"], e["target"], str(e.get("key", "")))
    )
    data["graph"] = {**data.get("graph", {}), "kg_format": FORMAT_VERSION}
    return data


def write_graph_data(data: dict[str, Any], path: str | Path) -> Path:
    """Write node-link ``data`` (from :func:`graph_to_data` or :func:`kg.graph.graph_data`):
    a graph file, or a store when ``path`` ends in .db (:mod:`kg.store.sqlite`)."""
    from kg.store.sqlite import is_store, write_store

    if is_store(path):
        return write_store(data, path)
    # Compact UTF-8 JSON with sorted keys. orjson: a conference graph is large, and the standard
    # library's encoder took longer than everything else an incremental build does.
    encoded = orjson.dumps(
        data, default=plain, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE
    )
    # Atomic: a crash or a full disk leaves the previous graph file, never half of one.
    return _written(atomic.write_bytes, path, encoded)


def _written(write: Any, path: str | Path, content: Any) -> Path:
    try:
        return Path(write(path, content))
    except OSError as exc:
        raise GraphFileError(f"{path}: cannot write ({exc.strerror or exc})") from None


def save_graph(G: nx.MultiDiGraph, path: str | Path) -> Path:
    """Write ``G`` as node-link JSON (``networkx.node_link_data``) to ``path``."""
    return write_graph_data(graph_to_data(G), path)


def graph_from_data(data: dict[str, Any]) -> nx.MultiDiGraph:
    """The networkx graph of node-link ``data`` (as a graph file or
    :func:`kg.graph.graph_data` has it)."""
    import networkx as nx

    return nx.node_link_graph(data, directed=True, multigraph=True, edges="links")


def load_graph(path: str | Path = DEFAULT_GRAPH_PATH) -> nx.MultiDiGraph:
    """Read a graph written by :func:`save_graph`, or the whole graph of a store (.db)."""
    from kg.store.sqlite import is_store, load_store

    if is_store(path):
        return load_store(path)
    path = Path(path)
    if not path.exists():
        raise GraphFileError(f"{path}: no graph file here (build one with `kg build INPUT...`)")
    try:
        with paused_gc():
            G = graph_from_data(orjson.loads(path.read_bytes()))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise GraphFileError(f"{path}: not a readable kg graph ({exc})") from None
    if any(LABEL_ATTR not in attrs for _, attrs in G.nodes(data=True)):
        raise GraphFileError(f"{path}: not a kg graph (nodes without a '{LABEL_ATTR}')")
    return G


def convert_graph(source: str | Path, target: str | Path) -> Path:
    """Write the graph at ``source`` (a graph file or a store) to ``target`` (either form, by
    its suffix), the same node-link data byte for byte."""
    from kg.store.sqlite import Store, is_store

    if is_store(source):
        with Store(source) as store, paused_gc():
            data = store.data()
    else:
        data = graph_to_data(load_graph(source))
    return write_graph_data(data, target)


def _flatten(value: Any) -> Any:
    # GraphML/GEXF hold scalars only: lists become "; "-joined strings, None becomes "".
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    if value is None:
        return ""
    return value


def _flat_copy(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    import networkx as nx

    H = nx.MultiDiGraph()
    for n, attrs in G.nodes(data=True):
        H.add_node(n, **{k: _flatten(v) for k, v in attrs.items()})
    for u, v, key, attrs in G.edges(keys=True, data=True):
        H.add_edge(u, v, key=key, **{k: _flatten(x) for k, x in attrs.items()})
    return H


def export_graph(G: nx.MultiDiGraph, path: str | Path, fmt: str) -> Path:
    """Export to ``graphml`` or ``gexf`` (list properties are joined with "; ")."""
    import networkx as nx

    writers = {"graphml": nx.write_graphml, "gexf": nx.write_gexf}
    if fmt not in writers:
        raise GraphFileError(f"unknown export format {fmt!r} (use graphml or gexf)")
    H = _flat_copy(G)

    def write(target: str | Path, graph: nx.MultiDiGraph) -> Path:
        with atomic.atomic_write(target) as f:  # networkx writes to an open binary file too
            writers[fmt](graph, f)
        return Path(target)

    return _written(write, path, H)


__all__ = ["DEFAULT_GRAPH_PATH", "save_graph", "load_graph", "export_graph", "TYPE_ATTR"]
