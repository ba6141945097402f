"""Matrix products for kg's spaCy models through numpy's BLAS, on one thread, instead of blis.

thinc's ``NumpyOps`` multiplies matrices with blis. On these machines numpy's bundled OpenBLAS
does the same float32 product in two thirds of blis's CPU time (16k x 288 by 288 x 288: 34 ms
with blis, 22 ms with numpy). The token-to-vector layers of the tagger and the recogniser are
such products, so this saves about 7% of all extraction time. The ICLR 2026 graph is
byte-identical either way.

One thread: OpenBLAS would use every core, which doubled the CPU time of an extraction for no
gain in wall time (measured on 400 abstracts, 2 cores), and starved the other worker.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from thinc.api import NumpyOps


class OneThreadNumpyOps(NumpyOps):
    """thinc's ``NumpyOps`` whose ``gemm`` is ``numpy.dot`` on one BLAS thread."""

    def __init__(self) -> None:
        super().__init__(use_blis=False)
        self._blas: Any = None

    def gemm(
        self, x: Any, y: Any, out: Any = None, trans1: bool = False, trans2: bool = False
    ) -> Any:
        if self._blas is None:  # made on first use: it inspects the loaded libraries (~1 ms)
            from threadpoolctl import ThreadpoolController

            self._blas = ThreadpoolController()
        # The limit is set and restored around each product (8 us; a batch makes a few dozen).
        with self._blas.limit(limits=1, user_api="blas"):
            return super().gemm(x, y, out=out, trans1=trans1, trans2=trans2)


def use_numpy_gemm(models: Iterable[Any]) -> int:
    """Give every layer of each thinc model in ``models`` :class:`OneThreadNumpyOps` (for
    inference: kg's training keeps thinc's defaults). Returns the number of layers changed."""
    ops = OneThreadNumpyOps()
    n = 0
    for model in models:
        for layer in model.walk():
            if type(layer.ops) is NumpyOps:
                layer.ops = ops
                n += 1
    return n
