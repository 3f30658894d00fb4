//! `lattensor._lattensor.numpy`'s products and grids: `dot`, `inner`, `vdot`,
//! `outer`, `tensordot`, `kron`, `cross`, `eye`, `tri`, `meshgrid`, `ix_`,
//! `diag_indices`, `tril`, `where`, `select`, `polyval` (`lattensor::tnp`'s
//! `products` and `grids`).
//!
//! A function's own argument checks are NumPy's `ValueError`
//! (`errors::value_errors`); the errors of the ops it is built from keep
//! their TF classes.

use lattensor::tnp::{self, Indexing, TensordotAxes};
use lattensor::{Tensor, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::args::{self, run_lib};
use crate::classes::PyTensor;
use crate::errors::value_errors;

/// Elements of a value, to decide whether releasing the GIL pays off.
fn work(v: &Value) -> usize {
    match v {
        Value::Tensor(t) => t.numel(),
        Value::List { items, .. } => items.len(),
        Value::Literal(_) | Value::Ragged(_) => 1,
    }
}

/// Every item of a Python iterable as a value, with their total work.
fn values(items: &Bound<'_, PyAny>) -> PyResult<(Vec<Value>, usize)> {
    let vs = items.try_iter()?.map(|v| args::to_value(&v?)).collect::<PyResult<Vec<_>>>()?;
    let n = vs.iter().map(work).fold(0usize, usize::saturating_add);
    Ok((vs, n))
}

fn tensors<'py>(py: Python<'py>, ts: Vec<Tensor>) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, ts.into_iter().map(PyTensor::new))
}

macro_rules! product {
    ($($name:ident),* $(,)?) => {$(
        #[doc = concat!("`tnp.", stringify!($name), "(a, b)`.")]
        #[pyfunction]
        fn $name(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
            let (a, b) = (args::to_value(a)?, args::to_value(b)?);
            let n = work(&a).max(work(&b));
            value_errors(stringify!($name), run_lib(py, n, || tnp::$name(a, b))).map(PyTensor::new)
        }
    )*};
}
product!(dot, inner, vdot, outer, kron);

/// `tnp.tensordot(a, b, axes=2, preferred_element_type=None)`: `axes` is a count or
/// a pair of axes or axis lists; `preferred_element_type` (JAX's) the dtype to
/// accumulate in and return.
#[pyfunction]
#[pyo3(signature = (a, b, axes = None, *, preferred_element_type = None))]
fn tensordot(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    axes: Option<&Bound<'_, PyAny>>,
    preferred_element_type: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let preferred = args::opt_dtype(preferred_element_type)?;
    let axes = match axes {
        None => TensordotAxes::Last(2),
        Some(x) => match x.extract::<isize>() {
            Ok(n) => TensordotAxes::Last(n),
            Err(_) => {
                let pair = x.try_iter()?.collect::<PyResult<Vec<_>>>()?;
                let [xa, xb] = &pair[..] else {
                    return Err(PyValueError::new_err(format!(
                        "tensordot: axes must be an int or a pair of axes or axis lists, got {} items",
                        pair.len()
                    )));
                };
                TensordotAxes::Pairs(args::ints(xa, "axes")?, args::ints(xb, "axes")?)
            }
        },
    };
    let (a, b) = (args::to_value(a)?, args::to_value(b)?);
    let n = work(&a).max(work(&b));
    value_errors(
        "tensordot",
        run_lib(py, n, || match preferred {
            Some(p) => tnp::tensordot_preferred(a, b, axes, p),
            None => tnp::tensordot(a, b, axes),
        }),
    )
    .map(PyTensor::new)
}

/// `tnp.cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None)`: `axis` sets all three.
#[pyfunction]
#[pyo3(signature = (a, b, axisa = -1, axisb = -1, axisc = -1, axis = None))]
fn cross(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    axisa: isize,
    axisb: isize,
    axisc: isize,
    axis: Option<isize>,
) -> PyResult<PyTensor> {
    let (xa, xb, xc) = axis.map_or((axisa, axisb, axisc), |x| (x, x, x));
    let (a, b) = (args::to_value(a)?, args::to_value(b)?);
    let n = work(&a).max(work(&b));
    value_errors("cross", run_lib(py, n, || tnp::cross(a, b, xa, xb, xc))).map(PyTensor::new)
}

/// `N` and `M` of `eye`/`tri`: negative sizes are NumPy's ValueError (and TF's InvalidArgumentError).
fn grid_sizes(op: &str, n: i64, m: Option<i64>) -> PyResult<(usize, Option<usize>)> {
    let mm = m.unwrap_or(n);
    if n < 0 || mm < 0 {
        return Err(crate::errors::invalid_value(format!("{op}: negative dimensions are not allowed (N={n}, M={mm})")));
    }
    Ok((n as usize, m.map(|m| m as usize)))
}

