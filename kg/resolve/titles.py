"""Titles as statements: the entities a paper's title names, and the "X for Y" it states.

A title is the sentence an author weighs most, and kg's extraction reads only the abstract: the
spaCy pipeline is trained on sentence case, and titles are written in title case ("Secure
Inference for Diffusion Models via Unconditional Scores"). So titles are read here, once the
corpus is resolved, against what the abstracts of the whole corpus name:

* **Links.** A phrase of the title whose merge key is an entity's, an entity that abstracts
  name (two papers or more, or this one), links the paper to it, with the title as evidence
  (which phrases: :mod:`kg.resolve.title_phrases`).
* **Relations.** ``NAME: ... for TASK``, ``NAME: Towards TASK``, ``NAME: Fast TASK with ...``
  and ``METHOD for TASK`` state that the paper's contribution is used for the task
  (``USED_FOR``), as ``TASK via METHOD`` (or ``using``, ``through``, ``with``) states it of
  the method; a benchmark the title names is used for its task the same way. The head is the
  title's name, else the entity written just before "for", else the paper's one proposed
  method or dataset. A purpose phrase no entity names is a task of its own when it reads as
  one (:mod:`kg.resolve.purposes`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from kg.extract.long_forms import find_long_form
from kg.extract.normalize import normalize_key
from kg.extract.rows import UNNAMED
from kg.models import Entity, Mention, Paper, RelationMention, Statements
from kg.resolve.kinds import names_a_kind, worth_a_node
from kg.resolve.names import in_capitals, name_key, names_a_benchmark
from kg.resolve.naming import title_name
from kg.resolve.purposes import STOPS as PURPOSE_STOPS
from kg.resolve.purposes import purpose_task
from kg.resolve.title_phrases import (
    Phrase,
    TitleIndex,
    find_phrases,
    mention_keys,
    title_words,
)
from kg.resolve.words import word_list
from kg.schema import DEFAULT_ROLE, ENTITY_REL_TRIPLES, EntityRel, Label, Rel, entity_id

#: The source of a mention only the title makes (:attr:`kg.models.Mention.source`).
TITLE = "title"
#: A relation a title states: as sure as a pattern's in a sentence, a little less than a "we
#: propose" (titles are terse, and "for" also opens a purpose: "Tricks for ...").
TITLE_CONFIDENCE = 0.7
#: The words after which a title names the method of what it names before them: "Y via X".
_VIA = frozenset({"via", "using", "through", "with"})
#: The words after which a title names what its contribution is for, the first found first:
#: "X for Y", "NAME: Towards Y".
_PURPOSE = ("for", "towards", "toward")
#: The words that end what a named title's description says its contribution does: "FARTrack:
#: Fast Autoregressive Visual Tracking with High Performance" is visual tracking; what follows
#: "with", "in", "of" ... qualifies it.
_QUALIFIERS = frozenset(word_list("title_qualifiers.txt"))
_HEAD_TYPES = frozenset({Label.METHOD, Label.DATASET})
#: A title's name is a dataset's when one of the first words of its description opens with
#: one of these ("OSWorld-MCP: Benchmarking MCP Tool Invocation", "X: A Dataset of ...").
_DATASET_OPENERS = ("benchmark", "dataset", "suite", "corpus")
_DESCRIPTION_WORDS = 3
#: A title's name that no abstract writes is taken as one only when it is one word, with a
#: version maybe ("RayI2P", "CircuitNet 3.0"): longer ones are as often claims ("LLMs are
#: Greedy Agents", "RL's Razor", "LoRA meets Riemannion").
_ONE_NAME = re.compile(r"\S+(?: v?\d+(?:\.\d+)*)?")
def link_titles(
    papers: Iterable[Paper],
    mentions: dict[str, list[Mention]],
    entities: dict[str, Entity],
    stated: Statements,
) -> None:
    """Add to ``mentions`` the links only titles make (source :data:`TITLE`) and to ``stated``
    the relations titles state. Deterministic: papers are read in the order given."""
    index = TitleIndex(mentions, entities)
    worth: dict[str, bool] = {}  # entity id -> worth a node, asked once
    for p in papers:
        if not p.title:
            continue
        ms = mentions.setdefault(p.id, [])
        first: dict[str, Mention] = {}
        for m in ms:
            if m.entity in entities and m.source != "head":
                first.setdefault(m.entity, m)
        own = {
            k: m.entity
            for m in ms
            if m.entity in first and m.source != "head"
            for k in mention_keys(m)
        }
        lookup = functools.partial(_either, own, index.entity_of)
        if in_capitals(p.title):  # its capitals name nothing: "THE DECODING TRACE" is a trace
            lookup = functools.partial(_lowered, lookup)
        named = title_name(p.title) or _proposed_name(p.title, ms)
        segments = [p.title] if named is None else p.title.split(":", 1)
        phrases: list[tuple[int, list[str], list[Phrase]]] = []
        for n, segment in enumerate(segments):
            words = title_words(segment)
            found = [
                ph
                for ph in find_phrases(words, lookup, index.starts, index.ends)
                if _names_a_thing(entities[ph.entity], worth)
            ]
            if named is None or n > 0:  # the name's own segment is no purpose
                spans = [(ph.start, ph.end, entities[ph.entity].label) for ph in found]
                described = named is not None and n > 0 and not _spelt_out(named, words)
                task = purpose_task(words, spans, lookup, entities, described)
                if task is not None:  # (first of the phrases that start where it does)
                    found = sorted([Phrase(*task), *found], key=lambda ph: ph.start)
            phrases.append((n, words, found))
            for ph in found:
                if ph.entity not in first:
                    first[ph.entity] = _title_mention(p.title, ph.text, entities[ph.entity])
                    ms.append(first[ph.entity])
        head_name = None
        if named is not None:
            # ... or as this paper writes it otherwise ("FLOWER: ...", "we introduce Flower")
            eid = lookup(name_key(named)) or own.get(normalize_key(named))
            head_name = first.get(eid) if eid else None
            if eid is None and _ONE_NAME.fullmatch(named):  # a name only the title writes
                head_name = _unwritten_name(p.title, named, entities)
                first[head_name.entity] = head_name
                ms.append(head_name)
        if head_name is not None:
            _name_the_unnamed(stated, p.id, head_name)
            if kind := _named_kind(p.title, lookup, entities):
                relation = RelationMention(
                    head_name, EntityRel.IS_A.value, kind, p.title, TITLE_CONFIDENCE, rule=TITLE
                )
                stated.relations.setdefault(p.id, []).append(relation)
        proposed = {m.entity for m in ms if m.role == Rel.PROPOSES and m.type in _HEAD_TYPES}
        only = first[next(iter(proposed))] if len(proposed) == 1 else None
        for n, words, found in phrases:
            if named is not None and n == 0:
                continue
            for head, tail in title_relations(words, found, entities, head_name, only):
                stated.relations.setdefault(p.id, []).append(
                    RelationMention(
                        first[head] if isinstance(head, str) else head,
                        EntityRel.USED_FOR.value,
                        first[tail],
                        p.title,
                        TITLE_CONFIDENCE,
                        rule=TITLE,
                    )
                )


def _name_the_unnamed(stated: Statements, paper_id: str, name: Mention) -> None:
    """What a paper's abstract states of the proposal it does not name ("Experiments on KITTI
    show that our approach ...": :func:`kg.extract.stand_ins.unnamed_proposal`) it states of
    the name its title gives (``name``): "RayI2P: Learning Rays for ..." EVALUATED_ON KITTI."""
    for r in stated.relations.get(paper_id, ()):
        if r.head.source == UNNAMED:
            r.head = name
        if r.tail.source == UNNAMED:
            r.tail = name
    for res in stated.results.get(paper_id, ()):
        if res.method is not None and res.method.source == UNNAMED:
            res.method = name


def title_relations(
    words: list[str],
    found: list[Phrase],
    entities: dict[str, Entity],
    named: Mention | None = None,
    proposed: Mention | None = None,
) -> list[tuple[str | Mention, str]]:
    """The (head, tail) ``USED_FOR`` pairs a title segment states: entity ids, or a mention
    as the head of "... for TASK": the title's ``named`` contribution, else the entity just
    before "for", else the paper's one ``proposed`` method or dataset. With no "for", the
    ``named`` contribution is used for the tasks its description names before a qualifying
    word ("NAME: Fast Visual Tracking with ..."). A method after "via", "using", "through" or
    "with" is used for the task before it, and for the ``named`` contribution.

    >>> from kg.models import Entity
    >>> ents = {"method:ft": Entity("method:ft", Label.METHOD, "Flow Caching"),
    ...         "task:vg": Entity("task:vg", Label.TASK, "video generation")}
    >>> words = title_words("Flow Caching for Video Generation")
    >>> title_relations(words, find_phrases(words, {"flow-caching": "method:ft",
    ...     "video-generation": "task:vg"}.get), ents)
    [('method:ft', 'task:vg')]
    """
    lowered = [w.lower() for w in words]
    pairs: list[tuple[str | Mention, str]] = []
    own = entities.get(named.entity or "") if named is not None else None  # (its entity)
    at = next((lowered.index(word) for word in _PURPOSE if word in lowered), None)
    if at is not None:
        # (a concept there is no tail: "for LLM Code Generation" is for code generation)
        tail = next(
            (
                ph
                for ph in found
                if at < ph.start <= at + 2 and entities[ph.entity].label != Label.CONCEPT
            ),
            None,
        ) or _purpose_head(lowered, at, found, entities)
        before = next((ph for ph in found if ph.end == at), None)
        head: str | Mention | None = named
        if head is None and before is not None and entities[before.entity].label in _HEAD_TYPES:
            head = before.entity
        if head is None:
            head = proposed
        if tail is not None and head is not None:
            head_id = head if isinstance(head, str) else head.entity
            if _allowed(entities.get(head_id), entities[tail.entity]):
                pairs.append((head, tail.entity))
    elif named is not None:
        # "NAME: Fast Autoregressive Visual Tracking with ...": the description names what the
        # contribution does; its tasks before a qualifying word are what it is used for.
        end = next((i for i, word in enumerate(lowered) if word in _QUALIFIERS), len(words))
        pairs += [
            (named, ph.entity)
            for ph in found
            if ph.end <= end
            and entities[ph.entity].label == Label.TASK
            and _allowed(own, entities[ph.entity])
        ]
    via = next((i for i, word in enumerate(lowered) if word in _VIA), None)
    if via is not None:
        method = next((ph for ph in found if ph.start == via + 1), None)
        task = next((ph for ph in reversed(found) if ph.end <= via), None)
        if method is not None and entities[method.entity].label == Label.METHOD:
            if task is not None and entities[task.entity].label == Label.TASK:
                pairs.append((method.entity, task.entity))
            # "SecP-Tuning: ... Prompt Tuning for LLMs via MPC": what the named contribution
            # does is done by the method, which it uses; not when the method spells the name
            # out ("LaSeR: Reinforcement Learning with Last-Token Self-Rewarding")
            if (
                named is not None
                and own is not None
                and _allowed(entities[method.entity], own)
                and find_long_form(named.text, method.text) is None
            ):
                pairs.append((method.entity, own.id))
    return pairs


def _purpose_head(
    lowered: list[str], at: int, found: list[Phrase], entities: dict[str, Entity]
) -> Phrase | None:
    """The task that ends the purpose phrase after word ``at`` (up to a word of
    ``purpose_stops.txt``), however many words qualify it first: "for Generalised Multi-Modal
    Scene Understanding" is for scene understanding (a phrase ends its noun phrase, so the
    task is the phrase's head)."""
    end = _phrase_end(lowered, at + 1)
    return next(
        (ph for ph in found if at < ph.start and ph.end == end
         and entities[ph.entity].label == Label.TASK),
        None,
    )  # fmt: skip


