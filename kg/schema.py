"""The single source of truth for kg's graph model.

Every node label, relationship type and key property is named here. The NetworkX builder
(`kg.graph.assemble`), the Neo4j loader (`kg.store.neo4j`), the `kg/cypher/*.cypher` files and
the HTML styling (`kg.html`) all follow it, so a rename happens in one place.

>>> Label.METHOD.value
'Method'
>>> DEFAULT_ROLE[Label.DATASET].value
'EVALUATES_ON'
"""

from __future__ import annotations

from enum import Enum


class Label(str, Enum):
    """Node labels (one per node, stored in the node attribute ``label``)."""

    PAPER = "Paper"
    METHOD = "Method"
    TASK = "Task"
    DATASET = "Dataset"  # datasets, benchmarks and environments
    METRIC = "Metric"
    CONCEPT = "Concept"
    RESULT = "Result"  # a quantitative claim a paper reports (issue 20)
    TOPIC = "Topic"  # a group of papers that share entities and text (issue 24)

    def __str__(self) -> str:  # so f-strings print "Method", not "Label.METHOD"
        return self.value


class Rel(str, Enum):
    """Relationship types from a Paper to an entity (what the paper does with it). The links
    between two entities are :class:`EntityRel`'s."""

    PROPOSES = "PROPOSES"  # introduced by this paper (any entity type)
    USES = "USES"  # a method the paper uses
    EVALUATES_ON = "EVALUATES_ON"  # a dataset/benchmark/environment the paper evaluates on
    ADDRESSES = "ADDRESSES"  # a task the paper addresses
    MEASURES = "MEASURES"  # a metric the paper reports
    MENTIONS = "MENTIONS"  # a concept the paper talks about

    def __str__(self) -> str:
        return self.value


class EntityRel(str, Enum):
    """Relationship types from an entity to an entity: what the papers' sentences state of the
    two (``kg.extract.relations``; SciERC's USED-FOR, EVALUATE-FOR, COMPARE, PART-OF and
    HYPONYM-OF map onto them). One link per (source, type, target) carries the ids of the
    papers that state it (``papers``), ``count``, a few of their sentences (``evidence``, a
    list) and the highest ``confidence``: :data:`RELATION_EDGE_PROPERTIES`."""

    USED_FOR = "USED_FOR"  # "X for Y", "we apply X to Y"
    EVALUATED_ON = "EVALUATED_ON"  # a method evaluated or benchmarked on a dataset
    COMPARED_WITH = "COMPARED_WITH"  # "X outperforms Y", "compared to Y"
    PART_OF = "PART_OF"  # a component of a system: a named method, or a part described
    MEASURED_BY = "MEASURED_BY"  # a task or benchmark evaluated with a metric
    IS_A = "IS_A"  # "GRPO, a reinforcement learning algorithm"

    def __str__(self) -> str:
        return self.value


class ResultRel(str, Enum):
    """Relationship types of a :data:`Label.RESULT` node: the paper that reports it, and the
    entities its sentence says it is about (``kg.extract.results``)."""

    REPORTS = "REPORTS"  # (Paper)-[:REPORTS]->(Result)
    FOR_METHOD = "FOR_METHOD"  # (Result)-[:FOR_METHOD]->(Method): the method that reaches it
    ON_DATASET = "ON_DATASET"  # (Result)-[:ON_DATASET]->(Dataset)
    IN_METRIC = "IN_METRIC"  # (Result)-[:IN_METRIC]->(Metric)
    FOR_TASK = "FOR_TASK"  # (Result)-[:FOR_TASK]->(Task)

    def __str__(self) -> str:
        return self.value


class TopicRel(str, Enum):
    """Relationship types of a :data:`Label.TOPIC` node: each paper is in exactly one topic."""

    IN_TOPIC = "IN_TOPIC"  # (Paper)-[:IN_TOPIC]->(Topic)

    def __str__(self) -> str:
        return self.value


#: The labels of the things papers name (the nodes a paper links to with a :class:`Rel`).
ENTITY_LABELS: tuple[Label, ...] = (
    Label.METHOD,
    Label.TASK,
    Label.DATASET,
    Label.METRIC,
    Label.CONCEPT,
)

