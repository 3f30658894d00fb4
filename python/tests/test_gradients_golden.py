"""Gradients against TF 2.21's tape.

data/tf_gradients.json (from scripts/golden/tf_gradients.py) holds, for every
differentiable API of the guide's WeakTensor list, the package's extra ops and
the Tensor operators, the source expressions, a function of the sources and
what TF's GradientTape returned for each source: dtype, weakness, shape and
values, or None; or the class of the error raised. Here the same text runs
with `tf` = lattensor under the same harness and promotion mode; dtype,
weakness, shape and None must match exactly, values within a tolerance by
dtype.

`DELIBERATE` lists where lattensor gives a gradient TF does not (the
derivative is known in closed form; docs/gradients.md); `KNOWN_GAPS` lists
tf.experimental.numpy cases that do not match yet, each with its reason. A
listed gap that starts matching fails the test, so the list only shrinks.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_gradients.json").read_text())
ENV = {"tf": tf, "tnp": tnp, "np": np}

# the harness of scripts/golden/tf_gradients.py


def weights(shape):
    """Output gradients of a result of `shape`: -0.75, -0.25, 0.25, 0.75, 1.25, … (exact in bfloat16)."""
    n = int(np.prod(shape, dtype=np.int64))
    return np.array([((k % 5) - 2) * 0.5 + 0.25 for k in range(n)], np.float64).reshape(shape)


def run(case):
    """Per source: the gradient tensor or None; or {"error": class, "stage": …}."""
    try:
        xs = [eval(s, ENV) for s in case["srcs"]]  # noqa: S307 (the golden file's own expressions)
        f = eval(case["f"], ENV)  # noqa: S307
        with tf.GradientTape() as tape:
            for x in xs:
                if not isinstance(x, tf.Variable):
                    tape.watch(x)
            y = f(*xs)
    except Exception as ex:  # noqa: BLE001
        return {"error": error_names(ex), "stage": "forward", "message": str(ex)}
    try:
        ys = list(y) if isinstance(y, (list, tuple)) else [y]
        og = []
        for t in ys:
            if t.dtype.is_floating or t.dtype.is_complex:
                og.append(tf.cast(tf.constant(weights(tuple(t.shape)), tf.float64), t.dtype))
            else:
                og.append(None)
        if all(o is None for o in og) or all(len(t.shape) == 0 for t in ys) or any(o is None for o in og):
            og = None
        grads = tape.gradient(ys if isinstance(y, (list, tuple)) else y, xs, output_gradients=og)
    except Exception as ex:  # noqa: BLE001
        return {"error": error_names(ex), "stage": "gradient", "message": str(ex)}
    return {"grads": grads}


def error_names(ex):
    """The names of the exception's classes: lattensor's InvalidValueError is
    also a ValueError (docs/deviations.md), so TF's ValueError matches it."""
    return [c.__name__ for c in type(ex).__mro__]


# relative tolerance by dtype, scaled by the largest expected magnitude
RTOL = {"bfloat16": 2e-2, "float16": 4e-3, "float32": 2e-5, "float64": 1e-9, "complex64": 2e-5,
        "complex128": 1e-9}


def decode(values, dtype):
    def real(v):
        return float(v) if isinstance(v, str) else v

    if dtype.startswith("complex"):
        return np.array([complex(real(re), real(im)) for re, im in values])
    return np.array([real(v) for v in values], np.float64)


