"""The build stage: corpus files → papers → mentions → entities → graph (and its summary)."""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.cache import ExtractionCache, ResolverSnapshots, text_digest
from kg.extract.extractor import FEW_TEXTS, Extractor, WarmExtractor, auto_processes
from kg.extract.pipeline import model_name, pipeline_version
from kg.extract.rows import RawMention, doc_mentions, doc_relations, doc_results
from kg.graph.assemble import graph_data
from kg.graph.topics import import_libraries
from kg.ingest import IngestResult, read_papers
from kg.models import Entity, Mention, Paper, Problem, ResultMention, Statements
from kg.query.explore import data_counts
from kg.resolve import Resolver, by_key, resolution_version
from kg.resolve.keywords import link_keywords
from kg.resolve.names import key_capitals
from kg.resolve.naming import (
    OWN_DEFINITIONS_MIN_PAPERS,
    display_name,
    mark_own_definitions,
    mark_title_names,
    unmark_established_datasets,
    unmark_established_names,
)
from kg.resolve.titles import TITLE, link_titles
from kg.runtime import parallel, paused_gc, release_free_memory, start_stages, yield_the_cpu
from kg.store.file import graph_from_data, write_graph_data

if TYPE_CHECKING:  # networkx is imported where a graph object is made: a build writes plain data
    import networkx as nx

    from kg.distributed import DaskExtractor
    from kg.graph.similarity import NeighbourLists

Progress = Callable[[int], None]


@dataclass
class BuildResult:
    data: dict[str, Any]  # the graph as node-link data, as the graph file holds it
    papers: list[Paper]
    problems: list[Problem]
    duplicates: int = 0
    cached: int = 0  # papers whose extraction came from the cache
    stats: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        """The graph as a networkx ``MultiDiGraph`` (made on first use)."""
        with paused_gc():
            return graph_from_data(self.data)

    def save(self, path: str | Path) -> Path:
        """Write the graph file (the same bytes as ``save_graph(self.graph, path)``)."""
        with paused_gc():
            return write_graph_data(self.data, path)


#: A build saves its resolver when the snapshot it started from lacks more than this share of
#: its papers. Re-resolving a few papers costs far less than writing a snapshot, so builds
#: that add a few papers each leave the snapshot as it is, until they add up.
RESAVE_SHARE = 0.05
#: Extractions written to the cache at a time, as they arrive.
CACHE_BATCH = 500


