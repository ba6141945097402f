"""Extraction on a Dask cluster: ``kg build INPUT... --dask tcp://10.0.0.5:8786``.

Extraction is nearly all of a cold build's time and each abstract is extracted on its own, so
it is the one stage worth spreading over machines. Only it leaves this process: the batches of
new texts (those the extraction cache lacks) travel to the workers as tasks, and their rows
(:mod:`kg.extract.rows`, small tuples) come back. Entity resolution, naming and the graph stay
here, unchanged, and the rows are put back in input order: the graph file is byte for byte a
local build's.

Each worker process loads the spaCy pipeline once (the first task it runs, or the warm-up task
sent when the build connects) and keeps it for every later task and build
(:func:`kg.extract.pipeline.load_pipeline` caches it per process). A worker answers with its
extraction fingerprint, so a worker running other kg code fails the build instead of filling
the cache with rows of another pipeline.

This module lives outside ``kg/extract`` on purpose: the files there make the extraction
fingerprint, and where the extraction runs changes nothing it computes. Dask is imported only
here, when a build asks for it (the ``dask`` extra).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from importlib import metadata
from typing import TYPE_CHECKING, Any

from kg.errors import KgError, MissingExtraError
from kg.extract.extractor import Extractor, chunked
from kg.extract.pipeline import model_name, pipeline_version
from kg.extract.rows import RawMention

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = "pip install 'kg[dask]'"

#: Seconds between looks at the cluster while a batch is awaited (:meth:`DaskExtractor._result`).
WATCH_SECONDS = 2.0


class ClusterError(KgError):
    """The Dask cluster cannot be reached, has no workers, or lost the build's tasks."""


def _distributed() -> Any:
    """The ``distributed`` package, or a readable error naming the extra that brings it."""
    try:
        import distributed
    except ImportError:
        raise MissingExtraError(
            f"--dask needs Dask's distributed scheduler, from kg's dask extra: {INSTALL_HINT} "
            '(in a checkout: pip install -e ".[dask]")'
        ) from None
    return distributed


def _kg_version() -> str:
    try:
        return metadata.version("kg")
    except metadata.PackageNotFoundError:
        return "unknown"


def fingerprint(model: str) -> str:
    """What must be the same on the client and every worker: the base model's name and the
    extraction fingerprint (the extraction cache's namespace in
    :func:`kg.build.extract_and_resolve`)."""
    return f"{model}:{pipeline_version()}"


# ------------------------------------------------------------------ in the worker processes

#: One extraction at a time per worker process: a spaCy pipeline is not meant to be run by
#: two threads at once, and two first tasks must not both load it. (A worker's extra threads
#: would only wait here: start workers with ``--nthreads 1``, and ``--nworkers`` for cores.)
_LOCK = threading.Lock()


def _warm(model: str) -> tuple[str, str]:
    """Load the pipeline now, while the client reads the corpus."""
    with _LOCK:
        Extractor(model)  # load_pipeline keeps it for the process
    return fingerprint(model), _kg_version()


def _extract_batch(texts: list[str], model: str) -> tuple[str, str, list[list[RawMention]]]:
    """A batch's rows, with what the client checks them against."""
    with _LOCK:
        rows = list(Extractor(model).raw_mentions(texts))  # one process: nlp.pipe here
    return fingerprint(model), _kg_version(), rows


# ------------------------------------------------------------------ in the client


