//! The linalg decompositions checked by their defining laws over every inexact
//! dtype: `A = L Lᴴ`, `Q R = A` with orthonormal `Q`, `A V = V diag(w)`,
//! `U diag(S) Vh = A`, `inv(A) A = I`, `A solve(A, B) = B`, `A pinv(A) A = A`,
//! `sign · exp(logabsdet) = det`; plus dtypes, shapes and the errors.
//!
//! Products are taken in complex128 after casting the factors, so each law
//! measures the factorisation's error, not the product's.

use lattensor::ops::decomp::{self, MatrixOrd, QrMode};
use lattensor::{DType, Error, Tensor, linalg};
use num_complex::Complex64;

const DTYPES: [DType; 6] = [DType::F32, DType::F64, DType::C64, DType::C128, DType::F16, DType::BF16];

/// A relative tolerance for results computed in (or rounded to) `d`.
fn tol(d: DType) -> f64 {
    match d {
        DType::F64 | DType::C128 => 1e-10,
        DType::F32 | DType::C64 => 1e-4,
        DType::F16 => 1e-2,
        _ => 6e-2,
    }
}

/// Deterministic values in [-1, 1) from a linear congruential generator.
fn values(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// A `shape` tensor of dtype `d` with values from `seed` (complex parts for complex dtypes).
fn random(seed: u64, shape: &[usize], d: DType) -> Tensor {
    let n: usize = shape.iter().product();
    let re = values(seed, n);
    let t = if d.is_complex() {
        let im = values(seed + 1000, n);
        Tensor::from_vec(re.iter().zip(&im).map(|(&r, &i)| Complex64::new(r, i)).collect(), shape).unwrap()
    } else {
        Tensor::from_vec(re, shape).unwrap()
    };
    t.cast(d).unwrap()
}

fn c128(t: &Tensor) -> Tensor {
    t.cast(DType::C128).unwrap()
}

fn mm(a: &Tensor, b: &Tensor) -> Tensor {
    linalg::matmul(&c128(a), &c128(b), false, false).unwrap()
}

fn adj(a: &Tensor) -> Tensor {
    linalg::matrix_transpose(&c128(a), true).unwrap()
}

/// `max |a - b| ≤ tol · max(1, max |b|)`.
fn assert_close(a: &Tensor, b: &Tensor, tol: f64, what: &str) {
    assert_eq!(a.shape(), b.shape(), "{what}: shapes");
    let (a, b) = (a.to_vec::<Complex64>().unwrap(), b.to_vec::<Complex64>().unwrap());
    let scale = b.iter().map(|v| v.norm()).fold(1.0, f64::max);
    let err = a.iter().zip(&b).map(|(x, y)| (x - y).norm()).fold(0.0, f64::max);
    assert!(err <= tol * scale, "{what}: error {err} > {tol} · {scale}");
}

/// A Hermitian positive-definite stack `B Bᴴ + n I` of dtype `d`.
fn hpd(seed: u64, batch: &[usize], n: usize, d: DType) -> Tensor {
    let mut shape = batch.to_vec();
    shape.extend([n, n]);
    let b = random(seed, &shape, DType::C128);
    let b = if d.is_complex() { b } else { b.cast(DType::F64).unwrap().cast(DType::C128).unwrap() };
    let eye = lattensor::eye(n, None, DType::C128).unwrap();
    let a = lattensor::ops::add(&mm(&b, &adj(&b)), &lattensor::ops::multiply(&eye, n as f64).unwrap()).unwrap();
    // exactly Hermitian after rounding to d: average with the adjoint in d
    let a = a.cast(d).unwrap();
    let ah = linalg::matrix_transpose(&a, true).unwrap();
    lattensor::ops::multiply(&lattensor::ops::add(&a, &ah).unwrap(), 0.5).unwrap()
}

fn eye_like(n: usize, batch: &[usize]) -> Tensor {
    let mut shape = batch.to_vec();
    shape.extend([n, n]);
    lattensor::eye(n, None, DType::C128).unwrap().broadcast_to(&shape).unwrap()
}

#[test]
fn cholesky_factors_reproduce_the_matrix() {
    for d in DTYPES {
        let a = hpd(1, &[2], 4, d);
        for upper in [false, true] {
            let f = decomp::cholesky(&a, upper).unwrap();
            assert_eq!((f.dtype(), f.shape()), (d, &[2usize, 4, 4][..]), "{d}");
            let back = if upper { mm(&adj(&f), &f) } else { mm(&f, &adj(&f)) };
            assert_close(&back, &c128(&a), tol(d), &format!("cholesky {d} upper={upper}"));
            // the factor is triangular
            let v = f.to_vec::<Complex64>().unwrap();
            for (i, x) in v.iter().enumerate() {
                let (r, c) = ((i / 4) % 4, i % 4);
                if (upper && c < r) || (!upper && c > r) {
                    assert_eq!(*x, Complex64::new(0.0, 0.0), "{d} upper={upper} [{r},{c}]");
                }
            }
        }
    }
}

#[test]
fn qr_gives_orthonormal_q_and_triangular_r() {
    for d in DTYPES {
        for (m, n) in [(5, 3), (3, 5), (4, 4)] {
            let a = random(2, &[3, m, n], d);
            for mode in [QrMode::Reduced, QrMode::Complete] {
                let (q, r) = decomp::qr(&a, mode).unwrap();
                let k = if mode == QrMode::Complete { m } else { m.min(n) };
                assert_eq!((q.shape(), r.shape()), (&[3, m, k][..], &[3, k, n][..]), "{d} {mode:?}");
                assert_eq!((q.dtype(), r.dtype()), (d, d));
                assert_close(&mm(&q, &r), &c128(&a), tol(d), &format!("QR = A, {d} {m}×{n} {mode:?}"));
                assert_close(&mm(&adj(&q), &q), &eye_like(k, &[3]), tol(d), &format!("QᴴQ = I, {d} {mode:?}"));
                let rv = r.to_vec::<Complex64>().unwrap();
                for (i, x) in rv.iter().enumerate() {
                    let (row, col) = ((i / n) % k, i % n);
                    if col < row {
                        assert_eq!(x.norm(), 0.0, "R is upper triangular: {d}");
                    }
                }
            }
        }
    }
}

#[test]
fn eigh_diagonalises_hermitian_matrices() {
    for d in DTYPES {
        let a = hpd(3, &[2], 5, d);
        let (w, v) = decomp::eigh(&a).unwrap();
        assert_eq!((w.dtype(), v.dtype(), w.shape()), (d.real_dtype(), d, &[2usize, 5][..]));
        let wv = w.to_vec::<f64>().unwrap();
        assert!(wv.chunks(5).all(|c| c.windows(2).all(|p| p[0] <= p[1])), "{d}: ascending {wv:?}");
        let wd = linalg::diag(&c128(&w)).unwrap();
        assert_close(&mm(&a, &v), &mm(&v, &wd), tol(d) * 10.0, &format!("A V = V diag(w), {d}"));
        assert_close(&decomp::eigvalsh(&a).unwrap(), &w, tol(d) * 10.0, &format!("eigvalsh, {d}"));
    }
}

#[test]
fn svd_reconstructs_and_orders_singular_values() {
    for d in DTYPES {
        for (m, n) in [(5, 3), (3, 5)] {
            let a = random(4, &[2, m, n], d);
            let k = m.min(n);
            let (u, s, vh) = decomp::svd(&a, false).unwrap();
            assert_eq!((u.shape(), s.shape(), vh.shape()), (&[2, m, k][..], &[2, k][..], &[2, k, n][..]));
            assert_eq!((u.dtype(), s.dtype(), vh.dtype()), (d, d.real_dtype(), d));
            let sd = linalg::diag(&c128(&s)).unwrap();
            assert_close(&mm(&mm(&u, &sd), &vh), &c128(&a), tol(d) * 10.0, &format!("U S Vh = A, {d}"));
            let sv = s.to_vec::<f64>().unwrap();
            assert!(sv.chunks(k).all(|c| c.windows(2).all(|p| p[0] >= p[1]) && c[k - 1] >= 0.0), "{d}");
            assert_close(&decomp::svdvals(&a).unwrap(), &s, tol(d), &format!("svdvals, {d}"));
            let (uf, _, vhf) = decomp::svd(&a, true).unwrap();
            assert_eq!((uf.shape(), vhf.shape()), (&[2, m, m][..], &[2, n, n][..]));
            assert_close(&mm(&adj(&uf), &uf), &eye_like(m, &[2]), tol(d) * 10.0, "full U is unitary");
            // TF's order: (s, u, v) with A = u diag(s) vᴴ
            let (s2, u2, v2) = linalg::svd(&a, false).unwrap();
            assert_close(
                &mm(&mm(&u2, &linalg::diag(&c128(&s2)).unwrap()), &adj(&v2)),
                &c128(&a),
                tol(d) * 10.0,
                "tf svd",
            );
        }
    }
}

#[test]
fn inverse_and_solve_satisfy_their_equations() {
    for d in DTYPES {
        let a = hpd(5, &[3], 4, d);
        let ai = decomp::inv(&a).unwrap();
        assert_eq!((ai.dtype(), ai.shape()), (d, a.shape()));
        assert_close(&mm(&ai, &a), &eye_like(4, &[3]), tol(d) * 10.0, &format!("inv(A) A = I, {d}"));
        // batch axes broadcast: b has no batch
        let b = random(6, &[4, 2], d);
        let x = decomp::solve(&a, &b).unwrap();
        assert_eq!((x.dtype(), x.shape()), (d, &[3usize, 4, 2][..]));
        assert_close(&mm(&a, &x), &c128(&b.broadcast_to(&[3, 4, 2]).unwrap()), tol(d) * 10.0, &format!("A x = b, {d}"));
        assert_close(&linalg::solve(&a, &b, true).unwrap(), &x, tol(d) * 10.0, "Hermitian: adjoint solve agrees");
    }
}

#[test]
fn determinants_agree_with_slogdet_and_multiply() {
    for d in DTYPES {
        let (a, b) = (random(7, &[2, 3, 3], d), random(8, &[2, 3, 3], d));
        let da = decomp::det(&a).unwrap();
        assert_eq!((da.dtype(), da.shape()), (d, &[2usize][..]));
        let (sign, logabs) = decomp::slogdet(&a).unwrap();
        assert_eq!((sign.dtype(), logabs.dtype()), (d, d.real_dtype()));
        let back = lattensor::ops::multiply(
            &c128(&sign),
            &c128(&lattensor::ops::exp(&logabs.cast(DType::F64).unwrap()).unwrap()),
        )
        .unwrap();
        assert_close(&back, &c128(&da), tol(d) * 10.0, &format!("sign · exp(logabsdet) = det, {d}"));
        if !matches!(d, DType::F16 | DType::BF16) {
            let ab = decomp::det(&mm(&a, &b).cast(d).unwrap()).unwrap();
            let prod = lattensor::ops::multiply(&c128(&da), &c128(&decomp::det(&b).unwrap())).unwrap();
            assert_close(&ab, &prod, tol(d) * 10.0, &format!("det(AB) = det(A) det(B), {d}"));
        }
    }
    let singular = Tensor::from_vec(vec![1.0f64, 2.0, 2.0, 4.0], &[2, 2]).unwrap();
    let (s, l) = decomp::slogdet(&singular).unwrap();
    assert_eq!((s.item::<f64>().unwrap(), l.item::<f64>().unwrap()), (0.0, f64::NEG_INFINITY));
    assert_eq!(decomp::det(&singular).unwrap().item::<f64>().unwrap(), 0.0);
}

#[test]
fn pinv_rank_and_norms() {
    for d in [DType::F32, DType::F64, DType::C64, DType::C128] {
        let a = random(9, &[4, 3], d);
        let p = decomp::pinv(&a, None).unwrap();
        assert_eq!((p.dtype(), p.shape()), (d, &[3usize, 4][..]));
        assert_close(&mm(&mm(&a, &p), &a), &c128(&a), tol(d) * 10.0, &format!("A pinv(A) A = A, {d}"));
        // a rank-2 4×4 matrix: the product of 4×2 and 2×4 factors
        let low = mm(&random(10, &[4, 2], d), &random(11, &[2, 4], d)).cast(d).unwrap();
        assert_eq!(decomp::matrix_rank(&low, None).unwrap().to_vec::<i64>().unwrap(), vec![2]);
        let s = decomp::svdvals(&a).unwrap().cast(DType::F64).unwrap().to_vec::<f64>().unwrap();
        let two = decomp::matrix_norm(&a, MatrixOrd::Two(false), false).unwrap();
        assert_eq!(two.dtype(), d.real_dtype());
        assert!((two.item::<f64>().unwrap() - s[0]).abs() <= tol(d) * s[0]);
        let nuc = decomp::matrix_norm(&a, MatrixOrd::Nuc, true).unwrap();
        assert_eq!(nuc.shape(), &[1, 1]);
        assert!((nuc.item::<f64>().unwrap() - s.iter().sum::<f64>()).abs() <= tol(d) * 10.0);
        let fro = decomp::matrix_norm(&a, MatrixOrd::Fro, false).unwrap().item::<f64>().unwrap();
        assert!((fro - s.iter().map(|v| v * v).sum::<f64>().sqrt()).abs() <= tol(d) * 10.0, "‖A‖_F² = Σ s², {d}");
    }
    let a = Tensor::from_vec(vec![1.0f64, -2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let norm = |o| decomp::matrix_norm(&a, o, false).unwrap().item::<f64>().unwrap();
    assert_eq!((norm(MatrixOrd::One(false)), norm(MatrixOrd::One(true))), (6.0, 4.0));
    assert_eq!((norm(MatrixOrd::Inf(false)), norm(MatrixOrd::Inf(true))), (7.0, 3.0));
}

#[test]
fn tf_names_follow_tf_conventions() {
    let a = hpd(12, &[], 3, DType::F64);
    let l = linalg::cholesky(&a).unwrap();
    assert_close(&mm(&l, &adj(&l)), &c128(&a), 1e-12, "tf cholesky");
    let logdet = linalg::logdet(&a).unwrap().item::<f64>().unwrap();
    let (_, logabs) = decomp::slogdet(&a).unwrap();
    assert!((logdet - logabs.item::<f64>().unwrap()).abs() < 1e-12);
    let (q, r) = linalg::qr(&random(13, &[4, 2], DType::F64), true).unwrap();
    assert_eq!((q.shape(), r.shape()), (&[4usize, 4][..], &[4usize, 2][..]));
    let p = linalg::pinv(&random(14, &[3, 2], DType::F32), None).unwrap();
    assert_eq!(p.shape(), &[2, 3]);
    // weakness survives: a weak float32 input gives a weak float32 result
    let w = Tensor::from_vec(vec![2.0f32, 0.0, 0.0, 2.0], &[2, 2]).unwrap().with_weak(true);
    let wi = linalg::inv(&w, false).unwrap();
    assert_eq!((wi.dtype(), wi.is_weak()), (DType::F32, true));
}

#[test]
fn bad_inputs_are_errors_naming_the_op() {
    let ints = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
    for (op, r) in [
        ("inv", decomp::inv(&ints).err()),
        ("cholesky", decomp::cholesky(&ints, false).err()),
        ("det", decomp::det(&ints).err()),
        ("svd", decomp::svd(&ints, false).err()),
        ("eigh", decomp::eigh(&ints).err()),
    ] {
        let e = r.unwrap_or_else(|| panic!("{op} accepted int32"));
        assert!(matches!(e, Error::UnsupportedDType { dtype: DType::I32, .. }), "{op}: {e}");
        assert!(e.to_string().starts_with(op) && e.to_string().contains("cast"), "{e}");
    }
    let rect = random(15, &[2, 3], DType::F64);
    let e = decomp::inv(&rect).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)) && e.to_string().contains("square"), "{e}");
    let e = decomp::det(&random(16, &[3], DType::F64)).unwrap_err();
    assert!(e.to_string().contains("rank ≥ 2"), "{e}");
    let singular = Tensor::from_vec(vec![1.0f64, 2.0, 2.0, 4.0, 1.0, 0.0, 0.0, 1.0], &[2, 2, 2]).unwrap();
    let e = decomp::inv(&singular.slice(&[lattensor::SliceArg::range(0, 1)]).unwrap()).unwrap_err();
    assert!(e.to_string().contains("inv: input is not invertible"), "{e}");
    let e = decomp::solve(&singular, &random(17, &[2, 1], DType::F64)).unwrap_err();
    assert!(e.to_string().contains("matrix 0 of the batch"), "{e}");
    let indefinite = Tensor::from_vec(vec![1.0f32, 2.0, 2.0, 1.0], &[2, 2]).unwrap();
    let e = decomp::cholesky(&indefinite, false).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)) && e.to_string().contains("not Hermitian positive-definite"), "{e}");
    let e = decomp::solve(&random(18, &[3, 3], DType::F64), &random(19, &[2, 1], DType::F64)).unwrap_err();
    assert!(e.to_string().contains("a has 3 rows but b has 2"), "{e}");
    let e = decomp::solve(&random(18, &[2, 3, 3], DType::F64), &random(19, &[4, 3, 1], DType::F64)).unwrap_err();
    assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
    assert!(QrMode::parse("qr", "r").is_err());
}

