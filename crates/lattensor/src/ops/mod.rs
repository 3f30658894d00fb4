//! Operations on tensors, each promoted through the lattice.
//!
//! Free functions take anything that converts into an [`Operand`]: a
//! `&Tensor` or a Rust literal (weak). `&Tensor` also implements the Rust
//! operators, which return `Result<Tensor>` because promotion or broadcasting
//! can fail:
//!
//! ```
//! use lattensor::{DType, Tensor};
//! let x = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
//! let y = (&x + 1.0).unwrap();          // f32 ⊕ f32* → f32
//! assert_eq!(y.to_vec::<f32>().unwrap(), vec![2.0, 3.0]);
//! let z = (2 * &y).unwrap();
//! assert_eq!(z.dtype(), DType::F32);
//! let u = (&Tensor::scalar(7u8) + lattensor::Scalar::from(1u8)).unwrap(); // any other Rust type
//! assert_eq!(u.dtype(), DType::U8);
//! let n = (-&z).unwrap();
//! assert_eq!(n.to_vec::<f32>().unwrap(), vec![-4.0, -6.0]);
//! ```

pub mod activation;
mod annex_g;
mod arg;
pub(crate) mod array_ops;
pub(crate) mod binary;
pub(crate) mod bitcast;
mod bitwise;
pub(crate) mod categorical;
pub(crate) mod combine;
pub(crate) mod compare;
pub(crate) mod creation;
pub mod decomp;
pub mod fft;
pub(crate) mod gather;
pub(crate) mod map;
pub mod matrix;
pub mod preferred;
pub(crate) mod reduce;
pub(crate) mod saturate;
pub mod scalar_arith;
pub mod special;
pub(crate) mod unary;

/// The old path of [`matrix`] (`tf.linalg`'s implementations).
#[doc(hidden)]
pub use activation as nn;
/// The old path of [`activation`] (`tf.nn`'s implementations).
#[doc(hidden)]
pub use matrix as linalg;
/// The old path of [`scalar_arith`].
#[doc(hidden)]
pub use scalar_arith as num;

pub use arg::{argmax, argmin};
pub use binary::{
    add, atan2, clip_by_value, divide, divide_no_nan, floordiv, floormod, heaviside, hypot, maximum, minimum, multiply,
    multiply_no_nan, negative, pow, realdiv, scalar_mul, subtract, truediv_type, truncatediv, truncatemod,
};
pub use bitwise::{bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift};
pub use compare::{equal, greater, greater_equal, less, less_equal, logical_and, logical_or, logical_xor, not_equal};
pub use gather::unsorted_segment_sum;
pub use reduce::{
    Axes, reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std,
    reduce_sum, reduce_variance,
};
pub use saturate::saturate_cast;
pub use special::{digamma, erf, erfc, erfcinv, erfinv, lgamma, ndtri};
pub use unary::{
    abs, acos, acosh, angle, asin, asinh, atan, atanh, ceil, conj, cos, cosh, exp, expm1, floor, imag, invert,
    is_finite, is_inf, is_nan, log, log_sigmoid, log1p, logical_not, real, reciprocal, reciprocal_no_nan, rint, round,
    rsqrt, sigmoid, sign, sin, sinh, softplus, sqrt, square, tan, tanh,
};

use crate::Tensor;
use crate::core::error::Result;
use crate::core::scalar::Operand;
use crate::core::scalar::Scalar;
use num_complex::Complex64;

/// Same as [`divide`] (TF's name).
pub fn truediv<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    divide(a, b)
}

macro_rules! operator {
    ($trait:ident, $method:ident, $f:path) => {
        impl std::ops::$trait<&Tensor> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $f(self, rhs)
            }
        }
        // Only the types Rust gives unsuffixed literals (i32, f64), so `&t + 1.0`
        // and `2 * &t` infer; other scalar types go through `Scalar::from(x)`.
        operator!(@scalars $trait, $method, $f, bool, i32, f64, Complex64, Scalar);
    };
    (@scalars $trait:ident, $method:ident, $f:path, $($t:ty),*) => {$(
        impl std::ops::$trait<$t> for &Tensor {
            type Output = Result<Tensor>;
            fn $method(self, rhs: $t) -> Result<Tensor> {
                $f(self, rhs)
            }
        }
        impl std::ops::$trait<&Tensor> for $t {
            type Output = Result<Tensor>;
            fn $method(self, rhs: &Tensor) -> Result<Tensor> {
                $f(self, rhs)
            }
        }
    )*};
}

operator!(Add, add, add);
operator!(Sub, sub, subtract);
operator!(Mul, mul, multiply);
operator!(Div, div, divide);
operator!(BitAnd, bitand, bitwise_and);
operator!(BitOr, bitor, bitwise_or);
operator!(BitXor, bitxor, bitwise_xor);
operator!(Shl, shl, left_shift);
operator!(Shr, shr, right_shift);

impl std::ops::Neg for &Tensor {
    type Output = Result<Tensor>;
    fn neg(self) -> Result<Tensor> {
        negative(self)
    }
}
