//! `lattensor._lattensor.numpy`: the library's TF-NumPy functions
//! (`lattensor::tnp`) under NumPy's names and signatures.
//!
//! One file, over 900 lines, because it is one table: about 150 thin
//! bindings of one Python module, in sections that follow `lattensor::tnp`'s
//! modules, each a signature and a call with no logic of its own. The
//! products and grids (`tnp_products.rs`) add theirs to the same module.

use lattensor::ops::Axes;
use lattensor::tnp;
use lattensor::{Scalar, Value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::args::opt_dtype;
use crate::args::run;
use crate::args::{self, Arg, arg};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

type Opt<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

/// A Python value as the library's `Value` (literals stay literals, so they stay weak).
fn value(obj: &Bound<'_, PyAny>) -> PyResult<(Value, usize)> {
    if crate::args::is_sequence(obj) {
        return Ok(match crate::args::sequence_value(obj)? {
            Value::List { items, shape } => {
                let n = items.len();
                (Value::List { items, shape }, n)
            }
            Value::Tensor(t) => {
                let n = t.numel();
                (Value::Tensor(t), n)
            }
            v => (v, 0),
        });
    }
    Ok(match arg(obj)? {
        Arg::Ref(t) => (Value::Tensor((*t).clone()), t.numel()),
        Arg::Owned(t) => {
            let n = t.numel();
            (Value::Tensor(t), n)
        }
        Arg::Scalar(s) => (Value::Literal(s), 1),
    })
}

fn axes(axis: Opt<'_, '_>) -> PyResult<Axes> {
    crate::args::axes(axis)
}

fn opt_axis(axis: Opt<'_, '_>) -> PyResult<Option<isize>> {
    match axis.filter(|a| !a.is_none()) {
        None => Ok(None),
        Some(a) => a.extract::<isize>().map(Some).map_err(|_| PyTypeError::new_err("axis must be None or an int")),
    }
}

macro_rules! unary {
    // each entry is `name`, or `name(param)` where TF names the parameter other than `x`
    ($($name:ident $(($arg:ident))?),* $(,)?) => {
        $( unary!(@named $name [$($arg)?]); )*
        fn register_unary(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($name, m)?)?; )*
            Ok(())
        }
    };
    (@named $name:ident []) => { unary!(@def $name x); };
    (@named $name:ident [$arg:ident]) => { unary!(@def $name $arg); };
    (@def $name:ident $arg:ident) => {
        #[doc = concat!("`tnp.", stringify!($name), "`.")]
        #[pyfunction]
        pub fn $name(py: Python<'_>, $arg: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
            let (v, n) = value($arg)?;
            run(py, n, || tnp::$name(v)).map(PyTensor::new)
        }
    };
}

macro_rules! binary {
    ($($name:ident),* $(,)?) => {
        $(
            #[doc = concat!("`tnp.", stringify!($name), "(x1, x2)`.")]
            #[pyfunction]
            pub fn $name(py: Python<'_>, x1: &Bound<'_, PyAny>, x2: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
                let ((a, n), (b, m)) = (value(x1)?, value(x2)?);
                run(py, n.max(m), || tnp::$name(a, b)).map(PyTensor::new)
            }
        )*
        fn register_binary(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($name, m)?)?; )*
            Ok(())
        }
    };
}

/// NumPy's arithmetic functions on the lattice's ops (the ones `lattensor.math`
/// binds), with NumPy's parameter names: bound here rather than wrapped in a
/// Python function, whose frame cost ~100 ns of a 0-d `tnp.add`'s 1.6 µs.
macro_rules! lattice_binary {
    ($($name:ident $py:literal => $f:path),* $(,)?) => {
        $(
            #[doc = concat!("`tnp.", $py, "(x1, x2)`: the lattice's `", stringify!($f), "` under NumPy's name.")]
            #[pyfunction]
            #[pyo3(name = $py)]
            pub fn $name(py: Python<'_>, x1: &Bound<'_, PyAny>, x2: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
                let (a, b) = (arg(x1)?, arg(x2)?);
                run(py, a.numel().max(b.numel()), || $f(a.operand(), b.operand())).map(PyTensor::new)
            }
        )*
        fn register_lattice_binary(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($name, m)?)?; )*
            Ok(())
        }
    };
}

lattice_binary!(
    np_add "add" => lattensor::ops::add,
    np_subtract "subtract" => lattensor::ops::subtract,
    np_multiply "multiply" => lattensor::ops::multiply,
    np_divide "divide" => lattensor::ops::truediv,
    np_true_divide "true_divide" => lattensor::ops::truediv,
    np_floor_divide "floor_divide" => lattensor::ops::floordiv,
    np_mod "mod" => lattensor::ops::floormod,
    np_remainder "remainder" => lattensor::ops::floormod,
    np_power "power" => lattensor::ops::pow,
    np_maximum "maximum" => lattensor::ops::maximum,
    np_minimum "minimum" => lattensor::ops::minimum,
    np_equal "equal" => lattensor::ops::equal,
    np_not_equal "not_equal" => lattensor::ops::not_equal,
    np_less "less" => lattensor::ops::less,
    np_less_equal "less_equal" => lattensor::ops::less_equal,
    np_greater "greater" => lattensor::ops::greater,
    np_greater_equal "greater_equal" => lattensor::ops::greater_equal,
);

