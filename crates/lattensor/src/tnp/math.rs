//! Element-wise math: `sin`, `exp`, `log2`, `sinc`, `around`, `signbit`, ….
//!
//! Float functions compute bool and integer inputs in float32 (tnp's
//! default float), keeping weakness (`sin(3)` is `f32*`); float and complex
//! inputs keep their dtype, bfloat16 included. Functions that make sense on
//! integers (`abs`, `negative`, `square`, `around`, `conj`, …) keep the dtype.

use num_complex::Complex;
use num_traits::Float;

use super::{Value, to_inexact, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::tape::{self, TapeOp};
use crate::kernels;
use crate::ops::{self, unary::unsupported};
use crate::{DType, Element, Tensor};

/// Defines a float function: integer/bool input → float32, then `$op`.
macro_rules! float_fn {
    ($(#[$doc:meta])* $name:ident => $op:path, $example:literal) => {
        $(#[$doc])*
        ///
        /// Bool and integer inputs are computed in float32 (tnp's default
        /// float); float and complex inputs keep their dtype; weakness is kept.
        ///
        /// ```
        /// use lattensor::{numpy, DType};
        #[doc = $example]
        /// ```
        ///
        /// # Errors
        /// [`Error::UnsupportedDType`] where TF has no kernel (complex inputs of
        /// real-only functions).
        pub fn $name(x: impl Into<Value>) -> Result<Tensor> {
            $op(&to_inexact(&to_tensor(x)?)?)
        }
    };
}

float_fn!(/// Sine (`tnp.sin`).
    sin => ops::sin, "let y = numpy::sin(0).unwrap();\nassert_eq!((y.dtype(), y.is_weak(), y.item::<f32>().unwrap()), (DType::F32, true, 0.0));");
float_fn!(/// Cosine (`tnp.cos`).
    cos => ops::cos, "assert_eq!(numpy::cos(0).unwrap().item::<f32>().unwrap(), 1.0);");
float_fn!(/// Tangent (`tnp.tan`).
    tan => ops::tan, "assert_eq!(numpy::tan(0.0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Hyperbolic sine (`tnp.sinh`).
    sinh => ops::sinh, "assert_eq!(numpy::sinh(0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Hyperbolic cosine (`tnp.cosh`).
    cosh => ops::cosh, "assert_eq!(numpy::cosh(0).unwrap().item::<f32>().unwrap(), 1.0);");
float_fn!(/// Hyperbolic tangent (`tnp.tanh`).
    tanh => ops::tanh, "assert_eq!(numpy::tanh(0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Inverse sine (`tnp.arcsin`).
    arcsin => ops::asin, "assert_eq!(numpy::arcsin(1).unwrap().item::<f32>().unwrap(), std::f32::consts::FRAC_PI_2);");
float_fn!(/// Inverse cosine (`tnp.arccos`).
    arccos => ops::acos, "assert_eq!(numpy::arccos(1).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Inverse tangent (`tnp.arctan`).
    arctan => ops::atan, "assert_eq!(numpy::arctan(1).unwrap().item::<f32>().unwrap(), std::f32::consts::FRAC_PI_4);");
float_fn!(/// Inverse hyperbolic sine (`tnp.arcsinh`).
    arcsinh => ops::asinh, "assert_eq!(numpy::arcsinh(0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Inverse hyperbolic cosine (`tnp.arccosh`). Unlike TF 2.21, weakness is kept.
    arccosh => ops::acosh, "let y = numpy::arccosh(1).unwrap();\nassert_eq!((y.is_weak(), y.item::<f32>().unwrap()), (true, 0.0));");
float_fn!(/// Inverse hyperbolic tangent (`tnp.arctanh`).
    arctanh => ops::atanh, "assert_eq!(numpy::arctanh(0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// `eˣ` (`tnp.exp`).
    exp => ops::exp, "assert_eq!(numpy::exp(0).unwrap().item::<f32>().unwrap(), 1.0);");
float_fn!(/// `eˣ - 1`, accurate near 0 (`tnp.expm1`).
    expm1 => ops::expm1, "assert_eq!(numpy::expm1(0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Natural logarithm (`tnp.log`).
    log => ops::log, "assert_eq!(numpy::log(1).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// `log(1 + x)`, accurate near 0 (`tnp.log1p`).
    log1p => ops::log1p, "assert_eq!(numpy::log1p(0).unwrap().item::<f32>().unwrap(), 0.0);");
float_fn!(/// Square root (`tnp.sqrt`); `sqrt(4)` is `2.0` as `f32*`.
    sqrt => ops::sqrt, "assert_eq!(numpy::sqrt(4).unwrap().item::<f32>().unwrap(), 2.0);");
float_fn!(/// Largest integer not above `x`, as a float (`tnp.floor`).
    floor => ops::floor, "assert_eq!(numpy::floor(-1.5).unwrap().item::<f32>().unwrap(), -2.0);");
float_fn!(/// Smallest integer not below `x`, as a float (`tnp.ceil`).
    ceil => ops::ceil, "assert_eq!(numpy::ceil(-1.5).unwrap().item::<f32>().unwrap(), -1.0);");

/// `f` on the operands' lattice join; a bool or integer join is computed in
/// float32 (tnp's default float), each operand keeping its weakness, so the
/// result is weak only if both operands are: tnp's rule for float functions.
fn float_binary(
    op: &str,
    x1: impl Into<Value>,
    x2: impl Into<Value>,
    f: fn(&Tensor, &Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    let (a, b) = (to_tensor(x1)?, to_tensor(x2)?);
    let join = crate::promote::promote_for(op, a.lattice_type(), b.lattice_type(), crate::promote::current_mode())?;
    if join.dtype.is_inexact() { f(&a, &b) } else { f(&to_inexact(&a)?, &to_inexact(&b)?) }
}

/// `atan2(x1, x2)`, the angle of the point `(x2, x1)` (`tnp.arctan2`): see
/// [`ops::atan2`]. The operands promote through the lattice; a bool or integer
/// join is computed in float32, keeping weakness (`arctan2(1, 2)` is `f32*`;
/// TF 2.21 has no integer kernel and fails).
///
/// ```
/// use lattensor::{numpy, DType};
/// let a = numpy::arctan2(1, 1).unwrap();
/// assert_eq!((a.dtype(), a.is_weak(), a.item::<f32>().unwrap()), (DType::F32, true, std::f32::consts::FRAC_PI_4));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex operands; [`Error::Promotion`] if the
/// mode refuses the pair; [`Error::ShapeMismatch`] for shapes that do not broadcast.
pub fn arctan2(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    float_binary("arctan2", x1, x2, |a, b| ops::atan2(a, b))
}

/// `√(x1² + x2²)` without intermediate overflow (`tnp.hypot`): see
/// [`ops::hypot`]. Promotion as [`arctan2`] (`hypot(3, 4)` is `f32*` 5.0).
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let h = numpy::hypot(&Tensor::from_vec(vec![3u8, 5], &[2]).unwrap(), 4).unwrap();
/// assert_eq!((h.dtype(), h.is_weak(), h.to_vec::<f32>().unwrap()), (DType::F32, false, vec![5.0, 6.4031243]));
/// ```
///
/// # Errors
/// As [`arctan2`].
pub fn hypot(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    float_binary("hypot", x1, x2, |a, b| ops::hypot(a, b))
}

/// The Heaviside step function (`tnp.heaviside`): 0 where `x1 < 0`, 1 where
/// `x1 > 0`, `x2` where `x1` is zero, NaN where `x1` is NaN (as NumPy; TF 2.21
/// gives `x2` there). Promotion as [`arctan2`].
///
/// ```
/// use lattensor::{numpy, DType};
/// let s = numpy::heaviside([-2.0, 0.0, 3.0], 0.5).unwrap();
/// assert_eq!((s.dtype(), s.to_vec::<f32>().unwrap()), (DType::F32, vec![0.0, 0.5, 1.0]));
/// ```
///
/// # Errors
/// As [`arctan2`].
pub fn heaviside(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    float_binary("heaviside", x1, x2, |a, b| ops::heaviside(a, b))
}

/// Absolute value (`tnp.abs`): keeps the dtype (complex gives its real dtype) and weakness.
/// Integers wrap (`abs(i8::MIN) = i8::MIN`).
///
/// ```
/// use lattensor::{numpy, DType};
/// let y = numpy::abs(-3).unwrap();
/// assert_eq!((y.dtype(), y.is_weak(), y.item::<i32>().unwrap()), (DType::I32, true, 3));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and unsigned integers (TF has no kernel).
pub fn abs(x: impl Into<Value>) -> Result<Tensor> {
    ops::abs(&to_tensor(x)?)
}

/// Same as [`abs`] (`tnp.absolute`).
///
/// ```
/// assert_eq!(lattensor::numpy::absolute(-2.5).unwrap().item::<f32>().unwrap(), 2.5);
/// ```
///
/// # Errors
/// As [`abs`].
pub fn absolute(x: impl Into<Value>) -> Result<Tensor> {
    abs(x)
}

/// Same as [`abs`] (`tnp.fabs`; like TF, integers keep their dtype).
///
/// ```
/// assert_eq!(lattensor::numpy::fabs(-2.5).unwrap().item::<f32>().unwrap(), 2.5);
/// ```
///
/// # Errors
/// As [`abs`].
pub fn fabs(x: impl Into<Value>) -> Result<Tensor> {
    abs(x)
}

/// `-x` (`tnp.negative`); keeps dtype and weakness, integers wrap.
///
/// ```
/// assert_eq!(lattensor::numpy::negative(5).unwrap().item::<i32>().unwrap(), -5);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and unsigned integers.
pub fn negative(x: impl Into<Value>) -> Result<Tensor> {
    ops::negative(&to_tensor(x)?)
}

/// `+x` (`tnp.positive`): the input itself, any dtype.
///
/// ```
/// let x = lattensor::Tensor::from_vec(vec![true, false], &[2]).unwrap();
/// assert!(lattensor::numpy::positive(&x).unwrap().shares_storage_with(&x));
/// ```
///
/// # Errors
/// Only for array-likes that do not convert (ragged lists).
pub fn positive(x: impl Into<Value>) -> Result<Tensor> {
    to_tensor(x)
}

/// `x * x` (`tnp.square`); keeps dtype and weakness, integers wrap.
///
/// ```
/// assert_eq!(lattensor::numpy::square(-3).unwrap().item::<i32>().unwrap(), 9);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool.
pub fn square(x: impl Into<Value>) -> Result<Tensor> {
    ops::square(&to_tensor(x)?)
}

/// `1 / x` (`tnp.reciprocal`) for floats and complex numbers.
///
/// ```
/// assert_eq!(lattensor::numpy::reciprocal(4.0).unwrap().item::<f32>().unwrap(), 0.25);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and integers (TF has no integer kernel).
pub fn reciprocal(x: impl Into<Value>) -> Result<Tensor> {
    ops::reciprocal(&to_tensor(x)?)
}

/// Complex conjugate (`tnp.conj`); real inputs are returned unchanged.
///
/// ```
/// use num_complex::Complex64;
/// let z = lattensor::numpy::conj(Complex64::new(1.0, 2.0)).unwrap();
/// assert_eq!(z.item::<Complex64>().unwrap(), Complex64::new(1.0, -2.0));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool (as TF).
pub fn conj(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    refuse_bool("conj", &x)?;
    ops::conj(&x)
}

/// Same as [`conj`] (`tnp.conjugate`).
///
/// ```
/// assert_eq!(lattensor::numpy::conjugate(2).unwrap().item::<i32>().unwrap(), 2);
/// ```
///
/// # Errors
/// As [`conj`].
pub fn conjugate(x: impl Into<Value>) -> Result<Tensor> {
    conj(x)
}

/// Real part (`tnp.real`): complex gives its real dtype (`real(c128*)` is `f64*`); real inputs are returned.
///
/// ```
/// use num_complex::Complex64;
/// let r = lattensor::numpy::real(Complex64::new(1.5, 2.0)).unwrap();
/// assert_eq!((r.is_weak(), r.item::<f64>().unwrap()), (true, 1.5));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool (as TF).
pub fn real(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    refuse_bool("real", &x)?;
    ops::real(&x)
}

/// Imaginary part (`tnp.imag`): complex gives its real dtype; real inputs give zeros of their dtype.
///
/// ```
/// use num_complex::Complex64;
/// assert_eq!(lattensor::numpy::imag(Complex64::new(1.5, 2.0)).unwrap().item::<f64>().unwrap(), 2.0);
/// ```
///
/// # Errors
/// [`Error::ResourceExhausted`] if the result cannot be allocated.
pub fn imag(x: impl Into<Value>) -> Result<Tensor> {
    ops::imag(&to_tensor(x)?)
}

/// Bitwise NOT (`tnp.bitwise_not`): logical NOT for bool, `!x` for integers; keeps dtype and weakness.
///
/// ```
/// assert_eq!(lattensor::numpy::bitwise_not(5).unwrap().item::<i32>().unwrap(), -6);
/// assert!(!lattensor::numpy::bitwise_not(true).unwrap().item::<bool>().unwrap());
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for float and complex inputs.
pub fn bitwise_not(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if x.dtype().is_bool() {
        return ops::logical_not(&x);
    }
    ops::invert(&x).map_err(|_| unsupported("bitwise_not", x.dtype(), "bool and integers"))
}

fn refuse_bool(op: &str, x: &Tensor) -> Result<()> {
    if x.dtype().is_bool() {
        return Err(unsupported(op, DType::Bool, "every dtype but bool"));
    }
    Ok(())
}

fn refuse_complex(op: &str, x: &Tensor) -> Result<()> {
    if x.dtype().is_complex() {
        return Err(unsupported(op, x.dtype(), "bool, integers and real floats"));
    }
    Ok(())
}

/// Applies a real function computed in `f64` (`f32` values are exact in f64, and the
/// result is rounded once) to a real float tensor, keeping dtype and weakness.
fn real_map(x: &Tensor, f: fn(f64) -> f64) -> Result<Tensor> {
    ops::special::map_f64("real_map", x, f)
}

/// `compute` recorded on the tapes as the element-wise function `name` of `x`
/// (its derivative is in the gradient rules).
fn recorded(name: &'static str, x: &Tensor, compute: impl FnOnce() -> Result<Tensor>) -> Result<Tensor> {
    tape::op(&[x], compute, || TapeOp::Unary(name))
}

/// Cube root (`tnp.cbrt`), correctly signed for negative inputs.
///
/// ```
/// assert_eq!(lattensor::numpy::cbrt(-27).unwrap().item::<f32>().unwrap(), -3.0);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex inputs (as TF).
pub fn cbrt(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_inexact(&to_tensor(x)?)?;
    refuse_complex("cbrt", &x)?;
    recorded("cbrt", &x, || real_map(&x, libm::cbrt))
}

/// Rounds toward zero, as a float (`tnp.fix`): `fix(-2.5) = -2`.
///
/// ```
/// assert_eq!(lattensor::numpy::fix(-2.5).unwrap().item::<f32>().unwrap(), -2.0);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex inputs (as TF).
pub fn fix(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_inexact(&to_tensor(x)?)?;
    refuse_complex("fix", &x)?;
    real_map(&x, f64::trunc)
}

/// Multiplies an inexact tensor by a real constant as `x * c` would: the
/// constant is rounded once to `x`'s dtype (float64 keeps every digit), then
/// one rounded product.
fn scale(x: &Tensor, c: f64) -> Result<Tensor> {
    let c = ops::creation::full(&[], c, x.dtype())?;
    ops::multiply(x, &c).map(|t| t.with_weak(x.is_weak()))
}

/// Degrees to radians (`tnp.deg2rad`): `x * (π / 180)` in `x`'s float dtype.
///
/// ```
/// let r = lattensor::numpy::deg2rad(180).unwrap();
/// assert_eq!(r.item::<f32>().unwrap(), std::f32::consts::PI);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn deg2rad(x: impl Into<Value>) -> Result<Tensor> {
    scale(&to_inexact(&to_tensor(x)?)?, std::f64::consts::PI / 180.0)
}

/// Radians to degrees (`tnp.rad2deg`): `x * (180 / π)`. Integers and bool are computed
/// in float32 like every other float function (TF 2.21 gives `f64*` for integers and
/// leaves bool unchanged; see `docs/deviations.md`).
///
/// ```
/// let d = lattensor::numpy::rad2deg(std::f64::consts::PI).unwrap();
/// assert_eq!(d.item::<f32>().unwrap(), 180.0);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn rad2deg(x: impl Into<Value>) -> Result<Tensor> {
    scale(&to_inexact(&to_tensor(x)?)?, 180.0 / std::f64::consts::PI)
}

/// `2ˣ` (`tnp.exp2`).
///
/// ```
/// assert_eq!(lattensor::numpy::exp2(10).unwrap().item::<f32>().unwrap(), 1024.0);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn exp2(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_inexact(&to_tensor(x)?)?;
    if x.dtype().is_complex() {
        return ops::pow(2.0, &x).map(|t| t.with_weak(x.is_weak()));
    }
    recorded("exp2", &x, || real_map(&x, f64::exp2))
}

/// Base-2 logarithm (`tnp.log2`), in the input's float dtype (TF 2.21 returns float64).
///
/// ```
/// let y = lattensor::numpy::log2(8).unwrap();
/// assert_eq!((y.dtype(), y.item::<f32>().unwrap()), (lattensor::DType::F32, 3.0));
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn log2(x: impl Into<Value>) -> Result<Tensor> {
    log_base("log2", x, std::f64::consts::LN_2, f64::log2)
}

/// Base-10 logarithm (`tnp.log10`), in the input's float dtype (TF 2.21 returns float64).
///
/// ```
/// assert_eq!(lattensor::numpy::log10(1000).unwrap().item::<f32>().unwrap(), 3.0);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn log10(x: impl Into<Value>) -> Result<Tensor> {
    log_base("log10", x, std::f64::consts::LN_10, f64::log10)
}

