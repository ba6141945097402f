"""Relations and results of a kg graph against hand-annotated abstracts (issue 20).

The gold is a JSONL file, one paper a line, annotated blind to kg (test samples live outside
the repository, so that kg's rules are never tuned on them; the development samples
``benchmarks/data/iclr_relations_dev.jsonl`` and ``iclr_results_dev.jsonl`` are in it, with the
guidelines, ``iclr_relations_guidelines.md``)::

    {"id": "https://openreview.net/forum?id=…" | "B1QRgziT-", "year": 2026, "title": "…",
     "relations": [{"head": "ReMix", "type": "EVALUATED_ON", "tail": "MATH500",
                    "sentence": "…", "head_aliases": […], "tail_aliases": […],
                    "via": "we", "uncertain": true}, …],
     "results": [{"value": "52.10%", "number": 52.1, "relative": false, "method": "ReMix",
                  "dataset": "MATH500" | null, "metric": "Pass@1 accuracy", "sentence": "…",
                  "dataset_aliases": […], "uncertain": true}, …]}

Only ``head``/``tail``/``type`` (relations) and ``value``/``number``/``dataset`` (results) are
scored; ``*_aliases``, ``via`` and ``uncertain`` are optional. A surface such as
"Graph Signal Processing (GSP)" also stands for "Graph Signal Processing" and "GSP".
``uncertain`` marks a "don't care": a prediction that matches only an uncertain gold item is
neither a hit nor a false positive, and an uncertain item that is not found is no miss.

The graph is a kg graph file (node-link JSON, :func:`kg.store.file.load_graph`). A gold paper is
found by its id: the paper node's id, its ``url``, or the OpenReview forum id in either.

* **Relations**: the predicted relations of a paper are the entity→entity links
  (:class:`kg.schema.EntityRel`) whose ``papers`` hold the paper's node id. One matches a gold
  relation when the types are equal and both ends match leniently (:func:`iclr_gold.matches`:
  a surface form of one end and a name or alias of the entity share a merge key, or one key is
  a whole-word part of the other); COMPARED_WITH is undirected, every other type directed.
* **Results**: the predicted results of a paper are its Result nodes (``paper`` attribute or a
  REPORTS link). One matches a gold result when its ``number`` equals the gold number to the
  precision written in the gold ``value`` (both taken unsigned: "+6.7 points" is 6.7, and so is a
  reduction stored as -6.7) and, when the gold names a dataset, one of the result's ON_DATASET
  or FOR_TASK entities matches it leniently (the guidelines let an evaluation task stand where
  a dataset would: "+11.53% on visual search").

Matching is one-to-one (a maximum matching per paper), so two predictions of one gold item give
one hit and one false positive. Figures are micro-averaged over papers, per year in the gold
and pooled: precision = hits / judged predictions, recall = hits / certain gold items, per
relation type too. On matched results, the agreement of FOR_METHOD with the gold method and of
``relative`` with the gold flag is reported as well.

Usage::

    python benchmarks/relations_gold.py exports/graph.json --gold GOLD.jsonl
    python benchmarks/relations_gold.py G.json --gold FILE --errors     # list misses and FPs
    python benchmarks/relations_gold.py G.json --gold FILE --json
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

from iclr_gold import Item, keys_of, matches  # noqa: E402  (also puts the repo on sys.path)

from kg.schema import LABEL_ATTR, TYPE_ATTR, EntityRel, Label, ResultRel  # noqa: E402

if TYPE_CHECKING:
    import networkx as nx

REL_TYPES = tuple(r.value for r in EntityRel)
_FORUM = re.compile(r"[?&]id=([A-Za-z0-9_\-]+)")
_NUMBER = re.compile(r"\d[\d,']*(?:\.\d+)?|\.\d+")
_PAREN = re.compile(r"^(.*\S)\s*\(([^()]+)\)\s*(.*)$")

T = TypeVar("T")
P = TypeVar("P")


# --------------------------------------------------------------------------- gold


def surface_forms(text: str, aliases: Iterable[str] = ()) -> list[str]:
    """``text``, its aliases, and for "Long Form (LF) rest" also "Long Form rest" and "LF"."""
    forms = [text, *aliases]
    m = _PAREN.match(text)
    if m:
        before, inside, after = m.groups()
        forms += [f"{before} {after}".strip(), inside]
    return forms


def end_item(text: str, aliases: Iterable[str] = ()) -> Item:
    """A relation end or a result's dataset as an :class:`iclr_gold.Item` (keys only)."""
    return Item(name=text, type="", proposes=False, keys=keys_of(surface_forms(text, aliases)))


