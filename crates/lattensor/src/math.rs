//! `tf.math`: every function under its TF name.
//!
//! This module re-exports the element-wise, comparison and reduction ops of
//! [`crate::ops`] so that `tf.math.<name>` is `lattensor::math::<name>` — the
//! names are identical, so no renaming table is needed — and
//! `tf.math.special.<name>` is [`math::special::<name>`](special). Each
//! function's own documentation gives its promotion and weakness rule.
//! Reductions take an [`Axes`] (`None` for all axes, an `i32`, or a list)
//! and `keepdims`, as TF's `axis` and `keepdims`.
//!
//! ```
//! use lattensor::{math, DType, Tensor};
//! let x = Tensor::from_vec(vec![1.0f32, 4.0, 9.0], &[3]).unwrap();
//! assert_eq!(math::sqrt(&x).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
//! let s = math::reduce_sum(&x, None, false).unwrap();
//! assert_eq!((s.dtype(), s.item::<f32>().unwrap()), (DType::F32, 14.0));
//! let i = math::special::bessel_i0(&Tensor::scalar(0.0f64)).unwrap();
//! assert_eq!(i.item::<f64>().unwrap(), 1.0);
//! ```

pub use crate::ops::special::{bessel_i0, bessel_i0e, bessel_i1, bessel_i1e};
pub use crate::ops::{
    Axes, abs, acos, acosh, add, angle, asin, asinh, atan, atan2, atanh, ceil, conj, cos, cosh, digamma, divide,
    divide_no_nan, equal, erf, erfc, erfcinv, erfinv, exp, expm1, floor, floordiv, floormod, greater, greater_equal,
    imag, is_finite, is_inf, is_nan, less, less_equal, lgamma, log, log_sigmoid, log1p, logical_and, logical_not,
    logical_or, logical_xor, maximum, minimum, multiply, multiply_no_nan, ndtri, negative, not_equal, pow, real,
    reciprocal, reciprocal_no_nan, reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_std, reduce_sum, reduce_variance, rint, round, rsqrt, scalar_mul, sigmoid, sign, sin, sinh,
    softplus, sqrt, square, subtract, tan, tanh, truediv, truncatediv, truncatemod,
};

/// `tf.math.special`: Bessel functions, Dawson's integral, the exponential
/// integral, Fresnel integrals and Spence's function, under their TF names.
///
/// Accuracy (within 4 ulp of the true value in float64 on the golden points)
/// and conventions are in `docs/special_functions.md`.
///
/// ```
/// use lattensor::{math::special, Tensor};
/// let x = Tensor::from_vec(vec![0.0f64, 1.0], &[2]).unwrap();
/// assert_eq!(special::spence(&x).unwrap().to_vec::<f64>().unwrap()[1], 0.0);
/// assert_eq!(special::dawsn(&x).unwrap().to_vec::<f64>().unwrap()[0], 0.0);
/// ```
pub mod special {
    pub use crate::ops::special::{
        bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0, bessel_j1, bessel_k0, bessel_k0e, bessel_k1,
        bessel_k1e, bessel_y0, bessel_y1, dawsn, expint, fresnel_cos, fresnel_sin, spence,
    };
}
