//! `tf.nn` bindings: activations, softmax and the depth/space rearrangements.

use pyo3::prelude::*;

use crate::args::{self, Opt, run};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

/// `tf.nn.leaky_relu(features, alpha=0.2)`.
#[pyfunction]
#[pyo3(signature = (features, alpha = 0.2, name = None))]
pub fn leaky_relu(py: Python<'_>, features: &Bound<'_, PyAny>, alpha: f64, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(features)?;
    run(py, t.numel(), || lattensor::ops::nn::leaky_relu(&t, alpha)).map(PyTensor::new)
}

/// `tf.nn.swish(features, beta=1.0)`.
#[pyfunction]
#[pyo3(signature = (features, beta = 1.0, name = None))]
pub fn swish(py: Python<'_>, features: &Bound<'_, PyAny>, beta: f64, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(features)?;
    run(py, t.numel(), || lattensor::ops::nn::swish(&t, beta)).map(PyTensor::new)
}

/// `tf.nn.gelu(features, approximate=False)`.
#[pyfunction]
#[pyo3(signature = (features, approximate = false, name = None))]
pub fn gelu(py: Python<'_>, features: &Bound<'_, PyAny>, approximate: bool, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(features)?;
    run(py, t.numel(), || lattensor::ops::nn::gelu(&t, approximate)).map(PyTensor::new)
}

/// `tf.nn.log_softmax(logits, axis=-1)`.
#[pyfunction]
#[pyo3(signature = (logits, axis = None, name = None))]
pub fn log_softmax(
    py: Python<'_>,
    logits: &Bound<'_, PyAny>,
    axis: Option<i32>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(logits)?;
    run(py, t.numel(), || lattensor::ops::nn::log_softmax(&t, axis.unwrap_or(-1))).map(PyTensor::new)
}

/// `tf.nn.softmax(logits, axis=-1)`.
#[pyfunction]
#[pyo3(signature = (logits, axis = None, name = None))]
pub fn softmax(py: Python<'_>, logits: &Bound<'_, PyAny>, axis: Option<i32>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(logits)?;
    run(py, t.numel(), || lattensor::ops::nn::softmax(&t, axis.unwrap_or(-1))).map(PyTensor::new)
}

fn nhwc(data_format: &str) -> PyResult<()> {
    if data_format != "NHWC" {
        return Err(crate::errors::UnimplementedError::new_err(format!(
            "data_format {data_format:?} is not supported; only NHWC is"
        )));
    }
    Ok(())
}

/// `tf.nn.space_to_depth(input, block_size, data_format="NHWC")`.
#[pyfunction]
#[pyo3(signature = (input, block_size, data_format = "NHWC", name = None))]
pub fn space_to_depth(
    input: &Bound<'_, PyAny>,
    block_size: usize,
    data_format: &str,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    nhwc(data_format)?;
    let t = args::to_tensor(input)?;
    lattensor::ops::nn::space_to_depth(&t, block_size).py().map(PyTensor::new)
}

/// `tf.nn.depth_to_space(input, block_size, data_format="NHWC")`.
#[pyfunction]
#[pyo3(signature = (input, block_size, data_format = "NHWC", name = None))]
pub fn depth_to_space(
    input: &Bound<'_, PyAny>,
    block_size: usize,
    data_format: &str,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    nhwc(data_format)?;
    let t = args::to_tensor(input)?;
    lattensor::ops::nn::depth_to_space(&t, block_size).py().map(PyTensor::new)
}

/// Adds the functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(leaky_relu, m)?,
        wrap_pyfunction!(swish, m)?,
        wrap_pyfunction!(gelu, m)?,
        wrap_pyfunction!(log_softmax, m)?,
        wrap_pyfunction!(softmax, m)?,
        wrap_pyfunction!(space_to_depth, m)?,
        wrap_pyfunction!(depth_to_space, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