class DaskExtractor:
    """Extracts texts on the Dask cluster at ``address``; :meth:`raw_mentions` like
    :class:`kg.extract.extractor.Extractor`'s, in the order given.

    Connects on :meth:`start` (or the first extraction); :meth:`close` disconnects and
    cancels what is still running for it. A worker that dies mid-build costs nothing but time:
    the scheduler runs its tasks again elsewhere (up to its ``allowed-failures``), and the
    result does not depend on where a batch ran.
    """

    def __init__(self, address: str, model: str | None = None) -> None:
        if importlib.util.find_spec("distributed") is None:  # said before the corpus is read
            _distributed()
        self.address = address
        self.model = model_name(model)  # resolved here: a worker's environment may differ
        self._client: Client | None = None
        self._warming: list[Any] = []

    def start(self) -> Client:
        """Connect, wait for a worker, and have every worker load the pipeline."""
        if self._client is not None:
            return self._client
        distributed = _distributed()
        self._check_scheme(distributed)
        import dask

        timeout = dask.config.get("distributed.comm.timeouts.connect")
        try:
            client = distributed.Client(self.address, set_as_default=False, name="kg build")
        except OSError as exc:  # nothing answered in time (the message says how long)
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {exc}"
            ) from None
        except Exception as exc:  # something answered, not as a scheduler does
            raise ClusterError(
                f"no Dask scheduler at {self.address} ({type(exc).__name__}: {exc})"
            ) from None
        self._client = client
        try:
            client.wait_for_workers(1, timeout=dask.utils.parse_timedelta(timeout))
        except (TimeoutError, asyncio.TimeoutError, OSError):
            self.close()
            raise ClusterError(
                f"the Dask scheduler at {self.address} has no workers (waited {timeout}): "
                f"start some with `dask worker {self.address} --nthreads 1`"
            ) from None
        # One warm-up task pinned to each worker, so that they all load the pipeline at once;
        # held (not awaited) until the extraction is done, so that the scheduler keeps them.
        self._warming = [
            client.submit(_warm, self.model, workers=[worker], pure=False)
            for worker in client.nthreads()
        ]
        return client

    def _check_scheme(self, distributed: Any) -> None:
        # A mistyped scheme would otherwise fail inside the client's constructor, which then
        # prints its own teardown errors at exit.
        from distributed.comm import registry
        from distributed.comm.addressing import parse_address

        try:
            registry.get_backend(parse_address(self.address, strict=False)[0])
        except ValueError as exc:
            raise ClusterError(f"--dask {self.address}: {exc}") from None

    def raw_mentions(self, texts: list[str]) -> Iterator[list[RawMention]]:
        """The rows of each text, in order, as their batches come back."""
        if not texts:
            return
        distributed = _distributed()
        client = self.start()
        expected = fingerprint(self.model)
        batches = chunked(texts, max(1, len(client.nthreads())))
        build = uuid.uuid4().hex[:12]  # the keys of this build's tasks, never another's
        futures = client.map(
            _extract_batch,
            batches,
            model=self.model,
            key=[f"kg-extract-{build}-{i}" for i in range(len(batches))],
            pure=False,
        )
        done = 0
        try:
            # In order: the later batches run meanwhile, and each one's rows are handed on as
            # soon as those before it are (the caller resolves them in input order).
            for future in futures:
                found, version, rows = self._result(future)
                if found != expected:
                    raise ClusterError(
                        f"a Dask worker runs another kg extraction (kg {version}, {found}; "
                        f"here kg {_kg_version()}, {expected}): install the same kg on every "
                        f"worker ({INSTALL_HINT})"
                    )
                future.release()  # the worker may drop it: the rows are here now
                done += 1
                yield from rows
        except distributed.KilledWorker as exc:
            raise ClusterError(
                f"Dask workers kept dying on a batch of abstracts (out of memory?): {exc}"
            ) from None
        except concurrent.futures.CancelledError:
            raise ClusterError(
                f"the Dask scheduler at {self.address} dropped the build's tasks "
                "(restarted, or the connection was lost)"
            ) from None
        except ImportError as exc:  # a worker's kg lacks a package (one without kg stops)
            raise ClusterError(
                f"a Dask worker cannot run kg ({exc}): every worker needs {INSTALL_HINT} "
                "of this version"
            ) from None
        finally:
            if done < len(futures):  # given up: the cluster need not finish this build
                client.cancel(futures)

    def _result(self, future: Any) -> Any:
        """A batch's result. Dask waits for workers forever; a build gives up after the
        connect timeout without any (a worker that cannot unpickle kg's tasks, one without
        kg, shuts down: then nothing would ever run them)."""
        import dask

        assert self._client is not None
        limit = dask.utils.parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"))
        alone_since: float | None = None
        while True:
            try:
                return future.result(timeout=WATCH_SECONDS)
            except (TimeoutError, asyncio.TimeoutError):
                pass
            try:
                workers = len(self._client.nthreads())
            except Exception:  # (the scheduler is unreachable: the same as no worker here)
                workers = 0
            now = time.monotonic()
            if workers:
                alone_since = None
            elif alone_since is None:
                alone_since = now
            elif now - alone_since > limit:
                raise ClusterError(
                    f"the Dask cluster at {self.address} has had no workers for {limit:.0f} s "
                    f"(did they die? every worker needs {INSTALL_HINT} of this version; "
                    "their logs say more)"
                )

    def close(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            if self._warming:
                client.cancel(self._warming)
                self._warming = []
            # Closing a client that is still reconnecting to a lost scheduler logs the
            # cancelled attempt as an error: the build's own error says it in one line.
            quiet = [logging.getLogger(n) for n in ("distributed", "distributed.client")]
            levels = [q.level for q in quiet]
            for q in quiet:
                q.setLevel(logging.CRITICAL + 1)
            try:
                client.close()
            finally:
                for q, level in zip(quiet, levels, strict=True):
                    q.setLevel(level)
