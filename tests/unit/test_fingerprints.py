"""The fingerprints that key kg's caches change with what the cached results depend on."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pytest

from kg.extract import pipeline


@pytest.mark.parametrize("library", pipeline.VERSIONED)
def test_an_upgrade_of_a_library_the_extraction_runs_on_changes_the_fingerprint(
    library: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = pipeline.pipeline_version.__wrapped__()
    real = metadata.version

    def upgraded(name: str) -> str:
        return "999.0" if name == library else real(name)

    monkeypatch.setattr(pipeline.metadata, "version", upgraded)
    assert pipeline.pipeline_version.__wrapped__() != before


def edits_change_the_digest(
    package: Path, tmp_path: Path, digest: Callable[[Path], str], files: tuple[str, ...]
) -> None:
    """A copy of ``package`` has the package's digest, and editing each of ``files`` in turn
    changes it."""
    root = tmp_path / package.name
    shutil.copytree(package, root, ignore=shutil.ignore_patterns("models", "__pycache__"))
    before = digest(root)
    for name in files:
        with (root / name).open("a", encoding="utf-8") as f:
            f.write("\n# edited\n")
        after = digest(root)
        assert after != before, name
        before = after


def test_the_extraction_fingerprint_follows_its_code_and_data(tmp_path: Path) -> None:
    """Editing a file of kg/extract (code, word list) invalidates cached extractions;
    entity resolution lives in kg/resolve and has a fingerprint of its own."""
    package = Path(pipeline.__file__).parent
    files = ("pipeline.py", "data/task_heads.txt")
    edits_change_the_digest(package, tmp_path, pipeline.extraction_digest, files)


def test_the_resolution_fingerprint_follows_its_code_and_word_lists(tmp_path: Path) -> None:
    """Editing resolution's code or a word list of kg/resolve/data makes the snapshots of
    earlier resolvers unusable."""
    import kg.resolve
    from kg.resolve.words import resolution_digest, resolution_version

    package = Path(kg.resolve.__file__).parent
    assert resolution_digest(package) == resolution_version()
    files = ("data/generic_names.txt", "resolver.py")
    edits_change_the_digest(package, tmp_path, resolution_digest, files)
