//! Fused f16/bf16 element-wise loops: widen sixteen elements to f32 in a
//! register, apply the op, round back and store, in one pass. The block-wise
//! path (convert a block into a buffer, compute into another, convert back)
//! moves every element through memory three more times; this one keeps
//! half-precision ops at the speed of memory.
//!
//! The results are the same bits as the block-wise path: the same widening
//! (exact), the same f32 op, the same rounding (to nearest even; NaNs quieted
//! with sign and top payload kept). The block-wise path quiets bf16 signalling
//! NaNs as it widens; this one leaves that to the rounding, with the same result.

use half::{bf16, f16};

use crate::core::element::Element;
use crate::kernels::simd::convert::{bf16_to_f32, f32_to_bf16};

/// One operand of [`binary`]: contiguous half-precision elements or a scalar already in f32.
#[derive(Clone, Copy)]
pub(crate) enum HalfSrc<'a, H> {
    Slice(&'a [H]),
    Scalar(f32),
}

impl<H> HalfSrc<'_, H> {
    /// Elements `start..start + n` (a scalar stays itself).
    pub(crate) fn sub(self, start: usize, n: usize) -> Self {
        match self {
            HalfSrc::Slice(x) => HalfSrc::Slice(&x[start..start + n]),
            s => s,
        }
    }

    /// Whether the operand covers an output of `n` elements (a scalar covers any).
    fn fits(self, n: usize) -> bool {
        match self {
            HalfSrc::Slice(x) => x.len() == n,
            HalfSrc::Scalar(_) => true,
        }
    }
}

/// Whether [`binary`] runs for `H` on this CPU.
pub(crate) fn available<H: Element>() -> bool {
    #[cfg(target_arch = "x86_64")]
    if matches!(H::DTYPE, crate::DType::F16 | crate::DType::BF16) {
        return avx512_available() || avx2_available();
    }
    false
}

/// Whether [`avx512::binary`] runs on this CPU.
#[cfg(target_arch = "x86_64")]
fn avx512_available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("f16c")
}

/// Whether [`avx2::binary`] runs on this CPU.
#[cfg(target_arch = "x86_64")]
fn avx2_available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
}

/// Whether [`avx512::binary_bf16_pairs`] runs on this CPU.
#[cfg(target_arch = "x86_64")]
fn bf16_pairs_available() -> bool {
    std::arch::is_x86_feature_detected!("avx512bf16")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512dq")
}

/// `out[i] = round(f(widen(a[i]), widen(b[i])))` for `H` = f16 or bf16, with
/// AVX-512 or else AVX2; returns `false` (and does nothing) when `H` is another
/// type or the CPU has neither, so the caller takes its general path.
///
/// `ahead`: the operands stream from memory (a large working set, the block of
/// a longer run): the loop asks for them a page ahead as it goes, see
/// [`crate::kernels::simd::stream::fetch_ahead`]: 10M-element adds streamed
/// through the block buffer on an AVX-512 Intel CPU, two threads, f16 1.25 →
/// 1.14 ms, bf16 1.29 → 1.11 ms.
pub(crate) fn binary<H: Element, F: Fn(f32, f32) -> f32>(
    a: HalfSrc<'_, H>,
    b: HalfSrc<'_, H>,
    out: &mut [H],
    f: &F,
    ahead: bool,
) -> bool {
    if !(a.fits(out.len()) && b.fits(out.len())) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if available::<H>() {
        if !avx512_available() {
            // SAFETY: `available` checked that `H` is f16 or bf16, and without AVX-512
            // that the CPU has AVX2, FMA and F16C; the slice lengths equal `out.len()`.
            unsafe { avx2::binary::<H, F, false>(a, b, out, f, ahead) };
            return true;
        }
        if H::DTYPE == crate::DType::BF16 && bf16_pairs_available() {
            // SAFETY: as below, and the CPU has AVX512_BF16, AVX512BW and AVX512DQ (checked just now).
            unsafe { avx512::binary_bf16_pairs(a, b, out, f, ahead) };
            return true;
        }
        // SAFETY: `available` checked that `H` is f16 or bf16 and that the CPU
        // has AVX-512F and F16C; the slice lengths equal `out.len()` (checked above).
        unsafe { avx512::binary(a, b, out, f, ahead) };
        return true;
    }
    false
}

