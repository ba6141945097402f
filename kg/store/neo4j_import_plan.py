"""What Neo4j's bulk importer reads: the rows, the columns and the Cypher to run after it.

:mod:`kg.store.neo4j_import` writes these as files; here is what goes into them, as pure
functions of the graph. The imported database must hold what ``kg load`` writes for the same
graph, so the rows are kg load's own (:mod:`kg.store.neo4j_rows`): the same nodes and labels,
the same properties with the same Cypher types (lists as arrays), the same relationships and
their properties, and the ``kg_managed`` marker.

* **Columns.** A column has one type per file (``year:long``, ``aliases:string[]``) while kg
  load stores each value with its own type, so where a property's values differ in type
  within one label or relationship type (an int in most nodes, a string in a few), the rows of
  a rarer type go to a file of their own (``nodes-Paper-2.csv``). Integers are ``long`` and
  floats ``double``: the importer's ``int`` and ``float`` are 32-bit (a float column turns 0.9
  into 0.8999999761581421).
* **Fields.** Node ids go into the importer's global id space: kg ids are unique across
  labels (an entity's starts with its type). Strings are always quoted and nulls never (the
  importer reads ``""`` as an empty string and an empty unquoted field as no value); array
  elements are joined with a control character that none of them contains
  (:data:`ARRAY_DELIMITERS`).
* **Empty lists.** An empty field means "no property", and no field means an empty array (nor
  ``[""]``, a list of one empty string). Where ``aliases`` is one of those, the row names
  ``aliases`` in a temporary marker property instead (:data:`LIST_MARKERS`); the after-import
  Cypher (:func:`after_import_statements`) sets those lists and removes the markers, after it
  has created kg load's constraints and indexes (the Community importer creates none).
* **Beyond the graph file.** What ``kg load`` gives nodes that the file does not hold (the
  papers' text vectors, and then their vector index) comes from the loader's own code
  (:func:`loader_extras`), so the numbers are the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from kg.errors import Neo4jError
from kg.query.canned import cypher_literal
from kg.schema import KEY, LABEL_ATTR, REL_TYPES, TYPE_ATTR, Label
from kg.store.neo4j_rows import (  # kg load's own quoting and values: the same Cypher and data
    ALL_RELS,
    MANAGED,
    RelType,
    ident,
    neo4j_value,
    node_properties,
    schema_statements,
)

if TYPE_CHECKING:  # networkx is imported where it is used: the CLI starts faster without it
    import networkx as nx

#: The lists no CSV field can hold, and for each the temporary property that names a row's
#: properties holding it (set and removed by the after-import Cypher).
LIST_MARKERS: dict[tuple[str, ...], str] = {(): "kg_empty_lists", ("",): "kg_blank_lists"}
#: Array delimiters, best first: the first that no array element contains is used.
ARRAY_DELIMITERS = ("\x1f", "\x1e", "\x1d", "\x1c")
#: Rows per transaction of the after-import statements that set the empty lists.
FIXUP_BATCH = 10_000

NODES, RELATIONSHIPS = "nodes", "relationships"
#: :func:`value_kind` of an empty list (which goes to a marker, so fits any column).
EMPTY = "[]"
#: Property names must be plain identifiers: a header column is ``name:type``.
_SAFE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Null(float):
    """The one field written empty and unquoted: the importer reads it as no value.

    csv's QUOTE_NONNUMERIC quotes every field that is not a number, and would write None as a
    quoted ``""`` (an empty string to the importer); a float it writes unquoted, by ``repr()``.
    (Python 3.12's QUOTE_STRINGS says this directly; kg supports 3.10.)
    """

    def __repr__(self) -> str:
        return ""

    __str__ = __repr__


NULL = _Null()


# --------------------------------------------------------------------------- rows


def node_row(node: Any, attrs: Mapping[str, Any]) -> tuple[Label, dict[str, Any]]:
    """The label and properties ``kg load`` writes for one node, nulls left out (``SET n =
    row.props`` stores none). Keep in step with :func:`kg.store.neo4j_rows.graph_to_rows`.

    >>> node_row("p1", {"label": "Paper", "title": "T", "year": None, "keywords": []})
    (<Label.PAPER: 'Paper'>, {'id': 'p1', 'keywords': [], 'name': 'p1', 'title': 'T'})
    """
    label, props = node_properties(node, attrs)
    return label, {k: v for k, v in sorted(props.items()) if v is not None}


def rel_row(
    src: str, dst: str, key: Any, attrs: Mapping[str, Any]
) -> tuple[RelType, dict[str, Any]]:
    """The type and properties ``kg load`` writes for one edge (``src``/``dst`` are the ends'
    ids), nulls left out.

    >>> rel_row("p1", "method:x", "USES", {"type": "USES", "count": 2, "evidence": None})
    (<Rel.USES: 'USES'>, {'count': 2})
    """
    rel = REL_TYPES.get(attrs.get(TYPE_ATTR) or key)
    if rel is None:
        raise Neo4jError(f"edge {src!r} -> {dst!r} has no kg type (got {key!r})")
    props = {k: neo4j_value(x) for k, x in attrs.items() if k != TYPE_ATTR}
    return rel, {k: v for k, v in sorted(props.items()) if v is not None}


def value_kind(value: Any) -> str | None:
    """The importer's column type for a value as :func:`kg.store.neo4j_rows.neo4j_value` leaves it
    (what ``kg load`` stores): None for null, ``"[]"`` for an empty list. A list with a
    float is ``double[]``: Neo4j stores ``[1, 2.5]`` as ``[1.0, 2.5]``.

    >>> [value_kind(v) for v in ("a", 1, 0.5, True, ["a"], [1, 2], [1, 0.5], [], None)]
    ['string', 'long', 'double', 'boolean', 'string[]', 'long[]', 'double[]', '[]', None]
    """
    if value is None:
        return None
    if isinstance(value, bool):  # (before int: a bool is an int)
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        if not value:
            return EMPTY
        if all(isinstance(v, str) for v in value):
            return "string[]"
        return "double[]" if any(isinstance(v, float) for v in value) else "long[]"
    raise TypeError(f"not a Neo4j property value: {value!r}")


def list_marker(value: Any) -> str | None:
    """The marker property that stands for ``value`` if no CSV field can hold it.

    >>> list_marker([]), list_marker([""]), list_marker(["", ""]), list_marker("")
    ('kg_empty_lists', 'kg_blank_lists', None, None)
    """
    if isinstance(value, (list, tuple)) and len(value) <= 1:
        return LIST_MARKERS.get(tuple(value))
    return None


def cell(value: Any, delimiter: str) -> Any:
    """A CSV field for the csv module (QUOTE_NONNUMERIC): numbers as they are (floats by
    ``repr``, which reads back exactly), booleans as the importer's lower-case words, arrays
    joined by ``delimiter``, null as :data:`NULL`.

    >>> [cell(v, ";") for v in ("a", 3, 0.1, True, ["x", "y"], [0.5, 1])]
    ['a', 3, 0.1, 'true', 'x;y', '0.5;1']
    >>> cell(None, ";") is NULL
    True
    """
    if value is None:
        return NULL
    if isinstance(value, bool):  # the importer reads "TRUE" as false: only "true" is true
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return delimiter.join(v if isinstance(v, str) else repr(v) for v in value)
    return value


def char_option(char: str) -> str:
    """A character as the importer's options spell it.

    >>> char_option("\\x1f"), char_option(";")
    ('U+001F', ';')
    """
    return char if char.isprintable() and not char.isspace() else f"U+{ord(char):04X}"


# --------------------------------------------------------------------------- the plan


@dataclass
class ImportGroup:
    """What the first pass learns of one label's nodes or one type's relationships."""

    section: str  # NODES or RELATIONSHIPS
    name: str  # the label or relationship type
    rows: int = 0
    kinds: dict[str, dict[str, int]] = field(default_factory=dict)  # property -> type -> rows
    #: marker property -> the properties that somewhere hold its list (see LIST_MARKERS)
    marked: dict[str, set[str]] = field(default_factory=dict)

    def see(self, props: Mapping[str, Any]) -> None:
        self.rows += 1
        for prop, value in props.items():
            marker = list_marker(value)
            if marker is not None:
                self.marked.setdefault(marker, set()).add(prop)
            elif value is not None:
                kinds = self.kinds.setdefault(prop, {})
                kind = str(value_kind(value))
                kinds[kind] = kinds.get(kind, 0) + 1

    @cached_property
    def _first_columns(self) -> tuple[tuple[str, str], ...]:
        # Each property in its most common type (computed once the first pass is done).
        return tuple((prop, min(kinds, key=lambda k: (-kinds[k], k)))
                     for prop, kinds in sorted(self.kinds.items()))

    @cached_property
    def _mixed(self) -> frozenset[str]:
        return frozenset(prop for prop, kinds in self.kinds.items() if len(kinds) > 1)

    def columns(self, props: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        """The (property, type) columns of the file that ``props`` goes to: each property in
        its most common type in the group, unless this row's value has another. (So only the
        rows of a rarer type go to files of their own; a row without the property goes to the
        first file.) Call it after the first pass only."""
        if not self._mixed:
            return self._first_columns
        out = []
        for prop, kind in self._first_columns:
            value = props.get(prop)
            if prop in self._mixed and value is not None and list_marker(value) is None:
                kind = str(value_kind(value))
            out.append((prop, kind))
        return tuple(out)

    @cached_property
    def _markers(self) -> list[tuple[str, list[str]]]:
        return [(m, sorted(self.marked[m])) for m in sorted(self.marked)]

    def markers(self, props: Mapping[str, Any]) -> list[list[str] | None]:
        """The marker fields of a row: per marker, the row's properties that hold its list."""
        return [[p for p in names if list_marker(props.get(p)) == m] or None
                for m, names in self._markers]


