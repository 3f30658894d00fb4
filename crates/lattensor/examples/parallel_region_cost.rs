//! What a parallel region costs a caller: the sum of 2¹⁸ f32 (twice the smallest job
//! that `kernels::PAR_MIN` lets split) timed back to back and after idle gaps,
//! as a caller of lattensor's ops sees it. Run it with one thread and with two
//! and compare:
//!
//! ```text
//! LATTENSOR_NUM_THREADS=1 cargo run --release -p lattensor --example parallel_region_cost
//! LATTENSOR_NUM_THREADS=2 cargo run --release -p lattensor --example parallel_region_cost
//! ```
//!
//! A gap longer than the helpers' spin (`LATTENSOR_SPIN_US`, 500 µs by default)
//! finds them parked, and the region pays for waking a vCPU.

use std::time::Instant;

fn main() {
    let n = 1 << 18;
    let x = lattensor::Tensor::from_vec((0..n).map(|i| (i % 1000) as f32).collect::<Vec<f32>>(), &[n]).expect("tensor");
    for gap_us in [0u64, 50, 200, 1000, 5000] {
        let mut ts = vec![];
        for _ in 0..200 {
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
        println!("gap {gap_us:>4} us: sum of 2^18 f32 median {:.1} us, p90 {:.1} us", ts[100], ts[180]);
    }
}
