"""kg's extraction models multiply matrices with numpy on one BLAS thread (kg/extract/gemm.py)."""

from __future__ import annotations

import numpy as np
import pytest
from thinc.api import NumpyOps
from threadpoolctl import ThreadpoolController

from kg.extract.fast.gemm import OneThreadNumpyOps, use_fast_maxout, use_numpy_gemm


@pytest.mark.parametrize(("trans1", "trans2"), [(False, False), (True, False), (False, True)])
def test_gemm_matches_blis(trans1: bool, trans2: bool) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((288, 50) if trans1 else (50, 288)).astype(np.float32)
    y = rng.standard_normal((96, 288) if trans2 else (288, 96)).astype(np.float32)
    want = NumpyOps().gemm(x, y, trans1=trans1, trans2=trans2)
    got = OneThreadNumpyOps().gemm(x, y, trans1=trans1, trans2=trans2)
    assert got.dtype == np.float32 and got.shape == (50, 96)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    out = np.empty((50, 96), np.float32)
    assert OneThreadNumpyOps().gemm(x, y, out=out, trans1=trans1, trans2=trans2) is out
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)


def blas_threads() -> list[int]:
    return [i["num_threads"] for i in ThreadpoolController().info() if i["user_api"] == "blas"]


def test_gemm_runs_on_one_thread_and_restores_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    threads_seen = []
    real_dot = np.dot

    def spying_dot(*args: object, **kwargs: object) -> object:
        threads_seen.append(blas_threads())
        return real_dot(*args, **kwargs)

    before = blas_threads()
    ops = OneThreadNumpyOps()
    monkeypatch.setattr(ops.xp, "dot", spying_dot)
    ops.gemm(np.ones((4, 3), np.float32), np.ones((3, 2), np.float32))
    assert threads_seen and all(n == 1 for n in threads_seen[0])
    assert blas_threads() == before


def test_every_layer_of_the_pipeline_uses_it() -> None:
    from kg.extract.pipeline import load_pipeline, thinc_models

    models = list(thinc_models(load_pipeline()))
    # The tagger, the sentence splitter and the recogniser (inside kg_trained_ner).
    assert len(models) >= 3
    layers = [layer for m in models for layer in m.walk()]
    assert all(isinstance(layer.ops, OneThreadNumpyOps) for layer in layers)
    assert use_numpy_gemm(models) == 0  # nothing left to switch
    assert use_fast_maxout(models) == 0


@pytest.mark.parametrize(("n_out", "n_pieces", "n_in"), [(96, 3, 288), (64, 2, 64), (5, 4, 7)])
def test_fast_maxout_gives_thincs_output_to_the_bit(n_out: int, n_pieces: int, n_in: int) -> None:
    from thinc.api import Maxout

    rng = np.random.default_rng(n_out)
    X = rng.standard_normal((300, n_in)).astype(np.float32)
    layer = Maxout(n_out, n_in, nP=n_pieces)
    layer.initialize()
    layer.set_param("b", rng.standard_normal(layer.get_param("b").shape).astype(np.float32))
    use_numpy_gemm([layer])
    want = layer.predict(X)
    assert use_fast_maxout([layer]) == 1
    got = layer.predict(X)
    assert got.shape == want.shape == (300, n_out)
    np.testing.assert_array_equal(got, want)
    # Training keeps thinc's forward, with its backprop.
    Y, backprop = layer(X, is_train=True)
    np.testing.assert_array_equal(Y, want)
    assert backprop(Y).shape == X.shape


def test_kg_fast_0_keeps_thincs_ops_and_maxout(monkeypatch: pytest.MonkeyPatch) -> None:
    from thinc.api import NumpyOps

    from kg.extract.pipeline import load_pipeline, thinc_models

    monkeypatch.setenv("KG_FAST", "0")
    models = list(thinc_models(load_pipeline()))
    layers = [layer for m in models for layer in m.walk()]
    assert layers and not any(isinstance(layer.ops, OneThreadNumpyOps) for layer in layers)
    assert any(type(layer.ops) is NumpyOps for layer in layers)
    maxouts = [layer for layer in layers if layer.name == "maxout"]
    assert maxouts and not any(getattr(m._func, "kg_pieces_first", False) for m in maxouts)


def test_a_maxout_the_probe_finds_different_keeps_thincs_forward() -> None:
    from thinc.api import Maxout

    from kg.extract.fast import FastPathWarning

    layer = Maxout(8, 6, nP=2)
    layer.initialize()
    thincs = layer._func

    def different(model: object, X: np.ndarray, is_train: bool) -> object:
        Y, backprop = thincs(model, X, is_train)
        return Y + 1, backprop

    layer._func = different
    with pytest.warns(FastPathWarning, match="differs"):
        assert use_fast_maxout([layer]) == 0
    assert layer._func is different


def test_products_the_probe_finds_different_keep_thincs_ops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from thinc.api import Linear

    from kg.extract.fast import FastPathWarning

    layer = Linear(4, 3)
    layer.initialize()
    monkeypatch.setattr(OneThreadNumpyOps, "gemm", lambda self, x, y, **kw: np.zeros((1, 1)))
    with pytest.warns(FastPathWarning, match="products differ"):
        assert use_numpy_gemm([layer]) == 0
    assert not isinstance(layer.ops, OneThreadNumpyOps)
