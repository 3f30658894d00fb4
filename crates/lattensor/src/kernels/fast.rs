//! Vectorisable inner loops for the hot conversions and `exp`.
//!
//! The generic per-element conversions (`Element::cast_into`) are exact but
//! branchy: f16 goes through a software or one-at-a-time hardware path, i32 →
//! f32 through a correctly rounded i64 route, bf16 rounding through branches.
//! Here the common pairs are plain loops the compiler vectorises (or, for
//! f16, `half`'s slice conversions, which use F16C when the CPU has it), and
//! every loop runs inside `pulp`'s dispatch so that AVX2/FMA code is used when
//! the CPU supports it, whatever the build's target features.

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

use crate::DType;
use crate::core::element::Element;

/// Runs `f` compiled for the best instruction set the CPU supports; call it
/// through [`simd!`], which marks the closure `#[inline(always)]`.
#[inline(always)]
pub(crate) fn dispatch<R>(f: impl FnOnce() -> R) -> R {
    pulp::Arch::new().dispatch(f)
}

/// `simd!(expr)` evaluates `expr` compiled for the best instruction set the CPU
/// supports. The expression becomes a closure marked `#[inline(always)]`: pulp's
/// `#[target_feature]` dispatcher gives its instructions only to code inlined
/// into it, and unmarked closures were compiled as separate SSE2 functions.
macro_rules! simd {
    ($body:expr $(,)?) => {
        $crate::kernels::fast::dispatch(
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
/// stream: on the Zen 4 host a single-threaded sum of 10M f32 ran 1.10× faster
/// this way than in four quarters side by side, and of 512 MiB 2.0× faster (four
/// streams had been 2× faster on an earlier Intel host; Zen 4's prefetchers
/// track one stream better than four far-apart ones).
///
/// A long read (from [`FETCH_AHEAD_MIN`]) asks for its lines a page ahead (see
/// [`fetch_ahead`]) on the CPUs whose [`long_reads`] say so. On a Xeon host, old
/// and new builds in turn, medians of 6 rounds (ms): the sum of 10M f32 (from L3)
/// one thread 4.63 → 4.20, two threads 1.94 → 1.13; of 512 MiB (from memory) one
/// thread 63.7 → 58.2, two threads 36.4 → 33.2 (another six rounds: level, 32.8
/// both). Zen 4 reads faster without (see [`long_reads`]).
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

/// How a thread reads a long sum: how many sequential streams side by side
/// (1 or 4), and whether it asks for its lines a page ahead ([`fetch_ahead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LongReads {
    pub streams: usize,
    pub fetch: bool,
}

/// The [`LongReads`] of this CPU, each measured on a host of its kind:
/// - Intel: four streams, each fetched a page ahead. On the Xeon host (a C loop,
///   two threads, best of 6–30 runs, GB/s): 512 MiB 13.6–17.2 with one stream per
///   thread against 17.8–21.9 with four; 40 MB 16.0–18.9 against 22.2–25.7.
/// - AMD Zen 3: four streams, no software fetch. On the Zen 3 host (a C loop,
///   two threads, huge pages, medians of 15–31 runs): 512 MiB 41.6 GB/s with one
///   stream per thread, 51.7 with four a power of two apart, 58.9 with four
///   2 MiB further apart (see `ops::reduce::long_sum`), 51.7 with those also fetched a page
///   ahead; 40 MB (mostly from L3) 0.86 ms with one stream, 0.38–0.40 with four.
/// - Elsewhere (Zen 4 among them) one stream, no software fetch. On the Zen 4
///   host one stream had read 512 MiB 2.0× faster than four (one thread). Later
///   (session 34), the 10M-f32 sum (P7, mostly from L3) alone in its process,
///   medians of 100–200 calls, rounds of the variants in turn: two threads,
///   one stream 391–419 µs unfetched against 408–427 fetched, four streams set
///   apart 396–428 unfetched and 422–453 fetched (five rounds); one thread, one
///   stream 948–1130 against 1100–1240 (four rounds). The 512 MiB sum (E5b),
///   two threads: 14.6–15.1 ms unfetched, 14.5–16.9 fetched, 14.7–15.5 four
///   streams unfetched; one thread 16.5–21.1 against 16.7–25.2.
///
/// `fetch` also rules [`fold_lanes`]' one-stream reads (sums shorter than a
/// long split, einsum's sums); on Zen 3 those had fetched and now do not (not
/// measured there: its four-stream loop was faster without).
pub(crate) fn long_reads() -> LongReads {
    static READS: std::sync::OnceLock<LongReads> = std::sync::OnceLock::new();
    *READS.get_or_init(|| match cpu() {
        Cpu::Intel => LongReads { streams: 4, fetch: true },
        Cpu::Zen3 => LongReads { streams: 4, fetch: false },
        Cpu::Other => LongReads { streams: 1, fetch: false },
    })
}

/// Whether streamed element-wise ops write four regions side by side: on Intel
/// CPUs only (the Xeon host's STREAM loop needed it; the Zen 3 host ran it 1.8×
/// slower than one region).
pub(crate) fn interleave_regions() -> bool {
    cpu() == Cpu::Intel
}

/// The CPU kinds whose memory systems the kernels tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cpu {
    Intel,
    /// AMD family 19h, models 00h–0Fh and 20h–5Fh (Zen 3 and 3+; 10h–1Fh and 60h on are Zen 4 and 5)
    Zen3,
    Other,
}

fn cpu() -> Cpu {
    static CPU: std::sync::OnceLock<Cpu> = std::sync::OnceLock::new();
    *CPU.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::__cpuid;
            let id = __cpuid(0);
            // the vendor string in the order ebx, edx, ecx
            if (id.ebx, id.edx, id.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e) {
                return Cpu::Intel; // "GenuineIntel"
            }
            if (id.ebx, id.edx, id.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163) && id.eax >= 1 {
                // "AuthenticAMD"
                let sig = __cpuid(1).eax;
                let family = ((sig >> 8) & 0xf) + ((sig >> 20) & 0xff);
                let model = ((sig >> 4) & 0xf) | ((sig >> 12) & 0xf0);
                if family == 0x19 && matches!(model, 0x00..=0x0f | 0x20..=0x5f) {
                    return Cpu::Zen3;
                }
            }
        }
        Cpu::Other
    })
}

