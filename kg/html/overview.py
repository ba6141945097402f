"""The topic overview page: ``kg export html --overview``, and what ``kg export html`` writes
when the graph is over the node cap.

A conference graph capped to its 400 most connected nodes is a tangle around its broadest
entities. The overview draws the :mod:`topics <kg.graph.topics>` instead: one node per topic,
sized by its papers, linked to the topics it shares most with, its top entities on hover.

Clicking a topic opens a panel *in the page* with its papers and most specific entities. One
file, as every kg page is: it opens by double-click, offline, it can be mailed or attached, and
nothing beside it can go stale or missing. A per-topic page would draw each topic's subgraph,
but a folder of 40 pages is a heavier thing to hand around, and a topic's papers are what a
newcomer reads next (``kg export html --focus TITLE`` draws any one of them).

A graph file without Topic nodes (from before topics) gets them on the fly
(:func:`kg.graph.topics.add_topics`). Graph text reaches the page as JSON and is put in with
``textContent`` only, as on the other page (:mod:`kg.html.render`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.atomic import write_text
from kg.graph.topic_names import OTHER_NAME, distinct, readable_name, specific_entities
from kg.graph.topics import grouping_limit, paper_entities
from kg.html.render import EXCERPT_MAX, SHAPE_SYMBOL, render_page, shorten, topic_tip
from kg.query.related import entity_weight
from kg.schema import KEY, LABEL_ATTR, NAME, NODE_STYLE, TYPE_ATTR, Label, TopicRel

if TYPE_CHECKING:  # networkx is imported where a graph is made (a slow import)
    import networkx as nx

#: Each topic is drawn linked to the topics it shares most with, this many of them.
LINKS_PER_TOPIC = 3
SHARED_SHOWN = 6  # shared entities a link's tooltip names
PANEL_ENTITIES = 15  # specific entities a topic's panel lists
#: The page's name for a link between two topics (not a graph relationship type).
SHARES = "SHARES"
SHARES_COLOR = "#9fb8b6"
#: A topic is a box with its name inside, the label's size growing with its papers (so the
#: box's area does too): the layout then keeps names apart, which it does not do for labels
#: drawn beside a node.
SHAPE = "box"
MIN_FONT, MAX_FONT = 16, 32  # label size of the smallest and of the largest topic
LINE_MAX = 34  # characters of a line of a topic's label ("Multimodal Large Language Models")

_PAPER, _TOPIC, _IN_TOPIC = Label.PAPER.value, Label.TOPIC.value, TopicRel.IN_TOPIC.value


@dataclass
class OverviewResult:
    """What :func:`export_overview` wrote."""

    path: Path
    topics: int
    links: int
    papers: int
    total_nodes: int
    computed: bool  # the graph had no Topic nodes: they were made for the page


def has_topics(data: dict[str, Any]) -> bool:
    """Whether node-link ``data`` has Topic nodes."""
    return any(n.get(LABEL_ATTR) == _TOPIC for n in data["nodes"])


def with_topics(data: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """``data`` with its topics: as it is if it has them, else a copy that has them made
    (the second value says which)."""
    if has_topics(data):
        return data, False
    from kg.graph.topics import add_topics

    # New lists: add_topics extends and sorts them in place (it changes no node).
    copy = {**data, "nodes": list(data["nodes"]), "links": list(data["links"])}
    add_topics(copy)
    return copy, True


def real_topics(data: dict[str, Any]) -> int:
    """How many topics ``data`` has besides "other"."""
    return sum(
        1 for n in data["nodes"] if n.get(LABEL_ATTR) == _TOPIC and n.get(NAME) != OTHER_NAME
    )


def _label(name: str, size: int) -> str:
    # One line per part of the name ("A · B · C"), each short enough to read, and the size.
    parts = [shorten(part, LINE_MAX) for part in name.split(" · ")[:3]]
    return "\n".join([*parts, f"({size:,} paper{'s' * (size != 1)})"])


def _font(size: int, largest: int) -> int:
    # The box's sides grow with the font: its area, with the papers (a square root).
    return round(MIN_FONT + (MAX_FONT - MIN_FONT) * math.sqrt(size / max(largest, 1)))


def _topic_tip(topic: dict[str, Any]) -> list[list[str]]:
    return [*topic_tip(topic), ["m", "Click for its papers and entities"]]


def _url(value: Any) -> str:
    # Only a web address becomes a link: never "javascript:" or any other scheme.
    text = str(value or "").strip()
    return text if text.lower().startswith(("https://", "http://")) else ""


def topic_links(
    members: dict[str, list[str]],
    entities_of: dict[str, list[str]],
    nodes: dict[str, dict[str, Any]],
    corpus: int,
) -> list[tuple[str, str, float, list[str], int]]:
    """The links drawn between topics: ``(a, b, strength, shared entity ids, how many)``.

    What two topics share is summed over their entities as ``kg related`` weighs a shared
    entity, times the papers of the smaller side that link it, over the geometric mean of the
    two sizes (a large topic shares something with everyone). Entities too broad to group
    papers (:func:`~kg.graph.topics.grouping_limit`) link no topics either. Each topic keeps
    its :data:`LINKS_PER_TOPIC` strongest links.
    """
    limit = grouping_limit(corpus)
    per_entity: dict[str, Counter[str]] = {}
    for t, papers in members.items():
        for p in papers:
            for e in entities_of.get(p, ()):
                per_entity.setdefault(e, Counter())[t] += 1
    shared: dict[tuple[str, str], float] = {}
    why: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for e in sorted(per_entity):
        by_topic = per_entity[e]
        pc = int(nodes[e].get("paper_count") or sum(by_topic.values()))
        if len(by_topic) < 2 or pc > limit:
            continue
        w = entity_weight(str(nodes[e][LABEL_ATTR]), pc)
        ts = sorted(by_topic)
        for i, a in enumerate(ts):
            for b in ts[i + 1 :]:
                part = w * min(by_topic[a], by_topic[b])
                shared[(a, b)] = shared.get((a, b), 0.0) + part
                why.setdefault((a, b), []).append((part, e))
    size = {t: len(ps) for t, ps in members.items()}
    strength = {ab: s / math.sqrt(size[ab[0]] * size[ab[1]]) for ab, s in shared.items()}
    best: dict[str, list[tuple[float, tuple[str, str]]]] = {}
    for ab, s in strength.items():
        for t in ab:
            best.setdefault(t, []).append((s, ab))
    kept: set[tuple[str, str]] = set()
    for t in sorted(best):
        kept.update(ab for _, ab in sorted(best[t], key=lambda x: (-x[0], x[1]))[:LINKS_PER_TOPIC])
    out = []
    for ab in sorted(kept):
        reasons = [e for _, e in sorted(why[ab], key=lambda x: (-x[0], x[1]))]
        out.append((ab[0], ab[1], round(strength[ab], 6), reasons, len(reasons)))
    return out


def overview_data(data: dict[str, Any]) -> dict[str, Any]:
    """The page data of the overview of node-link ``data`` (which must have topics: see
    :func:`with_topics`): topic nodes, the links between them, the legend and, per topic, its
    papers and entities for the panel."""
    nodes = {n[KEY]: n for n in data["nodes"]}
    members: dict[str, list[str]] = {}
    for e in data["links"]:
        if e.get(TYPE_ATTR) == _IN_TOPIC:
            members.setdefault(e["target"], []).append(e["source"])
    topics = sorted(
        (n for n in data["nodes"] if n.get(LABEL_ATTR) == _TOPIC),
        key=lambda n: (str(n.get(NAME)) == OTHER_NAME, -int(n.get("size") or 0), n[KEY]),
    )
    corpus = sum(1 for n in data["nodes"] if n.get(LABEL_ATTR) == _PAPER)
    entities_of = paper_entities(data["links"], nodes)
    style = NODE_STYLE[Label.TOPIC]
    largest = max((int(t.get("size") or 0) for t in topics), default=1)
    page_nodes, panels = [], {}
    for t in topics:
        tid, name = t[KEY], str(t.get(NAME, ""))
        size = int(t.get("size") or len(members.get(tid, [])))
        page_nodes.append(
            {
                "id": tid,
                "label": _label(name, size),
                "name": name,
                "type": _TOPIC,
                "shape": SHAPE,
                "color": "#c9c9c9" if name == OTHER_NAME else style["color"],
                "size": size,
                "fontSize": _font(size, largest),
                "tip": _topic_tip(t),
            }
        )
        panels[tid] = _panel(t, members.get(tid, []), entities_of, nodes, corpus)
    page_edges = []
    named = {t[KEY] for t in topics if t.get(NAME) != OTHER_NAME}
    links = topic_links(
        {t: ps for t, ps in members.items() if t in named}, entities_of, nodes, corpus
    )
    top = max((s for _, _, s, _, _ in links), default=1.0) or 1.0
    for a, b, s, reasons, count in links:
        shown = [str(nodes[e].get(NAME, e)) for e in reasons[:SHARED_SHOWN]]
        tip = [
            ["h", f"{nodes[a].get(NAME, a)}  ↔  {nodes[b].get(NAME, b)}"],
            ["p", "Both link: " + ", ".join(shown) + (" …" if count > len(shown) else "")],
            ["m", f"{count:,} shared entit{'ies' if count != 1 else 'y'}"],
        ]
        page_edges.append(
            {
                "id": f"{a}|{SHARES}|{b}",
                "from": a,
                "to": b,
                "type": SHARES,
                "color": SHARES_COLOR,
                "width": round(1 + 7 * s / top, 2),
                "tip": tip,
            }
        )
    legend = [
        {
            "type": _TOPIC,
            "color": style["color"],
            "symbol": SHAPE_SYMBOL.get(style["shape"], "●"),
            "count": len(topics),
            "toggle": False,
        }
    ]
    entity_legend = {
        label.value: {"color": NODE_STYLE[label]["color"],
                      "symbol": SHAPE_SYMBOL.get(NODE_STYLE[label]["shape"], "●")}
        for label in NODE_STYLE
    }  # fmt: skip
    return {
        "nodes": page_nodes,
        "edges": page_edges,
        "legend": legend,
        "edgeLegend": [{"type": "shared entities", "color": SHARES_COLOR}],
        "topics": panels,
        "entityStyle": entity_legend,
        "overview": True,
        "searchPlaceholder": "Find a topic or paper…",
        "maxScale": 0.8,
    }


def _panel(
    topic: dict[str, Any],
    papers: list[str],
    entities_of: dict[str, list[str]],
    nodes: dict[str, dict[str, Any]],
    corpus: int,
) -> dict[str, Any]:
    """What a topic's panel lists: its most specific entities (label, name, papers of the
    topic that link it) and its papers, those that link the most of them first."""
    counts = Counter(e for p in papers for e in entities_of.get(p, ()))
    specific = distinct(specific_entities(counts, max(len(papers), 1), nodes, corpus), nodes)
    shown = specific[:PANEL_ENTITIES]
    rank = {e: len(shown) - i for i, e in enumerate(shown)}

    def paper_key(p: str) -> tuple[float, str]:
        return -sum(rank.get(e, 0) for e in entities_of.get(p, ())), _title(nodes[p])

    rows = []
    for p in sorted(papers, key=paper_key):
        attrs = nodes[p]
        meta = " · ".join(str(x) for x in (attrs.get("venue"), attrs.get("year")) if x)
        excerpt = shorten(attrs.get("abstract") or "", EXCERPT_MAX // 2)
        rows.append([p, _title(attrs), meta, _url(attrs.get("url")), excerpt])
    return {
        "name": str(topic.get(NAME, "")),
        "size": len(papers),
        "entities": [
            [str(nodes[e][LABEL_ATTR]), readable_name(nodes[e], e), counts[e]] for e in shown
        ],
        "papers": rows,
    }


def _title(attrs: dict[str, Any]) -> str:
    return " ".join(str(attrs.get("title") or attrs.get(NAME) or attrs.get(KEY, "")).split())


def summary_line(page: dict[str, Any], papers: int, total_nodes: int) -> str:
    """The header line: what the picture shows of what."""
    n = len(page["nodes"])
    return (
        f"{n:,} topic{'s' * (n != 1)} of {papers:,} papers "
        f"({total_nodes:,} nodes in the graph) · click a topic for its papers"
    )


def topic_data(source: nx.MultiDiGraph | dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The node-link data of ``source`` (a graph, or its data) with topics, and whether they
    had to be made (:func:`with_topics`)."""
    if isinstance(source, dict):
        return with_topics(source)
    from kg.store.file import graph_to_data

    return with_topics(graph_to_data(source))


