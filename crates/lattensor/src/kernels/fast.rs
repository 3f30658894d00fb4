//! Vectorisable inner loops for the hot conversions and `exp`.
//!
//! The generic per-element conversions (`Element::cast_into`) are exact but
//! branchy: f16 goes through a software or one-at-a-time hardware path, i32 →
//! f32 through a correctly rounded i64 route, bf16 rounding through branches.
//! Here the common pairs are plain loops the compiler vectorises (or, for
//! f16, `half`'s slice conversions, which use F16C when the CPU has it), and
//! every loop runs inside `pulp`'s dispatch so that AVX2/FMA code is used when
//! the CPU supports it, whatever the build's target features.

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use crate::DType;
use crate::element::Element;

/// Runs `f` compiled for the best instruction set the CPU supports.
#[inline(always)]
pub(crate) fn simd<R>(f: impl FnOnce() -> R) -> R {
    pulp::Arch::new().dispatch(f)
}

/// `s` as a slice of `T`, when `S` is `T`.
#[inline(always)]
fn same<S: Element, T: Element>(s: &[S]) -> Option<&[T]> {
    // SAFETY: `Element` is sealed and implemented for exactly one Rust type per
    // dtype, so equal `DTYPE`s mean `S` and `T` are the same type.
    (S::DTYPE == T::DTYPE).then(|| unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<T>(), s.len()) })
}

/// Mutable counterpart of [`same`].
#[inline(always)]
fn same_mut<S: Element, T: Element>(s: &mut [S]) -> Option<&mut [T]> {
    // SAFETY: as in `same`; the borrow of `s` is moved into the result.
    (S::DTYPE == T::DTYPE).then(|| unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<T>(), s.len()) })
}

/// bf16 → f32 is exact: the bf16 bits are the f32's upper half. Signalling
/// NaNs come out quiet, as with `half::bf16::to_f32` (the generic path).
#[inline(always)]
pub(crate) fn bf16_to_f32(h: bf16) -> f32 {
    let b = (h.to_bits() as u32) << 16;
    let x = f32::from_bits(b);
    if x.is_nan() { f32::from_bits(b | 0x0040_0000) } else { x }
}

/// f32 → bf16 rounded to nearest even; NaNs stay NaN (quieted, sign and top payload kept),
/// bit for bit as `half::bf16::from_f32`, but branch-free so that it vectorises.
#[inline(always)]
pub(crate) fn f32_to_bf16(x: f32) -> bf16 {
    let b = x.to_bits();
    let rounded = (b.wrapping_add(0x7fff + ((b >> 16) & 1)) >> 16) as u16;
    let nan = ((b >> 16) | 0x40) as u16;
    bf16::from_bits(if x.is_nan() { nan } else { rounded })
}

/// Converts `src` into `dst` (same length) when the pair has a fast path; returns whether it did.
#[inline]
pub(crate) fn convert<S: Element, D: Element>(src: &[S], dst: &mut [D]) -> bool {
    match (S::DTYPE, D::DTYPE) {
        (s, d) if s == d => {
            if let Some(s) = same::<S, D>(src) {
                dst.copy_from_slice(s);
            }
        }
        (DType::F16, DType::F32) => {
            if let (Some(s), Some(d)) = (same::<S, f16>(src), same_mut::<D, f32>(dst)) {
                s.convert_to_f32_slice(d);
            }
        }
        (DType::F32, DType::F16) => {
            if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, f16>(dst)) {
                d.convert_from_f32_slice(s);
            }
        }
        (DType::BF16, DType::F32) => {
            if let (Some(s), Some(d)) = (same::<S, bf16>(src), same_mut::<D, f32>(dst)) {
                simd(|| d.iter_mut().zip(s).for_each(|(d, &s)| *d = bf16_to_f32(s)));
            }
        }
        (DType::F32, DType::BF16) => {
            if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, bf16>(dst)) {
                simd(|| d.iter_mut().zip(s).for_each(|(d, &s)| *d = f32_to_bf16(s)));
            }
        }
        (DType::I32, DType::F32) => {
            if let (Some(s), Some(d)) = (same::<S, i32>(src), same_mut::<D, f32>(dst)) {
                // `as` rounds to nearest even, as TF's cast does
                simd(|| d.iter_mut().zip(s).for_each(|(d, &s)| *d = s as f32));
            }
        }
        (DType::I32, DType::F64) => {
            if let (Some(s), Some(d)) = (same::<S, i32>(src), same_mut::<D, f64>(dst)) {
                simd(|| d.iter_mut().zip(s).for_each(|(d, &s)| *d = s as f64));
            }
        }
        (DType::F32, DType::F64) => {
            if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, f64>(dst)) {
                simd(|| d.iter_mut().zip(s).for_each(|(d, &s)| *d = s as f64));
            }
        }
        _ => return false,
    }
    true
}

/// Outputs at least this large are written with non-temporal (streaming)
/// stores: they do not fit in the last-level cache anyway, and streaming
/// stores skip the read-for-ownership of every output line (a third of an
/// add's memory traffic).
pub(crate) const STREAM_MIN_BYTES: usize = 16 << 20;

