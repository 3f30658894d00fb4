//! The special values of the complex elementary functions (C99 Annex G, which the Array API
//! standard adopts): infinite and NaN parts, and the few signed-zero inputs whose result sign
//! the ordinary formulas get wrong.
//!
//! Each function returns `Some(value)` for such an input and `None` otherwise; the caller then
//! evaluates its ordinary kernel. So every other input — every finite one but the listed zeros —
//! goes through exactly the code it went through before, bit for bit.
//!
//! The rules are written for one quadrant and extended by the symmetries Annex G states:
//! every function here commutes with conjugation (`f(conj z) = conj f(z)`), and `sinh`, `tanh`,
//! `asinh`, `atanh` are odd, `cosh` even. Where the standard leaves a sign unspecified, the
//! choice below is the one those symmetries give.
//! The circular functions are the hyperbolic ones rotated by `i` (`cos z = cosh(iz)`,
//! `sin z = -i·sinh(iz)`, `tan z = -i·tanh(iz)`, `asin z = -i·asinh(iz)`, `atan z = -i·atanh(iz)`),
//! as Annex G defines their special values.

use num_complex::Complex;
use num_traits::Float;

fn c<T: Float>(re: T, im: T) -> Option<Complex<T>> {
    Some(Complex::new(re, im))
}

/// True when both parts are finite: the ordinary kernel's domain.
fn finite<T: Float>(z: Complex<T>) -> bool {
    z.re.is_finite() && z.im.is_finite()
}

fn half_pi<T: Float>() -> T {
    T::zero().acos()
}

/// `i·z`.
fn mul_i<T: Float>(z: Complex<T>) -> Complex<T> {
    Complex::new(-z.im, z.re)
}

/// `-i·z`.
fn mul_neg_i<T: Float>(z: Complex<T>) -> Complex<T> {
    Complex::new(z.im, -z.re)
}

/// `exp(a + bi)`.
pub(crate) fn exp<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    if a.is_infinite() {
        if a < T::zero() {
            // e^-inf = +0 times cis(b); cis of an infinite or NaN angle has no value: the
            // zeros' signs are unspecified, and these follow conjugation
            return if b.is_finite() {
                c(T::zero() * b.cos(), T::zero() * b.sin())
            } else {
                c(T::zero(), T::zero().copysign(b))
            };
        }
        if b == T::zero() {
            return c(a, b);
        }
        return if b.is_finite() { c(a * b.cos(), a * b.sin()) } else { c(a, T::nan()) };
    }
    if a.is_nan() && b == T::zero() {
        return c(a, b);
    }
    // a NaN, or a finite a with an infinite or NaN b
    c(T::nan(), T::nan())
}

/// `exp(z) - 1`: as [`exp`], but `-inf` real parts give `-1` instead of `0`; and a zero gives
/// `+0` for the real part whatever its sign (the ordinary formula's `expm1(-0)·cos(b) - …`
/// keeps `-0`).
pub(crate) fn expm1<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    if z.re == T::zero() && z.im == T::zero() {
        return c(T::zero(), z.im);
    }
    let e = exp(z)?;
    if z.re == T::neg_infinity() {
        return c(-T::one(), e.im);
    }
    Some(e)
}

/// The log family (`log`, `log1p`, `acosh` share it for non-finite inputs): an infinite part
/// gives `+inf` for the real part and the angle of the point (`atan2`, exact at the infinities:
/// `π/2`, `π/4`, `3π/4`, `π` or `±0`) for the imaginary part; NaN elsewhere.
fn log_like<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    if a.is_infinite() || b.is_infinite() {
        let angle = if a.is_nan() || b.is_nan() { T::nan() } else { b.atan2(a) };
        return c(T::infinity(), angle);
    }
    c(T::nan(), T::nan())
}

/// `log(z)`.
pub(crate) fn log<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    log_like(z)
}

