//! Measures what an empty two-way rayon region costs when called from a thread
//! outside the pool (as a caller of lattensor's ops is), back to back and after
//! an idle gap. The thresholds in `kernels::PAR_MIN` and einsum's product
//! threading come from this: on the Zen 4 host (a VM), 21–25 µs back to back,
//! ~75 µs after 1 ms idle.
//!
//! `cargo run --release -p lattensor --example parallel_region_cost`

use rayon::prelude::*;
use std::time::Instant;
fn main() {
    for gap_us in [0u64, 50, 200, 1000] {
        let mut ts = vec![];
        for _ in 0..200 {
            if gap_us > 0 {
                let t = Instant::now();
                while t.elapsed().as_micros() < gap_us as u128 {
                    std::hint::spin_loop();
                }
            }
            let t = Instant::now();
            (0..2usize).into_par_iter().for_each(|i| {
                std::hint::black_box(i);
            });
            ts.push(t.elapsed().as_secs_f64() * 1e6);
        }
        ts.sort_by(f64::total_cmp);
        println!("gap {gap_us} us: empty 2-way region median {:.1} us, p90 {:.1} us", ts[100], ts[180]);
    }
}
