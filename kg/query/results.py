"""The results papers report (:data:`kg.schema.Label.RESULT` nodes), as people ask for them: a
paper's or an entity's results (``kg show``), and a benchmark's leaderboard
(``kg leaderboard``).

A leaderboard lists the absolute results on a dataset (a level reached, not an improvement
over something: ``relative`` results say nothing about where a method stands), one board per
metric, best first. Higher is better unless the metric's name says otherwise
(``data/lower_is_better.txt``: error, loss, perplexity, FID, latency …).

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> G.add_node("dataset:gsm8k", label="Dataset", name="GSM8K", aliases=[])
>>> G.add_node("metric:accuracy", label="Metric", name="accuracy", aliases=[])
>>> for i, (value, number) in enumerate([("71.2%", 71.2), ("85.0%", 85.0)], 1):
...     G.add_node(f"paper:p{i}", label="Paper", name=f"P{i}", display_name=f"P{i}")
...     G.add_node(f"result:p{i}:1", label="Result", name=value, value=value, number=number,
...                unit="%", relative=False, evidence=f"We reach {value}.", paper=f"paper:p{i}")
...     _ = G.add_edge(f"paper:p{i}", f"result:p{i}:1", key="REPORTS", type="REPORTS")
...     _ = G.add_edge(f"result:p{i}:1", "dataset:gsm8k", key="ON_DATASET", type="ON_DATASET")
...     _ = G.add_edge(f"result:p{i}:1", "metric:accuracy", key="IN_METRIC", type="IN_METRIC")
>>> [board] = leaderboard(G, "gsm8k")["boards"]
>>> board["metric"], [(row["rank"], row["value"], row["paper_name"]) for row in board["rows"]]
('accuracy', [(1, '85.0%', 'P2'), (2, '71.2%', 'P1')])
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from kg.errors import NotFoundError
from kg.query.lookup import resolve_name
from kg.schema import LABEL_ATTR, NAME, RESULT_ARGUMENT, TYPE_ATTR, Label, ResultRel

if TYPE_CHECKING:
    import networkx as nx

#: A board of a metric no sentence names (the result's sentence gives only a number).
NO_METRIC = None


@lru_cache(maxsize=1)
def lower_is_better_words() -> frozenset[str]:
    """The words of ``data/lower_is_better.txt``."""
    text = resources.files("kg.query").joinpath("data/lower_is_better.txt").read_text("utf-8")
    return frozenset(
        ln.strip().casefold() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")
    )


def higher_is_better(metric: str | None) -> bool:
    """Whether a higher value of ``metric`` is the better one: unless a word of its name says
    otherwise.

    >>> higher_is_better("top-1 accuracy"), higher_is_better("word error rate")
    (True, False)
    >>> higher_is_better("FID"), higher_is_better("rFID"), higher_is_better(None)
    (False, False, True)
    """
    if not metric:
        return True
    words = re.findall(r"[a-z0-9]+", metric.casefold())
    return not any(w in lower_is_better_words() for w in words)


def results_of(G: nx.MultiDiGraph, node: str) -> list[str]:
    """The ids of the results a paper reports, or that are about an entity, in a stable order
    (by paper, then in the paper's text order)."""
    if G.nodes[node].get(LABEL_ATTR) == Label.PAPER.value:
        found = [v for _, v, t in G.out_edges(node, data=TYPE_ATTR) if t == ResultRel.REPORTS]
    else:
        found = [
            u
            for u, _, t in G.in_edges(node, data=TYPE_ATTR)
            if G.nodes[u].get(LABEL_ATTR) == Label.RESULT.value
        ]
    return sorted(set(found), key=_result_order)


def _result_order(rid: str) -> tuple[str, int]:
    head, _, n = rid.rpartition(":")
    return (head, int(n)) if n.isdigit() else (rid, 0)


def result_row(G: nx.MultiDiGraph, rid: str) -> dict[str, Any]:
    """A result as plain data: its properties, its paper's id and name, and the names (and
    ids) of the method, dataset, metric and task it is about (None where the sentence gives
    none)."""
    attrs = G.nodes[rid]
    paper = attrs.get("paper", "")
    row: dict[str, Any] = {
        "id": rid,
        "name": attrs.get(NAME, rid),
        "value": attrs.get("value"),
        "number": attrs.get("number"),
        "unit": attrs.get("unit", ""),
        "relative": bool(attrs.get("relative")),
        "evidence": attrs.get("evidence", ""),
        "paper": paper,
        "paper_name": (G.nodes[paper].get("display_name") or paper) if paper in G else paper,
    }
    ids: dict[str, str | None] = dict.fromkeys(RESULT_ARGUMENT.values())
    for _, target, kind in G.out_edges(rid, data=TYPE_ATTR):
        if kind in RESULT_ARGUMENT:
            ids[RESULT_ARGUMENT[kind]] = target
    for arg, target in ids.items():
        row[arg] = G.nodes[target].get(NAME, target) if target else None
    row["ids"] = ids
    return row


def find_dataset(G: nx.MultiDiGraph, query: str) -> str:
    """The id of the dataset ``query`` names (name, alias or id; exact, any case, then fuzzy)."""
    names: dict[str, set[str]] = {}
    for n, attrs in G.nodes(data=True):
        if attrs.get(LABEL_ATTR) == Label.DATASET.value:
            for name in (n, attrs.get(NAME), *(attrs.get("aliases") or [])):
                if name:
                    names.setdefault(name, set()).add(n)
    if not names:
        raise NotFoundError("the graph has no datasets")
    return resolve_name(G, query, names, "dataset")


def leaderboard(
    G: nx.MultiDiGraph,
    dataset: str,
    metric: str | None = None,
    relative: bool = False,
    limit: int = 20,
) -> dict[str, Any]:
    """The results reported on ``dataset`` (a name :func:`find_dataset` resolves), one board
    per metric (most results first; the board of results whose sentence names no metric
    last), each best first (:func:`higher_is_better`) and cut at ``limit`` rows. ``metric``
    keeps the boards whose metric's name or alias contains it (any case); ``relative`` lists the
    improvements instead of the levels reached.

    Values are compared as numbers within a board; a board mixing "%" with bare fractions
    ("0.853 accuracy") reads the fractions as percentages.
    """
    did = find_dataset(G, dataset)
    boards: dict[str | None, list[dict[str, Any]]] = {}
    for rid in results_of(G, did):
        row = result_row(G, rid)
        if row["relative"] != relative or row["number"] is None:
            continue
        boards.setdefault(row["ids"]["metric"], []).append(row)
    if metric is not None:
        wanted = metric.casefold()
        boards = {
            mid: rows
            for mid, rows in boards.items()
            if mid is not None and any(wanted in name.casefold() for name in _names(G, mid))
        }
        if not boards:
            raise NotFoundError(
                f"no result on {G.nodes[did].get(NAME)} names a metric like {metric!r}"
            )
    out = []
    for mid, rows in sorted(
        boards.items(), key=lambda kv: (kv[0] is None, -len(kv[1]), str(kv[0]))
    ):
        name = G.nodes[mid].get(NAME, mid) if mid else NO_METRIC
        higher = higher_is_better(name)
        percent = any(r["unit"] == "%" for r in rows)

        def score(row: dict[str, Any], percent: bool = percent) -> float:
            n = float(row["number"])
            return n * 100 if percent and not row["unit"] and 0 < n <= 1 else n

        rows.sort(key=lambda r: (-score(r) if higher else score(r), r["paper"], r["id"]))
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
        out.append(
            {"metric": name, "metric_id": mid, "higher_is_better": higher,
             "results": len(rows), "rows": rows[:limit]}
        )  # fmt: skip
    return {"dataset": {"id": did, "name": G.nodes[did].get(NAME, did)}, "boards": out}


def _names(G: nx.MultiDiGraph, node: str) -> list[str]:
    attrs = G.nodes[node]
    return [str(attrs.get(NAME, node)), *(attrs.get("aliases") or [])]
