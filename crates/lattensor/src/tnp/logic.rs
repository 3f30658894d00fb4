//! Truth values and comparisons: `logical_*`, `isnan`/`isinf`/…, `isclose`,
//! `allclose`, `array_equal`, `all`, `any`, `count_nonzero`.
//!
//! NumPy's truth of a number: nonzero is true (NaN included). Every result is
//! a strong bool tensor, except `count_nonzero` (strong int64).

use super::{Value, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::ops::{self, Axes};
use crate::{DType, Tensor};

/// `x` as bool: nonzero is true.
pub(super) fn truth(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool { Ok(x.clone()) } else { ops::not_equal(x, 0) }
}

fn bools(x: &Tensor, value: bool) -> Result<Tensor> {
    Tensor::scalar(value).broadcast_to(x.shape())?.contiguous()
}

macro_rules! logical_binary {
    ($($(#[$doc:meta])* $name:ident => $op:path;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        /// [`Error::ShapeMismatch`] for shapes that do not broadcast.
        pub fn $name(x1: impl Into<Value>, x2: impl Into<Value>) -> Result<Tensor> {
            $op(&truth(&to_tensor(x1)?)?, &truth(&to_tensor(x2)?)?)
        }
    )*};
}

logical_binary! {
    /// `tnp.logical_and` of the operands' truth values.
    ///
    /// ```
    /// let y = lattensor::tnp::logical_and([0.0, 2.0, f64::NAN], 3).unwrap();
    /// assert_eq!(y.to_vec::<bool>().unwrap(), vec![false, true, true]);
    /// ```
    logical_and => ops::logical_and;
    /// `tnp.logical_or` of the operands' truth values.
    logical_or => ops::logical_or;
    /// `tnp.logical_xor` of the operands' truth values.
    logical_xor => ops::logical_xor;
}

/// `tnp.logical_not` of the operand's truth value.
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn logical_not(x: impl Into<Value>) -> Result<Tensor> {
    ops::logical_not(&truth(&to_tensor(x)?)?)
}

/// `test` of a float tensor, of either part of a complex one (NumPy's rule);
/// `other` for integers and bool.
fn either_part(x: &Tensor, test: fn(&Tensor) -> Result<Tensor>, other: bool) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return ops::logical_or(&test(&ops::real(x)?)?, &test(&ops::imag(x)?)?);
    }
    if !x.dtype().is_float() {
        return bools(x, other);
    }
    test(x)
}

/// Whether each element is NaN (`tnp.isnan`); integers and bool never are; a
/// complex number is if either part is (NumPy's rule; TF has no complex kernel).
///
/// ```
/// let y = lattensor::tnp::isnan([1.0, f64::NAN]).unwrap();
/// assert_eq!(y.to_vec::<bool>().unwrap(), vec![false, true]);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn isnan(x: impl Into<Value>) -> Result<Tensor> {
    either_part(&to_tensor(x)?, ops::is_nan, false)
}

/// Whether each element is ±inf (`tnp.isinf`); complex: either part.
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn isinf(x: impl Into<Value>) -> Result<Tensor> {
    either_part(&to_tensor(x)?, ops::is_inf, false)
}

/// Whether each element is neither infinite nor NaN (`tnp.isfinite`);
/// integers and bool always are; complex: both parts.
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn isfinite(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if x.dtype().is_complex() {
        return ops::logical_and(&ops::is_finite(&ops::real(&x)?)?, &ops::is_finite(&ops::imag(&x)?)?);
    }
    if !x.dtype().is_float() {
        return bools(&x, true);
    }
    ops::is_finite(&x)
}

fn signed_inf(x: impl Into<Value>, positive: bool) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if !x.dtype().is_float() {
        return bools(&x, false);
    }
    let side = if positive { ops::greater(&x, 0)? } else { ops::less(&x, 0)? };
    ops::logical_and(&ops::is_inf(&x)?, &side)
}

/// Whether each element is +inf (`tnp.isposinf`; all false for integers,
/// bool and complex, as NumPy).
///
/// ```
/// let y = lattensor::tnp::isposinf([f64::INFINITY, f64::NEG_INFINITY]).unwrap();
/// assert_eq!(y.to_vec::<bool>().unwrap(), vec![true, false]);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn isposinf(x: impl Into<Value>) -> Result<Tensor> {
    signed_inf(x, true)
}

/// Whether each element is -inf (`tnp.isneginf`); as [`isposinf`].
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn isneginf(x: impl Into<Value>) -> Result<Tensor> {
    signed_inf(x, false)
}

/// Whether each element's imaginary part is zero (`tnp.isreal`; always for
/// non-complex dtypes).
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn isreal(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if x.dtype().is_complex() { ops::equal(&ops::imag(&x)?, 0) } else { bools(&x, true) }
}

