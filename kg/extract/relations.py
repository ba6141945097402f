"""Relations between the entities a sentence names: ``X USED_FOR Y``, ``X EVALUATED_ON Y``, ...

kg's pipeline has a tagger but no dependency parser (excluded for speed), so relations are
found by token patterns over the words around and between two mentions of one sentence: "X for
Y", "we apply X to Y", "X is evaluated on Y", "X outperforms Y", "Y such as X". The patterns
are data (``kg/extract/data/patterns/relations.jsonl``, compiled by
:mod:`kg.extract.relation_rules`: spaCy ``Matcher`` tokens and kg's placeholders; ``"@arg"`` is a
whole mention, ``"%list"`` one of the cues of a list in ``kg/extract/data/relations/``). Each
line says why it is there ("why").

"We", "our method", "this approach" are *stand-ins* for the paper's proposed entity (the
mention ``kg_roles`` marked PROPOSES; :mod:`kg.extract.stand_ins`): a pattern takes them as it
takes a mention, and the relation is stated of the proposed mention; ``head_span`` and
``tail_span`` say where it was written.

Beside the rules, frames (:mod:`kg.extract.frames`) relate the paper's own method to the
datasets and tasks a sentence evaluates it on, however far apart they are written, a
system to the parts a sentence lists after "N components:", the paper's method to those a
sentence opens by setting it against ("Unlike GRPO, ..."), and what a sentence claims for to
the named methods it outperforms (:mod:`kg.extract.baselines`) and the named models it is
applied to (:mod:`kg.extract.applied_frames`); metric frames measure the
datasets a sentence evaluates on by the one metric it names (:mod:`kg.extract.metric_frames`);
and a pair classifier trained on SciERC (:mod:`kg.extract.relation_model`, ``kg train
relations``) adds what it finds between two arguments of a sentence that no rule relates
(``rule`` "model", ``confidence`` its probability); the component's ``model`` setting (default
true) switches it off.

>>> from kg.extract.pipeline import load_pipeline
>>> doc = load_pipeline()("We propose FooNet, a sparse encoder for protein folding.")
>>> for r in relations_in(doc, doc._.kg_mentions):
...     print(r.head["text"], r.type, r.tail["text"])
FooNet IS_A sparse encoder
sparse encoder USED_FOR protein folding
FooNet USED_FOR protein folding
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.applied_frames import APPLIED_RULE
from kg.extract.claimants import is_compared, is_setting_of
from kg.extract.frames import FRAME_FINDERS, FRAME_RULE
from kg.extract.metric_frames import METRIC_CONFIDENCE, METRIC_RULE, metric_frames
from kg.extract.names import has_capital_or_digit
from kg.extract.relation_model import (
    RelationModel,
    lower_and_tags,
    sentence_index,
    shipped_model,
)
from kg.extract.relation_rules import RelationRule, rule_matcher
from kg.extract.relation_spread import through_examples, through_kinds, with_lists
from kg.extract.rows import mention_index
from kg.extract.spans import DERIVED_SOURCES, Arg, Mention
from kg.extract.stand_ins import proposal_of, proposed_mention, stand_ins
from kg.models import MODEL_RULE

#: The frames' finders, with the rule and confidence of what each finds.
_FINDERS = (*FRAME_FINDERS, (metric_frames, METRIC_RULE, METRIC_CONFIDENCE))
_ENT_ATTRS: list[int | str] = ["ENT_IOB", "ENT_TYPE"]

if not Doc.has_extension("kg_relations"):
    Doc.set_extension("kg_relations", default=None)


@dataclass
class Relation:
    """``head`` —type→ ``tail`` (``kg_mentions`` dicts), the sentence that states it, the
    rule's confidence and name, and where the arguments are written (characters: the mention,
    or the stand-in "our method" when the argument is the paper's proposed entity)."""

    head: Mention
    type: str
    tail: Mention
    sentence: str
    confidence: float
    rule: str
    head_span: tuple[int, int]
    tail_span: tuple[int, int]


# -- finding relations -----------------------------------------------------------------------


_AUTO: Any = object()