binary!(
    arctan2,
    hypot,
    heaviside,
    logaddexp,
    logaddexp2,
    float_power,
    logical_and,
    logical_or,
    logical_xor,
    array_equal
);

unary!(
    abs,
    absolute,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctanh,
    bitwise_not,
    cbrt,
    ceil,
    conj,
    conjugate,
    cos,
    cosh,
    deg2rad,
    exp,
    exp2,
    expm1,
    fabs,
    fix,
    floor,
    imag(val),
    log,
    log1p,
    log2,
    log10,
    negative,
    positive,
    rad2deg,
    real(val),
    reciprocal,
    signbit,
    sin,
    sinc,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
    copy(a),
    ravel(a),
    flatten,
    fliplr(m),
    flipud(m),
    logical_not,
    isnan,
    isinf,
    isfinite,
    isposinf,
    isneginf,
    isreal,
    iscomplex,
    sign,
);

#[pyfunction]
#[pyo3(signature = (z, deg = false))]
fn angle(py: Python<'_>, z: &Bound<'_, PyAny>, deg: bool) -> PyResult<PyTensor> {
    let (v, n) = value(z)?;
    run(py, n, || tnp::angle(v, deg)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, decimals = 0))]
fn around(py: Python<'_>, a: &Bound<'_, PyAny>, decimals: i32) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    run(py, n, || tnp::around(v, decimals)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, decimals = 0))]
fn round(py: Python<'_>, a: &Bound<'_, PyAny>, decimals: i32) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    run(py, n, || tnp::round(v, decimals)).map(PyTensor::new)
}

// ---- creation ----------------------------------------------------------------

#[pyfunction]
#[pyo3(signature = (val, dtype = None, copy = true, ndmin = 0))]
fn array(val: &Bound<'_, PyAny>, dtype: Opt<'_, '_>, copy: bool, ndmin: usize) -> PyResult<PyTensor> {
    let (v, _) = value(val)?;
    let d = opt_dtype(dtype)?;
    crate::args::run_quiet(|| tnp::array(v, d, copy, ndmin)).py().map(PyTensor::new)
}

macro_rules! like_dtype {
    ($($name:ident),*) => {$(
        #[pyfunction]
        #[pyo3(signature = (a, dtype = None))]
        fn $name(a: &Bound<'_, PyAny>, dtype: Opt<'_, '_>) -> PyResult<PyTensor> {
            let (v, _) = value(a)?;
            let d = opt_dtype(dtype)?;
            crate::args::run_quiet(|| tnp::$name(v, d)).py().map(PyTensor::new)
        }
    )*};
}
like_dtype!(ascontiguousarray, empty_like, zeros_like, ones_like);

macro_rules! as_array {
    ($($name:ident),*) => {$(
        /// A tensor whose dtype already matches is returned as the same object
        /// (`tnp.asarray(z) is z`, as in TF and NumPy); anything else converts.
        #[pyfunction]
        #[pyo3(signature = (a, dtype = None))]
        fn $name<'py>(a: &Bound<'py, PyAny>, dtype: Opt<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
            let d = opt_dtype(dtype)?;
            if let Ok(t) = a.cast::<PyTensor>() {
                if d.is_none_or(|d| d == t.borrow().t.dtype()) {
                    return Ok(a.clone());
                }
            }
            let (v, _) = value(a)?;
            let t = crate::args::run_quiet(|| tnp::$name(v, d)).py().map(PyTensor::new)?;
            Ok(Bound::new(a.py(), t)?.into_any())
        }
    )*};
}
as_array!(asarray, asanyarray);

#[pyfunction]
#[pyo3(signature = (a, fill_value, dtype = None, shape = None))]
fn full_like(
    a: &Bound<'_, PyAny>,
    fill_value: &Bound<'_, PyAny>,
    dtype: Opt<'_, '_>,
    shape: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    let (fill, _) = value(fill_value)?;
    let d = opt_dtype(dtype)?;
    let s: Option<Vec<usize>> = shape.filter(|s| !s.is_none()).map(|s| s.extract()).transpose()?;
    crate::args::run_quiet(|| tnp::full_like(v, fill, d, s.as_deref())).py().map(PyTensor::new)
}

/// `tnp.full(shape, fill_value, dtype=None)`: a fill value that does not broadcast is a ValueError.
#[pyfunction]
#[pyo3(signature = (shape, fill_value, dtype = None))]
fn full(shape: &Bound<'_, PyAny>, fill_value: &Bound<'_, PyAny>, dtype: Opt<'_, '_>) -> PyResult<PyTensor> {
    let s = args::shape_of(shape)?;
    let (v, _) = value(fill_value)?;
    let d = opt_dtype(dtype)?;
    crate::errors::value_errors("full", crate::args::run_quiet(|| tnp::full(&s, v, d))).map(PyTensor::new)
}

fn literal(obj: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    if let Some(s) = args::scalar_of(obj)? {
        return Ok(s);
    }
    let t = args::to_tensor(obj)?;
    if t.numel() != 1 {
        return Err(PyValueError::new_err("expected a single number"));
    }
    Ok(if t.dtype().is_bool() {
        Scalar::Bool(t.item::<bool>().py()?)
    } else if t.dtype().is_integer() {
        Scalar::Int(t.item::<i64>().py()?)
    } else if t.dtype().is_complex() {
        Scalar::Complex(t.item::<num_complex::Complex64>().py()?)
    } else {
        Scalar::Float(t.item::<f64>().py()?)
    })
}

