//! Promoting binary ops: the ring operations (add, subtract, multiply, true
//! divide, negate), maximum and minimum, pow, floor/truncating division and
//! modulus, atan2, hypot, heaviside, the `_no_nan` variants, `scalar_mul` and
//! `clip_by_value`. Comparisons and the logical ops are in `compare`.
//!
//! One lattice for every op: each promotes its operands exactly like `add`
//! does (see [`crate::promote`]), then dispatches once on the result dtype
//! ([`Map2`] or a `with_*` macro of [`crate::dispatch`]).

use std::sync::atomic::{AtomicBool, Ordering};

use num_complex::Complex;
use num_traits::Float;

use super::scalar_arith::{Inexact, Int, Num};
use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::layout::broadcast_shapes;
use crate::core::scalar::Operand;
use crate::core::tape::{self, TapeOp};
use crate::dispatch::{Compute, HalfCompute};
use crate::kernels::{self, Input};
use crate::ops::map::Map2;
use crate::promote::{self, LatticeType};
use crate::{DType, Tensor, with_half_dtype, with_inexact_dtype, with_native_dtype, with_numeric_dtype};

const REAL: &str = "every dtype but bool and complex";

/// The operands of a promoting binary op, broadcast and typed.
pub(crate) struct Prepared<'a> {
    pub result: LatticeType,
    pub shape: Vec<usize>,
    pub a: Input<'a>,
    pub b: Input<'a>,
}

/// Promotes two operands in the current mode and broadcasts them.
pub(crate) fn prepare<'a>(op: &str, a: &Operand<'a>, b: &Operand<'a>) -> Result<Prepared<'a>> {
    let result = promote::promote_for(op, a.lattice_type()?, b.lattice_type()?, promote::current_mode())?;
    let shape = broadcast_shapes(a.shape(), b.shape(), op)?;
    let rounded = |x: &Operand<'a>| match *x {
        Operand::Scalar(s) => Operand::Scalar(s.rounded_to(result.dtype)),
        Operand::Tensor(t) => Operand::Tensor(t),
    };
    let (a, b) = (rounded(a), rounded(b));
    Ok(Prepared { result, a: Input::broadcast(&a, &shape)?, b: Input::broadcast(&b, &shape)?, shape })
}

/// Runs a binary op on the tape: `f` computes it; when a tape records, the
/// operands (literals as weak 0-d tensors) are recorded as its inputs.
#[inline(always)]
fn taped2<'a>(
    name: &'static str,
    a: Operand<'a>,
    b: Operand<'a>,
    f: impl FnOnce(Operand<'a>, Operand<'a>) -> Result<Tensor>,
) -> Result<Tensor> {
    if !tape::recording() {
        return f(a, b);
    }
    taped2_recorded(name, a, b, f)
}

/// [`taped2`] with a tape recording, out of line so that the op's path with
/// no tape stays as it was.
#[inline(never)]
#[cold]
fn taped2_recorded<'a>(
    name: &'static str,
    a: Operand<'a>,
    b: Operand<'a>,
    f: impl FnOnce(Operand<'a>, Operand<'a>) -> Result<Tensor>,
) -> Result<Tensor> {
    let (ta, tb) = (operand_tensor(&a)?, operand_tensor(&b)?);
    tape::op(&[&ta, &tb], || f(a, b), || TapeOp::Binary(name))
}

/// An operand as a tensor (a literal as a weak 0-d tensor no tape tracks).
fn operand_tensor(x: &Operand<'_>) -> Result<Tensor> {
    match x {
        Operand::Tensor(t) => Ok((*t).clone()),
        Operand::Scalar(s) => s.to_tensor(),
    }
}

/// The refusal of a dtype with no arithmetic kernel: bool (TF has none), or a
/// low-precision storage dtype (whose message names the cast to write).
fn no_kernel(op: &str, dtype: DType) -> Error {
    let supported = if dtype.is_bool() {
        "every numeric dtype (use logical_or / logical_and for bool)"
    } else {
        "every numeric dtype but the low-precision storage dtypes"
    };
    Error::UnsupportedDType { op: op.to_string(), dtype, supported: supported.to_string() }
}

/// Runs a ring operation (`f` on the promoted element type).
macro_rules! ring_op {
    ($name:ident, $op:literal, $method:ident, $doc:literal) => {
        #[doc = $doc]
        ///
        /// The operands are promoted in the thread's current mode (see
        /// [`crate::promote`]); the result has the promoted dtype and is weak
        /// iff the promotion is (e.g. `i32* ⊕ i32* → i32*`, `f16 ⊕ f32* → f16`).
        /// Shapes broadcast by NumPy rules. Integers wrap on overflow.
        ///
        /// # Errors
        /// [`Error::Promotion`] if the mode refuses the pair,
        /// [`Error::ShapeMismatch`] for shapes that do not broadcast,
        /// [`Error::UnsupportedDType`] for bool (TF has no bool kernel) and the
        /// low-precision storage dtypes.
        pub fn $name<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
            taped2($op, a.into(), b.into(), |a, b| {
            let p = prepare($op, &a, &b)?;
            let mut out = Tensor::for_overwrite($op, &p.shape, p.result.dtype)?;
            let d = p.result.dtype;
            // halves compute in f32 with block-wise conversions
            with_half_dtype!(d, H,
                kernels::binary_via::<HalfCompute, H, _>(&p.a, &p.b, out.data_mut::<H>(), |x, y| Num::$method(x, y)),
                other => with_native_dtype!(d, T,
                    kernels::binary::<T, _>(&p.a, &p.b, out.data_mut::<T>(), |x, y| Num::$method(x, y)),
                    other => return Err(no_kernel($op, d))));
            Ok(out.with_weak(p.result.weak))
            })
        }
    };
}