#: The (source label, type, target label) triples the graph allows for :class:`EntityRel`
#: (issue 20): what does not fit (a concept used for a concept) is left out of the graph.
#: ``IS_A`` runs to a broader entity of the source's own type, or to a Concept (a kind of thing).
#: A ``PART_OF``'s part may be a Concept: a component a paper describes rather than names ("a
#: local verifier architecture"), kept as a node though one paper names it
#: (:func:`kg.graph.relations.stated_parts`).
ENTITY_REL_TRIPLES: frozenset[tuple[Label, EntityRel, Label]] = frozenset(
    {
        (Label.METHOD, EntityRel.USED_FOR, Label.TASK),
        (Label.DATASET, EntityRel.USED_FOR, Label.TASK),
        (Label.METHOD, EntityRel.USED_FOR, Label.METHOD),
        (Label.METHOD, EntityRel.EVALUATED_ON, Label.DATASET),
        (Label.METHOD, EntityRel.COMPARED_WITH, Label.METHOD),
        (Label.METHOD, EntityRel.PART_OF, Label.METHOD),
        (Label.CONCEPT, EntityRel.PART_OF, Label.METHOD),
        (Label.TASK, EntityRel.MEASURED_BY, Label.METRIC),
        (Label.DATASET, EntityRel.MEASURED_BY, Label.METRIC),
        *((label, EntityRel.IS_A, label) for label in ENTITY_LABELS),
        *((label, EntityRel.IS_A, Label.CONCEPT) for label in ENTITY_LABELS),
    }
)

#: The entity label each of a result's links (but REPORTS) points to.
RESULT_TARGET: dict[ResultRel, Label] = {
    ResultRel.FOR_METHOD: Label.METHOD,
    ResultRel.ON_DATASET: Label.DATASET,
    ResultRel.IN_METRIC: Label.METRIC,
    ResultRel.FOR_TASK: Label.TASK,
}
#: The field of a result (``kg.models.ResultMention``, ``kg show``'s rows) each of its links
#: fills: FOR_METHOD → "method", ON_DATASET → "dataset", IN_METRIC → "metric", FOR_TASK → "task".
RESULT_ARGUMENT: dict[str, str] = {
    rel.value: label.value.lower() for rel, label in RESULT_TARGET.items()
}

#: Every relationship type by name (paper→entity, entity→entity, result and topic links).
REL_TYPES: dict[str, Rel | EntityRel | ResultRel | TopicRel] = {
    **{r.value: r for r in Rel},
    **{r.value: r for r in EntityRel},
    **{r.value: r for r in ResultRel},
    **{r.value: r for r in TopicRel},
}

#: The role a mention gets when the paper does not introduce the entity.
DEFAULT_ROLE: dict[Label, Rel] = {
    Label.METHOD: Rel.USES,
    Label.TASK: Rel.ADDRESSES,
    Label.DATASET: Rel.EVALUATES_ON,
    Label.METRIC: Rel.MEASURES,
    Label.CONCEPT: Rel.MENTIONS,
}

#: Every node has a unique, stable ``id`` property (also the NetworkX node key).
KEY = "id"
#: Every node has a human-readable ``name`` (a paper's display name, an entity's canonical name).
NAME = "name"
#: The node attribute that holds the label.
LABEL_ATTR = "label"
#: The edge attribute that holds the relationship type (also the MultiDiGraph edge key).
TYPE_ATTR = "type"
#: A link that no sentence states but the paper's author keywords do carries this property
#: ("author keyword"); a link from the text has none.
EVIDENCE_KIND_ATTR = "evidence_kind"

#: Node properties per label (besides ``id``, ``name`` and ``label``).
PAPER_PROPERTIES = (
    "title",
    "display_name",
    "abstract",
    "venue",
    "year",
    "keywords",
    "authors",
    "primary_area",
    "url",
    "source",
    # The paper's most similar papers by text (kg.graph.similarity), best first, as parallel lists
    # (Neo4j stores only flat lists): ids, cosine scores, and the words behind each score.
    "similar",
    "similar_scores",
    "similar_terms",
)
ENTITY_PROPERTIES = ("aliases", "paper_count")
#: A Result node's properties: the number as written ("85.3%"), its value, its unit ("%",
#: "points", "×", "BLEU" …, or ""), whether it is a change (an improvement, a reduction, a
#: speed-up) rather than a level reached, the sentence, and the reporting paper's id.
RESULT_PROPERTIES = ("value", "number", "unit", "relative", "evidence", "paper")
#: A Topic node's properties: its number of papers and its most linked entities of each kind
#: (names, most papers first).
TOPIC_PROPERTIES = ("size", "top_methods", "top_tasks", "top_datasets")
#: Paper properties only Neo4j holds (``kg load``): the paper's text vector
#: (:class:`kg.query.text_index.TextIndex`'s ``dense`` row) and, per facet of
#: :mod:`kg.query.facets`, the mean vector of its sentences of that facet. Each has a vector
#: index, ``kg_paper_<property>``, which the canned query ``similar_papers`` searches.
TEXT_VECTOR = "text_vector"
FACET_VECTORS = {f: f"{f}_vector" for f in ("background", "method", "result")}
VECTOR_PROPERTIES = (TEXT_VECTOR, *FACET_VECTORS.values())


