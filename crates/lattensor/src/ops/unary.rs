//! Element-wise functions of one tensor (`tf.math.exp`, `abs`, `round`, …).
//!
//! Every function here keeps its input's dtype and weakness:
//! `exp(f32*)` is `f32*`. There is no implicit promotion to float — like TF,
//! `sqrt` of an integer tensor is an error naming the dtypes it accepts; cast
//! first. `bfloat16`/`float16` inputs are computed in `f32` and rounded once.
//!
//! The complex kernels give the special values of C99 Annex G (the Array API standard's) for
//! infinite and NaN parts and the few signed zeros it lists, from the `annex_g` module; every
//! other input goes through the ordinary formula below.

use half::{bf16, f16};
use num_complex::Complex;
use num_traits::Float;

use crate::core::element::Element;
#[cfg(any(doc, test))]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::tape::{self, TapeOp};
pub(crate) use crate::dispatch::unsupported;
use crate::dispatch::{Compute, FloatStorage, INTEGERS, REAL_FLOATS};
use crate::kernels;
use crate::ops::annex_g;
use crate::ops::map::Map1;
use crate::{DType, Tensor};

const SIGNED: &str = "int8, int16, int32, int64, bfloat16, float16, float32, float64, complex64, complex128";
const NUMERIC: &str = "every dtype but bool";

fn half<T: Float>() -> T {
    T::one() / (T::one() + T::one())
}

/// Round half to even (TF's `round` and `rint`, NumPy's `around`).
pub(crate) fn round_half_even<T: Float>(x: T) -> T {
    let r = x.round(); // half away from zero
    if (r - x).abs() == half() {
        let two = T::one() + T::one();
        if (r / two).fract() != T::zero() {
            return (r - x.signum()).copysign(x);
        }
    }
    r
}

/// `log(1 + x)` that stays accurate for small `|x|`, from its real form.
fn complex_log1p<T: Float>(z: Complex<T>) -> Complex<T> {
    let (a, b) = (z.re, z.im);
    let two = T::one() + T::one();
    // |1 + z|² - 1 = 2a + a² + b², so log|1+z| = ½·log1p(2a + a² + b²)
    Complex::new(half::<T>() * (two * a + a * a + b * b).ln_1p(), b.atan2(T::one() + a))
}

/// `exp(z) - 1` accurate for small `|z|`: `expm1(a)cos(b) - 2sin²(b/2) + i·eᵃsin(b)`.
fn complex_expm1<T: Float>(z: Complex<T>) -> Complex<T> {
    let (a, b) = (z.re, z.im);
    let two = T::one() + T::one();
    let s = (b / two).sin();
    Complex::new(a.exp_m1() * b.cos() - two * s * s, a.exp() * b.sin())
}

fn complex_recip<T: Float>(z: Complex<T>) -> Complex<T> {
    // Smith's algorithm, as complex division
    let (c, d) = (z.re, z.im);
    if c == T::zero() && d == T::zero() {
        return Complex::new(T::infinity(), T::nan()); // as TF and NumPy: 1/(0+0i) = inf+nanj
    }
    if c.abs() >= d.abs() {
        let r = d / c;
        let den = c + d * r;
        Complex::new(T::one() / den, -r / den)
    } else {
        let r = c / d;
        let den = c * r + d;
        Complex::new(r / den, -T::one() / den)
    }
}

/// `ln 2` in `T`.
fn ln2<T: Float>() -> T {
    (T::one() + T::one()).ln()
}

/// `asinh`, accurate everywhere: std's `ln(x + √(x²+1))` form overflows for `|x|` near the
/// largest float (TF gives 710.47 for `asinh(f64::MAX)`).
fn asinh_real<T: Float>(x: T) -> T {
    let a = x.abs();
    let big = T::epsilon().sqrt().recip();
    let two = T::one() + T::one();
    let r = if a.is_nan() || a.is_infinite() {
        a
    } else if a > big {
        a.ln() + ln2()
    } else if a > two {
        (two * a + ((a * a + T::one()).sqrt() + a).recip()).ln()
    } else {
        (a + a * a / ((a * a + T::one()).sqrt() + T::one())).ln_1p()
    };
    r.copysign(x)
}

/// `acosh` without overflow near the largest float (see [`asinh_real`]).
fn acosh_real<T: Float>(x: T) -> T {
    let two = T::one() + T::one();
    if x.is_nan() || x < T::one() {
        T::nan()
    } else if x.is_infinite() {
        x
    } else if x > T::epsilon().sqrt().recip() {
        x.ln() + ln2()
    } else if x > two {
        (two * x - (x + (x * x - T::one()).sqrt()).recip()).ln()
    } else {
        let t = x - T::one();
        (t + (two * t + t * t).sqrt()).ln_1p()
    }
}

/// `atanh` from `|x|`: std's `½·log1p(2x / (1 - x))` loses digits for negative `x` near -1
/// (2000 ulp at -0.999 in f32), because `log1p` is then evaluated near -1.
fn atanh_real<T: Float>(x: T) -> T {
    let a = x.abs();
    let two = T::one() + T::one();
    let r = if a < half() {
        half::<T>() * (two * a + two * a * a / (T::one() - a)).ln_1p()
    } else {
        half::<T>() * (two * (a / (T::one() - a))).ln_1p()
    };
    r.copysign(x)
}

