//! Gradient tape: every rule against central differences in f64, the
//! tape's conventions (dtypes, weakness, None, persistence), and
//! second-order gradients through nested tapes.

use lattensor::einsum::{einsum, einsum_raw, numpy_einsum};
use lattensor::{DType, GradientTape, PadMode, Result, SliceArg, Source, Tensor, UnconnectedGradients, Variable, ops};

/// A deterministic sample in `[lo, hi)`.
pub(crate) fn sample(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

pub(crate) fn t(v: Vec<f64>, shape: &[usize]) -> Tensor {
    Tensor::from_vec(v, shape).unwrap()
}

/// `Σ w · f(xs)` for fixed random weights `w`: its gradient is the VJP of `f` with `w`.
fn weighted(f: &dyn Fn(&[Tensor]) -> Result<Tensor>, xs: &[Tensor]) -> Result<Tensor> {
    let y = f(xs)?;
    let w = t(sample(y.numel(), 99, -1.0, 1.0), y.shape());
    ops::reduce_sum(&ops::multiply(&y, &w)?, None, false)
}

/// The tape's gradient of `loss` (computed from `xs`) for every input, each
/// present and of its input's shape.
pub(crate) fn tape_gradients(name: &str, xs: &[Tensor], loss: impl FnOnce() -> Result<Tensor>) -> Vec<Tensor> {
    let tape = GradientTape::new();
    for x in xs {
        tape.watch(x);
    }
    let target = tape.record(loss).unwrap_or_else(|e| panic!("{name}: forward failed: {e}"));
    let refs: Vec<&Tensor> = xs.iter().collect();
    let grads = tape.gradient(&target, &refs).unwrap_or_else(|e| panic!("{name}: gradient failed: {e}"));
    grads
        .into_iter()
        .zip(xs)
        .enumerate()
        .map(|(i, (g, x))| {
            let g = g.unwrap_or_else(|| panic!("{name}: input {i} has no gradient"));
            assert_eq!(g.shape(), x.shape(), "{name}: gradient {i} shape");
            g
        })
        .collect()
}

/// Checks the tape's gradient of every input against central differences.
pub(crate) fn check(name: &str, f: impl Fn(&[Tensor]) -> Result<Tensor>, xs: Vec<Tensor>) {
    let grads = tape_gradients(name, &xs, || weighted(&f, &xs));
    for (i, (x, g)) in xs.iter().zip(&grads).enumerate() {
        assert_eq!(g.dtype(), DType::F64, "{name}: gradient {i} dtype");
        let got = g.to_vec::<f64>().unwrap();
        let base = x.to_vec::<f64>().unwrap();
        for k in 0..base.len() {
            let h = 1e-6 * base[k].abs().max(1.0);
            let at = |d: f64| {
                let mut v = base.clone();
                v[k] += d;
                let mut ys = xs.clone();
                ys[i] = t(v, x.shape());
                weighted(&f, &ys).unwrap().item::<f64>().unwrap()
            };
            let fd = (at(h) - at(-h)) / (2.0 * h);
            let tol = 1e-6 * fd.abs().max(1.0);
            assert!((got[k] - fd).abs() <= tol, "{name}: d/dx{i}[{k}]: tape {} vs finite difference {fd}", got[k]);
        }
    }
}

pub(crate) fn x1(seed: u64, shape: &[usize], lo: f64, hi: f64) -> Tensor {
    let n = shape.iter().product();
    t(sample(n, seed, lo, hi), shape)
}

#[test]
fn unary_functions_match_finite_differences() {
    type F = fn(&Tensor) -> Result<Tensor>;
    let cases: Vec<(&str, F, f64, f64)> = vec![
        ("exp", ops::exp, -2.0, 2.0),
        ("expm1", ops::expm1, -2.0, 2.0),
        ("log", ops::log, 0.2, 3.0),
        ("log1p", ops::log1p, -0.5, 3.0),
        ("sqrt", ops::sqrt, 0.2, 3.0),
        ("rsqrt", ops::rsqrt, 0.2, 3.0),
        ("square", ops::square, -2.0, 2.0),
        ("abs", ops::abs, -2.0, 2.0),
        ("negative", ops::negative, -2.0, 2.0),
        ("sin", ops::sin, -3.0, 3.0),
        ("cos", ops::cos, -3.0, 3.0),
        ("tan", ops::tan, -1.2, 1.2),
        ("asin", ops::asin, -0.9, 0.9),
        ("acos", ops::acos, -0.9, 0.9),
        ("atan", ops::atan, -3.0, 3.0),
        ("sinh", ops::sinh, -2.0, 2.0),
        ("cosh", ops::cosh, -2.0, 2.0),
        ("tanh", ops::tanh, -2.0, 2.0),
        ("asinh", ops::asinh, -3.0, 3.0),
        ("acosh", ops::acosh, 1.2, 3.0),
        ("atanh", ops::atanh, -0.9, 0.9),
        ("sigmoid", ops::sigmoid, -4.0, 4.0),
        ("softplus", ops::softplus, -4.0, 4.0),
        ("log_sigmoid", ops::log_sigmoid, -4.0, 4.0),
        ("reciprocal", ops::reciprocal, 0.3, 3.0),
        ("erf", ops::erf, -2.0, 2.0),
        ("erfc", ops::erfc, -2.0, 2.0),
        ("erfinv", ops::erfinv, -0.9, 0.9),
        ("ndtri", ops::ndtri, 0.05, 0.95),
        ("lgamma", ops::lgamma, 0.3, 4.0),
        ("digamma", ops::digamma, 0.3, 12.0),
        ("digamma of negatives", ops::digamma, -0.9, -0.1),
        ("relu", ops::activation::relu, -2.0, 2.0),
        ("relu6", |x| ops::activation::relu6(&ops::multiply(x, 4.0)?), -2.0, 2.0),
        ("elu", ops::activation::elu, -2.0, 2.0),
        ("selu", ops::activation::selu, -2.0, 2.0),
        ("softsign", ops::activation::softsign, -2.0, 2.0),
        ("gelu", |x| ops::activation::gelu(x, false), -3.0, 3.0),
        ("gelu_tanh", |x| ops::activation::gelu(x, true), -3.0, 3.0),
        ("leaky_relu", |x| ops::activation::leaky_relu(x, 0.2), -2.0, 2.0),
        ("swish", |x| ops::activation::swish(x, 1.5), -3.0, 3.0),
        ("bessel_i0", ops::special::bessel_i0, -2.0, 2.0),
        ("bessel_i0e", ops::special::bessel_i0e, 0.1, 2.0),
        ("bessel_i1", ops::special::bessel_i1, -2.0, 2.0),
        ("bessel_i1e", ops::special::bessel_i1e, 0.1, 2.0),
        ("bessel_k0", ops::special::bessel_k0, 0.3, 3.0),
        ("bessel_k0e", ops::special::bessel_k0e, 0.3, 3.0),
        ("bessel_k1", ops::special::bessel_k1, 0.3, 3.0),
        ("bessel_k1e", ops::special::bessel_k1e, 0.3, 3.0),
        ("bessel_j0", ops::special::bessel_j0, 0.3, 5.0),
        ("bessel_j1", ops::special::bessel_j1, 0.3, 5.0),
        ("bessel_y0", ops::special::bessel_y0, 0.3, 5.0),
        ("bessel_y1", ops::special::bessel_y1, 0.3, 5.0),
        ("dawsn", ops::special::dawsn, -3.0, 3.0),
        ("expint", ops::special::expint, 0.3, 3.0),
        ("fresnel_cos", ops::special::fresnel_cos, -2.0, 2.0),
        ("fresnel_sin", ops::special::fresnel_sin, -2.0, 2.0),
        ("spence", ops::special::spence, 0.1, 3.0),
    ];
    for (k, (name, f, lo, hi)) in cases.into_iter().enumerate() {
        check(name, move |xs| f(&xs[0]), vec![x1(k as u64, &[2, 3], lo, hi)]);
    }
}

#[test]
fn binary_ops_with_broadcasting_match_finite_differences() {
    type F = fn(&Tensor, &Tensor) -> Result<Tensor>;
    let cases: Vec<(&str, F, f64, f64)> = vec![
        ("add", |a, b| ops::add(a, b), -2.0, 2.0),
        ("subtract", |a, b| ops::subtract(a, b), -2.0, 2.0),
        ("multiply", |a, b| ops::multiply(a, b), -2.0, 2.0),
        ("divide", |a, b| ops::divide(a, b), 0.5, 2.0),
        ("divide_no_nan", |a, b| ops::divide_no_nan(a, b), 0.5, 2.0),
        ("multiply_no_nan", |a, b| ops::multiply_no_nan(a, b), -2.0, 2.0),
        ("pow", |a, b| ops::pow(a, b), 0.5, 2.0),
        ("maximum", |a, b| ops::maximum(a, b), -2.0, 2.0),
        ("minimum", |a, b| ops::minimum(a, b), -2.0, 2.0),
        ("atan2", |a, b| ops::atan2(a, b), 0.5, 2.0),
        ("hypot", |a, b| ops::hypot(a, b), 0.5, 2.0),
        ("floormod", |a, b| ops::floormod(a, b), 0.5, 2.0),
        ("truncatemod", |a, b| ops::truncatemod(a, b), 0.5, 2.0),
    ];
    for (k, (name, f, lo, hi)) in cases.into_iter().enumerate() {
        // [2, 3] with [3], and [2, 1] with [1, 3]
        check(name, move |xs| f(&xs[0], &xs[1]), vec![x1(2 * k as u64, &[2, 3], lo, hi), x1(7, &[3], lo, hi)]);
        check(name, move |xs| f(&xs[0], &xs[1]), vec![x1(5, &[2, 1], lo, hi), x1(2 * k as u64 + 1, &[1, 3], lo, hi)]);
    }
    // a literal operand: only the tensor gets a gradient
    check("x * 2.5", |xs| ops::multiply(&xs[0], 2.5), vec![x1(3, &[4], -1.0, 1.0)]);
    check("1 / x", |xs| ops::divide(1.0, &xs[0]), vec![x1(3, &[4], 0.5, 2.0)]);
    check(
        "clip_by_value",
        |xs| ops::clip_by_value(&xs[0], &xs[1], 0.5),
        vec![x1(4, &[2, 3], -1.0, 1.0), x1(9, &[3], -0.6, -0.2)],
    );
}

#[test]
fn reductions_match_finite_differences() {
    type F = fn(&Tensor, Vec<i32>, bool) -> Result<Tensor>;
    let cases: Vec<(&str, F)> = vec![
        ("sum", |x, a, k| ops::reduce_sum(x, a, k)),
        ("mean", |x, a, k| ops::reduce_mean(x, a, k)),
        ("prod", |x, a, k| ops::reduce_prod(x, a, k)),
        ("max", |x, a, k| ops::reduce_max(x, a, k)),
        ("min", |x, a, k| ops::reduce_min(x, a, k)),
        ("logsumexp", |x, a, k| ops::reduce_logsumexp(x, a, k)),
        ("variance", |x, a, k| ops::reduce_variance(x, a, k)),
        ("std", |x, a, k| ops::reduce_std(x, a, k)),
        ("euclidean_norm", |x, a, k| ops::reduce_euclidean_norm(x, a, k)),
    ];
    for (name, f) in cases {
        for axes in [vec![0], vec![1], vec![-1, 0], vec![0, 2]] {
            for keep in [false, true] {
                let label = format!("{name} over {axes:?} keepdims={keep}");
                let a = axes.clone();
                check(&label, move |xs| f(&xs[0], a.clone(), keep), vec![x1(11, &[2, 3, 2], 0.5, 2.0)]);
            }
        }
    }
    // a product with a zero in it, and over everything
    check("prod with zero", |xs| ops::reduce_prod(&xs[0], None, false), vec![t(vec![2.0, 0.0, 3.0, 1.5], &[4])]);
    check("softmax", |xs| ops::activation::softmax(&xs[0], -1), vec![x1(12, &[2, 3], -2.0, 2.0)]);
    check("log_softmax", |xs| ops::activation::log_softmax(&xs[0], 0), vec![x1(13, &[2, 3], -2.0, 2.0)]);
}

#[test]
fn max_ties_split_the_gradient_as_tf() {
    let x = t(vec![1.0, 3.0, 3.0], &[3]);
    let tape = GradientTape::new();
    tape.watch(&x);
    let y = tape.record(|| ops::reduce_max(&x, None, false)).unwrap();
    let g = tape.gradient(&y, &[&x]).unwrap()[0].clone().unwrap();
    assert_eq!(g.to_vec::<f64>().unwrap(), vec![0.0, 0.5, 0.5]);
}

#[test]
fn shape_and_indexing_ops_match_finite_differences() {
    let x = || vec![x1(21, &[2, 3, 4], -1.0, 1.0)];
    check("reshape", |xs| xs[0].reshape(&[4, -1]), x());
    check("transpose", |xs| xs[0].transpose(&[2, 0, 1]), x());
    check("expand_dims", |xs| xs[0].expand_dims(1), x());
    check("squeeze", |xs| xs[0].expand_dims(0)?.squeeze(&[0]), x());
    check("broadcast_to", |xs| xs[0].broadcast_to(&[5, 2, 3, 4]), x());
    check("broadcast size 1", |xs| xs[0].slice(&[SliceArg::range(0, 1)])?.broadcast_to(&[3, 3, 4]), x());
    check(
        "slice with negative step",
        |xs| xs[0].slice(&[SliceArg::Index(1), SliceArg::stepped(None, None, -2), SliceArg::range(1, 3)]),
        x(),
    );
    check(
        "cast through complex",
        |xs| ops::real(&ops::multiply(&xs[0].cast(DType::C128)?, &xs[0].cast(DType::C128)?)?),
        x(),
    );
    check(
        "concat",
        |xs| lattensor::concat(&[&xs[0], &xs[1]], 1),
        vec![x1(1, &[2, 3], -1.0, 1.0), x1(2, &[2, 2], -1.0, 1.0)],
    );
    check(
        "stack",
        |xs| lattensor::stack(&[&xs[0], &xs[1]], 1),
        vec![x1(1, &[2, 3], -1.0, 1.0), x1(2, &[2, 3], -1.0, 1.0)],
    );
    check(
        "split",
        |xs| {
            let parts = lattensor::split(&xs[0], lattensor::Splits::Sizes(vec![1, 3]), 1)?;
            ops::multiply(&parts[0], &ops::reduce_sum(&parts[1], 1, true)?)
        },
        vec![x1(3, &[2, 4], -1.0, 1.0)],
    );
    check(
        "where",
        |xs| lattensor::where_(&ops::greater(&xs[0], 0.0)?, &xs[0], &xs[1]),
        vec![x1(4, &[2, 3], -1.0, 1.0), x1(5, &[3], -1.0, 1.0)],
    );
    let idx = Tensor::from_vec(vec![2i32, 0, 2, 1], &[2, 2]).unwrap();
    check("gather axis 0", move |xs| lattensor::gather(&xs[0], &idx, 0, 0), vec![x1(6, &[3, 2], -1.0, 1.0)]);
    let idx = Tensor::from_vec(vec![1i64, 1, 0], &[3]).unwrap();
    check("gather axis 1", move |xs| lattensor::gather(&xs[0], &idx, 1, 0), vec![x1(7, &[2, 2, 3], -1.0, 1.0)]);
    let idx = Tensor::from_vec(vec![2i32, 0, 0, 1, 1, 1], &[2, 3]).unwrap();
    check("gather batch_dims 1", move |xs| lattensor::gather(&xs[0], &idx, 2, 1), vec![x1(17, &[2, 2, 3], -1.0, 1.0)]);
    check(
        "extract_patches SAME",
        |xs| {
            let p = lattensor::image::Padding::Same;
            lattensor::image::extract_patches(&xs[0], &[1, 2, 2, 1], &[1, 2, 1, 1], &[1, 1, 1, 1], p)
        },
        vec![x1(18, &[1, 3, 3, 2], -1.0, 1.0)],
    );
    check(
        "pad constant",
        |xs| lattensor::pad(&xs[0], [[1, 2], [0, 1]], PadMode::Constant, 5.0),
        vec![x1(8, &[2, 3], -1.0, 1.0)],
    );
    check(
        "pad reflect",
        |xs| lattensor::pad(&xs[0], [[1, 1], [2, 0]], PadMode::Reflect, 0),
        vec![x1(9, &[3, 3], -1.0, 1.0)],
    );
    check("pad symmetric", |xs| lattensor::pad(&xs[0], [[2, 1]], PadMode::Symmetric, 0), vec![x1(10, &[3], -1.0, 1.0)]);
    let ids = Tensor::from_vec(vec![1i32, -1, 1, 0], &[4]).unwrap();
    check(
        "unsorted_segment_sum",
        move |xs| ops::unsorted_segment_sum(&xs[0], &ids, 3),
        vec![x1(11, &[4, 2], -1.0, 1.0)],
    );
    check("diag_part", |xs| ops::matrix::diag_part(&xs[0]), vec![x1(12, &[2, 3, 4], -1.0, 1.0)]);
    check("diag", |xs| ops::matrix::diag(&xs[0]), vec![x1(13, &[2, 3], -1.0, 1.0)]);
    check("trace", |xs| ops::matrix::trace(&xs[0]), vec![x1(14, &[3, 3], -1.0, 1.0)]);
    check("matrix_transpose", |xs| ops::matrix::matrix_transpose(&xs[0], false), vec![x1(15, &[2, 3, 4], -1.0, 1.0)]);
    use ops::matrix::{DiagAlign, band_part, diag_ext, diag_part_ext, set_diag};
    for align in [DiagAlign::RightLeft, DiagAlign::LeftRight] {
        check(
            "diag_part k=(-1, 1)",
            move |xs| diag_part_ext(&xs[0], (-1, 1), None, align),
            vec![x1(16, &[2, 3, 4], -1.0, 1.0)],
        );
        check(
            "diag k=(-1, 0)",
            move |xs| diag_ext(&xs[0], (-1, 0), None, None, None, align),
            vec![x1(17, &[2, 3], -1.0, 1.0)],
        );
        check(
            "set_diag k=(0, 1)",
            move |xs| set_diag(&xs[0], &xs[1], (0, 1), align),
            vec![x1(18, &[3, 4], -1.0, 1.0), x1(19, &[2, 3], -1.0, 1.0)],
        );
    }
    check(
        "diag k=1 in a 4×5",
        |xs| diag_ext(&xs[0], (1, 1), Some(4), Some(5), None, DiagAlign::RightLeft),
        vec![x1(20, &[4], -1.0, 1.0)],
    );
    check("band_part", |xs| band_part(&xs[0], 1, 0), vec![x1(21, &[3, 4], -1.0, 1.0)]);
    check("saturate_cast within range", |xs| ops::saturate_cast(&xs[0], DType::F64), vec![x1(22, &[3], -1.0, 1.0)]);
}

#[test]
fn matmul_with_every_flag_matches_finite_differences() {
    for ta in [false, true] {
        for tb in [false, true] {
            for (aa, ab) in [(false, false), (true, false), (false, true)] {
                let (ta, tb) = (ta && !aa, tb && !ab);
                let sa: &[usize] = if ta || aa { &[3, 2] } else { &[2, 3] };
                let sb: &[usize] = if tb || ab { &[4, 3] } else { &[3, 4] };
                check(
                    &format!("matmul ta={ta} tb={tb} adj_a={aa} adj_b={ab}"),
                    move |xs| ops::matrix::matmul_ext(&xs[0], &xs[1], ta, tb, aa, ab),
                    vec![x1(1, sa, -1.0, 1.0), x1(2, sb, -1.0, 1.0)],
                );
            }
        }
    }
    check(
        "batched matmul with broadcasting",
        |xs| ops::matrix::matmul(&xs[0], &xs[1], false, false),
        vec![x1(3, &[2, 1, 2, 3], -1.0, 1.0), x1(4, &[3, 3, 2], -1.0, 1.0)],
    );
}

#[test]
fn einsum_gradients_match_finite_differences() {
    // the cases of TF's einsum gradient tests, and diagonals, sums and broadcasting
    let unary = [
        ("ij->ji", vec![2, 3]),
        ("ii->i", vec![3, 3]),
        ("ii->", vec![3, 3]),
        ("ij->", vec![2, 3]),
        ("ijk->ik", vec![2, 3, 2]),
        ("iij->j", vec![2, 2, 3]),
        ("iji->ij", vec![2, 3, 2]),
    ];
    for (eq, shape) in unary {
        check(&format!("einsum {eq}"), move |xs| einsum(eq, &[&xs[0]]), vec![x1(1, &shape, -1.0, 1.0)]);
    }
    check("raw i->ii", |xs| einsum_raw("i->ii", &[&xs[0]]), vec![x1(2, &[3], -1.0, 1.0)]);
    check("raw ij->iij", |xs| einsum_raw("ij->iij", &[&xs[0]]), vec![x1(3, &[2, 3], -1.0, 1.0)]);
    let binary = [
        ("ij,jk->ik", vec![2, 3], vec![3, 4]),
        ("ij,jk->ki", vec![2, 3], vec![3, 4]),
        ("ij,ij->", vec![2, 3], vec![2, 3]),
        ("ij,kl->ijkl", vec![2, 3], vec![2, 2]),
        ("ijk,ik->j", vec![2, 3, 2], vec![2, 2]),
        ("ii,ij->j", vec![3, 3], vec![3, 2]),
        ("ij,jj->i", vec![2, 3], vec![3, 3]),
        ("abc,cd->", vec![2, 2, 3], vec![3, 2]),
        ("...ij,...jk->...ik", vec![2, 2, 3], vec![3, 4]),
        ("bij,bjk->bik", vec![2, 2, 3], vec![2, 3, 2]),
    ];
    for (eq, sa, sb) in binary {
        check(
            &format!("einsum {eq}"),
            move |xs| einsum(eq, &[&xs[0], &xs[1]]),
            vec![x1(4, &sa, -1.0, 1.0), x1(5, &sb, -1.0, 1.0)],
        );
    }
    check(
        "numpy einsum with size-1 broadcasting",
        |xs| numpy_einsum("ij,kj->ik", &[&xs[0], &xs[1]]),
        vec![x1(6, &[2, 1], -1.0, 1.0), x1(7, &[3, 4], -1.0, 1.0)],
    );
    check(
        "einsum of three operands along its path",
        |xs| einsum("ij,jk,kl->il", &[&xs[0], &xs[1], &xs[2]]),
        vec![x1(8, &[2, 3], -1.0, 1.0), x1(9, &[3, 4], -1.0, 1.0), x1(10, &[4, 2], -1.0, 1.0)],
    );
    check(
        "einsum of four operands with a shared label",
        |xs| einsum("ab,bc,cd,b->ad", &[&xs[0], &xs[1], &xs[2], &xs[3]]),
        vec![
            x1(11, &[2, 3], -1.0, 1.0),
            x1(12, &[3, 2], -1.0, 1.0),
            x1(13, &[2, 2], -1.0, 1.0),
            x1(14, &[3], -1.0, 1.0),
        ],
    );
}

#[test]
fn n_operand_einsum_records_pairwise_steps() {
    let xs: Vec<Tensor> = (0..4).map(|k| x1(k, &[3, 3], -1.0, 1.0)).collect();
    let tape = GradientTape::new();
    for x in &xs {
        tape.watch(x);
    }
    let y = tape.record(|| einsum("ab,bc,cd,de->ae", &[&xs[0], &xs[1], &xs[2], &xs[3]])).unwrap();
    let plain = einsum("ab,bc,cd,de->ae", &[&xs[0], &xs[1], &xs[2], &xs[3]]).unwrap();
    let (a, b) = (y.to_vec::<f64>().unwrap(), plain.to_vec::<f64>().unwrap());
    assert!(a.iter().zip(&b).all(|(p, q)| (p - q).abs() <= 1e-12), "the taped einsum computes the same values");
    let refs: Vec<&Tensor> = xs.iter().collect();
    let g = tape.gradient(&y, &refs).unwrap();
    assert!(g.iter().all(Option::is_some));
}

#[test]
fn complex_gradients_follow_tfs_conjugate_convention() {
    use num_complex::Complex64;
    let z = Tensor::from_vec(vec![Complex64::new(1.0, 2.0)], &[]).unwrap();
    let tape = GradientTape::new();
    tape.watch(&z);
    let y = tape.record(|| ops::multiply(&z, &z)).unwrap();
    // TF 2.21: gradient(z·z, z) at 1+2j is 2-4j
    let g = tape.gradient(&y, &[&z]).unwrap()[0].clone().unwrap();
    assert_eq!(g.item::<Complex64>().unwrap(), Complex64::new(2.0, -4.0));
    // |z|² = real(z·conj(z)): the gradient is 2z
    let tape = GradientTape::new();
    tape.watch(&z);
    let y = tape.record(|| ops::real(&ops::multiply(&z, &ops::conj(&z)?)?)).unwrap();
    let g = tape.gradient(&y, &[&z]).unwrap()[0].clone().unwrap();
    assert_eq!(g.item::<Complex64>().unwrap(), Complex64::new(2.0, 4.0));
}

#[test]
fn kinks_follow_tf() {
    // TF 2.21 at x = 0: abs 0, relu 0, sqrt inf, sign 0, floor/round None, maximum(x, 0) 1, minimum(x, 0) 1
    let x = Tensor::scalar(0.0f32);
    let tape = GradientTape::with_options(true, true);
    tape.watch(&x);
    let ys = tape.record(|| -> Result<Vec<Tensor>> {
        Ok(vec![
            ops::abs(&x)?,
            ops::activation::relu(&x)?,
            ops::sqrt(&x)?,
            ops::sign(&x)?,
            ops::floor(&x)?,
            ops::round(&x)?,
            ops::maximum(&x, 0.0)?,
            ops::minimum(&x, 0.0)?,
        ])
    });
    let got: Vec<Option<f32>> = ys
        .unwrap()
        .iter()
        .map(|y| tape.gradient(y, &[&x]).unwrap()[0].as_ref().map(|g| g.item::<f32>().unwrap()))
        .collect();
    assert_eq!(got, vec![Some(0.0), Some(0.0), Some(f32::INFINITY), Some(0.0), None, None, Some(1.0), Some(1.0)]);
}

#[test]
fn dtypes_weakness_and_unconnected_sources() {
    // a gradient has its source's dtype and weakness (TF 2.21: weak x gives a weak gradient)
    let weak = lattensor::constant(3.0).unwrap();
    let strong = Tensor::scalar(3.0f32);
    let half = Tensor::scalar(half::f16::from_f32(3.0));
    let int = Tensor::scalar(3i32);
    let other = Tensor::scalar(1.0f64);
    let tape = GradientTape::with_options(true, true);
    for x in [&weak, &strong, &half, &int] {
        tape.watch(x);
    }
    let y = tape
        .record(|| -> Result<Tensor> {
            let a = ops::multiply(&weak, &weak)?;
            let b = ops::multiply(&strong, 2.0)?;
            let c = ops::multiply(&half, &half)?.cast(DType::F32)?;
            let d = ops::multiply(&int, 2)?.cast(DType::F32)?;
            ops::add(&ops::add(&a, &b)?, &ops::add(&c, &d)?)
        })
        .unwrap();
    let srcs =
        [Source::from(&weak), Source::from(&strong), Source::from(&half), Source::from(&int), Source::from(&other)];
    let g = tape.gradient_with(&[&y], &srcs, None, UnconnectedGradients::None).unwrap();
    let show = |g: &Option<Tensor>| {
        g.as_ref().map(|g| (g.dtype(), g.is_weak(), g.cast(DType::F64).unwrap().item::<f64>().unwrap()))
    };
    assert_eq!(show(&g[0]), Some((DType::F32, true, 6.0)));
    assert_eq!(show(&g[1]), Some((DType::F32, false, 2.0)));
    assert_eq!(show(&g[2]), Some((DType::F16, false, 6.0)));
    assert_eq!(show(&g[3]), None, "integer sources have no gradient");
    assert_eq!(show(&g[4]), None, "unconnected");
    let g = tape.gradient_with(&[&y], &srcs[4..], None, UnconnectedGradients::Zero).unwrap();
    assert_eq!(show(&g[0]), Some((DType::F64, false, 0.0)));
}

#[test]
fn non_persistent_tapes_compute_once() {
    let x = Tensor::scalar(2.0f64);
    let tape = GradientTape::new();
    tape.watch(&x);
    let y = tape.record(|| ops::multiply(&x, &x)).unwrap();
    assert!(tape.gradient(&y, &[&x]).is_ok());
    let e = tape.gradient(&y, &[&x]).unwrap_err();
    assert!(e.to_string().contains("non-persistent"), "{e}");
}

#[test]
fn variables_are_watched_when_read_and_can_be_trained() {
    // minimise (w - 3)² by gradient descent, as a TF training loop does
    let w = Variable::new(Tensor::scalar(0.0f64)).unwrap();
    let frozen = Variable::new(Tensor::scalar(1.0f64)).unwrap().with_trainable(false);
    for _ in 0..100 {
        let tape = GradientTape::new();
        let loss =
            tape.record(|| ops::square(&ops::subtract(&ops::multiply(&w.read(), &frozen.read())?, 3.0)?)).unwrap();
        let g = tape.gradient(&loss, &[&w, &frozen]).unwrap();
        assert!(g[1].is_none(), "a variable made with trainable=false is not watched");
        w.assign_sub(ops::multiply(g[0].as_ref().unwrap(), 0.1).unwrap()).unwrap();
    }
    let got = w.read().item::<f64>().unwrap();
    assert!((got - 3.0).abs() < 1e-8, "w = {got}");
    // watch_accessed_variables = false: only what is watched
    let tape = GradientTape::with_options(false, false);
    let y = tape.record(|| ops::multiply(&w.read(), 2.0)).unwrap();
    assert!(tape.gradient(&y, &[&w]).unwrap()[0].is_none());
    assert!(tape.watched_variable_ids().is_empty());
}

#[test]
fn stop_gradient_and_stop_recording_cut_the_graph() {
    let x = Tensor::scalar(3.0f64);
    let tape = GradientTape::with_options(true, true);
    tape.watch(&x);
    let y = tape.record(|| ops::multiply(&x, &lattensor::stop_gradient(&x))).unwrap();
    assert_eq!(tape.gradient(&y, &[&x]).unwrap()[0].as_ref().unwrap().item::<f64>().unwrap(), 3.0);
    let z = tape.record(|| tape.stop_recording(|| ops::multiply(&x, &x))).unwrap();
    assert!(tape.gradient(&z, &[&x]).unwrap()[0].is_none());
    tape.reset();
    let w = tape.record(|| ops::multiply(&x, &x)).unwrap();
    assert!(tape.gradient(&w, &[&x]).unwrap()[0].is_none(), "reset forgets what was watched");
}

#[test]
fn nested_tapes_give_second_derivatives() {
    type F = fn(&Tensor) -> Result<Tensor>;
    type Case = (&'static str, F, fn(f64) -> f64);
    // (f, f'' in closed form)
    let cases: Vec<Case> = vec![
        ("x³", |x| ops::multiply(x, &ops::square(x)?), |x| 6.0 * x),
        ("tanh", ops::tanh, |x| -2.0 * x.tanh() * (1.0 - x.tanh().powi(2))),
        ("exp(sin x)", |x| ops::exp(&ops::sin(x)?), |x| x.sin().exp() * (x.cos().powi(2) - x.sin())),
        ("sigmoid", ops::sigmoid, |x| {
            let s = 1.0 / (1.0 + (-x).exp());
            s * (1.0 - s) * (1.0 - 2.0 * s)
        }),
        ("x·einsum(i,i->)", |x| einsum("i,i->", &[x, x]), |_| 2.0),
    ];
    for (name, f, f2) in cases {
        let x = Tensor::scalar(0.7f64);
        let x = if name.contains("einsum") { x.reshape(&[1]).unwrap() } else { x };
        let outer = GradientTape::new();
        outer.watch(&x);
        let dy = outer
            .record(|| -> Result<Tensor> {
                let inner = GradientTape::new();
                inner.watch(&x);
                let y = inner.record(|| f(&x))?;
                Ok(inner.gradient(&y, &[&x])?[0].clone().unwrap())
            })
            .unwrap();
        let d2 = outer.gradient(&dy, &[&x]).unwrap()[0].clone().unwrap();
        let got = d2.reshape(&[]).unwrap().item::<f64>().unwrap();
        assert!((got - f2(0.7)).abs() < 1e-12, "{name}: second derivative {got} vs {}", f2(0.7));
    }
}

#[test]
fn jacobians() {
    let x = t(vec![1.0, 2.0, 3.0], &[3]);
    let tape = GradientTape::with_options(true, true);
    tape.watch(&x);
    let y = tape.record(|| ops::multiply(&ops::sin(&x)?, &x)).unwrap();
    let j = tape.jacobian(&y, &x, UnconnectedGradients::None).unwrap().unwrap();
    assert_eq!(j.shape(), &[3, 3]);
    let v = j.to_vec::<f64>().unwrap();
    for i in 0..3 {
        for k in 0..3 {
            let xi = (i + 1) as f64;
            let want = if i == k { xi.sin() + xi * xi.cos() } else { 0.0 };
            assert!((v[i * 3 + k] - want).abs() < 1e-15);
        }
    }
    // batch_jacobian: [b, 2] from [b, 3] rows
    let a = x1(1, &[4, 3], -1.0, 1.0);
    let m = x1(2, &[3, 2], -1.0, 1.0);
    let tape = GradientTape::new();
    tape.watch(&a);
    let y = tape.record(|| ops::matrix::matmul(&a, &m, false, false)).unwrap();
    let bj = tape.batch_jacobian(&y, &a, UnconnectedGradients::None).unwrap().unwrap();
    assert_eq!(bj.shape(), &[4, 2, 3]);
    let (bv, mv) = (bj.to_vec::<f64>().unwrap(), m.to_vec::<f64>().unwrap());
    for b in 0..4 {
        for o in 0..2 {
            for i in 0..3 {
                assert_eq!(bv[b * 6 + o * 3 + i], mv[i * 2 + o]);
            }
        }
    }
}

#[test]
fn custom_gradient_and_missing_rules() {
    let x = Tensor::scalar(4.0f64);
    let tape = GradientTape::new();
    tape.watch(&x);
    let y = tape
        .record(|| {
            lattensor::custom_gradient(&[&x], || {
                Ok((ops::sqrt(&x)?, |g: &[Tensor]| Ok(vec![Some(ops::multiply(&g[0], 100.0)?)])))
            })
        })
        .unwrap();
    assert_eq!(y.item::<f64>().unwrap(), 2.0);
    assert_eq!(tape.gradient(&y, &[&x]).unwrap()[0].as_ref().unwrap().item::<f64>().unwrap(), 100.0);
    // digamma's gradient is trigamma, ψ'(4) = π²/6 - 1 - 1/4 - 1/9, which has no rule of its
    // own: a second derivative is a clear error naming it, not a wrong gradient
    let outer = GradientTape::new();
    outer.watch(&x);
    let e = outer.record(|| -> Result<Tensor> {
        let tape = GradientTape::new();
        tape.watch(&x);
        let y = tape.record(|| ops::digamma(&x))?;
        let g = tape.gradient(&y, &[&x])?[0].clone().unwrap();
        let want = std::f64::consts::PI.powi(2) / 6.0 - 1.0 - 0.25 - 1.0 / 9.0;
        assert!((g.item::<f64>()? - want).abs() < 1e-15, "{g:?}");
        Ok(g)
    });
    let e = outer.gradient(&e.unwrap(), &[&x]).unwrap_err();
    assert!(e.to_string().contains("trigamma"), "{e}");
}

#[test]
fn half_precision_gradients_accumulate_in_f32() {
    use half::bf16;
    // 300 contributions of 1/3: bf16 accumulation would drift; f32 gives the bf16 of 100
    let x = Tensor::scalar(bf16::from_f32(1.0));
    let tape = GradientTape::new();
    tape.watch(&x);
    let y = tape
        .record(|| -> Result<Tensor> {
            let mut acc = ops::multiply(&x, 0.0)?;
            for _ in 0..300 {
                acc = ops::add(&acc, &ops::multiply(&x, 1.0 / 3.0)?)?;
            }
            Ok(acc)
        })
        .unwrap();
    let g = tape.gradient(&y, &[&x]).unwrap()[0].clone().unwrap();
    assert_eq!(g.dtype(), DType::BF16);
    assert_eq!(g.item::<bf16>().unwrap(), bf16::from_f32(300.0 * bf16::from_f64(1.0 / 3.0).to_f32()));
}

/// The cases of TF's `EinsumGradTest` (`tensorflow/python/kernel_tests/linalg/einsum_op_test.py`),
/// on the raw op, in float64; the complex case checks the real and imaginary parts of each input.
#[test]
fn tf_einsum_grad_test_cases() {
    let cases: Vec<(&str, Vec<Vec<usize>>)> = vec![
        // testUnary
        ("->", vec![vec![]]),
        ("aaa->a", vec![vec![3, 3, 3]]),
        ("aabcd->ad", vec![vec![3, 3, 5, 4, 4]]),
        ("aabcd->add", vec![vec![3, 3, 5, 4, 4]]),
        ("abcd->da", vec![vec![3, 5, 4, 2]]),
        // testUnaryEllipsis
        ("...->...", vec![vec![]]),
        ("...->", vec![vec![]]),
        ("->...", vec![vec![]]),
        ("a...a->a...", vec![vec![2, 2]]),
        ("a...a->", vec![vec![2, 2]]),
        ("a...a->...", vec![vec![2, 5, 1, 2]]),
        ("a...a->a...", vec![vec![2, 1, 2]]),
        ("a...a->a...", vec![vec![2, 3, 4, 5, 2]]),
        ("...ijk->...ki", vec![vec![3, 4, 5]]),
        ("...ijk->...ki", vec![vec![1, 3, 4, 5]]),
        ("...ijk->...ki", vec![vec![2, 2, 3, 4, 5]]),
        ("ab...cd->da...", vec![vec![3, 5, 2, 3, 4, 2]]),
        // testBinarySimple
        (",->", vec![vec![], vec![]]),
        ("a,a->", vec![vec![3], vec![3]]),
        ("a,a->a", vec![vec![3], vec![3]]),
        ("ab,b->a", vec![vec![3, 4], vec![4]]),
        ("ab,ab->", vec![vec![3, 4], vec![3, 4]]),
        ("ab,bc->ac", vec![vec![3, 4], vec![4, 5]]),
        ("nij,jk->nik", vec![vec![5, 2, 3], vec![3, 4]]),
        ("abc,bad->abcd", vec![vec![1, 2, 3], vec![2, 1, 4]]),
        ("sa,shb->shab", vec![vec![2, 1], vec![2, 3, 4]]),
        // testEmpty
        ("ibnd,ijbn->jnd", vec![vec![1, 0, 5, 10], vec![1, 1, 0, 5]]),
        // testReducedIndices
        ("ba,b->", vec![vec![3, 2], vec![3]]),
        ("ijkm,ijln->ijmn", vec![vec![2, 3, 3, 4], vec![2, 3, 3, 2]]),
        ("abce,badf->abcd", vec![vec![1, 2, 3, 4], vec![2, 1, 4, 3]]),
        // testReducedIndicesWithRepeatedLabels
        ("abce,badf->bcba", vec![vec![1, 2, 3, 4], vec![2, 1, 4, 3]]),
        // testRepeatedLabels
        ("aba,a->b", vec![vec![3, 4, 3], vec![3]]),
        ("ijj,k->ik", vec![vec![2, 3, 3], vec![4]]),
        ("ill,k->ik", vec![vec![2, 3, 3], vec![4]]),
        ("aab,bc->ac", vec![vec![1, 1, 3], vec![3, 4]]),
        ("aab,bcc->ac", vec![vec![2, 2, 3], vec![3, 4, 4]]),
        // testEmptyWithRepeatedLabels
        ("aab,bc->ac", vec![vec![0, 0, 10], vec![10, 10]]),
        ("aab,bc->ac", vec![vec![1, 1, 0], vec![0, 10]]),
        ("aaab,bc->c", vec![vec![0, 0, 0, 3], vec![3, 4]]),
        // testBroadcasting
        ("...ij,...jk->...ik", vec![vec![3, 2], vec![2, 4]]),
        ("ij...,jk...->ik...", vec![vec![3, 2, 1], vec![2, 4]]),
        ("...ij,...jk->...ik", vec![vec![3, 1, 3, 2], vec![1, 5, 2, 4]]),
        ("i...j,j...k->i...k", vec![vec![3, 1, 2, 2], vec![2, 2, 3, 1, 4]]),
        // testBroadcastingWithRepeatedLabels
        ("ij,jk...k->i...", vec![vec![3, 2], vec![2, 4, 1, 4]]),
        ("aab,b...c->a...c", vec![vec![1, 1, 3], vec![3, 1, 1, 4]]),
    ];
    for (k, (eq, shapes)) in cases.iter().enumerate() {
        let xs: Vec<Tensor> = shapes.iter().enumerate().map(|(i, s)| x1((10 * k + i) as u64, s, -1.0, 1.0)).collect();
        let eq = *eq;
        check(
            &format!("raw einsum {eq}"),
            move |xs| {
                let refs: Vec<&Tensor> = xs.iter().collect();
                einsum_raw(eq, &refs)
            },
            xs,
        );
    }
    // complex128: d/d(re) and d/d(im) of Re Σ w·f against the tape's conj convention
    use num_complex::Complex64;
    for (eq, shapes) in [
        ("ab,bc->ac", vec![vec![2, 3], vec![3, 2]]),
        ("aab,bc->ac", vec![vec![2, 2, 3], vec![3, 2]]),
        ("a->aa", vec![vec![3]]),
    ] {
        let xs: Vec<Tensor> = shapes
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let n: usize = s.iter().product();
                let (re, im) = (sample(n, i as u64, -1.0, 1.0), sample(n, 50 + i as u64, -1.0, 1.0));
                Tensor::from_vec(re.iter().zip(&im).map(|(&r, &m)| Complex64::new(r, m)).collect::<Vec<_>>(), s)
                    .unwrap()
            })
            .collect();
        let loss = |xs: &[Tensor]| -> Result<Tensor> {
            let refs: Vec<&Tensor> = xs.iter().collect();
            let y = einsum_raw(eq, &refs)?;
            let w = Tensor::from_vec(sample(y.numel(), 7, -1.0, 1.0), y.shape())?;
            ops::reduce_sum(&ops::multiply(&ops::real(&y)?, &w)?, None, false)
        };
        let tape = GradientTape::new();
        for x in &xs {
            tape.watch(x);
        }
        let l = tape.record(|| loss(&xs)).unwrap();
        let refs: Vec<&Tensor> = xs.iter().collect();
        let g = tape.gradient(&l, &refs).unwrap();
        for (i, x) in xs.iter().enumerate() {
            let got = g[i].as_ref().unwrap().to_vec::<Complex64>().unwrap();
            let base = x.to_vec::<Complex64>().unwrap();
            for e in 0..base.len() {
                let at = |d: Complex64| {
                    let mut v = base.clone();
                    v[e] += d;
                    let mut ys = xs.clone();
                    ys[i] = Tensor::from_vec(v, x.shape()).unwrap();
                    loss(&ys).unwrap().item::<f64>().unwrap()
                };
                let h = 1e-6;
                let d_re = (at(Complex64::new(h, 0.0)) - at(Complex64::new(-h, 0.0))) / (2.0 * h);
                let d_im = (at(Complex64::new(0.0, h)) - at(Complex64::new(0.0, -h))) / (2.0 * h);
                // TF's convention: the gradient is ∂L/∂re + i·∂L/∂im
                assert!(
                    (got[e].re - d_re).abs() < 1e-6 && (got[e].im - d_im).abs() < 1e-6,
                    "{eq}: input {i}[{e}]: {} vs {d_re}+{d_im}i",
                    got[e]
                );
            }
        }
    }
}

