"""Generated records through every reader of kg.ingest: never a traceback, each bad record a
Problem at its ``file:line``, every good record a Paper (with its exact text) at its line."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kg.errors import NoUsableInputError
from kg.ingest import clean_text, read_papers

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
KG = str(Path(sys.executable).parent / "kg")

#: Text meant to break readers: quotes, separators, newlines, NULs, BOMs, JSON and HTML syntax.
HOSTILE = st.text(
    alphabet=st.sampled_from(list("\",;\t\n\r\x00\ufeff\\{}[]<>&'`$ aZé漢🙂\u2028\x85")),
    max_size=40,
)


def good_text(i: int, noise: str) -> str:
    return f"Record {i} studies graphs. {noise}"


def newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read(path: Path):
    return read_papers([path])


def check_or_nothing(path: Path, good: dict[int, str], bad: list[int]) -> None:
    """:func:`check`; a file without one good record is no usable input at all."""
    if not good:
        with pytest.raises(NoUsableInputError):
            read(path)
        return
    check(path, good, bad)


def check(path: Path, good: dict[int, str], bad: list[int]) -> None:
    """``good``: line → the abstract as written; ``bad``: lines of bad records."""
    result = read(path)
    name = path.as_posix()
    by_source = {p.source: p for p in result.papers}
    for line, text in good.items():
        paper = by_source.get(f"{name}:{line}")
        assert paper is not None, (line, text, [p.source for p in result.papers])
        assert paper.abstract == clean_text(text)
    assert len(result.papers) == len(good)
    assert sorted(p.source for p in result.problems) == sorted(f"{name}:{n}" for n in bad)


record_kinds = st.lists(st.tuples(st.booleans(), HOSTILE), min_size=1, max_size=12)


@SETTINGS
@given(records=record_kinds, blank_lines=st.lists(st.booleans(), min_size=12, max_size=12))
def test_jsonl_records(tmp_path: Path, records, blank_lines) -> None:
    lines, good, bad = [], {}, []
    for i, (ok, noise) in enumerate(records):
        if blank_lines[i]:
            lines.append("   ")
        if ok:
            good[len(lines) + 1] = good_text(i, noise)
            lines.append(
                json.dumps({"abstract": good[len(lines) + 1], "title": noise}, ensure_ascii=False)
            )
        else:
            bad.append(len(lines) + 1)
            lines.append(
                [
                    '{"abstract": ' + json.dumps(noise),
                    json.dumps([noise]),
                    json.dumps({"title": noise}),
                    json.dumps({"abstract": "  "}),
                ][i % 4]
            )
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    check_or_nothing(path, good, bad)


@SETTINGS
@given(
    records=record_kinds,
    bom=st.booleans(),
    delimiter=st.sampled_from([",", "\t"]),
    quote_all=st.booleans(),
)
def test_csv_and_tsv_records(tmp_path: Path, records, bom, delimiter, quote_all) -> None:
    out = io.StringIO()
    # (csv.writer leaves a field with a lone \r unquoted, which kg reads as a line break.)
    writer = csv.writer(
        out,
        delimiter=delimiter,
        lineterminator="\n",
        quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL,
    )
    if not quote_all:
        records = [(ok, noise.replace("\r", "")) for ok, noise in records]
    writer.writerow(["id", "abstract", "title"])
    good, bad = {}, []
    for i, (ok, noise) in enumerate(records):
        line = newlines(out.getvalue()).count("\n") + 1  # kg reads a lone \r as a newline
        if ok:
            good[line] = good_text(i, noise)
            writer.writerow([f"id{i}", good[line], noise])
        else:
            bad.append(line)
            # No abstract, or more fields than the header has.
            writer.writerow([f"id{i}", " ", noise] if i % 2 else [f"id{i}", "x", "y", "z" + noise])
    path = tmp_path / ("r.csv" if delimiter == "," else "r.tsv")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + out.getvalue().encode())
    # The file's \r and \r\n are read as newlines, also inside quoted fields.
    good = {n: newlines(t) for n, t in good.items()}
    check_or_nothing(path, good, bad)


@SETTINGS
@given(records=record_kinds, indent=st.sampled_from([None, 0, 2]), wrapped=st.booleans())
def test_json_list_records(tmp_path: Path, records, indent, wrapped) -> None:
    parts, good, bad = [], {}, []
    text = '{"papers": [\n' if wrapped else "[\n"
    for i, (ok, noise) in enumerate(records):
        line = text.count("\n") + sum(p.count("\n") + 1 for p in parts) + 1
        if ok:
            good[line] = good_text(i, noise)
            parts.append(
                json.dumps(
                    {"abstract": good[line], "title": noise}, indent=indent, ensure_ascii=False
                )
            )
        else:
            bad.append(line)
            parts.append(json.dumps([noise, i] if i % 2 else {"title": noise}, indent=indent))
    text += ",\n".join(parts) + ("\n]}\n" if wrapped else "\n]\n")
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    check_or_nothing(path, good, bad)


@SETTINGS
@given(
    data=st.binary(max_size=300),
    suffix=st.sampled_from([".txt", ".csv", ".tsv", ".json", ".jsonl", ".ndjson"]),
)
@example(data=b"\xff\xfe" + "abstract\nx\n".encode("utf-16-le"), suffix=".csv")
@example(data=b"[" * 5000 + b"]" * 5000, suffix=".json")
@example(data=b'{"abstract": ' + b"[" * 5000 + b"]" * 5000 + b"}\n", suffix=".jsonl")
@example(data=b'{"papers": [{"abstract": ' + b"[" * 990 + b"]" * 990 + b"}]}", suffix=".json")
@example(data=b'[{"abstract": "ok", "title": ' + b"[" * 600 + b"]" * 600 + b"}]", suffix=".json")
def test_any_bytes_are_papers_or_problems_at_a_line(tmp_path: Path, data: bytes, suffix) -> None:
    path = tmp_path / f"r{suffix}"
    path.write_bytes(data)
    try:
        result = read(path)
    except NoUsableInputError as exc:
        assert str(path) in str(exc)
        return
    where = re.compile(re.escape(path.as_posix()) + r"(:\d+|:item \d+)?")
    for item in [*result.papers, *result.problems]:
        assert where.fullmatch(item.source), item.source


def test_deeply_nested_fields_keep_the_good_records(tmp_path: Path) -> None:
    """Found by this suite: nesting past ~1000 levels raised RecursionError (a traceback), and
    past 255 the record memo (orjson) raised TypeError."""
    deep = "[" * 5000 + "]" * 5000
    path = tmp_path / "r.jsonl"
    path.write_text(
        "\n".join(
            [
                '{"abstract": "Record 1 is fine."}',
                '{"abstract": ' + deep + "}",
                '{"abstract": "Record 3 is fine.", "title": ' + "[" * 900 + "]" * 900 + "}",
                '{"abstract": ' + "[" * 300 + '"Record 4 is nested."' + "]" * 300 + "}",
            ]
        )
        + "\n"
    )
    for memo in (None, tmp_path / "memo", tmp_path / "memo"):  # no memo, cold, warm
        result = read_papers([path], memo_dir=memo)
        assert [p.source[-2:] for p in result.papers] == [":1", ":3", ":4"]
        assert [p.source for p in result.problems] == [f"{path.as_posix()}:2"]
        assert result.papers[2].abstract == "Record 4 is nested."


def test_a_10_mb_field_and_a_100k_line_file(tmp_path: Path) -> None:
    huge = "Record 0 is long. " + "word " * 2_000_000  # 10 MB
    (tmp_path / "big.csv").write_text("abstract\n" + '"' + huge + '"\n')
    lines = [
        json.dumps({"abstract": f"Record {i} is short."}) if i % 10 == 0 else ""
        for i in range(100_000)
    ]
    lines[55_555] = "{broken"
    (tmp_path / "many.jsonl").write_text("\n".join(lines) + "\n")
    result = read_papers([tmp_path])
    assert len(result.papers) == 1 + 10_000
    assert result.papers[0].abstract == clean_text(huge)
    assert [p.source for p in result.problems] == [f"{(tmp_path / 'many.jsonl').as_posix()}:55556"]


def test_kg_build_reports_each_bad_record_and_keeps_the_good(tmp_path: Path) -> None:
    corpus = tmp_path / "in"
    corpus.mkdir()
    (corpus / "a.csv").write_text(
        'abstract,title\n"We propose GraphNet, a model for graphs.","a ""quoted"" title"\n'
        ',no abstract\n"We evaluate GraphNet on ImageNet.\u0000","x"\n',
        encoding="utf-8",
    )
    (corpus / "b.jsonl").write_bytes(
        b'{"abstract": "We study transformers for translation."}\n'
        b'{"abstract": ' + b"[" * 3000 + b"]" * 3000 + b"}\n"
        b"not json\n\xff\xfe\n"
    )
    out = tmp_path / "g.json"
    done = subprocess.run(
        [KG, "build", str(corpus), "--no-cache", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    skipped = sorted(
        line.split()[1] for line in done.stderr.splitlines() if line.startswith("skipped ")
    )
    a, b = (corpus / "a.csv").as_posix(), (corpus / "b.jsonl").as_posix()
    # b.jsonl has a byte that is not UTF-8: the whole file is one problem (at that line).
    assert skipped == [f"{a}:3:", f"{b}:4:"], done.stderr
    assert ": 2 papers" in done.stdout, done.stdout