def relations_in(
    doc: Doc,
    mentions: Sequence[Mention],
    proposed: Mention | None = _AUTO,
    stand_in: bool = True,
    model: RelationModel | None = _AUTO,
) -> list[Relation]:
    """The relations each sentence of ``doc`` states between ``mentions`` (``kg_mentions``
    dicts; derived ones — a head noun, a nested name — overlap the mention they come from and
    are left out; :data:`~kg.extract.spans.GENERIC` ones, SciERC's, are arguments like any other).

    With ``stand_in``, "we" and "our method" (:func:`stand_ins`) are arguments too, for
    ``proposed``: by default the paper's proposed mention (:func:`proposed_mention`); without
    one their relations are dropped.

    ``model``: the trained pair classifier (:mod:`kg.extract.relation_model`; by default the
    shipped one, None for the rules alone) adds the relations it finds between two arguments
    no rule relates (:func:`_model_relations`).
    """
    if proposed is _AUTO:
        proposed = proposed_mention(mentions)
    if model is _AUTO:
        model = shipped_model()
    args = argument_tokens(doc, mentions, stand_in)
    matcher, rules = rule_matcher(doc.vocab)
    sentence_of, sentence_end = sentence_index(doc)
    starts = [a[0] for a in args]
    argued = [  # the sentences with two arguments or more
        (first, end)
        for first, end in sentence_end.items()
        if bisect_left(starts, end) - bisect_left(starts, first) >= 2
    ]
    own_ents = doc.to_array(_ENT_ATTRS)
    matches = []
    try:
        doc.set_ents([Span(doc, s, e, label="ARG") for s, e, _ in args], default="outside")
        # Sentence by sentence, and only where a relation can be: a relation joins two
        # arguments of one sentence, and most sentences have fewer.
        for first, end in argued:
            for match_id, start, stop, alignment in matcher(doc[first:end], with_alignments=True):
                matches.append((match_id, first + start, first + stop, alignment))
    finally:
        doc.from_array(_ENT_ATTRS, own_ents)  # type: ignore[arg-type]
    found: dict[tuple[int, int], tuple[int, Relation]] = {}  # a pair of mentions -> its rule
    sentences = _SentenceTexts(doc, sentence_end)
    by_first = {s: (e, m) for s, e, m in args}
    for match_id, start, end, alignment in matches:
        index = int(doc.vocab.strings[match_id])
        rule = rules[index]
        pair = _pair(doc, rule, start, end, alignment, args, by_first, sentence_of)
        if pair is None:
            continue
        head, tail = pair if rule.head == 0 else pair[::-1]
        if rule.head_heads is not None and not _names_a_part(
            doc, rule.head_heads, head[1], by_first[head[0]][0]
        ):
            continue
        relation = _relation(sentences(sentence_of[pair[0][0]]), rule, head[1], tail[1], proposed)
        key = (pair[0][0], pair[1][0])
        if relation is not None and (key not in found or found[key][0] > index):
            found[key] = (index, relation)
    relations = sorted((r for _, r in found.values()), key=lambda r: r.head_span)
    relations = through_examples(with_lists(doc, relations, args))
    relations += _frame_relations(doc, args, relations, proposed, sentence_of, sentences)
    if model is not None and argued:
        relations += _model_relations(doc, model, args, relations, proposed, sentence_of,
                                      sentence_end, sentences)  # fmt: skip
    # After the model's: "ThinkMorph, a unified thinking model capable of interleaved
    # reasoning" has the kind's use from the classifier, not from a rule.
    return _one_per_entity_pair(through_kinds(relations))


class _SentenceTexts:
    """Each sentence's text by its first token, joined once: ``doc.text`` (and a span's text)
    joins the tokens again on every use."""

    def __init__(self, doc: Doc, sentence_end: dict[int, int]) -> None:
        self.doc, self.sentence_end = doc, sentence_end
        self._texts: dict[int, str] = {}

    def __call__(self, first: int) -> str:
        text = self._texts.get(first)
        if text is None:
            text = self._texts[first] = self.doc[first : self.sentence_end[first]].text.strip()
        return text


#: The words between a phrase and the name it is given: "a soup strategy, named SRSoup", "an
#: encoding operator dubbed as PPE" (an acronym in brackets only shortens the phrase: "a joint
#: denoising scheme (JDS)").
_NAMING = frozenset({",", "—", "–", ":", "named", "called", "dubbed", "termed", "coined", "as"})


