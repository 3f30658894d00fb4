//! One error type for the whole library.
//!
//! Errors are data: each variant carries what a caller needs to understand
//! the failure (op, dtypes, shapes) and its message says what to do instead.
//! [`Error::category`] maps a variant to TensorFlow's exception family so the
//! Python package can raise `InvalidArgumentError`, `TypeError`, … .
//!
//! TensorFlow refuses a bad argument in two places: its kernels raise
//! `InvalidArgumentError`, while its Python layer checks many arguments first
//! and raises Python's `ValueError`, `TypeError` or `IndexError`. Each check
//! here says which of the two TF uses for it: [`Error::InvalidArgument`] for
//! the kernel's refusal, [`Error::InvalidValue`], [`Error::InvalidType`] and
//! [`Error::InvalidIndex`] for the Python layer's. The Python package raises the
//! last three as classes derived from both `InvalidArgumentError` and the
//! built-in, so `except ValueError:` written for TF catches them.

use crate::DType;
use crate::promote::{LatticeType, PromotionMode};

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in lattensor.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A bad argument that TF's kernels refuse (`tf.errors.InvalidArgumentError`):
    /// unknown name, malformed input, wrong rank, … .
    #[error("{0}")]
    InvalidArgument(String),

    /// A bad argument that TF's Python layer refuses with `ValueError`: a value
    /// of the right type the op cannot accept (a zero step, a negative delta,
    /// a rank an op's wrapper checks, a strong tensor of another dtype, …).
    #[error("{0}")]
    InvalidValue(String),

    /// A bad argument that TF's Python layer refuses with `TypeError`: an input of
    /// a kind the op does not take (integers to `reduce_std`, a Python float
    /// converted to an integer dtype, a complex `arange` bound, …).
    #[error("{0}")]
    InvalidType(String),

    /// A bad index or axis that TF's Python layer refuses with `IndexError`.
    #[error("{0}")]
    InvalidIndex(String),

    /// The active promotion mode refuses to combine two operands.
    #[error(
        "{op}: in promotion mode {mode}, implicit dtype promotion between ({}, weak={}) and ({}, weak={}) is disallowed{reason}. \
         Cast an operand explicitly (e.g. `x.cast(DType::{:?})`){relax}",
        left.dtype, py_bool(left.weak), right.dtype, py_bool(right.weak), suggestion.dtype,
        relax = relax_hint(*mode)
    )]
    Promotion {
        /// The op that asked for the promotion.
        op: String,
        /// The mode that refused it.
        mode: PromotionMode,
        /// The left operand (or the accumulated type of the operands before it).
        left: LatticeType,
        /// The right operand.
        right: LatticeType,
        /// What `All` mode would have given: the natural explicit cast target.
        suggestion: LatticeType,
        /// Why the mode refuses it (starts with `: ` or is empty).
        reason: String,
    },

    /// An op does not support a dtype (TF: "Value for attr 'T' of … is not in the list of allowed values").
    #[error("{op}: dtype {dtype} is not supported; supported dtypes are {supported}. {}", cast_advice(*dtype, supported))]
    UnsupportedDType {
        /// The op.
        op: String,
        /// The refused dtype.
        dtype: DType,
        /// A human list of what the op accepts.
        supported: String,
    },

    /// Shapes that cannot be combined.
    #[error("{op}: incompatible shapes {lhs:?} and {rhs:?}: {hint}")]
    ShapeMismatch {
        /// The op.
        op: String,
        /// First shape.
        lhs: Vec<usize>,
        /// Second shape.
        rhs: Vec<usize>,
        /// What would work.
        hint: String,
    },

    /// A variable's dtype cannot change (TF's "Variable dtype is immutable").
    #[error(
        "Variable dtype is immutable. Calling {op} of Variable (with dtype {var}) on {value} requires converting it to {var}. \
         This is disabled in the current promotion semantics. Please convert the value manually (e.g. `value.cast(DType::{var:?})`) before calling {op}"
    )]
    VariableDType {
        /// `assign`, `assign_add` or `assign_sub`.
        op: String,
        /// The variable's dtype.
        var: DType,
        /// The offered value's lattice type, printed like `float32*`.
        value: LatticeType,
    },

    /// A value out of the representable or allowed range (TF: OutOfRangeError).
    #[error("{0}")]
    OutOfRange(String),

    /// A literal that does not fit the dtype asked for, which TF's Python layer
    /// refuses with `OverflowError` (`tf.constant(2**40, tf.int32)`).
    #[error("{0}")]
    Overflow(String),

    /// A size that would exceed memory limits or overflow (TF: ResourceExhaustedError).
    #[error("{0}")]
    ResourceExhausted(String),

    /// A feature not implemented (TF: UnimplementedError).
    #[error("{0}")]
    Unimplemented(String),

    /// An I/O or file-format failure.
    #[error("{0}")]
    Io(String),
}

