//! Times `einsum("ij,jk->ik")` on square f32 matrices (default 1024) and prints GFLOP/s.
//!
//! `cargo run --release -p lattensor-bench --bin einsum_bench [n] [reps]`

use std::time::Instant;

use lattensor::{DType, Tensor, einsum};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = args.first().copied().unwrap_or(1024);
    let reps = args.get(1).copied().unwrap_or(10);
    let a = Tensor::from_vec((0..n * n).map(|i| ((i % 17) as f32) * 0.01).collect(), &[n, n]).unwrap();
    let b = Tensor::from_vec((0..n * n).map(|i| ((i % 13) as f32) * 0.02).collect(), &[n, n]).unwrap();
    for (eq, label) in [("ij,jk->ik", "matmul"), ("ij,kj->ik", "A·Bᵀ"), ("ji,jk->ik", "Aᵀ·B")] {
        let _ = einsum::einsum(eq, &[&a, &b]).unwrap(); // warm up
        let mut best = f64::INFINITY;
        for _ in 0..reps {
            let t = Instant::now();
            let c = einsum::einsum(eq, &[&a, &b]).unwrap();
            best = best.min(t.elapsed().as_secs_f64());
            assert_eq!(c.dtype(), DType::F32);
        }
        let gflops = 2.0 * (n as f64).powi(3) / best / 1e9;
        println!("{label:8} {eq:12} n={n}: best {:.2} ms, {gflops:.1} GFLOP/s", best * 1e3);
    }
    // baseline: the same product with a direct `gemm` call (same load, same threads)
    let (ad, bd) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
    let mut cd = vec![0.0f32; n * n];
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let t = Instant::now();
        // SAFETY: all three buffers are n×n row-major and live; dst is exclusive.
        unsafe {
            gemm::gemm(
                n,
                n,
                n,
                cd.as_mut_ptr(),
                1,
                n as isize,
                false,
                ad.as_ptr(),
                1,
                n as isize,
                bd.as_ptr(),
                1,
                n as isize,
                0.0f32,
                1.0f32,
                false,
                false,
                false,
                gemm::Parallelism::Rayon(0),
            );
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "gemm     (direct)     n={n}: best {:.2} ms, {:.1} GFLOP/s",
        best * 1e3,
        2.0 * (n as f64).powi(3) / best / 1e9
    );
    let v = Tensor::from_vec(vec![1.0f32; n * n], &[n * n]).unwrap();
    let t = Instant::now();
    let s = einsum::einsum("i->", &[&v]).unwrap();
    println!("sum of {} f32: {:.2} ms (= {})", n * n, t.elapsed().as_secs_f64() * 1e3, s.item::<f32>().unwrap());
}
