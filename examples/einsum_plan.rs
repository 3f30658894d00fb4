//! Einstein summation with a printed contraction plan: `einsum_path` shows the
//! order in which a chain of three or more operands is contracted and what it
//! costs, as `numpy.einsum_path` does, and `einsum` runs it.
//!
//! `cargo run -q -p lattensor --example einsum_plan`

use lattensor::einsum::{Front, PathOptions, einsum, einsum_path};
use lattensor::{DType, Tensor};

/// A `rows × cols` f32 matrix with entries `(i + 2j) mod 7 / 7`.
fn matrix(rows: usize, cols: usize) -> lattensor::Result<Tensor> {
    let data = (0..rows * cols).map(|k| ((k / cols + 2 * (k % cols)) % 7) as f32 / 7.0).collect();
    Tensor::from_vec(data, &[rows, cols])
}

fn main() -> lattensor::Result<()> {
    // A chain product where the order matters: (A·B)·C multiplies 8·500·8 then
    // 8·8·500; A·(B·C) would build a 500×500 intermediate first.
    let (a, b, c) = (matrix(8, 500)?, matrix(500, 8)?, matrix(8, 500)?);
    let eq = "ij,jk,kl->il";
    let plan = einsum_path(Front::Tf, eq, &[a.shape(), b.shape(), c.shape()], PathOptions::default())?;
    println!("{plan}");
    println!("contraction order: {:?}", plan.path());

    let d = einsum(eq, &[&a, &b, &c])?;
    println!("result: shape {:?}, dtype {}", d.shape(), d.dtype().name());
    let corner: Vec<f32> = d.to_vec::<f32>()?.into_iter().take(4).collect();
    println!("first row, first 4 entries: {corner:?}");

    // Mixed dtypes promote like any op: f64 operand, so the product is f64.
    let v = Tensor::from_vec(vec![1.0f64; 500], &[500])?;
    let av = einsum("ij,j->i", &[&a, &v])?;
    assert_eq!(av.dtype(), DType::F64);
    println!("\nrow sums of A (f32 · f64 -> {}): {:?}", av.dtype().name(), &av.to_vec::<f64>()?[..4]);

    // Implicit mode: a repeated label is a trace, a lone one is kept.
    let sq = matrix(4, 4)?;
    println!("trace via \"ii\": {}", einsum("ii", &[&sq])?.item::<f32>()?);
    Ok(())
}