ring_op!(
    add,
    "add",
    add,
    "Element-wise `a + b`.\n\n```\nuse lattensor::{constant, ops, DType, Tensor};\nlet a = Tensor::from_vec(vec![10i32], &[]).unwrap();\nlet b = Tensor::from_vec(vec![5.0f32], &[]).unwrap();\nlet c = ops::add(&a, &b).unwrap();\nassert_eq!((c.dtype(), c.is_weak()), (DType::F32, false));\nassert_eq!(c.item::<f32>().unwrap(), 15.0);\n// a literal adapts: int8 + 1 stays int8\nlet d = ops::add(&Tensor::scalar(1i8), 1).unwrap();\nassert_eq!(d.dtype(), DType::I8);\n```"
);
ring_op!(
    subtract,
    "subtract",
    sub,
    "Element-wise `a - b`.\n\n```\nuse lattensor::{ops, DType, Tensor};\nlet c = ops::subtract(&Tensor::scalar(5i16), &Tensor::scalar(1.0f32)).unwrap();\nassert_eq!(c.dtype(), DType::F32);\nassert_eq!(c.item::<f32>().unwrap(), 4.0);\n```"
);
ring_op!(
    multiply,
    "multiply",
    mul,
    "Element-wise `a * b`.\n\n```\nuse lattensor::{ops, DType, Tensor};\nlet c = ops::multiply(&Tensor::from_vec(vec![1u8, 2, 3], &[3]).unwrap(), 2).unwrap();\nassert_eq!(c.dtype(), DType::U8);\nassert_eq!(c.to_vec::<u8>().unwrap(), vec![2, 4, 6]);\n```"
);

/// TF's true-division rule for integer results: 8- and 16-bit integers
/// divide in float32, 32- and 64-bit integers in float64; weakness is kept.
pub fn truediv_type(t: LatticeType) -> Result<LatticeType> {
    let dtype = match t.dtype {
        DType::Bool => {
            return Err(Error::UnsupportedDType {
                op: "truediv".into(),
                dtype: DType::Bool,
                supported: "every numeric dtype; cast bool operands first".into(),
            });
        }
        DType::I8 | DType::I16 | DType::U8 | DType::U16 => DType::F32,
        DType::I32 | DType::I64 | DType::U32 | DType::U64 => DType::F64,
        d => d,
    };
    Ok(LatticeType::weak_or_strong(dtype, t.weak))
}

/// Element-wise true division `a / b`.
///
/// The operands are promoted first; an integer result type then becomes a
/// float by TF's rule ([`truediv_type`]): `int32 / int32 → float64`,
/// `i32* / i32* → f64*`, `int8 / 2 → float32`, `int32 / 2.0 → f64*`.
/// Float inputs keep their type (`float16 / 2 → float16`).
///
/// ```
/// use lattensor::{constant, ops, DType};
/// let q = ops::divide(&constant(1).unwrap(), &constant(2).unwrap()).unwrap();
/// assert_eq!((q.dtype(), q.is_weak()), (DType::F64, true));
/// assert_eq!(q.item::<f64>().unwrap(), 0.5);
/// ```
///
/// # Errors
/// As [`add`]; bool operands are refused.
pub fn divide<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    taped2("truediv", a.into(), b.into(), divide_untaped)
}

fn divide_untaped(a: Operand<'_>, b: Operand<'_>) -> Result<Tensor> {
    let p = prepare("truediv", &a, &b)?;
    let result = truediv_type(p.result)?;
    let mut out = Tensor::for_overwrite("truediv", &p.shape, result.dtype)?;
    with_inexact_dtype!(result.dtype, T,
        kernels::binary::<T, _>(&p.a, &p.b, out.data_mut::<T>(), Inexact::div),
        other => return Err(Error::Unimplemented(format!("truediv: no kernel for {}", result.dtype))));
    Ok(out.with_weak(result.weak))
}