/// [`binary`] writing `out` by streaming stores (the caller fences them), for
/// outputs too large for the cache, reading the operands a page ahead: only the
/// AVX2 loop has this form, and it applies to CPUs without AVX-512; returns
/// `false` (and does nothing) elsewhere, and the caller streams through its
/// block buffer instead.
///
/// On Zen 3, against the block buffer, two threads: 10M f16 adds 1.0–1.1 →
/// 0.83 ms, bf16 1.49 → 1.15 ms.
pub(crate) fn binary_streamed<H: Element, F: Fn(f32, f32) -> f32>(
    a: HalfSrc<'_, H>,
    b: HalfSrc<'_, H>,
    out: &mut [H],
    f: &F,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if a.fits(out.len()) && b.fits(out.len()) && available::<H>() && !avx512_available() {
        // SAFETY: `available` checked that `H` is f16 or bf16, and without AVX-512
        // that the CPU has AVX2, FMA and F16C; the slice lengths equal `out.len()`.
        unsafe { avx2::binary::<H, F, true>(a, b, out, f, true) };
        return true;
    }
    false
}

/// The element function of the loop, used for the tail (and as the definition).
#[inline(always)]
fn one<H: Element, F: Fn(f32, f32) -> f32>(a: HalfSrc<'_, H>, b: HalfSrc<'_, H>, i: usize, f: &F) -> H {
    let widen = |s: HalfSrc<'_, H>| match s {
        HalfSrc::Slice(x) => widen_one(x[i]),
        HalfSrc::Scalar(v) => v,
    };
    narrow_one(f(widen(a), widen(b)))
}

#[inline(always)]
fn widen_one<H: Element>(h: H) -> f32 {
    match H::DTYPE {
        crate::DType::BF16 => bf16_to_f32(h.cast_into::<bf16>()),
        _ => h.cast_into::<f16>().to_f32(),
    }
}

#[inline(always)]
fn narrow_one<H: Element>(x: f32) -> H {
    match H::DTYPE {
        crate::DType::BF16 => f32_to_bf16(x).cast_into::<H>(),
        _ => f16::from_f32(x).cast_into::<H>(),
    }
}

/// One operand of a loop, split once before it: a pointer to contiguous
/// elements, or (`SCALAR`) a value in f32 and a null pointer. The loops are
/// instantiated per kind of operand, so no step branches on it.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Operand<H> {
    ptr: *const H,
    value: f32,
}

#[cfg(target_arch = "x86_64")]
impl<H> Operand<H> {
    fn of(s: HalfSrc<'_, H>) -> Self {
        match s {
            HalfSrc::Slice(x) => Operand { ptr: x.as_ptr(), value: 0.0 },
            HalfSrc::Scalar(v) => Operand { ptr: std::ptr::null(), value: v },
        }
    }

    /// Asks for the line a page past element `i` (a hint; see
    /// [`crate::kernels::simd::stream::fetch_ahead`]); nothing for a scalar.
    #[inline(always)]
    fn fetch_ahead<const SCALAR: bool>(&self, i: usize) {
        if !SCALAR {
            crate::kernels::simd::stream::fetch_line_ahead(self.ptr.wrapping_add(i));
        }
    }
}

