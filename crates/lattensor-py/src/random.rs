//! The stateless generators of `lattensor::random`, for `lattensor.random`
//! (`tf.random`) and `lattensor.experimental.numpy.random`, which add TF's
//! argument handling and the seed state in Python.

use pyo3::prelude::*;

use crate::args;
use crate::args::as_dtype;
use crate::args::run;
use crate::args::{ints, shape_of};
use crate::classes::PyTensor;
use crate::errors::InvalidArgumentError;

/// A seed: exactly two integers (a list, a tuple or a 1-d integer tensor).
fn seed_pair(seed: &Bound<'_, PyAny>) -> PyResult<[i64; 2]> {
    match ints(seed, "seed")?[..] {
        [a, b] => Ok([a as i64, b as i64]),
        ref s => Err(InvalidArgumentError::new_err(format!("seed must have shape [2], not [{}]", s.len()))),
    }
}

/// The element count, for the GIL decision only (saturating: the library
/// reports shapes too large to allocate).
fn elements(shape: &[usize]) -> usize {
    shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).unwrap_or(usize::MAX)
}

/// Uniform floats in `[minval, maxval)` (`lattensor::random::stateless_uniform`).
#[pyfunction]
fn stateless_uniform_float(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    minval: f64,
    maxval: f64,
    dtype: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (shape, seed, d) = (shape_of(shape)?, seed_pair(seed)?, as_dtype(dtype)?);
    let n = elements(&shape);
    run(py, n, || lattensor::random::stateless_uniform(&shape, seed, minval, maxval, d)).map(PyTensor::new)
}

/// Uniform integers in `[minval, maxval)` (`lattensor::random::stateless_uniform_int`).
#[pyfunction]
fn stateless_uniform_int(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    minval: i64,
    maxval: i64,
    dtype: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (shape, seed, d) = (shape_of(shape)?, seed_pair(seed)?, as_dtype(dtype)?);
    let n = elements(&shape);
    run(py, n, || lattensor::random::stateless_uniform_int(&shape, seed, minval, maxval, d)).map(PyTensor::new)
}

/// Integers over the dtype's whole range (`lattensor::random::stateless_uniform_full_int`).
#[pyfunction]
fn stateless_uniform_full_int(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    dtype: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (shape, seed, d) = (shape_of(shape)?, seed_pair(seed)?, as_dtype(dtype)?);
    let n = elements(&shape);
    run(py, n, || lattensor::random::stateless_uniform_full_int(&shape, seed, d)).map(PyTensor::new)
}

/// Normal floats (`lattensor::random::stateless_normal`).
#[pyfunction]
fn stateless_normal_float(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    mean: f64,
    stddev: f64,
    dtype: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (shape, seed, d) = (shape_of(shape)?, seed_pair(seed)?, as_dtype(dtype)?);
    let n = elements(&shape);
    run(py, n, || lattensor::random::stateless_normal(&shape, seed, mean, stddev, d)).map(PyTensor::new)
}

/// Truncated normal floats (`lattensor::random::stateless_truncated_normal`).
#[pyfunction]
fn stateless_truncated_normal_float(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    mean: f64,
    stddev: f64,
    dtype: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (shape, seed, d) = (shape_of(shape)?, seed_pair(seed)?, as_dtype(dtype)?);
    let n = elements(&shape);
    run(py, n, || lattensor::random::stateless_truncated_normal(&shape, seed, mean, stddev, d)).map(PyTensor::new)
}

/// Poisson counts (`lattensor::random::stateless_poisson`).
#[pyfunction]
fn stateless_poisson_counts(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    lam: &Bound<'_, PyAny>,
    dtype: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let (shape, seed, d) = (shape_of(shape)?, seed_pair(seed)?, as_dtype(dtype)?);
    let lam = args::to_tensor(lam)?;
    let n = elements(&shape);
    run(py, n, || lattensor::random::stateless_poisson(&shape, seed, &lam, d)).map(PyTensor::new)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(stateless_uniform_float, m)?,
        wrap_pyfunction!(stateless_uniform_int, m)?,
        wrap_pyfunction!(stateless_uniform_full_int, m)?,
        wrap_pyfunction!(stateless_normal_float, m)?,
        wrap_pyfunction!(stateless_truncated_normal_float, m)?,
        wrap_pyfunction!(stateless_poisson_counts, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
