"""The seeds built into a store (``kg build -o graph.db``): every command answers from it what it
answers from the graph file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.fixture(scope="module")
def seeds_store(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    out = tmp_path_factory.mktemp("store") / "seeds.db"
    result = CliRunner().invoke(
        main, ["build", str(repo_root / "seeds"), "-o", str(out), "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    return out


def test_a_store_build_exports_the_graph_file_of_a_json_build(
    seeds_store: Path, seeds_graph_path: Path, tmp_path: Path
) -> None:
    back = tmp_path / "back.json"
    result = CliRunner().invoke(main, ["export", "json", str(seeds_store), "-o", str(back)])
    assert result.exit_code == 0, result.output
    assert back.read_bytes() == seeds_graph_path.read_bytes()


@pytest.mark.parametrize(
    "args",
    [
        ["related", "MetaEmbed", "--json"],
        ["related", "MetaEmbed", "--ranking", "graph", "--facet", "method"],
        ["show", "MMEB", "--json"],
        ["show", "MetaEmbed"],
        ["show", "micro-expression recognition"],
        ["stats", "--json"],
        ["leaderboard", "MMEB", "--json"],
    ],
)
def test_commands_answer_the_same_from_a_store(
    seeds_store: Path, seeds_graph_path: Path, args: list[str]
) -> None:
    runner = CliRunner()
    answers = []
    for graph in (seeds_graph_path, seeds_store):
        result = runner.invoke(main, [*args, "--graph", str(graph)])
        assert result.exit_code == 0, result.output
        answers.append(result.stdout)
    assert answers[0] == answers[1]
    assert answers[0].strip()