/// Runs `body::<A_SCALAR, B_SCALAR>` for the kinds of `a` and `b`.
macro_rules! by_kinds {
    ($a:expr, $b:expr, $body:ident [$($g:tt)*], $($arg:expr),*) => {
        match ($a, $b) {
            (HalfSrc::Slice(_), HalfSrc::Slice(_)) => $body::<H, F, false, false, $($g)*>(Operand::of($a), Operand::of($b), $($arg),*),
            (HalfSrc::Slice(_), HalfSrc::Scalar(_)) => $body::<H, F, false, true, $($g)*>(Operand::of($a), Operand::of($b), $($arg),*),
            (HalfSrc::Scalar(_), HalfSrc::Slice(_)) => $body::<H, F, true, false, $($g)*>(Operand::of($a), Operand::of($b), $($arg),*),
            (HalfSrc::Scalar(_), HalfSrc::Scalar(_)) => $body::<H, F, true, true, $($g)*>(Operand::of($a), Operand::of($b), $($arg),*),
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m256i, __m512, __m512bh, __m512i, _CMP_UNORD_Q, _MM_FROUND_NO_EXC, _MM_FROUND_TO_NEAREST_INT,
        _mm256_loadu_si256, _mm256_storeu_si256, _mm512_add_epi32, _mm512_and_si512, _mm512_castps_si512,
        _mm512_castsi512_ps, _mm512_cmp_ps_mask, _mm512_cvtepi32_epi16, _mm512_cvtepu16_epi32, _mm512_cvtne2ps_pbh,
        _mm512_cvtph_ps, _mm512_cvtps_ph, _mm512_fpclass_ps_mask, _mm512_loadu_si512, _mm512_mask_blend_epi32,
        _mm512_or_si512, _mm512_permutexvar_epi16, _mm512_set1_epi32, _mm512_setzero_si512, _mm512_slli_epi32,
        _mm512_srli_epi32, _mm512_storeu_si512, _mm512_unpackhi_epi16, _mm512_unpacklo_epi16,
    };

    use super::{HalfSrc, Operand, one};
    use crate::DType;
    use crate::core::element::Element;

    /// Sixteen elements at `p` widened to f32.
    ///
    /// # Safety
    /// `p` must point to sixteen readable `H`, and `H` must be f16 or bf16.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    unsafe fn widen16<H: Element>(p: *const H) -> __m512 {
        // SAFETY: the caller guarantees 16 readable 2-byte elements (32 bytes) at `p`.
        let h = unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) };
        if H::DTYPE == DType::F16 {
            _mm512_cvtph_ps(h)
        } else {
            // Signalling NaNs stay signalling here, unlike in `bf16_to_f32`: the loop's
            // result is rounded by `narrow16`, which quiets every NaN, and an f32 op
            // picks which NaN operand to return regardless of its quiet bit, so the
            // stored bits are the same. Two instructions instead of four.
            _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(h)))
        }
    }

    /// Sixteen f32 rounded to `H` and stored at `p`.
    ///
    /// # Safety
    /// `p` must point to sixteen writable `H`, and `H` must be f16 or bf16.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    unsafe fn narrow16<H: Element>(x: __m512, p: *mut H) {
        let h = if H::DTYPE == DType::F16 {
            _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(x)
        } else {
            // round to nearest even on the bits; NaNs quieted with sign and top payload kept (`f32_to_bf16`)
            let b = _mm512_castps_si512(x);
            let odd = _mm512_and_si512(_mm512_srli_epi32::<16>(b), _mm512_set1_epi32(1));
            let rounded =
                _mm512_srli_epi32::<16>(_mm512_add_epi32(b, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff))));
            let quiet = _mm512_or_si512(_mm512_srli_epi32::<16>(b), _mm512_set1_epi32(0x40));
            let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(x, x);
            _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, rounded, quiet))
        };
        // SAFETY: the caller guarantees 16 writable 2-byte elements (32 bytes) at `p`.
        unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), h) };
    }

    /// Sixteen elements at `i` of `s` widened (or the scalar sixteen times).
    ///
    /// # Safety
    /// Unless `SCALAR`, `s.ptr` has at least `i + 16` readable elements; `H` must be f16 or bf16.
    #[inline(always)]
    unsafe fn load16<H: Element, const SCALAR: bool>(s: Operand<H>, i: usize) -> [f32; 16] {
        if SCALAR {
            [s.value; 16]
        } else {
            // SAFETY: the caller guarantees sixteen elements from `i`; `[f32; 16]` and
            // `__m512` have the same size and every bit pattern is valid for both.
            unsafe { std::mem::transmute::<__m512, [f32; 16]>(widen16(s.ptr.add(i))) }
        }
    }

    /// Elements `from..out.len()` by the element function: a loop's tail, and
    /// the steps it hands back. Out of line, so that it takes no registers from the loop.
    #[cold]
    #[inline(never)]
    fn by_element<H: Element, F: Fn(f32, f32) -> f32>(
        a: HalfSrc<'_, H>,
        b: HalfSrc<'_, H>,
        out: &mut [H],
        from: usize,
        f: &F,
    ) {
        for (j, o) in out.iter_mut().enumerate().skip(from) {
            *o = one(a, b, j, f);
        }
    }

    /// The fused loop, sixteen elements a step.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and F16C; slices in `a` and `b` must have
    /// `out.len()` elements; `H` must be f16 or bf16.
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    pub(super) unsafe fn binary<H: Element, F: Fn(f32, f32) -> f32>(
        a: HalfSrc<'_, H>,
        b: HalfSrc<'_, H>,
        out: &mut [H],
        f: &F,
        ahead: bool,
    ) {
        // SAFETY: forwarded (the operands are `a` and `b`, split).
        let done = unsafe { by_kinds!(a, b, steps16[], out, f, ahead) };
        if done < out.len() {
            by_element(a, b, out, done, f);
        }
    }

    /// [`binary`]'s whole steps; returns how many elements they covered.
    ///
    /// # Safety
    /// As for [`binary`], for the operands split.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma,f16c")]
    unsafe fn steps16<H: Element, F: Fn(f32, f32) -> f32, const A_SCALAR: bool, const B_SCALAR: bool>(
        a: Operand<H>,
        b: Operand<H>,
        out: &mut [H],
        f: &F,
        ahead: bool,
    ) -> usize {
        let n = out.len();
        let o = out.as_mut_ptr();
        let mut i = 0;
        while i + 16 <= n {
            if ahead {
                // half of these ask for a line already asked for: 32 bytes a step
                a.fetch_ahead::<A_SCALAR>(i);
                b.fetch_ahead::<B_SCALAR>(i);
            }
            // SAFETY: i + 16 <= n, which is each slice's length (the caller's contract).
            let (x, y) = unsafe { (load16::<H, A_SCALAR>(a, i), load16::<H, B_SCALAR>(b, i)) };
            let mut r = [0f32; 16];
            for k in 0..16 {
                r[k] = f(x[k], y[k]);
            }
            // SAFETY: `[f32; 16]` and `__m512` have the same size and any bits are valid for both;
            // i + 16 <= n = out.len(), so sixteen elements at `o + i` are writable.
            unsafe { narrow16(std::mem::transmute::<[f32; 16], __m512>(r), o.add(i)) };
            i += 16;
        }
        i
    }

    /// Thirty-two bf16 at `i` of `s` widened to f32 in two vectors, in the order
    /// that `vpunpcklwd`/`vpunpckhwd` leave them: the first holds elements
    /// 8L..8L+4 of each 128-bit lane L, the second 8L+4..8L+8 (a scalar fills both).
    ///
    /// # Safety
    /// Unless `SCALAR`, `s.ptr` has at least `i + 32` readable elements; `H` must be bf16.
    #[inline(always)]
    unsafe fn load32_bf16<H: Element, const SCALAR: bool>(s: Operand<H>, i: usize) -> ([f32; 16], [f32; 16]) {
        if SCALAR {
            return ([s.value; 16], [s.value; 16]);
        }
        // SAFETY: the caller guarantees 32 elements (64 bytes) from `i`; `[f32; 16]`
        // and `__m512` have the same size and every bit pattern is valid for both.
        unsafe {
            let h = _mm512_loadu_si512(s.ptr.add(i).cast());
            let zero = _mm512_setzero_si512();
            // each word into the high half of a double word: bf16 → f32, exactly
            let lo = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, h));
            let hi = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, h));
            (std::mem::transmute::<__m512, [f32; 16]>(lo), std::mem::transmute::<__m512, [f32; 16]>(hi))
        }
    }

    /// [`binary`] for bf16 on a CPU with AVX512_BF16 and AVX512BW, 32 elements a
    /// step, with the same bits: each operand widens in two unpacks against zero
    /// (the elements come out interleaved by 128-bit lanes, the same for every
    /// operand, so the op pairs them right), `vcvtne2ps2bf16` rounds both halves
    /// into one vector and `vpermw` puts the elements back in order. A step whose
    /// results hold a subnormal (`vcvtne2ps2bf16` flushes them) is left to the
    /// element function.
    ///
    /// The integer rounding of [`binary`] made a bf16 add ~1.7× as costly as an
    /// f16 add on one core with its data in L1 (3.75 against 2.2 µs per 16K
    /// elements); rounding 16 at a time with `vcvtneps2bf16`, 2.9 µs; this loop,
    /// 2.45 µs (f16: 2.2). With the element function inline and the operand kind
    /// tested every step, the loop spilled to the stack (30 instructions a step,
    /// against 17 now): 10M elements on one thread took 1.21–1.40× an f16 add's
    /// time (alternating runs), 1.07–1.20× since.
    ///
    /// # Safety
    /// As for [`binary`], and the CPU must have AVX512_BF16, AVX512BW and
    /// AVX512DQ; `H` must be bf16.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx2,fma,f16c,avx512bf16")]
    pub(super) unsafe fn binary_bf16_pairs<H: Element, F: Fn(f32, f32) -> f32>(
        a: HalfSrc<'_, H>,
        b: HalfSrc<'_, H>,
        out: &mut [H],
        f: &F,
        ahead: bool,
    ) {
        let mut from = 0;
        while from < out.len() {
            let left = out.len() - from;
            let (ra, rb) = (a.sub(from, left), b.sub(from, left));
            // SAFETY: forwarded (the operands are `a` and `b` from `from`, split; `out` from `from`).
            let done = from + unsafe { by_kinds!(ra, rb, steps32_bf16[], &mut out[from..], f, ahead) };
            if done == out.len() {
                return;
            }
            // a step with a subnormal result, or the tail (< 32 elements)
            let upto = (done + 32).min(out.len());
            by_element(a.sub(done, upto - done), b.sub(done, upto - done), &mut out[done..upto], 0, f);
            from = upto;
        }
    }

    /// [`binary_bf16_pairs`]'s steps, up to the first whose results hold a
    /// subnormal; returns how many elements they covered (a multiple of 32).
    ///
    /// # Safety
    /// As for [`binary_bf16_pairs`], for the operands split.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx2,fma,f16c,avx512bf16")]
    unsafe fn steps32_bf16<H: Element, F: Fn(f32, f32) -> f32, const A_SCALAR: bool, const B_SCALAR: bool>(
        a: Operand<H>,
        b: Operand<H>,
        out: &mut [H],
        f: &F,
        ahead: bool,
    ) -> usize {
        // packed word p < 16 holds element 8(p/4) + p%4, p ≥ 16 element 8((p-16)/4) + 4 + p%4:
        // element e comes from word 4(e/8) + e%8 (e%8 < 4) or 16 + 4(e/8) + e%8 - 4
        let order: [i16; 32] = std::array::from_fn(|e| {
            let (lane, r) = ((e / 8) as i16, (e % 8) as i16);
            if r < 4 { 4 * lane + r } else { 16 + 4 * lane + r - 4 }
        });
        // SAFETY: `[i16; 32]` and `__m512i` have the same size, any bits valid for both.
        let order = unsafe { std::mem::transmute::<[i16; 32], __m512i>(order) };
        let n = out.len();
        let o = out.as_mut_ptr();
        let mut i = 0;
        while i + 32 <= n {
            if ahead {
                a.fetch_ahead::<A_SCALAR>(i);
                b.fetch_ahead::<B_SCALAR>(i);
            }
            // SAFETY: i + 32 <= n, each slice's length (the caller's contract).
            let ((xl, xh), (yl, yh)) = unsafe { (load32_bf16::<H, A_SCALAR>(a, i), load32_bf16::<H, B_SCALAR>(b, i)) };
            let (mut rl, mut rh) = ([0f32; 16], [0f32; 16]);
            for k in 0..16 {
                rl[k] = f(xl[k], yl[k]);
                rh[k] = f(xh[k], yh[k]);
            }
            // SAFETY: `[f32; 16]` and `__m512` have the same size, any bits valid for both.
            let (rl, rh) =
                unsafe { (std::mem::transmute::<[f32; 16], __m512>(rl), std::mem::transmute::<[f32; 16], __m512>(rh)) };
            const SUBNORMAL: i32 = 0x20;
            if _mm512_fpclass_ps_mask::<SUBNORMAL>(rl) | _mm512_fpclass_ps_mask::<SUBNORMAL>(rh) != 0 {
                break;
            }
            // SAFETY: `__m512bh` and `__m512i` are 64 plain bytes; i + 32 <= n = out.len(),
            // so 32 elements (64 bytes) at `o + i` are writable.
            unsafe {
                let packed = std::mem::transmute::<__m512bh, __m512i>(_mm512_cvtne2ps_pbh(rh, rl));
                _mm512_storeu_si512(o.add(i).cast(), _mm512_permutexvar_epi16(order, packed));
            }
            i += 32;
        }
        i
    }
}