/// `tanh(z)` that does not overflow for large `|re z|` (num-complex's `sinh/cosh` form gives
/// NaN at `100 - 100i`; the value is `±1 + 0i` to the last bit there).
fn complex_tanh<T: Float>(z: Complex<T>) -> Complex<T> {
    let (a, b) = (z.re, z.im);
    let large = T::from(22.0).expect("small constant"); // e^-44 < f64 ulp of 1
    if a.abs() > large && b.is_finite() {
        let two = T::one() + T::one();
        let four = two + two;
        // Im tanh = sin 2b / (cosh 2a + cos 2b) ≈ 4 sin b cos b · e^(-2|a|)
        return Complex::new(T::one().copysign(a), four * b.sin() * b.cos() * (-two * a.abs()).exp());
    }
    z.tanh()
}

/// `tan(z) = -i · tanh(i z)`, inheriting [`complex_tanh`]'s range.
fn complex_tan<T: Float>(z: Complex<T>) -> Complex<T> {
    let t = complex_tanh(Complex::new(-z.im, z.re));
    Complex::new(t.im, -t.re)
}

/// `asinh(z)` by odd symmetry from the right half-plane, and as `log1p(z + z²/(1 + √(1+z²)))`
/// for `|z| < ½`: num-complex's `log(z + √(z²+1))` loses every digit of a small `z`
/// (`1e-7(1+i)`) and cancels for `re z < 0`.
fn complex_asinh<T: Float>(z: Complex<T>) -> Complex<T> {
    if z.re < T::zero() {
        return -complex_asinh(-z);
    }
    // Away from 0 num-complex's form does not cancel for re z ≥ 0, and it puts the branch
    // cuts (re z = ±0, |im z| > 1) on the sides C99 and TF use.
    // (NaN norms take num-complex's path too)
    let r = z.norm();
    if r >= half() || r.is_nan() {
        return z.asinh();
    }
    let one = Complex::new(T::one(), T::zero());
    let z2 = z * z;
    complex_log1p(z + z2 / (one + (one + z2).sqrt()))
}

/// `asin(z) = -i · asinh(i z)`, with the branch cuts (`x ± 0i`, `|x| > 1`) on the sides
/// C99 and TF use.
fn complex_asin<T: Float>(z: Complex<T>) -> Complex<T> {
    if z.im == T::zero() && z.re.abs() > T::one() {
        // on the cut: asin(x ± 0i) = ±π/2 ± i·acosh|x|, the imaginary sign from the zero's (C99, TF)
        let half_pi = T::zero().acos();
        return Complex::new(half_pi.copysign(z.re), acosh_real(z.re.abs()).copysign(z.im));
    }
    let s = complex_asinh(Complex::new(-z.im, z.re));
    Complex::new(s.im, -s.re)
}

/// `acos(z) = π/2 - asin(z)`.
fn complex_acos<T: Float>(z: Complex<T>) -> Complex<T> {
    let s = complex_asin(z);
    Complex::new(T::zero().acos() - s.re, -s.im)
}

/// `atan(z) = -i · atanh(i z)`.
fn complex_atan<T: Float>(z: Complex<T>) -> Complex<T> {
    let t = complex_atanh(Complex::new(-z.im, z.re));
    Complex::new(t.im, -t.re)
}

/// `atanh(z) = ½(log1p(z) - log1p(-z))`, accurate for small `|z|` (num-complex's
/// `½ log((1+z)/(1-z))` loses all digits of the real part at `z = 1e-7(1+i)`).
fn complex_atanh<T: Float>(z: Complex<T>) -> Complex<T> {
    (complex_log1p(z) - complex_log1p(-z)) * half::<T>()
}

/// Softplus `log(1 + eˣ)` without overflow.
fn softplus_real<T: Float>(x: T) -> T {
    x.max(T::zero()) + (-x.abs()).exp().ln_1p()
}

