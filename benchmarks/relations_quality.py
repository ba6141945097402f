"""How well kg's relation rules find SciERC's relations, and what they find in ICLR 2026.

SciERC: ``kg eval scierc --relations``' report (kg/evaluate/scierc_relations.py, the one
implementation): per relation type and micro, precision, recall and F1 with both argument spans
exact, directed (head and tail the right way round; COMPARED_WITH is symmetric) and undirected,
in two settings: **gold** mentions (the relation step alone) and **end-to-end** (kg's own
mentions, plus SciERC-style Generic mentions). Develop on dev; score test once.

``--iclr N`` prints the relations (the ones that fit the graph) and results of N random ICLR
2026 abstracts, to read and judge; ``--speed N`` times relations and results on N abstracts
against the pipeline that makes their mentions.

Usage::

    python benchmarks/relations_quality.py                     # SciERC dev, both settings
    python benchmarks/relations_quality.py --split test --json
    python benchmarks/relations_quality.py --iclr 30 --seed 7 --no-scierc
    python benchmarks/relations_quality.py --speed 500 --no-scierc
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common  # noqa: E402  (puts the repository on sys.path)

from kg.evaluate.scierc_relations import (  # noqa: E402
    DEFAULT_GENERIC,
    format_report,
    run_relations,
)

DEFAULT_SCIERC = _common.SHARED_DATA / "scierc"


def scierc_figures(data: Path, split: str, generic: str = DEFAULT_GENERIC) -> dict[str, Any]:
    """``kg eval scierc --relations``' report: its JSON, and its table under ``"table"``."""
    report = run_relations(split, data, generic)
    return {**report.as_dict(), "table": format_report(report)}


def _text(m: dict[str, Any] | None) -> str:
    return m["text"] if m else "-"


def _papers(path: Path) -> list[Any]:
    """The corpus as kg reads it (cleaned abstracts: no LaTeX or Markdown), in id order."""
    from kg.ingest import read_papers

    return sorted(read_papers([path]).papers, key=lambda p: p.id)


def iclr_sample(path: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Relations (fitting the graph) and results of ``n`` random abstracts, to read."""
    from kg.extract.pipeline import load_pipeline
    from kg.extract.relations import fits_graph, relations_in
    from kg.extract.results import results_in

    papers = _papers(path)
    sample = random.Random(seed).sample(papers, min(n, len(papers)))
    nlp = load_pipeline()
    out = []
    for paper, doc in zip(sample, nlp.pipe(p.abstract for p in sample), strict=True):
        mentions = doc._.kg_mentions
        relations = [r for r in relations_in(doc, mentions) if fits_graph(r)]
        out.append(
            {
                "id": paper.id,
                "title": paper.title,
                "relations": [
                    {
                        "head": r.head["text"],
                        "type": r.type,
                        "tail": r.tail["text"],
                        "rule": r.rule,
                        "via": doc.text[slice(*r.head_span)]
                        if r.head_span != (r.head["start"], r.head["end"])
                        else "",
                        "evidence": r.sentence,
                    }
                    for r in relations
                ],
                "results": [
                    {
                        "value": r.value,
                        "unit": r.unit,
                        "relative": r.relative,
                        "method": _text(r.method),
                        "dataset": _text(r.dataset),
                        "metric": _text(r.metric),
                        "task": _text(r.task),
                        "evidence": r.evidence,
                    }
                    for r in results_in(doc, mentions)
                ],
            }
        )
    return out


def speed(path: Path, n: int) -> dict[str, float]:
    """Seconds for the pipeline over ``n`` abstracts, and for relations and results after it."""
    from kg.extract.pipeline import load_pipeline
    from kg.extract.relations import relations_in
    from kg.extract.results import results_in

    texts = [p.abstract for p in _papers(path)[:n]]
    nlp = load_pipeline()
    list(nlp.pipe(texts[:20]))  # warm up
    with _common.Timer() as pipe_t:
        docs = list(nlp.pipe(texts, batch_size=64))
    with _common.Timer() as rel_t:
        n_rel = sum(len(relations_in(d, d._.kg_mentions)) for d in docs)
    with _common.Timer() as res_t:
        n_res = sum(len(results_in(d, d._.kg_mentions)) for d in docs)
    return {
        "abstracts": len(texts),
        "pipeline_s": round(pipe_t.seconds, 2),
        "relations_s": round(rel_t.seconds, 2),
        "results_s": round(res_t.seconds, 2),
        "relations": n_rel,
        "results": n_res,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_SCIERC, help="SciERC folder")
    ap.add_argument("--split", choices=("train", "dev", "test"), default="dev")
    ap.add_argument(
        "--generic",
        choices=("recogniser", "nouns", "both", "none"),
        default=DEFAULT_GENERIC,
        help="end to end: where Generic mentions come from",
    )
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    ap.add_argument("--no-scierc", action="store_true", help="skip the SciERC scores")
    ap.add_argument("--iclr", type=int, default=0, metavar="N", help="print N random abstracts")
    ap.add_argument("--iclr-path", type=Path, default=_common.DEFAULT_ICLR)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--speed", type=int, default=0, metavar="N", help="time on N abstracts")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {}
    if not args.no_scierc:
        report["scierc"] = scierc_figures(args.data, args.split, args.generic)
    if args.iclr:
        report["iclr_sample"] = iclr_sample(args.iclr_path, args.iclr, args.seed)
    if args.speed:
        report["speed"] = speed(args.iclr_path, args.speed)
    if args.json:
        report.get("scierc", {}).pop("table", None)
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    if "scierc" in report:
        print(report["scierc"]["table"], "\n")
    for paper in report.get("iclr_sample", []):
        print(f"## {paper['id']} {paper['title'][:90]}")
        for r in paper["relations"]:
            via = f" (via '{r['via']}')" if r["via"] else ""
            print(f"  R [{r['head']}]{via} {r['type']} [{r['tail']}]  <{r['rule']}>")
            print(f"      {r['evidence'][:240]}")
        for r in paper["results"]:
            print(
                f"  Q {r['value']!r} unit={r['unit']!r} relative={r['relative']} "
                f"method={r['method']} dataset={r['dataset']} metric={r['metric']} task={r['task']}"
            )
            print(f"      {r['evidence'][:240]}")
    if "speed" in report:
        s = report["speed"]
        print(
            f"{s['abstracts']} abstracts: pipeline {s['pipeline_s']}s, relations "
            f"{s['relations_s']}s ({s['relations']}), results {s['results_s']}s ({s['results']})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
