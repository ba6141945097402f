"""kg.runtime.die_with_parent: a child ends when its parent does (the check every system has;
the Linux signal and real SIGKILLs are in tests/faults/test_build_faults.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import kg.runtime
from kg.runtime import die_with_parent


class Exited(BaseException):
    pass


@pytest.fixture
def exits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``os._exit`` recorded (and stopping the caller) instead of ending the test process."""
    codes: list[int] = []

    def fake_exit(code: int) -> None:
        codes.append(code)
        raise Exited

    monkeypatch.setattr(kg.runtime.os, "_exit", fake_exit)
    monkeypatch.setattr(kg.runtime, "PARENT_POLL_SECONDS", 0)
    return codes


def test_a_child_whose_parent_is_gone_already_ends_at_once(
    exits: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kg.runtime, "_parent_death_signal", lambda: True)
    with pytest.raises(Exited):
        die_with_parent(os.getppid() + 1)  # not our parent: it "died" and we were re-parented
    assert exits == [1]


def test_the_watch_ends_the_child_once_the_parent_changes(
    exits: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    parents: Iterator[int] = iter([41, 41, 41, 1])  # re-parented to init on the fourth look
    monkeypatch.setattr(kg.runtime.os, "getppid", lambda: next(parents))
    monkeypatch.setattr(sys, "platform", "darwin")  # no prctl: the watch alone
    with pytest.raises(Exited):
        kg.runtime._watch_parent(41)
    assert exits == [1] and next(parents, None) is None


def test_a_living_parent_gets_a_watch_thread_and_no_exit(
    exits: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    started = []
    monkeypatch.setattr(kg.runtime, "_parent_death_signal", lambda: True)
    monkeypatch.setattr(kg.runtime.threading.Thread, "start", lambda self: started.append(self))
    die_with_parent(os.getppid())
    assert exits == [] and [t.name for t in started] == ["kg-parent-watch"]
    assert started[0].daemon  # never keeps a finished child alive


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_parent_death_signal_is_set_on_linux() -> None:
    import ctypes
    import multiprocessing
    import signal

    def child(queue: Any) -> None:
        kg.runtime._parent_death_signal()
        libc = ctypes.CDLL(None)
        sig = ctypes.c_int()
        libc.prctl(2, ctypes.byref(sig), 0, 0, 0)  # PR_GET_PDEATHSIG
        queue.put(sig.value)

    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=child, args=(queue,))
    proc.start()
    assert queue.get(timeout=60) == signal.SIGKILL
    proc.join()
