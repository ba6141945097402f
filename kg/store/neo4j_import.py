"""Neo4j's bulk importer: the graph as the CSV files of ``neo4j-admin database import full``.

``kg load`` writes through Bolt transactions. The importer writes a fresh database's store
files directly, with the server stopped, which is far faster for a big graph. The files written
here make the imported database hold what ``kg load`` writes for the same graph; what goes
into them, and why, is :mod:`kg.store.neo4j_import_plan`. What CSV cannot say goes into
:data:`AFTER_IMPORT`, a Cypher file to run once on the imported database: kg load's
constraints and indexes (the Community importer creates none: ``--schema`` needs the block
format, which Community lacks; 5.26 answers "Record format batch import does not support schema
changes") and the empty lists no CSV field can hold.

Each file is its own importer input, header first (``--nodes=FILE``).

The export reads the graph twice (once to learn the columns, once to write the rows) and
streams the rows to the files, so it never holds a second copy of the graph. It writes into a
temporary folder beside the target and renames it into place: a killed export leaves no half
folder (the next export removes the temporary one).
"""

from __future__ import annotations

import contextlib
import csv
import glob
import re
import shlex
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from kg import atomic
from kg.errors import GraphFileError, Neo4jError
from kg.schema import KEY
from kg.store.neo4j_connection import Neo4jConnection, neo4j_error
from kg.store.neo4j_import_plan import (
    NODES,
    RELATIONSHIPS,
    ImportGroup,
    ImportPlan,
    after_import_text,
    cell,
    char_option,
    header,
    list_marker,
    loader_extras,
    node_rows,
    plan_import,
    rel_rows,
    schema_order,
)

if TYPE_CHECKING:  # networkx is imported where it is used: the CLI starts faster without it
    import networkx as nx

#: The Cypher file to run once on the imported database (constraints, index, empty lists).
AFTER_IMPORT = "after-import.cypher"
#: The database ``neo4j-admin`` imports into unless told otherwise (Community's only one).
DEFAULT_DATABASE = "neo4j"
#: What :func:`kg.atomic.temp_path` puts between the target's name and ``.tmp``.
_TEMP_SHAPE = re.compile(r"(\d+)-[0-9a-f]+")
#: The importer options whose defaults the files rely on, spelled out so another version's
#: defaults cannot change what is read (legacy quoting would end a field at ``\\"``).
_FIDELITY_OPTIONS = ("--legacy-style-quoting=false", "--ignore-empty-strings=false",
                     "--trim-strings=false")


# --------------------------------------------------------------------------- writing


@dataclass
class ImportFile:
    """One importer input: a CSV file (header first) of one label's or type's rows."""

    name: str
    section: str  # NODES or RELATIONSHIPS
    group: str  # the label or relationship type
    header: list[str]
    rows: int = 0


