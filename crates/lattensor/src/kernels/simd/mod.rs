//! SIMD primitives shared by the kernels: runtime instruction-set dispatch
//! ([`simd!`]), lane folds for sums, and the same-type slice cast. The
//! submodules hold CPU and cache detection ([`cpu`]), prefetches and streaming
//! stores ([`stream`]) and the vectorised dtype conversions ([`convert`]).

pub(crate) mod convert;
pub(crate) mod cpu;
pub(crate) mod stream;

use crate::core::element::Element;
pub(crate) use cpu::long_reads;
use stream::{FETCH_AHEAD_MIN, FETCH_GROUP, fetch_ahead};

/// Runs `f` compiled for the best instruction set the CPU supports; call it
/// through [`simd!`], which marks the closure `#[inline(always)]`.
///
/// Builds with debug assertions (the unoptimised dev and test builds) run `f`
/// as compiled: at opt-level 0 nothing is vectorised anyway, and one copy of
/// each body instead of one per instruction set (pulp's scalar, AVX2 and
/// AVX-512 paths) compiles faster. The results are the same bits: every path
/// does the same IEEE operations, and `mul_add` is fused on each.
#[inline(always)]
pub(crate) fn dispatch<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(not(debug_assertions))]
    return pulp::Arch::new().dispatch(f);
    #[cfg(debug_assertions)]
    f()
}

/// `simd!(expr)` evaluates `expr` compiled for the best instruction set the CPU
/// supports. The expression becomes a closure marked `#[inline(always)]`: pulp's
/// `#[target_feature]` dispatcher gives its instructions only to code inlined
/// into it, and unmarked closures were compiled as separate SSE2 functions.
macro_rules! simd {
    ($body:expr $(,)?) => {
        $crate::kernels::simd::dispatch(
            #[inline(always)]
            || $body,
        )
    };
}
pub(crate) use simd;

/// Folds `xs` into 32 lanes, each starting at `zero`: lane `8j + i` takes the
/// elements at `32c + 8j + i`; returns the lanes and the elements after the
/// last whole group of 32 (fewer than 32), which the caller adds itself.
/// 32 independent lanes hide the add latency. The read is one sequential
/// stream: on Zen 4 a one-thread sum of 10M f32 ran 1.10× faster this way than
/// in four quarters side by side, and of 512 MiB 2.0× faster.
///
/// A long read (from [`FETCH_AHEAD_MIN`]) asks for its lines a page ahead (see
/// [`fetch_ahead`]) on the CPUs whose [`long_reads`] say so: on a Xeon, the
/// two-thread sum of 10M f32 (from L3) 1.94 → 1.13 ms, of 512 MiB 36.4 → 33.2 ms.
#[inline(always)]
pub(crate) fn fold_lanes<T: Copy, A: Copy>(xs: &[T], zero: A, add: impl Fn(A, T) -> A) -> ([[A; 8]; 4], &[T]) {
    let chunks = xs.chunks_exact(32);
    let tail = chunks.remainder();
    let lanes = simd!({
        let mut acc = [[zero; 8]; 4];
        // (a macro, not a closure: one not inlined would lose `simd!`'s instruction set)
        macro_rules! fold {
            ($c:expr) => {
                for (j, lane) in acc.iter_mut().enumerate() {
                    for (i, a) in lane.iter_mut().enumerate() {
                        *a = add(*a, $c[8 * j + i]);
                    }
                }
            };
        }
        if std::mem::size_of_val(xs) >= FETCH_AHEAD_MIN && long_reads().fetch {
            // the prefetches go between groups of chunks: inside the chunk loop they
            // kept it from being vectorised
            let groups = xs.chunks_exact(32 * FETCH_GROUP);
            let rest = groups.remainder();
            for g in groups {
                fetch_ahead(g);
                for c in g.chunks_exact(32) {
                    fold!(c);
                }
            }
            for c in rest.chunks_exact(32) {
                fold!(c);
            }
        } else {
            for c in chunks {
                fold!(c);
            }
        }
        acc
    });
    (lanes, tail)
}

