//! What the boundary test of `exp` f32's AVX-512 loop costs: a standalone
//! copy of the loop (`crates/lattensor/src/kernels/exp/mod.rs`, reduction,
//! polynomial and stores as there) with the test's variants, timed in one
//! process, alternating, one thread on 16384 values (minimum of 400 rounds of
//! 20 calls). Needs an AVX-512 CPU.
//!
//!     rustc --edition 2021 -O -C target-cpu=native bench/probes/exp_flags.rs -o /tmp/exp_flags && /tmp/exp_flags
//!
//! Variants: `none` (no test: the speed before correct rounding), `quads`
//! (per block on 64-bit lanes: add, shift and minimum for the near test and a
//! minimum of the values for f32-subnormal results), `near` (the near test
//! alone), `one-min` (a single 512-bit minimum a block), `input-min` (a 256-bit
//! minimum of the inputs, a subnormal-result test), `pairs` (the kernel's: two
//! blocks' low dwords gathered by one permute, then add, shift and minimum; no
//! subnormal test, as the clamp's floor is flagged by the near test).
#![allow(dead_code)] // the kernel's constants include some only its element function uses
use std::arch::x86_64::*;
use std::hint::black_box;

include!("../../crates/lattensor/src/kernels/exp/constants.rs");
const CHECK_STEPS: usize = 4;
const RING: usize = 4;

#[derive(Clone, Copy)]
struct Reduced { r: __m512d, b: __m512d, entry: __m512d }

#[inline]
#[target_feature(enable = "avx512f,avx2,fma")]
fn reduce<const FLOOR: bool>(x: __m256) -> Reduced {
    let table = EXP2_SIXTEENTHS.as_ptr().cast::<f64>();
    let (lo_tbl, hi_tbl) = unsafe { (_mm512_loadu_pd(table), _mm512_loadu_pd(table.add(8))) };
    let (lo, hi) = (_mm256_set1_ps(if FLOOR { FLAGGED_FLOOR } else { -EXP_CLAMP as f32 }), _mm256_set1_ps(EXP_CLAMP as f32));
    let (shifter, log2e) = (_mm512_set1_pd(SHIFTER / 16.0), _mm512_set1_pd(SIXTEEN_LOG2E / 16.0));
    let neg_ln2 = _mm512_set1_pd(-16.0 * LN2_SIXTEENTH);
    let x = _mm256_min_ps(hi, _mm256_max_ps(lo, x));
    let xd = _mm512_cvtps_pd(x);
    let t = _mm512_fmadd_pd(xd, log2e, shifter);
    let b = _mm512_sub_pd(t, shifter);
    let r = _mm512_fmadd_pd(b, neg_ln2, xd);
    let entry = _mm512_permutex2var_pd(lo_tbl, _mm512_castpd_si512(t), hi_tbl);
    Reduced { r, b, entry }
}

#[inline]
#[target_feature(enable = "avx512f,avx2,fma")]
fn wide(v: Reduced) -> __m512d {
    let poly = EXP_POLY.map(|c| _mm512_set1_pd(c));
    let mut p = poly[0];
    for &c in &poly[1..] { p = _mm512_fmadd_pd(p, v.r, c); }
    _mm512_scalef_pd(_mm512_mul_pd(v.entry, p), v.b)
}

#[derive(Clone, Copy, PartialEq)]
enum Variant {
    None,
    Quads,
    Near,
    OneMin,
    InputMin,
    Pairs,
}

