//! The Array API's `fft` extension: `fft`, `ifft`, `fftn`, `ifftn`, `rfft`,
//! `irfft`, `rfftn`, `irfftn`, `hfft`, `ihfft`, `fftfreq`, `rfftfreq`,
//! `fftshift`, `ifftshift`.
//!
//! Transforms run on rustfft/realfft (`kernels::fft`) along one axis
//! at a time: the axis is moved last, cropped or zero-padded to the requested
//! length `n`, transformed row by row and moved back. `norm` scales as the
//! standard says: `"backward"` (the default) scales the inverse by `1/n`,
//! `"ortho"` both directions by `1/√n`, `"forward"` the forward by `1/n`.
//!
//! Dtypes: complex64 and complex128 compute in their own precision. A real
//! floating input to a complex transform is read as complex (float64 as
//! complex128, the others as complex64); bfloat16 and float16 compute in
//! float32, and as there is no 16-bit complex dtype their complex results are
//! complex64 (the real results of `irfft`/`hfft` round back to the input's
//! real dtype only when the input was real, i.e. never: those take complex
//! input). Integer and bool inputs are [`Error::UnsupportedDType`], naming the
//! cast to write; `rfft`/`ihfft` refuse complex input (cast with `real`).
//!
//! ```
//! use lattensor::{ops::fft, Tensor};
//! let x = Tensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[4]).unwrap();
//! let y = fft::rfft(&x, None, -1, fft::Norm::Backward).unwrap();
//! assert_eq!(y.shape(), &[3]);
//! let back = fft::irfft(&y, Some(4), -1, fft::Norm::Backward).unwrap();
//! assert_eq!(back.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
//! ```

use num_complex::Complex;

use crate::core::error::{Error, Result};
use crate::core::tape::{self, FftKind, TapeOp};
use crate::dispatch::unsupported;
use crate::kernels::fft as k;
use crate::kernels::row_major;
use crate::{DType, Tensor};

/// The `norm` argument: which direction is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Norm {
    /// No scaling forward, `1/n` inverse (the default).
    #[default]
    Backward,
    /// `1/√n` both ways.
    Ortho,
    /// `1/n` forward, none inverse.
    Forward,
}

impl Norm {
    /// `"backward"`, `"ortho"` or `"forward"`.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for any other name.
    pub fn parse(op: &str, norm: &str) -> Result<Norm> {
        match norm {
            "backward" => Ok(Norm::Backward),
            "ortho" => Ok(Norm::Ortho),
            "forward" => Ok(Norm::Forward),
            _ => Err(Error::InvalidValue(format!("{op}: norm must be 'backward', 'ortho' or 'forward', got {norm:?}"))),
        }
    }

    /// The factor a transform of length `n` in direction `inverse` applies.
    fn scale(self, n: usize, inverse: bool) -> f64 {
        let n = n.max(1) as f64;
        match (self, inverse) {
            (Norm::Ortho, _) => 1.0 / n.sqrt(),
            (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / n,
            _ => 1.0,
        }
    }

    /// The opposite direction's convention (`hfft` is an `irfft` of the conjugate).
    fn swapped(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Forward => Norm::Backward,
            Norm::Ortho => Norm::Ortho,
        }
    }
}

/// The complex dtype a complex transform of `x` computes in, or the refusal.
fn complex_dtype(op: &str, d: DType) -> Result<DType> {
    match d {
        DType::C64 | DType::C128 => Ok(d),
        DType::F64 => Ok(DType::C128),
        DType::F32 | DType::F16 | DType::BF16 => Ok(DType::C64),
        _ => {
            Err(unsupported(op, d, "complex64, complex128 (and float16, bfloat16, float32, float64, read as complex)"))
        }
    }
}

/// The real dtype a real-input transform computes in, or the refusal.
fn real_dtype(op: &str, d: DType) -> Result<DType> {
    match d {
        DType::F64 => Ok(DType::F64),
        DType::F32 | DType::F16 | DType::BF16 => Ok(DType::F32),
        _ => Err(unsupported(op, d, "float16, bfloat16, float32, float64 (take the real part of complex input first)")),
    }
}

/// `axis` (negative counts from the end) checked against `x`'s rank.
fn axis_index(op: &str, x: &Tensor, axis: isize) -> Result<usize> {
    let r = x.rank() as isize;
    let a = if axis < 0 { axis + r } else { axis };
    if r == 0 || a < 0 || a >= r {
        return Err(Error::InvalidIndex(format!(
            "{op}: axis {axis} is out of bounds for an array of rank {r} (shape {:?})",
            x.shape()
        )));
    }
    Ok(a as usize)
}