def drawn_nodes(G: nx.MultiDiGraph) -> int:
    """The nodes the graph page would draw: all but topics."""
    return sum(1 for _, label in G.nodes(data=LABEL_ATTR) if label != _TOPIC)


def overview_for(
    G: nx.MultiDiGraph, overview: bool | None, page_options: bool, cap: int
) -> tuple[dict[str, Any], bool] | None:
    """What ``kg export html`` draws as the overview: ``G``'s node-link data with topics and
    whether they had to be made (:func:`topic_data`), or None for the graph page.

    ``overview`` is the user's ``--overview`` / ``--no-overview`` (None: not said);
    ``page_options``: whether ``--focus``, ``--types`` or ``--max-nodes`` was given. Unasked, a
    graph over the node ``cap`` gets the overview: its most connected nodes would be a tangle
    around the broadest entities. Unless its papers make fewer than two topics.
    """
    if overview is False or (overview is None and (page_options or drawn_nodes(G) <= cap)):
        return None
    data, computed = topic_data(G)
    return (data, computed) if overview or real_topics(data) >= 2 else None


def export_overview(
    source: nx.MultiDiGraph | dict[str, Any],
    path: str | Path,
    *,
    title: str | None = None,
    computed: bool = False,
) -> OverviewResult:
    """Write the topic overview of ``source`` (a graph, or its node-link data) to ``path``.
    ``computed``: the caller made ``source``'s topics (:func:`topic_data`), for the result."""
    data, made = topic_data(source)
    computed = computed or made
    page = overview_data(data)
    papers = sum(1 for n in data["nodes"] if n.get(LABEL_ATTR) == _PAPER)
    total = sum(1 for n in data["nodes"] if n.get(LABEL_ATTR) != _TOPIC)
    title = title or "kg: topics"
    html = render_page(page, title=title, summary=summary_line(page, papers, total))
    written = write_text(path, html)  # atomic: never half a page
    return OverviewResult(
        path=Path(written),
        topics=len(page["nodes"]),
        links=len(page["edges"]),
        papers=papers,
        total_nodes=total,
        computed=computed,
    )