@dataclass
class GoldRelation:
    head: Item
    type: str
    tail: Item
    sentence: str = ""
    uncertain: bool = False

    def __str__(self) -> str:
        return f"{self.head.name} -{self.type}-> {self.tail.name}"


@dataclass
class GoldResult:
    value: str
    number: float
    decimals: int
    dataset: Item | None
    method: Item | None
    relative: bool
    sentence: str = ""
    uncertain: bool = False

    def __str__(self) -> str:
        on = f" on {self.dataset.name}" if self.dataset else ""
        by = f" [{self.method.name}]" if self.method else ""
        return f"{self.value}{on}{by}"


@dataclass
class GoldPaper:
    id: str
    year: int | None
    title: str
    relations: list[GoldRelation]
    results: list[GoldResult]


def decimals_of(value: str, number: float) -> int:
    """The number of decimals written: "52.10%" → 2, "30x" → 0 (from ``number`` if no digits)."""
    m = _NUMBER.search(value or "")
    text = m.group(0) if m else repr(float(number))
    return len(text.split(".", 1)[1]) if "." in text else 0


def read_gold(path: Path) -> list[GoldPaper]:
    papers = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        relations = [
            GoldRelation(
                head=end_item(r["head"], r.get("head_aliases", [])),
                type=r["type"],
                tail=end_item(r["tail"], r.get("tail_aliases", [])),
                sentence=r.get("sentence", ""),
                uncertain=bool(r.get("uncertain")),
            )
            for r in rec.get("relations", [])
        ]
        results = []
        for r in rec.get("results", []):
            number = float(r["number"])
            results.append(
                GoldResult(
                    value=r.get("value") or str(r["number"]),
                    number=number,
                    decimals=decimals_of(r.get("value", ""), number),
                    dataset=end_item(r["dataset"], r.get("dataset_aliases", []))
                    if r.get("dataset")
                    else None,
                    method=end_item(r["method"]) if r.get("method") else None,
                    relative=bool(r.get("relative")),
                    sentence=r.get("sentence", ""),
                    uncertain=bool(r.get("uncertain")),
                )
            )
        year = rec.get("year")
        papers.append(
            GoldPaper(
                id=str(rec["id"]),
                year=int(year) if year is not None else None,
                title=rec.get("title", ""),
                relations=relations,
                results=results,
            )
        )
    return papers


# --------------------------------------------------------------------------- graph


@dataclass
class PredRelation:
    head: Item
    type: str
    tail: Item
    evidence: str = ""
    from_title: bool = False  # the paper states it in its title only

    def __str__(self) -> str:
        return f"{self.head.name} -{self.type}-> {self.tail.name}"


@dataclass
class PredResult:
    id: str
    value: str
    number: float | None
    relative: bool
    datasets: list[Item] = field(default_factory=list)
    methods: list[Item] = field(default_factory=list)
    evidence: str = ""

    def __str__(self) -> str:
        on = f" on {', '.join(d.name for d in self.datasets)}" if self.datasets else ""
        by = f" [{', '.join(m.name for m in self.methods)}]" if self.methods else ""
        return f"{self.value or self.number}{on}{by}"


def id_keys(value: str) -> set[str]:
    """A paper id or URL and the OpenReview forum id in it."""
    keys = {value}
    m = _FORUM.search(value)
    if m:
        keys.add(m.group(1))
    return keys


def paper_index(G: nx.MultiDiGraph) -> dict[str, str]:
    """Each paper node's id, url and forum id → the node id."""
    index: dict[str, str] = {}
    for node, attrs in G.nodes(data=True):
        if attrs.get(LABEL_ATTR) != Label.PAPER.value:
            continue
        for value in (str(node), str(attrs.get("url") or "")):
            if value:
                for key in id_keys(value):
                    index.setdefault(key, node)
    return index


class Entities:
    """Graph entity nodes as :class:`iclr_gold.Item` (name and aliases as keys), made once."""

    def __init__(self, G: nx.MultiDiGraph) -> None:
        self.G = G
        self._items: dict[str, Item] = {}

    def __call__(self, node: str) -> Item:
        item = self._items.get(node)
        if item is None:
            attrs = self.G.nodes[node]
            name = str(attrs.get("name") or node)
            item = self._items[node] = Item(
                name=name,
                type=str(attrs.get(LABEL_ATTR, "")),
                proposes=False,
                keys=keys_of([name, *(attrs.get("aliases") or [])]),
            )
        return item