/// `log(1 + z)`: `1 + z` has the same special values as `z`.
pub(crate) fn log1p<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    log_like(z)
}

/// `sqrt(z)`.
pub(crate) fn sqrt<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    if b.is_infinite() {
        return c(T::infinity(), b); // for every a, NaN included
    }
    if a == T::infinity() {
        return c(a, if b.is_nan() { b } else { T::zero().copysign(b) });
    }
    if a == T::neg_infinity() {
        // +0 + inf·i with the sign of b; the sign is unspecified when b is NaN
        return if b.is_nan() { c(b, T::infinity()) } else { c(T::zero(), T::infinity().copysign(b)) };
    }
    c(T::nan(), T::nan())
}

/// `cosh(a + bi)` (even, and real on the real axis).
pub(crate) fn cosh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    // the sign of a zero imaginary part: sinh(a)·sin(b) has the sign of a·b
    let zero = |s: T| T::zero().copysign(a) * s.signum();
    if a == T::zero() {
        // b is infinite or NaN; a NaN b counts as positive
        return c(T::nan(), if b.is_nan() { T::zero().copysign(a) } else { zero(b) });
    }
    if a.is_infinite() {
        if b == T::zero() {
            return c(T::infinity(), zero(b));
        }
        if b.is_finite() {
            return c(T::infinity() * b.cos(), a * b.sin());
        }
        return c(T::infinity(), T::nan());
    }
    if a.is_nan() && b == T::zero() {
        return c(a, b); // the standard's NaN ± 0j, following conjugation
    }
    c(T::nan(), T::nan())
}

/// `sinh(a + bi)` (odd).
pub(crate) fn sinh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    if a == T::zero() {
        return c(a, T::nan()); // b is infinite or NaN
    }
    if a.is_infinite() {
        if b == T::zero() {
            return c(a, b);
        }
        if b.is_finite() {
            return c(a * b.cos(), T::infinity() * b.sin());
        }
        return c(a, T::nan());
    }
    if a.is_nan() && b == T::zero() {
        return c(a, b);
    }
    c(T::nan(), T::nan())
}

/// `tanh(a + bi)` (odd).
pub(crate) fn tanh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    if a.is_infinite() {
        // ±1 + 0i·sin(2b): the standard gives +0 for every b > 0 rather than sin(2b)'s sign,
        // so the zero follows b (conjugation), and is +0 for a NaN b
        let im = if b.is_nan() { T::zero() } else { T::zero().copysign(b) };
        return c(T::one().copysign(a), im);
    }
    if a == T::zero() {
        return c(a, T::nan()); // b is infinite or NaN
    }
    if a.is_nan() && b == T::zero() {
        return c(a, b);
    }
    c(T::nan(), T::nan())
}

/// `cos(z) = cosh(iz)`.
pub(crate) fn cos<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    cosh(mul_i(z))
}

/// `sin(z) = -i·sinh(iz)`.
pub(crate) fn sin<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    sinh(mul_i(z)).map(mul_neg_i)
}

/// `tan(z) = -i·tanh(iz)`.
pub(crate) fn tan<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    tanh(mul_i(z)).map(mul_neg_i)
}

/// `acosh(a + bi)`.
pub(crate) fn acosh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if a == T::zero() && b.is_nan() {
        return c(b, half_pi()); // the standard's NaN ± π/2 i
    }
    // the log family's values, with the imaginary part's sign from b (conjugation)
    log_like(Complex::new(a, b.abs())).map(|w| Complex::new(w.re, w.im.copysign(b)))
}

/// `acos(a + bi) = π/2 - asin(z)`; on the special values, `acos z = ±i·acosh z` (the sign making
/// the real part non-negative).
pub(crate) fn acos<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if a == T::zero() && (b == T::zero() || b.is_nan()) {
        return c(half_pi(), -b);
    }
    if finite(z) {
        return None;
    }
    if b.is_infinite() {
        // the angle of (a, inf): π/2 for finite a, π/4 or 3π/4 at the infinities, NaN for NaN
        return c(T::infinity().atan2(a), -b);
    }
    if a.is_infinite() {
        if b.is_nan() {
            return c(b, T::infinity()); // the standard's NaN ± inf i
        }
        return c(T::zero().atan2(a), -T::infinity().copysign(b));
    }
    c(T::nan(), T::nan())
}

