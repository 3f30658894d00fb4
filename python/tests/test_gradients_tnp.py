"""Gradients of every differentiable ``tnp`` function against central differences.

Each case computes ``L = Σ_k Σ w_k · f(x)_k`` for fixed random weights ``w_k`` (one per
output) under a tape, and compares the tape's gradient of every input with central
differences of the same ``L`` in float64. The same function is then run on weak float32
inputs (Python lists of floats): the gradient must have the source's dtype and weakness,
float32 and weak, as in TF, and agree with the float64 one to float32 accuracy.
Functions TF does not differentiate (rounding, argsort, integer results) give ``None``.
"""

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp


def _rng(name):
    return np.random.default_rng([ord(c) for c in name])


def rnd(name, *shape, lo=-1.0, hi=1.0):
    return _rng(name + str(shape) + str(lo)).uniform(lo, hi, shape)


def away(x, gap=0.3):
    """``x`` pushed away from 0 by ``gap`` (for functions with a kink or pole at 0)."""
    return np.where(x < 0, x - gap, x + gap)


def _outputs(y):
    if isinstance(y, (list, tuple)):
        return [t for part in y for t in _outputs(part)]
    return [y]


def _loss(f, xs, ws):
    total = None
    for y, w in zip(_outputs(f(*xs)), ws):
        term = tf.reduce_sum(y * tf.cast(w, y.dtype))
        total = term if total is None else total + term
    return total


def _weights(name, f, arrays):
    ys = _outputs(f(*[tf.constant(a) for a in arrays]))
    return [tf.constant(_rng(name + "w" + str(i)).uniform(-1.0, 1.0, tuple(y.shape))) for i, y in enumerate(ys)]


def _tape_grads(f, xs, ws):
    with tf.GradientTape() as g:
        g.watch(xs)
        loss = _loss(f, xs, ws)
    return g.gradient(loss, xs)


def check(name, f, arrays, f32=True):
    arrays = [np.asarray(a, np.float64) for a in arrays]
    ws = _weights(name, f, arrays)
    xs = [tf.constant(a) for a in arrays]
    grads = _tape_grads(f, xs, ws)
    for i, (a, g) in enumerate(zip(arrays, grads)):
        assert g is not None, f"{name}: input {i} has no gradient"
        assert g.dtype == tf.float64 and tuple(g.shape) == a.shape, (name, i, g.dtype, g.shape)
        got = np.asarray(g.numpy()).reshape(-1)
        fd = np.empty(a.size)
        for k in range(a.size):
            h = 1e-6 * max(1.0, abs(a.flat[k]))
            vals = []
            for d in (h, -h):
                moved = [b.copy() for b in arrays]
                moved[i].flat[k] += d
                vals.append(float(_loss(f, [tf.constant(b) for b in moved], ws).numpy()))
            fd[k] = (vals[0] - vals[1]) / (2 * h)
        np.testing.assert_allclose(got, fd, rtol=1e-5, atol=1e-6, err_msg=f"{name}: input {i}")
    if f32:
        weak = [tf.constant(a.tolist()) for a in arrays]
        assert all(x.dtype == tf.float32 and x.weak for x in weak)
        g32 = _tape_grads(f, weak, ws)
        for i, (g, g64) in enumerate(zip(g32, grads)):
            assert g is not None, f"{name}: weak float32 input {i} has no gradient"
            assert (g.dtype, g.weak) == (tf.float32, True), (name, i, g.dtype, g.weak)
            np.testing.assert_allclose(g.numpy(), g64.numpy(), rtol=2e-3, atol=2e-3, err_msg=f"{name} f32: input {i}")


F64 = tnp.float64
I32 = lambda v: tf.constant(np.asarray(v, np.int32))  # noqa: E731

m34 = ("m34", 3, 4)
v5 = ("v5", 5)


def R(spec, lo=-1.0, hi=1.0):  # noqa: N802
    return rnd(spec[0], *spec[1:], lo=lo, hi=hi)


POS = dict(lo=0.5, hi=2.0)