/// The gradient of `Σ f(xs)²` with respect to `xs[0]`, on its own tape: a
/// tape recording around it differentiates the gradient rules themselves.
fn gradient_of_square(f: impl Fn(&[Tensor]) -> Result<Tensor>, xs: &[Tensor]) -> Result<Tensor> {
    let tape = GradientTape::new();
    tape.watch(&xs[0]);
    let loss = tape.record(|| {
        let y = f(xs)?;
        ops::reduce_sum(&ops::multiply(&y, &y)?, None, false)
    })?;
    tape.gradient(&loss, &[&xs[0]])?[0].clone().ok_or_else(|| lattensor::Error::InvalidArgument("no gradient".into()))
}

#[test]
fn tnp_functions_match_finite_differences() {
    use lattensor::{TakeMode, tnp};
    let m = |seed| vec![x1(seed, &[3, 4], -1.0, 1.0)];
    // scans: sums, products (through zeros: before, at and after a slice's first zero)
    check("tnp.cumsum axis 1", |xs| tnp::cumsum(&xs[0], Some(1), None), m(31));
    check("tnp.cumsum flattened", |xs| tnp::cumsum(&xs[0], None, None), m(32));
    check("tnp.cumsum axis 0 of 3-D", |xs| tnp::cumsum(&xs[0], Some(0), None), vec![x1(33, &[3, 2, 2], -1.0, 1.0)]);
    check("tnp.cumprod axis 0", |xs| tnp::cumprod(&xs[0], Some(0), None), m(34));
    check("tnp.cumprod flattened", |xs| tnp::cumprod(&xs[0], None, None), m(35));
    let zeros = t(vec![1.5, 0.0, -2.0, 0.5, 0.0, 3.0, 0.7, -1.2, 0.4, 0.0, 0.0, 2.0], &[3, 4]);
    check("tnp.cumprod through zeros", |xs| tnp::cumprod(&xs[0], Some(1), None), vec![zeros.clone()]);
    check("tnp.prod through zeros", |xs| tnp::prod(&xs[0], 1, None, false), vec![zeros]);
    check("tnp.diff", |xs| tnp::diff(&xs[0], 2, 0), vec![x1(36, &[4, 3], -1.0, 1.0)]);
    // selections
    check("tnp.sort axis 1", |xs| tnp::sort(&xs[0], Some(1)), m(37));
    check("tnp.sort axis 0", |xs| tnp::sort(&xs[0], Some(0)), m(38));
    check("tnp.sort flattened", |xs| tnp::sort(&xs[0], None), m(39));
    check("tnp.repeat counts", |xs| tnp::repeat(&xs[0], &[2, 0, 1, 3], Some(1)), m(40));
    check("tnp.repeat flattened", |xs| tnp::repeat(&xs[0], &[2], None), m(41));
    check("tnp.take", |xs| tnp::take(&xs[0], vec![vec![0, 11], vec![5, 5]], None, TakeMode::Clip), m(42));
    check("tnp.take clipped", |xs| tnp::take(&xs[0], [-1, 9, 2], Some(1), TakeMode::Clip), m(43));
    check("tnp.diagonal", |xs| tnp::diagonal(&xs[0], -1, 2, 0), vec![x1(44, &[3, 2, 4], -1.0, 1.0)]);
    check("tnp.diag of a vector", |xs| tnp::diag(&xs[0], -2), vec![x1(45, &[3], -1.0, 1.0)]);
    check("tnp.diag of a matrix", |xs| tnp::diag(&xs[0], 1), m(46));
    check("tnp.diagflat", |xs| tnp::diagflat(&xs[0], 1), vec![x1(47, &[2, 2], -1.0, 1.0)]);
    check("tnp.trace", |xs| tnp::trace(&xs[0], 1, 0, 1, None), m(48));
    check("tnp.triu", |xs| tnp::triu(&xs[0], -1), vec![x1(49, &[2, 3, 3], -1.0, 1.0)]);
    check("tnp.tril", |xs| tnp::tril(&xs[0], 1), m(50));
    check("tnp.roll", |xs| tnp::roll(&xs[0], &[1, -2], Some(&[0, 1])), m(51));
    check("tnp.tile", |xs| tnp::tile(&xs[0], &[2, 1, 2]), m(52));
    check("tnp.rot90", |xs| tnp::rot90(&xs[0], 3, (1, 0)), m(53));
    check(
        "tnp.append",
        |xs| tnp::append(&xs[0], &xs[1], Some(0)),
        vec![x1(54, &[3, 4], -1.0, 1.0), x1(55, &[1, 4], -1.0, 1.0)],
    );
    // element-wise functions, built from kernels, with rules of their own
    check("tnp.cbrt", |xs| tnp::cbrt(&xs[0]), vec![t(vec![-2.0, -0.3, 0.4, 1.7], &[4])]);
    check("tnp.exp2", |xs| tnp::exp2(&xs[0]), m(56));
    check("tnp.log2", |xs| tnp::log2(&xs[0]), vec![x1(57, &[5], 0.5, 3.0)]);
    check("tnp.log10", |xs| tnp::log10(&xs[0]), vec![x1(58, &[5], 0.5, 3.0)]);
    check("tnp.sinc", |xs| tnp::sinc(&xs[0]), vec![t(vec![0.0, 1e-3, -0.5, 1.0, 2.5], &[5])]);
    check(
        "tnp.heaviside x2",
        |xs| tnp::heaviside(t(vec![-1.0, 0.0, 2.0, 0.0], &[4]), &xs[0]),
        vec![x1(59, &[4], -1.0, 1.0)],
    );
    // reductions and constructions from recorded ops
    check("tnp.nanmean", |xs| tnp::nanmean(&xs[0], 0, None, false), m(60));
    check("tnp.vander", |xs| tnp::vander(&xs[0], Some(4), false), vec![t(vec![0.0, -1.3, 0.6], &[3])]);
    let f64_ = Some(DType::F64);
    check(
        "tnp.linspace",
        move |xs| tnp::linspace(&xs[0], &xs[1], 4, true, f64_, 1),
        vec![x1(61, &[2, 1], -1.0, 1.0), x1(62, &[3], 2.0, 3.0)],
    );
    check(
        "tnp.linspace without the endpoint",
        move |xs| tnp::linspace(&xs[0], &xs[1], 3, false, f64_, 0),
        vec![x1(63, &[], -1.0, 1.0), x1(64, &[], 2.0, 3.0)],
    );
    check(
        "tnp.logspace",
        move |xs| tnp::logspace(&xs[0], &xs[1], 4, true, 2.0, f64_, 0),
        vec![x1(65, &[2], -1.0, 1.0), x1(66, &[], 0.5, 1.0)],
    );
    check(
        "tnp.geomspace",
        move |xs| tnp::geomspace(&xs[0], &xs[1], 4, true, f64_, -1),
        vec![x1(67, &[2], -2.0, -0.5), x1(68, &[2], -3.0, -1.0)],
    );
    // the new rules are differentiable again: their gradients against finite differences
    check("second order: tnp.cumsum", |xs| gradient_of_square(|ys| tnp::cumsum(&ys[0], Some(1), None), xs), m(69));
    check("second order: tnp.cumprod", |xs| gradient_of_square(|ys| tnp::cumprod(&ys[0], Some(1), None), xs), m(70));
    check("second order: tnp.sort", |xs| gradient_of_square(|ys| tnp::sort(&ys[0], Some(0)), xs), m(71));
    check("second order: tnp.cbrt", |xs| gradient_of_square(|ys| tnp::cbrt(&ys[0]), xs), vec![x1(72, &[4], 0.5, 2.0)]);
    check("second order: tnp.sinc", |xs| gradient_of_square(|ys| tnp::sinc(&ys[0]), xs), vec![x1(73, &[4], 0.2, 2.0)]);
}

