//! [`Lanes`] over eight doubles with AVX-512, and the ways a vector finds and reads its
//! lanes' rows. Rows are intervals of `x`, so the rows of a vector's least and greatest
//! lanes (two reductions and two table reads) bound every lane's:
//! - all eight in one row (neighbouring elements of a smooth input mostly are): each
//!   entry is one broadcast load, a memory operand of the arithmetic, with no branch;
//! - rows within 16 of each other (inputs over a short range, in any order): each lane's
//!   row is the least plus the row starts it has reached, and an entry is two loads of its
//!   column ([`super::columns`]) and a permute;
//! - otherwise: each lane's row from the grid and each entry by gathers.

use std::arch::x86_64::{
    __m256i, __m512d, __m512i, __mmask8, _CMP_GE_OQ, _CMP_LE_OQ, _CMP_LT_OQ, _mm256_add_epi32, _mm256_and_si256,
    _mm256_cmplt_epi32_mask, _mm256_i32gather_epi32, _mm256_mask_add_epi32, _mm256_mask_sub_epi32, _mm256_min_epi32,
    _mm256_set1_epi32, _mm256_setzero_si256, _mm512_abs_pd, _mm512_add_pd, _mm512_cmp_pd_mask, _mm512_cvtepi32_epi64,
    _mm512_cvttpd_epi32, _mm512_fmadd_pd, _mm512_fmsub_pd, _mm512_i32gather_pd, _mm512_loadu_pd, _mm512_mask_blend_pd,
    _mm512_mask_mul_pd, _mm512_mul_pd, _mm512_permutex2var_pd, _mm512_reduce_max_pd, _mm512_reduce_min_pd,
    _mm512_set1_pd, _mm512_setzero_pd, _mm512_setzero_si512, _mm512_storeu_pd, _mm512_sub_pd,
};
use std::sync::OnceLock;

use super::{Lanes, NEXT, Rows, Symmetry, Table, eval_at};
use crate::kernels::dd::Arith;

/// Whether the CPU has the instructions [`eval_blocks`] uses.
pub(super) fn available() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl") && is_x86_feature_detected!("avx2")
    })
}

/// `C` vectors of eight doubles, worked on side by side ([`CHAINS`] in the main loop): one
/// vector's evaluation is a chain of dependent double-double steps, and independent chains
/// interleaved keep the floating-point pipes busy. Values of this type
/// are made only inside [`eval_blocks`], which runs with AVX-512F, AVX-512VL and AVX2
/// enabled, and every method is inlined into it: that is what makes each intrinsic call
/// below sound.
#[derive(Clone, Copy)]
struct Vn<const C: usize>([__m512d; C]);

/// Vectors per step of [`eval_blocks`]'s main loop. One thread (a Zen 5 host), J0 on
/// 100,000 points of [0, 5] evenly spaced / shuffled, ns per element: 1 chain 2.8 / 4.6,
/// 2: 2.7 / 4.5, 4: 2.4 / 4.7.
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
struct LaneRows {
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
}