fn log_base(name: &'static str, x: impl Into<Value>, ln_base: f64, real: fn(f64) -> f64) -> Result<Tensor> {
    let x = to_inexact(&to_tensor(x)?)?;
    if x.dtype().is_complex() {
        return ops::divide(&ops::log(&x)?, ln_base).map(|t| t.with_weak(x.is_weak()));
    }
    recorded(name, &x, || real_map(&x, real))
}

/// `sin(πx) / (πx)`, and 1 at 0 (`tnp.sinc`). `sin(πx)` is computed with an exact
/// argument reduction, so `sinc` is exactly 0 at non-zero integers.
///
/// ```
/// let s = lattensor::numpy::sinc(vec![0.0, 0.5, 1.0]).unwrap().to_vec::<f32>().unwrap();
/// assert_eq!((s[0], s[2]), (1.0, 0.0));
/// assert!((s[1] - 2.0 / std::f32::consts::PI).abs() < 1e-7);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn sinc(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_inexact(&to_tensor(x)?)?;
    recorded("sinc", &x, || sinc_of(&x))
}

fn sinc_of(x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_complex() {
        let mut out = Tensor::zeros(x.shape(), x.dtype())?;
        fn c<T: Float>(z: Complex<T>) -> Complex<T> {
            if z.re == T::zero() && z.im == T::zero() {
                return Complex::new(T::one(), T::zero());
            }
            let pz = z * T::from(std::f64::consts::PI).unwrap_or_else(T::zero);
            pz.sin() / pz
        }
        crate::with_complex_dtype!(x.dtype(), R,
            kernels::unary::<Complex<R>, Complex<R>, _>(x, out.data_mut(), c::<R>),
            other => unreachable!("complex was checked"));
        return Ok(out.with_weak(x.is_weak()));
    }
    real_map(x, sinc_f64)
}

