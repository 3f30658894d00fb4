//! Literal values (weak scalars) and the operands ops accept.

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::promote::LatticeType;
use crate::{DType, Tensor};

/// A literal value whose dtype nobody declared: a Rust number used as an operand.
///
/// Its lattice type follows TF's Python-literal inference, with one
/// improvement: an integer that does not fit int32 is `i64*` instead of an
/// `OverflowError`.
///
/// | literal | lattice type |
/// |---|---|
/// | integer in the int32 range | `i32*` |
/// | other integer in the int64 range | `i64*` |
/// | integer above `i64::MAX` | error: no weak uint64 exists; use a strong `uint64` tensor |
/// | float (`f32`, `f64`, `f16`, `bf16`) | `f32*` (the value keeps full precision until it meets a dtype) |
/// | complex | `c128*` |
/// | bool | strong `bool` |
///
/// ```
/// use lattensor::Scalar;
/// assert_eq!(Scalar::from(5).lattice_type().unwrap().to_string(), "int32*");
/// assert_eq!(Scalar::from(1i64 << 40).lattice_type().unwrap().to_string(), "int64*");
/// assert_eq!(Scalar::from(0.5).lattice_type().unwrap().to_string(), "float32*");
/// assert_eq!(Scalar::from(true).lattice_type().unwrap().to_string(), "bool");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A boolean (strong).
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer beyond `i64::MAX` is kept here.
    UInt(u64),
    /// A real number.
    Float(f64),
    /// A complex number.
    Complex(Complex64),
}

impl Scalar {
    /// The lattice type of the literal.
    ///
    /// # Errors
    /// [`Error::Overflow`] for an unsigned integer above `i64::MAX` (Python:
    /// `OverflowError`, as TF's NumPy behaviour raises for `2**63`).
    pub fn lattice_type(&self) -> Result<LatticeType> {
        let weak = |d| LatticeType::weak_or_strong(d, true);
        Ok(match *self {
            Scalar::Bool(_) => LatticeType::strong(DType::Bool),
            Scalar::Int(v) if i32::try_from(v).is_ok() => weak(DType::I32),
            Scalar::Int(_) => weak(DType::I64),
            Scalar::UInt(v) if v <= i32::MAX as u64 => weak(DType::I32),
            Scalar::UInt(v) if v <= i64::MAX as u64 => weak(DType::I64),
            Scalar::UInt(v) => {
                return Err(Error::Overflow(format!(
                    "integer literal {v} is too large for a weak int64; make it a strong uint64 tensor, e.g. Tensor::scalar({v}u64)"
                )));
            }
            Scalar::Float(_) => weak(DType::F32),
            Scalar::Complex(_) => weak(DType::C128),
        })
    }

    /// The literal as the nearest value of `dtype` where that differs from
    /// converting it later: TF converts a weak literal to the result dtype before
    /// computing, and float16/bfloat16 kernels compute in float32, so the
    /// literal must be rounded to 16 bits first (`f16 ** 2.2` uses 2.19921875).
    pub(crate) fn rounded_to(self, dtype: DType) -> Scalar {
        match self {
            Scalar::Bool(_) | Scalar::Complex(_) => self,
            _ => crate::with_half_dtype!(dtype, H, Scalar::Float(self.to::<H>().cast_into()), other => self),
        }
    }

    /// The literal converted to `T` with cast semantics, from its full-precision value.
    pub fn to<T: Element>(&self) -> T {
        match *self {
            Scalar::Bool(b) => T::from_bool(b),
            Scalar::Int(v) => T::from_i64(v),
            Scalar::UInt(v) => T::from_u64(v),
            Scalar::Float(v) => T::from_f64(v),
            Scalar::Complex(v) => T::from_c128(v),
        }
    }

    /// The literal as a tensor of its lattice type (`5` → `i32*` holding 5).
    ///
    /// # Errors
    /// As [`Scalar::lattice_type`].
    pub fn to_tensor(&self) -> Result<Tensor> {
        let t = self.lattice_type()?;
        Ok(self.to_tensor_as(t.dtype).with_weak(t.weak))
    }

