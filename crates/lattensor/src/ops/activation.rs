//! `tf.nn` activations and layout ops.
//!
//! Activations keep their input's dtype and weakness (TF 2.21 returns a
//! strong tensor from `tf.nn.relu` because it is not wrapped; lattensor
//! follows the guide's model — unary ops keep weakness — and lists that in
//! `docs/deviations.md`).

use num_traits::Float;

use super::unary::unsupported;
use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::tape::{self, TapeOp};
use crate::dispatch::{Compute, FloatStorage};
use crate::ops::map::Map1;
use crate::{DType, Tensor};

/// An activation given as one function per compute type (f32 for bfloat16,
/// float16 and float32; f64 for float64).
struct RealFns<'a, F, G> {
    op: &'a str,
    f32f: F,
    f64f: G,
}

impl<F: Fn(f32) -> f32 + Sync, G: Fn(f64) -> f64 + Sync> Map1 for RealFns<'_, F, G> {
    fn name(&self) -> &str {
        self.op
    }
    #[inline(always)]
    fn real<C: Compute, S: FloatStorage>(&self, x: C) -> S {
        x.either(&self.f32f, &self.f64f).cast_into()
    }
}

fn real_map(
    op: &str,
    x: &Tensor,
    f32f: impl Fn(f32) -> f32 + Sync,
    f64f: impl Fn(f64) -> f64 + Sync,
) -> Result<Tensor> {
    RealFns { op, f32f, f64f }.map(x)
}

/// `max(x, 0)`; integers too (`tf.nn.relu`).
///
/// ```
/// use lattensor::{ops, Tensor};
/// let x = Tensor::from_vec(vec![-2i32, 0, 3], &[3]).unwrap();
/// assert_eq!(ops::activation::relu(&x).unwrap().to_vec::<i32>().unwrap(), vec![0, 0, 3]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and complex.
pub fn relu(x: &Tensor) -> Result<Tensor> {
    tape::op(&[x], || clamp_below_above("relu", x, Some(0.0), None), || TapeOp::Unary("relu"))
}

/// `min(max(x, 0), 6)`; integers too.
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and complex.
pub fn relu6(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            let y = clamp_below_above("relu6", x, Some(0.0), Some(6.0))?;
            if !matches!(x.dtype(), DType::F32 | DType::F64) {
                return Ok(y);
            }
            // TF's vectorised float32/float64 kernel gives +0 for -0 (its float16/bfloat16 kernel
            // keeps -0); adding +0 maps -0 to +0 and leaves every other value, NaN included, unchanged.
            crate::promote::with_mode(crate::PromotionMode::All, || super::add(&y, &Tensor::zeros(&[], x.dtype())?))
                .map(|t| t.with_weak(x.is_weak()))
        },
        || TapeOp::Unary("relu6"),
    )
}

/// Clamps by comparing in the tensor's own type (NaN stays NaN).
fn clamp_below_above(op: &str, x: &Tensor, lo: Option<f64>, hi: Option<f64>) -> Result<Tensor> {
    let d = x.dtype();
    if d.is_bool() || d.is_complex() {
        return Err(unsupported(op, d, "every real dtype but bool"));
    }
    let mut out = x.clone();
    if let Some(lo) = lo {
        out = crate::promote::with_mode(crate::PromotionMode::All, || {
            super::maximum(&out, &crate::Scalar::from(lo).to_tensor_as(d))
        })?;
    }
    if let Some(hi) = hi {
        out = crate::promote::with_mode(crate::PromotionMode::All, || {
            super::minimum(&out, &crate::Scalar::from(hi).to_tensor_as(d))
        })?;
    }
    Ok(out.with_weak(x.is_weak()))
}

/// Exponential linear unit: `x` for `x > 0`, `eˣ - 1` otherwise.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-float inputs.
pub fn elu(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || real_map("elu", x, |v| if v > 0.0 { v } else { v.exp_m1() }, |v| if v > 0.0 { v } else { v.exp_m1() }),
        || TapeOp::Unary("elu"),
    )
}

const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;

