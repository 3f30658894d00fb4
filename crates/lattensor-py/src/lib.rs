//! `lattensor._lattensor`: the compiled core of the `lattensor` Python package.
//!
//! The Python package (`python/lattensor`) arranges these functions under
//! TensorFlow's names (`lattensor.math.add`, `lattensor.experimental.numpy.abs`, …).
//! Everything here is a thin layer over the Rust library: arguments are
//! converted by TF's inference rules (args.rs), the library op runs under
//! the caller's promotion mode, and its `Error`s become TF-style exceptions
//! (errors.rs). Large inputs run with the GIL released.

mod args;
mod array_api;
mod autodiff;
mod classes;
mod creation;
mod decomp;
mod dlpack;
mod dtype;
mod errors;
mod fft;
mod image;
mod linalg;
mod migration;
mod mode;
mod nn;
mod ops;
mod random;
mod tensor;
mod tnp;
mod tnp_products;
mod variable;

use pyo3::prelude::*;

pub use crate::args::GIL_RELEASE_MIN_ELEMENTS;

#[pymodule]
fn _lattensor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<classes::PyTensor>()?;
    m.add_class::<classes::PyVariable>()?;
    m.add_class::<classes::PyDType>()?;
    m.add_class::<mode::ModeScope>()?;
    m.add_class::<migration::PyReport>()?;
    m.add("PromotionChangeWarning", m.py().get_type::<migration::PromotionChangeWarning>())?;
    for d in lattensor::DType::ALL {
        m.add(d.name(), classes::PyDType { d })?;
    }
    m.add_function(wrap_pyfunction!(mode::set_promotion_mode, m)?)?;
    m.add_function(wrap_pyfunction!(mode::get_promotion_mode, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack::from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(as_dtype, m)?)?;
    ops::register(m)?;
    creation::register(m)?;
    nn::register(m)?;
    image::register(m)?;
    linalg::register(m)?;
    decomp::register(m)?;
    fft::register(m)?;
    tnp::register(m)?;
    array_api::register(m)?;
    // NumPy-rule einsum lives in ops.rs (it shares the TF front end's code)
    let np = m.getattr("numpy")?.cast_into::<PyModule>()?;
    np.add_function(wrap_pyfunction!(ops::numpy_einsum, &np)?)?;
    np.setattr("einsum", np.getattr("numpy_einsum")?)?;
    random::register(m)?;
    autodiff::register(m)?;
    let errors = PyModule::new(py, "errors")?;
    errors::register(&errors)?;
    m.add_submodule(&errors)?;
    m.add("GIL_RELEASE_MIN_ELEMENTS", GIL_RELEASE_MIN_ELEMENTS)?;
    Ok(())
}

/// `lattensor.as_dtype(type_value)`: a DType from a DType, a name, a NumPy dtype/type, or `int`/`float`/`complex`/`bool`.
#[pyfunction]
fn as_dtype(type_value: &Bound<'_, PyAny>) -> PyResult<classes::PyDType> {
    Ok(classes::PyDType { d: args::as_dtype(type_value)? })
}
