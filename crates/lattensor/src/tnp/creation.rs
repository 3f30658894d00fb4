//! Array creation: `array`, `asarray`, `copy`, `full`, the `*_like` family and `arange`.
//!
//! Without a `dtype`, results keep the input's dtype and weakness (`array(1)`
//! is `i32*`, `array(1.0)` is `f32*`, as the guide says); an explicit `dtype`
//! converts with cast semantics and gives a strong tensor.

use super::{Value, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::scalar::Scalar;
use crate::{DType, Tensor};

/// A fresh copy with the same dtype and weakness.
fn fresh(x: &Tensor) -> Result<Tensor> {
    Ok(x.cast(x.dtype())?.with_weak(x.is_weak()))
}

/// Makes a tensor (`tnp.array`): literals and lists are weak (`array(1)` is `i32*`);
/// `dtype` casts and makes it strong; `copy` gives fresh storage (otherwise an input
/// tensor may be shared); `ndmin` prepends length-1 axes up to that rank.
///
/// ```
/// use lattensor::{numpy, DType};
/// let a = numpy::array(1, None, true, 0).unwrap();
/// assert_eq!(a.to_string(), "<Tensor: shape=(), dtype=int32, numpy=1, weak=True>");
/// let b = numpy::array(vec![1.5, 2.5], Some(DType::I16), true, 2).unwrap();
/// assert_eq!((b.shape(), b.is_weak(), b.to_vec::<i16>().unwrap()), (&[1usize, 2][..], false, vec![1, 2]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a ragged list; [`Error::Overflow`] for an integer literal
/// that neither int32 nor `dtype` holds (without a dtype: beyond `i64::MAX`).
pub fn array(val: impl Into<Value>, dtype: Option<DType>, copy: bool, ndmin: usize) -> Result<Tensor> {
    let x = match dtype {
        Some(d) => to_tensor_as(val, d)?,
        None if copy => fresh(&to_tensor(val)?)?,
        None => to_tensor(val)?,
    };
    if x.rank() >= ndmin {
        return Ok(x);
    }
    let mut shape = vec![1isize; ndmin - x.rank()];
    shape.extend(x.shape().iter().map(|&d| d as isize));
    x.reshape(&shape)
}

/// Converts to a tensor without copying (`tnp.asarray`); `dtype` casts (strong).
///
/// ```
/// let t = lattensor::Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
/// assert!(lattensor::numpy::asarray(&t, None).unwrap().shares_storage_with(&t));
/// assert!(lattensor::numpy::asarray(5, None).unwrap().is_weak());
/// ```
///
/// # Errors
/// As [`array`](fn@array).
pub fn asarray(a: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    match dtype {
        Some(d) => to_tensor_as(a, d),
        None => to_tensor(a),
    }
}

/// `val` as a strong tensor of `dtype` (cast semantics; an integer literal that
/// neither int32 nor `dtype` holds is an [`Error::Overflow`]). Literals and lists of
/// literals convert straight from their exact values, as NumPy reads Python
/// floats: `asarray([16777217.0], float64)` keeps the last digit, which a pass
/// through the list's own (weak float32) type would round away.
fn to_tensor_as(val: impl Into<Value>, dtype: DType) -> Result<Tensor> {
    match val.into() {
        v @ (Value::Literal(_) | Value::List { .. }) => {
            // integer literals outside both int32 and `dtype` are refused, as by `constant`
            crate::ops::creation::check_int_literals("array", &v, dtype)?;
            v.materialize(dtype)
        }
        v => to_tensor(v)?.cast(dtype),
    }
}

/// Same as [`asarray`] (`tnp.asanyarray`; there are no tensor subclasses).
///
/// ```
/// assert_eq!(lattensor::numpy::asanyarray(vec![1, 2], None).unwrap().shape(), &[2]);
/// ```
///
/// # Errors
/// As [`array`](fn@array).
pub fn asanyarray(a: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    asarray(a, dtype)
}

/// [`asarray`] with contiguous row-major storage and at least one dimension
/// (`tnp.ascontiguousarray`, like NumPy's: a scalar becomes shape `[1]`); a
/// contiguous input is shared, a strided view is copied.
///
/// ```
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// let c = lattensor::numpy::ascontiguousarray(&m.t(), None).unwrap();
/// assert!(c.is_contiguous());
/// assert_eq!(c.to_vec::<i32>().unwrap(), vec![1, 3, 2, 4]);
/// ```
///
/// # Errors
/// As [`array`](fn@array).
pub fn ascontiguousarray(a: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    let x = asarray(a, dtype)?.contiguous()?;
    if x.rank() == 0 { x.reshape(&[1]) } else { Ok(x) }
}

/// A copy with fresh storage, same dtype and weakness (`tnp.copy`).
///
/// ```
/// let m = lattensor::constant([1, 2]).unwrap();
/// let c = lattensor::numpy::copy(&m).unwrap();
/// assert!(!c.shares_storage_with(&m) && c.is_weak());
/// ```
///
/// # Errors
/// As [`array`](fn@array).
pub fn copy(a: impl Into<Value>) -> Result<Tensor> {
    fresh(&to_tensor(a)?)
}

/// Zeros shaped like `a` (`tnp.empty_like`; lattensor never hands out uninitialised memory).
///
/// ```
/// let e = lattensor::numpy::empty_like(vec![1.5, 2.5], None).unwrap();
/// assert_eq!((e.is_weak(), e.to_vec::<f32>().unwrap()), (true, vec![0.0, 0.0]));
/// ```
///
/// # Errors
/// As [`array`](fn@array); [`Error::ResourceExhausted`] if the result is too large.
pub fn empty_like(a: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    zeros_like(a, dtype)
}

/// Zeros shaped like `a`, of its dtype and weakness unless `dtype` is given (`tnp.zeros_like`).
///
/// ```
/// let z = lattensor::numpy::zeros_like(vec![1, 2], Some(lattensor::DType::I8)).unwrap();
/// assert_eq!((z.dtype(), z.is_weak()), (lattensor::DType::I8, false));
/// ```
///
/// # Errors
/// As [`empty_like`].
pub fn zeros_like(a: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    crate::zeros_like(&to_tensor(a)?, dtype)
}

/// Ones shaped like `a`, of its dtype and weakness unless `dtype` is given (`tnp.ones_like`).
///
/// ```
/// assert_eq!(lattensor::numpy::ones_like(vec![true], None).unwrap().to_vec::<bool>().unwrap(), vec![true]);
/// ```
///
/// # Errors
/// As [`empty_like`].
pub fn ones_like(a: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    crate::ones_like(&to_tensor(a)?, dtype)
}

/// `fill_value` in the shape of `a` (or `shape`, which TF 2.21 does not support), of
/// `a`'s dtype and weakness unless `dtype` is given; the value converts with cast
/// semantics (`2.5` fills an int tensor with 2). An array `fill_value` broadcasts
/// to the shape, as in TF and NumPy.
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// let f = tnp::full_like(vec![1, 2], 2.5, None, None).unwrap();
/// assert_eq!(f.to_vec::<i32>().unwrap(), vec![2, 2]);
/// let g = tnp::full_like(vec![1, 2], 7, None, Some(&[2, 2][..])).unwrap();
/// assert_eq!(g.shape(), &[2, 2]);
/// // an array fill value: strong float16 [1, 2] from a float64 tensor
/// let h16 = Tensor::from_vec(vec![half::f16::from_f32(-3.4), half::f16::from_f32(3.0)], &[2]).unwrap();
/// let h = tnp::full_like(&h16, Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap(), None, None).unwrap();
/// assert_eq!((h.dtype(), h.is_weak(), h.to_vec::<f32>().unwrap()), (DType::F16, false, vec![1.0, 2.0]));
/// ```
///
/// # Errors
/// As [`empty_like`]; [`Error::InvalidArgument`] if an array `fill_value`
/// does not broadcast to the shape.
pub fn full_like(
    a: impl Into<Value>,
    fill_value: impl Into<Value>,
    dtype: Option<DType>,
    shape: Option<&[usize]>,
) -> Result<Tensor> {
    let a = to_tensor(a)?;
    let d = dtype.unwrap_or(a.dtype());
    let weak = a.is_weak() && dtype.is_none();
    let fill = match fill_value.into() {
        Value::Literal(s) => {
            return match shape {
                None => crate::full_like(&a, s, dtype),
                Some(shape) => Ok(crate::full(shape, s, d)?.with_weak(weak)),
            };
        }
        v => to_tensor(v)?.cast(d)?,
    };
    Ok(broadcast_fill("full_like", &fill, shape.unwrap_or(a.shape()))?.with_weak(weak))
}

/// `fill` broadcast to `shape` (a view), or `op`'s error naming both shapes.
fn broadcast_fill(op: &str, fill: &Tensor, shape: &[usize]) -> Result<Tensor> {
    fill.broadcast_to(shape).map_err(|_| {
        crate::Error::InvalidArgument(format!(
            "{op}: fill_value of shape {:?} does not broadcast to shape {shape:?}",
            fill.shape()
        ))
    })
}

/// `fill_value` broadcast to `shape` (`tnp.full`): any array-like that
/// broadcasts, in its own dtype or `dtype` (cast semantics), every bit of the
/// value kept (-0.0, NaN payloads). Strong, as in TF; a zero-copy broadcast
/// view of the (converted) value.
///
/// ```
/// use lattensor::{tnp, DType};
/// let f = tnp::full(&[2, 2], [1, 2], None).unwrap();
/// assert_eq!((f.dtype(), f.is_weak(), f.to_vec::<i32>().unwrap()), (DType::I32, false, vec![1, 2, 1, 2]));
/// let h = tnp::full(&[3], 2.5, Some(DType::F16)).unwrap();
/// assert_eq!(h.to_vec::<half::f16>().unwrap(), vec![half::f16::from_f32(2.5); 3]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `fill_value` does not broadcast to `shape`.
pub fn full(shape: &[usize], fill_value: impl Into<Value>, dtype: Option<DType>) -> Result<Tensor> {
    let value = to_tensor(fill_value)?;
    let value = value.cast(dtype.unwrap_or(value.dtype()))?;
    Ok(broadcast_fill("full", &value, shape)?.with_weak(false))
}

/// Evenly spaced values in `[start, stop)` (`tnp.arange`); with `stop = None` the
/// range is `[0, start)`. Without `dtype` the result type is the lattice join of the
/// literals and weak (`arange(5, …)` is `i32*`, with a float argument `f32*`); with
/// `dtype` it is strong.
///
/// ```
/// use lattensor::{numpy, DType};
/// let r = numpy::arange(5, None, 1, None).unwrap();
/// assert_eq!((r.dtype(), r.is_weak(), r.to_vec::<i32>().unwrap()), (DType::I32, true, vec![0, 1, 2, 3, 4]));
/// let f = numpy::arange(-1.5, Some(2.into()), 1, None).unwrap();
/// assert_eq!(f.to_vec::<f32>().unwrap(), vec![-1.5, -0.5, 0.5, 1.5]);
/// ```
///
/// # Errors
/// [`Error::InvalidType`] for a complex argument and [`Error::InvalidValue`] for a
/// zero step (TF's `TypeError` and `ValueError`); [`Error::InvalidArgument`] for a
/// non-finite one.
pub fn arange(
    start: impl Into<Scalar>,
    stop: Option<Scalar>,
    step: impl Into<Scalar>,
    dtype: Option<DType>,
) -> Result<Tensor> {
    let (start, stop) = match stop {
        Some(s) => (start.into(), s),
        None => (Scalar::Int(0), start.into()),
    };
    let step = step.into();
    // TF's `arange` compares the bounds and tests the step in Python before any kernel runs
    if [start, stop, step].iter().any(|s| matches!(s, Scalar::Complex(_))) {
        crate::bail!(
            InvalidType,
            "arange: start {start}, stop {stop} and step {step} must be real numbers; a range of complex numbers has no order"
        );
    }
    if step.to::<f64>() == 0.0 {
        crate::bail!(InvalidValue, "arange: the step must be non-zero (start {start}, stop {stop})");
    }
    Ok(crate::arange(start, stop, step, dtype)?.with_weak(dtype.is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_unless_dtype() {
        assert!(array(1.0, None, false, 0).unwrap().is_weak());
        assert!(!asarray(1.0, Some(DType::F32)).unwrap().is_weak());
        assert!(!arange(3, None, 1, Some(DType::I8)).unwrap().is_weak());
        let t = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
        assert!(!array(&t, None, false, 0).unwrap().is_weak());
        assert!(!array(&t, None, true, 0).unwrap().shares_storage_with(&t));
        assert_eq!(ascontiguousarray(2.5, None).unwrap().shape(), &[1]);
    }

    #[test]
    fn float64_targets_read_the_literals_exactly() {
        // 2^24 + 1 and 1e-300 have no float32 value; a pass through the list's f32* loses them
        let v = vec![16_777_217.0f64, 1e-300, 1e300];
        assert_eq!(asarray(v.clone(), Some(DType::F64)).unwrap().to_vec::<f64>().unwrap(), v);
        let a = array(vec![v.clone()], Some(DType::F64), true, 0).unwrap();
        assert_eq!((a.shape(), a.is_weak()), (&[1usize, 3][..], false));
        assert_eq!(a.to_vec::<f64>().unwrap(), v);
        assert!(asarray(vec![1.5f64], None).unwrap().is_weak());
    }

    #[test]
    fn arange_refusals_carry_tf_classes() {
        use crate::Category;
        let zero = arange(0, Some(5.into()), 0, None).unwrap_err();
        assert_eq!(zero.category(), Category::InvalidValue, "{zero}");
        let c = arange(1, Some(2.into()), num_complex::Complex64::new(0.0, 1.0), None).unwrap_err();
        assert_eq!(c.category(), Category::InvalidType, "{c}");
    }

    #[test]
    fn full_like_with_shape_keeps_the_converted_value() {
        let t = Tensor::from_vec(vec![1u64, 2], &[2]).unwrap();
        let f = full_like(&t, u64::MAX, None, Some(&[3][..])).unwrap();
        assert_eq!(f.to_vec::<u64>().unwrap(), vec![u64::MAX; 3]);
        let e = full_like(Tensor::zeros(&[0], DType::F32).unwrap(), 1, None, Some(&[2][..])).unwrap();
        assert_eq!(e.to_vec::<f32>().unwrap(), vec![1.0, 1.0]);
    }
}
