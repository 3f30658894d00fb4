//! Arithmetic on element types, with TF's semantics.
//!
//! Integers wrap on overflow (two's complement), as TF and NumPy do.
//! `bf16`/`f16` compute in `f32` and round once, which is exactly rounded for
//! `+ - * /` (f32 has more than twice their significand bits plus two).

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use crate::core::element::Element;

/// Ring operations of the 14 numeric element types.
pub trait Num: Element {
    /// `a + b`.
    fn add(self, o: Self) -> Self;
    /// `a - b`.
    fn sub(self, o: Self) -> Self;
    /// `a * b`.
    fn mul(self, o: Self) -> Self;
    /// `-a`.
    fn neg(self) -> Self;
}

/// Division of the inexact element types (floats and complex).
pub trait Inexact: Num {
    /// `a / b` (IEEE semantics: `x/0 = ±inf`, `0/0 = NaN`).
    fn div(self, o: Self) -> Self;
}

macro_rules! num_int {
    ($($t:ty),*) => {$(
        impl Num for $t {
            #[inline(always)] fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)] fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            #[inline(always)] fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline(always)] fn neg(self) -> Self { self.wrapping_neg() }
        }
    )*};
}
num_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! num_float {
    ($($t:ty),*) => {$(
        impl Num for $t {
            #[inline(always)] fn add(self, o: Self) -> Self { self + o }
            #[inline(always)] fn sub(self, o: Self) -> Self { self - o }
            #[inline(always)] fn mul(self, o: Self) -> Self { self * o }
            #[inline(always)] fn neg(self) -> Self { -self }
        }
        impl Inexact for $t {
            #[inline(always)] fn div(self, o: Self) -> Self { self / o }
        }
    )*};
}
num_float!(f32, f64);

macro_rules! num_half {
    ($($t:ty),*) => {$(
        impl Num for $t {
            #[inline(always)] fn add(self, o: Self) -> Self { <$t>::from_f32(self.to_f32() + o.to_f32()) }
            #[inline(always)] fn sub(self, o: Self) -> Self { <$t>::from_f32(self.to_f32() - o.to_f32()) }
            #[inline(always)] fn mul(self, o: Self) -> Self { <$t>::from_f32(self.to_f32() * o.to_f32()) }
            #[inline(always)] fn neg(self) -> Self { -self }
        }
        impl Inexact for $t {
            #[inline(always)] fn div(self, o: Self) -> Self { <$t>::from_f32(self.to_f32() / o.to_f32()) }
        }
    )*};
}
num_half!(bf16, f16);

macro_rules! num_complex {
    ($($t:ty => $r:ty),*) => {$(
        impl Num for $t {
            #[inline(always)] fn add(self, o: Self) -> Self { self + o }
            #[inline(always)] fn sub(self, o: Self) -> Self { self - o }
            #[inline(always)] fn mul(self, o: Self) -> Self { self * o }
            #[inline(always)] fn neg(self) -> Self { -self }
        }
        impl Inexact for $t {
            /// Smith's algorithm: no overflow or underflow of `|b|²` for large or tiny divisors.
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                let (a, b, c, d) = (self.re, self.im, o.re, o.im);
                if c.abs() >= d.abs() {
                    if c == 0.0 && d == 0.0 {
                        return <$t>::new(a / c, b / c);
                    }
                    let r = d / c;
                    let den = c + d * r;
                    <$t>::new((a + b * r) / den, (b - a * r) / den)
                } else {
                    let r = c / d;
                    let den = c * r + d;
                    <$t>::new((a * r + b) / den, (b * r - a) / den)
                }
            }
        }
    )*};
}
num_complex!(Complex32 => f32, Complex64 => f64);

/// Integer arithmetic with TF's semantics (wrapping; division by zero flagged by the caller).
pub(crate) trait Int: Element + Ord {
    fn is_zero(self) -> bool;
    fn is_neg(self) -> bool;
    fn floor_div(self, b: Self) -> Self;
    fn floor_mod(self, b: Self) -> Self;
    fn trunc_div(self, b: Self) -> Self;
    fn trunc_mod(self, b: Self) -> Self;
    fn wrapping_pow(self, e: Self) -> Self;
}

macro_rules! int_impl {
    ($($t:ty),*) => {$(impl Int for $t {
        #[inline(always)] fn is_zero(self) -> bool { self == 0 }
        #[allow(unused_comparisons)]
        #[inline(always)] fn is_neg(self) -> bool { self < 0 }
        #[inline(always)]
        fn floor_div(self, b: Self) -> Self {
            if b == 0 { return 0; }
            let q = self.wrapping_div(b);
            if self.wrapping_rem(b) != 0 && (self.is_neg() != b.is_neg()) { q.wrapping_sub(1) } else { q }
        }
        #[inline(always)]
        fn floor_mod(self, b: Self) -> Self {
            if b == 0 { return 0; }
            let r = self.wrapping_rem(b);
            if r != 0 && (r.is_neg() != b.is_neg()) { r.wrapping_add(b) } else { r }
        }
        #[inline(always)] fn trunc_div(self, b: Self) -> Self { if b == 0 { 0 } else { self.wrapping_div(b) } }
        #[inline(always)] fn trunc_mod(self, b: Self) -> Self { if b == 0 { 0 } else { self.wrapping_rem(b) } }
        #[inline(always)]
        fn wrapping_pow(self, e: Self) -> Self {
            if e.is_neg() {
                return 0; // flagged by the caller; also ends the loop below, which needs e ≥ 0
            }
            let (mut base, mut e, mut acc) = (self, e, 1 as $t);
            while e != 0 {
                if e & 1 == 1 { acc = acc.wrapping_mul(base); }
                base = base.wrapping_mul(base);
                e >>= 1;
            }
            acc
        }
    })*};
}
int_impl!(u8, u16, u32, u64, i8, i16, i32, i64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_wrap() {
        assert_eq!(127i8.add(1), -128);
        assert_eq!(0u8.sub(1), 255);
        assert_eq!(i32::MIN.neg(), i32::MIN);
    }

    #[test]
    fn complex_division_is_robust() {
        let big = Complex64::new(1e300, 1e300);
        let q = big.div(big);
        assert!((q.re - 1.0).abs() < 1e-15 && q.im.abs() < 1e-15, "{q}");
        let q = Complex64::new(1.0, 2.0).div(Complex64::new(3.0, 4.0));
        assert!((q.re - 0.44).abs() < 1e-15 && (q.im - 0.08).abs() < 1e-15);
    }

    #[test]
    fn half_arithmetic_rounds_once() {
        let a = f16::from_f32(3.2);
        let b = f16::from_f32(1.0);
        assert_eq!(a.add(b).to_f32(), 4.199_218_8);
    }
}
