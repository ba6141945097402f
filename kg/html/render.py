"""Turn a selected subgraph into ONE self-contained, offline HTML page.

pyvis 0.3.2's template links bootstrap, tom-select and (even with ``cdn_resources="in_line"``)
vis-network from CDNs, so a double-clicked file on a machine without internet shows nothing. We
keep pyvis's bundled vis-network 9.1.2 build (``pyvis/templates/lib``; dual Apache-2.0/MIT
licence, its header comment with the copyright is kept inline) but use our own small template:
every script and stylesheet is inlined, and the search box and type filters are plain HTML.

Escaping: graph text (titles may contain ``<``, ``&``, quotes) travels as JSON inside a
``<script type="application/json">`` block with ``<``, ``>``, ``&`` and U+2028/9 escaped, and the
page builds tooltips with ``textContent``, so no graph text is ever parsed as HTML.
"""

from __future__ import annotations

import html
import json
import math
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

from kg.html.subgraph import Selection
from kg.schema import (
    EDGE_COLOR,
    ENTITY_LABELS,
    LABEL_ATTR,
    NAME,
    NODE_STYLE,
    REL_TYPES,
    TYPE_ATTR,
    Label,
)

if TYPE_CHECKING:  # networkx is imported where a graph is made (a slow import)
    import networkx as nx

VIS_VERSION = "9.1.2"
LABEL_MAX = 28  # characters of a node label before it is shortened with "…"
EXCERPT_MAX = 320  # characters of abstract / evidence shown in a tooltip
#: Unicode look-alikes of the vis shapes, for the legend.
SHAPE_SYMBOL = {
    "dot": "●", "diamond": "◆", "triangle": "▲", "square": "■", "star": "★", "box": "▬",
    "hexagon": "⬢",
}  # fmt: skip
_LABELS = {label.value: label for label in Label}
_RELS = REL_TYPES
#: Every kind of node, in the legend's order: papers, what they name, results and topics.
LEGEND_LABELS: tuple[Label, ...] = (
    Label.PAPER,
    *ENTITY_LABELS,
    *(label for label in Label if label is not Label.PAPER and label not in ENTITY_LABELS),
)
_UNKNOWN_STYLE = {"color": "#777777", "shape": "dot"}


def _asset(package: str, *parts: str) -> str:
    return resources.files(package).joinpath(*parts).read_text(encoding="utf-8")


def vis_assets() -> tuple[str, str]:
    """The vis-network standalone JS and CSS shipped inside the pyvis package."""
    base = ("templates", "lib", f"vis-{VIS_VERSION}")
    return _asset("pyvis", *base, "vis-network.min.js"), _asset("pyvis", *base, "vis-network.css")


def shorten(text: str, limit: int) -> str:
    """Cut ``text`` at a word boundary to at most ``limit`` characters, adding "…".

    >>> shorten("Dense retrieval with late interaction", 20)
    'Dense retrieval…'
    """
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,.;:") + "…"


def _node_size(degree: int) -> float:
    # Degrees are heavy-tailed (a broad concept links to very many papers): grow with the log.
    return round(min(8 + 4 * math.log2(1 + degree), 50), 1)


def _paper_tip(attrs: dict[str, Any], degree: int) -> list[list[str]]:
    title = attrs.get("title") or attrs.get(NAME) or attrs.get("id", "")
    meta = " · ".join(
        str(x) for x in (Label.PAPER.value, attrs.get("venue"), attrs.get("year")) if x
    )
    tip = [["h", str(title)], ["m", meta]]
    if attrs.get("primary_area"):
        tip.append(["m", str(attrs["primary_area"])])
    authors = attrs.get("authors") or []
    if authors:
        shown = ", ".join(authors[:4]) + (" et al." if len(authors) > 4 else "")
        tip.append(["m", shown])
    if attrs.get("abstract"):
        tip.append(["p", shorten(attrs["abstract"], EXCERPT_MAX)])
    tip.append(["m", f"{degree} linked entities"])
    return tip


def _entity_tip(attrs: dict[str, Any], label: str) -> list[list[str]]:
    count = attrs.get("paper_count")
    meta = label if count is None else f"{label} · in {count} paper{'s' if count != 1 else ''}"
    tip = [["h", str(attrs.get(NAME, attrs.get("id", "")))], ["m", meta]]
    name = str(attrs.get(NAME, "")).lower()
    aliases = [a for a in attrs.get("aliases") or [] if str(a).lower() != name]
    if aliases:
        more = f" (+{len(aliases) - 8} more)" if len(aliases) > 8 else ""
        tip.append(["p", "Also: " + "; ".join(str(a) for a in aliases[:8]) + more])
    return tip


def topic_tip(attrs: dict[str, Any]) -> list[list[str]]:
    """A Topic node's tooltip: its name, its size and its top entities
    (:mod:`kg.graph.topics`)."""
    size = int(attrs.get("size") or 0)
    tip = [["h", str(attrs.get(NAME, ""))], ["m", f"Topic · {size:,} paper{'s' * (size != 1)}"]]
    for key, what in (("top_methods", "Methods"), ("top_tasks", "Tasks"),
                      ("top_datasets", "Datasets")):  # fmt: skip
        names = [str(x) for x in attrs.get(key) or []]
        if names:
            tip.append(["p", f"{what}: " + ", ".join(names)])
    return tip


def _node_tip(attrs: dict[str, Any], label: str, degree: int) -> list[list[str]]:
    if label == Label.PAPER.value:
        return _paper_tip(attrs, degree)
    if label == Label.TOPIC.value:
        return topic_tip(attrs)
    return _entity_tip(attrs, label)


