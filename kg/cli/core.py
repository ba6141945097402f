"""The core commands: build, related, show, stats, extract (export: :mod:`kg.cli.export_cmds`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from kg.cli import main
from kg.cli.neo4j_cmds import connection_options
from kg.store.file import DEFAULT_GRAPH_PATH

graph_option = click.option(
    "--graph",
    "graph_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_GRAPH_PATH,
    show_default=True,
    help="The graph file written by `kg build`.",
)


def output_option(default: Path, help: str | None = None) -> Any:
    """``-o/--output FILE`` with a default, for the commands that write a file."""
    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, path_type=Path),
        default=default,
        show_default=True,
        help=help,
    )


#: An optional GRAPH argument (the file `kg build` wrote) for commands that export or load it.
graph_argument = click.argument(
    "graph_path",
    required=False,
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_GRAPH_PATH,
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
model_option = click.option(
    "--model",
    default=None,
    envvar="KG_SPACY_MODEL",
    help="spaCy base model name or path [env KG_SPACY_MODEL; default en_core_web_sm].",
)


def cache_dir_option(help: str) -> Any:
    """``--cache-dir DIR`` (env ``KG_CACHE_DIR``) for the commands that use kg's cache folder."""
    return click.option(
        "--cache-dir",
        type=click.Path(file_okay=False, path_type=Path),
        envvar="KG_CACHE_DIR",
        default=None,
        help=help,
    )


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def progress_bar(label: str) -> Callable[[int], Callable[[int], None]]:
    """A progress factory for library calls: shows a bar on a terminal, stays quiet otherwise."""

    def start(total: int) -> Callable[[int], None]:
        bar = click.progressbar(
            length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True
        )
        bar.__enter__()
        state = {"done": 0}

        def tick(n: int) -> None:
            state["done"] += n
            bar.update(n)
            if state["done"] >= total:
                bar.__exit__(None, None, None)

        return tick

    return start


def load(graph_path: Path) -> Any:
    from kg.store.file import load_graph

    return load_graph(graph_path)


def report_problems(problems: list[Any], limit: int = 20) -> None:
    for p in problems[:limit]:
        click.echo(f"skipped {p}", err=True)
    if len(problems) > limit:
        click.echo(f"... and {len(problems) - limit} more skipped records", err=True)


# --------------------------------------------------------------------------- build


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@output_option(
    DEFAULT_GRAPH_PATH,
    "Where to write the graph: a node-link JSON file, or with .db an SQLite store that the "
    "other commands read a node at a time (for big corpora).",
)
@click.option("--strict", is_flag=True, help="Fail on the first bad record instead of skipping it.")
@cache_dir_option(
    "Cache folder: extractions, cleaned records, word counts and entity resolution, "
    "by content, so a rebuild redoes only what changed [env KG_CACHE_DIR; default: your "
    "cache folder]."
)
@click.option(
    "--no-cache", is_flag=True, help="Ignore the cache: a cold build, every abstract extracted."
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(0, 16),
    default=0,
    help="Extraction processes [default 0: one per CPU, up to 4, for 400+ papers].",
)
@click.option(
    "--keywords/--no-keywords",
    default=True,
    show_default=True,
    help="Link each paper to its authors' keywords (records with a keywords field), as links "
    "of their own evidence kind; --no-keywords keeps only what the text says.",
)
@click.option(
    "--year",
    type=click.IntRange(1800, 2099),
    help="The year of the papers whose record gives none (no year field, no year in the venue).",
)
@click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    envvar="KG_DASK_SCHEDULER",
    default=None,
    help="Extract on the Dask cluster whose scheduler is at ADDRESS, e.g. "
    "--dask tcp://10.0.0.5:8786; everything else runs here, for the same graph. Every worker "
    "needs pip install 'kg[dask]' of this kg version [env KG_DASK_SCHEDULER].",
)
@model_option
@json_option
def build(
    inputs: tuple[Path, ...],
    output: Path,
    strict: bool,
    cache_dir: Path | None,
    no_cache: bool,
    jobs: int,
    keywords: bool,
    year: int | None,
    dask_address: str | None,
    model: str | None,
    as_json: bool,
) -> None:
    """Build the knowledge graph from abstracts.

    INPUTS are files (.txt abstracts separated by blank lines, .csv, .json, .jsonl) or folders
    (read recursively). Bad records are reported as FILE:LINE and skipped.

    \b
    Example:
      kg build seeds/ -o exports/graph.json
      kg build ../shared/data/corpora/iclr2026-alickzhu/ --jobs 2
      kg build corpus/ --dask tcp://10.0.0.5:8786   # extraction on a Dask cluster
    """
    from kg.build import build as run_build
    from kg.cache import default_cache_dir
    from kg.runtime import tune_process

    if dask_address and jobs:
        raise click.UsageError("--jobs and --dask: the Dask workers are the extraction processes")
    tune_process(extraction=True)  # before any worker starts: they inherit it
    cache = None if no_cache else (cache_dir or default_cache_dir())
    result = run_build(
        inputs,
        model=model,
        strict=strict,
        cache_dir=cache,
        progress=None if as_json else progress_bar("Extracting"),
        n_process=jobs,
        keywords=keywords,
        year=year,
        dask=dask_address,
    )
    result.save(output)
    report_problems(result.problems)
    summary = {
        **result.stats,
        "graph": str(output),
        "skipped": len(result.problems),
        "duplicates": result.duplicates,
        "from_cache": result.cached,
    }
    if as_json:
        echo_json(summary)
        return
    click.echo(
        f"Built {output}: {summary['papers']} papers ({result.cached} from cache), "
        f"{len(result.problems)} skipped, {result.duplicates} duplicates merged"
    )
    click.echo("  entities: " + ", ".join(f"{k} {v}" for k, v in summary["entities"].items()))
    click.echo(f"  results:  {summary['results']}; topics: {summary['topics']}")
    click.echo("  edges:    " + ", ".join(f"{k} {v}" for k, v in summary["edges"].items()))