#[pyfunction]
#[pyo3(signature = (start, stop = None, step = None, dtype = None))]
fn arange(start: &Bound<'_, PyAny>, stop: Opt<'_, '_>, step: Opt<'_, '_>, dtype: Opt<'_, '_>) -> PyResult<PyTensor> {
    let given: Vec<&Bound<'_, PyAny>> =
        [Some(start), stop, step].into_iter().flatten().filter(|x| !x.is_none()).collect();
    let s = literal(start)?;
    let e = stop.filter(|x| !x.is_none()).map(literal).transpose()?;
    let st = step.filter(|x| !x.is_none()).map(literal).transpose()?.unwrap_or(Scalar::Int(1));
    let mut d = opt_dtype(dtype)?;
    if d.is_none() {
        // a strong tensor argument keeps its dtype and strength (TF: result_type of the arguments)
        let types = given.into_iter().map(args::lattice_type_of).collect::<PyResult<Vec<_>>>()?;
        // (a join the mode refuses is reported by arange itself, as before)
        if let Ok(joined) = crate::args::run_quiet(|| lattensor::promote::result_type(&types))
            && !joined.weak
        {
            d = Some(joined.dtype);
        }
    }
    crate::args::run_quiet(|| tnp::arange(s, e, st, d)).py().map(PyTensor::new)
}

// ---- reductions ------------------------------------------------------------------

macro_rules! reduce_dtype {
    ($($name:ident),*) => {$(
        #[pyfunction]
        #[pyo3(signature = (a, axis = None, dtype = None, out = None, keepdims = false))]
        fn $name(py: Python<'_>, a: &Bound<'_, PyAny>, axis: Opt<'_, '_>, dtype: Opt<'_, '_>, out: Opt<'_, '_>, keepdims: bool) -> PyResult<PyTensor> {
            args::no_out(stringify!($name), out)?;
            let (v, n) = value(a)?;
            let (ax, d) = (axes(axis)?, opt_dtype(dtype)?);
            run(py, n, || tnp::$name(v, ax, d, keepdims)).map(PyTensor::new)
        }
    )*};
}
reduce_dtype!(sum, prod, mean, nanmean, nansum, nanprod);

macro_rules! reduce_plain {
    ($($name:ident),*) => {$(
        #[pyfunction]
        #[pyo3(signature = (a, axis = None, out = None, keepdims = false))]
        fn $name(py: Python<'_>, a: &Bound<'_, PyAny>, axis: Opt<'_, '_>, out: Opt<'_, '_>, keepdims: bool) -> PyResult<PyTensor> {
            args::no_out(stringify!($name), out)?;
            let (v, n) = value(a)?;
            let ax = axes(axis)?;
            run(py, n, || tnp::$name(v, ax, keepdims)).map(PyTensor::new)
        }
    )*};
}
reduce_plain!(amax, amin, max, min, ptp);

#[pyfunction]
#[pyo3(name = "std", signature = (a, axis = None, dtype = None, out = None, ddof = 0, keepdims = false))]
#[allow(clippy::too_many_arguments)] // NumPy's signature
fn std_dev(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: Opt<'_, '_>,
    dtype: Opt<'_, '_>,
    out: Opt<'_, '_>,
    ddof: usize,
    keepdims: bool,
) -> PyResult<PyTensor> {
    args::no_out("std", out)?;
    let (v, n) = value(a)?;
    let (ax, d) = (axes(axis)?, opt_dtype(dtype)?);
    run(py, n, || tnp::std_dtype(v, ax, d, ddof, keepdims)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, axis = None, dtype = None, out = None, ddof = 0, keepdims = false))]
#[allow(clippy::too_many_arguments)] // NumPy's signature
pub(crate) fn var(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: Opt<'_, '_>,
    dtype: Opt<'_, '_>,
    out: Opt<'_, '_>,
    ddof: usize,
    keepdims: bool,
) -> PyResult<PyTensor> {
    args::no_out("var", out)?;
    let (v, n) = value(a)?;
    let (ax, d) = (axes(axis)?, opt_dtype(dtype)?);
    run(py, n, || tnp::var(v, ax, d, ddof, keepdims)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, axis = None, weights = None, returned = false))]
fn average<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    axis: Opt<'_, 'py>,
    weights: Opt<'_, 'py>,
    returned: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (v, n) = value(a)?;
    let ax = opt_axis(axis)?;
    let w = weights.filter(|w| !w.is_none()).map(args::to_tensor).transpose()?;
    if returned {
        let (avg, sum) = run(py, n, || tnp::average_returned(v, ax, w.as_ref()))?;
        Ok(PyTuple::new(py, [PyTensor::new(avg), PyTensor::new(sum)])?.into_any())
    } else {
        let avg = run(py, n, || tnp::average(v, ax, w.as_ref()))?;
        Ok(Bound::new(py, PyTensor::new(avg))?.into_any())
    }
}

