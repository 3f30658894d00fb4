//! Rust errors as Python exceptions, in TensorFlow's families.
//!
//! `lattensor.errors.OpError` is the base of the op errors, as `tf.errors.OpError`
//! is in TensorFlow; promotion refusals and immutable variable dtypes are
//! Python `TypeError`s (what TF raises), integer literals outside the dtype asked
//! for `OverflowError` (TF's), and I/O failures `OSError`.
//!
//! Where TF's Python layer refuses an argument with a built-in exception, the
//! library error says which ([`Category::InvalidValue`], `InvalidType`,
//! `InvalidIndex`), and the exception raised derives from both
//! `InvalidArgumentError` and that built-in: `except ValueError:` written for TF
//! catches it, and so does `except InvalidArgumentError:`.

use lattensor::{Category, Error};
use pyo3::exceptions::{PyException, PyIndexError, PyOSError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

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

/// An `InvalidArgumentError` that is also one of Python's built-in exceptions.
struct Dual {
    /// The class name in `lattensor.errors`.
    name: &'static str,
    /// The docstring.
    doc: &'static str,
    /// The class, made on first use.
    class: PyOnceLock<Py<PyType>>,
}

impl Dual {
    const fn new(name: &'static str, doc: &'static str) -> Self {
        Dual { name, doc, class: PyOnceLock::new() }
    }

    /// `class {name}(InvalidArgumentError, builtin)` in `lattensor.errors`.
    fn get<'py>(&self, py: Python<'py>, builtin: Bound<'py, PyType>) -> PyResult<&Bound<'py, PyType>> {
        self.class
            .get_or_try_init(py, || {
                let bases = PyTuple::new(py, [py.get_type::<InvalidArgumentError>(), builtin])?;
                let ns = PyDict::new(py);
                ns.set_item("__module__", "lattensor.errors")?;
                ns.set_item("__doc__", self.doc)?;
                let ty = py.get_type::<PyType>().call1((self.name, bases, ns))?;
                Ok::<_, PyErr>(ty.cast_into::<PyType>()?.unbind())
            })
            .map(|t| t.bind(py))
    }
}

static INVALID_VALUE: Dual = Dual::new(
    "InvalidValueError",
    "An invalid argument TF refuses with ValueError: both InvalidArgumentError and ValueError.",
);
static INVALID_TYPE: Dual = Dual::new(
    "InvalidTypeError",
    "An invalid argument TF refuses with TypeError: both InvalidArgumentError and TypeError.",
);
static INVALID_INDEX: Dual = Dual::new(
    "InvalidIndexError",
    "An invalid index or axis TF refuses with IndexError: both InvalidArgumentError and IndexError.",
);

/// `err` raised as the [`Dual`] class for `builtin` (the plain built-in if the class cannot be made).
fn dual_err<B: pyo3::PyTypeInfo>(dual: &Dual, msg: String) -> PyErr {
    Python::attach(|py| match dual.get(py, py.get_type::<B>()) {
        Ok(ty) => PyErr::from_type(ty.clone(), (msg,)),
        Err(e) => e,
    })
}

/// `lattensor.errors.InvalidValueError(msg)`: an argument TF's kernel refuses
/// (`InvalidArgumentError`) and NumPy refuses with `ValueError`, or one TF's
/// Python layer refuses with `ValueError`.
pub fn invalid_value(msg: impl Into<String>) -> PyErr {
    dual_err::<PyValueError>(&INVALID_VALUE, msg.into())
}

/// `lattensor.errors.InvalidIndexError(msg)`: an index TF's kernel refuses
/// (`InvalidArgumentError`) and NumPy refuses with `IndexError`.
pub fn invalid_index(msg: impl Into<String>) -> PyErr {
    dual_err::<PyIndexError>(&INVALID_INDEX, msg.into())
}

/// The Python exception for a library error, with the library's message.
pub fn to_py(e: Error) -> PyErr {
    let msg = python_message(&e);
    match e.category() {
        Category::InvalidArgument => InvalidArgumentError::new_err(msg),
        Category::InvalidValue => dual_err::<PyValueError>(&INVALID_VALUE, msg),
        Category::InvalidType => dual_err::<PyTypeError>(&INVALID_TYPE, msg),
        Category::InvalidIndex => dual_err::<PyIndexError>(&INVALID_INDEX, msg),
        Category::Type => PyTypeError::new_err(msg),
        Category::OutOfRange => OutOfRangeError::new_err(msg),
        Category::Overflow => PyOverflowError::new_err(msg),
        Category::ResourceExhausted => ResourceExhaustedError::new_err(msg),
        Category::Unimplemented => UnimplementedError::new_err(msg),
        Category::Io => PyOSError::new_err(msg),
    }
}

/// The error's message, with its advice in Python: a promotion refusal
/// suggests `tf.cast(x, tf.float32)` and `tf.promotion_mode("all")` where the
/// library's message (written for Rust callers) says `x.cast(DType::F32)` and
/// names the modes as Rust values.
fn python_message(e: &Error) -> String {
    let msg = e.to_string();
    match e {
        Error::Promotion { suggestion, .. } => msg
            .replace(
                &format!("`x.cast(DType::{:?})`", suggestion.dtype),
                &format!("`tf.cast(x, tf.{})`", suggestion.dtype.name()),
            )
            .replace("(such as from Safe to All)", "(such as `tf.promotion_mode(\"all\")` instead of \"safe\")")
            .replace(
                "(such as from Strict to Safe or All)",
                "(such as `tf.promotion_mode(\"safe\")` or \"all\" instead of \"strict\")",
            ),
        // a low-precision dtype's advice names the cast (`x.cast(DType::F32)`)
        Error::UnsupportedDType { dtype, .. } if dtype.is_low_precision() => lattensor::DType::ALL
            .iter()
            .fold(msg, |m, d| m.replace(&format!("`x.cast(DType::{d:?})`"), &format!("`tf.cast(x, tf.{})`", d.name()))),
        _ => msg,
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

/// A library result with `op`'s own argument checks as NumPy's `ValueError`
/// (the `InvalidValueError` class): an [`Error::InvalidArgument`] whose message
/// starts with `"{op}: "` (the ops `op` is built from name themselves); every
/// other error as [`to_py`].
pub fn value_errors<T>(op: &str, r: lattensor::Result<T>) -> PyResult<T> {
    match r {
        Err(Error::InvalidArgument(m)) if m.strip_prefix(op).is_some_and(|rest| rest.starts_with(": ")) => {
            Err(dual_err::<PyValueError>(&INVALID_VALUE, m))
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
    m.add(INVALID_VALUE.name, INVALID_VALUE.get(py, py.get_type::<PyValueError>())?)?;
    m.add(INVALID_TYPE.name, INVALID_TYPE.get(py, py.get_type::<PyTypeError>())?)?;
    m.add(INVALID_INDEX.name, INVALID_INDEX.get(py, py.get_type::<PyIndexError>())?)?;
    Ok(())
}