@dataclass
class ImportPlan:
    """The first pass over a graph: the columns of each group, the array delimiter, and whether
    any string spans lines (the importer then needs ``--multiline-fields=true``)."""

    groups: dict[tuple[str, str], ImportGroup]
    array_delimiter: str
    multiline: bool
    #: what :func:`loader_extras` gave: properties kg load adds, the vector index's dimensions
    extra: Extra = field(default_factory=dict)
    dimensions: int = 0


#: Properties ``kg load`` adds to nodes beyond the graph file's, by node id.
Extra = Mapping[str, Mapping[str, Any]]


def loader_extras(G: nx.MultiDiGraph) -> tuple[dict[str, dict[str, Any]], int]:
    """What ``kg load`` gives nodes that the graph file does not hold: the papers' text
    vectors, from the loader's own :func:`kg.store.neo4j.add_text_vectors` (so the same
    numbers), by paper id; and their dimensions for the vector index (0: none). Only the
    papers' ids and vectors are held."""
    from kg.store.neo4j import add_text_vectors
    from kg.store.neo4j_rows import GraphRows

    papers: list[dict[str, Any]] = [
        {"id": str(attrs.get(KEY, node)), "props": {}}
        for node, attrs in G.nodes(data=True)
        if attrs.get(LABEL_ATTR) == Label.PAPER.value
    ]
    dimensions = add_text_vectors(G, GraphRows(nodes={Label.PAPER: papers}, rels={}))
    return {row["id"]: row["props"] for row in papers if row["props"]}, dimensions