def _first(evidence: object) -> str:
    if isinstance(evidence, (list, tuple)):
        return str(evidence[0]) if evidence else ""
    return str(evidence or "")


def _number(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def graph_relations(
    G: nx.MultiDiGraph, papers: set[str] | None = None, entities: Entities | None = None
) -> dict[str, list[PredRelation]]:
    """Paper node id → the entity→entity links whose ``papers`` name it (only the ``papers``
    asked for, when given)."""
    entity = entities or Entities(G)
    found: dict[str, list[PredRelation]] = {}
    for u, v, attrs in G.edges(data=True):
        typ = attrs.get(TYPE_ATTR)
        if typ not in REL_TYPES:
            continue
        stating = [str(p) for p in attrs.get("papers") or []]
        if papers is not None:
            stating = [p for p in stating if p in papers]
        if not stating:
            continue
        evidence = attrs.get("evidence") or []
        rel = PredRelation(entity(u), str(typ), entity(v), _first(evidence))
        for paper in stating:
            title = str(G.nodes[paper].get("title") or "") if paper in G else ""
            # (a link keeps one sentence per paper: the paper's title when no sentence of its
            # abstract states it)
            if title and title in evidence:
                found.setdefault(paper, []).append(replace(rel, from_title=True))
            else:
                found.setdefault(paper, []).append(rel)
    return found


def graph_results(
    G: nx.MultiDiGraph, papers: set[str] | None = None, entities: Entities | None = None
) -> dict[str, list[PredResult]]:
    """Paper node id → its Result nodes (``paper`` attribute or a REPORTS link), with the
    entities their ON_DATASET / FOR_TASK and FOR_METHOD links point to."""
    entity = entities or Entities(G)
    found: dict[str, list[PredResult]] = {}
    for node, attrs in G.nodes(data=True):
        if attrs.get(LABEL_ATTR) != Label.RESULT.value:
            continue
        reporting = {str(attrs["paper"])} if attrs.get("paper") else set()
        reporting |= {
            str(u)
            for u, _, a in G.in_edges(node, data=True)
            if a.get(TYPE_ATTR) == ResultRel.REPORTS.value
        }
        if papers is not None:
            reporting &= papers
        if not reporting:
            continue
        res = PredResult(
            id=str(node),
            value=str(attrs.get("value") or ""),
            number=_number(attrs.get("number")),
            relative=bool(attrs.get("relative")),
            evidence=_first(attrs.get("evidence")),
        )
        for _, target, a in G.out_edges(node, data=True):
            # what it was measured on: a dataset, or a task the gold names in its place
            if a.get(TYPE_ATTR) in (ResultRel.ON_DATASET.value, ResultRel.FOR_TASK.value):
                res.datasets.append(entity(target))
            elif a.get(TYPE_ATTR) == ResultRel.FOR_METHOD.value:
                res.methods.append(entity(target))
        for paper in reporting:
            found.setdefault(paper, []).append(res)
    return found


# --------------------------------------------------------------------------- matching


def relation_matches(g: GoldRelation, p: PredRelation) -> bool:
    if g.type != p.type:
        return False
    if matches(g.head, p.head, lenient=True) and matches(g.tail, p.tail, lenient=True):
        return True
    return g.type == EntityRel.COMPARED_WITH.value and (
        matches(g.head, p.tail, lenient=True) and matches(g.tail, p.head, lenient=True)
    )


def same_number(g: GoldResult, number: float | None) -> bool:
    """``number`` equals the gold number at the gold's written precision (unsigned)."""
    if number is None or not math.isfinite(number):
        return False
    return math.isclose(round(abs(number), g.decimals), round(abs(g.number), g.decimals))


def result_matches(g: GoldResult, p: PredResult) -> bool:
    if not same_number(g, p.number):
        return False
    return g.dataset is None or any(matches(g.dataset, d, lenient=True) for d in p.datasets)


def max_matching(
    gold: Sequence[T], pred: Sequence[P], ok: Callable[[T, P], bool]
) -> dict[int, int]:
    """A maximum one-to-one matching (Kuhn's augmenting paths): pred index → gold index."""
    edges = [[j for j, p in enumerate(pred) if ok(g, p)] for g in gold]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(gold)):
        augment(i, set())
    return owner


