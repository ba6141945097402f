"""Every canned query against the seeds graph in a real Neo4j, checked against the same
question answered on the NetworkX graph; and the Cypher twin of `kg related`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import networkx as nx
import pytest

from kg.query.canned import QueryResult, get_query, list_queries, run_query
from kg.query.related import related_papers
from kg.store.neo4j import related_papers_neo4j

pytestmark = pytest.mark.neo4j

Checker = Callable[[QueryResult, nx.MultiDiGraph], None]
CHECKS: dict[str, Checker] = {}


def check(name: str) -> Callable[[Checker], Checker]:
    def register(func: Checker) -> Checker:
        CHECKS[name] = func
        return func
    return register


# ---------------------------------------------------------------- answers from the file graph


def label(G: nx.MultiDiGraph, n: str) -> str:
    return str(G.nodes[n]["label"])


def paper_by_name(G: nx.MultiDiGraph, name: str) -> str:
    found = [n for n, a in G.nodes(data=True) if a["label"] == "Paper"
             and name.lower() in (str(a.get("display_name", "")).lower(),
                                  str(a.get("title", "")).lower(), n)]
    assert len(found) == 1, f"example paper {name!r} is not unique in the seeds graph"
    return found[0]


def entity_by_name(G: nx.MultiDiGraph, lab: str, name: str) -> str:
    found = [n for n, a in G.nodes(data=True) if a["label"] == lab and (
        n == name or str(a.get("name", "")).lower() == name.lower()
        or name.lower() in [x.lower() for x in a.get("aliases", [])])]
    assert len(found) == 1, f"example {lab} {name!r} is not in the seeds graph"
    return found[0]


def linked(G: nx.MultiDiGraph, paper: str, lab: str, types: set[str]) -> set[str]:
    return {v for _, v, k in G.out_edges(paper, keys=True) if label(G, v) == lab and k in types}


def papers(G: nx.MultiDiGraph) -> list[str]:
    return [n for n, a in G.nodes(data=True) if a["label"] == "Paper"]


# ---------------------------------------------------------------- one check per canned query


@check("related_papers")
def _related(result: QueryResult, G: nx.MultiDiGraph) -> None:
    pid = paper_by_name(G, result.params["paper"])
    expected = related_papers(G, pid, result.params["k"])
    assert expected, "the example paper has related papers"
    assert [(r["id"], r["score"]) for r in result.rows] == [(r.id, r.score) for r in expected]


@check("similar_papers")
def _similar(result: QueryResult, G: nx.MultiDiGraph) -> None:
    from kg.query.text_index import paper_vectors, papers_of
    from kg.schema import FACET_VECTORS, TEXT_VECTOR

    ps = papers_of(G)
    facet = result.params["facet"]
    matrix = paper_vectors(ps)[FACET_VECTORS[facet] if facet else TEXT_VECTOR]
    vectors = dict(zip((p for p, _, _ in ps), matrix, strict=True))
    pid = paper_by_name(G, result.params["paper"])
    cosines = {q: float(v @ vectors[pid]) for q, v in vectors.items() if q != pid and v.any()}
    expected = sorted(cosines, key=lambda q: -cosines[q])[: result.params["k"]]
    assert expected and [r["id"] for r in result.rows] == expected
    assert all(abs(r["cosine"] - cosines[r["id"]]) < 1e-3 for r in result.rows)


@pytest.mark.parametrize("facet", ["background", "method", "result"])
def test_similar_papers_by_facet(facet: str, seeds_loaded: Any,
                                 seeds_graph: nx.MultiDiGraph) -> None:
    params = {**derived_params("similar_papers", seeds_graph), "facet": facet}
    CHECKS["similar_papers"](run_query(seeds_loaded, "similar_papers", params), seeds_graph)


def rising_methods(G: nx.MultiDiGraph, min_papers: int, top: int) -> list[tuple[Any, ...]]:
    """What `kg trends --type Method` lists as rising, as the canned query's rows."""
    from kg.query.trends import TrendsError, entity_trends

    try:
        rising = entity_trends(G, "Method", top, min_papers)["rising"]
    except TrendsError:  # one year: nothing rises
        return []
    return [(r["name"], *[r["counts"][y] for y in (min(r["counts"]), max(r["counts"]))],
             *[r["share"][y] for y in (min(r["share"]), max(r["share"]))]) for r in rising]


