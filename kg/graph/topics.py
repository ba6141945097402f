"""Topics: groups of papers that share entities and words (issue 24).

A conference graph has tens of thousands of nodes; a newcomer wants its shape first. Topics
give it: every paper goes into exactly one :data:`~kg.schema.Label.TOPIC` node, named after the
entities most *specific* to its papers.

How papers are grouped:

1. Two papers are as close as ``kg related`` would rank them (:mod:`kg.query.related`): each
   shared entity counts ``TYPE_WEIGHT[label] / ln(1 + paper_count)`` and each text neighbour
   ``TEXT_WEIGHT * cosine``. Entities in a large share of the corpus ("large language models",
   "accuracy") are left out: they join everything to everything, and the pairs they make grow
   with the square of their paper count.
2. Each paper keeps its :data:`NEIGHBOURS` closest papers (a k-nearest-neighbour graph): it
   keeps the graph sparse, so clustering costs about linearly in the papers.
3. Louvain, as networkx does it (:mod:`kg.graph.louvain`, seeded), cuts that graph into
   communities.
   Communities too small to read on an overview join the topic they are most linked to; papers
   linked to none make the "other" topic.

Names come from :mod:`kg.graph.topic_names`: an entity names a topic when a good share of
the topic's papers link it *and* it is several times more common there than in the corpus.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from typing import TYPE_CHECKING, Any

from kg.graph.louvain import Adjacency, adjacency, louvain_of
from kg.graph.topic_names import OTHER_NAME, paper_count, topic_profile
from kg.schema import (
    ENTITY_LABELS,
    ID_PREFIX,
    KEY,
    LABEL_ATTR,
    NAME,
    TEXT_WEIGHT,
    TYPE_ATTR,
    TYPE_WEIGHT,
    Label,
    TopicRel,
)

if TYPE_CHECKING:
    import numpy as np
    import scipy.sparse as sp

#: An entity linked to more than this share of the papers is too broad to group them ...
MAX_SHARE = 0.05
#: ... but in a small corpus an entity of a few dozen papers still tells them apart (unless
#: it is in more than a quarter of them).
MAX_FLOOR = 50
#: Closest papers each paper keeps for the clustering (fewer in a small corpus, where 15 would
#: join nearly every paper to every other).
NEIGHBOURS = 15
MIN_NEIGHBOURS = 3
BLOCK = 1024  # papers whose closeness is computed at a time
#: Louvain's resolution: above 1 gives more, smaller communities. Modularity at 1 merges
#: communities smaller than about the square root of the graph's size (its "resolution
#: limit"): a conference at 1 gets a dozen sprawling topics. A small corpus has no such limit
#: and splits into crumbs above 1, so the resolution grows from 1 at SMALL_CORPUS papers to
#: RESOLUTION at LARGE_CORPUS (log scale).
RESOLUTION = 2.5
SMALL_CORPUS, LARGE_CORPUS = 100, 1000
#: A community of fewer than MIN_TOPIC papers, or than this share of them, is folded away.
MIN_SHARE = 0.004
MIN_TOPIC = 3

_PAPER = Label.PAPER.value
_TOPIC = Label.TOPIC.value
_IN_TOPIC = TopicRel.IN_TOPIC.value
_ENTITY = {label.value: label for label in ENTITY_LABELS}


def add_topics(data: dict[str, Any], seed: int = 0) -> None:
    """Add Topic nodes and one ``IN_TOPIC`` link per paper to node-link ``data`` (as
    :func:`kg.graph.assemble.graph_data` makes it), in place.

    Nodes stay sorted by id and links by (source, target, key). Topics already in ``data`` are
    replaced. Deterministic: the same data and ``seed`` give the same topics.
    """
    _drop_topics(data)
    nodes = {n[KEY]: n for n in data["nodes"]}
    papers = sorted(k for k, n in nodes.items() if n.get(LABEL_ATTR) == _PAPER)
    if not papers:
        return
    entities_of = paper_entities(data["links"], nodes)
    groups = paper_groups(papers, entities_of, nodes, seed=seed)
    topics = []
    for number, (members, other) in enumerate(groups, start=1):
        profile = topic_profile(members, entities_of, nodes, len(papers))
        topic = {
            KEY: f"{ID_PREFIX[Label.TOPIC]}:{number}",
            LABEL_ATTR: _TOPIC,
            NAME: OTHER_NAME if other else profile["name"],
            "size": len(members),
            **{k: v for k, v in profile.items() if k != "name"},
        }
        topics.append(topic)
        data["links"].extend(
            {TYPE_ATTR: _IN_TOPIC, "key": _IN_TOPIC, "source": p, "target": topic[KEY]}
            for p in members
        )
    data["nodes"].extend(topics)
    data["nodes"].sort(key=lambda n: str(n[KEY]))
    data["links"].sort(key=lambda e: (e["source"], e["target"], str(e.get("key", ""))))


def import_libraries() -> None:
    """Import what the topics compute with (numpy, scipy.sparse: imported where first used),
    for a caller with time to spare before :func:`add_topics` (an incremental build waiting
    for its new texts' extractions)."""
    import numpy  # noqa: F401
    import scipy.sparse  # noqa: F401


def _drop_topics(data: dict[str, Any]) -> None:
    if any(n.get(LABEL_ATTR) == _TOPIC for n in data["nodes"]):
        data["nodes"] = [n for n in data["nodes"] if n.get(LABEL_ATTR) != _TOPIC]
        data["links"] = [e for e in data["links"] if e.get(TYPE_ATTR) != _IN_TOPIC]


def paper_entities(
    links: list[dict[str, Any]], nodes: dict[str, dict[str, Any]]
) -> dict[str, list[str]]:
    """Each paper's linked entities (ids, sorted)."""
    out: dict[str, set[str]] = {}
    for e in links:
        s, t = e["source"], e["target"]
        if (
            nodes.get(s, {}).get(LABEL_ATTR) == _PAPER
            and nodes.get(t, {}).get(LABEL_ATTR) in _ENTITY
        ):
            out.setdefault(s, set()).add(t)
    return {p: sorted(es) for p, es in out.items()}


def entity_matrix(
    papers: list[str], entities_of: dict[str, list[str]], nodes: dict[str, dict[str, Any]]
) -> sp.csr_matrix:
    """Papers × the entities that group them, each cell ``sqrt(weight)``: the product of two
    rows is then what the two papers share, weighed as ``kg related`` weighs it."""
    import numpy as np
    import scipy.sparse as sp

    n = len(papers)
    counts = Counter(e for p in papers for e in entities_of.get(p, ()))
    limit = grouping_limit(n)
    columns: dict[str, int] = {}
    weight: list[float] = []
    for e in sorted(counts):
        pc = paper_count(nodes[e], counts[e])
        if counts[e] < 2 or pc > limit:
            continue  # shared by no two papers, or by too many to tell them apart
        columns[e] = len(weight)
        weight.append(TYPE_WEIGHT[_ENTITY[nodes[e][LABEL_ATTR]]] / math.log(1 + pc))
    # Typed arrays, not lists: a list holds an int object per cell (a big corpus has millions).
    rows, cols = array("q"), array("q")
    for i, p in enumerate(papers):
        for e in entities_of.get(p, ()):
            if e in columns:
                rows.append(i)
                cols.append(columns[e])
    w = np.sqrt(np.asarray(weight, dtype=np.float64))
    c = np.frombuffer(cols, dtype=np.int64)
    return sp.csr_matrix((w[c], (np.frombuffer(rows, dtype=np.int64), c)), shape=(n, len(weight)))


def grouping_limit(n: int) -> float:
    """The most papers an entity may link, in a corpus of ``n``, to count for grouping them
    (:data:`MAX_SHARE`, :data:`MAX_FLOOR`).

    >>> grouping_limit(38), grouping_limit(994), grouping_limit(10_000)
    (9.5, 50, 500.0)
    """
    return max(MAX_SHARE * n, min(MAX_FLOOR, n / 4))


def text_matrix(papers: list[str], nodes: dict[str, dict[str, Any]]) -> sp.csr_matrix:
    """Papers × papers, ``TEXT_WEIGHT * cosine`` for each stored text neighbour (symmetric)."""
    import numpy as np
    import scipy.sparse as sp

    index = {p: i for i, p in enumerate(papers)}
    rows, cols, vals = array("q"), array("q"), array("d")  # (as entity_matrix's)
    for i, p in enumerate(papers):
        attrs = nodes[p]
        for q, s in zip(
            attrs.get("similar") or [], attrs.get("similar_scores") or [], strict=False
        ):
            j = index.get(q)
            if j is not None and j != i:
                rows.append(i)
                cols.append(j)
                vals.append(TEXT_WEIGHT * float(s))
    ij = (np.frombuffer(rows, dtype=np.int64), np.frombuffer(cols, dtype=np.int64))
    T = sp.csr_matrix((np.frombuffer(vals), ij), shape=(len(papers), len(papers)))
    return T.maximum(T.T).tocsr()  # the cosine is symmetric; a pair may be in one list only


def nearest_edges(
    X: sp.csr_matrix, T: sp.csr_matrix, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k-nearest-neighbour graph of the closeness ``X @ X.T + T``: each paper's ``k``
    closest papers (ties to the lower index), both ways, as edges ``(i, j, weight)`` with
    ``i < j``, sorted. The products are made :data:`BLOCK` rows at a time: a whole conference's
    would not fit in memory."""
    import numpy as np

    n = X.shape[0]
    Xt = X.T.tocsr()
    keys, weights = [], []
    for lo in range(0, n, BLOCK):
        hi = min(lo + BLOCK, n)
        W = (X[lo:hi] @ Xt + T[lo:hi]).tocsr()
        W.setdiag(0, k=lo)  # a paper is not its own neighbour
        W.eliminate_zeros()
        for r in range(hi - lo):
            a, b = W.indptr[r], W.indptr[r + 1]
            cols, vals = W.indices[a:b], W.data[a:b]
            if len(vals) > k:
                # the k largest, exactly: all that reach the k-th value, ties to the lower index
                reach = np.flatnonzero(vals >= np.partition(vals, len(vals) - k)[len(vals) - k])
                pick = reach[np.lexsort((cols[reach], -vals[reach]))[:k]]
                cols, vals = cols[pick], vals[pick]
            i = lo + r
            keys.append(np.minimum(cols, i).astype(np.int64) * n + np.maximum(cols, i))
            weights.append(vals)
    key = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
    weight = np.concatenate(weights) if weights else np.zeros(0)
    key, first = np.unique(key, return_index=True)  # a pair both keep is one edge
    return key // n, key % n, weight[first]


def paper_groups(
    papers: list[str],
    entities_of: dict[str, list[str]],
    nodes: dict[str, dict[str, Any]],
    seed: int = 0,
    resolution: float | None = None,
) -> list[tuple[list[str], bool]]:
    """The papers in topics: (sorted paper ids, is the "other" topic), largest first."""
    k = min(NEIGHBOURS, max(MIN_NEIGHBOURS, len(papers) // 10))
    a, b, w = nearest_edges(
        entity_matrix(papers, entities_of, nodes), text_matrix(papers, nodes), k
    )
    if resolution is None:
        resolution = corpus_resolution(len(papers))
    adj = adjacency(len(papers), a.tolist(), b.tolist(), w.tolist())
    communities = louvain_of(adj, resolution=resolution, seed=seed)
    membership = _fold_small(adj, [sorted(c) for c in communities], len(papers))
    by_topic: dict[int, list[str]] = {}
    for paper, c in zip(papers, membership, strict=True):
        by_topic.setdefault(c, []).append(paper)
    other = by_topic.pop(-1, [])
    groups = sorted(by_topic.values(), key=lambda ps: (-len(ps), ps[0]))
    out = [(ps, False) for ps in groups]
    if other:
        out.append((other, True))
    return out


def corpus_resolution(n: int) -> float:
    """The Louvain resolution for a corpus of ``n`` papers (see :data:`RESOLUTION`).

    >>> corpus_resolution(38), round(corpus_resolution(316), 2), corpus_resolution(4302)
    (1.0, 1.75, 2.5)
    """
    span = math.log(LARGE_CORPUS / SMALL_CORPUS)
    t = min(1.0, max(0.0, math.log(max(n, 1) / SMALL_CORPUS) / span))
    return 1.0 + (RESOLUTION - 1.0) * t


def _fold_small(adj: Adjacency, communities: list[list[int]], n: int) -> list[int]:
    """Each paper's community number; a small community joins the large one it has the most
    link weight to (-1, "other", when it has none)."""
    minimum = max(MIN_TOPIC, math.ceil(MIN_SHARE * n))
    communities.sort(key=lambda c: (-len(c), c[0]))
    membership = [-1] * n
    large = [c for c in communities if len(c) >= minimum] or communities[:1]
    for number, c in enumerate(large):
        for i in c:
            membership[i] = number
    for c in communities[len(large) :]:
        pull: dict[int, float] = {}
        for i in c:
            for j, weight in adj[i].items():
                if membership[j] >= 0:
                    pull[membership[j]] = pull.get(membership[j], 0) + weight
        best = min(pull, key=lambda t: (-pull[t], t)) if pull else -1
        for i in c:
            membership[i] = best
    return membership