/// `sin(πx)` with the argument reduced exactly (mod 2) first.
fn sin_pi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x % 2.0; // exact
    // reduce to [-0.5, 0.5] using sin(π(1 - r)) = sin(πr) and oddness
    let r = if r > 1.0 {
        r - 2.0
    } else if r < -1.0 {
        r + 2.0
    } else {
        r
    };
    let r = if r > 0.5 {
        1.0 - r
    } else if r < -0.5 {
        -1.0 - r
    } else {
        r
    };
    if r == 0.0 {
        return 0.0_f64.copysign(x);
    }
    (std::f64::consts::PI * r).sin()
}

fn sinc_f64(x: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    sin_pi(x) / (std::f64::consts::PI * x)
}

/// -1, 0 or 1 by the sign of each element (`tnp.sign`; NaN stays NaN, `z/|z|`
/// for complex), in the input's dtype and weakness. Unsigned integers give 0
/// or 1 (as NumPy; TF has no kernel).
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let s = numpy::sign(vec![-2.5, 0.0, 3.0]).unwrap();
/// assert_eq!((s.is_weak(), s.to_vec::<f32>().unwrap()), (true, vec![-1.0, 0.0, 1.0]));
/// let u = numpy::sign(&Tensor::from_vec(vec![0u8, 7], &[2]).unwrap()).unwrap();
/// assert_eq!((u.dtype(), u.to_vec::<u8>().unwrap()), (DType::U8, vec![0, 1]));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool (as NumPy and TF).
pub fn sign(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if x.dtype().is_unsigned() {
        // unsigned tensors are never weak, so the cast loses nothing
        return ops::not_equal(&x, 0)?.cast(x.dtype());
    }
    ops::sign(&x)
}