def mismatch(case, got):
    """Why lattensor's result differs from TF's, or None."""
    want = case["tf"]
    if "error" in want:
        if "error" not in got:
            return f"TF raised {want['error']} ({want['stage']}), lattensor did not"
        if want["error"] not in got["error"] or got["stage"] != want["stage"]:
            return f"TF raised {want['error']} ({want['stage']}), lattensor {got['error'][0]} ({got['stage']}): {got['message']}"
        return None
    if "error" in got:
        return f"lattensor raised {got['error'][0]} ({got['stage']}): {got['message']}"
    # the loosest tolerance of the case's dtypes: a float16 operand limits a float32 gradient's precision
    rtol = max([0.0] + [RTOL.get(g.dtype.name, 0.0) for g in got["grads"] if g is not None]
               + [RTOL.get(d, 0.0) for d in case_dtypes(case)])
    for i, (w, g) in enumerate(zip(want["grads"], got["grads"])):
        if w is None or g is None:
            if (w is None) != (g is None):
                return f"source {i}: TF {'None' if w is None else 'a gradient'}, lattensor {'None' if g is None else 'a gradient'}"
            continue
        have = (g.dtype.name, bool(g.weak), list(g.shape))
        if have != (w["dtype"], w["weak"], w["shape"]):
            return f"source {i}: TF (dtype, weak, shape) {(w['dtype'], w['weak'], w['shape'])}, lattensor {have}"
        exp = decode(w["values"], w["dtype"])
        act = np.asarray(g.numpy()).reshape(-1).astype(exp.dtype)
        finite = np.isfinite(exp)
        if not np.array_equal(finite, np.isfinite(act)) or not np.array_equal(exp[~finite], act[~finite],
                                                                             equal_nan=True):
            return f"source {i}: non-finite values differ: TF {exp.tolist()}, lattensor {act.tolist()}"
        scale = max([1.0] + [abs(v) for v in exp[finite]])
        if not np.allclose(act[finite], exp[finite], rtol=rtol, atol=rtol * scale):
            return f"source {i}: values: TF {exp.tolist()}, lattensor {act.tolist()}"
    return None


def case_dtypes(case):
    """The dtypes named in the case's source expressions."""
    return [d for d in RTOL if f"tf.{d}" in " ".join(case["srcs"])]


def key(c):
    return f"{c['api']} [{c['variant']}] {c['f']}" + (" (safe)" if c["mode"] == "safe" else "")


CASES = GOLDEN["cases"]


def _keys(api, variants=None, f=None):
    """The keys of the cases of `api` (those of `variants` and function `f` if given)."""
    return [key(c) for c in CASES if c["api"] == api and (variants is None or c["variant"] in variants)
            and (f is None or c["f"] == f)]


# Where TF gives no gradient (it has no rule, or no kernel for the op) but the
# derivative is known in closed form: lattensor gives it, in the source's
# dtype and weakness ("g"), or None for an integer source; docs/gradients.md.
DELIBERATE: dict[str, tuple[list, str]] = {}
for k in _keys("tf.truncatemod"):
    DELIBERATE[k] = (["g", "g"], "TF registers no gradient for TruncateMod (LookupError); lattensor gives "
                                  "∂a = g, ∂b = -g·truncatediv(a, b), as for floormod")
DELIBERATE[_keys("tf.truncatemod", ["int32,float32"])[0]] = (
    [None, "g"], "as above; the integer source gets None")
for k in _keys("tf.truncatemod", ["float16,float16", "bfloat16,weak"]):
    DELIBERATE[k] = (["g", "g"], "TF has no float16/bfloat16 TruncateMod kernel (docs/deviations.md: "
                                  "lattensor computes it); its gradient as above")
DELIBERATE[_keys("tf.math.digamma", ["float16"])[0]] = (
    ["g"], "TF's gradient, polygamma(1, x), has no float16 kernel; lattensor's trigamma computes in float64 "
           "and accumulates in float32")
for api in ("tf.math.erfinv", "tf.math.erfcinv", "tf.math.ndtri"):
    DELIBERATE[_keys(api, ["float16"])[0]] = (
        ["g"], "TF has no float16 kernel (docs/deviations.md: lattensor computes it); its gradient follows")
DELIBERATE[_keys("tf.math.rint", ["float16"])[0]] = (
    [None], "TF has no float16 kernel (docs/deviations.md: lattensor computes it); rint has no gradient")
for k in _keys("tf.math.atan2", ["bfloat16,weak", "float32,float64", "float16,float32"]):
    DELIBERATE[k] = (["g", "g"], "tf.math.atan2 refuses mixed dtypes; lattensor promotes (docs/deviations.md), "
                                  "each source gets a gradient of its own dtype")
DELIBERATE[_keys("tf.math.atan2", ["int32,float32"])[0]] = (
    [None, "g"], "as above; the integer source gets None")
for api, variant in (("tf.einsum", "float32,float64"), ("tf.concat", "float32,float64"),
                     ("tf.stack", "weak,float64")):
    DELIBERATE[_keys(api, [variant])[0]] = (
        ["g", "g"], f"{api} refuses mixed dtypes; lattensor promotes (docs/deviations.md), each source gets a "
                    "gradient of its own dtype")

for k in _keys("tf.signal.irfft", ["complex64 n=5", "complex128 n=5"]):
    DELIBERATE[k] = (["g"], "TF's irfft gradient fails (InvalidArgumentError) when fft_length crops the input; "
                            "lattensor's is the adjoint of the crop (checked against finite differences)")