def _names_a_part(doc: Doc, heads: frozenset[str], mention: Mention, end: int) -> bool:
    """Whether ``mention`` (its tokens end before ``end``) names a part, for a rule that asks
    its head to (:attr:`RelationRule.head_heads`): its last word is one of ``heads``, and the
    sentence gives it no name ("we introduce a new fine-tuning strategy, STAT": the method
    itself, no part)."""
    return mention["text"].split()[-1].lower() in heads and not _given_a_name(doc, end)


def _given_a_name(doc: Doc, end: int) -> bool:
    """Whether the phrase that ends before token ``end`` is given a name right after it ("a
    new fine-tuning strategy, STAT", "an estimator, Distributions-as-Actions Policy Gradient
    (DA-PG)", "a strategy, named Sample Reward Soups")."""
    i = end
    while i < len(doc) and i < end + 3 and doc[i].lower_ in _NAMING:
        i += 1
    return i > end and i < len(doc) and has_capital_or_digit(doc[i].text)


def _stands_for_own(m: Mention) -> bool:
    """Whether ``m`` is a stand-in for the paper's own method ("our approach", an opening "It"),
    not "we" (:func:`kg.extract.stand_ins.stand_ins`)."""
    return m.get("source") == "stand_in" and m.get("refers") == "own"


def _stated(
    head: Mention, tail: Mention, proposed: Mention | None
) -> tuple[Mention, Mention, tuple[tuple[int, int], tuple[int, int]]] | None:
    """``head`` and ``tail`` as a relation states them (a stand-in is ``proposed``), with where
    they are written; None when there is no proposed entity to stand for, or when both are one
    ("we ... our method")."""
    h, t = (proposed if m.get("source") == "stand_in" else m for m in (head, tail))
    if h is None or t is None or h is t:
        return None
    return h, t, _spans(head, tail)


def _spans(head: Mention, tail: Mention) -> tuple[tuple[int, int], tuple[int, int]]:
    return (head["start"], head["end"]), (tail["start"], tail["end"])


def _model_relations(
    doc: Doc,
    model: RelationModel,
    args: list[Arg],
    found: list[Relation],
    proposed: Mention | None,
    sentence_of: list[int],
    sentence_end: dict[int, int],
    sentences: _SentenceTexts,
) -> list[Relation]:
    """What ``model`` finds between two arguments the rules (``found``) do not relate either
    way round. "We" is not its argument: SciERC, which it learnt from, never relates the
    authors; "our method" is (SciERC's Generic "method")."""
    own = [a for a in args if a[2].get("refers") != "we"]
    words, tags = lower_and_tags(doc)
    model_args = [(s, e, m["label"]) for s, e, m in own]
    related = {frozenset((r.head_span, r.tail_span)) for r in found}
    out = []
    for i, j, kind, p in model.predict(words, tags, model_args, sentence_of, sentence_end):
        head, tail = own[i][2], own[j][2]
        stated = None if frozenset(_spans(head, tail)) in related else _stated(head, tail, proposed)
        if stated is not None:
            h, t, spans = stated
            sentence = sentences(sentence_of[own[i][0]])
            out.append(Relation(h, kind, t, sentence, round(p, 3), MODEL_RULE, *spans))
    return out


def _frame_relations(
    doc: Doc,
    args: list[Arg],
    found: list[Relation],
    proposed: Mention | None,
    sentence_of: list[int],
    sentences: _SentenceTexts,
) -> list[Relation]:
    """The frames' relations (:mod:`kg.extract.frames`) between two arguments the rules
    (``found``) do not relate either way round, the first frame of a pair winning."""
    related = {frozenset((r.head_span, r.tail_span)) for r in found}
    out = []
    for finder, rule, confidence in _FINDERS:
        for (_, _, head), kind, (tail_start, _, tail) in finder(doc, args, proposed, sentence_of):
            pair = frozenset(_spans(head, tail))
            stated = None if pair in related else _stated(head, tail, proposed)
            related.add(pair)
            if stated is not None:
                h, t, spans = stated
                sentence = sentences(sentence_of[tail_start])
                out.append(Relation(h, kind, t, sentence, confidence, rule, *spans))
    return out