@check("rising_methods")
def _rising(result: QueryResult, G: nx.MultiDiGraph) -> None:
    got = [(r["method"], r["papers_first"], r["papers_last"], r["share_first"], r["share_last"])
           for r in result.rows]
    assert got == rising_methods(G, result.params["min_papers"], result.params["top"])


@check("papers_on_dataset")
def _on_dataset(result: QueryResult, G: nx.MultiDiGraph) -> None:
    d = entity_by_name(G, "Dataset", result.params["dataset"])
    expected = {u for u, _, k in G.in_edges(d, keys=True) if k in ("EVALUATES_ON", "PROPOSES")}
    assert expected and {r["paper_id"] for r in result.rows} == expected
    assert all(r["evidence"] for r in result.rows)


@check("most_used_datasets")
def _most_used(result: QueryResult, G: nx.MultiDiGraph) -> None:
    use = Counter()
    for p in papers(G):
        for d in linked(G, p, "Dataset", {"EVALUATES_ON", "PROPOSES"}):
            use[G.nodes[d]["name"]] += 1
    assert len(result.rows) == min(25, len(use))
    assert result.rows[0]["papers"] == max(use.values())
    assert all(use[r["dataset"]] == r["papers"] for r in result.rows)
    counts = [r["papers"] for r in result.rows]
    assert counts == sorted(counts, reverse=True)


def co_occurring(G: nx.MultiDiGraph, t: str) -> Counter[str]:
    """Method -> the papers that address task ``t`` and use or propose it."""
    use: Counter[str] = Counter()
    for p in papers(G):
        if t in linked(G, p, "Task", {"ADDRESSES", "PROPOSES"}):
            for m in linked(G, p, "Method", {"USES", "PROPOSES"}):
                use[m] += 1
    return use


@check("methods_cooccurring_with_task")
def _methods_cooccurring(result: QueryResult, G: nx.MultiDiGraph) -> None:
    use = co_occurring(G, entity_by_name(G, "Task", result.params["task"]))
    expected = sorted((-n, G.nodes[m]["name"]) for m, n in use.items())[:25]
    assert expected and [(-r["papers"], r["method"]) for r in result.rows] == expected


@check("methods_for_task")
def _methods_for_task(result: QueryResult, G: nx.MultiDiGraph) -> None:
    t = entity_by_name(G, "Task", result.params["task"])
    use = co_occurring(G, t)
    stated = {u: G.edges[u, t, "USED_FOR"] for u, _, k in G.in_edges(t, keys=True)
              if k == "USED_FOR" and label(G, u) == "Method"}
    expected = sorted((-len(stated[m]["papers"]) if m in stated else 0, -use[m],
                       G.nodes[m]["name"]) for m in set(use) | set(stated))[:25]
    got = [(-r["stated"], -r["papers"], r["method"]) for r in result.rows]
    assert expected and got == expected
    for r in result.rows:  # a stated use comes with its sentence
        assert bool(r["stated"]) == bool(r["evidence"])


@check("evaluated_on")
def _evaluated_on(result: QueryResult, G: nx.MultiDiGraph) -> None:
    d = entity_by_name(G, "Dataset", result.params["dataset"])
    stated = {u: a for u, _, k, a in G.in_edges(d, keys=True, data=True) if k == "EVALUATED_ON"}
    expected = sorted((-len(a["papers"]), G.nodes[m]["name"], a["evidence"][0])
                      for m, a in stated.items())
    got = [(-r["papers"], r["method"], r["evidence"]) for r in result.rows]
    assert expected and got == expected


@check("leaderboard")
def _leaderboard(result: QueryResult, G: nx.MultiDiGraph) -> None:
    from kg.query.results import leaderboard

    d = entity_by_name(G, "Dataset", result.params["dataset"])
    boards = leaderboard(G, d, metric=result.params["metric"] or None, limit=1000)["boards"]
    expected = {b["metric"]: [r["id"] for r in b["rows"]] for b in boards}
    got: dict[str | None, list[str]] = {}
    for r in result.rows:
        got.setdefault(r["metric"], []).append(r["result"])
    assert expected and got == expected