/// `x` with `axis` moved last, row-major, with that axis cropped or zero-padded
/// to `len`; and the permutation that moved it.
fn rows<T: crate::Element>(op: &str, x: &Tensor, axis: usize, len: usize) -> Result<(Vec<T>, Vec<usize>, Vec<usize>)> {
    let r = x.rank();
    let mut perm: Vec<usize> = (0..r).filter(|&a| a != axis).collect();
    perm.push(axis);
    let moved = x.transpose(&perm)?;
    let have = x.shape()[axis];
    let data = row_major::<T>(&moved, op)?;
    let mut shape = moved.shape().to_vec();
    shape[r - 1] = len;
    if have == len {
        return Ok((data, shape, perm));
    }
    let count: usize = shape[..r - 1].iter().product();
    crate::core::storage::check_alloc(count.saturating_mul(len).saturating_mul(std::mem::size_of::<T>()), op)?;
    let mut out = vec![T::default(); count * len];
    let keep = have.min(len);
    for i in 0..count {
        out[i * len..i * len + keep].copy_from_slice(&data[i * have..i * have + keep]);
    }
    Ok((out, shape, perm))
}

/// The tensor of `data` (shape `shape`, the transformed axis last) with that
/// axis moved back to where `perm` took it from, made contiguous.
fn unmove(data: Tensor, perm: &[usize]) -> Result<Tensor> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    data.transpose(&inv)?.contiguous()
}

fn check_n(op: &str, n: Option<usize>, default: usize) -> Result<usize> {
    match n {
        Some(0) => Err(Error::InvalidValue(format!("{op}: n must be at least 1, got 0"))),
        Some(n) => Ok(n),
        None if default == 0 => {
            Err(Error::InvalidValue(format!("{op}: the transformed axis is empty; pass n ≥ 1 to zero-pad it")))
        }
        None => Ok(default),
    }
}

/// A complex transform of `x` along `axis` to length `n`.
fn c2c(op: &str, x: &Tensor, n: Option<usize>, axis: isize, norm: Norm, inverse: bool) -> Result<Tensor> {
    let c = complex_dtype(op, x.dtype())?;
    let a = axis_index(op, x, axis)?;
    let n = check_n(op, n, x.shape()[a])?;
    let scale = norm.scale(n, inverse);
    let out = crate::with_complex_dtype!(c, R, {
        let (mut data, shape, perm) = rows::<Complex<R>>(op, x, a, n)?;
        k::complex_rows(&mut data, n, inverse);
        let s = scale as R;
        if s != 1.0 {
            data.iter_mut().for_each(|v| *v *= s);
        }
        unmove(Tensor::from_vec(data, &shape)?, &perm)
    }, other => Err(unsupported(op, c, "complex64, complex128")))?;
    let kind = if inverse { FftKind::Inverse } else { FftKind::Forward };
    Ok(tape::record(&[x], out, || TapeOp::Fft { kind, axis: a, n, scale }))
}

