//! Double-double arithmetic (error-free transformations and a few functions
//! to ~2⁻¹⁰⁰ relative), for the kernels and special functions that round once.

/// The operations the error-free steps need, over one `f64` or a vector of them
/// (`kernels::taylor` runs the same steps on AVX-512 vectors).
pub(crate) trait Arith: Copy {
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    /// `self · b + c`, rounded once.
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// `self · b − c`, rounded once.
    fn mul_sub(self, b: Self, c: Self) -> Self;
}

impl Arith for f64 {
    #[inline(always)]
    fn add(self, b: f64) -> f64 {
        self + b
    }
    #[inline(always)]
    fn sub(self, b: f64) -> f64 {
        self - b
    }
    #[inline(always)]
    fn mul(self, b: f64) -> f64 {
        self * b
    }
    #[inline(always)]
    fn mul_add(self, b: f64, c: f64) -> f64 {
        f64::mul_add(self, b, c)
    }
    #[inline(always)]
    fn mul_sub(self, b: f64, c: f64) -> f64 {
        f64::mul_add(self, b, -c)
    }
}

/// `a + b = s + e` exactly (Knuth's two-sum).
#[inline(always)]
pub(crate) fn two_sum<V: Arith>(a: V, b: V) -> (V, V) {
    let s = a.add(b);
    let bb = s.sub(a);
    let e = a.sub(s.sub(bb)).add(b.sub(bb));
    (s, e)
}

/// `a + b = s + e` exactly when `a = 0` or `|a| ≥ |b|` (Dekker's fast two-sum: three
/// operations where [`two_sum`] takes six).
#[inline(always)]
pub(crate) fn fast_two_sum<V: Arith>(a: V, b: V) -> (V, V) {
    let s = a.add(b);
    (s, b.sub(s.sub(a)))
}

/// `a · b = p + e` exactly (barring over/underflow).
#[inline(always)]
pub(crate) fn two_prod<V: Arith>(a: V, b: V) -> (V, V) {
    let p = a.mul(b);
    (p, a.mul_sub(b, p))
}

/// A double-double number `hi + lo` (of `f64`s, or lane by lane of vectors).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dd<V = f64>(pub V, pub V);

impl<V: Arith> Dd<V> {
    #[inline(always)]
    pub(crate) fn add(self, o: Dd<V>) -> Dd<V> {
        let (s, e) = two_sum(self.0, o.0);
        let e = e.add(self.1).add(o.1);
        let (h, l) = two_sum(s, e);
        Dd(h, l)
    }
    #[inline(always)]
    pub(crate) fn mul(self, o: Dd<V>) -> Dd<V> {
        let (p, e) = two_prod(self.0, o.0);
        let e = e.add(self.0.mul(o.1).add(self.1.mul(o.0)));
        let (h, l) = two_sum(p, e);
        Dd(h, l)
    }
    /// `self · t + a`, the step of Horner's rule in double-double, within about 2⁻¹⁰³ of
    /// `|self · t| + |a|` for inputs whose low parts are at most a few ulps of their high
    /// parts. Twelve operations against [`Dd::mul`] then [`Dd::add`]'s twenty-six: the
    /// product's error terms go into fused multiply-adds, `self.1 · t.1` (below 2⁻¹⁰⁴ of
    /// the product) is left out, and the result is not renormalised (its low part may be a
    /// few ulps of its high part, which the next step and a final `hi + lo` take as is).
    #[inline(always)]
    pub(crate) fn mul_add(self, t: Dd<V>, a: Dd<V>) -> Dd<V> {
        let (p, e) = two_prod(self.0, t.0);
        let e = self.1.mul_add(t.0, self.0.mul_add(t.1, e));
        let (s, f) = two_sum(p, a.0);
        Dd(s, f.add(e).add(a.1))
    }
    #[inline(always)]
    pub(crate) fn mul_f(self, b: V) -> Dd<V> {
        let (p, e) = two_prod(self.0, b);
        let e = e.add(self.1.mul(b));
        let (h, l) = two_sum(p, e);
        Dd(h, l)
    }
}

