//! The host's own memory-bandwidth limits, measured in the same run as the
//! workloads: hand-written STREAM kernels over exactly a workload's bytes.
//!
//! `perf_baselines.md` gives the limits of the host the task was specified on
//! (a Zen 4 with 36–47 GB/s on two cores); later hosts differ (a Xeon VM whose
//! tenants share its memory read 12–25 GB/s), and the same host drifts by 1.5×
//! within an hour. A fixed table then says little about how close an op comes to
//! the machine. These kernels are the best case an element-wise op can reach:
//! f32 AVX-512 loops on buffers allocated and touched once (no page faults),
//! split into one contiguous range per thread, the threads started once per
//! measurement and meeting at a spin barrier between calls (no wake-ups), in the
//! fastest of up to eight variants: regular or streaming (non-temporal) stores,
//! with or without software prefetches a page ahead of each input (the hardware
//! prefetchers of one core keep too few lines in flight on some hosts), each
//! thread's range read as one sequential stream or as four side by side.
//!
//! Each kind moves `bytes` per call, counted as STREAM counts (every element read
//! or written once): `add` `c = a + b` (12 bytes an element), `copy` `c = a` (8),
//! `read` a sum (4), `fill` `c = s` (4).

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// A STREAM kernel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    Add,
    Copy,
    Read,
    Fill,
}

impl std::str::FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "add" => Ok(Kind::Add),
            "copy" => Ok(Kind::Copy),
            "read" => Ok(Kind::Read),
            "fill" => Ok(Kind::Fill),
            _ => Err(format!("unknown STREAM kernel {s:?} (add, copy, read or fill)")),
        }
    }
}

impl Kind {
    /// Bytes moved per element: (input arrays, output arrays) × 4.
    fn arrays(self) -> (usize, usize) {
        match self {
            Kind::Add => (2, 1),
            Kind::Copy => (1, 1),
            Kind::Read => (1, 0),
            Kind::Fill => (0, 1),
        }
    }
}

/// How a kernel stores and fetches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Variant {
    /// Streaming (non-temporal) stores.
    nt: bool,
    /// Software prefetches [`AHEAD`] bytes ahead of each input.
    prefetch: bool,
    /// Sequential streams per thread, read side by side: 1 or 4.
    streams: usize,
}

/// How far ahead the prefetching variants ask for their inputs' lines.
const AHEAD: usize = 4096;

/// Buffers for one (kind, bytes), kept between calls, and the variant found fastest.
struct Run {
    inputs: Vec<AlignedF32>,
    output: Option<AlignedF32>,
    variant: Option<Variant>,
}

/// The measurements' buffers, by kind and size.
#[derive(Default)]
pub struct Limits {
    runs: HashMap<(Kind, usize), Run>,
}

impl Limits {
    /// `k` calls of `kind` moving about `bytes` each: (nanoseconds for all `k`, bytes
    /// moved per call, the variant used, e.g. `nt+prefetch`, `regular`, `none`).
    pub fn run(&mut self, kind: Kind, bytes: usize, k: usize) -> (u128, usize, String) {
        let (ins, outs) = kind.arrays();
        // whole vectors per thread: every range starts 64-byte aligned
        let n = (bytes / (4 * (ins + outs)) / 64 * 64).max(64);
        let run = self.runs.entry((kind, n)).or_insert_with(|| Run {
            inputs: (0..ins).map(|i| AlignedF32::filled(n, i as f32 + 0.5)).collect(),
            output: (outs > 0).then(|| AlignedF32::filled(n, 0.25)),
            variant: None,
        });
        let threads = threads();
        let variant = match run.variant {
            Some(v) => v,
            None => {
                // the fastest, by the best of 3 calls each, after a warm-up call
                let stores: &[bool] = if outs == 0 { &[false] } else { &[false, true] };
                let prefetches: &[bool] = if ins == 0 { &[false] } else { &[false, true] };
                let mut variants = Vec::new();
                for &nt in stores {
                    for &prefetch in prefetches {
                        for streams in [1, 4] {
                            variants.push(Variant { nt, prefetch, streams });
                        }
                    }
                }
                let _ = time_calls(kind, run, variants[0], threads, 1);
                let best = |v: Variant, run: &mut Run| (0..3).map(|_| time_calls(kind, run, v, threads, 1)).min();
                let v = variants.iter().copied().min_by_key(|&v| best(v, run)).unwrap_or(variants[0]);
                run.variant = Some(v);
                v
            }
        };
        let ns = time_calls(kind, run, variant, threads, k.max(1));
        let mut name = String::from(match (outs, variant.nt) {
            (0, _) => "plain",
            (_, true) => "nt",
            (_, false) => "regular",
        });
        if variant.prefetch {
            name += "+prefetch";
        }
        if variant.streams > 1 {
            name += &format!("+{}streams", variant.streams);
        }
        (ns, n * 4 * (ins + outs), name)
    }
}