# --------------------------------------------------------------------------- related


def _related_file(
    graph_path: Path, title: str, k: int, facet: str | None, ranking: str
) -> tuple[list[Any], Any]:
    from kg.query.index import load_index
    from kg.query.lookup import find_paper

    index = load_index(graph_path)  # compact and cached: even a big graph is never loaded whole
    pid = find_paper(index, title)
    if ranking == "graph":
        from kg.query.related import related_papers

        return related_papers(index, pid, k, facet), index.nodes[pid]
    from kg.query.hybrid import rank_related
    from kg.query.text_index import load_text_index

    def preparing(papers: int) -> None:
        click.echo(f"Preparing the text index of {graph_path} ({papers} papers; once per graph "
                   "file)...", err=True)

    text = load_text_index(graph_path, on_build=preparing)
    return rank_related(index, text, pid, k, facet), index.nodes[pid]


@main.command()
@click.argument("title")
@click.option("-k", type=click.IntRange(1), default=10, show_default=True, help="How many papers.")
@click.option(
    "--facet",
    type=click.Choice(["background", "method", "result"]),
    default=None,
    help="Related in one respect: the problem (background), the approach (method) or the "
    "findings (result). Default: whole papers.",
)
@click.option(
    "--ranking",
    type=click.Choice(["hybrid", "graph"]),
    default="hybrid",
    show_default=True,
    help="hybrid: shared entities, words, word vectors and aligned sentences; graph: shared "
    "entities and the stored text neighbours only (what --backend neo4j answers).",
)
@click.option(
    "--backend",
    type=click.Choice(["file", "neo4j"]),
    default="file",
    show_default=True,
    help="Answer from the graph file or from Neo4j (which answers the graph ranking, with a "
    "facet's entity types when given).",
)
@click.option(
    "--reasons",
    type=click.IntRange(0),
    default=5,
    show_default=True,
    help="Shared entities shown per result (--json shows all).",
)
@graph_option
@connection_options
@json_option
@click.pass_context
def related(
    ctx: click.Context,
    title: str,
    k: int,
    facet: str | None,
    ranking: str,
    backend: str,
    reasons: int,
    graph_path: Path,
    as_json: bool,
    **connection: Any,
) -> None:
    """The papers most related to one paper, and why (what they share).

    TITLE is a title, a display name (e.g. a method the paper proposes) or a paper id; it is
    matched exactly, then case-insensitively, then fuzzily. The first call on a graph file
    prepares its text index (seconds); later calls reuse it.

    \b
    Example:
      kg related MetaEmbed
      kg related MetaEmbed --facet method      # papers that go about it alike
      kg related "micro-expression recognition" -k 5 --json
      kg related MetaEmbed --backend neo4j --uri bolt://127.0.0.1:7687
    """
    if backend == "neo4j":
        from kg.cli.neo4j_cmds import related_from_neo4j

        paper, results = related_from_neo4j(ctx, title, k, facet)
    else:
        results, paper = _related_file(graph_path, title, k, facet, ranking)
    if as_json:
        echo_json([r.to_dict() for r in results])
        return
    click.echo(f"Related to {paper.get('display_name')}: {paper.get('title') or ''}".rstrip(": "))
    if not results:
        click.echo("  (no paper shares an entity with this one)")
    for i, r in enumerate(results, 1):
        title_part = f" — {r.title}" if r.title and r.title != r.display_name else ""
        click.echo(f"{i:>3}. {r.display_name}{title_part}  [score {r.score:.3f}]")
        shown = ", ".join(f"{s.name} ({s.label})" for s in r.shared[:reasons])
        more = f" +{len(r.shared) - reasons} more" if len(r.shared) > reasons else ""
        if reasons and r.shared:
            click.echo(f"     shares: {shown}{more}")
        if reasons and r.terms:
            click.echo(f"     similar words ({r.similarity:.2f}): {', '.join(r.terms[:reasons])}")
        if reasons and r.evidence:
            click.echo(f'     aligned ({r.alignment:.2f}): "{r.evidence[0]}"')
            click.echo(f'                   ~ "{r.evidence[1]}"')


