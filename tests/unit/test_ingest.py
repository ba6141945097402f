"""read_papers: formats, column names, ids, dedupe, bad input, strict mode, real corpora."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from kg.errors import InputError, NoUsableInputError
from kg.ingest import IngestResult, read_papers
from kg.ingest.clean import abstract_hash
from kg.ingest.readers import is_header
from kg.ingest.records import parse_year, split_authors, split_keywords
from kg.models import Paper, Problem

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "ingest"
GOOD, BAD = DATA / "good", DATA / "bad"
HASH_ID = re.compile(r"paper:[0-9a-f]{16}")


def by_source(result: IngestResult) -> dict[str, Paper]:
    return {p.source: p for p in result.papers}


def reasons(result: IngestResult) -> dict[str, str]:
    return {p.source: p.reason for p in result.problems}


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# --- the seeds ---------------------------------------------------------------------------------


def test_seeds_folder() -> None:
    result = read_papers([REPO / "seeds"])
    assert result.problems == [] and result.duplicates == 0 and result.files == 2
    files = sorted((REPO / "seeds").glob("*.txt"))
    per_file = {f.name: [p for p in result.papers if p.source.startswith(str(f))] for f in files}
    # Each seeds file: a header line, then 19 abstracts on lines 3, 5, ..., 39.
    assert {name: len(papers) for name, papers in per_file.items()} == {
        "000_5670d788940e7130.txt": 19,
        "002_81f6ff615aaf59b4.txt": 19,
    }
    for papers in per_file.values():
        assert [int(p.source.rsplit(":", 1)[1]) for p in papers] == list(range(3, 40, 2))
    for paper in result.papers:
        assert HASH_ID.fullmatch(paper.id) and paper.id == abstract_hash(paper.abstract)
        assert paper.title == "" and paper.display_name == ""
        assert paper.venue == "ICLR 2026 Papers" and paper.year == 2026
        assert not re.search(r"[\\{}$]", paper.abstract)
    assert len({p.id for p in result.papers}) == 38
    first = result.papers[0]
    assert first.abstract.startswith("The training of large language models (LLMs) is expensive.")
    assert "pre-training LLMs, i.e., techniques" in first.abstract
    assert "Testing the effect of 22 different" in first.abstract
    assert "only 10% of the original dataset" in first.abstract
    meta = next(p for p in result.papers if "MetaEmbed" in p.abstract)
    assert "MMEB" in meta.abstract and "ViDoRe" in meta.abstract


def test_seeds_ids_are_stable_across_runs() -> None:
    first = [p.id for p in read_papers(REPO / "seeds").papers]
    again = [p.id for p in read_papers(str(REPO / "seeds")).papers]
    assert first == again


# --- the seeds (plain text) format ------------------------------------------------------------


def test_txt_with_header_and_wrapped_paragraph() -> None:
    result = read_papers([GOOD / "collection.txt"])
    papers = by_source(result)
    name = str(GOOD / "collection.txt")
    assert list(papers) == [f"{name}:3", f"{name}:5", f"{name}:8"]
    assert papers[f"{name}:3"].abstract == (
        "We propose GenRep, a generative representation learner. It improves accuracy by 22% "
        "on ImageNet, i.e., a large margin."
    )
    # a hard-wrapped paragraph is one abstract
    assert papers[f"{name}:5"].abstract.startswith(
        "Multimodal retrieval is hard. We introduce MetaEmbed"
    )
    assert "test-time interaction" in papers[f"{name}:5"].abstract
    assert "Youtu-GraphRAG" in papers[f"{name}:8"].abstract
    assert "O(n log n)" in papers[f"{name}:8"].abstract
    assert {p.venue for p in result.papers} == {"Tiny Test Collection 2025"}
    assert {p.year for p in result.papers} == {2025}


def test_txt_without_header() -> None:
    result = read_papers([GOOD / "nested" / "plain.txt"])
    assert [p.source.rsplit(":", 1)[1] for p in result.papers] == ["1", "3"]
    assert result.papers[0].abstract.startswith("Abstracts without a header line")
    assert result.papers[0].venue == "" and result.papers[0].year is None


def test_txt_crlf_and_whitespace_only_separator_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path / "c.txt", b"My Papers\r\n\r\nFirst abstract here.\r\n   \r\nSecond one.\r\n"
    )
    result = read_papers([path])
    assert [(p.source, p.abstract) for p in result.papers] == [
        (f"{path}:3", "First abstract here."),
        (f"{path}:5", "Second one."),
    ]


@pytest.mark.parametrize(
    ("text", "header"),
    [
        ("ICLR 2026 Papers", True),
        ("Selected abstracts", True),
        ("We propose a method.", False),
        ("Short. But two sentences", False),
        ("A line\nand another", False),
        ("word " * 20, False),
    ],
)
def test_is_header(text: str, header: bool) -> None:
    assert is_header(text.strip()) is header


# --- CSV --------------------------------------------------------------------------------------


def test_csv_columns_bom_multiline_and_dedupe_by_id() -> None:
    result = read_papers([GOOD / "papers.csv"])
    name = str(GOOD / "papers.csv")
    assert reasons(result) == {f"{name}:4": "record has no abstract"}
    assert result.duplicates == 1  # line 6 repeats the OpenReview id of line 2
    papers = by_source(result)
    assert list(papers) == [f"{name}:2", f"{name}:5"]
    moe = papers[f"{name}:2"]
    assert moe.id == "AbCdEf1234"  # the forum id of the OpenReview URL
    assert moe.url == "https://openreview.net/forum?id=AbCdEf1234"
    assert moe.title == "Sparse Experts at Scale"  # the first record wins
    assert moe.abstract == (
        "We study mixture-of-experts routing. A second line of the same abstract, inside quotes, "
        'with a "quoted" word.'
    )
    assert moe.keywords == ["moe", "routing", "sparsity"]
    assert moe.authors == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    assert (moe.year, moe.venue, moe.primary_area) == (2025, "ICLR 2025 Poster", "optimization")
    probe = papers[f"{name}:5"]
    assert HASH_ID.fullmatch(probe.id)
    assert probe.authors == ["Jane Doe", "John Roe"]
    assert probe.keywords == ["probing", "baselines"]
    assert probe.year is None  # "n/a"
    assert probe.primary_area == "representation learning"


def test_tsv(tmp_path: Path) -> None:
    path = write(tmp_path / "p.tsv", "Summary\tTags\nA tab separated abstract.\ta;b\n")
    (paper,) = read_papers([path]).papers
    assert paper.abstract == "A tab separated abstract." and paper.keywords == ["a", "b"]


def test_csv_without_abstract_column() -> None:
    path = BAD / "no_abstract_column.csv"
    with pytest.raises(NoUsableInputError) as err:
        read_papers([path])
    assert f"{path}:1: no abstract column (columns: title, summary_text)" in str(err.value)


def test_csv_unterminated_quote() -> None:
    path = BAD / "unterminated_quote.csv"
    with pytest.raises(NoUsableInputError) as err:
        read_papers([path])
    assert f"{path}:2: malformed CSV" in str(err.value)


def test_csv_row_with_too_many_fields(tmp_path: Path) -> None:
    path = write(tmp_path / "x.csv", "abstract,title\nGood row.,T\nBad row.,T,extra\n")
    result = read_papers([path])
    assert [p.abstract for p in result.papers] == ["Good row."]
    assert reasons(result) == {f"{path}:3": "row has 3 fields but the header has 2"}


# --- JSON and JSONL ---------------------------------------------------------------------------


def test_json_list_lines_and_problems() -> None:
    result = read_papers([GOOD / "papers.json"])
    name = str(GOOD / "papers.json")
    assert reasons(result) == {
        f"{name}:10": "record has no abstract",
        f"{name}:14": "expected a JSON object, found str",
    }
    papers = by_source(result)
    assert list(papers) == [f"{name}:2", f"{name}:15"]
    count = papers[f"{name}:2"]
    assert (count.id, count.title, count.year) == ("P-001", "Counting Objects with Attention", 2018)
    assert count.keywords == ["counting", "VQA"]
    assert count.authors == ["Yan Zhang", "Jonathon Hare"]  # the "author" column, ';'-separated
    numeric = papers[f"{name}:15"]
    assert numeric.id == "7"  # a numeric source id is kept as given
    assert numeric.url == "https://example.org/paper/7"


def test_json_object_holding_a_list() -> None:
    result = read_papers([GOOD / "wrapped.json"])
    name = str(GOOD / "wrapped.json")
    assert [(p.id, p.source) for p in result.papers] == [("W1", f"{name}:2"), ("W2", f"{name}:3")]
    assert result.papers[0].venue == "NeurIPS 2023" and result.papers[0].year == 2023


def test_json_single_object_and_other_shapes(tmp_path: Path) -> None:
    one = write(tmp_path / "one.json", json.dumps({"abstract": "A single record file."}))
    scalar = write(tmp_path / "scalar.json", "42")
    nolist = write(tmp_path / "nolist.json", json.dumps({"meta": {"a": 1}}))
    empty_list = write(tmp_path / "empty.json", "[ ]")
    result = read_papers([one, scalar, nolist, empty_list])
    assert [p.abstract for p in result.papers] == ["A single record file."]
    assert reasons(result) == {
        f"{scalar}:1": "expected a JSON list of records, found int",
        f"{nolist}:1": "JSON object holds no list of records",
        f"{empty_list}:1": "no records",
    }


def test_malformed_json_file_is_skipped_whole() -> None:
    path = BAD / "broken.json"
    with pytest.raises(NoUsableInputError) as err:
        read_papers([path])
    assert f"{path}:4: malformed JSON: Expecting value" in str(err.value)


def test_json_trailing_garbage(tmp_path: Path) -> None:
    path = write(tmp_path / "t.json", '[{"abstract": "x y"}]\n\n oops')
    with pytest.raises(NoUsableInputError, match=re.escape(f"{path}:3: malformed JSON")):
        read_papers([path])


def test_jsonl_lines_and_dedupe_by_abstract_across_files() -> None:
    result = read_papers([GOOD / "papers.json", GOOD / "papers.jsonl"])
    name = str(GOOD / "papers.jsonl")
    problems = reasons(result)
    assert problems[f"{name}:3"].startswith("malformed JSON line: Expecting ',' delimiter")
    assert problems[f"{name}:4"] == "expected a JSON object, found list"
    assert problems[f"{name}:6"] == "record has no abstract"  # whitespace-only abstract
    # line 5 has P-001's abstract with different spacing: merged into P-001
    assert result.duplicates == 1
    assert [p.source for p in result.papers if p.source.startswith(name)] == [f"{name}:1"]
    line_one = by_source(result)[f"{name}:1"]
    assert line_one.keywords == ["audio", "contrastive"] and line_one.title == "Line One"


def test_unterminated_jsonl() -> None:
    path = BAD / "unterminated.jsonl"
    with pytest.raises(NoUsableInputError, match=re.escape(f"{path}:1: malformed JSON line")):
        read_papers([path])


# --- folders, dedupe, ids ---------------------------------------------------------------------


def test_folder_walk_is_recursive_sorted_and_skips_other_files() -> None:
    result = read_papers([GOOD])
    files = [p.source.rsplit(":", 1)[0] for p in result.papers]
    order = list(dict.fromkeys(files))
    assert order == [
        str(GOOD / "collection.txt"),
        str(GOOD / "nested" / "plain.txt"),
        str(GOOD / "papers.csv"),
        str(GOOD / "papers.json"),
        str(GOOD / "papers.jsonl"),
        str(GOOD / "wrapped.json"),
    ]
    assert result.files == 6
    assert len(result.papers) == 12 and result.duplicates == 2


def test_walk_ignores_hidden_and_unknown_files_but_explicit_ones_are_problems() -> None:
    with pytest.raises(NoUsableInputError) as err:
        read_papers([BAD])
    message = str(err.value)
    assert ".hidden.csv" not in message and "notes.md" not in message
    result = read_papers([BAD / ".hidden.csv", BAD / "notes.md"])
    assert [p.abstract for p in result.papers] == [
        "A hidden file must be skipped when walking folders."
    ]
    assert reasons(result) == {
        str(BAD / "notes.md"): "unknown file type '.md'; expected .txt, .csv, .tsv, .json, "
        ".jsonl, .ndjson"
    }


def test_each_bad_file_gives_its_problem() -> None:
    paths = sorted(p for p in BAD.iterdir() if not p.name.startswith("."))
    good = GOOD / "nested" / "plain.txt"
    result = read_papers([*paths, good, REPO / "no-such-file.csv", BAD / "empty-folder-x"])
    assert len(result.papers) == 2  # everything else is still read
    assert reasons(result) == {
        f"{BAD / 'blank.csv'}:1": "empty file",
        f"{BAD / 'broken.json'}:4": "malformed JSON: Expecting value (column 13)",
        f"{BAD / 'empty.txt'}:1": "empty file",
        f"{BAD / 'header_only.txt'}:1": "only a header line, no abstracts",
        f"{BAD / 'latin1.txt'}:5": "not valid UTF-8 (byte 0xe9)",
        f"{BAD / 'no_abstract_column.csv'}:1": "no abstract column (columns: title, summary_text)",
        str(BAD / "notes.md"): "unknown file type '.md'; expected .txt, .csv, .tsv, .json, "
        ".jsonl, .ndjson",
        f"{BAD / 'unterminated.jsonl'}:1": "malformed JSON line: Unterminated string starting at "
        "(column 14)",
        f"{BAD / 'unterminated_quote.csv'}:2": "malformed CSV: unexpected end of data",
        str(REPO / "no-such-file.csv"): "no such file or folder",
        str(BAD / "empty-folder-x"): "no such file or folder",
    }


def test_empty_folder_and_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    locked = write(tmp_path / "locked.txt", "An abstract nobody can read.")
    fine = write(tmp_path / "fine.txt", "An abstract that can be read.")
    real_read_bytes = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "locked.txt":
            raise PermissionError(13, "Permission denied")
        return real_read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    result = read_papers([empty, locked, fine])
    assert [p.abstract for p in result.papers] == ["An abstract that can be read."]
    assert reasons(result) == {
        str(empty): "no .txt, .csv, .tsv, .json, .jsonl, .ndjson files in this folder",
        str(locked): "cannot read: Permission denied",
    }


def test_same_file_twice_is_read_once(tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt", "Only abstract.")
    result = read_papers([path, tmp_path, str(path)])
    assert result.files == 1 and result.duplicates == 0 and len(result.papers) == 1


def test_dedupe_merges_missing_fields_keeping_the_first(tmp_path: Path) -> None:
    first = write(tmp_path / "1.jsonl", json.dumps({"id": "X1", "abstract": "Shared text."}) + "\n")
    second = write(
        tmp_path / "2.jsonl",
        json.dumps({"id": "X1", "abstract": "Revised text.", "title": "T", "keywords": "a; b"})
        + "\n"
        + json.dumps({"abstract": "SHARED   text.", "year": "2020", "url": "https://u"})
        + "\n",
    )
    result = read_papers([first, second])
    assert result.duplicates == 2
    (paper,) = result.papers
    assert (paper.id, paper.abstract, paper.source) == ("X1", "Shared text.", f"{first}:1")
    assert (paper.title, paper.keywords, paper.year, paper.url) == (
        "T",
        ["a", "b"],
        2020,
        "https://u",
    )


def test_numeric_source_ids_are_kept_and_identify_the_paper(tmp_path: Path) -> None:
    a = write(tmp_path / "a.csv", "id,abstract\n10010426,First copy.\n7,Another paper.\n")
    b = write(tmp_path / "b.csv", "id,title,abstract\n10010426,A title,Second copy.\n")
    result = read_papers([a, b])
    assert [p.id for p in result.papers] == ["10010426", "7"] and result.duplicates == 1
    assert result.papers[0].title == "A title"  # the duplicate filled in the missing title


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"openreview_url": "https://openreview.net/forum?id=VaS6xcDrTb"}, "VaS6xcDrTb"),
        ({"url": "https://openreview.net/pdf?id=B1QRgziT-"}, "B1QRgziT-"),
        ({"link": "https://arxiv.org/abs/2401.01234v2"}, "arxiv:2401.01234"),
        ({"url": "https://doi.org/10.1000/xyz123"}, "doi:10.1000/xyz123"),
        ({"paper_id": "abc", "url": "https://openreview.net/forum?id=Z"}, "abc"),
        ({"OpenReview_ID": "Q1"}, "Q1"),
    ],
)
def test_ids_from_records(tmp_path: Path, record: dict[str, str], expected: str) -> None:
    path = write(tmp_path / "r.jsonl", json.dumps({**record, "abstract": "Some text."}) + "\n")
    assert read_papers([path]).papers[0].id == expected


def test_hash_id_for_other_urls(tmp_path: Path) -> None:
    path = write(tmp_path / "r.jsonl", json.dumps({"url": "https://x.org/p", "abstract": "T."}))
    (paper,) = read_papers([path]).papers
    assert paper.id == abstract_hash("T.") and paper.url == "https://x.org/p"


def test_title_and_keywords_are_cleaned(tmp_path: Path) -> None:
    record = {
        "title": r"\textsc{Fast} $\alpha$-Nets",
        "abstract": "x.",
        "keywords": r"$\beta$-VAE, GANs",
    }
    path = write(tmp_path / "r.jsonl", json.dumps(record))
    (paper,) = read_papers([path]).papers
    assert paper.title == "Fast α-Nets" and paper.keywords == ["β-VAE", "GANs"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("A; B", ["A", "B"]),
        ("A, B and C", ["A", "B", "C"]),
        ("Smith, J. and Doe, J.", ["Smith, J.", "Doe, J."]),
        ("A & B", ["A", "B"]),
        (["A", {"name": "B"}, ""], ["A", "B"]),
        ("Ada Lovelace", ["Ada Lovelace"]),
        (None, []),
    ],
)
def test_split_authors(value: object, expected: list[str]) -> None:
    assert split_authors(value) == expected


def test_split_keywords_and_parse_year() -> None:
    assert split_keywords("a, b;c") == ["a, b", "c"]  # ';' wins when present
    assert split_keywords("a, b, a") == ["a", "b"]
    assert split_keywords(["x", "y"]) == ["x", "y"]
    assert [
        parse_year(v)
        for v in (
            2018,
            "2018",
            "2018.0",
            2018.0,
            "2018-05-01",
            "n/a",
            None,
            True,
            18,
            "ICLR 2026 Poster",
        )
    ] == [2018, 2018, 2018, 2018, 2018, None, None, None, None, 2026]


# --- strict mode and nothing usable ----------------------------------------------------------


def test_strict_raises_on_the_first_bad_record() -> None:
    with pytest.raises(InputError) as err:
        read_papers([GOOD / "papers.csv", GOOD / "papers.json"], strict=True)
    assert not isinstance(err.value, NoUsableInputError)
    assert str(err.value) == f"{GOOD / 'papers.csv'}:4: record has no abstract"


def test_strict_raises_on_a_bad_file() -> None:
    with pytest.raises(InputError, match=re.escape(f"{BAD / 'latin1.txt'}:5: not valid UTF-8")):
        read_papers([GOOD / "collection.txt", BAD / "latin1.txt"], strict=True)


def test_strict_passes_on_clean_input() -> None:
    result = read_papers([GOOD / "collection.txt", GOOD / "wrapped.json"], strict=True)
    assert len(result.papers) == 5 and result.problems == []


def test_nothing_usable_lists_why(tmp_path: Path) -> None:
    with pytest.raises(NoUsableInputError) as err:
        read_papers([BAD / "empty.txt", BAD / "header_only.txt"])
    assert str(err.value) == (
        f"no usable papers in {BAD / 'empty.txt'}, {BAD / 'header_only.txt'}: "
        f"{BAD / 'empty.txt'}:1: empty file; {BAD / 'header_only.txt'}:1: only a header line, "
        "no abstracts"
    )
    with pytest.raises(NoUsableInputError, match="no papers read from \\(no inputs given\\)"):
        read_papers([])
    assert issubclass(NoUsableInputError, InputError)


def test_problem_str_is_path_line_reason() -> None:
    assert str(Problem("a.csv:3", "record has no abstract")) == "a.csv:3: record has no abstract"


# --- the real corpora -------------------------------------------------------------------------


@pytest.mark.shared
def test_iclr2026_csvs(shared_dir: Path) -> None:
    folder = shared_dir / "data" / "corpora" / "iclr2026-alickzhu"
    start = time.perf_counter()
    result = read_papers([folder])
    seconds = time.perf_counter() - start
    print(f"ICLR 2026: {len(result.papers)} papers from {result.files} CSVs in {seconds:.2f}s")
    assert result.files == 12 and result.problems == [] and result.duplicates == 0
    assert len(result.papers) == 4302
    assert len({p.id for p in result.papers}) == 4302
    for paper in result.papers:
        assert re.fullmatch(r"[A-Za-z0-9_\-]{8,12}", paper.id), paper.id
        assert paper.url == f"https://openreview.net/forum?id={paper.id}"
        assert paper.title and paper.keywords and paper.primary_area
        assert paper.venue in {"ICLR 2026 Poster", "ICLR 2026 Oral"} and paper.year == 2026
        assert paper.authors == [] and paper.display_name == ""
        assert not re.search(r"[\\{}$]", paper.abstract + paper.title + "".join(paper.keywords))
    optimization = [p for p in result.papers if p.id == "VaS6xcDrTb"]
    assert (
        optimization
        and optimization[0].title == "Special Unitary Parameterized Estimators of Rotation"
    )
    assert sum(p.venue == "ICLR 2026 Oral" for p in result.papers) == 184


@pytest.mark.shared
def test_iclr2018_json(shared_dir: Path) -> None:
    path = shared_dir / "data" / "corpora" / "iclr2018.json"
    start = time.perf_counter()
    result = read_papers([path])
    seconds = time.perf_counter() - start
    print(
        f"ICLR 2018: {len(result.papers)} papers (+{result.duplicates} duplicate) in {seconds:.2f}s"
    )
    assert result.problems == []
    # 995 records; two of them (HyxSG1Z3IX, a withdrawn placeholder, and r1YqWz-R-) carry the
    # same abstract, so they are one paper.
    assert len(result.papers) + result.duplicates == 995
    assert (len(result.papers), result.duplicates) == (994, 1)
    assert all(p.authors for p in result.papers)
    assert sum(bool(p.keywords) for p in result.papers) >= 888
    spectral = next(p for p in result.papers if p.id == "B1QRgziT-")
    assert spectral.title == "Spectral Normalization for Generative Adversarial Networks"
    assert spectral.authors == [
        "Takeru Miyato",
        "Toshiki Kataoka",
        "Masanori Koyama",
        "Yuichi Yoshida",
    ]
    assert spectral.keywords == [
        "Generative Adversarial Networks",
        "Deep Generative Models",
        "Unsupervised Learning",
    ]
    text = path.read_text(encoding="utf-8")
    line = int(spectral.source.rsplit(":", 1)[1])
    assert text.split("\n")[line - 1].strip() == "{"
    lines = text.split("\n")
    end = next(i for i in range(line, len(lines)) if lines[i].strip() in ("}", "},"))
    assert '"id": "B1QRgziT-",' in [s.strip() for s in lines[line:end]]


@pytest.mark.shared
def test_seeds_are_in_the_shared_folder_and_dedupe_against_the_csvs(shared_dir: Path) -> None:
    result = read_papers([shared_dir / "seeds", shared_dir / "data/corpora/iclr2026-alickzhu"])
    # 34 of the 38 seed abstracts are ICLR 2026 papers of these 12 areas (after cleaning)
    assert result.duplicates == 34 and len(result.papers) == 4302 + 4


def test_record_memo_gives_the_same_papers_and_only_cleans_new_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.ingest import memo as memo_module

    corpus = tmp_path / "c.csv"
    corpus.write_text(
        "id,title,abstract\n"
        'a,"\\textsc{GenRep}: a title","We use $22$ GPUs and \\emph{MetaEmbed}."\n'
        "b,Plain,A plain abstract about graphs.\n",
        encoding="utf-8",
    )
    plain = read_papers([corpus])
    memo_dir = tmp_path / "memo"
    first = read_papers([corpus], memo_dir=memo_dir)
    cleaned: list[str] = []
    real = memo_module.to_paper

    def counting(raw, origin):  # type: ignore[no-untyped-def]
        cleaned.append(raw.source)
        return real(raw, origin)

    monkeypatch.setattr(memo_module, "to_paper", counting)
    second = read_papers([corpus], memo_dir=memo_dir)
    assert cleaned == []  # every record came from the memo
    corpus.write_text(
        corpus.read_text(encoding="utf-8") + "c,New,One more abstract on $x^2$.\n",
        encoding="utf-8",
    )
    third = read_papers([corpus], memo_dir=memo_dir)
    assert first.papers == plain.papers == second.papers
    assert first.papers[0].title == "GenRep: a title" and "22 GPUs" in first.papers[0].abstract
    assert cleaned == [f"{corpus}:4"]  # only the new record was cleaned
    assert third.papers[:2] == plain.papers and third.papers[2].id == "c"


def test_record_memo_writes_as_it_goes_and_a_big_file_is_remembered_by_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big corpus's cleaned records go to the memo a batch at a time, and a file too big to
    remember whole is not made into one value: its records are remembered one by one."""
    from kg.ingest import memo as memo_module

    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        "".join(f'{{"id": "p{i}", "abstract": "Abstract number {i}."}}\n' for i in range(7)),
        encoding="utf-8",
    )
    monkeypatch.setattr(memo_module, "WRITE_BATCH", 3)
    monkeypatch.setattr(memo_module, "MAX_FILE_BYTES", 10)
    written: list[int] = []
    real = memo_module.RecordMemo.to_papers

    def watching(self, raws, origin):  # type: ignore[no-untyped-def]
        out = real(self, raws, origin)
        written.append(len(self.table.get_many([self.key(r, origin) for r in raws])))
        return out

    monkeypatch.setattr(memo_module.RecordMemo, "to_papers", watching)
    memo_dir = tmp_path / "memo"
    first = read_papers([corpus], memo_dir=memo_dir)
    assert written == [6]  # two batches of 3 before the end; the last one on closing
    cleaned: list[str] = []
    monkeypatch.setattr(memo_module, "to_paper", lambda raw, origin: cleaned.append(raw.source))
    again = read_papers([corpus], memo_dir=memo_dir)
    assert cleaned == [] and again.papers == first.papers == read_papers([corpus]).papers