/// Element-wise `-a`; keeps dtype and weakness (`-constant(5)` is `i32*`).
///
/// ```
/// use lattensor::{constant, ops, DType};
/// let n = ops::negative(&constant(5).unwrap()).unwrap();
/// assert_eq!((n.dtype(), n.is_weak(), n.item::<i32>().unwrap()), (DType::I32, true, -5));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and unsigned integers (TF has no kernel for them).
pub fn negative(a: &Tensor) -> Result<Tensor> {
    if a.dtype().is_unsigned() || a.dtype().is_low_precision() {
        return Err(Error::UnsupportedDType {
            op: "negative".into(),
            dtype: a.dtype(),
            supported: "int8, int16, int32, int64, bfloat16, float16, float32, float64, complex64, complex128".into(),
        });
    }
    let compute = || {
        let mut out = Tensor::for_overwrite("negative", a.shape(), a.dtype())?;
        with_numeric_dtype!(a.dtype(), T,
            kernels::unary::<T, T, _>(a, out.data_mut::<T>(), Num::neg),
            bool => return Err(no_kernel("negative", a.dtype())));
        Ok(out.with_weak(a.is_weak()))
    };
    tape::op(&[a], compute, || TapeOp::Unary("negative"))
}

fn real_only(d: DType) -> bool {
    !d.is_bool() && !d.is_complex()
}

fn nan_or<T: Float>(a: T, b: T, f: impl Fn(T, T) -> T) -> T {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else {
        f(a, b)
    }
}