/// `true` where the sign bit is set (`tnp.signbit`): negative numbers, `-0.0` and
/// negative NaNs (NumPy's definition; TF 2.21 computes `x < 0`, false for `-0.0`).
/// Unsigned and bool inputs give all `false`. The result is strong bool.
///
/// ```
/// let s = lattensor::numpy::signbit(vec![-1.0, -0.0, 2.0]).unwrap();
/// assert_eq!(s.to_vec::<bool>().unwrap(), vec![true, true, false]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex inputs (as TF).
pub fn signbit(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    refuse_complex("signbit", &x)?;
    let mut out = Tensor::zeros(x.shape(), DType::Bool)?;
    let d = x.dtype();
    if d.is_float() {
        kernels::unary::<f64, bool, _>(&x, out.data_mut(), f64::is_sign_negative);
    } else if d.is_integer() && !d.is_unsigned() {
        kernels::unary::<i64, bool, _>(&x, out.data_mut(), |v| v < 0);
    }
    Ok(out)
}

/// Angle of complex numbers (`tnp.angle`), in radians or, with `deg`, degrees.
/// Real inputs give `π` for negative values, 0 otherwise, and NaN for NaN, in their
/// float dtype (integers in float32); complex inputs give their real dtype.
///
/// ```
/// let a = lattensor::numpy::angle(vec![-2.0, 3.0], true).unwrap();
/// assert_eq!(a.to_vec::<f32>().unwrap(), vec![180.0, 0.0]);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn angle(z: impl Into<Value>, deg: bool) -> Result<Tensor> {
    let z = to_inexact(&to_tensor(z)?)?;
    let a = ops::angle(&z)?;
    if deg { scale(&a, 180.0 / std::f64::consts::PI) } else { Ok(a) }
}

