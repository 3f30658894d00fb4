//! Timing shared by the threshold sweeps (`par_threshold_sweep`,
//! `einsum_threshold_sweep`).

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