def stated_with(G: nx.MultiDiGraph, node: str, kind: str) -> list[tuple[str, str, int]]:
    """(other's name, "out" or "in", papers) of the ``kind`` links of ``node``."""
    out = [(G.nodes[v]["name"], "out", len(a["papers"]))
           for _, v, k, a in G.out_edges(node, keys=True, data=True) if k == kind]
    return out + [(G.nodes[u]["name"], "in", len(a["papers"]))
                  for u, _, k, a in G.in_edges(node, keys=True, data=True) if k == kind]


@check("compared_methods")
def _compared_methods(result: QueryResult, G: nx.MultiDiGraph) -> None:
    m = entity_by_name(G, "Method", result.params["method"])
    expected = sorted((-n, name, way) for name, way, n in stated_with(G, m, "COMPARED_WITH"))
    assert [(-r["papers"], r["compared_with"], r["direction"]) for r in result.rows] == expected


@check("method_components")
def _method_components(result: QueryResult, G: nx.MultiDiGraph) -> None:
    m = entity_by_name(G, "Method", result.params["method"])
    relation = {"in": "component", "out": "part of"}
    expected = sorted((relation[way], -n, name) for name, way, n in stated_with(G, m, "PART_OF"))
    assert [(r["relation"], -r["papers"], r["other"]) for r in result.rows] == expected


@check("method_hierarchy")
def _method_hierarchy(result: QueryResult, G: nx.MultiDiGraph) -> None:
    name = result.params["name"]
    [e] = [n for n, a in G.nodes(data=True) if a["label"] not in ("Paper", "Result", "Topic")
           and name.lower() in (n, str(a.get("name", "")).lower())]
    found = []

    def up(node: str, depth: int, used: frozenset[tuple[str, str]]) -> None:
        for _, v, k, a in G.out_edges(node, keys=True, data=True):
            if k == "IS_A" and (node, v) not in used and depth < 3:
                found.append(("broader", depth + 1, -len(a["papers"]), G.nodes[v]["name"]))
                up(v, depth + 1, used | {(node, v)})

    up(e, 0, frozenset())
    found += [("narrower", 1, -n, other) for other, way, n in stated_with(G, e, "IS_A")
              if way == "in"]
    got = [(r["direction"], r["depth"], -r["papers"], r["other"]) for r in result.rows]
    assert got == sorted(found)


@check("tasks_for_method")
def _tasks_for_method(result: QueryResult, G: nx.MultiDiGraph) -> None:
    m = entity_by_name(G, "Method", result.params["method"])
    use: Counter[str] = Counter()
    for p in papers(G):
        if m in linked(G, p, "Method", {"USES", "PROPOSES"}):
            for t in linked(G, p, "Task", {"ADDRESSES", "PROPOSES"}):
                use[t] += 1
    expected = sorted((-n, G.nodes[t]["name"]) for t, n in use.items())[:25]
    assert expected and [(-r["papers"], r["task"]) for r in result.rows] == expected
    assert all(r["example"]["length"] == 2 for r in result.rows)  # drawn as paths


@check("shared_between_papers")
def _shared(result: QueryResult, G: nx.MultiDiGraph) -> None:
    a = paper_by_name(G, result.params["paper_a"])
    b = paper_by_name(G, result.params["paper_b"])
    expected = {G.nodes[e]["name"] for e in set(G.successors(a)) & set(G.successors(b))}
    assert expected and {r["shared"] for r in result.rows} == expected
    assert all(r["path"]["length"] == 2 for r in result.rows)


@check("bridging_concepts")
def _bridging(result: QueryResult, G: nx.MultiDiGraph) -> None:
    tasks: dict[str, set[str]] = {}
    with_tasks: Counter[str] = Counter()
    for p in papers(G):
        ts = linked(G, p, "Task", {"ADDRESSES", "PROPOSES"})
        for c in linked(G, p, "Concept", {"MENTIONS", "PROPOSES"}):
            tasks.setdefault(G.nodes[c]["name"], set()).update(ts)
            with_tasks[G.nodes[c]["name"]] += bool(ts)
    ranked = sorted(((-len(ts), -with_tasks[c], c) for c, ts in tasks.items() if len(ts) >= 2))
    assert ranked, "some concept bridges tasks in the seeds graph"
    got = [(-r["tasks"], -r["papers"], r["concept"]) for r in result.rows]
    assert got == ranked[:25]


