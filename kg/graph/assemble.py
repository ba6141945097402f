"""Papers, mentions and entities → a ``networkx.MultiDiGraph`` following :mod:`kg.schema`.

One edge per (paper, entity): its type is ``PROPOSES`` when the paper introduces the entity and
otherwise the default role of the entity's type; it carries the evidence sentence and offsets of
the first mention in that role, the highest confidence and the number of mentions. Then one edge
per (entity, type, entity) the papers' sentences state (:mod:`kg.graph.relations`), and a node
per result a paper reports, with its links (:mod:`kg.graph.results`). Last, every paper goes
into one topic (:mod:`kg.graph.topics`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kg.graph.paper_link import PaperLink
from kg.graph.relations import (
    kind_keys,
    kind_tasks,
    nested_tails,
    own_parts,
    relation_links,
    shared_kinds,
    stated_parts,
    task_keys,
    trailing_kinds,
)
from kg.graph.results import introduces_a_benchmark, result_graph, result_relations
from kg.models import Entity, Mention, Paper, RelationMention, ResultMention
from kg.resolve.keywords import EVIDENCE_KIND, KEYWORD
from kg.resolve.kinds import names_a_kind, worth_a_node
from kg.schema import (
    DEFAULT_ROLE,
    KEY,
    LABEL_ATTR,
    NAME,
    EntityRel,
    Label,
    Rel,
)
from kg.store.file import FORMAT_VERSION, graph_from_data

if TYPE_CHECKING:  # networkx is imported where a graph is made (a slow import)
    import networkx as nx

    from kg.graph.similarity import NeighbourLists  # numpy and scipy: slower still

#: Concepts named by a single paper say nothing about relatedness and swamp the picture: the
#: graph keeps the *shared* ones that are worth a node (:func:`kg.resolve.kinds.worth_a_node`;
#: named methods, datasets, tasks and metrics are always kept), and the parts a paper says a
#: method has (:func:`kg.graph.relations.stated_parts`).
MIN_CONCEPT_PAPERS = 2


#: The source of a mention that is the head word of a longer phrase ("estimation" of "depth
#: estimation"): :mod:`kg.extract.mentions` adds it so the phrase's paper also talks about the
#: broader thing. Alone it links no paper: a paper that only writes "value estimation" or "question
#: answering" is not about "estimation" or "answering", and such heads, shared by every paper on
#: any kind of estimation, were the most linked concepts of a conference (ICLR 2026: 19,749 of
#: 117,783 links, among them "estimation" 176 of 184, "synthesis" 147 of 150).
HEAD = "head"


def linking_papers(mentions_by_paper: dict[str, list[Mention]]) -> dict[str, int]:
    """The number of papers each entity has a link from: a mention other than a head's."""
    found: dict[str, set[str]] = {}
    for pid, ms in mentions_by_paper.items():
        for m in ms:
            if m.entity and m.source != HEAD:
                found.setdefault(m.entity, set()).add(pid)
    return {eid: len(pids) for eid, pids in found.items()}


def paper_attrs(p: Paper, similar: NeighbourLists | None = None) -> dict[str, object]:
    """A paper's node; ``similar``'s lists become the node's own (a big corpus's text
    neighbours are many lists: they are not copied)."""
    ids, scores, terms = similar or ([], [], [])
    return {
        KEY: p.id,
        LABEL_ATTR: str(Label.PAPER),
        NAME: p.display_name,
        "title": p.title,
        "display_name": p.display_name,
        "abstract": p.abstract,
        "venue": p.venue,
        "year": p.year,
        "keywords": list(p.keywords),
        "authors": list(p.authors),
        "primary_area": p.primary_area,
        "url": p.url,
        "source": p.source,
        "similar": ids,
        "similar_scores": scores,
        "similar_terms": terms,
    }


