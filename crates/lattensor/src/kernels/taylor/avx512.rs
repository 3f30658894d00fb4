//! [`Lanes`] over eight doubles with AVX-512. Each lane reads the entries of its own
//! row, so neighbouring elements may sit in different rows, in the cheapest way the
//! vector allows: when all eight lanes share a row (neighbouring elements of a smooth
//! input mostly do), one broadcast load an entry; when their rows lie within 16 of each
//! other (inputs over a short range, in any order), two loads of the entry's column and
//! a permute; otherwise a gather.

use std::arch::x86_64::{
    __m256i, __m512d, __m512i, __mmask8, _CMP_GE_OQ, _CMP_LE_OQ, _CMP_LT_OQ, _mm256_and_si256, _mm256_cmpeq_epi32_mask,
    _mm256_cmplt_epi32_mask, _mm256_cmplt_epu32_mask, _mm256_cvtsi256_si32, _mm256_i32gather_epi32,
    _mm256_mask_add_epi32, _mm256_min_epi32, _mm256_set1_epi32, _mm256_sub_epi32, _mm512_abs_pd, _mm512_add_pd,
    _mm512_cmp_pd_mask, _mm512_cvtepi32_epi64, _mm512_cvttpd_epi32, _mm512_fmadd_pd, _mm512_fmsub_pd,
    _mm512_i32gather_pd, _mm512_loadu_pd, _mm512_mask_blend_pd, _mm512_mask_mul_pd, _mm512_mul_pd,
    _mm512_permutex2var_pd, _mm512_set1_pd, _mm512_setzero_pd, _mm512_storeu_pd, _mm512_sub_pd,
};
use std::sync::OnceLock;

use super::{Lanes, NEXT, Symmetry, TAIL_LEN, Table, eval_lanes};
use crate::kernels::dd::Arith;

/// Whether the CPU has the instructions [`eval_blocks`] uses.
pub(super) fn available() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl") && is_x86_feature_detected!("avx2")
    })
}

/// `C` vectors of eight doubles, worked on side by side ([`CHAINS`] in the main loop): one vector's evaluation
/// is a chain of dependent double-double steps (about 300 cycles of latency), and
/// independent chains interleaved keep the floating-point pipes busy. Values of this type
/// are made only inside [`eval_blocks`], which runs with AVX-512F, AVX-512VL and AVX2
/// enabled, and every method is inlined into it: that is what makes each intrinsic call
/// below sound.
#[derive(Clone, Copy)]
struct Vn<const C: usize>([__m512d; C]);

/// Vectors per step of [`eval_blocks`]'s main loop. Zen 4, one thread, J0 on 100,000
/// points of [0, 5] evenly spaced / shuffled, µs: 1 chain 1058 / 1139, 2: 739 / 793,
/// 3: 1063 / 1187 (its registers spill), 4: 495 / 748.
const CHAINS: usize = 4;

/// `each!(n; i => e)` is `[e(0), …, e(n − 1)]`, written as a loop: a closure (`array::map`, `from_fn`)
/// need not be inlined into [`eval_blocks`], and outside it the intrinsics would be calls.
macro_rules! each {
    ($n:ident; $i:ident => $e:expr) => {{
        // SAFETY: all-zero bits are a valid value of every SIMD type (placeholders, overwritten).
        let mut out = [unsafe { std::mem::zeroed() }; $n];
        for $i in 0..$n {
            out[$i] = $e;
        }
        out
    }};
}

impl<const C: usize> Arith for Vn<C> {
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_add_pd(self.0[i], b.0[i]) }))
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_sub_pd(self.0[i], b.0[i]) }))
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_mul_pd(self.0[i], b.0[i]) }))
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_fmadd_pd(self.0[i], b.0[i], c.0[i]) }))
    }
    #[inline(always)]
    fn mul_sub(self, b: Self, c: Self) -> Self {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_fmsub_pd(self.0[i], b.0[i], c.0[i]) }))
    }
}

/// Where a vector's lanes find their rows.
#[derive(Clone, Copy)]
struct Rows {
    /// Each lane's row.
    row: __m256i,
    /// The row all eight lanes share, or −1.
    shared: i32,
    /// A row `b` such that every lane's row is in `b..b + 16`, or −1.
    near: i32,
    /// Each lane's row − `near`, as 64-bit indices.
    local: __m512i,
}

