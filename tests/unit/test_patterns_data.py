"""The data files of extraction and resolution: kg_rules' token patterns (their placeholders,
examples and rule families) and the word lists (each read by some code, none with a duplicate)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from spacy.lang.en import English
from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokens import Doc

import kg
from kg.extract import rules as rules_module
from kg.extract.lexicon import load_lexicon, read_word_list
from kg.extract.patterns import (
    RULES_FILE,
    TOKENS_FILE,
    CuedMatcher,
    PatternError,
    expand,
    load_rules,
    numbered_matcher,
    pattern_values,
    read_jsonl,
    token_shapes,
)
from kg.extract.rules import FAMILIES, PhraseRules

KG = Path(kg.__file__).parent
DATA_DIRS = (KG / "extract" / "data", KG / "resolve" / "data")


def _strings(value: Any) -> list[str]:
    """Every string in a nest of lists and dicts (keys and values)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.fixture(scope="module")
def tagged_nlp() -> Language:
    from kg.extract.pipeline import DEFAULT_MODEL, load_base

    return load_base(DEFAULT_MODEL)


# -- the loader ----------------------------------------------------------------------------


def test_expand_replaces_token_shapes_and_values() -> None:
    tokens = {"head": {"LOWER": {"IN": "@heads"}}, "dash": {"ORTH": "-"}}
    values = {"heads": ("task", "tasks"), "tags": ["NN"]}
    pattern = ["@dash", "@head", {"TAG": {"IN": "@tags"}, "OP": "+"}, {"ORTH": "@@"}]
    assert expand(pattern, tokens, values) == [
        {"ORTH": "-"},
        {"LOWER": {"IN": ["task", "tasks"]}},
        {"TAG": {"IN": ["NN"]}, "OP": "+"},
        {"ORTH": "@"},
    ]
    # A shape is copied, not shared: changing one expansion leaves the shape as it was.
    expand(["@head"], tokens, values)[0]["LOWER"]["IN"].append("x")
    assert tokens["head"] == {"LOWER": {"IN": "@heads"}}


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        (["@dot"], "unknown token shape '@dot' (known: @dash)"),
        (["dash"], "unknown token shape 'dash'"),
        ([{"LOWER": {"IN": "@words"}}], "unknown value '@words' (known: @heads)"),
        (["@dash", 3], "a token is an object"),
    ],
)
def test_expand_rejects_what_nothing_defines(pattern: list[Any], message: str) -> None:
    with pytest.raises(PatternError, match=message.replace("(", r"\(").replace(")", r"\)")):
        expand(pattern, {"dash": {"ORTH": "-"}}, {"heads": ["task"]})


def test_a_bad_rules_file_is_reported_with_its_line(tmp_path: Path) -> None:
    rules = tmp_path / "rules.jsonl"
    good = '{"label": "coined", "pattern": ["@coined"]}'
    rules.write_text(good + '\n\n{"label": "task", "pattern": ["@modifer"]}\n', encoding="utf-8")
    with pytest.raises(PatternError, match=r"rules.jsonl line 3: unknown token shape '@modifer'"):
        load_rules(load_lexicon(), rules, TOKENS_FILE)
    rules.write_text(good + "\n{not json\n", encoding="utf-8")
    with pytest.raises(PatternError, match="rules.jsonl line 2"):
        load_rules(load_lexicon(), rules, TOKENS_FILE)
    rules.write_text('{"label": "coined"}\n', encoding="utf-8")
    with pytest.raises(PatternError, match='line 1: a rule needs a "label" and a "pattern"'):
        load_rules(load_lexicon(), rules, TOKENS_FILE)


