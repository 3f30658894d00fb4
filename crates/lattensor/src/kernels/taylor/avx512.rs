//! [`Lanes`] over eight doubles with AVX-512: coefficients are gathered per lane
//! from each lane's row, so neighbouring elements may sit in different rows.

use std::arch::x86_64::{
    __m256i, __m512d, _CMP_GE_OQ, _CMP_LE_OQ, _CMP_LT_OQ, _CMP_NEQ_UQ, _mm256_and_si256, _mm256_i32gather_epi32,
    _mm256_mask_add_epi32, _mm256_min_epi32, _mm256_mullo_epi32, _mm256_set1_epi32, _mm512_abs_pd, _mm512_add_pd,
    _mm512_cmp_pd_mask, _mm512_cvttpd_epi32, _mm512_fmadd_pd, _mm512_fmsub_pd, _mm512_i32gather_pd, _mm512_loadu_pd,
    _mm512_mask_blend_pd, _mm512_mask_mul_pd, _mm512_mul_pd, _mm512_set1_pd, _mm512_setzero_pd, _mm512_storeu_pd,
    _mm512_sub_pd,
};
use std::sync::OnceLock;

use super::{Lanes, NEXT, ROW, Symmetry, Table, eval_lanes};

/// Whether the CPU has the instructions [`eval_blocks`] uses.
pub(super) fn available() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vl") && is_x86_feature_detected!("avx2")
    })
}

/// Eight doubles. Values of this type are made only inside [`eval_blocks`], which
/// runs with AVX-512F, AVX-512VL and AVX2 enabled, and every method is inlined into it:
/// that is what makes each intrinsic call below sound.
#[derive(Clone, Copy)]
struct V8(__m512d);

impl Lanes for V8 {
    /// Each lane's row, as the offset (in doubles) of its first entry.
    type Row = __m256i;
    #[inline(always)]
    fn splat(v: f64) -> V8 {
        // SAFETY: see `V8`: only reached from `eval_blocks`, which has AVX-512F.
        V8(unsafe { _mm512_set1_pd(v) })
    }
    #[inline(always)]
    fn add(self, b: V8) -> V8 {
        // SAFETY: see `V8`.
        V8(unsafe { _mm512_add_pd(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: V8) -> V8 {
        // SAFETY: see `V8`.
        V8(unsafe { _mm512_sub_pd(self.0, b.0) })
    }
    #[inline(always)]
    fn mul(self, b: V8) -> V8 {
        // SAFETY: see `V8`.
        V8(unsafe { _mm512_mul_pd(self.0, b.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: V8, c: V8) -> V8 {
        // SAFETY: see `V8`.
        V8(unsafe { _mm512_fmadd_pd(self.0, b.0, c.0) })
    }
    #[inline(always)]
    fn mul_sub(self, b: V8, c: V8) -> V8 {
        // SAFETY: see `V8`.
        V8(unsafe { _mm512_fmsub_pd(self.0, b.0, c.0) })
    }
    #[inline(always)]
    fn pick(flag: V8, a: V8, b: V8) -> V8 {
        // SAFETY: see `V8`.
        unsafe {
            let set = _mm512_cmp_pd_mask::<_CMP_NEQ_UQ>(flag.0, _mm512_setzero_pd());
            V8(_mm512_mask_blend_pd(set, b.0, a.0))
        }
    }
    #[inline(always)]
    fn row_of(t: &Table, x: V8) -> __m256i {
        // SAFETY: see `V8` for the instructions. Memory: `x ∈ [0, hi]` in every lane (the
        // caller's blend), so the cell is in `0..=grid.len() − 4` after the `min`, and the
        // 4-byte read at it stays inside `grid`; the cell's row is below `rows.len()`, so
        // the offset of its `NEXT` entry is inside `rows`.
        unsafe {
            let cell = _mm512_cvttpd_epi32(_mm512_mul_pd(x.0, _mm512_set1_pd(t.step_inv)));
            let cell = _mm256_min_epi32(cell, _mm256_set1_epi32(t.grid.len() as i32 - 4));
            let bytes = _mm256_i32gather_epi32::<1>(t.grid.as_ptr().cast(), cell);
            let row = _mm256_and_si256(bytes, _mm256_set1_epi32(0xff));
            let at = _mm256_mullo_epi32(row, _mm256_set1_epi32(ROW as i32));
            let next = _mm512_i32gather_pd::<8>(at, t.rows.as_ptr().cast::<f64>().add(NEXT));
            let later = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x.0, next);
            // the last row's NEXT is +inf, so `later` never moves past the last row
            _mm256_mask_add_epi32(at, later, at, _mm256_set1_epi32(ROW as i32))
        }
    }
    #[inline(always)]
    fn entry(t: &Table, row: __m256i, k: usize) -> V8 {
        // SAFETY: see `V8` for the instructions; `row` is a row's offset from `row_of`
        // and `k < ROW`, so every lane reads inside `rows`.
        V8(unsafe { _mm512_i32gather_pd::<8>(row, t.rows.as_ptr().cast::<f64>().add(k)) })
    }
}

/// `out[i] = f(x[i])` over whole blocks of eight (see [`super::eval_slice`]); returns
/// how many elements it did.
///
/// # Safety
/// The CPU must have AVX-512F, AVX-512VL and AVX2; `out` at least as long as `x`.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn eval_blocks(t: &Table, sym: Symmetry, x: &[f64], out: &mut [f64], f: fn(f64) -> f64) -> usize {
    let whole = x.len() / 8 * 8;
    let (lo, hi) = (_mm512_set1_pd(t.lo), _mm512_set1_pd(t.hi));
    for i in (0..whole).step_by(8) {
        // SAFETY: i + 8 <= whole <= x.len() <= out.len().
        let v = unsafe { _mm512_loadu_pd(x.as_ptr().add(i)) };
        let a = if sym == Symmetry::None { v } else { _mm512_abs_pd(v) };
        // NaN compares false: it goes to `f`
        let inside = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(a, lo) & _mm512_cmp_pd_mask::<_CMP_LE_OQ>(a, hi);
        if inside != 0 {
            let a = _mm512_mask_blend_pd(inside, lo, a);
            let mut y = eval_lanes(t, V8(a)).0;
            if sym == Symmetry::Odd {
                let negative = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(v, _mm512_setzero_pd());
                y = _mm512_mask_mul_pd(y, negative, y, _mm512_set1_pd(-1.0));
            }
            // SAFETY: as for the load.
            unsafe { _mm512_storeu_pd(out.as_mut_ptr().add(i), y) };
        }
        if inside != 0xff {
            for l in (0..8).filter(|l| inside & (1 << l) == 0) {
                out[i + l] = f(x[i + l]);
            }
        }
    }
    whole
}