def node_rows(G: nx.MultiDiGraph, extra: Extra) -> Iterator[tuple[Label, dict[str, Any]]]:
    for node, attrs in G.nodes(data=True):
        label, props = node_row(node, attrs)
        more = extra.get(props[KEY])
        yield label, {**props, **more} if more else props


def rel_rows(G: nx.MultiDiGraph) -> Iterator[tuple[RelType, str, str, dict[str, Any]]]:
    ids = G.nodes
    for u, v, key, attrs in G.edges(keys=True, data=True):
        src, dst = str(ids[u].get(KEY, u)), str(ids[v].get(KEY, v))
        rel, props = rel_row(src, dst, key, attrs)
        yield rel, src, dst, props


def plan_import(G: nx.MultiDiGraph, extra: Extra | None = None, dimensions: int = 0
                ) -> ImportPlan:
    """Read ``G`` once for what the files need to know before the first row is written.
    ``extra`` and ``dimensions``: what :func:`loader_extras` gave.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("p1", label="Paper", year=2024, authors=[])
    >>> G.add_node("p2", label="Paper", year="2025", authors=["A; B"])
    >>> plan = plan_import(G)
    >>> group = plan.groups[("nodes", "Paper")]
    >>> sorted(group.kinds["year"]), group.marked, plan.array_delimiter
    (['long', 'string'], {'kg_empty_lists': {'authors'}}, '\\x1f')
    """
    groups: dict[tuple[str, str], ImportGroup] = {}
    seen_chars: set[str] = set()
    multiline = False

    def look(props: Mapping[str, Any]) -> None:
        nonlocal multiline
        for prop, value in props.items():
            if not _SAFE_NAME.fullmatch(prop):
                raise Neo4jError(
                    f"property {prop!r} cannot be a column of Neo4j's importer (a name of "
                    "letters, digits and _ can)"
                )
            if isinstance(value, (list, tuple)):  # (one look at all of a list's strings)
                text = "".join(v for v in value if isinstance(v, str))
                seen_chars.update(c for c in ARRAY_DELIMITERS if c in text)
            elif isinstance(value, str):
                text = value
            else:
                continue
            multiline = multiline or "\n" in text or "\r" in text

    def group(section: str, name: str) -> ImportGroup:
        return groups.setdefault((section, name), ImportGroup(section, name))

    for label, props in node_rows(G, extra or {}):
        look(props)
        group(NODES, label.value).see(props)
    for rel, _, _, props in rel_rows(G):
        look(props)
        group(RELATIONSHIPS, rel.value).see(props)
    free = [c for c in ARRAY_DELIMITERS if c not in seen_chars]
    if not free:
        raise Neo4jError(
            "every array delimiter kg can use ("
            + ", ".join(char_option(c) for c in ARRAY_DELIMITERS)
            + ") occurs inside a list property: the importer could not split those lists"
        )
    return ImportPlan(groups=groups, array_delimiter=free[0], multiline=multiline,
                      extra=extra or {}, dimensions=dimensions)