/// Scaled ELU: `scale · (x if x > 0 else α(eˣ - 1))` with TF's constants.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-float inputs.
pub fn selu(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            let (a32, s32) = (SELU_ALPHA as f32, SELU_SCALE as f32);
            real_map(
                "selu",
                x,
                move |v| s32 * if v > 0.0 { v } else { a32 * v.exp_m1() },
                |v| SELU_SCALE * if v > 0.0 { v } else { SELU_ALPHA * v.exp_m1() },
            )
        },
        || TapeOp::Unary("selu"),
    )
}

/// `x` for `x ≥ 0`, `alpha · x` otherwise (TF's default `alpha = 0.2`).
///
/// As in TF, `alpha` is a float32 attribute converted to the input's dtype before the
/// multiplication (so `leaky_relu` of a float64 `-1.0` is `-0.20000000298…`), and integer
/// inputs are converted to float32 first (keeping weakness).
///
/// ```
/// use lattensor::{DType, ops, Tensor};
/// let x = Tensor::from_vec(vec![-5i32, 3], &[2]).unwrap();
/// let y = ops::activation::leaky_relu(&x, 0.5).unwrap();
/// assert_eq!(y.dtype(), DType::F32);
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![-2.5, 3.0]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and complex inputs.
pub fn leaky_relu(x: &Tensor, alpha: f64) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            let d = x.dtype();
            if d.is_integer() {
                return leaky_relu(&x.cast(DType::F32)?.with_weak(x.is_weak()), alpha);
            }
            let a32 = alpha as f32;
            // alpha rounded to the input's dtype, as TF's kernel does
            let a = crate::with_half_dtype!(d, H, a32.cast_into::<H>().cast_into::<f32>(), other => a32);
            let a64 = f64::from(a32);
            real_map(
                "leaky_relu",
                x,
                move |v| if v >= 0.0 { v } else { a * v },
                move |v| if v >= 0.0 { v } else { a64 * v },
            )
        },
        || TapeOp::UnaryWith("leaky_relu", alpha),
    )
}

/// `x / (1 + |x|)`.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-float inputs.
pub fn softsign(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || real_map("softsign", x, |v| v / (1.0 + v.abs()), |v| v / (1.0 + v.abs())),
        || TapeOp::Unary("softsign"),
    )
}

/// `x · sigmoid(beta · x)` (SiLU for `beta = 1`); complex inputs too, as in TF.
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer and bool inputs.
pub fn swish(x: &Tensor, beta: f64) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            if x.dtype().is_complex() {
                return crate::promote::with_mode(crate::PromotionMode::All, || {
                    super::multiply(x, &super::sigmoid(&super::multiply(x, beta)?)?)
                });
            }
            fn sig<T: Float>(v: T) -> T {
                if v >= T::zero() {
                    (T::one() + (-v).exp()).recip()
                } else {
                    let e = v.exp();
                    e / (T::one() + e)
                }
            }
            let b32 = beta as f32;
            real_map("swish", x, move |v| v * sig(b32 * v), move |v| v * sig(beta * v))
        },
        || TapeOp::UnaryWith("swish", beta),
    )
}

