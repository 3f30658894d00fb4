//! `lgamma` and `digamma`.

use super::dd::two_sum;
use std::f64::consts::PI;

/// `log|Γ(x)|`; `+inf` at the poles (0 and negative integers) and at `±inf`.
pub fn lgamma(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::INFINITY;
    }
    libm::lgamma_r(x).0
}

const X0_HI: f64 = 1.4616321449683622;
const X0_LO: f64 = 9.549995429965697e-17;
const PSI_ROOT_TAYLOR: [f64; 45] = [0.9676722454476212, -0.4427631689835921, 0.258499760955651, -0.16394270544240652, 0.10782405069126237, -0.07219956125645471, 0.04880428816414311, -0.03316112647484736, 0.022597648232218104, -0.01542476590494896, 0.010538791616612175, -0.007204534386356869, 0.004926781395729853, -0.003369801655439328, 0.002305126326734928, -0.0015769367714301972, 0.0010788252019162967, -0.0007380709389960052, 0.000504953265834602, -0.0003454680251063077, 0.00023635601564027053, -0.00016170622091974803, 0.0001106337276874741, -7.569179582195066e-05, 5.178575795222081e-05, -3.5430070947659604e-05, 2.424006611860132e-05, -1.6584242271854135e-05, 1.134638458466385e-05, -7.762817668462094e-06, 5.3110609208898636e-06, -3.6336507898010456e-06, 2.486022733129538e-06, -1.7008538854332607e-06, 1.1636675363548843e-06, -7.96142543124197e-07, 5.446941930669446e-07, -3.7266161283438227e-07, 2.549626552021554e-07, -1.7443695117727745e-07, 1.1934394829830244e-07, -8.165115189488409e-08, 5.586299683532171e-08, -3.821960061917494e-08, 2.6148576951961865e-08];

/// `ψ(X0 + t)` by its Taylor series about the positive root `X0` (for `|t| ≤ 0.55`).
fn psi_root(t: f64) -> f64 {
    let mut s = 0.0;
    for &c in PSI_ROOT_TAYLOR.iter().rev() {
        s = s * t + c;
    }
    s * t
}

/// `ψ(x)` for `x ≥ 10` by its asymptotic series.
fn psi_asym(x: f64) -> f64 {
    // B_{2k} / (2k)
    const C: [f64; 10] = [
        1.0 / 12.0,
        -1.0 / 120.0,
        1.0 / 252.0,
        -1.0 / 240.0,
        1.0 / 132.0,
        -691.0 / 32760.0,
        1.0 / 12.0,
        -3617.0 / 8160.0,
        43867.0 / 14364.0,
        -174611.0 / 6600.0,
    ];
    if x > 1e17 {
        return x.ln() - 0.5 / x;
    }
    let z = 1.0 / (x * x);
    let mut s = 0.0;
    for &c in C.iter().rev() {
        s = s * z + c;
    }
    x.ln() - 0.5 / x - s * z
}

/// `ψ(hi + lo)` for `hi + lo ∈ [1, 2]` as a double-double.
fn psi_12(hi: f64, lo: f64) -> f64 {
    let t = ((hi - X0_HI) + lo) - X0_LO; // hi - X0_HI exact (Sterbenz)
    psi_root(t)
}

/// The digamma function `ψ(x) = Γ'(x)/Γ(x)`; NaN at 0, the negative integers and `-inf` (as TF).
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x <= 0.0 && x == x.floor() {
        return f64::NAN;
    }
    if x >= 10.0 {
        return psi_asym(x);
    }
    if x >= 1.0 {
        // reduce to [1, 2): x - m exact
        let m = x.floor() - 1.0;
        let f = x - m;
        let mut s = 0.0;
        let mut k = m;
        while k >= 1.0 {
            s += 1.0 / (x - k);
            k -= 1.0;
        }
        return psi_12(f, 0.0) + s;
    }
    if x > -30.0 {
        // upward recurrence to [1, 2], with x + m kept as a double-double
        let m = 1.0 - x.floor();
        let (h, l) = two_sum(x, m);
        let mut s = 0.0;
        let mut k = m - 1.0;
        while k >= 0.0 {
            s += 1.0 / (x + k);
            k -= 1.0;
        }
        return psi_12(h, l) - s;
    }
    // reflection: ψ(x) = ψ(1 - x) - π cot(πx), with the fraction taken exactly
    let r = x - x.round();
    let cot = (PI * r).cos() / (PI * r).sin();
    digamma(1.0 - x) - PI * cot
}

/// Tensor-level functions.
pub mod tensor {
    use super::super::special_fn;
    use crate::error::Result;
    use crate::Tensor;

    special_fn!(
        /// `tf.math.lgamma`: `log|Γ(x)|`, `+inf` at the poles and at `±inf`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, 0.5, 0.0, -1.0], &[4]).unwrap();
        /// let y = ops::lgamma(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y[0], 0.0);
        /// assert!((y[1] - 0.572_364_942_924_700_1).abs() < 1e-15);
        /// assert_eq!(y[2], f64::INFINITY);
        /// assert_eq!(y[3], f64::INFINITY);
        /// ```
        lgamma, "lgamma", super::lgamma
    );
    special_fn!(
        /// `tf.math.digamma`: `ψ(x) = d/dx log Γ(x)`; NaN at 0, the negative integers and `-inf`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, 0.0, -2.0], &[3]).unwrap();
        /// let y = ops::digamma(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert!((y[0] + 0.577_215_664_901_532_9).abs() < 1e-16);
        /// assert!(y[1].is_nan() && y[2].is_nan());
        /// ```
        digamma, "digamma", super::digamma
    );
}
