//! Sums, in one place: the semiring sums of einsum and matmul (integers wrap,
//! bool ors), and the long, compensated f64 sums of the reductions.
//!
//! - [`sum_slice`] / [`sum_slice_par`]: a slice summed in its own type
//!   ([`Ring`]), eight or 32 independent accumulators; f32 and long f64 slices
//!   take the compensated sums below.
//! - [`ring_column_sums`]: the rows of a contiguous block added into one row.
//! - [`Kahan`] and its folds: f64 sums with a Neumaier compensation, the
//!   narrower floats widened on the way ([`narrow_fold`], [`kahan_fold`]).
//! - [`sum_f32`] / [`sum_f64`]: long compensated sums, split across threads
//!   and read in one or four streams ([`crate::kernels::simd::cpu::long_reads`]).
//! - [`column_sums`]: compensated column sums of a contiguous matrix, row by
//!   row as it lies in memory (inner loop in [`rows`]).
//!
//! The lane folds they build on ([`crate::kernels::simd::fold_lanes`],
//! [`crate::kernels::simd::fold_streams`]) are SIMD primitives and live with
//! the CPU detection in `kernels::simd`.

mod rows;

use num_complex::{Complex32, Complex64};

use crate::DType;
use crate::core::element::Element;
use crate::kernels::{par_map, par_map_chunks};

/// The semiring a sum or matrix product computes in: `(+, ×)` for numbers
/// (integers wrap), `(or, and)` for bool.
pub(crate) trait Ring: Element {
    const ZERO: Self;
    fn radd(self, o: Self) -> Self;
    fn rmul(self, o: Self) -> Self;
}

macro_rules! ring_int {
    ($($t:ty),*) => {$(
        impl Ring for $t {
            const ZERO: Self = 0;
            #[inline(always)] fn radd(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)] fn rmul(self, o: Self) -> Self { self.wrapping_mul(o) }
        }
    )*};
}
ring_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! ring_float {
    ($($t:ty => $z:expr),*) => {$(
        impl Ring for $t {
            const ZERO: Self = $z;
            #[inline(always)] fn radd(self, o: Self) -> Self { self + o }
            #[inline(always)] fn rmul(self, o: Self) -> Self { self * o }
        }
    )*};
}
ring_float!(f32 => 0.0, f64 => 0.0, Complex32 => Complex32::new(0.0, 0.0), Complex64 => Complex64::new(0.0, 0.0));

impl Ring for bool {
    const ZERO: Self = false;
    #[inline(always)]
    fn radd(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn rmul(self, o: Self) -> Self {
        self & o
    }
}

/// Sum of a slice with eight independent accumulators (faster, and more accurate than one);
/// f32 accumulates in f64, as `reduce_sum` does (as fast, and exact to the last bit far more often).
#[inline]
pub(crate) fn sum_slice<C: Ring>(x: &[C]) -> C {
    if let Some(xf) = crate::kernels::simd::same::<C, f32>(x) {
        return (sum_f32(xf) as f32).cast_into::<C>();
    }
    crate::kernels::simd::simd!(sum_slice_loop(x))
}

/// Sum of a long slice: chunks summed in parallel (each into 32 lanes), then in order.
/// f32 and f64 take the compensated long sums ([`sum_f32`], [`sum_f64`]), which read
/// in several streams where the CPU serves them faster.
pub(crate) fn sum_slice_par<C: Ring>(x: &[C]) -> C {
    const CHUNK: usize = 1 << 16;
    if x.len() < 4 * CHUNK || C::DTYPE == DType::F32 {
        return sum_slice(x); // f32: `sum_f32` splits long slices itself
    }
    if let Some(xd) = crate::kernels::simd::same::<C, f64>(x) {
        return sum_f64(xd).cast_into::<C>();
    }
    let parts: Vec<C> = par_map_chunks(x, CHUNK, sum_slice_lanes);
    parts.into_iter().fold(C::ZERO, |a, b| a.radd(b))
}

/// [`sum_slice`] by [`crate::kernels::simd::fold_lanes`], for sums that come from DRAM.
fn sum_slice_lanes<C: Ring>(x: &[C]) -> C {
    let (lanes, tail) = crate::kernels::simd::fold_lanes(x, C::ZERO, C::radd);
    lanes.into_iter().flatten().fold(sum_slice(tail), C::radd)
}

#[inline(always)]
fn sum_slice_loop<C: Ring>(x: &[C]) -> C {
    let mut acc = [C::ZERO; 8];
    let chunks = x.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = a.radd(x);
        }
    }
    let mut s = C::ZERO;
    for &r in rest {
        s = s.radd(r);
    }
    let a = [acc[0].radd(acc[4]), acc[1].radd(acc[5]), acc[2].radd(acc[6]), acc[3].radd(acc[7])];
    s.radd(a[0].radd(a[2]).radd(a[1].radd(a[3])))
}

