//! Gradients of the Fourier transforms and the matrix decompositions against
//! central differences in f64 (complex128 for complex inputs, where TF's
//! convention makes the gradient `∂L/∂re + i·∂L/∂im`).

use lattensor::ops::decomp::{self, QrMode};
use lattensor::ops::fft::{self, Norm};
use lattensor::ops::linalg::matrix_transpose;
use lattensor::{GradientTape, Result, Tensor, ops};
use num_complex::Complex64;

use crate::gradients::{check, sample, t, tape_gradients, x1};

/// A complex tensor with parts drawn from `[-1, 1)`.
fn z1(seed: u64, shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let (re, im) = (sample(n, seed, -1.0, 1.0), sample(n, seed + 1000, -1.0, 1.0));
    Tensor::from_vec(re.iter().zip(&im).map(|(&a, &b)| Complex64::new(a, b)).collect::<Vec<_>>(), shape).unwrap()
}

/// A real-valued view of a complex result: `re + 0.7 · im` (both parts count).
fn parts(y: &Tensor) -> Result<Tensor> {
    if !y.dtype().is_complex() {
        return Ok(y.clone());
    }
    ops::add(&ops::real(y)?, &ops::multiply(&ops::imag(y)?, 0.7)?)
}

/// `Σ w · f(zs)` for fixed weights, `f` real-valued.
fn loss(f: &dyn Fn(&[Tensor]) -> Result<Tensor>, zs: &[Tensor]) -> Result<Tensor> {
    let y = f(zs)?;
    let w = t(sample(y.numel(), 77, -1.0, 1.0), y.shape());
    ops::reduce_sum(&ops::multiply(&y, &w)?, None, false)
}

/// Checks the tape's gradient of every complex input against central
/// differences of the real and imaginary parts.
fn check_complex(name: &str, f: impl Fn(&[Tensor]) -> Result<Tensor>, zs: Vec<Tensor>) {
    let grads = tape_gradients(name, &zs, || loss(&f, &zs));
    for (i, (z, g)) in zs.iter().zip(&grads).enumerate() {
        let got = g.to_vec::<Complex64>().unwrap();
        let base = z.to_vec::<Complex64>().unwrap();
        for k in 0..base.len() {
            let h = 1e-6;
            let at = |d: Complex64| {
                let mut v = base.clone();
                v[k] += d;
                let mut ys = zs.clone();
                ys[i] = Tensor::from_vec(v, z.shape()).unwrap();
                loss(&f, &ys).unwrap().item::<f64>().unwrap()
            };
            let (re, im) = (Complex64::new(h, 0.0), Complex64::new(0.0, h));
            let want = Complex64::new((at(re) - at(-re)) / (2.0 * h), (at(im) - at(-im)) / (2.0 * h));
            let tol = 1e-5 * want.norm().max(1.0);
            assert!(
                (got[k] - want).norm() <= tol,
                "{name}: d/dz{i}[{k}]: tape {} vs finite differences {want}",
                got[k]
            );
        }
    }
}

const NORMS: [Norm; 3] = [Norm::Backward, Norm::Ortho, Norm::Forward];

#[test]
fn fourier_transforms_of_real_input_match_finite_differences() {
    for norm in NORMS {
        for n in [None, Some(4), Some(9)] {
            for axis in [-1, 0] {
                let x = x1(5, &[5, 6], -1.0, 1.0);
                let tag = format!("{norm:?} n={n:?} axis={axis}");
                check(&format!("fft {tag}"), |xs| parts(&fft::fft(&xs[0], n, axis, norm)?), vec![x.clone()]);
                check(&format!("ifft {tag}"), |xs| parts(&fft::ifft(&xs[0], n, axis, norm)?), vec![x.clone()]);
                check(&format!("rfft {tag}"), |xs| parts(&fft::rfft(&xs[0], n, axis, norm)?), vec![x.clone()]);
                check(&format!("ihfft {tag}"), |xs| parts(&fft::ihfft(&xs[0], n, axis, norm)?), vec![x]);
            }
        }
    }
    let x = x1(6, &[3, 4, 5], -1.0, 1.0);
    check("rfftn", |xs| parts(&fft::rfftn(&xs[0], Some(&[4, 6]), Some(&[0, 2]), Norm::Ortho)?), vec![x.clone()]);
    check("fftn", |xs| parts(&fft::fftn(&xs[0], None, None, Norm::Backward)?), vec![x]);
}

