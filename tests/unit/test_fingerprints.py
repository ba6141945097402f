"""The fingerprints that key kg's caches change with what the cached results depend on."""

from __future__ import annotations

from importlib import metadata

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