    /// The literal converted to a strong 0-d tensor of `dtype`.
    pub fn to_tensor_as(&self, dtype: DType) -> Tensor {
        crate::with_dtype!(dtype, T, Tensor::scalar(self.to::<T>()))
    }
}

impl std::fmt::Display for Scalar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Scalar::Bool(b) => write!(f, "{}", if b { "True" } else { "False" }),
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::UInt(v) => write!(f, "{v}"),
            Scalar::Float(v) => write!(f, "{v:?}"),
            Scalar::Complex(c) => write!(f, "({:?}{:+?}j)", c.re, c.im),
        }
    }
}

macro_rules! scalar_from {
    ($variant:ident: $($t:ty => $conv:expr),*) => {$(
        impl From<$t> for Scalar {
            fn from(x: $t) -> Scalar {
                #[allow(clippy::redundant_closure_call)]
                Scalar::$variant(($conv)(x))
            }
        }
    )*};
}
scalar_from!(Bool: bool => |x| x);
scalar_from!(Int: i8 => i64::from, i16 => i64::from, i32 => i64::from, i64 => |x| x,
    u8 => i64::from, u16 => i64::from, u32 => i64::from);
scalar_from!(Float: f32 => f64::from, f64 => |x| x, f16 => |x: f16| x.to_f64(), bf16 => |x: bf16| x.to_f64());
scalar_from!(Complex: Complex32 => |x: Complex32| Complex64::new(x.re.into(), x.im.into()), Complex64 => |x| x);

impl From<u64> for Scalar {
    fn from(x: u64) -> Scalar {
        match i64::try_from(x) {
            Ok(v) => Scalar::Int(v),
            Err(_) => Scalar::UInt(x),
        }
    }
}

impl From<usize> for Scalar {
    fn from(x: usize) -> Scalar {
        Scalar::from(x as u64)
    }
}

impl From<isize> for Scalar {
    fn from(x: isize) -> Scalar {
        Scalar::Int(x as i64)
    }
}

/// An operand of an op: a tensor (borrowed) or a literal.
#[derive(Clone, Debug)]
pub enum Operand<'a> {
    /// A tensor, with its own dtype and weakness.
    Tensor(&'a Tensor),
    /// A literal, weak per [`Scalar`].
    Scalar(Scalar),
}

impl Operand<'_> {
    /// The operand's lattice type.
    ///
    /// # Errors
    /// As [`Scalar::lattice_type`].
    pub fn lattice_type(&self) -> Result<LatticeType> {
        match self {
            Operand::Tensor(t) => Ok(t.lattice_type()),
            Operand::Scalar(s) => s.lattice_type(),
        }
    }

    /// The operand's shape (`[]` for a literal).
    pub fn shape(&self) -> &[usize] {
        match self {
            Operand::Tensor(t) => t.shape(),
            Operand::Scalar(_) => &[],
        }
    }

    /// A human description for error messages: `int32 tensor of shape [2, 3]` or `literal 1.5`.
    pub fn describe(&self) -> String {
        match self {
            Operand::Tensor(t) => format!("{} tensor of shape {:?}", t.lattice_type(), t.shape()),
            Operand::Scalar(s) => format!("literal {s}"),
        }
    }
}

impl<'a> From<&'a Tensor> for Operand<'a> {
    fn from(t: &'a Tensor) -> Self {
        Operand::Tensor(t)
    }
}

impl From<Scalar> for Operand<'_> {
    fn from(s: Scalar) -> Self {
        Operand::Scalar(s)
    }
}

macro_rules! operand_from_scalar {
    ($($t:ty),*) => {$(
        impl From<$t> for Operand<'_> {
            fn from(x: $t) -> Self { Operand::Scalar(Scalar::from(x)) }
        }
    )*};
}
operand_from_scalar!(
    bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64, f16, bf16, Complex32, Complex64
);