#[test]
fn complex_cumprod_follows_tfs_conjugate_convention() {
    use lattensor::tnp;
    use num_complex::Complex64;
    // L = real(Σ w·cumprod(z)); TF's gradient is ∂L/∂re + i·∂L/∂im
    let parts = [(0.5, 1.0), (-1.0, 0.3), (0.0, 0.0), (0.8, -0.6)];
    let w = [Complex64::new(0.3, -0.7), Complex64::new(-1.1, 0.2), Complex64::new(0.6, 0.9), Complex64::new(0.4, 0.5)];
    let loss = |p: &[(f64, f64)]| -> Result<Tensor> {
        let z = Tensor::from_vec(p.iter().map(|&(a, b)| Complex64::new(a, b)).collect::<Vec<_>>(), &[4])?;
        let wt = Tensor::from_vec(w.to_vec(), &[4])?;
        ops::real(&ops::reduce_sum(&ops::multiply(&tnp::cumprod(&z, None, None)?, &wt)?, None, false)?)
    };
    let z = Tensor::from_vec(parts.iter().map(|&(a, b)| Complex64::new(a, b)).collect::<Vec<_>>(), &[4]).unwrap();
    let tape = GradientTape::new();
    tape.watch(&z);
    let y = tape
        .record(|| {
            let wt = Tensor::from_vec(w.to_vec(), &[4])?;
            ops::real(&ops::reduce_sum(&ops::multiply(&tnp::cumprod(&z, None, None)?, &wt)?, None, false)?)
        })
        .unwrap();
    let g = tape.gradient(&y, &[&z]).unwrap()[0].clone().unwrap().to_vec::<Complex64>().unwrap();
    let h = 1e-6;
    for k in 0..4 {
        let at = |dre: f64, dim: f64| {
            let mut p = parts.to_vec();
            p[k].0 += dre;
            p[k].1 += dim;
            loss(&p).unwrap().item::<f64>().unwrap()
        };
        let want = Complex64::new((at(h, 0.0) - at(-h, 0.0)) / (2.0 * h), (at(0.0, h) - at(0.0, -h)) / (2.0 * h));
        assert!((g[k] - want).norm() < 1e-6, "d/dz[{k}]: tape {} vs finite differences {want}", g[k]);
    }
}
