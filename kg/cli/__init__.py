"""The ``kg`` command line. Commands live in small modules; each parses options, calls one
library function and prints. Library errors (:class:`kg.errors.KgError`) become one readable
line and a non-zero exit here, in one place."""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import sys
from typing import Any

import click

from kg.errors import KgError

#: The modules that define each command (each adds its commands to :func:`main` as it is
#: imported). A command's modules are imported when it runs, and all of them for ``--help``:
#: ``kg related`` then starts without what ``kg export html`` or ``kg load`` need.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "build": ("core",), "related": ("core",), "show": ("core",), "stats": ("core",),
    "extract": ("core",), "export": ("export_cmds", "html_cmds"), "cache": ("cache_cmds",),
    "eval": ("eval_cmds",), "train": ("eval_cmds",), "trends": ("explore_cmds",),
    "leaderboard": ("explore_cmds",), "load": ("neo4j_cmds",), "query": ("neo4j_cmds",),
}  # fmt: skip


class KgGroup(click.Group):
    """A click group that turns KgError into a clean ``Error: ...`` line (exit 1), and imports
    a command's module when the command is asked for (:data:`COMMAND_MODULES`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        for module in COMMAND_MODULES.get(cmd_name, ()):
            importlib.import_module(f"kg.cli.{module}")
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KgError as exc:
            if ctx.find_root().params.get("traceback"):
                raise
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            sys.exit(130)


@click.group(cls=KgGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kg")
@click.option("--traceback", is_flag=True, help="Show the Python traceback of an error.")
def main(traceback: bool) -> None:
    """kg: turn research-paper abstracts into a knowledge graph you can explore.

    \b
    Typical session:
      kg build seeds/                 # abstracts -> exports/graph.json
      kg related MetaEmbed            # the papers most related to one, and why
      kg show MMEB                    # a paper or entity with its links and evidence
      kg export html                  # an interactive offline picture
      kg load                         # push the graph into Neo4j
    """



def run() -> None:
    """The ``kg`` console script: tune the process, run :func:`main`, then exit fast.

    The tuning (:func:`kg.runtime.tune_process`) is for this process only, never for a program
    that imports kg. A build leaves a great many small objects behind (the graph, the mentions,
    the cache's rows), which Python would free one by one at shutdown, for memory the operating
    system takes back at exit anyway. So once the command has run, the exit handlers run and the
    output is flushed as at a normal exit, and the process ends without the teardown. Errors
    that escape ``main`` (``--traceback``) exit as usual; so does everything under
    ``KG_FAST=0``.
    """
    from kg.extract import fast
    from kg.runtime import tune_process

    # One BLAS thread per process, set before numpy loads OpenBLAS: kg's processes already
    # keep every core busy (extraction workers, the similarity, the main one), and an idle
    # OpenBLAS thread spins after each product.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    tune_process()
    if not fast.enabled():
        main()
        return
    code: int | str | None = 0
    try:
        main()  # click's standalone mode: always ends in SystemExit
    except SystemExit as exc:
        code = exc.code
    if isinstance(code, str):  # sys.exit("message"): printed, exit status 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()  # (private, but documented as what a normal exit runs)
    for stream in (sys.stdout, sys.stderr):
        # A closed pipe (`kg ... | head`) or stream has nothing more to take.
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code or 0)
