"""The fingerprints that key kg's caches change with what the cached results depend on."""

from __future__ import annotations

import shutil
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


def test_the_resolution_fingerprint_follows_its_code_and_word_lists(tmp_path: Path) -> None:
    """Editing resolution's code or a word list of kg/resolve/data makes the snapshots of
    earlier resolvers unusable; the extraction's cache is not keyed by it."""
    import kg.resolve
    from kg.resolve.words import resolution_digest

    root = tmp_path / "resolve"
    shutil.copytree(Path(kg.resolve.__file__).parent, root)
    before = resolution_digest(root)
    assert before == resolution_digest(Path(kg.resolve.__file__).parent)
    for name in ("data/generic_names.txt", "resolver.py"):
        with (root / name).open("a", encoding="utf-8") as f:
            f.write("\n# edited\n")
        after = resolution_digest(root)
        assert after != before
        before = after