/// Rounds to `decimals` decimal places, halves to even (`tnp.around`).
///
/// Floats compute `rint(x · 10^d) / 10^d` in their own dtype, as TF does.
/// Integers and bool are returned unchanged for `decimals ≥ 0` (bool becomes
/// all `false` for negative `decimals`, as 0 and 1 round to 0); for negative
/// `decimals` integers round exactly to a multiple of `10^-d` (halves to even)
/// and wrap to the dtype (TF rounds through float32, which corrupts values
/// beyond 2²⁴). Keeps dtype and weakness.
///
/// ```
/// let r = lattensor::numpy::around(vec![0.5, 1.5, 2.675], 0).unwrap().to_vec::<f32>().unwrap();
/// assert_eq!(r, vec![0.0, 2.0, 3.0]);
/// let i = lattensor::numpy::around(vec![15, 25, -35], -1).unwrap().to_vec::<i32>().unwrap();
/// assert_eq!(i, vec![20, 20, -40]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex inputs (as TF).
pub fn around(a: impl Into<Value>, decimals: i32) -> Result<Tensor> {
    let a = to_tensor(a)?;
    let d = a.dtype();
    if d.is_complex() || d.is_low_precision() {
        return Err(unsupported("around", d, "bool, integers and real floats"));
    }
    if d.is_bool() || (d.is_integer() && decimals >= 0) {
        // bool is 0 or 1, which rounds to 0 at any negative number of decimals
        return if decimals >= 0 { Ok(a) } else { crate::zeros_like(&a, None) };
    }
    if d.is_integer() {
        let Some(m) = 10i128.checked_pow(decimals.unsigned_abs()) else {
            return crate::zeros_like(&a, None); // every int64/uint64 is below 10^20: rounds to 0
        };
        let mut out = Tensor::zeros(a.shape(), d)?;
        let round = move |v: i128| -> i128 {
            let (q, r) = (v.div_euclid(m), v.rem_euclid(m));
            let q = match (2 * r).cmp(&m) {
                std::cmp::Ordering::Greater => q + 1,
                std::cmp::Ordering::Equal if q % 2 != 0 => q + 1,
                _ => q,
            };
            q * m
        };
        crate::with_numeric_dtype!(d, T, {
            if d == DType::U64 {
                kernels::unary::<u64, T, _>(&a, out.data_mut(), move |v| T::from_u64(round(v as i128) as u64));
            } else {
                kernels::unary::<i64, T, _>(&a, out.data_mut(), move |v| T::from_i64(round(v as i128) as i64));
            }
        }, bool => unreachable!("bool returned above"));
        return Ok(out.with_weak(a.is_weak()));
    }
    if decimals == 0 {
        return ops::rint(&a);
    }
    let factor = 10f64.powi(decimals);
    let scaled = scale(&a, factor)?;
    ops::divide(&ops::rint(&scaled)?, factor).map(|t| t.with_weak(a.is_weak()))
}

