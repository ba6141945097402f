"""Related papers: the papers that share the most, and the most specific, entities with a
paper, and whose words are most alike.

A shared entity counts for ``TYPE_WEIGHT[type] / ln(1 + paper_count)`` (Adamic–Adar style): a
dataset used by three papers says more than a concept used by three hundred, and a named
method more than a broad concept. The text similarity (cosine of TF-IDF vectors, stored at build
time for each paper's nearest neighbours, see :mod:`kg.graph.similarity`) adds
``TEXT_WEIGHT * cosine``. Every result carries its reasons: the shared entities and the words
behind the similarity.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from kg.query.facets import FACET_LABELS
from kg.query.index import PaperIndex, as_index
from kg.schema import TEXT_WEIGHT, TYPE_WEIGHT, Label

if TYPE_CHECKING:
    import networkx as nx


@dataclass
class Shared:
    id: str
    name: str
    label: str
    weight: float


@dataclass
class Related:
    id: str
    title: str
    display_name: str
    score: float
    shared: list[Shared] = field(default_factory=list)
    similarity: float = 0.0  # text cosine with the query paper (0 when not among its neighbours)
    terms: list[str] = field(default_factory=list)  # the words behind that similarity
    facet: str | None = None  # what was compared (kg.query.hybrid): None for whole papers
    #: the query's sentence and this paper's that align best (kg.query.hybrid), and their cosine
    evidence: list[str] = field(default_factory=list)
    alignment: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def entity_weight(label: str, paper_count: int) -> float:
    """How much sharing one entity says about two papers.

    >>> round(entity_weight("Dataset", 2), 4), round(entity_weight("Concept", 50), 4)
    (0.9102, 0.1272)
    """
    return TYPE_WEIGHT[Label(label)] / math.log(1 + max(paper_count, 1))


def shared_entities(
    idx: PaperIndex, paper: str, labels: Collection[str] | None = None
) -> tuple[dict[str, float], dict[str, list[Shared]]]:
    """Every paper that shares an entity (of ``labels``) with ``paper``: the summed weight of
    what they share (:func:`entity_weight`), and what that is."""
    scores: dict[str, float] = {}
    shared: dict[str, list[Shared]] = {}
    for entity in sorted({e for e, _ in idx.links.get(paper, [])}):
        attrs = idx.nodes[entity]
        if labels is not None and attrs["label"] not in labels:
            continue
        papers = idx.backlinks.get(entity, [])
        w = entity_weight(attrs["label"], int(attrs.get("paper_count") or len(papers)))
        item = Shared(entity, attrs.get("name", entity), attrs["label"], round(w, 6))
        for other in papers:
            if other != paper:
                scores[other] = scores.get(other, 0.0) + w
                shared.setdefault(other, []).append(item)
    return scores, shared


def related_papers(
    source: nx.MultiDiGraph | PaperIndex, paper: str, k: int | None = 10, facet: str | None = None
) -> list[Related]:
    """The ``k`` papers most related to ``paper`` (a paper id), best first, with reasons: the
    graph ranking (:mod:`kg.query.hybrid` has the default one). With ``facet``, only the
    entities of its types count (:data:`~kg.query.facets.FACET_LABELS`).

    ``k=None`` returns every paper that shares anything. Ties are broken by paper id.
    ``source`` is a graph or, for repeated queries, its :class:`~kg.query.index.PaperIndex`.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> for p in "abc":
    ...     G.add_node(p, label="Paper", title=p.upper(), display_name=p)
    >>> G.add_node("dataset:x", label="Dataset", name="X", paper_count=2)
    >>> G.add_node("concept:y", label="Concept", name="y", paper_count=3)
    >>> for u, v in [("a", "dataset:x"), ("b", "dataset:x"), ("a", "concept:y"),
    ...              ("b", "concept:y"), ("c", "concept:y")]:
    ...     _ = G.add_edge(u, v, key="USES", type="USES")
    >>> [(r.id, r.score, [s.name for s in r.shared]) for r in related_papers(G, "a")]
    [('b', 1.270913, ['X', 'y']), ('c', 0.360674, ['y'])]
    """
    idx = as_index(source)
    entity_scores, shared = shared_entities(idx, paper, FACET_LABELS.get(facet or ""))
    me = idx.nodes[paper]
    similar = {
        q: (s, t.split(", ") if t else [])
        for q, s, t in zip(
            me.get("similar", []),
            me.get("similar_scores", []),
            me.get("similar_terms", []),
            strict=True,
        )
        if q in idx.nodes
    }
    # Entity overlap first, then the text similarity: the Cypher twin adds in the same order.
    scores = {
        q: round(entity_scores.get(q, 0.0) + TEXT_WEIGHT * similar.get(q, (0.0, []))[0], 6)
        for q in set(entity_scores) | set(similar)
    }
    ranked = sorted(scores, key=lambda q: (-scores[q], q))
    if k is not None:
        ranked = ranked[:k]
    out = []
    for q in ranked:
        attrs = idx.nodes[q]
        reasons = sorted(shared.get(q, []), key=lambda s: (-s.weight, s.name))
        sim, terms = similar.get(q, (0.0, []))
        out.append(
            Related(
                q,
                attrs.get("title", ""),
                attrs.get("display_name", ""),
                scores[q],
                reasons,
                sim,
                terms,
                facet,
            )
        )
    return out
