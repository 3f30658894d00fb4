//! `expint` (Ei), `dawsn`, Fresnel integrals and `spence`.

use super::dd::{Dd, two_prod};
use num_complex::Complex64;
use std::f64::consts::PI;

const EULER: f64 = 0.577_215_664_901_532_9;
const PI2_6: f64 = 1.644_934_066_848_226_4;

/// Root of Ei as (hi, lo) and Taylor coefficients c1, c2, … about it (generated with mpmath).
const EI_ROOT: (f64, f64, &[f64]) = (
    0.3725074107813666,
    1.3140183414386028e-17,
    &[
        3.8962157339071672,
        -3.2816078663985615,
        6.522376145438925,
        -12.969697383536516,
        27.88629796294205,
        -62.37880152891542,
        143.5349488096751,
        -337.1558271787469,
        804.5318399821382,
        -1943.7966457234988,
        4743.765650402431,
        -11673.463991167164,
        28926.95530543545,
        -72107.9458683716,
        180669.55858939196,
        -454696.21885446657,
        1148834.5468177444,
        -2912721.6638508374,
        7407692.958000587,
        -18891727.000381533,
        48300034.930860244,
        -123768219.00249171,
        317811105.66636217,
        -817618569.3184928,
        2107109291.8643637,
        -5438996831.077285,
        14060263909.95585,
        -36396891001.49205,
        94338595092.19165,
        -244811170506.643,
    ],
);

/// The exponential integral `Ei(x)` (SciPy's `expi`): `Ei(0) = -inf`, `Ei(x < 0) = -E1(-x)`.
pub fn expint(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x < 0.0 {
        return -e1(-x);
    }
    if x == f64::INFINITY {
        return x;
    }
    if let Some(v) = super::gamma::near_root(x, std::slice::from_ref(&EI_ROOT)) {
        return v;
    }
    if x <= 80.0 {
        // γ + ln x + Σ x^k/(k·k!), the sum in double-double
        let mut term = Dd(1.0, 0.0);
        let mut sum = Dd(0.0, 0.0);
        for k in 1..600 {
            let kf = f64::from(k);
            term = term.mul_f(x).div_f(kf);
            let t = term.div_f(kf);
            sum = sum.add(t);
            if t.0 < 1e-33 * sum.0 {
                break;
            }
        }
        return sum.add(Dd(EULER, 0.0)).to_f64() + x.ln();
    }
    // asymptotic e^x/x Σ k!/x^k
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..100 {
        let next = term * f64::from(k) / x;
        if next >= term {
            break;
        }
        term = next;
        sum += term;
        if term < 1e-18 * sum {
            break;
        }
    }
    let e = (0.5 * x).exp();
    e * (e / x * sum)
}

/// `E1(z)` for `z > 0`.
fn e1(z: f64) -> f64 {
    if z == f64::INFINITY {
        return 0.0;
    }
    if z <= 0.5 {
        let mut term = 1.0;
        let mut sum = 0.0;
        for k in 1..60 {
            let kf = f64::from(k);
            term *= -z / kf;
            sum += term / kf;
            if term.abs() < 1e-18 * kf {
                break;
            }
        }
        return -EULER - z.ln() - sum;
    }
    // continued fraction e^{-z} / (z + 1 - 1²/(z + 3 - 2²/(z + 5 - …))), evaluated bottom-up
    // (stable) with enough terms for double precision
    let n = (20.0 + 130.0 / z).min(300.0) as u32;
    let mut f = z + f64::from(2 * n + 1);
    for i in (1..=n).rev() {
        f = z + f64::from(2 * i - 1) - f64::from(i * i) / f;
    }
    (-z).exp() / f
}

/// Dawson's integral `F(x) = e^{-x²} ∫₀ˣ e^{t²} dt` (odd; `F(±inf) = ±0`), in
/// double-double up to the one rounding at the end.
pub fn dawsn(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let one = Dd(1.0, 0.0);
    let v = if a <= 12.0 {
        // e^{-x²} Σ x^{2k+1} / (k! (2k+1)): positive terms, and x² = q exactly
        let (qh, ql) = two_prod(a, a);
        let q = Dd(qh, ql);
        let mut p = Dd(a, 0.0); // x^{2k+1}/k!
        let mut sum = Dd(a, 0.0);
        for k in 1..1200 {
            p = p.mul(q).div_f(f64::from(k));
            let term = p.div_f(f64::from(2 * k + 1));
            sum = sum.add(term);
            if term.0 < 1e-33 * sum.0 {
                break;
            }
        }
        sum.mul(q.neg().exp()).to_f64()
    } else if a < (1u64 << 60) as f64 {
        // 1/(2x) Σ (2k-1)!! / (2x²)^k, x² = q exactly: the smallest term (k ≈ x²) is
        // below e^{-x²}, far under the 10⁻³³ where the sum stops
        let (qh, ql) = two_prod(a, a);
        let z = one.div(Dd(qh, ql).mul_f(2.0));
        let mut term = one;
        let mut sum = one;
        for k in 1..200 {
            term = term.mul(z).mul_f(f64::from(2 * k - 1));
            sum = sum.add(term);
            if term.0 < 1e-33 * sum.0 {
                break;
            }
        }
        sum.div_f(2.0 * a).to_f64()
    } else {
        // from 2⁶⁰ on the series' second term is below 2⁻¹²¹: F(x) = 1/(2x), once rounded
        0.5 / a
    };
    v.copysign(x)
}

