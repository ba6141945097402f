"""Plain data records passed between the pipeline stages (ingest → extract → resolve → graph)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kg.schema import Label, Rel

#: The ``rule`` of a relation the trained pair classifier found (:mod:`kg.extract.relation_model`),
#: alone or before what a later step did with it ("model+kind").
MODEL_RULE = "model"


@dataclass(slots=True)
class Paper:
    """One paper after ingest. ``abstract`` is already cleaned to plain text."""

    id: str
    abstract: str
    title: str = ""
    display_name: str = ""
    venue: str = ""
    year: int | None = None
    keywords: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    primary_area: str = ""
    url: str = ""
    source: str = ""  # "path:line" of the record, for error messages and provenance


@dataclass(slots=True)
class Mention:
    """An entity mention in a paper's cleaned abstract (character offsets into it)."""

    start: int
    end: int
    text: str
    type: Label
    role: Rel
    sentence: str  # the evidence sentence
    canonical: str = ""  # surface form of the entity named (an acronym's long form)
    entity: str = ""  # canonical entity id, filled in by the resolver
    confidence: float = 1.0
    source: str = ""  # which component produced it (model, gazetteer, acronym, ...)
    key: str = ""  # normalize_key(canonical or text), filled in at extraction
    compound: bool = False  # a task phrase written as a noun compound ("lesion recognition")


@dataclass(slots=True)
class RelationMention:
    """A relation one sentence of a paper states between two of its mentions (the head is the
    paper's proposed mention where the sentence says "we" or "our method")."""

    head: Mention
    type: str  # an EntityRel value
    tail: Mention
    evidence: str  # the sentence
    confidence: float = 1.0
    rule: str = ""  # the pattern that found it (kg/extract/data/patterns/relations.jsonl)


@dataclass(slots=True)
class ResultMention:
    """A quantitative claim one sentence of a paper makes (``kg.extract.results``): the number
    as written (``value``), its value and unit, whether it is a change rather than a level
    reached (``relative``), the sentence, where ``value`` is (characters), and the mentions of
    the sentence it is about (the method that reaches it, the dataset, metric and task)."""

    value: str
    number: float
    unit: str
    relative: bool
    evidence: str
    start: int
    end: int
    method: Mention | None = None
    dataset: Mention | None = None
    metric: Mention | None = None
    task: Mention | None = None


@dataclass
class Statements:
    """What the papers' sentences state beside their mentions, per paper id (only the papers
    that state something): entity relations and results."""

    relations: dict[str, list[RelationMention]] = field(default_factory=dict)
    results: dict[str, list[ResultMention]] = field(default_factory=dict)


@dataclass(slots=True)
class Entity:
    """A canonical entity after cross-paper resolution."""

    id: str
    label: Label
    name: str
    aliases: list[str] = field(default_factory=list)
    paper_count: int = 0


@dataclass
class Problem:
    """A record or file that was skipped, with where and why."""

    source: str  # "path:line" (or just "path")
    reason: str

    def __str__(self) -> str:
        return f"{self.source}: {self.reason}"