macro_rules! float_fn {
    ($(#[$doc:meta])* $name:ident, $tf:literal, complex: $c:tt, real: |$x:ident| $real:expr, complex_fn: |$z:ident| $cplx:expr) => {
        $(#[$doc])*
        ///
        /// Keeps the input's dtype and weakness.
        ///
        /// # Errors
        /// [`Error::UnsupportedDType`] for integer and bool inputs (cast to a float first)
        #[doc = concat!(float_fn!(@complex_doc $c), ".")]
        pub fn $name(x: &Tensor) -> Result<Tensor> {
            #[allow(non_camel_case_types)]
            struct $name;
            impl Map1 for $name {
                const COMPLEX: bool = $c;
                fn name(&self) -> &str {
                    $tf
                }
                #[inline(always)]
                fn real<T: Compute, S: FloatStorage>(&self, $x: T) -> S {
                    let r: T = $real;
                    r.cast_into()
                }
                #[inline(always)]
                #[allow(unused_variables)]
                fn complex<T: Compute>(&self, $z: Complex<T>) -> Complex<T> {
                    $cplx
                }
            }
            tape::op(&[x], || $name.map(x), || TapeOp::Unary($tf))
        }
    };
    (@complex_doc true) => { "" };
    (@complex_doc false) => { " and for complex inputs" };
}

/// `eˣ`.
///
/// Keeps the input's dtype and weakness. float32 (and float16/bfloat16, which
/// compute in float32) use a vectorised kernel, computed in float64 and rounded
/// once, correctly rounded on all 2³² float32 inputs (checked exhaustively):
/// the inputs whose float64 value lies too near a rounding boundary (about one
/// in 2²⁰) are recomputed in double-double. A NaN comes back quiet, with its
/// payload.
///
/// ```
/// use lattensor::{ops, Tensor};
/// let y = ops::exp(&Tensor::from_vec(vec![0.0f32, 1.0, -200.0], &[3]).unwrap()).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, std::f32::consts::E, 0.0]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer and bool inputs (cast to a float first).
pub fn exp(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            use crate::kernels::exp::{exp_f32, exp_f32_slice};
            if x.dtype() == DType::F32 {
                let mut out = Tensor::for_overwrite("exp", x.shape(), x.dtype())?;
                // a large working set streams its output from exp's own loop
                let o = out.data_mut();
                let stream = kernels::Streaming::of(o, x.bytes_read()).on();
                kernels::unary_slices_compute_bound::<f32, f32, _>(x, o, |s, d| exp_f32_slice(s, d, stream));
                return Ok(out.with_weak(x.is_weak()));
            }
            /// float16/bfloat16 through the element-wise f32 kernel; f64 and complex through std.
            struct Exp;
            impl Map1 for Exp {
                const COMPLEX: bool = true;
                fn name(&self) -> &str {
                    "exp"
                }
                #[inline(always)]
                fn real<C: Compute, S: FloatStorage>(&self, x: C) -> S {
                    x.either(&exp_f32, &f64::exp).cast_into()
                }
                #[inline(always)]
                fn complex<R: Compute>(&self, z: Complex<R>) -> Complex<R> {
                    annex_g::exp(z).unwrap_or_else(|| z.exp())
                }
            }
            Exp.map(x)
        },
        || TapeOp::Unary("exp"),
    )
}
float_fn!(/// `eˣ - 1`, accurate near 0.
    expm1, "expm1", complex: true, real: |x| x.exp_m1(), complex_fn: |z| annex_g::expm1(z).unwrap_or_else(|| complex_expm1(z)));
float_fn!(/// Natural logarithm (`log(0) = -inf`, negative → NaN).
    log, "log", complex: true, real: |x| x.ln(), complex_fn: |z| annex_g::log(z).unwrap_or_else(|| z.ln()));
float_fn!(/// `log(1 + x)`, accurate near 0.
    log1p, "log1p", complex: true, real: |x| x.ln_1p(), complex_fn: |z| annex_g::log1p(z).unwrap_or_else(|| complex_log1p(z)));
float_fn!(/// Square root (negative reals → NaN; complex gives the principal root).
    sqrt, "sqrt", complex: true, real: |x| x.sqrt(), complex_fn: |z| annex_g::sqrt(z).unwrap_or_else(|| z.sqrt()));
float_fn!(/// `1 / sqrt(x)`.
    rsqrt, "rsqrt", complex: true, real: |x| x.sqrt().recip(), complex_fn: |z| complex_recip(z.sqrt()));
float_fn!(/// Sine.
    sin, "sin", complex: true, real: |x| x.sin(), complex_fn: |z| annex_g::sin(z).unwrap_or_else(|| z.sin()));
float_fn!(/// Cosine.
    cos, "cos", complex: true, real: |x| x.cos(), complex_fn: |z| annex_g::cos(z).unwrap_or_else(|| z.cos()));
float_fn!(/// Tangent.
    tan, "tan", complex: true, real: |x| x.tan(), complex_fn: |z| annex_g::tan(z).unwrap_or_else(|| complex_tan(z)));
float_fn!(/// Inverse sine.
    asin, "asin", complex: true, real: |x| x.asin(), complex_fn: |z| annex_g::asin(z).unwrap_or_else(|| complex_asin(z)));
float_fn!(/// Inverse cosine.
    acos, "acos", complex: true, real: |x| x.acos(), complex_fn: |z| annex_g::acos(z).unwrap_or_else(|| complex_acos(z)));
float_fn!(/// Inverse tangent.
    atan, "atan", complex: true, real: |x| x.atan(), complex_fn: |z| annex_g::atan(z).unwrap_or_else(|| complex_atan(z)));
float_fn!(/// Hyperbolic sine.
    sinh, "sinh", complex: true, real: |x| x.sinh(), complex_fn: |z| annex_g::sinh(z).unwrap_or_else(|| z.sinh()));
float_fn!(/// Hyperbolic cosine.
    cosh, "cosh", complex: true, real: |x| x.cosh(), complex_fn: |z| annex_g::cosh(z).unwrap_or_else(|| z.cosh()));
float_fn!(/// Hyperbolic tangent.
    tanh, "tanh", complex: true, real: |x| x.tanh(), complex_fn: |z| annex_g::tanh(z).unwrap_or_else(|| complex_tanh(z)));
float_fn!(/// Inverse hyperbolic sine.
    asinh, "asinh", complex: true, real: |x| asinh_real(x), complex_fn: |z| annex_g::asinh(z).unwrap_or_else(|| complex_asinh(z)));
