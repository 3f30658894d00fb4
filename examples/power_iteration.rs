//! A small numeric program: the dominant eigenvalue of a symmetric matrix by
//! power iteration, run in f64, f32, float16 and bfloat16 on the same data.
//! Half-precision tensors store 16 bits per element and compute in f32; each
//! step's result is rounded back to the tensor's dtype, so the estimate's
//! error shows each format's precision.
//!
//! `cargo run -q -p lattensor --example power_iteration`

use lattensor::linalg::matmul;
use lattensor::ops::{self, reduce_sum};
use lattensor::{DType, Tensor};

/// The 6×6 matrix `2` on the diagonal, `-1` beside it (a 1-D Laplacian): its
/// eigenvalues are `2 - 2 cos(kπ/7)`, the largest `2 + 2 cos(π/7)`.
fn laplacian(n: usize) -> lattensor::Result<Tensor> {
    let data = (0..n * n)
        .map(|k| match (k / n).abs_diff(k % n) {
            0 => 2.0,
            1 => -1.0,
            _ => 0.0,
        })
        .collect();
    Tensor::from_vec(data, &[n, n])
}

/// `steps` power-iteration steps in `dtype`; returns the Rayleigh quotient
/// `vᵀAv / vᵀv` of the last vector, read out as f64.
fn dominant_eigenvalue(a64: &Tensor, dtype: DType, steps: usize) -> lattensor::Result<f64> {
    let n = a64.shape()[0];
    let a = a64.cast(dtype)?;
    // start from (1, 0.9, 0.8, …) as a column, in the same dtype
    let start: Vec<f64> = (0..n).map(|i| 1.0 - 0.1 * i as f64).collect();
    let mut v = Tensor::from_vec(start, &[n, 1])?.cast(dtype)?;
    for _ in 0..steps {
        let w = matmul(&a, &v, false, false)?;
        let norm = ops::sqrt(&reduce_sum(&(&w * &w)?, None, false)?)?;
        v = (&w / &norm)?; // the 0-d norm broadcasts
    }
    let av = matmul(&a, &v, false, false)?;
    let num = reduce_sum(&(&v * &av)?, None, false)?.cast(DType::F64)?.item::<f64>()?;
    let den = reduce_sum(&(&v * &v)?, None, false)?.cast(DType::F64)?.item::<f64>()?;
    Ok(num / den)
}

fn main() -> lattensor::Result<()> {
    let a = laplacian(6)?;
    let exact = 2.0 + 2.0 * (std::f64::consts::PI / 7.0).cos();
    println!("A = {a}\n");
    println!("exact dominant eigenvalue: {exact:.10}\n");
    println!("{:<9} {:>14} {:>12}", "dtype", "estimate", "rel. error");
    for dtype in [DType::F64, DType::F32, DType::F16, DType::BF16] {
        let lambda = dominant_eigenvalue(&a, dtype, 200)?;
        println!("{:<9} {lambda:>14.10} {:>12.2e}", dtype.name(), ((lambda - exact) / exact).abs());
    }
    Ok(())
}