/// How far ahead (bytes) a long sequential read asks for its lines.
const FETCH_AHEAD: usize = 4096;

/// Chunks of 32 elements per group of prefetches in [`fold_lanes`].
const FETCH_GROUP: usize = 4;

/// Reads shorter than this (bytes) leave prefetching to the hardware.
const FETCH_AHEAD_MIN: usize = 64 << 10;

/// Asks for the cache lines [`FETCH_AHEAD`] bytes past the start of `c`, one
/// per 64 bytes of `c`: a read that streams from memory then has a page's worth
/// of lines in flight ahead of it. A single core's hardware prefetchers keep too
/// few in flight (and stop at 4 KiB boundaries): a one-thread sum of 512 MiB of
/// f32 read 7.7 GB/s without and 8.8–9.3 GB/s with (C, on a Xeon host; 1–8 KiB
/// ahead were alike).
#[inline(always)]
pub(crate) fn fetch_ahead<T>(c: &[T]) {
    for line in (0..std::mem::size_of_val(c)).step_by(64) {
        fetch_line_ahead(c.as_ptr().cast::<u8>().wrapping_add(line));
    }
}

/// Asks for the cache line [`FETCH_AHEAD`] bytes past `p`, for loops over raw
/// pointers (see [`fetch_ahead`]). A hint: `p` need not point anywhere valid.
#[inline(always)]
pub(crate) fn fetch_line_ahead<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        let at = p.cast::<i8>().wrapping_add(FETCH_AHEAD);
        // SAFETY: prefetching is a hint and never faults, whatever the address.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Writes the 64 bytes of `line` to `dst` with streaming stores (SSE2's, which
/// every x86-64 CPU has; four of them fill one write-combining buffer).
///
/// # Safety
/// `dst` is 64-byte aligned with 64 writable bytes that do not overlap `line`,
/// and `line` is 64 bytes long.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn stream_line<T>(dst: *mut T, line: &[T]) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
    let (s, d) = (line.as_ptr().cast::<__m128i>(), dst.cast::<__m128i>());
    for i in 0..4 {
        // SAFETY: the function's contract: 64 bytes at each, `d` aligned.
        unsafe { _mm_stream_si128(d.add(i), _mm_loadu_si128(s.add(i))) };
    }
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
fn same_mut<S: Element, T: Element>(s: &mut [S]) -> Option<&mut [T]> {
    // SAFETY: as in `same`; the borrow of `s` is moved into the result.
    (S::DTYPE == T::DTYPE).then(|| unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<T>(), s.len()) })
}

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

