//! The side-by-side workloads, shared by the divan benches
//! (`benches/ops.rs`) and the bench server that `bench/peers.py` drives
//! (`bench/rust/src/bin/bench_server/main.rs`).
//!
//! Inputs follow one formula that `bench/peers.py` reproduces bit for bit:
//! `u = (i · 2654435761) mod 2³²`, float value `(u / 2³²) · 2 − 1` rounded to
//! f32, integer value `(u >> 22) − 512`, int8 value `(u >> 24) − 128`; a
//! second operand continues the sequence (`i` from `n` to `2n`).

#![allow(dead_code)]

use lattensor::ops::{self, Axes};
use lattensor::{DType, Tensor, einsum};

const M10: usize = 10_000_000;

fn hash(i: usize) -> u32 {
    (i as u64).wrapping_mul(2_654_435_761) as u32
}

pub fn floats(n: usize, seed: usize) -> Vec<f32> {
    (seed..seed + n).map(|i| ((hash(i) as f64 / 4_294_967_296.0) * 2.0 - 1.0) as f32).collect()
}

/// The first operand of a workload.
fn f32s(shape: &[usize]) -> Tensor {
    Tensor::from_vec(floats(shape.iter().product(), 0), shape).unwrap()
}

/// A second operand, different from the first: the sequence continued.
fn f32s2(shape: &[usize]) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_vec(floats(n, n), shape).unwrap()
}

fn as_dtype(t: Tensor, d: DType) -> Tensor {
    t.cast(d).unwrap()
}

fn i32s(n: usize) -> Tensor {
    Tensor::from_vec((0..n).map(|i| (hash(i) >> 22) as i32 - 512).collect(), &[n]).unwrap()
}

/// int8 values `(u >> 24) − 128` for `i` in `seed..seed + n`.
fn i8s(shape: &[usize], seed: usize) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec((seed..seed + n).map(|i| ((hash(i) >> 24) as i32 - 128) as i8).collect(), shape).unwrap()
}

pub type Call = Box<dyn Fn() -> Tensor>;

/// The workloads, by the names `peers.py` uses; each builds its inputs and returns the call.
pub fn workload(name: &str) -> Option<Call> {
    let ein = |eq: &'static str, ts: Vec<Tensor>| -> Call {
        Box::new(move || {
            let refs: Vec<&Tensor> = ts.iter().collect();
            einsum::einsum(eq, &refs).unwrap()
        })
    };
    Some(match name {
        "P1_add_f32" => {
            let (a, b) = (f32s(&[M10]), f32s2(&[M10]));
            Box::new(move || ops::add(&a, &b).unwrap())
        }
        "P2_add_i32_f32" => {
            let (a, b) = (i32s(M10), f32s2(&[M10]));
            Box::new(move || ops::add(&a, &b).unwrap())
        }
        "P3_add_f16" => {
            let (a, b) = (as_dtype(f32s(&[M10]), DType::F16), as_dtype(f32s2(&[M10]), DType::F16));
            Box::new(move || ops::add(&a, &b).unwrap())
        }
        "P4_add_bf16" => {
            let (a, b) = (as_dtype(f32s(&[M10]), DType::BF16), as_dtype(f32s2(&[M10]), DType::BF16));
            Box::new(move || ops::add(&a, &b).unwrap())
        }
        "P5_add_weak_scalar" => {
            let x = f32s(&[M10]);
            Box::new(move || (&x + 1.0).unwrap())
        }
        "P6_exp_f32" => {
            let x = f32s(&[M10]);
            Box::new(move || ops::exp(&x).unwrap())
        }
        "P7_sum_f32" => {
            let x = f32s(&[M10]);
            Box::new(move || ops::reduce_sum(&x, Axes::All, false).unwrap())
        }
        "P8_mean_axis0" => {
            let x = f32s(&[4096, 4096]);
            Box::new(move || ops::reduce_mean(&x, 0, false).unwrap())
        }
        "P9_bitcast" => {
            let x = f32s(&[M10]);
            Box::new(move || lattensor::bitcast(&x, DType::U8).unwrap())
        }
        "E1a_mm_f32" => ein("ij,jk->ik", vec![f32s(&[1024, 1024]), f32s2(&[1024, 1024])]),
        "E1b_mm_f64" => ein(
            "ij,jk->ik",
            vec![as_dtype(f32s(&[1024, 1024]), DType::F64), as_dtype(f32s2(&[1024, 1024]), DType::F64)],
        ),
        "E2_bmm" => ein("bij,bjk->bik", vec![f32s(&[64, 128, 128]), f32s2(&[64, 128, 128])]),
        "E3_attn" => ein("bhqd,bhkd->bhqk", vec![f32s(&[8, 8, 256, 64]), f32s2(&[8, 8, 256, 64])]),
        "E4_chain" => ein("ij,jk,kl->il", vec![f32s(&[1000, 10]), f32s2(&[10, 1000]), f32s(&[1000, 10])]),
        "E5a_diag" => ein("ii->i", vec![f32s(&[1000, 1000])]),
        "E5b_sum3" => ein("ijk->", vec![f32s(&[512, 512, 512])]),
        "E6_outer" => ein("i,j->ij", vec![f32s(&[4096]), f32s2(&[4096])]),
        "E7_four" => {
            ein("abc,cd,de,efa->bf", vec![f32s(&[32, 64, 48]), f32s2(&[48, 64]), f32s(&[64, 48]), f32s2(&[48, 32, 32])])
        }
        "Q1_mm_i8_i32" => {
            let (a, b) = (i8s(&[1024, 1024], 0), i8s(&[1024, 1024], 1024 * 1024));
            let opts = ops::matrix::MatMulOptions { preferred_element_type: Some(DType::I32), ..Default::default() };
            Box::new(move || ops::matrix::matmul_with(&a, &b, opts).unwrap())
        }
        _ => return None,
    })
}

pub const NAMES: &[&str] = &[
    "P1_add_f32",
    "P2_add_i32_f32",
    "P3_add_f16",
    "P4_add_bf16",
    "P5_add_weak_scalar",
    "P6_exp_f32",
    "P7_sum_f32",
    "P8_mean_axis0",
    "P9_bitcast",
    "E1a_mm_f32",
    "E1b_mm_f64",
    "E2_bmm",
    "E3_attn",
    "E4_chain",
    "E5a_diag",
    "E5b_sum3",
    "E6_outer",
    "E7_four",
    "Q1_mm_i8_i32",
];
