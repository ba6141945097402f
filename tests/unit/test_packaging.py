"""pyproject.toml declares what kg imports: the core dependencies cover every module outside
kg/train, and the train extra what only training imports."""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

REPO = Path(__file__).resolve().parents[2]


def _requirement_names(specs: list[str]) -> set[str]:
    names = (re.split(r"[<>=!~ ;\[]", spec, maxsplit=1)[0] for spec in specs)
    return {name.lower().replace("_", "-") for name in names}


def _imported_top_levels(files: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m not in ("kg", "__future__")}


#: Import names whose distribution is named otherwise, for packages that may not be installed
#: here (the train extra's, in a test environment).
_DISTRIBUTION_OF = {"sklearn": "scikit-learn"}


def _distributions(modules: set[str]) -> set[str]:
    by_module = metadata.packages_distributions()
    out = set()
    for module in modules:
        dists = by_module.get(module) or [_DISTRIBUTION_OF.get(module, module)]
        out |= {d.lower().replace("_", "-") for d in dists}
    return out


@pytest.fixture(scope="module")
def project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_every_import_outside_training_is_a_core_dependency(project: dict) -> None:
    files = [p for p in (REPO / "kg").rglob("*.py") if "train" not in p.relative_to(REPO).parts]
    core = _requirement_names(project["dependencies"])
    # An extra's package is imported only where a command needs it, behind a readable error
    # (matplotlib for kg trends --plot, in the plot extra; Dask for kg build --dask, in the
    # dask extra, whose dask[distributed] brings distributed).
    plot = _requirement_names(project["optional-dependencies"]["plot"])
    dask = _requirement_names(project["optional-dependencies"]["dask"]) | {"distributed"}
    missing = _distributions(_imported_top_levels(files)) - core - plot - dask
    assert not missing, f"imported but not declared in dependencies: {sorted(missing)}"
    assert not plot & core and not dask & core


def test_training_only_packages_are_in_the_train_extra(project: dict) -> None:
    core = _requirement_names(project["dependencies"])
    train = _requirement_names(project["optional-dependencies"]["train"])
    assert {"gensim", "scikit-learn"} <= train and not {"gensim", "scikit-learn"} & core
    files = list((REPO / "kg" / "train").rglob("*.py"))
    missing = _distributions(_imported_top_levels(files)) - core - train
    assert not missing, f"imported by kg/train but not declared: {sorted(missing)}"
