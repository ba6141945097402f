"""``kg trends``: what rose and fell between the years of a graph (see :mod:`kg.query.trends`)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.core import echo_json, graph_option, json_option, load, main
from kg.schema import ENTITY_LABELS


@main.command()
@graph_option
@click.option(
    "--type",
    "label",
    type=click.Choice([lab.value for lab in ENTITY_LABELS]),
    help="Only entities of this type [default: every type].",
)
@click.option(
    "--top", type=click.IntRange(1), default=10, show_default=True, help="How many of each."
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also draw the top movers' shares by year (e.g. trends.svg; needs matplotlib).",
)
@json_option
def trends(graph_path: Path, label: str | None, top: int, plot: Path | None, as_json: bool) -> None:
    """The entities rising and falling between the graph's first and last year, by their share
    of each year's papers (the papers' `year`: from the records, their venue, or
    `kg build --year`).

    \b
    Example:
      kg build ../shared/data/corpora/iclr2018.json --year 2018 iclr2026/ -o both.json
      kg trends --graph both.json --type Method --plot trends.svg
    """
    from kg.query.trends import entity_trends, plot_trends

    found = entity_trends(load(graph_path), label=label, top=top)
    if plot:
        plot_trends(found, str(plot))
    if as_json:
        echo_json(found)
        return
    for side in ("rising", "falling"):
        click.echo(f"{side}:")
        for item in found[side]:
            shares = ", ".join(f"{y} {100 * s:.1f}%" for y, s in item["share"].items())
            click.echo(f"  {item['name']} ({item['type']}): {shares}")
    if plot:
        click.echo(f"Wrote {plot}")
