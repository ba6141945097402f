"""Fixtures for the browser tests: headless Debian Chromium driven by Playwright, offline.

Chromium comes from ``scripts/install-chromium`` (Debian's /usr/bin/chromium); Playwright is
pointed at it and never downloads a browser. Every request that is not a ``file:`` URL is
aborted and recorded, so a page that tried to reach a CDN fails its test.

Without Chromium or Playwright these tests skip, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: Screenshots land here (exports/ is the project's output folder, not committed).
SCREENSHOT_DIR = REPO_ROOT / "exports"


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (required under CI=true; run scripts/install-chromium)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium (Playwright Browser) for the whole session."""
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        _missing(f"{CHROMIUM} not found")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class OfflinePage:
    """A page with no network, plus what it logged and what it tried to fetch."""

    page: Any
    console_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def open(self, path: Path, timeout_s: float = 180) -> None:
        """Load ``path`` and wait until the layout is stable and drawn."""
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_function("window.kg && window.kg.stable", timeout=timeout_s * 1000)

    def js(self, expression: str, arg: Any = None) -> Any:
        return self.page.evaluate(expression, arg)


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Where the browser tests leave their screenshots (``exports/`` at the repo root)."""
    SCREENSHOT_DIR.mkdir(exist_ok=True)
    return SCREENSHOT_DIR


@pytest.fixture()
def offline_page(browser: Any) -> Iterator[OfflinePage]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    result = OfflinePage(page=None)

    def route(r: Any) -> None:
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            result.blocked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    context.set_offline(True)
    page = context.new_page()

    def console(message: Any) -> None:
        if message.type == "error":
            result.console_errors.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda exc: result.console_errors.append(f"pageerror: {exc}"))
    result.page = page
    yield result
    context.close()


def _synthetic_graph() -> nx.MultiDiGraph:
    # The seeded generator the render benchmark uses, at the size of the seeds corpus.
    spec = importlib.util.spec_from_file_location(
        "kg_bench_html_render", REPO_ROOT / "benchmarks" / "html_render.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.synthetic_graph(36, 400, seed=5)


@pytest.fixture(scope="session")
def html_graph_path(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The seeds graph (the lead's ``seeds_graph_path`` fixture), or a synthetic stand-in."""
    try:
        return Path(request.getfixturevalue("seeds_graph_path"))
    except pytest.FixtureLookupError:
        from kg.store.file import save_graph

        return save_graph(_synthetic_graph(), tmp_path_factory.mktemp("html") / "graph.json")