/// Element-wise ops (arithmetic, casts, `exp`) and outer products whose working
/// set (output and inputs) is at least this many bytes write their output with
/// non-temporal (streaming) stores: the smaller of half the largest cache (see
/// [`half_largest_cache`]) and [`SHARED_CACHE_SHARE`].
///
/// Why a cap: a large last-level cache on a server is shared with other
/// tenants and other work, so a working set well under its size still does not
/// stay cached from one op to the next. On the Intel host of sessions 30–32
/// (480 MiB L3, so half of it streamed nothing at 10M elements) plain stores
/// won only in a tight loop of one op on one recycled output: two threads,
/// `profile_workload` alone, medians (µs, plain → streamed): f32 add of 2.5M
/// (30 MB in all) 517–534 → 545–548, 5M 1054–1064 → 1090, 7.5M 1652–1670 →
/// 1670, 10M 2481–2594 → 2194; f16 add of 10M (60 MB) 1074 → 1168–1182; the
/// 4096² outer product (67 MB) 1398–1414 → 1658–1680. Between the other peers'
/// work of one `bench/peers.py` run (session 32) streaming won at every one of
/// those sizes: 10M f32 add 3.49 → 2.31 ms, i32 + f32 3.52 → 2.36, `x + 1.0`
/// 2.05 → 1.63, f16 add level (1.23), outer product 2.49 → 1.71; and so did it
/// in a loop alternating five sizes of f32 add: 1M 393 → 277–312, 2.5M 987 →
/// 685–764, 10M 3932–3946 → 2736–3063. On the Xeon host with a 105 MiB L3
/// (session 24) streaming won from 2.5M f32 (30 MB) up and lost at 1M (12 MB):
/// 1407 → 1326 and 340 → 364. The 300 MiB host of sessions 1–7 measured a tight
/// loop only, on kernels since rewritten: there plain stores won at 80–120 MB.
///
/// `exp` kept half the cache (plain stores at 10M elements on this host) until
/// its streamed loop prefetched its input (session 33, see [`exp_f32_slice`]):
/// before that, streaming made it slower, 3.10 → 3.87 ms in one `peers.py` run.
///
/// Why the working set, not the output alone (as until session 24): on a Xeon
/// host with a 105 MiB L3 shared with other tenants, 10M-element outputs
/// (40 MB f32, 20 MB f16) were below half the L3 and not streamed, yet
/// streaming them was faster, two threads, the same build with the threshold
/// set either way in turn, medians of 6 rounds (µs): f32 `x + y` 5658 → 5066,
/// `x + 1.0` 4453 → 3800, i32 + f32 6571 → 5558, f16 2955 → 2650, bf16 3053 →
/// 2795; 5M f32 2788 → 2603, 2.5M 1407 → 1326. At 1M (4 MB out, 12 MB in all)
/// plain stores were faster: 340 against 364.
pub(crate) fn stream_min_bytes() -> usize {
    half_largest_cache().min(SHARED_CACHE_SHARE)
}

/// The part of a shared last-level cache an op can count on keeping: 16 MiB,
/// which is also half the 32 MiB L3 of the task's Zen 4 (see
/// [`stream_min_bytes`] for the measurements behind it).
const SHARED_CACHE_SHARE: usize = 16 << 20;

/// Half the largest cache's size, read once from sysfs (32 MiB if it cannot be
/// read): a working set that large cannot all stay cached.
fn half_largest_cache() -> usize {
    static MIN: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    #[cfg(test)]
    if tests::FORCE_STREAM.load(std::sync::atomic::Ordering::Relaxed) {
        return 0;
    }
    *MIN.get_or_init(|| largest_cache_bytes().unwrap_or(64 << 20) / 2)
}

/// The size of the CPU's largest data cache, from Linux's sysfs.
fn largest_cache_bytes() -> Option<usize> {
    cache_sizes().map(|(_, bytes)| bytes).max()
}

/// The size of one core's level-2 cache, from Linux's sysfs (1 MiB, Zen 4's,
/// if it cannot be read), read once.
pub(crate) fn l2_bytes() -> usize {
    static L2: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *L2.get_or_init(|| cache_sizes().filter(|&(level, _)| level == 2).map(|(_, b)| b).max().unwrap_or(1 << 20))
}

/// cpu0's caches as (level, bytes), from Linux's sysfs; none if unreadable.
fn cache_sizes() -> impl Iterator<Item = (u32, usize)> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").into_iter().flatten();
    dir.filter_map(|e| {
        let path = e.ok()?.path();
        let read = |file: &str| std::fs::read_to_string(path.join(file)).ok();
        let level = read("level")?.trim().parse().ok()?;
        Some((level, parse_cache_size(read("size")?.trim())?))
    })
}

