"""``kg export html``: the interactive offline picture of the graph (see :mod:`kg.html`)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.core import echo_json, graph_argument, output_option
from kg.cli.export_cmds import export
from kg.errors import InputError
from kg.html import DEFAULT_HTML_PATH, DEFAULT_MAX_NODES, export_html, left_out_note
from kg.html.overview import OverviewResult, export_overview, overview_for
from kg.schema import Label
from kg.store.file import load_graph

LARGE_FOCUS = 1500  # a focus export above this many nodes gets a hint about --depth


@export.command(name="html")
@graph_argument
@output_option(DEFAULT_HTML_PATH, "The HTML file to write.")
@click.option(
    "--focus",
    metavar="TITLE",
    help="Only the neighbourhood of this paper (title, display name or id).",
)
@click.option(
    "--depth",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Links from the --focus paper (1: its entities, 2: also their papers).",
)
@click.option(
    "--types",
    metavar="TYPE,...",
    help="Entity types to show, e.g. Method,Dataset (papers always stay).",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(min=0),
    default=None,
    help=f"Keep the N most connected nodes (default {DEFAULT_MAX_NODES} without "
    "--focus, no limit with it; 0 = no limit).",
)
@click.option(
    "--overview/--no-overview",
    default=None,
    help="Draw the topics (sized by papers, linked by what they share; click one for its "
    "papers) instead of papers and entities. Default: the overview when the graph has more "
    f"than {DEFAULT_MAX_NODES} nodes and no --focus, --types or --max-nodes is given.",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
def html_command(
    graph_path: Path,
    output: Path,
    focus: str | None,
    depth: int,
    types: str | None,
    max_nodes: int | None,
    overview: bool | None,
    as_json: bool,
) -> None:
    """Write an interactive HTML view of the graph that works offline.

    One self-contained file: open it in a browser by double-clicking. Hover nodes and links
    for details, search by name, tick node types on and off in the legend. A graph too big
    to draw whole gets the topic overview: its topics, and each topic's papers on a click.

    \b
    Examples:
      kg export html                                  # exports/graph.json -> exports/graph.html
      kg export html --overview -o exports/topics.html
      kg export html --focus MetaEmbed --depth 1 -o exports/metaembed.html
      kg export html --types Method,Dataset --max-nodes 800
    """
    page_options = bool(focus) or types is not None or max_nodes is not None
    if overview and page_options:
        raise InputError("--overview draws topics: it takes no --focus, --types or --max-nodes")
    G = load_graph(graph_path)
    chosen = overview_for(G, overview, page_options, DEFAULT_MAX_NODES)
    if chosen is not None:
        data, computed = chosen
        done = export_overview(data, output, computed=computed)
        _overview_report(done, auto=overview is None, as_json=as_json)
        return
    # Topics are the overview's (kg.html.subgraph.PAGE_LABELS); --types Topic draws them.
    result = export_html(G, output, focus=focus, depth=depth, types=types, max_nodes=max_nodes)
    sel = result.selection
    note = left_out_note(sel) if not focus or sel.capped else None
    topics = sel.omitted_nodes.get(Label.TOPIC.value, 0)
    if note and topics and set(sel.omitted_nodes) == {Label.TOPIC.value} and not sel.capped:
        note = f"note: the {topics} topics are drawn by `kg export html --overview`"
    if note:
        click.echo(note, err=True)
    if focus and result.nodes > LARGE_FOCUS and max_nodes is None:
        click.echo(
            f"note: {result.nodes:,} nodes around the focus; --depth 1 or --max-nodes N "
            "gives a lighter page",
            err=True,
        )
    if as_json:
        echo_json(
            {
                "path": str(result.path),
                "overview": False,
                "nodes": result.nodes,
                "edges": result.edges,
                "focus": sel.focus,
                "omitted_nodes": sel.omitted_nodes,
                "omitted_edges": sel.omitted_edges,
            }
        )
    else:
        click.echo(f"Wrote {result.path} ({result.nodes:,} nodes, {result.edges:,} links)")


def _overview_report(result: OverviewResult, auto: bool, as_json: bool) -> None:
    if auto:
        click.echo(
            f"note: {result.total_nodes:,} nodes is over the {DEFAULT_MAX_NODES}-node cap: drew "
            f"the {result.topics} topics instead (--no-overview: the most connected "
            f"{DEFAULT_MAX_NODES} nodes; --focus TITLE: one paper's neighbourhood)",
            err=True,
        )
    if result.computed:
        click.echo(
            "note: the graph file has no topics (it was built before them): made them for "
            "the page; a new `kg build` keeps them",
            err=True,
        )
    if as_json:
        echo_json(
            {
                "path": str(result.path),
                "overview": True,
                "topics": result.topics,
                "links": result.links,
                "papers": result.papers,
                "topics_computed": result.computed,
            }
        )
    else:
        click.echo(
            f"Wrote {result.path} ({result.topics} topics of {result.papers:,} papers, "
            f"{result.links} links)"
        )