def _spelt_out(name: str, words: list[str]) -> bool:
    """Whether a named title's description opens with the name spelt out ("MINE: Mutual
    Information Neural Estimation"): it says what the name stands for, not what it does.

    >>> _spelt_out("MINE", ["Mutual", "Information", "Neural", "Estimation"])
    True
    >>> _spelt_out("WinT3R", ["Window-Based", "Streaming", "Reconstruction", "with", "Camera"])
    False
    """
    end = _phrase_end([w.lower() for w in words], 0)
    return find_long_form(name, " ".join(words[:end])) is not None


def _phrase_end(lowered: list[str], start: int) -> int:
    """Where the phrase from word ``start`` ends: at the next word of ``purpose_stops.txt``."""
    return next(
        (i for i in range(start, len(lowered)) if lowered[i] in PURPOSE_STOPS), len(lowered)
    )


def _either(first: dict[str, str], then: dict[str, str], key: str) -> str | None:
    return first.get(key) or then.get(key)


def _names_a_thing(entity: Entity, worth: dict[str, bool]) -> bool:
    """Whether a title phrase's entity is worth a node of its own ("low-cost", "unified
    framework" are not, whatever an abstract typed them); :func:`find_phrases` already keeps
    only phrases that end their noun phrase ("Memory-Efficient" of "Memory-Efficient LLM
    Fine-Tuning" rates what follows)."""
    if entity.id not in worth:
        worth[entity.id] = worth_a_node(entity.name, entity.id.partition(":")[2])
    return worth[entity.id]


