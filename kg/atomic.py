"""Writing a file so that a reader never sees half of it: :func:`atomic_write`.

The bytes go to a temporary file beside the target (same folder, so the same file system),
which is renamed over the target with :func:`os.replace` once complete. A rename is atomic:
whatever kills the writer (an exception, SIGKILL, a full disk), the target is the old complete
file or the new complete one. A failed write removes its temporary file; one left by a killed
process (it had no chance to) is removed by the next write of the same target.

The temporary file is not synced to disk before the rename: that protects against a power cut
mid-write only, and would cost every build a flush of its graph file. (ext4 and most other
file systems order a replacing rename after the data it renames.)
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

#: A temporary file whose writer cannot be asked whether it is alive (another machine on a
#: shared folder, a recycled pid) is debris once this old.
STALE_SECONDS = 24 * 3600
TEMP_SUFFIX = ".tmp"


def temp_path(target: Path) -> Path:
    """A fresh temporary name beside ``target``: ``{name}.{pid}-{random}.tmp``. The pid lets
    the next run tell a dead writer's debris from a live writer's file; the random part keeps
    two threads (or two builds of one target) from sharing one."""
    return target.with_name(f"{target.name}.{os.getpid()}-{os.urandom(4).hex()}{TEMP_SUFFIX}")


def _writer_pid(temp: Path, target: Path) -> int | None:
    middle = temp.name[len(target.name) + 1 : -len(TEMP_SUFFIX)]  # "{pid}-{random}"
    pid, _, rest = middle.partition("-")
    return int(pid) if pid.isdigit() and rest else None


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (this one does; another user's counts as alive)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: alive (or unknowable: keep the file)
    return True


def remove_debris(target: Path) -> int:
    """Delete the temporary files that writers of ``target`` left when killed: those of a
    process that no longer runs, any older than :data:`STALE_SECONDS`, and the fixed
    ``{name}.tmp`` of older kg releases. Returns how many were deleted."""
    removed = 0
    if not target.parent.is_dir():
        return 0
    legacy = target.with_name(target.name + TEMP_SUFFIX)
    if legacy.is_file():  # no kg writes this name any more: an old release's debris
        with contextlib.suppress(OSError):
            legacy.unlink()
            removed += 1
    for temp in target.parent.glob(f"{_glob_escape(target.name)}.*{TEMP_SUFFIX}"):
        pid = _writer_pid(temp, target)
        try:
            old = time.time() - temp.stat().st_mtime > STALE_SECONDS
        except OSError:
            continue  # gone already
        if old or (pid is not None and not pid_alive(pid)):
            with contextlib.suppress(OSError):
                temp.unlink()
                removed += 1
    return removed


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


@contextmanager
def atomic_write(
    path: str | Path, mode: str = "wb", encoding: str | None = None
) -> Iterator[IO[Any]]:
    """Open a temporary file for ``path`` (``mode`` ``"wb"`` or ``"w"``); when the block ends
    without an exception, rename it over ``path``. On an exception the temporary file is
    deleted and ``path`` is left as it was.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "x.txt"
    >>> with atomic_write(target, "w") as f:
    ...     _ = f.write("complete")
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('complete', ['x.txt'])
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"atomic_write writes a whole file: mode 'wb' or 'w', not {mode!r}")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_debris(target)
    temp = temp_path(target)
    # O_EXCL: never write into a file someone else made; 0o666 and the umask give the
    # permissions a plain open() would (mkstemp's 0o600 would hide a graph from its group).
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        f: IO[Any] = (
            os.fdopen(fd, "w", encoding=encoding or "utf-8") if mode == "w" else os.fdopen(fd, "wb")
        )
        with f:
            yield f
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def write_bytes(path: str | Path, data: bytes) -> Path:
    """``Path(path).write_bytes(data)``, atomically (:func:`atomic_write`)."""
    with atomic_write(path, "wb") as f:
        f.write(data)
    return Path(path)


def write_text(path: str | Path, text: str, encoding: str = "utf-8") -> Path:
    """``Path(path).write_text(text)``, atomically (:func:`atomic_write`)."""
    with atomic_write(path, "w", encoding=encoding) as f:
        f.write(text)
    return Path(path)