@check("new_benchmarks")
def _new_benchmarks(result: QueryResult, G: nx.MultiDiGraph) -> None:
    expected = {(u, G.nodes[v]["name"]) for u, v, k in G.edges(keys=True)
                if k == "PROPOSES" and label(G, v) == "Dataset"}
    assert expected and {(r["paper_id"], r["benchmark"]) for r in result.rows} == expected
    assert all(r["path"]["path"].startswith("(Paper ") for r in result.rows)


@check("shortest_connection")
def _shortest(result: QueryResult, G: nx.MultiDiGraph) -> None:
    a = paper_by_name(G, result.params["paper_a"])
    b = paper_by_name(G, result.params["paper_b"])
    hops = nx.shortest_path_length(G.to_undirected(as_view=True), a, b)
    assert len(result.rows) == 1 and result.rows[0]["hops"] == hops
    via = result.rows[0]["via"]
    assert via[0] == G.nodes[a]["name"] and via[-1] == G.nodes[b]["name"]


@check("co_occurring_methods")
def _co_occurring(result: QueryResult, G: nx.MultiDiGraph) -> None:
    pairs = Counter()
    for p in papers(G):
        ms = sorted(linked(G, p, "Method", {"USES", "PROPOSES"}))
        for i, m1 in enumerate(ms):
            for m2 in ms[i + 1:]:
                pairs[(G.nodes[m1]["name"], G.nodes[m2]["name"])] += 1
    assert result.rows and result.rows[0]["papers"] == max(pairs.values())
    assert all(r["papers"] >= result.params["min_papers"] for r in result.rows)
    assert len(result.rows) == min(25, len(pairs))


@check("paper_neighbourhood")
def _neighbourhood(result: QueryResult, G: nx.MultiDiGraph) -> None:
    p = paper_by_name(G, result.params["paper"])
    expected = {(G.nodes[v]["name"], k) for _, v, k in G.out_edges(p, keys=True)}
    assert expected and {(r["entity"], r["role"]) for r in result.rows} == expected


@check("search_text")
def _search(result: QueryResult, G: nx.MultiDiGraph) -> None:
    word = result.params["text"].lower()
    assert result.rows
    for r in result.rows:
        attrs = G.nodes[r["id"]]
        text = " ".join(str(attrs.get(k, "")) for k in ("title", "abstract", "name")).lower()
        assert word[:6] in text, r
    scores = [r["score"] for r in result.rows]
    assert scores == sorted(scores, reverse=True)


# ---------------------------------------------------------------- parameters from the graph
# The extraction evolves, so the strict checks pick their parameters from the seeds graph
# itself (the busiest task, the best-connected paper, ...); the header examples are run too.


def most(G: nx.MultiDiGraph, lab: str, score: Callable[[str], int]) -> str:
    candidates = [n for n, a in G.nodes(data=True) if a["label"] == lab]
    best = max(candidates, key=lambda n: (score(n), [-ord(c) for c in n]))
    assert score(best) > 0, f"the seeds graph has no usable {lab}"
    return best


def busiest(G: nx.MultiDiGraph, lab: str, kind: str) -> str:
    """The ``lab`` node with the most ``kind`` links (either way), or, with none, the first."""
    def n_links(n: str) -> int:
        return sum(k == kind for _, _, k in (*G.out_edges(n, keys=True), *G.in_edges(n, keys=True)))
    return max((n for n, a in G.nodes(data=True) if a["label"] == lab),
               key=lambda n: (n_links(n), [-ord(c) for c in n]))