def header(group: ImportGroup, columns: tuple[tuple[str, str], ...]) -> list[str]:
    """The header row of a file of ``group`` with these property columns.

    >>> group = ImportGroup("nodes", "Method", marked={"kg_empty_lists": {"aliases"}})
    >>> header(group, (("name", "string"),))
    ['id:ID', ':LABEL', 'name:string', 'kg_managed:boolean', 'kg_empty_lists:string[]']
    >>> header(ImportGroup("relationships", "USES"), (("count", "long"),))
    [':START_ID', ':END_ID', ':TYPE', 'count:long']
    """
    marker = [f"{m}:string[]" for m in sorted(group.marked)]
    if group.section == NODES:
        # The ID column's name is the property it is stored as: kg load's ``id``, a string.
        props = [f"{prop}:{kind}" for prop, kind in columns if prop != KEY]
        return [f"{KEY}:ID", ":LABEL", *props, f"{MANAGED}:boolean", *marker]
    props = [f"{prop}:{kind}" for prop, kind in columns]
    return [":START_ID", ":END_ID", ":TYPE", *props, *marker]


def after_import_statements(plan: ImportPlan) -> list[str]:
    """The Cypher to run once on the imported database: kg load's constraints and indexes,
    the empty lists (in transactions of :data:`FIXUP_BATCH` rows, so they need an
    implicit transaction, as cypher-shell runs them), then a wait for the indexes.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("method:x", label="Method", aliases=[])
    >>> [s for s in after_import_statements(plan_import(G)) if "kg_empty" in s][0][:62]
    'MATCH (n:`Method`) WHERE n.kg_empty_lists IS NOT NULL CALL (n)'
    """
    # (With dimensions, kg load's schema has the papers' vector index too.)
    stmts = schema_statements(plan.dimensions) if plan.dimensions else schema_statements()
    for (section, name), group in sorted(plan.groups.items(), key=lambda kv: schema_order(kv[0])):
        if not group.marked:
            continue
        v = "n" if section == NODES else "r"
        what = ident(name)
        match = f"MATCH ({v}:{what})" if section == NODES else f"MATCH ()-[{v}:{what}]->()"
        lists = {m: cypher_literal(list(value)) for value, m in LIST_MARKERS.items()}
        markers = sorted(group.marked)
        sets = ", ".join(
            f"{v}.{ident(p)} = CASE "
            + " ".join(f"WHEN '{p}' IN {v}.{m} THEN {lists[m]}" for m in markers
                       if p in group.marked[m])
            + f" ELSE {v}.{ident(p)} END"
            for p in sorted(set().union(*group.marked.values()))
        )
        stmts.append(
            f"{match} WHERE " + " OR ".join(f"{v}.{m} IS NOT NULL" for m in markers)
            + f" CALL ({v}) {{ SET {sets} REMOVE "
            + ", ".join(f"{v}.{m}" for m in markers)
            + f" }} IN TRANSACTIONS OF {FIXUP_BATCH} ROWS"
        )
    stmts.append("CALL db.awaitIndexes(300)")
    return stmts


def after_import_text(plan: ImportPlan) -> str:
    """:func:`after_import_statements` as the file's text: a comment, then one per line."""
    return (
        "// Run once on the database `neo4j-admin database import full` made from this folder,\n"
        "// with the server started: cypher-shell -f after-import.cypher\n"
        "// It creates kg load's constraints and indexes and sets the empty lists CSV cannot\n"
        "// hold. (In Neo4j Browser, start each CALL ... IN TRANSACTIONS with :auto.)\n"
        + "".join(f"{s};\n" for s in after_import_statements(plan))
    )


def schema_order(key: tuple[str, str]) -> tuple[int, int, str]:
    """Files in schema order: nodes by label, then relationships by type."""
    section, name = key
    names = [label.value for label in Label] if section == NODES else [
        rel.value for rel in ALL_RELS]
    return (0 if section == NODES else 1, names.index(name) if name in names else len(names), name)