/// `asinh(a + bi)` (odd).
pub(crate) fn asinh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if finite(z) {
        return None;
    }
    if b.is_infinite() {
        if a.is_nan() {
            return c(T::infinity(), a); // the standard's ±inf + NaN i
        }
        // the angle of (|a|, inf): π/2 for finite a, π/4 for infinite
        return c(T::infinity().copysign(a), T::infinity().atan2(a.abs()).copysign(b));
    }
    if a.is_infinite() {
        return c(a, if b.is_nan() { b } else { T::zero().copysign(b) });
    }
    if a.is_nan() && b == T::zero() {
        return c(a, b);
    }
    c(T::nan(), T::nan())
}

/// `asin(z) = -i·asinh(iz)`.
pub(crate) fn asin<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    asinh(mul_i(z)).map(mul_neg_i)
}

/// `atanh(a + bi)` (odd).
pub(crate) fn atanh<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    let (a, b) = (z.re, z.im);
    if a == T::zero() && b.is_nan() {
        return c(a, b);
    }
    if finite(z) {
        return None;
    }
    if a.is_infinite() || b.is_infinite() {
        // 1/z → 0: the real part is a zero with a's sign (+0 for NaN), the imaginary part
        // ±π/2 with b's sign (NaN for NaN)
        let re = if a.is_nan() { T::zero() } else { T::zero().copysign(a) };
        let im = if b.is_nan() { b } else { half_pi::<T>().copysign(b) };
        return c(re, im);
    }
    c(T::nan(), T::nan())
}

