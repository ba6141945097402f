"""kg.runtime: the garbage-collector pause and glibc malloc's fixed thresholds."""

from __future__ import annotations

import gc
import platform

from kg.runtime import paused_gc, steady_malloc


def test_paused_gc_nests_and_restores() -> None:
    assert gc.isenabled()
    with paused_gc():
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_steady_malloc_applies_on_glibc_only() -> None:
    glibc = platform.libc_ver()[0] == "glibc"
    assert steady_malloc() is glibc
    assert steady_malloc() is glibc  # once per process, then cached


def test_what_a_pause_allocated_is_not_left_to_young_collections() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(10**9)  # no automatic collection may reset the counts meanwhile
    try:
        with paused_gc():
            made = [[] for _ in range(20_000)]
        young = gc.get_count()[0]
        del made
    finally:
        gc.set_threshold(*thresholds)
    # Moved to the oldest generation, not counted against the young one (which would make the
    # next young collection scan all 20k lists).
    assert young < 1_000, young