/// `(cos(πx²/2), sin(πx²/2))` with `x²` reduced exactly modulo 4.
fn cis_half_pi_sq(a: f64) -> (f64, f64) {
    if a >= 9_007_199_254_740_992.0 {
        // a is an even integer: x² ≡ 0 (mod 4)
        return (1.0, 0.0);
    }
    let (h, l) = two_prod(a, a);
    let r = (h % 4.0) * 0.5 + l * 0.5; // x²/2 mod 2, up to rounding of the sum
    let r = r % 2.0;
    let t = PI * r;
    (t.cos(), t.sin())
}

/// `(C(x), S(x))` for `x ≥ 0`, SciPy's normalisation `∫₀ˣ cos(πt²/2) dt`.
fn fresnel(a: f64) -> (f64, f64) {
    if a.is_nan() {
        return (a, a);
    }
    if a == f64::INFINITY {
        return (0.5, 0.5);
    }
    if a < 2.5 {
        // power series in double-double (the terms cancel heavily near 2.5), p = πx²/2 exact-ish
        let (xh, xl) = two_prod(a, a);
        let p = Dd(xh, xl).mul(Dd(std::f64::consts::FRAC_PI_2, 6.123_233_995_736_766e-17));
        let p2 = p.mul(p);
        let mut tc = Dd(a, 0.0); // (-1)^k p^{2k}/(2k)! · x
        let mut ts = p.mul_f(a); // (-1)^k p^{2k+1}/(2k+1)! · x
        let mut c = tc;
        let mut s = ts.div_f(3.0);
        for k in 1..80 {
            let kf = f64::from(k);
            tc = tc.mul(p2).div_f(-(2.0 * kf - 1.0) * (2.0 * kf));
            ts = ts.mul(p2).div_f(-(2.0 * kf) * (2.0 * kf + 1.0));
            let dc = tc.div_f(4.0 * kf + 1.0);
            let ds = ts.div_f(4.0 * kf + 3.0);
            c = c.add(dc);
            s = s.add(ds);
            if dc.0.abs() < 1e-34 * c.0.abs() && ds.0.abs() < 1e-34 * s.0.abs() {
                break;
            }
        }
        return (c.to_f64(), s.to_f64());
    }
    let (co, si) = cis_half_pi_sq(a);
    if a > 1e8 {
        let f = 1.0 / (PI * a);
        return (0.5 + f * si, 0.5 - f * co);
    }
    // complex continued fraction for erfc, modified Lentz
    let tiny = 1e-300;
    let mut b = Complex64::new(1.0, -PI * a * a);
    let mut cc = Complex64::new(1.0 / tiny, 0.0);
    let mut d = b.inv();
    let mut h = d;
    let mut n = -1.0;
    for _ in 0..2000 {
        n += 2.0;
        let an = -n * (n + 1.0);
        b += Complex64::new(4.0, 0.0);
        d = (d * an + b).inv();
        cc = b + Complex64::new(an, 0.0) / cc;
        let del = cc * d;
        h *= del;
        if (del.re - 1.0).abs() + del.im.abs() < 1e-17 {
            break;
        }
    }
    h *= Complex64::new(a, -a);
    let cs = Complex64::new(0.5, 0.5) * (Complex64::new(1.0, 0.0) - Complex64::new(co, si) * h);
    (cs.re, cs.im)
}

/// Fresnel cosine integral `C(x) = ∫₀ˣ cos(πt²/2) dt` (odd, `C(±inf) = ±0.5`).
pub fn fresnel_cos(x: f64) -> f64 {
    fresnel(x.abs()).0.copysign(x)
}
/// Fresnel sine integral `S(x) = ∫₀ˣ sin(πt²/2) dt` (odd, `S(±inf) = ±0.5`).
pub fn fresnel_sin(x: f64) -> f64 {
    fresnel(x.abs()).1.copysign(x)
}

/// `Li2(z) = Σ z^k/k²` for `|z| ≤ 2/3`, in double-double: the first term left
/// out is below 10⁻³³ of the sum.
fn li2_series(z: Dd) -> Dd {
    let mut p = z;
    let mut sum = z;
    for k in 2..260 {
        p = p.mul(z);
        let t = p.div_f(f64::from(k * k));
        sum = sum.add(t);
        if t.0.abs() < 1e-33 * sum.0.abs() {
            break;
        }
    }
    sum
}