@dataclass
class Judged:
    """One paper's comparison of one kind (relations or results)."""

    hits: list[tuple[Any, Any]]  # (gold, pred)
    misses: list[Any]
    false_positives: list[Any]
    ignored: list[Any]  # predictions that match only uncertain gold items


def judge(gold: Sequence[Any], pred: Sequence[Any], ok: Callable[[Any, Any], bool]) -> Judged:
    certain = [g for g in gold if not g.uncertain]
    unsure = [g for g in gold if g.uncertain]
    owner = max_matching(certain, pred, ok)
    hits = [(certain[i], pred[j]) for j, i in sorted(owner.items())]
    matched = {owner[j] for j in owner}
    misses = [g for i, g in enumerate(certain) if i not in matched]
    rest = [p for j, p in enumerate(pred) if j not in owner]
    ignored = [p for p in rest if any(ok(g, p) for g in unsure)]
    false_positives = [p for p in rest if not any(ok(g, p) for g in unsure)]
    return Judged(hits, misses, false_positives, ignored)


# --------------------------------------------------------------------------- scoring


@dataclass
class Tally:
    hits: int = 0
    gold: int = 0
    pred: int = 0  # judged predictions (hits + false positives)

    def add(self, j: Judged) -> None:
        self.hits += len(j.hits)
        self.gold += len(j.hits) + len(j.misses)
        self.pred += len(j.hits) + len(j.false_positives)

    def summary(self) -> dict[str, float | int]:
        p = self.hits / self.pred if self.pred else 0.0
        r = self.hits / self.gold if self.gold else 0.0
        return {
            "precision": p,
            "recall": r,
            "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "hits": self.hits,
            "gold": self.gold,
            "predicted": self.pred,
        }


@dataclass
class Group:
    papers: int = 0
    relations: Tally = field(default_factory=Tally)
    by_type: dict[str, Tally] = field(default_factory=lambda: {t: Tally() for t in REL_TYPES})
    results: Tally = field(default_factory=Tally)
    method_agree: list[bool] = field(default_factory=list)
    relative_agree: list[bool] = field(default_factory=list)

    def add(self, rel: Judged, res: Judged) -> None:
        self.papers += 1
        self.relations.add(rel)
        for t, tally in self.by_type.items():
            tally.add(
                Judged(
                    [h for h in rel.hits if h[0].type == t],
                    [g for g in rel.misses if g.type == t],
                    [p for p in rel.false_positives if p.type == t],
                    [],
                )
            )
        self.results.add(res)
        for g, p in res.hits:
            if g.method is not None and p.methods:
                self.method_agree.append(any(matches(g.method, m, lenient=True) for m in p.methods))
            self.relative_agree.append(g.relative == p.relative)

    def summary(self) -> dict[str, Any]:
        def share(xs: list[bool]) -> float | None:
            return sum(xs) / len(xs) if xs else None

        return {
            "papers": self.papers,
            "relations": self.relations.summary(),
            "relations_by_type": {t: tally.summary() for t, tally in self.by_type.items()},
            "results": self.results.summary(),
            "results_method_agreement": share(self.method_agree),
            "results_method_judged": len(self.method_agree),
            "results_relative_agreement": share(self.relative_agree),
        }


def group_name(year: int | None) -> str:
    return str(year) if year is not None else "unknown"