float_fn!(/// Inverse hyperbolic cosine.
    acosh, "acosh", complex: true, real: |x| acosh_real(x), complex_fn: |z| annex_g::acosh(z).unwrap_or_else(|| z.acosh()));
float_fn!(/// Inverse hyperbolic tangent.
    atanh, "atanh", complex: true, real: |x| atanh_real(x), complex_fn: |z| annex_g::atanh(z).unwrap_or_else(|| complex_atanh(z)));
float_fn!(/// Logistic sigmoid `1 / (1 + e⁻ˣ)`.
    sigmoid, "sigmoid", complex: true,
    real: |x| if x >= T::zero() { (T::one() + (-x).exp()).recip() } else { let e = x.exp(); e / (T::one() + e) },
    complex_fn: |z| complex_recip(Complex::new(T::one(), T::zero()) + (-z).exp()));
float_fn!(/// `log(sigmoid(x)) = -softplus(-x)`, without overflow.
    log_sigmoid, "log_sigmoid", complex: false, real: |x| -softplus_real(-x), complex_fn: |z| z);
float_fn!(/// `log(1 + eˣ)`, without overflow.
    softplus, "softplus", complex: false, real: |x| softplus_real(x), complex_fn: |z| z);
float_fn!(/// Largest integer not above `x`.
    floor, "floor", complex: false, real: |x| x.floor(), complex_fn: |z| z);
float_fn!(/// Smallest integer not below `x`.
    ceil, "ceil", complex: false, real: |x| x.ceil(), complex_fn: |z| z);
float_fn!(/// Round half to even (`rint(2.5) = 2`).
    rint, "rint", complex: false, real: |x| round_half_even(x), complex_fn: |z| z);
float_fn!(/// `1 / x`.
    reciprocal, "reciprocal", complex: true, real: |x| x.recip(), complex_fn: |z| complex_recip(z));
float_fn!(/// `1 / x`, and 0 where `x == 0`.
    reciprocal_no_nan, "reciprocal_no_nan", complex: true,
    real: |x| if x == T::zero() { T::zero() } else { x.recip() },
    complex_fn: |z| if z.re == T::zero() && z.im == T::zero() { Complex::new(T::zero(), T::zero()) } else { complex_recip(z) });

/// Round half to even, like `tf.math.round`: `[0.5, 1.5, 2.5] → [0, 2, 2]`.
/// Integer inputs are returned unchanged (as TF does).
///
/// ```
/// use lattensor::{ops, Tensor};
/// let x = Tensor::from_vec(vec![0.5f32, 1.5, 2.5, -0.5], &[4]).unwrap();
/// assert_eq!(ops::round(&x).unwrap().to_vec::<f32>().unwrap(), vec![0.0, 2.0, 2.0, -0.0]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and complex.
pub fn round(x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_integer() {
        return Ok(x.clone());
    }
    rint(x).map_err(|_| unsupported("round", x.dtype(), "integers, bfloat16, float16, float32, float64"))
}

/// A function on every numeric dtype, given per element type.
pub(crate) trait NumFn {
    const NAME: &'static str;
    const SUPPORTED: &'static str;
    fn apply<T: super::scalar_arith::Num + Signum>(x: T) -> T;
    fn accepts(d: DType) -> bool;
}

/// Sign and absolute value on every element type (integers wrap: `abs(i8::MIN) = i8::MIN`).
pub(crate) trait Signum: Element {
    /// `-1`, `0` or `1` (NaN for NaN; `z/|z|` for complex).
    fn signum_(self) -> Self;
    /// `|x|` in the same type (for complex: `|z| + 0i`).
    fn abs_(self) -> Self;
}

macro_rules! signum_int {
    ($($t:ty),*) => {$(impl Signum for $t {
        #[inline(always)] fn signum_(self) -> Self { if self > 0 { 1 } else if self == 0 { 0 } else { (0 as $t).wrapping_sub(1) } }
        #[inline(always)] fn abs_(self) -> Self { if self >= (0 as $t) { self } else { (0 as $t).wrapping_sub(self) } }
    })*};
}
signum_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! signum_float {
    ($($t:ty),*) => {$(impl Signum for $t {
        #[inline(always)] fn signum_(self) -> Self {
            let z = <$t as Element>::from_f32(0.0);
            if self > z { <$t as Element>::from_f32(1.0) } else if self < z { <$t as Element>::from_f32(-1.0) } else if self == z { z } else { self }
        }
        #[inline(always)] fn abs_(self) -> Self { if self.is_sign_negative() { -self } else { self } }
    })*};
}
signum_float!(f32, f64, bf16, f16);

macro_rules! signum_complex {
    ($($r:ty),*) => {$(impl Signum for Complex<$r> {
        #[inline(always)] fn signum_(self) -> Self {
            let n = self.norm();
            // TF: 0 for a zero of either sign (so -0+0i gives +0+0i)
            if n == 0.0 { Complex::new(0.0, 0.0) } else { Complex::new(self.re / n, self.im / n) }
        }
        #[inline(always)] fn abs_(self) -> Self { Complex::new(self.norm(), 0.0) }
    })*};
}
signum_complex!(f32, f64);