macro_rules! cumulative {
    ($($name:ident),*) => {$(
        #[pyfunction]
        #[pyo3(signature = (a, axis = None, dtype = None))]
        fn $name(py: Python<'_>, a: &Bound<'_, PyAny>, axis: Opt<'_, '_>, dtype: Opt<'_, '_>) -> PyResult<PyTensor> {
            let (v, n) = value(a)?;
            let (ax, d) = (opt_axis(axis)?, opt_dtype(dtype)?);
            run(py, n, || tnp::$name(v, ax, d)).map(PyTensor::new)
        }
    )*};
}
cumulative!(cumsum, cumprod);

#[pyfunction]
#[pyo3(signature = (a, offset = 0, axis1 = 0, axis2 = 1, dtype = None))]
fn trace(a: &Bound<'_, PyAny>, offset: isize, axis1: isize, axis2: isize, dtype: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    let d = opt_dtype(dtype)?;
    crate::args::run_quiet(|| tnp::trace(v, offset, axis1, axis2, d)).py().map(PyTensor::new)
}

// ---- shapes ----------------------------------------------------------------------

#[pyfunction]
#[pyo3(signature = (m, axis = None))]
fn flip(m: &Bound<'_, PyAny>, axis: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, _) = value(m)?;
    let ax = axes(axis)?;
    crate::args::run_quiet(|| tnp::flip(v, ax)).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (m, k = 1, axes = (0, 1)))]
fn rot90(m: &Bound<'_, PyAny>, k: i32, axes: (isize, isize)) -> PyResult<PyTensor> {
    let (v, _) = value(m)?;
    crate::args::run_quiet(|| tnp::rot90(v, k, axes)).py().map(PyTensor::new)
}

#[pyfunction]
fn swapaxes(a: &Bound<'_, PyAny>, axis1: isize, axis2: isize) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    crate::args::run_quiet(|| tnp::swapaxes(v, axis1, axis2)).py().map(PyTensor::new)
}

#[pyfunction]
fn moveaxis(a: &Bound<'_, PyAny>, source: &Bound<'_, PyAny>, destination: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    let (s, d) = (axes(Some(source))?, axes(Some(destination))?);
    crate::args::run_quiet(|| tnp::moveaxis(v, s, d)).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, axes = None))]
fn transpose(a: &Bound<'_, PyAny>, axes: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    let p: Option<Vec<isize>> = axes.filter(|x| !x.is_none()).map(|x| x.extract()).transpose()?;
    crate::args::run_quiet(|| tnp::transpose(v, p.as_deref())).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, newshape, order = "C"))]
fn reshape(a: &Bound<'_, PyAny>, newshape: &Bound<'_, PyAny>, order: &str) -> PyResult<PyTensor> {
    let order = args::order_arg("reshape", order)?;
    let (v, _) = value(a)?;
    let s: Vec<isize> = match newshape.extract::<isize>() {
        Ok(n) => vec![n],
        Err(_) => newshape.extract()?,
    };
    crate::args::run_quiet(|| tnp::reshape_in(v, &s, order)).py().map(PyTensor::new)
}

#[pyfunction]
fn expand_dims(a: &Bound<'_, PyAny>, axis: isize) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    crate::args::run_quiet(|| tnp::expand_dims(v, axis)).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, axis = None))]
fn squeeze(a: &Bound<'_, PyAny>, axis: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    let ax = axes(axis)?;
    crate::args::run_quiet(|| tnp::squeeze(v, ax)).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, offset = 0, axis1 = 0, axis2 = 1))]
fn diagonal(a: &Bound<'_, PyAny>, offset: isize, axis1: isize, axis2: isize) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    crate::args::run_quiet(|| tnp::diagonal(v, offset, axis1, axis2)).py().map(PyTensor::new)
}

macro_rules! with_k {
    ($($name:ident($arg:ident)),*) => {$(
        #[pyfunction]
        #[pyo3(signature = ($arg, k = 0))]
        fn $name($arg: &Bound<'_, PyAny>, k: isize) -> PyResult<PyTensor> {
            let (v, _) = value($arg)?;
            crate::args::run_quiet(|| tnp::$name(v, k)).py().map(PyTensor::new)
        }
    )*};
}
with_k!(diag(v), diagflat(v), triu(m));

#[pyfunction]
#[pyo3(signature = (x, N = None, increasing = false))]
#[allow(non_snake_case)]
fn vander(x: &Bound<'_, PyAny>, N: Option<usize>, increasing: bool) -> PyResult<PyTensor> {
    let (v, _) = value(x)?;
    crate::args::run_quiet(|| tnp::vander(v, N, increasing)).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, n = 1, axis = -1))]
fn diff(a: &Bound<'_, PyAny>, n: usize, axis: isize) -> PyResult<PyTensor> {
    let (v, _) = value(a)?;
    crate::args::run_quiet(|| tnp::diff(v, n, axis)).py().map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, repeats, axis = None))]
fn repeat(py: Python<'_>, a: &Bound<'_, PyAny>, repeats: &Bound<'_, PyAny>, axis: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    let r: Vec<usize> = match repeats.extract::<usize>() {
        Ok(k) => vec![k],
        Err(_) => repeats.extract()?,
    };
    let ax = opt_axis(axis)?;
    run(py, n, || tnp::repeat(v, &r, ax)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, axis = -1))]
