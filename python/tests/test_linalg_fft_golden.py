"""lattensor.array_api's linalg and fft extensions against NumPy 2.4.

data/numpy_linalg_fft_golden.json (from scripts/golden/numpy_linalg_fft.py)
holds each case's inputs, keyword arguments and NumPy's outputs; every case
must give the same dtype and shape exactly and the same values within a
tolerance set by the dtype's precision (relative to the largest output, as
factorisations in float32 carry a condition-number-sized error). Factors that
are not unique (Q, eigenvectors, U, Vh) are checked by their laws instead.
"""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest

import lattensor as tf
import lattensor.array_api as xp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "numpy_linalg_fft_golden.json").read_text())
RTOL = {"float16": 2e-2, "float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10, "int64": 0}


def decode(e):
    v = e["values"]
    if e["dtype"].startswith("complex"):
        v = [complex(r, i) for r, i in v]
    return np.array(v, dtype=e["dtype"]).reshape(e["shape"])


def case_id(c):
    kw = ",".join(f"{k}={v}" for k, v in c["kwargs"].items())
    dt = c["inputs"][0]["dtype"] if c["inputs"] else ""
    return f"{c['fn']}[{dt}]({kw})"


def run_half(c):
    """float16 is outside the standard's dtypes: its cases go through tf.linalg."""
    x = tf.constant(decode(c["inputs"][0]))
    if c["fn"] == "svdvals":
        return [tf.linalg.svd(x, compute_uv=False)]
    return [getattr(tf.linalg, c["fn"])(x)]


def run(c):
    if c["inputs"] and c["inputs"][0]["dtype"] == "float16":
        return run_half(c)
    mod = getattr(xp, c["module"])
    args = [xp.asarray(decode(e)) for e in c["inputs"]]
    kw = dict(c["kwargs"])
    if kw.get("ord") in ("inf", "-inf"):
        kw["ord"] = math.inf if kw["ord"] == "inf" else -math.inf
    fn = c["fn"]
    if fn in ("fftfreq", "rfftfreq"):
        return [getattr(mod, fn)(kw.pop("n"), **kw)]
    if fn == "matrix_power":
        return [mod.matrix_power(args[0], kw["n"])]
    out = getattr(mod, fn)(*args, **kw)
    if fn == "qr":
        return [xp.abs(out.R)]
    if fn == "eigh":
        return [out.eigenvalues]
    if fn == "svd":
        return [out.S]
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("c", GOLDEN["cases"], ids=case_id)
def test_matches_numpy(c):
    got = run(c)
    assert len(got) == len(c["outputs"])
    for g, want in zip(got, c["outputs"]):
        assert g.dtype.name == want["dtype"], (g.dtype.name, want["dtype"])
        assert list(g.shape) == want["shape"]
        w = decode(want)
        a = np.asarray(g).astype(w.dtype)
        tol = RTOL[want["dtype"]]
        scale = max(1.0, float(np.max(np.abs(w[np.isfinite(w)]), initial=0.0)))
        finite = np.isfinite(w)
        assert np.array_equal(np.isfinite(a), finite)
        assert np.max(np.abs(a[finite] - w[finite]), initial=0.0) <= tol * scale


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128"])
def test_factor_laws(dt):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 5, 3)) + (1j * rng.standard_normal((2, 5, 3)) if dt.startswith("complex") else 0)
    x = xp.asarray(a.astype(dt))
    tol = 1e-4 if dt in ("float32", "complex64") else 1e-10
    q, r = xp.linalg.qr(x)
    assert np.allclose(np.asarray(q) @ np.asarray(r), a, atol=tol * 10)
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    assert (u.dtype, s.dtype, vh.dtype) == (x.dtype, xp.float32 if tol > 1e-9 else xp.float64, x.dtype)
    assert np.allclose((np.asarray(u) * np.asarray(s)[..., None, :]) @ np.asarray(vh), a, atol=tol * 10)
    h = np.asarray(a) @ np.conj(np.swapaxes(a, -1, -2)) + np.eye(5)
    w, v = xp.linalg.eigh(xp.asarray(h.astype(dt)))
    assert np.allclose(np.asarray(v) @ (np.asarray(w)[..., None] * np.conj(np.swapaxes(np.asarray(v), -1, -2))), h,
                       atol=tol * 100)


def test_errors_name_the_function():
    with pytest.raises(TypeError, match="linalg|det"):
        xp.linalg.det(xp.asarray([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="square"):
        xp.linalg.inv(xp.ones((2, 3)))
    with pytest.raises(Exception, match="not invertible"):
        xp.linalg.inv(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(Exception, match="positive-definite"):
        xp.linalg.cholesky(xp.asarray([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="mode"):
        xp.linalg.qr(xp.ones((2, 2)), mode="r")
    with pytest.raises(TypeError, match="complex"):
        xp.fft.fft(xp.ones(4))
    with pytest.raises(ValueError, match="n"):
        xp.fft.fft(xp.ones(4, dtype=xp.complex64), n=0)
    with pytest.raises(ValueError, match="norm"):
        xp.fft.fft(xp.ones(4, dtype=xp.complex64), norm="unitary")


def test_namespaces():
    assert xp.linalg.matmul is xp.matmul and xp.linalg.tensordot is xp.tensordot
    for name in xp.linalg.__all__:
        assert callable(getattr(xp.linalg, name)), name
    for name in xp.fft.__all__:
        assert callable(getattr(xp.fft, name)), name


def test_tf_names_keep_tf_conventions():
    a = tf.constant([[3.0, 1.0], [0.0, -2.0]], tf.float64)
    s, u, v = tf.linalg.svd(a)  # TF's order, and v rather than vᴴ
    assert np.allclose(np.asarray(u) @ np.diag(np.asarray(s)) @ np.asarray(v).conj().T, np.asarray(a))
    assert tf.linalg.svd(a, compute_uv=False).shape == (2,)
    q, r = tf.linalg.qr(tf.ones((4, 2)), full_matrices=True)
    assert (q.shape, r.shape) == ((4, 4), (4, 2))
    sign, logabs = tf.linalg.slogdet(a)
    assert float(sign) == -1.0 and abs(float(logabs) - np.log(6.0)) < 1e-12
    assert np.allclose(np.asarray(tf.linalg.inv(a, adjoint=True)), np.linalg.inv(np.asarray(a).T))
    x = np.arange(8).astype(np.complex64)
    assert np.allclose(np.asarray(tf.signal.fft(tf.constant(x))), np.fft.fft(x), atol=1e-4)
    assert tf.signal.rfft(tf.constant([1.0, 2.0, 3.0, 4.0]), fft_length=[6]).shape == (4,)
    with pytest.raises(TypeError, match="complex"):
        tf.signal.fft(tf.constant([1.0, 2.0]))
