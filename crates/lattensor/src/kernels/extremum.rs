//! The folds of `reduce_max` and `reduce_min`, in the element's own type:
//! f32, f64 and the eight integers (bfloat16 and float16 arrive as f32).
//!
//! The reference is one scalar step, [`pick`]: NaN wins, and otherwise a later
//! value replaces the running one when it is greater (max) or not greater
//! (min). So among equal values max keeps the first and min the last, which
//! shows only in the sign of a zero result: max over `[-0.0, 0.0]` is `-0.0`,
//! min over it `0.0`. Every fold here gives the same bits as folding [`pick`]
//! along the elements in order.
//!
//! - [`fold`]: a block into a running value. 32 lanes of running extremum
//!   (`vmaxps`/`vminps`, `vpmaxsd`, …) and 32 lanes that keep any NaN seen
//!   (`vcmpunordps` and a masked move), combined at the end; a zero result is
//!   then replaced by the first (max) or last (min) zero of the block, the zero
//!   [`pick`] would have kept.
//! - [`column_extrema`]: the rows of a contiguous matrix folded element-wise
//!   into one row (a reduction over the leading axes), by [`pick`] itself,
//!   which vectorises across columns and keeps the order of zeros as it is.

use crate::core::element::Element;
use crate::kernels::simd::convert::convert_slice;
use crate::kernels::simd::simd;

/// The element types the extremum folds compute in, with their identities.
pub(crate) trait Extreme: Element + PartialOrd {
    /// The identity of max: `-inf`, or the integer type's minimum.
    const LOWEST: Self;
    /// The identity of min: `+inf`, or the integer type's maximum.
    const HIGHEST: Self;
    /// The NaN a fold that saw one gives (integers have none; never used for them).
    const NAN: Self;
    /// Whether this is NaN (never, for integers).
    fn is_nan(self) -> bool;
    /// Whether this is a float zero of either sign, the only equal values
    /// that differ in their bits (never, for integers).
    fn is_zero(self) -> bool;
}

macro_rules! extreme_float {
    ($($t:ty),*) => {$(
        impl Extreme for $t {
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            const NAN: Self = <$t>::NAN;
            #[inline(always)]
            fn is_nan(self) -> bool {
                self != self
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0.0
            }
        }
    )*};
}
extreme_float!(f32, f64);

macro_rules! extreme_int {
    ($($t:ty),*) => {$(
        impl Extreme for $t {
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            const NAN: Self = 0;
            #[inline(always)]
            fn is_nan(self) -> bool {
                false
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                false
            }
        }
    )*};
}
extreme_int!(u8, u16, u32, u64, i8, i16, i32, i64);

/// The identity of the fold: [`Extreme::LOWEST`] for max, [`Extreme::HIGHEST`] for min.
#[inline(always)]
pub(crate) fn identity<T: Extreme, const MAX: bool>() -> T {
    if MAX { T::LOWEST } else { T::HIGHEST }
}

/// One step of the scalar fold, the reference for every other: NaN if either
/// is NaN; else `b` if it is greater than `a` (max) or not greater (min); else `a`.
#[inline(always)]
pub(crate) fn pick<T: Extreme, const MAX: bool>(a: T, b: T) -> T {
    if a.is_nan() || b.is_nan() {
        T::NAN
    } else if (b > a) == MAX {
        b
    } else {
        a
    }
}

/// Lanes per block fold: on AVX-512 two vectors of f32 (four of f64) for the
/// extremum and as many for the NaNs; on AVX2 eight and eight of f32, within its 16 registers.
const LANES: usize = 32;

/// `xs` folded into `s` by [`pick`] in order, the same bits.
#[inline]
pub(crate) fn fold<T: Extreme, const MAX: bool>(s: T, xs: &[T]) -> T {
    if xs.len() < 2 * LANES {
        // short rows (a reduction over a small last axis): no lanes to set up and combine
        return xs.iter().fold(s, |a, &b| pick::<T, MAX>(a, b));
    }
    let (m, nan) = simd!(lanes::<T, MAX>(xs));
    if nan {
        return T::NAN;
    }
    // the lanes kept whichever zero each saw first; pick keeps the block's first (max) or last (min)
    let m = match m.is_zero() {
        true if MAX => xs.iter().copied().find(|x| x.is_zero()).unwrap_or(m),
        true => xs.iter().copied().rfind(|x| x.is_zero()).unwrap_or(m),
        false => m,
    };
    pick::<T, MAX>(s, m)
}

