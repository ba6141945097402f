"""``kg cache``: what kg's cache folder holds, and emptying it."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli import main
from kg.cli.core import cache_dir_option, echo_json, json_option

folder_option = cache_dir_option("The cache folder [env KG_CACHE_DIR; default: your cache folder].")


def _folder(cache_dir: Path | None) -> Path:
    from kg.cache import default_cache_dir

    return cache_dir or default_cache_dir()


def _mb(n: int) -> str:
    return f"{n / 2**20:,.1f} MB"


@main.group()
def cache() -> None:
    """What kg's cache folder holds (`kg build` keeps extractions and more there, so that a
    rebuild redoes only what changed), and emptying it.

    \b
    Example:
      kg cache info
      kg cache clear --yes
    """


@cache.command("info")
@folder_option
@json_option
def info(cache_dir: Path | None, as_json: bool) -> None:
    """Files and size of each part of the cache."""
    from kg.cache import cache_usage

    folder = _folder(cache_dir)
    usage = cache_usage(folder)
    total = sum(u["bytes"] for u in usage.values())
    if as_json:
        echo_json({"folder": str(folder), "parts": usage, "bytes": total})
        return
    click.echo(f"{folder}: {_mb(total)}")
    for part, u in usage.items():
        click.echo(f"  {part:<18} {u['files']:>6} files {_mb(u['bytes']):>12}")


@cache.command("clear")
@folder_option
@click.option("--yes", "-y", is_flag=True, help="Do not ask before deleting.")
@json_option
def clear(cache_dir: Path | None, yes: bool, as_json: bool) -> None:
    """Delete what kg keeps in the cache folder; other files there are left alone. The next
    build is a cold one."""
    from kg.cache import clear_cache

    folder = _folder(cache_dir)
    if not yes:
        click.confirm(f"Delete kg's cache in {folder}?", abort=True)
    deleted = clear_cache(folder)
    if as_json:
        echo_json({"folder": str(folder), **deleted})
        return
    click.echo(f"Deleted {deleted['files']} files ({_mb(deleted['bytes'])}) from {folder}")
