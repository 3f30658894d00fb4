//! Modified Bessel functions `I0, I1, K0, K1` (plain and exponentially scaled) and
//! Bessel functions of the first and second kind `J0, J1, Y0, Y1`.

use super::dd::{Dd, two_prod};
use std::f64::consts::PI;

const EULER: f64 = 0.577_215_664_901_532_9;

/// `Σ (x²/4)^k / (k! (k+ν)!)` for ν ∈ {0, 1} (positive terms; `|x| ≤ 30`).
/// Summed in double-double: the terms come from long products whose roundings would add up.
fn i_series(x: f64, nu: u32) -> f64 {
    let (qh, ql) = two_prod(x, x);
    let q = Dd(0.25 * qh, 0.25 * ql);
    let mut term = Dd(1.0, 0.0);
    let mut sum = Dd(1.0, 0.0);
    for k in 1..200 {
        let k = f64::from(k);
        term = term.mul(q).div_f(k * (k + f64::from(nu)));
        sum = sum.add(term);
        if term.0 < 1e-33 * sum.0 {
            break;
        }
    }
    sum.to_f64()
}

/// Asymptotic `√(2πx) e^{-x} I_ν(x)` for `x ≥ 30`.
fn i_asym(x: f64, nu: u32) -> f64 {
    let mu = 4.0 * f64::from(nu * nu);
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..60 {
        let odd = f64::from(2 * k - 1);
        term *= -(mu - odd * odd) / (f64::from(k) * 8.0 * x);
        sum += term;
        if term.abs() < 1e-18 * sum {
            break;
        }
    }
    sum
}

/// `e^{-|x|} I_ν(|x|)` and, for `|x| ≤ 30`, the unscaled value.
fn i_scaled(a: f64, nu: u32) -> f64 {
    if a <= 30.0 {
        let s = i_series(a, nu) * if nu == 1 { 0.5 * a } else { 1.0 };
        s * (-a).exp()
    } else {
        i_asym(a, nu) / sqrt_2pi_x(a)
    }
}

/// `√(2πx)` without overflow for `x` near `f64::MAX` (where `2πx` itself is infinite).
fn sqrt_2pi_x(x: f64) -> f64 {
    (2.0 * PI).sqrt() * x.sqrt()
}

fn i_plain(x: f64, nu: u32) -> f64 {
    let a = x.abs();
    let v = if a.is_nan() {
        a
    } else if a <= 30.0 {
        i_series(a, nu) * if nu == 1 { 0.5 * a } else { 1.0 }
    } else if a == f64::INFINITY {
        a
    } else {
        let e = (0.5 * a).exp();
        e * (e * (i_asym(a, nu) / sqrt_2pi_x(a)))
    };
    if nu == 1 { v.copysign(x) } else { v }
}

/// Modified Bessel function `I0`.
pub fn i0(x: f64) -> f64 {
    i_plain(x, 0)
}
/// Modified Bessel function `I1` (odd).
pub fn i1(x: f64) -> f64 {
    i_plain(x, 1)
}
/// `e^{-|x|} I0(x)`.
pub fn i0e(x: f64) -> f64 {
    if x.is_infinite() {
        return 0.0;
    }
    i_scaled(x.abs(), 0)
}
/// `e^{-|x|} I1(x)` (odd).
pub fn i1e(x: f64) -> f64 {
    if x.is_infinite() {
        return 0.0f64.copysign(x);
    }
    if x.is_nan() {
        return x;
    }
    i_scaled(x.abs(), 1).copysign(x)
}

/// `K_ν(x)` for `0 < x ≤ 1` by its power series.
fn k_series(x: f64, nu: u32) -> f64 {
    let q = 0.25 * x * x;
    let l = x.ln() - std::f64::consts::LN_2;
    if nu == 0 {
        // K0 = -(ln(x/2) + γ) I0 + Σ q^k/(k!)² H_k
        let mut term = 1.0;
        let mut h = 0.0;
        let mut sum = 0.0;
        for k in 1..60 {
            let kf = f64::from(k);
            term *= q / (kf * kf);
            h += 1.0 / kf;
            sum += term * h;
            if term * h < 1e-18 * sum {
                break;
            }
        }
        -(l + EULER) * i_series(x, 0) + sum
    } else {
        // K1 = 1/x + ln(x/2) I1 - (x/4) Σ (ψ(k+1) + ψ(k+2)) q^k/(k!(k+1)!)
        let mut term = 1.0;
        let mut psi1 = -EULER; // ψ(k+1)
        let mut sum = psi1 + (1.0 - EULER);
        for k in 1..60 {
            let kf = f64::from(k);
            term *= q / (kf * (kf + 1.0));
            psi1 += 1.0 / kf;
            let c = psi1 + psi1 + 1.0 / (kf + 1.0);
            sum += term * c;
            if (term * c).abs() < 1e-18 * sum.abs() {
                break;
            }
        }
        1.0 / x + l * (0.5 * x * i_series(x, 1)) - 0.25 * x * sum
    }
}