def _proposed_name(title: str, mentions: list[Mention]) -> str | None:
    """The part of ``title`` before its colon when it is a name the paper proposes, though it
    does not read as coined ("Echo: Towards ...")."""
    head, colon, _ = title.partition(":")
    key = name_key(head.strip())
    if colon and any(m.role == Rel.PROPOSES and m.key == key for m in mentions):
        return head.strip()
    return None


def _named_kind(
    title: str, lookup: Callable[[str], str | None], entities: dict[str, Entity]
) -> Mention | None:
    """The kind of thing a named title says its contribution is, as a mention: the words after
    the description's article up to a stop word, when they end in a kind's head ("HippoTune:
    A Hippocampal ... Fine-Tuning Method for Continual Learning", "CogniLoad: A Synthetic
    Natural Language Reasoning Benchmark"). An entity of its key, else a new Concept added to
    ``entities``. The graph keeps the IS_A only to a kind several papers name, the phrase's or
    its last words' (:func:`kg.graph.relations.trailing_kinds`), as for an apposition's."""
    words = title_words(title.partition(":")[2])
    if len(words) < 2 or words[0].lower() not in ("a", "an"):
        return None
    lowered = [w.lower() for w in words]
    end = next((i for i in range(1, len(words)) if lowered[i] in PURPOSE_STOPS), len(words))
    text = " ".join(words[1:end])
    if not names_a_kind(text):
        return None
    key = normalize_key(text)
    eid = lookup(key) or entity_id(Label.CONCEPT, key)
    if eid not in entities:
        entities[eid] = Entity(eid, Label.CONCEPT, text)
    return _title_mention(title, text, entities[eid], key=key)


