"""The interactive, offline HTML view of a kg graph (``kg export html``).

>>> from kg.html import DEFAULT_MAX_NODES
>>> DEFAULT_MAX_NODES
400

The page is one self-contained file (vis-network inlined, no CDN), coloured per
``kg.schema.NODE_STYLE`` / ``EDGE_COLOR``, with hover details, a legend with type toggles and a
search box. Without ``--focus`` the graph is capped to its most connected nodes (see
:mod:`kg.html.subgraph`); a focus export is the complete neighbourhood of one paper.

In a notebook, :func:`to_pyvis` (:mod:`kg.html.notebook`) gives the same picture as a
``pyvis.network.Network``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.atomic import write_text
from kg.html.render import render_html
from kg.html.subgraph import DEFAULT_MAX_NODES, Selection, parse_types, select
from kg.schema import Label

if TYPE_CHECKING:  # networkx is imported where a graph is made (a slow import)
    import networkx as nx

    from kg.html.notebook import to_pyvis  # imported on first use: see __getattr__

DEFAULT_HTML_PATH = Path("exports") / "graph.html"


@dataclass
class HtmlResult:
    """What :func:`export_html` wrote."""

    path: Path
    selection: Selection

    @property
    def nodes(self) -> int:
        return self.selection.graph.number_of_nodes()

    @property
    def edges(self) -> int:
        return self.selection.graph.number_of_edges()


def resolve_focus(G: nx.MultiDiGraph, query: str) -> str:
    """A node id for ``--focus``: an exact node id, else the paper matched as in ``kg related``."""
    if query in G:
        return query
    from kg.query.lookup import find_paper  # the lead's matcher (title, display name, fuzzy)

    return find_paper(G, query)


def export_html(
    G: nx.MultiDiGraph,
    path: str | Path = DEFAULT_HTML_PATH,
    *,
    focus: str | None = None,
    depth: int = 2,
    types: str | list[str] | tuple[Label, ...] | None = None,
    max_nodes: int | None = None,
    title: str | None = None,
) -> HtmlResult:
    """Write the interactive page for ``G`` (or part of it) to ``path``.

    ``focus`` is a paper title/display name/id (its neighbourhood up to ``depth`` links, complete
    unless ``max_nodes`` is given); ``types`` limits entity types (papers always stay);
    ``max_nodes`` caps the node count (``None``: :data:`DEFAULT_MAX_NODES` without a focus,
    ``0``: no cap).
    """
    labels = parse_types(types) if not isinstance(types, tuple) else types
    focus_id = resolve_focus(G, focus) if focus is not None else None
    sel = select(G, focus=focus_id, depth=depth, types=labels, max_nodes=max_nodes)
    if title is None:
        if focus_id:
            name = G.nodes[focus_id].get("name") or focus_id
            title = f"kg: {name} (depth {depth})"
        else:
            title = "kg: knowledge graph"
    path = write_text(path, render_html(G, sel, title=title))  # atomic: never half a page
    return HtmlResult(path=path, selection=sel)


def left_out_note(sel: Selection) -> str | None:
    """The stderr note about nodes left out of the picture, or ``None`` when nothing was."""
    if not sel.omitted_total:
        return None
    per_type = ", ".join(f"{label} {count:,}" for label, count in sel.omitted_nodes.items())
    why = (
        f"kept the {sel.graph.number_of_nodes():,} most connected"
        if sel.capped
        else "outside the selection"
    )
    note = (
        f"left out {sel.omitted_total:,} of {sel.total_nodes:,} nodes ({per_type}) and "
        f"{sel.omitted_edges:,} of {sel.total_edges:,} links; {why}"
    )
    if sel.capped:
        note += "; use --max-nodes N (0 = all) or --focus TITLE to see more"
    return note


def __getattr__(name: str) -> Any:
    """``to_pyvis`` (:mod:`kg.html.notebook`), imported on first use: importing ``kg.html``
    imports no pyvis."""
    if name == "to_pyvis":
        from kg.html.notebook import to_pyvis

        return to_pyvis
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_HTML_PATH",
    "DEFAULT_MAX_NODES",
    "HtmlResult",
    "Selection",
    "export_html",
    "left_out_note",
    "parse_types",
    "resolve_focus",
    "select",
    "to_pyvis",
]
