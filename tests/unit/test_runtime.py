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
    buffers = [bytearray(1 << 20) for _ in range(8)]  # malloc still works
    assert sum(len(b) for b in buffers) == 8 << 20
