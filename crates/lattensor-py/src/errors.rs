//! Rust errors as Python exceptions, in TensorFlow's families.
//!
//! `lattensor.errors.OpError` is the base of the op errors, as `tf.errors.OpError`
//! is in TensorFlow; promotion refusals and immutable variable dtypes are
//! Python `TypeError`s (what TF raises), and I/O failures `OSError`.

use lattensor::{Category, Error};
use pyo3::exceptions::{PyException, PyOSError, PyTypeError};
use pyo3::prelude::*;

pyo3::create_exception!(errors, OpError, PyException, "Base of the errors an op raises (TF's `tf.errors.OpError`).");
pyo3::create_exception!(errors, InvalidArgumentError, OpError, "An op received an invalid argument.");
pyo3::create_exception!(errors, OutOfRangeError, OpError, "A value is outside the range an op accepts.");
pyo3::create_exception!(
    errors,
    ResourceExhaustedError,
    OpError,
    "An allocation would exceed the memory limit or overflow."
);
pyo3::create_exception!(errors, UnimplementedError, OpError, "An operation is not implemented for these inputs.");

/// The Python exception for a library error, with the library's message.
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e.category() {
        Category::InvalidArgument => InvalidArgumentError::new_err(msg),
        Category::Type => PyTypeError::new_err(msg),
        Category::OutOfRange => OutOfRangeError::new_err(msg),
        Category::ResourceExhausted => ResourceExhaustedError::new_err(msg),
        Category::Unimplemented => UnimplementedError::new_err(msg),
        Category::Io => PyOSError::new_err(msg),
    }
}

/// `?`-friendly conversion: `lib_call().map_err(to_py)?` written as `lib_call().py()?`.
pub trait IntoPyResult<T> {
    /// Converts a library result into a Python result.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for lattensor::Result<T> {
    #[inline]
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

/// A library result with `op`'s own argument checks as NumPy's `ValueError`:
/// an [`Error::InvalidArgument`] whose message starts with `"{op}: "` (the
/// ops `op` is built from name themselves); every other error as [`to_py`].
pub fn value_errors<T>(op: &str, r: lattensor::Result<T>) -> PyResult<T> {
    match r {
        Err(Error::InvalidArgument(m)) if m.strip_prefix(op).is_some_and(|rest| rest.starts_with(": ")) => {
            Err(pyo3::exceptions::PyValueError::new_err(m))
        }
        r => r.py(),
    }
}

/// Adds the exception classes to the `errors` submodule.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("OpError", py.get_type::<OpError>())?;
    m.add("InvalidArgumentError", py.get_type::<InvalidArgumentError>())?;
    m.add("OutOfRangeError", py.get_type::<OutOfRangeError>())?;
    m.add("ResourceExhaustedError", py.get_type::<ResourceExhaustedError>())?;
    m.add("UnimplementedError", py.get_type::<UnimplementedError>())?;
    Ok(())
}
