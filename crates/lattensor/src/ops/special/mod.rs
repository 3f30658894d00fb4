//! Special functions of `tf.math` and `tf.math.special`, accurate to a few ulp in `float64`.
//!
//! Every function is written for `f64`; `float32` inputs are computed in `f64` and
//! rounded once, and `bfloat16`/`float16` inputs are computed in `f64` and rounded
//! once to their dtype. Results keep the input's dtype and weakness; integer, bool
//! and complex inputs are refused with [`Error::UnsupportedDType`](crate::Error).
//! Measured accuracy and conventions: `docs/special_functions.md`.

mod bessel;
use crate::kernels::dd;
mod erf;
mod gamma;
mod integrals;

use crate::Tensor;
use crate::core::error::Result;
use crate::dispatch::{Compute, FloatStorage};
use crate::kernels;
use crate::ops::map::Map1;

pub use bessel::tensor::{
    bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0, bessel_j1, bessel_k0, bessel_k0e, bessel_k1, bessel_k1e,
    bessel_y0, bessel_y1,
};
pub use erf::tensor::{erf, erfc, erfcinv, erfinv, ndtri};
pub(crate) use gamma::tensor::trigamma;
pub use gamma::tensor::{digamma, lgamma};
pub use integrals::tensor::{dawsn, expint, fresnel_cos, fresnel_sin, spence};

/// Scalar `f64` kernels, for callers that want them without a tensor.
pub mod scalar {
    pub use super::bessel::{i0, i0e, i1, i1e, j0, j1, k0, k0e, k1, k1e, y0, y1};
    pub use super::erf::{erf, erfc, erfcinv, erfinv, ndtri};
    pub use super::gamma::{digamma, lgamma, trigamma};
    pub use super::integrals::{dawsn, expint, fresnel_cos, fresnel_sin, spence};
}

/// An `f64` function applied to a real float tensor: every dtype is read as its
/// compute type, widened exactly to f64, and the result rounded once to the dtype.
pub(crate) struct F64Fn<'a> {
    /// The op's name, for errors.
    pub name: &'a str,
    /// The function.
    pub f: fn(f64) -> f64,
}

impl Map1 for F64Fn<'_> {
    fn name(&self) -> &str {
        self.name
    }
    #[inline(always)]
    fn real<C: Compute, S: FloatStorage>(&self, x: C) -> S {
        S::round_f64((self.f)(x.cast_into::<f64>()))
    }
}

/// Applies an `f64` function element-wise to a real float tensor, keeping dtype and weakness.
pub(crate) fn map_f64(name: &str, x: &Tensor, f: fn(f64) -> f64) -> Result<Tensor> {
    F64Fn { name, f }.map(x)
}

/// A function's slice form: `out[i] = f(x[i])` for every `i`.
pub(crate) type SliceFn = fn(&[f64], &mut [f64]);

/// [`map_f64`], or for a function that also has a slice form (`slice(x, out)` gives
/// `out[i] = f(x[i])`, the same bits, faster) the tensor read a block at a time in f64
/// and each block computed at once.
pub(crate) fn map_f64_with(name: &str, x: &Tensor, f: fn(f64) -> f64, slice: Option<SliceFn>) -> Result<Tensor> {
    let Some(slice) = slice else {
        return map_f64(name, x, f);
    };
    let d = x.dtype();
    let mut out = Tensor::for_overwrite(name, x.shape(), d)?;
    crate::with_float_dtype!(d, C, S,
        kernels::unary_slices_compute_bound::<f64, S, _>(x, out.data_mut::<S>(), |x, o| {
            // (for f64 the rounding is a copy: 8 bytes an element, against ~5 ns of compute)
            let mut wide = [0.0f64; 256];
            for (x, o) in x.chunks(256).zip(o.chunks_mut(256)) {
                let w = &mut wide[..x.len()];
                slice(x, w);
                for (o, &v) in o.iter_mut().zip(w.iter()) {
                    *o = S::round_f64(v);
                }
            }
        }),
        other => return map_f64(name, x, f));
    Ok(out.with_weak(x.is_weak()))
}

/// `special_fn!(docs, name, "tf_name", f)` defines the tensor function `name` from the
/// scalar `f`; a fourth argument names `f`'s slice form (see [`map_f64_with`]).
macro_rules! special_fn {
    ($(#[$doc:meta])* $name:ident, $tf:expr, $f:path $(, $slice:path)?) => {
        $(#[$doc])*
        ///
        /// Keeps the input's dtype and weakness; `float32`, `float16` and `bfloat16` are
        /// computed in `float64` and rounded once.
        ///
        /// # Errors
        /// [`Error::UnsupportedDType`](crate::Error::UnsupportedDType) for integer, bool and complex
        /// inputs (cast to a float first).
        pub fn $name(x: &Tensor) -> Result<Tensor> {
            let slice: Option<$crate::ops::special::SliceFn> = None $(.or(Some($slice)))?;
            $crate::core::tape::op(
                &[x],
                || $crate::ops::special::map_f64_with($tf, x, $f, slice),
                || $crate::core::tape::TapeOp::Unary($tf),
            )
        }
    };
}
pub(crate) use special_fn;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    #[test]
    fn special_dtypes_and_errors() {
        let x = Tensor::from_vec(vec![0.5f32, 1.0], &[2]).unwrap();
        let y = erf(&x).unwrap();
        assert_eq!(y.dtype(), DType::F32);
        let v = y.to_vec::<f32>().unwrap();
        assert_eq!(v[0], 0.520_499_9_f32);
        let i = Tensor::from_vec(vec![1i32], &[1]).unwrap();
        assert!(erf(&i).is_err());
        let h = Tensor::from_vec(vec![half::bf16::from_f32(1.0)], &[1]).unwrap();
        assert_eq!(lgamma(&h).unwrap().dtype(), DType::BF16);
    }
}
