"""``kg export``: the graph for other tools (GraphML, GEXF, node-link JSON, Neo4j's bulk
importer); ``kg export html`` is :mod:`kg.cli.html_cmds`."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli import main
from kg.cli.core import (
    echo_json,
    graph_argument,
    graph_option,
    json_option,
    load,
    output_option,
)
from kg.store.file import DEFAULT_GRAPH_PATH


@main.group()
def export() -> None:
    """Export the graph for other tools (GraphML, GEXF, interactive HTML).

    \b
    Example:
      kg export graphml -o exports/graph.graphml     # Gephi, Cytoscape, yEd
    """


def _export_command(fmt: str) -> None:
    @export.command(
        name=fmt,
        help=f"Write the graph as {fmt.upper()} (list properties joined by '; ').\n\n"
        f"\b\nExample:\n  kg export {fmt} -o exports/graph.{fmt}",
    )
    @graph_argument
    @output_option(DEFAULT_GRAPH_PATH.with_suffix(f".{fmt}"))
    def command(graph_path: Path, output: Path) -> None:
        from kg.store.file import export_graph

        click.echo(f"Wrote {export_graph(load(graph_path), output, fmt)}")


for _fmt in ("graphml", "gexf"):
    _export_command(_fmt)


@export.command(name="json")
@graph_argument
@output_option(DEFAULT_GRAPH_PATH, "The graph file to write (node-link JSON).")
def export_json(graph_path: Path, output: Path) -> None:
    """Write the graph as the node-link JSON graph file: from a store (.db), the file a JSON
    build of the same corpus writes, byte for byte.

    \b
    Example:
      kg export json exports/graph.db -o exports/graph.json
    """
    from kg.store.file import convert_graph

    click.echo(f"Wrote {convert_graph(graph_path, output)}")


@export.command(name="neo4j-import")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@graph_option
@click.option("--force", is_flag=True, help="Replace DIRECTORY if it is not empty.")
@click.option(
    "--database",
    default="neo4j",
    show_default=True,
    help="The database named in the printed neo4j-admin command.",
)
@json_option
def neo4j_import(
    directory: Path, graph_path: Path, force: bool, database: str, as_json: bool
) -> None:
    """Write the CSV files of Neo4j's bulk importer (neo4j-admin database import full).

    For big graphs: the importer builds a fresh database offline, much faster than `kg load`.
    After DIRECTORY/after-import.cypher has run once (kg load's constraints and indexes,
    and the empty lists CSV cannot hold), the database holds what `kg load` writes,
    so `kg query` and `kg related --backend neo4j` work the same. The command prints the
    exact neo4j-admin command line. DIRECTORY appears complete or not at all.

    \b
    Example:
      kg export neo4j-import exports/neo4j-import
      neo4j stop                       # the importer needs the server stopped
      neo4j-admin database import full neo4j ...   # as printed (+ --overwrite-destination)
      neo4j start
      cypher-shell -f exports/neo4j-import/after-import.cypher
    """
    from kg.store.neo4j_import import write_neo4j_import

    result = write_neo4j_import(load(graph_path), directory, force=force)
    if as_json:
        echo_json({"graph": str(graph_path), **result.to_dict(database)})
        return
    nodes, rels = result.nodes, result.rels
    click.echo(f"Wrote {directory}: {len(result.files)} CSV files and after-import.cypher "
               f"in {result.seconds:.1f}s")
    click.echo("  nodes:         " + ", ".join(f"{k} {v}" for k, v in nodes.items())
               + f"  (total {sum(nodes.values())})")
    click.echo("  relationships: " + ", ".join(f"{k} {v}" for k, v in rels.items())
               + f"  (total {sum(rels.values())})")
    click.echo("\nWith the Neo4j server stopped, run:\n\n  " + result.command(database) + "\n")
    click.echo(f"The database {database!r} must be new: if a server has ever run it, add\n"
               "--overwrite-destination=true, which DELETES it first. "
               + (f"Then CREATE DATABASE {database} (Enterprise). " if database != "neo4j"
                  else "")
               + "Start the server and run once\n(constraints, indexes, empty lists):"
               f"\n\n  cypher-shell -f {result.after_import.resolve()}")
