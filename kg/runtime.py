"""Run-time helpers for builds: pausing the garbage collector, steadying glibc's malloc, and
running stages in a forked process while the caller goes on (:class:`ForkedStages`).

A build holds a few hundred thousand small objects (papers, mentions, entities, graph
attributes) and allocates more in every stage; CPython's cyclic collector then re-scans all of
them again and again, which measured at more than half of entity resolution's time on ICLR
2026. The build's data has no reference cycles to collect, so its stages pause the collector.

A build's text similarity needs only the abstracts, so it runs beside extraction and entity
resolution instead of after them: on the 2-core machines kg is measured on, that hides most of
its cost. Where ``fork`` is unavailable or there is one CPU, builds run it inline instead.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from kg.errors import KgError

#: glibc mallopt parameters
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


@lru_cache(maxsize=1)
def steady_malloc() -> bool:
    """Fix glibc malloc's thresholds, so that the extraction's short-lived arrays reuse heap
    memory instead of being mapped and unmapped (and page-faulted in again) on every batch.

    By default glibc serves a block over its mmap threshold (128 KiB, raised as big blocks are
    freed) with its own mapping and unmaps it on free, and trims the heap top when 128 KiB are
    free. Which of these a process gets depends on its allocation history, and forked workers
    inherit it: building ICLR 2026 from its twelve CSVs, the extraction workers took 4.4M page
    faults and 8 s of system time, against 0.1M and 1 s for the same abstracts in two CSVs
    (3 s of wall time). Fixed thresholds (64 MiB mmap, 256 MiB trim) make it steady; peak memory
    did not grow. Returns False where there is no glibc (nothing changes).
    """
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mmap_ok = libc.mallopt(_M_MMAP_THRESHOLD, 64 << 20)
        trim_ok = libc.mallopt(_M_TRIM_THRESHOLD, 256 << 20)
    except (OSError, AttributeError):
        return False
    return bool(mmap_ok and trim_ok)


def can_fork() -> bool:
    """Whether work can go to a forked process and gain from it: ``fork`` exists and there is
    more than one CPU to run it beside the caller."""
    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) > 1


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block (nesting is fine).

    >>> with paused_gc():
    ...     gc.isenabled()
    False
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                # Move what the block allocated to the oldest generation: else the young
                # collections right after it scan every object it made (0.3 s of an
                # incremental build of ICLR 2026). Cycles among them are still collected, by
                # the next full collection.
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _serve_stages(conn: Any, fn: Callable[..., Iterator[Any]], args: tuple[Any, ...]) -> None:
    # In the forked child: send each value as it is ready, or the exception that stopped it.
    try:
        for value in fn(*args):
            conn.send((True, value))
    except BaseException as exc:
        conn.send((False, exc))
    finally:
        conn.close()


class ForkedStages:
    """The values of the generator ``fn(*args)``, computed in a forked child, one by one.

    A cold build reads its inputs here while the parent loads spaCy (each takes about a second
    on a conference), then computes the text similarity beside the extraction; an incremental
    build loads spaCy here (:class:`kg.extract.pipeline.WarmExtractor`) and hands it the new
    texts once it knows them: with ``inbox``, ``fn`` gets a function that returns what the
    parent :meth:`send` s, as its first argument. The child starts at once; ``next()`` waits for
    its next value (re-raising what the child raised) and ``close()`` stops it. Callers check
    :func:`can_fork` first.

    >>> stages = ForkedStages(iter, [1, 2])
    >>> stages.next(), stages.next(last=True)
    (1, 2)
    """

    def __init__(self, fn: Callable[..., Iterator[Any]], *args: Any, inbox: bool = False) -> None:
        ctx = multiprocessing.get_context("fork")
        self._conn, child = ctx.Pipe(duplex=inbox)
        if inbox:
            args = (child.recv, *args)
        self._proc = ctx.Process(target=_serve_stages, args=(child, fn, args), daemon=True)
        self._proc.start()
        child.close()

    def send(self, value: Any) -> None:
        """Give the child (made with ``inbox``) a value. A child that has stopped already (its
        error waits for :meth:`next`) takes nothing."""
        with contextlib.suppress(BrokenPipeError):
            self._conn.send(value)

    def next(self, last: bool = False) -> Any:
        """The child's next value; with ``last``, the child is then done with."""
        try:
            ok, value = self._conn.recv()
        except EOFError:
            self.close()
            raise self._died() from None
        if not ok or last:
            self.close()
        if not ok:
            raise value
        return value

    def _died(self) -> KgError:
        """What :meth:`next` raises when the child ends without a word (killed)."""
        return KgError("a build process died (out of memory?)")

    def close(self) -> None:
        if self._proc.is_alive():
            self._proc.terminate()
        self._proc.join()
        self._conn.close()