macro_rules! binary_fn {
    (
        $(#[$doc:meta])* $name:ident, $tf:literal, supported: $sup:expr, accepts: $acc:expr, weak: $weak:expr,
        int: |$ia:ident, $ib:ident, $flag:ident| $int:expr,
        float: |$fa:ident, $fb:ident| $float:expr,
        complex: |$ca:ident, $cb:ident| $cplx:expr
        $(, flag_error: $ferr:expr)?
        $(, shortcut: $shortcut:expr)?
    ) => {
        $(#[$doc])*
        pub fn $name<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
            struct F;
            impl Map2 for F {
                const NAME: &'static str = $tf;
                const SUPPORTED: &'static str = $sup;
                fn accepts(d: DType) -> bool {
                    #[allow(clippy::redundant_closure_call)]
                    ($acc)(d)
                }
                #[allow(unused_variables)]
                #[inline(always)]
                fn int<T: Int>($ia: T, $ib: T, $flag: &AtomicBool) -> T {
                    $int
                }
                #[allow(unused_variables)]
                #[inline(always)]
                fn float<T: Compute>($fa: T, $fb: T) -> T {
                    $float
                }
                #[allow(unused_variables)]
                #[inline(always)]
                fn complex<T: Compute>($ca: Complex<T>, $cb: Complex<T>) -> Complex<T> {
                    $cplx
                }
                $(fn flag_error() -> Error { $ferr })?
            }
            taped2($tf, a.into(), b.into(), |a, b| {
                let p = prepare($tf, &a, &b)?;
                let result = p.result;
                #[allow(clippy::redundant_closure_call)]
                let result = LatticeType::weak_or_strong(result.dtype, ($weak)(result.weak));
                $(if let Some(out) = ($shortcut)(&p, result)? {
                    return Ok(out);
                })?
                F::run(&p.a, &p.b, &p.shape, result)
            })
        }
    };
}

fn flag_zero<T: Int>(b: T, flag: &AtomicBool) {
    if b.is_zero() {
        flag.store(true, Ordering::Relaxed);
    }
}

binary_fn!(
    /// Element-wise maximum, promoted through the lattice; the result is strong
    /// (as TF's `tf.maximum`, which drops weakness). NaN propagates.
    ///
    /// ```
    /// use lattensor::{ops, DType, Tensor};
    /// let m = ops::maximum(&Tensor::scalar(1i8), 2.0).unwrap(); // i8 ⊔ f32* = f64*
    /// assert_eq!((m.dtype(), m.is_weak(), m.item::<f64>().unwrap()), (DType::F64, false, 2.0));
    /// ```
    ///
    /// # Errors
    /// [`Error::Promotion`] if the mode refuses the pair; [`Error::UnsupportedDType`] for bool and complex.
    maximum, "maximum", supported: REAL, accepts: real_only, weak: |_| false,
    int: |a, b, f| a.max(b), float: |a, b| nan_or(a, b, T::max), complex: |a, b| a);
binary_fn!(
    /// Element-wise minimum; as [`maximum`].
    ///
    /// # Errors
    /// As [`maximum`].
    minimum, "minimum", supported: REAL, accepts: real_only, weak: |_| false,
    int: |a, b, f| a.min(b), float: |a, b| nan_or(a, b, T::min), complex: |a, b| a);
binary_fn!(
    /// `a ** b`, promoted through the lattice, keeping weakness (`i32* ** 3 → i32*`,
    /// `int8 ** 2.0 → f64*`). Integers wrap; `0 ** 0 = 1`.
    ///
    /// Unlike TF (which has no kernel), unsigned integers are accepted.
    ///
    /// ```
    /// use lattensor::{ops, DType, Tensor};
    /// let p = ops::pow(&Tensor::from_vec(vec![2i8, 3], &[2]).unwrap(), 2).unwrap();
    /// assert_eq!((p.dtype(), p.to_vec::<i8>().unwrap()), (DType::I8, vec![4, 9]));
    /// assert!(ops::pow(&Tensor::scalar(2i32), -1).is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an integer raised to a negative integer power;
    /// [`Error::Promotion`] if the mode refuses the pair; [`Error::UnsupportedDType`] for bool.
    pow, "pow", supported: "every dtype but bool", accepts: |d: DType| !d.is_bool(), weak: |w| w,
    int: |a, b, flag| { if b.is_neg() { flag.store(true, Ordering::Relaxed); } a.wrapping_pow(b) },
    float: |a, b| a.powf(b),
    complex: |a, b| {
        let zero = T::zero();
        if b.re == zero && b.im == zero { Complex::new(T::one(), zero) }
        else if a.re == zero && a.im == zero { if b.re > zero { Complex::new(zero, zero) } else { Complex::new(T::nan(), T::nan()) } }
        else { a.powc(b) }
    },
    flag_error: Error::InvalidArgument("pow: integers to negative integer powers are not allowed; cast the base to a float first".into()),
    shortcut: square_for_two);

/// `a ** 2` for a real float result as `a · a`, computed as [`multiply`]
/// computes (f16/bf16 in f32): the exact square rounded once, which is what a
/// correctly rounded pow returns, at a product's speed (`x ** 2` on 4000×64
/// float64 took 1.5 ms through `powf`, 57 µs as a product). `None` for any
/// other exponent, a tensor exponent or another result dtype.
fn square_for_two(p: &Prepared<'_>, result: LatticeType) -> Result<Option<Tensor>> {
    let d = result.dtype;
    let two = matches!(p.b, Input::Scalar(s) if s.to::<f64>() == 2.0);
    if !two || !matches!(d, DType::F16 | DType::BF16 | DType::F32 | DType::F64) {
        return Ok(None);
    }
    let mut out = Tensor::for_overwrite("pow", &p.shape, d)?;
    with_half_dtype!(d, H,
        kernels::binary_via::<HalfCompute, H, _>(&p.a, &p.a, out.data_mut::<H>(), Num::mul),
        other => with_native_dtype!(d, T,
            kernels::binary::<T, _>(&p.a, &p.a, out.data_mut::<T>(), Num::mul),
            other => return Ok(None)));
    Ok(Some(out.with_weak(result.weak)))
}
binary_fn!(
    /// Floor division `⌊a / b⌋`, promoted through the lattice, keeping weakness
    /// (`i32* // 2 → i32*`, `int8 // 2.0 → f64*`, `-7 // 2 = -4`). Floats compute `floor(a / b)`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for integer division by zero; [`Error::UnsupportedDType`] for bool and complex.
    floordiv, "floordiv", supported: REAL, accepts: real_only, weak: |w| w,
    int: |a, b, flag| { flag_zero(b, flag); a.floor_div(b) }, float: |a, b| (a / b).floor(), complex: |a, b| a);
binary_fn!(
    /// Floor modulus: the remainder of floor division, with the divisor's sign
    /// (`-7 % 3 = 2`, `7 % -2 = -1`), promoted and keeping weakness.
    ///
    /// # Errors
    /// As [`floordiv`].
    floormod, "floormod", supported: REAL, accepts: real_only, weak: |w| w,
    int: |a, b, flag| { flag_zero(b, flag); a.floor_mod(b) },
    float: |a, b| { let r = a % b; if r != T::zero() && ((r < T::zero()) != (b < T::zero())) { r + b } else { r } },
    complex: |a, b| a);
binary_fn!(
    /// Division rounded toward zero (`-7 / 2 = -3`); floats compute `trunc(a / b)`.
    ///
    /// # Errors
    /// As [`floordiv`].
    truncatediv, "truncatediv", supported: REAL, accepts: real_only, weak: |w| w,
    int: |a, b, flag| { flag_zero(b, flag); a.trunc_div(b) }, float: |a, b| (a / b).trunc(), complex: |a, b| a);
binary_fn!(
    /// Remainder of truncating division, with the dividend's sign (C's `%`, `fmod` for floats).
    ///
    /// # Errors
    /// As [`floordiv`].
    truncatemod, "truncatemod", supported: REAL, accepts: real_only, weak: |w| w,
    int: |a, b, flag| { flag_zero(b, flag); a.trunc_mod(b) }, float: |a, b| a % b, complex: |a, b| a);
binary_fn!(
    /// `a * b`, but 0 where `b == 0` even if `a` is NaN or infinite. Promotes and keeps weakness.
    ///
    /// # Errors
    /// As [`super::add`].
    multiply_no_nan, "multiply_no_nan", supported: "every dtype but bool", accepts: |d: DType| !d.is_bool(), weak: |w| w,
    int: |a, b, f| a.cast_into::<i64>().wrapping_mul(b.cast_into::<i64>()).cast_into(),
    float: |a, b| if b == T::zero() { T::zero() } else { a * b },
    complex: |a, b| if b.re == T::zero() && b.im == T::zero() { Complex::new(T::zero(), T::zero()) } else { a * b });

/// Real floating dtypes: the only ones `atan2` and `hypot` take.
fn real_float(d: DType) -> bool {
    d.is_float()
}

/// `f` evaluated in f64 and rounded once to `T`: correctly rounded for f32
/// (and f16/bf16, which compute through f32) wherever `f` is in f64.
#[inline(always)]
fn via_f64<T: Float>(a: T, b: T, f: fn(f64, f64) -> f64) -> T {
    let wide = |x: T| x.to_f64().unwrap_or(f64::NAN);
    num_traits::cast(f(wide(a), wide(b))).unwrap_or_else(T::nan)
}

binary_fn!(
    /// `atan2(y, x)`: the angle of the point `(x, y)` in `[-π, π]`, with IEEE
    /// signs of zero (`atan2(±0, -0) = ±π`). The operands promote through the
    /// lattice and the result keeps the join's weakness. f32 (and f16/bf16)
    /// are evaluated in f64 and rounded once.
    ///
    /// As TF's `tf.math.atan2`, only real floats are accepted: an integer join
    /// is an error (`numpy::arctan2` computes it in float32 instead).
    ///
    /// ```
    /// use lattensor::{ops, DType, Tensor};
    /// let y = Tensor::from_vec(vec![1.0f32, -0.0], &[2]).unwrap();
    /// let a = ops::atan2(&y, -1.0).unwrap();
    /// assert_eq!(a.dtype(), DType::F32);
    /// assert_eq!(a.to_vec::<f32>().unwrap(), vec![3.0 * std::f32::consts::FRAC_PI_4, -std::f32::consts::PI]);
    /// ```
    ///
    /// # Errors
    /// [`Error::UnsupportedDType`] unless the join is f16, bf16, f32 or f64;
    /// [`Error::Promotion`] if the mode refuses the pair.
    atan2, "atan2", supported: "bfloat16, float16, float32, float64", accepts: real_float, weak: |w| w,
    int: |a, b, f| a, float: |a, b| via_f64(a, b, f64::atan2), complex: |a, b| a);
binary_fn!(
    /// `√(a² + b²)` without overflow or underflow in between (NumPy's `hypot`):
    /// `hypot(3e30f32, 4e30) = 5e30`. Operands promote through the lattice;
    /// the result keeps the join's weakness. f32 (and f16/bf16) are evaluated
    /// in f64 and rounded once. An infinite operand gives +inf even if the
    /// other is NaN, as C's `hypot`.
    ///
    /// ```
    /// use lattensor::{ops, Tensor};
    /// let h = ops::hypot(&Tensor::from_vec(vec![3e30f32, 5.0], &[2]).unwrap(), &Tensor::from_vec(vec![4e30f32, 12.0], &[2]).unwrap()).unwrap();
    /// assert_eq!(h.to_vec::<f32>().unwrap(), vec![5e30, 13.0]);
    /// ```
    ///
    /// # Errors
    /// As [`atan2`] (integers: see `numpy::hypot`).
    hypot, "hypot", supported: "bfloat16, float16, float32, float64", accepts: real_float, weak: |w| w,
    int: |a, b, f| a, float: |a, b| via_f64(a, b, f64::hypot), complex: |a, b| a);
binary_fn!(
    /// The Heaviside step function (NumPy's `heaviside(x1, x2)`): 0 where
    /// `x < 0`, 1 where `x > 0`, `h` where `x` is ±0, NaN where `x` is NaN.
    /// Operands promote through the lattice; the result keeps the join's
    /// weakness.
    ///
    /// ```
    /// use lattensor::{ops, Tensor};
    /// let x = Tensor::from_vec(vec![-1.5f64, -0.0, 0.0, 2.0, f64::NAN], &[5]).unwrap();
    /// let s = ops::heaviside(&x, 0.5).unwrap().to_vec::<f64>().unwrap();
    /// assert_eq!(&s[..4], &[0.0, 0.5, 0.5, 1.0]);
    /// assert!(s[4].is_nan());
    /// ```
    ///
    /// # Errors
    /// As [`atan2`] (integers: see `numpy::heaviside`).
    heaviside, "heaviside", supported: "bfloat16, float16, float32, float64", accepts: real_float, weak: |w| w,
    int: |a, b, f| a,
    float: |x, h| if x.is_nan() { x } else if x < T::zero() { T::zero() } else if x > T::zero() { T::one() } else { h },
    complex: |a, b| a);

/// `a / b`, but 0 where `b == 0`. Promotes, then applies TF's true-division
/// rule (integer results divide in float32/float64), keeping weakness.
///
/// ```
/// use lattensor::{ops, DType, Tensor};
/// let q = ops::divide_no_nan(&Tensor::from_vec(vec![7i32, 7], &[2]).unwrap(), &Tensor::from_vec(vec![0i32, 2], &[2]).unwrap()).unwrap();
/// assert_eq!((q.dtype(), q.to_vec::<f64>().unwrap()), (DType::F64, vec![0.0, 3.5]));
/// ```
///
/// # Errors
/// As [`super::divide`].
pub fn divide_no_nan<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    struct F;
    impl Map2 for F {
        const NAME: &'static str = "divide_no_nan";
        const SUPPORTED: &'static str = "every dtype but bool";
        fn accepts(d: DType) -> bool {
            d.is_inexact()
        }
        fn int<T: Int>(a: T, _b: T, _f: &AtomicBool) -> T {
            a
        }
        fn float<T: Compute>(a: T, b: T) -> T {
            if b == T::zero() { T::zero() } else { a / b }
        }
        fn complex<T: Compute>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
            if b.re == T::zero() && b.im == T::zero() { Complex::new(T::zero(), T::zero()) } else { a / b }
        }
    }
    taped2("divide_no_nan", a.into(), b.into(), |a, b| {
        let p = prepare("divide_no_nan", &a, &b)?;
        let result = truediv_type(p.result)?;
        F::run(&p.a, &p.b, &p.shape, result)
    })
}