/// Lanes in rows of their own: each vector reads an entry in the cheapest way its rows
/// allow (see the module docs).
impl<const C: usize> Rows<Vn<C>> for [LaneRows; C] {
    #[inline(always)]
    fn entry(self, t: &Table, k: usize) -> Vn<C> {
        // SAFETY: see `Vn` for the instructions; `k < ROW`, so `column` is inside `cols`
        // with `t.len() + PAD` entries after it; a shared row is below `t.len()`, and `near`
        // is the least lane's row, below `t.len()`, so its 16 entries are in the column and
        // its padding; the gather's rows are below `t.len()`.
        let column = unsafe { t.cols.as_ptr().add(t.at(k)) };
        Vn(each!(C; i => unsafe {
            let r = self[i];
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
    fn series(self, t: &Table) -> [__mmask8; C] {
        // SAFETY: see `Vn`.
        each!(C; i => unsafe { _mm256_cmplt_epi32_mask(self[i].row, _mm256_set1_epi32(t.series as i32)) })
    }
    #[inline(always)]
    fn tail_len(self, t: &Table) -> usize {
        t.tail
    }
}

/// Each vector's eight lanes in one row, given by its index: an entry is one broadcast
/// load (a memory operand of the arithmetic that uses it), with no branch.
impl<const C: usize> Rows<Vn<C>> for [usize; C] {
    #[inline(always)]
    fn entry(self, t: &Table, k: usize) -> Vn<C> {
        // SAFETY: see `Vn`.
        Vn(each!(C; i => unsafe { _mm512_set1_pd(t.rows[self[i]].0[k]) }))
    }
    #[inline(always)]
    fn series(self, t: &Table) -> [__mmask8; C] {
        each!(C; i => if self[i] < t.series { 0xff } else { 0 })
    }
    #[inline(always)]
    fn tail_len(self, t: &Table) -> usize {
        self.into_iter().map(|r| t.rows[r].tail_len()).max().unwrap_or(t.tail)
    }
}

/// The rows of `x`'s lanes, each in `[t.lo, t.hi]`. Inlined into [`eval_steps`], like
/// `Vn`'s methods, which makes the intrinsics sound.
#[inline(always)]
fn rows_of(t: &Table, x: __m512d) -> LaneRows {
    // SAFETY: see above for the instructions. Memory: `x ∈ [lo, hi]` in every lane, so
    // `row_of` applies to its least and greatest; in the gather, the cell is in
    // `0..=grid.len() − 4` after the `min`, and the 4-byte read at it stays inside `grid`;
    // the cell's row is below `t.len()`, so its `NEXT` entry is inside `cols`.
    unsafe {
        // rows are intervals: the rows of the least and the greatest lane bound every lane's
        let (least, greatest) = (super::row_of(t, _mm512_reduce_min_pd(x)), super::row_of(t, _mm512_reduce_max_pd(x)));
        if greatest - least < 16 {
            // each lane's row: the least, plus the row starts up to the greatest's it has reached
            let mut local = _mm256_setzero_si256();
            for r in least..greatest {
                let reached = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x, _mm512_set1_pd(t.rows[r].0[NEXT]));
                local = _mm256_mask_sub_epi32(local, reached, local, _mm256_set1_epi32(-1));
            }
            let first = least as i32;
            return LaneRows {
                row: _mm256_add_epi32(local, _mm256_set1_epi32(first)),
                shared: if least == greatest { first } else { -1 },
                near: first,
                local: _mm512_cvtepi32_epi64(local),
            };
        }
        let cell = _mm512_cvttpd_epi32(_mm512_mul_pd(x, _mm512_set1_pd(t.step_inv)));
        let cell = _mm256_min_epi32(cell, _mm256_set1_epi32(t.grid.len() as i32 - 4));
        let bytes = _mm256_i32gather_epi32::<1>(t.grid.as_ptr().cast(), cell);
        let row = _mm256_and_si256(bytes, _mm256_set1_epi32(0xff));
        let next = _mm512_i32gather_pd::<8>(row, t.cols.as_ptr().add(t.at(NEXT)));
        let later = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x, next);
        // the last row's NEXT is +inf, so `later` never moves past the last row
        let row = _mm256_mask_add_epi32(row, later, row, _mm256_set1_epi32(1));
        LaneRows { row, shared: -1, near: -1, local: _mm512_setzero_si512() }
    }
}

/// The vector of eight at `p`, the table's arguments for it (`|x|` for a symmetric
/// function, `lo` in the lanes outside `[lo, hi]`) and the lanes inside (NaN is outside:
/// it goes to `f`). Inlined into [`eval_steps`], which makes the intrinsics sound.
///
/// # Safety
/// `p` must point to eight readable doubles.
#[inline(always)]
unsafe fn arguments(t: &Table, sym: Symmetry, p: *const f64) -> (__m512d, __m512d, __mmask8) {
    // SAFETY: the caller's guarantee for the load; see above for the instructions.
    unsafe {
        let v = _mm512_loadu_pd(p);
        let a = if sym == Symmetry::None { v } else { _mm512_abs_pd(v) };
        let (lo, hi) = (_mm512_set1_pd(t.lo), _mm512_set1_pd(t.hi));
        let inside = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(a, lo) & _mm512_cmp_pd_mask::<_CMP_LE_OQ>(a, hi);
        (v, _mm512_mask_blend_pd(inside, lo, a), inside)
    }
}

/// Vectors whose rows [`eval_steps`] finds in one pass before it evaluates them: that
/// pass's iterations are independent, so the latencies of finding rows (reductions, table
/// reads, gathers) overlap, where found one step at a time they start every evaluation's
/// chain. J0 on 100,000 points of [0, 5], one thread, shuffled: 4.8–4.9 ns per element
/// found step by step, 4.5–4.6 in a pass (evenly spaced: 2.3 either way).
const BLOCK: usize = 32;

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
    // SAFETY: all-zero bits are a valid `LaneRows` (placeholders, overwritten before use).
    let mut rows: [LaneRows; BLOCK] = [unsafe { std::mem::zeroed() }; BLOCK];
    for start in (0..whole).step_by(8 * BLOCK) {
        // a multiple of `step`, as 8·BLOCK and `whole` are
        let end = (start + 8 * BLOCK).min(whole);
        for (r, i) in rows.iter_mut().zip((start..end).step_by(8)) {
            // SAFETY: i + 8 <= whole <= x.len().
            let (_, a, _) = unsafe { arguments(t, sym, x.as_ptr().add(i)) };
            *r = rows_of(t, a);
        }
        for i in (start..end).step_by(step) {
            let first = (i - start) / 8;
            // SAFETY: i + step <= whole <= x.len(), so each vector's eight are readable.
            let args = each!(C; j => unsafe { arguments(t, sym, x.as_ptr().add(i + 8 * j)) });
            let inside = each!(C; j => args[j].2);
            if inside.iter().any(|&m| m != 0) {
                let row = each!(C; j => rows[first + j]);
                let a = Vn::<C>(each!(C; j => args[j].1));
                let y = if row.iter().all(|r| r.shared >= 0) {
                    eval_at(t, each!(C; j => row[j].shared as usize), a).0
                } else {
                    eval_at(t, row, a).0
                };
                for j in 0..C {
                    let mut y = y[j];
                    if sym == Symmetry::Odd {
                        let negative = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(args[j].0, _mm512_setzero_pd());
                        y = _mm512_mask_mul_pd(y, negative, y, _mm512_set1_pd(-1.0));
                    }
                    // SAFETY: i + step <= whole <= out.len().
                    unsafe { _mm512_storeu_pd(out.as_mut_ptr().add(i + 8 * j), y) };
                }
            }
            for (j, &m) in inside.iter().enumerate().filter(|(_, m)| **m != 0xff) {
                for l in (0..8).filter(|l| m & (1 << l) == 0) {
                    out[i + 8 * j + l] = f(x[i + 8 * j + l]);
                }
            }
        }
    }
    whole
}
