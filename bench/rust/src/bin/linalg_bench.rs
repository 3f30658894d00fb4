//! The linalg and fft extensions' kernels (faer, rustfft/realfft) timed one
//! call at a time, for `bench/linalg_peers.py`, which interleaves this program
//! with NumPy (OpenBLAS/LAPACK, pocketfft) on the same inputs.
//!
//!     cargo run --release -p lattensor-bench --bin linalg_bench -- N REPS
//!
//! Builds the same inputs as the script (a deterministic `N × N` f64 matrix
//! `A = B Bᵀ / N + I` from an LCG, an `N × 8` right-hand side and a `N²` complex
//! signal), times each op `REPS` times after one warm-up call and prints one
//! line per op: `name min_seconds`.

use std::hint::black_box;
use std::time::Instant;

use lattensor::ops::decomp::{self, QrMode};
use lattensor::ops::fft::{self, Norm};
use lattensor::{DType, Tensor, linalg};

fn lcg(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// One timed call.
type Op<'a> = Box<dyn Fn() + 'a>;

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("N and REPS are integers")).collect();
    let (n, reps) = (args.first().copied().unwrap_or(512), args.get(1).copied().unwrap_or(5));
    let b = Tensor::from_vec(lcg(n * n, 1), &[n, n]).unwrap();
    let bbt = linalg::matmul(&b, &b, false, true).unwrap();
    let a = lattensor::ops::add(
        &lattensor::ops::divide(&bbt, n as f64).unwrap(),
        &lattensor::eye(n, None, DType::F64).unwrap(),
    )
    .unwrap();
    let rhs = Tensor::from_vec(lcg(n * 8, 2), &[n, 8]).unwrap();
    let sig = Tensor::from_vec(lcg(n * n, 3), &[n * n]).unwrap();
    let csig = sig.cast(DType::C128).unwrap();
    let ops: Vec<(&str, Op)> = vec![
        ("solve", Box::new(|| drop(black_box(decomp::solve(&a, &rhs).unwrap())))),
        ("inv", Box::new(|| drop(black_box(decomp::inv(&a).unwrap())))),
        ("det", Box::new(|| drop(black_box(decomp::det(&a).unwrap())))),
        ("cholesky", Box::new(|| drop(black_box(decomp::cholesky(&a, false).unwrap())))),
        ("qr", Box::new(|| drop(black_box(decomp::qr(&a, QrMode::Reduced).unwrap())))),
        ("eigh", Box::new(|| drop(black_box(decomp::eigh(&a).unwrap())))),
        ("svd", Box::new(|| drop(black_box(decomp::svd(&a, false).unwrap())))),
        ("svdvals", Box::new(|| drop(black_box(decomp::svdvals(&a).unwrap())))),
        ("fft", Box::new(|| drop(black_box(fft::fft(&csig, None, -1, Norm::Backward).unwrap())))),
        ("rfft", Box::new(|| drop(black_box(fft::rfft(&sig, None, -1, Norm::Backward).unwrap())))),
    ];
    for (name, f) in ops {
        println!("{name} {:.6e}", best(reps, f));
    }
}
