//! Timing shared by the threshold sweeps (`par_threshold_sweep`,
//! `einsum_threshold_sweep`) and the overhead probes (`tape_overhead`,
//! `compare_overhead`).

use std::time::{Duration, Instant};

/// The median of `reps` timed calls of `f`, in microseconds, each after an
/// idle `gap` (none when zero): a caller's view, helpers spinning or not.
pub fn median_us(mut f: impl FnMut(), gap: Duration, reps: usize) -> f64 {
    let mut ts = Vec::with_capacity(reps);
    for _ in 0..reps {
        if !gap.is_zero() {
            std::thread::sleep(gap);
        }
        let t = Instant::now();
        f();
        ts.push(t.elapsed().as_secs_f64() * 1e6);
    }
    ts.sort_by(f64::total_cmp);
    ts[reps / 2]
}

/// The median of 15 blocks of back-to-back calls of `f`, in nanoseconds per
/// call, after 1000 warm-up calls; a block lasts about 20 ms.
pub fn ns_per_call(mut f: impl FnMut()) -> f64 {
    for _ in 0..1000 {
        f();
    }
    // calls in 5 ms, to size a block to ~20 ms
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed().as_millis() < 5 {
        f();
        n += 1;
    }
    let per = (t.elapsed().as_secs_f64() / n as f64).max(1e-9);
    let k = ((0.02 / per) as u64).max(1);
    let mut blocks: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..k {
                f();
            }
            t.elapsed().as_secs_f64() * 1e9 / k as f64
        })
        .collect();
    blocks.sort_by(f64::total_cmp);
    blocks[blocks.len() / 2]
}