/// Copies `src` into `dst` (same length) with non-temporal stores where the
/// CPU has them and `dst` is 16-byte aligned; otherwise a plain copy. Call
/// [`store_fence`] before other threads read `dst`.
#[inline]
pub(crate) fn stream_store<T: Element>(src: &[T], dst: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let bytes = std::mem::size_of_val(src);
        let (s, d) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr().cast::<u8>());
        if src.len() == dst.len() && (d as usize) % 16 == 0 && bytes % 16 == 0 {
            for i in (0..bytes).step_by(16) {
                // SAFETY: SSE2 is part of x86_64. `i + 16 <= bytes`, the byte
                // length of both slices, so the unaligned load reads inside
                // `src` and the store writes inside `dst`, which is 16-byte
                // aligned at `d` and so at every `d + i`. `dst` is exclusively
                // borrowed, and any bit pattern is valid for `T`'s bytes because
                // they are copied from a valid `T` of the same type.
                unsafe {
                    let v = _mm_loadu_si128(s.add(i).cast::<__m128i>());
                    _mm_stream_si128(d.add(i).cast::<__m128i>(), v);
                }
            }
            return;
        }
    }
    dst.copy_from_slice(src);
}

/// Orders earlier streaming stores before later stores (`sfence`), so that a
/// thread that joins this one sees them.
#[inline]
pub(crate) fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86_64; sfence has no operands.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}

/// `eˣ` for f32, branch-free so that it vectorises: computed in f64 (argument
/// reduction by ln 2 and a degree-11 Taylor polynomial on |r| ≤ ln2/2, relative
/// error below 2⁻⁴⁸) and rounded once to f32, so the result is the correctly
/// rounded value except in cases closer than 2⁻²⁴ ulp to a rounding boundary.
/// Overflow gives +inf, underflow 0 or a correctly rounded subnormal, NaN stays NaN.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2: f64 = std::f64::consts::LN_2;
    const SHIFTER: f64 = 6_755_399_441_055_744.0; // 1.5·2⁵², puts round(v) in the low mantissa bits
    // beyond these bounds the f32 result is inf or 0 anyway; clamping keeps 2ᵏ finite in f64
    let xd = (x as f64).clamp(-104.0, 89.0);
    let t = xd * LOG2E + SHIFTER;
    let k = t - SHIFTER; // round(x·log2 e)
    let r = xd - k * LN2;
    // Horner, 1/n! coefficients
    let mut p = 1.0 / 39_916_800.0;
    p = p * r + 1.0 / 3_628_800.0;
    p = p * r + 1.0 / 362_880.0;
    p = p * r + 1.0 / 40_320.0;
    p = p * r + 1.0 / 5_040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    // 2ᵏ from the integer in t's low bits (|k| ≤ 151, so the exponent is in range)
    let ki = (t.to_bits() as i64).wrapping_sub(SHIFTER.to_bits() as i64);
    let scale = f64::from_bits(((ki + 1023) as u64) << 52);
    let y = (p * scale) as f32;
    if x.is_nan() { x } else { y }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in ulps between two finite f32 of the same sign (or both zero).
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    #[test]
    fn exp_is_within_one_ulp_of_the_correctly_rounded_value_everywhere() {
        // every 4099th f32 bit pattern, plus the edges
        let mut worst = 0;
        let mut mismatches = 0usize;
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            88.72283,
            88.72284,
            89.0,
            -87.33655,
            -103.97208,
            -103.97209,
            -104.0,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            1e-45,
        ];
        for x in (0..u32::MAX).step_by(4099).map(f32::from_bits).chain(specials) {
            let got = exp_f32(x);
            let want = (x as f64).exp() as f32;
            if x.is_nan() {
                assert!(got.is_nan(), "exp({x:e})");
                continue;
            }
            if got != want {
                mismatches += 1;
                assert!(want.is_finite() && got.is_finite(), "exp({x:e}) = {got:e}, want {want:e}");
                worst = worst.max(ulps(got, want));
            }
        }
        assert!(worst <= 1, "worst error {worst} ulp");
        assert!(mismatches < 20, "{mismatches} results differ from the correctly rounded value");
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(0.0), 1.0);
    }

    #[test]
    fn bf16_conversions_match_half_bit_for_bit() {
        for bits in (0..u32::MAX).step_by(997).chain([0x7f7f_ffff, 0x7f80_0001, 0xff80_0000, 0x3f80_8000, 0x3f81_8000])
        {
            let x = f32::from_bits(bits);
            assert_eq!(f32_to_bf16(x).to_bits(), bf16::from_f32(x).to_bits(), "{bits:#x}");
        }
        for h in 0..=u16::MAX {
            let h = bf16::from_bits(h);
            assert_eq!(bf16_to_f32(h).to_bits(), h.to_f32().to_bits());
        }
    }

    #[test]
    fn fast_conversions_agree_with_cast_into() {
        let xs: Vec<f32> = (0..5000u32).map(|i| f32::from_bits(i.wrapping_mul(2_654_435_761))).collect();
        let mut h = vec![f16::ZERO; xs.len()];
        assert!(convert(&xs, &mut h));
        let mut back = vec![0f32; xs.len()];
        assert!(convert(&h, &mut back));
        for ((&x, &hh), &b) in xs.iter().zip(&h).zip(&back) {
            let want: f16 = x.cast_into();
            assert!(hh.to_bits() == want.to_bits() || (x.is_nan() && hh.is_nan()), "{x:e}");
            assert!(b.to_bits() == hh.to_f32().to_bits() || b.is_nan());
        }
        let is: Vec<i32> = (0..5000).map(|i: i32| i.wrapping_mul(1_000_003)).collect();
        let mut f = vec![0f32; is.len()];
        assert!(convert(&is, &mut f));
        assert!(is.iter().zip(&f).all(|(&i, &f)| f == i.cast_into::<f32>()));
        assert!(!convert(&is, &mut vec![0u8; is.len()]));
    }
}
