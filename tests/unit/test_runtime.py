"""kg.runtime: the start method, background stages under each, and the process tuning."""

from __future__ import annotations

import gc
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator

import pytest

import kg.runtime
from kg.errors import InputError, KgError
from kg.runtime import (
    forked_map,
    paused_gc,
    release_free_memory,
    start_method,
    start_stages,
    steady_malloc,
    yield_the_cpu,
)

#: The start methods a child process can be started with here.
PROCESS_METHODS = [m for m in ("fork", "spawn") if m in multiprocessing.get_all_start_methods()]


@pytest.fixture(params=[*PROCESS_METHODS, "inline"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("KG_START_METHOD", request.param)
    return str(request.param)


@pytest.fixture()
def tuned(monkeypatch: pytest.MonkeyPatch) -> None:
    """GC pauses on, as the kg command's entry point turns them on."""
    monkeypatch.setattr(kg.runtime, "_gc_pauses", True)


def test_the_start_method_is_fork_on_linux_spawn_elsewhere_inline_on_one_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("KG_START_METHOD", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(sys, "platform", "linux")
    assert start_method() == "fork"
    for system in ("darwin", "win32"):
        monkeypatch.setattr(sys, "platform", system)
        assert start_method() == "spawn"
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert start_method() == "inline"
    monkeypatch.setenv("KG_START_METHOD", "Spawn")
    assert start_method() == "spawn"
    monkeypatch.setenv("KG_START_METHOD", "thread")
    with pytest.raises(InputError, match="KG_START_METHOD='thread': expected one of"):
        start_method()


def test_without_tuning_gc_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kg.runtime, "_gc_pauses", False)  # (a CLI test may have tuned)
    assert gc.isenabled()
    with paused_gc():
        assert gc.isenabled()


def test_tuning_is_off_under_kg_fast_0(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kg.runtime, "_gc_pauses", False)
    monkeypatch.setenv("KG_FAST", "0")
    assert kg.runtime.tune_process() is False
    assert kg.runtime._gc_pauses is False


def test_paused_gc_nests_and_restores(tuned: None) -> None:
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


FREED_THEN_RELEASED = """
from kg.runtime import release_free_memory, steady_malloc
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 >> 20
steady_malloc()  # as a build runs: freed memory is kept for later
blocks = [b"x" * (1 << 20) for _ in range(300)]
last = b"y" * (1 << 20)  # keeps the heap's top in use: only a trim gives the rest back
del blocks
before = rss()
print(release_free_memory(), before - rss())
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_freed_memory_goes_back_to_the_system() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", FREED_THEN_RELEASED], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "True" and int(out[1]) >= 200  # MiB of the 300 freed


def test_releasing_memory_does_nothing_without_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platform, "libc_ver", lambda: ("", ""))
    assert release_free_memory() is False


def test_what_a_pause_allocated_is_not_left_to_young_collections(tuned: None) -> None:
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


def test_stages_arrive_in_order_from_a_child_or_inline(method: str) -> None:
    stages = start_stages(_stages, False)
    pid = stages.next()
    assert (pid == os.getpid()) == (method == "inline")
    assert stages.next() == [1, 2, 3]
    assert stages.next(last=True) == "done"


def test_stages_reraise_what_the_generator_raised(method: str) -> None:
    stages = start_stages(_stages, True)
    stages.next()
    stages.next()
    with pytest.raises(InputError, match="papers.csv:4: record has no abstract"):
        stages.next()


def _yielding() -> Iterator[object]:
    yield yield_the_cpu(), os.getpriority(os.PRIO_PROCESS, 0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities here")
def test_a_child_yields_the_cpu_but_the_callers_own_process_never(method: str) -> None:
    before = os.getpriority(os.PRIO_PROCESS, 0)
    lowered, priority = start_stages(_yielding).next(last=True)
    if method == "inline":
        assert (lowered, priority) == (False, before)
    else:
        assert lowered and priority == 19
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


def _pid_and_item(item: str) -> tuple[int, str]:
    if item == "fail":
        raise InputError("papers.csv:9: no abstract")
    if item == "die":
        os._exit(3)  # ends without a word
    return os.getpid(), item


def test_forked_map_computes_in_copies_where_children_fork_else_here(method: str) -> None:
    got = forked_map(_pid_and_item, ["a", "b", "c"])
    assert [item for _, item in got] == ["a", "b", "c"]
    pids = [pid for pid, _ in got]
    assert pids[0] == os.getpid()
    if method == "fork":
        assert len(set(pids)) == 3
    else:
        assert set(pids) == {os.getpid()}


@pytest.mark.parametrize("bad", ["fail", "die"])
def test_forked_map_raises_what_a_copy_raised_and_says_when_one_died(
    bad: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_START_METHOD", "fork")
    if "fork" not in PROCESS_METHODS:
        pytest.skip("no fork here")
    error, match = (InputError, "papers.csv:9") if bad == "fail" else (KgError, "died")
    with pytest.raises(error, match=match):
        forked_map(_pid_and_item, ["a", bad, "c"])


def _big_then_done() -> Iterator[object]:
    # More than a pipe holds: sending it waits for the other end to read.
    yield bytes(4 << 20)


@pytest.mark.parametrize("child", PROCESS_METHODS)
def test_a_child_ends_once_it_has_sent_its_last_value_before_it_is_asked(
    child: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_START_METHOD", child)
    stages = start_stages(_big_then_done)
    stages._proc.join(timeout=60)  # type: ignore[attr-defined]
    assert not stages._proc.is_alive()  # type: ignore[attr-defined]
    assert len(stages.next(last=True)) == 4 << 20


def _dies() -> Iterator[object]:
    yield 1
    os._exit(3)


def _sleeps() -> Iterator[object]:
    yield 1
    time.sleep(60)
    yield 2


@pytest.mark.parametrize("child", PROCESS_METHODS)
def test_a_dead_child_is_a_readable_error_and_close_stops_a_busy_one(
    child: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_START_METHOD", child)
    stages = start_stages(_dies)
    assert stages.next() == 1
    with pytest.raises(KgError, match="a build process died"):
        stages.next()
    busy = start_stages(_sleeps)
    assert busy.next() == 1
    started = time.monotonic()
    busy.close()
    assert time.monotonic() - started < 5


def _doubles(receive: Callable[[], int]) -> Iterator[int]:
    yield receive() * 2


def _fails_at_once(receive: Callable[[], object]) -> Iterator[object]:
    raise InputError("cannot start")
    yield receive()


def test_an_inbox_gets_what_the_caller_sends_and_an_error_waits(method: str) -> None:
    stages = start_stages(_doubles, inbox=True)
    stages.send(21)
    assert stages.next(last=True) == 42
    stopped = start_stages(_fails_at_once, inbox=True)
    if method != "inline":
        stopped._proc.join(timeout=30)  # type: ignore[attr-defined]  # ended, its error unread
    stopped.send("texts")  # taken by no one: no error here
    with pytest.raises(InputError, match="cannot start"):
        stopped.next()