/// Adds every row of `d` (rows of `out.len()` elements, row-major) into `out`, in row order.
pub(crate) fn ring_column_sums<C: Ring>(d: &[C], out: &mut [C]) {
    if out.is_empty() {
        return;
    }
    for row in d.chunks_exact(out.len()) {
        for (o, &x) in out.iter_mut().zip(row) {
            *o = o.radd(x);
        }
    }
}

/// Compensated f64 sum state: (sum, compensation).
pub(crate) type Kahan = (f64, f64);

/// Adds `x` to the state (Neumaier: the compensation keeps the bits lost in `s + x`).
#[inline(always)]
pub(crate) fn kahan_add((s, c): Kahan, x: f64) -> Kahan {
    let t = s + x;
    let c = if s.abs() >= x.abs() { c + ((s - t) + x) } else { c + ((x - t) + s) };
    (t, c)
}

/// Sum of a block, widened to f64, by [`crate::kernels::simd::fold_lanes`], the lanes
/// then compensated into the state (short blocks, such as rows of a reduction over a
/// small last axis, skip the 32 empty lanes).
#[inline(always)]
fn widening_fold<T: Copy>(s: Kahan, xs: &[T], widen: impl Fn(T) -> f64) -> Kahan {
    let (lanes, tail) = crate::kernels::simd::fold_lanes(xs, 0f64, |a, x| a + widen(x));
    let mut s = s;
    if tail.len() < xs.len() {
        for l in lanes.into_iter().flatten() {
            s = kahan_add(s, l);
        }
    }
    for &x in tail {
        s = kahan_add(s, widen(x));
    }
    s
}

/// Folds a block of f64 into the state.
pub(crate) fn kahan_fold(s: Kahan, xs: &[f64]) -> Kahan {
    widening_fold(s, xs, |x| x)
}

/// [`kahan_fold`] for f32 blocks (f16/bf16 arrive converted to f32), with no f64 copy of the block.
pub(crate) fn narrow_fold(s: Kahan, xs: &[f32]) -> Kahan {
    widening_fold(s, xs, |x| x as f64)
}

/// Two states in order: `a` then `b`.
#[inline]
pub(crate) fn kahan_combine(a: Kahan, b: Kahan) -> Kahan {
    let (s, c) = kahan_add(a, b.0);
    (s, c + a.1 + b.1)
}

/// The state's sum.
#[inline]
pub(crate) fn finish(s: Kahan) -> f64 {
    // Once the sum is ±inf or NaN the compensation is NaN (inf - inf); the plain sum is the
    // IEEE answer (1 + inf = inf, inf + -inf = NaN).
    if s.0.is_finite() { s.0 + s.1 } else { s.0 }
}

/// Compensated complex sum state: (real part, imaginary part).
pub(crate) type CKahan = (Kahan, Kahan);

/// Folds a block of complex numbers into the state.
pub(crate) fn ckahan_fold(s: CKahan, xs: &[Complex64]) -> CKahan {
    let (mut re, mut im) = s;
    for z in xs {
        re = kahan_add(re, z.re);
        im = kahan_add(im, z.im);
    }
    (re, im)
}