/// `tf.realdiv`: the same as [`super::divide`] (TF has no integer kernel; lattensor
/// applies the true-division rule instead of failing).
///
/// # Errors
/// As [`super::divide`].
pub fn realdiv<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    super::divide(a, b)
}

/// Converts a scalar operand to `dtype` by the `constant(value, dtype)` rule.
fn scalar_to(op: &str, s: Operand<'_>, dtype: DType) -> Result<Tensor> {
    if !s.shape().is_empty() {
        return Err(Error::InvalidValue(format!(
            "{op}: expected a scalar, got {}; use multiply for tensors",
            s.describe()
        )));
    }
    let v = match s {
        Operand::Tensor(t) => crate::Value::Tensor(t.clone()),
        Operand::Scalar(s) => crate::Value::Literal(s),
    };
    crate::constant_as(v, dtype).map_err(|e| match e {
        Error::InvalidType(m) => Error::InvalidType(m.replacen("constant", op, 1)),
        e => e,
    })
}

/// `scalar * x` with the dtype and weakness of `x` only (`tf.math.scalar_mul`):
/// the scalar is converted to `x`'s dtype by `constant`'s rule.
///
/// ```
/// use lattensor::{ops, DType, Tensor};
/// let x = Tensor::from_vec(vec![half::f16::from_f32(1.5)], &[1]).unwrap();
/// assert_eq!(ops::scalar_mul(2, &x).unwrap().dtype(), DType::F16);
/// assert!(ops::scalar_mul(2.5, &Tensor::scalar(1i32)).is_err());
/// ```
///
/// # Errors
/// As TF: [`Error::InvalidValue`] if the scalar is not a scalar or is a strong tensor of
/// another dtype (`ValueError`), [`Error::InvalidType`] if it does not convert to `x`'s
/// dtype (`TypeError`).
pub fn scalar_mul<'a>(scalar: impl Into<Operand<'a>>, x: &Tensor) -> Result<Tensor> {
    let scalar = scalar.into();
    if let Operand::Tensor(t) = scalar {
        // TF converts the scalar with `convert_to_tensor(scalar, dtype=x.dtype)`, which refuses
        // a tensor of another dtype (ValueError)
        if !t.is_weak() && t.dtype() != x.dtype() {
            return Err(Error::InvalidValue(format!(
                "scalar_mul: the scalar tensor is {} but x is {}; cast the scalar to {} first",
                t.dtype().name(),
                x.dtype().name(),
                x.dtype().name()
            )));
        }
    }
    let s = scalar_to("scalar_mul", scalar, x.dtype())?;
    Ok(crate::promote::with_mode(crate::PromotionMode::All, || super::multiply(&s, x))?.with_weak(x.is_weak()))
}