/// Same as [`around`] (`tnp.round`).
///
/// ```
/// assert_eq!(lattensor::numpy::round(2.5, 0).unwrap().item::<f32>().unwrap(), 2.0);
/// ```
///
/// # Errors
/// As [`around`].
pub fn round(a: impl Into<Value>, decimals: i32) -> Result<Tensor> {
    around(a, decimals)
}

#[cfg(test)]
mod tests {
    use half::bf16;

    use super::*;
    use crate::{Error, Tensor};

    #[test]
    fn ints_become_float32_and_keep_weakness() {
        let s = sin(Tensor::from_vec(vec![0i64, 1], &[2]).unwrap()).unwrap();
        assert_eq!((s.dtype(), s.is_weak()), (DType::F32, false));
        let w = exp(vec![0, 1]).unwrap();
        assert_eq!((w.dtype(), w.is_weak()), (DType::F32, true));
        let b = bf16::from_f32(1.0);
        assert_eq!(sqrt(Tensor::from_vec(vec![b], &[1]).unwrap()).unwrap().dtype(), DType::BF16);
    }

    #[test]
    fn sinc_is_exact_at_integers() {
        let s = sinc(Tensor::from_vec(vec![1.0f64, -2.0, 3.0, 0.5, f64::INFINITY], &[5]).unwrap()).unwrap();
        let v = s.to_vec::<f64>().unwrap();
        assert_eq!(&v[..3], &[0.0, 0.0, 0.0]);
        assert!((v[3] - 2.0 / std::f64::consts::PI).abs() < 1e-16);
        assert!(v[4].is_nan()); // sin(π·inf) is undefined, as in NumPy and TF
    }