/// The threads lattensor uses (`LATTENSOR_NUM_THREADS`, else every CPU).
pub fn threads() -> usize {
    std::env::var("LATTENSOR_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `k` calls on `threads` pinned threads (started once, a spin barrier between
/// calls); nanoseconds from the end of a warm-up call to the end of the last.
fn time_calls(kind: Kind, run: &mut Run, v: Variant, threads: usize, k: usize) -> u128 {
    let n = run.output.as_ref().map_or_else(|| run.inputs[0].len(), |o| o.len());
    let per = (n / threads).div_ceil(16) * 16;
    let inputs: Vec<&[f32]> = run.inputs.iter().map(|b| b.as_slice()).collect();
    let mut output: Option<&mut [f32]> = run.output.as_mut().map(|o| o.as_mut_slice());
    let shares: Vec<_> = (0..threads)
        .map(|t| {
            let lo = (t * per).min(n);
            let hi = ((t + 1) * per).min(n);
            let ins: Vec<&[f32]> = inputs.iter().map(|b| &b[lo..hi]).collect();
            let mut out = match output.take() {
                Some(o) => {
                    let (mine, rest) = o.split_at_mut(hi - lo);
                    output = Some(rest);
                    Some(mine)
                }
                None => None,
            };
            move || {
                black_box(kernel(kind, &ins, out.as_deref_mut(), v));
            }
        })
        .collect();
    timed_on_threads(shares, k)
}

/// Runs `shares[t]` on pinned thread t, `k` calls each after a warm-up call,
/// the threads started once and meeting at a spin barrier after every call (no
/// wake-ups); nanoseconds from the end of the warm-up call to the end of the last.
pub fn timed_on_threads<F: FnMut() + Send>(shares: Vec<F>, k: usize) -> u128 {
    let threads = shares.len();
    let arrived = AtomicUsize::new(0);
    let elapsed = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for (t, mut share) in shares.into_iter().enumerate() {
            let (arrived, elapsed) = (&arrived, &elapsed);
            s.spawn(move || {
                super::pin(t);
                let mut start = None;
                // call 0 warms up (and waits for every thread to start)
                for call in 0..=k {
                    share();
                    arrived.fetch_add(1, Ordering::AcqRel);
                    while arrived.load(Ordering::Acquire) < threads * (call + 1) {
                        std::hint::spin_loop();
                    }
                    if call == 0 {
                        start = Some(Instant::now());
                    }
                }
                if t == 0 {
                    let ns = start.map_or(0, |s| s.elapsed().as_nanos());
                    elapsed.store(ns as usize, Ordering::Release);
                }
            });
        }
    });
    elapsed.load(Ordering::Acquire) as u128
}