def extract_and_resolve(
    papers: list[Paper],
    model: str | None = None,
    cache_dir: str | Path | None = None,
    progress: Progress | None = None,
    n_process: int = 0,
    warm: WarmExtractor | None = None,
    remote: DaskExtractor | None = None,
    started: Extractor | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> tuple[dict[str, list[Mention]], dict[str, Entity], int, Statements]:
    """Mentions per paper id and the entities they resolve to, using and filling the cache
    when ``cache_dir`` is given. Returns (mentions, entities, papers found in the cache, the
    relations and results the papers state: their arguments are the papers' mentions, so they
    carry the resolved entities).

    With a cache, entity resolution starts from the snapshot of an earlier build whose papers
    are all still here (:class:`~kg.cache.ResolverSnapshots`), so only the papers it lacks are
    resolved; the result is the same as resolving them all.
    ``warm``: a pipeline already loading in another process, used when few texts are new (it
    is closed either way). While it extracts them, the cached mentions are resolved here.
    ``remote``: extract the new texts on a Dask cluster instead (:mod:`kg.distributed`).
    ``started``: an extractor whose workers run already (:meth:`Extractor.start_workers`),
    used when the new texts want as many, else closed when the extraction starts (the caller
    closes it too, for when no text is new). ``meanwhile``: work for later stages, done here
    once the cached mentions are resolved, if the new texts are still being extracted
    elsewhere: this process would otherwise wait idle.
    """
    texts = [p.abstract for p in papers]
    namespace = f"{model_name(model)}:{pipeline_version()}"
    cache = ExtractionCache(cache_dir, namespace) if cache_dir else None
    snapshots = (
        ResolverSnapshots(cache_dir, f"{namespace}:{resolution_version()}") if cache_dir else None
    )
    digests = {p.id: text_digest(p.abstract) for p in papers} if snapshots else {}
    cached = cache.cached(texts) if cache else set()
    with paused_gc():
        restored = snapshots.load(digests) if snapshots else None
    todo = list(dict.fromkeys(t for t in texts if t not in cached))
    elsewhere = warm if todo and warm is not None and len(todo) < FEW_TEXTS else None
    if elsewhere is not None:
        elsewhere.submit(todo)
    elif warm is not None:
        warm.close()
    resolver = Resolver()
    resolved: set[str] = set()  # papers the snapshot has resolved already
    if restored is not None:
        try:
            with paused_gc():
                resolver, resolved = Resolver.from_state(restored[0]), restored[1]
        except (ValueError, TypeError, KeyError, AttributeError):
            pass  # not a state this code wrote: resolve every paper
    mentions: dict[str, list[Mention]] = {}
    stated = Statements()

    def add(p: Paper, found: list[RawMention]) -> None:
        if p.id not in mentions:
            mentions[p.id] = doc_mentions(p.abstract, found)
            # Keys that depend on the whole paper, before any key is used
            key_capitals(mentions[p.id])
            relations = doc_relations(found, mentions[p.id])
            if relations:
                stated.relations[p.id] = relations
            results = doc_results(found, mentions[p.id])
            if results:
                stated.results[p.id] = results
            if p.id not in resolved:
                resolver.add(p.id, mentions[p.id])

    waiting: dict[str, list[Paper]] = defaultdict(list)  # texts to extract -> their papers
    # The cached rows are read a batch at a time: a corpus's rows, all read at once, took more
    # memory than the mentions made of them.
    with paused_gc():
        for i in range(0, len(papers), CACHE_BATCH):
            batch = papers[i : i + CACHE_BATCH]
            wanted = [p.abstract for p in batch if p.abstract in cached]
            raw = cache.get_many(wanted) if cache is not None and wanted else {}
            for p in batch:
                if p.abstract in raw:
                    add(p, raw[p.abstract])
                else:
                    waiting[p.abstract].append(p)
            if progress and raw:
                progress(sum(1 for p in batch if p.abstract in raw))
    # Rows found damaged when read: extracted again, after the texts the cache never had.
    lost = [t for t in waiting if t in cached]
    early: list[str] = []  # resolved papers whose mentions are grouped by key before the end
    if elsewhere is not None:
        # While the new texts are extracted elsewhere, so that only quick look-ups are left for
        # after them. (Workers started here would wait for it: then it is done at the end.)
        early = [pid for pid in resolved if pid in mentions]
    with paused_gc():
        earlier = by_key(m for pid in early for m in mentions[pid])

    def extracted(texts: list[str]) -> Iterator[list[RawMention]]:
        # A generator: the extraction starts when the first rows are asked for.
        if texts:
            workers = n_process or auto_processes(len(texts))
            if started is not None and started.n_process != workers:
                started.close()  # (not left idle beside the extraction: few texts came)
            if remote is not None:
                yield from remote.raw_mentions(texts)
            elif started is not None and started.n_process == workers:
                yield from started.raw_mentions(texts)
            else:
                yield from Extractor(model, n_process=workers).raw_mentions(texts)

    if elsewhere is not None and meanwhile is not None:
        meanwhile()
    if todo or lost:
        results = itertools.chain(
            elsewhere.result() if elsewhere is not None else extracted(todo), extracted(lost)
        )
        todo = todo + lost  # (a new list: extracted(todo) reads the old one)
        fresh = []
        # Each paper is resolved as its mentions arrive: the main process would otherwise wait
        # idle for the workers and then do it all alone at the end. The rows go to the cache a
        # batch at a time, so that a corpus's rows are never all held beside its mentions.
        with paused_gc():
            for text, found in zip(todo, results, strict=True):
                fresh.append((text, found))
                for p in waiting.pop(text, ()):
                    add(p, found)
                if progress:
                    progress(1)
                if cache and len(fresh) == CACHE_BATCH:
                    cache.put_many(fresh)
                    fresh = []
        if cache:
            cache.put_many(fresh)
    if cache:
        cache.close()
    with paused_gc():
        entities = resolver.finish()
        resolver.assign(earlier)
        # The rest: resolved papers whose extractions the cache had lost (rare), or all of
        # them when nothing was extracted elsewhere.
        resolver.assign(m for pid in resolved.difference(early) for m in mentions[pid])
    if snapshots and len(papers) - len(resolved) > RESAVE_SHARE * len(papers):
        # A snapshot only saves time: a build never fails for want of one.
        with contextlib.suppress(OSError), paused_gc():
            snapshots.save(resolver.state(), digests)
    return mentions, entities, len(texts) - len(todo), stated


@dataclass
class _Extracted:
    ingested: IngestResult
    mentions: dict[str, list[Mention]]
    entities: dict[str, Entity]
    cached: int
    similar: Callable[[], dict[str, NeighbourLists]] | None = None
    stated: Statements = field(default_factory=Statements)


def _similarity(
    papers: list[Paper], cache_dir: str | Path | None = None
) -> dict[str, NeighbourLists]:
    # numpy and scipy are imported where the similarity is computed: in the child process, the
    # main one need not import them (an incremental build does not otherwise use them).
    from kg.graph.similarity import neighbour_lists

    return neighbour_lists(papers, cache_dir=cache_dir)


def _similarity_stage(
    papers: list[Paper], cache_dir: str | Path | None
) -> Iterator[dict[str, NeighbourLists]]:
    yield_the_cpu()  # not needed before assembly: the extraction of the new texts goes first
    yield _similarity(papers, cache_dir)


def _read_stages(
    inputs: list[str | Path], strict: bool, memo_dir: str | Path | None, with_similarity: bool
) -> Iterator[Any]:
    """What a cold build's reader process computes: the papers, then their text similarity."""
    with paused_gc():
        ingested = read_papers(inputs, strict=strict, memo_dir=memo_dir)
    yield ingested
    if with_similarity:
        release_free_memory()  # what parsing and sending the papers left
        yield _similarity(ingested.papers, memo_dir)


def _read_and_extract(
    inputs: Iterable[str | Path],
    model: str | None,
    strict: bool,
    cache_dir: str | Path | None = None,
    progress: Callable[[int], Progress] | None = None,
    n_process: int = 0,
    with_similarity: bool = False,
    keywords: bool = False,
    dask: str | None = None,
) -> _Extracted:
    """The stages ``build`` and ``extract_records`` share: read, extract, resolve entities
    across the whole input, and name each paper.

    Reading and loading spaCy take about as long on a conference, and neither needs the
    other, so they overlap where work can run beside this process (:func:`kg.runtime.parallel`).
    Likely incremental (a cache exists): a child process loads the pipeline for the few new
    texts while this one reads. Else (cold): a child reads while this one loads the pipeline
    (which forked extraction workers then inherit). ``with_similarity`` computes the text
    similarity, which needs only the abstracts, in another process beside the extraction (the
    reader, once it has read). ``keywords``: link each paper to its author keywords
    (:func:`kg.resolve.keywords.link_keywords`). ``dask``: the address of a Dask scheduler
    whose workers extract the new texts (:mod:`kg.distributed`); then no pipeline is loaded
    here."""
    inputs = list(inputs)
    incremental = ExtractionCache.exists(cache_dir) if cache_dir else False
    remote = None
    if dask:
        from kg.distributed import DaskExtractor

        remote = DaskExtractor(dask, model)
    warm = WarmExtractor(model) if incremental and parallel() and remote is None else None
    reader = (
        start_stages(_read_stages, inputs, strict, cache_dir, with_similarity)
        if not incremental and parallel()
        else None
    )
    started = None
    try:
        if reader is not None:
            if remote is not None:
                # Every text is new: connect now (after the fork), and the workers load the
                # pipeline meanwhile. An incremental build connects only if a text is new.
                remote.start()
            else:
                # Loads the pipeline (cached for the extraction) meanwhile, and forks the
                # workers while this process holds no papers yet.
                started = Extractor(model, n_process=n_process or auto_processes(FEW_TEXTS))
                started.start_workers()
            ingested = reader.next(last=not with_similarity)
        else:
            with paused_gc():
                ingested = read_papers(inputs, strict=strict, memo_dir=cache_dir)
    except BaseException:
        for process in (warm, reader, remote, started):
            if process is not None:
                process.close()
        raise
    papers = ingested.papers
    similar: Callable[[], dict[str, NeighbourLists]] | None = None
    # The process whose last value is the text similarity: the reader, once it has read; else
    # one started now, before spaCy is loaded (a forked child then stays small and has the
    # papers without pickling). Small inputs compute it here, when needed: a child would cost
    # more than it hides.
    side = reader if with_similarity else None
    if with_similarity and side is None and len(papers) >= FEW_TEXTS and parallel():
        side = start_stages(_similarity_stage, papers, cache_dir)
    if side is not None:
        similar = functools.partial(side.next, last=True)
    elif with_similarity:
        similar = functools.partial(_similarity, papers, cache_dir)
    tick = progress(len(papers)) if progress else None
    meanwhile = import_libraries if with_similarity else None  # (a build's, not an extract's)
    try:
        mentions, entities, cached, stated = extract_and_resolve(
            papers, model, cache_dir, tick, n_process, warm, remote, started, meanwhile
        )
    except BaseException:
        if side is not None:
            side.close()
        raise
    finally:
        for process in (remote, started):
            if process is not None:
                process.close()
    with paused_gc():
        own = len(papers) >= OWN_DEFINITIONS_MIN_PAPERS
        for p in papers:
            mark_title_names(p, mentions[p.id])
            # Before naming: an established method is no paper's name ("RLVR", "Muon").
            unmark_established_names(p, mentions[p.id], entities)
            # Named before own definitions count: a paper's name is what its title or a "we
            # propose" gives, not the first acronym it spells out ("ZeroTuning", not "PASTA").
            p.display_name = display_name(p, mentions[p.id])
            if own:
                mark_own_definitions(mentions[p.id], entities)
            unmark_established_datasets(p, mentions[p.id], entities)
        # After naming (a title's "NAME: ... for TASK" needs the paper's name), before the
        # keywords (which link only what nothing else does).
        link_titles(papers, mentions, entities, stated)
        if keywords:  # after naming: keywords name no paper and propose nothing
            link_keywords(papers, mentions, entities)
    return _Extracted(ingested, mentions, entities, cached, similar, stated)


def build(
    inputs: Iterable[str | Path],
    model: str | None = None,
    strict: bool = False,
    cache_dir: str | Path | None = None,
    progress: Callable[[int], Progress] | None = None,
    n_process: int = 0,
    keywords: bool = True,
    year: int | None = None,
    dask: str | None = None,
) -> BuildResult:
    """Read ``inputs`` and build the knowledge graph.

    ``progress(total)`` is called once with the number of papers and must return a callback
    that is called with the number of papers done since the last call. ``n_process=0`` picks
    the number of extraction processes from the input size. ``keywords=False`` leaves the
    records' author keywords out of the graph: what every measurement of the extraction does.
    ``year``: the year of papers whose record gives none. ``dask``: a Dask scheduler's
    address (``tcp://10.0.0.5:8786``): its workers extract the texts the cache lacks, for the
    same graph (the ``dask`` extra, :mod:`kg.distributed`).
    """
    x = _read_and_extract(
        inputs,
        model,
        strict,
        cache_dir,
        progress,
        n_process,
        with_similarity=True,
        keywords=keywords,
        dask=dask,
    )
    assert x.similar is not None
    papers = x.ingested.papers
    if year is not None:
        for p in papers:
            if p.year is None:
                p.year = year
    with paused_gc():
        data = graph_data(
            papers,
            x.mentions,
            x.entities,
            similar=x.similar,
            relations=x.stated.relations,
            results=x.stated.results,
            release=True,
        )
    return BuildResult(
        data=data,
        papers=papers,
        problems=list(x.ingested.problems),
        duplicates=x.ingested.duplicates,
        cached=x.cached,
        stats=data_counts(data),
    )


def result_record(r: ResultMention, index: dict[int, int]) -> dict[str, Any]:
    """A result as ``kg extract --jsonl`` writes it: its mentions as indexes into the record's
    ``mentions`` (``index``: mention id → index), or None."""
    record: dict[str, Any] = {
        "value": r.value,
        "number": r.number,
        "unit": r.unit,
        "relative": r.relative,
        "evidence": r.evidence,
        "start": r.start,
        "end": r.end,
    }
    for arg in ("method", "dataset", "metric", "task"):
        m = getattr(r, arg)
        record[arg] = None if m is None else index.get(id(m))
    return record


def extract_records(
    inputs: Iterable[str | Path], model: str | None = None, strict: bool = False
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Per-paper mention records (the ``kg extract --jsonl`` format), entities resolved across
    the whole input."""
    x = _read_and_extract(inputs, model, strict)
    records = []
    for p in x.ingested.papers:
        # What the abstract says, at offsets into it: not the links only the title makes.
        ms = [m for m in x.mentions[p.id] if m.source != TITLE]
        index = {id(m): i for i, m in enumerate(ms)}
        records.append(
            {
                "id": p.id,
                "title": p.title,
                "display_name": p.display_name,
                "text": p.abstract,
                "mentions": [
                    {
                        "start": m.start,
                        "end": m.end,
                        "text": m.text,
                        "type": str(m.type),
                        "role": str(m.role),
                        "entity": m.entity,
                    }
                    for m in ms
                ],
                # head and tail: indexes into "mentions" (issue 20's format)
                "relations": [
                    {
                        "head": index[id(r.head)],
                        "tail": index[id(r.tail)],
                        "type": r.type,
                        "evidence": r.evidence,
                        "confidence": r.confidence,
                    }
                    for r in x.stated.relations.get(p.id, ())
                    if id(r.head) in index and id(r.tail) in index
                ],  # fmt: skip
                # method, dataset, metric, task: indexes into "mentions" (or None)
                "results": [result_record(r, index) for r in x.stated.results.get(p.id, ())],
            }
        )
    return records, list(x.ingested.problems)