/// Two complex states in order.
pub(crate) fn ckahan_combine(a: CKahan, b: CKahan) -> CKahan {
    (kahan_combine(a.0, b.0), kahan_combine(a.1, b.1))
}

/// The sum of f32 values accumulated in f64 (compensated across blocks), split
/// across threads when long: full reductions and einsum's reductions of f32 use it.
///
/// The widening has a price, paid only when the data comes from cache: on Zen 4
/// the f32 → f64 conversion bounds any such loop at ~57 GB/s a core, whatever
/// its vector width (`bench/probes/widening_sum.c`), where an f32 accumulator
/// reads 73 GB/s from L3 and more from L2. From DRAM it is free. Exactness is
/// worth the rest.
pub(crate) fn sum_f32(xs: &[f32]) -> f64 {
    long_sum(xs, crate::kernels::simd::cpu::long_reads(), narrow_fold, |x| x as f64)
}

/// [`sum_f32`] for f64 values.
pub(crate) fn sum_f64(xs: &[f64]) -> f64 {
    long_sum(xs, crate::kernels::simd::cpu::long_reads(), kahan_fold, |x| x)
}

/// Elements per task of a long sum (a quarter of that per stream when four streams are read).
const LONG_SPLIT: usize = 1 << 16;

/// How far apart (bytes, at least) the four streams of a thread start beyond a
/// quarter of the data: four streams a power of two apart read 512 MiB at 51.7
/// GB/s on Zen 3, set 2 MiB further apart at 58.9 (one stream: 41.6).
const STREAM_SKEW: usize = (2 << 20) + (64 << 10);

/// The compensated sum of `xs` (the lanes of each block summed in f64), split
/// into tasks run in parallel when long and combined in task order, so that
/// the result depends only on the length and `reads.streams`.
///
/// With four streams, the data is cut into quarters of whole pieces
/// (`LONG_SPLIT / 4` elements), and task `i` reads piece `i` of each quarter,
/// quarter `j`'s pieces taken from [`STREAM_SKEW`]·j bytes on, wrapping round, so
/// that a thread's contiguous run of tasks reads four sequential streams that
/// are not a power of two apart. The elements after the last whole piece
/// of the last quarter make one more task.
fn long_sum<T: Copy + Sync>(
    xs: &[T],
    reads: crate::kernels::simd::cpu::LongReads,
    fold: impl Fn(Kahan, &[T]) -> Kahan + Sync,
    widen: impl Fn(T) -> f64 + Copy + Sync,
) -> f64 {
    if xs.len() < 32 {
        // a plain f64 loop: exact enough for so few terms, and no compensation to pay for per short row
        return xs.iter().fold(0.0, |a, &x| a + widen(x));
    }
    if xs.len() < 4 * LONG_SPLIT {
        return finish(fold((0.0, 0.0), xs));
    }
    if reads.streams == 4 {
        let piece = LONG_SPLIT / 4;
        let pieces = xs.len() / 4 / piece;
        let quarter = pieces * piece;
        let shift = STREAM_SKEW.div_ceil(piece * std::mem::size_of::<T>());
        let parts: Vec<Kahan> = par_map(pieces + 1, xs.len(), |i| {
            if i == pieces {
                return fold((0.0, 0.0), &xs[4 * quarter..]);
            }
            let at = |j: usize| j * quarter + (i + j * shift) % pieces * piece;
            let streams = [0, 1, 2, 3].map(|j| &xs[at(j)..at(j) + piece]);
            if reads.fetch { fold4::<T, true>(streams, widen) } else { fold4::<T, false>(streams, widen) }
        });
        return finish(parts.into_iter().fold((0.0, 0.0), kahan_combine));
    }
    let parts: Vec<Kahan> = par_map_chunks(xs, LONG_SPLIT, |c| fold((0.0, 0.0), c));
    finish(parts.into_iter().fold((0.0, 0.0), kahan_combine))
}

