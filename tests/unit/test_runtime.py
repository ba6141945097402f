"""kg.runtime: the garbage-collector pause, glibc malloc's fixed thresholds, forked stages."""

from __future__ import annotations

import gc
import os
import platform
import time
from collections.abc import Callable, Iterator

import pytest

from kg.errors import InputError, KgError
from kg.runtime import ForkedStages, can_fork, paused_gc, steady_malloc

needs_fork = pytest.mark.skipif(not can_fork(), reason="needs fork and two CPUs")


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


def _stages(fail: bool) -> Iterator[object]:
    yield os.getpid()
    yield [1, 2, 3]
    if fail:
        raise InputError("papers.csv:4: record has no abstract")
    yield "done"


@needs_fork
def test_forked_stages_run_in_a_child_and_arrive_in_order() -> None:
    stages = ForkedStages(_stages, False)
    assert stages.next() != os.getpid()
    assert stages.next() == [1, 2, 3]
    assert stages.next(last=True) == "done"


@needs_fork
def test_forked_stages_reraise_what_the_child_raised() -> None:
    stages = ForkedStages(_stages, True)
    stages.next()
    stages.next()
    with pytest.raises(InputError, match="papers.csv:4: record has no abstract"):
        stages.next()


def _dies() -> Iterator[object]:
    yield 1
    os._exit(3)


def _sleeps() -> Iterator[object]:
    yield 1
    time.sleep(60)
    yield 2


@needs_fork
def test_a_dead_child_is_a_readable_error_and_close_stops_a_busy_one() -> None:
    stages = ForkedStages(_dies)
    assert stages.next() == 1
    with pytest.raises(KgError, match="a build process died"):
        stages.next()
    busy = ForkedStages(_sleeps)
    assert busy.next() == 1
    started = time.monotonic()
    busy.close()
    assert time.monotonic() - started < 5


def _doubles(receive: Callable[[], int]) -> Iterator[int]:
    yield receive() * 2


def _fails_at_once(receive: Callable[[], object]) -> Iterator[object]:
    raise InputError("cannot start")
    yield receive()


@needs_fork
def test_an_inbox_child_gets_what_the_parent_sends_and_its_error_waits() -> None:
    stages = ForkedStages(_doubles, inbox=True)
    stages.send(21)
    assert stages.next(last=True) == 42
    stopped = ForkedStages(_fails_at_once, inbox=True)
    stopped._proc.join(timeout=30)  # it has ended, its error unread
    stopped.send("texts")  # taken by no one: no error here
    with pytest.raises(InputError, match="cannot start"):
        stopped.next()