def argument_tokens(doc: Doc, mentions: Sequence[Mention], stand_in: bool) -> list[Arg]:
    """The mentions (and stand-ins) as non-overlapping token ranges, in order."""
    taken = [False] * len(doc)
    out = []
    for m in sorted(mentions, key=lambda m: (m["start"], -m["end"])):
        span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
        if m.get("source") in DERIVED_SOURCES or span is None or any(taken[span.start : span.end]):
            continue
        taken[span.start : span.end] = [True] * len(span)
        out.append((span.start, span.end, m))
    for m in stand_ins(doc, taken) if stand_in else []:
        i = doc.char_span(m["start"], m["end"]).start  # type: ignore[union-attr]
        out.append((i, i + 1, m))
    return sorted(out, key=lambda a: a[0])


def _pair(
    doc: Doc,
    rule: RelationRule,
    start: int,
    end: int,
    alignment: list[int],
    args: list[Arg],
    by_first: dict[int, tuple[int, Mention]],
    sentence_of: list[int],
) -> tuple[tuple[int, Mention], tuple[int, Mention]] | None:
    """The two mentions (first token, mention) a match relates, in text order: those it takes
    whole, and for a rule of one argument the nearest fitting one (:attr:`RelationRule.nearest`).
    The nearest before is no setting a preposition names (:func:`is_setting_of`: in "our
    LongWriter-Zero model, trained from Qwen2.5-32B, outperforms SFT" LongWriter-Zero does)
    and no baseline of an earlier comparison (:func:`is_compared`: in "MemGen surpasses ExpeL
    and AWM ..., and exceeds GRPO" MemGen does). ``by_first``: ``args`` by first token, as
    (end, mention)."""
    taken = []
    for arg in rule.args:
        tokens = [start + k for k, p in enumerate(alignment) if p in (arg, arg + 1)]
        if not tokens or tokens[0] not in by_first or tokens[-1] != by_first[tokens[0]][0] - 1:
            return None  # (the pattern took part of a mention only)
        taken.append((tokens[0], by_first[tokens[0]][1]))
    if rule.nearest is None:
        pair = taken[0], taken[1]
    else:
        before = rule.nearest == "before"
        types = rule.head_types if (rule.head == 0) == before else rule.tail_types
        sent_start = sentence_of[start]
        near = [
            (s, m) for s, e, m in args
            if sentence_of[s] == sent_start and (types is None or m["label"] in types)
            and 0 <= (start - e if before else s - end) <= rule.within
            and not (
                before and (is_setting_of(doc, s, sent_start) or is_compared(doc, s, e, sent_start))
            )
        ]  # fmt: skip
        if not near:
            return None
        pair = (near[-1], taken[0]) if before else (taken[0], near[0])
    same_sentence = sentence_of[pair[0][0]] == sentence_of[pair[1][0]]
    return pair if same_sentence and pair[0][0] != pair[1][0] else None


def _relation(
    sentence: str, rule: RelationRule, head: Mention, tail: Mention, proposed: Mention | None
) -> Relation | None:
    """The relation ``rule`` states between ``head`` and ``tail`` in ``sentence``, if their
    types and forms fit it."""
    if rule.head_types is not None and head["label"] not in rule.head_types:
        return None
    if rule.tail_types is not None and tail["label"] not in rule.tail_types:
        return None
    if rule.head_named and not has_capital_or_digit(head["text"]):
        return None
    if rule.tail_named and not (has_capital_or_digit(tail["text"]) or _stands_for_own(tail)):
        return None
    stated = _stated(head, tail, proposed)
    if stated is None:
        return None
    h, t, spans = stated
    return Relation(h, rule.type, t, sentence, rule.confidence, rule.name, *spans)


def _one_per_entity_pair(relations: list[Relation]) -> list[Relation]:
    """One relation per (head, type, tail) mention: "We evaluate X on Y" states X on Y through
    "we" (the proposed X) and through X; the one written out wins, then one not from a list."""

    def rank(r: Relation) -> tuple[bool, bool]:
        return _spans(r.head, r.tail) != (r.head_span, r.tail_span), r.rule.endswith("+list")

    best: dict[tuple[int, str, int], Relation] = {}
    for r in relations:
        key = (id(r.head), r.type, id(r.tail))
        if key not in best or rank(r) < rank(best[key]):
            best[key] = r
    return [r for r in relations if best[id(r.head), r.type, id(r.tail)] is r]


# -- the graph's relations and the component -------------------------------------------------

