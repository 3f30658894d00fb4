//! Where splitting an element-wise op or a sum between threads starts to pay:
//! times `x + y`, `exp(x)` and the sum of `x` (f32) for sizes 2¹⁴…2²⁰, back to
//! back and after a 200 µs idle gap (the helpers still spin then), as a caller
//! of lattensor's ops sees it. Run it with one thread and with two and compare
//! the medians size by size; `kernels::PAR_MIN` sits where two threads win.
//!
//! ```text
//! LATTENSOR_NUM_THREADS=1 cargo run --release -p lattensor --example par_threshold_sweep
//! LATTENSOR_NUM_THREADS=2 cargo run --release -p lattensor --example par_threshold_sweep
//! ```

use lattensor::{Tensor, ops};
use std::time::{Duration, Instant};

fn median_us(mut f: impl FnMut(), gap: Duration) -> f64 {
    let mut ts = Vec::with_capacity(301);
    for _ in 0..301 {
        if !gap.is_zero() {
            std::thread::sleep(gap);
        }
        let t = Instant::now();
        f();
        ts.push(t.elapsed().as_secs_f64() * 1e6);
    }
    ts.sort_by(f64::total_cmp);
    ts[150]
}

fn main() {
    for shift in 14..=20 {
        let n = 1usize << shift;
        let x = Tensor::from_vec((0..n).map(|i| (i % 1000) as f32 * 1e-3).collect::<Vec<f32>>(), &[n]).expect("x");
        let y = Tensor::from_vec((0..n).map(|i| (i % 777) as f32).collect::<Vec<f32>>(), &[n]).expect("y");
        for gap_us in [0u64, 200] {
            let gap = Duration::from_micros(gap_us);
            let add = median_us(|| drop(std::hint::black_box(ops::add(&x, &y).expect("add"))), gap);
            let exp = median_us(|| drop(std::hint::black_box(ops::exp(&x).expect("exp"))), gap);
            let sum = median_us(|| drop(std::hint::black_box(ops::reduce_sum(&x, None, false).expect("sum"))), gap);
            println!("2^{shift} gap {gap_us:>3} us: add {add:>8.1} us  exp {exp:>8.1} us  sum {sum:>8.1} us");
        }
    }
}