/// Whether each element's imaginary part is nonzero (`tnp.iscomplex`; never
/// for non-complex dtypes).
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn iscomplex(x: impl Into<Value>) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if x.dtype().is_complex() { ops::not_equal(&ops::imag(&x)?, 0) } else { bools(&x, false) }
}

/// `|a - b| <= atol + rtol·|b|` element-wise (`tnp.isclose`), as NumPy:
/// infinities are close only to themselves, NaN to nothing (to NaN if
/// `equal_nan`). The operands join through the lattice; integer and bool
/// joins compare in float64.
///
/// ```
/// let y = lattensor::tnp::isclose([1.0, 1.1, f64::NAN], [1.0 + 1e-9, 1.0, f64::NAN], 1e-5, 1e-8, true).unwrap();
/// assert_eq!(y.to_vec::<bool>().unwrap(), vec![true, false, true]);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses the operands;
/// [`Error::ShapeMismatch`] for shapes that do not broadcast.
pub fn isclose(a: impl Into<Value>, b: impl Into<Value>, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    let (x, y) = (to_tensor(a)?, to_tensor(b)?);
    // the operands as given join in the current mode before integers are made float64
    let j = crate::promote::result_type_for(
        "isclose",
        &[x.lattice_type(), y.lattice_type()],
        crate::promote::current_mode(),
    )?;
    let dt = if j.dtype.is_inexact() { j.dtype } else { DType::F64 };
    let (x, y) = (x.cast(dt)?, y.cast(dt)?);
    let (ax, ay) = (ops::abs(&x)?, ops::abs(&y)?);
    let finite = ops::logical_and(&ops::is_finite(&ax)?, &ops::is_finite(&ay)?)?;
    // `atol + rtol * ay`: Python float arithmetic with a tensor, as NumPy writes it
    let bound = ops::add(&ops::multiply(&ay, rtol)?, atol)?;
    let close = ops::less_equal(&ops::abs(&ops::subtract(&x, &y)?)?, &bound)?;
    let out = crate::where_(&finite, &close, &ops::equal(&x, &y)?)?;
    if equal_nan {
        return ops::logical_or(&out, &ops::logical_and(&ops::is_nan(&ax)?, &ops::is_nan(&ay)?)?);
    }
    Ok(out)
}

/// Whether every element is [`isclose`] (`tnp.allclose`); a bool scalar.
///
/// ```
/// assert!(lattensor::tnp::allclose([1.0, 2.0], [1.0, 2.0 + 1e-7], 1e-5, 1e-8, false).unwrap().item::<bool>().unwrap());
/// ```
///
/// # Errors
/// As [`isclose`].
pub fn allclose(a: impl Into<Value>, b: impl Into<Value>, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    let c = isclose(a, b, rtol, atol, equal_nan)?;
    Ok(Tensor::scalar(c.to_vec::<bool>()?.iter().all(|&v| v)))
}

/// Whether the inputs have the same shape and equal elements
/// (`tnp.array_equal`; compared in their lattice join, NaN unequal to NaN); a
/// bool scalar.
///
/// ```
/// use lattensor::tnp;
/// assert!(tnp::array_equal([1, 2], [1.0, 2.0]).unwrap().item::<bool>().unwrap());
/// assert!(!tnp::array_equal([1, 2], [1, 2, 3]).unwrap().item::<bool>().unwrap());
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses the operands.
pub fn array_equal(a1: impl Into<Value>, a2: impl Into<Value>) -> Result<Tensor> {
    let (x, y) = (to_tensor(a1)?, to_tensor(a2)?);
    if !crate::core::layout::same_shape(x.shape(), y.shape()) {
        return Ok(Tensor::scalar(false));
    }
    Ok(Tensor::scalar(ops::equal(&x, &y)?.to_vec::<bool>()?.iter().all(|&v| v)))
}

/// The number of true (nonzero) elements of `x` along `axis`, int64.
fn count_true(x: &Tensor, axis: Axes, keepdims: bool) -> Result<Tensor> {
    ops::reduce_sum(&truth(x)?.cast(DType::I64)?, axis, keepdims)
}

/// Whether every element along `axis` is true (nonzero) (`tnp.all`; true for
/// no elements).
///
/// ```
/// use lattensor::tnp;
/// let y = tnp::all(vec![vec![1, 0], vec![2, 3]], 1, false).unwrap();
/// assert_eq!(y.to_vec::<bool>().unwrap(), vec![false, true]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range.
pub fn all(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    let (x, axis) = (to_tensor(a)?, axis.into());
    if let Some(t) = scan_every_axis(&x, &axis, keepdims, false)? {
        return Ok(t);
    }
    let x = ops::logical_not(&truth(&x)?)?;
    ops::equal(&count_true(&x, axis, keepdims)?, 0)
}

