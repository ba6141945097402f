"""Canned Cypher queries: one ``.cypher`` file per query, shipped inside the package.

The files live in ``kg/cypher/`` and ship as package data, so ``pip install .`` installs them
and the Neo4j Browser user can copy them from there (``kg query show NAME`` prints one).

Each file starts with a header of ``//`` comment lines::

    // name: papers_on_dataset
    // answers: Which papers evaluate on a dataset, with the sentence that says so.
    // param dataset: "MMEB"  -- a dataset name or alias, any case

A ``param`` line gives the parameter's example value as JSON (so ``10`` is a number and
``"MMEB"`` a string), optionally followed by ``--`` and a description. Running a query
without a value for a parameter uses the example value, so every query runs out of the box.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from kg.errors import QueryError

HEADER_PREFIX = "//"


@dataclass
class Param:
    name: str
    example: Any
    description: str = ""


@dataclass
class Query:
    """A canned query: its name, what it answers, its parameters and its Cypher text."""

    name: str
    answers: str
    params: list[Param]
    text: str  # the whole file, header included (comments are valid Cypher)
    path: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def body(self) -> str:
        """The Cypher without the header comment."""
        lines = self.text.splitlines()
        while lines and (not lines[0].strip() or lines[0].lstrip().startswith(HEADER_PREFIX)):
            lines.pop(0)
        return "\n".join(lines).strip() + "\n"

    def example_params(self) -> dict[str, Any]:
        return {p.name: p.example for p in self.params}

    def bind(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """The parameters to run with: the example values overridden by ``given``."""
        given = dict(given or {})
        known = {p.name for p in self.params}
        unknown = sorted(set(given) - known)
        if unknown:
            expected = ", ".join(sorted(known)) or "none"
            raise QueryError(
                f"query {self.name!r} has no parameter {unknown[0]!r} (its parameters: {expected})"
            )
        return {**self.example_params(), **given}

    def browser_text(self, params: dict[str, Any] | None = None) -> str:
        """The query ready to paste into the Neo4j Browser: ``:param`` lines, then the query."""
        lines = [f":param {k} => {cypher_literal(v)};" for k, v in self.bind(params).items()]
        return "\n".join([*lines, "", self.text.rstrip(), ""]) if lines else self.text


def cypher_literal(value: Any) -> str:
    """A Cypher literal for a JSON-like value (for ``:param`` lines)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"`{k}`: {cypher_literal(v)}" for k, v in value.items()) + "}"
    raise QueryError(f"cannot write {value!r} as a Cypher literal")


def parse_query(text: str, path: str = "") -> Query:
    """Parse a ``.cypher`` file's header. Raises :class:`QueryError` if it is malformed."""
    fields: dict[str, str] = {}
    params: list[Param] = []
    decoder = json.JSONDecoder()
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if not line.startswith(HEADER_PREFIX):
            break
        content = line[len(HEADER_PREFIX):].strip()
        key, sep, rest = content.partition(":")
        if not sep:
            continue
        key, rest = key.strip(), rest.strip()
        if key.startswith("param "):
            name = key[len("param "):].strip()
            try:
                example, end = decoder.raw_decode(rest)
            except json.JSONDecodeError:
                raise QueryError(
                    f"{path}: example value of parameter {name!r} is not JSON: {rest!r}"
                ) from None
            desc = rest[end:].strip()
            desc = desc[2:].strip() if desc.startswith("--") else desc
            params.append(Param(name, example, desc))
        elif key and " " not in key and key not in fields:
            fields[key] = rest
    if "name" not in fields or "answers" not in fields:
        raise QueryError(f"{path}: a canned query needs '// name:' and '// answers:' lines")
    extra = {k: v for k, v in fields.items() if k not in ("name", "answers")}
    return Query(fields["name"], fields["answers"], params, text, path, extra)


def _files() -> list[Any]:
    root: Any = resources.files("kg") / "cypher"
    return sorted((f for f in root.iterdir() if f.name.endswith(".cypher")), key=lambda f: f.name)


def list_queries() -> list[Query]:
    """Every canned query, sorted by name."""
    queries = [parse_query(f.read_text(encoding="utf-8"), str(f)) for f in _files()]
    return sorted(queries, key=lambda q: q.name)


def get_query(name: str) -> Query:
    """The canned query called ``name`` (the file name without ``.cypher`` works too)."""
    queries = {q.name: q for q in list_queries()}
    key = name.removesuffix(".cypher")
    if key in queries:
        return queries[key]
    close = difflib.get_close_matches(key, list(queries), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else " (see `kg query list`)"
    raise QueryError(f"no canned query called {name!r}{hint}")


def parse_param_pairs(pairs: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """``["dataset=MMEB", "k=5"]`` → ``{"dataset": "MMEB", "k": 5}``: a value that is valid
    JSON (a number, true, a quoted string, a list) is taken as JSON, anything else as text."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise QueryError(f"parameter {pair!r} is not key=value")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


# --------------------------------------------------------------------------- running


@dataclass
class QueryResult:
    name: str
    params: dict[str, Any]
    columns: list[str]
    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.name, "params": self.params, "columns": self.columns,
                "rows": self.rows}


def plain(value: Any) -> Any:
    """A JSON-able form of a Neo4j value: a node becomes its properties plus ``labels``, a
    relationship its type and properties, a path a list of steps."""
    from neo4j.graph import Node, Path, Relationship

    if isinstance(value, Node):
        props = dict(value)
        props.pop("abstract", None)  # long; `kg show` prints it
        return {"labels": sorted(value.labels), **props}
    if isinstance(value, Relationship):
        return {"type": value.type, **dict(value)}
    if isinstance(value, Path):
        nodes = value.nodes
        steps = [_node_name(nodes[0])]
        for i, rel in enumerate(value.relationships):
            forward = rel.start_node is not None and (
                rel.start_node.element_id == nodes[i].element_id
            )
            steps.append(f"-[{rel.type}]->" if forward else f"<-[{rel.type}]-")
            steps.append(_node_name(nodes[i + 1]))
        return {"path": " ".join(steps), "length": len(value)}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "iso_format"):  # neo4j.time types
        return value.iso_format()
    return value


def _node_name(node: Any) -> str:
    label = sorted(node.labels)[0] if node.labels else ""
    return f"({label} {node.get('name') or node.get('id')})"


def run_query(conn: Any, name: str, params: dict[str, Any] | None = None) -> QueryResult:
    """Run canned query ``name`` on ``conn`` (a :class:`kg.store.neo4j.Neo4jConnection`),
    with its example values for every parameter not given."""
    query = get_query(name)
    bound = query.bind(params)
    columns, records = conn.read_records(query.text, **bound)
    rows = [{k: plain(rec[k]) for k in columns} for rec in records]
    return QueryResult(query.name, bound, columns, rows)
