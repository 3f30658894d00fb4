//! `tf.image` bindings: brightness, gamma, patches and dtype conversion.

use lattensor::Scalar;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::args::{self, Arg, Opt, arg, as_dtype, ints, run};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

/// `tf.image.adjust_brightness(image, delta)`.
#[pyfunction]
#[pyo3(signature = (image, delta))]
pub fn adjust_brightness(py: Python<'_>, image: &Bound<'_, PyAny>, delta: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let t = args::to_tensor(image)?;
    let d = arg(delta)?;
    run(py, t.numel(), || lattensor::image::adjust_brightness(&t, d.operand())).map(PyTensor::new)
}

/// `tf.image.adjust_gamma(image, gamma=1, gain=1)`.
#[pyfunction]
#[pyo3(signature = (image, gamma = None, gain = None))]
pub fn adjust_gamma(
    py: Python<'_>,
    image: &Bound<'_, PyAny>,
    gamma: Opt<'_, '_>,
    gain: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let t = args::to_tensor(image)?;
    let one = || Arg::Scalar(Scalar::Int(1));
    let g = gamma.map(arg).transpose()?.unwrap_or_else(one);
    let k = gain.map(arg).transpose()?.unwrap_or_else(one);
    run(py, t.numel(), || lattensor::image::adjust_gamma(&t, g.operand(), k.operand())).map(PyTensor::new)
}

fn usizes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<usize>> {
    ints(obj, what)?
        .into_iter()
        .map(|v| usize::try_from(v).map_err(|_| PyValueError::new_err(format!("{what} entries must be ≥ 0"))))
        .collect()
}

/// `tf.image.extract_patches(images, sizes, strides, rates, padding)`.
#[pyfunction]
#[pyo3(signature = (images, sizes, strides, rates, padding, name = None))]
pub fn extract_patches(
    py: Python<'_>,
    images: &Bound<'_, PyAny>,
    sizes: &Bound<'_, PyAny>,
    strides: &Bound<'_, PyAny>,
    rates: &Bound<'_, PyAny>,
    padding: &str,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(images)?;
    let (sz, st, rt) = (usizes(sizes, "sizes")?, usizes(strides, "strides")?, usizes(rates, "rates")?);
    let pad: lattensor::image::Padding = padding.parse().py()?;
    run(py, t.numel(), || lattensor::image::extract_patches(&t, &sz, &st, &rt, pad)).map(PyTensor::new)
}

/// `tf.image.random_brightness(image, max_delta, seed=None)`.
#[pyfunction]
#[pyo3(signature = (image, max_delta, seed = None))]
pub fn random_brightness(
    py: Python<'_>,
    image: &Bound<'_, PyAny>,
    max_delta: f64,
    seed: Option<u64>,
) -> PyResult<PyTensor> {
    let t = args::to_tensor(image)?;
    run(py, t.numel(), || lattensor::image::random_brightness(&t, max_delta, seed)).map(PyTensor::new)
}

/// `tf.image.stateless_random_brightness(image, max_delta, seed)` (`seed`: two ints).
#[pyfunction]
#[pyo3(signature = (image, max_delta, seed))]
pub fn stateless_random_brightness(
    py: Python<'_>,
    image: &Bound<'_, PyAny>,
    max_delta: f64,
    seed: &Bound<'_, PyAny>,
) -> PyResult<PyTensor> {
    let t = args::to_tensor(image)?;
    let s = ints(seed, "seed")?;
    let [a, b] = s[..] else {
        return Err(PyValueError::new_err("seed must hold exactly two integers"));
    };
    run(py, t.numel(), || lattensor::image::stateless_random_brightness(&t, max_delta, [a as i64, b as i64]))
        .map(PyTensor::new)
}

/// `tf.image.convert_image_dtype(image, dtype, saturate=False)`.
#[pyfunction]
#[pyo3(signature = (image, dtype, saturate = false, name = None))]
pub fn convert_image_dtype(
    py: Python<'_>,
    image: &Bound<'_, PyAny>,
    dtype: &Bound<'_, PyAny>,
    saturate: bool,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(image)?;
    let d = as_dtype(dtype)?;
    run(py, t.numel(), || lattensor::image::convert_image_dtype(&t, d, saturate)).map(PyTensor::new)
}

/// Adds the functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(adjust_brightness, m)?,
        wrap_pyfunction!(adjust_gamma, m)?,
        wrap_pyfunction!(extract_patches, m)?,
        wrap_pyfunction!(random_brightness, m)?,
        wrap_pyfunction!(stateless_random_brightness, m)?,
        wrap_pyfunction!(convert_image_dtype, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
