//! The fft extension checked by its laws: `ifft ∘ fft = id` for each `norm`,
//! Parseval's identity, `irfft ∘ rfft = id`, a delta's flat spectrum, the
//! n-dimensional transforms as composed 1-D ones, `hfft`/`ihfft` inverse pairs,
//! frequencies and shifts; with dtypes, shapes and errors.

use lattensor::ops::fft::{self, Norm};
use lattensor::{DType, Error, Tensor};
use num_complex::Complex64;

const NORMS: [Norm; 3] = [Norm::Backward, Norm::Ortho, Norm::Forward];

fn values(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

fn complex(seed: u64, shape: &[usize], d: DType) -> Tensor {
    let n: usize = shape.iter().product();
    let (re, im) = (values(seed, n), values(seed + 7, n));
    Tensor::from_vec(re.iter().zip(&im).map(|(&r, &i)| Complex64::new(r, i)).collect(), shape).unwrap().cast(d).unwrap()
}

fn real(seed: u64, shape: &[usize], d: DType) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec(values(seed, n), shape).unwrap().cast(d).unwrap()
}

fn tol(d: DType) -> f64 {
    match d {
        DType::C128 | DType::F64 => 1e-12,
        DType::C64 | DType::F32 => 1e-5,
        _ => 1e-2,
    }
}

fn assert_close(a: &Tensor, b: &Tensor, tol: f64, what: &str) {
    assert_eq!(a.shape(), b.shape(), "{what}: shapes");
    let (a, b) = (a.to_vec::<Complex64>().unwrap(), b.to_vec::<Complex64>().unwrap());
    let scale = b.iter().map(|v| v.norm()).fold(1.0, f64::max);
    let err = a.iter().zip(&b).map(|(x, y)| (x - y).norm()).fold(0.0, f64::max);
    assert!(err <= tol * scale, "{what}: error {err} > {tol} · {scale}");
}

fn energy(t: &Tensor) -> f64 {
    t.to_vec::<Complex64>().unwrap().iter().map(|v| v.norm_sqr()).sum()
}

#[test]
fn ifft_inverts_fft_for_every_norm_and_length() {
    for d in [DType::C64, DType::C128] {
        for n in [1, 2, 5, 8, 12, 17, 64] {
            let x = complex(n as u64, &[3, n], d);
            for norm in NORMS {
                let y = fft::fft(&x, None, -1, norm).unwrap();
                assert_eq!((y.dtype(), y.shape()), (d, x.shape()));
                assert_close(&fft::ifft(&y, None, -1, norm).unwrap(), &x, tol(d), &format!("{d} n={n} {norm:?}"));
            }
        }
    }
}

#[test]
fn parseval_holds_for_the_orthonormal_transform() {
    for d in [DType::C64, DType::C128] {
        let x = complex(1, &[4, 30], d);
        let y = fft::fft(&x, None, 1, Norm::Ortho).unwrap();
        assert!((energy(&y) - energy(&x)).abs() <= tol(d) * 10.0 * energy(&x), "{d}");
        let y = fft::fft(&x, None, 1, Norm::Backward).unwrap();
        assert!((energy(&y) / 30.0 - energy(&x)).abs() <= tol(d) * 10.0 * energy(&x), "{d}");
    }
}

#[test]
fn a_delta_has_a_flat_spectrum_and_axes_are_respected() {
    let mut v = vec![Complex64::new(0.0, 0.0); 8];
    v[0] = Complex64::new(1.0, 0.0);
    let x = Tensor::from_vec(v, &[8, 1]).unwrap();
    let y = fft::fft(&x, None, 0, Norm::Backward).unwrap();
    assert_close(&y, &Tensor::from_vec(vec![Complex64::new(1.0, 0.0); 8], &[8, 1]).unwrap(), 1e-15, "delta");
    // n pads with zeros and crops
    assert_eq!(fft::fft(&x, Some(12), 0, Norm::Backward).unwrap().shape(), &[12, 1]);
    let cropped = fft::fft(&x, Some(3), 0, Norm::Backward).unwrap();
    assert_close(&cropped, &Tensor::from_vec(vec![Complex64::new(1.0, 0.0); 3], &[3, 1]).unwrap(), 1e-15, "crop");
}

#[test]
fn real_transforms_round_trip_and_match_the_complex_one() {
    for d in [DType::F32, DType::F64, DType::F16, DType::BF16] {
        let cd = if d == DType::F64 { DType::C128 } else { DType::C64 };
        for n in [1, 6, 7, 16] {
            let x = real(n as u64 + 3, &[2, n], d);
            for norm in NORMS {
                let y = fft::rfft(&x, None, -1, norm).unwrap();
                assert_eq!((y.dtype(), y.shape()), (cd, &[2, n / 2 + 1][..]), "{d}");
                let full = fft::fft(&x, None, -1, norm).unwrap();
                let half = full
                    .slice(&[lattensor::SliceArg::FULL, lattensor::SliceArg::range(0, (n / 2 + 1) as isize)])
                    .unwrap();
                assert_close(&y, &half, tol(cd), &format!("rfft = fft[: n/2+1], {d} n={n}"));
                let back = fft::irfft(&y, Some(n), -1, norm).unwrap();
                assert_eq!(back.dtype(), cd.real_dtype());
                assert_close(
                    &back,
                    &x.cast(DType::F64).unwrap(),
                    tol(cd) * 10.0,
                    &format!("irfft ∘ rfft, {d} n={n} {norm:?}"),
                );
            }
        }
    }
}

