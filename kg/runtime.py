"""How kg runs work beside the caller: the start method, background stages, process tuning.

**The start method** is chosen here and nowhere else (:func:`start_method`):

* ``fork`` on Linux: a child inherits the loaded pipeline and the papers, nothing is pickled.
* ``spawn`` elsewhere: Windows has no fork, and on macOS forking a process that has loaded
  numpy's BLAS (whose threads do not survive a fork) is unsafe, which is why CPython defaults
  to spawn there.
* ``inline`` with one CPU: nothing would run beside the caller, so a child only costs.

``KG_START_METHOD=fork|spawn|inline`` forces one. Every method gives the same graph, byte for
byte: a process only changes where a value is computed, never what it is.

**Background stages** (:func:`start_stages`): a cold build reads its inputs in a child while
the parent loads spaCy, then computes the text similarity there beside the extraction; an
incremental build loads spaCy in a child while the parent reads the cache.

**Children end with their parent** (:func:`die_with_parent`, called first thing in every
child kg starts): a SIGKILL of a build leaves no worker running on.

**Priorities**: a child whose value is needed only later yields the CPU to those on the
critical path (:func:`yield_the_cpu`).

**Process tuning** (:func:`tune_process`): glibc malloc's thresholds and garbage-collector
pauses around the build's allocation-heavy stages. Only the ``kg`` command turns it on, at its
entry point: a program that imports kg keeps its own settings. ``KG_FAST=0`` leaves it off.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from kg.errors import InputError, KgError
from kg.extract import fast

START_METHODS = ("fork", "spawn", "inline")
_T = TypeVar("_T")
_R = TypeVar("_R")

#: glibc mallopt parameters
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def start_method() -> str:
    """How kg starts the processes that work beside the caller: ``KG_START_METHOD`` if set,
    else ``fork`` on Linux, ``spawn`` on other systems, ``inline`` (no child) with one CPU."""
    import multiprocessing  # (here: the commands that start no process do without it)

    forced = os.environ.get("KG_START_METHOD", "").strip().lower()
    if forced:
        if forced not in START_METHODS:
            raise InputError(
                f"KG_START_METHOD={forced!r}: expected one of {', '.join(START_METHODS)}"
            )
        if forced != "inline" and forced not in multiprocessing.get_all_start_methods():
            raise InputError(f"KG_START_METHOD={forced}: this system cannot {forced} processes")
        return forced
    if (os.cpu_count() or 1) < 2:
        return "inline"
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


def parallel() -> bool:
    """Whether work can run in a process beside the caller (the start method is not inline)."""
    return start_method() != "inline"


def forks() -> bool:
    """Whether children are forked: they then inherit what the parent has loaded."""
    return start_method() == "fork"


def process_context() -> Any:
    """The ``multiprocessing`` context of :func:`start_method` (not for ``inline``)."""
    import multiprocessing

    return multiprocessing.get_context(start_method())


# --------------------------------------------------------------------------- parent death

#: How often a child checks that its parent still runs (where no signal tells it).
PARENT_POLL_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent(parent_pid: int) -> None:
    """In a child process: end it as soon as the process ``parent_pid`` that started it ends,
    however that ends (a SIGKILL runs no clean-up in the parent, which could stop it).

    A child cannot rely on the pipes it reads: forked siblings inherit each other's pipe ends,
    so none of them sees EOF when the parent dies, and an extraction worker killed with its
    build would otherwise run on, re-parented, holding hundreds of MB. So: on Linux the kernel
    sends SIGKILL on the parent's death (``PR_SET_PDEATHSIG``); everywhere, a thread checks
    every :data:`PARENT_POLL_SECONDS` that the parent is still there.
    """
    if sys.platform.startswith("linux"):
        _parent_death_signal()
    if not _parent_alive(parent_pid):  # it died before the signal was set up
        os._exit(1)
    watch = threading.Thread(
        target=_watch_parent, args=(parent_pid,), name="kg-parent-watch", daemon=True
    )
    watch.start()


def _parent_death_signal() -> bool:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False  # no prctl here: the watch thread still ends the child


def _parent_alive(parent_pid: int) -> bool:
    if sys.platform == "win32":  # no re-parenting: ask through the handle multiprocessing has
        import multiprocessing

        parent = multiprocessing.parent_process()
        return parent is None or parent.is_alive()
    # A child whose parent died is re-parented (to init or a sub-reaper): its ppid changes.
    return os.getppid() == parent_pid


def _watch_parent(parent_pid: int) -> None:
    while _parent_alive(parent_pid):
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # from this thread: ends the process at once, whatever the main one does


# --------------------------------------------------------------------------- stages


class Stages(Protocol):
    """The values of a generator computed elsewhere (or later), one by one: ``next()`` waits
    for the next value and re-raises what the generator raised; with ``inbox``, the generator
    gets a function returning what the caller :meth:`send` s; ``close()`` stops it."""

    def send(self, value: Any) -> None: ...

    def next(self, last: bool = False) -> Any: ...

    def close(self) -> None: ...


def start_stages(
    fn: Callable[..., Iterator[Any]],
    *args: Any,
    inbox: bool = False,
    died: Callable[[], KgError] | None = None,
) -> Stages:
    """Start computing the generator ``fn(*args)``: in a child process, or, with the
    ``inline`` start method, in this one as its values are asked for. ``fn`` and ``args`` must
    be picklable under ``spawn`` (a module-level function and plain data). ``died`` makes the
    error raised when the child ends without a word (killed, out of memory).

    >>> stages = start_stages(iter, [1, 2])
    >>> stages.next(), stages.next(last=True)
    (1, 2)
    """
    if start_method() == "inline":
        return InlineStages(fn, args, inbox)
    return ProcessStages(fn, args, inbox, died or _died)


def _died() -> KgError:
    return KgError("a build process died (out of memory?)")


class InlineStages:
    """:class:`Stages` computed in the calling process, when asked for."""

    def __init__(self, fn: Callable[..., Iterator[Any]], args: tuple[Any, ...], inbox: bool):
        self._inbox: collections.deque[Any] = collections.deque()
        if inbox:
            args = (self._receive, *args)
        self._values = fn(*args)

    def _receive(self) -> Any:
        if not self._inbox:
            raise KgError("a build stage waited for a value no one sent")
        return self._inbox.popleft()

    def send(self, value: Any) -> None:
        self._inbox.append(value)

    def next(self, last: bool = False) -> Any:
        try:
            value = next(self._values)
        except StopIteration:
            raise KgError("a build stage ended early") from None
        finally:
            if last:
                self.close()
        return value

    def close(self) -> None:
        close = getattr(self._values, "close", None)
        if close is not None:
            close()


def _serve_stages(
    conn: Any,
    parent_pid: int,
    fn: Callable[..., Iterator[Any]],
    args: tuple[Any, ...],
    inbox: bool,
) -> None:
    # In the child: send each value as it is ready, or the exception that stopped it.
    die_with_parent(parent_pid)
    try:
        for value in fn(conn.recv, *args) if inbox else fn(*args):
            conn.send((True, value))
    except BaseException as exc:
        conn.send((False, exc))
    finally:
        conn.close()


class ProcessStages:
    """:class:`Stages` computed in a child process, started at once."""

    def __init__(
        self,
        fn: Callable[..., Iterator[Any]],
        args: tuple[Any, ...],
        inbox: bool,
        died: Callable[[], KgError],
    ) -> None:
        ctx = process_context()
        self._died = died
        self._conn, child = ctx.Pipe(duplex=inbox)
        self._proc = ctx.Process(
            target=_serve_stages, args=(child, os.getpid(), fn, args, inbox), daemon=True
        )
        self._proc.start()
        child.close()
        # Values leave the pipe as soon as the child sends them, so a child that has sent its
        # last one exits and frees its working memory, instead of holding it until this
        # process asks (the text similarity's child held all of it through the extraction).
        self._values: queue.SimpleQueue[tuple[bool, Any] | None] = queue.SimpleQueue()
        self._receiver = threading.Thread(target=self._receive, daemon=True)
        self._receiver.start()

    def _receive(self) -> None:
        try:
            while True:
                item = self._conn.recv()
                self._values.put(item)
                if not item[0]:
                    return
        except (EOFError, OSError):
            self._values.put(None)  # the child has ended (or was ended)
        except Exception as exc:  # a value that cannot be unpickled here: raised by next()
            self._values.put((False, exc))

    def send(self, value: Any) -> None:
        """A child that has stopped already (its error waits for :meth:`next`) takes nothing."""
        with contextlib.suppress(BrokenPipeError):
            self._conn.send(value)

    def next(self, last: bool = False) -> Any:
        item = self._values.get()
        if item is None:
            self.close()
            raise self._died()
        ok, value = item
        if not ok or last:
            self.close()
        if not ok:
            raise value
        return value

    def close(self) -> None:
        if self._proc.is_alive():
            self._proc.terminate()
        self._proc.join()
        self._receiver.join()  # the child's end is closed: it has seen the end of the pipe
        self._conn.close()


def forked_map(fn: Callable[[_T], _R], items: Sequence[_T]) -> list[_R]:
    """``[fn(x) for x in items]``, the items after the first computed at once by forked copies
    of this process, this one computing the first; one by one here where children are not
    forked (:func:`forks`).

    For a process that has loaded what ``fn`` needs and has work worth splitting, but may not
    start a process pool (a stage's child is a daemon): a copy shares the loaded memory at
    no cost. Each copy sends its value back pickled through a pipe (``fn``'s values must
    pickle) and ends with its parent; an exception it raised is raised here, as is a
    :class:`KgError` when one dies without a word.

    >>> forked_map(len, ["a", "bb", "ccc"])
    [1, 2, 3]
    """
    if len(items) < 2 or not forks():
        return [fn(x) for x in items]
    import pickle

    parent = os.getpid()
    children: list[tuple[int, int]] = []  # (pid, the read end of its pipe)
    try:
        for x in items[1:]:
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the copy: compute, send, and end without any clean-up of the parent's
                os.close(read)
                code = 0
                try:
                    die_with_parent(parent)
                    payload: tuple[bool, Any] = (True, fn(x))
                except BaseException as exc:
                    payload, code = (False, exc), 1
                try:
                    with os.fdopen(write, "wb") as sink:
                        pickle.dump(payload, sink, protocol=pickle.HIGHEST_PROTOCOL)
                finally:
                    os._exit(code)
            os.close(write)  # (so that a later copy does not hold it open)
            children.append((pid, read))
        out = [fn(items[0])]
        while children:
            pid, read = children.pop(0)
            with os.fdopen(read, "rb") as source:
                data = source.read()
            os.waitpid(pid, 0)
            if not data:
                raise KgError("a forked process died (out of memory?)")
            ok, value = pickle.loads(data)
            if not ok:
                raise value
            out.append(value)
        return out
    finally:
        for pid, read in children:  # left when this one raised: stopped, not waited for long
            os.close(read)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


# --------------------------------------------------------------------------- process tuning

_gc_pauses = False


def tune_process(extraction: bool = False) -> bool:
    """Tune this process for a kg command: garbage-collector pauses in the build's stages
    (:func:`paused_gc`), and with ``extraction`` steady malloc thresholds too (they suit the
    extraction's many same-sized arrays, not a command that loads one big index). For the
    ``kg`` command only, never a library function; does nothing under ``KG_FAST=0``. Returns
    whether it tuned."""
    global _gc_pauses
    if not fast.enabled():
        return False
    if extraction:
        steady_malloc()
    _gc_pauses = True
    return True


def yield_the_cpu() -> bool:
    """Lower this child process's priority to the least (Unix ``nice``): for work that must be
    done by a later stage while the stages before it are on the critical path.

    An incremental build has three processes on its way early on: the build's own, resolving
    the cached extractions; a child extracting the new texts; and a child computing the text
    similarity, which is not needed before graph assembly. On two cores the three shared the
    CPU, and the build waited for the extraction; when the similarity's child yields, it runs
    in what the other two leave (the same result, sooner). Never in the caller's own process
    (only a child started by :mod:`multiprocessing` lowers its priority): True when it did.
    """
    import multiprocessing

    if multiprocessing.parent_process() is None or not hasattr(os, "nice"):
        return False
    os.nice(19)
    return True


def release_free_memory() -> bool:
    """Hand the heap memory this process has freed back to the system (glibc's
    ``malloc_trim``), between a stage that made much garbage and one that lasts.

    glibc keeps freed memory for later allocations (more of it under :func:`steady_malloc`'s
    thresholds), and it counts as the process's own until then: the reader of a cold build,
    once it has sent the papers it parsed, held twice what it needed through the text
    similarity. Returns False where there is no glibc (nothing changes)."""
    libc = _glibc()
    return libc is not None and bool(libc.malloc_trim(0))


def _glibc() -> Any:
    """The C library where it is glibc (its ``mallopt`` and ``malloc_trim``), else None."""
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None
    except OSError:
        return None


@lru_cache(maxsize=1)
def steady_malloc() -> bool:
    """Fix glibc malloc's thresholds, so that the extraction's short-lived arrays reuse heap
    memory instead of being mapped and unmapped (and page-faulted in again) on every batch.

    By default glibc serves a block over its mmap threshold (128 KiB, raised as big blocks are
    freed) with its own mapping and unmaps it on free, and trims the heap top when 128 KiB are
    free. Which of these a process gets depends on its allocation history, which forked workers
    inherit: the same abstracts read from many files or from few made the workers' page faults
    and system time differ many times over. Fixed thresholds make it steady without more peak
    memory. Returns False where there is no glibc (nothing changes).
    """
    libc = _glibc()
    if libc is None:
        return False
    mmap_ok = libc.mallopt(_M_MMAP_THRESHOLD, 64 << 20)
    trim_ok = libc.mallopt(_M_TRIM_THRESHOLD, 256 << 20)
    return bool(mmap_ok and trim_ok)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block, in a process :func:`tune_process`
    tuned (elsewhere the block runs as it is). Nesting is fine.

    A build holds a great many small objects (papers, mentions, entities, graph attributes)
    and allocates more in every stage; the collector would re-scan all of them again and
    again, and the build's data has no reference cycles for it to find.
    """
    if not _gc_pauses:
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                # Move what the block allocated to the oldest generation: else the young
                # collections right after it scan every object it made. Cycles among them are
                # still collected, by the next full collection.
                gc.freeze()
                gc.unfreeze()
            gc.enable()