def test_a_file_read_before_comes_back_whole_with_its_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kg.ingest

    text = (
        "id,title,abstract,keywords,year\n"
        'a,"\\textsc{GenRep}: a title","We use $22$ GPUs and \\emph{MetaEmbed}.","x; y",2025\n'
        "b,Plain,A plain abstract about graphs.,,\n"
        "c,Extra,An abstract.,,,surplus field\n"  # a problem, in the middle
        "d,Same,A plain abstract about graphs.,,\n"  # a duplicate of b
    )
    corpus = write(tmp_path / "c.csv", text)
    memo_dir = tmp_path / "memo"
    plain = read_papers([corpus])
    first = read_papers([corpus], memo_dir=memo_dir)
    parsed: list[Path] = []
    real = kg.ingest._read_file

    def counting(path, data):  # type: ignore[no-untyped-def]
        parsed.append(path)
        return real(path, data)

    monkeypatch.setattr(kg.ingest, "_read_file", counting)
    second = read_papers([corpus], memo_dir=memo_dir)
    assert parsed == []  # not parsed again
    for got in (first, second):
        assert got.papers == plain.papers and got.problems == plain.problems
        assert got.duplicates == plain.duplicates == 1
    assert [p.id for p in second.papers] == ["a", "b"] and second.papers[0].keywords == ["x", "y"]
    assert reasons(second) == {f"{corpus}:4": "row has 6 fields but the header has 5"}
    with pytest.raises(InputError, match=r"c\.csv:4"):
        read_papers([corpus], memo_dir=memo_dir, strict=True)
    # The same bytes under another path are another file (its sources differ); changed bytes
    # are parsed again.
    other = write(tmp_path / "d" / "c.csv", text)
    assert by_source(read_papers([other], memo_dir=memo_dir)).keys() == {
        f"{other}:2",
        f"{other}:3",
    }
    write(corpus, text + "e,New,One more abstract.,,\n")
    assert [p.id for p in read_papers([corpus], memo_dir=memo_dir).papers] == ["a", "b", "e"]
    assert parsed == [other, corpus]