for k in _keys("tf.linalg.det", ["complex64", "complex128"]):
    DELIBERATE[k] = (["g"], "TF's determinant gradient is g·det·A⁻ᴴ for complex input, without the conjugate "
                            "its own convention gives (g·conj(det)·A⁻ᴴ, as for z·z); lattensor conjugates "
                            "(docs/gradients.md)")

# Where lattensor's forward op refuses what TF computes, or raises another
# class (docs/deviations.md): the error class lattensor raises.
REFUSED: dict[str, tuple[str, str]] = {
    _keys("tf.math.erfcinv", ["int32"])[0]: (
        "InvalidArgumentError", "TF's erfcinv is a Python composition that accepts integers; lattensor's refuses "
                                "them like erfinv"),
    _keys("tf.math.reciprocal", ["int32"])[0]: (
        "InvalidArgumentError", "TF raises NotFoundError (no int32 kernel); lattensor refuses the dtype"),
}

# Where the target is an integer source itself: TF returns its output gradient
# (ones, int32) although TF otherwise gives integer sources no gradient;
# lattensor gives None for every integer source (docs/deviations.md).
INTEGER_IDENTITY = set(_keys("tf.math.round", ["int32"]) + _keys("tf.math.conj", ["int32"])
                       + _keys("tf.math.real", ["int32"]))

# tf.experimental.numpy cases that do not match TF yet: api → reason; each of
# the listed cases must still differ from TF.
KNOWN_GAP_APIS: dict[str, str] = {}
KNOWN_GAPS = {k: r for api, r in KNOWN_GAP_APIS.items() for k in _keys(api)}



@pytest.mark.parametrize("case", CASES, ids=[key(c) for c in CASES])
def test_gradient_matches_tf(case):
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=case["mode"])
    got = run(case)
    k = key(case)
    if k in DELIBERATE:
        assert "grads" in got, got
        xs = [eval(src, ENV) for src in case["srcs"]]  # noqa: S307 (the golden file's own expressions)
        for g, x, want in zip(got["grads"], xs, DELIBERATE[k][0]):
            if want is None:
                assert g is None
                continue
            weak = False if isinstance(x, tf.Variable) else x.weak
            assert g is not None and (g.dtype, g.weak, g.shape) == (x.dtype, weak, x.shape), (g, x)
            assert np.all(np.isfinite(np.asarray(g.numpy())))
        if case["api"] == "tf.linalg.det":
            a = np.asarray(xs[0].numpy(), np.complex128)  # the target is 0-d: the output gradient is 1
            want = np.conj(np.linalg.det(a)) * np.linalg.inv(a).conj().T
            np.testing.assert_allclose(np.asarray(got["grads"][0].numpy(), np.complex128), want, rtol=1e-5)
            t = case["tf"]["grads"][0]
            tf_grad = decode(t["values"], t["dtype"]).reshape(t["shape"])
            np.testing.assert_allclose(tf_grad, np.linalg.det(a) * np.linalg.inv(a).conj().T, rtol=1e-5)
        if case["api"] == "tf.truncatemod":
            a, b = (np.asarray(x.numpy(), np.float64) for x in xs)
            w = weights(np.broadcast_shapes(a.shape, b.shape))
            gb = -w * np.trunc(a / b)
            gb = gb.sum(axis=tuple(range(gb.ndim - b.ndim))) if gb.ndim > b.ndim else gb
            np.testing.assert_allclose(np.asarray(got["grads"][1].numpy(), np.float64), gb, rtol=1e-2)
        return
    if k in REFUSED:
        assert got.get("stage") == "forward" and REFUSED[k][0] in got["error"], got
        return
    if k in INTEGER_IDENTITY:
        assert got == {"grads": [None]}, got
        return
    why = mismatch(case, got)
    if k in KNOWN_GAPS:
        assert why is not None, f"known gap now matches TF; remove it from KNOWN_GAPS: {k}"
        return
    assert why is None, why


def test_case_keys_are_unique_and_gaps_are_tnp():
    keys = [key(c) for c in CASES]
    assert len(keys) == len(set(keys))
    assert all(k.startswith("tf.experimental.numpy.") for k in KNOWN_GAPS)
    assert all(_keys(api) for api in KNOWN_GAP_APIS)