def graph_data(
    papers: list[Paper],
    mentions_by_paper: dict[str, list[Mention]],
    entities: dict[str, Entity],
    min_concept_papers: int = MIN_CONCEPT_PAPERS,
    similar: dict[str, NeighbourLists] | Callable[[], dict[str, NeighbourLists]] | None = None,
    relations: dict[str, list[RelationMention]] | None = None,
    results: dict[str, list[ResultMention]] | None = None,
    topics: bool = True,
    release: bool = False,
) -> dict[str, Any]:
    """The knowledge graph of ``papers`` as node-link data (``networkx.node_link_data`` with
    ``edges="links"``), nodes sorted by id and links by (source, target, key): exactly what
    :func:`kg.store.file.save_graph` writes. Deterministic: the same input gives the same data.

    A build writes this straight to the graph file: making a networkx graph first and
    converting it back was a large part of an incremental build (measured: docs/benchmarks.md).

    ``similar`` may be a function that returns the text neighbours: a build's are computed in
    another process, and the links are assembled here before they are needed. ``relations``:
    the relations each paper states, which become entity→entity links between kept nodes;
    ``results``: the results each paper reports, which become Result nodes; ``topics``: group
    the papers into Topic nodes (:func:`kg.graph.topics.add_topics`). ``release``: empty
    ``mentions_by_paper`` as each paper's links are made, so that a build never holds a
    corpus's mentions and its links at once (the links then reuse the mentions' memory), and
    ``relations`` and ``results`` once theirs are.
    """
    linked = linking_papers(mentions_by_paper)
    keep = {
        eid
        for eid, e in entities.items()
        if linked.get(eid, 0)
        and (
            e.label != Label.CONCEPT
            or (linked[eid] >= min_concept_papers and worth_a_node(e.name, e.id.partition(":")[2]))
        )
    }
    kinds = shared_kinds(linked)
    tasks = task_keys(entities) if relations or results else None
    # The kind's own words name its task, before its shared kind stands for it: "CoT-Evo, an
    # evolutionary CoT distillation framework" is one for CoT distillation. (Each step makes
    # a new dict: the caller's is left as it is.)
    stating = trailing_kinds(
        kind_tasks(relations or {}, entities, tasks), kinds, kind_keys(entities, kinds)
    )
    # (the kinds the IS_A links name, some of them the shared kind a paper's own ends in)
    keep |= kinds_of_kept(stating, entities, keep) & kinds
    stating = own_parts(stating, entities, functools.partial(_proposed_by, mentions_by_paper))
    keep |= stated_parts(stating, entities, keep)
    # A hot loop over every mention and link: enum members and schema lookups are hoisted.
    proposes = Rel.PROPOSES
    proposes_str = str(proposes)
    rel_of_label = {label: str(DEFAULT_ROLE[label]) for label in Label if label in DEFAULT_ROLE}
    label_of = {eid: entities[eid].label for eid in keep}
    papers_of: dict[str, int] = dict.fromkeys(keep, 0)
    links: list[Mapping[str, Any]] = []
    ordered = sorted(papers, key=lambda p: p.id)
    benchmarks: dict[str, Mention] = {}  # paper id -> the one dataset it introduces
    for p in ordered:
        by_entity: dict[str, list[Mention]] = {}
        found = mentions_by_paper.pop(p.id, []) if release else mentions_by_paper.get(p.id, [])
        if p.id in stating:
            stating[p.id] = nested_tails(stating[p.id], found, label_of, tasks)
        for m in found:
            if m.entity in keep:
                by_entity.setdefault(m.entity, []).append(m)
        for eid in [eid for eid, ms in by_entity.items() if all(m.source == HEAD for m in ms)]:
            del by_entity[eid]
        datasets = [eid for eid in by_entity if label_of[eid] is Label.DATASET]
        if len(datasets) == 1:  # the one dataset the paper links: its own benchmark?
            own = [m for m in by_entity[datasets[0]] if m.role is proposes]
            if own and introduces_a_benchmark(p.title, entities[datasets[0]].name):
                benchmarks[p.id] = min(own, key=lambda m: (m.start, m.end))
        for eid in sorted(by_entity):
            ms = by_entity[eid]
            if len(ms) > 1:
                ms.sort(key=lambda m: (m.start, m.end))
            proposed = [m for m in ms if m.role is proposes]
            rel = proposes_str if proposed else rel_of_label[label_of[eid]]
            first = (proposed or ms)[0]
            papers_of[eid] += 1
            keyword = first.source == KEYWORD  # only the authors' keywords make this link
            links.append(
                PaperLink(
                    rel,
                    f"{EVIDENCE_KIND}: {first.text}" if keyword else first.sentence,
                    first.start,
                    first.end,
                    round(ms[0].confidence if len(ms) == 1 else max(m.confidence for m in ms), 3),
                    len(ms),
                    p.id,
                    eid,
                    EVIDENCE_KIND if keyword else None,
                )
            )
    stated = result_relations(stating, results or {}, label_of)
    more = relation_links(ordered, stated, label_of, kinds) if stated else []
    result_nodes, result_links = (
        result_graph(ordered, results, label_of, benchmarks, tasks) if results else ([], [])
    )
    del stated, stating
    if release:  # their mentions, the last the links do not hold, go with them
        for made in (relations, results):
            if made is not None:
                made.clear()
    if more or result_links:
        # Entity, paper and result ids interleave in (source, target, key) order: the lists
        # are each nearly sorted, so this sort merges a few runs.
        links = sorted([*links, *more, *result_links], key=_link_order)
    neighbours = (similar() if callable(similar) else similar) or {}
    nodes: list[dict[str, Any]] = [paper_attrs(p, neighbours.get(p.id)) for p in ordered]
    nodes += result_nodes
    for eid in keep:
        e = entities[eid]
        nodes.append(
            {
                KEY: eid,
                LABEL_ATTR: str(e.label),
                NAME: e.name,
                "aliases": list(e.aliases),
                # as stored, it must match the links actually in the graph
                "paper_count": papers_of[eid],
            }
        )
    nodes.sort(key=lambda n: str(n[KEY]))
    # The links are in (source, target, key) order: papers by id, each paper's entities by id,
    # one link per pair, and the entity→entity and result links merged in.
    data = {
        "directed": True,
        "multigraph": True,
        "graph": {"kg_format": FORMAT_VERSION},
        "nodes": nodes,
        "links": links,
    }
    if topics:
        from kg.graph.topics import add_topics  # (numpy and scipy: imported where needed)

        add_topics(data)
    return data


