"""Entities rising and falling between the years of a graph, by their share of each year's papers.

A graph built from several years (``kg build iclr2018.json --year 2018 iclr2026/``) says what a
field took up and left behind: an entity's *share* of a year is the fraction of that year's
papers linked to it, and it rises or falls by the change of its share from the first year of the
graph to the last. Shares, not counts: the 2026 conference has four times the papers of 2018.

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> for pid, year, method in [("a", 2018, "GAN"), ("b", 2018, "GAN"), ("c", 2026, "GRPO"),
...                           ("d", 2026, "GRPO"), ("e", 2026, "GAN")]:
...     G.add_node(pid, label="Paper", year=year)
...     G.add_node(method, label="Method", name=method)
...     _ = G.add_edge(pid, method, key="USES", type="USES")
>>> t = entity_trends(G, min_papers=1)
>>> [(i["name"], i["share"]) for i in t["rising"]]
[('GRPO', {2018: 0.0, 2026: 0.6667})]
>>> [(i["name"], i["counts"]) for i in t["falling"]]
[('GAN', {2018: 2, 2026: 1})]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from kg.errors import KgError
from kg.schema import ENTITY_LABELS, LABEL_ATTR, NAME, Label

#: An entity needs this many papers in its best year to count as a trend: two papers of 4,000
#: are noise.
MIN_PAPERS = 5


class TrendsError(KgError):
    """The graph cannot show trends (fewer than two years)."""


def paper_years(G: Any) -> dict[str, int]:
    """The year of each paper that has one."""
    return {
        n: int(a["year"])
        for n, a in G.nodes(data=True)
        if a.get(LABEL_ATTR) == Label.PAPER.value and a.get("year") is not None
    }


def entity_trends(
    G: Any, label: str | None = None, top: int = 10, min_papers: int = MIN_PAPERS
) -> dict[str, list[dict[str, Any]]]:
    """``{"rising": [...], "falling": [...]}``: the ``top`` entities (of type ``label``, or of
    every entity type) whose share of papers grew or shrank most from the graph's first year
    to its last, each ``{"name", "type", "counts": {year: papers}, "share": {year: share}}``.
    Ties: by name."""
    years_of = paper_years(G)
    years = sorted(set(years_of.values()))
    if len(years) < 2:
        raise TrendsError(
            "the graph has papers of one year or none: build several years together "
            "(kg build --year YEAR for records without one)"
        )
    per_year = Counter(years_of.values())
    wanted = {label} if label else {lab.value for lab in ENTITY_LABELS}
    counts: dict[str, Counter[int]] = defaultdict(Counter)
    for pid, year in years_of.items():
        for entity in set(G.successors(pid)):
            if G.nodes[entity].get(LABEL_ATTR) in wanted:
                counts[entity][year] += 1
    first, last = years[0], years[-1]
    rows = []
    for entity, by_year in counts.items():
        if max(by_year.values()) < min_papers:
            continue
        share = {y: round(by_year[y] / per_year[y], 4) for y in years}
        attrs = G.nodes[entity]
        rows.append(
            {
                "name": attrs.get(NAME, entity),
                "type": attrs.get(LABEL_ATTR),
                "counts": {y: by_year[y] for y in years},
                "share": share,
                "change": share[last] - share[first],
            }
        )
    rising = sorted((r for r in rows if r["change"] > 0), key=lambda r: (-r["change"], r["name"]))
    falling = sorted((r for r in rows if r["change"] < 0), key=lambda r: (r["change"], r["name"]))
    for r in rows:
        del r["change"]
    return {"rising": rising[:top], "falling": falling[:top]}


def plot_trends(trends: dict[str, list[dict[str, Any]]], path: str, top: int = 5) -> None:
    """Draw each top mover's share by year as an SVG (or any format matplotlib knows by the
    file's suffix). Needs matplotlib (the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display: files only
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise KgError(
            'plotting needs matplotlib: pip install "kg[plot]" (or pip install matplotlib)'
        ) from exc
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
    for ax, side in zip(axes, ("rising", "falling"), strict=True):
        for item in trends[side][:top]:
            years = sorted(item["share"])
            ax.plot(
                years,
                [100 * item["share"][y] for y in years],
                marker="o",
                label=f"{item['name']} ({item['type']})",
            )
        ax.set_xticks(sorted({y for item in trends[side] for y in item["share"]}))
        ax.set_title(side)
        ax.set_xlabel("year")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("% of the year's papers")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