/// The loop over `src` with the variant's test; returns whether any stretch was flagged.
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn run<const V: u8>(src: &[f32], dst: &mut [f32]) -> bool {
    let variant = [Variant::None, Variant::Quads, Variant::Near, Variant::OneMin, Variant::InputMin, Variant::Pairs][V as usize];
    let n = src.len();
    let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
    let load = |i: usize| unsafe { _mm256_loadu_ps(s.add(i)) };
    let red = |x: __m256| if variant == Variant::Pairs { reduce::<true>(x) } else { reduce::<false>(x) };
    let (off64, off32) = (_mm512_set1_epi64(NEAR_OFFSET as i64), _mm512_set1_epi32(NEAR_OFFSET as i32));
    let low_dwords = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    let mut flagged = false;
    let mut i = 0;
    let mut ring: [Reduced; RING] = std::array::from_fn(|k| red(load(8 * k)));
    let mut xs: [__m256; RING] = std::array::from_fn(|k| load(8 * k));
    let fresh = || (_mm512_set1_epi64(-1), _mm512_set1_epi64(-1), _mm256_set1_ps(f32::INFINITY));
    let (mut near, mut least, mut xmin) = fresh();
    let mut steps = 0;
    while i + 2 * 8 * RING <= n {
        let mut prev = _mm512_setzero_pd();
        for k in 0..RING {
            let y = wide(ring[k]);
            unsafe { _mm256_storeu_ps(d.add(i + 8 * k), _mm512_cvtpd_ps(y)) };
            let bits = _mm512_castpd_si512(y);
            match variant {
                Variant::Quads | Variant::Near => {
                    near = _mm512_min_epu64(near, _mm512_slli_epi64::<35>(_mm512_add_epi64(bits, off64)));
                    if variant == Variant::Quads {
                        least = _mm512_min_epu64(least, bits);
                    }
                }
                Variant::OneMin => near = _mm512_min_epu64(near, bits),
                Variant::InputMin => xmin = _mm256_min_ps(xs[k], xmin),
                Variant::Pairs if k % 2 == 1 => {
                    let low = _mm512_permutex2var_epi32(_mm512_castpd_si512(prev), low_dwords, bits);
                    near = _mm512_min_epu32(near, _mm512_slli_epi32::<3>(_mm512_add_epi32(low, off32)));
                }
                _ => {}
            }
            prev = y;
            let x = load(i + 8 * (k + RING));
            xs[k] = x;
            ring[k] = red(x);
        }
        i += 8 * RING;
        steps += 1;
        if steps == CHECK_STEPS {
            let limit = _mm512_set1_epi64(((2 * NEAR_ULPS + 1) << 35) as i64);
            flagged |= match variant {
                Variant::None => false,
                Variant::Quads => {
                    let normal = _mm512_set1_epi64(F32_MIN_NORMAL.to_bits() as i64);
                    (_mm512_cmplt_epu64_mask(near, limit) | _mm512_cmplt_epu64_mask(least, normal)) != 0
                }
                Variant::Near | Variant::OneMin => _mm512_cmplt_epu64_mask(near, limit) != 0,
                Variant::InputMin => _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(xmin, _mm256_set1_ps(-87.34))) != 0,
                Variant::Pairs => _mm512_cmplt_epu32_mask(near, _mm512_set1_epi32(((2 * NEAR_ULPS + 1) << 3) as i32)) != 0,
            };
            (near, least, xmin) = fresh();
            steps = 0;
        }
    }
    flagged
}

fn main() {
    assert!(is_x86_feature_detected!("avx512f"), "needs AVX-512");
    let n = 16384 + 64;
    let mut state = 0x1234_5678_9abc_def0u64;
    // uniform on [-80, 80): no result is subnormal, so no variant is ever flagged for that
    let src: Vec<f32> = (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 160.0 - 80.0
        })
        .collect();
    let mut dst = vec![0f32; n];
    type Loop = unsafe fn(&[f32], &mut [f32]) -> bool;
    let variants: [(&str, Loop); 6] = [
        ("none", run::<0>),
        ("quads", run::<1>),
        ("near", run::<2>),
        ("one-min", run::<3>),
        ("input-min", run::<4>),
        ("pairs", run::<5>),
    ];
    let mut best = [f64::INFINITY; 6];
    for _ in 0..400 {
        for (b, (_, f)) in best.iter_mut().zip(&variants) {
            let t = std::time::Instant::now();
            for _ in 0..20 {
                // SAFETY: the CPU has AVX-512F (asserted above), which implies AVX2 and FMA.
                black_box(unsafe { f(black_box(&src), black_box(&mut dst)) });
                black_box(&dst);
            }
            *b = b.min(t.elapsed().as_secs_f64() / 20.0);
        }
    }
    for ((name, _), b) in variants.iter().zip(&best) {
        println!("{name:<10} {:.3} us", b * 1e6);
    }
}