/// The extremum of `xs` with NaNs passed over (the identity when there is no
/// other value) and whether `xs` holds a NaN. Right but for the sign of a zero result.
#[inline(always)]
fn lanes<T: Extreme, const MAX: bool>(xs: &[T]) -> (T, bool) {
    // `x > a ? x : a` is one vmaxps (vminps for `<`): a NaN x never enters
    let better = |a: T, x: T| {
        let wins = if MAX { x > a } else { x < a };
        if wins { x } else { a }
    };
    let mut acc = [identity::<T, MAX>(); LANES];
    let mut nans = [T::LOWEST; LANES];
    let chunks = xs.chunks_exact(LANES);
    let tail = chunks.remainder();
    for c in chunks {
        for ((a, u), &x) in acc.iter_mut().zip(&mut nans).zip(c) {
            *u = if x.is_nan() { x } else { *u };
            *a = better(*a, x);
        }
    }
    let mut m = identity::<T, MAX>();
    let mut nan = false;
    for (&a, &u) in acc.iter().zip(&nans) {
        m = better(m, a);
        nan |= u.is_nan();
    }
    for &x in tail {
        m = better(m, x);
        nan |= x.is_nan();
    }
    (m, nan)
}

/// The extremum of each column of a contiguous row-major `[rows, cols]` matrix
/// `data` (stored as `S`, computed in `C`) folded into `init`, the same bits as
/// [`pick`] down each column.
///
/// The work is a grid of tasks, as for the column sums: stripes of up to 4096
/// columns (16 KB of f32 running values, in L1) times up to eight blocks of
/// rows, each task folding its rows front to back; the blocks' values are then
/// combined in block order by [`pick`].
pub(crate) fn column_extrema<S: Element, C: Extreme, const MAX: bool>(
    data: &[S],
    rows: usize,
    cols: usize,
    init: C,
) -> Vec<C> {
    const STRIPE: usize = 4096;
    const MIN_BLOCK_ROWS: usize = 64;
    let blocks = (rows / MIN_BLOCK_ROWS).clamp(1, 8);
    let rows_per_block = rows.div_ceil(blocks);
    let native = crate::kernels::simd::same::<S, C>(data);
    let task = |block: usize, c0: usize, acc: &mut [C]| {
        let w = acc.len();
        let (r0, r1) = (block * rows_per_block, ((block + 1) * rows_per_block).min(rows));
        let mut row = if native.is_some() { Vec::new() } else { vec![C::default(); w] };
        for r in r0..r1 {
            let at = r * cols + c0;
            let xs = match native {
                Some(d) => &d[at..at + w],
                None => {
                    convert_slice(&data[at..at + w], &mut row);
                    &row[..]
                }
            };
            simd!({
                for (a, &x) in acc.iter_mut().zip(xs) {
                    *a = pick::<C, MAX>(*a, x);
                }
            });
        }
    };
    // each row block's running values, `cols` per block, in stripes
    let mut parts = vec![identity::<C, MAX>(); blocks * cols];
    let mut pieces: Vec<(usize, usize, &mut [C])> = Vec::new();
    for (block, part_row) in parts.chunks_mut(cols.max(1)).enumerate() {
        for (stripe, acc) in part_row.chunks_mut(STRIPE).enumerate() {
            pieces.push((block, stripe * STRIPE, acc));
        }
    }
    crate::kernels::par_for_each(pieces, rows * cols, |(block, c0, acc)| task(block, c0, acc));
    (0..cols).map(|c| (0..blocks).fold(init, |a, block| pick::<C, MAX>(a, parts[block * cols + c]))).collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn scalar<T: Extreme, const MAX: bool>(s: T, xs: &[T]) -> T {
        xs.iter().fold(s, |a, &b| pick::<T, MAX>(a, b))
    }

    /// Bits of a float, for comparisons that tell -0.0 from 0.0 and NaN from NaN.
    fn bits32(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// A value drawn mostly from the cases where an extremum can go wrong.
    fn special64() -> impl Strategy<Value = f64> {
        prop_oneof![
            3 => -4.0f64..4.0,
            1 => Just(0.0f64),
            1 => Just(-0.0f64),
            1 => Just(f64::INFINITY),
            1 => Just(f64::NEG_INFINITY),
            1 => Just(f64::NAN),
            1 => any::<f64>(),
        ]
    }

    fn check<T: Extreme>(xs: &[T], start: T, eq: impl Fn(T, T) -> bool) -> Result<(), TestCaseError> {
        for s in [identity::<T, true>(), start] {
            prop_assert!(eq(fold::<T, true>(s, xs), scalar::<T, true>(s, xs)), "max from {s:?}");
        }
        for s in [identity::<T, false>(), start] {
            prop_assert!(eq(fold::<T, false>(s, xs), scalar::<T, false>(s, xs)), "min from {s:?}");
        }
        Ok(())
    }

    proptest! {
        // lengths up to 300: none, short (the scalar path), whole groups of 32 lanes and a tail
        #[test]
        fn the_fast_fold_is_the_scalar_fold_bit_for_bit(
            v in prop::collection::vec(special64(), 0..300),
            start in special64(),
        ) {
            check(&v, start, |a: f64, b: f64| a.to_bits() == b.to_bits())?;
            let w: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            check(&w, start as f32, |a: f32, b: f32| a.to_bits() == b.to_bits())?;
            // zero-heavy: the sign of a zero result depends on where each zero lies
            let z: Vec<f32> = w.iter().map(|&x| if x.abs() < 2.0 { x.signum() * 0.0 } else { -x.abs() }).collect();
            check(&z, start as f32, |a: f32, b: f32| a.to_bits() == b.to_bits())?;
            let n: Vec<f32> = z.iter().map(|&x| -x).collect();
            check(&n, -0.0, |a: f32, b: f32| a.to_bits() == b.to_bits())?;
        }

        #[test]
        fn integer_folds_are_the_scalar_fold(v in prop::collection::vec(any::<i64>(), 0..200)) {
            check(&v, 3, |a, b| a == b)?;
            let w: Vec<u8> = v.iter().map(|&x| x as u8).collect();
            check(&w, 7, |a, b| a == b)?;
            let w: Vec<i16> = v.iter().map(|&x| x as i16).collect();
            check(&w, -7, |a, b| a == b)?;
            let w: Vec<u64> = v.iter().map(|&x| x as u64).collect();
            check(&w, u64::MAX, |a, b| a == b)?;
        }
    }

    #[test]
    fn zeros_keep_the_scalar_order_in_long_blocks() {
        // a zero result from lanes that each saw a different zero first
        for n in [64, 65, 100, 1000] {
            for first in [0, 1, 31, 32, n / 2, n - 1] {
                let mut v = vec![-1.0f32; n];
                for (i, x) in v.iter_mut().enumerate().skip(first) {
                    *x = if (i - first) % 3 == 0 { -0.0 } else { 0.0 };
                }
                let mut flip: Vec<f32> = v.iter().map(|&x| if x == 0.0 { -x } else { x }).collect();
                for xs in [&mut v, &mut flip] {
                    assert_eq!(
                        bits32(&[fold::<f32, true>(f32::LOWEST, xs)]),
                        bits32(&[scalar::<f32, true>(f32::LOWEST, xs)])
                    );
                    xs.iter_mut().for_each(|x| *x = -*x); // now ≥ 0: min's zero
                    assert_eq!(
                        bits32(&[fold::<f32, false>(f32::HIGHEST, xs)]),
                        bits32(&[scalar::<f32, false>(f32::HIGHEST, xs)])
                    );
                }
            }
        }
    }

    #[test]
    fn column_extrema_are_pick_down_each_column() {
        // 301 rows (eight blocks, the last short) × 4099 columns (two stripes), with NaNs and zeros
        let (rows, cols) = (301usize, 4099usize);
        let v: Vec<f32> = (0..rows * cols)
            .map(|i| match (i as u64).wrapping_mul(2_654_435_761) % 1009 {
                0 => f32::NAN,
                1..=300 => 0.0,
                301..=600 => -0.0,
                k => k as f32 - 800.0,
            })
            .collect();
        for max in [true, false] {
            let got: Vec<f32> = if max {
                column_extrema::<f32, f32, true>(&v, rows, cols, f32::LOWEST)
            } else {
                column_extrema::<f32, f32, false>(&v, rows, cols, f32::HIGHEST)
            };
            let want: Vec<f32> = (0..cols)
                .map(|c| {
                    let col: Vec<f32> = (0..rows).map(|r| v[r * cols + c]).collect();
                    if max { scalar::<f32, true>(f32::LOWEST, &col) } else { scalar::<f32, false>(f32::HIGHEST, &col) }
                })
                .collect();
            assert_eq!(bits32(&got), bits32(&want), "max {max}");
        }
        // converted rows (f16 in f32) and an empty column set
        let h: Vec<half::f16> = v[..4 * 5].iter().map(|&x| half::f16::from_f32(x)).collect();
        let got = column_extrema::<half::f16, f32, true>(&h, 4, 5, f32::LOWEST);
        let want: Vec<f32> =
            (0..5).map(|c| scalar::<f32, true>(f32::LOWEST, &[0, 1, 2, 3].map(|r| h[r * 5 + c].to_f32()))).collect();
        assert_eq!(bits32(&got), bits32(&want));
        assert!(column_extrema::<f32, f32, true>(&[], 3, 0, f32::LOWEST).is_empty());
        assert_eq!(column_extrema::<i32, i32, false>(&[], 0, 2, 7), vec![7; 2]);
    }
}