# (name, function of the differentiable inputs, inputs)
CASES = [
    # element-wise
    *[(n, getattr(tnp, n), [R(m34)]) for n in (
        "negative", "positive", "square", "exp", "expm1", "sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh",
        "arcsinh", "exp2", "deg2rad", "rad2deg", "conj", "conjugate", "real", "sinc")],
    *[(n, getattr(tnp, n), [R(m34, **POS)]) for n in ("sqrt", "log", "log2", "log10", "log1p", "reciprocal")],
    *[(n, getattr(tnp, n), [away(R(m34))]) for n in ("abs", "absolute", "fabs", "cbrt")],
    ("arcsin", tnp.arcsin, [R(m34, -0.9, 0.9)]),
    ("arccos", tnp.arccos, [R(m34, -0.9, 0.9)]),
    ("arctanh", tnp.arctanh, [R(m34, -0.9, 0.9)]),
    ("arccosh", tnp.arccosh, [R(m34, 1.5, 3.0)]),
    ("sinc near 0", tnp.sinc, [np.array([0.0, 1e-3, -0.5, 1.0, 2.5])]),
    # binary, broadcasting
    *[(n, getattr(tnp, n), [R(m34), R(("b4", 4), **POS)]) for n in (
        "add", "subtract", "multiply", "divide", "true_divide", "arctan2", "hypot", "logaddexp", "logaddexp2")],
    ("maximum", tnp.maximum, [R(m34), R(("b4", 4))]),
    ("minimum", tnp.minimum, [R(m34), R(("b4", 4))]),
    ("power", tnp.power, [R(m34, **POS), R(("b4", 4))]),
    ("float_power", tnp.float_power, [R(m34, **POS), R(("b4", 4))]),
    ("mod", tnp.mod, [R(m34, 0.1, 0.9), R(("b4", 4), 1.5, 2.0)]),
    ("remainder", tnp.remainder, [R(m34, 2.1, 2.9), R(("b4", 4), 1.5, 2.0)]),
    ("heaviside x2", lambda x2: tnp.heaviside(tnp.array([-1.0, 0.0, 2.0, 0.0]), x2), [R(("b4", 4))]),
    ("clip", lambda a: tnp.clip(a, -0.5, 0.5), [R(m34)]),
    ("clip tensor bounds", tnp.clip, [R(m34), R(("lo", 4), -0.9, -0.1), R(("hi", 3, 1), 0.1, 0.9)]),
    ("where", lambda x, y: tnp.where(x > 0, x, y), [R(m34), R(("b4", 4))]),
    ("select", lambda x, y: tnp.select([x > 0.3, x < -0.3], [x, y], 0.5), [R(m34), R(("b4", 4))]),
    ("polyval", tnp.polyval, [R(("p", 4)), R(m34)]),
    # products
    ("matmul", tnp.matmul, [R(m34), R(("b", 4, 2))]),
    ("dot 2-D", tnp.dot, [R(m34), R(("b", 4, 2))]),
    ("dot 3-D", tnp.dot, [R(("a", 2, 3, 4)), R(("b", 5, 4, 2))]),
    ("dot scalar", tnp.dot, [R(("s",)), R(m34)]),
    ("inner", tnp.inner, [R(m34), R(("b", 2, 4))]),
    ("outer", tnp.outer, [R(m34), R(("b", 3))]),
    ("vdot", tnp.vdot, [R(m34), R(("b", 12))]),
    ("tensordot", lambda a, b: tnp.tensordot(a, b, axes=([1, 0], [0, 2])), [R(m34), R(("b", 4, 2, 3))]),
    ("tensordot int", lambda a, b: tnp.tensordot(a, b, 1), [R(m34), R(("b", 4, 2))]),
    ("kron", tnp.kron, [R(("a", 2, 3)), R(("b", 2, 2))]),
    ("cross 3", tnp.cross, [R(("a", 4, 3)), R(("b", 3))]),
    ("cross 2x3", tnp.cross, [R(("a", 4, 2)), R(("b", 4, 3))]),
    ("cross axis", lambda a, b: tnp.cross(a, b, axis=0), [R(("a", 3, 2)), R(("b", 3, 2))]),
    ("einsum", lambda a, b: tnp.einsum("ij,jk->ik", a, b), [R(m34), R(("b", 4, 2))]),
    # reductions
    ("sum", lambda a: tnp.sum(a, axis=1), [R(m34)]),
    ("sum all keepdims", lambda a: tnp.sum(a, keepdims=True), [R(m34)]),
    ("prod", lambda a: tnp.prod(a, axis=0), [R(m34)]),
    ("prod all", tnp.prod, [R(("p6", 6), **POS)]),
    ("mean", lambda a: tnp.mean(a, axis=-1), [R(m34)]),
    ("amax", lambda a: tnp.amax(a, axis=0), [R(m34)]),
    ("amin", lambda a: tnp.amin(a, axis=1), [R(m34)]),
    ("max", tnp.max, [R(m34)]),
    ("min", lambda a: tnp.min(a, axis=1, keepdims=True), [R(m34)]),
    ("ptp", lambda a: tnp.ptp(a, axis=1), [R(m34)]),
    ("std", lambda a: tnp.std(a, axis=0), [R(m34)]),
    ("std ddof", lambda a: tnp.std(a, axis=1, ddof=1), [R(m34)]),
    ("var", tnp.var, [R(m34)]),
    ("var ddof", lambda a: tnp.var(a, axis=0, ddof=1), [R(m34)]),
    ("var keepdims", lambda a: tnp.var(a, axis=1, keepdims=True), [R(m34)]),
    ("nansum", lambda a: tnp.nansum(a, axis=0), [R(m34)]),
    ("nanprod", lambda a: tnp.nanprod(a, axis=1), [R(m34)]),
    ("nanmean", lambda a: tnp.nanmean(a, axis=0), [R(m34)]),
    ("nanmean all", tnp.nanmean, [R(m34)]),
    ("average", tnp.average, [R(m34)]),
    ("average axis", lambda a: tnp.average(a, axis=1), [R(m34)]),
    ("average weights", lambda a, w: tnp.average(a, axis=1, weights=w), [R(m34), R(("w", 4), **POS)]),
    ("average full weights", lambda a, w: tnp.average(a, weights=w), [R(m34), R(m34, **POS)]),
    ("average returned", lambda a, w: tnp.average(a, axis=0, weights=w, returned=True),
     [R(m34), R(("w", 3), **POS)]),
    ("cumsum", lambda a: tnp.cumsum(a, axis=1), [R(m34)]),
    ("cumsum flat", tnp.cumsum, [R(m34)]),
    ("cumsum axis 0", lambda a: tnp.cumsum(a, axis=0), [R(("c3", 3, 2, 2))]),
    ("cumprod", lambda a: tnp.cumprod(a, axis=1), [R(m34)]),
    ("cumprod flat", tnp.cumprod, [away(R(("c6", 6)))]),
    ("cumprod with a zero", lambda a: tnp.cumprod(a, axis=0), [np.array([1.5, 0.0, -2.0, 0.5, 0.0, 3.0])]),
    ("trace", tnp.trace, [R(m34)]),
    ("trace offset", lambda a: tnp.trace(a, offset=1, axis1=1, axis2=2), [R(("t", 2, 3, 4))]),
    # shapes and views
    ("flip", lambda a: tnp.flip(a, 1), [R(m34)]),
    ("flip all", tnp.flip, [R(m34)]),
    ("fliplr", tnp.fliplr, [R(m34)]),
    ("flipud", tnp.flipud, [R(m34)]),
    ("rot90", tnp.rot90, [R(m34)]),
    ("rot90 k=2", lambda a: tnp.rot90(a, 2), [R(m34)]),
    ("rot90 k=3 axes", lambda a: tnp.rot90(a, 3, axes=(2, 0)), [R(("r", 2, 3, 2))]),
    ("swapaxes", lambda a: tnp.swapaxes(a, 0, 2), [R(("s", 2, 3, 2))]),
    ("moveaxis", lambda a: tnp.moveaxis(a, 0, -1), [R(("s", 2, 3, 2))]),
    ("transpose", tnp.transpose, [R(("s", 2, 3, 2))]),
    ("reshape", lambda a: tnp.reshape(a, (2, 6)), [R(m34)]),
    ("reshape F", lambda a: tnp.reshape(a, (2, 6), order="F"), [R(m34)]),
    ("expand_dims", lambda a: tnp.expand_dims(a, 1), [R(m34)]),
    ("squeeze", tnp.squeeze, [R(("q", 1, 3, 1))]),
    ("ravel", tnp.ravel, [R(m34)]),
    ("flatten", tnp.flatten, [R(m34)]),
    ("copy", tnp.copy, [R(m34)]),
    ("array", tnp.array, [R(m34)]),
    ("asarray", tnp.asarray, [R(m34)]),
    ("asanyarray", tnp.asanyarray, [R(m34)]),
    ("ascontiguousarray", lambda a: tnp.ascontiguousarray(tnp.transpose(a)), [R(m34)]),
    ("array ndmin", lambda a: tnp.array(a, ndmin=3), [R(m34)]),
    ("diagonal", tnp.diagonal, [R(m34)]),
    ("diagonal offset axes", lambda a: tnp.diagonal(a, -1, 2, 0), [R(("d", 3, 2, 4))]),
    ("diag of a vector", lambda v: tnp.diag(v, 1), [R(v5)]),
    ("diag of a matrix", lambda a: tnp.diag(a, -1), [R(m34)]),
    ("diagflat", lambda v: tnp.diagflat(v, -1), [R(("df", 2, 2))]),
    ("triu", tnp.triu, [R(m34)]),
    ("triu batched", lambda a: tnp.triu(a, -1), [R(("t", 2, 3, 3))]),
    ("tril", lambda a: tnp.tril(a, 1), [R(m34)]),
    ("vander", tnp.vander, [R(("v", 4))]),
    ("vander increasing N", lambda x: tnp.vander(x, 5, True), [R(("v", 3))]),
    ("diff", tnp.diff, [R(m34)]),
    ("diff n=2 axis 0", lambda a: tnp.diff(a, 2, 0), [R(("d", 4, 3))]),
    ("repeat", lambda a: tnp.repeat(a, 2), [R(m34)]),
    ("repeat counts", lambda a: tnp.repeat(a, [1, 0, 3], axis=0), [R(m34)]),
    ("take", lambda a: tnp.take(a, [[0, 5], [11, 5]]), [R(m34)]),
    ("take axis", lambda a: tnp.take(a, [3, 0, 3], axis=1), [R(m34)]),
    ("take clipped", lambda a: tnp.take(a, [-1, 7], axis=0), [R(m34)]),
    ("take_along_axis", lambda a: tnp.take_along_axis(a, I32([[0, 3], [1, 1], [2, 0]]), 1), [R(m34)]),
    ("take_along_axis None", lambda a: tnp.take_along_axis(a, I32([11, 0, 0]), None), [R(m34)]),
    ("compress", lambda a: tnp.compress([1, 0, 1], a, axis=0), [R(m34)]),
    ("roll", lambda a: tnp.roll(a, 2, axis=1), [R(m34)]),
    ("roll flat", lambda a: tnp.roll(a, -5), [R(m34)]),
    ("roll two axes", lambda a: tnp.roll(a, [1, -1], axis=[0, 1]), [R(m34)]),
    ("tile", lambda a: tnp.tile(a, (2, 1, 2)), [R(m34)]),
    ("sort", lambda a: tnp.sort(a, axis=1), [R(m34)]),
    ("sort axis 0", lambda a: tnp.sort(a, axis=0), [R(m34)]),
    ("sort flat", lambda a: tnp.sort(a, axis=None), [R(m34)]),
    ("broadcast_to", lambda a: tnp.broadcast_to(a, (2, 3, 4)), [R(("b", 3, 1))]),
    ("broadcast_arrays", tnp.broadcast_arrays, [R(("b", 3, 1)), R(("c", 4))]),
    ("atleast_1d", tnp.atleast_1d, [R(("s",))]),
    ("atleast_2d", tnp.atleast_2d, [R(v5)]),
    ("atleast_3d", tnp.atleast_3d, [R(m34)]),
    ("atleast_2d several", tnp.atleast_2d, [R(v5), R(m34)]),
    ("concatenate", lambda a, b: tnp.concatenate([a, b], axis=1), [R(m34), R(("b", 3, 2))]),
    ("concatenate None", lambda a, b: tnp.concatenate([a, b], axis=None), [R(m34), R(("b", 3, 2))]),
    ("stack", lambda a, b: tnp.stack([a, b], axis=1), [R(m34), R(m34)]),
    ("hstack", lambda a, b: tnp.hstack([a, b]), [R(m34), R(("b", 3, 2))]),
    ("vstack", lambda a, b: tnp.vstack([a, b]), [R(("a", 4)), R(("b", 2, 4))]),
    ("dstack", lambda a, b: tnp.dstack([a, b]), [R(m34), R(m34)]),
    ("append", tnp.append, [R(m34), R(("b", 2))]),
    ("append axis", lambda a, b: tnp.append(a, b, axis=0), [R(m34), R(("b", 1, 4))]),
    ("split", lambda a: tnp.split(a, 2, axis=1), [R(m34)]),
    ("split indices", lambda a: tnp.split(a, [1, 3], axis=1), [R(m34)]),
    ("hsplit", lambda a: tnp.hsplit(a, 2), [R(m34)]),
    ("vsplit", lambda a: tnp.vsplit(a, [1]), [R(m34)]),
    ("dsplit", lambda a: tnp.dsplit(a, 2), [R(("d", 2, 2, 4))]),
    ("pad constant", lambda a: tnp.pad(a, [[1, 2], [0, 1]], constant_values=5.0), [R(m34)]),
    ("pad reflect", lambda a: tnp.pad(a, 2, mode="reflect"), [R(m34)]),
    ("pad symmetric", lambda a: tnp.pad(a, [[1, 0], [3, 1]], mode="symmetric"), [R(m34)]),
    ("full of a tensor", lambda v: tnp.full((2, 3), v), [R(("f", 3))]),
    ("full_like of a tensor", lambda v: tnp.full_like(np.zeros((3, 4)), v), [R(("f", 4))]),
    ("meshgrid", lambda x, y: tnp.meshgrid(x, y), [R(("x", 3)), R(("y", 2))]),
    ("meshgrid ij", lambda x, y: tnp.meshgrid(x, y, indexing="ij"), [R(("x", 3)), R(("y", 2))]),
    ("ix_", lambda x, y: tnp.ix_(x, y), [R(("x", 3)), R(("y", 2))]),
    # ranges with tensor endpoints
    # (float64 samples: the default float32 ones are too coarse for central differences)
    ("linspace", lambda a, b: tnp.linspace(a, b, 5, dtype=F64), [R(("a",)), R(("b",), 2.0, 3.0)]),
    ("linspace vector", lambda a, b: tnp.linspace(a, b, 4, dtype=F64, axis=1),
     [R(("a", 3, 1)), R(("b", 2), 2.0, 3.0)]),
    ("linspace no endpoint", lambda a, b: tnp.linspace(a, b, 4, endpoint=False, dtype=F64),
     [R(("a",)), R(("b",), 2, 3)]),
    ("logspace", lambda a, b: tnp.logspace(a, b, 4, base=2.0, dtype=F64), [R(("a",)), R(("b",), 0.5, 1.0)]),
    ("geomspace", lambda a, b: tnp.geomspace(a, b, 4, dtype=F64), [R(("a", 2), **POS), R(("b",), 2.0, 3.0)]),
    ("geomspace negative", lambda a, b: tnp.geomspace(a, b, 3, endpoint=False, dtype=F64),
     [R(("a",), -2.0, -0.5), R(("b",), -3.0, -2.0)]),
]


