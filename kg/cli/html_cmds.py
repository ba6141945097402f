"""``kg export html``: the interactive offline picture of the graph (see :mod:`kg.html`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.core import export, graph_argument, output_option
from kg.html import DEFAULT_HTML_PATH, DEFAULT_MAX_NODES, export_html, left_out_note
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
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
def html_command(
    graph_path: Path,
    output: Path,
    focus: str | None,
    depth: int,
    types: str | None,
    max_nodes: int | None,
    as_json: bool,
) -> None:
    """Write an interactive HTML view of the graph that works offline.

    One self-contained file: open it in a browser by double-clicking. Hover nodes and links
    for details, search by name, tick node types on and off in the legend.

    \b
    Examples:
      kg export html                                  # exports/graph.json -> exports/graph.html
      kg export html --focus MetaEmbed --depth 1 -o exports/metaembed.html
      kg export html --types Method,Dataset --max-nodes 800
    """
    result = export_html(
        load_graph(graph_path), output, focus=focus, depth=depth, types=types, max_nodes=max_nodes
    )
    sel = result.selection
    note = left_out_note(sel) if not focus or sel.capped else None
    if note:
        click.echo(note, err=True)
    if focus and result.nodes > LARGE_FOCUS and max_nodes is None:
        click.echo(
            f"note: {result.nodes:,} nodes around the focus; --depth 1 or --max-nodes N "
            "gives a lighter page",
            err=True,
        )
    if as_json:
        click.echo(
            json.dumps(
                {
                    "path": str(result.path),
                    "nodes": result.nodes,
                    "edges": result.edges,
                    "focus": sel.focus,
                    "omitted_nodes": sel.omitted_nodes,
                    "omitted_edges": sel.omitted_edges,
                },
                indent=2,
            )
        )
    else:
        click.echo(f"Wrote {result.path} ({result.nodes:,} nodes, {result.edges:,} links)")