impl<const C: usize> Lanes for Vn<C> {
    type Row = [Rows; C];
    type Mask = [__mmask8; C];
    #[inline(always)]
    fn splat(v: f64) -> Self {
        // SAFETY: see `Vn`: only reached from `eval_blocks`, which has AVX-512F.
        Vn([unsafe { _mm512_set1_pd(v) }; C])
    }
    #[inline(always)]
    fn pick(m: Self::Mask, a: Self, b: Self) -> Self {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_mask_blend_pd(m[i], b.0[i], a.0[i]) }))
    }
    #[inline(always)]
    fn row_of(t: &Table, x: Self) -> Self::Row {
        // SAFETY: see `Vn` for the instructions. Memory: `x ∈ [0, hi]` in every lane (the
        // caller's blend), so the cell is in `0..=grid.len() − 4` after the `min`, and the
        // 4-byte read at it stays inside `grid`; the cell's row is below `t.len`, so its
        // `NEXT` entry is inside `cols`.
        each!(C; i => unsafe {
            let cell = _mm512_cvttpd_epi32(_mm512_mul_pd(x.0[i], _mm512_set1_pd(t.step_inv)));
            let cell = _mm256_min_epi32(cell, _mm256_set1_epi32(t.grid.len() as i32 - 4));
            let bytes = _mm256_i32gather_epi32::<1>(t.grid.as_ptr().cast(), cell);
            let row = _mm256_and_si256(bytes, _mm256_set1_epi32(0xff));
            let next = _mm512_i32gather_pd::<8>(row, t.cols.as_ptr().add(t.at(NEXT)));
            let later = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x.0[i], next);
            // the last row's NEXT is +inf, so `later` never moves past the last row
            let row = _mm256_mask_add_epi32(row, later, row, _mm256_set1_epi32(1));
            let first = _mm256_cvtsi256_si32(row);
            let shared = _mm256_cmpeq_epi32_mask(row, _mm256_set1_epi32(first)) == 0xff;
            // 16 rows from 7 below the first lane's (or from 0) hold most nearby inputs
            let near = (first - 7).max(0);
            let local = _mm256_sub_epi32(row, _mm256_set1_epi32(near));
            let within = _mm256_cmplt_epu32_mask(local, _mm256_set1_epi32(16)) == 0xff;
            Rows {
                row,
                shared: if shared { first } else { -1 },
                near: if within { near } else { -1 },
                local: _mm512_cvtepi32_epi64(local),
            }
        })
    }
    #[inline(always)]
    fn entry(t: &Table, row: Self::Row, k: usize) -> Self {
        // SAFETY: see `Vn` for the instructions; `k < ROW`, so `column` is inside `cols`
        // with `t.len + PAD` entries after it; a shared row is below `t.len`, and `near`
        // is at most the first lane's row, below `t.len`, so its 16 entries are in the
        // column and its padding; the gather's rows are below `t.len`.
        let column = unsafe { t.cols.as_ptr().add(t.at(k)) };
        Vn(each!(C; i => unsafe {
            let r = row[i];
            if r.shared >= 0 {
                _mm512_set1_pd(*column.add(r.shared as usize))
            } else if r.near >= 0 {
                let from = column.add(r.near as usize);
                _mm512_permutex2var_pd(_mm512_loadu_pd(from), r.local, _mm512_loadu_pd(from.add(8)))
            } else {
                _mm512_i32gather_pd::<8>(r.row, column)
            }
        }))
    }
    #[inline(always)]
    fn series(t: &Table, row: Self::Row) -> Self::Mask {
        // SAFETY: see `Vn`.
        each!(C; i => unsafe { _mm256_cmplt_epi32_mask(row[i].row, _mm256_set1_epi32(t.series as i32)) })
    }
    #[inline(always)]
    fn tail_len(t: &Table, row: Self::Row) -> usize {
        if row.iter().any(|r| r.shared < 0) {
            return t.tail;
        }
        // SAFETY: each shared row is below `t.len`, so its TAIL_LEN entry is inside `cols`.
        let lens = each!(C; i => unsafe { *t.cols.as_ptr().add(t.at(TAIL_LEN) + row[i].shared as usize) as usize });
        lens.into_iter().max().unwrap_or(t.tail)
    }
}

/// `out[i] = f(x[i])` over whole vectors of eight (see [`super::eval_slice`]), [`CHAINS`]
/// vectors a step and then one; returns how many elements it did.
///
/// # Safety
/// The CPU must have AVX-512F, AVX-512VL and AVX2; `out` at least as long as `x`.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn eval_blocks(t: &Table, sym: Symmetry, x: &[f64], out: &mut [f64], f: fn(f64) -> f64) -> usize {
    // SAFETY: the caller's guarantees, passed on.
    let done = unsafe { eval_steps::<CHAINS>(t, sym, x, out, f) };
    // SAFETY: as above, on the part not yet done.
    done + unsafe { eval_steps::<1>(t, sym, &x[done..], &mut out[done..], f) }
}

/// [`eval_blocks`] over whole steps of `8·C` elements.
///
/// # Safety
/// As for [`eval_blocks`].
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn eval_steps<const C: usize>(t: &Table, sym: Symmetry, x: &[f64], out: &mut [f64], f: fn(f64) -> f64) -> usize {
    let step = 8 * C;
    let whole = x.len() / step * step;
    let (lo, hi) = (_mm512_set1_pd(t.lo), _mm512_set1_pd(t.hi));
    for i in (0..whole).step_by(step) {
        // SAFETY: i + step <= whole <= x.len() <= out.len().
        let v = each!(C; j => unsafe { _mm512_loadu_pd(x.as_ptr().add(i + 8 * j)) });
        let a = if sym == Symmetry::None { v } else { each!(C; j => _mm512_abs_pd(v[j])) };
        // NaN compares false: it goes to `f`
        let mut inside = [0u8; C];
        for j in 0..C {
            inside[j] = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(a[j], lo) & _mm512_cmp_pd_mask::<_CMP_LE_OQ>(a[j], hi);
        }
        if inside.iter().any(|&m| m != 0) {
            let a = Vn::<C>(each!(C; j => _mm512_mask_blend_pd(inside[j], lo, a[j])));
            let y = eval_lanes(t, a).0;
            for j in 0..C {
                let mut y = y[j];
                if sym == Symmetry::Odd {
                    let negative = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(v[j], _mm512_setzero_pd());
                    y = _mm512_mask_mul_pd(y, negative, y, _mm512_set1_pd(-1.0));
                }
                // SAFETY: as for the load.
                unsafe { _mm512_storeu_pd(out.as_mut_ptr().add(i + 8 * j), y) };
            }
        }
        for (j, &m) in inside.iter().enumerate().filter(|(_, m)| **m != 0xff) {
            for l in (0..8).filter(|l| m & (1 << l) == 0) {
                out[i + 8 * j + l] = f(x[i + 8 * j + l]);
            }
        }
    }
    whole
}