/// One call's share: the kernel on this thread's range. Returns the sum for `read`.
fn kernel(kind: Kind, ins: &[&[f32]], out: Option<&mut [f32]>, v: Variant) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: AVX-512F was just detected.
        return unsafe {
            match (v.nt, v.prefetch, v.streams) {
                (false, false, 1) => avx512::kernel::<false, false, 1>(kind, ins, out),
                (false, true, 1) => avx512::kernel::<false, true, 1>(kind, ins, out),
                (true, false, 1) => avx512::kernel::<true, false, 1>(kind, ins, out),
                (true, true, 1) => avx512::kernel::<true, true, 1>(kind, ins, out),
                (false, false, _) => avx512::kernel::<false, false, 4>(kind, ins, out),
                (false, true, _) => avx512::kernel::<false, true, 4>(kind, ins, out),
                (true, false, _) => avx512::kernel::<true, false, 4>(kind, ins, out),
                (true, true, _) => avx512::kernel::<true, true, 4>(kind, ins, out),
            }
        };
    }
    let _ = v;
    match (kind, out) {
        (Kind::Add, Some(c)) => c.iter_mut().zip(ins[0].iter().zip(ins[1])).for_each(|(c, (a, b))| *c = a + b),
        (Kind::Copy, Some(c)) => c.copy_from_slice(ins[0]),
        (Kind::Fill, Some(c)) => c.fill(1.5),
        (Kind::Read, _) => {
            let mut acc = [0f32; 16];
            for chunk in ins[0].chunks_exact(16) {
                acc.iter_mut().zip(chunk).for_each(|(a, x)| *a += x);
            }
            return acc.iter().sum();
        }
        _ => {}
    }
    0.0
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{AHEAD, Kind};
    use std::arch::x86_64::*;

    /// `NT`: streaming stores; `PREFETCH`: prefetches [`AHEAD`] bytes ahead; `S`
    /// (1 or 4): sequential streams read side by side, the range cut into `S` parts
    /// (each part's elements `i..i + 64` in turn, then the next 64).
    ///
    /// # Safety
    /// AVX-512F is available. `ins` and `out` have one length; `out` (when `NT`)
    /// starts 64-byte aligned.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn kernel<const NT: bool, const PREFETCH: bool, const S: usize>(
        kind: Kind,
        ins: &[&[f32]],
        out: Option<&mut [f32]>,
    ) -> f32 {
        let n = out.as_ref().map_or_else(|| ins.first().map_or(0, |a| a.len()), |c| c.len());
        let a = ins.first().map_or(std::ptr::null(), |a| a.as_ptr());
        let b = ins.get(1).map_or(std::ptr::null(), |b| b.as_ptr());
        let c = out.map_or(std::ptr::null_mut(), |c| c.as_mut_ptr());
        let fill = _mm512_set1_ps(1.5);
        // one vector at element i (i + 16 ≤ n); a line fetched ahead per input vector
        let step = |i: usize, acc: &mut __m512| {
            // SAFETY: i + 16 ≤ n, the length of every input and of the output (which
            // `kind` reads or writes only if it has it); a store's address is 16
            // elements inside `out`, 64-byte aligned when `NT` (`out` starts aligned
            // and i is a multiple of 16); prefetches are hints, never faults.
            unsafe {
                if PREFETCH && !a.is_null() {
                    _mm_prefetch::<_MM_HINT_T0>(a.add(i).cast::<i8>().wrapping_add(AHEAD));
                    if !b.is_null() {
                        _mm_prefetch::<_MM_HINT_T0>(b.add(i).cast::<i8>().wrapping_add(AHEAD));
                    }
                }
                match kind {
                    Kind::Add => {
                        store(c.add(i), _mm512_add_ps(_mm512_loadu_ps(a.add(i)), _mm512_loadu_ps(b.add(i))), NT)
                    }
                    Kind::Copy => store(c.add(i), _mm512_loadu_ps(a.add(i)), NT),
                    Kind::Fill => store(c.add(i), fill, NT),
                    // four accumulators: one would wait on the add's latency, not on memory
                    Kind::Read => *acc = _mm512_add_ps(*acc, _mm512_loadu_ps(a.add(i))),
                }
            }
        };
        let mut acc = [_mm512_setzero_ps(); 4];
        let part = n / S / 64 * 64;
        for i in (0..part).step_by(64) {
            for q in 0..S {
                for (j, acc) in acc.iter_mut().enumerate() {
                    step(q * part + i + 16 * j, acc);
                }
            }
        }
        for i in (S * part..n / 16 * 16).step_by(16) {
            step(i, &mut acc[0]);
        }
        if NT {
            _mm_sfence();
        }
        _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(acc[0], acc[1]), _mm512_add_ps(acc[2], acc[3])))
    }

    /// # Safety
    /// AVX-512F is available; `p` has 16 writable elements, 64-byte aligned if `nt`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn store(p: *mut f32, v: __m512, nt: bool) {
        // SAFETY: the function's contract.
        unsafe { if nt { _mm512_stream_ps(p, v) } else { _mm512_storeu_ps(p, v) } }
    }
}

/// An f32 buffer whose first element is 64-byte aligned, touched once when made.
struct AlignedF32 {
    words: Vec<f32>,
    start: usize,
    len: usize,
}

impl AlignedF32 {
    fn filled(len: usize, value: f32) -> Self {
        let words = vec![value; len + 16];
        let start = words.as_ptr().align_offset(64).min(16);
        AlignedF32 { words, start, len }
    }
    fn len(&self) -> usize {
        self.len
    }
    fn as_slice(&self) -> &[f32] {
        &self.words[self.start..self.start + self.len]
    }
    fn as_mut_slice(&mut self) -> &mut [f32] {
        &mut self.words[self.start..self.start + self.len]
    }
}
