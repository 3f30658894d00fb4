//! The Fourier transforms: each is linear, so its vector-Jacobian product is
//! the adjoint transform — the other direction, unscaled, times the same
//! scale — mapped back through the crop or zero-padding to the input's length.
//!
//! The real transforms keep half a spectrum: in `rfft` each interior
//! frequency stands for a conjugate pair, and `irfft` counts each interior
//! term twice, so their adjoints weight those frequencies by ½ and 2
//! (the DC term and, for even `n`, the Nyquist term by 1).

use crate::core::error::Result;
use crate::core::tape::FftKind;
use crate::ops::array_ops::PadMode;
use crate::ops::fft::{self, Norm};
use crate::{SliceArg, Tensor, ops};

/// The gradient of `x` for `y = transform(x)` recorded as `kind` along `axis`
/// with length `n` and scale `scale`.
pub(super) fn vjp(kind: FftKind, axis: usize, n: usize, scale: f64, x: &Tensor, g: &Tensor) -> Result<Tensor> {
    let ax = axis as isize;
    let z = match kind {
        FftKind::Forward => fft::ifft(g, Some(n), ax, Norm::Forward)?,
        FftKind::Inverse => fft::fft(g, Some(n), ax, Norm::Backward)?,
        FftKind::RealToComplex => fft::irfft(&weighted(g, axis, n, 0.5)?, Some(n), ax, Norm::Forward)?,
        FftKind::ComplexToReal => weighted(&fft::rfft(g, Some(n), ax, Norm::Backward)?, axis, n, 2.0)?,
    };
    let z = if scale == 1.0 { z } else { ops::multiply(&z, scale)? };
    resize(&z, axis, x.shape()[axis])
}

/// `t` (a half spectrum of an `n`-term transform along `axis`) with its
/// interior frequencies `1 ..= (n - 1) / 2` multiplied by `w`.
fn weighted(t: &Tensor, axis: usize, n: usize, w: f64) -> Result<Tensor> {
    let half = t.shape()[axis];
    let weights: Vec<f64> = (0..half).map(|k| if k >= 1 && k <= (n - 1) / 2 { w } else { 1.0 }).collect();
    let mut shape = vec![1usize; t.rank()];
    shape[axis] = half;
    let w = Tensor::from_vec(weights, &shape)?.cast(t.dtype().real_dtype())?.cast(t.dtype())?;
    ops::multiply(t, &w)
}

/// `t` cropped or zero-padded along `axis` to `len` (the adjoint of the
/// forward transform's crop or padding).
fn resize(t: &Tensor, axis: usize, len: usize) -> Result<Tensor> {
    let have = t.shape()[axis];
    if have == len {
        return Ok(t.clone());
    }
    if have > len {
        let mut args = vec![SliceArg::FULL; t.rank()];
        args[axis] = SliceArg::Range { start: Some(0), stop: Some(len as isize), step: 1 };
        return t.slice(&args);
    }
    let paddings: Vec<Vec<i64>> =
        (0..t.rank()).map(|a| if a == axis { vec![0, (len - have) as i64] } else { vec![0, 0] }).collect();
    ops::array_ops::pad(t, paddings, PadMode::Constant, 0)
}
