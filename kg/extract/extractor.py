"""Runs kg's pipeline over abstracts: in this process, or in worker processes for big inputs.

Workers send back only the small mention and relation rows (:mod:`kg.extract.rows`), not whole
Docs as spaCy's own ``n_process`` would. Forked workers inherit the loaded pipeline; spawned ones
load their own (:mod:`kg.runtime` picks the start method).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from kg.errors import KgError, ModelError
from kg.extract.pipeline import load_pipeline
from kg.extract.rows import RawMention, doc_mentions, raw_rows
from kg.models import Mention
from kg.runtime import (
    die_with_parent,
    forked_map,
    forks,
    parallel,
    process_context,
    start_stages,
)

#: Below this many abstracts one process extracts them: starting and loading more processes
#: costs more than they save.
FEW_TEXTS = 400

#: Abstracts a worker process extracts per task: one spaCy batch. Big batches are cheaper (the
#: recogniser's transition system steps through a whole batch at once), small ones leave less
#: idle time at the end (once the last task is handed out, the other workers wait until it is
#: done). So tasks are big until the last few, then small.
CHUNK = 64
LAST_CHUNK = 16
#: Texts one process extracts per spaCy memory zone (:meth:`Extractor.rows`) when it extracts
#: them itself: a zone costs little, and what it holds is freed at its end.
ZONE_TEXTS = 1024


def chunked(items: list[str], n_process: int) -> list[list[str]]:
    """``items`` in tasks of :data:`CHUNK`, except about the last ``2 * n_process`` big tasks'
    worth, which go in tasks of :data:`LAST_CHUNK`.

    >>> sizes = [len(c) for c in chunked(["a"] * 600, n_process=2)]
    >>> sizes[:7], len(sizes), sum(sizes)
    ([64, 64, 64, 64, 64, 16, 16], 23, 600)
    """
    head = max(0, len(items) - 2 * n_process * CHUNK)
    head -= head % CHUNK
    out = [items[i : i + CHUNK] for i in range(0, head, CHUNK)]
    return out + [items[i : i + LAST_CHUNK] for i in range(head, len(items), LAST_CHUNK)]


#: The most processes kg extracts in at once.
MAX_PROCESSES = 4


def per_cpu() -> int:
    """One process per CPU, at most :data:`MAX_PROCESSES`."""
    return max(1, min(MAX_PROCESSES, os.cpu_count() or 1))


def auto_processes(n_texts: int) -> int:
    """Worker processes worth starting for ``n_texts`` abstracts: one for small inputs or where
    nothing runs beside the caller, else :func:`per_cpu`."""
    if n_texts < FEW_TEXTS or not parallel():
        return 1
    return per_cpu()


class Extractor:
    """Runs kg's pipeline over texts.

    >>> ex = Extractor()
    >>> [(m.text, m.type.value) for m in ex.extract_texts(["We evaluate on ImageNet."])[0]]
    [('ImageNet', 'Dataset')]
    """

    def __init__(
        self,
        model: str | None = None,
        batch_size: int = CHUNK,
        n_process: int = 1,
        use_trained: bool = True,
    ) -> None:
        self.nlp = load_pipeline(model, use_trained)
        self.model, self.use_trained = model, use_trained
        self.batch_size = batch_size
        self.n_process = n_process
        self._pool: Any = None  # workers started ahead (start_workers), for the next texts

    def start_workers(self) -> None:
        """Start the ``n_process`` worker processes now, for the next :meth:`raw_mentions`.

        A forked worker's memory counts everything its parent held when it was forked: a
        build starts them as soon as the pipeline is loaded, before the corpus's papers arrive
        (at 200,000 papers they would have added most of a gigabyte to each worker).
        ``close()`` stops them if no texts come."""
        if self._pool is None and self.n_process > 1 and parallel():
            self._pool = self._new_pool()

    def close(self) -> None:
        """Stop the workers :meth:`start_workers` started, if no texts took them."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()

    def _new_pool(self) -> Any:
        global _WORKER
        if forks():
            _WORKER, setup = self, None
        else:
            setup = (self.model, self.batch_size, self.use_trained)
        ctx = process_context()
        return ctx.Pool(self.n_process, initializer=_start_worker, initargs=(setup, os.getpid()))

    def raw_mentions(self, texts: Iterable[str]) -> Iterator[list[RawMention]]:
        """The rows of each text, in order: its :data:`~kg.extract.rows.RawMention` s, then its
        :data:`~kg.extract.rows.RawRelation` s."""
        if self.n_process <= 1 or not parallel():
            batch: list[str] = []
            for text in texts:
                batch.append(text)
                if len(batch) == ZONE_TEXTS:
                    yield from self.rows(batch)
                    batch = []
            yield from self.rows(batch)
            return
        chunks = chunked(list(texts), self.n_process)
        pool, self._pool = self._pool or self._new_pool(), None
        with pool:  # (terminates the workers on leaving)
            for result in pool.imap(_extract_chunk, chunks):
                yield from result

    def rows(self, texts: list[str]) -> list[list[RawMention]]:
        """The rows of each text (as :meth:`raw_mentions`), made in one spaCy memory zone: the
        strings and lexemes these texts added to the vocabulary are dropped once their rows,
        plain Python data, are made. Else a process's vocabulary keeps every new word it
        meets for as long as it runs."""
        if not texts:
            return []
        with self.nlp.memory_zone():
            return [doc_rows(doc) for doc in self.nlp.pipe(texts, batch_size=self.batch_size)]

    def extract_texts(
        self, texts: Iterable[str], progress: Callable[[int], None] | None = None
    ) -> list[list[Mention]]:
        texts = list(texts)
        out = []
        for text, raw in zip(texts, self.raw_mentions(texts), strict=True):
            out.append(doc_mentions(text, raw))
            if progress:
                progress(1)
        return out