impl Dd {
    pub(crate) fn div_f(self, b: f64) -> Dd {
        let q = self.0 / b;
        let (p, e) = two_prod(q, b);
        let r = ((self.0 - p) - e + self.1) / b;
        let (h, l) = two_sum(q, r);
        Dd(h, l)
    }
    pub(crate) fn neg(self) -> Dd {
        Dd(-self.0, -self.1)
    }
    /// `self / o` to ~2⁻¹⁰⁴ relative (one correction step of the double quotient).
    pub(crate) fn div(self, o: Dd) -> Dd {
        let q1 = self.0 / o.0;
        let r = self.add(o.mul_f(q1).neg());
        let q2 = r.0 / o.0;
        let r = r.add(o.mul_f(q2).neg());
        let q3 = r.0 / o.0;
        let (h, l) = two_sum(q1, q2);
        Dd(h, l).add(Dd(q3, 0.0))
    }
    /// `ln(self)` for `self > 0` (finite) to ~2⁻¹⁰⁰ relative: `self = 2ᵉ·m` with
    /// `m ∈ [√½, √2]`, `ln m = 2·atanh(s)`, `s = (m − 1)/(m + 1)` (|s| ≤ 0.172), by its series.
    pub(crate) fn ln(self) -> Dd {
        const LN2: Dd = Dd(std::f64::consts::LN_2, 2.319_046_813_846_299_6e-17);
        // scale by an exact power of two into [1, 2), then into [√½, √2]
        let mut e = self.0.log2().floor() as i32;
        // 2⁻ᵉ in two exact factors: e reaches 1024 (log2 of f64::MAX rounds up to
        // 1024.0), where 2⁻¹⁰²⁴ as one `powi` is 1/inf = 0, and -1074 for subnormals
        let (s1, s2) = (f64::powi(2.0, -e / 2), f64::powi(2.0, -e + e / 2));
        let mut m = Dd(self.0 * s1 * s2, self.1 * s1 * s2);
        if m.0 > std::f64::consts::SQRT_2 {
            m = Dd(m.0 * 0.5, m.1 * 0.5);
            e += 1;
        } else if m.0 < std::f64::consts::FRAC_1_SQRT_2 {
            m = Dd(m.0 * 2.0, m.1 * 2.0);
            e -= 1;
        }
        let s = m.add(Dd(-1.0, 0.0)).div(m.add(Dd(1.0, 0.0)));
        let w = s.mul(s);
        // Σ wⁱ/(2i+1), i = 0..=24: w ≤ 0.0295, so the first term left out is below 2⁻¹²⁰
        let mut p = Dd(0.0, 0.0);
        for i in (0..=24).rev() {
            p = p.mul(w).add(Dd(1.0, 0.0).div_f(f64::from(2 * i + 1)));
        }
        LN2.mul_f(f64::from(e)).add(s.mul(p).mul_f(2.0))
    }
    /// `e^self` for |self| ≤ 700 to ~2⁻¹⁰⁰ relative: `self = k·ln2 + r` with
    /// |r| ≤ 0.35 (`k·ln2` in double-double, within 2⁻⁹⁸ absolute for |k| ≤ 1010),
    /// 22 terms of eʳ's Taylor series by Horner's rule (the first left out,
    /// r²³/23!, is below 2⁻¹¹²), then an exact scaling by 2ᵏ (for results in
    /// f64's normal range).
    pub(crate) fn exp(self) -> Dd {
        const LN2: Dd = Dd(std::f64::consts::LN_2, 2.319_046_813_846_299_6e-17);
        let k = (self.0 * std::f64::consts::LOG2_E).round();
        let r = self.add(LN2.mul_f(k).neg());
        let mut p = Dd(1.0, 0.0);
        for i in (1..=22).rev() {
            p = Dd(1.0, 0.0).add(r.mul(p).div_f(f64::from(i)));
        }
        let scale = f64::from_bits(((k as i64 + 1023) as u64) << 52);
        Dd(p.0 * scale, p.1 * scale)
    }
    pub(crate) fn to_f64(self) -> f64 {
        self.0 + self.1
    }
}

/// `exp(-x²)` without the rounding error of forming `x²` (relative error ≈ 1 ulp).
pub(crate) fn exp_neg_sq(x: f64) -> f64 {
    let (h, l) = two_prod(x, x);
    (-h).exp() * (1.0 - l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_log_and_exp_reach_double_double_accuracy() {
        // 1/3 and ln 10 to ~32 digits (reference digits from mpmath)
        let third = Dd(1.0, 0.0).div(Dd(3.0, 0.0));
        assert_eq!(third.0, 1.0 / 3.0);
        assert!((third.1 - 1.850_371_707_708_594e-17).abs() < 1e-31);
        let l = Dd(10.0, 0.0).ln();
        assert_eq!(l.0, std::f64::consts::LN_10);
        assert!((l.1 - (-2.170_756_223_382_249_4e-16)).abs() < 1e-30, "{:e}", l.1);
        // ln a + ln b = ln(ab) (exact product), across different exponents
        let (a, b) = (Dd(7.5, 0.0), Dd(1234.5, 0.0));
        let lhs = a.ln().add(b.ln());
        let rhs = Dd(7.5 * 1234.5, 0.0).ln();
        assert!((lhs.0 - rhs.0).abs() + (lhs.1 - rhs.1).abs() < 1e-30);
        // e¹ and e⁻¹⁰ to 32 digits (mpmath): hi exact, lo within 2⁻¹⁰⁰ relative
        let e = Dd(1.0, 0.0).exp();
        assert_eq!(e.0, std::f64::consts::E);
        assert!((e.1 - 1.445_646_891_729_250_2e-16).abs() < 3e-30, "{:e}", e.1);
        let e = Dd(-10.0, 0.0).exp();
        assert_eq!(e.0, 4.539_992_976_248_485_4e-5);
        assert!((e.1 - -2.637_554_055_327_531e-21).abs() < 1e-34, "{:e}", e.1);
        // the extremes of the f64 range: ln f64::MAX and ln of the least subnormal (mpmath)
        let top = Dd(f64::MAX, 0.0).ln();
        assert_eq!(top.0, 709.782_712_893_384);
        assert!((top.1 - 2.363_601_707_132_359_2e-14).abs() < 1e-27, "{:e}", top.1);
        let bottom = Dd(5e-324, 0.0).ln();
        assert_eq!(bottom.0, -744.440_071_921_381_2);
        assert!((bottom.1 - -4.422_444_340_918_698e-14).abs() < 1e-27, "{:e}", bottom.1);
        // a double-double argument: e^(ln 10) = 10
        let ten = l.exp();
        assert_eq!(ten.0, 10.0);
        assert!(ten.1.abs() < 1e-29, "{:e}", ten.1);
    }
}
