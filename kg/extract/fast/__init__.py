"""The only code in kg that knows spaCy's and thinc's internals, behind one switch.

Each fast path computes what spaCy or thinc would, faster, and falls back to their own code:

* **Matrix products through numpy** on one BLAS thread (:class:`~kg.extract.fast.gemm.
  OneThreadNumpyOps`) instead of thinc's blis: a subclass of thinc's ``NumpyOps`` given to the
  models' layers.
* **Maxout without the arg-max** at inference (:func:`~kg.extract.fast.gemm.use_fast_maxout`):
  it replaces the forward function of thinc's ``Maxout`` layers (a private attribute). A probe
  at load compares it with thinc's on random input; any difference and thinc's stays.
* **kg's numpy decoder for the entity recogniser** (:mod:`kg.extract.fast.ner_decode`) instead
  of spaCy's compiled greedy decoder, whose loop takes and releases the GIL on every state
  access. It reads the recogniser's layers and moves; :func:`~kg.extract.fast.ner_decode.
  unsupported` checks them at load, and spaCy decodes where they are not as expected.

``KG_FAST=0`` turns every one of them off, and with them the process tuning of the ``kg``
command (:func:`kg.runtime.tune_process`: malloc thresholds, GC pauses, the exit without
teardown). The graph is the same byte for byte either way; CI builds it both ways and compares.
A fast path that cannot apply says so once, as a :class:`FastPathWarning`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: Runs a recogniser over docs: (docs, batch size, user_data key for its token vectors or None).
NerRunner = Callable[[Iterable[Any], int, "str | None"], Iterator[Any]]


class FastPathWarning(UserWarning):
    """A fast path could not apply; spaCy's or thinc's own code runs instead."""


def enabled() -> bool:
    """Whether the fast paths are on: unless ``KG_FAST=0``."""
    return os.environ.get("KG_FAST", "1").strip() != "0"


def fall_back(what: str, why: str) -> None:
    """Say once that a fast path does not apply, and why."""
    warnings.warn(f"kg: {what}: {why}; using the library's own code", FastPathWarning, 2)


def speed_up(models: list[Any]) -> None:
    """Give the thinc ``models`` of a loaded pipeline the fast matrix products and maxout."""
    if not enabled():
        return
    from kg.extract.fast.gemm import use_fast_maxout, use_numpy_gemm

    use_numpy_gemm(models)
    use_fast_maxout(models)


def ner_runner(ner: Any) -> NerRunner:
    """How to run the spaCy entity recogniser ``ner``: kg's decoder where it applies, else
    spaCy's own (:func:`spacy_ner_pipe`). Decided once, when the recogniser is loaded."""
    if enabled():
        from kg.extract.fast import ner_decode

        why = ner_decode.unsupported(ner)
        if why is None:
            return lambda docs, batch_size, key: ner_decode.pipe(ner, docs, batch_size, key)
        fall_back("the recogniser's numpy decoder", why)
    return lambda docs, batch_size, key: spacy_ner_pipe(ner, docs, batch_size, key)


def spacy_ner_pipe(
    ner: Any, docs: Iterable[Any], batch_size: int, tokvecs_key: str | None = None
) -> Iterator[Any]:
    """``ner.pipe(docs)``, spaCy's own decoding. With ``tokvecs_key``, each doc also gets the
    recogniser's token vectors in its ``user_data``, from a second run of its token-to-vector
    layer (spaCy keeps none of its own): the same layer, weights and inputs give the same rows."""
    from spacy.util import minibatch

    if tokvecs_key is None:
        yield from ner.pipe(docs, batch_size=batch_size)
        return
    for batch in minibatch(docs, size=batch_size):
        yield from _with_tokvecs(ner, list(batch), tokvecs_key)


def _with_tokvecs(ner: Any, batch: list[Any], key: str) -> list[Any]:
    import numpy as np

    done = list(ner.pipe(batch, batch_size=len(batch)))
    if not any(len(doc) for doc in done):
        return done  # (no vectors to compute, as kg's decoder leaves none)
    tokvecs = np.asarray(ner.model.layers[0].predict(done))
    start = 0
    for doc in done:
        doc.user_data[key] = tokvecs[start : start + len(doc)]
        start += len(doc)
    return done
