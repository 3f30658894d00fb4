//! Tensor creation bindings: `zeros`/`ones`/`fill` and their `_like` forms, `eye`, `linspace`, `range`, and the tnp `arange`/`array` entry points.

use lattensor::{DType, Scalar};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args::{self, Opt, constant_impl, opt_dtype, shape_of};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

/// `tf.zeros_like(input, dtype=None)`: input's dtype and weakness unless a dtype is given.
#[pyfunction]
#[pyo3(signature = (input, dtype = None, name = None))]
pub fn zeros_like(input: &Bound<'_, PyAny>, dtype: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    lattensor::zeros_like(&args::to_tensor(input)?, opt_dtype(dtype)?).py().map(PyTensor::new)
}

/// `tf.ones_like(input, dtype=None)`: input's dtype and weakness unless a dtype is given.
#[pyfunction]
#[pyo3(signature = (input, dtype = None, name = None))]
pub fn ones_like(input: &Bound<'_, PyAny>, dtype: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    lattensor::ones_like(&args::to_tensor(input)?, opt_dtype(dtype)?).py().map(PyTensor::new)
}

/// `tnp.full_like(a, fill_value, dtype=None)`.
#[pyfunction]
#[pyo3(signature = (a, fill_value, dtype = None))]
pub fn full_like(a: &Bound<'_, PyAny>, fill_value: &Bound<'_, PyAny>, dtype: Opt<'_, '_>) -> PyResult<PyTensor> {
    let t = args::to_tensor(a)?;
    let v = match args::scalar_of(fill_value)? {
        Some(s) => s,
        None => {
            let f = args::to_tensor(fill_value)?;
            f.item::<num_complex::Complex64>().map(Scalar::Complex).py()?
        }
    };
    lattensor::full_like(&t, v, opt_dtype(dtype)?).py().map(PyTensor::new)
}

/// `tf.zeros(shape, dtype=float32)` (strong).
#[pyfunction]
#[pyo3(signature = (shape, dtype = None, name = None))]
pub fn zeros(shape: &Bound<'_, PyAny>, dtype: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    lattensor::zeros(&shape_of(shape)?, opt_dtype(dtype)?.unwrap_or(DType::F32)).py().map(PyTensor::new)
}

/// `tf.ones(shape, dtype=float32)` (strong).
#[pyfunction]
#[pyo3(signature = (shape, dtype = None, name = None))]
pub fn ones(shape: &Bound<'_, PyAny>, dtype: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    lattensor::ones(&shape_of(shape)?, opt_dtype(dtype)?.unwrap_or(DType::F32)).py().map(PyTensor::new)
}

/// `tf.fill(dims, value)`: the value's inferred dtype, strong (as TF).
#[pyfunction]
#[pyo3(signature = (dims, value, name = None))]
pub fn fill(dims: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let v = args::to_tensor(value)?;
    let shape = shape_of(dims)?;
    let b = v.reshape(&[]).py()?.broadcast_to(&shape).py()?;
    b.contiguous().py().map(|t| PyTensor::new(t.with_weak(false)))
}

/// `tf.eye(num_rows, num_columns=None, dtype=float32)`.
#[pyfunction]
#[pyo3(signature = (num_rows, num_columns = None, dtype = None, name = None))]
pub fn eye(num_rows: usize, num_columns: Option<usize>, dtype: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    lattensor::eye(num_rows, num_columns, opt_dtype(dtype)?.unwrap_or(DType::F32)).py().map(PyTensor::new)
}

/// `tf.linspace(start, stop, num)` (float32 unless `dtype`).
#[pyfunction]
#[pyo3(signature = (start, stop, num, dtype = None, name = None))]
pub fn linspace(start: f64, stop: f64, num: usize, dtype: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    lattensor::linspace(start, stop, num, opt_dtype(dtype)?).py().map(PyTensor::new)
}

fn literal(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Scalar> {
    if let Some(s) = args::scalar_of(obj)? {
        return Ok(s);
    }
    let t = args::to_tensor(obj)?;
    if t.numel() != 1 {
        return Err(PyTypeError::new_err(format!("{what} must be a number")));
    }
    Ok(if t.dtype().is_integer() { Scalar::Int(t.item::<i64>().py()?) } else { Scalar::Float(t.item::<f64>().py()?) })
}

/// `tf.range(start, limit=None, delta=1, dtype=None)` (strong, as TF).
#[pyfunction]
#[pyo3(signature = (start, limit = None, delta = None, dtype = None, name = None))]
pub fn range(
    start: &Bound<'_, PyAny>,
    limit: Opt<'_, '_>,
    delta: Opt<'_, '_>,
    dtype: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let (s, l) = match limit.filter(|l| !l.is_none()) {
        Some(l) => (literal(start, "start")?, literal(l, "limit")?),
        None => (Scalar::Int(0), literal(start, "limit")?),
    };
    let d = match delta.filter(|d| !d.is_none()) {
        Some(d) => literal(d, "delta")?,
        None => Scalar::Int(1),
    };
    lattensor::arange(s, l, d, opt_dtype(dtype)?).py().map(PyTensor::new)
}

/// `tnp.arange(start, stop=None, step=1, dtype=None)`: weak when made from Python numbers only.
#[pyfunction]
#[pyo3(signature = (start, stop = None, step = None, dtype = None))]
pub fn numpy_arange(
    start: &Bound<'_, PyAny>,
    stop: Opt<'_, '_>,
    step: Opt<'_, '_>,
    dtype: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let all_literals =
        [Some(start), stop, step].iter().flatten().all(|o| o.is_none() || args::scalar_of(o).ok().flatten().is_some());
    let d = opt_dtype(dtype)?;
    let r = range(start, stop, step, dtype, None)?;
    Ok(PyTensor::new(r.t.with_weak(all_literals && d.is_none())))
}

/// `tnp.array(object, dtype=None, copy=True, ndmin=0)` / `tnp.asarray`: like
/// `constant`, but a given dtype converts with NumPy's cast semantics.
#[pyfunction]
#[pyo3(signature = (object, dtype = None, copy = true, ndmin = 0))]
pub fn numpy_array(object: &Bound<'_, PyAny>, dtype: Opt<'_, '_>, copy: bool, ndmin: usize) -> PyResult<PyTensor> {
    let _ = copy; // always a new object; sharing memory is safe as no tensor is written in place
    let mut t = constant_impl(object, None)?;
    if let Some(d) = opt_dtype(dtype)? {
        t = t.cast(d).py()?;
    }
    while t.rank() < ndmin {
        t = t.expand_dims(0).py()?;
    }
    Ok(PyTensor::new(t))
}

/// Adds the functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(zeros_like, m)?,
        wrap_pyfunction!(ones_like, m)?,
        wrap_pyfunction!(full_like, m)?,
        wrap_pyfunction!(zeros, m)?,
        wrap_pyfunction!(ones, m)?,
        wrap_pyfunction!(fill, m)?,
        wrap_pyfunction!(eye, m)?,
        wrap_pyfunction!(linspace, m)?,
        wrap_pyfunction!(range, m)?,
        wrap_pyfunction!(numpy_arange, m)?,
        wrap_pyfunction!(numpy_array, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
