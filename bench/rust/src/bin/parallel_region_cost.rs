//! What a parallel region costs a caller: sums of f32 timed back to back and
//! after idle gaps, as a caller of lattensor's ops sees them. 2¹⁸ elements is
//! twice the smallest job that `kernels::PAR_MIN` lets split, too short to wake
//! napping helpers for; 2²³ is long enough that its caller wakes them, steered
//! off its own CPU (`kernels/pool.rs`, `steer`). Run it with one thread and with
//! two and compare:
//!
//! ```text
//! LATTENSOR_NUM_THREADS=1 cargo run --release -p lattensor-bench --bin parallel_region_cost
//! LATTENSOR_NUM_THREADS=2 cargo run --release -p lattensor-bench --bin parallel_region_cost
//! ```
//!
//! A gap longer than the helpers' spin (`LATTENSOR_SPIN_US`, 500 µs by default)
//! finds them napping: the short sum runs without them, the long one wakes them.

use std::time::Instant;

fn main() {
    for (log2, calls) in [(18u32, 200usize), (23, 40)] {
        let n = 1usize << log2;
        let x =
            lattensor::Tensor::from_vec((0..n).map(|i| (i % 1000) as f32).collect::<Vec<f32>>(), &[n]).expect("tensor");
        for gap_us in [0u64, 50, 200, 1000, 5000, 20000] {
            let mut ts = vec![];
            for _ in 0..calls {
                if gap_us > 0 {
                    // idle, as a program between ops would be
                    std::thread::sleep(std::time::Duration::from_micros(gap_us));
                }
                let t = Instant::now();
                let s = lattensor::ops::reduce_sum(&x, None, false).expect("sum");
                std::hint::black_box(s);
                ts.push(t.elapsed().as_secs_f64() * 1e6);
            }
            ts.sort_by(f64::total_cmp);
            let (median, p90) = (ts[calls / 2], ts[calls * 9 / 10]);
            println!("gap {gap_us:>5} us: sum of 2^{log2} f32 median {median:.1} us, p90 {p90:.1} us");
        }
    }
}
