//! `eˣ` for f32, correctly rounded on every input: the element function and its
//! AVX2 and AVX-512 slice loops, which give the same bits. Each evaluates eˣ in
//! f64 to within 2⁻⁴⁶·⁵ and rounds that once, which is correct unless the f64
//! value lies near an f32 rounding boundary; those inputs (about one in 2²⁰)
//! are flagged by a test on the f64 value and recomputed in double-double
//! ([`exact`]).

mod exact;

use crate::kernels::simd::simd;
use crate::kernels::simd::stream::{fetch_ahead, store_fence};

include!("constants.rs");

/// `eˣ` in f64 for f32 `x`, within 2⁻⁴⁶·⁵ (relative) of the exact value: x = (16k +
/// j)·ln2/16 + r with |r| ≤ ln2/32, eˣ = 2ᵏ · (2^(j/16) · P(r)), P the minimax
/// polynomial [`EXP_POLY`]. The polynomial's 2⁻⁴⁷·⁴ and, at large |x|, the error of
/// [`LN2_SIXTEENTH`] times n (below 2⁻⁴⁸) add up to 2⁻⁴⁶·⁶² at worst over all f32
/// inputs (the exhaustive test measures it). Beyond ±104 it is the value at ±104 (which rounds to inf or
/// 0 like every eˣ there); a NaN gives a NaN.
///
/// [`exp_f32_slice`]'s AVX-512 loop does the same operations (each FMA is one
/// rounding of the same exact value on both paths, and scaling by 2ᵏ is exact
/// in f64's normal range), so the f64 values are the same on every CPU.
#[inline(always)]
fn exp_wide(x: f32) -> f64 {
    let xd = (x as f64).clamp(-EXP_CLAMP, EXP_CLAMP);
    // `mul_add` is one fused instruction inside [`simd`], where the hot loops run
    let t = xd.mul_add(SIXTEEN_LOG2E, SHIFTER);
    let n = t - SHIFTER; // round(16·x·log2 e)
    let r = (-n).mul_add(LN2_SIXTEENTH, xd);
    let mut p = EXP_POLY[0];
    for &c in &EXP_POLY[1..] {
        p = p.mul_add(r, c);
    }
    // n = 16k + j: j is t's low four bits, k = n >> 4 ∈ [-151, 150]
    let kj = (t.to_bits() as i64).wrapping_sub(SHIFTER.to_bits() as i64);
    let two_k = f64::from_bits((((kj >> 4) + 1023) as u64) << 52);
    f64::from_bits(EXP2_SIXTEENTHS[(kj & 15) as usize]) * p * two_k
}

/// `eˣ` from [`exp_wide`]'s value `y`, if its f32 rounding is sure (see
/// [`BELOW`]): the result and `true`; else `false`. A NaN `x` comes back quiet
/// with its payload.
#[inline(always)]
fn round_fast(x: f32, y: f64) -> (f32, bool) {
    let (lo, hi) = ((y * BELOW) as f32, (y * ABOVE) as f32);
    if x.is_nan() { (f32::from_bits(x.to_bits() | 0x0040_0000), true) } else { (lo, lo.to_bits() == hi.to_bits()) }
}

/// `eˣ` from [`exp_wide`]'s value `y`, correctly rounded: sure, or recomputed
/// by [`exact`].
#[inline(always)]
fn round_wide(x: f32, y: f64) -> f32 {
    match round_fast(x, y) {
        (z, true) => z,
        (z, false) => near_boundary(x, z),
    }
}

/// `eˣ` for an `x` whose fast value lies near a rounding boundary, from
/// [`exact::exp_f32_exact`]; `fast` (the fast value's rounding) should it find
/// no side, which no f32 input does (the tests check every input near a
/// boundary).
#[cold]
#[inline(never)]
fn near_boundary(x: f32, fast: f32) -> f32 {
    exact::exp_f32_exact(x).unwrap_or(fast)
}

/// `eˣ` for f32, correctly rounded: [`exp_wide`]'s f64 value rounded once when
/// that is sure, else computed again in double-double (one input in about 2²⁰).
/// Overflow gives +inf, underflow 0 or a (once-rounded) subnormal; a NaN comes
/// back quiet with its payload.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    round_wide(x, exp_wide(x))
}

