//! Binary functions built from the lattice's ops: `clip`, `logaddexp`,
//! `logaddexp2`, `float_power`, `nextafter`, `gcd`, `lcm`.
//!
//! The operands join through the lattice (dtype and weakness, as `+` joins
//! them); the float functions compute a bool or integer join in float32.

use half::{bf16, f16};

use super::{DEFAULT_FLOAT, Value, asarray, exp, exp2, log1p, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::ops::{self, unary::unsupported};
use crate::promote::{self, LatticeType};
use crate::{DType, Tensor};

/// The lattice join of `operands` under the current promotion mode.
fn join(op: &str, operands: &[LatticeType]) -> Result<LatticeType> {
    promote::result_type_for(op, operands, promote::current_mode())
}

/// Both operands converted to their lattice join (dtype and weakness); a bool
/// or integer join becomes float32 when `floating` (tnp's float functions).
pub(super) fn joined(op: &str, x1: impl Into<Value>, x2: impl Into<Value>, floating: bool) -> Result<(Tensor, Tensor)> {
    let (x, y) = (to_tensor(x1)?, to_tensor(x2)?);
    let j = join(op, &[x.lattice_type(), y.lattice_type()])?;
    let dt = if floating && !j.dtype.is_inexact() { DEFAULT_FLOAT } else { j.dtype };
    Ok((x.cast(dt)?.with_weak(j.weak), y.cast(dt)?.with_weak(j.weak)))
}

/// `minimum(maximum(a, a_min), a_max)` (`tnp.clip`), a `None` bound skipped,
/// the operands first converted to their lattice join, as TF's tnp does: the
/// result is strong (`clip([1, 5, 9], 2, 6.5)` is float32).
///
/// ```
/// use lattensor::{tnp, DType, Value};
/// let c = tnp::clip([1, 5, 9], Some(Value::from(2)), Some(Value::from(6.5))).unwrap();
/// assert_eq!((c.dtype(), c.is_weak(), c.to_vec::<f32>().unwrap()), (DType::F32, false, vec![2.0, 5.0, 6.5]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if both bounds are `None`; [`Error::Promotion`]
/// if the mode refuses the operands; [`Error::ShapeMismatch`] for shapes that
/// do not broadcast.
pub fn clip(a: impl Into<Value>, a_min: Option<Value>, a_max: Option<Value>) -> Result<Tensor> {
    if a_min.is_none() && a_max.is_none() {
        crate::bail!("clip: a_min and a_max cannot both be None");
    }
    let a = to_tensor(a)?;
    let lo = a_min.map(to_tensor).transpose()?;
    let hi = a_max.map(to_tensor).transpose()?;
    let types: Vec<LatticeType> =
        [Some(&a), lo.as_ref(), hi.as_ref()].into_iter().flatten().map(|t| t.lattice_type()).collect();
    let dt = join("clip", &types)?.dtype;
    let mut out = asarray(&a, Some(dt))?;
    if let Some(lo) = lo {
        out = ops::maximum(&out, &asarray(&lo, Some(dt))?)?;
    }
    if let Some(hi) = hi {
        out = ops::minimum(&out, &asarray(&hi, Some(dt))?)?;
    }
    Ok(out)
}

/// `log(exp(x1) + exp(x2))` without overflow (`tnp.logaddexp`):
/// `max + log1p(exp(-|x1 - x2|))`, equal operands (infinities included) giving
/// `x + ln 2`. The operands join through the lattice; a bool or integer join is
/// computed in float32. The result is strong, as the `where` that picks the
/// equal-operand case is in TF.
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::logaddexp(0.0, 0.0).unwrap();
/// assert_eq!((y.dtype(), y.is_weak(), y.item::<f32>().unwrap()), (DType::F32, false, std::f32::consts::LN_2));
/// assert_eq!(tnp::logaddexp(1000.0, f64::NEG_INFINITY).unwrap().item::<f32>().unwrap(), 1000.0);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses the operands; [`Error::ShapeMismatch`]
/// for shapes that do not broadcast.
pub fn logaddexp(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    let (x, y) = joined("logaddexp", x1, x2, true)?;
    let tail = log1p(&exp(&ops::negative(&ops::abs(&ops::subtract(&x, &y)?)?)?)?)?;
    let out = ops::add(&ops::maximum(&x, &y)?, &tail)?;
    crate::where_(&ops::equal(&x, &y)?, &ops::add(&x, std::f64::consts::LN_2)?, &out)
}

/// `log2(2**x1 + 2**x2)` without overflow (`tnp.logaddexp2`); promotes as [`logaddexp`].
///
/// ```
/// let y = lattensor::tnp::logaddexp2(3, 3).unwrap();
/// assert_eq!(y.item::<f32>().unwrap(), 4.0);
/// ```
///
/// # Errors
/// As [`logaddexp`].
pub fn logaddexp2(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    let (x, y) = joined("logaddexp2", x1, x2, true)?;
    let t = log1p(&exp2(&ops::negative(&ops::abs(&ops::subtract(&x, &y)?)?)?)?)?;
    let tail = ops::multiply(&t, 1.0 / std::f64::consts::LN_2)?;
    crate::where_(&ops::equal(&x, &y)?, &ops::add(&x, 1.0)?, &ops::add(&ops::maximum(&x, &y)?, &tail)?)
}

/// `x1 ** x2` computed as a float (`tnp.float_power`): the operands' lattice
/// join, a bool or integer join as float32, weakness kept.
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::float_power(2, 3).unwrap();
/// assert_eq!((y.dtype(), y.is_weak(), y.item::<f32>().unwrap()), (DType::F32, true, 8.0));
/// ```
///
/// # Errors
/// As [`logaddexp`].
pub fn float_power(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    let (x, y) = joined("float_power", x1, x2, true)?;
    ops::pow(&x, &y)
}

/// The next representable value after `self` towards `y` (C's `nextafter`).
trait NextAfter: Copy + PartialOrd {
    fn next_after(self, y: Self) -> Self;
}

macro_rules! next_after {
    ($($t:ty => $bits:ty),*) => {$(
        impl NextAfter for $t {
            fn next_after(self, y: Self) -> Self {
                const SIGN: $bits = 1 << (<$bits>::BITS - 1);
                if self.is_nan() || y.is_nan() {
                    return <$t>::NAN;
                }
                if self == y {
                    return y;
                }
                let b = self.to_bits();
                if b & !SIGN == 0 {
                    // ±0: the smallest subnormal with y's sign
                    return <$t>::from_bits(1 | (y.to_bits() & SIGN));
                }
                // away from zero is one step up in sign-magnitude bits
                let away = (y > self) == (b & SIGN == 0);
                <$t>::from_bits(if away { b + 1 } else { b - 1 })
            }
        }
    )*};
}
next_after!(f32 => u32, f64 => u64, f16 => u16, bf16 => u16);

fn next_after_all<T: NextAfter + crate::Element>(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (a, b) = (x.to_vec::<T>()?, y.to_vec::<T>()?);
    Tensor::from_vec(a.into_iter().zip(b).map(|(a, b)| a.next_after(b)).collect(), x.shape())
}

/// The next representable value after `x1` towards `x2` (`tnp.nextafter`), in
/// the operands' lattice join (a bool or integer join as float32; weakness kept).
///
/// ```
/// use lattensor::tnp;
/// let y = tnp::nextafter([1.0, 0.0], [2.0, -1.0]).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0 + f32::EPSILON, -f32::from_bits(1)]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex operands; otherwise as [`logaddexp`].
pub fn nextafter(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    let (x, y) = joined("nextafter", x1, x2, true)?;
    let shape = crate::broadcast_shapes(x.shape(), y.shape(), "nextafter")?;
    let (bx, by) = (x.broadcast_to(&shape)?, y.broadcast_to(&shape)?);
    // the storage type's own neighbours: each float format steps separately
    let out = crate::dispatch_dtype!(x.dtype(), S, next_after_all::<S>(&bx, &by),
        [F32 => f32, F64 => f64, F16 => f16, BF16 => bf16],
        else => Err(unsupported("nextafter", x.dtype(), "real floating dtypes")))?;
    Ok(out.with_weak(x.is_weak()))
}

/// Floor remainder (the sign of `b`), as `floormod`.
fn floor_mod(a: i128, b: i128) -> i128 {
    let r = a % b;
    if r != 0 && (r < 0) != (b < 0) { r + b } else { r }
}

/// Floor quotient, as `floordiv`.
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && (a < 0) != (b < 0) { q - 1 } else { q }
}