# --------------------------------------------------------------------------- show / stats


@main.command()
@click.argument("name")
@click.option("--limit", type=click.IntRange(1), default=50, show_default=True, help="Links shown.")
@graph_option
@json_option
def show(name: str, limit: int, graph_path: Path, as_json: bool) -> None:
    """A paper or an entity with its links, its relations and results, and the evidence for
    each.

    \b
    Example:
      kg show MetaEmbed        # a paper, by what it proposes
      kg show MMEB             # an entity, by name or alias
    """
    from kg.query.explore import show_node

    info = show_node(graph_path, name, limit)
    if as_json:
        echo_json(info)
        return
    node = info["node"]
    click.echo(f"{node['label']}: {node.get('name')}  [{node['id']}]")
    for key in ("title", "aliases", "paper_count", "venue", "year", "primary_area", "source"):
        if node.get(key):
            value = ", ".join(node[key]) if isinstance(node[key], list) else node[key]
            click.echo(f"  {key}: {value}")
    result = node["label"] == "Result"  # (an entity's links are its papers': shown outward)
    for link in info["links"]:
        inward = result and link["direction"] == "in"
        arrow = f"<-{link['type']}-" if inward else f"-{link['type']}->"
        click.echo(f"  {arrow} {link['name']} ({link['label']})")
        if link["evidence"]:
            click.echo(f'      "{link["evidence"]}"')
    if info["total_links"] > len(info["links"]):
        click.echo(f"  ... {info['total_links'] - len(info['links'])} more links (use --limit)")
    for rel in info.get("relations", []):
        arrow = f"-{rel['type']}->" if rel["direction"] == "out" else f"<-{rel['type']}-"
        n = len(rel["papers"])
        click.echo(f"  {arrow} {rel['name']} ({rel['label']}; {n} paper{'' if n == 1 else 's'})")
        for sentence in rel["evidence"][:1]:
            click.echo(f'      "{sentence}"')
    for res in info.get("results", []):
        about = ", ".join(f"{k} {res[k]}" for k in ("method", "dataset", "metric") if res[k])
        kind = "change" if res["relative"] else "level"
        click.echo(f"  result: {res['name']}  ({kind}{'; ' + about if about else ''})")
        click.echo(f'      "{res["evidence"]}"')
    if info.get("topic"):
        click.echo(f"  topic: {info['topic']['name']}  [{info['topic']['id']}]")


@main.command()
@graph_option
@json_option
def stats(graph_path: Path, as_json: bool) -> None:
    """Counts of papers, entities per type and edges per type, and the most linked entities.

    \b
    Example:
      kg stats --graph exports/graph.json
    """
    from kg.query.explore import stats_of

    info = stats_of(graph_path)
    if as_json:
        echo_json(info)
        return
    click.echo(f"papers: {info['papers']}")
    click.echo("entities: " + ", ".join(f"{k} {v}" for k, v in info["entities"].items()))
    click.echo(f"results: {info['results']}; topics: {info['topics']}")
    click.echo("edges: " + ", ".join(f"{k} {v}" for k, v in info["edges"].items()))
    for label, ents in info["top_entities"].items():
        if ents:
            click.echo(
                f"top {label}: " + ", ".join(f"{e['name']} ({e['paper_count']})" for e in ents)
            )
    if info["top_topics"]:
        click.echo("largest topics: " + "; ".join(f"{t['name']} ({t['size']})"
                                                  for t in info["top_topics"]))


# --------------------------------------------------------------------------- extract


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--jsonl", is_flag=True, default=True, help="One JSON object per paper (the default)."
)
@click.option("--strict", is_flag=True, help="Fail on the first bad record instead of skipping it.")
@model_option
def extract(inputs: tuple[Path, ...], jsonl: bool, strict: bool, model: str | None) -> None:
    """Print each paper's mentions as JSON lines (for evaluation tools).

    Each line: {"id", "title", "display_name", "text", "mentions": [{"start", "end", "text",
    "type", "role", "entity"}]}; start/end are character offsets into "text", the cleaned
    abstract, and "entity" is the canonical entity id.

    \b
    Example:
      kg extract seeds/000_5670d788940e7130.txt > mentions.jsonl
    """
    from kg.build import extract_records
    from kg.runtime import tune_process

    tune_process(extraction=True)
    records, problems = extract_records(inputs, model=model, strict=strict)
    report_problems(problems)
    for rec in records:
        click.echo(json.dumps(rec, ensure_ascii=False, sort_keys=True))