/// Gaussian error linear unit: `x · Φ(x)` exactly, or TF's tanh
/// approximation `0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))` when `approximate`.
///
/// # Errors
/// [`Error::InvalidValue`] for non-float inputs (TF's wrapper raises `ValueError`).
pub fn gelu(x: &Tensor, approximate: bool) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            if !x.dtype().is_float() {
                crate::bail!(
                    InvalidValue,
                    "gelu: features must be a real floating-point tensor, got {}; cast it first (`x.cast(DType::F32)`)",
                    x.dtype()
                );
            }
            if approximate {
                let c = (2.0 / std::f64::consts::PI).sqrt();
                // ½x(1 + tanh u) = x·sigmoid(2u) = x / (1 + e^(-2u)): no cancellation for x < 0
                // (the tanh form loses 16 ulp of float32 at x = -2). f32 goes through f64.
                let f = move |v: f64| v / (1.0 + (-2.0 * c * (v + 0.044715 * v * v * v)).exp());
                return real_map("gelu", x, move |v| f(f64::from(v)) as f32, f);
            }
            // x·Φ(x) = x/2 · erfc(-x/√2); erfc keeps the negative tail accurate. The argument
            // -x/√2 is formed in double-double and its low part applied through erfc' = -2/√π·e^{-t²}:
            // erfc amplifies the relative error of its argument by 2t² (≈ 20 at x = -4.5, where a
            // rounded argument costs 12 ulp).
            fn gelu64(v: f64) -> f64 {
                const R_HI: f64 = std::f64::consts::FRAC_1_SQRT_2;
                const R_LO: f64 = -4.833_646_656_726_457e-17; // 1/√2 - R_HI
                let hi = -v * R_HI;
                if !hi.is_finite() {
                    return 0.5 * v * libm::erfc(hi); // ±inf and NaN: no low part
                }
                let lo = (-v).mul_add(R_HI, -hi) + -v * R_LO;
                let d = std::f64::consts::FRAC_2_SQRT_PI * (-hi * hi).exp();
                0.5 * v * (libm::erfc(hi) - lo * d)
            }
            real_map("gelu", x, move |v| gelu64(f64::from(v)) as f32, gelu64)
        },
        || TapeOp::Unary(if approximate { "gelu_tanh" } else { "gelu" }),
    )
}

/// `logits - log(Σ exp(logits))` along `axis` (default `-1` in TF).
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-float inputs; [`Error::InvalidArgument`] for a bad axis.
pub fn log_softmax(logits: &Tensor, axis: i32) -> Result<Tensor> {
    tape::op(
        &[logits],
        || {
            if !logits.dtype().is_float() {
                return Err(unsupported("log_softmax", logits.dtype(), "bfloat16, float16, float32, float64"));
            }
            // Shift by the maximum first: the shifted values' logsumexp is small and
            // exact, so `shifted - lse` loses nothing even for large logits.
            crate::promote::with_mode(crate::PromotionMode::All, || {
                let m = super::reduce_max(logits, axis, true)?;
                let shifted = super::subtract(logits, &m)?;
                let lse = super::reduce_logsumexp(&shifted, axis, true)?;
                Ok(super::subtract(&shifted, &lse)?.with_weak(logits.is_weak()))
            })
        },
        || {
            TapeOp::Softmax(
                "log_softmax",
                crate::core::layout::normalize_axis(axis as isize, logits.rank().max(1), "log_softmax").unwrap_or(0),
            )
        },
    )
}

/// `softmax` along `axis`: `exp(log_softmax)`.
///
/// # Errors
/// As [`log_softmax`].
pub fn softmax(logits: &Tensor, axis: i32) -> Result<Tensor> {
    tape::op(
        &[logits],
        || super::exp(&log_softmax(logits, axis)?),
        || {
            TapeOp::Softmax(
                "softmax",
                crate::core::layout::normalize_axis(axis as isize, logits.rank().max(1), "softmax").unwrap_or(0),
            )
        },
    )
}

fn check_nhwc(op: &str, x: &Tensor, block: usize) -> Result<[usize; 4]> {
    let s = x.shape();
    if s.len() != 4 {
        return Err(Error::InvalidArgument(format!("{op}: input must be 4-D NHWC, got shape {s:?}")));
    }
    if block < 2 {
        return Err(Error::InvalidArgument(format!("{op}: block_size must be at least 2, got {block}")));
    }
    Ok([s[0], s[1], s[2], s[3]])
}

/// `a · b`, or an error naming `op` and the shape when it does not fit a dimension.
fn block_product(op: &str, x: &Tensor, block: usize, a: usize, b: usize) -> Result<usize> {
    a.checked_mul(b).filter(|&p| isize::try_from(p).is_ok()).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "{op}: block_size {block} is too large for the input of shape {:?}; use a block size that divides its dimensions",
            x.shape()
        ))
    })
}