/// Clamps `x` to `[lo, hi]` as TF does: `maximum(minimum(x, hi), lo)`, promoted through the
/// lattice like `minimum`/`maximum` (`int8` clipped to `-1.5, 2.5` is `float64`), with the
/// weakness of `x`. NaN stays NaN; where a value equals a bound the bound is
/// returned (so `-0.0` clipped to `[0, 1]` is `+0.0`, as in TF).
///
/// ```
/// use lattensor::{ops, DType, Tensor};
/// let x = Tensor::from_vec(vec![1i32, 5, 9], &[3]).unwrap();
/// assert_eq!(ops::clip_by_value(&x, 2, 7).unwrap().to_vec::<i32>().unwrap(), vec![2, 5, 7]);
/// let y = ops::clip_by_value(&x, -1.5, 2.5).unwrap();
/// assert_eq!((y.dtype(), y.is_weak()), (DType::F64, false));
/// assert_eq!(y.to_vec::<f64>().unwrap(), vec![1.0, 2.5, 2.5]);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the operands do not promote in the current mode;
/// [`Error::UnsupportedDType`] for complex (no order); [`Error::ShapeMismatch`] if the bounds
/// do not broadcast.
pub fn clip_by_value<'a>(x: &Tensor, lo: impl Into<Operand<'a>>, hi: impl Into<Operand<'a>>) -> Result<Tensor> {
    // the bound first, so that on a tie (or ±0) the bound is returned, as TF's kernels do
    let (lo, hi): (Operand<'_>, Operand<'_>) = (lo.into(), hi.into());
    let compute = |lo: Operand<'_>, hi: Operand<'_>| {
        let upper = minimum(hi, Operand::from(x))?;
        let clipped = maximum(lo, Operand::from(&upper))?;
        Ok(clipped.with_weak(x.is_weak()))
    };
    if !tape::recording() {
        return compute(lo, hi);
    }
    let (tlo, thi) = (operand_tensor(&lo)?, operand_tensor(&hi)?);
    tape::op(&[x, &tlo, &thi], || compute(lo, hi), || TapeOp::Clip)
}

