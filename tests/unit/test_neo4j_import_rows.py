"""`kg export neo4j-import` without Neo4j: rows equal to kg load's, column types, CSV fields,
files per label and type, the after-import Cypher, the printed command, and the folder that
appears whole or not at all.

The importer itself runs in tests/integration/test_neo4j_import.py.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner

from kg import atomic
from kg.cli import main
from kg.errors import GraphFileError, Neo4jError
from kg.schema import ENTITY_LABELS, EntityRel, Label, Rel
from kg.store import neo4j_import as ni
from kg.store import neo4j_import_plan as nip
from kg.store.file import save_graph
from kg.store.neo4j_rows import MANAGED, graph_to_rows, schema_statements
from tests.unit.test_neo4j_rows import small_graph


def read_csv(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def raw_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def mixed_graph() -> nx.MultiDiGraph:
    """Types that differ within a label and a relationship type; empty and blank lists."""
    G = small_graph(3)
    G.nodes["paper:0000000000000001"]["year"] = "2025"  # a string where the others are ints
    G.nodes["paper:0000000000000002"]["similar_terms"] = [""]
    G.nodes["method:m"]["aliases"] = []
    G.add_edge("method:m", "task:t", key=EntityRel.USED_FOR.value,
               type=EntityRel.USED_FOR.value, papers=[], count=1, evidence=["x; y"],
               confidence=1)
    G.add_edge("method:m", "concept:c", key=EntityRel.USED_FOR.value,
               type=EntityRel.USED_FOR.value, papers=["paper:0000000000000000"], count=1,
               evidence=["z"], confidence=0.5)
    return G


# --------------------------------------------------------------------------- rows


def test_rows_are_kg_loads_without_nulls() -> None:
    G = mixed_graph()
    G.nodes["paper:0000000000000000"]["weird"] = {"nested": [1, 2]}
    G.nodes["paper:0000000000000000"]["mixed"] = ["a", 1, None]
    rows = graph_to_rows(G)
    for node, attrs in G.nodes(data=True):
        label, props = nip.node_row(node, attrs)
        want = next(r for r in rows.nodes[label] if r["id"] == node)["props"]
        assert props == {k: v for k, v in want.items() if v is not None}
    for u, v, key, attrs in G.edges(keys=True, data=True):
        rel, props = nip.rel_row(u, v, key, attrs)
        want = next(r for (t, _, _), rs in rows.rels.items() if t == rel for r in rs
                    if (r["src"], r["dst"]) == (u, v))["props"]
        assert props == {k: x for k, x in want.items() if x is not None}


def test_rows_reject_what_kg_load_rejects() -> None:
    with pytest.raises(Neo4jError, match="no kg label"):
        nip.node_row("x", {"label": "Paper) DETACH DELETE (n"})
    with pytest.raises(Neo4jError, match="no kg type"):
        nip.rel_row("a", "b", "EVIL`]->()", {"type": "EVIL`]->()"})


def test_value_kinds_and_cells() -> None:
    assert nip.value_kind(True) == "boolean" and nip.cell(False, ";") == "false"
    assert nip.value_kind(2**40) == "long" and nip.cell(2**40, ";") == 2**40
    assert nip.value_kind([3, 0.5]) == "double[]" and nip.cell([3, 0.5], ";") == "3;0.5"
    assert nip.cell(0.1 + 0.2, ";") == 0.1 + 0.2  # repr: reads back to the same double
    with pytest.raises(TypeError):
        nip.value_kind({"a": 1})


def test_nulls_are_unquoted_and_empty_strings_quoted(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    with path.open("w", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n").writerow(
            ["a", nip.NULL, "", 1, 0.5, nip.cell(True, ";")])
    assert path.read_text() == '"a",,"",1,0.5,"true"\n'


# --------------------------------------------------------------------------- the plan


def test_plan_splits_conflicting_types_and_marks_lists() -> None:
    plan = nip.plan_import(mixed_graph())
    papers = plan.groups[("nodes", "Paper")]
    assert papers.kinds["year"] == {"long": 1, "string": 1}
    assert papers.marked == {"kg_blank_lists": {"similar_terms"}, "kg_empty_lists": {"authors"}}
    used_for = plan.groups[("relationships", "USED_FOR")]
    assert used_for.kinds["confidence"] == {"long": 1, "double": 1}
    assert used_for.marked == {"kg_empty_lists": {"papers"}}
    assert not plan.multiline and plan.array_delimiter == "\x1f"


def test_plan_picks_a_delimiter_no_element_contains() -> None:
    G = small_graph(1)
    G.nodes["method:m"]["aliases"] = ["a\x1fb", "c\x1ed"]
    G.nodes["dataset:d"]["name"] = "\x1d in a string is fine"
    assert nip.plan_import(G).array_delimiter == "\x1d"
    G.nodes["task:t"]["aliases"] = ["\x1d\x1c"]
    with pytest.raises(Neo4jError, match="array delimiter"):
        nip.plan_import(G)


def test_plan_sees_multiline_strings_and_rejects_unsafe_names() -> None:
    G = small_graph(1)
    G.nodes["paper:0000000000000000"]["abstract"] = "one\ntwo"
    assert nip.plan_import(G).multiline
    G.nodes["paper:0000000000000000"]["bad:name"] = 1
    with pytest.raises(Neo4jError, match="bad:name"):
        nip.plan_import(G)


# --------------------------------------------------------------------------- files


def test_files_per_label_and_type_with_typed_headers(tmp_path: Path) -> None:
    G = mixed_graph()
    out = ni.write_neo4j_import(G, tmp_path / "csv")
    names = [f.name for f in out.files]
    # Schema order; a second file where a property's type differs (year: a string).
    assert names[:3] == ["nodes-Paper.csv", "nodes-Paper-2.csv", "nodes-Method.csv"]
    assert names.index("relationships-PROPOSES.csv") > names.index("nodes-Concept.csv")
    assert "relationships-USED_FOR-2.csv" in names
    assert out.nodes == {"Paper": 3, **{label.value: 1 for label in ENTITY_LABELS}}
    assert sum(out.nodes.values()) == G.number_of_nodes()
    assert sum(out.rels.values()) == G.number_of_edges()
    assert sum(f.rows for f in out.files) == G.number_of_nodes() + G.number_of_edges()
    paper = read_csv(tmp_path / "csv" / "nodes-Paper.csv")
    assert paper[0][:2] == ["id:ID", ":LABEL"] and "year:long" in paper[0]
    assert "keywords:string[]" in paper[0] and f"{MANAGED}:boolean" in paper[0]
    assert "kg_empty_lists:string[]" in paper[0] and "kg_blank_lists:string[]" in paper[0]
    assert "year:string" in read_csv(tmp_path / "csv" / "nodes-Paper-2.csv")[0]
    assert {row[0] for row in paper[1:]} == {"paper:0000000000000000", "paper:0000000000000002"}
    # Every row has the header's width; arrays are joined by the delimiter.
    for f in out.files:
        rows = read_csv(tmp_path / "csv" / f.name)
        assert rows[0] == f.header and all(len(r) == len(f.header) for r in rows)
    row = dict(zip(paper[0], paper[1], strict=True))
    assert row["keywords:string[]"] == "a\x1fb" and row[f"{MANAGED}:boolean"] == "true"
    assert row["kg_empty_lists:string[]"] == "authors"
    # The unset year of paper 0 is an unquoted empty field: no property, not "".
    assert ',,' in raw_lines(tmp_path / "csv" / "nodes-Paper.csv")[1]
    blank = dict(zip(paper[0], paper[2], strict=True))
    assert blank["kg_blank_lists:string[]"] == "similar_terms"
    used_for = {f.name: f.header for f in out.files if f.group == "USED_FOR"}
    assert {"confidence:long" in h for h in used_for.values()} == {True, False}


def test_relationship_rows_name_their_ends_and_type(tmp_path: Path) -> None:
    out = ni.write_neo4j_import(small_graph(2), tmp_path / "csv")
    rows = read_csv(tmp_path / "csv" / "relationships-EVALUATES_ON.csv")
    assert rows[0] == [":START_ID", ":END_ID", ":TYPE", "confidence:double", "count:long",
                       "end:long", "evidence:string", "start:long"]
    assert rows[1][1:3] == ["dataset:d", "EVALUATES_ON"] and rows[1][0].startswith("paper:")
    assert out.rels[Rel.EVALUATES_ON.value] == 2


def test_after_import_has_kg_loads_schema_and_the_list_fixups(tmp_path: Path) -> None:
    out = ni.write_neo4j_import(mixed_graph(), tmp_path / "csv")
    stmts = ni.after_import_file_statements(out.after_import)
    assert stmts[: len(schema_statements())] == schema_statements()  # (+ kg load's vector index)
    assert stmts[-1] == "CALL db.awaitIndexes(300)"
    fixups = [s for s in stmts if s.startswith("MATCH")]
    assert [s.split(" WHERE")[0] for s in fixups] == [
        "MATCH (n:`Paper`)", "MATCH (n:`Method`)", "MATCH ()-[r:`USED_FOR`]->()"]
    paper = fixups[0]
    assert "WHEN 'authors' IN n.kg_empty_lists THEN []" in paper
    assert "WHEN 'similar_terms' IN n.kg_blank_lists THEN ['']" in paper
    assert "REMOVE n.kg_blank_lists, n.kg_empty_lists" in paper
    assert all("IN TRANSACTIONS OF" in s for s in fixups)


def test_papers_get_what_kg_load_adds_to_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kg.store.neo4j as store

    def add_text_vectors(G: nx.MultiDiGraph, rows: Any) -> int:
        for row in rows.nodes[Label.PAPER]:
            row["props"]["text_vector"] = [0.5, -0.25]
        return 2

    monkeypatch.setattr(store, "add_text_vectors", add_text_vectors, raising=False)
    ni.write_neo4j_import(small_graph(2), tmp_path / "csv")
    paper = read_csv(tmp_path / "csv" / "nodes-Paper.csv")
    row = dict(zip(paper[0], paper[1], strict=True))
    assert row["text_vector:double[]"] == "0.5\x1f-0.25"
    assert "text_vector" not in "".join(read_csv(tmp_path / "csv" / "nodes-Method.csv")[0])


def test_the_command_imports_every_file(tmp_path: Path) -> None:
    G = small_graph(2)
    G.nodes["paper:0000000000000000"]["abstract"] = "multi\nline"
    out = ni.write_neo4j_import(G, tmp_path / "my csv")
    args = out.admin_args("graphs")
    assert args[:4] == ["database", "import", "full", "graphs"]
    assert "--array-delimiter=U+001F" in args and "--multiline-fields=true" in args
    files = [a.split("=", 1) for a in args if a.startswith(("--nodes=", "--relationships="))]
    assert [Path(p).name for _, p in files] == [f.name for f in out.files]
    assert all(Path(p).is_absolute() and Path(p).is_file() for _, p in files)
    command = out.command("graphs")
    assert command.startswith("neo4j-admin database import full graphs \\\n")
    assert "'--nodes=" in command  # the folder's space is quoted for the shell
    assert "--multiline-fields" not in " ".join(ni.write_neo4j_import(
        small_graph(1), tmp_path / "plain").admin_args())


# --------------------------------------------------------------------------- the folder


def test_a_non_empty_folder_needs_force(tmp_path: Path) -> None:
    target = tmp_path / "csv"
    target.mkdir()
    (target / "mine.txt").write_text("keep")
    with pytest.raises(GraphFileError, match="not empty"):
        ni.write_neo4j_import(small_graph(1), target)
    assert (target / "mine.txt").exists()
    ni.write_neo4j_import(small_graph(1), target, force=True)
    assert not (target / "mine.txt").exists() and (target / ni.AFTER_IMPORT).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["csv"]  # nothing left beside it
    (tmp_path / "file").write_text("x")
    with pytest.raises(GraphFileError, match="not a folder"):
        ni.write_neo4j_import(small_graph(1), tmp_path / "file", force=True)


def test_an_empty_folder_is_filled(tmp_path: Path) -> None:
    (tmp_path / "csv").mkdir()
    ni.write_neo4j_import(small_graph(1), tmp_path / "csv")
    assert (tmp_path / "csv" / "nodes-Paper.csv").exists()


def test_a_failed_export_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: Any) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ni, "after_import_text", boom)
    with pytest.raises(GraphFileError, match="No space left"):
        ni.write_neo4j_import(small_graph(1), tmp_path / "csv")
    assert list(tmp_path.iterdir()) == []


def test_a_killed_export_leaves_no_folder_and_its_debris_goes(tmp_path: Path) -> None:
    target = tmp_path / "csv"
    graph = tmp_path / "g.json"
    save_graph(small_graph(200), graph)
    # The export is killed while it writes rows (the csv writer blocks for good here).
    code = (
        "import os, signal, sys, csv\n"
        "from kg.store import neo4j_import as ni\n"
        "from kg.store.file import load_graph\n"
        "real = csv.writer\n"
        "class Writer:\n"
        "    def __init__(self, *a, **k): self.w, self.n = real(*a, **k), 0\n"
        "    def writerow(self, row):\n"
        "        self.n += 1\n"
        "        if self.n == 50: os.kill(os.getpid(), signal.SIGKILL)\n"
        "        return self.w.writerow(row)\n"
        "csv.writer = Writer\n"
        f"ni.write_neo4j_import(load_graph({str(graph)!r}), {str(target)!r})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    assert not target.exists()
    debris = [p for p in tmp_path.iterdir() if p.name.startswith("csv.")]
    assert len(debris) == 1 and debris[0].name.endswith(atomic.TEMP_SUFFIX)
    assert any(debris[0].iterdir())  # half written, under another name
    ni.write_neo4j_import(small_graph(1), target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["csv", "g.json"]


def test_debris_of_a_live_writer_and_other_names_stay(tmp_path: Path) -> None:
    live = tmp_path / f"csv.{os.getpid()}-00ff.tmp"
    other = tmp_path / "csv.backup.tmp"
    for folder in (live, other):
        folder.mkdir()
    assert ni.remove_debris(tmp_path / "csv") == 0
    assert live.exists() and other.exists()


# --------------------------------------------------------------------------- the command


def test_the_cli_prints_the_command_counts_and_after_import(tmp_path: Path) -> None:
    graph = tmp_path / "g.json"
    save_graph(mixed_graph(), graph)
    runner = CliRunner()
    out = tmp_path / "csv"
    result = runner.invoke(main, ["export", "neo4j-import", str(out), "--graph", str(graph)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "nodes:         Paper 3, Method 1" in text and "(total 8)" in text
    assert "neo4j-admin database import full neo4j \\\n" in text
    assert f"--nodes={out.resolve() / 'nodes-Paper.csv'}" in text
    assert "--overwrite-destination=true" in text and "DELETES" in text
    assert f"cypher-shell -f {out.resolve() / ni.AFTER_IMPORT}" in text
    again = runner.invoke(main, ["export", "neo4j-import", str(out), "--graph", str(graph)])
    assert again.exit_code == 1 and "--force" in again.output
    forced = runner.invoke(main, ["export", "neo4j-import", str(out), "--graph", str(graph),
                                  "--force", "--json", "--database", "kg"])
    data = json.loads(forced.output)
    assert data["node_count"] == 8 and data["admin_args"][3] == "kg"
    assert data["rels"]["USED_FOR"] == 2 and data["array_delimiter"] == "U+001F"


def test_the_cli_help_teaches(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "neo4j-import", "--help"])
    assert result.exit_code == 0
    for words in ("Example", "neo4j-admin database import full", "after-import.cypher",
                  "--force", "--graph"):
        assert words in result.output, words
    missing = CliRunner().invoke(
        main, ["export", "neo4j-import", str(tmp_path / "x"), "--graph", str(tmp_path / "no")])
    assert missing.exit_code == 1 and "Error:" in missing.output


def test_labels_and_types_come_from_the_schema() -> None:
    # No string in the module's code (its docstrings' examples aside) spells a label or a
    # relationship type: schema.py names them.
    tree = ast.parse(Path(ni.__file__).read_text(encoding="utf-8"))
    docstrings = {id(body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                  and (body := node.body) and isinstance(body[0], ast.Expr)}
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
               and isinstance(node.value, str) and id(node) not in docstrings}
    names = {label.value for label in Label} | {r.value for r in (*Rel, *EntityRel)}
    assert strings & names == set()