/// The one-dimensional discrete Fourier transform along `axis` (`xp.fft.fft`,
/// `tf.signal.fft` on the last axis), the axis cropped or zero-padded to `n`.
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidIndex`]
/// for an axis out of range, [`Error::InvalidValue`] for `n = 0` or an empty axis without `n`.
pub fn fft(x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    c2c("fft", x, n, axis, norm, false)
}

/// The inverse of [`fft`] (`xp.fft.ifft`).
///
/// # Errors
/// As [`fft`].
pub fn ifft(x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    c2c("ifft", x, n, axis, norm, true)
}

/// The axes and lengths of an n-dimensional transform: `axes` default to all
/// (or the last `s.len()`), `s` to the input's sizes along them.
fn plan_axes(op: &str, x: &Tensor, s: Option<&[usize]>, axes: Option<&[isize]>) -> Result<Vec<(isize, Option<usize>)>> {
    let r = x.rank() as isize;
    let axes: Vec<isize> = match (axes, s) {
        (Some(a), _) => a.to_vec(),
        (None, Some(s)) => ((r - s.len() as isize)..r).collect(),
        (None, None) => (0..r).collect(),
    };
    if let Some(s) = s
        && s.len() != axes.len()
    {
        return Err(Error::InvalidValue(format!(
            "{op}: s and axes must have the same length, got {} and {}",
            s.len(),
            axes.len()
        )));
    }
    let mut seen = Vec::new();
    for &a in &axes {
        let i = axis_index(op, x, a)?;
        if seen.contains(&i) {
            return Err(Error::InvalidValue(format!("{op}: axes must be unique, got {axes:?}")));
        }
        seen.push(i);
    }
    Ok(axes.iter().enumerate().map(|(i, &a)| (a, s.map(|s| s[i]))).collect())
}

/// The n-dimensional transform over `axes` (default: all, or the last
/// `s.len()`), each cropped or zero-padded to its entry of `s` (`xp.fft.fftn`).
///
/// # Errors
/// As [`fft`], and [`Error::InvalidValue`] for repeated axes or `s` and `axes` of different lengths.
pub fn fftn(x: &Tensor, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Tensor> {
    let plan = plan_axes("fftn", x, s, axes)?;
    let mut y = x.cast(complex_dtype("fftn", x.dtype())?)?;
    for (a, n) in plan {
        y = c2c("fftn", &y, n, a, norm, false)?;
    }
    Ok(y)
}

/// The inverse of [`fftn`] (`xp.fft.ifftn`).
///
/// # Errors
/// As [`fftn`].
pub fn ifftn(x: &Tensor, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Tensor> {
    let plan = plan_axes("ifftn", x, s, axes)?;
    let mut y = x.cast(complex_dtype("ifftn", x.dtype())?)?;
    for (a, n) in plan {
        y = c2c("ifftn", &y, n, a, norm, true)?;
    }
    Ok(y)
}

/// The transform of real input along `axis` (cropped or zero-padded to `n`):
/// the `n / 2 + 1` non-negative frequencies (`xp.fft.rfft`).
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex, integer or bool input; otherwise as [`fft`].
pub fn rfft(x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    let rd = real_dtype("rfft", x.dtype())?;
    let a = axis_index("rfft", x, axis)?;
    let n = check_n("rfft", n, x.shape()[a])?;
    let scale = norm.scale(n, false);
    let out = crate::with_float_compute!(rd, R, {
        let (data, mut shape, perm) = rows::<R>("rfft", x, a, n)?;
        let mut out = Vec::with_capacity(data.len() / n * (n / 2 + 1));
        k::real_to_complex_rows(&data, n, &mut out);
        let s = scale as R;
        if s != 1.0 {
            out.iter_mut().for_each(|v| *v *= s);
        }
        let last = shape.len() - 1;
        shape[last] = n / 2 + 1;
        unmove(Tensor::from_vec(out, &shape)?, &perm)
    }, other => Err(unsupported("rfft", rd, "float32, float64")))?;
    Ok(tape::record(&[x], out, || TapeOp::Fft { kind: FftKind::RealToComplex, axis: a, n, scale }))
}

/// The inverse of [`rfft`]: real output of length `n` (default `2 (m - 1)` for
/// `m` input terms) along `axis` (`xp.fft.irfft`); the input is cropped or
/// zero-padded to `n / 2 + 1` terms.
///
/// # Errors
/// As [`fft`].
pub fn irfft(x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    c2r("irfft", x, n, axis, norm)
}

fn c2r(op: &str, x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    let c = complex_dtype(op, x.dtype())?;
    let a = axis_index(op, x, axis)?;
    let m = x.shape()[a];
    let n = check_n(op, n, (2 * m).saturating_sub(2))?;
    let half = n / 2 + 1;
    let scale = norm.scale(n, true);
    let out = crate::with_complex_dtype!(c, R, {
        let (data, mut shape, perm) = rows::<Complex<R>>(op, x, a, half)?;
        let mut out = Vec::with_capacity(data.len() / half * n);
        k::complex_to_real_rows(&data, n, &mut out);
        let s = scale as R;
        if s != 1.0 {
            out.iter_mut().for_each(|v| *v *= s);
        }
        let last = shape.len() - 1;
        shape[last] = n;
        unmove(Tensor::from_vec(out, &shape)?, &perm)
    }, other => Err(unsupported(op, c, "complex64, complex128")))?;
    Ok(tape::record(&[x], out, || TapeOp::Fft { kind: FftKind::ComplexToReal, axis: a, n, scale }))
}

/// The real-input n-dimensional transform: [`rfft`] over the last of `axes`,
/// then [`fft`] over the others (`xp.fft.rfftn`).
///
/// # Errors
/// As [`fftn`] and [`rfft`].
pub fn rfftn(x: &Tensor, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Tensor> {
    let plan = plan_axes("rfftn", x, s, axes)?;
    let Some((&(last, n), rest)) = plan.split_last() else {
        return x.cast(complex_dtype("rfftn", real_dtype("rfftn", x.dtype())?)?);
    };
    let mut y = rfft(x, n, last, norm)?;
    for &(a, n) in rest {
        y = c2c("rfftn", &y, n, a, norm, false)?;
    }
    Ok(y)
}

/// The inverse of [`rfftn`]: [`ifft`] over all but the last of `axes`, then
/// [`irfft`] over the last, whose output length is `s`'s last entry
/// (default `2 (m - 1)`) (`xp.fft.irfftn`).
///
/// # Errors
/// As [`fftn`].
pub fn irfftn(x: &Tensor, s: Option<&[usize]>, axes: Option<&[isize]>, norm: Norm) -> Result<Tensor> {
    let plan = plan_axes("irfftn", x, s, axes)?;
    let Some((&(last, n), rest)) = plan.split_last() else {
        return x.cast(complex_dtype("irfftn", x.dtype())?.real_dtype());
    };
    let mut y = x.clone();
    for &(a, n) in rest {
        y = c2c("irfftn", &y, n, a, norm, true)?;
    }
    c2r("irfftn", &y, n, last, norm)
}

/// The transform of a signal with Hermitian symmetry given by its
/// non-negative-frequency half: real output of length `n` (default `2 (m - 1)`)
/// (`xp.fft.hfft`; `irfft` of the conjugate with the opposite `norm`).
///
/// # Errors
/// As [`fft`].
pub fn hfft(x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    let c = x.cast(complex_dtype("hfft", x.dtype())?)?;
    c2r("hfft", &crate::ops::conj(&c)?, n, axis, norm.swapped())
}

/// The inverse of [`hfft`]: the `n / 2 + 1` terms of a real signal's Hermitian
/// spectrum (`xp.fft.ihfft`; the conjugate of `rfft` with the opposite `norm`).
///
/// # Errors
/// As [`rfft`].
pub fn ihfft(x: &Tensor, n: Option<usize>, axis: isize, norm: Norm) -> Result<Tensor> {
    real_dtype("ihfft", x.dtype())?;
    crate::ops::conj(&rfft(x, n, axis, norm.swapped())?)
}

/// The sample frequencies of an `n`-point [`fft`] with sample spacing `d`:
/// `[0, 1, …, ⌈n/2⌉ - 1, -⌊n/2⌋, …, -1] / (d n)` as `dtype` (a real float;
/// `xp.fft.fftfreq`).
///
/// # Errors
/// [`Error::InvalidValue`] for `n = 0`, [`Error::UnsupportedDType`] for a non-float dtype.
pub fn fftfreq(n: usize, d: f64, dtype: DType) -> Result<Tensor> {
    freq("fftfreq", n, d, dtype, |i| if i < n.div_ceil(2) { i as f64 } else { i as f64 - n as f64 }, n)
}

/// The sample frequencies of an `n`-point [`rfft`]: `[0, 1, …, ⌊n/2⌋] / (d n)`
/// (`xp.fft.rfftfreq`).
///
/// # Errors
/// As [`fftfreq`].
pub fn rfftfreq(n: usize, d: f64, dtype: DType) -> Result<Tensor> {
    freq("rfftfreq", n, d, dtype, |i| i as f64, n / 2 + 1)
}

fn freq(op: &str, n: usize, d: f64, dtype: DType, f: impl Fn(usize) -> f64, len: usize) -> Result<Tensor> {
    if n == 0 {
        return Err(Error::InvalidValue(format!("{op}: n must be at least 1, got 0")));
    }
    if !dtype.is_float() {
        return Err(unsupported(op, dtype, "float16, bfloat16, float32, float64"));
    }
    let scale = 1.0 / (d * n as f64);
    let v: Vec<f64> = (0..len).map(|i| f(i) * scale).collect();
    Tensor::from_vec(v, &[len])?.cast(dtype)
}

/// `x` rolled along each of `axes` (default: all) by half its length, moving the
/// zero frequency to the centre (`xp.fft.fftshift`); with `inverse`, the roll
/// that undoes it (`xp.fft.ifftshift`).
///
/// # Errors
/// [`Error::InvalidIndex`] for an axis out of range, [`Error::InvalidValue`] for repeated axes.
pub fn fftshift(x: &Tensor, axes: Option<&[isize]>, inverse: bool) -> Result<Tensor> {
    let op = if inverse { "ifftshift" } else { "fftshift" };
    let plan = plan_axes(op, x, None, axes)?;
    let mut y = x.clone();
    for (a, _) in plan {
        let i = axis_index(op, x, a)?;
        let len = x.shape()[i];
        if len < 2 {
            continue;
        }
        // fftshift moves the last ⌊len/2⌋ elements to the front; ifftshift the first ⌊len/2⌋ to the back
        let cut = if inverse { len / 2 } else { len - len / 2 };
        let mut head = vec![crate::SliceArg::FULL; x.rank()];
        let mut tail = head.clone();
        head[i] = crate::SliceArg::range(0, cut as isize);
        tail[i] = crate::SliceArg::range(cut as isize, len as isize);
        y = crate::ops::combine::concat(&[&y.slice(&tail)?, &y.slice(&head)?], i as isize)?;
    }
    Ok(y)
}
