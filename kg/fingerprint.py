"""Digests of kg's own code and data, which key its caches: a change to what a cached result
depends on must make the old result unreachable."""

from __future__ import annotations

import hashlib
from pathlib import Path


def tree_digest(root: Path) -> str:
    """A digest of every file under ``root`` (names relative to it, and contents), bytecode
    caches left out: editing, adding or renaming any file changes it."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]