def derived_params(name: str, G: nx.MultiDiGraph) -> dict[str, Any]:
    def n_related(p: str) -> int:
        return len(related_papers(G, p, None))

    def task_methods(t: str) -> int:
        return sum(bool(linked(G, p, "Method", {"USES", "PROPOSES"}))
                   for p in G.predecessors(t))

    def method_tasks(m: str) -> int:
        return sum(bool(linked(G, p, "Task", {"ADDRESSES", "PROPOSES"}))
                   for p in G.predecessors(m))

    hub = most(G, "Paper", n_related)
    if name == "related_papers":
        return {"paper": hub, "k": 10}
    if name == "papers_on_dataset":
        return {"dataset": most(G, "Dataset", lambda d: G.in_degree(d))}
    if name == "methods_for_task":  # a task some method is stated to be used for, if any
        return {"task": most(G, "Task", lambda t: 10_000 * sum(
            k == "USED_FOR" for _, _, k in G.in_edges(t, keys=True)) + task_methods(t))}
    if name == "evaluated_on":  # a dataset some method is stated to be evaluated on
        return {"dataset": most(G, "Dataset", lambda d: sum(
            k == "EVALUATED_ON" for _, _, k in G.in_edges(d, keys=True)))}
    if name == "methods_cooccurring_with_task":
        return {"task": most(G, "Task", task_methods)}
    if name == "tasks_for_method":
        return {"method": most(G, "Method", method_tasks)}
    if name == "shared_between_papers":
        return {"paper_a": hub, "paper_b": related_papers(G, hub, 1)[0].id}
    if name == "shortest_connection":
        lengths = nx.single_source_shortest_path_length(G.to_undirected(as_view=True), hub, 8)
        far = max((n for n in lengths if label(G, n) == "Paper"), key=lambda n: (lengths[n], n))
        return {"paper_a": hub, "paper_b": far}
    if name == "co_occurring_methods":
        return {"min_papers": 1}
    if name == "paper_neighbourhood":
        return {"paper": hub}
    if name == "similar_papers":
        return {"paper": hub, "k": 5}
    if name == "search_text":
        return {"text": "retrieval"}
    if name == "leaderboard":  # the dataset with the most results reported on it
        return {"dataset": most(G, "Dataset", lambda d: sum(
            k == "ON_DATASET" and not G.nodes[r]["relative"]
            for r, _, k in G.in_edges(d, keys=True))), "metric": ""}
    if name == "compared_methods":
        return {"method": busiest(G, "Method", "COMPARED_WITH")}
    if name == "method_components":
        return {"method": busiest(G, "Method", "PART_OF")}
    if name == "method_hierarchy":
        return {"name": busiest(G, "Method", "IS_A")}
    return {}


# ---------------------------------------------------------------- the tests


def test_every_canned_query_has_a_check() -> None:
    assert {q.name for q in list_queries()} == set(CHECKS)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_canned_query_on_seeds(name: str, seeds_loaded: Any, seeds_graph: nx.MultiDiGraph
                               ) -> None:
    params = derived_params(name, seeds_graph)
    result = run_query(seeds_loaded, name, params)
    assert result.columns
    assert result.params == {**get_query(name).example_params(), **params}
    CHECKS[name](result, seeds_graph)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_canned_query_header_examples_run(name: str, seeds_loaded: Any,
                                          seeds_graph: nx.MultiDiGraph) -> None:
    """`kg query run NAME` without -p: the header's examples; checked when they name
    something in the seeds graph (they are meant for a full graph in the Browser)."""
    result = run_query(seeds_loaded, name)
    assert result.params == get_query(name).example_params()
    try:
        CHECKS[name](result, seeds_graph)
    except AssertionError as exc:
        if "is not" not in str(exc) or "seeds graph" not in str(exc):
            raise


def test_related_twin_matches_the_file_backend(seeds_loaded: Any,
                                               seeds_graph: nx.MultiDiGraph) -> None:
    """Same top-k, same order, same scores, same reasons, for every seeds paper."""
    compared = 0
    for pid in sorted(papers(seeds_graph)):
        expected = related_papers(seeds_graph, pid, 10)
        assert related_papers_neo4j(seeds_loaded, pid, 10) == expected, pid
        compared += bool(expected)
    assert compared >= 10, "the seeds graph gives related papers for many papers"


@pytest.mark.parametrize("facet", ["background", "method", "result"])
def test_related_twin_matches_by_facet(facet: str, seeds_loaded: Any,
                                       seeds_graph: nx.MultiDiGraph) -> None:
    """`kg related --ranking graph --facet F` from the file and from Neo4j agree."""
    compared = 0
    for pid in sorted(papers(seeds_graph)):
        expected = related_papers(seeds_graph, pid, 10, facet)
        assert related_papers_neo4j(seeds_loaded, pid, 10, facet) == expected, pid
        compared += any(r.shared for r in expected)
    assert compared, f"some seeds paper shares a {facet} entity"


def test_related_twin_unknown_paper(seeds_loaded: Any) -> None:
    from kg.errors import NotFoundError

    with pytest.raises(NotFoundError, match="not in Neo4j"):
        related_papers_neo4j(seeds_loaded, "paper:does-not-exist", 5)