#[cfg(test)]
mod tests {
    use half::{bf16, f16};

    use super::*;
    use crate::ops::compare::equal;

    fn v<T: Element>(x: &[T]) -> Tensor {
        Tensor::from_vec(x.to_vec(), &[x.len()]).unwrap()
    }

    #[test]
    fn weak_literals_round_to_half_precision_first() {
        use half::{bf16, f16};
        // TF 2.21: float16 0.142 ** 2.2 = 0.013664 (the exponent is float16 2.19921875)
        let x = f16::from_f64(0.142);
        let got = pow(&v(&[x]), 2.2).unwrap().to_vec::<f16>().unwrap()[0];
        let want = f16::from_f32(x.to_f32().powf(f16::from_f64(2.2).to_f32()));
        let unrounded = f16::from_f32(x.to_f32().powf(2.2f32));
        assert_eq!(got, want);
        assert_ne!(want, unrounded, "the case must tell the two roundings apart");
        assert_eq!(want.to_f32(), 0.013664246);
        // comparisons too: bfloat16(0.1) == 0.1 after the literal is rounded
        let b = bf16::from_f64(0.1);
        assert_eq!(equal(&v(&[b]), 0.1).unwrap().to_vec::<bool>().unwrap(), vec![true]);
    }

    #[test]
    fn floor_and_trunc_division_match_tf() {
        let a = v(&[-7i32, 7, -7, 7]);
        let b = v(&[2i32, 2, -2, -2]);
        assert_eq!(floordiv(&a, &b).unwrap().to_vec::<i32>().unwrap(), vec![-4, 3, 3, -4]);
        assert_eq!(floormod(&a, &b).unwrap().to_vec::<i32>().unwrap(), vec![1, 1, -1, -1]);
        assert_eq!(truncatediv(&a, &b).unwrap().to_vec::<i32>().unwrap(), vec![-3, 3, 3, -3]);
        assert_eq!(truncatemod(&a, &b).unwrap().to_vec::<i32>().unwrap(), vec![-1, 1, -1, 1]);
        let f = floormod(&v(&[-7.0f32, 7.0, 5.0, -1.0]), &v(&[2.0f32, -2.0, 0.0, f32::INFINITY])).unwrap();
        let f = f.to_vec::<f32>().unwrap();
        assert_eq!((f[0], f[1], f[3]), (1.0, -1.0, f32::INFINITY));
        assert!(f[2].is_nan());
        assert_eq!(floordiv(&v(&[-128i8]), &v(&[-1i8])).unwrap().to_vec::<i8>().unwrap(), vec![-128]);
    }

    #[test]
    fn integer_division_by_zero_is_an_error() {
        let e = floordiv(&v(&[1i32, 2]), &v(&[1i32, 0])).unwrap_err();
        assert!(e.to_string().contains("division by zero"), "{e}");
        assert!(floormod(&v(&[1u8]), 0).is_err());
        // floats divide by zero per IEEE
        assert_eq!(floordiv(&v(&[7.0f32]), 0).unwrap().to_vec::<f32>().unwrap(), vec![f32::INFINITY]);
    }

    #[test]
    fn pow_rules() {
        let r = pow(&crate::constant(2).unwrap(), 3).unwrap();
        assert!(r.is_weak());
        assert_eq!(r.item::<i32>().unwrap(), 8);
        let r = pow(&Tensor::scalar(2i8), 2.0).unwrap();
        assert_eq!((r.dtype(), r.is_weak()), (DType::F64, true));
        assert_eq!(pow(&v(&[0i32]), 0).unwrap().to_vec::<i32>().unwrap(), vec![1]);
        assert_eq!(pow(&v(&[3u8]), 6).unwrap().to_vec::<u8>().unwrap(), vec![217]); // 729 mod 256
        assert!(pow(&v(&[2i64, 3]), &v(&[1i64, -3])).is_err()); // terminates, and refuses
        let h = pow(&v(&[f16::from_f32(2.0)]), 0.5).unwrap();
        assert_eq!(h.dtype(), DType::F16);
    }

    #[test]
    fn max_min_propagate_nan_and_are_strong() {
        let a = v(&[f32::NAN, 1.0]);
        let b = v(&[1.0f32, f32::NAN]);
        assert!(maximum(&a, &b).unwrap().to_vec::<f32>().unwrap().iter().all(|x| x.is_nan()));
        assert!(minimum(&a, &b).unwrap().to_vec::<f32>().unwrap().iter().all(|x| x.is_nan()));
        let m = maximum(&crate::constant(1).unwrap(), 2).unwrap();
        assert_eq!((m.dtype(), m.is_weak()), (DType::I32, false));
    }