fn sort(py: Python<'_>, a: &Bound<'_, PyAny>, axis: Option<isize>) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    run(py, n, || tnp::sort(v, axis)).map(PyTensor::new)
}

/// `tnp.take(a, indices, axis=None, out=None, mode='clip')`: TF's default mode
/// clamps out-of-range indices; `mode='raise'` is NumPy's rule.
#[pyfunction]
#[pyo3(signature = (a, indices, axis = None, out = None, mode = "clip"))]
fn take(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    indices: &Bound<'_, PyAny>,
    axis: Opt<'_, '_>,
    out: Opt<'_, '_>,
    mode: &str,
) -> PyResult<PyTensor> {
    if out.is_some_and(|o| !o.is_none()) {
        return Err(PyValueError::new_err(
            "take: the out argument is not supported (tensors are not written in place); use the result",
        ));
    }
    let ((v, n), (i, _)) = (value(a)?, value(indices)?);
    let ax = opt_axis(axis)?;
    let mode: lattensor::TakeMode = mode.parse().py()?;
    run(py, n, || tnp::take(v, i, ax, mode)).map(PyTensor::new)
}

// ---- split, pad, append -------------------------------------------------------------

fn sections(obj: &Bound<'_, PyAny>, op: &str) -> PyResult<tnp::Sections> {
    Ok(match args::count_or_list(obj, op, "indices_or_sections", false)? {
        Err(n) => tnp::Sections::Count(n),
        Ok(indices) => tnp::Sections::Indices(indices),
    })
}

fn parts(r: lattensor::Result<Vec<lattensor::Tensor>>) -> PyResult<Vec<PyTensor>> {
    Ok(r.py()?.into_iter().map(PyTensor::new).collect())
}

/// `tnp.split(ary, indices_or_sections, axis=0)`: a list of zero-copy views: equal
/// sections (an int), or cuts before each listed index (NumPy's slicing rules).
#[pyfunction]
#[pyo3(signature = (ary, indices_or_sections, axis = 0))]
fn split(ary: &Bound<'_, PyAny>, indices_or_sections: &Bound<'_, PyAny>, axis: isize) -> PyResult<Vec<PyTensor>> {
    let (v, _) = value(ary)?;
    let s = sections(indices_or_sections, "split")?;
    parts(crate::args::run_quiet(|| tnp::split(v, s, axis)))
}

macro_rules! split_on_axis {
    ($($name:ident),*) => {$(
        #[doc = concat!("`tnp.", stringify!($name), "(ary, indices_or_sections)`: NumPy's axis rule; zero-copy views.")]
        #[pyfunction]
        fn $name(ary: &Bound<'_, PyAny>, indices_or_sections: &Bound<'_, PyAny>) -> PyResult<Vec<PyTensor>> {
            let (v, _) = value(ary)?;
            let s = sections(indices_or_sections, stringify!($name))?;
            parts(crate::args::run_quiet(|| tnp::$name(v, s)))
        }
    )*};
}
split_on_axis!(hsplit, vsplit, dsplit);

/// `tnp.pad(array, pad_width, mode="constant", **kwargs)`: NumPy's `pad_width`
/// forms; modes `"constant"` (kwarg `constant_values`, a scalar), `"reflect"` and
/// `"symmetric"` (kwarg `reflect_type="even"`). Strong, as TF's result is.
#[pyfunction]
#[pyo3(signature = (array, pad_width, mode = "constant", **kwargs))]
fn pad(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    pad_width: &Bound<'_, PyAny>,
    mode: &str,
    kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<PyTensor> {
    let m = match mode {
        "constant" => lattensor::PadMode::Constant,
        "reflect" => lattensor::PadMode::Reflect,
        "symmetric" => lattensor::PadMode::Symmetric,
        _ => {
            return Err(PyValueError::new_err(format!(
                "pad: unsupported padding mode {mode:?}; lattensor (as TF) supports 'constant', 'reflect' and 'symmetric'"
            )));
        }
    };
    let a = args::to_tensor(array)?;
    let mut constant = args::pad_constant(None, a.dtype())?;
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            match k.extract::<String>()?.as_str() {
                "constant_values" if m == lattensor::PadMode::Constant => {
                    constant = args::pad_constant(Some(&v), a.dtype())?;
                }
                "reflect_type" if m != lattensor::PadMode::Constant => {
                    let t: String = v.extract()?;
                    if t == "odd" {
                        return Err(crate::errors::UnimplementedError::new_err(
                            "pad: reflect_type='odd' is not supported (TF ignores it and pads as 'even'); \
                             only reflect_type='even' is",
                        ));
                    }
                    if t != "even" {
                        return Err(PyValueError::new_err(format!(
                            "pad: reflect_type must be 'even' or 'odd', got {t:?}"
                        )));
                    }
                }
                other => {
                    return Err(PyValueError::new_err(format!(
                        "pad: unsupported keyword argument {other:?} for mode {mode:?}"
                    )));
                }
            }
        }
    }
    let w = args::to_value(pad_width)?;
    run(py, a.numel(), || tnp::pad(&a, w, m, constant)).map(PyTensor::new)
}