def _edge_tip(G: nx.MultiDiGraph, u: str, v: str, attrs: dict[str, Any], rel: str) -> list:
    tip = [["h", f"{G.nodes[u].get(NAME, u)} —{rel}→ {G.nodes[v].get(NAME, v)}"]]
    evidence = attrs.get("evidence")
    # An entity→entity link keeps a few papers' sentences (a list): the first one is shown.
    first = evidence[0] if isinstance(evidence, list) and evidence else evidence
    if first:
        tip.append(["p", "“" + shorten(first, EXCERPT_MAX) + "”"])
    bits = []
    if attrs.get("confidence") is not None:
        bits.append(f"confidence {float(attrs['confidence']):.2f}")
    if attrs.get("count"):
        bits.append(f"{attrs['count']} mention{'s' if attrs['count'] != 1 else ''}")
    if attrs.get("papers"):
        bits.append(f"{len(attrs['papers'])} paper{'s' if len(attrs['papers']) != 1 else ''}")
    if bits:
        tip.append(["m", " · ".join(bits)])
    return tip


def graph_data(G: nx.MultiDiGraph, sel: Selection) -> dict[str, Any]:
    """The nodes, edges and legend the page draws (plain JSON-able data)."""
    sub = sel.graph
    nodes = []
    for n in sorted(sub.nodes):
        attrs = G.nodes[n]
        label = str(attrs.get(LABEL_ATTR, ""))
        style = NODE_STYLE.get(_LABELS.get(label), _UNKNOWN_STYLE)  # type: ignore[arg-type]
        degree = G.degree(n)
        name = str(attrs.get(NAME) or attrs.get("display_name") or n)
        node = {
            "id": n,
            "label": shorten(name, LABEL_MAX),
            "name": name,
            "type": label,
            "shape": style["shape"],
            "color": style["color"],
            "size": _node_size(degree),
            "tip": _node_tip(attrs, label, degree),
        }
        if n == sel.focus:
            node["focus"] = True
        nodes.append(node)
    edges = []
    for u, v, key, attrs in sorted(sub.edges(keys=True, data=True), key=lambda e: e[:3]):
        rel = str(attrs.get(TYPE_ATTR, key))
        color = EDGE_COLOR.get(_RELS.get(rel), "#999999")  # type: ignore[arg-type]
        edges.append(
            {
                "id": f"{u}|{rel}|{v}",
                "from": u,
                "to": v,
                "type": rel,
                "color": color,
                "width": 1 + min(int(attrs.get("count") or 1), 5) * 0.4,
                "tip": _edge_tip(G, u, v, attrs, rel),
            }
        )
    shown = {lab.value: 0 for lab in LEGEND_LABELS}
    for node in nodes:
        shown[node["type"]] = shown.get(node["type"], 0) + 1
    legend = [
        {
            "type": lab.value,
            "color": NODE_STYLE[lab]["color"],
            "symbol": SHAPE_SYMBOL.get(NODE_STYLE[lab]["shape"], "●"),
            "count": shown.get(lab.value, 0),
            "toggle": lab is not Label.PAPER,
        }
        for lab in LEGEND_LABELS
    ]
    edge_legend = [{"type": r.value, "color": c} for r, c in EDGE_COLOR.items()]
    return {"nodes": nodes, "edges": edges, "legend": legend, "edgeLegend": edge_legend}


def _json_for_script(data: Any) -> str:
    # Safe inside <script>: no "</script>", "<!--" or HTML entity can be formed from the data.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def summary_line(sel: Selection) -> str:
    """One line for the page header: what is shown out of what."""
    sub = sel.graph
    line = f"{sub.number_of_nodes():,} nodes, {sub.number_of_edges():,} links"
    if sel.omitted_total:
        line += f" (of {sel.total_nodes:,} nodes, {sel.total_edges:,} links"
        line += "; the most connected are shown)" if sel.capped else ")"
    return line


def render_html(G: nx.MultiDiGraph, sel: Selection, *, title: str) -> str:
    """The complete page as a string."""
    return render_page(graph_data(G, sel), title=title, summary=summary_line(sel))


def render_page(data: dict[str, Any], *, title: str, summary: str) -> str:
    """A complete page drawing ``data`` (:func:`graph_data`'s shape; with ``overview`` set,
    the topic overview of :mod:`kg.html.overview`, whose script it adds)."""
    vis_js, vis_css = vis_assets()
    data = {**data, "summary": summary, "title": title}
    # vis's "improvedLayout" (Kamada-Kawai seeding) is quadratic: fine for small graphs only.
    data["improvedLayout"] = len(data["nodes"]) <= 150
    pieces = {
        "TITLE": html.escape(title),
        "SUMMARY": html.escape(summary),
        "VIS_CSS": vis_css,
        "APP_CSS": _asset("kg.html", "app.css"),
        "VIS_JS": vis_js,
        "APP_JS": _asset("kg.html", "app.js"),
        # The overview's own script (kg.html.overview); the graph page has none.
        "PAGE_SCRIPT": f"<script>\n{_asset('kg.html', 'overview.js')}\n</script>"
        if data.get("overview")
        else "",
        "DATA": _json_for_script(data),
    }
    template = _asset("kg.html", "template.html")
    # One pass, so text inserted for one marker is never scanned for another.
    return re.sub(r"@@([A-Z_]+)@@", lambda m: pieces[m.group(1)], template)
