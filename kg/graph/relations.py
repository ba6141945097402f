"""The graph's entity→entity links (:class:`kg.schema.EntityRel`) from the relations the papers'
sentences state (:class:`kg.models.RelationMention`).

One link per (source entity, type, target entity), whichever papers and mentions state it: the
papers' ids (sorted), the number of statements, the first few sentences and the highest
confidence. A relation's arguments are mentions, which entity resolution has given their
entities by now (``mention.entity``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kg.models import Paper, RelationMention
from kg.schema import ENTITY_REL_TRIPLES, REL_TYPES, TYPE_ATTR, EntityRel, Label

#: Sentences a link keeps: enough to judge it, few enough that a link many papers state does
#: not carry them all into the graph file and Neo4j.
MAX_EVIDENCE = 3


def relation_links(
    papers: Iterable[Paper],
    relations_by_paper: Mapping[str, list[RelationMention]],
    label_of: Mapping[str, Label],
) -> list[dict[str, Any]]:
    """The entity→entity links of ``papers`` (in id order) between nodes of the graph
    (``label_of``: the kept entities' labels), sorted by (source, target, type) like the
    graph file's links. A relation whose ends resolve to one entity, or whose entities' types
    the schema does not allow for its type (:data:`~kg.schema.ENTITY_REL_TRIPLES`: resolution
    may type an entity otherwise than one mention), makes no link.

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
