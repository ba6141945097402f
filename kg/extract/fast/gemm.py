"""Faster inference for kg's spaCy models: matrix products through numpy's BLAS on one thread
instead of blis, and a maxout that needs no arg-max.

thinc's ``NumpyOps`` multiplies matrices with blis; numpy's bundled OpenBLAS does the same
float32 products (the token-to-vector layers of the tagger and the recogniser) in less CPU time
on the machines kg is measured on (``docs/benchmarks.md``).

One thread: OpenBLAS would use every core, which costs CPU time for no gain in wall time while
kg's other processes keep the cores busy, and starves the other worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from thinc.api import NumpyOps


class OneThreadNumpyOps(NumpyOps):
    """thinc's ``NumpyOps`` whose ``gemm`` is ``numpy.dot`` on one BLAS thread."""

    def __init__(self) -> None:
        super().__init__(use_blis=False)
        self._blas: Any = None

    def gemm(
        self, x: Any, y: Any, out: Any = None, trans1: bool = False, trans2: bool = False
    ) -> Any:
        if self._blas is None:  # made on first use: it inspects the loaded libraries
            from threadpoolctl import ThreadpoolController

            self._blas = ThreadpoolController()
        # The limit is set and restored around each product: cheap next to the product.
        with self._blas.limit(limits=1, user_api="blas"):
            return super().gemm(x, y, out=out, trans1=trans1, trans2=trans2)


def use_numpy_gemm(models: Iterable[Any]) -> int:
    """Give every layer of each thinc model in ``models`` :class:`OneThreadNumpyOps` (for
    inference: kg's training keeps thinc's defaults), unless a probe finds that its products
    are not thinc's (a thinc whose ``NumpyOps.gemm`` changed: a warning, and thinc's ops stay).
    Returns the number of layers changed."""
    from kg.extract.fast import fall_back

    ops = OneThreadNumpyOps()
    why = _probe_gemm(ops)
    if why:
        fall_back("numpy's matrix products", why)
        return 0
    n = 0
    for model in models:
        for layer in model.walk():
            if type(layer.ops) is NumpyOps:
                layer.ops = ops
                n += 1
    return n


def _probe_gemm(ops: OneThreadNumpyOps) -> str | None:
    """Why ``ops`` cannot stand in for thinc's ``NumpyOps`` (None when it can): a few products,
    plain and transposed, must agree with thinc's to float32 rounding."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 24)).astype(np.float32)
    y = rng.standard_normal((24, 8)).astype(np.float32)
    thincs = NumpyOps()
    try:
        pairs = [
            (ops.gemm(x, y), thincs.gemm(x, y)),
            (ops.gemm(x, y.T.copy(), trans2=True), thincs.gemm(x, y.T.copy(), trans2=True)),
            (ops.gemm(x.T.copy(), y, trans1=True), thincs.gemm(x.T.copy(), y, trans1=True)),
        ]
    except Exception as exc:  # any change of thinc's Ops interface
        return f"thinc's NumpyOps.gemm is not as expected ({type(exc).__name__}: {exc})"
    if not all(a.shape == b.shape and np.allclose(a, b, rtol=1e-4, atol=1e-4) for a, b in pairs):
        return "its products differ from thinc's"
    return None


def _pieces_first_forward(original: Callable[..., Any]) -> Callable[..., Any]:
    """A forward function for thinc's ``Maxout`` layer that gives the same output at inference.

    thinc computes the (tokens, nO, nP) pre-activations, then the max and its arg-max (only
    backprop needs that) in a loop over pieces, a noticeable share of extraction time
    (measured: ``docs/benchmarks.md``). With the weight rows ordered pieces-first, the
    pre-activations of each piece are a contiguous (tokens, nO) block, and the output is their
    elementwise maximum. Each pre-activation is the same dot product as before, so the output
    is the same, to the bit (the unit test checks it).
    Training (``is_train``) keeps thinc's forward.
    """

    def forward(model: Any, X: Any, is_train: bool) -> Any:
        if is_train:
            return original(model, X, is_train)
        n_out, n_pieces, n_in = model.get_dim("nO"), model.get_dim("nP"), model.get_dim("nI")
        # Reordered on every call (cheap next to the product): a cache could go stale if the
        # weights were changed in place.
        W = model.get_param("W").reshape(n_out, n_pieces, n_in).transpose(1, 0, 2)
        b = model.get_param("b").reshape(n_out, n_pieces).T
        Y = model.ops.gemm(X, np.ascontiguousarray(W).reshape(n_pieces * n_out, n_in), trans2=True)
        Y += b.reshape(n_pieces * n_out)
        return np.ascontiguousarray(max_of_pieces(Y, n_out, n_pieces)), _no_backprop

    forward.kg_pieces_first = True  # type: ignore[attr-defined]
    return forward


def max_of_pieces(Y: np.ndarray, width: int, n_pieces: int) -> np.ndarray:
    """The maxout of pre-activations ordered pieces-first: the elementwise maximum of the
    ``n_pieces`` contiguous column blocks of ``width`` in each row of ``Y``.

    >>> max_of_pieces(np.array([[1.0, 5.0, 3.0, 2.0]]), 2, 2)
    array([[3., 5.]])
    """
    best = Y[:, :width]
    for piece in range(1, n_pieces):
        best = np.maximum(best, Y[:, piece * width : (piece + 1) * width])
    return best


def _no_backprop(dY: Any) -> Any:
    raise NotImplementedError("kg's inference maxout has no backprop (use is_train=True)")


def use_fast_maxout(models: Iterable[Any]) -> int:
    """Give every ``maxout`` layer of each thinc model in ``models`` the pieces-first forward
    (for inference), where a probe shows it gives thinc's output; returns the number of layers
    changed. The forward function is thinc's private ``Model._func``: a layer without it, or
    whose output the probe finds different, keeps thinc's (with a warning)."""
    from kg.extract.fast import fall_back

    n = 0
    for model in models:
        for layer in model.walk():
            if layer.name != "maxout":
                continue
            original = getattr(layer, "_func", None)
            if original is None or getattr(original, "kg_pieces_first", False):
                continue
            fast = _pieces_first_forward(original)
            why = _probe(layer, original, fast)
            if why:
                fall_back("the fast maxout", why)
                continue
            layer._func = fast
            n += 1
    return n


def _probe(layer: Any, original: Callable[..., Any], fast: Callable[..., Any]) -> str | None:
    """Why ``fast`` cannot stand in for ``original`` as the layer's forward, or None: both run
    on a few random rows and must give the same numbers, to the bit."""
    try:
        n_in = layer.get_dim("nI")
        probe = np.random.default_rng(0).standard_normal((8, n_in)).astype(np.float32)
        expected = np.asarray(original(layer, probe, False)[0])
        got = np.asarray(fast(layer, probe, False)[0])
    except Exception as exc:  # any internal that is not as expected
        return f"thinc's Maxout is not as expected ({type(exc).__name__}: {exc})"
    if expected.shape != got.shape or not np.array_equal(expected, got):
        return "its output differs from thinc's"
    return None
