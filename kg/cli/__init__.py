"""The ``kg`` command line. Commands live in small modules; each parses options, calls one
library function and prints. Library errors (:class:`kg.errors.KgError`) become one readable
line and a non-zero exit here, in one place."""

from __future__ import annotations

import sys
from typing import Any

import click

from kg.errors import KgError


class KgGroup(click.Group):
    """A click group that turns KgError into a clean ``Error: ...`` line (exit 1)."""

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


def _register() -> None:
    # Imported here, after `main` exists, because each command module adds itself to it.
    from kg.cli import core, eval_cmds, html_cmds, neo4j_cmds  # noqa: F401


_register()