    #[test]
    fn no_nan_variants() {
        let q = divide_no_nan(&v(&[7.0f32, f32::NAN]), &v(&[0.0f32, 0.0])).unwrap();
        assert_eq!(q.to_vec::<f32>().unwrap(), vec![0.0, 0.0]);
        let m = multiply_no_nan(&v(&[f32::NAN, f32::INFINITY, 2.0]), &v(&[0.0f32, 0.0, 3.0])).unwrap();
        assert_eq!(m.to_vec::<f32>().unwrap(), vec![0.0, 0.0, 6.0]);
    }

    #[test]
    fn clip_and_scalar_mul_keep_x_type() {
        let x = crate::constant([1.0, f64::NAN, 9.0]).unwrap();
        let c = clip_by_value(&x, 2, 7).unwrap();
        assert!(c.is_weak());
        let c = c.to_vec::<f32>().unwrap();
        assert_eq!((c[0], c[2]), (2.0, 7.0));
        assert!(c[1].is_nan());
        // promoted like minimum/maximum, with x's weakness (TF: int8 clipped by floats is float64)
        let c = clip_by_value(&Tensor::scalar(1i8), 2.5, 7).unwrap();
        assert_eq!((c.dtype(), c.is_weak(), c.item::<f64>().unwrap()), (DType::F64, false, 2.5));
        // on a tie the bound is returned: -0 clipped to [0, 1] is +0 (TF's kernels)
        let z = clip_by_value(&v(&[-0.0f32]), 0, 1).unwrap().item::<f32>().unwrap();
        assert!(z == 0.0 && z.is_sign_positive());
        // bounds crossing: maximum(minimum(x, hi), lo) gives lo
        assert_eq!(clip_by_value(&v(&[5u8]), 9u8, 3u8).unwrap().to_vec::<u8>().unwrap(), vec![9]);
        assert!(scalar_mul(&v(&[1.0f32, 2.0]), &Tensor::scalar(1.0f32)).is_err());
        // a strong scalar tensor must have x's dtype (TF: ValueError); same dtype is fine
        assert!(scalar_mul(&Tensor::scalar(2i32), &v(&[1.0f32])).is_err());
        assert_eq!(scalar_mul(&Tensor::scalar(2.0f32), &v(&[1.5f32])).unwrap().to_vec::<f32>().unwrap(), vec![3.0]);
    }

    #[test]
    fn atan2_hypot_heaviside_round_once_and_keep_ieee_edges() {
        // f32 results are the f64 values rounded once
        let ys: Vec<f32> = (0..200).map(|i| (i as f32 - 100.0) * 0.37 + 1e-3).collect();
        let xs: Vec<f32> = (0..200).map(|i| (i as f32 * 1.7).sin() * 1e3).collect();
        let a = atan2(&v(&ys), &v(&xs)).unwrap().to_vec::<f32>().unwrap();
        let h = hypot(&v(&ys), &v(&xs)).unwrap().to_vec::<f32>().unwrap();
        for i in 0..200 {
            assert_eq!(a[i], (ys[i] as f64).atan2(xs[i] as f64) as f32);
            assert_eq!(h[i], (ys[i] as f64).hypot(xs[i] as f64) as f32);
        }
        // signed zeros and infinities
        let z = atan2(&v(&[0.0f64, -0.0, 0.0, -0.0]), &v(&[-0.0f64, -0.0, 0.0, 0.0])).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(z[..2], [std::f64::consts::PI, -std::f64::consts::PI]);
        assert!(z[2] == 0.0 && z[2].is_sign_positive() && z[3] == 0.0 && z[3].is_sign_negative());
        let inf = hypot(&v(&[f32::INFINITY, f32::NAN]), &v(&[f32::NAN, f32::NEG_INFINITY])).unwrap();
        assert_eq!(inf.to_vec::<f32>().unwrap(), vec![f32::INFINITY; 2]);
        assert_eq!(hypot(&v(&[f32::MIN_POSITIVE / 4.0]), 0.0).unwrap().item::<f32>().unwrap(), f32::MIN_POSITIVE / 4.0);
        // half precision computes through f32; the join's weakness is kept
        let b = hypot(&v(&[bf16::from_f32(3.0)]), 4).unwrap();
        assert_eq!((b.dtype(), b.is_weak(), b.item::<f32>().unwrap()), (DType::BF16, false, 5.0));
        let s = heaviside(&v(&[f16::from_f32(-2.0), f16::from_f32(0.0), f16::from_f32(7.0)]), 0.25).unwrap();
        assert_eq!((s.dtype(), s.to_vec::<f32>().unwrap()), (DType::F16, vec![0.0, 0.25, 1.0]));
        assert!(heaviside(1.0, 0.5).unwrap().is_weak());
        // integers and complex numbers are refused here (numpy:: computes integers in float32)
        assert!(matches!(atan2(&v(&[1i32]), 2).unwrap_err(), Error::UnsupportedDType { .. }));
        assert!(hypot(&v(&[num_complex::Complex32::new(1.0, 0.0)]), 1.0).is_err());
        assert!(heaviside(&v(&[1i8]), 1).is_err());
    }
}
