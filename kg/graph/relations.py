"""The graph's entity→entity links (:class:`kg.schema.EntityRel`) from the relations the papers'
sentences state (:class:`kg.models.RelationMention`).

One link per (source entity, type, target entity), whichever papers and mentions state it: the
papers' ids (sorted), the number of statements, the first few sentences and the highest
confidence. A relation's arguments are mentions, which entity resolution has given their
entities by now (``mention.entity``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from kg.extract.normalize import normalize_key
from kg.models import MODEL_RULE, Entity, Mention, Paper, RelationMention
from kg.resolve.kinds import names_a_kind, worth_a_node
from kg.resolve.purposes import STOPS as PURPOSE_STOPS
from kg.resolve.words import word_list
from kg.schema import ENTITY_REL_TRIPLES, REL_TYPES, TYPE_ATTR, EntityRel, Label, Rel

#: Sentences a link keeps: enough to judge it, few enough that a link many papers state does
#: not carry them all into the graph file and Neo4j.
MAX_EVIDENCE = 3


#: Words that make a metric a cost of running a method: ``cost_words.txt``.
COST_WORDS = frozenset(word_list("cost_words.txt"))


def is_a_cost(metric: str) -> bool:
    """Whether a metric's name says it is a cost of running a method (:data:`COST_WORDS`).

    >>> is_a_cost("average 2.33× speedup"), is_a_cost("GPU memory footprint")
    (True, True)
    >>> is_a_cost("inference-time"), is_a_cost("convergence speed")
    (True, True)
    >>> is_a_cost("top-1 accuracy"), is_a_cost("FID")
    (False, False)
    """
    # A word joined by hyphens counts as itself ("speed-up") and as each of its parts
    # ("inference-time").
    words = re.findall(r"[\w-]+", metric.lower())
    return any(w in COST_WORDS or not COST_WORDS.isdisjoint(w.split("-")) for w in words)


#: The (type, head label, tail label) of relations the pair classifier
#: (:data:`~kg.models.MODEL_RULE`) states that make no link: a blind judge found about half of
#: its ICLR 2026 statements of each wrong (method USED_FOR method 70 of 128 right: the two are
#: compared or alternatives, one is data or a property, or the direction is reversed; IS_A
#: between methods 14 of 26, between concepts 7 of 19: two things listed side by side, or a
#: part as a kind). Its uses of methods for tasks (46 of 60), its comparisons (51 of 76) and a
#: method's kind (33 of 47) stay.
CLASSIFIER_LEFT_OUT = frozenset({
    (EntityRel.USED_FOR, Label.METHOD, Label.METHOD),
    (EntityRel.IS_A, Label.METHOD, Label.METHOD),
    (EntityRel.IS_A, Label.CONCEPT, Label.CONCEPT),
})  # fmt: skip


def own_parts(
    relations: Mapping[str, list[RelationMention]],
    entities: Mapping[str, Entity],
    proposed_by: Callable[[str], Container[str]],
) -> dict[str, list[RelationMention]]:
    """``relations`` without each PART_OF whose part is a Concept and whose whole is not its
    paper's own method: one it proposes (``proposed_by(paper id)``: the entities it proposes),
    or one no other paper names. A part a paper describes is of its own method: "CoAct-1, a
    novel multi-agent system that combines GUI-based control with ..." says nothing of every
    multi-agent system, and "we introduce a dynamic scheduling mechanism" in a paper that
    builds on DPO says nothing of DPO. (A new dict; the caller's lists are left as they are.)"""
    out = dict(relations)
    for pid, rows in relations.items():
        if any(_described_part(r, entities) for r in rows):
            own = proposed_by(pid)
            out[pid] = [
                r for r in rows if not _described_part(r, entities) or _owns(r, own, entities)
            ]
    return out


def _owns(r: RelationMention, proposed: Container[str], entities: Mapping[str, Entity]) -> bool:
    """Whether ``r``'s whole is its paper's own method: proposed by it, or named by it alone."""
    whole = entities.get(r.tail.entity or "")
    return whole is not None and (whole.id in proposed or whole.paper_count <= 1)


def _described_part(r: RelationMention, entities: Mapping[str, Entity]) -> bool:
    """Whether ``r`` is a PART_OF whose part is a Concept."""
    part = entities.get(r.head.entity or "")
    return r.type == EntityRel.PART_OF.value and part is not None and part.label == Label.CONCEPT


def stated_parts(
    relations: Mapping[str, list[RelationMention]], entities: Mapping[str, Entity], keep: set[str]
) -> set[str]:
    """The Concepts a rule states are parts of a kept method, worth a node though one paper
    names them: what the method is made of ("LiteGuard introduces a checkpoint-based model set
    augmentation strategy and a local verifier architecture"), for ``kg show`` and
    ``method_components``. Not what the pair classifier says, nor a generic phrase
    (:func:`~kg.resolve.kinds.worth_a_node`: "classifier", "two stages")."""
    parts = set()
    for rows in relations.values():
        for r in rows:
            if not _described_part(r, entities):
                continue
            part, whole = entities[r.head.entity or ""], entities.get(r.tail.entity or "")
            if (
                whole is not None
                and whole.label == Label.METHOD
                and whole.id in keep
                and not _by_classifier(r)
                and worth_a_node(part.name, part.id.partition(":")[2])
            ):
                parts.add(part.id)
    return parts


def _by_classifier(r: RelationMention) -> bool:
    """Whether the pair classifier found ``r`` (its rule alone, or before what a later step did
    with it: "model+kind")."""
    return r.rule.partition("+")[0] == MODEL_RULE


def relation_links(
    papers: Iterable[Paper],
    relations_by_paper: Mapping[str, list[RelationMention]],
    label_of: Mapping[str, Label],
    kinds: Container[str] | None = None,
) -> list[dict[str, Any]]:
    """The entity→entity links of ``papers`` (in id order) between nodes of the graph
    (``label_of``: the kept entities' labels), sorted by (source, target, type) like the
    graph file's links. A relation whose ends resolve to one entity, or whose entities' types
    the schema does not allow for its type (:data:`~kg.schema.ENTITY_REL_TRIPLES`: resolution
    may type an entity otherwise than one mention), makes no link; nor does an IS_A whose
    broader entity is not one of ``kinds`` (when given: see :func:`shared_kinds`), nor a
    MEASURED_BY whose metric is a cost (:func:`is_a_cost`: "2.2× speedup on ImageNet" is how
    fast a method runs, not how ImageNet is scored), nor what the pair classifier says of the
    pairs of types it is most often wrong about (:data:`CLASSIFIER_LEFT_OUT`).

    >>> from kg.models import Mention
    >>> from kg.schema import Rel
    >>> def m(entity, label):
    ...     return Mention(0, 1, "x", label, Rel.USES, "s", entity=entity)
    >>> grpo, rl = m("method:grpo", Label.METHOD), m("method:rl", Label.METHOD)
    >>> r = RelationMention(grpo, "IS_A", rl, "GRPO, an RL algorithm.", 0.8)
    >>> [link] = relation_links([Paper("p1", "")], {"p1": [r]},
    ...                         {"method:grpo": Label.METHOD, "method:rl": Label.METHOD})
    >>> link["source"], link["type"], link["target"], link["papers"], link["evidence"]
    ('method:grpo', 'IS_A', 'method:rl', ['p1'], ['GRPO, an RL algorithm.'])
    """
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    for p in sorted(papers, key=lambda p: p.id):
        for r in relations_by_paper.get(p.id, ()):
            src, dst = r.head.entity, r.tail.entity
            if src == dst or src not in label_of or dst not in label_of:
                continue
            rel = REL_TYPES.get(r.type)
            if not isinstance(rel, EntityRel) or (
                (label_of[src], rel, label_of[dst]) not in ENTITY_REL_TRIPLES
            ):
                continue
            if rel is EntityRel.IS_A and kinds is not None and dst not in kinds:
                continue
            if rel is EntityRel.MEASURED_BY and is_a_cost(r.tail.text):
                continue
            if (rel, label_of[src], label_of[dst]) in CLASSIFIER_LEFT_OUT and _by_classifier(r):
                continue
            link = found.get((src, dst, rel.value))
            if link is None:
                link = found[src, dst, rel.value] = {
                    TYPE_ATTR: rel.value,
                    "source": src,
                    "target": dst,
                    "key": rel.value,
                    "papers": [],
                    "count": 0,
                    "evidence": [],
                    "confidence": 0.0,
                }
            if not link["papers"] or link["papers"][-1] != p.id:
                link["papers"].append(p.id)  # (papers come in id order: sorted, no repeats)
                # One sentence per paper: the same one again says nothing new.
                if len(link["evidence"]) < MAX_EVIDENCE and r.evidence not in link["evidence"]:
                    link["evidence"].append(r.evidence)
            link["count"] += 1
            link["confidence"] = max(link["confidence"], round(r.confidence, 3))
    return [found[k] for k in sorted(found)]


#: An IS_A's broader entity must be named by this many papers: a class is what several papers
#: call things. The kind a paper gives its own contribution in words no other paper uses
#: ("ProSafePrune, a subspace-projected low-rank parameter pruning framework"; "FARTrack, a
#: Fast Auto-Regressive Tracking framework", its own long form) describes it: 862 of ICLR
#: 2026's 1,631 IS_A links, 14 of the 18 a relation sample's 30 papers had, 0 of them right.
MIN_KIND_PAPERS = 2


def shared_kinds(linked: Mapping[str, int]) -> set[str]:
    """The entities an IS_A may name as the broader one: those ``linked`` (entity → number of
    papers linking it) counts in at least :data:`MIN_KIND_PAPERS` papers.

    >>> sorted(shared_kinds({"method:rl-algorithm": 12, "concept:prosafeprune-framework": 1}))
    ['method:rl-algorithm']
    """
    return {eid for eid, n in linked.items() if n >= MIN_KIND_PAPERS}


def known_runs(
    text: str, keys: Mapping[str, str], whole: bool = False, stops: Container[str] = ()
) -> Iterator[tuple[int, str, str]]:
    """The runs of ``text``'s last words that ``keys`` (merge key → id) knows, longest first,
    as (offset in ``text``, run, id): the whole of ``text`` only with ``whole``, and none
    after a word of ``stops``. What a phrase no node names ends in: "multi-agent reinforcement
    learning framework" in a reinforcement learning framework.

    >>> list(known_runs("a new RL framework", {"rl-framework": "k:1", "framework": "k:2"}))
    [(6, 'RL framework', 'k:1'), (9, 'framework', 'k:2')]
    >>> list(known_runs("inference in RL", {"rl": "t:rl"}, stops={"in"}))
    []
    """
    words = list(re.finditer(r"\S+", text))
    for i, word in enumerate(words):
        if i and words[i - 1].group().lower() in stops:
            return
        if i or whole:
            found = keys.get(normalize_key(text[word.start() :]))
            if found is not None:
                yield word.start(), text[word.start() :], found


def kind_keys(entities: Mapping[str, Entity], kinds: Container[str]) -> dict[str, str]:
    """The merge key of the name of each of ``kinds`` (:func:`shared_kinds`) that names a kind
    of thing (:func:`~kg.resolve.kinds.names_a_kind`) → its id.

    >>> rl = Entity("concept:rlf", Label.CONCEPT, "reinforcement learning framework")
    >>> kind_keys({rl.id: rl}, {rl.id})
    {'reinforcement-learning-framework': 'concept:rlf'}
    """
    return {
        normalize_key(e.name): eid
        for eid, e in entities.items()
        if eid in kinds and names_a_kind(e.name)
    }


def trailing_kinds(
    relations: Mapping[str, list[RelationMention]],
    kinds: Container[str],
    keys: Mapping[str, str],
) -> dict[str, list[RelationMention]]:
    """``relations``, an IS_A whose kind no other paper names said of the shared kind its last
    words name (``keys``: :func:`kind_keys`): "WaltzRL, a novel multi-agent reinforcement
    learning framework" IS_A reinforcement learning framework. Dropping modifiers from the
    front of an English noun compound leaves a broader class of the same thing, and one that
    several papers name is a class the graph keeps (:data:`MIN_KIND_PAPERS`), where the
    paper's own words would describe only its contribution.

    >>> from kg.schema import Rel
    >>> def m(text, entity, start=0):
    ...     return Mention(start, start + len(text), text, Label.CONCEPT, Rel.USES, "s",
    ...                    entity=entity)
    >>> kind = m("multi-agent reinforcement learning framework", "concept:marlf", 12)
    >>> r = RelationMention(m("WaltzRL", "method:waltzrl"), "IS_A", kind, "s")
    >>> [x] = trailing_kinds({"p": [r]}, {"concept:rlf"},
    ...                      {"reinforcement-learning-framework": "concept:rlf"})["p"]
    >>> x.tail.text, x.tail.start, x.tail.entity, x.rule
    ('reinforcement learning framework', 24, 'concept:rlf', '+trailing_kind')
    """
    out = dict(relations)
    for pid, rows in relations.items():
        changed = [_trailing_kind(r, kinds, keys) for r in rows]
        if any(new is not old for new, old in zip(changed, rows, strict=True)):
            out[pid] = changed
    return out


def _trailing_kind(
    r: RelationMention, kinds: Container[str], keys: Mapping[str, str]
) -> RelationMention:
    if r.type != EntityRel.IS_A.value or r.tail.entity in kinds:
        return r
    # (a kind's name has two words or more: kind_keys)
    for at, text, kind in known_runs(r.tail.text, keys):
        if kind != r.head.entity:
            tail = replace(r.tail, start=r.tail.start + at, text=text, entity=kind)
            return replace(r, tail=tail, rule=r.rule + "+trailing_kind")
    return r


#: The source of a mention of a name or known phrase inside a longer one (kg_mentions).
NESTED = "nested"


def nested_tails(
    rows: Sequence[RelationMention],
    mentions: Sequence[Mention],
    label_of: Mapping[str, Label],
    tasks: Mapping[str, str] | None = None,
) -> list[RelationMention]:
    """A paper's relations (``rows``), a USED_FOR whose task makes no node (``label_of``: the
    kept entities' labels) said of the known task its phrase ends in: "DualFlow, the first
    unified and efficient framework for multi-modal two-person motion generation" uses
    DualFlow for motion generation, "a framework for category-agnostic instance segmentation"
    is one for instance segmentation. Only words that modify it may come before the task
    (none of ``purpose_stops.txt``: not "uncertainty quantification in reinforcement
    learning"); ``mentions``: the paper's.

    The known task is a name inside the phrase the extraction found, else, with ``tasks``
    (:func:`task_keys`), the longest run of the phrase's last words that a task of the corpus
    is called: "ODI-Bench, a benchmark designed for omnidirectional image understanding" is
    one for image understanding, though no mention of this paper says so. Not for what the
    pair classifier found (:data:`~kg.models.MODEL_RULE`): its tails are as often no task of
    the head ("avoidance of explicit reward modeling").

    >>> from kg.schema import Rel
    >>> def m(text, start, label, entity, source="model"):
    ...     return Mention(start, start + len(text), text, label, Rel.USES, "s", entity=entity,
    ...                    source=source)
    >>> flow = m("DualFlow", 0, Label.METHOD, "method:dualflow")
    >>> phrase = m("two-person motion generation", 20, Label.TASK, "task:two-person-mg")
    >>> inner = m("motion generation", 31, Label.TASK, "task:mg", NESTED)
    >>> r = RelationMention(flow, "USED_FOR", phrase, "s")
    >>> [x.tail.entity for x in nested_tails([r], [flow, phrase, inner],
    ...     {"method:dualflow": Label.METHOD, "task:mg": Label.TASK})]
    ['task:mg']
    """
    out = []
    for r in rows:
        head, tail = r.head.entity, r.tail.entity
        if (
            r.type == EntityRel.USED_FOR.value
            and head in label_of
            and not _allowed(label_of[head], EntityRel.USED_FOR, label_of.get(tail))
        ):
            inner = [
                m
                for m in mentions
                if m.source == NESTED
                and m.end == r.tail.end
                and m.start > r.tail.start
                and m.entity != head
                and _allowed(label_of[head], EntityRel.USED_FOR, label_of.get(m.entity))
                and not set(r.tail.text[: m.start - r.tail.start].lower().split()) & PURPOSE_STOPS
            ]  # fmt: skip
            if inner:
                r = replace(r, tail=min(inner, key=lambda m: m.start))
            elif tasks is not None and not _by_classifier(r):
                known = task_in(r.tail, tasks, stops=PURPOSE_STOPS)
                if (
                    known is not None
                    and known.entity != head
                    and _allowed(
                        label_of[head], EntityRel.USED_FOR, label_of.get(known.entity or "")
                    )
                ):
                    r = replace(r, tail=known)
        out.append(r)
    return out


def task_in(
    phrase: Mention,
    tasks: Mapping[str, str],
    written: str | None = None,
    whole: bool = False,
    stops: Container[str] = (),
) -> Mention | None:
    """A mention, inside ``phrase``, of the task (``tasks``: merge key → id) that the longest
    run of the last words of ``written`` is called (:func:`known_runs`; ``written``: the start
    of ``phrase``'s text, all of it by default; ``whole`` and ``stops`` as there), or None.

    >>> from kg.schema import Rel
    >>> p = Mention(10, 46, "omnidirectional image understanding", Label.CONCEPT, Rel.MENTIONS,
    ...             "s")
    >>> t = task_in(p, {"image-understanding": "task:iu"})
    >>> t.text, t.start, t.end, t.entity, t.type
    ('image understanding', 26, 46, 'task:iu', <Label.TASK: 'Task'>)
    >>> p = Mention(0, 34, "inference in reinforcement learning", Label.CONCEPT, Rel.MENTIONS, "s")
    >>> task_in(p, {"reinforcement-learning": "task:rl"}, stops={"in"}) is None
    True
    """
    text = phrase.text if written is None else written
    run = next(known_runs(text, tasks, whole=whole, stops=stops), None)
    if run is None:
        return None
    at, name, task = run
    return Mention(phrase.start + at, phrase.end - (len(phrase.text) - len(text)), name,
                   Label.TASK, Rel.ADDRESSES, phrase.sentence, entity=task)  # fmt: skip


def _allowed(head: Label, rel: EntityRel, tail: Label | None) -> bool:
    return tail is not None and (head, rel, tail) in ENTITY_REL_TRIPLES


#: How much less sure a method's use for the task its kind names is than the kind itself.
KIND_TASK_FACTOR = 0.9


def task_keys(entities: Mapping[str, Entity]) -> dict[str, str]:
    """The merge key of each task entity's name and aliases → its id. A task's own name comes
    before another's alias, and an alias of the task most papers name before the same alias of
    a rarer one: "RL" is reinforcement learning's, not that of the "reasoning—reinforcement
    learning (RL)" one paper wrote.

    >>> rl = Entity("task:rl", Label.TASK, "reinforcement learning", aliases=["RL"])
    >>> task_keys({rl.id: rl})
    {'reinforcement-learning': 'task:rl', 'rl': 'task:rl'}
    """
    named = sorted(
        (e for e in entities.values() if e.label == Label.TASK), key=lambda e: -e.paper_count
    )
    tasks = {normalize_key(e.name): e.id for e in named}
    for e in named:
        for alias in e.aliases:
            tasks.setdefault(normalize_key(alias), e.id)
    return tasks


def kind_tasks(
    relations: Mapping[str, list[RelationMention]],
    entities: Mapping[str, Entity],
    tasks: Mapping[str, str] | None = None,
) -> dict[str, list[RelationMention]]:
    """``relations`` and, per paper, the task a method's kind names, as the method's use:
    "CoFact, a conformal prediction framework" says CoFact IS_A such a framework, so CoFact is
    USED_FOR conformal prediction; "TraceRL, a trajectory-aware reinforcement learning
    framework", "Light-X, a video generation framework" likewise. The task is the longest run
    of the kind's words before its last one that is the name or an alias of a task entity,
    unless that task is a way of learning (:func:`_a_way_of_learning`): "MetaSpatial, an RL
    framework" says what MetaSpatial is, not what it is for (3D spatial reasoning).
    ``tasks``: :func:`task_keys` of ``entities``, when the caller has made it.

    >>> from kg.schema import Rel
    >>> def m(text, label, entity):
    ...     return Mention(0, 1, text, label, Rel.USES, "s", entity=entity)
    >>> cofact = m("CoFact", Label.METHOD, "method:cofact")
    >>> kind = m("conformal prediction framework", Label.CONCEPT, "concept:cpf")
    >>> r = RelationMention(cofact, "IS_A", kind, "CoFact, a conformal prediction framework.")
    >>> entities = {"concept:cpf": Entity("concept:cpf", Label.CONCEPT, kind.text),
    ...     "task:conformal-prediction": Entity("task:conformal-prediction", Label.TASK,
    ...                                         "conformal prediction")}
    >>> [(x.head.text, x.type, x.tail.entity) for x in kind_tasks({"p": [r]}, entities)["p"]]
    [('CoFact', 'IS_A', 'concept:cpf'), ('CoFact', 'USED_FOR', 'task:conformal-prediction')]
    """
    if tasks is None:
        tasks = task_keys(entities)
    out = dict(relations)
    for pid, rows in relations.items():
        added = []
        for r in rows:
            kind = entities.get(r.tail.entity or "")
            if (
                r.type != EntityRel.IS_A.value
                or r.head.type != Label.METHOD
                or kind is None
                or kind.label not in (Label.CONCEPT, Label.METHOD)
                or not names_a_kind(kind.name)
            ):
                continue
            task = _named_task(kind.name, tasks)
            if (
                task is not None
                and task != r.head.entity
                and not _a_way_of_learning(entities[task].name)
            ):
                used_for = Mention(r.tail.start, r.tail.end, entities[task].name, Label.TASK,
                                   Rel.ADDRESSES, r.tail.sentence, entity=task)  # fmt: skip
                added.append(RelationMention(
                    r.head, EntityRel.USED_FOR.value, used_for, r.evidence,
                    round(r.confidence * KIND_TASK_FACTOR, 3), r.rule + "+kind_task",
                ))  # fmt: skip
        if added:
            out[pid] = [*rows, *added]
    return out


def _a_way_of_learning(task: str) -> bool:
    """Whether a task's name is a way of learning ("reinforcement learning", "representation
    learning"): a method of that kind is one, rather than used for one (ICLR 2026: 63 of 155
    kinds' tasks, the 53 of "reinforcement learning" among them; a blind judge found 8 of the
    90 relations of its 40 most linked entities wrong so).

    >>> _a_way_of_learning("reinforcement learning"), _a_way_of_learning("video generation")
    (True, False)
    """
    return task.lower().endswith("learning")


def _named_task(kind: str, tasks: Mapping[str, str]) -> str | None:
    """The task entity the longest run of ``kind``'s words before its last names, or None."""
    words = kind.split()[:-1]
    for size in range(len(words), 0, -1):
        for start in range(len(words) - size + 1):
            task = tasks.get(normalize_key(" ".join(words[start : start + size])))
            if task is not None:
                return task
    return None