def _proposed_by(mentions_by_paper: dict[str, list[Mention]], paper_id: str) -> set[str]:
    """The entities a paper proposes."""
    return {m.entity for m in mentions_by_paper.get(paper_id, ()) if m.role is Rel.PROPOSES}


def kinds_of_kept(
    relations: dict[str, list[RelationMention]], entities: dict[str, Entity], keep: set[str]
) -> set[str]:
    """The Concepts a kept entity IS_A that name a kind of thing
    (:func:`kg.resolve.kinds.names_a_kind`): "Mamba2, a recent SSM-based language model".
    Those several papers name (:func:`~kg.graph.relations.shared_kinds`) are nodes even when
    they are no concept worth a node otherwise, so that ``kg show`` and the IS_A hierarchy
    can say what the entity is."""
    kinds = set()
    for rows in relations.values():
        for r in rows:
            tail = entities.get(r.tail.entity or "")
            if (
                r.type == EntityRel.IS_A.value
                and r.head.entity in keep
                and tail is not None
                and tail.id not in keep
                and tail.label == Label.CONCEPT
                and names_a_kind(tail.name)
            ):
                kinds.add(tail.id)
    return kinds


def _link_order(link: Mapping[str, Any]) -> tuple[str, str, str]:
    return link["source"], link["target"], link["key"]


def build_graph(
    papers: list[Paper],
    mentions_by_paper: dict[str, list[Mention]],
    entities: dict[str, Entity],
    min_concept_papers: int = MIN_CONCEPT_PAPERS,
    similar: dict[str, NeighbourLists] | None = None,
    relations: dict[str, list[RelationMention]] | None = None,
    results: dict[str, list[ResultMention]] | None = None,
) -> nx.MultiDiGraph:
    """The knowledge graph of ``papers`` (see :func:`graph_data`) as a networkx graph."""
    data = graph_data(
        papers, mentions_by_paper, entities, min_concept_papers, similar, relations, results
    )
    return graph_from_data(data)
