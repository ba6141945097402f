"""Topics (kg.graph.topics): every paper in exactly one topic, deterministic, readable names."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

from kg.graph.topics import OTHER_NAME, add_topics
from kg.schema import LABEL_ATTR, TOPIC_PROPERTIES, Label, TopicRel

TOPIC, PAPER, IN_TOPIC = Label.TOPIC.value, Label.PAPER.value, TopicRel.IN_TOPIC.value


def _paper(pid: str, similar: Sequence[tuple[str, float]] = ()) -> dict[str, Any]:
    return {
        "id": pid,
        "label": PAPER,
        "name": pid,
        "title": pid,
        "similar": [q for q, _ in similar],
        "similar_scores": [s for _, s in similar],
        "similar_terms": ["" for _ in similar],
    }


def _entity(eid: str, label: str, name: str, papers: int) -> dict[str, Any]:
    return {"id": eid, "label": label, "name": name, "aliases": [], "paper_count": papers}


def _link(source: str, target: str, rel: str) -> dict[str, Any]:
    return {"type": rel, "key": rel, "source": source, "target": target, "count": 1}


#: Four fields, each with its own five entities ((label, name)).
FIELDS = {
    "v": [("Method", "ViT"), ("Dataset", "ImageNet"), ("Task", "image classification"),
          ("Dataset", "CIFAR-10"), ("Method", "ResNet")],
    "g": [("Method", "GNN"), ("Dataset", "Cora"), ("Task", "node classification"),
          ("Dataset", "OGB"), ("Method", "message passing")],
    "s": [("Method", "wav2vec"), ("Dataset", "LibriSpeech"), ("Task", "speech recognition"),
          ("Dataset", "TIMIT"), ("Method", "CTC")],
    "r": [("Method", "PPO"), ("Dataset", "MuJoCo"), ("Task", "continuous control"),
          ("Dataset", "Atari"), ("Method", "SAC")],
}  # fmt: skip


def clusters(per: int = 10, fields: str = "vgsr") -> dict[str, Any]:
    """Papers of a few fields: each paper links two of its field's entities and one broad
    concept every paper shares, and has text neighbours in its field only."""
    nodes, links = [], []
    every = len(fields) * per
    for f in fields:
        group = [f"paper:{f}{i:02d}" for i in range(per)]
        ents = [(f"{label.lower()}:{name.lower()}", label, name) for label, name in FIELDS[f]]
        for eid, label, name in ents:
            nodes.append(_entity(eid, label, name, 2 * per // len(ents)))
        for i, p in enumerate(group):
            ring = [group[(i + d) % per] for d in (1, -1, 2, -2)]
            nodes.append(_paper(p, [(q, 0.2) for q in ring]))
            for eid, label, _ in (ents[i % 5], ents[(i + 1) % 5]):
                rel = {"Method": "USES", "Dataset": "EVALUATES_ON", "Task": "ADDRESSES"}[label]
                links.append(_link(p, eid, rel))
            links.append(_link(p, "concept:neural-networks", "MENTIONS"))
    nodes.append(_entity("concept:neural-networks", "Concept", "neural networks", every))
    nodes.sort(key=lambda n: n["id"])
    links.sort(key=lambda e: (e["source"], e["target"], e["key"]))
    return {"directed": True, "multigraph": True, "graph": {}, "nodes": nodes, "links": links}


def _topics(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [n for n in data["nodes"] if n[LABEL_ATTR] == TOPIC]


def _membership(data: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for e in data["links"]:
        if e["type"] == IN_TOPIC:
            out.setdefault(e["source"], []).append(e["target"])
    return out


def check_contract(data: dict[str, Any]) -> None:
    """What every graph with topics holds."""
    papers = {n["id"] for n in data["nodes"] if n[LABEL_ATTR] == PAPER}
    topics = {n["id"]: n for n in _topics(data)}
    member = _membership(data)
    assert set(member) == papers  # every paper is in a topic ...
    assert all(len(ts) == 1 for ts in member.values())  # ... exactly one
    sizes = Counter(ts[0] for ts in member.values())
    assert {t: n["size"] for t, n in topics.items()} == dict(sizes)
    assert sum(n["size"] for n in topics.values()) == len(papers)
    for n in topics.values():
        assert n["name"].strip()
        assert n["id"].startswith("topic:")
        for prop in TOPIC_PROPERTIES:
            assert prop in n
        assert all(isinstance(x, str) for p in ("top_methods", "top_tasks", "top_datasets")
                   for x in n[p])  # fmt: skip
    # numbered by size: topic:1 is the largest ("other", if any, comes last)
    ordered = sorted(topics.values(), key=lambda n: int(n["id"].split(":")[1]))
    real = [n["size"] for n in ordered if n["name"] != OTHER_NAME]
    assert real == sorted(real, reverse=True)
    assert [n["id"] for n in data["nodes"]] == sorted(n["id"] for n in data["nodes"])
    keys = [(e["source"], e["target"], e["key"]) for e in data["links"]]
    assert keys == sorted(keys)
    for e in data["links"]:
        if e["type"] == IN_TOPIC:
            assert e == {"type": IN_TOPIC, "key": IN_TOPIC, "source": e["source"],
                         "target": e["target"]}  # fmt: skip


def test_obvious_clusters_are_found_and_named() -> None:
    data = clusters()
    add_topics(data)
    check_contract(data)
    topics = {t["id"]: t for t in _topics(data)}
    assert len(topics) == len(FIELDS)
    member = _membership(data)
    for field, entities in FIELDS.items():
        found = {member[p][0] for p in member if p.startswith(f"paper:{field}")}
        assert len(found) == 1  # the field is one topic ...
        topic = topics[found.pop()]
        assert topic["size"] == 10  # ... of its papers only
        names = {name for _, name in entities}
        parts = topic["name"].split(" · ")
        assert 1 <= len(parts) <= 3 and set(parts) <= names
        assert set(topic["top_methods"]) <= names and topic["top_methods"]
        assert set(topic["top_datasets"]) <= names and topic["top_datasets"]
        assert topic["top_tasks"] == [n for label, n in entities if label == "Task"]
    # the broad concept every paper shares names none
    assert all("neural networks" not in t["name"] for t in topics.values())


def test_deterministic_and_idempotent() -> None:
    once, twice = clusters(), clusters()
    add_topics(once, seed=3)
    add_topics(twice, seed=3)
    assert orjson.dumps(once) == orjson.dumps(twice)
    again = copy.deepcopy(once)
    add_topics(again, seed=3)  # topics already there are replaced, not added to
    assert orjson.dumps(again) == orjson.dumps(once)


def test_papers_sharing_nothing_are_in_one_topic_each_still() -> None:
    data = clusters(per=10, fields="vg")
    loners = [_paper(f"paper:z{i}") for i in range(3)]
    data["nodes"] = sorted(data["nodes"] + loners, key=lambda n: n["id"])
    add_topics(data)
    check_contract(data)
    member = _membership(data)
    other = [t for t in _topics(data) if t["name"] == OTHER_NAME]
    assert len(other) == 1 and other[0]["size"] == 3
    assert other[0]["id"] == f"topic:{len(_topics(data))}"  # last, whatever its size
    assert {member[f"paper:z{i}"][0] for i in range(3)} == {other[0]["id"]}


def test_no_papers_no_topics() -> None:
    data = {"directed": True, "multigraph": True, "graph": {}, "nodes": [], "links": []}
    add_topics(data)
    assert data["nodes"] == [] and data["links"] == []


def test_seeds_graph(seeds_graph_path: Path) -> None:
    raw = seeds_graph_path.read_bytes()
    data = orjson.loads(raw)
    add_topics(data)
    check_contract(data)
    topics = _topics(data)
    assert 2 <= len(topics) <= 12  # a handful for 38 papers
    again = orjson.loads(raw)
    add_topics(again)
    assert orjson.dumps(again) == orjson.dumps(data)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_seed_gives_the_same_topics_every_time(seed: int) -> None:
    a, b = clusters(), clusters()
    add_topics(a, seed=seed)
    add_topics(b, seed=seed)
    assert [t["name"] for t in _topics(a)] == [t["name"] for t in _topics(b)]


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_topics_and_results_go_to_graphml_and_gexf(seeds_graph_path: Path, tmp_path: Path,
                                                   fmt: str) -> None:
    import networkx as nx

    from kg.store.file import export_graph, load_graph

    G = load_graph(seeds_graph_path)
    path = export_graph(G, tmp_path / f"graph.{fmt}", fmt)
    H = nx.read_graphml(path) if fmt == "graphml" else nx.read_gexf(path)
    labels = Counter(a.get(LABEL_ATTR) for _, a in H.nodes(data=True))
    expected = Counter(a[LABEL_ATTR] for _, a in G.nodes(data=True))
    assert labels[Label.TOPIC.value] == expected[Label.TOPIC.value] > 0
    assert labels[Label.RESULT.value] == expected[Label.RESULT.value] > 0