/// `e^x K_ν(x)` for `x > 1`: asymptotic series for `x > 50`, else the trapezoidal rule on
/// `∫₀^∞ e^{-x(cosh t - 1)} cosh(νt) dt` (exponentially convergent).
fn k_scaled_trap(x: f64, nu: u32) -> f64 {
    if x == f64::INFINITY {
        return 0.0;
    }
    if x > 50.0 {
        // asymptotic: √(π/2x) Σ Π((4ν² - (2j-1)²)) / (k! (8x)^k)
        let mu = 4.0 * f64::from(nu * nu);
        let mut term = 1.0;
        let mut sum = 1.0;
        for k in 1..80 {
            let odd = f64::from(2 * k - 1);
            term *= (mu - odd * odd) / (f64::from(k) * 8.0 * x);
            sum += term;
            if term.abs() < 1e-18 * sum {
                break;
            }
        }
        // √(π/2) / √x rather than √(π/2x): 2x overflows near f64::MAX
        return sum * (0.5 * PI).sqrt() / x.sqrt();
    }
    // u = sinh(t/2): e^x K_ν(x) = ∫₀^∞ e^{-2xu²} (1 + 2u²)^ν · 2/√(1+u²) du. With a step that is a
    // power of two, 2u² is exact and the exponent has a single rounding; the integrand is analytic
    // for |Im u| < 1, so the trapezoidal error is below e^{-2π·0.95/h + 1.8x}: ≤ e^{-59} for x ≤ 20 with
    // h = 1/16, and ≤ e^{-100} for x ≤ 50 with h = 1/32.
    let h = if x > 20.0 { 0.031_25 } else { 0.0625 };
    let mut sum = Dd(1.0, 0.0); // half the value at u = 0; compensated sum
    for j in 1..2000 {
        let u = f64::from(j) * h;
        let u2 = u * u;
        let e = (-(2.0 * u2) * x).exp();
        let w = 2.0 / (1.0 + u2).sqrt();
        let f = if nu == 1 { e * w * (1.0 + 2.0 * u2) } else { e * w };
        sum = sum.add(Dd(f, 0.0));
        if f < 1e-19 * sum.0 {
            break;
        }
    }
    sum.to_f64() * h
}

fn k_plain(x: f64, nu: u32) -> f64 {
    if x.is_nan() || x < 0.0 {
        f64::NAN
    } else if x == 0.0 {
        f64::INFINITY
    } else if x <= 1.0 {
        k_series(x, nu)
    } else if x > 710.0 {
        if x > 750.0 {
            0.0
        } else {
            let e = (-0.5 * x).exp();
            e * (e * k_scaled_trap(x, nu))
        }
    } else {
        (-x).exp() * k_scaled_trap(x, nu)
    }
}

fn k_scaled(x: f64, nu: u32) -> f64 {
    if x.is_nan() || x < 0.0 {
        f64::NAN
    } else if x == 0.0 {
        f64::INFINITY
    } else if x <= 1.0 {
        k_series(x, nu) * x.exp()
    } else {
        k_scaled_trap(x, nu)
    }
}

/// Modified Bessel function of the second kind `K0` (`K0(0) = inf`, negative → NaN).
pub fn k0(x: f64) -> f64 {
    k_plain(x, 0)
}
/// Modified Bessel function of the second kind `K1`.
pub fn k1(x: f64) -> f64 {
    k_plain(x, 1)
}
/// `e^x K0(x)`.
pub fn k0e(x: f64) -> f64 {
    k_scaled(x, 0)
}
/// `e^x K1(x)`.
pub fn k1e(x: f64) -> f64 {
    k_scaled(x, 1)
}

include!("bessel_zeros.rs");
include!("bessel_asymptotic.rs");

