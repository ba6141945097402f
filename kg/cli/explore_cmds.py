"""``kg trends``: what rose and fell between the years of a graph (:mod:`kg.query.trends`);
``kg leaderboard``: the results reported on a benchmark (:mod:`kg.query.results`)."""

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


@main.command()
@click.argument("dataset")
@click.option("--metric", help="Only the boards of metrics whose name contains this (any case).")
@click.option(
    "--relative",
    is_flag=True,
    help="List the improvements reported on it (\"+2.1 points\") instead of levels reached.",
)
@click.option(
    "--limit", type=click.IntRange(1), default=20, show_default=True, help="Rows per metric."
)
@graph_option
@json_option
def leaderboard(
    dataset: str, metric: str | None, relative: bool, limit: int, graph_path: Path, as_json: bool
) -> None:
    """The results papers report on DATASET, one board per metric, best first (higher is better
    unless the metric is an error, loss, perplexity, FID, latency ...), each with its paper and
    sentence. Results come from the abstracts' own sentences ("achieves 85.3% top-1 accuracy
    on ImageNet"): settings and models differ between papers, so read the sentence.

    \b
    Example:
      kg leaderboard GSM8K
      kg leaderboard ImageNet --metric top-1 --json
    """
    from kg.query.results import leaderboard as board_of

    found = board_of(load(graph_path), dataset, metric=metric, relative=relative, limit=limit)
    if as_json:
        echo_json(found)
        return
    if not found["boards"]:
        kind = "improvements" if relative else "results"
        click.echo(f"No {kind} on {found['dataset']['name']} (try --relative).")
    for board in found["boards"]:
        direction = "higher" if board["higher_is_better"] else "lower"
        n = board["results"]
        click.echo(f"{found['dataset']['name']} · {board['metric'] or 'no metric named'}"
                   f"  ({n} result{'' if n == 1 else 's'}; {direction} is better)")  # fmt: skip
        for row in board["rows"]:
            method = f"  {row['method']}" if row["method"] else ""
            click.echo(f"  {row['rank']:>3}. {row['value']:<10}{method}  — {row['paper_name']}")
            click.echo(f'       "{row["evidence"]}"')