@dataclass
class ImportExport:
    """What :func:`write_neo4j_import` wrote, and the importer command that reads it."""

    directory: Path
    files: list[ImportFile]
    array_delimiter: str
    multiline: bool
    seconds: float

    def _counts(self, section: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        for f in self.files:
            if f.section == section:
                counts[f.group] = counts.get(f.group, 0) + f.rows
        return counts

    @property
    def nodes(self) -> dict[str, int]:
        return self._counts(NODES)

    @property
    def rels(self) -> dict[str, int]:
        return self._counts(RELATIONSHIPS)

    @property
    def after_import(self) -> Path:
        return self.directory / AFTER_IMPORT

    def admin_args(self, database: str = DEFAULT_DATABASE) -> list[str]:
        """The arguments of ``neo4j-admin`` that import the files (absolute paths). The
        database comes first: ``--nodes`` and ``--relationships`` take every word after them."""
        root = self.directory.resolve()
        return [
            "database", "import", "full", database,
            f"--array-delimiter={char_option(self.array_delimiter)}",
            *(["--multiline-fields=true"] if self.multiline else []),
            *_FIDELITY_OPTIONS,
            *(f"--{f.section}={root / f.name}" for f in self.files),
        ]

    def command(self, database: str = DEFAULT_DATABASE) -> str:
        """The ``neo4j-admin`` command line, one argument group per line."""
        args = self.admin_args(database)
        head, options = shlex.join(["neo4j-admin", *args[:4]]), args[4:]
        return " \\\n    ".join([head, *(shlex.quote(a) for a in options)])

    def to_dict(self, database: str = DEFAULT_DATABASE) -> dict[str, Any]:
        return {
            "directory": str(self.directory.resolve()),
            "files": [{"name": f.name, "section": f.section, "group": f.group, "rows": f.rows,
                       "header": f.header} for f in self.files],
            "nodes": self.nodes, "rels": self.rels,
            "node_count": sum(self.nodes.values()), "rel_count": sum(self.rels.values()),
            "array_delimiter": char_option(self.array_delimiter),
            "multiline_fields": self.multiline,
            "after_import": str(self.after_import.resolve()),
            "admin_args": self.admin_args(database),
            "command": self.command(database),
            "seconds": round(self.seconds, 3),
        }


def write_neo4j_import(
    G: nx.MultiDiGraph, directory: str | Path, force: bool = False
) -> ImportExport:
    """Write ``G`` as the importer's CSV files and :data:`AFTER_IMPORT` into ``directory``.

    ``directory`` must not exist or be empty, unless ``force`` (then it is replaced). The files
    appear together or not at all (see the module's doc).

    >>> import networkx as nx, tempfile
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("p1", label="Paper", title='A "B", C', year=2024, keywords=[])
    >>> G.add_node("method:m", label="Method", name="M", aliases=["m", "M"])
    >>> _ = G.add_edge("p1", "method:m", key="USES", type="USES", count=1, confidence=0.5)
    >>> out = write_neo4j_import(G, Path(tempfile.mkdtemp()) / "csv")
    >>> [(f.name, f.rows) for f in out.files]
    [('nodes-Paper.csv', 1), ('nodes-Method.csv', 1), ('relationships-USES.csv', 1)]
    >>> [h for h in out.files[0].header if h.startswith(("id", "title", "year", "kg_"))]
    ['id:ID', 'title:string', 'year:long', 'kg_managed:boolean', 'kg_empty_lists:string[]']
    >>> print((out.directory / "nodes-Method.csv").read_text(), end="")
    "id:ID",":LABEL","aliases:string[]","name:string","kg_managed:boolean"
    "method:m","Method","m\x1fM","M","true"
    """
    t0 = time.perf_counter()
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise GraphFileError(f"{target}: exists and is not a folder")
    if target.is_dir() and any(target.iterdir()) and not force:
        raise GraphFileError(f"{target}: the folder is not empty (--force replaces it)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_debris(target)
        plan = plan_import(G, *loader_extras(G))
        # Beside the target (the same file system), so the final rename is atomic.
        temp = atomic.temp_path(target)
        temp.mkdir()
        try:
            files = _write_files(G, plan, temp)
            (temp / AFTER_IMPORT).write_text(after_import_text(plan), encoding="utf-8")
            _move_into_place(temp, target)
        except BaseException:
            shutil.rmtree(temp, ignore_errors=True)
            raise
    except OSError as exc:
        raise GraphFileError(f"{target}: cannot write ({exc.strerror or exc})") from None
    return ImportExport(directory=target, files=files, array_delimiter=plan.array_delimiter,
                        multiline=plan.multiline, seconds=time.perf_counter() - t0)


def _write_files(G: nx.MultiDiGraph, plan: ImportPlan, folder: Path) -> list[ImportFile]:
    """The second pass: each row to the file of its group and columns, opened on first use."""
    files: dict[tuple[str, str, tuple[tuple[str, str], ...]], ImportFile] = {}
    writers: dict[tuple[str, str, tuple[tuple[str, str], ...]], Any] = {}
    delimiter = plan.array_delimiter
    with contextlib.ExitStack() as stack:

        def writer_for(group: ImportGroup, props: Mapping[str, Any]) -> tuple[Any, ImportFile, Any]:
            columns = group.columns(props)
            key = (group.section, group.name, columns)
            if key not in writers:
                n = sum(1 for k in files if k[:2] == key[:2])
                name = f"{group.section}-{group.name}{f'-{n + 1}' if n else ''}.csv"
                handle: IO[str] = stack.enter_context(
                    (folder / name).open("w", encoding="utf-8", newline="")
                )
                w = csv.writer(handle, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
                files[key] = ImportFile(name, group.section, group.name, header(group, columns))
                w.writerow(files[key].header)
                writers[key] = w
            return writers[key], files[key], columns

        for label, props in node_rows(G, plan.extra):
            group = plan.groups[(NODES, label.value)]
            w, f, columns = writer_for(group, props)
            w.writerow([props[KEY], label.value,
                        *(cell(_field(props, p), delimiter) for p, _ in columns if p != KEY),
                        "true", *(cell(m, delimiter) for m in group.markers(props))])
            f.rows += 1
        for rel, src, dst, props in rel_rows(G):
            group = plan.groups[(RELATIONSHIPS, rel.value)]
            w, f, columns = writer_for(group, props)
            w.writerow([src, dst, rel.value,
                        *(cell(_field(props, p), delimiter) for p, _ in columns),
                        *(cell(m, delimiter) for m in group.markers(props))])
            f.rows += 1
    # (A stable sort: a group's files stay in the order they were opened, -2 after the first.)
    return sorted(files.values(), key=lambda f: schema_order((f.section, f.group)))


def _field(props: Mapping[str, Any], prop: str) -> Any:
    # A list no field can hold is no field: its marker names it (in a string column, "" would
    # read as an empty string until after-import.cypher ran).
    value = props.get(prop)
    return None if list_marker(value) is not None else value


def _move_into_place(temp: Path, target: Path) -> None:
    """Rename ``temp`` to ``target``; an existing ``target`` (empty, or replaced with --force)
    is renamed aside first and deleted after: a kill in between leaves both as debris that the
    next export removes, never a half-written folder under the target's name."""
    if not target.exists():
        temp.rename(target)
        return
    old = atomic.temp_path(target)
    target.rename(old)
    temp.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def remove_debris(target: Path) -> int:
    """Delete the temporary folders that exports to ``target`` left when killed (those of a
    process that no longer runs, or older than :data:`kg.atomic.STALE_SECONDS`), named as
    :func:`kg.atomic.temp_path` names them. Returns how many were deleted."""
    removed = 0
    for temp in target.parent.glob(f"{glob.escape(target.name)}.*{atomic.TEMP_SUFFIX}"):
        # Only names of temp_path's shape, "{pid}-{random}": rmtree is no place for guesses.
        shape = _TEMP_SHAPE.fullmatch(temp.name[len(target.name) + 1 : -len(atomic.TEMP_SUFFIX)])
        if shape is None or not temp.is_dir():
            continue
        try:
            old = time.time() - temp.stat().st_mtime > atomic.STALE_SECONDS
        except OSError:
            continue
        if old or not atomic.pid_alive(int(shape[1])):
            shutil.rmtree(temp, ignore_errors=True)
            removed += 1
    return removed


# --------------------------------------------------------------------------- after the import


def after_import_file_statements(path: str | Path) -> list[str]:
    """The statements of an :data:`AFTER_IMPORT` file (one per line, ``//`` comments)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [line.strip().rstrip(";") for line in lines
            if line.strip() and not line.lstrip().startswith("//")]


def run_after_import(conn: Neo4jConnection, path: str | Path) -> int:
    """Run an :data:`AFTER_IMPORT` file against ``conn``, each statement in an implicit
    transaction (what ``CALL ... IN TRANSACTIONS`` needs), as ``cypher-shell -f`` would.
    Returns the number of statements run."""
    stmts = after_import_file_statements(path)
    try:
        with conn.driver.session(database=conn.database) as session:
            for stmt in stmts:
                session.run(stmt).consume()
    except Neo4jError:
        raise
    except Exception as exc:
        raise neo4j_error(exc, conn) from None
    return len(stmts)