/// Spence's function as SciPy defines it: `spence(x) = ∫₁ˣ ln t/(t-1) dt = Li2(1 - x)`;
/// NaN for `x < 0` and at `+inf` (as SciPy and TF). Every branch runs in
/// double-double (series, logarithms and the identities' sums, which cancel up
/// to ~3×), so the one rounding at the end is the error that remains.
pub fn spence(x: f64) -> f64 {
    /// π²/6 as a double-double (the low part from mpmath).
    const PI2_6_DD: Dd = Dd(PI2_6, 3.040_672_350_398_476e-17);
    let one = Dd(1.0, 0.0);
    if x.is_nan() || x < 0.0 || x == f64::INFINITY {
        return f64::NAN;
    }
    if x < 1e-100 {
        // Li2(1-x) = π²/6 + x ln x - x + …: the terms after π²/6 are far below its half
        // ulp (and so is its low part), so it rounds to π²/6 (also keeps `ln` off subnormals)
        return PI2_6;
    }
    let xd = Dd(x, 0.0);
    if x < 0.5 {
        // Li2(1-x) = π²/6 - ln(x) ln(1-x) - Li2(x), 1 - x exact as a double-double
        let ln_1mx = one.add(xd.neg()).ln();
        return PI2_6_DD.add(xd.ln().mul(ln_1mx).neg()).add(li2_series(xd).neg()).to_f64();
    }
    if x <= 1.5 {
        return li2_series(Dd(1.0 - x, 0.0)).to_f64(); // 1 - x exact (Sterbenz)
    }
    // Landen: Li2(1-x) = -Li2((x-1)/x) - ½ ln²x
    let lx = xd.ln();
    let half_ln_sq = lx.mul(lx).mul_f(0.5);
    if x <= 3.0 {
        // x - 1 is exact for x in (1.5, 3]
        return li2_series(Dd(x - 1.0, 0.0).div(xd)).add(half_ln_sq).neg().to_f64();
    }
    // and Li2(w) = π²/6 - ln w ln(1-w) - Li2(1-w) with w = 1 - 1/x
    let inv = one.div(xd);
    let lw = one.add(inv.neg()).ln();
    PI2_6_DD.neg().add(lw.mul(lx).neg()).add(li2_series(inv)).add(half_ln_sq.neg()).to_f64()
}

/// Tensor-level functions.
pub mod tensor {
    use super::super::special_fn;
    use crate::Tensor;
    use crate::core::error::Result;

    special_fn!(
        /// `tf.math.special.expint`: the exponential integral `Ei(x)`; `Ei(0) = -inf`, and for
        /// `x < 0` SciPy's `expi` value `-E1(-x)` (TF returns NaN there).
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, -1.0, 0.0], &[3]).unwrap();
        /// let y = ops::special::expint(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert!((y[0] - 1.895_117_816_355_936_8).abs() < 1e-15);
        /// assert!((y[1] + 0.219_383_934_395_520_3).abs() < 1e-16);
        /// assert_eq!(y[2], f64::NEG_INFINITY);
        /// ```
        expint, "expint", super::expint
    );
    special_fn!(
        /// `tf.math.special.dawsn`: Dawson's integral `e^{-x²} ∫₀ˣ e^{t²} dt`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64], &[1]).unwrap();
        /// let y = ops::special::dawsn(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert!((y[0] - 0.538_079_506_912_768_4).abs() < 1e-15);
        /// ```
        dawsn, "dawsn", super::dawsn
    );
    special_fn!(
        /// `tf.math.special.fresnel_cos`: `∫₀ˣ cos(πt²/2) dt`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, f64::INFINITY], &[2]).unwrap();
        /// let y = ops::special::fresnel_cos(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert!((y[0] - 0.779_893_400_376_822_8).abs() < 1e-15);
        /// assert_eq!(y[1], 0.5);
        /// ```
        fresnel_cos, "fresnel_cos", super::fresnel_cos
    );
    special_fn!(
        /// `tf.math.special.fresnel_sin`: `∫₀ˣ sin(πt²/2) dt`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64], &[1]).unwrap();
        /// let y = ops::special::fresnel_sin(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert!((y[0] - 0.438_259_147_390_354_8).abs() < 1e-15);
        /// ```
        fresnel_sin, "fresnel_sin", super::fresnel_sin
    );
    special_fn!(
        /// `tf.math.special.spence`: `∫₁ˣ ln t/(t-1) dt = Li2(1-x)`; NaN for `x < 0`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, 0.0, -1.0], &[3]).unwrap();
        /// let y = ops::special::spence(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y[0], 0.0);
        /// assert!((y[1] - 1.644_934_066_848_226_4).abs() < 1e-15);
        /// assert!(y[2].is_nan());
        /// ```
        spence, "spence", super::spence
    );
}