/// `"48K"`, `"2048K"`, `"300M"` or a plain byte count → bytes.
fn parse_cache_size(s: &str) -> Option<usize> {
    let (digits, unit) = match s.as_bytes().last()? {
        b'K' => (&s[..s.len() - 1], 1 << 10),
        b'M' => (&s[..s.len() - 1], 1 << 20),
        b'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(unit)
}

/// Copies `src` into `dst` (same length) with non-temporal stores of whole
/// 64-byte lines where the CPU has them: the bytes before `dst`'s first
/// line boundary and after its last are copied plainly, so any alignment
/// works. Call [`store_fence`] before other threads read `dst`.
///
/// Whole-line streaming stores matter: measured on this project's host, a
/// 10M-element f32 add written by 16-byte streaming stores ran 1.17× slower
/// than one written by 64-byte ones (the write-combining buffers are flushed
/// as partial lines more often).
#[inline]
pub(crate) fn stream_store<T: Element>(src: &[T], dst: &mut [T]) {
    let n = src.len().min(dst.len());
    #[cfg(target_arch = "x86_64")]
    {
        let bytes = n * std::mem::size_of::<T>();
        let (s, d) = (src.as_ptr().cast::<u8>(), dst.as_mut_ptr().cast::<u8>());
        let head = (d as usize).wrapping_neg() % 64;
        if head < bytes {
            let body = (bytes - head) / 64 * 64;
            // SAFETY: head + body <= bytes, the byte length of both slices, so
            // every range copied below lies inside `src` and inside `dst`, which
            // is exclusively borrowed and does not overlap `src`. `d + head` is
            // 64-byte aligned, as the streaming stores require. Copying the
            // bytes of valid `T`s into the place of `T`s of the same type
            // leaves valid `T`s, even where the head or tail splits an element
            // between two copies.
            unsafe {
                std::ptr::copy_nonoverlapping(s, d, head);
                stream_lines(s.add(head), d.add(head), body);
                std::ptr::copy_nonoverlapping(s.add(head + body), d.add(head + body), bytes - head - body);
            }
            return;
        }
    }
    dst[..n].copy_from_slice(&src[..n]);
}

/// `len` bytes (a multiple of 64) from `s` to the 64-byte-aligned `d` by
/// streaming stores: one 64-byte store per line with AVX-512, else four
/// 16-byte SSE2 ones.
///
/// # Safety
/// `s..s+len` must be readable, `d..d+len` writable and 64-byte aligned, and
/// the two must not overlap.
#[cfg(target_arch = "x86_64")]
unsafe fn stream_lines(s: *const u8, d: *mut u8, len: usize) {
    use std::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_stream_si512};

    #[target_feature(enable = "avx512f")]
    unsafe fn wide(s: *const u8, d: *mut u8, len: usize) {
        for i in (0..len).step_by(64) {
            // SAFETY: i + 64 <= len, and the caller guarantees the ranges and
            // the alignment of d (so of d + i); the CPU has AVX-512F.
            unsafe { _mm512_stream_si512(d.add(i).cast::<__m512i>(), _mm512_loadu_si512(s.add(i).cast::<__m512i>())) };
        }
    }

    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the caller's guarantees; AVX-512F checked above.
        return unsafe { wide(s, d, len) };
    }
    for i in (0..len).step_by(64) {
        // SAFETY: i + 64 <= len (len is a multiple of 64), d + i is 64-byte aligned
        // because d is, and the ranges do not overlap (the caller's guarantees).
        unsafe { stream_line(d.add(i), std::slice::from_raw_parts(s.add(i), 64)) };
    }
}

/// Orders earlier streaming stores before later stores (`sfence`), so that a
/// thread that joins this one sees them.
#[inline]
pub(crate) fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86_64; sfence has no operands.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}

/// 2^(j/16) for j = 0..16, correctly rounded to f64 (computed with mpmath).
const EXP2_SIXTEENTHS: [u64; 16] = [
    0x3ff0000000000000,
    0x3ff0b5586cf9890f,
    0x3ff172b83c7d517b,
    0x3ff2387a6e756238,
    0x3ff306fe0a31b715,
    0x3ff3dea64c123422,
    0x3ff4bfdad5362a27,
    0x3ff5ab07dd485429,
    0x3ff6a09e667f3bcd,
    0x3ff7a11473eb0187,
    0x3ff8ace5422aa0db,
    0x3ff9c49182a3f090,
    0x3ffae89f995ad3ad,
    0x3ffc199bdd85529c,
    0x3ffd5818dcfba487,
    0x3ffea4afa2a490da,
];
/// 1.5·2⁵²: adding it puts round(v) in the low mantissa bits.
const SHIFTER: f64 = 6_755_399_441_055_744.0;
const SIXTEEN_LOG2E: f64 = 23.083_120_654_223_414;
/// ln2/16 rounded to f64: its error, 1.4·10⁻¹⁸, times |n| ≤ 2401 stays below 2⁻⁴⁸.
const LN2_SIXTEENTH: f64 = 0.043_321_698_784_996_58;
/// The degree-5 polynomial with P(0) = 1 of least maximum relative error for
/// eʳ on |r| ≤ 1.001·ln2/32, highest coefficient first (for Horner): 2⁻⁴⁷·⁴ with
/// these f64 coefficients, 22× below the Taylor polynomial's 2⁻⁴²·⁶. (A free
/// constant term would gain little and be 2⁻⁴⁷·⁷ off at r = 0, where tiny x
/// need e^x = 1 + x exactly to within far less.)
/// From `scripts/golden/exp_f32_poly.py` (Remez exchange in mpmath).
const EXP_POLY: [f64; 6] =
    [0.008333163282539833, 0.04166757577055335, 0.16666666681643652, 0.499999999867768, 0.9999999999999822, 1.0];