#[test]
fn fourier_transforms_of_complex_input_match_finite_differences() {
    for norm in NORMS {
        for n in [None, Some(5), Some(6), Some(11)] {
            let z = z1(7, &[2, 5]);
            let tag = format!("{norm:?} n={n:?}");
            check_complex(&format!("fft {tag}"), |zs| parts(&fft::fft(&zs[0], n, -1, norm)?), vec![z.clone()]);
            check_complex(&format!("ifft {tag}"), |zs| parts(&fft::ifft(&zs[0], n, 0, norm)?), vec![z.clone()]);
            check_complex(&format!("irfft {tag}"), |zs| fft::irfft(&zs[0], n, -1, norm), vec![z.clone()]);
            check_complex(&format!("hfft {tag}"), |zs| fft::hfft(&zs[0], n, -1, norm), vec![z]);
        }
    }
    let z = z1(8, &[3, 4, 4]);
    check_complex("irfftn", |zs| fft::irfftn(&zs[0], Some(&[3, 6]), Some(&[0, 2]), Norm::Backward), vec![z.clone()]);
    check_complex("ifftn", |zs| parts(&fft::ifftn(&zs[0], Some(&[2, 5]), None, Norm::Ortho)?), vec![z]);
}

/// A well-conditioned batch of square matrices: random entries plus `shift · I`.
fn square(seed: u64, batch: &[usize], n: usize, shift: f64) -> Tensor {
    let mut shape = batch.to_vec();
    shape.extend([n, n]);
    ops::add(
        &x1(seed, &shape, -1.0, 1.0),
        &ops::multiply(&lattensor::eye(n, None, lattensor::DType::F64).unwrap(), shift).unwrap(),
    )
    .unwrap()
}

/// `(s + sᴴ) / 2`: the forward's input made Hermitian, so that every rule is
/// checked on the function of a Hermitian matrix it is defined for.
fn hermitian(s: &Tensor) -> Result<Tensor> {
    ops::multiply(&ops::add(s, &matrix_transpose(s, true)?)?, 0.5)
}

#[test]
fn inverse_determinant_and_solve_match_finite_differences() {
    let a = square(11, &[2], 3, 3.0);
    check("inv", |xs| decomp::inv(&xs[0]), vec![a.clone()]);
    check("det", |xs| decomp::det(&xs[0]), vec![a.clone()]);
    check("slogdet", |xs| Ok(decomp::slogdet(&xs[0])?.1), vec![ops::negative(&a).unwrap()]);
    let b = x1(12, &[3, 2], -1.0, 1.0);
    check("solve (b broadcast over the batch)", |xs| decomp::solve(&xs[0], &xs[1]), vec![a.clone(), b]);
    let z = ops::add(
        &z1(13, &[3, 3]),
        &ops::multiply(&lattensor::eye(3, None, lattensor::DType::C128).unwrap(), 3.0).unwrap(),
    )
    .unwrap();
    check_complex("complex inv", |zs| parts(&decomp::inv(&zs[0])?), vec![z.clone()]);
    check_complex("complex det", |zs| parts(&decomp::det(&zs[0])?), vec![z.clone()]);
    check_complex("complex slogdet", |zs| Ok(decomp::slogdet(&zs[0])?.1), vec![z.clone()]);
    check_complex("complex solve", |zs| parts(&decomp::solve(&zs[0], &zs[1])?), vec![z, z1(14, &[3, 2])]);
}