/// The compensated sum of four slices of one length (a multiple of 8), read side
/// by side ([`crate::kernels::simd::fold_streams`]).
#[inline(always)]
fn fold4<T: Copy, const FETCH: bool>(xs: [&[T]; 4], widen: impl Fn(T) -> f64) -> Kahan {
    let lanes = crate::kernels::simd::fold_streams::<T, f64, FETCH>(xs, 0f64, |a, x| a + widen(x));
    lanes.into_iter().flatten().fold((0.0, 0.0), kahan_add)
}

/// Column sums in f64 of a contiguous row-major `[rows, cols]` matrix `data`
/// (a reduction over leading axes), read row by row as the data lies in memory.
///
/// The work is a grid of tasks: stripes of up to 4096 columns (32 KB of f64
/// accumulators, which stay in cache) times up to eight blocks of rows, each
/// task streaming its rows front to back. Each column's partial sums are then
/// combined in block order. The split depends only on the shape, never on
/// the thread count, so results are the same on every machine.
pub(crate) fn column_sums<A: Element>(data: &[A], rows: usize, cols: usize) -> Vec<f64> {
    const STRIPE: usize = 4096;
    const MIN_BLOCK_ROWS: usize = 64;
    // Narrower floats are exact in f64, and f64 sums of up to 2²⁹ of them err by
    // less than 2⁻²⁴ of the sum of magnitudes (below half an f32 ulp of
    // anything but cancelling sums): plain f64 adds suffice. f64 input needs the compensation.
    let compensate = A::DTYPE == DType::F64;
    let blocks = (rows / MIN_BLOCK_ROWS).clamp(1, 8);
    let rows_per_block = rows.div_ceil(blocks);
    // Each row block's partial sums (and compensations), `cols` per block, written in place
    // by the tasks: per-task vectors, freed at the end of every call, cost page faults on
    // every call (~5% of a 4096² f32 mean, measured with `perf`).
    let mut sums = vec![0f64; blocks * cols];
    let mut comps = if compensate { vec![0f64; blocks * cols] } else { Vec::new() };
    let task = |block: usize, c0: usize, sum: &mut [f64], comp: &mut [f64]| {
        let w = sum.len();
        let (r0, r1) = (block * rows_per_block, ((block + 1) * rows_per_block).min(rows));
        if let (false, Some(f32_rows)) = (compensate, crate::kernels::simd::same::<A, f32>(data)) {
            use rows::{ROWS, add_rows};
            let seg = |r: usize| &f32_rows[r * cols + c0..r * cols + c0 + w];
            // several rows per pass over the accumulators, added in row order (same bits as one at a time)
            let mut r = r0;
            while r + ROWS <= r1 {
                add_rows(sum, std::array::from_fn::<_, ROWS, _>(|q| seg(r + q)));
                r += ROWS;
            }
            for r in r..r1 {
                add_rows(sum, [seg(r)]);
            }
            return;
        }
        let mut row = vec![0f64; w];
        for r in r0..r1 {
            crate::kernels::simd::convert::convert_slice(&data[r * cols + c0..r * cols + c0 + w], &mut row);
            crate::kernels::simd::simd!({
                if compensate {
                    for ((s, c), &v) in sum.iter_mut().zip(comp.iter_mut()).zip(&row) {
                        // Neumaier: the compensation keeps the bits lost in s + v
                        let t = *s + v;
                        *c += if s.abs() >= v.abs() { (*s - t) + v } else { (v - t) + *s };
                        *s = t;
                    }
                } else {
                    for (s, &v) in sum.iter_mut().zip(&row) {
                        *s += v;
                    }
                }
            },);
        }
    };
    // the tasks: (row block, stripe of columns), each with its pieces of `sums` and `comps`
    let mut pieces: Vec<(usize, usize, &mut [f64], &mut [f64])> = Vec::new();
    let mut comp_rows = comps.chunks_mut(cols);
    for (block, sum_row) in sums.chunks_mut(cols).enumerate() {
        let mut comp_stripes = comp_rows.next().map(|c| c.chunks_mut(STRIPE));
        for (stripe, sum) in sum_row.chunks_mut(STRIPE).enumerate() {
            let comp = comp_stripes.as_mut().and_then(|c| c.next()).unwrap_or_default();
            pieces.push((block, stripe * STRIPE, sum, comp));
        }
    }
    crate::kernels::par_for_each(pieces, rows * cols, |(block, c0, sum, comp)| task(block, c0, sum, comp));
    let part = |block: usize, c: usize| -> Kahan {
        (sums[block * cols + c], if compensate { comps[block * cols + c] } else { 0.0 })
    };
    (0..cols).map(|c| finish((1..blocks).fold(part(0, c), |acc, block| kahan_combine(acc, part(block, c))))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_sums_are_exact_for_integers_and_exact_sums() {
        // long enough for the parallel 32-lane path, with a ragged tail
        let n: usize = 5 * (1 << 16) + 37;
        let ints: Vec<i32> = (0..n).map(|i| (i as i32).wrapping_mul(2_654_435) ^ (i as i32 >> 3)).collect();
        let want = ints.iter().fold(0i32, |a, &x| a.wrapping_add(x));
        assert_eq!(sum_slice_par(&ints), want);
        assert_eq!(sum_slice_lanes(&ints), want);
        let floats: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 / 8.0).collect();
        let exact: f64 = floats.iter().sum(); // exact: every partial sum is a multiple of 1/8 below 2^53
        assert_eq!(sum_slice_par(&floats), exact);
        // f32 accumulates in f64: the exact sum, rounded once
        let f32s: Vec<f32> = floats.iter().map(|&x| x as f32).collect();
        assert_eq!(sum_slice_par(&f32s), exact as f32);
        assert_eq!(sum_slice(&f32s[..1000]), floats[..1000].iter().sum::<f64>() as f32);
    }

    #[test]
    fn long_sums_read_in_one_or_four_streams_are_exact() {
        use crate::kernels::simd::cpu::LongReads;
        let reads = [(1, true), (4, true), (4, false)].map(|(streams, fetch)| LongReads { streams, fetch });
        // small integers: every partial sum is exact in f64, whatever the order; lengths
        // around whole quarters of pieces, and pieces fewer and more than the skew
        for n in [(1usize << 18) - 1, 1 << 18, (1 << 18) + 3, (1 << 20) + 4 * 16_384 + 13, 3_000_001, 40 << 20] {
            let xs: Vec<f32> = (0..n).map(|i| ((i * 7919) % 2003) as f32 - 1000.0).collect();
            let exact: f64 = xs.iter().map(|&x| x as f64).sum();
            let wide: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
            for r in reads {
                assert_eq!(long_sum(&xs, r, narrow_fold, |x| x as f64), exact, "{n} elements, {r:?}");
                assert_eq!(long_sum(&wide, r, kahan_fold, |x| x), exact, "{n} f64 elements, {r:?}");
            }
        }
        // each element counted once: distinct values (exact in f32 and their sum in f64),
        // so that a piece read twice or missed changes the sum
        for n in [(1usize << 20) + 4 * 16_384 + 13, 9_000_011] {
            let xs: Vec<f32> = (1..=n).map(|i| i as f32).collect();
            let exact = (n * (n + 1) / 2) as f64;
            for r in reads {
                assert_eq!(long_sum(&xs, r, narrow_fold, |x| x as f64), exact, "1..={n}, {r:?}");
            }
        }
        // and the compensation survives the split: 1e8 plus many ones, in each quarter
        let mut v = vec![1.0f32; 1 << 20];
        for q in 0..4 {
            v[q << 18] = 1e8;
        }
        let want = 4e8 + ((1 << 20) - 4) as f64;
        for r in reads {
            assert_eq!(long_sum(&v, r, narrow_fold, |x| x as f64), want, "{r:?}");
        }
    }
}
