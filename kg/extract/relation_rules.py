"""The token patterns of :mod:`kg.extract.relations`: ``relations.jsonl``, compiled.

Each line of ``kg/extract/data/patterns/relations.jsonl`` is a rule: spaCy ``Matcher`` tokens
and kg's placeholders (:mod:`kg.extract.patterns`), where ``"@arg"`` is a whole mention and
``"%list"`` one of the cues of a list in ``kg/extract/data/relations/``, with the relation type
it states, which argument is the head, the types and forms each may have, and why it is there
("why", "examples": ``tests/unit/test_relations.py`` checks every example). A rule with a cue
list becomes a pattern per length of its cues (:func:`load_relation_rules`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from spacy.vocab import Vocab

from kg.extract.lexicon import load_lexicon, read_data_lines
from kg.extract.patterns import (
    PATTERNS,
    CuedMatcher,
    PatternError,
    expand,
    pattern_values,
    read_jsonl,
)
from kg.extract.patterns import token_shapes as kg_token_shapes
from kg.extract.relation_model import CUE_LISTS, RELATION_TYPES
from kg.extract.stand_ins import GENERIC_HEADS

RULES_FILE = PATTERNS / "relations.jsonl"
#: The word lists a rule's ``"head_heads"`` may name.
HEAD_LISTS = {"part_heads": "relations/part_heads.txt"}
TOKENS_FILE = PATTERNS / "relations_tokens.jsonl"
#: "@arg" is a mention: the finder writes the mentions as the doc's entities while it matches
#: (a native attribute; an extension attribute is a Python predicate, which made matching
#: slower than the whole pipeline) and then puts the doc's own back.
_ARG = [{"ENT_IOB": "B"}, {"ENT_IOB": "I", "OP": "*"}]


@dataclass(frozen=True)
class RelationRule:
    name: str
    type: str
    pattern: list[dict[str, Any]]
    args: tuple[int, ...]  # the pattern indices of its arguments' first tokens (one or two)
    head: int  # which of the two arguments, in text order, is the head
    head_types: frozenset[str] | None
    tail_types: frozenset[str] | None
    #: The head is written as a name (a capital or digit): "GRPO, a reinforcement learning
    #: algorithm", not "In training, a model ...".
    head_named: bool
    #: The tail likewise: "FARTrack introduces X" makes X part of FARTrack, "researchers
    #: introduce X" not; a word for the paper's own method counts as its name ("Our approach
    #: integrates PTG", "Furthermore, it devises RFA"), "we" does not.
    tail_named: bool
    #: The words the head's last word must be one of (the list of :data:`HEAD_LISTS` the rule
    #: names): "we further propose a consistency loss" states a part, "we propose a framework"
    #: the paper's method itself.
    head_heads: frozenset[str] | None
    #: For a pattern of one argument: the other is the nearest mention of the right type
    #: "before" or "after" the match, ``within`` tokens, in the sentence ("X achieves higher
    #: accuracy than Y": the pattern is "than Y"). A gap in a pattern is no cheaper way: a gap
    #: after every mention made matching slower than the whole pipeline.
    nearest: str | None
    within: int
    confidence: float


def cue_values() -> dict[str, list[str]]:
    """The cue lists, lower case, by placeholder name."""
    return {name: [w.lower() for w in read_data_lines(path)] for name, path in CUE_LISTS.items()}


def _expansions(pattern: list[Any], phrases: dict[str, list[str]]) -> Iterable[list[Any]]:
    """``pattern`` with its ``"%list"`` tokens spelt out: a version per length of the list's
    cues, each token any word of that position (one pattern per cue made matching slow; the
    mixtures, such as "driven on", are not English and never match).

    >>> list(_expansions(["%c"], {"c": ["via", "based on", "built upon"]}))[1]
    [{'LOWER': {'IN': ['based', 'built']}}, {'LOWER': {'IN': ['on', 'upon']}}]
    """
    choices = []
    for token in pattern:
        if isinstance(token, str) and token.startswith("%"):
            if token[1:] not in phrases:
                raise PatternError(f"unknown cue list {token!r}")
            cues = [c.split() for c in phrases[token[1:]]]
            choices.append([
                [{"LOWER": {"IN": sorted({c[i] for c in cues if len(c) == n})}} for i in range(n)]
                for n in sorted({len(c) for c in cues})
            ])  # fmt: skip
        else:
            choices.append([[token]])
    for combination in itertools.product(*choices):
        yield [t for part in combination for t in part]


def _compile(
    row: dict[str, Any], pattern: list[Any], shapes: dict, values: dict, heads: dict
) -> RelationRule:
    out: list[dict[str, Any]] = []
    args = []
    for token in pattern:
        if token == "@arg":
            args.append(len(out))
            out += _ARG
        else:
            out += expand([token], shapes, values)
    if len(args) != (1 if row.get("nearest") else 2):
        raise PatternError('a relation pattern has two "@arg" tokens, or one and "nearest"')
    if row.get("nearest") not in (None, "before", "after"):
        raise PatternError('"nearest" is "before" or "after"')
    if row.get("type") not in RELATION_TYPES:
        raise PatternError(f"unknown relation type {row.get('type')!r}")
    types = {k: frozenset(row[k]) if k in row else None for k in ("head_types", "tail_types")}
    return RelationRule(
        row["rule"], row["type"], out, tuple(args), int(row.get("head", 0)), **types,
        head_named=bool(row.get("head_named")), tail_named=bool(row.get("tail_named")),
        head_heads=_head_list(heads, row["head_heads"]) if "head_heads" in row else None,
        nearest=row.get("nearest"),
        within=int(row.get("within", 8)), confidence=float(row.get("confidence", 0.5)),
    )  # fmt: skip


def _head_list(heads: dict[str, frozenset[str]], name: str) -> frozenset[str]:
    """The words of the list of :data:`HEAD_LISTS` called ``name`` (``heads``: each read)."""
    if name not in heads:
        raise PatternError(f"unknown head list {name!r}")
    return heads[name]


def load_relation_rules(
    path: Path = RULES_FILE, tokens_path: Path = TOKENS_FILE
) -> list[RelationRule]:
    """The rules of ``relations.jsonl`` in file order (an earlier rule wins a pair of mentions
    several relate), a rule per version of its ``"%list"`` tokens (:func:`_expansions`)."""
    shapes = {**kg_token_shapes(), **kg_token_shapes(tokens_path)}
    lists = cue_values()
    lexicon = load_lexicon()
    values: dict[str, Any] = {**pattern_values(lexicon), **lists}
    values["generic_heads"] = [w.lower() for w in read_data_lines(GENERIC_HEADS)]
    values["proposal_verbs"] = proposal_verbs(lexicon.proposal_cues)
    heads = {
        name: frozenset(w.lower() for w in read_data_lines(file))
        for name, file in HEAD_LISTS.items()
    }
    rules = []
    for number, row in read_jsonl(path):
        try:
            if not isinstance(row.get("rule"), str) or not isinstance(row.get("pattern"), list):
                raise PatternError('a relation rule needs a "rule" name and a "pattern"')
            rules += [
                _compile(row, p, shapes, values, heads) for p in _expansions(row["pattern"], lists)
            ]
        except PatternError as exc:
            raise PatternError(f"{path.name} line {number}: {exc}") from None
    return rules


def proposal_verbs(cues: Iterable[str]) -> list[str]:
    """The forms a paper writes its one-word proposal verbs in (``proposal_cues.txt``).

    >>> proposal_verbs(["propose", "present", "put forward"])
    ['present', 'presented', 'presents', 'propose', 'proposed', 'proposes']
    """
    words = [c.lower() for c in cues if " " not in c]
    past = {w: w + "d" if w.endswith("e") else w + "ed" for w in words}
    return sorted({f for w in words for f in (w, w + "s", past[w])})


@lru_cache(maxsize=4)
def rule_matcher(vocab: Vocab) -> tuple[CuedMatcher, list[RelationRule]]:
    """A matcher of every rule (one per vocabulary), and the rules by its match ids."""
    rules = load_relation_rules()
    return CuedMatcher(vocab, [rule.pattern for rule in rules]), rules