/// The fused loop for CPUs with AVX2 but not AVX-512 (Zen 3, most laptops),
/// eight elements a step, the same bits as the element function (faster than
/// the block-wise path on Zen 3 for 10M-element adds).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m128i, __m256, _CMP_UNORD_Q, _MM_FROUND_TO_NEAREST_INT, _mm_loadu_si128, _mm_storeu_si128, _mm_stream_si128,
        _mm256_add_epi32, _mm256_and_si256, _mm256_blendv_epi8, _mm256_castps_si256, _mm256_castsi256_ps,
        _mm256_castsi256_si128, _mm256_cmp_ps, _mm256_cvtepu16_epi32, _mm256_cvtph_ps, _mm256_cvtps_ph,
        _mm256_or_si256, _mm256_packus_epi32, _mm256_permute4x64_epi64, _mm256_set1_epi32, _mm256_slli_epi32,
        _mm256_srli_epi32,
    };

    use super::{HalfSrc, Operand, one};
    use crate::DType;
    use crate::core::element::Element;

    /// Eight elements at `p` widened to f32 (bf16's signalling NaNs kept, as in
    /// `avx512::widen16`: the rounding quiets them with the same result).
    ///
    /// # Safety
    /// `p` must point to eight readable `H`, and `H` must be f16 or bf16.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn widen8<H: Element>(p: *const H) -> __m256 {
        // SAFETY: the caller guarantees 8 readable 2-byte elements (16 bytes) at `p`.
        let h = unsafe { _mm_loadu_si128(p.cast::<__m128i>()) };
        if H::DTYPE == DType::F16 {
            _mm256_cvtph_ps(h)
        } else {
            _mm256_castsi256_ps(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h)))
        }
    }

    /// Eight f32 rounded to `H` and stored at `p` (by a streaming store if `STREAM`).
    ///
    /// # Safety
    /// `p` must point to eight writable `H`, 16-byte aligned if `STREAM`, and
    /// `H` must be f16 or bf16.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn narrow8<H: Element, const STREAM: bool>(x: __m256, p: *mut H) {
        let h = if H::DTYPE == DType::F16 {
            // (F16C's immediate has no exception-suppression bit; conversions raise no traps here)
            _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(x)
        } else {
            // round to nearest even on the bits; NaNs quieted with sign and top payload kept (`f32_to_bf16`)
            let b = _mm256_castps_si256(x);
            let odd = _mm256_and_si256(_mm256_srli_epi32::<16>(b), _mm256_set1_epi32(1));
            let rounded =
                _mm256_srli_epi32::<16>(_mm256_add_epi32(b, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff))));
            let quiet = _mm256_or_si256(_mm256_srli_epi32::<16>(b), _mm256_set1_epi32(0x40));
            let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(x, x));
            let words = _mm256_blendv_epi8(rounded, quiet, nan);
            // every double word is below 2¹⁶: the unsigned-saturating pack keeps it; the pack
            // works within 128-bit lanes, so the permute gathers both lanes' halves
            _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b1000>(_mm256_packus_epi32(words, words)))
        };
        // SAFETY: the caller guarantees 8 writable 2-byte elements (16 bytes) at `p`,
        // aligned to 16 bytes when streaming.
        unsafe {
            if STREAM {
                _mm_stream_si128(p.cast::<__m128i>(), h);
            } else {
                _mm_storeu_si128(p.cast::<__m128i>(), h);
            }
        }
    }

    /// Eight elements at `i` of `s` widened (or the scalar eight times).
    ///
    /// # Safety
    /// Unless `SCALAR`, `s.ptr` has at least `i + 8` readable elements; `H` must be f16 or bf16.
    #[inline(always)]
    unsafe fn load8<H: Element, const SCALAR: bool>(s: Operand<H>, i: usize) -> [f32; 8] {
        if SCALAR {
            [s.value; 8]
        } else {
            // SAFETY: the caller guarantees eight elements from `i`; `[f32; 8]` and
            // `__m256` have the same size and every bit pattern is valid for both.
            unsafe { std::mem::transmute::<__m256, [f32; 8]>(widen8(s.ptr.add(i))) }
        }
    }

    /// The fused loop, eight elements a step, the tail by the element function.
    /// `STREAM`: the steps write by streaming stores, from the first 16-byte
    /// aligned element of `out` (those before it by the element function).
    ///
    /// # Safety
    /// The CPU must have AVX2, FMA and F16C; slices in `a` and `b` must have
    /// `out.len()` elements; `H` must be f16 or bf16.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn binary<H: Element, F: Fn(f32, f32) -> f32, const STREAM: bool>(
        a: HalfSrc<'_, H>,
        b: HalfSrc<'_, H>,
        out: &mut [H],
        f: &F,
        ahead: bool,
    ) {
        let head = if STREAM { out.as_ptr().align_offset(16).min(out.len()) } else { 0 };
        for (j, o) in out.iter_mut().enumerate().take(head) {
            *o = one(a, b, j, f);
        }
        let (a_rest, b_rest) = (a.sub(head, out.len() - head), b.sub(head, out.len() - head));
        let rest = &mut out[head..];
        // SAFETY: forwarded (the operands are `a` and `b` from `head` on, split); when
        // streaming, `rest` starts 16-byte aligned and the steps advance by 16 bytes.
        let done = head + unsafe { by_kinds!(a_rest, b_rest, steps8[STREAM], rest, f, ahead) };
        for (j, o) in out.iter_mut().enumerate().skip(done) {
            *o = one(a, b, j, f);
        }
    }

    /// [`binary`]'s whole steps, the operand kinds fixed; returns how many elements they covered.
    ///
    /// # Safety
    /// As for [`binary`], for the operands split.
    #[inline]
    #[target_feature(enable = "avx2,fma,f16c")]
    unsafe fn steps8<
        H: Element,
        F: Fn(f32, f32) -> f32,
        const A_SCALAR: bool,
        const B_SCALAR: bool,
        const STREAM: bool,
    >(
        a: Operand<H>,
        b: Operand<H>,
        out: &mut [H],
        f: &F,
        ahead: bool,
    ) -> usize {
        let n = out.len();
        let o = out.as_mut_ptr();
        let mut i = 0;
        while i + 8 <= n {
            if ahead {
                // a quarter of these ask for a new line: 16 bytes a step
                a.fetch_ahead::<A_SCALAR>(i);
                b.fetch_ahead::<B_SCALAR>(i);
            }
            // SAFETY: i + 8 <= n, which is each slice's length (the caller's contract).
            let (x, y) = unsafe { (load8::<H, A_SCALAR>(a, i), load8::<H, B_SCALAR>(b, i)) };
            let r: [f32; 8] = std::array::from_fn(|k| f(x[k], y[k]));
            // SAFETY: `[f32; 8]` and `__m256` have the same size and any bits are valid for both;
            // i + 8 <= n = out.len(), so eight elements at `o + i` are writable (and 16-byte
            // aligned when streaming: the caller's contract).
            unsafe { narrow8::<H, STREAM>(std::mem::transmute::<[f32; 8], __m256>(r), o.add(i)) };
            i += 8;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits<H: Element>(h: H) -> u16 {
        assert_eq!(std::mem::size_of::<H>(), 2);
        // SAFETY: `H` is a 2-byte plain value (f16 or bf16), checked above.
        unsafe { std::mem::transmute_copy::<H, u16>(&h) }
    }

    type Op = fn(f32, f32) -> f32;
    type Loop<H> = unsafe fn(HalfSrc<'_, H>, HalfSrc<'_, H>, &mut [H], &Op, bool);

    /// Every f16 and bf16 bit pattern, against shuffled ones and against a
    /// scalar, through each loop this CPU can run (bf16: the integer rounding
    /// and, with AVX512_BF16, the 32-a-step loop), against the element function.
    #[test]
    fn same_bits_as_the_element_function() {
        fn check<H: Element>(from_bits: impl Fn(u16) -> H, name: &str, run: Loop<H>) {
            let a: Vec<H> = (0..=u16::MAX).map(&from_bits).collect();
            let b: Vec<H> = (0..=u16::MAX).map(|i| from_bits(i.wrapping_mul(40503).rotate_left(5))).collect();
            // arithmetic, and ops that return a NaN operand as it is (as `maximum` does)
            let ops: [(&str, Op); 6] = [
                ("add", |x, y| x + y),
                ("mul", |x, y| x * y),
                ("sub", |x, y| x - y),
                ("first", |x, _| x),
                ("max", |x, y| {
                    if x.is_nan() {
                        x
                    } else if y.is_nan() {
                        y
                    } else {
                        x.max(y)
                    }
                }),
                ("maxnum", f32::max),
            ];
            for (fname, f) in ops {
                // with and without the prefetches a page ahead (which change no result)
                for ahead in [false, true] {
                    let mut fused = vec![H::default(); a.len() - 3]; // a length that leaves a tail
                    // SAFETY: the caller checked the CPU; the slices have `fused.len()` elements.
                    unsafe { run(HalfSrc::Slice(&a[3..]), HalfSrc::Slice(&b[3..]), &mut fused, &f, ahead) };
                    for (i, o) in fused.iter().enumerate() {
                        let want: H = narrow_one(f(widen_one(a[i + 3]), widen_one(b[i + 3])));
                        assert_eq!(bits(*o), bits(want), "{name} {fname} at {i}, ahead: {ahead}");
                    }
                }
                let mut scalar = vec![H::default(); a.len()];
                // SAFETY: as above.
                unsafe { run(HalfSrc::Scalar(1.5), HalfSrc::Slice(&a), &mut scalar, &f, true) };
                for (i, o) in scalar.iter().enumerate() {
                    let want: H = narrow_one(f(1.5, widen_one(a[i])));
                    assert_eq!(bits(*o), bits(want), "{name} {fname} scalar at {i}");
                }
                // SAFETY: as above.
                unsafe { run(HalfSrc::Slice(&b), HalfSrc::Scalar(-0.3), &mut scalar, &f, false) };
                for (i, o) in scalar.iter().enumerate() {
                    let want: H = narrow_one(f(widen_one(b[i]), -0.3));
                    assert_eq!(bits(*o), bits(want), "{name} {fname} second scalar at {i}");
                }
                let mut both = vec![H::default(); 37];
                // SAFETY: as above (no slices).
                unsafe { run(HalfSrc::Scalar(1.0e-39), HalfSrc::Scalar(f32::NAN), &mut both, &f, true) };
                let want: H = narrow_one(f(1.0e-39, f32::NAN));
                assert!(both.iter().all(|o| bits(*o) == bits(want)), "{name} {fname} two scalars");
            }
        }
        if !available::<f16>() {
            return; // no AVX2 here: nothing to compare
        }
        if avx2_available() {
            check(f16::from_bits, "f16 (AVX2)", avx2::binary::<f16, Op, false>);
            check(bf16::from_bits, "bf16 (AVX2)", avx2::binary::<bf16, Op, false>);
            check(f16::from_bits, "f16 (AVX2, streamed)", avx2::binary::<f16, Op, true>);
            check(bf16::from_bits, "bf16 (AVX2, streamed)", avx2::binary::<bf16, Op, true>);
        }
        if !avx512_available() {
            return;
        }
        check(f16::from_bits, "f16", avx512::binary::<f16, Op>);
        check(bf16::from_bits, "bf16", avx512::binary::<bf16, Op>);
        if bf16_pairs_available() {
            check(bf16::from_bits, "bf16 (vcvtne2ps2bf16, 32 a step)", avx512::binary_bf16_pairs::<bf16, Op>);
        }
        // and the dispatcher takes one of them
        let mut o = [bf16::ZERO; 20];
        assert!(binary(HalfSrc::Scalar(1.0), HalfSrc::Slice(&[bf16::ONE; 20]), &mut o, &|x, y| x + y, false));
        assert!(o.iter().all(|&v| v == bf16::from_f32(2.0)));
    }

    /// The streamed form from every alignment of the output (the elements
    /// before the first 16-byte boundary take the element function).
    #[test]
    fn streamed_outputs_from_any_offset_equal_the_element_function() {
        let a: Vec<bf16> = (0..300u16).map(|i| bf16::from_bits(i.wrapping_mul(40503))).collect();
        let b: Vec<bf16> = (0..300u16).map(|i| bf16::from_f32(i as f32 * 0.37 - 20.0)).collect();
        let f = |x: f32, y: f32| x * y - x;
        for skip in 0..9 {
            let n = a.len() - skip;
            let mut out = vec![bf16::ZERO; a.len()];
            let ran = binary_streamed(HalfSrc::Slice(&a[skip..]), HalfSrc::Slice(&b[skip..]), &mut out[skip..], &f);
            crate::kernels::simd::stream::store_fence();
            if !ran {
                assert!(out.iter().all(|&o| o == bf16::ZERO), "refused, nothing written");
                continue;
            }
            for i in 0..n {
                let want: bf16 = narrow_one(f(widen_one(a[skip + i]), widen_one(b[skip + i])));
                assert_eq!(out[skip + i].to_bits(), want.to_bits(), "offset {skip}, element {i}");
            }
        }
    }

    #[test]
    fn other_types_and_lengths_are_refused() {
        let a = [1.0f32; 4];
        let mut o = [0.0f32; 4];
        assert!(!binary(HalfSrc::Slice(&a), HalfSrc::Scalar(1.0), &mut o, &|x, y| x + y, false));
        let h = [f16::ONE; 3];
        let mut o = [f16::ZERO; 4];
        assert!(!binary(HalfSrc::Slice(&h), HalfSrc::Scalar(1.0), &mut o, &|x, y| x + y, true));
        assert!(!binary_streamed(HalfSrc::Slice(&h), HalfSrc::Scalar(1.0), &mut o, &|x, y| x + y));
    }
}
