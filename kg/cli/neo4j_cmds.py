"""Neo4j commands: ``kg load`` and ``kg query list|show|run``; plus the connection options and
helpers that ``kg related --backend neo4j`` (kg/cli/core.py) reuses."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kg.cli import main
from kg.store.file import DEFAULT_GRAPH_PATH
from kg.store.neo4j import DEFAULT_BATCH_SIZE

F = TypeVar("F", bound=Callable[..., Any])

# The driver logs each transient retry as a warning; with no handler configured Python would
# print those to stderr. A failure must read as ONE line (the final Neo4jError), so keep them
# quiet in the CLI.
logging.getLogger("neo4j").addHandler(logging.NullHandler())


def connection_options(func: F) -> F:
    """Add --uri/--user/--password/--database (each also read from its NEO4J_* variable)."""
    options = [
        click.option("--uri", envvar="NEO4J_URI", default="bolt://localhost:7687",
                     show_default=True, help="Neo4j Bolt URI [env NEO4J_URI]."),
        click.option("--user", envvar="NEO4J_USERNAME", default="neo4j", show_default=True,
                     help="Neo4j user [env NEO4J_USERNAME]."),
        click.option("--password", envvar="NEO4J_PASSWORD", default=None,
                     help="Neo4j password [env NEO4J_PASSWORD]; none for a server without auth."),
        click.option("--database", envvar="NEO4J_DATABASE", default=None,
                     help="Database name [env NEO4J_DATABASE; default: the server's default]."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def open_connection(uri: str | None = None, user: str | None = None,
                    password: str | None = None, database: str | None = None,
                    **_ignored: Any) -> Any:
    """An open :class:`kg.store.neo4j.Neo4jConnection` (raises Neo4jError in one line)."""
    from kg.store.neo4j_connection import Neo4jConnection

    return Neo4jConnection.from_env(uri, user, password, database).open()


def related_from_neo4j(
    ctx: click.Context, title: str, k: int, facet: str | None = None
) -> tuple[dict[str, Any], list[Any]]:
    """For ``kg related --backend neo4j``: resolve TITLE in Neo4j and run the Cypher twin.
    Connection options come from the command's params when it has them, else the env."""
    from kg.store.neo4j import find_paper_neo4j, related_papers_neo4j

    with open_connection(**ctx.params) as conn:
        pid, paper = find_paper_neo4j(conn, title)
        return paper, related_papers_neo4j(conn, pid, k, facet)


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


# --------------------------------------------------------------------------- kg load


@main.command()
@click.argument("graph", required=False, default=str(DEFAULT_GRAPH_PATH),
                type=click.Path(dir_okay=False, path_type=Path))
@connection_options
@click.option("--batch-size", type=click.IntRange(1), default=DEFAULT_BATCH_SIZE, show_default=True,
              help="Rows per UNWIND transaction.")
@click.option("--replace", is_flag=True,
              help="First delete every node kg loaded before (other data is left alone).")
@click.option("--sync/--no-sync", default=True, show_default=True,
              help="Remove the nodes, relationships and properties kg loaded before that the "
                   "graph no longer has (other data is left alone); --no-sync only adds and "
                   "updates.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def load(graph: Path, batch_size: int, replace: bool, sync: bool, as_json: bool,
         **conn_opts: Any) -> None:
    """Load a graph file (default exports/graph.json) into Neo4j. Safe to re-run.

    Afterwards kg's part of the database equals the file: what kg loaded before and the file
    no longer has is removed (--no-sync keeps it). Nodes kg did not load, other labels and
    other relationship types are never touched.

    \b
    Example:
      docker compose up -d --wait
      kg load --password kg-dev-password
      kg load exports/graph.json --uri bolt://localhost:7687 --replace
    """
    from kg.store.file import load_graph
    from kg.store.neo4j import load_graph_into_neo4j

    G = load_graph(graph)
    total = G.number_of_nodes() + G.number_of_edges()
    with open_connection(**conn_opts) as conn:
        if as_json:
            summary = load_graph_into_neo4j(G, conn, batch_size=batch_size, replace=replace,
                                            sync=sync)
        else:
            with click.progressbar(length=total, label="Loading", file=sys.stderr,
                                   show_pos=True) as bar:
                summary = load_graph_into_neo4j(G, conn, batch_size=batch_size,
                                                replace=replace, progress=bar.update, sync=sync)
    if as_json:
        _echo_json({"graph": str(graph), **summary.to_dict()})
        return
    where = summary.uri + (f" (database {summary.database})" if summary.database else "")
    click.echo(f"Loaded {graph} into {where} in {summary.seconds:.1f}s "
               f"({total / max(summary.seconds, 1e-9):.0f} rows/s)")
    if summary.deleted:
        click.echo(f"  replaced: removed {summary.deleted} nodes from the previous load")
    if summary.removed:
        click.echo(f"  synced:   removed {summary.removed_nodes} nodes, {summary.removed_rels} "
                   f"relationships and {summary.removed_props} properties the graph no longer has")
    click.echo("  nodes:         " + ", ".join(f"{k} {v}" for k, v in summary.nodes.items())
               + f"  (total {summary.node_count})")
    click.echo("  relationships: " + ", ".join(f"{k} {v}" for k, v in summary.rels.items())
               + f"  (total {summary.rel_count})")