def _unwritten_name(title: str, named: str, entities: dict[str, Entity]) -> Mention:
    """The proposed entity of a title's name that no abstract of the corpus writes
    ("RayI2P: Learning Rays for Image-to-Point Cloud Registration", whose abstract says "our
    approach"), added to ``entities``, and its title mention: a dataset when the name or the
    first words of its description say so ("OSWorld-MCP: Benchmarking ..."), else a method."""
    opening = title.partition(":")[2].lower().split()[:_DESCRIPTION_WORDS]
    says_dataset = any(w.startswith(_DATASET_OPENERS) for w in opening)
    label = Label.DATASET if says_dataset or names_a_benchmark(named) else Label.METHOD
    key = name_key(named)
    eid = entity_id(label, key)
    if eid not in entities:
        entities[eid] = Entity(eid, label, named)
    return _title_mention(title, named, entities[eid], Rel.PROPOSES, key)


def _lowered(lookup: Callable[[str], str | None], key: str) -> str | None:
    """``lookup`` of a key with no capitals kept (:func:`~kg.resolve.names.capitals_key`)."""
    return lookup(key.lower())


def _allowed(head: Entity | None, tail: Entity) -> bool:
    """Whether the schema allows ``head`` USED_FOR ``tail`` (a method for a model class, a
    Concept, is not a relation kg keeps)."""
    return (
        head is not None
        and head.id != tail.id
        and (head.label, EntityRel.USED_FOR, tail.label) in ENTITY_REL_TRIPLES
    )


def _title_mention(
    title: str, text: str, entity: Entity, role: Rel | None = None, key: str | None = None
) -> Mention:
    """A mention of ``entity`` only ``title`` makes, written ``text``: the role its type has
    by default, and ``text``'s merge key, unless given."""
    return Mention(
        start=0,
        end=0,
        text=text,
        type=entity.label,
        role=DEFAULT_ROLE[entity.label] if role is None else role,
        sentence=title,
        entity=entity.id,
        source=TITLE,
        key=normalize_key(text) if key is None else key,
    )
