"""Papers, mentions and entities → a ``networkx.MultiDiGraph`` following :mod:`kg.schema`.

One edge per (paper, entity): its type is ``PROPOSES`` when the paper introduces the entity and
otherwise the default role of the entity's type; it carries the evidence sentence and offsets of
the first mention in that role, the highest confidence and the number of mentions.
"""

from __future__ import annotations

import networkx as nx

from kg.models import Entity, Mention, Paper
from kg.schema import DEFAULT_ROLE, KEY, LABEL_ATTR, NAME, TYPE_ATTR, Label, Rel
from kg.similarity import Neighbour

#: Concepts named by a single paper say nothing about relatedness and swamp the picture: the
#: graph keeps the *shared* ones (named methods, datasets, tasks and metrics are always kept).
MIN_CONCEPT_PAPERS = 2


def paper_attrs(p: Paper, similar: list[Neighbour] | None = None) -> dict[str, object]:
    similar = similar or []
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
        "similar": [n.id for n in similar],
        "similar_scores": [n.score for n in similar],
        "similar_terms": [", ".join(n.terms) for n in similar],
    }


def build_graph(
    papers: list[Paper],
    mentions_by_paper: dict[str, list[Mention]],
    entities: dict[str, Entity],
    min_concept_papers: int = MIN_CONCEPT_PAPERS,
    similar: dict[str, list[Neighbour]] | None = None,
) -> nx.MultiDiGraph:
    """The knowledge graph of ``papers``. Deterministic: the same input gives the same graph."""
    G = nx.MultiDiGraph(kg_format=1)
    keep = {
        eid
        for eid, e in entities.items()
        if e.label != Label.CONCEPT or e.paper_count >= min_concept_papers
    }
    for p in sorted(papers, key=lambda p: p.id):
        G.add_node(p.id, **paper_attrs(p, (similar or {}).get(p.id)))
    for eid in sorted(keep):
        e = entities[eid]
        G.add_node(
            eid,
            **{
                KEY: eid,
                LABEL_ATTR: str(e.label),
                NAME: e.name,
                "aliases": list(e.aliases),
                "paper_count": e.paper_count,
            },
        )
    # Hot loop on a conference (100k edges): enum members and schema lookups are hoisted.
    proposes = Rel.PROPOSES
    rel_of_label = {label: str(DEFAULT_ROLE[label]) for label in Label if label in DEFAULT_ROLE}
    label_of = {eid: entities[eid].label for eid in keep}
    papers_of: dict[str, int] = dict.fromkeys(keep, 0)
    for p in sorted(papers, key=lambda p: p.id):
        by_entity: dict[str, list[Mention]] = {}
        for m in mentions_by_paper.get(p.id, []):
            if m.entity in keep:
                by_entity.setdefault(m.entity, []).append(m)
        for eid in sorted(by_entity):
            ms = by_entity[eid]
            if len(ms) > 1:
                ms.sort(key=lambda m: (m.start, m.end))
            proposed = [m for m in ms if m.role is proposes]
            rel = str(proposes) if proposed else rel_of_label[label_of[eid]]
            first = (proposed or ms)[0]
            papers_of[eid] += 1
            G.add_edge(
                p.id,
                eid,
                key=rel,
                **{
                    TYPE_ATTR: rel,
                    "evidence": first.sentence,
                    "start": first.start,
                    "end": first.end,
                    "confidence": round(max(m.confidence for m in ms), 3),
                    "count": len(ms),
                },
            )
    # paper_count as stored must match the edges actually in the graph.
    for eid, n in papers_of.items():
        G.nodes[eid]["paper_count"] = n
    return G
