//! `lattensor._lattensor.array_api`: the Array API namespace's binary
//! element-wise functions whose kernel is one lattice op, bound in Rust.
//!
//! The standard takes an array with an array or with a Python scalar of the
//! function's kinds. Those calls run here, with no Python frame (a closure's
//! frame and type checks were a fifth of a 0-d `xp.add`). Any other argument
//! goes to `lattensor.array_api._elementwise._checked`, which accepts what
//! the standard accepts (subclasses of the scalar types too) and raises its
//! `TypeError` for the rest.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt};

use crate::args::{arg, run};
use crate::classes::PyTensor;

/// Python `int` as an operand.
const INT: u8 = 1;
/// Python `float` as an operand.
const FLOAT: u8 = 2;
/// Python `complex` as an operand.
const COMPLEX: u8 = 4;
/// Python `bool` as an operand.
const BOOL: u8 = 8;
/// The arithmetic functions' kinds.
const NUMBER: u8 = INT | FLOAT | COMPLEX;
/// The ordered functions' kinds.
const REAL: u8 = INT | FLOAT;
/// The equality tests' kinds.
const ANY: u8 = NUMBER | BOOL;

/// Whether `obj` is a Python scalar of exactly one of `kinds` (subclasses,
/// such as NumPy's `float64` or `bool` for `int`, take the checked path).
fn exact_scalar(obj: &Bound<'_, PyAny>, kinds: u8) -> bool {
    (kinds & FLOAT != 0 && obj.is_exact_instance_of::<PyFloat>())
        || (kinds & INT != 0 && obj.is_exact_instance_of::<PyInt>())
        || (kinds & COMPLEX != 0 && obj.is_exact_instance_of::<PyComplex>())
        || (kinds & BOOL != 0 && obj.is_exact_instance_of::<PyBool>())
}

/// Whether `(x1, x2)` is an array with an array or with a scalar of `kinds`.
fn plain(x1: &Bound<'_, PyAny>, x2: &Bound<'_, PyAny>, kinds: u8) -> bool {
    let (a, b) = (x1.is_exact_instance_of::<PyTensor>(), x2.is_exact_instance_of::<PyTensor>());
    (a && (b || exact_scalar(x2, kinds))) || (b && exact_scalar(x1, kinds))
}

/// The Python path for other arguments: the standard's checks, then the same kernel.
fn checked<'py>(name: &str, x1: &Bound<'py, PyAny>, x2: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    x1.py().import("lattensor.array_api._elementwise")?.getattr("_checked")?.call1((name, x1, x2))
}

macro_rules! array_api_binary {
    ($($name:ident $py:literal $kinds:ident => $f:path, $doc:literal;)*) => {
        $(
            #[doc = $doc]
            #[pyfunction]
            #[pyo3(name = $py, signature = (x1, x2, /))]
            pub fn $name<'py>(x1: &Bound<'py, PyAny>, x2: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
                if !plain(x1, x2, $kinds) {
                    return checked($py, x1, x2);
                }
                let (a, b) = (arg(x1)?, arg(x2)?);
                let out = run(x1.py(), a.numel().max(b.numel()), || $f(a.operand(), b.operand()))?;
                Ok(Bound::new(x1.py(), PyTensor::new(out))?.into_any())
            }
        )*
        /// The names bound here, for `_elementwise.py` (which binds the rest).
        const NAMES: &[&str] = &[$($py),*];
        fn register_binary(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($name, m)?)?; )*
            m.add("RUST_BINARY", NAMES.to_vec())
        }
    };
}

array_api_binary!(
    add "add" NUMBER => lattensor::ops::add, "``x1 + x2``.";
    subtract "subtract" NUMBER => lattensor::ops::subtract, "``x1 - x2``.";
    multiply "multiply" NUMBER => lattensor::ops::multiply, "``x1 * x2``.";
    divide "divide" NUMBER => lattensor::ops::truediv, "``x1 / x2``.";
    pow "pow" NUMBER => lattensor::ops::pow, "``x1 ** x2``.";
    floor_divide "floor_divide" REAL => lattensor::ops::floordiv, "``x1 // x2``.";
    maximum "maximum" REAL => lattensor::ops::maximum, "The larger of each pair (NaN if either is NaN).";
    minimum "minimum" REAL => lattensor::ops::minimum, "The smaller of each pair (NaN if either is NaN).";
    less "less" REAL => lattensor::ops::less, "``x1 < x2``.";
    less_equal "less_equal" REAL => lattensor::ops::less_equal, "``x1 <= x2``.";
    greater "greater" REAL => lattensor::ops::greater, "``x1 > x2``.";
    greater_equal "greater_equal" REAL => lattensor::ops::greater_equal, "``x1 >= x2``.";
    equal "equal" ANY => lattensor::ops::equal, "``x1 == x2`` (bool).";
    not_equal "not_equal" ANY => lattensor::ops::not_equal, "``x1 != x2`` (bool).";
);

/// Registers the `array_api` submodule of `_lattensor`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "array_api")?;
    register_binary(&m)?;
    parent.add_submodule(&m)
}
