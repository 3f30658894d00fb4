"""Differential tests: lattensor against NumPy (and JAX when installed).

Inputs are strong tensors of one dtype, where NumPy, JAX and TF agree on the
result dtype, so values can be compared directly.
"""

from __future__ import annotations

import numpy as np
import pytest

import lattensor as lt

RNG = np.random.default_rng(1234)
FLOATS = ["float32", "float64"]

UNARY = {
    "abs": np.abs, "negative": np.negative, "square": np.square, "exp": np.exp, "expm1": np.expm1,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "atan": np.arctan, "floor": np.floor, "ceil": np.ceil, "rint": np.rint,
    "round": np.round, "sign": np.sign,
}
POSITIVE = {"sqrt": np.sqrt, "log": np.log, "log1p": np.log1p, "rsqrt": lambda x: 1 / np.sqrt(x),
            "reciprocal": np.reciprocal, "acosh": lambda x: np.arccosh(1 + x)}
BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
          "maximum": np.maximum, "minimum": np.minimum, "floordiv": np.floor_divide, "floormod": np.mod,
          "pow": np.power}
REDUCE = {"reduce_sum": np.sum, "reduce_mean": np.mean, "reduce_max": np.max, "reduce_min": np.min,
          "reduce_prod": np.prod, "reduce_variance": np.var, "reduce_std": np.std}


def close(got, want, dtype):
    tol = {"float32": 2e-6, "float64": 1e-13}[dtype]
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, dtype):
    x = RNG.uniform(-3, 3, size=(5, 7)).astype(dtype)
    got = getattr(lt.math, name)(x)
    assert got.dtype == dtype
    close(got.numpy(), UNARY[name](x), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(POSITIVE))
def test_unary_positive_domain(name, dtype):
    x = RNG.uniform(0.1, 5, size=(33,)).astype(dtype)
    f = getattr(lt.math, name)
    arg = x if name != "acosh" else (1 + x)
    close(f(arg).numpy(), POSITIVE[name](x), dtype)


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "int64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_with_broadcasting(name, dtype):
    if dtype.startswith("int"):
        x = RNG.integers(-20, 20, size=(4, 1, 3)).astype(dtype)
        y = RNG.integers(1, 5, size=(5, 1)).astype(dtype)
        if name == "divide":
            pytest.skip("integer true division changes dtype (covered in test_tensor)")
    else:
        x = RNG.uniform(-3, 3, size=(4, 1, 3)).astype(dtype)
        y = RNG.uniform(0.5, 2, size=(5, 1)).astype(dtype)
        if name == "pow":
            x = np.abs(x)
    got = getattr(lt.math, name)(x, y)
    want = BINARY[name](x, y)
    assert got.shape == want.shape and got.dtype == want.dtype
    if dtype.startswith("int"):
        assert np.array_equal(got.numpy(), want)
    else:
        close(got.numpy(), want, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(REDUCE))
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True), ((0, 2), False), (-1, True)])
def test_reductions(name, dtype, axis, keepdims):
    x = RNG.uniform(0.5, 1.5, size=(3, 4, 5)).astype(dtype)
    got = getattr(lt.math, name)(x, axis=axis, keepdims=keepdims)
    want = REDUCE[name](x.astype(np.float64), axis=axis, keepdims=keepdims)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
def test_matmul(dtype):
    a = (RNG.integers(-5, 5, size=(2, 3, 4)) + (1j if dtype == "complex64" else 0)).astype(dtype)
    b = RNG.integers(-5, 5, size=(4, 6)).astype(dtype)
    got = lt.linalg.matmul(a, b)
    np.testing.assert_allclose(got.numpy(), a @ b, rtol=1e-5)
    np.testing.assert_allclose((lt.constant(a) @ b).numpy(), a @ b, rtol=1e-5)