fn num_map<F: NumFn>(x: &Tensor) -> Result<Tensor> {
    if !F::accepts(x.dtype()) {
        return Err(unsupported(F::NAME, x.dtype(), F::SUPPORTED));
    }
    let mut out = Tensor::for_overwrite(F::NAME, x.shape(), x.dtype())?;
    crate::with_numeric_dtype!(x.dtype(), T,
        kernels::unary::<T, T, _>(x, out.data_mut::<T>(), F::apply::<T>),
        // bool and the low-precision storage dtypes have no kernel
        bool => return Err(unsupported(F::NAME, x.dtype(), F::SUPPORTED)));
    Ok(out.with_weak(x.is_weak()))
}

fn signed_or_inexact(d: DType) -> bool {
    !d.is_unsigned() && !d.is_bool()
}

/// `-1`, `0` or `1` element-wise (`NaN` stays `NaN`, `-0.0 → 0`; complex: `z / |z|`).
///
/// ```
/// use lattensor::{ops, Tensor};
/// let x = Tensor::from_vec(vec![-3i32, 0, 7], &[3]).unwrap();
/// assert_eq!(ops::sign(&x).unwrap().to_vec::<i32>().unwrap(), vec![-1, 0, 1]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and unsigned integers (TF has no kernel).
pub fn sign(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            struct F;
            impl NumFn for F {
                const NAME: &'static str = "sign";
                const SUPPORTED: &'static str = SIGNED;
                fn apply<T: super::scalar_arith::Num + Signum>(x: T) -> T {
                    x.signum_()
                }
                fn accepts(d: DType) -> bool {
                    signed_or_inexact(d)
                }
            }
            num_map::<F>(x)
        },
        || TapeOp::Unary("sign"),
    )
}

/// `x * x` element-wise (integers wrap).
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool.
pub fn square(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            struct F;
            impl NumFn for F {
                const NAME: &'static str = "square";
                const SUPPORTED: &'static str = NUMERIC;
                fn apply<T: super::scalar_arith::Num + Signum>(x: T) -> T {
                    x.mul(x)
                }
                fn accepts(d: DType) -> bool {
                    !d.is_bool()
                }
            }
            num_map::<F>(x)
        },
        || TapeOp::Unary("square"),
    )
}

/// Absolute value. Keeps dtype and weakness, except that complex inputs give
/// their real dtype (`abs(c128*)` is `f64*`). Integers wrap: `abs(i8::MIN) = i8::MIN`.
///
/// ```
/// use lattensor::{constant, ops, DType};
/// let a = ops::abs(&constant([-100.0, 4.0]).unwrap()).unwrap();
/// assert_eq!(a.to_string(), "<Tensor: shape=(2,), dtype=float32, numpy=[100.,   4.], weak=True>");
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and unsigned integers (TF has no kernel).
pub fn abs(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            struct F;
            impl NumFn for F {
                const NAME: &'static str = "abs";
                const SUPPORTED: &'static str = SIGNED;
                fn apply<T: super::scalar_arith::Num + Signum>(x: T) -> T {
                    x.abs_()
                }
                fn accepts(d: DType) -> bool {
                    signed_or_inexact(d)
                }
            }
            let a = num_map::<F>(x)?;
            if x.dtype().is_complex() {
                return real(&a);
            }
            Ok(a)
        },
        || TapeOp::Unary("abs"),
    )
}

/// A real function of a complex number (its real part, imaginary part, argument).
trait ComplexToReal {
    const NAME: &'static str;
    fn apply<R: Float>(z: Complex<R>) -> R;
}

/// Maps a complex tensor to a real one of its component dtype with `F`, keeping weakness.
fn complex_to_real<F: ComplexToReal>(x: &Tensor) -> Result<Tensor> {
    let rd = x.dtype().real_dtype();
    let mut out = Tensor::for_overwrite(F::NAME, x.shape(), rd)?;
    crate::with_complex_dtype!(x.dtype(), R,
        kernels::unary::<Complex<R>, R, _>(x, out.data_mut(), F::apply::<R>),
        other => unreachable!("complex was checked"));
    Ok(out.with_weak(x.is_weak()))
}

macro_rules! complex_to_real {
    ($name:literal, |$z:ident| $f:expr) => {{
        struct F;
        impl ComplexToReal for F {
            const NAME: &'static str = $name;
            #[inline(always)]
            fn apply<R: Float>($z: Complex<R>) -> R {
                $f
            }
        }
        F
    }};
}

/// Runs [`complex_to_real`] with the function given by `complex_to_real!`.
fn run_complex_to_real<F: ComplexToReal>(_: F, x: &Tensor) -> Result<Tensor> {
    complex_to_real::<F>(x)
}

/// TF's `real` and `conj` accept numeric tensors only (`TypeError` for bool).
fn refuse_bool(op: &str, x: &Tensor) -> Result<()> {
    if x.dtype().is_bool() { Err(unsupported(op, x.dtype(), NUMERIC)) } else { Ok(()) }
}

/// Real part; a real input is returned unchanged (`real(c128*)` is `f64*`).
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool.
pub fn real(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            refuse_bool("real", x)?;
            if !x.dtype().is_complex() {
                return Ok(x.clone());
            }
            run_complex_to_real(complex_to_real!("real", |z| z.re), x)
        },
        || TapeOp::Unary("real"),
    )
}

