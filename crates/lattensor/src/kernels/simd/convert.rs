//! Vectorised dtype conversions for the common pairs.
//!
//! The generic per-element conversions (`Element::cast_into`) are exact but
//! branchy: f16 goes through a software or one-at-a-time hardware path, i32 →
//! f32 through a correctly rounded i64 route, bf16 rounding through branches.
//! Here the common pairs are plain loops the compiler vectorises (or, for f16,
//! F16C loops when the CPU has it), run inside [`simd!`](super::simd) so that
//! AVX2 code is used when the CPU supports it, whatever the build's target
//! features. Every path gives the same bits as `cast_into`.

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use super::{same, same_mut, simd};
use crate::DType;
use crate::core::element::Element;

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

/// Converts `src` into `dst` with [`Element::cast_into`]: by a vectorised loop
/// for the pairs [`convert`] has, element by element for the rest.
#[inline]
pub(crate) fn convert_slice<S: Element, D: Element>(src: &[S], dst: &mut [D]) {
    if src.len() == dst.len() && convert(src, dst) {
        return;
    }
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s.cast_into::<D>();
    }
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
                f16_to_f32_slice(s, d);
            }
        }
        (DType::F32, DType::F16) => {
            if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, f16>(dst)) {
                f32_to_f16_slice(s, d);
            }
        }
        (DType::BF16, DType::F32) => {
            if let (Some(s), Some(d)) = (same::<S, bf16>(src), same_mut::<D, f32>(dst)) {
                simd!(d.iter_mut().zip(s).for_each(|(d, &s)| *d = bf16_to_f32(s)),);
            }
        }
        (DType::F32, DType::BF16) => {
            if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, bf16>(dst)) {
                simd!(d.iter_mut().zip(s).for_each(|(d, &s)| *d = f32_to_bf16(s)),);
            }
        }
        (DType::I32, DType::F32) => {
            if let (Some(s), Some(d)) = (same::<S, i32>(src), same_mut::<D, f32>(dst)) {
                // `as` rounds to nearest even, as TF's cast does
                simd!(d.iter_mut().zip(s).for_each(|(d, &s)| *d = s as f32),);
            }
        }
        (DType::I32, DType::F64) => {
            if let (Some(s), Some(d)) = (same::<S, i32>(src), same_mut::<D, f64>(dst)) {
                simd!(d.iter_mut().zip(s).for_each(|(d, &s)| *d = s as f64),);
            }
        }
        (DType::F32, DType::F64) => {
            if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, f64>(dst)) {
                simd!(d.iter_mut().zip(s).for_each(|(d, &s)| *d = s as f64),);
            }
        }
        _ => return false,
    }
    true
}

/// f16 → f32 of a slice: eight at a time with F16C when the CPU has it (the
/// conversion is exact, so every path gives the same bits), else `half`'s.
#[inline]
pub(crate) fn f16_to_f32_slice(src: &[f16], dst: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("f16c") && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU supports the function's target features (checked above).
        unsafe { f16c::to_f32(src, dst) };
        return;
    }
    src.convert_to_f32_slice(dst);
}

/// f32 → f16 of a slice, rounded to nearest even: eight at a time with F16C
/// when the CPU has it, else `half`'s (which rounds the same way; NaNs stay
/// NaN with the quiet bit set on both paths).
#[inline]
pub(crate) fn f32_to_f16_slice(src: &[f32], dst: &mut [f16]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("f16c") && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU supports the function's target features (checked above).
        unsafe { f16c::from_f32(src, dst) };
        return;
    }
    dst.convert_from_f32_slice(src);
}

/// The F16C loops: `half`'s slice conversions call a non-inlined function per
/// eight elements; these convert a whole block in one loop.
#[cfg(target_arch = "x86_64")]
mod f16c {
    use half::f16;
    use std::arch::x86_64::{
        __m128i, _MM_FROUND_TO_NEAREST_INT, _mm_loadu_si128, _mm_storeu_si128, _mm256_cvtph_ps, _mm256_cvtps_ph,
        _mm256_loadu_ps, _mm256_storeu_ps,
    };

    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn to_f32(src: &[f16], dst: &mut [f32]) {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: i + 8 <= n, the length of both slices, so the 16-byte
            // load reads eight f16 inside `src` and the 32-byte store writes
            // eight f32 inside `dst` (unaligned accesses are allowed).
            unsafe {
                let h = _mm_loadu_si128(s.add(i).cast::<__m128i>());
                _mm256_storeu_ps(d.add(i), _mm256_cvtph_ps(h));
            }
            i += 8;
        }
        for j in i..n {
            dst[j] = src[j].to_f32();
        }
    }

    #[target_feature(enable = "avx,f16c")]
    pub(super) unsafe fn from_f32(src: &[f32], dst: &mut [f16]) {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: i + 8 <= n, the length of both slices: the 32-byte load
            // reads eight f32 inside `src`, the 16-byte store writes eight f16
            // inside `dst`.
            unsafe {
                let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_loadu_ps(s.add(i)));
                _mm_storeu_si128(d.add(i).cast::<__m128i>(), h);
            }
            i += 8;
        }
        for j in i..n {
            dst[j] = f16::from_f32(src[j]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn f16_slice_conversions_match_half_bit_for_bit() {
        // every f16, at lengths that exercise the 8-wide loop and its tail
        let all: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
        let mut wide = vec![0f32; all.len()];
        f16_to_f32_slice(&all[3..], &mut wide[3..]);
        for (h, w) in all[3..].iter().zip(&wide[3..]) {
            assert_eq!(w.to_bits(), h.to_f32().to_bits(), "{:#x}", h.to_bits());
        }
        let xs: Vec<f32> = (0..u32::MAX)
            .step_by(65_537)
            .chain([0x7f80_0001, 0xffc0_1234, 0x3380_0000, 0x3380_0001, 0x477f_f000, 0x477f_efff])
            .map(f32::from_bits)
            .collect();
        let mut h = vec![f16::ZERO; xs.len()];
        f32_to_f16_slice(&xs, &mut h);
        for (&x, hh) in xs.iter().zip(&h) {
            assert_eq!(hh.to_bits(), f16::from_f32(x).to_bits(), "{:#x}", x.to_bits());
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