/// Beyond ±104 every f32 result is inf or 0; clamping there keeps 16·x·log₂e
/// far inside the shifter's range and 2ᵏ inside f64's normal range.
const EXP_CLAMP: f64 = 104.0;

/// `eˣ` for f32, computed in f64 and rounded once: x = (16k + j)·ln2/16 + r with
/// |r| ≤ ln2/32, eˣ = 2ᵏ · (2^(j/16) · P(r)), P the minimax polynomial above.
/// The relative error before the final rounding is below 2⁻⁴⁷, so the result
/// is the correctly rounded f32 unless the exact value lies within 2⁻²³ ulp of
/// a rounding boundary (and then 1 ulp off). Overflow gives +inf, underflow 0
/// or a (once-rounded) subnormal; a NaN comes back quiet with its payload.
///
/// [`exp_f32_slice`]'s AVX-512 loop does the same operations (each FMA is one
/// rounding of the same exact value on both paths, and scaling by 2ᵏ is exact
/// in f64's normal range), so the results are the same bits on every CPU.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
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
    let y = f64::from_bits(EXP2_SIXTEENTHS[(kj & 15) as usize]) * p * two_k;
    if x.is_nan() { f32::from_bits(x.to_bits() | 0x0040_0000) } else { y as f32 }
}