/// `tnp.append(arr, values, axis=None)`: NumPy's semantics (`None` flattens both);
/// dtypes promote through the lattice as in `concatenate`.
#[pyfunction]
#[pyo3(signature = (arr, values, axis = None))]
fn append(py: Python<'_>, arr: &Bound<'_, PyAny>, values: &Bound<'_, PyAny>, axis: Opt<'_, '_>) -> PyResult<PyTensor> {
    let ((a, n), (v, k)) = (value(arr)?, value(values)?);
    let ax = opt_axis(axis)?;
    run(py, n.saturating_add(k), || tnp::append(a, v, ax)).map(PyTensor::new)
}

// ---- functions whose arguments need NumPy's exception classes -------------------

/// A library error as a Python exception, with `UnsupportedDType` as NumPy's
/// `TypeError` (NumPy refuses a dtype with a TypeError where TF raises
/// InvalidArgumentError).
fn dtype_as_type_error<T>(r: lattensor::Result<T>) -> PyResult<T> {
    match r {
        Err(e @ lattensor::Error::UnsupportedDType { .. }) => Err(PyTypeError::new_err(e.to_string())),
        r => r.py(),
    }
}

macro_rules! binary_type_errors {
    ($($name:ident),* $(,)?) => {
        $(
            #[doc = concat!("`tnp.", stringify!($name), "(x1, x2)`; a refused dtype is a TypeError.")]
            #[pyfunction]
            pub fn $name(py: Python<'_>, x1: &Bound<'_, PyAny>, x2: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
                let ((a, n), (b, m)) = (value(x1)?, value(x2)?);
                let r = args::run_lib(py, n.max(m), || tnp::$name(a, b));
                dtype_as_type_error(r).map(PyTensor::new)
            }
        )*
        fn register_binary_type_errors(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($name, m)?)?; )*
            Ok(())
        }
    };
}

binary_type_errors!(nextafter, gcd, lcm);

#[pyfunction]
#[pyo3(signature = (a, a_min, a_max))]
fn clip(py: Python<'_>, a: &Bound<'_, PyAny>, a_min: Opt<'_, '_>, a_max: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    let (lo, hi) = args::clip_bounds(a_min, a_max)?;
    run(py, n, || tnp::clip(v, lo, hi)).map(PyTensor::new)
}

macro_rules! closeness {
    ($($name:ident),*) => {$(
        #[pyfunction]
        #[pyo3(signature = (a, b, rtol = 1e-05, atol = 1e-08, equal_nan = false))]
        fn $name(
            py: Python<'_>,
            a: &Bound<'_, PyAny>,
            b: &Bound<'_, PyAny>,
            rtol: f64,
            atol: f64,
            equal_nan: bool,
        ) -> PyResult<PyTensor> {
            let ((x, n), (y, m)) = (value(a)?, value(b)?);
            run(py, n.max(m), || tnp::$name(x, y, rtol, atol, equal_nan)).map(PyTensor::new)
        }
    )*};
}
closeness!(isclose, allclose);

reduce_plain!(all, any);

#[pyfunction]
#[pyo3(signature = (a, axis = None, *, keepdims = false))]
fn count_nonzero(py: Python<'_>, a: &Bound<'_, PyAny>, axis: Opt<'_, '_>, keepdims: bool) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    let ax = axes(axis)?;
    run(py, n, || tnp::count_nonzero(v, ax, keepdims)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, axis = None))]
fn argsort(py: Python<'_>, a: &Bound<'_, PyAny>, axis: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    let ax = opt_axis(axis)?;
    run(py, n, || tnp::argsort(v, ax)).map(PyTensor::new)
}

#[pyfunction]
fn nonzero<'py>(py: Python<'py>, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let t = args::to_tensor(a)?;
    if t.rank() == 0 {
        return Err(PyValueError::new_err(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.",
        ));
    }
    let parts = run(py, t.numel(), || tnp::nonzero(&t))?;
    PyTuple::new(py, parts.into_iter().map(PyTensor::new))
}

#[pyfunction]
#[pyo3(signature = (arr, indices, axis))]
fn take_along_axis(
    py: Python<'_>,
    arr: &Bound<'_, PyAny>,
    indices: &Bound<'_, PyAny>,
    axis: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let (a, i) = (args::to_tensor(arr)?, args::to_tensor(indices)?);
    if !i.dtype().is_integer() {
        return Err(PyTypeError::new_err(format!("take_along_axis: indices must be integers, got {}", i.dtype())));
    }
    let ax = opt_axis(axis)?;
    let rank = if ax.is_none() { 1 } else { a.rank() };
    if i.rank() != rank {
        return Err(PyValueError::new_err(format!(
            "take_along_axis: indices of rank {} for an array of rank {rank}",
            i.rank()
        )));
    }
    run(py, i.numel(), || tnp::take_along_axis(&a, &i, ax)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (condition, a, axis = None))]
fn compress(
    py: Python<'_>,
    condition: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    axis: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let c = args::to_tensor(condition)?;
    if c.rank() != 1 {
        return Err(PyValueError::new_err(format!("compress: condition must be 1-D, got rank {}", c.rank())));
    }
    let (v, n) = value(a)?;
    let ax = opt_axis(axis)?;
    run(py, n, || tnp::compress(&c, v, ax)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (a, shift, axis = None))]