@pytest.mark.parametrize(
    "eq,shapes",
    [("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ii->i", [(4, 4)]),
     ("ij->", [(3, 4)]), ("i,j->ij", [(3,), (4,)]), ("ijk,kl,lm->im", [(2, 3, 4), (4, 5), (5, 2)]),
     ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)])],
)
def test_einsum(eq, shapes):
    ops = [RNG.uniform(-1, 1, size=s) for s in shapes]
    np.testing.assert_allclose(lt.einsum(eq, *ops).numpy(), np.einsum(eq, *ops), rtol=1e-12)
    np.testing.assert_allclose(lt.numpy.einsum(eq, *ops).numpy(), np.einsum(eq, *ops), rtol=1e-12)


@pytest.mark.parametrize("src,dst", [("float32", "int32"), ("int32", "uint8"), ("uint8", "int16"),
                                     ("float64", "complex128"), ("complex64", "float32")])
def test_bitcast_matches_numpy_view(src, dst):
    ratio = np.dtype(dst).itemsize // np.dtype(src).itemsize
    # TF's rule: widening consumes a last axis of exactly the size ratio
    x = RNG.uniform(-100, 100, size=(3, ratio if ratio > 1 else 4)).astype(src)
    got = lt.bitcast(x, dst).numpy()
    want = x.view(dst)
    if want.shape != got.shape:  # TF's rule: a wider target drops, a narrower one adds, the last axis
        want = want.reshape(got.shape)
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float64"])
def test_cast_matches_numpy_in_range(dtype):
    x = RNG.uniform(-100, 100, size=50)
    if dtype.startswith("u"):
        x = np.abs(x)
    assert np.array_equal(lt.cast(x, dtype).numpy(), x.astype(dtype))


def test_against_jax_where_installed():
    jnp = pytest.importorskip("jax.numpy")
    x = RNG.uniform(-1, 1, size=(4, 4)).astype(np.float32)
    for name, jf in [("exp", jnp.exp), ("tanh", jnp.tanh), ("sin", jnp.sin)]:
        np.testing.assert_allclose(getattr(lt.math, name)(x).numpy(), np.asarray(jf(x)), rtol=1e-5, atol=1e-6)
    # weak-type promotion agrees with JAX's lattice: int8 tensor + Python int stays int8
    assert (lt.constant(np.int8(3)) + 1).dtype == jnp.result_type(jnp.int8(3), 1)


@pytest.mark.parametrize("dtype", FLOATS + ["int32", "uint8"])
@pytest.mark.parametrize("name", ["arctan2", "hypot", "heaviside"])
def test_float_binary_functions_match_numpy(name, dtype):
    tnp = lt.experimental.numpy
    if dtype in FLOATS:
        x = RNG.uniform(-3, 3, size=(4, 1, 3)).astype(dtype)
        y = RNG.uniform(-2, 2, size=(5, 1)).astype(dtype)
        x[0, 0, :] = [0.0, -0.0, np.inf]
        y[:2, 0] = [-0.0, np.nan]
    else:
        x = RNG.integers(0, 20, size=(4, 1, 3)).astype(dtype)
        y = RNG.integers(0, 5, size=(5, 1)).astype(dtype)
    got = getattr(tnp, name)(lt.constant(x), lt.constant(y))
    # tnp computes integers in float32 (NumPy: float64); floats keep their dtype
    ref = np.float32 if dtype not in FLOATS else x.dtype
    want = getattr(np, name)(x.astype(ref), y.astype(ref))
    assert got.shape == want.shape and got.dtype == want.dtype
    if ref == np.float32:
        # float32 results are NumPy's float64 values rounded once (NumPy's own float32
        # arctan2 is up to 2 ulp off on these inputs)
        exact = getattr(np, name)(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
        assert np.array_equal(got.numpy(), exact, equal_nan=True)
    np.testing.assert_array_max_ulp(got.numpy(), want, maxulp=2)
    assert np.array_equal(np.signbit(got.numpy()), np.signbit(want))