    #[test]
    fn around_integers_exactly() {
        let x = Tensor::from_vec(vec![i32::MAX, 255, -15, 5], &[4]).unwrap();
        assert_eq!(around(&x, 0).unwrap().to_vec::<i32>().unwrap()[0], i32::MAX);
        assert_eq!(around(&x, -1).unwrap().to_vec::<i32>().unwrap()[1..], [260, -20, 0]);
        assert!(!around(true, -1).unwrap().item::<bool>().unwrap());
        let u = Tensor::from_vec(vec![255u8], &[1]).unwrap();
        assert_eq!(around(&u, -1).unwrap().to_vec::<u8>().unwrap(), vec![4]); // 260 wraps, as TF
        assert!(around(Tensor::scalar(Complex::new(1.0f32, 0.0)), 0).is_err());
    }

    #[test]
    fn signbit_and_angle() {
        let s = signbit(Tensor::from_vec(vec![-0.0f32, f32::NAN, -f32::NAN, 1.0], &[4]).unwrap()).unwrap();
        assert_eq!(s.to_vec::<bool>().unwrap(), vec![true, false, true, false]);
        assert_eq!(
            signbit(Tensor::from_vec(vec![250u8], &[1]).unwrap()).unwrap().to_vec::<bool>().unwrap(),
            vec![false]
        );
        let a = angle(Tensor::from_vec(vec![-1.0f64], &[1]).unwrap(), false).unwrap();
        assert_eq!((a.dtype(), a.item::<f64>().unwrap()), (DType::F64, std::f64::consts::PI));
        assert!(matches!(signbit(Tensor::scalar(Complex::new(1.0f32, 0.0))), Err(Error::UnsupportedDType { .. })));
    }

    #[test]
    fn logs_keep_float32() {
        let l = log2(Tensor::from_vec(vec![8.0f32, 0.0], &[2]).unwrap()).unwrap();
        assert_eq!((l.dtype(), l.to_vec::<f32>().unwrap()), (DType::F32, vec![3.0, f32::NEG_INFINITY]));
    }
}