#: The extractor of a worker process: the parent's, inherited by a fork, or one the worker
#: loads (:func:`_start_worker`).
_WORKER: Extractor | None = None


def _start_worker(setup: tuple[str | None, int, bool] | None, parent_pid: int) -> None:
    global _WORKER
    die_with_parent(parent_pid)  # a killed build leaves no worker behind
    if setup is not None:
        model, batch_size, use_trained = setup
        _WORKER = Extractor(model, batch_size=batch_size, use_trained=use_trained)


def _extract_chunk(texts: list[str]) -> list[list[RawMention]]:
    assert _WORKER is not None
    return _WORKER.rows(texts)


def doc_rows(doc: Any) -> list[Any]:
    """A processed doc's mention, relation and result rows (a pipeline without
    ``kg_relations`` or ``kg_results``, e.g. an evaluation's, has none of those)."""
    return raw_rows(doc._.kg_mentions, doc._.kg_relations, doc._.kg_results)


def _warm_stages(receive: Callable[[], list[str]], model: str | None) -> Iterator[Any]:
    # In the child: load at once (an error goes to the parent when it asks for the result),
    # then extract the texts it sends, in parts (copies of this process share the pipeline).
    extractor = Extractor(model)
    texts = receive()
    parts = split_evenly(texts, min(per_cpu(), len(texts) // MIN_PART))
    yield [rows for part in forked_map(extractor.rows, parts) for rows in part]


#: Texts a copy of the warm extractor's process is worth forking for (:func:`_warm_stages`):
#: a fork costs a few milliseconds, a text tens.
MIN_PART = 8


def split_evenly(items: list[str], parts: int) -> list[list[str]]:
    """``items`` in ``parts`` consecutive runs (at least one) whose sizes differ by one at most.

    >>> [len(p) for p in split_evenly(list("abcdefg"), 3)], split_evenly(["a"], 0)
    ([3, 2, 2], [['a']])
    """
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (i < extra)
        out.append(items[start:end])
        start = end
    return out


def _extraction_died() -> KgError:
    return ModelError("the extraction process died (out of memory?)")


class WarmExtractor:
    """A process that loads the pipeline now and extracts a few texts later.

    An incremental build knows which abstracts are new only after reading the corpus and the
    cache; loading spaCy and the models takes about as long, so this starts it first and the
    two overlap. ``extract(texts)`` (once; or ``submit`` then ``result``) returns the raw
    mentions; ``close()`` when unused: it is stopped at once (waiting for it to finish loading
    would cost a fully cached build as long as the load), having written nothing but, at worst,
    a temporary file of the name-token cache. Made only where work runs beside the caller
    (:func:`kg.runtime.parallel`).
    """

    def __init__(self, model: str | None = None) -> None:
        self._stages = start_stages(_warm_stages, model, inbox=True, died=_extraction_died)

    def submit(self, texts: list[str]) -> None:
        """Hand over the texts; the caller may go on with other work until :meth:`result`."""
        self._stages.send(texts)

    def result(self) -> list[list[RawMention]]:
        """The raw mentions of the submitted texts (waits for them)."""
        rows: list[list[RawMention]] = self._stages.next(last=True)
        return rows

    def extract(self, texts: list[str]) -> list[list[RawMention]]:
        self.submit(texts)
        return self.result()

    def close(self) -> None:
        self._stages.close()