fn roll(py: Python<'_>, a: &Bound<'_, PyAny>, shift: &Bound<'_, PyAny>, axis: Opt<'_, '_>) -> PyResult<PyTensor> {
    let (v, n) = value(a)?;
    let shifts: Vec<i64> = args::ints(shift, "shift")?.into_iter().map(|s| s as i64).collect();
    let axes = axis.filter(|x| !x.is_none()).map(|x| args::ints(x, "axis")).transpose()?;
    if let Some(ax) = &axes {
        let len = shifts.len().max(ax.len());
        if ![1, len].contains(&shifts.len()) || ![1, len].contains(&ax.len()) {
            return Err(PyValueError::new_err(format!(
                "roll: shape mismatch: shift ({}) and axis ({}) do not broadcast",
                shifts.len(),
                ax.len()
            )));
        }
    }
    run(py, n, || tnp::roll(v, &shifts, axes.as_deref())).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(name = "tile", signature = (A, reps))]
#[allow(non_snake_case)] // NumPy's name
fn tile(py: Python<'_>, A: &Bound<'_, PyAny>, reps: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let (v, n) = value(A)?;
    let r = args::ints(reps, "reps")?;
    if r.iter().any(|&x| x < 0) {
        // NumPy's ValueError; TF's kernel raises InvalidArgumentError
        return Err(crate::errors::invalid_value(format!("tile: reps must be non-negative, got {r:?}")));
    }
    let r: Vec<usize> = r.into_iter().map(|x| x as usize).collect();
    run(py, n.saturating_mul(r.iter().product::<usize>().max(1)), || tnp::tile(v, &r)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (*args))]
fn broadcast_arrays(args: &Bound<'_, PyTuple>) -> PyResult<Vec<PyTensor>> {
    let vs = args.iter().map(|a| args::to_value(&a)).collect::<PyResult<Vec<_>>>()?;
    parts(crate::args::run_quiet(|| tnp::broadcast_arrays(vs)))
}

macro_rules! at_least {
    ($($name:ident),*) => {$(
        #[pyfunction]
        #[pyo3(signature = (*arys))]
        fn $name<'py>(py: Python<'py>, arys: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyAny>> {
            let mut out = arys
                .iter()
                .map(|a| args::to_value(&a).and_then(|v| tnp::$name(v).py()).map(PyTensor::new))
                .collect::<PyResult<Vec<_>>>()?;
            if out.len() == 1 {
                return Ok(out.remove(0).into_pyobject(py)?.into_any());
            }
            Ok(pyo3::types::PyList::new(py, out)?.into_any())
        }
    )*};
}
at_least!(atleast_1d, atleast_2d, atleast_3d);

macro_rules! stacking {
    ($($name:ident),*) => {$(
        #[pyfunction]
        fn $name(py: Python<'_>, tup: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
            let vs = tup.try_iter()?.map(|v| args::to_value(&v?)).collect::<PyResult<Vec<_>>>()?;
            run(py, vs.len(), || tnp::$name(vs)).map(PyTensor::new)
        }
    )*};
}
stacking!(hstack, vstack, dstack);

/// `num` as NumPy takes it: a negative count is a ValueError.
fn count(num: i64) -> PyResult<usize> {
    usize::try_from(num).map_err(|_| PyValueError::new_err(format!("Number of samples, {num}, must be non-negative.")))
}

#[pyfunction]
#[pyo3(signature = (start, stop, num = 50, endpoint = true, retstep = false, dtype = None, axis = 0))]
#[allow(clippy::too_many_arguments)] // NumPy's signature
fn linspace<'py>(
    py: Python<'py>,
    start: &Bound<'py, PyAny>,
    stop: &Bound<'py, PyAny>,
    num: i64,
    endpoint: bool,
    retstep: bool,
    dtype: Opt<'_, 'py>,
    axis: isize,
) -> PyResult<Bound<'py, PyAny>> {
    let n = count(num)?;
    // `dtype=None` is NumPy's float64 (np.dtype(None)); the Python wrapper's default is `float`
    let d = match dtype {
        Some(d) => args::as_dtype(d)?,
        None => lattensor::DType::F64,
    };
    let ((a, _), (b, _)) = (value(start)?, value(stop)?);
    let (y, step) = run(py, n, || tnp::linspace_with_step(a, b, n, endpoint, Some(d), axis))?;
    let y = PyTensor::new(y).into_pyobject(py)?.into_any();
    if !retstep {
        return Ok(y);
    }
    let step = if step.rank() == 0 {
        step.item::<f64>().py()?.into_pyobject(py)?.into_any()
    } else {
        PyTensor::new(step).into_pyobject(py)?.into_any()
    };
    Ok(PyTuple::new(py, [y, step])?.into_any())
}

#[pyfunction]
#[pyo3(signature = (start, stop, num = 50, endpoint = true, base = 10.0, dtype = None, axis = 0))]
#[allow(clippy::too_many_arguments)] // NumPy's signature
fn logspace(
    py: Python<'_>,
    start: &Bound<'_, PyAny>,
    stop: &Bound<'_, PyAny>,
    num: i64,
    endpoint: bool,
    base: f64,
    dtype: Opt<'_, '_>,
    axis: isize,
) -> PyResult<PyTensor> {
    let n = count(num)?;
    let d = opt_dtype(dtype)?;
    let ((a, _), (b, _)) = (value(start)?, value(stop)?);
    run(py, n, || tnp::logspace(a, b, n, endpoint, base, d, axis)).map(PyTensor::new)
}

