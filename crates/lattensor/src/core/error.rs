//! One error type for the whole library.
//!
//! Errors are data: each variant carries what a caller needs to understand
//! the failure (op, dtypes, shapes) and its message says what to do instead.
//! [`Error::category`] maps a variant to TensorFlow's exception family so the
//! Python package can raise `InvalidArgumentError`, `TypeError`, … .

use crate::DType;
use crate::promote::{LatticeType, PromotionMode};

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in lattensor.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A bad argument: unknown name, malformed input, wrong rank, … .
    #[error("{0}")]
    InvalidArgument(String),

    /// The active promotion mode refuses to combine two operands.
    #[error(
        "{op}: in promotion mode {mode}, implicit dtype promotion between ({}, weak={}) and ({}, weak={}) is disallowed{reason}. \
         Cast an operand explicitly (e.g. `x.cast(DType::{:?})`), pass an explicit dtype, or relax the promotion mode{relax}",
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
    #[error(
        "{op}: dtype {dtype} is not supported; supported dtypes are {supported}. Cast the input to one of them first (`x.cast(dtype)`)"
    )]
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

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn relax_hint(mode: PromotionMode) -> &'static str {
    match mode {
        PromotionMode::Safe => " (such as from Safe to All)",
        PromotionMode::Strict => " (such as from Strict to Safe or All)",
        _ => "",
    }
}

/// TensorFlow's exception families.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Category {
    /// `tf.errors.InvalidArgumentError`.
    InvalidArgument,
    /// Python `TypeError` (promotion refusals, immutable variable dtypes).
    Type,
    /// `tf.errors.OutOfRangeError`.
    OutOfRange,
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
            Error::Promotion { .. } | Error::VariableDType { .. } => Category::Type,
            Error::OutOfRange(_) => Category::OutOfRange,
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
/// or with any `Error` value given as a single expression.
#[macro_export]
macro_rules! bail {
    ($fmt:literal $($arg:tt)*) => {
        return ::std::result::Result::Err($crate::Error::InvalidArgument(format!($fmt $($arg)*)))
    };
    ($err:expr) => {
        return ::std::result::Result::Err($err)
    };
}

/// `ensure!(cond, "fmt", args…)`: bails with an [`Error::InvalidArgument`] unless `cond` holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($rest:tt)+) => {
        if !$cond {
            $crate::bail!($($rest)+);
        }
    };
}
