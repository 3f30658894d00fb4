//! `lattensor._lattensor`: the compiled core of the `lattensor` Python package.
//!
//! The Python package (`python/lattensor`) arranges these functions under
//! TensorFlow's names (`lattensor.math.add`, `lattensor.experimental.numpy.abs`, …).
//! Everything here is a thin layer over the Rust library: arguments are
//! converted by TF's inference rules (convert.rs), the library op runs under
//! the caller's promotion mode, and its `Error`s become TF-style exceptions
//! (errors.rs). Large inputs run with the GIL released.

mod convert;
mod dlpack;
mod dtype;
mod errors;
mod mode;
mod ops;
mod random;
mod tensor;
mod tnp;
mod variable;

use lattensor::promote::with_mode;
use pyo3::prelude::*;

use crate::errors::IntoPyResult;

/// Inputs with at least this many elements run with the GIL released: below
/// it, releasing and re-taking the GIL costs more than the kernel.
pub const GIL_RELEASE_MIN_ELEMENTS: usize = 1 << 14;

/// Runs a library call under the caller's promotion mode; releases the GIL
/// when `work` (elements touched) is large enough for other threads to gain.
#[inline]
pub fn run<R: Send>(py: Python<'_>, work: usize, f: impl FnOnce() -> lattensor::Result<R> + Send) -> PyResult<R> {
    let m = mode::effective();
    if work >= GIL_RELEASE_MIN_ELEMENTS { py.detach(|| with_mode(m, f)) } else { with_mode(m, f) }.py()
}

/// Runs a (cheap) library call under the caller's promotion mode, holding the GIL.
#[inline]
pub fn run_quiet<R>(f: impl FnOnce() -> R) -> R {
    with_mode(mode::effective(), f)
}

#[pymodule]
fn _lattensor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<tensor::PyTensor>()?;
    m.add_class::<variable::PyVariable>()?;
    m.add_class::<dtype::PyDType>()?;
    m.add_class::<mode::ModeScope>()?;
    for d in lattensor::DType::ALL {
        m.add(d.name(), dtype::PyDType { d })?;
    }
    m.add_function(wrap_pyfunction!(mode::set_promotion_mode, m)?)?;
    m.add_function(wrap_pyfunction!(mode::get_promotion_mode, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack::from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(as_dtype, m)?)?;
    ops::register(m)?;
    tnp::register(m)?;
    random::register(m)?;
    let errors = PyModule::new(py, "errors")?;
    errors::register(&errors)?;
    m.add_submodule(&errors)?;
    m.add("GIL_RELEASE_MIN_ELEMENTS", GIL_RELEASE_MIN_ELEMENTS)?;
    Ok(())
}

/// `lattensor.as_dtype(x)`: a DType from a DType, a name, a NumPy dtype/type, or `int`/`float`/`complex`/`bool`.
#[pyfunction]
fn as_dtype(x: &Bound<'_, PyAny>) -> PyResult<dtype::PyDType> {
    Ok(dtype::PyDType { d: dtype::as_dtype(x)? })
}