/// What to do about a dtype an op does not take: cast to one it does; for a
/// low-precision storage dtype, name the cast (float32, or int8/uint8 for
/// int4/uint4 when the op takes integers).
fn cast_advice(dtype: DType, supported: &str) -> String {
    if !dtype.is_low_precision() {
        return "Cast the input to one of them first (`x.cast(dtype)`)".to_string();
    }
    let target = match dtype {
        DType::I4 if supported.contains("int8") => DType::I8,
        DType::U4 if supported.contains("uint8") => DType::U8,
        _ => DType::F32,
    };
    format!("{dtype} is a storage-and-cast dtype with no compute kernels: cast it first (`x.cast(DType::{target:?})`)")
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// The end of a promotion refusal's advice: relaxing the mode helps in Safe
/// and Strict; ALL refuses only pairs that have no join, where it cannot.
fn relax_hint(mode: PromotionMode) -> &'static str {
    match mode {
        PromotionMode::Safe => ", pass an explicit dtype, or relax the promotion mode (such as from Safe to All)",
        PromotionMode::Strict => {
            ", pass an explicit dtype, or relax the promotion mode (such as from Strict to Safe or All)"
        }
        _ => " or pass an explicit dtype",
    }
}

/// TensorFlow's exception families.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Category {
    /// `tf.errors.InvalidArgumentError`.
    InvalidArgument,
    /// `tf.errors.InvalidArgumentError` that is also a Python `ValueError`.
    InvalidValue,
    /// `tf.errors.InvalidArgumentError` that is also a Python `TypeError`.
    InvalidType,
    /// `tf.errors.InvalidArgumentError` that is also a Python `IndexError`.
    InvalidIndex,
    /// Python `TypeError` (promotion refusals, immutable variable dtypes).
    Type,
    /// `tf.errors.OutOfRangeError`.
    OutOfRange,
    /// Python `OverflowError` (an integer literal outside the requested dtype).
    Overflow,
    /// `tf.errors.ResourceExhaustedError`.
    ResourceExhausted,
    /// `tf.errors.UnimplementedError`.
    Unimplemented,
    /// `OSError`.
    Io,
}

impl Error {
    /// The TensorFlow exception family this error belongs to.
    pub fn category(&self) -> Category {
        match self {
            Error::InvalidArgument(_) | Error::ShapeMismatch { .. } | Error::UnsupportedDType { .. } => {
                Category::InvalidArgument
            }
            Error::InvalidValue(_) => Category::InvalidValue,
            Error::InvalidType(_) => Category::InvalidType,
            Error::InvalidIndex(_) => Category::InvalidIndex,
            Error::Promotion { .. } | Error::VariableDType { .. } => Category::Type,
            Error::OutOfRange(_) => Category::OutOfRange,
            Error::Overflow(_) => Category::Overflow,
            Error::ResourceExhausted(_) => Category::ResourceExhausted,
            Error::Unimplemented(_) => Category::Unimplemented,
            Error::Io(_) => Category::Io,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e.to_string())
    }
}

/// Returns early with an [`Error::InvalidArgument`] built from a format string,
/// with another message variant named first (`bail!(InvalidValue, "fmt", args…)`),
/// or with any `Error` value given as a single expression.
#[macro_export]
macro_rules! bail {
    ($fmt:literal $($arg:tt)*) => {
        return ::std::result::Result::Err($crate::Error::InvalidArgument(format!($fmt $($arg)*)))
    };
    (InvalidValue, $fmt:literal $($arg:tt)*) => {
        return ::std::result::Result::Err($crate::Error::InvalidValue(format!($fmt $($arg)*)))
    };
    (InvalidType, $fmt:literal $($arg:tt)*) => {
        return ::std::result::Result::Err($crate::Error::InvalidType(format!($fmt $($arg)*)))
    };
    (InvalidIndex, $fmt:literal $($arg:tt)*) => {
        return ::std::result::Result::Err($crate::Error::InvalidIndex(format!($fmt $($arg)*)))
    };
    ($err:expr) => {
        return ::std::result::Result::Err($err)
    };
}

/// `ensure!(cond, "fmt", args…)`: bails with an [`Error::InvalidArgument`] unless `cond` holds;
/// `ensure!(cond, InvalidValue, "fmt", args…)` (or `InvalidType`, `InvalidIndex`) with that variant.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($rest:tt)+) => {
        if !$cond {
            $crate::bail!($($rest)+);
        }
    };
}
