//! Error function family: `erf`, `erfc`, `erfinv`, `erfcinv`, `ndtri`.

use crate::kernels::dd::{Dd, exp_neg_sq, two_prod};

const FRAC_2_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;
/// √π / 2.
const SQRT_PI_2: f64 = 0.886_226_925_452_758;

/// The error function (`libm`'s fdlibm-derived kernel, ≤ 1 ulp).
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// The complementary error function `1 - erf(x)` (`libm`'s kernel: it splits `x²` exactly, so the
/// deep right tail keeps its relative accuracy, ≤ 2 ulp measured).
pub fn erfc(x: f64) -> f64 {
    libm::erfc(x)
}

/// Inverse of `erf` on `[-1, 1]`: `±1 → ±inf`, outside → NaN.
pub fn erfinv(y: f64) -> f64 {
    if y.is_nan() || y.abs() > 1.0 {
        return f64::NAN;
    }
    if y == 0.0 {
        return y; // keeps the sign of zero
    }
    erfinv_dd(y).to_f64()
}

/// Inverse of `erfc` on `[0, 2]`: `0 → inf`, `2 → -inf`, outside → NaN.
pub fn erfcinv(q: f64) -> f64 {
    if q.is_nan() || !(0.0..=2.0).contains(&q) {
        return f64::NAN;
    }
    erfcinv_dd(q).to_f64()
}

/// Inverse of the standard normal CDF: `ndtri(p) = -√2 · erfcinv(2p)`; `0 → -inf`, `1 → inf`.
///
/// The product with √2 is formed in double-double from `erfcinv`'s root as a
/// double-double and rounded once, so its error is `erfcinv`'s before rounding
/// plus one rounding, not two roundings and the error of √2's rounding.
pub fn ndtri(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p == 0.5 {
        return 0.0; // not -0.0, as SciPy
    }
    -Dd(SQRT_2, SQRT_2_LO).mul(erfcinv_dd(2.0 * p)).to_f64()
}

/// √2 = `SQRT_2 + SQRT_2_LO` to ~2⁻¹⁰⁶.
const SQRT_2: f64 = std::f64::consts::SQRT_2;
const SQRT_2_LO: f64 = -9.667_293_313_452_913e-17;
/// √π / 2 = `SQRT_PI_2 + SQRT_PI_2_LO` to ~2⁻¹⁰⁶.
const SQRT_PI_2_LO: f64 = -3.833_293_249_912_899_3e-17;

/// `erfinv(y)` for `y ∈ [-1, 1]` as a double-double.
fn erfinv_dd(y: f64) -> Dd {
    let a = y.abs();
    if a <= 0.5 {
        erf_center_inv(y)
    } else {
        let x = erfc_tail_inv(1.0 - a); // 1 - a exact (Sterbenz)
        if y < 0.0 { x.neg() } else { x }
    }
}

/// `erfcinv(q)` for `q ∈ [0, 2]` as a double-double.
fn erfcinv_dd(q: f64) -> Dd {
    if q < 0.5 {
        erfc_tail_inv(q)
    } else if q <= 1.5 {
        erfinv_dd(1.0 - q) // exact difference
    } else {
        erfc_tail_inv(2.0 - q).neg() // exact difference
    }
}

/// `erfinv(y)` for `|y| ≤ 0.5` as a double-double: Halley's iterate on `erf`
/// and, below it, the correction one more Newton step would make, from the
/// residual `erf(x) - y` (exact: the two agree to a few ulp), so that the
/// caller rounds the root once.
fn erf_center_inv(y: f64) -> Dd {
    if y.abs() < 1e-9 {
        // erfinv(y) = c·y·(1 + π y²/12 + …); the y² term is below 2⁻⁶² of it here
        let (h, l) = two_prod(y, SQRT_PI_2);
        return Dd(h, l + y * SQRT_PI_2_LO);
    }
    // Halley on erf from a series guess
    let mut x = y * SQRT_PI_2 * (1.0 + std::f64::consts::PI / 12.0 * y * y);
    for _ in 0..8 {
        let f = erf(x) - y;
        let d = f / (FRAC_2_SQRT_PI * (-x * x).exp());
        let dx = d / (1.0 + x * d);
        x -= dx;
        if dx.abs() <= 1e-17 * x.abs() {
            break;
        }
    }
    Dd(x, -(erf(x) - y) / (FRAC_2_SQRT_PI * exp_neg_sq(x)))
}

