//! Where splitting an element-wise op or a sum between threads starts to pay:
//! times `x + y`, `exp(x)` and the sum of `x` (f32) for sizes 2¹⁴…2²⁰, back to
//! back and after a 200 µs idle gap (the helpers still spin then), as a caller
//! of lattensor's ops sees it. Run it with one thread and with two and compare
//! the medians size by size; `kernels::PAR_MIN` sits where two threads win.
//!
//! ```text
//! LATTENSOR_NUM_THREADS=1 cargo run --release -p lattensor-bench --bin par_threshold_sweep
//! LATTENSOR_NUM_THREADS=2 cargo run --release -p lattensor-bench --bin par_threshold_sweep
//! ```

use lattensor::{Tensor, ops};
use lattensor_bench::sweep_timing::median_us;
use std::time::Duration;

fn main() {
    for shift in 14..=20 {
        let n = 1usize << shift;
        let x = Tensor::from_vec((0..n).map(|i| (i % 1000) as f32 * 1e-3).collect::<Vec<f32>>(), &[n]).expect("x");
        let y = Tensor::from_vec((0..n).map(|i| (i % 777) as f32).collect::<Vec<f32>>(), &[n]).expect("y");
        for gap_us in [0u64, 200] {
            let gap = Duration::from_micros(gap_us);
            let add = median_us(|| drop(std::hint::black_box(ops::add(&x, &y).expect("add"))), gap, 301);
            let exp = median_us(|| drop(std::hint::black_box(ops::exp(&x).expect("exp"))), gap, 301);
            let sum =
                median_us(|| drop(std::hint::black_box(ops::reduce_sum(&x, None, false).expect("sum"))), gap, 301);
            println!("2^{shift} gap {gap_us:>3} us: add {add:>8.1} us  exp {exp:>8.1} us  sum {sum:>8.1} us");
        }
    }
}