def test_sources_are_written_with_forward_slashes_on_every_system() -> None:
    """A paper's ``source`` is part of the graph file: a Windows path must not make it differ."""
    from pathlib import PureWindowsPath

    from kg.ingest import _read_file

    items = list(_read_file(PureWindowsPath("corpus\\sub\\a.jsonl"), b'{"abstract": "A."}\n{x\n'))
    assert [item.source for item in items] == ["corpus/sub/a.jsonl:1", "corpus/sub/a.jsonl:2"]


# --- words split by a PDF's line breaks -----------------------------------------------------------


def test_a_word_a_line_break_split_is_written_as_the_corpus_writes_it(tmp_path: Path) -> None:
    broken = "A classifi- cation model on CI- FAR10 with data- centric pre- and post-training."
    rows = [
        {"title": "Broken", "abstract": broken},
        {"title": "Whole", "abstract": "Data-centric image classification on CIFAR10."},
        {"title": "Unknown", "abstract": "A hand- crafted feature."},
    ]
    path = write(tmp_path / "c.jsonl", "\n".join(json.dumps(r) for r in rows))
    papers = read_papers(path).papers
    assert papers[0].abstract == (
        "A classification model on CIFAR10 with data-centric pre- and post-training."
    )
    assert papers[2].abstract == "A hand- crafted feature."  # written neither way elsewhere
    # The id hashes the abstract as the record gives it: a paper keeps its id.
    assert papers[0].id == abstract_hash(broken)
