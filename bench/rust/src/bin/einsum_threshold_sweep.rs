//! Where threading an einsum product starts to pay: times single products
//! `ij,jk->ik` (f32, f64; square and thin) and batches `bij,bjk->bik` around
//! the thresholds in `einsum::exec::bmm`, back to back and after a 200 µs idle
//! gap, as a caller sees them. Prints one line per case with the median time.
//!
//! Run it with one thread and with two and compare case by case; runs in turn,
//! in separate processes, several rounds (the host is noisy):
//!
//! ```text
//! LATTENSOR_NUM_THREADS=1 cargo run --release -p lattensor-bench --bin einsum_threshold_sweep
//! LATTENSOR_NUM_THREADS=2 cargo run --release -p lattensor-bench --bin einsum_threshold_sweep
//! ```

use lattensor::{DType, Tensor, einsum};
use lattensor_bench::sweep_timing::median_us;
use std::time::Duration;

fn tensor(shape: &[usize], dtype: DType, salt: usize) -> Tensor {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|i| ((i * 7 + salt) % 23) as f32 * 0.05 - 0.5).collect();
    Tensor::from_vec(v, shape).expect("tensor").cast(dtype).expect("cast")
}

fn main() {
    // (label, equation, shapes, dtype)
    let mut cases: Vec<(String, &str, Vec<Vec<usize>>, DType)> = Vec::new();
    for dtype in [DType::F32, DType::F64] {
        for n in [48, 64, 80, 96, 112, 128, 160, 192, 256] {
            cases.push((format!("mm {n}^3 {dtype}"), "ij,jk->ik", vec![vec![n, n], vec![n, n]], dtype));
        }
    }
    // thin products go to the gemm crate (a side below the own kernel's tile)
    for (m, k, n) in [(8, 256, 256), (8, 512, 512), (8, 1024, 512), (256, 256, 8)] {
        cases.push((format!("thin {m}x{k}x{n} f32"), "ij,jk->ik", vec![vec![m, k], vec![k, n]], DType::F32));
    }
    for (b, n) in [(2, 64), (4, 64), (8, 64), (16, 64), (2, 96), (4, 96), (2, 128), (4, 128), (8, 128)] {
        cases.push((format!("bmm {b}x{n}^3 f32"), "bij,bjk->bik", vec![vec![b, n, n], vec![b, n, n]], DType::F32));
    }
    cases.push((
        "E7 abc,cd,de,efa->bf".into(),
        "abc,cd,de,efa->bf",
        vec![vec![32, 64, 48], vec![48, 64], vec![64, 48], vec![48, 32, 32]],
        DType::F32,
    ));
    for (label, eq, shapes, dtype) in &cases {
        let ts: Vec<Tensor> = shapes.iter().enumerate().map(|(i, s)| tensor(s, *dtype, i)).collect();
        let refs: Vec<&Tensor> = ts.iter().collect();
        let run = || drop(std::hint::black_box(einsum::einsum(eq, &refs).expect("einsum")));
        run();
        // fewer calls when an operand is large (the slow cases)
        let largest = shapes.iter().map(|s| s.iter().product::<usize>()).max().unwrap_or(0);
        let reps = if largest > 100_000 { 101 } else { 301 };
        let hot = median_us(run, Duration::ZERO, reps);
        let idle = median_us(run, Duration::from_micros(200), reps);
        println!("{label:28} hot {hot:>9.1} us  idle {idle:>9.1} us");
    }
}