/// The operands of `gcd`/`lcm`: their integer lattice join, broadcast.
fn int_operands(op: &str, x1: impl Into<Value>, x2: impl Into<Value>) -> Result<(Tensor, Tensor, bool)> {
    let (x, y) = joined(op, x1, x2, false)?;
    if !x.dtype().is_integer() {
        return Err(unsupported(op, x.dtype(), "integer dtypes"));
    }
    let shape = crate::broadcast_shapes(x.shape(), y.shape(), op)?;
    let weak = x.is_weak();
    Ok((x.broadcast_to(&shape)?, y.broadcast_to(&shape)?, weak))
}

/// `f` on each pair of the operands' values widened to i128 (the values of a
/// signed dtype after a wrapping `abs`, as the dtype's `abs` gives them);
/// the results wrap back to the dtype.
fn int_map(x: &Tensor, y: &Tensor, weak: bool, f: fn(i128, i128) -> i128) -> Result<Tensor> {
    macro_rules! run {
        ($($v:ident => $t:ty, $abs:expr);*) => {
            match x.dtype() {
                $(DType::$v => {
                    let abs: fn($t) -> $t = $abs;
                    let (a, b) = (x.to_vec::<$t>()?, y.to_vec::<$t>()?);
                    let out: Vec<$t> =
                        a.into_iter().zip(b).map(|(a, b)| f(abs(a) as i128, abs(b) as i128) as $t).collect();
                    Tensor::from_vec(out, x.shape())?
                })*
                d => return Err(unsupported("gcd", d, "integer dtypes")),
            }
        };
    }
    let out = run!(
        I8 => i8, i8::wrapping_abs; I16 => i16, i16::wrapping_abs; I32 => i32, i32::wrapping_abs;
        I64 => i64, i64::wrapping_abs; U8 => u8, |v| v; U16 => u16, |v| v; U32 => u32, |v| v; U64 => u64, |v| v
    );
    Ok(out.with_weak(weak))
}