/// [`exp_f32`] of a slice into `dst` (same length): eight-lane f64 arithmetic
/// with AVX-512 when the CPU has it, four-lane with AVX2 and FMA, else the
/// element function in a loop the compiler vectorises (the same bits on every
/// path).
///
/// `stream` (for outputs that [`super::Streaming`] says should stream, as for
/// any element-wise op): the loops write `dst` with streaming stores themselves,
/// then fence; the same bits. (Streaming through a block buffer cost `exp` more
/// than it saved, on Zen 4.) They read `src` a page ahead with software
/// prefetches (see [`fetch_ahead`]) as they go: streamed without them, the
/// hardware prefetchers left the loop waiting on its input. Measured on the
/// Intel AVX-512 host (session 33), 10M f32, one build with each variant in
/// separate processes in turn, three rounds, medians (ms): two threads, plain
/// stores 2.49–2.68, streamed 2.54–2.65, streamed with the prefetches
/// 1.82–1.86; one thread 6.29–6.33, 9.88–10.17 and 3.40–3.46 (the last the
/// loop's arithmetic speed: 65536 values in L2 take the same time per value).
/// The AVX2 loop on the same host (forced), one thread 13.2–13.9 plain, 18.9–30.1
/// streamed, 8.4–8.9 streamed with the prefetches; two threads 5.6–6.5, 5.1 and
/// 4.3–4.6.
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
    simd!(dst.iter_mut().zip(src).for_each(|(d, &s)| *d = exp_f32(s)),);
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256, __m256d, __m256i, _CMP_UNORD_Q, _mm256_add_epi32, _mm256_and_si256, _mm256_blendv_ps, _mm256_castpd_ps,
        _mm256_castps_si256, _mm256_castps256_ps128, _mm256_castsi256_pd, _mm256_castsi256_ps, _mm256_cmp_ps,
        _mm256_cvtpd_ps, _mm256_cvtps_pd, _mm256_extractf128_ps, _mm256_fmadd_pd, _mm256_loadu_ps, _mm256_max_ps,
        _mm256_min_ps, _mm256_mul_pd, _mm256_or_si256, _mm256_permutevar8x32_ps, _mm256_set_m128, _mm256_set1_epi32,
        _mm256_set1_pd, _mm256_set1_ps, _mm256_setr_epi32, _mm256_shuffle_ps, _mm256_slli_epi32, _mm256_storeu_ps,
        _mm256_stream_ps, _mm256_sub_pd, _mm256_unpackhi_epi32, _mm256_unpacklo_epi32,
    };

    use super::{EXP_CLAMP, EXP_POLY, EXP2_SIXTEENTHS, LN2_SIXTEENTH, SHIFTER, SIXTEEN_LOG2E};

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
    /// On the Zen 3 host (`bench/RESULTS.md`, session 28), in L1, TSC cycles per
    /// eight f32: gather and no pipelining 24.3, permutes 19.2 with two stages,
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
            let half = |h: usize| {
                let p = poly[2..].iter().fold(b.p[h], |p, &c| _mm256_fmadd_pd(p, b.r[h], c));
                _mm256_cvtpd_ps(_mm256_mul_pd(b.scaled_entry[h], p))
            };
            let y = _mm256_set_m128(half(1), half(0));
            // a NaN comes back as the input, quieted, as in the element function
            let nan = _mm256_cmp_ps::<_CMP_UNORD_Q>(b.x, b.x);
            let quieted = _mm256_castsi256_ps(_mm256_or_si256(_mm256_castps_si256(b.x), quiet));
            let y = _mm256_blendv_ps(y, quieted, nan);
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
        __m256, __m512d, _mm256_loadu_ps, _mm256_max_ps, _mm256_min_ps, _mm256_set1_ps, _mm256_storeu_ps,
        _mm256_stream_ps, _mm512_castpd_si512, _mm512_cvtpd_ps, _mm512_cvtps_pd, _mm512_fmadd_pd, _mm512_loadu_pd,
        _mm512_mul_pd, _mm512_permutex2var_pd, _mm512_scalef_pd, _mm512_set1_pd, _mm512_sub_pd,
    };

    use super::{EXP_CLAMP, EXP_POLY, EXP2_SIXTEENTHS, LN2_SIXTEENTH, SHIFTER, SIXTEEN_LOG2E};

    /// Eight f32 reduced, waiting for their polynomial: `r`, `b = n/16` (for
    /// `vscalefpd`) and the table entry 2^(j/16).
    #[derive(Clone, Copy)]
    struct Reduced {
        r: __m512d,
        b: __m512d,
        entry: __m512d,
    }

    /// How many blocks of eight the loop keeps reduced ahead of the ones it
    /// finishes (see [`exp_f32`]).
    const RING: usize = 5;

    /// The operations of [`super::exp_f32`], eight lanes at a time, in 16 vector
    /// instructions (14 of them arithmetic):
    ///
    /// - the clamp, on the eight f32 before they are widened, passes a NaN
    ///   through (widening quiets it), and every later step keeps its payload:
    ///   no blend;
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
    /// values. On the Zen 4 host, one thread, the loop alone in a scratch probe,
    /// ns per value in L1, three runs each: session 37, with `b` from an FMA
    /// (`t/16 − 1.5·2⁴⁸` against 1.5·2⁵²), plain 0.458–0.469, rings of two
    /// 0.414–0.442, three 0.398–0.423, four 0.375–0.393, six 0.420–0.449;
    /// through `profile_workload exp:f32:16384` (L2, the op's overhead
    /// included), builds alternated, 7.5 → 6.4 µs, and P6 (10M, two threads)
    /// 2.26–2.28 → 1.94 ms. Session 38, `b` by the subtraction, in L1 and L2:
    /// rings of three 0.384–0.395, four 0.368–0.380, five 0.361–0.367 (0.386 in
    /// one round), six 0.363–0.379, against 0.372–0.380 (up to 0.400 in three of
    /// 16 rounds) for the four-ring with the FMA in the same runs. All
    /// 2³² inputs give the same bits as the plain loop (the probe compared them).
    ///
    /// `STREAM`: the results go out by streaming stores (`vmovntps`), whole
    /// 64-byte lines (16 values) per pair of stores, once `dst` is 64-byte
    /// aligned (the elements before that by the scalar function), and each
    /// step's input is asked for a page ahead (see [`super::exp_f32_slice`] for
    /// why and what it gained).
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn exp_f32<const STREAM: bool>(src: &[f32], dst: &mut [f32]) {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        // streamed, whole 64-byte lines: the head goes element by element
        let head = if STREAM { d.align_offset(64).min(n) } else { 0 };
        for j in 0..head {
            dst[j] = super::exp_f32(src[j]);
        }
        let table = EXP2_SIXTEENTHS.as_ptr().cast::<f64>();
        // SAFETY: the table has 16 f64-sized entries: two 8-lane loads at 0 and 8 read inside it.
        let (lo_tbl, hi_tbl) = unsafe { (_mm512_loadu_pd(table), _mm512_loadu_pd(table.add(8))) };
        let (lo, hi) = (_mm256_set1_ps(-EXP_CLAMP as f32), _mm256_set1_ps(EXP_CLAMP as f32));
        // the scalar's shifter and 16·log₂e, both divided by 16 (exactly)
        let (shifter, log2e) = (_mm512_set1_pd(SHIFTER / 16.0), _mm512_set1_pd(SIXTEEN_LOG2E / 16.0));
        // −ln2, not `fnmadd` against ln2: the same exact product and sum, but the intrinsic
        // negates its first operand separately in unoptimised builds, flipping a NaN's sign.
        let neg_ln2 = _mm512_set1_pd(-16.0 * LN2_SIXTEENTH);
        let poly = EXP_POLY.map(|c| _mm512_set1_pd(c));
        let reduce = |i: usize| -> Reduced {
            // SAFETY: the callers pass i + 8 <= n, the length of both slices: eight f32 inside `src`.
            let x = unsafe { _mm256_loadu_ps(s.add(i)) };
            // vmaxps/vminps return their second operand when either is NaN: x goes second.
            // Clamped before widening (±104 is exact in both), on 256 bits: one instruction
            // fewer per 8 values than on the widened 512 bits, the same bits out.
            let xd = _mm512_cvtps_pd(_mm256_min_ps(hi, _mm256_max_ps(lo, x)));
            // t = 1.5·2⁴⁸ + n/16, rounded where the scalar's 1.5·2⁵² + n is (scaling by 16
            // commutes with rounding): its last four bits are n mod 16, and b = n/16 exactly
            let t = _mm512_fmadd_pd(xd, log2e, shifter);
            let b = _mm512_sub_pd(t, shifter);
            let r = _mm512_fmadd_pd(b, neg_ln2, xd);
            // the permute reads each lane's index bits 3..0, t's low bits = n mod 16
            let entry = _mm512_permutex2var_pd(lo_tbl, _mm512_castpd_si512(t), hi_tbl);
            Reduced { r, b, entry }
        };
        let finish = |v: Reduced| -> __m256 {
            let mut p = poly[0];
            for &c in &poly[1..] {
                p = _mm512_fmadd_pd(p, v.r, c);
            }
            _mm512_cvtpd_ps(_mm512_scalef_pd(_mm512_mul_pd(v.entry, p), v.b))
        };
        let store = |i: usize, y: __m256| {
            // SAFETY: the callers pass i + 8 <= n, the length of both slices: eight f32
            // inside `dst`; when streaming, d + i is 32-byte aligned (d + head is 64-byte
            // aligned, and i - head is a multiple of 8 f32).
            unsafe {
                if STREAM {
                    _mm256_stream_ps(d.add(i), y);
                } else {
                    _mm256_storeu_ps(d.add(i), y);
                }
            }
        };
        let mut i = head;
        if n - i >= 2 * 8 * RING {
            let mut ring: [Reduced; RING] = std::array::from_fn(|k| reduce(i + 8 * k));
            // each step reads up to i + 16·RING: inside `src`
            while i + 2 * 8 * RING <= n {
                if STREAM {
                    // two whole lines a step, each asked for a page ahead
                    super::fetch_ahead(&src[i..i + 8 * RING]);
                }
                for (k, v) in ring.iter_mut().enumerate() {
                    store(i + 8 * k, finish(*v));
                    *v = reduce(i + 8 * (k + RING));
                }
                i += 8 * RING;
            }
            for (k, v) in ring.into_iter().enumerate() {
                store(i + 8 * k, finish(v));
            }
            i += 8 * RING;
        }
        while i + 8 <= n {
            store(i, finish(reduce(i)));
            i += 8;
        }
        for j in i..n {
            dst[j] = super::exp_f32(src[j]);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Makes every output take the streaming path, so that tests exercise it
    /// on hosts whose caches are larger than the tests' tensors. Streaming
    /// changes no result, so tests running meanwhile are unaffected.
    pub(crate) static FORCE_STREAM: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    #[test]
    fn cache_sizes_parse() {
        assert_eq!(parse_cache_size("48K"), Some(48 << 10));
        assert_eq!(parse_cache_size("307200K"), Some(300 << 20));
        assert_eq!(parse_cache_size("2M"), Some(2 << 20));
        assert_eq!(parse_cache_size("4096"), Some(4096));
        assert_eq!(parse_cache_size("K"), None);
        assert_eq!(parse_cache_size(""), None);
        assert_eq!(parse_cache_size("99999999999999999999G"), None);
        assert!(stream_min_bytes() >= 1 << 10 || FORCE_STREAM.load(std::sync::atomic::Ordering::Relaxed));
    }

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

    #[test]
    fn stream_store_copies_every_byte_at_every_alignment() {
        // lengths around the 64-byte line, destinations at every offset in a line
        let src: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut buf = vec![0u8; 1200];
        for off in 0..64 {
            for len in [0, 1, 15, 63, 64, 65, 127, 128, 129, 500, 1000] {
                buf.fill(0);
                let d = &mut buf[off..off + len];
                stream_store(&src[..len], d);
                store_fence();
                assert_eq!(&buf[off..off + len], &src[..len], "offset {off}, length {len}");
                assert!(buf[..off].iter().chain(&buf[off + len..]).all(|&b| b == 0), "outside the range");
            }
        }
        // wide elements split between head, body and tail
        let c: Vec<num_complex::Complex<f64>> =
            (0..77).map(|i| num_complex::Complex::new(i as f64, -(i as f64))).collect();
        let mut out = vec![num_complex::Complex::new(0.0, 0.0); 80];
        for off in 0..3 {
            stream_store(&c, &mut out[off..off + 77]);
            store_fence();
            assert_eq!(&out[off..off + 77], &c[..]);
        }
    }

    /// Distance in ulps between two finite f32 of the same sign (or both zero).
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    /// The f32 inputs whose exp the kernel rounds the wrong way (1 ulp off), found by
    /// `exp_matches_the_correctly_rounded_value_on_every_f32`: each exact value lies
    /// within 2⁻⁴⁷·⁶ (relative) of a rounding boundary, checked with mpmath.
    const EXP_HARD_CASES: [u32; 11] = [
        0xbbb7_0ee8,
        0xbbf0_edf1,
        0x3c97_1aaa,
        0x3caf_fe2e,
        0xbfbf_a14b,
        0x3fe6_7199,
        0x4034_d02b,
        0xc169_12cd,
        0x4288_942b,
        0x428a_94c5,
        0xc2b2_e798,
    ];

    /// `exp` of `x` correctly rounded to f32, from the system's f64 `exp`: its error,
    /// under 1 f64 ulp, can flip the f32 rounding only for exact values within 2⁻²⁸
    /// f32 ulp of a boundary, and none of the mismatches the tests count is one (mpmath).
    fn exp_reference(x: f32) -> f32 {
        (x as f64).exp() as f32
    }

    #[test]
    fn exp_is_correctly_rounded_apart_from_the_listed_hard_cases() {
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
            let hard = EXP_HARD_CASES.contains(&x.to_bits());
            assert!(
                hard || got.to_bits() == exp_reference(x).to_bits(),
                "exp({x:e}) = {got:e}, want {:e}",
                exp_reference(x)
            );
        }
        for bits in EXP_HARD_CASES {
            let x = f32::from_bits(bits);
            assert_eq!(ulps(exp_f32(x), exp_reference(x)), 1, "exp({x:e})");
        }
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(0.0), 1.0);
        // NaNs come back quiet, payload and sign kept
        for bits in [0x7fc0_0000u32, 0xffc0_0001, 0x7f80_0001, 0xff80_1234, 0x7fbf_ffff] {
            assert_eq!(exp_f32(f32::from_bits(bits)).to_bits(), bits | 0x0040_0000, "{bits:#x}");
        }
    }

    /// All 2³² inputs through the vector kernel (32 s in release mode here:
    /// `cargo test --release -p lattensor --lib exp_matches -- --ignored`).
    #[test]
    #[ignore = "exhaustive: 2^32 inputs"]
    fn exp_matches_the_correctly_rounded_value_on_every_f32() {
        let mut wrong = Vec::new();
        let mut xs = vec![0f32; 1 << 24];
        let mut ys = vec![0f32; 1 << 24];
        for hi in 0..=255u32 {
            xs.iter_mut().enumerate().for_each(|(i, x)| *x = f32::from_bits(hi << 24 | i as u32));
            exp_f32_slice(&xs, &mut ys, false);
            for (&x, &y) in xs.iter().zip(&ys) {
                if !x.is_nan() && y.to_bits() != exp_reference(x).to_bits() {
                    wrong.push(x.to_bits());
                }
            }
        }
        let mut want = EXP_HARD_CASES.to_vec();
        want.sort_unstable();
        assert_eq!(wrong, want);
    }

    #[test]
    fn exp_slice_matches_the_element_function_bit_for_bit() {
        let xs: Vec<f32> = (0..u32::MAX)
            .step_by(40_009)
            .map(f32::from_bits)
            .chain([f32::NAN, -f32::NAN, f32::from_bits(0x7f80_0001), 89.0, -104.0, 88.72284, -0.0])
            .collect();
        let mut got = vec![0f32; xs.len()];
        // offsets 0..=40 so that every tail length of the 8-wide loops and of the
        // AVX-512 loop's 40-value steps is used (and, streamed, every head length
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
