"""kg's picture as a pyvis network, for notebooks: ``kg.html.to_pyvis(G, focus=...)``.

The nodes and links are the ones ``kg export html`` draws (the same selection,
:func:`kg.html.subgraph.select`, and the same styling data, :func:`kg.html.render.graph_data`:
shapes, colours, sizes, shortened labels, hover details); what comes back is a plain
:class:`pyvis.network.Network`, so ``net.show("graph.html")``, ``notebook=True``,
``net.show_buttons()`` and the rest of pyvis work as usual.

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> G.add_node("paper:1", label="Paper", name="<b>MetaEmbed</b>", title="<b>MetaEmbed</b>")
>>> G.add_node("method:x", label="Method", name="X", paper_count=1)
>>> G.add_edge("paper:1", "method:x", key="USES", type="USES")
'USES'
>>> net = to_pyvis(G)
>>> [(n["id"], n["shape"], n["color"]) for n in net.nodes]
[('method:x', 'diamond', '#f28e2b'), ('paper:1', 'dot', '#4e79a7')]
>>> net.nodes[1]["title"].splitlines()[0]  # hover text is text: vis shows it as written
'<b>MetaEmbed</b>'

Hover text is plain text on purpose. vis-network 9 shows a string ``title`` with
``innerText``, so a name such as ``<img onerror=...>`` is shown, never run. pyvis's own
template switches to an ``innerHTML`` popup for a node whose title contains "href", so
that word gets an invisible word joiner (:func:`tip_text`); and pyvis puts ``heading``
into the page as raw HTML, so a heading given here is escaped.
"""

from __future__ import annotations

import html
import textwrap
from typing import TYPE_CHECKING, Any

from kg.html.render import graph_data
from kg.html.subgraph import Selection, parse_types, select
from kg.schema import Label

if TYPE_CHECKING:  # both are slow imports; pyvis only when a network is made
    import networkx as nx
    from pyvis.network import Network

#: Characters of a hover line before it wraps: vis's tooltip does not wrap (``nowrap``).
TIP_WIDTH = 80
#: The canvas height (pyvis's default is 600px).
DEFAULT_HEIGHT = "750px"
#: "href" in a node's title makes pyvis render every title as HTML: this keeps the word,
#: invisibly split.
_HREF, _HREF_SPLIT = "href", "hre\u2060f"


def tip_text(tip: list[list[str]]) -> str:
    """Hover details (:func:`kg.html.render.graph_data`'s ``tip`` lines) as plain text: one
    line per part, paragraphs wrapped at :data:`TIP_WIDTH`.

    >>> print(tip_text([["h", "MetaEmbed"], ["m", "Method · in 2 papers"]]))
    MetaEmbed
    Method · in 2 papers
    >>> tip_text([["h", '<a href="x">y</a>']])
    '<a hre\\u2060f="x">y</a>'
    """
    lines: list[str] = []
    for kind, text in tip:
        if kind == "p":
            lines.extend(textwrap.wrap(text, TIP_WIDTH, break_on_hyphens=False) or [""])
        else:
            lines.append(text)
    return "\n".join(lines).replace(_HREF, _HREF_SPLIT)


def pyvis_selection(
    G: nx.MultiDiGraph,
    focus: str | None = None,
    *,
    hops: int = 2,
    max_nodes: int | None = None,
    types: str | list[str] | tuple[Label, ...] | None = None,
) -> Selection:
    """The part of ``G`` :func:`to_pyvis` draws: what ``kg export html`` draws with the same
    ``--focus``, ``--depth`` (``hops``), ``--types`` and ``--max-nodes``."""
    from kg.html import resolve_focus  # the package imports this module lazily

    labels = parse_types(types) if not isinstance(types, tuple) else types
    focus_id = resolve_focus(G, focus) if focus is not None else None
    return select(G, focus=focus_id, depth=hops, types=labels, max_nodes=max_nodes)


def to_pyvis(
    G: nx.MultiDiGraph,
    focus: str | None = None,
    *,
    hops: int = 2,
    max_nodes: int | None = None,
    types: str | list[str] | tuple[Label, ...] | None = None,
    notebook: bool = False,
    height: str = DEFAULT_HEIGHT,
    **network_kwargs: Any,
) -> Network:
    """A :class:`pyvis.network.Network` of ``G``, or of the neighbourhood of ``focus`` (a paper
    title, display name or id, or a node id, as ``kg export html --focus`` takes it) up to
    ``hops`` links, styled as kg's HTML page.

    ``max_nodes`` caps the node count, keeping the most connected (``None``: 400 without a
    focus, no cap with one; ``0``: no cap); ``types`` keeps only some entity types
    ("Method,Dataset"; papers always stay). ``notebook`` and ``network_kwargs`` go to
    ``Network`` (``width``, ``bgcolor``, ``select_menu``, ...); links are directed unless
    ``directed=False`` is given. Resources are inlined (``cdn_resources="in_line"``, so the
    page works offline and in notebooks) unless ``cdn_resources`` says otherwise.
    """
    from pyvis.network import Network

    sel = pyvis_selection(G, focus, hops=hops, max_nodes=max_nodes, types=types)
    data = graph_data(G, sel)
    network_kwargs.setdefault("directed", True)
    network_kwargs.setdefault("cdn_resources", "in_line")
    if network_kwargs.get("heading"):
        network_kwargs["heading"] = html.escape(str(network_kwargs["heading"]))
    net = Network(height=height, notebook=notebook, **network_kwargs)
    colour = {"color": net.font_color} if net.font_color else {}
    for n in data["nodes"]:
        font: dict[str, Any] = {"size": 15 if n["type"] == Label.PAPER.value else 12}
        options: dict[str, Any] = {
            "title": tip_text(n["tip"]),
            "size": n["size"],
            "kg_type": n["type"],
            "kg_name": n["name"],
        }
        if n.get("focus"):
            options.update(borderWidth=4, size=max(n["size"], 30))
            font = {"size": 18, "bold": True}
        net.add_node(n["id"], label=n["label"], shape=n["shape"], color=n["color"], **options)
        # After add_node, which would replace the font with {"color": font_color} if given one.
        net.node_map[n["id"]]["font"] = {**font, **colour}
    for e in data["edges"]:
        net.add_edge(
            e["from"],
            e["to"],
            id=e["id"],
            title=tip_text(e["tip"]),
            color=e["color"],
            width=e["width"],
            kg_type=e["type"],
        )
    # kg's page lays the graph out with forceAtlas2 (kg/html/app.js); pyvis's barnesHut
    # default packs a bipartite paper-entity graph into a hairball.
    net.force_atlas_2based(
        gravity=-45, central_gravity=0.012, spring_length=80, spring_strength=0.08, overlap=0.3
    )
    return net


__all__ = ["DEFAULT_HEIGHT", "TIP_WIDTH", "pyvis_selection", "tip_text", "to_pyvis"]