/// Euclid's algorithm with floor remainders (the operands already made non-negative).
fn gcd_of(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, floor_mod(a, b));
    }
    a
}

/// The non-negative greatest common divisor of integers (`tnp.gcd`;
/// `gcd(0, 0)` is 0); the operands join through the lattice (dtype and weakness).
///
/// ```
/// use lattensor::{tnp, DType};
/// let g = tnp::gcd([12, -18, 0], [18, 12, 0]).unwrap();
/// assert_eq!((g.dtype(), g.is_weak(), g.to_vec::<i32>().unwrap()), (DType::I32, true, vec![6, 6, 0]));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] unless the join is an integer dtype;
/// [`Error::Promotion`] if the mode refuses the operands;
/// [`Error::ShapeMismatch`] for shapes that do not broadcast.
pub fn gcd(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    let (x, y, weak) = int_operands("gcd", x1, x2)?;
    int_map(&x, &y, weak, gcd_of)
}

/// The non-negative least common multiple of integers (`tnp.lcm`; 0 if either
/// is 0); promotes as [`gcd`].
///
/// ```
/// let l = lattensor::tnp::lcm([4, -6, 0], [6, 4, 5]).unwrap();
/// assert_eq!(l.to_vec::<i32>().unwrap(), vec![12, 12, 0]);
/// ```
///
/// # Errors
/// As [`gcd`].
pub fn lcm(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
    let (x, y, weak) = int_operands("lcm", x1, x2)?;
    int_map(&x, &y, weak, |a, b| {
        let g = gcd_of(a, b);
        if g == 0 { 0 } else { floor_div(a, g) * b }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nextafter_steps_every_float_dtype() {
        let one = Tensor::from_vec(vec![f16::ONE], &[1]).unwrap();
        let up = nextafter(&one, 2.0).unwrap();
        assert_eq!((up.dtype(), up.to_vec::<f16>().unwrap()[0]), (DType::F16, f16::from_bits(0x3c01)));
        let x = Tensor::from_vec(vec![1.0f64, -0.0, f64::INFINITY], &[3]).unwrap();
        let y = nextafter(&x, 0.0).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(y[0], 1.0 - f64::EPSILON / 2.0);
        assert_eq!(y[1].to_bits(), 0.0f64.to_bits());
        assert_eq!(y[2], f64::MAX);
        assert!(nextafter(Tensor::scalar(num_complex::Complex32::new(1.0, 0.0)), 1.0).is_err());
    }

    #[test]
    fn gcd_lcm_wrap_like_the_dtype() {
        let a = Tensor::from_vec(vec![i8::MIN, -128, 7u8 as i8], &[3]).unwrap();
        let g = gcd(&a, Tensor::from_vec(vec![0i8, 6, 0], &[3]).unwrap()).unwrap();
        assert_eq!(g.to_vec::<i8>().unwrap(), vec![i8::MIN, 2, 7]);
        let u = Tensor::from_vec(vec![200u8], &[1]).unwrap();
        assert_eq!(lcm(&u, Tensor::from_vec(vec![3u8], &[1]).unwrap()).unwrap().to_vec::<u8>().unwrap(), vec![88]);
        assert!(gcd(1.5, 2).is_err());
    }
}