/// Imaginary part; zeros of the same dtype for a real input (bool too, as in TF).
///
/// # Errors
/// [`Error::ResourceExhausted`] if the result cannot be allocated.
pub fn imag(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            if !x.dtype().is_complex() {
                return crate::zeros_like(x, None);
            }
            run_complex_to_real(complex_to_real!("imag", |z| z.im), x)
        },
        || TapeOp::Unary("imag"),
    )
}

/// Argument of a complex number (`atan2(im, re)`); for real inputs `π` for
/// negative values and `0` otherwise — NaN included — in the same dtype (TF's
/// `where(x < 0, π, 0)`).
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer and bool inputs.
pub fn angle(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            if x.dtype().is_complex() {
                return run_complex_to_real(complex_to_real!("angle", |z| z.im.atan2(z.re)), x);
            }
            struct Angle;
            impl Map1 for Angle {
                fn name(&self) -> &str {
                    "angle"
                }
                fn real<C: Compute, S: FloatStorage>(&self, x: C) -> S {
                    let a = if x < C::zero() {
                        C::zero().acos() * (C::one() + C::one()) // π
                    } else {
                        C::zero()
                    };
                    a.cast_into()
                }
            }
            Angle.map(x)
        },
        || TapeOp::Unary("angle"),
    )
}

/// Complex conjugate; real inputs are returned unchanged.
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool; [`Error::ResourceExhausted`] if the result cannot
/// be allocated.
pub fn conj(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            refuse_bool("conj", x)?;
            if !x.dtype().is_complex() {
                return Ok(x.clone());
            }
            let mut out = Tensor::for_overwrite("conj", x.shape(), x.dtype())?;
            crate::with_complex_dtype!(x.dtype(), R,
        kernels::unary::<Complex<R>, Complex<R>, _>(x, out.data_mut(), |z| z.conj()),
        other => unreachable!("complex was checked"));
            Ok(out.with_weak(x.is_weak()))
        },
        || TapeOp::Unary("conj"),
    )
}

/// A predicate on float values, true for no integer.
trait FloatPredicate {
    const NAME: &'static str;
    fn test<C: Float>(x: C) -> bool;
}

/// Applies `P` to a real float tensor (bfloat16 and float16 read as f32, exactly).
fn float_predicate<P: FloatPredicate>(x: &Tensor) -> Result<Tensor> {
    let mut out = Tensor::zeros(x.shape(), DType::Bool)?;
    crate::with_float_compute!(x.dtype(), C,
        kernels::unary::<C, bool, _>(x, out.data_mut(), P::test::<C>),
        other => return Err(unsupported(P::NAME, x.dtype(), REAL_FLOATS)));
    Ok(out)
}