#[test]
fn empty_and_zero_size_matrices() {
    let e = Tensor::zeros(&[3, 0, 0], DType::F64).unwrap();
    assert_eq!(decomp::det(&e).unwrap().to_vec::<f64>().unwrap(), vec![1.0; 3]);
    assert_eq!(decomp::inv(&e).unwrap().shape(), &[3, 0, 0]);
    let z = Tensor::zeros(&[0, 4, 4], DType::F32).unwrap();
    assert_eq!(decomp::cholesky(&z, false).unwrap().shape(), &[0, 4, 4]);
}

#[test]
fn eig_satisfies_a_v_equals_v_diag_w() {
    for d in DTYPES {
        let a = random(20, &[2, 4, 4], d);
        let (w, v) = decomp::eig(&a).unwrap();
        let cd = if matches!(d, DType::F64 | DType::C128) { DType::C128 } else { DType::C64 };
        assert_eq!((w.dtype(), v.dtype(), w.shape(), v.shape()), (cd, cd, &[2usize, 4][..], &[2usize, 4, 4][..]));
        let wd = linalg::diag(&c128(&w)).unwrap();
        assert_close(&mm(&a, &v), &mm(&v, &wd), tol(d) * 10.0, &format!("A V = V diag(w), {d}"));
        assert_close(&decomp::eigvals(&a).unwrap(), &w, tol(d) * 10.0, &format!("eigvals, {d}"));
    }
}

#[test]
fn huge_entries_do_not_break_the_svd() {
    // squares of these overflow float32; the SVD scales by the largest modulus first
    let a = Tensor::from_vec(vec![8.2e18f32; 10], &[2, 5]).unwrap();
    let s = decomp::svdvals(&a).unwrap().to_vec::<f32>().unwrap();
    assert!((s[0] / (8.2e18 * 10f32.sqrt()) - 1.0).abs() < 1e-5 && s[1].abs() < 1e14, "{s:?}");
    assert_eq!(decomp::pinv(&a, None).unwrap().shape(), &[5, 2]);
}