# --------------------------------------------------------------------------- kg query


@main.group()
def query() -> None:
    """Canned Cypher queries: list them, print one for the Neo4j Browser, or run one.

    \b
    Example:
      kg query list
      kg query show papers_on_dataset -p dataset=MMEB
      kg query run methods_for_task -p task="reinforcement learning"
    """


param_option = click.option(
    "-p", "--param", "params", multiple=True, metavar="KEY=VALUE",
    help="A query parameter (repeatable); JSON values like 5 or true are typed.",
)


@query.command("style")
def query_style() -> None:
    """Print kg's style for the Neo4j Browser (GraSS: colours, sizes, captions = name).

    \b
    In the Browser, type :style and paste it, or drop the file on the style panel:
      kg query style > kg.grass
    """
    from kg.query.style import shipped_style

    click.echo(shipped_style(), nl=False)


@query.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def query_list(as_json: bool) -> None:
    """One line per canned query: its name, then what it answers.

    \b
    Example:
      kg query list
    """
    from kg.query.canned import list_queries

    queries = list_queries()
    if as_json:
        _echo_json([{"name": q.name, "answers": q.answers, "params": q.example_params()}
                    for q in queries])
        return
    width = max((len(q.name) for q in queries), default=0)
    for q in queries:
        click.echo(f"{q.name:<{width}}  {q.answers}")


@query.command("show")
@click.argument("name")
@param_option
def query_show(name: str, params: tuple[str, ...]) -> None:
    """Print a query ready to paste into the Neo4j Browser (with its :param lines).

    \b
    Example:
      kg query show shortest_connection -p paper_a=MetaEmbed -p paper_b=GIQA-Bench
    """
    from kg.query.canned import get_query, parse_param_pairs

    click.echo(get_query(name).browser_text(parse_param_pairs(params)), nl=False)


@query.command("run")
@click.argument("name")
@param_option
@connection_options
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
def query_run(name: str, params: tuple[str, ...], as_json: bool, **conn_opts: Any) -> None:
    """Run a canned query against Neo4j; parameters not given take the header's example.

    \b
    Example:
      kg query run papers_on_dataset -p dataset=MMEB
      kg query run most_used_datasets --json
    """
    from kg.query.canned import get_query, parse_param_pairs, run_query

    get_query(name)  # an unknown name fails before connecting
    with open_connection(**conn_opts) as conn:
        result = run_query(conn, name, parse_param_pairs(params))
    if as_json:
        _echo_json(result.to_dict())
        return
    click.echo(f"{result.name} ({', '.join(f'{k}={v!r}' for k, v in result.params.items())})"
               if result.params else result.name)
    for i, row in enumerate(result.rows, 1):
        click.echo(f"{i:>3}. " + " | ".join(_cell(row[c]) for c in result.columns))
    click.echo(f"({len(result.rows)} rows; columns: {', '.join(result.columns)})")


def _cell(value: Any, width: int = 120) -> str:
    if isinstance(value, dict) and "path" in value:
        text = value["path"]
    elif isinstance(value, (list, dict)):
        text = json.dumps(value, ensure_ascii=False, default=str)
    else:
        text = str(value)
    return text if len(text) <= width else text[: width - 1] + "…"