/// `erfcinv(q)` for `q ∈ [0, 0.5)` as a double-double, as [`erf_center_inv`]
/// with `erfc` (whose error reaches the root scaled by `q√π e^{x²} / 2x`,
/// below 0.25 here).
fn erfc_tail_inv(q: f64) -> Dd {
    if q == 0.0 {
        return Dd(f64::INFINITY, 0.0);
    }
    let lq = q.ln();
    // first guess from erfc(x) ≈ e^{-x²}/(x√π)
    let t = (-lq).sqrt();
    let mut x = t - (t * std::f64::consts::PI.sqrt()).ln().max(0.0) / (2.0 * t);
    if x < 0.3 {
        x = 0.48;
    }
    if q < 1e-40 {
        // Newton on g(x) = x² + ln(x√π) - ln S(x) + ln q, S = asymptotic series of x√π e^{x²} erfc(x)
        let step = |x: f64| {
            let s = erfc_asym_series(x);
            let (h, l) = two_prod(x, x);
            let g = (h + lq) + l + (x * std::f64::consts::PI.sqrt()).ln() - s.ln();
            g / (2.0 * x + 1.0 / x)
        };
        for _ in 0..12 {
            let dx = step(x);
            x -= dx;
            if dx.abs() <= 1e-17 * x {
                break;
            }
        }
        return Dd(x, -step(x));
    }
    for _ in 0..20 {
        let f = erfc(x) - q;
        let d = -f / (FRAC_2_SQRT_PI * exp_neg_sq(x));
        let dx = d / (1.0 + x * d);
        x -= dx;
        if dx.abs() <= 1e-17 * x.abs() {
            break;
        }
    }
    Dd(x, (erfc(x) - q) / (FRAC_2_SQRT_PI * exp_neg_sq(x)))
}

/// `1 - 1/(2x²) + 3/(2x²)² - …` (for `x ≥ 13`, where it converges to double precision).
fn erfc_asym_series(x: f64) -> f64 {
    let z = 1.0 / (2.0 * x * x);
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..40 {
        term *= -((2 * k - 1) as f64) * z;
        sum += term;
        if term.abs() < 1e-18 {
            break;
        }
    }
    sum
}

/// Tensor-level functions.
pub mod tensor {
    use super::super::special_fn;
    use crate::Tensor;
    use crate::core::error::Result;

    special_fn!(
        /// `tf.math.erf`: the error function.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![0.0f64, 1.0, -3.0], &[3]).unwrap();
        /// let y = ops::erf(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y, vec![0.0, 0.842_700_792_949_714_9, -0.999_977_909_503_001_4]);
        /// ```
        erf, "erf", super::erf
    );
    special_fn!(
        /// `tf.math.erfc`: `1 - erf(x)`, accurate in the right tail (`erfc(27) ≈ 5.2e-319`).
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![0.0f64, 10.0], &[2]).unwrap();
        /// let y = ops::erfc(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y, vec![1.0, 2.088_487_583_762_545e-45]);
        /// ```
        erfc, "erfc", super::erfc
    );
    special_fn!(
        /// `tf.math.erfinv`: inverse error function; `±1 → ±inf`, `|x| > 1 → NaN`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![0.5f64, 1.0, 2.0], &[3]).unwrap();
        /// let y = ops::erfinv(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y[0], 0.476_936_276_204_469_9);
        /// assert_eq!(y[1], f64::INFINITY);
        /// assert!(y[2].is_nan());
        /// ```
        erfinv, "erfinv", super::erfinv
    );
    special_fn!(
        /// `tf.math.erfcinv`: inverse of `erfc` on `[0, 2]`; `0 → inf`, `2 → -inf`, outside → NaN.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, 0.0, 1e-300], &[3]).unwrap();
        /// let y = ops::erfcinv(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y[0], 0.0);
        /// assert_eq!(y[1], f64::INFINITY);
        /// assert!((y[2] - 26.209_469_960_516_124).abs() < 1e-13);
        /// ```
        erfcinv, "erfcinv", super::erfcinv
    );
    special_fn!(
        /// `tf.math.ndtri`: quantile of the standard normal; `0 → -inf`, `1 → inf`, outside → NaN.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![0.5f64, 0.975], &[2]).unwrap();
        /// let y = ops::ndtri(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y[0], 0.0);
        /// assert!((y[1] - 1.959_963_984_540_054).abs() < 1e-15);
        /// ```
        ndtri, "ndtri", super::ndtri
    );
}