/// [`exp_f32`] of a slice into `dst` (same length): eight-lane f64 arithmetic
/// with AVX-512 when the CPU has it, four-lane with AVX2 and FMA, else the
/// element function in a loop the compiler vectorises (the same bits on every
/// path: all correctly rounded). The vector loops test each lane's f64 value
/// with integer ops (see [`NEAR_ULPS`]) and finish the few flagged lanes with
/// the element function's rounding.
///
/// `stream` (for outputs that [`super::Streaming`] says should stream, as for
/// any element-wise op): the loops write `dst` with streaming stores themselves,
/// then fence; the same bits. (Streaming through a block buffer cost `exp` more
/// than it saved, on Zen 4.) They read `src` a page ahead with software
/// prefetches (see [`fetch_ahead`]) as they go: streamed without them, the
/// hardware prefetchers left the loop waiting on its input. 10M f32 on an
/// AVX-512 Intel CPU, two threads: plain stores 2.49–2.68 ms, streamed
/// 2.54–2.65, streamed with the prefetches 1.82–1.86 (one thread 6.3, 9.9 and
/// 3.4, the last the loop's arithmetic speed).
pub(crate) fn exp_f32_slice(src: &[f32], dst: &mut [f32], stream: bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU supports AVX-512F (checked above), which implies AVX2 and FMA.
        unsafe {
            if stream {
                avx512::exp_f32::<true>(src, dst);
                store_fence();
            } else {
                avx512::exp_f32::<false>(src, dst);
            }
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports AVX2 and FMA (checked above).
        unsafe {
            if stream {
                avx2::exp_f32::<true>(src, dst);
                store_fence();
            } else {
                avx2::exp_f32::<false>(src, dst);
            }
        }
        return;
    }
    // blocks of 64 in a loop the compiler vectorises; a block with an input near
    // a boundary is redone element by element
    simd!(dst.chunks_mut(64).zip(src.chunks(64)).for_each(|(d, s)| {
        let mut sure = true;
        for (d, &s) in d.iter_mut().zip(s) {
            let (y, ok) = round_fast(s, exp_wide(s));
            *d = y;
            sure &= ok;
        }
        if !sure {
            d.iter_mut().zip(s).for_each(|(d, &s)| *d = exp_f32(s));
        }
    }),);
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256, __m256d, __m256i, _CMP_LT_OQ, _CMP_UNORD_Q, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256,
        _mm256_blendv_ps, _mm256_castpd_ps, _mm256_castpd_si256, _mm256_castps_si256, _mm256_castps256_ps128,
        _mm256_castsi256_pd, _mm256_castsi256_ps, _mm256_cmp_pd, _mm256_cmp_ps, _mm256_cmpgt_epi64, _mm256_cvtpd_ps,
        _mm256_cvtps_pd, _mm256_extractf128_ps, _mm256_fmadd_pd, _mm256_loadu_ps, _mm256_max_ps, _mm256_min_ps,
        _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd, _mm256_or_si256, _mm256_permutevar8x32_ps, _mm256_set_m128,
        _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_set1_pd, _mm256_set1_ps, _mm256_setr_epi32, _mm256_shuffle_ps,
        _mm256_slli_epi32, _mm256_storeu_pd, _mm256_storeu_ps, _mm256_stream_ps, _mm256_sub_pd, _mm256_unpackhi_epi32,
        _mm256_unpacklo_epi32,
    };

    use super::{
        EXP_CLAMP, EXP_POLY, EXP2_SIXTEENTHS, F32_MIN_NORMAL, LN2_SIXTEENTH, LOW_29, NEAR_OFFSET, NEAR_ULPS, SHIFTER,
        SIXTEEN_LOG2E,
    };

    /// Eight f32 on their way through [`exp_f32`]: the inputs (for the NaN
    /// blend at the end) and, for each half widened to four f64 lanes, the
    /// reduced argument `r`, the table entry already scaled by 2ᵏ, and the
    /// polynomial's Horner sum so far.
    #[derive(Clone, Copy)]
    struct Block {
        x: __m256,
        r: [__m256d; 2],
        scaled_entry: [__m256d; 2],
        p: [__m256d; 2],
    }

    /// Half of the 16-entry f64 table as dwords, high or low words of entries
    /// `8·part .. 8·part + 8`, one per lane, for `vpermd`.
    fn table_dwords(part: usize, high: bool) -> [i32; 8] {
        std::array::from_fn(|lane| {
            let bits = EXP2_SIXTEENTHS[8 * part + lane];
            (if high { bits >> 32 } else { bits }) as u32 as i32
        })
    }

    /// The operations of [`super::exp_f32`] on four f64 lanes (eight f32 a
    /// step), for CPUs with AVX2 and FMA but not AVX-512 (Zen 3, most laptops):
    /// the same FMAs on the same values, so the same bits. Two things differ
    /// in form, not in value:
    ///
    /// - **The table is read by `vpermd`, not a gather.** Its 16 entries sit in
    ///   four registers as high and low dwords; each of the eight indices picks
    ///   from two of them and a blend on index bit 3 chooses. 2ᵏ goes into the
    ///   high dwords' exponent field by an integer add, so the result is
    ///   `(entry·2ᵏ)·P(r)` rather than `(entry·P(r))·2ᵏ`: the same rounding, as
    ///   scaling by 2ᵏ (|k| ≤ 151) is exact in f64's normal range.
    /// - **The loop is software-pipelined in three stages**: block `i + 16` is
    ///   reduced and looked up, block `i + 8` starts its polynomial, block `i`
    ///   finishes and is stored. The long dependency chain (load, reduce,
    ///   lookup, five FMAs, narrow, store) otherwise filled Zen 3's scheduler
    ///   with waiting work.
    ///
    /// On Zen 3, in L1, TSC cycles per eight f32: gather and no pipelining 24.3, permutes 19.2 with two stages,
    /// 18.2 with three.
    ///
    /// `STREAM`: the results go out by streaming stores, and the input is asked
    /// for a page ahead, as in `avx512::exp_f32`.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn exp_f32<const STREAM: bool>(src: &[f32], dst: &mut [f32]) {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let head = if STREAM { d.align_offset(32).min(n) } else { 0 };
        for j in 0..head {
            dst[j] = super::exp_f32(src[j]);
        }
        let load_table = |part: usize, high: bool| {
            let [a, b, c, e, f, g, h, i] = table_dwords(part, high);
            _mm256_castsi256_ps(_mm256_setr_epi32(a, b, c, e, f, g, h, i))
        };
        let (high0, high1) = (load_table(0, true), load_table(1, true));
        let (low0, low1) = (load_table(0, false), load_table(1, false));
        let (lo, hi) = (_mm256_set1_ps(-EXP_CLAMP as f32), _mm256_set1_ps(EXP_CLAMP as f32));
        let (shifter, c16, neg_ln2) =
            (_mm256_set1_pd(SHIFTER), _mm256_set1_pd(SIXTEEN_LOG2E), _mm256_set1_pd(-LN2_SIXTEENTH));
        let poly = EXP_POLY.map(|c| _mm256_set1_pd(c));
        let quiet = _mm256_set1_epi32(0x0040_0000);
        let (near_offset, low_29, near_limit, min_normal) = (
            _mm256_set1_epi64x(NEAR_OFFSET as i64),
            _mm256_set1_epi64x(LOW_29 as i64),
            _mm256_set1_epi64x(2 * NEAR_ULPS as i64 + 1),
            _mm256_set1_pd(F32_MIN_NORMAL),
        );
        let exponent_field = _mm256_set1_epi32(0xfff0_0000_u32 as i32);

        // Stage 1: reduce x = n·ln2/16 + r, read 2^(j/16), scale it by 2ᵏ.
        let reduce = |i: usize| -> Block {
            // SAFETY: the callers pass i + 8 <= n, the length of both slices.
            let x = unsafe { _mm256_loadu_ps(s.add(i)) };
            let xc = _mm256_min_ps(hi, _mm256_max_ps(lo, x));
            let xd = [_mm256_cvtps_pd(_mm256_castps256_ps128(xc)), _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(xc))];
            let t = xd.map(|xd| _mm256_fmadd_pd(xd, c16, shifter));
            // fma(n, −c, x) is fma(−n, c, x), the scalar's, exactly
            let r = [0, 1].map(|h| _mm256_fmadd_pd(_mm256_sub_pd(t[h], shifter), neg_ln2, xd[h]));
            // each lane's low dword is n = 16k + j (the shifter's low bits are zero);
            // gathered into one register, lanes ordered [a0 a1 b0 b1 | a2 a3 b2 b3]
            // for halves a and b, the order the unpacks below undo
            let n16 = _mm256_shuffle_ps::<0b10_00_10_00>(_mm256_castpd_ps(t[0]), _mm256_castpd_ps(t[1]));
            let idx = _mm256_castps_si256(n16);
            // vpermd reads index bits 2..0; bit 3 picks the table's upper half
            let upper = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(idx));
            let pick = |part0: __m256, part1: __m256| {
                let (a, b) = (_mm256_permutevar8x32_ps(part0, idx), _mm256_permutevar8x32_ps(part1, idx));
                _mm256_castps_si256(_mm256_blendv_ps(a, b, upper))
            };
            let (high, low) = (pick(high0, high1), pick(low0, low1));
            // k = n >> 4 added to the exponent field (bits 30..20 of the high
            // dword): (n << 16) keeps k's low 12 bits there, and the add wraps
            // modulo 2³², as adding k·2⁵² to the f64 bits does
            let high = _mm256_add_epi32(high, _mm256_and_si256(_mm256_slli_epi32::<16>(idx), exponent_field));
            let entry = |dwords: __m256i| _mm256_castsi256_pd(dwords);
            let scaled_entry = [entry(_mm256_unpacklo_epi32(low, high)), entry(_mm256_unpackhi_epi32(low, high))];
            Block { x, r, scaled_entry, p: [poly[0]; 2] }
        };
        // Stage 2: the polynomial's first Horner step.
        let start_poly = |b: Block| Block { p: b.r.map(|r| _mm256_fmadd_pd(poly[0], r, poly[1])), ..b };
        // Stage 3: the remaining steps, the scaling, narrowing, NaNs, the store.
        let finish = |b: Block, i: usize| {
            let wide = [0, 1].map(|h| {
                let p = poly[2..].iter().fold(b.p[h], |p, &c| _mm256_fmadd_pd(p, b.r[h], c));
                _mm256_mul_pd(b.scaled_entry[h], p)
            });
            let y = _mm256_set_m128(_mm256_cvtpd_ps(wide[1]), _mm256_cvtpd_ps(wide[0]));
            // a NaN comes back as the input, quieted, as in the element function
            let nan = _mm256_cmp_ps::<_CMP_UNORD_Q>(b.x, b.x);
            let quieted = _mm256_castsi256_ps(_mm256_or_si256(_mm256_castps_si256(b.x), quiet));
            let mut y = _mm256_blendv_ps(y, quieted, nan);
            // lanes near a boundary or f32-subnormal (see `NEAR_ULPS`), one bit each
            let near = wide.map(|w| {
                let low = _mm256_and_si256(_mm256_add_epi64(_mm256_castpd_si256(w), near_offset), low_29);
                let close = _mm256_castsi256_pd(_mm256_cmpgt_epi64(near_limit, low));
                _mm256_movemask_pd(_mm256_or_pd(close, _mm256_cmp_pd::<_CMP_LT_OQ>(w, min_normal)))
            });
            let near = near[0] | near[1] << 4;
            if near != 0 {
                let (mut values, mut out) = ([0f64; 8], [0f32; 8]);
                // SAFETY: eight f64 and eight f32 into local arrays of those lengths.
                unsafe {
                    _mm256_storeu_pd(values.as_mut_ptr(), wide[0]);
                    _mm256_storeu_pd(values.as_mut_ptr().add(4), wide[1]);
                    _mm256_storeu_ps(out.as_mut_ptr(), y);
                }
                for (lane, (o, &v)) in out.iter_mut().zip(&values).enumerate() {
                    if near >> lane & 1 == 1 {
                        *o = super::round_wide(src[i + lane], v);
                    }
                }
                // SAFETY: eight f32 from a local array of eight.
                y = unsafe { _mm256_loadu_ps(out.as_ptr()) };
            }
            // SAFETY: the callers pass i + 8 <= n; when streaming, d + i is 32-byte
            // aligned (d + head is, and i - head is a multiple of 8).
            unsafe {
                if STREAM {
                    _mm256_stream_ps(d.add(i), y);
                } else {
                    _mm256_storeu_ps(d.add(i), y);
                }
            }
        };
        let mut i = head;
        if n - head >= 16 {
            let mut started = start_poly(reduce(i));
            let mut reduced = reduce(i + 8);
            while i + 24 <= n {
                if STREAM {
                    // the input a page ahead (a hint, never a fault): streamed stores leave
                    // the reads without the prefetching that plain stores' misses set off
                    // (one hint per eight values, half of them for a line already asked for)
                    super::fetch_ahead(&src[i + 16..i + 24]);
                }
                finish(started, i);
                started = start_poly(reduced);
                reduced = reduce(i + 16);
                i += 8;
            }
            finish(started, i);
            finish(start_poly(reduced), i + 8);
            i += 16;
        }
        for j in i..n {
            dst[j] = super::exp_f32(src[j]);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m256, __m512d, __m512i, _mm_sfence, _mm256_castps_si256, _mm256_cmpeq_epi32, _mm256_loadu_ps, _mm256_max_ps,
        _mm256_min_ps, _mm256_movemask_ps, _mm256_set1_ps, _mm256_storeu_ps, _mm256_stream_ps, _mm512_add_epi32,
        _mm512_castpd_si512, _mm512_cmplt_epu32_mask, _mm512_cvtpd_ps, _mm512_cvtps_pd, _mm512_fmadd_pd,
        _mm512_loadu_pd, _mm512_min_epu32, _mm512_mul_pd, _mm512_permutex2var_epi32, _mm512_permutex2var_pd,
        _mm512_scalef_pd, _mm512_set1_epi32, _mm512_set1_pd, _mm512_setr_epi32, _mm512_slli_epi32, _mm512_storeu_pd,
        _mm512_sub_pd,
    };

    use super::{
        ABOVE, BELOW, EXP_CLAMP, EXP_POLY, EXP2_SIXTEENTHS, FLAGGED_FLOOR, LN2_SIXTEENTH, NEAR_OFFSET, NEAR_ULPS,
        SHIFTER, SIXTEEN_LOG2E,
    };

    /// Eight f32 reduced, waiting for their polynomial: `r`, `b = n/16` (for
    /// `vscalefpd`) and the table entry 2^(j/16).
    #[derive(Clone, Copy)]
    struct Reduced {
        r: __m512d,
        b: __m512d,
        entry: __m512d,
    }

    /// How many blocks of eight the loop keeps reduced ahead of the ones it
    /// finishes (see [`exp_f32`]); even, as [`Flags`] takes blocks in pairs.
    const RING: usize = 4;

    /// Steps (of [`RING`] blocks) whose [`Flags`] are read at once: the read, a
    /// compare into a mask and a branch, waits for the flags' chain of minima,
    /// so it is paid once for 128 values; a flagged stretch is [`redo`]ne whole.
    const CHECK_STEPS: usize = 4;

    /// The first half of [`super::exp_wide`] on eight f32: x = b·ln2 + r with
    /// b = n/16, and the table entry 2^(j/16).
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn reduce(x: __m256) -> Reduced {
        let table = EXP2_SIXTEENTHS.as_ptr().cast::<f64>();
        // SAFETY: the table has 16 f64-sized entries: two 8-lane loads at 0 and 8 read inside it.
        let (lo_tbl, hi_tbl) = unsafe { (_mm512_loadu_pd(table), _mm512_loadu_pd(table.add(8))) };
        let (lo, hi) = (_mm256_set1_ps(FLAGGED_FLOOR), _mm256_set1_ps(EXP_CLAMP as f32));
        // the scalar's shifter and 16·log₂e, both divided by 16 (exactly)
        let (shifter, log2e) = (_mm512_set1_pd(SHIFTER / 16.0), _mm512_set1_pd(SIXTEEN_LOG2E / 16.0));
        // −ln2, not `fnmadd` against ln2: the same exact product and sum, but the intrinsic
        // negates its first operand separately in unoptimised builds, flipping a NaN's sign.
        let neg_ln2 = _mm512_set1_pd(-16.0 * LN2_SIXTEENTH);
        // vmaxps/vminps return their second operand when either is NaN: x goes second.
        // Clamped to [FLAGGED_FLOOR, 104] before widening, on 256 bits: one instruction
        // fewer per 8 values than on the widened 512 bits. Above the floor, the scalar's
        // values; below it, a flagged value that `redo` replaces.
        let x = _mm256_min_ps(hi, _mm256_max_ps(lo, x));
        let xd = _mm512_cvtps_pd(x);
        // t = 1.5·2⁴⁸ + n/16, rounded where the scalar's 1.5·2⁵² + n is (scaling by 16
        // commutes with rounding): its last four bits are n mod 16, and b = n/16 exactly
        let t = _mm512_fmadd_pd(xd, log2e, shifter);
        let b = _mm512_sub_pd(t, shifter);
        let r = _mm512_fmadd_pd(b, neg_ln2, xd);
        // the permute reads each lane's index bits 3..0, t's low bits = n mod 16
        let entry = _mm512_permutex2var_pd(lo_tbl, _mm512_castpd_si512(t), hi_tbl);
        Reduced { r, b, entry }
    }

    /// The second half of [`super::exp_wide`]: the polynomial, the entry, 2ᵏ.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    fn wide(v: Reduced) -> __m512d {
        let poly = EXP_POLY.map(|c| _mm512_set1_pd(c));
        let mut p = poly[0];
        for &c in &poly[1..] {
            p = _mm512_fmadd_pd(p, v.r, c);
        }
        _mm512_scalef_pd(_mm512_mul_pd(v.entry, p), v.b)
    }

    /// The loop's test, gathered over the blocks of a step by unsigned minima
    /// and read once: whether some lane's f64 value has its low 29 bits within
    /// [`NEAR_ULPS`] of 2²⁸ (near a boundary; inputs below [`FLAGGED_FLOOR`]
    /// are, as raised to it). Those bits sit in each value's low dword, so a pair
    /// of blocks is tested together: one permute gathers the two blocks' low
    /// dwords, and an add, a shift and a minimum test all sixteen (two
    /// instructions a block; per block on 64-bit lanes with a separate test for
    /// f32-subnormal results it was four, and 16384 values took 13% longer).
    #[derive(Clone, Copy)]
    struct Flags {
        /// The least of `((low dword + NEAR_OFFSET) mod 2²⁹)·2³`: below
        /// `(2·NEAR_ULPS + 1)·2³` exactly when a lane is near a boundary.
        near: __m512i,
    }

    impl Flags {
        #[inline]
        #[target_feature(enable = "avx512f,avx2,fma")]
        fn new() -> Flags {
            Flags { near: _mm512_set1_epi32(-1) }
        }

        /// Adds two blocks' f64 values (the same block twice for one alone).
        #[inline]
        #[target_feature(enable = "avx512f,avx2,fma")]
        fn add_pair(self, a: __m512d, b: __m512d) -> Flags {
            // dword 2i of each operand: a's lanes in dwords 0..8, b's in 8..16
            let low_dwords = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
            let low = _mm512_permutex2var_epi32(_mm512_castpd_si512(a), low_dwords, _mm512_castpd_si512(b));
            let shifted = _mm512_slli_epi32::<3>(_mm512_add_epi32(low, _mm512_set1_epi32(NEAR_OFFSET as i32)));
            Flags { near: _mm512_min_epu32(self.near, shifted) }
        }

        /// Whether a lane may need [`redo`].
        #[inline]
        #[target_feature(enable = "avx512f,avx2,fma")]
        fn any(self) -> bool {
            _mm512_cmplt_epu32_mask(self.near, _mm512_set1_epi32(((2 * NEAR_ULPS + 1) << 3) as i32)) != 0
        }
    }

    /// `len` (a multiple of eight) results at `dst` from the inputs at `src`,
    /// computed again with the element function's test ([`super::round_fast`])
    /// on all eight lanes of a block at once; a lane it leaves unsure, or whose
    /// input lies below [`FLAGGED_FLOOR`], goes to the element function. Out of
    /// the loop's way: on inputs spread over the range a stretch of 128 values
    /// comes here about once in 2¹³, and on inputs below −87 it costs about as
    /// much again as the loop.
    ///
    /// # Safety
    ///
    /// `src` and `dst` are valid for `len` f32 (reads, writes).
    #[cold]
    #[inline(never)]
    #[target_feature(enable = "avx512f,avx2,fma")]
    unsafe fn redo(src: *const f32, dst: *mut f32, len: usize) {
        // the streaming stores of these results drain before the plain ones below
        // overwrite them (x86 keeps one thread's stores to one address in order;
        // the fence costs nothing next to the recomputation and says so outright)
        _mm_sfence();
        // SAFETY: the caller's contract.
        let (src, dst) = unsafe { (std::slice::from_raw_parts(src, len), std::slice::from_raw_parts_mut(dst, len)) };
        let (below, above) = (_mm512_set1_pd(BELOW), _mm512_set1_pd(ABOVE));
        for (s, d) in src.chunks_exact(8).zip(dst.chunks_exact_mut(8)) {
            // SAFETY: eight f32 inside `s`.
            let y = wide(reduce(unsafe { _mm256_loadu_ps(s.as_ptr()) }));
            let (lo, hi) = (_mm512_cvtpd_ps(_mm512_mul_pd(y, below)), _mm512_cvtpd_ps(_mm512_mul_pd(y, above)));
            let sure = _mm256_movemask_ps(std::arch::x86_64::_mm256_castsi256_ps(_mm256_cmpeq_epi32(
                _mm256_castps_si256(lo),
                _mm256_castps_si256(hi),
            )));
            let mut values = [0f64; 8];
            // SAFETY: eight f64 and eight f32 into slices of those lengths.
            unsafe {
                _mm512_storeu_pd(values.as_mut_ptr(), y);
                _mm256_storeu_ps(d.as_mut_ptr(), _mm512_cvtpd_ps(y));
            }
            for (lane, (d, (&x, &y))) in d.iter_mut().zip(s.iter().zip(&values)).enumerate() {
                if x < FLAGGED_FLOOR {
                    *d = super::exp_f32(x);
                } else if sure >> lane & 1 == 0 {
                    *d = super::round_wide(x, y);
                }
            }
        }
    }

    /// The operations of [`super::exp_f32`], eight lanes at a time, in 16 vector
    /// instructions (14 of them arithmetic), and two more that fold the block
    /// into [`Flags`]; a stretch of [`CHECK_STEPS`] steps whose flags are set
    /// (one in 2¹³ on inputs spread over the range) is [`redo`]ne out of line
    /// after its stores:
    ///
    /// - the clamp, on the eight f32 before they are widened, passes a NaN
    ///   through (widening quiets it), and every later step keeps its payload:
    ///   no blend; its lower bound is [`FLAGGED_FLOOR`], not the scalar's −104;
    /// - `t` is rounded against 1.5·2⁴⁸ instead of the scalar's 1.5·2⁵², with
    ///   log₂e instead of 16·log₂e: the scalar's t divided by 16, exactly (the
    ///   same rounding, scaled). Its last four bits are still n mod 16, the table
    ///   index as it stands, and `b = t − 1.5·2⁴⁸ = n/16 = k + j/16` is exact and
    ///   serves twice: `r = x − b·ln2` is the scalar `x − n·(ln2/16)` (the same
    ///   exact product, so the same rounding), and `vscalefpd` multiplies by
    ///   2^floor(b) = 2ᵏ.
    ///
    /// The subtraction runs on Zen 4's add pipes, beside the FMA pipes that the
    /// other nine FMA-class instructions (reduction, polynomial, product,
    /// scaling) keep busy. (`vrangepd` would clamp in one instruction, but turns a
    /// NaN into the bound; adding k to the entry's exponent field by integer
    /// ops instead of `vscalefpd` took three instructions for one and measured
    /// no faster; so did narrowing or widening as two 256-bit conversions.)
    ///
    /// **Software-pipelined over a ring of [`RING`] blocks**: each step finishes
    /// the block reduced `RING` steps before (polynomial, scaling, narrowing,
    /// store) and reduces the one `RING` steps ahead in its place. The plain loop
    /// left Zen 4's scheduler waiting on each block's chain (load, widen, reduce,
    /// six dependent FMAs, narrow); the ring runs at ~10.6 cycles per eight
    /// values. On Zen 4, one thread, ns per value in L1: plain 0.46, rings of
    /// two 0.43, three 0.39, four 0.37–0.38, five 0.36–0.37, six 0.36–0.38
    /// (before the boundary test); four is kept, even for [`Flags`]' pairs (10M
    /// f32 `exp`, two threads: 2.27 → 1.94 ms against the plain loop). Every f32
    /// input gives the same bits as the plain loop.
    ///
    /// `STREAM`: the results go out by streaming stores (`vmovntps`), whole
    /// 64-byte lines (16 values) per pair of stores, once `dst` is 64-byte
    /// aligned (the elements before that by the scalar function), and each
    /// step's input is asked for a page ahead (see [`super::exp_f32_slice`] for
    /// why and what it gained). A stretch that is redone rewrites its results with
    /// plain stores after its streaming ones: the same thread and addresses, so
    /// the later values are the ones that stay.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn exp_f32<const STREAM: bool>(src: &[f32], dst: &mut [f32]) {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        // streamed, whole 64-byte lines: the head goes element by element
        let head = if STREAM { d.align_offset(64).min(n) } else { 0 };
        for j in 0..head {
            dst[j] = super::exp_f32(src[j]);
        }
        // SAFETY: the callers pass i + 8 <= n, the length of both slices: eight f32 inside `src`.
        let load = |i: usize| unsafe { _mm256_loadu_ps(s.add(i)) };
        // the eight results of a reduced block into dst[i..i + 8]; their f64 values for `Flags`
        let finish = |v: Reduced, i: usize| -> __m512d {
            let y = wide(v);
            let rounded = _mm512_cvtpd_ps(y);
            // SAFETY: the callers pass i + 8 <= n, the length of both slices: eight f32
            // inside `dst`; when streaming, d + i is 32-byte aligned (d + head is 64-byte
            // aligned, and i - head is a multiple of 8 f32).
            unsafe {
                if STREAM {
                    _mm256_stream_ps(d.add(i), rounded);
                } else {
                    _mm256_storeu_ps(d.add(i), rounded);
                }
            }
            y
        };
        let mut i = head;
        if n - i >= 2 * 8 * RING {
            let mut ring: [Reduced; RING] = std::array::from_fn(|k| reduce(load(i + 8 * k)));
            // the results from `since` to `i` are stored and folded into `flags`, not yet read
            let (mut flags, mut since) = (Flags::new(), i);
            // each step reads up to i + 16·RING: inside `src`
            while i + 2 * 8 * RING <= n {
                if STREAM {
                    // two whole lines a step, each asked for a page ahead
                    super::fetch_ahead(&src[i..i + 8 * RING]);
                }
                for k in (0..RING).step_by(2) {
                    let a = finish(ring[k], i + 8 * k);
                    ring[k] = reduce(load(i + 8 * (k + RING)));
                    let b = finish(ring[k + 1], i + 8 * (k + 1));
                    ring[k + 1] = reduce(load(i + 8 * (k + 1 + RING)));
                    flags = flags.add_pair(a, b);
                }
                i += 8 * RING;
                if i - since == 8 * RING * CHECK_STEPS {
                    if flags.any() {
                        // SAFETY: since < i <= n: inside both slices.
                        unsafe { redo(s.add(since), d.add(since), i - since) };
                    }
                    (flags, since) = (Flags::new(), i);
                }
            }
            for k in (0..RING).step_by(2) {
                flags = flags.add_pair(finish(ring[k], i + 8 * k), finish(ring[k + 1], i + 8 * (k + 1)));
            }
            i += 8 * RING;
            if flags.any() {
                // SAFETY: the ring's last blocks end at i <= n: inside both slices.
                unsafe { redo(s.add(since), d.add(since), i - since) };
            }
        }
        while i + 8 <= n {
            let y = finish(reduce(load(i)), i);
            if Flags::new().add_pair(y, y).any() {
                // SAFETY: i + 8 <= n: inside both slices.
                unsafe { redo(s.add(i), d.add(i), 8) };
            }
            i += 8;
        }
        for j in i..n {
            dst[j] = super::exp_f32(src[j]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every f32 input whose eˣ lies within 2⁻⁴³ (relative) of an f32 rounding
    /// boundary, with the correctly rounded result (bits of x, bits of eˣ), from
    /// `scripts/golden/exp_f32_hard.py` (mpmath): every input the fast path can
    /// flag (its f64 value within 2⁻⁴⁶·⁵, flagged within 2⁻⁴⁵ of a boundary) and
    /// every input where the system's f64 `exp` is too close to one to trust.
    fn near_boundary_inputs() -> Vec<(u32, u32)> {
        include_str!("../../../tests/data/exp_f32_hard.txt")
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| {
                let mut fields = line.split_whitespace().map(|f| u32::from_str_radix(f, 16));
                (fields.next().unwrap().unwrap(), fields.next().unwrap().unwrap())
            })
            .collect()
    }

    /// `exp` of `x` correctly rounded to f32 from the system's f64 `exp` (error
    /// under 1 f64 ulp, 2⁻⁵²): right for every input not in
    /// [`near_boundary_inputs`], whose eˣ is more than 2⁻⁴³ from a boundary.
    fn exp_reference(x: f32) -> f32 {
        (x as f64).exp() as f32
    }

    #[test]
    fn exp_is_correctly_rounded_on_a_sample_and_the_edges() {
        let near: std::collections::HashMap<u32, u32> = near_boundary_inputs().into_iter().collect();
        // every 4099th f32 bit pattern, plus the edges
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
            -2.980_232_6e-8, // e^x just below the tie 1 - 2⁻²⁵: needs P(0) = 1 exactly
            5.960_464e-8,
        ];
        for x in (0..u32::MAX).step_by(4099).map(f32::from_bits).chain(specials) {
            let got = exp_f32(x);
            if x.is_nan() {
                assert!(got.is_nan(), "exp({x:e})");
                continue;
            }
            let want = near.get(&x.to_bits()).map_or_else(|| exp_reference(x), |&y| f32::from_bits(y));
            assert_eq!(got.to_bits(), want.to_bits(), "exp({x:e}) = {got:e}, want {want:e}");
        }
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(0.0), 1.0);
        // NaNs come back quiet, payload and sign kept
        for bits in [0x7fc0_0000u32, 0xffc0_0001, 0x7f80_0001, 0xff80_1234, 0x7fbf_ffff] {
            assert_eq!(exp_f32(f32::from_bits(bits)).to_bits(), bits | 0x0040_0000, "{bits:#x}");
        }
    }

    /// The inputs near a boundary through every path: the element function, the
    /// double-double path alone (it must decide each one), and the slice loops.
    #[test]
    fn exp_is_correctly_rounded_on_every_input_near_a_boundary() {
        let near = near_boundary_inputs();
        assert!(near.len() > 1000, "{} inputs", near.len());
        let mut flagged = 0;
        for &(x, want) in &near {
            let x = f32::from_bits(x);
            assert_eq!(exp_f32(x).to_bits(), want, "exp({x:e})");
            assert_eq!(exact::exp_f32_exact(x).map(f32::to_bits), Some(want), "exact exp({x:e})");
            flagged += usize::from(!round_fast(x, exp_wide(x)).1);
        }
        // the slow path is taken (about one in four of these lie within the 2⁻⁴⁵ test)
        assert!(flagged * 8 > near.len(), "{flagged} of {} flagged", near.len());
        let xs: Vec<f32> = near.iter().map(|&(x, _)| f32::from_bits(x)).collect();
        for streamed in [false, true] {
            let mut got = vec![f32::NAN; xs.len()];
            exp_f32_slice(&xs, &mut got, streamed);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
                let mut avx2 = vec![f32::NAN; xs.len()];
                // SAFETY: the CPU has AVX2 and FMA (checked above).
                unsafe { avx2::exp_f32::<false>(&xs, &mut avx2) };
                assert_eq!(
                    avx2.iter().map(|y| y.to_bits()).collect::<Vec<_>>(),
                    near.iter().map(|p| p.1).collect::<Vec<_>>()
                );
            }
            for (&(x, want), g) in near.iter().zip(&got) {
                assert_eq!(g.to_bits(), want, "exp({:e}), streamed: {streamed}", f32::from_bits(x));
            }
        }
    }

    /// All 2³² inputs through the vector kernel, against the f64 reference or,
    /// near a boundary, the listed values; and the premises of the fast path on
    /// each: its f64 value within 2⁻⁴⁶·⁵ of eˣ, and every input it flags listed (so
    /// checked by the test above to round right in double-double). About 140 s in
    /// release mode here: `cargo test --release -p lattensor --lib exp_matches -- --ignored`.
    #[test]
    #[ignore = "exhaustive: 2^32 inputs"]
    fn exp_matches_the_correctly_rounded_value_on_every_f32() {
        let near: std::collections::HashMap<u32, u32> = near_boundary_inputs().into_iter().collect();
        let (mut wrong, mut unlisted_flags, mut worst) = (Vec::new(), Vec::new(), 0f64);
        let mut xs = vec![0f32; 1 << 24];
        let mut ys = vec![0f32; 1 << 24];
        for hi in 0..=255u32 {
            xs.iter_mut().enumerate().for_each(|(i, x)| *x = f32::from_bits(hi << 24 | i as u32));
            exp_f32_slice(&xs, &mut ys, false);
            for (&x, &y) in xs.iter().zip(&ys) {
                if x.is_nan() {
                    continue;
                }
                let reference = (x as f64).exp();
                let want = near.get(&x.to_bits()).map_or(reference as f32, |&y| f32::from_bits(y));
                if y.to_bits() != want.to_bits() {
                    wrong.push(x.to_bits());
                }
                let wide = exp_wide(x);
                if x.abs() <= EXP_CLAMP as f32 {
                    worst = worst.max(((wide - reference) / reference).abs());
                }
                if !round_fast(x, wide).1 && !near.contains_key(&x.to_bits()) {
                    unlisted_flags.push(x.to_bits());
                }
            }
        }
        assert_eq!(wrong, Vec::<u32>::new());
        assert_eq!(unlisted_flags, Vec::<u32>::new());
        // 2⁻⁴⁶·⁵ for the fast value plus 2⁻⁵² for the reference's own error
        assert!(worst < f64::powf(2.0, -46.5) + f64::powi(2.0, -52), "relative error {:.2} (log2)", worst.log2());
    }

    /// The AVX-512 loop's floor: every input at or above it has a normal f32
    /// result, and its own fast value is flagged, so the inputs raised to it
    /// are redone.
    #[test]
    fn the_flagged_floor_is_normal_and_flagged() {
        let y = exp_wide(FLAGGED_FLOOR);
        assert!(y >= F32_MIN_NORMAL, "{y:e}");
        assert!((y.to_bits() + NEAR_OFFSET) & LOW_29 < 2 * NEAR_ULPS + 1, "{:#x}", y.to_bits());
        assert!(!round_fast(FLAGGED_FLOOR, y).1, "its rounding is unsure in the element function's test too");
        assert_eq!(FLAGGED_FLOOR.to_bits(), 0xc2ae_7135);
    }

    #[test]
    fn exp_slice_matches_the_element_function_bit_for_bit() {
        let xs: Vec<f32> = (0..u32::MAX)
            .step_by(40_009)
            .map(f32::from_bits)
            .chain([f32::NAN, -f32::NAN, f32::from_bits(0x7f80_0001), 89.0, -104.0, 88.72284, -0.0])
            .chain([
                FLAGGED_FLOOR,
                f32::from_bits(FLAGGED_FLOOR.to_bits() - 1),
                f32::from_bits(FLAGGED_FLOOR.to_bits() + 1),
            ])
            .chain([-87.3, -87.33654, -87.33655, -88.0, -1e9, f32::NEG_INFINITY])
            .collect();
        let mut got = vec![0f32; xs.len()];
        // offsets 0..=40 so that every tail length of the 8-wide loops and of the
        // AVX-512 loop's 32-value steps is used (and, streamed, every head length
        // before the aligned stores); then short slices, which some loops skip
        for (skip, streamed) in (0..=40).flat_map(|skip| [(skip, false), (skip, true)]) {
            got.fill(f32::NAN);
            exp_f32_slice(&xs[skip..], &mut got[skip..], streamed);
            for (&x, &g) in xs[skip..].iter().zip(&got[skip..]) {
                assert_eq!(g.to_bits(), exp_f32(x).to_bits(), "exp({x:e}) = {g:e}, streamed: {streamed}");
            }
        }
        for (len, streamed) in (0..130).flat_map(|len| [(len, false), (len, true)]) {
            let (xs, got) = (&xs[1000..1000 + len], &mut got[1000..1000 + len]);
            got.fill(f32::NAN);
            exp_f32_slice(xs, got, streamed);
            for (&x, &g) in xs.iter().zip(got.iter()) {
                assert_eq!(g.to_bits(), exp_f32(x).to_bits(), "exp({x:e}) = {g:e}, length {len}, streamed: {streamed}");
            }
        }
    }

    /// The AVX2 loop directly, so that it is tested on AVX-512 CPUs too (where
    /// [`exp_f32_slice`] takes the AVX-512 loop).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn exp_avx2_loop_matches_the_element_function_bit_for_bit() {
        if !(std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")) {
            return;
        }
        let xs: Vec<f32> = (0..u32::MAX)
            .step_by(40_009)
            .map(f32::from_bits)
            .chain([f32::NAN, -f32::NAN, f32::from_bits(0xff80_0123), 88.72284, 88.72285, -103.97208, -87.33655])
            .chain([-104.0, -105.0, 104.0, 1e-30, -1e-30, 0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY])
            .collect();
        let mut got = vec![0f32; xs.len()];
        for (skip, streamed) in (0..16).flat_map(|skip| [(skip, false), (skip, true)]) {
            got.fill(f32::NAN);
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe {
                if streamed {
                    avx2::exp_f32::<true>(&xs[skip..], &mut got[skip..]);
                    store_fence();
                } else {
                    avx2::exp_f32::<false>(&xs[skip..], &mut got[skip..]);
                }
            }
            for (&x, &g) in xs[skip..].iter().zip(&got[skip..]) {
                assert_eq!(g.to_bits(), exp_f32(x).to_bits(), "exp({x:e}) = {g:e}, streamed: {streamed}");
            }
        }
        // every length up to 48 from the end of the list (NaNs, clamps, zeros),
        // so that the pipelined loop's start and finish meet every tail
        for len in 0..48 {
            let xs = &xs[xs.len() - len..];
            let mut got = vec![f32::NAN; len];
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe { avx2::exp_f32::<false>(xs, &mut got) };
            for (&x, &g) in xs.iter().zip(&got) {
                assert_eq!(g.to_bits(), exp_f32(x).to_bits(), "exp({x:e}) = {g:e}, length {len}");
            }
        }
    }
}
