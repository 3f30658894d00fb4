//! `tf.dtypes.saturate_cast`: a cast that first clips the values to the range
//! the target dtype can hold.

use num_complex::Complex64;

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::scalar::Scalar;
use crate::core::tape::{self, TapeOp};
use crate::dispatch::FloatStorage;
use crate::{DType, Tensor};

/// `v` rounded to the float dtype `d` (returned exactly as an `f64`).
pub(crate) fn round_to(d: DType, v: f64) -> f64 {
    crate::with_f32_dtype!(d, S, S::from_f64(v).cast_into(), other => v)
}

/// One step toward zero in a float's own encoding.
trait StepTowardZero: FloatStorage {
    /// The neighbour of the finite, non-zero `self` toward zero.
    fn step_toward_zero(self) -> Self;
}

macro_rules! step_toward_zero {
    ($($t:ty),*) => {$(impl StepTowardZero for $t {
        // in sign-magnitude encodings, one less in the bits is one step less in magnitude
        fn step_toward_zero(self) -> Self {
            <$t>::from_bits(self.to_bits() - 1)
        }
    })*};
}
step_toward_zero!(half::bf16, half::f16, f32, f64);

/// The neighbour of the finite, non-zero `v` (a value of float dtype `d`) towards zero.
fn toward_zero(d: DType, v: f64) -> f64 {
    crate::with_f32_dtype!(d, S, S::round_f64(v).step_toward_zero().cast_into(), other => v.step_toward_zero())
}

/// Casts `x` to `dtype`, clipping first so that no value overflows
/// (`tf.dtypes.saturate_cast`, as TF 2.21 computes it).
///
/// * **real → real or complex**: the values are clipped to the finite range
///   of the target's (real) dtype, as far as the input dtype can hold it,
///   then cast. So `±inf` becomes the target's largest finite value, even
///   for a wider target (`float32 inf → float64 3.4028235e38`), and NaN stays
///   NaN (a NaN cast to an integer is 0, as every lattensor cast).
/// * **float → narrower**: each bound is rounded to the input dtype and, if
///   the rounding pushed it outside the target's range, stepped once towards
///   zero, as TF does: `float32 → int32` clips at 2147483520,
///   `float16 → int16` at 32752, `bfloat16 → float16` at 65280. Where even
///   that bound is not below the target's maximum in `float64`
///   (`float32(2⁶³)` against `int64`), the cast itself saturates.
/// * **integer → integer or float**: clipped to the target's range
///   (`int32 → float16` at ±65504, `int16 → uint8` at 0 and 255).
/// * **complex → complex**: the real and imaginary parts are clipped
///   separately when the target is narrower (`complex128 → complex64`);
///   otherwise a plain cast.
/// * **complex → real**: the real part, then as real → real.
///
/// The result is strong, as a cast's.
///
/// ```
/// use lattensor::{ops, DType, Tensor};
/// let x = Tensor::from_vec(vec![1e10f32, -1e10, 3.5, f32::INFINITY], &[4]).unwrap();
/// let h = ops::saturate_cast(&x, DType::F16).unwrap();
/// assert_eq!(h.to_vec::<f32>().unwrap(), vec![65504.0, -65504.0, 3.5, 65504.0]);
/// let i = ops::saturate_cast(&x, DType::I32).unwrap();
/// assert_eq!(i.to_vec::<i32>().unwrap(), vec![2_147_483_520, i32::MIN, 3, 2_147_483_520]);
/// let u = Tensor::from_vec(vec![300i32, -5], &[2]).unwrap();
/// assert_eq!(ops::saturate_cast(&u, DType::U8).unwrap().to_vec::<u8>().unwrap(), vec![255, 0]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] if `x` or `dtype` is bool (TF has no range
/// for bool); [`Error::ResourceExhausted`] if the result cannot be allocated.
pub fn saturate_cast(x: &Tensor, dtype: DType) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            for d in [x.dtype(), dtype] {
                if d == DType::Bool {
                    return Err(Error::UnsupportedDType {
                        op: "saturate_cast".into(),
                        dtype: d,
                        supported: "every dtype but bool (bool has no range to saturate to)".into(),
                    });
                }
            }
            let from = x.dtype();
            match (from.is_complex(), dtype.is_complex()) {
                (true, true) => {
                    let (ri, ro) = (from.real_dtype().finfo(), dtype.real_dtype().finfo());
                    match (ri, ro) {
                        (Some(i), Some(o)) if i.max > o.max => {
                            let v: Vec<Complex64> = x
                                .cast(DType::C128)?
                                .to_vec::<Complex64>()?
                                .into_iter()
                                .map(|z| Complex64::new(z.re.clamp(o.min, o.max), z.im.clamp(o.min, o.max)))
                                .collect();
                            Tensor::from_vec(v, x.shape())?.cast(dtype)
                        }
                        _ => x.cast(dtype),
                    }
                }
                (true, false) => saturate_real(&super::real(x)?, dtype),
                _ => saturate_real(x, dtype),
            }
        },
        || saturated_gradient(x, dtype),
    )
}