#: The entity types the graph gives each relation type (issue 20), as a sentence may type
#: them: head labels, tail labels; IS_A's tail (None) is the head's own label or a Concept (a
#: kind of thing). A compared name may be typed a dataset in its sentence: the recogniser types
#: many a model a dataset in one sentence and a method in others ("HELIX further surpasses
#: GPT-4o"); the graph keeps the comparison if the corpus types both methods
#: (:mod:`kg.graph.relations`).
GRAPH_TYPES: dict[str, tuple[frozenset[str], frozenset[str] | None]] = {
    "USED_FOR": (frozenset({"Method", "Dataset"}), frozenset({"Task", "Method"})),
    "EVALUATED_ON": (frozenset({"Method"}), frozenset({"Dataset"})),
    "COMPARED_WITH": (frozenset({"Method", "Dataset"}), frozenset({"Method", "Dataset"})),
    "PART_OF": (frozenset({"Method"}), frozenset({"Method"})),
    "MEASURED_BY": (frozenset({"Task", "Dataset"}), frozenset({"Metric"})),
    "IS_A": (frozenset({"Method", "Dataset", "Task", "Metric", "Concept"}), None),
}


#: (rule, the tail's type in the sentence) of frames that read the tail as another type.
_READ_AS_ANOTHER_TYPE = frozenset(
    {(FRAME_RULE, "Method"), (FRAME_RULE, "Dataset"), (APPLIED_RULE, "Dataset")}
)


def fits_graph(relation: Relation) -> bool:
    """Whether a relation joins the types the graph gives its type (:data:`GRAPH_TYPES`); the
    rules also find what SciERC annotates beyond them (a concept used for a concept, a method
    measured by a metric: kg's results carry those). A frame's tail read as another type and
    a compared name typed a dataset are kept for the graph to decide."""
    heads, tails = GRAPH_TYPES[relation.type]
    head, tail = relation.head["label"], relation.tail["label"]
    if (relation.rule, tail) in _READ_AS_ANOTHER_TYPE:
        # a member of a list of data ("on five benchmarks—BrowserComp, GAIA, ...") or a model
        # of a family ("gains of 24.3% on Qwen2.5-3B") the sentence types otherwise: the
        # graph keeps it if the corpus types its entity as the frame reads it
        return head in heads
    return head in heads and (tail in (head, "Concept") if tails is None else tail in tails)


def relation_rows(relations: Sequence[Relation], mentions: Sequence[Mention]) -> list[dict]:
    """``relations`` as plain dicts (for worker processes and JSON): ``head``/``tail`` as
    indexes into ``mentions`` (:func:`~kg.extract.rows.mention_index`: the unnamed proposal
    has one of its own), ``type``, ``evidence`` (the sentence), ``confidence``, ``rule``."""
    index = mention_index(mentions)
    return [
        {"head": head, "tail": tail, "type": r.type,
         "evidence": r.sentence, "confidence": r.confidence, "rule": r.rule}
        for r in relations
        if (head := index(r.head)) is not None and (tail := index(r.tail)) is not None
    ]  # fmt: skip


def find_relations(doc: Doc, model: RelationModel | None = _AUTO) -> Doc:
    """``doc._.kg_relations``: the relations that fit the graph (:func:`fits_graph`), as
    :func:`relation_rows`. After ``kg_roles``: "we"/"our method" stand for the mention it
    gives the PROPOSES role, or for an unnamed proposal where the abstract names none
    (:func:`~kg.extract.stand_ins.proposal_of`).
    ``model``: as :func:`relations_in`'s."""
    mentions = doc._.kg_mentions or []
    found = [r for r in relations_in(doc, mentions, proposal_of(mentions), model=model)
             if fits_graph(r)]  # fmt: skip
    doc._.kg_relations = relation_rows(found, mentions)
    return doc


@Language.factory(
    "kg_relations",
    default_config={"model": True},
    assigns=["doc._.kg_relations"],
    requires=["doc._.kg_mentions", "token.tag", "token.is_sent_start"],
)
def make_relations(nlp: Language, name: str, model: bool) -> Callable[[Doc], Doc]:
    """The ``kg_relations`` component (:func:`find_relations`); ``model``: whether the
    shipped pair classifier adds to the rules (``kg/extract/models/relations/``)."""
    trained = shipped_model() if model else None
    return partial(find_relations, model=trained)