def test_a_token_shape_is_named_once(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.jsonl"
    line = '{"name": "dash", "token": {"ORTH": "-"}}\n'
    tokens.write_text(line + line, encoding="utf-8")
    with pytest.raises(PatternError, match="line 2: a second shape 'dash'"):
        token_shapes(tokens)


# -- the shipped patterns ------------------------------------------------------------------


def test_every_placeholder_of_the_shipped_patterns_resolves() -> None:
    families = load_rules(load_lexicon())
    assert list(families) == list(FAMILIES)
    left = [s for p in families.values() for s in _strings(p) if s.startswith("@")]
    assert not left, f"placeholders left after expansion: {left}"
    # ... and every token shape is used by some rule, and expands too.
    shapes, values = token_shapes(), pattern_values(load_lexicon())
    used = {
        s[1:] for _, row in read_jsonl(RULES_FILE) for s in row["pattern"] if isinstance(s, str)
    }
    assert set(shapes) == used, f"token shapes no rule uses: {sorted(set(shapes) - used)}"
    for name in shapes:
        assert not [s for s in _strings(expand([f"@{name}"], shapes, values)) if s[:1] == "@"]
    # Every value is used, in the rules or in a shape.
    written = {s[1:] for _, row in read_jsonl(RULES_FILE) for s in _strings(row["pattern"])}
    written |= {s[1:] for shape in shapes.values() for s in _strings(shape)}
    assert set(values) <= written, f"values no pattern uses: {sorted(set(values) - written)}"


def test_the_patterns_read_the_lexicon() -> None:
    lexicon = load_lexicon()
    families = load_rules(lexicon)
    heads = families["named_dataset"][0][1]["LOWER"]["IN"]
    assert "benchmark" in heads and "benchmarks" in heads and heads == sorted(heads)
    assert families["task"][0][1] == {"LOWER": {"IN": sorted(lexicon.task_heads)}}


def _rule_examples() -> list[tuple[int, str, str]]:
    return [
        (number, row["label"], example)
        for number, row in read_jsonl(RULES_FILE)
        for example in row.get("examples", [])
    ]


@pytest.mark.parametrize(("line", "label", "example"), _rule_examples())
def test_each_rule_matches_its_examples_whole(
    tagged_nlp: Language, line: int, label: str, example: str
) -> None:
    row = dict(read_jsonl(RULES_FILE))[line]
    matcher = Matcher(tagged_nlp.vocab)
    matcher.add(label, [expand(row["pattern"], token_shapes(), pattern_values(load_lexicon()))])
    doc = tagged_nlp(example)
    found = [(start, end) for _, start, end in matcher(doc)]
    assert (0, len(doc)) in found, f"{example!r} ({[t.tag_ for t in doc]}): {found}"


def test_every_rule_has_an_example() -> None:
    lines = [number for number, row in read_jsonl(RULES_FILE) if not row.get("examples")]
    assert not lines, f"rules.jsonl lines without examples: {lines}"


def _shape_examples() -> list[tuple[str, str, bool]]:
    return [
        (row["name"], word, key == "examples")
        for _, row in read_jsonl(TOKENS_FILE)
        for key in ("examples", "not")
        for word in row.get(key, [])
    ]


@pytest.mark.parametrize(("shape", "word", "matches"), _shape_examples())
def test_each_token_shape_matches_its_examples_and_not_its_counterexamples(
    shape: str, word: str, matches: bool
) -> None:
    nlp = English()
    matcher = Matcher(nlp.vocab)
    matcher.add(shape, [expand([f"@{shape}"], token_shapes(), pattern_values(load_lexicon()))])
    assert bool(matcher(Doc(nlp.vocab, words=[word]))) is matches


# -- rule families -------------------------------------------------------------------------


@pytest.mark.parametrize("family", ["task", "concept", "word"])
def test_a_family_switched_off_is_not_in_the_matcher(family: str) -> None:
    nlp = English()
    switches = {"tasks": "task", "concepts": "concept", "words": "word"}
    off = PhraseRules(nlp, load_lexicon(), tasks=False, concepts=False, words=False)
    on = PhraseRules(
        nlp, load_lexicon(), **{setting: f == family for setting, f in switches.items()}
    )
    assert family not in off.matcher and family in on.matcher
    assert "coined" in off.matcher and "named_dataset" in off.matcher  # always on
    assert len(on.matcher) == len(off.matcher) + 1


def test_the_pipeline_switches_families_as_configured() -> None:
    from kg.extract.pipeline import load_pipeline

    rules = load_pipeline(use_trained=False).get_pipe("kg_rules")
    assert "task" in rules.matcher and "concept" not in rules.matcher
    rules = load_pipeline(use_trained=False, options=frozenset({("kg_rules", "tasks", False)}))
    assert "task" not in rules.get_pipe("kg_rules").matcher


def test_a_family_kg_rules_does_not_know_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    families = load_rules(load_lexicon())
    monkeypatch.setattr(rules_module, "load_rules", lambda lex: {**families, "taks": []})
    with pytest.raises(PatternError, match="taks"):
        PhraseRules(English(), load_lexicon())


# -- word lists ----------------------------------------------------------------------------


def _data_files(*suffixes: str) -> list[Path]:
    return sorted(p for d in DATA_DIRS for p in d.rglob("*") if p.suffix in suffixes)


def _code_strings() -> set[str]:
    found: set[str] = set()
    for path in KG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def test_every_data_file_is_read_by_some_code() -> None:
    """Each list is named, as a string of its own, by the code that reads it: a file that no
    code names is an orphan."""
    strings = _code_strings()
    orphans = []
    for path in _data_files(".txt", ".tsv", ".jsonl"):
        root = next(d for d in DATA_DIRS if d in path.parents)
        names = {path.name, path.relative_to(root).as_posix()}
        if not names & strings:
            orphans.append(str(path.relative_to(KG)))
    assert not orphans, f"data files no code reads: {orphans}"
    assert len(_data_files(".txt")) > 20  # (the search finds the lists)


@pytest.mark.parametrize("path", _data_files(".txt"), ids=lambda p: p.name)
def test_a_word_list_has_no_duplicates(path: Path) -> None:
    entries = read_word_list(path)
    twice = [w for w, n in Counter(w.lower() for w in entries).items() if n > 1]
    assert entries and not twice, f"{path.name}: {twice or 'empty'}"


def test_a_cued_matcher_finds_what_one_matcher_finds() -> None:
    # Patterns with a cue word, a cue list, an optional cue before a required one, and none
    # at all; texts with and without the cues. The relation rules run through it.
    patterns = [
        [{"LOWER": {"IN": ["use", "apply"]}}, {"IS_ALPHA": True}, {"LOWER": "for"}],
        [{"IS_ALPHA": True}, {"LOWER": "for"}, {"IS_ALPHA": True, "OP": "+"}],
        [{"LOWER": "the", "OP": "?"}, {"ORTH": "CRF"}],
        [{"IS_TITLE": True}, {"IS_ALPHA": True, "OP": "*"}, {"IS_PUNCT": True}],
        [{"LOWER": {"NOT_IN": ["a"]}}, {"LOWER": "than"}],
    ]
    nlp = English()
    plain = numbered_matcher(nlp.vocab, patterns)
    cued = CuedMatcher(nlp.vocab, patterns)
    assert set(cued.groups) == {
        frozenset({"use", "apply"}), frozenset({"for"}), frozenset({"crf"}), None,
        frozenset({"than"}),
    }  # fmt: skip
    texts = [
        "We apply CRFs for tagging, and use the CRF for parsing.",
        "Nothing here matches a cue, Really.",
        "It is better than a baseline for all tasks.",
        "",
    ]
    for text in texts:
        doc = nlp(text)
        want = sorted(plain(doc), key=lambda m: (m[1], m[2], int(nlp.vocab.strings[m[0]])))
        assert cued(doc) == want
        assert cued(doc[1:], with_alignments=True) == sorted(
            plain(doc[1:], with_alignments=True),
            key=lambda m: (m[1], m[2], int(nlp.vocab.strings[m[0]])),
        )
    assert cued(nlp(texts[0]))  # (the texts do match)