#[test]
fn cholesky_and_eigh_match_finite_differences() {
    // a positive-definite Hermitian matrix from any s near the sample: sym(s) + 4I
    let pd = |s: &Tensor| -> Result<Tensor> {
        let n = s.shape()[s.rank() - 1];
        ops::add(&hermitian(s)?, &ops::multiply(&lattensor::eye(n, None, s.dtype())?, 4.0)?)
    };
    let s = x1(21, &[2, 3, 3], -1.0, 1.0);
    check("cholesky", |xs| decomp::cholesky(&pd(&xs[0])?, false), vec![s.clone()]);
    check("cholesky upper", |xs| decomp::cholesky(&pd(&xs[0])?, true), vec![s.clone()]);
    check("eigvalsh", |xs| decomp::eigvalsh(&hermitian(&xs[0])?), vec![s.clone()]);
    check("eigh values", |xs| Ok(decomp::eigh(&hermitian(&xs[0])?)?.0), vec![s.clone()]);
    // eigenvectors are defined up to sign: v ∘ v is not
    check("eigh vectors", |xs| ops::square(&decomp::eigh(&hermitian(&xs[0])?)?.1), vec![s]);
    let z = z1(22, &[3, 3]);
    check_complex("complex cholesky", |zs| parts(&decomp::cholesky(&pd(&zs[0])?, false)?), vec![z.clone()]);
    check_complex("complex eigvalsh", |zs| decomp::eigvalsh(&hermitian(&zs[0])?), vec![z.clone()]);
    // complex eigenvectors are defined up to a phase: |v|² is not
    check_complex(
        "complex eigh vectors",
        |zs| ops::abs(&decomp::eigh(&hermitian(&zs[0])?)?.1).and_then(|a| ops::square(&a)),
        vec![z],
    );
}

#[test]
fn svd_and_qr_match_finite_differences() {
    for shape in [[4usize, 3], [3, 4], [3, 3]] {
        let a = x1(31, &[2, shape[0], shape[1]], -1.0, 1.0);
        let tag = format!("{shape:?}");
        check(&format!("svdvals {tag}"), |xs| decomp::svdvals(&xs[0]), vec![a.clone()]);
        check(&format!("svd s {tag}"), |xs| Ok(decomp::svd(&xs[0], false)?.1), vec![a.clone()]);
        // singular vectors are defined up to sign: u ∘ u, vh ∘ vh and u · vh are not
        check(&format!("svd u {tag}"), |xs| ops::square(&decomp::svd(&xs[0], false)?.0), vec![a.clone()]);
        check(&format!("svd vh {tag}"), |xs| ops::square(&decomp::svd(&xs[0], false)?.2), vec![a.clone()]);
        check(
            &format!("svd u·vh {tag}"),
            |xs| {
                let (u, _, vh) = decomp::svd(&xs[0], false)?;
                ops::linalg::matmul(&u, &vh, false, false)
            },
            vec![a.clone()],
        );
        if shape[0] >= shape[1] {
            check(&format!("qr q {tag}"), |xs| Ok(decomp::qr(&xs[0], QrMode::Reduced)?.0), vec![a.clone()]);
            check(&format!("qr r {tag}"), |xs| Ok(decomp::qr(&xs[0], QrMode::Reduced)?.1), vec![a.clone()]);
        }
    }
    let z = z1(32, &[4, 3]);
    check_complex("complex svdvals", |zs| decomp::svdvals(&zs[0]), vec![z.clone()]);
    check_complex(
        "complex svd |u|²",
        |zs| ops::abs(&decomp::svd(&zs[0], false)?.0).and_then(|a| ops::square(&a)),
        vec![z.clone()],
    );
    check_complex(
        "complex svd u·vh",
        |zs| {
            let (u, _, vh) = decomp::svd(&zs[0], false)?;
            parts(&ops::linalg::matmul(&u, &vh, false, false)?)
        },
        vec![z.clone()],
    );
    check_complex("complex qr q", |zs| parts(&decomp::qr(&zs[0], QrMode::Reduced)?.0), vec![z.clone()]);
    check_complex("complex qr r", |zs| parts(&decomp::qr(&zs[0], QrMode::Reduced)?.1), vec![z]);
}

#[test]
fn gradients_the_rules_do_not_define_are_errors_naming_the_op() {
    let wide = x1(41, &[2, 3], -1.0, 1.0);
    let tape = GradientTape::new();
    tape.watch(&wide);
    let q = tape.record(|| decomp::qr(&wide, QrMode::Reduced).map(|r| r.0)).unwrap();
    let err = tape.gradient(&q, &[&wide]).unwrap_err().to_string();
    assert!(err.contains("qr: the gradient is defined for matrices with at least as many rows"), "{err}");
    let tape = GradientTape::new();
    tape.watch(&wide);
    let u = tape.record(|| decomp::svd(&wide, true).map(|r| r.0)).unwrap();
    let err = tape.gradient(&u, &[&wide]).unwrap_err().to_string();
    assert!(
        err.contains("svd: the gradient of full_matrices=True is defined for square matrices only, got 2 × 3"),
        "{err}"
    );
}