/// How the tape differentiates `saturate_cast(x, dtype)`: a float narrowed to a
/// float of smaller range is clipped first (TF's `clip_by_value` then `cast`), so
/// the gradient is zero where `x` lay outside the target's finite range (infinities
/// and NaN included); otherwise it is a cast's.
fn saturated_gradient(x: &Tensor, dtype: DType) -> TapeOp {
    let (from, to) = (x.dtype(), dtype);
    let narrows = match (from.is_float(), to.is_float(), from.finfo(), to.finfo()) {
        (true, true, Some(i), Some(o)) => o.max < i.max,
        _ => false,
    };
    if !narrows {
        return TapeOp::Cast;
    }
    let Some(bound) = to.finfo().map(|o| o.max) else { return TapeOp::Cast };
    let x = x.clone();
    TapeOp::Custom(std::rc::Rc::new(move |g: &[Tensor]| {
        let inside = super::logical_and(&super::greater_equal(&x, -bound)?, &super::less_equal(&x, bound)?)?;
        let zero = crate::zeros_like(&g[0], None)?;
        Ok(vec![Some(super::combine::where_(&inside, &g[0], &zero)?)])
    }))
}

/// [`saturate_cast`] of a real `x` to `dtype` (whose real dtype bounds the values).
fn saturate_real(x: &Tensor, dtype: DType) -> Result<Tensor> {
    let from = x.dtype();
    let to = dtype.real_dtype();
    // the target's range as f64 (exact for the floats; integer bounds beyond 2⁵³ round)
    let (omin, omax) = match (to.iinfo(), to.finfo()) {
        (Some(o), _) => (o.min as f64, o.max as f64),
        (None, Some(o)) => (o.min, o.max),
        (None, None) => return x.cast(dtype),
    };
    let (lo, hi) = if let Some(i) = from.iinfo() {
        // integer input: the bounds are integers of the input dtype
        let (lo, hi) = match to.iinfo() {
            Some(o) => (i.min.max(o.min), i.max.min(o.max)),
            None => (
                if omin <= i.min as f64 { i.min } else { omin.ceil() as i128 },
                if omax >= i.max as f64 { i.max } else { omax.floor() as i128 },
            ),
        };
        // both bounds are values of the input dtype, so they fit an i64 or a u64
        let bound = |v: i128| i64::try_from(v).map(Scalar::from).unwrap_or_else(|_| Scalar::from(v as u64));
        (bound(lo), bound(hi))
    } else {
        // float input: TF's bounds, rounded to the input dtype and nudged back inside
        let Some(fi) = from.finfo() else { return x.cast(dtype) };
        let mut lo = round_to(from, fi.min.max(omin));
        if lo < omin {
            lo = toward_zero(from, lo);
        }
        let mut hi = round_to(from, fi.max.min(omax));
        if hi > omax {
            hi = toward_zero(from, hi);
        }
        (Scalar::Float(lo), Scalar::Float(hi))
    };
    // strong bounds of the input's own dtype: the clip promotes nothing in any mode
    super::clip_by_value(x, &lo.to_tensor_as(from), &hi.to_tensor_as(from))?.cast(dtype)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_match_tf() {
        // TF nudges float32 bounds that round outside the target range.
        let x = Tensor::from_vec(vec![3e9f32, -3e9, 5e9], &[3]).unwrap();
        assert_eq!(
            saturate_cast(&x, DType::I32).unwrap().to_vec::<i32>().unwrap(),
            vec![2_147_483_520, i32::MIN, 2_147_483_520]
        );
        assert_eq!(
            saturate_cast(&x, DType::U32).unwrap().to_vec::<u32>().unwrap(),
            vec![3_000_000_000, 0, 4_294_967_040]
        );
        let i = Tensor::from_vec(vec![-5i16, 300], &[2]).unwrap();
        assert_eq!(saturate_cast(&i, DType::U8).unwrap().to_vec::<u8>().unwrap(), vec![0, 255]);
        // float → float clips to the finite range, inf included; NaN stays
        let d = Tensor::from_vec(vec![1e300f64, -f64::INFINITY, f64::NAN, 0.5], &[4]).unwrap();
        let f = saturate_cast(&d, DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(&f[..2], &[f32::MAX, f32::MIN]);
        assert!(f[2].is_nan() && f[3] == 0.5);
        let wide = saturate_cast(&Tensor::from_vec(vec![f32::INFINITY], &[1]).unwrap(), DType::F64).unwrap();
        assert_eq!(wide.to_vec::<f64>().unwrap(), vec![f32::MAX as f64]);
        // bfloat16(65504) rounds to 65536, beyond float16: stepped back to 65280
        let b = Tensor::from_vec(vec![half::bf16::INFINITY], &[1]).unwrap();
        assert_eq!(saturate_cast(&b, DType::F16).unwrap().to_vec::<f32>().unwrap(), vec![65280.0]);
        let h = Tensor::from_vec(vec![half::f16::from_f32(40000.0), half::f16::from_f32(-40000.0)], &[2]).unwrap();
        assert_eq!(saturate_cast(&h, DType::I16).unwrap().to_vec::<i16>().unwrap(), vec![32752, i16::MIN]);
        // integers to float16, and 64-bit integers between each other
        let w = Tensor::from_vec(vec![70000i32, -70000, 7], &[3]).unwrap();
        assert_eq!(saturate_cast(&w, DType::F16).unwrap().to_vec::<f32>().unwrap(), vec![65504.0, -65504.0, 7.0]);
        let u = Tensor::from_vec(vec![u64::MAX, 5], &[2]).unwrap();
        assert_eq!(saturate_cast(&u, DType::I64).unwrap().to_vec::<i64>().unwrap(), vec![i64::MAX, 5]);
        let n = Tensor::from_vec(vec![i64::MIN, i64::MAX], &[2]).unwrap();
        assert_eq!(saturate_cast(&n, DType::U64).unwrap().to_vec::<u64>().unwrap(), vec![0, i64::MAX as u64]);
    }

    #[test]
    fn complex_and_bool() {
        let z = Tensor::from_vec(vec![Complex64::new(1e300, -1e300), Complex64::new(f64::INFINITY, f64::NAN)], &[2])
            .unwrap();
        let c = saturate_cast(&z, DType::C64).unwrap().to_vec::<num_complex::Complex32>().unwrap();
        assert_eq!((c[0].re, c[0].im, c[1].re), (f32::MAX, f32::MIN, f32::MAX));
        assert!(c[1].im.is_nan());
        // complex → real keeps the real part; real → complex clips to the real range
        let r = saturate_cast(&z, DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(r, vec![f32::MAX, f32::MAX]);
        let up = Tensor::from_vec(vec![f64::INFINITY], &[1]).unwrap();
        let c2 = saturate_cast(&up, DType::C128).unwrap().to_vec::<Complex64>().unwrap();
        assert_eq!(c2[0], Complex64::new(f64::MAX, 0.0));
        let weak = crate::constant([1.5, 2.5]).unwrap();
        assert!(!saturate_cast(&weak, DType::F32).unwrap().is_weak());
        let b = Tensor::from_vec(vec![true], &[1]).unwrap();
        assert!(matches!(saturate_cast(&b, DType::I32), Err(Error::UnsupportedDType { .. })));
        assert!(matches!(saturate_cast(&w32(), DType::Bool), Err(Error::UnsupportedDType { .. })));
    }

    fn w32() -> Tensor {
        Tensor::from_vec(vec![1i32], &[1]).unwrap()
    }
}