/// Arguments in `(ASYM_MIN, ASYM_MAX)` use [`modulus_phase`]: above the tabulated zeros,
/// and below 2²⁰, where `m·P₁..P₃` stay exact (m < 2²¹).
const ASYM_MIN: f64 = 100.0;
const ASYM_MAX: f64 = 1_048_576.0;

/// `J_ν(x)` (`first_kind`) or `Y_ν(x)` for ν ∈ {0, 1} and `ASYM_MIN < x < ASYM_MAX`, from
/// `J = M cos θ`, `Y = M sin θ` with the modulus and phase expansions.
///
/// Near a zero the value is `±M sin u` with `u = θ − (zero's phase)` tiny, so the result
/// keeps its relative accuracy only if `u` does: `u = x + φ(x) − m·π/4` is formed in
/// double-double, with π/4 to ~150 bits (four pieces, the products by `m` exact) and `φ`
/// summed in double-double. Measured within 3 ulp of mpmath, zeros included.
fn modulus_phase(x: f64, nu: usize, first_kind: bool) -> f64 {
    let (s_coef, phase) = if nu == 0 { (&BESSEL_S0, &BESSEL_PHASE0) } else { (&BESSEL_S1, &BESSEL_PHASE1) };
    let y = Dd(1.0, 0.0).div_f(x);
    let y2 = y.mul(y);
    let mut s = 0.0;
    for &a in s_coef.iter().rev() {
        s = s * y2.0 + a;
    }
    let modulus = (std::f64::consts::FRAC_2_PI * s / x).sqrt();
    let mut p = Dd(0.0, 0.0);
    for &(hi, lo) in phase.iter().rev() {
        p = p.mul(y2).add(Dd(hi, lo));
    }
    let phi = p.mul(y);
    // θ = x + φ − (2ν+1)π/4. J vanishes where θ ≡ π/2 (mod π), Y where θ ≡ 0: take the
    // nearest m ≡ c (mod 4) for the zero's phase m·π/4, and u = θ − (that phase).
    let twice_nu_1 = 2 * nu as i64 + 1;
    let c = if first_kind { twice_nu_1 + 2 } else { twice_nu_1 };
    let quarter_turns = (x + phi.0) / std::f64::consts::FRAC_PI_4;
    let m = (c as f64 + 4.0 * ((quarter_turns - c as f64) / 4.0).round()) as i64;
    let mf = m as f64;
    let [p1, p2, p3, p4] = PIO4_PIECES;
    // x − m·P₁ is exact (m·P₁ is, and x is within a factor 2 of it); so are m·P₂, m·P₃
    let u = Dd(x - mf * p1, 0.0).add(Dd(-mf * p2, 0.0)).add(Dd(-mf * p3, 0.0)).add(Dd(-mf * p4, 0.0)).add(phi);
    let sin_u = u.0.sin() + u.0.cos() * u.1;
    // θ = u + e·π/4 with e = m − (2ν+1): J = M cos θ, e ≡ 2 (mod 4); Y = M sin θ, e ≡ 0 (mod 4)
    let e = m - twice_nu_1;
    let negative = if first_kind { ((e - 2) / 4).rem_euclid(2) == 0 } else { (e / 4).rem_euclid(2) == 1 };
    let v = modulus * sin_u;
    if negative { -v } else { v }
}

/// `f(x)` by its Taylor series about a tabulated zero within 0.15 of `x`, where a kernel
/// built on `sin`/`cos` combinations loses its relative accuracy.
fn near_zero(x: f64, zeros: &[(f64, f64, &[f64])]) -> Option<f64> {
    for &(hi, lo, c) in zeros {
        if (x - hi).abs() < 0.15 {
            let t = (x - hi) - lo; // exact difference (Sterbenz)
            let mut s = 0.0;
            for &ck in c.iter().rev() {
                s = s * t + ck;
            }
            return Some(s * t);
        }
    }
    None
}

/// `J_ν` or `Y_ν` at `x ≥ 0` (finite): the modulus/phase form above 100, the Taylor table
/// `zeros` within 0.15 of a zero below 100, the `libm` kernel elsewhere.
fn oscillating(x: f64, nu: usize, first_kind: bool, zeros: &[(f64, f64, &[f64])], kernel: fn(f64) -> f64) -> f64 {
    if x > ASYM_MIN && x < ASYM_MAX {
        return modulus_phase(x, nu, first_kind);
    }
    near_zero(x, zeros).unwrap_or_else(|| kernel(x))
}