macro_rules! float_predicate {
    ($(#[$doc:meta])* $name:ident, $method:ident) => {
        $(#[$doc])*
        pub fn $name(x: &Tensor) -> Result<Tensor> {
            struct P;
            impl FloatPredicate for P {
                const NAME: &'static str = stringify!($name);
                #[inline(always)]
                fn test<C: Float>(x: C) -> bool {
                    x.$method()
                }
            }
            float_predicate::<P>(x)
        }
    };
}

float_predicate!(
    /// `true` where `x` is NaN. The result is strong bool.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for non-float inputs (as TF).
    is_nan, is_nan);
float_predicate!(
    /// `true` where `x` is ±inf. The result is strong bool.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for non-float inputs (as TF).
    is_inf, is_infinite);
float_predicate!(
    /// `true` where `x` is finite. The result is strong bool.
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] for non-float inputs (as TF).
    is_finite, is_finite);

/// Logical NOT of a bool tensor.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-bool inputs.
pub fn logical_not(x: &Tensor) -> Result<Tensor> {
    if x.dtype() != DType::Bool {
        return Err(unsupported("logical_not", x.dtype(), "bool"));
    }
    let mut out = Tensor::zeros(x.shape(), DType::Bool)?;
    kernels::unary::<bool, bool, _>(x, out.data_mut(), |b| !b);
    Ok(out)
}

/// Bitwise NOT of an integer tensor (`tf.bitwise.invert`); keeps dtype and weakness.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-integer inputs.
pub fn invert(x: &Tensor) -> Result<Tensor> {
    let mut out = Tensor::for_overwrite("invert", x.shape(), x.dtype())?;
    crate::with_int_dtype!(x.dtype(), T,
        kernels::unary::<T, T, _>(x, out.data_mut(), |v: T| !v),
        other => return Err(unsupported("invert", x.dtype(), INTEGERS)));
    Ok(out.with_weak(x.is_weak()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t32(v: &[f32]) -> Tensor {
        Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
    }

    fn c64(v: &[(f64, f64)]) -> Tensor {
        Tensor::from_vec(v.iter().map(|&(r, i)| Complex::new(r, i)).collect::<Vec<_>>(), &[v.len()]).unwrap()
    }

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    // Bugs found by the TF golden test (tests/tf_api_golden.rs); references from mpmath.
    #[test]
    fn inverse_hyperbolics_at_the_edges() {
        let big = Tensor::scalar(f64::MAX);
        assert!(close(asinh(&big).unwrap().item::<f64>().unwrap(), 710.475_860_073_944, 1e-15));
        assert!(close(acosh(&big).unwrap().item::<f64>().unwrap(), 710.475_860_073_944, 1e-15));
        let a = atanh(&Tensor::scalar(-0.999f32)).unwrap().item::<f32>().unwrap();
        // the f32 input is -0.99900001287…: its atanh is -3.8002076 (std's f64 form, fine here)
        let want = f64::from(-0.999f32).atanh() as f32;
        assert!((a - want).abs() <= 4.0 * f32::EPSILON * 4.0, "{a} {want}");
        let a = atanh(&Tensor::scalar(-0.999f64)).unwrap().item::<f64>().unwrap();
        assert!(close(a, -3.800_201_167_250_199_4, 4.0 * f64::EPSILON), "{a}");
    }

    #[test]
    fn complex_functions_small_and_large() {
        let z = c64(&[(1e-7, 1e-7)]);
        for f in [asinh, atanh, asin, atan] {
            let w = f(&z).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
            assert!(close(w.re, 1e-7, 1e-14) && close(w.im, 1e-7, 1e-14), "{w}");
        }
        let a = asin(&c64(&[(2.0, 0.0), (2.0, -0.0)])).unwrap().to_vec::<Complex<f64>>().unwrap();
        assert_eq!((a[0].im > 0.0, a[1].im < 0.0), (true, true), "{a:?}"); // TF: asin(2+0j) = π/2 + 1.317j
        let w = asinh(&c64(&[(-10.0, 0.5)])).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        let want = -(Complex::new(10.0f64, -0.5).asinh()); // odd symmetry, from the good side
        assert!(close(w.re, want.re, 1e-15) && close(w.im, want.im, 1e-15), "{w}");
        let t = tanh(&c64(&[(100.0, -100.0), (-30.0, 1.0)])).unwrap().to_vec::<Complex<f64>>().unwrap();
        assert_eq!((t[0].re, t[1].re), (1.0, -1.0));
        assert!(t[0].im.abs() < 1e-80, "{}", t[0]);
        let t = tan(&c64(&[(100.0, -100.0)])).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        assert_eq!(t.im, -1.0);
    }

    /// The Annex G special values leave every finite input (but the signed zeros it lists) to
    /// the ordinary formulas: the results are bit for bit those of the kernels alone.
    #[test]
    fn complex_finite_inputs_keep_the_ordinary_formulas() {
        type K = fn(Complex<f64>) -> Complex<f64>;
        type Op = fn(&Tensor) -> Result<Tensor>;
        let ordinary: [(&str, Op, K); 17] = [
            ("exp", exp, |z| z.exp()),
            ("expm1", expm1, complex_expm1),
            ("log", log, |z| z.ln()),
            ("log1p", log1p, complex_log1p),
            ("sqrt", sqrt, |z| z.sqrt()),
            ("sin", sin, |z| z.sin()),
            ("cos", cos, |z| z.cos()),
            ("tan", tan, complex_tan),
            ("asin", asin, complex_asin),
            ("acos", acos, complex_acos),
            ("atan", atan, complex_atan),
            ("sinh", sinh, |z| z.sinh()),
            ("cosh", cosh, |z| z.cosh()),
            ("tanh", tanh, complex_tanh),
            ("asinh", asinh, complex_asinh),
            ("acosh", acosh, |z| z.acosh()),
            ("atanh", atanh, complex_atanh),
        ];
        let parts = [-1e300, -30.0, -2.0, -1.0, -0.5, -1e-8, -0.0, 0.0, 1e-300, 0.3, 1.0, 1.5, 25.0, 700.0, 1e308];
        let mut zs = Vec::new();
        for &a in &parts {
            for &b in &parts {
                if a != 0.0 || b != 0.0 {
                    zs.push((a, b));
                }
            }
        }
        let x = c64(&zs);
        for (name, f, kernel) in ordinary {
            let got = f(&x).unwrap().to_vec::<Complex<f64>>().unwrap();
            for (&(a, b), w) in zs.iter().zip(got) {
                let want = kernel(Complex::new(a, b));
                let bits = |z: Complex<f64>| (z.re.to_bits(), z.im.to_bits());
                assert_eq!(bits(w), bits(want), "{name}({a} {b}): {w} vs {want}");
            }
        }
    }

    #[test]
    fn complex_special_values_through_the_ops() {
        let (inf, nan) = (f64::INFINITY, f64::NAN);
        let w = acos(&c64(&[(0.0, 0.0), (-inf, 1.0)])).unwrap().to_vec::<Complex<f64>>().unwrap();
        assert!(w[0].re == std::f64::consts::FRAC_PI_2 && w[0].im == 0.0 && w[0].im.is_sign_negative());
        assert!(w[1].re == std::f64::consts::PI && w[1].im == -inf);
        let w = sqrt(&c64(&[(inf, nan)])).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        assert!(w.re == inf && w.im.is_nan());
        let w = tanh(&c64(&[(inf, 2.0)])).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        assert!(w.re == 1.0 && w.im == 0.0 && w.im.is_sign_positive());
        let z = Tensor::from_vec(vec![Complex::new(f32::NAN, 0.0f32)], &[1]).unwrap();
        let w = cosh(&z).unwrap().to_vec::<Complex<f32>>().unwrap()[0];
        assert!(w.re.is_nan() && w.im == 0.0);
        let z = Tensor::from_vec(vec![Complex::new(f32::NEG_INFINITY, f32::INFINITY)], &[1]).unwrap();
        let w = expm1(&z).unwrap().to_vec::<Complex<f32>>().unwrap()[0];
        assert!(w.re == -1.0 && w.im == 0.0);
    }

    #[test]
    fn complex_zeros_like_tf() {
        let z = c64(&[(-0.0, 0.0)]);
        let s = sign(&z).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        assert!(s.re == 0.0 && s.re.is_sign_positive(), "{s}");
        let r = reciprocal_no_nan(&z).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        assert!(r.re == 0.0 && r.re.is_sign_positive(), "{r}");
        let r = reciprocal(&c64(&[(0.0, 0.0)])).unwrap().to_vec::<Complex<f64>>().unwrap()[0];
        assert!(r.re == f64::INFINITY && r.im.is_nan(), "{r}");
    }

    #[test]
    fn angle_real_real_conj_like_tf() {
        let a = angle(&t32(&[f32::NAN, -0.0, -1.0])).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(a, vec![0.0, 0.0, std::f32::consts::PI]);
        let b = Tensor::from_vec(vec![true], &[1]).unwrap();
        assert!(real(&b).is_err() && conj(&b).is_err());
        assert_eq!(imag(&b).unwrap().dtype(), DType::Bool);
    }

    #[test]
    fn keeps_weakness_and_dtype() {
        let w = crate::constant([1.0, 2.0]).unwrap();
        let e = exp(&w).unwrap();
        assert!(e.is_weak());
        assert_eq!(e.dtype(), DType::F32);
    }

    #[test]
    fn ints_are_refused_like_tf() {
        let e = sqrt(&Tensor::scalar(4i32)).unwrap_err();
        assert!(matches!(e, Error::UnsupportedDType { dtype: DType::I32, .. }), "{e}");
        assert!(sign(&Tensor::scalar(4u8)).is_err());
        assert!(floor(&Tensor::scalar(Complex::new(1.0f32, 1.0))).is_err());
    }

    #[test]
    fn rounding_is_half_to_even() {
        let r = rint(&t32(&[0.5, 1.5, 2.5, -0.5, -1.5, 0.49999997])).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(r, vec![0.0, 2.0, 2.0, -0.0, -2.0, 0.0]);
        assert!(r[3].is_sign_negative());
    }

    #[test]
    fn sign_edge_cases() {
        let s = sign(&t32(&[f32::NAN, -0.0, 2.0, -3.0])).unwrap().to_vec::<f32>().unwrap();
        assert!(s[0].is_nan());
        assert_eq!(&s[1..], &[0.0, 1.0, -1.0]);
    }

    #[test]
    fn complex_functions_match_closed_forms() {
        let z = Tensor::from_vec(vec![Complex::new(1.0f64, 1.0)], &[1]).unwrap();
        let s = sigmoid(&z).unwrap().item::<Complex<f64>>().unwrap();
        assert!((s.re - 0.782_041_570_6).abs() < 1e-9 && (s.im - 0.201_948_227_7).abs() < 1e-9, "{s}");
        let small = Tensor::from_vec(vec![Complex::new(1e-10f64, 1e-10)], &[1]).unwrap();
        let l = log1p(&small).unwrap().item::<Complex<f64>>().unwrap();
        // exact to first order beyond z: log1p(z) ≈ z - z²/2 = 1e-10 + (1e-10 - 1e-20)i
        let close = |x: f64, y: f64| ((x - y) / y).abs() < 1e-14;
        assert!(close(l.re, 1e-10) && close(l.im, 1e-10 - 1e-20), "{l}");
        let m = expm1(&small).unwrap().item::<Complex<f64>>().unwrap();
        // expm1(z) ≈ z + z²/2 = 1e-10 + (1e-10 + 1e-20)i; exp(z) - 1 would be off by ~1e-7 relative
        assert!(close(m.re, 1e-10) && close(m.im, 1e-10 + 1e-20), "{m}");
        let a = abs(&z).unwrap();
        assert_eq!(a.dtype(), DType::F64);
        assert!((a.item::<f64>().unwrap() - 2f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn stable_softplus_and_log_sigmoid() {
        let x = Tensor::from_vec(vec![1000.0f64, -1000.0, 0.0], &[3]).unwrap();
        assert_eq!(softplus(&x).unwrap().to_vec::<f64>().unwrap(), vec![1000.0, 0.0, 2f64.ln()]);
        assert_eq!(log_sigmoid(&x).unwrap().to_vec::<f64>().unwrap(), vec![0.0, -1000.0, -(2f64.ln())]);
    }

    #[test]
    fn half_types_compute_in_f32() {
        let h = Tensor::from_vec(vec![f16::from_f32(2.0)], &[1]).unwrap();
        assert_eq!(sqrt(&h).unwrap().item::<f16>().unwrap(), f16::from_f32(std::f32::consts::SQRT_2));
    }

    #[test]
    fn angle_of_reals() {
        assert_eq!(angle(&t32(&[-2.25, 3.0])).unwrap().to_vec::<f32>().unwrap(), vec![std::f32::consts::PI, 0.0]);
    }
}