/// Whether some element along `axis` is true (nonzero) (`tnp.any`; false for
/// no elements).
///
/// # Errors
/// As [`all`].
pub fn any(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    let (x, axis) = (to_tensor(a)?, axis.into());
    if let Some(t) = scan_every_axis(&x, &axis, keepdims, true)? {
        return Ok(t);
    }
    ops::greater(&count_true(&x, axis, keepdims)?, 0)
}

/// [`any`] (`some`) or [`all`] (`!some`) of a contiguous bool tensor over every
/// axis, by scanning its bytes for one that decides: a NaN mask of 256 Ki
/// elements in a few µs, where counting through an int64 sum took 87 µs.
/// `None` for other inputs, which take the count.
fn scan_every_axis(x: &Tensor, axis: &Axes, keepdims: bool, some: bool) -> Result<Option<Tensor>> {
    // every axis: `All`, or each axis once (the Array API's axis=None arrives as the
    // full tuple); invalid axes take the count path, which reports them
    let every = |axis: &Axes| axis.reduced("any", x.shape()).is_ok_and(|r| r.iter().all(|&r| r));
    let Some(values) = x.as_slice::<bool>().filter(|_| every(axis)) else {
        return Ok(None);
    };
    // any: some element true; all: no element false. Blocks without an early exit
    // inside vectorise; the scan stops at the first block that decides.
    let found = values.chunks(256).any(|block| block.iter().fold(false, |seen, &v| seen | (v == some)));
    let shape = if keepdims { vec![1; x.rank()] } else { Vec::new() };
    Tensor::from_vec(vec![found == some], &shape).map(Some)
}

/// The number of nonzero (true; NaN counts) elements along `axis`
/// (`tnp.count_nonzero`, `tf.math.count_nonzero`), strong int64; `keepdims`
/// keeps the counted axes with length 1.
///
/// ```
/// let n = lattensor::tnp::count_nonzero([0.0, f64::NAN, 2.0], None, false).unwrap();
/// assert_eq!(n.item::<i64>().unwrap(), 2);
/// let m = lattensor::tnp::count_nonzero(vec![vec![0, 1], vec![2, 3]], 1, true).unwrap();
/// assert_eq!((m.shape(), m.to_vec::<i64>().unwrap()), (&[2usize, 1][..], vec![1, 2]));
/// ```
///
/// # Errors
/// As [`all`].
pub fn count_nonzero(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    count_true(&to_tensor(a)?, axis.into(), keepdims)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte scan over every axis against the count it replaces (which a
    /// strided view of the same values still takes), at block edges, with no
    /// element and with keepdims.
    #[test]
    fn scans_agree_with_counts() {
        for len in [0usize, 1, 255, 256, 257, 600] {
            for hit in [None, Some(0), Some(len / 2), Some(len.saturating_sub(1)), Some(255)] {
                for base in [false, true] {
                    let mut v = vec![base; len];
                    if let Some(i) = hit.filter(|&i| i < len) {
                        v[i] = !base;
                    }
                    // the same values at even positions of a longer tensor: a strided view
                    let doubled: Vec<bool> = v.iter().flat_map(|&b| [b, !b]).collect();
                    let wide = Tensor::from_vec(doubled, &[len, 2]).unwrap();
                    let strided = wide
                        .slice(&[
                            crate::SliceArg::Range { start: None, stop: None, step: 1 },
                            crate::SliceArg::Index(0),
                        ])
                        .unwrap();
                    assert!(len < 2 || strided.as_slice::<bool>().is_none());
                    let x = Tensor::from_vec(v.clone(), &[len]).unwrap();
                    for keepdims in [false, true] {
                        for (name, f) in [("any", any as fn(Tensor, Axes, bool) -> Result<Tensor>), ("all", all)] {
                            let (scan, count) = (
                                f(x.clone(), Axes::All, keepdims).unwrap(),
                                f(strided.clone(), Axes::All, keepdims).unwrap(),
                            );
                            assert_eq!(scan.shape(), count.shape(), "{name} len {len}");
                            assert_eq!(scan.to_vec::<bool>().unwrap(), count.to_vec::<bool>().unwrap(), "{name} {v:?}");
                            let want = if name == "any" { v.iter().any(|&b| b) } else { v.iter().all(|&b| b) };
                            assert_eq!(scan.to_vec::<bool>().unwrap(), vec![want], "{name} len {len} hit {hit:?}");
                            // every axis named (as the Array API's axis=None arrives), and from the end
                            for named in [Axes::Some(vec![0]), Axes::Some(vec![-1])] {
                                let t = f(x.clone(), named, keepdims).unwrap();
                                assert_eq!((t.shape(), t.to_vec::<bool>().unwrap()), (scan.shape(), vec![want]));
                            }
                        }
                    }
                }
            }
        }
    }
}