/// `atan(z) = -i·atanh(iz)`.
pub(crate) fn atan<T: Float>(z: Complex<T>) -> Option<Complex<T>> {
    atanh(mul_i(z)).map(mul_neg_i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    const INF: f64 = f64::INFINITY;
    const NAN: f64 = f64::NAN;

    /// Same value, the same sign of a zero, NaN where NaN.
    fn same(x: f64, y: f64) -> bool {
        (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
    }

    type F = fn(Complex<f64>) -> Option<Complex<f64>>;

    /// Checks `f(a + bi)` against `want` and, by conjugation, `f(a - bi)` against `conj(want)`.
    fn check(name: &str, f: F, (a, b): (f64, f64), (re, im): (f64, f64)) {
        // the conjugate of a NaN imaginary part is the same NaN: checked once
        let conj = if b.is_nan() { 1 } else { 2 };
        for (z, w) in [(Complex::new(a, b), (re, im)), (Complex::new(a, -b), (re, -im))].into_iter().take(conj) {
            let got = f(z).unwrap_or_else(|| panic!("{name}({z}) is not a special value"));
            assert!(same(got.re, w.0) && same(got.im, w.1), "{name}({z}) = {got}, want {} {}", w.0, w.1);
        }
    }

    /// `check` for an odd function: also `f(-z) = -f(z)`.
    fn check_odd(name: &str, f: F, (a, b): (f64, f64), (re, im): (f64, f64)) {
        check(name, f, (a, b), (re, im));
        check(name, f, (-a, -b), (-re, -im));
    }

    #[test]
    fn exp_and_expm1() {
        let (e, m): (F, F) = (exp, expm1);
        check("exp", e, (1.0, INF), (NAN, NAN));
        check("exp", e, (1.0, NAN), (NAN, NAN));
        check("exp", e, (INF, 0.0), (INF, 0.0));
        check("exp", e, (-INF, 1.0), (0.0 * 1f64.cos(), 0.0 * 1f64.sin()));
        check("exp", e, (-INF, 2.0), (-0.0, 0.0)); // cos 2 < 0
        check("exp", e, (INF, 1.0), (INF * 1f64.cos(), INF));
        check("exp", e, (-INF, INF), (0.0, 0.0));
        check("exp", e, (INF, INF), (INF, NAN));
        check("exp", e, (-INF, NAN), (0.0, 0.0));
        check("exp", e, (INF, NAN), (INF, NAN));
        check("exp", e, (NAN, 0.0), (NAN, 0.0));
        check("exp", e, (NAN, 1.0), (NAN, NAN));
        check("exp", e, (NAN, NAN), (NAN, NAN));
        check("expm1", m, (0.0, 0.0), (0.0, 0.0));
        check("expm1", m, (-0.0, 0.0), (0.0, 0.0));
        check("expm1", m, (INF, 0.0), (INF, 0.0));
        check("expm1", m, (-INF, 1.0), (-1.0, 0.0));
        check("expm1", m, (-INF, INF), (-1.0, 0.0));
        check("expm1", m, (INF, INF), (INF, NAN));
        check("expm1", m, (-INF, NAN), (-1.0, 0.0));
        check("expm1", m, (INF, NAN), (INF, NAN));
        check("expm1", m, (NAN, 0.0), (NAN, 0.0));
        check("expm1", m, (NAN, 1.0), (NAN, NAN));
    }

    #[test]
    fn logs_and_sqrt() {
        for (name, f) in [("log", log as F), ("log1p", log1p)] {
            check(name, f, (1.0, INF), (INF, FRAC_PI_2));
            check(name, f, (1.0, NAN), (NAN, NAN));
            check(name, f, (-INF, 1.0), (INF, PI));
            check(name, f, (INF, 1.0), (INF, 0.0));
            check(name, f, (-INF, INF), (INF, 3.0 * FRAC_PI_4));
            check(name, f, (INF, INF), (INF, FRAC_PI_4));
            check(name, f, (INF, NAN), (INF, NAN));
            check(name, f, (-INF, NAN), (INF, NAN));
            check(name, f, (NAN, 1.0), (NAN, NAN));
            check(name, f, (NAN, INF), (INF, NAN));
            check(name, f, (NAN, NAN), (NAN, NAN));
        }
        let s: F = sqrt;
        for a in [0.0, -1.0, INF, -INF, NAN] {
            check("sqrt", s, (a, INF), (INF, INF));
        }
        check("sqrt", s, (1.0, NAN), (NAN, NAN));
        check("sqrt", s, (-INF, 1.0), (0.0, INF));
        check("sqrt", s, (INF, 1.0), (INF, 0.0));
        check("sqrt", s, (INF, NAN), (INF, NAN));
        check("sqrt", s, (NAN, 1.0), (NAN, NAN));
        check("sqrt", s, (NAN, NAN), (NAN, NAN));
        let w = sqrt(Complex::new(-INF, NAN)).unwrap();
        assert!(w.re.is_nan() && w.im.is_infinite());
    }

    #[test]
    fn hyperbolic() {
        let (ch, sh, th): (F, F, F) = (cosh, sinh, tanh);
        check("cosh", ch, (0.0, INF), (NAN, 0.0));
        check("cosh", ch, (0.0, NAN), (NAN, 0.0));
        check("cosh", ch, (-0.0, INF), (NAN, -0.0));
        check("cosh", ch, (1.0, INF), (NAN, NAN));
        check("cosh", ch, (1.0, NAN), (NAN, NAN));
        check("cosh", ch, (INF, 0.0), (INF, 0.0));
        check("cosh", ch, (-INF, 0.0), (INF, -0.0));
        check("cosh", ch, (INF, 1.0), (INF * 1f64.cos(), INF));
        check("cosh", ch, (-INF, 1.0), (INF * 1f64.cos(), -INF));
        check("cosh", ch, (INF, INF), (INF, NAN));
        check("cosh", ch, (INF, NAN), (INF, NAN));
        check("cosh", ch, (NAN, 0.0), (NAN, 0.0));
        check("cosh", ch, (NAN, 1.0), (NAN, NAN));
        check("cosh", ch, (NAN, NAN), (NAN, NAN));
        check_odd("sinh", sh, (0.0, INF), (0.0, NAN));
        check_odd("sinh", sh, (0.0, NAN), (0.0, NAN));
        check_odd("sinh", sh, (1.0, INF), (NAN, NAN));
        check_odd("sinh", sh, (1.0, NAN), (NAN, NAN));
        check_odd("sinh", sh, (INF, 0.0), (INF, 0.0));
        check_odd("sinh", sh, (INF, 1.0), (INF * 1f64.cos(), INF));
        check_odd("sinh", sh, (INF, INF), (INF, NAN));
        check_odd("sinh", sh, (INF, NAN), (INF, NAN));
        check("sinh", sh, (NAN, 0.0), (NAN, 0.0));
        check("sinh", sh, (NAN, 1.0), (NAN, NAN));
        check("sinh", sh, (NAN, NAN), (NAN, NAN));
        check_odd("tanh", th, (1.0, INF), (NAN, NAN));
        check_odd("tanh", th, (0.0, INF), (0.0, NAN));
        check_odd("tanh", th, (1.0, NAN), (NAN, NAN));
        check_odd("tanh", th, (0.0, NAN), (0.0, NAN));
        check_odd("tanh", th, (INF, 1.0), (1.0, 0.0));
        check_odd("tanh", th, (INF, 2.0), (1.0, 0.0)); // sin 4 < 0, still +0
        check_odd("tanh", th, (INF, INF), (1.0, 0.0));
        check("tanh", th, (INF, NAN), (1.0, 0.0));
        check("tanh", th, (NAN, 0.0), (NAN, 0.0));
        check("tanh", th, (NAN, 1.0), (NAN, NAN));
        check("tanh", th, (NAN, NAN), (NAN, NAN));
    }

    #[test]
    fn inverse_hyperbolic_and_acos() {
        let (ac, ach, ash, ath): (F, F, F, F) = (acos, acosh, asinh, atanh);
        check("acos", ac, (0.0, 0.0), (FRAC_PI_2, -0.0));
        check("acos", ac, (-0.0, 0.0), (FRAC_PI_2, -0.0));
        check("acos", ac, (0.0, NAN), (FRAC_PI_2, NAN));
        check("acos", ac, (1.0, INF), (FRAC_PI_2, -INF));
        check("acos", ac, (1.0, NAN), (NAN, NAN));
        check("acos", ac, (-INF, 1.0), (PI, -INF));
        check("acos", ac, (INF, 1.0), (0.0, -INF));
        check("acos", ac, (-INF, INF), (3.0 * FRAC_PI_4, -INF));
        check("acos", ac, (INF, INF), (FRAC_PI_4, -INF));
        check("acos", ac, (NAN, 1.0), (NAN, NAN));
        check("acos", ac, (NAN, INF), (NAN, -INF));
        check("acos", ac, (NAN, NAN), (NAN, NAN));
        let w = acos(Complex::new(INF, NAN)).unwrap();
        assert!(w.re.is_nan() && w.im.is_infinite());
        check("acosh", ach, (1.0, INF), (INF, FRAC_PI_2));
        check("acosh", ach, (1.0, NAN), (NAN, NAN));
        check("acosh", ach, (0.0, NAN), (NAN, FRAC_PI_2));
        check("acosh", ach, (-INF, 1.0), (INF, PI));
        check("acosh", ach, (INF, 1.0), (INF, 0.0));
        check("acosh", ach, (-INF, INF), (INF, 3.0 * FRAC_PI_4));
        check("acosh", ach, (INF, INF), (INF, FRAC_PI_4));
        check("acosh", ach, (INF, NAN), (INF, NAN));
        check("acosh", ach, (NAN, 1.0), (NAN, NAN));
        check("acosh", ach, (NAN, INF), (INF, NAN));
        check("acosh", ach, (NAN, NAN), (NAN, NAN));
        check_odd("asinh", ash, (1.0, INF), (INF, FRAC_PI_2));
        check_odd("asinh", ash, (1.0, NAN), (NAN, NAN));
        check_odd("asinh", ash, (INF, 1.0), (INF, 0.0));
        check_odd("asinh", ash, (INF, INF), (INF, FRAC_PI_4));
        check_odd("asinh", ash, (INF, NAN), (INF, NAN));
        check("asinh", ash, (NAN, 0.0), (NAN, 0.0));
        check("asinh", ash, (NAN, 1.0), (NAN, NAN));
        check("asinh", ash, (NAN, INF), (INF, NAN));
        check("asinh", ash, (NAN, NAN), (NAN, NAN));
        check_odd("atanh", ath, (0.0, NAN), (0.0, NAN));
        check_odd("atanh", ath, (1.0, INF), (0.0, FRAC_PI_2));
        check_odd("atanh", ath, (1.0, NAN), (NAN, NAN));
        check_odd("atanh", ath, (INF, 1.0), (0.0, FRAC_PI_2));
        check_odd("atanh", ath, (INF, INF), (0.0, FRAC_PI_2));
        check_odd("atanh", ath, (INF, NAN), (0.0, NAN));
        check("atanh", ath, (NAN, 1.0), (NAN, NAN));
        check("atanh", ath, (NAN, INF), (0.0, FRAC_PI_2));
        check("atanh", ath, (NAN, NAN), (NAN, NAN));
    }

    #[test]
    fn circular_functions_are_the_rotated_hyperbolic_ones() {
        // cos(z) = cosh(iz): cos(inf + 0i) is cosh(-0 + inf i) = NaN + 0i·(sign)
        let w = cos(Complex::new(INF, 0.0)).unwrap();
        assert!(w.re.is_nan() && w.im == 0.0);
        // sin(0 + inf i) = i·sinh(inf): 0 + inf i
        let w = sin(Complex::new(0.0, INF)).unwrap();
        assert!(same(w.re, 0.0) && w.im == INF);
        // tan(1 + inf i) = i·tanh(inf): 0 + 1i
        let w = tan(Complex::new(1.0, INF)).unwrap();
        assert!(same(w.re, 0.0) && w.im == 1.0);
        // asin(1 + inf i) = -i·asinh(-inf + i): +0 + inf i
        let w = asin(Complex::new(1.0, INF)).unwrap();
        assert!(same(w.re, 0.0) && w.im == INF, "{w}");
        // atan(1 + inf i) = π/2 + 0i
        let w = atan(Complex::new(1.0, INF)).unwrap();
        assert!(same(w.re, FRAC_PI_2) && same(w.im, 0.0), "{w}");
    }

    #[test]
    fn ordinary_inputs_are_left_to_the_kernels() {
        let fs: [F; 17] =
            [exp, expm1, log, log1p, sqrt, cosh, sinh, tanh, cos, sin, tan, acosh, acos, asinh, asin, atanh, atan];
        for f in fs {
            for (a, b) in [(1.5, -2.0), (0.0, 1.0), (-0.0, -3.0), (1e308, 1e-308), (-2.0, 0.0), (0.5, -0.0)] {
                assert!(f(Complex::new(a, b)).is_none(), "{a} {b}");
            }
        }
        // the signed zeros the ordinary formulas get wrong are the only finite special values
        assert!(acos(Complex::new(0.0f64, 0.0)).is_some());
        assert!(expm1(Complex::new(-0.0f64, 0.0)).is_some());
        assert!(exp(Complex::new(0.0f64, 0.0)).is_none());
    }
}