/// Folds four slices of one length side by side, each into its own 8 lanes:
/// lane `8j + i` takes the elements `8c + i` of `xs[j]`, for the whole groups of
/// 8 (the caller adds each slice's last `len % 8` elements itself). Four
/// sequential streams per thread, for the hosts whose memory system serves them
/// faster than one (see [`long_reads`]); with `FETCH`, long reads ask for their
/// lines a page ahead, as [`fold_lanes`]'s do.
#[inline(always)]
pub(crate) fn fold_streams<T: Copy, A: Copy, const FETCH: bool>(
    xs: [&[T]; 4],
    zero: A,
    add: impl Fn(A, T) -> A,
) -> [[A; 8]; 4] {
    // elements per stream between groups of prefetches: four lines of f32
    const GROUP: usize = 64;
    let n = xs.iter().map(|x| x.len()).min().unwrap_or(0);
    let xs = xs.map(|x| &x[..n / 8 * 8]);
    simd!({
        let mut acc = [[zero; 8]; 4];
        // (a macro, not a closure: one not inlined would lose `simd!`'s instruction set)
        macro_rules! fold {
            ($from:expr, $to:expr) => {
                for i in ($from..$to).step_by(8) {
                    for (lane, x) in acc.iter_mut().zip(xs) {
                        for (a, &x) in lane.iter_mut().zip(&x[i..i + 8]) {
                            *a = add(*a, x);
                        }
                    }
                }
            };
        }
        let whole = n / GROUP * GROUP;
        if FETCH && std::mem::size_of::<T>() * n * 4 >= FETCH_AHEAD_MIN {
            for g in (0..whole).step_by(GROUP) {
                for x in xs {
                    fetch_ahead(&x[g..g + GROUP]);
                }
                fold!(g, g + GROUP);
            }
        } else {
            fold!(0, whole);
        }
        fold!(whole, n / 8 * 8);
        acc
    })
}

/// `s` as a slice of `T`, when `S` is `T`.
#[inline(always)]
pub(crate) fn same<S: Element, T: Element>(s: &[S]) -> Option<&[T]> {
    // SAFETY: `Element` is sealed and implemented for exactly one Rust type per
    // dtype, so equal `DTYPE`s mean `S` and `T` are the same type.
    (S::DTYPE == T::DTYPE).then(|| unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<T>(), s.len()) })
}

/// Mutable counterpart of [`same`].
#[inline(always)]
pub(crate) fn same_mut<S: Element, T: Element>(s: &mut [S]) -> Option<&mut [T]> {
    // SAFETY: as in `same`; the borrow of `s` is moved into the result.
    (S::DTYPE == T::DTYPE).then(|| unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<T>(), s.len()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_lanes_gives_each_lane_its_elements_short_or_long() {
        // short (no prefetch) and long (prefetching in groups of chunks where the
        // CPU's long_reads say so), with lengths ending in a whole group, a part
        // group, a part chunk
        let long = FETCH_AHEAD_MIN / 8;
        for n in [0, 31, 32, 100, long, long + 32 * FETCH_GROUP, long + 32 + 7, 3 * long + 129] {
            let xs: Vec<u64> = (0..n as u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
            let (lanes, tail) = fold_lanes(&xs, 0u64, u64::wrapping_add);
            assert_eq!(tail, &xs[n / 32 * 32..], "{n}");
            for (l, &got) in lanes.iter().flatten().enumerate() {
                let want = xs[..n / 32 * 32].iter().skip(l).step_by(32).fold(0u64, |a, &x| a.wrapping_add(x));
                assert_eq!(got, want, "lane {l} of {n}");
            }
        }
    }

    #[test]
    fn fold_streams_gives_each_lane_its_streams_elements() {
        // short (no prefetch) and long (prefetching in groups), lengths ending in a whole
        // group, a part group, a part chunk of 8
        let long = FETCH_AHEAD_MIN / 8 / 4;
        for n in [0, 7, 8, 100, long, long + 64, long + 8 + 5, 3 * long + 129] {
            let xs: Vec<Vec<u64>> = (0..4u64)
                .map(|j| (0..n as u64).map(|i| (i + j * 1_000_003).wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect())
                .collect();
            let fetched = fold_streams::<_, _, true>([0, 1, 2, 3].map(|j| &xs[j][..]), 0u64, u64::wrapping_add);
            let lanes = fold_streams::<_, _, false>([0, 1, 2, 3].map(|j| &xs[j][..]), 0u64, u64::wrapping_add);
            assert_eq!(fetched, lanes, "length {n}");
            for (j, lane) in lanes.iter().enumerate() {
                for (i, &got) in lane.iter().enumerate() {
                    let want = xs[j][..n / 8 * 8].iter().skip(i).step_by(8).fold(0u64, |a, &x| a.wrapping_add(x));
                    assert_eq!(got, want, "lane {i} of stream {j}, length {n}");
                }
            }
        }
    }
}
