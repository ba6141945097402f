"""Shared fixtures: the repository, the shared data folder, kg's pipeline and the seeds graph
(each made once)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import networkx as nx
import pytest

if TYPE_CHECKING:  # spaCy is imported where the pipeline is loaded
    from spacy.language import Language

REPO_ROOT = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def benchmark_module() -> Callable[[str], ModuleType]:
    """Imports a script of ``benchmarks/`` by name (they are scripts, not a package)."""
    bench = REPO_ROOT / "benchmarks"

    def load(name: str) -> ModuleType:
        if str(bench) not in sys.path:
            sys.path.insert(0, str(bench))  # for their ``import _common``
        spec = importlib.util.spec_from_file_location(name, bench / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        return module

    return load


def shared_data_dir() -> Path | None:
    """``../shared`` beside the repository (or ``KG_SHARED_DIR``), if it exists."""
    candidate = Path(os.environ.get("KG_SHARED_DIR", REPO_ROOT.parent / "shared"))
    return candidate if (candidate / "data").is_dir() else None


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared data folder. Absent on a user's machine: skip; absent in CI: fail."""
    found = shared_data_dir()
    if found is None:
        if IN_CI:
            pytest.fail("../shared is missing in CI: tests that need shared data must run there")
        pytest.skip("../shared is not here (tests that need the shared data are skipped)")
    return found


@pytest.fixture(scope="session")
def nlp() -> Language:
    """kg's extraction pipeline, as ``kg build`` loads it."""
    from kg.extract.pipeline import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def seeds_graph_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The graph of ``seeds/``, built once per test session with the real pipeline."""
    from kg.build import build
    from kg.store.file import save_graph

    out = tmp_path_factory.mktemp("seeds") / "graph.json"
    result = build([REPO_ROOT / "seeds"], cache_dir=None)
    save_graph(result.graph, out)
    return out


@pytest.fixture(scope="session")
def seeds_graph(seeds_graph_path: Path) -> nx.MultiDiGraph:
    from kg.store.file import load_graph

    return load_graph(seeds_graph_path)


@pytest.fixture
def one_definition_is_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resolution as if one paper spelling an acronym out were enough for other papers' bare
    uses to join its long form (``MIN_DEFINING_PAPERS``): for tests of what follows from a
    definition, which write one paper's."""
    monkeypatch.setattr("kg.resolve.resolver.MIN_DEFINING_PAPERS", 1)