/// Moves `block × block` spatial blocks into the channel dimension (NHWC):
/// `[N, H, W, C] → [N, H/b, W/b, b·b·C]`.
///
/// ```
/// use lattensor::{ops, Tensor};
/// let x = Tensor::from_vec((1..=4).collect::<Vec<i32>>(), &[1, 2, 2, 1]).unwrap();
/// let y = ops::activation::space_to_depth(&x, 2).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<i32>().unwrap()), (&[1usize, 1, 1, 4][..], vec![1, 2, 3, 4]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] unless the input is 4-D with H and W divisible by `block`.
pub fn space_to_depth(x: &Tensor, block: usize) -> Result<Tensor> {
    let [n, h, w, c] = check_nhwc("space_to_depth", x, block)?;
    if h % block != 0 || w % block != 0 {
        return Err(Error::InvalidArgument(format!(
            "space_to_depth: height {h} and width {w} must both be divisible by block_size {block}"
        )));
    }
    let (hb, wb) = (h / block, w / block);
    // (an empty input passes the checks above with any block size)
    let op = "space_to_depth";
    let depth = block_product(op, x, block, block_product(op, x, block, block, block)?, c)?;
    let s = |v: &[usize]| v.iter().map(|&d| d as isize).collect::<Vec<_>>();
    let t = x.reshape(&s(&[n, hb, block, wb, block, c]))?.transpose(&[0, 1, 3, 2, 4, 5])?;
    t.reshape(&s(&[n, hb, wb, depth]))
}