def score(gold: list[GoldPaper], G: nx.MultiDiGraph, abstract_only: bool = False) -> dict[str, Any]:
    """The report: per group (each gold year, then "all") the figures, and per paper the
    errors (misses, false positives) for ``--errors``. ``abstract_only``: relations the title
    states are left out of the gold and the predictions alike (for gold whose annotators
    read the abstract's sentences only)."""
    index = paper_index(G)
    nodes = {
        p.id: next((index[k] for k in sorted(id_keys(p.id)) if k in index), None) for p in gold
    }
    wanted = {n for n in nodes.values() if n is not None}
    entities = Entities(G)
    rels_of = graph_relations(G, wanted, entities)
    results_of = graph_results(G, wanted, entities)
    groups: dict[str, Group] = {}
    for year in sorted({p.year for p in gold if p.year is not None}, reverse=True):
        groups[group_name(year)] = Group()
    if any(p.year is None for p in gold):
        groups["unknown"] = Group()
    groups["all"] = Group()
    missing, errors = [], []
    for paper in gold:
        node = nodes[paper.id]
        if node is None:
            missing.append(paper.id)
        gold_rels, pred_rels = paper.relations, rels_of.get(node, []) if node else []
        if abstract_only:
            title = paper.title.strip()
            gold_rels = [g for g in gold_rels if not title or g.sentence.strip() != title]
            pred_rels = [r for r in pred_rels if not r.from_title]
        rel = judge(gold_rels, pred_rels, relation_matches)
        res = judge(paper.results, results_of.get(node, []) if node else [], result_matches)
        groups[group_name(paper.year)].add(rel, res)
        groups["all"].add(rel, res)
        errors.append(
            {
                "id": paper.id,
                "year": paper.year,
                "title": paper.title,
                "in_graph": node is not None,
                "relation_misses": [
                    {"relation": str(g), "sentence": g.sentence} for g in rel.misses
                ],
                "relation_false_positives": [
                    {"relation": str(p), "evidence": p.evidence} for p in rel.false_positives
                ],
                "result_misses": [{"result": str(g), "sentence": g.sentence} for g in res.misses],
                "result_false_positives": [
                    {"result": str(p), "evidence": p.evidence} for p in res.false_positives
                ],
            }
        )
    return {
        "papers": len(gold),
        "papers_not_in_graph": missing,
        "groups": {name: g.summary() for name, g in groups.items()},
        "errors": errors,
    }


# --------------------------------------------------------------------------- output


def _row(name: str, s: dict[str, Any]) -> str:
    return (
        f"{name:16} {s['gold']:5} {s['predicted']:5} {s['hits']:5} "
        f"{s['precision']:6.3f} {s['recall']:6.3f} {s['f1']:6.3f}"
    )


def format_report(report: dict[str, Any]) -> str:
    absent = report["papers_not_in_graph"]
    lines = [
        f"{report['papers']} gold papers; not in the graph: {len(absent)}"
        + (f" ({', '.join(absent)})" if absent else "")
    ]
    for name, g in report["groups"].items():
        label = "pooled" if name == "all" else f"ICLR {name}"
        lines += [
            "",
            f"== {label} ({g['papers']} paper{'s' if g['papers'] != 1 else ''}) ==",
            f"{'':16} {'gold':>5} {'pred':>5} {'hits':>5} {'P':>6} {'R':>6} {'F1':>6}",
            _row("relations", g["relations"]),
        ]
        for t, s in g["relations_by_type"].items():
            if s["gold"] or s["predicted"]:
                lines.append(_row(f"  {t}", s))
        lines.append(_row("results", g["results"]))
        agree = g["results_method_agreement"]
        if agree is not None:
            lines.append(
                f"  matched results whose FOR_METHOD matches the gold method: {agree:.3f}"
                f" (of {g['results_method_judged']})"
            )
    return "\n".join(lines)


def format_errors(report: dict[str, Any]) -> str:
    lines = []
    for e in report["errors"]:
        kinds = (
            ("miss", "relation_misses", "relation", "sentence"),
            ("fp", "relation_false_positives", "relation", "evidence"),
            ("result miss", "result_misses", "result", "sentence"),
            ("result fp", "result_false_positives", "result", "evidence"),
        )
        body = [
            f"  {tag:11} {item[key]}  | {item[ctx][:160]}"
            for tag, field_, key, ctx in kinds
            for item in e[field_]
        ]
        if body or not e["in_graph"]:
            lines.append(f"{e['id']} ({e['year']}) {e['title'][:70]}")
            if not e["in_graph"]:
                lines.append("  (paper not in the graph)")
            lines += body
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", type=Path, help="a kg graph file (node-link JSON)")
    ap.add_argument(
        "--gold", type=Path, action="append", required=True, help="gold JSONL (repeat to pool)"
    )
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--errors", action="store_true", help="list misses and false positives")
    ap.add_argument(
        "--abstract-only",
        action="store_true",
        help="leave relations stated by the title out of gold and predictions",
    )
    args = ap.parse_args(argv)

    from kg.store.file import load_graph

    gold = [p for path in args.gold for p in read_gold(path)]
    report = score(gold, load_graph(args.graph), abstract_only=args.abstract_only)
    if not args.errors:
        report.pop("errors")
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    print(f"gold: {', '.join(str(p) for p in args.gold)}; graph: {args.graph}")
    print(format_report(report))
    if args.errors:
        print()
        print(format_errors(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
