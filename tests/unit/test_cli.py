"""Every core command through click's runner, including the error paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def write_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        {
            "id": "p1",
            "title": "FooNet for protein folding",
            "abstract": "We propose FooNet, a sparse encoder for protein structure prediction. "
            "FooNet is evaluated on the CASP14 benchmark and trained with AdamW.",
        },
        {
            "id": "p2",
            "title": "Scaling protein structure prediction",
            "abstract": "Protein structure prediction matters. We evaluate BarFold on the CASP14 "
            "benchmark and compare with AdamW-trained baselines.",
        },
        {
            "id": "p3",
            "title": "Image captioning with CapX",
            "abstract": "We introduce CapX for image captioning and report BLEU on MSCOCO.",
        },
    ]
    (folder / "papers.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n{broken\n")
    return folder


@pytest.fixture()
def graph(tmp_path: Path, runner: CliRunner) -> Path:
    out = tmp_path / "g.json"
    result = runner.invoke(
        main, ["build", str(write_corpus(tmp_path / "in")), "-o", str(out), "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    return out


def test_build_summarises_and_reports_bad_lines(tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "g.json"
    result = runner.invoke(
        main, ["build", str(write_corpus(tmp_path / "in")), "-o", str(out), "--no-cache", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert "papers.jsonl:4" in result.stderr  # the malformed line, by file and line
    summary = json.loads(result.stdout)
    assert summary["papers"] == 3 and summary["skipped"] == 1
    assert summary["entities"]["Dataset"] >= 1 and summary["edges"]["PROPOSES"] >= 2
    assert out.exists()


def test_build_strict_fails_on_bad_record(tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(
        main,
        [
            "build",
            str(write_corpus(tmp_path / "in")),
            "-o",
            str(tmp_path / "g.json"),
            "--no-cache",
            "--strict",
        ],
    )
    assert result.exit_code == 1 and "papers.jsonl:4" in result.output
    assert "Traceback" not in result.output


def test_build_nothing_usable_exits_nonzero(tmp_path: Path, runner: CliRunner) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    result = runner.invoke(
        main, ["build", str(tmp_path / "empty.jsonl"), "-o", str(tmp_path / "g.json")]
    )
    assert result.exit_code == 1 and "Error:" in result.output and "Traceback" not in result.output


def test_related_text_and_json(graph: Path, runner: CliRunner) -> None:
    result = runner.invoke(main, ["related", "FooNet", "--graph", str(graph)])
    assert result.exit_code == 0, result.output
    assert "Scaling protein structure prediction" in result.output and "CASP14" in result.output
    data = json.loads(
        runner.invoke(main, ["related", "foonet", "--graph", str(graph), "--json"]).stdout
    )
    assert data[0]["id"] == "p2"
    assert set(data[0]) >= {"id", "title", "display_name", "score", "shared"}
    assert any(
        s["label"] == "Dataset" and s["name"].startswith("CASP14") for s in data[0]["shared"]
    )


def test_related_unknown_title_suggests_and_fails(graph: Path, runner: CliRunner) -> None:
    result = runner.invoke(main, ["related", "completely unrelated words", "--graph", str(graph)])
    assert result.exit_code == 1
    assert "no paper matches" in result.output and "Closest:" in result.output


def test_missing_graph_is_one_line(tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(main, ["related", "x", "--graph", str(tmp_path / "nope.json")])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "kg build" in result.output


def test_show_paper_and_entity(graph: Path, runner: CliRunner) -> None:
    paper = runner.invoke(main, ["show", "FooNet for protein folding", "--graph", str(graph)])
    assert paper.exit_code == 0 and "-PROPOSES-> FooNet" in paper.output
    assert "We propose FooNet" in paper.output  # the evidence sentence
    ent = json.loads(runner.invoke(main, ["show", "AdamW", "--graph", str(graph), "--json"]).stdout)
    assert ent["node"]["label"] == "Method"
    assert {link["id"] for link in ent["links"]} == {"p1", "p2"}


def test_stats(graph: Path, runner: CliRunner) -> None:
    data = json.loads(runner.invoke(main, ["stats", "--graph", str(graph), "--json"]).stdout)
    assert data["papers"] == 3
    assert any(e["name"].startswith("CASP14") for e in data["top_entities"]["Dataset"])


def test_extract_jsonl_offsets(tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(main, ["extract", str(write_corpus(tmp_path / "in")), "--jsonl"])
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in records] == ["p1", "p2", "p3"]
    for rec in records:
        for m in rec["mentions"]:
            assert rec["text"][m["start"] : m["end"]] == m["text"]
            assert m["type"] in {"Method", "Task", "Dataset", "Metric", "Concept"}
            assert m["entity"].startswith(m["type"].lower() + ":")
    # Relations name their arguments by index into "mentions" ("FooNet, a sparse encoder").
    stated = {(rec["mentions"][r["head"]]["text"], r["type"], rec["mentions"][r["tail"]]["text"])
              for rec in records for r in rec["relations"]}
    assert ("FooNet", "IS_A", "sparse encoder") in stated
    assert all(r["evidence"] for rec in records for r in rec["relations"])


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_export(graph: Path, tmp_path: Path, runner: CliRunner, fmt: str) -> None:
    out = tmp_path / f"g.{fmt}"
    result = runner.invoke(main, ["export", fmt, str(graph), "-o", str(out)])
    assert result.exit_code == 0 and out.stat().st_size > 0
    assert "FooNet" in out.read_text()


def test_every_command_has_help_with_an_example(runner: CliRunner) -> None:
    for args in (["build"], ["related"], ["show"], ["stats"], ["extract"], ["export", "graphml"]):
        result = runner.invoke(main, [*args, "--help"])
        assert result.exit_code == 0 and "Example" in result.output, args


def test_the_console_script_keeps_openblas_to_one_thread() -> None:
    import subprocess
    import sys

    code = (
        "import atexit, os, sys; os.environ.pop('OPENBLAS_NUM_THREADS', None); "
        "sys.argv = ['kg', '--version']; from kg.cli import run; "
        "atexit.register(lambda: print('threads', os.environ.get('OPENBLAS_NUM_THREADS'))); run()"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "threads 1" in out.stdout
    user = subprocess.run(
        [
            sys.executable,
            "-c",
            code.replace(
                "os.environ.pop('OPENBLAS_NUM_THREADS', None)",
                "os.environ['OPENBLAS_NUM_THREADS'] = '3'",
            ),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "threads 3" in user.stdout  # a user's own setting is kept


def test_cache_info_and_clear(runner: CliRunner, tmp_path: Path) -> None:
    from tests.unit.test_cache import _fill

    _fill(tmp_path)
    info = runner.invoke(main, ["cache", "info", "--cache-dir", str(tmp_path), "--json"])
    assert info.exit_code == 0, info.output
    data = json.loads(info.stdout)
    assert data["bytes"] == 495 and data["parts"]["word counts"] == {"files": 1, "bytes": 10}
    text = runner.invoke(main, ["cache", "info", "--cache-dir", str(tmp_path)]).stdout
    assert str(tmp_path) in text and "extractions" in text
    kept = runner.invoke(main, ["cache", "clear", "--cache-dir", str(tmp_path)], input="n\n")
    assert kept.exit_code == 1 and "Aborted" in kept.output  # asked, and said no
    assert (tmp_path / "terms-89ab.sqlite").exists()
    done = runner.invoke(main, ["cache", "clear", "--cache-dir", str(tmp_path), "--yes", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["files"] == 8
    assert not (tmp_path / "terms-89ab.sqlite").exists() and (tmp_path / "notes.txt").exists()
    # KG_CACHE_DIR is the default folder.
    again = runner.invoke(main, ["cache", "info", "--json"], env={"KG_CACHE_DIR": str(tmp_path)})
    assert json.loads(again.stdout)["bytes"] == 0


def test_every_command_is_found_in_the_modules_it_is_listed_under() -> None:
    # kg imports a command's modules only when it runs (kg.cli.COMMAND_MODULES): a command
    # missing from the list, or listed under the wrong module, would vanish from the CLI.
    import importlib

    import kg.cli as cli

    for module in {m for mods in cli.COMMAND_MODULES.values() for m in mods}:
        importlib.import_module(f"kg.cli.{module}")
    assert set(cli.main.commands) == set(cli.COMMAND_MODULES)
    for name, command in cli.main.commands.items():
        assert command.callback is not None
        assert command.callback.__module__ in {
            f"kg.cli.{m}" for m in cli.COMMAND_MODULES[name]
        }, name
        for sub in getattr(command, "commands", {}).values():
            assert sub.callback.__module__ in {f"kg.cli.{m}" for m in cli.COMMAND_MODULES[name]}