#[test]
fn hermitian_transforms_are_inverse_pairs() {
    let x = real(5, &[10], DType::F64);
    for norm in NORMS {
        let h = fft::ihfft(&x, None, 0, norm).unwrap();
        assert_eq!(h.shape(), &[6]);
        assert_close(&fft::hfft(&h, Some(10), 0, norm).unwrap(), &x, 1e-12, &format!("hfft ∘ ihfft, {norm:?}"));
    }
}

#[test]
fn n_dimensional_transforms_compose_one_dimensional_ones() {
    let x = complex(9, &[3, 4, 5], DType::C128);
    let y = fft::fftn(&x, None, None, Norm::Backward).unwrap();
    let mut z = x.clone();
    for a in 0..3 {
        z = fft::fft(&z, None, a, Norm::Backward).unwrap();
    }
    assert_close(&y, &z, 1e-12, "fftn = fft over each axis");
    assert_close(&fft::ifftn(&y, None, None, Norm::Backward).unwrap(), &x, 1e-12, "ifftn ∘ fftn");
    let s = fft::fftn(&x, Some(&[6, 2]), Some(&[0, 2]), Norm::Ortho).unwrap();
    assert_eq!(s.shape(), &[6, 4, 2]);
    let r = real(10, &[4, 6], DType::F32);
    let ry = fft::rfftn(&r, None, None, Norm::Backward).unwrap();
    assert_eq!((ry.shape(), ry.dtype()), (&[4usize, 4][..], DType::C64));
    let back = fft::irfftn(&ry, Some(&[4, 6]), None, Norm::Backward).unwrap();
    assert_close(&back, &r, 1e-5, "irfftn ∘ rfftn");
}

#[test]
fn frequencies_and_shifts() {
    let f = fft::fftfreq(5, 0.5, DType::F64).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(f, vec![0.0, 0.4, 0.8, -0.8, -0.4]);
    let f = fft::fftfreq(4, 1.0, DType::F32).unwrap();
    assert_eq!((f.dtype(), f.to_vec::<f32>().unwrap()), (DType::F32, vec![0.0, 0.25, -0.5, -0.25]));
    assert_eq!(fft::rfftfreq(5, 1.0, DType::F64).unwrap().to_vec::<f64>().unwrap(), vec![0.0, 0.2, 0.4]);
    let x = Tensor::from_vec((0..5).collect::<Vec<i32>>(), &[5]).unwrap();
    let s = fft::fftshift(&x, None, false).unwrap();
    assert_eq!(s.to_vec::<i32>().unwrap(), vec![3, 4, 0, 1, 2]);
    assert_eq!(fft::fftshift(&s, None, true).unwrap().to_vec::<i32>().unwrap(), vec![0, 1, 2, 3, 4]);
    let m = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
    assert_eq!(fft::fftshift(&m, Some(&[1]), false).unwrap().to_vec::<i32>().unwrap(), vec![2, 0, 1, 5, 3, 4]);
}

#[test]
fn bad_inputs_are_errors_naming_the_op() {
    let ints = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
    let e = fft::fft(&ints, None, -1, Norm::Backward).unwrap_err();
    assert!(matches!(e, Error::UnsupportedDType { dtype: DType::I32, .. }) && e.to_string().starts_with("fft"), "{e}");
    let c = complex(1, &[4], DType::C64);
    let e = fft::rfft(&c, None, -1, Norm::Backward).unwrap_err();
    assert!(e.to_string().starts_with("rfft") && e.to_string().contains("real part"), "{e}");
    let e = fft::fft(&c, None, 1, Norm::Backward).unwrap_err();
    assert!(matches!(e, Error::InvalidIndex(_)), "{e}");
    let e = fft::fft(&c, Some(0), 0, Norm::Backward).unwrap_err();
    assert!(matches!(e, Error::InvalidValue(_)), "{e}");
    assert!(Norm::parse("fft", "unitary").unwrap_err().to_string().contains("'backward', 'ortho' or 'forward'"));
    let m = complex(2, &[2, 2], DType::C64);
    assert!(fft::fftn(&m, None, Some(&[0, 0]), Norm::Backward).is_err());
    assert!(fft::fftn(&m, Some(&[2]), Some(&[0, 1]), Norm::Backward).is_err());
    assert!(fft::fftfreq(0, 1.0, DType::F32).is_err());
    assert!(fft::fftfreq(3, 1.0, DType::I32).is_err());
}
