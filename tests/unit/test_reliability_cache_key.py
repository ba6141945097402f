"""A library upgrade cannot serve old extraction rows: the cache key has the versions of the
libraries that run the pipeline (kg.extract.pipeline.VERSIONED)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.cache import ExtractionCache
from kg.extract import pipeline


@pytest.fixture
def fresh_version() -> Iterator[None]:
    pipeline.pipeline_version.cache_clear()
    yield
    pipeline.pipeline_version.cache_clear()


def namespace() -> str:  # as kg.build makes it
    return f"{pipeline.model_name()}:{pipeline.pipeline_version()}"


@pytest.mark.parametrize("library", pipeline.VERSIONED)
def test_an_upgraded_library_makes_the_old_rows_unreachable(
    library: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_version: None
) -> None:
    before = namespace()
    old = ExtractionCache(tmp_path, before)
    old.put_many([("an abstract", [("row", 0, 1)])])
    old.close()
    real = pipeline.metadata.version
    monkeypatch.setattr(pipeline.metadata, "version",
                        lambda name: "999.0" if name == library else real(name))
    pipeline.pipeline_version.cache_clear()
    after = namespace()
    assert after != before
    upgraded = ExtractionCache(tmp_path, after)
    assert upgraded.get_many(["an abstract"]) == {}
    assert ExtractionCache(tmp_path, before).get_many(["an abstract"])  # (the row is there)


def test_the_libraries_that_run_the_pipeline_are_in_the_key() -> None:
    assert {"spacy", "thinc", "numpy"} <= set(pipeline.VERSIONED)