/// Bessel function of the first kind `J0` (`J0(±inf) = 0`).
pub fn j0(x: f64) -> f64 {
    if x.is_infinite() {
        return 0.0;
    }
    oscillating(x.abs(), 0, true, &J0_ZEROS, libm::j0)
}
/// Bessel function of the first kind `J1` (odd; `J1(±inf) = 0`).
pub fn j1(x: f64) -> f64 {
    if x.is_infinite() {
        return 0.0;
    }
    let v = oscillating(x.abs(), 1, true, &J1_ZEROS, libm::j1);
    if x < 0.0 { -v } else { v }
}
/// Bessel function of the second kind `Y0` (`Y0(0) = -inf`, negative → NaN).
pub fn y0(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    oscillating(x, 0, false, &Y0_ZEROS, libm::y0)
}
/// Bessel function of the second kind `Y1` (`Y1(0) = -inf`, negative → NaN).
pub fn y1(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    oscillating(x, 1, false, &Y1_ZEROS, libm::y1)
}

/// Tensor-level functions.
pub mod tensor {
    use super::super::special_fn;
    use crate::Tensor;
    use crate::error::Result;

    macro_rules! bessel {
        ($name:ident, $f:ident, $what:literal, $x:literal, $v:literal) => {
            special_fn!(
                #[doc = concat!("`tf.math.special.", stringify!($name), "`: ", $what, ".")]
                ///
                /// ```
                /// use lattensor::{ops, Tensor};
                #[doc = concat!("let x = Tensor::from_vec(vec![", $x, "f64], &[1]).unwrap();")]
                #[doc = concat!("let y = ops::special::", stringify!($name), "(&x).unwrap().to_vec::<f64>().unwrap();")]
                #[doc = concat!("assert!((y[0] - ", $v, ").abs() <= 1e-15 * (", $v, "f64).abs());")]
                /// ```
                $name,
                stringify!($name),
                super::$f
            );
        };
    }
    bessel!(bessel_i0, i0, "modified Bessel function `I0` (even)", "1.0", "1.266_065_877_752_008_4");
    bessel!(bessel_i0e, i0e, "`e^{-|x|} I0(x)`", "1.0", "0.465_759_607_593_640_8");
    bessel!(bessel_i1, i1, "modified Bessel function `I1` (odd)", "1.0", "0.565_159_103_992_485");
    bessel!(bessel_i1e, i1e, "`e^{-|x|} I1(x)`", "1.0", "0.207_910_415_349_708_5");
    bessel!(
        bessel_k0,
        k0,
        "modified Bessel function `K0`; `K0(0) = inf`, negative → NaN",
        "1.0",
        "0.421_024_438_240_708_3"
    );
    bessel!(bessel_k0e, k0e, "`e^x K0(x)`; `0 → inf`, negative → NaN", "1.0", "1.144_463_079_806_895_8");
    bessel!(
        bessel_k1,
        k1,
        "modified Bessel function `K1`; `K1(0) = inf`, negative → NaN",
        "1.0",
        "0.601_907_230_197_234_6"
    );
    bessel!(bessel_k1e, k1e, "`e^x K1(x)`; `0 → inf`, negative → NaN", "1.0", "1.636_153_486_263_258");
    bessel!(bessel_j0, j0, "Bessel function `J0`", "1.0", "0.765_197_686_557_966_6");
    bessel!(bessel_j1, j1, "Bessel function `J1` (odd)", "1.0", "0.440_050_585_744_933_5");
    bessel!(bessel_y0, y0, "Bessel function `Y0`; `Y0(0) = -inf`, negative → NaN", "1.0", "0.088_256_964_215_676_96");
    bessel!(bessel_y1, y1, "Bessel function `Y1`; `Y1(0) = -inf`, negative → NaN", "1.0", "-0.781_212_821_300_288_8");
}

#[cfg(test)]
mod tests {
    use super::*;

    // Found by the TF golden test: √(2πx) overflowed for x near f64::MAX.
    #[test]
    fn scaled_functions_near_the_largest_float() {
        let m = f64::MAX;
        let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b;
        assert!(close(i0e(m), 2.975_447_459_315_899_5e-155), "{}", i0e(m));
        assert!(close(i1e(m), 2.975_447_459_315_899_5e-155), "{}", i1e(m));
        assert_eq!((i0(m), i1(m), i1(-m)), (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY));
        assert!(close(k_scaled_trap(m, 0), 9.347_643_879_329_245e-155), "{}", k_scaled_trap(m, 0));
    }
}
