"""The token patterns of ``kg_rules``, read from ``kg/extract/data/patterns``.

They are data, in spaCy's ``Matcher`` pattern format, one JSON object a line:

* ``rules.jsonl``: ``{"label": "coined", "pattern": [token, ...]}``. A *rule family* is the
  lines that share a label, in file order (``kg_rules`` switches families on and off).
* ``tokens.jsonl``: named token shapes the patterns share, ``{"name": "titled", "token": {...}}``.

A token is a ``Matcher`` token pattern (``{"LOWER": "benchmark"}``, ``{"TAG": {"IN": [...]}}``).
The one convention beyond spaCy's format is the placeholder, a string that starts with ``@``:

* in place of a token of a pattern, ``"@titled"`` is the token shape ``titled``;
* in place of a value inside a token, ``{"LOWER": {"IN": "@task_heads"}}``, it is a value kept
  outside the pattern files (:func:`pattern_values`: kg's word lists, the coined-name regex);
* ``"@@"`` at the start of a string stands for a literal ``@``.

Lines may also hold ``"examples"``: phrases a rule matches whole, or words a token shape
matches, and for token shapes ``"not"``: words it must not match. kg ignores them; the tests
check every one (``tests/unit/test_patterns_data.py``). ``kg/extract/data/patterns/README.md``
says why each shape and family is as it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.extract.lexicon import DATA, Lexicon, read_data_lines
from kg.extract.names import COINED

if TYPE_CHECKING:
    from spacy.matcher import Matcher
    from spacy.tokens import Doc, Span
    from spacy.vocab import Vocab

PATTERNS = DATA / "patterns"
RULES_FILE = PATTERNS / "rules.jsonl"
TOKENS_FILE = PATTERNS / "tokens.jsonl"


class PatternError(ValueError):
    """A pattern file that cannot be read: bad JSON, or a placeholder nothing defines."""


def pattern_values(lexicon: Lexicon) -> dict[str, Any]:
    """What each value placeholder of the pattern files stands for (``"@dataset_heads"`` is
    ``pattern_values(lexicon)["dataset_heads"]``)."""
    return {
        # One definition of a coined name for all of kg (kg/extract/names.py).
        "coined_regex": COINED.pattern,
        # "benchmark" and "benchmarks": a head word in either number (dataset_heads.txt).
        "dataset_heads": sorted(lexicon.dataset_heads | {h + "s" for h in lexicon.dataset_heads}),
        "task_heads": sorted(lexicon.task_heads),  # task_heads.txt
        "determiners": read_data_lines("determiners.txt"),
    }


def _value(value: Any, values: dict[str, Any]) -> Any:
    """``value`` (a token's attribute value, at any depth) with its placeholders replaced."""
    if isinstance(value, dict):
        return {k: _value(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_value(v, values) for v in value]
    if isinstance(value, str) and value.startswith("@@"):
        return value[1:]
    if isinstance(value, str) and value.startswith("@"):
        if value[1:] not in values:
            known = ", ".join(f"@{k}" for k in sorted(values))
            raise PatternError(f"unknown value {value!r} (known: {known})")
        found = values[value[1:]]
        return list(found) if isinstance(found, list | tuple) else found
    return value


def expand(
    pattern: list[Any], tokens: dict[str, dict[str, Any]], values: dict[str, Any]
) -> list[dict[str, Any]]:
    """``pattern`` as spaCy's ``Matcher`` takes it: each ``"@shape"`` token replaced by the token
    shape ``tokens[shape]``, each ``"@name"`` value by ``values[name]``, ``"@@"`` by ``"@"``.

    >>> tokens = {"dash": {"ORTH": "-"}, "head": {"LOWER": {"IN": "@heads"}}}
    >>> values = {"heads": ["task", "tasks"]}
    >>> expand(["@dash", "@head", {"LOWER": "@@home", "OP": "?"}], tokens, values)
    [{'ORTH': '-'}, {'LOWER': {'IN': ['task', 'tasks']}}, {'LOWER': '@home', 'OP': '?'}]
    >>> expand(["@dot"], tokens, values)
    Traceback (most recent call last):
    ...
    kg.extract.patterns.PatternError: unknown token shape '@dot' (known: @dash, @head)
    """
    out = []
    for token in pattern:
        if isinstance(token, str):
            if not token.startswith("@") or token[1:] not in tokens:
                known = ", ".join(f"@{k}" for k in sorted(tokens))
                raise PatternError(f"unknown token shape {token!r} (known: {known})")
            token = tokens[token[1:]]
        if not isinstance(token, dict):
            raise PatternError(f"a token is an object or a '@shape', not {token!r}")
        out.append(_value(token, values))
    return out


def read_jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The objects of a JSONL file with their line numbers (blank lines skipped)."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PatternError(f"{path.name} line {number}: {exc}") from None
        if not isinstance(row, dict):
            raise PatternError(f"{path.name} line {number}: not a JSON object")
        rows.append((number, row))
    return rows


def token_shapes(path: Path = TOKENS_FILE) -> dict[str, dict[str, Any]]:
    """The named token shapes of ``tokens.jsonl``, their value placeholders not yet replaced."""
    shapes = {}
    for number, row in read_jsonl(path):
        if not isinstance(row.get("name"), str) or not isinstance(row.get("token"), dict):
            raise PatternError(f'{path.name} line {number}: a shape needs a "name" and a "token"')
        if row["name"] in shapes:
            raise PatternError(f"{path.name} line {number}: a second shape {row['name']!r}")
        shapes[row["name"]] = row["token"]
    return shapes


def load_rules(
    lexicon: Lexicon, path: Path = RULES_FILE, tokens_path: Path = TOKENS_FILE
) -> dict[str, list[list[dict[str, Any]]]]:
    """The patterns of ``rules.jsonl``, expanded (:func:`expand`), by rule family: families in
    the order they first appear, each family's patterns in file order."""
    tokens = token_shapes(tokens_path)
    values = pattern_values(lexicon)
    families: dict[str, list[list[dict[str, Any]]]] = {}
    for number, row in read_jsonl(path):
        try:
            if not isinstance(row.get("label"), str) or not isinstance(row.get("pattern"), list):
                raise PatternError('a rule needs a "label" and a "pattern" (a list of tokens)')
            pattern = expand(row["pattern"], tokens, values)
        except PatternError as exc:
            raise PatternError(f"{path.name} line {number}: {exc}") from None
        families.setdefault(row["label"], []).append(pattern)
    return families


def required_words(pattern: list[dict[str, Any]]) -> frozenset[str] | None:
    """The lower-case words of which a text must hold one for ``pattern`` to match: those its
    first token that must match given words (once or more: no ``OP``, or ``"+"``) allows, or
    None when no such token comes before the others.

    >>> sorted(required_words([{"OP": "?", "LOWER": "a"}, {"LOWER": {"IN": ["For", "to"]}}]))
    ['for', 'to']
    >>> required_words([{"TAG": "NN"}]) is None
    True
    """
    for token in pattern:
        if token.get("OP", "1") not in ("1", "+"):
            continue
        for attr in ("LOWER", "ORTH"):
            value = token.get(attr)
            if isinstance(value, str):
                return frozenset([value.lower()])
            if isinstance(value, dict) and set(value) == {"IN"}:
                return frozenset(v.lower() for v in value["IN"])
    return None


class CuedMatcher:
    """A ``Matcher`` of numbered patterns (as :func:`numbered_matcher`) that runs a pattern only
    over a text holding one of its :func:`required_words`.

    spaCy's ``Matcher`` tries every pattern at every token, and each set predicate ("IN") is a
    Python call per token; most relation patterns need a cue word ("for", "outperforms") that
    most sentences lack. Matches come sorted by start, end and pattern number, whatever the
    grouping, so the same text gives the same list.
    """

    def __init__(self, vocab: Vocab, patterns: list[list[dict[str, Any]]]) -> None:
        from spacy.matcher import Matcher

        self.vocab = vocab
        self.groups: dict[frozenset[str] | None, Matcher] = {}  # required words -> matcher
        for i, pattern in enumerate(patterns):
            words = required_words(pattern)
            if words not in self.groups:
                self.groups[words] = Matcher(vocab)
            self.groups[words].add(str(i), [pattern])

    def __call__(self, doclike: Doc | Span, with_alignments: bool = False) -> list[tuple]:
        """The matches in ``doclike``, as ``Matcher.__call__`` gives them."""
        words = {t.lower_ for t in doclike}
        matches: list[tuple] = []
        for required, matcher in self.groups.items():
            if required is None or not required.isdisjoint(words):
                matches += matcher(doclike, with_alignments=with_alignments)
        strings = self.vocab.strings
        return sorted(matches, key=lambda m: (m[1], m[2], int(strings[m[0]])))


def numbered_matcher(vocab: Vocab, patterns: list[list[dict[str, Any]]]) -> Matcher:
    """A spaCy ``Matcher`` with one rule per pattern, named by its index in ``patterns`` (a
    match's id, looked up in ``vocab.strings``, gives the rule back)."""
    from spacy.matcher import Matcher

    matcher = Matcher(vocab)
    for i, pattern in enumerate(patterns):
        matcher.add(str(i), [pattern])
    return matcher
