"""Hypothesis: random dtypes, shapes, values and equations never crash.

Whatever the input, a call returns a tensor or raises one of the library's
exceptions (TF's families, TypeError, ValueError, IndexError,
OverflowError, BufferError) — never a Rust panic.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lattensor as lt

ALLOWED = (lt.errors.OpError, TypeError, ValueError, IndexError, OverflowError, BufferError)
DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
UNARY = ["abs", "negative", "sqrt", "exp", "log", "sin", "tanh", "round", "sign", "square", "reciprocal",
         "real", "imag", "conj", "floor", "erf", "lgamma", "digamma", "sigmoid", "is_nan", "logical_not"]
BINARY = ["add", "subtract", "multiply", "divide", "floordiv", "floormod", "pow", "maximum", "minimum",
          "equal", "less", "truncatediv", "truncatemod", "divide_no_nan", "logical_and"]
REDUCE = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_prod", "reduce_variance", "reduce_logsumexp"]

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)
py_values = st.one_of(
    st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.complex_numbers(allow_nan=True, allow_infinity=True),
)


def as_numpy_dtype(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


@st.composite
def tensors(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(shapes)
    n = int(np.prod(shape))
    raw = draw(st.lists(st.integers(0, 255), min_size=n * np.dtype(as_numpy_dtype(dtype)).itemsize,
                        max_size=n * np.dtype(as_numpy_dtype(dtype)).itemsize))
    data = np.frombuffer(bytes(raw), dtype=np.uint8)
    if dtype == "bool":
        a = (data % 2).astype(bool).reshape(shape)
    else:
        a = data.view(as_numpy_dtype(dtype)).reshape(shape)
    weak = draw(st.booleans())
    t = lt.constant(a)
    if weak and dtype in ("int32", "int64", "float32", "float64", "complex128"):
        t = lt.constant(t.numpy().tolist()) if t.ndim else t  # lists of Python numbers are weak
    return t


operands = st.one_of(tensors(), py_values)


def call(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
    except ALLOWED as e:
        assert "panicked" not in str(e), e
        return None
    except BaseException as e:  # a PanicException derives from BaseException
        raise AssertionError(f"not a library exception: {type(e).__name__}: {e}") from e
    if isinstance(r, lt.Tensor):
        np.asarray(r)  # the result can be read back
        repr(r)
    return r


@SETTINGS
@given(st.sampled_from(UNARY), operands, st.sampled_from(["all", "safe", "strict", "numpy"]))
def test_unary(name, x, mode):
    with lt.promotion_mode(mode):
        call(getattr(lt.math, name), x)


@SETTINGS
@given(st.sampled_from(BINARY), operands, operands, st.sampled_from(["all", "safe", "strict", "numpy"]))
def test_binary(name, x, y, mode):
    with lt.promotion_mode(mode):
        call(getattr(lt.math, name), x, y)
        if isinstance(x, lt.Tensor):
            call(lambda: x + y)
            call(lambda: x @ y)
            call(lambda: x ** y)
            call(lambda: x < y)
            call(lambda: x & y)
            call(lambda: x << y)
            call(lambda: y >> x)
            call(lambda: lt.bitwise.bitwise_xor(x, y))


@SETTINGS
@given(st.sampled_from(REDUCE), tensors(), st.one_of(st.none(), st.integers(-5, 5), st.lists(st.integers(-5, 5), max_size=3)),
       st.booleans())
def test_reductions(name, x, axis, keepdims):
    call(getattr(lt.math, name), x, axis=axis, keepdims=keepdims)


@SETTINGS
@given(tensors(), st.sampled_from(DTYPES))
def test_cast_and_bitcast(x, dtype):
    call(lt.cast, x, dtype)
    call(lt.bitcast, x, dtype)
    call(lt.constant, x, dtype)


@SETTINGS
@given(st.text(alphabet="abcij,.->", max_size=14), st.lists(tensors(), min_size=1, max_size=3))
def test_einsum_equations(eq, ops):
    call(lt.einsum, eq, *ops)
    call(lt.numpy.einsum, eq, *ops)


index_items = st.one_of(st.integers(-6, 6), st.none(), st.just(Ellipsis),
                        st.builds(slice, st.one_of(st.none(), st.integers(-6, 6)),
                                  st.one_of(st.none(), st.integers(-6, 6)),
                                  st.one_of(st.none(), st.integers(-3, 3))))


@SETTINGS
@given(tensors(), st.lists(index_items, max_size=5).map(tuple))
def test_indexing(x, key):
    try:
        want = np.asarray(x)[key]
    except (IndexError, ValueError):
        want = None
    r = call(lambda: x[key])
    if want is None:
        assert r is None, key
    else:
        got = r.numpy() if r is not None else None
        assert got is not None and got.shape == np.shape(want) and got.tobytes() == np.asarray(want).tobytes(), key


@SETTINGS
@given(st.recursive(py_values, lambda c: st.lists(c, max_size=3), max_leaves=8), st.sampled_from(DTYPES + [None]))
def test_constant_of_nested_lists(value, dtype):
    call(lt.constant, value, dtype)


@SETTINGS
@given(tensors(), shapes)
def test_shape_ops(x, shape):
    call(lt.reshape, x, list(shape))
    call(lt.transpose, x)
    call(lt.expand_dims, x, len(shape) - 2)
    call(lt.squeeze, x)
    call(lt.linalg.matrix_transpose, x)
    call(lt.linalg.trace, x)


TNP_ONE_ARG = sorted(
    n for n in ["abs", "cbrt", "exp2", "log2", "log10", "sinc", "fix", "signbit", "positive", "deg2rad", "ravel",
                "flatten", "flip", "fliplr", "flipud", "rot90", "sort", "cumsum", "cumprod", "diff", "diagonal",
                "diag", "diagflat", "triu", "vander", "trace", "mean", "nanmean", "std", "var", "average", "amax",
                "sum", "prod", "around", "angle", "copy", "empty_like", "ascontiguousarray"]
)


@SETTINGS
@given(st.sampled_from(TNP_ONE_ARG), operands)
def test_tnp_functions(name, x):
    call(getattr(lt.numpy, name), x)


@SETTINGS
@given(st.lists(operands, max_size=4), st.integers(-6, 6), operands, operands, operands,
       st.sampled_from(["all", "safe", "strict", "numpy"]))
def test_concat_stack_where(values, axis, c, x, y, mode):
    import lattensor.experimental.numpy as tnp

    with lt.promotion_mode(mode):
        call(lt.concat, values, axis)
        call(lt.stack, values, axis)
        call(tnp.concatenate, values, None)
        call(lt.where, c, x, y)
        call(tnp.where, c, x, y)


@SETTINGS
@given(st.one_of(st.integers(-3, 5), st.lists(st.integers(-2, 4), max_size=3), st.integers(2**40, 2**62)),
       operands, st.sampled_from(DTYPES + [None]), st.integers(-4, 4), st.integers(-3, 6))
def test_tnp_creation(shape, value, dtype, k, num):
    import lattensor.experimental.numpy as tnp

    call(tnp.zeros, shape, dtype or float)
    call(tnp.ones, shape, dtype or float)
    call(tnp.empty, shape, dtype or float)
    call(tnp.full, shape, value, dtype)
    call(tnp.eye, num, None, k, dtype or float)
    call(tnp.eye, num, shape if isinstance(shape, int) else 2, k)
    call(tnp.identity, num)
    call(tnp.linspace, value if not isinstance(value, lt.Tensor) else 0, 1, num)


@SETTINGS
@given(st.sampled_from(["add", "true_divide", "floor_divide", "mod", "power", "maximum", "logical_and",
                        "logical_xor", "dot", "outer", "isclose", "allclose", "matmul"]),
       operands, operands, st.sampled_from(["all", "safe", "strict", "numpy"]))
def test_tnp_binary_functions(name, x, y, mode):
    import lattensor.experimental.numpy as tnp

    with lt.promotion_mode(mode):
        call(getattr(tnp, name), x, y)
        call(tnp.clip, x, y, None)
        call(tnp.clip, x, None, y)
        call(tnp.logical_not, x)


@SETTINGS
@given(tensors(), st.one_of(st.none(), st.integers(-5, 5), st.lists(st.integers(-5, 5), max_size=3)), st.booleans(),
       operands, st.lists(st.integers(-4, 4), max_size=4))
def test_numpy_behaviour_methods(x, axis, keepdims, bound, perm):
    call(x.max, axis, keepdims)
    call(x.min, axis, keepdims)
    call(x.mean, axis, None, keepdims)
    call(x.clip, bound, None)
    call(x.transpose, *perm)
    call(x.ravel)
    call(x.flatten)


@SETTINGS
@given(operands, st.one_of(st.none(), st.integers(-4, 4)), st.sampled_from(DTYPES + [None]))
def test_argmax_argmin(x, axis, output_type):
    import lattensor.experimental.numpy as tnp

    call(lt.math.argmax, x, axis, output_type)
    call(lt.math.argmin, x, axis, output_type)
    call(tnp.argmax, x, axis)
    call(tnp.argmin, x, axis)


@SETTINGS
@given(operands, st.one_of(st.integers(-2, 3), st.lists(st.integers(-1, 3), max_size=4)), operands, operands)
def test_index_and_tiling_functions(x, reps, y, z):
    import lattensor.experimental.numpy as tnp

    call(tnp.nonzero, x)
    call(lt.where, x)
    call(lt.shape, x)
    call(lt.size, x, lt.int64)
    call(lt.rank, x)
    call(tnp.tile, x, reps)
    call(lambda: tnp.meshgrid(x, y, z))
    call(lambda: tnp.meshgrid(x, y, indexing="ij"))


@SETTINGS
@given(tensors(), st.one_of(shapes, st.lists(st.integers(-3, 5), max_size=5)))
def test_broadcast_to_agrees_with_numpy(x, shape):
    # NumPy's rule decides: where it broadcasts, the same values as a view of
    # ours; where it refuses (or the shape is negative), a library error
    a = x.numpy()
    try:
        want = np.broadcast_to(a, tuple(shape))
    except ValueError:
        assert call(lt.broadcast_to, x, shape) is None
        return
    got = lt.broadcast_to(x, shape)
    assert got.dtype == x.dtype and not got.weak
    np.testing.assert_array_equal(np.asarray(got), want)


def _gather_reference(p, idx, axis, batch_dims):
    """tf.gather by its definition, with NumPy: batch by batch, np.take inside."""
    if batch_dims == 0:
        return np.take(p, idx, axis=axis)
    return np.stack([_gather_reference(p[b], idx[b], axis - 1, batch_dims - 1) for b in range(p.shape[0])])


@SETTINGS
@given(tensors(), st.lists(st.integers(0, 3), min_size=0, max_size=3), st.integers(-40, 40),
       st.integers(-4, 4), st.integers(-3, 3), st.sampled_from(["clip", "wrap", "raise"]))
def test_gather_and_take_agree_with_numpy(x, idx_shape, seed, axis, batch_dims, mode):
    import lattensor.experimental.numpy as tnp

    a = x.numpy()
    # indices drawn mostly in range, some out of it
    n = a.shape[axis] if a.ndim and -a.ndim <= axis < a.ndim else 3
    idx = ((np.arange(int(np.prod(idx_shape)), dtype=np.int64) * 7 + seed) % (n + 2) - 1).reshape(idx_shape)
    bd = batch_dims + len(idx_shape) if batch_dims < 0 else batch_dims
    ax = axis + a.ndim if axis < 0 else axis
    valid = (a.ndim > 0 and 0 <= ax < a.ndim and 0 <= bd <= min(ax, len(idx_shape))
             and a.shape[:bd] == tuple(idx_shape[:bd]) and bool(np.all((idx >= 0) & (idx < n))))
    if valid:
        got = lt.gather(x, lt.constant(idx), axis=axis, batch_dims=batch_dims)
        want = _gather_reference(a, idx, ax, bd)
        assert got.dtype == x.dtype and not got.weak and tuple(got.shape) == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    else:
        assert call(lt.gather, x, lt.constant(idx), None, axis, batch_dims) is None
    # take: NumPy's modes agree with ours where NumPy answers
    flat = a.ndim == 0 or not -a.ndim <= axis < a.ndim
    taken = a.size if a.ndim == 0 else (a.shape[axis] if not flat else 0)
    if taken == 0 and idx.size:
        # nothing to take from (NumPy's wrap mode loops forever here): an error
        assert call(tnp.take, x, lt.constant(idx), None if a.ndim == 0 else axis, None, mode) is None
        return
    try:
        want = np.take(a, idx, axis=axis if a.ndim else None, mode=mode)
    except (IndexError, ValueError, np.exceptions.AxisError):
        call(tnp.take, x, lt.constant(idx), axis, None, mode)
        return
    got = tnp.take(x, lt.constant(idx), axis=axis if a.ndim else None, mode=mode)
    np.testing.assert_array_equal(np.asarray(got), want)


def _same_parts(got, want, dtype):
    # the same number of parts, each with NumPy's shape and bytes, in the input's dtype, strong
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == dtype and not g.weak
        v = g.numpy()
        assert v.shape == w.shape and v.tobytes() == np.ascontiguousarray(w).tobytes()


@SETTINGS
@given(tensors(), st.one_of(st.integers(-2, 7), st.lists(st.integers(-8, 8), max_size=4)), st.integers(-4, 4))
def test_split_agrees_with_numpy(x, sections, axis):
    # NumPy decides: where it splits, the same parts (as views of ours); where it refuses
    # (0-d input, axis out of range, a count that does not divide), a library error
    import lattensor.experimental.numpy as tnp

    a = x.numpy()
    try:
        want = np.split(a, sections, axis=axis)
    except (ValueError, IndexError, ZeroDivisionError):
        assert call(tnp.split, x, sections, axis) is None
        return
    _same_parts(tnp.split(x, sections, axis), want, x.dtype)
    if isinstance(sections, int):
        _same_parts(lt.split(x, sections, axis), want, x.dtype)


@SETTINGS
@given(tensors(), st.lists(st.integers(-2, 5), min_size=1, max_size=4), st.integers(-3, 3))
def test_split_sizes_follow_tf_rules(x, sizes, axis):
    # tf.split's sizes: each ≥ 0 or one -1 taking the rest; then the parts are NumPy's
    # split at the running sums
    a = x.numpy()
    if a.ndim == 0 or not -a.ndim <= axis < a.ndim:
        assert call(lt.split, x, sizes, axis) is None
        return
    n = a.shape[axis]
    known = sum(s for s in sizes if s != -1)
    valid = (all(s >= -1 for s in sizes) and sizes.count(-1) <= 1
             and (known <= n if -1 in sizes else known == n))
    if not valid:
        assert call(lt.split, x, sizes, axis) is None
        return
    sizes = [n - known if s == -1 else s for s in sizes]
    _same_parts(lt.split(x, sizes, axis), np.split(a, np.cumsum(sizes)[:-1].tolist(), axis=axis), x.dtype)


pad_widths = st.one_of(
    st.integers(-1, 4), st.tuples(st.integers(-1, 4), st.integers(0, 4)),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=4),
    st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=2), min_size=1, max_size=4),
)


@SETTINGS
@given(tensors(), pad_widths, st.sampled_from(["constant", "reflect", "symmetric"]), st.integers(-3, 3))
def test_pad_agrees_with_numpy(x, width, mode, c):
    import lattensor.experimental.numpy as tnp

    a = x.numpy()
    kwargs = {"constant_values": np.asarray(c).astype(a.dtype)} if mode == "constant" else {}
    try:
        want = np.pad(a, width, mode, **kwargs)
    except (ValueError, TypeError):
        assert call(tnp.pad, x, width, mode, **kwargs) is None
        return
    got = tnp.pad(x, width, mode, **kwargs)
    assert got.dtype == x.dtype and not got.weak
    assert got.numpy().shape == want.shape and got.numpy().tobytes() == want.tobytes()
    # tf.pad takes the full [rank, 2] form and the same modes, in any case
    full = np.broadcast_to(np.asarray(width, np.int64), (a.ndim, 2))
    if mode != "constant" and (full >= np.asarray(a.shape)[:, None] + (mode == "symmetric")).any():
        assert call(lt.pad, x, full, mode.upper()) is None  # TF's limits on mirrors
        return
    tf_got = lt.pad(x, full, mode.upper(), **kwargs)
    assert tf_got.numpy().tobytes() == want.tobytes()


@SETTINGS
@given(tensors(), st.one_of(st.none(), st.integers(-3, 3)), st.integers(0, 3), st.booleans(), shapes)
def test_append_agrees_with_numpy(x, axis, k, mismatch, other_shape):
    # values of x's dtype (so NumPy's promotion and the lattice agree), shaped to fit
    # along the axis, or of a random shape
    import lattensor.experimental.numpy as tnp

    a = x.numpy()
    shape = list(other_shape)
    if not mismatch and axis is not None and -a.ndim <= axis < a.ndim:
        shape = list(a.shape)
        shape[axis] = k
    b = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape).astype(a.dtype)
    try:
        want = np.append(a, b, axis=axis)
    except (ValueError, IndexError):
        assert call(tnp.append, x, b, axis) is None
        return
    got = tnp.append(x, b, axis)
    assert got.dtype == x.dtype and not got.weak
    assert got.numpy().shape == want.shape and got.numpy().tobytes() == want.tobytes()


@SETTINGS
@given(tensors(), st.integers(-1, 5), st.integers(-3, 3), st.sampled_from(["int32", "int64"]))
def test_one_hot_and_unique_agree_with_references(x, depth, axis, out_idx):
    a = x.numpy()
    # one_hot of integer indices: each index compared with 0..depth-1, on a new axis
    if a.dtype.kind in "iu" and depth >= 0 and -a.ndim - 1 <= axis <= a.ndim:
        got = lt.one_hot(x, depth, axis=axis)
        ref = (a[..., None] == np.arange(depth)).astype(np.float32)
        want = np.moveaxis(ref, -1, axis if axis >= 0 else a.ndim + 1 + axis)
        assert got.dtype == lt.float32 and not got.weak
        assert got.numpy().shape == want.shape and (got.numpy() == want).all()
    else:
        assert call(lt.one_hot, x, depth, axis=axis) is None
    # unique of a 1-D input: values in order of first occurrence, compared with ==
    # (so -0.0 is 0.0, and a NaN equals nothing, not even itself)
    if a.ndim != 1:
        assert call(lt.unique, x) is None
        return
    first, ref_idx, ref_count = [], [], []
    values = a.tolist()
    for p, v in enumerate(values):
        j = next((j for j, q in enumerate(first) if values[q] == v), None)
        if j is None:
            j = len(first)
            first.append(p)
            ref_count.append(0)
        ref_idx.append(j)
        ref_count[j] += 1
    y, idx, count = lt.unique_with_counts(x, out_idx=out_idx)
    assert y.dtype == x.dtype and not y.weak and idx.dtype.name == count.dtype.name == out_idx
    assert y.numpy().tobytes() == a[first].tobytes()
    assert idx.numpy().tolist() == ref_idx and count.numpy().tolist() == ref_count
    y2, idx2 = lt.unique(x, out_idx=out_idx)
    assert y2.numpy().tobytes() == y.numpy().tobytes() and idx2.numpy().tolist() == ref_idx