macro_rules! diagonal_grid {
    ($($name:ident),*) => {$(
        #[doc = concat!("`tnp.", stringify!($name), "(N, M=None, k=0, dtype=float)`: strong, float32 by default.")]
        #[pyfunction]
        #[pyo3(signature = (N, M = None, k = 0, dtype = None))]
        #[allow(non_snake_case)] // NumPy's names
        fn $name(N: i64, M: Option<i64>, k: isize, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<PyTensor> {
            let (n, m) = grid_sizes(stringify!($name), N, M)?;
            let d = args::opt_dtype(dtype)?.unwrap_or(tnp::DEFAULT_FLOAT);
            value_errors(stringify!($name), args::run_quiet(|| tnp::$name(n, m, k, d))).map(PyTensor::new)
        }
    )*};
}
diagonal_grid!(eye, tri);

/// `tnp.meshgrid(*xi, indexing="xy")`: a list of grids.
#[pyfunction]
#[pyo3(signature = (*xi, indexing = "xy"))]
fn meshgrid<'py>(py: Python<'py>, xi: &Bound<'py, PyTuple>, indexing: &str) -> PyResult<Bound<'py, PyList>> {
    let ix = match indexing {
        "xy" => Indexing::Xy,
        "ij" => Indexing::Ij,
        other => {
            return Err(PyValueError::new_err(format!("meshgrid: indexing must be 'xy' or 'ij', got '{other}'")));
        }
    };
    let (vs, n) = values(xi.as_any())?;
    let grids = value_errors("meshgrid", run_lib(py, n, || tnp::meshgrid(vs, ix)))?;
    tensors(py, grids)
}

/// `tnp.ix_(*args)`: a list of open-mesh index arrays.
#[pyfunction]
#[pyo3(signature = (*args))]
fn ix_<'py>(py: Python<'py>, args: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyList>> {
    let (vs, n) = values(args.as_any())?;
    let out = value_errors("ix_", run_lib(py, n, || tnp::ix_(vs)))?;
    tensors(py, out)
}

/// `tnp.diag_indices(n, ndim=2)`: a tuple of `ndim` int32 ranges.
#[pyfunction]
#[pyo3(signature = (n, ndim = 2))]
fn diag_indices<'py>(py: Python<'py>, n: i64, ndim: i64) -> PyResult<Bound<'py, PyTuple>> {
    let n = usize::try_from(n)
        .map_err(|_| PyValueError::new_err(format!("diag_indices: n must be non-negative, got {n}")))?;
    let ndim = usize::try_from(ndim).unwrap_or(0); // a negative count gives no arrays, as range() does
    let out = value_errors("diag_indices", args::run_quiet(|| tnp::diag_indices(n, ndim)))?;
    PyTuple::new(py, out.into_iter().map(PyTensor::new))
}

/// `tnp.tril(m, k=0)`: rank < 2 is a ValueError, as in TF.
#[pyfunction]
#[pyo3(signature = (m, k = 0))]
fn tril(py: Python<'_>, m: &Bound<'_, PyAny>, k: isize) -> PyResult<PyTensor> {
    let m = args::to_value(m)?;
    let n = work(&m);
    value_errors("tril", run_lib(py, n, || tnp::tril(m, k))).map(PyTensor::new)
}

/// `tnp.where(condition, x, y)`: the three-argument form (the Python function
/// sends `where(condition)` to `nonzero`).
#[pyfunction]
#[pyo3(name = "where")]
fn where_(
    py: Python<'_>,
    condition: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (c, x, y) = (args::to_value(condition)?, args::to_value(x)?, args::to_value(y)?);
    let n = work(&c).max(work(&x)).max(work(&y));
    args::run(py, n, || tnp::where_(c, x, y)).map(PyTensor::new)
}

/// `tnp.select(condlist, choicelist, default=0)`.
#[pyfunction]
#[pyo3(signature = (condlist, choicelist, default = None))]
fn select(
    py: Python<'_>,
    condlist: &Bound<'_, PyAny>,
    choicelist: &Bound<'_, PyAny>,
    default: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTensor> {
    let (conds, n) = values(condlist)?;
    let (choices, m) = values(choicelist)?;
    let d = match default {
        Some(d) => args::to_value(d)?,
        None => Value::from(0),
    };
    value_errors("select", run_lib(py, n.max(m), || tnp::select(conds, choices, d))).map(PyTensor::new)
}

/// `tnp.polyval(p, x)`.
#[pyfunction]
fn polyval(py: Python<'_>, p: &Bound<'_, PyAny>, x: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let (p, x) = (args::to_value(p)?, args::to_value(x)?);
    let n = work(&p).saturating_mul(work(&x));
    value_errors("polyval", run_lib(py, n, || tnp::polyval(p, x))).map(PyTensor::new)
}

/// Adds the functions to the `numpy` submodule.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(dot, m)?,
        wrap_pyfunction!(inner, m)?,
        wrap_pyfunction!(vdot, m)?,
        wrap_pyfunction!(outer, m)?,
        wrap_pyfunction!(kron, m)?,
        wrap_pyfunction!(tensordot, m)?,
        wrap_pyfunction!(cross, m)?,
        wrap_pyfunction!(eye, m)?,
        wrap_pyfunction!(tri, m)?,
        wrap_pyfunction!(meshgrid, m)?,
        wrap_pyfunction!(ix_, m)?,
        wrap_pyfunction!(diag_indices, m)?,
        wrap_pyfunction!(tril, m)?,
        wrap_pyfunction!(where_, m)?,
        wrap_pyfunction!(select, m)?,
        wrap_pyfunction!(polyval, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