/// The inverse of [`space_to_depth`]: `[N, H, W, C] → [N, H·b, W·b, C/(b·b)]`.
///
/// # Errors
/// [`Error::InvalidArgument`] unless the input is 4-D with C divisible by `block²`.
pub fn depth_to_space(x: &Tensor, block: usize) -> Result<Tensor> {
    let op = "depth_to_space";
    let [n, h, w, c] = check_nhwc(op, x, block)?;
    let bb = block_product(op, x, block, block, block)?;
    if c % bb != 0 {
        return Err(Error::InvalidArgument(format!(
            "depth_to_space: depth {c} must be divisible by block_size² = {bb}"
        )));
    }
    // (an empty input passes the check above with any block size)
    let (hb, wb) = (block_product(op, x, block, h, block)?, block_product(op, x, block, w, block)?);
    let s = |v: &[usize]| v.iter().map(|&d| d as isize).collect::<Vec<_>>();
    let t = x.reshape(&s(&[n, h, w, block, block, c / bb]))?.transpose(&[0, 1, 3, 2, 4, 5])?;
    t.reshape(&s(&[n, hb, wb, c / bb]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: &[f64]) -> Tensor {
        Tensor::from_vec(x.to_vec(), &[x.len()]).unwrap()
    }

    // Bugs found by the TF golden test (tests/tf_api_golden.rs); references from mpmath.
    #[test]
    fn relu6_and_leaky_relu_like_tf() {
        let r = relu6(&Tensor::from_vec(vec![-0.0f32], &[1]).unwrap()).unwrap().to_vec::<f32>().unwrap();
        assert!(r[0] == 0.0 && r[0].is_sign_positive());
        // alpha is rounded to bfloat16 first: bf16(0.2) · -4.5 = -0.9009 → -0.90234375
        let x = Tensor::from_vec(vec![half::bf16::from_f32(-4.5)], &[1]).unwrap();
        assert_eq!(leaky_relu(&x, 0.2).unwrap().to_vec::<f32>().unwrap(), vec![-0.902_343_75]);
        let y = leaky_relu(&crate::constant([-5, 3]).unwrap(), 0.2).unwrap();
        assert_eq!((y.dtype(), y.is_weak()), (DType::F32, true));
        assert_eq!(y.to_vec::<f32>().unwrap(), vec![-1.0, 3.0]);
    }

    #[test]
    fn huge_block_sizes_are_refused_not_overflowed() {
        // found by the `ops` fuzz target: block² wrapped (to 0 for 2³², then `c % 0`)
        let empty = Tensor::zeros(&[1, 0, 0, 0], DType::F32).unwrap();
        let one = Tensor::zeros(&[1, 2, 2, 4], DType::F32).unwrap();
        for block in [1usize << 32, 1 << 40, usize::MAX, isize::MAX as usize] {
            for x in [&empty, &one] {
                let e = depth_to_space(x, block).unwrap_err();
                assert!(matches!(e, Error::InvalidArgument(_)), "{e:?}");
                let e = space_to_depth(x, block).unwrap_err();
                assert!(matches!(e, Error::InvalidArgument(_)), "{e:?}");
            }
        }
        // an empty input with a block size that fits: the empty result TF gives
        let y = space_to_depth(&empty, 3).unwrap();
        assert_eq!(y.shape(), &[1, 0, 0, 0]);
        let y = depth_to_space(&Tensor::zeros(&[1, 2, 0, 9], DType::F32).unwrap(), 3).unwrap();
        assert_eq!(y.shape(), &[1, 6, 0, 1]);
    }

    #[test]
    fn gelu_negative_tail_and_complex_swish() {
        let g = gelu(&v(&[-4.5]), false).unwrap().item::<f64>().unwrap();
        assert!((g - -1.528_952_906_128_527_2e-5).abs() <= 2.0 * 3.4e-21, "{g:e}");
        let g = gelu(&v(&[-2.0]), true).unwrap().item::<f64>().unwrap();
        assert!((g - -0.045_402_305_912_224_98).abs() <= 6e-17, "{g:e}"); // 8 ulp: u is rounded
        let g = gelu(&Tensor::from_vec(vec![-2.0f32], &[1]).unwrap(), true).unwrap().item::<f32>().unwrap();
        assert_eq!(g, -0.045_402_305_912_224_98f64 as f32);
        let z = Tensor::from_vec(vec![num_complex::Complex64::new(1.0, 0.0)], &[1]).unwrap();
        let s = swish(&z, 1.0).unwrap().to_vec::<num_complex::Complex64>().unwrap()[0];
        assert!((s.re - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-15 && s.im == 0.0, "{s}");
    }

    #[test]
    fn activations() {
        let x = v(&[-1.0, 0.0, 2.0, 8.0]);
        assert_eq!(relu6(&x).unwrap().to_vec::<f64>().unwrap(), vec![0.0, 0.0, 2.0, 6.0]);
        assert_eq!(leaky_relu(&x, 0.2).unwrap().to_vec::<f64>().unwrap()[0], -f64::from(0.2f32));
        assert_eq!(softsign(&x).unwrap().to_vec::<f64>().unwrap()[2], 2.0 / 3.0);
        let e = elu(&x).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(e[0], (-1f64).exp_m1());
        let g = gelu(&v(&[1.0]), false).unwrap().item::<f64>().unwrap();
        assert!((g - 0.841_344_746_068_542_9).abs() < 1e-15, "{g}");
        let g = gelu(&v(&[1.0]), true).unwrap().item::<f64>().unwrap();
        assert!((g - 0.841_191_990_607_477_3).abs() < 1e-12, "{g}");
        let w = relu(&crate::constant([-1.0, 1.0]).unwrap()).unwrap();
        assert!(w.is_weak());
        let n = relu(&v(&[f64::NAN])).unwrap().item::<f64>().unwrap();
        assert!(n.is_nan());
    }

    #[test]
    fn log_softmax_is_stable() {
        let x = Tensor::from_vec(vec![1000.0f32, 1000.0, 0.0, 0.0], &[2, 2]).unwrap();
        let l = log_softmax(&x, -1).unwrap().to_vec::<f32>().unwrap();
        for v in l {
            assert!((v + std::f32::consts::LN_2).abs() < 1e-6);
        }
    }

    #[test]
    fn depth_space_round_trip() {
        let x = Tensor::from_vec((0..2 * 4 * 6 * 3).collect::<Vec<i32>>(), &[2, 4, 6, 3]).unwrap();
        let d = space_to_depth(&x, 2).unwrap();
        assert_eq!(d.shape(), &[2, 2, 3, 12]);
        let back = depth_to_space(&d, 2).unwrap();
        assert_eq!(back.to_vec::<i32>().unwrap(), x.to_vec::<i32>().unwrap());
        assert!(space_to_depth(&x, 4).is_err());
        assert!(depth_to_space(&x, 2).is_err());
    }
}