@pytest.mark.parametrize("name,f,arrays", CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_central_differences(name, f, arrays):
    check(name, f, arrays)


# Functions TF does not differentiate: the gradient is None, as TF's.
NONE_CASES = [
    ("floor", tnp.floor),
    ("ceil", tnp.ceil),
    ("around", tnp.around),
    ("round decimals", lambda a: tnp.round(a, 2)),
    ("fix", tnp.fix),
    ("floor_divide", lambda a: tnp.floor_divide(a, 0.3)),
    ("heaviside x1", lambda a: tnp.heaviside(a, 0.5)),
    ("argsort", tnp.argsort),
    ("argmax", tnp.argmax),
    ("argmin", lambda a: tnp.argmin(a, axis=0)),
    ("signbit", tnp.signbit),
    ("isnan", tnp.isnan),
    ("count_nonzero", tnp.count_nonzero),
    ("nonzero", lambda a: tnp.nonzero(a > 0)),
    ("zeros_like", tnp.zeros_like),
    ("ones_like", tnp.ones_like),
    ("empty_like", tnp.empty_like),
    ("astype int", lambda a: tnp.asarray(a, dtype=tnp.int32)),
]


@pytest.mark.parametrize("name,f", NONE_CASES, ids=[c[0] for c in NONE_CASES])
def test_non_differentiable_functions_give_none(name, f):
    x = tf.constant(rnd(name, 3, 4))
    with tf.GradientTape() as g:
        g.watch(x)
        ys = _outputs(f(x))
        targets = [y for y in ys if y.dtype.is_floating]
        loss = sum(tf.reduce_sum(y) for y in targets) if targets else ys[0]
    assert g.gradient(loss, x) is None


def test_tnp_gradients_are_differentiable_again():
    """The new rules are written with recorded ops: second derivatives through nested tapes."""
    x = tf.constant(np.array([0.5, 1.5, -2.0]))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tnp.sum(tnp.cumprod(x) * tnp.cumsum(x)) + tnp.sum(tnp.cbrt(x) + tnp.exp2(x))
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    assert h is not None

    def grad_np(v):
        with tf.GradientTape() as t:
            xv = tf.constant(v)
            t.watch(xv)
            yv = tnp.sum(tnp.cumprod(xv) * tnp.cumsum(xv)) + tnp.sum(tnp.cbrt(xv) + tnp.exp2(xv))
        return np.asarray(t.gradient(yv, xv).numpy())

    base = np.array([0.5, 1.5, -2.0])
    want = np.zeros(3)
    for k in range(3):
        e = np.zeros(3)
        e[k] = 1e-6
        want += (grad_np(base + e) - grad_np(base - e)) / 2e-6
    np.testing.assert_allclose(h.numpy(), want, rtol=1e-5, atol=1e-5)