def vector_index(prop: str) -> str:
    """The name of the Neo4j vector index over the Paper property ``prop``.

    >>> vector_index(TEXT_VECTOR)
    'kg_paper_text_vector'
    """
    return f"kg_paper_{prop}"
#: Relationship properties (every edge carries all of them; a link only author keywords make
#: also carries :data:`EVIDENCE_KIND_ATTR`).
EDGE_PROPERTIES = ("evidence", "start", "end", "confidence", "count")
#: The properties of an entity→entity link (:class:`EntityRel`): the papers that state it
#: (sorted ids), their statements' number, the first few sentences (a list) and the highest
#: confidence.
RELATION_EDGE_PROPERTIES = ("papers", "count", "evidence", "confidence")

#: Entity-id prefixes: an entity id is ``f"{ID_PREFIX[label]}:{normalised name}"``.
ID_PREFIX: dict[Label, str] = {
    Label.PAPER: "paper",
    Label.METHOD: "method",
    Label.TASK: "task",
    Label.DATASET: "dataset",
    Label.METRIC: "metric",
    Label.CONCEPT: "concept",
    Label.RESULT: "result",
    Label.TOPIC: "topic",
}

#: How much a shared entity of each type says about two papers being related: a shared named
#: dataset or method is stronger evidence than a shared broad concept.
TYPE_WEIGHT: dict[Label, float] = {
    Label.METHOD: 1.0,
    Label.DATASET: 1.0,
    Label.TASK: 0.9,
    Label.METRIC: 0.4,
    Label.CONCEPT: 0.5,
}

#: How much text similarity (cosine, 0..1) counts in kg related beside the shared entities.
TEXT_WEIGHT = 10.0
#: From this many papers a corpus is big: the text neighbours come from an inverted index
#: (kg.graph.similarity) and kg related compares a query's rarest character n-grams only
#: (kg.query.text_index), where all pairs and all n-grams would cost too much.
BIG_CORPUS_PAPERS = 20_000

#: Styling shared by the HTML export (and documented for the Neo4j Browser).
NODE_STYLE: dict[Label, dict[str, str]] = {
    Label.PAPER: {"color": "#4e79a7", "shape": "dot"},
    Label.METHOD: {"color": "#f28e2b", "shape": "diamond"},
    Label.TASK: {"color": "#59a14f", "shape": "triangle"},
    Label.DATASET: {"color": "#e15759", "shape": "square"},
    Label.METRIC: {"color": "#b07aa1", "shape": "star"},
    Label.CONCEPT: {"color": "#9c9c9c", "shape": "dot"},
    Label.RESULT: {"color": "#edc948", "shape": "box"},
    Label.TOPIC: {"color": "#76b7b2", "shape": "hexagon"},
}
EDGE_COLOR: dict[Rel | EntityRel | ResultRel | TopicRel, str] = {
    Rel.PROPOSES: "#d62728",
    Rel.USES: "#f28e2b",
    Rel.EVALUATES_ON: "#e15759",
    Rel.ADDRESSES: "#59a14f",
    Rel.MEASURES: "#b07aa1",
    Rel.MENTIONS: "#c7c7c7",
    EntityRel.USED_FOR: "#1f77b4",
    EntityRel.EVALUATED_ON: "#8c564b",
    EntityRel.COMPARED_WITH: "#17becf",
    EntityRel.PART_OF: "#bcbd22",
    EntityRel.MEASURED_BY: "#9467bd",
    EntityRel.IS_A: "#7f7f7f",
    ResultRel.REPORTS: "#edc948",
    ResultRel.FOR_METHOD: "#f28e2b",
    ResultRel.ON_DATASET: "#e15759",
    ResultRel.IN_METRIC: "#b07aa1",
    ResultRel.FOR_TASK: "#59a14f",
    TopicRel.IN_TOPIC: "#76b7b2",
}


def entity_id(label: Label, key: str) -> str:
    """The stable id of an entity from its label and normalised key.

    >>> entity_id(Label.DATASET, "mmeb")
    'dataset:mmeb'
    """
    return f"{ID_PREFIX[label]}:{key}"


def label_of_id(node_id: str) -> Label:
    """The label encoded in an entity or paper id.

    >>> label_of_id("method:metaembed")
    <Label.METHOD: 'Method'>
    """
    prefix = node_id.split(":", 1)[0]
    for label, p in ID_PREFIX.items():
        if p == prefix:
            return label
    raise ValueError(f"not a kg id: {node_id!r}")
