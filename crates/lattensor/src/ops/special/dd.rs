//! Tiny double-double helpers (error-free transformations).

/// `a + b = s + e` exactly.
#[inline]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `a · b = p + e` exactly (barring over/underflow).
#[inline]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// A double-double number `hi + lo`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dd(pub f64, pub f64);

impl Dd {
    pub(crate) fn add(self, o: Dd) -> Dd {
        let (s, e) = two_sum(self.0, o.0);
        let e = e + self.1 + o.1;
        let (h, l) = two_sum(s, e);
        Dd(h, l)
    }
    pub(crate) fn mul(self, o: Dd) -> Dd {
        let (p, e) = two_prod(self.0, o.0);
        let e = e + (self.0 * o.1 + self.1 * o.0);
        let (h, l) = two_sum(p, e);
        Dd(h, l)
    }
    pub(crate) fn mul_f(self, b: f64) -> Dd {
        let (p, e) = two_prod(self.0, b);
        let e = e + self.1 * b;
        let (h, l) = two_sum(p, e);
        Dd(h, l)
    }
    pub(crate) fn div_f(self, b: f64) -> Dd {
        let q = self.0 / b;
        let (p, e) = two_prod(q, b);
        let r = ((self.0 - p) - e + self.1) / b;
        let (h, l) = two_sum(q, r);
        Dd(h, l)
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
