"""Benchmark: time from opening an HTML export to a stable picture in headless Chromium.

    .venv/bin/python benchmarks/html_render.py                    # seeds-like + synthetic large
    .venv/bin/python benchmarks/html_render.py exports/graph.json # a real (large) graph
    .venv/bin/python benchmarks/html_render.py --caps 200,400,800 # the cap sweep behind the default

For every graph it exports the default (capped) HTML and reports the milliseconds from
navigation start to the first frame drawn after the physics stopped (``window.kg.stableMs``,
i.e. ``performance.now()`` at that frame), the median of ``--repeat`` page loads. Without a
GRAPH argument it uses a synthetic graph of the ICLR 2026 size (~4,300 papers, ~20,000 entities,
fixed seed) built by :func:`synthetic_graph`. Needs /usr/bin/chromium (scripts/install-chromium)
and Playwright for Python (the test extras); no network.

The results, and why ``DEFAULT_MAX_NODES`` is 400 (a still picture about as soon as the seeds
graph's; with more nodes the wait soon grows faster than the node count, and 400 is about what
one screen shows with readable labels), are in ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script without installing
    sys.path.insert(0, str(REPO_ROOT))

import networkx as nx  # noqa: E402

from kg.schema import (  # noqa: E402
    DEFAULT_ROLE,
    LABEL_ATTR,
    NAME,
    TYPE_ATTR,
    Label,
    Rel,
    entity_id,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
_VOCABULARY = """
sparse dense neural graph latent diffusion contrastive adaptive robust causal token
vision language agent reward policy retrieval memory attention kernel spectral prior
federated quantized multimodal embedding reasoning planning alignment safety
"""
_WORDS = tuple(_VOCABULARY.split())
_LABEL_MIX = {  # share of entities per type, roughly what the extractor produces
    Label.METHOD: 0.34,
    Label.TASK: 0.18,
    Label.DATASET: 0.16,
    Label.METRIC: 0.07,
    Label.CONCEPT: 0.25,
}


def synthetic_graph(
    n_papers: int = 4300, n_entities: int = 20000, seed: int = 13
) -> nx.MultiDiGraph:
    """A random graph following the kg contract, with heavy-tailed entity popularity.

    Each paper links 4-16 entities drawn with Zipf-like weights (a few broad entities in
    hundreds of papers, most in one or two), one edge per (paper, entity). About ``n_entities``
    entities end up linked (a larger pool is drawn from; unlinked ones are dropped).
    """
    rng = random.Random(seed)
    G = nx.MultiDiGraph(kg_format=1)
    labels = list(_LABEL_MIX)
    entities = []
    for i in range(int(n_entities * 1.75)):
        label = rng.choices(labels, weights=[_LABEL_MIX[x] for x in labels])[0]
        name = f"{rng.choice(_WORDS).title()}{rng.choice(_WORDS).title()}-{i}"
        eid = entity_id(label, name.lower())
        G.add_node(
            eid, id=eid, label=label.value, name=name, aliases=[name, name.lower()], paper_count=0
        )
        entities.append(eid)
    zipf = (1.0 / (rank + 1) ** 0.6 for rank in range(len(entities)))
    cumulative = list(itertools.accumulate(zipf))
    for p in range(n_papers):
        pid = f"paper:{p:016x}"
        short = f"{rng.choice(_WORDS).title()}{rng.choice(_WORDS).title()}{p}"
        title = f"{short}: {' '.join(rng.choice(_WORDS) for _ in range(8))}"
        abstract = " ".join(rng.choice(_WORDS) for _ in range(150)) + "."
        G.add_node(
            pid,
            id=pid,
            label=Label.PAPER.value,
            name=short,
            display_name=short,
            title=title,
            abstract=abstract,
            venue="ICLR",
            year=2026,
            keywords=[rng.choice(_WORDS)],
            authors=[f"Author {p}"],
            primary_area="synthetic",
            url="",
            source=f"synthetic:{p}",
        )
        k = rng.randint(4, 16)
        chosen = set(rng.choices(entities, cum_weights=cumulative, k=k))
        for j, eid in enumerate(sorted(chosen)):
            label = Label(G.nodes[eid][LABEL_ATTR])
            rel = Rel.PROPOSES if j == 0 and label is Label.METHOD else DEFAULT_ROLE[label]
            G.add_edge(
                pid,
                eid,
                key=rel.value,
                **{TYPE_ATTR: rel.value},
                evidence=f"We use {G.nodes[eid][NAME]} in {short}.",
                start=0,
                end=5,
                confidence=round(rng.uniform(0.5, 1.0), 2),
                count=rng.randint(1, 3),
            )
            G.nodes[eid]["paper_count"] += 1
    G.remove_nodes_from([n for n in entities if G.nodes[n]["paper_count"] == 0])
    return G


def time_to_stable(
    html_paths: list[Path], repeat: int, timeout_s: float = 300
) -> dict[Path, list[float]]:
    """Milliseconds from navigation start to the first stable frame, per page, ``repeat`` times."""
    from playwright.sync_api import sync_playwright

    out: dict[Path, list[float]] = {p: [] for p in html_paths}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for path in html_paths:
            for _ in range(repeat):
                context = browser.new_context(viewport={"width": 1400, "height": 900})
                context.route(
                    "**/*",
                    lambda route: (
                        route.continue_()
                        if route.request.url.startswith("file:")
                        else route.abort()
                    ),
                )
                page = context.new_page()
                page.goto(path.resolve().as_uri())
                page.wait_for_function("window.kg && window.kg.stable", timeout=timeout_s * 1000)
                out[path].append(page.evaluate("window.kg.stableMs"))
                context.close()
        browser.close()
    return out


def main(argv: list[str] | None = None) -> int:
    from kg.html import DEFAULT_MAX_NODES, export_html
    from kg.store.file import load_graph

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graph", nargs="?", help="graph JSON (default: synthetic ICLR-sized graph)")
    ap.add_argument(
        "--small",
        help="a small graph JSON such as the seeds build (default: a synthetic 36-paper graph)",
    )
    ap.add_argument("--caps", default="", help="also time these caps, e.g. 200,400,800,1500")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None, help="folder for the HTML files (default: a temp dir)")
    ap.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    args = ap.parse_args(argv)
    log = sys.stderr if args.json else sys.stdout

    workdir = Path(args.out or tempfile.mkdtemp(prefix="kg-html-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    large = load_graph(args.graph) if args.graph else synthetic_graph()
    small = load_graph(args.small) if args.small else synthetic_graph(36, 400, seed=5)
    print(
        f"graphs ready in {time.perf_counter() - t0:.1f}s: large {large.number_of_nodes():,} "
        f"nodes / {large.number_of_edges():,} links; small {small.number_of_nodes()} nodes / "
        f"{small.number_of_edges()} links",
        file=log,
        flush=True,
    )

    jobs: list[tuple[str, Path, float]] = []
    t = time.perf_counter()
    r = export_html(small, workdir / "small.html", max_nodes=0)
    jobs.append((f"small (all {r.nodes} nodes, {r.edges} links)", r.path, time.perf_counter() - t))
    caps = [DEFAULT_MAX_NODES] + [int(c) for c in args.caps.split(",") if c.strip()]
    for cap in dict.fromkeys(caps):
        t = time.perf_counter()
        r = export_html(large, workdir / f"large-{cap}.html", max_nodes=cap)
        label = f"large capped at {cap}{' (default)' if cap == DEFAULT_MAX_NODES else ''}"
        jobs.append((f"{label}: {r.nodes} nodes, {r.edges} links", r.path, time.perf_counter() - t))

    timings = time_to_stable([p for _, p, _ in jobs], args.repeat)
    if args.json:
        rows = [
            {
                "export": name,
                "export_s": round(export_s, 3),
                "mb": round(path.stat().st_size / 1e6, 2),
                "stable_ms_median": round(statistics.median(timings[path])),
                "stable_ms": timings[path],
            }
            for name, path, export_s in jobs
        ]
        print(json.dumps({"exports": rows, "folder": str(workdir)}))
        return 0
    print(f"\n{'export':58} {'export s':>8} {'MB':>5} {'stable ms (median)':>19}  all runs")
    for name, path, export_s in jobs:
        ms = timings[path]
        size = path.stat().st_size / 1e6
        runs = ", ".join(f"{x:.0f}" for x in ms)
        print(f"{name:58} {export_s:8.2f} {size:5.1f} {statistics.median(ms):19.0f}  {runs}")
    print(f"\nHTML files in {workdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
