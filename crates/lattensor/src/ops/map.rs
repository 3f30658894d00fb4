//! The op traits over the dispatch macros, in the manner of candle's
//! `Map1`/`Map2`: an op gives a generic function of one element per class of
//! element type, and the trait's default method does the one `match` over the
//! dtype (with the macros of [`crate::dispatch`], so half precision computes
//! in f32) and runs the element-wise kernel.
//!
//! [`Map1`] is for functions of one real or complex float tensor that keep its
//! dtype and weakness; [`Map2`] for promoted binary ops.

use std::sync::atomic::{AtomicBool, Ordering};

use num_complex::Complex;

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::dispatch::{Compute, FloatStorage, INEXACT, REAL_FLOATS, unsupported};
use crate::kernels::{self, Input};
use crate::ops::scalar_arith::Int;
use crate::promote::LatticeType;
use crate::{DType, Tensor};

/// An element-wise function of one real (or complex) float tensor that keeps
/// its dtype and weakness (`exp`, `sqrt`, the special functions, activations).
///
/// The op gives [`Map1::real`] for one element; [`Map1::map`] does the match
/// and runs it, monomorphic per dtype.
pub(crate) trait Map1: Sync + Sized {
    /// Whether complex inputs are accepted ([`Map1::complex`]).
    const COMPLEX: bool = false;

    /// The op's name, for errors and the allocation's label.
    fn name(&self) -> &str;

    /// The value for one element read as its compute type `C` (see the module
    /// docs), rounded to the storage type `S`.
    fn real<C: Compute, S: FloatStorage>(&self, x: C) -> S;

    /// The value for one complex element (only called if [`Map1::COMPLEX`]).
    fn complex<R: Compute>(&self, z: Complex<R>) -> Complex<R> {
        z
    }

    /// Applies the op element-wise, keeping `x`'s dtype and weakness.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for integer and bool inputs, and for complex
    /// ones unless [`Map1::COMPLEX`]; [`Error::ResourceExhausted`] if the
    /// result cannot be allocated.
    fn map(&self, x: &Tensor) -> Result<Tensor> {
        let d = x.dtype();
        let mut out = Tensor::for_overwrite(self.name(), x.shape(), d)?;
        let refused = || unsupported(self.name(), d, if Self::COMPLEX { INEXACT } else { REAL_FLOATS });
        crate::with_float_dtype!(d, C, S,
            kernels::unary::<C, S, _>(x, out.data_mut::<S>(), |v| self.real::<C, S>(v)),
            other => crate::with_complex_dtype!(d, R, {
                if !Self::COMPLEX {
                    return Err(refused());
                }
                kernels::unary::<Complex<R>, Complex<R>, _>(x, out.data_mut(), |z| self.complex(z))
            }, other => return Err(refused())));
        Ok(out.with_weak(x.is_weak()))
    }
}

/// A promoted binary op given per class of element type (integers, real
/// floats, complex); [`Map2::run`] does the match on the result dtype.
pub(crate) trait Map2 {
    /// The op's name, for errors.
    const NAME: &'static str;
    /// The dtypes the op takes, for [`Error::UnsupportedDType`].
    const SUPPORTED: &'static str;
    /// Whether the op takes `d`.
    fn accepts(d: DType) -> bool;
    /// `f(a, b)` for integers; `flag` is set when the result is invalid (integer
    /// division by zero, negative integer power).
    fn int<T: Int>(a: T, b: T, flag: &AtomicBool) -> T;
    /// `f(a, b)` for real floats, in the compute type (see the module docs).
    fn float<C: Compute>(a: C, b: C) -> C;
    /// `f(a, b)` for complex numbers.
    fn complex<R: Compute>(a: Complex<R>, b: Complex<R>) -> Complex<R>;
    /// The error raised when `flag` was set.
    fn flag_error() -> Error {
        Error::InvalidArgument(format!("{}: integer division by zero", Self::NAME))
    }

    /// Runs the op on promoted, broadcast operands of `shape` into a new
    /// tensor of `result`'s dtype and weakness.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] unless [`Map2::accepts`] the dtype;
    /// [`Map2::flag_error`] when the flag was set.
    fn run(a: &Input<'_>, b: &Input<'_>, shape: &[usize], result: LatticeType) -> Result<Tensor> {
        let d = result.dtype;
        if !Self::accepts(d) {
            return Err(unsupported(Self::NAME, d, Self::SUPPORTED));
        }
        let mut out = Tensor::for_overwrite(Self::NAME, shape, d)?;
        let flag = AtomicBool::new(false);
        crate::with_int_dtype!(d, T,
            kernels::binary::<T, _>(a, b, out.data_mut(), |x, y| Self::int(x, y, &flag)),
            other => crate::with_float_dtype!(d, C, S,
                kernels::binary_to::<C, S, _>(a, b, out.data_mut(), |x, y| Self::float(x, y).cast_into()),
                other => crate::with_complex_dtype!(d, R,
                    kernels::binary::<Complex<R>, _>(a, b, out.data_mut(), Self::complex::<R>),
                    other => return Err(unsupported(Self::NAME, d, Self::SUPPORTED)))));
        if flag.load(Ordering::Relaxed) {
            return Err(Self::flag_error());
        }
        Ok(out.with_weak(result.weak))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the compute type it was called with.
    struct Probe;
    impl Map1 for Probe {
        fn name(&self) -> &str {
            "probe"
        }
        fn real<C: Compute, S: FloatStorage>(&self, x: C) -> S {
            // 1 in the f32 path, 2 in the f64 path; rounded once to the storage type
            x.either(&|_| 1.0, &|_| 2.0).cast_into()
        }
    }

    #[test]
    fn map1_routes_halves_through_f32_and_refuses_the_rest() {
        for (d, want) in [(DType::BF16, 1.0), (DType::F16, 1.0), (DType::F32, 1.0), (DType::F64, 2.0)] {
            let y = Probe.map(&Tensor::zeros(&[2], d).unwrap().with_weak(true)).unwrap();
            // weakness is kept where the dtype has a weak form (f32*, f64*); bf16 and f16 have none
            let weak = matches!(d, DType::F32 | DType::F64);
            assert_eq!((y.dtype(), y.is_weak(), y.to_vec::<f64>().unwrap()), (d, weak, vec![want; 2]));
        }
        let e = Probe.map(&Tensor::zeros(&[1], DType::C64).unwrap()).unwrap_err();
        assert_eq!(e.to_string(), unsupported("probe", DType::C64, REAL_FLOATS).to_string());
        for d in [DType::Bool, DType::I32, DType::U8] {
            let e = Probe.map(&Tensor::zeros(&[1], d).unwrap()).unwrap_err();
            assert!(
                matches!(e, Error::UnsupportedDType { dtype, ref supported, .. } if dtype == d && supported == REAL_FLOATS)
            );
        }
    }
}