#[pyfunction]
#[pyo3(signature = (start, stop, num = 50, endpoint = true, dtype = None, axis = 0))]
fn geomspace(
    start: &Bound<'_, PyAny>,
    stop: &Bound<'_, PyAny>,
    num: i64,
    endpoint: bool,
    dtype: Opt<'_, '_>,
    axis: isize,
) -> PyResult<PyTensor> {
    let n = count(num)?;
    let d = opt_dtype(dtype)?;
    let ((a, _), (b, _)) = (value(start)?, value(stop)?);
    crate::args::run_quiet(|| tnp::geomspace(a, b, n, endpoint, d, axis)).py().map(PyTensor::new)
}

/// Registers the `numpy` submodule of `_lattensor`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "numpy")?;
    register_unary(&m)?;
    register_binary(&m)?;
    register_lattice_binary(&m)?;
    register_binary_type_errors(&m)?;
    for f in [
        wrap_pyfunction!(clip, &m)?,
        wrap_pyfunction!(isclose, &m)?,
        wrap_pyfunction!(allclose, &m)?,
        wrap_pyfunction!(all, &m)?,
        wrap_pyfunction!(any, &m)?,
        wrap_pyfunction!(count_nonzero, &m)?,
        wrap_pyfunction!(argsort, &m)?,
        wrap_pyfunction!(nonzero, &m)?,
        wrap_pyfunction!(take_along_axis, &m)?,
        wrap_pyfunction!(compress, &m)?,
        wrap_pyfunction!(roll, &m)?,
        wrap_pyfunction!(tile, &m)?,
        wrap_pyfunction!(broadcast_arrays, &m)?,
        wrap_pyfunction!(atleast_1d, &m)?,
        wrap_pyfunction!(atleast_2d, &m)?,
        wrap_pyfunction!(atleast_3d, &m)?,
        wrap_pyfunction!(hstack, &m)?,
        wrap_pyfunction!(vstack, &m)?,
        wrap_pyfunction!(dstack, &m)?,
        wrap_pyfunction!(linspace, &m)?,
        wrap_pyfunction!(logspace, &m)?,
        wrap_pyfunction!(geomspace, &m)?,
        wrap_pyfunction!(angle, &m)?,
        wrap_pyfunction!(around, &m)?,
        wrap_pyfunction!(round, &m)?,
        wrap_pyfunction!(array, &m)?,
        wrap_pyfunction!(asarray, &m)?,
        wrap_pyfunction!(asanyarray, &m)?,
        wrap_pyfunction!(ascontiguousarray, &m)?,
        wrap_pyfunction!(empty_like, &m)?,
        wrap_pyfunction!(zeros_like, &m)?,
        wrap_pyfunction!(ones_like, &m)?,
        wrap_pyfunction!(full_like, &m)?,
        wrap_pyfunction!(full, &m)?,
        wrap_pyfunction!(arange, &m)?,
        wrap_pyfunction!(sum, &m)?,
        wrap_pyfunction!(prod, &m)?,
        wrap_pyfunction!(mean, &m)?,
        wrap_pyfunction!(nanmean, &m)?,
        wrap_pyfunction!(nansum, &m)?,
        wrap_pyfunction!(nanprod, &m)?,
        wrap_pyfunction!(amax, &m)?,
        wrap_pyfunction!(amin, &m)?,
        wrap_pyfunction!(max, &m)?,
        wrap_pyfunction!(min, &m)?,
        wrap_pyfunction!(ptp, &m)?,
        wrap_pyfunction!(std_dev, &m)?,
        wrap_pyfunction!(var, &m)?,
        wrap_pyfunction!(average, &m)?,
        wrap_pyfunction!(cumsum, &m)?,
        wrap_pyfunction!(cumprod, &m)?,
        wrap_pyfunction!(trace, &m)?,
        wrap_pyfunction!(flip, &m)?,
        wrap_pyfunction!(rot90, &m)?,
        wrap_pyfunction!(swapaxes, &m)?,
        wrap_pyfunction!(moveaxis, &m)?,
        wrap_pyfunction!(transpose, &m)?,
        wrap_pyfunction!(reshape, &m)?,
        wrap_pyfunction!(expand_dims, &m)?,
        wrap_pyfunction!(squeeze, &m)?,
        wrap_pyfunction!(diagonal, &m)?,
        wrap_pyfunction!(diag, &m)?,
        wrap_pyfunction!(diagflat, &m)?,
        wrap_pyfunction!(triu, &m)?,
        wrap_pyfunction!(vander, &m)?,
        wrap_pyfunction!(diff, &m)?,
        wrap_pyfunction!(repeat, &m)?,
        wrap_pyfunction!(sort, &m)?,
        wrap_pyfunction!(take, &m)?,
        wrap_pyfunction!(split, &m)?,
        wrap_pyfunction!(hsplit, &m)?,
        wrap_pyfunction!(vsplit, &m)?,
        wrap_pyfunction!(dsplit, &m)?,
        wrap_pyfunction!(pad, &m)?,
        wrap_pyfunction!(append, &m)?,
    ] {
        m.add_function(f)?;
    }
    crate::tnp_products::register(&m)?;
    parent.add_submodule(&m)
}
