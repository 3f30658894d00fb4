//! Reductions and scans: `sum`, `prod`, `mean`, `amax`/`amin`/`max`/`min`,
//! `std`, `var`, `nanmean`, `average`, `cumsum`, `cumprod`, `trace`.
//!
//! `sum`, `prod`, `cumsum`, `cumprod` and `trace` widen bool and integers
//! narrower than 32 bits to 32 bits (keeping signedness); `mean`, `std`,
//! `var`, `nanmean` and `average` compute bool and integers in float32.
//! An explicit `dtype` casts the input first and makes the result strong.
//! Floats accumulate in f64 (so f16/bf16 accumulate in more than f32) and are
//! rounded once.

use num_complex::Complex64;

use super::{Axes, Value, cast_opt, to_inexact, to_tensor, widened_int};
use crate::core::error::{Error, Result};
use crate::core::layout::normalize_axis;
use crate::core::tape::{self, TapeOp};
use crate::ops::{self, unary::unsupported};
use crate::promote::{self, LatticeType};
use crate::{DType, Element, Tensor, with_dtype};

/// `x` as `d`, keeping its weakness (a no-op when it already is).
fn retype(x: &Tensor, d: DType) -> Result<Tensor> {
    if x.dtype() == d {
        return Ok(x.clone());
    }
    Ok(x.cast(d)?.with_weak(x.is_weak()))
}

/// `any` (for `max`) or `all` (for `min`) of a bool tensor, as a strong bool.
fn bool_reduce(x: &Tensor, axis: Axes, keepdims: bool, any: bool) -> Result<Tensor> {
    let u = x.cast(DType::U8)?;
    let r = if any { ops::reduce_max(&u, axis, keepdims)? } else { ops::reduce_min(&u, axis, keepdims)? };
    r.cast(DType::Bool)
}

/// Sum over `axis` (`tnp.sum`).
///
/// Without `dtype`, bool, int8 and int16 sum in int32 and uint8/uint16 in
/// uint32 (tnp's WeakTensor-mode rule; NumPy would use 64 bits); other dtypes
/// are kept, and so is weakness. With `dtype` the input is cast first and the
/// result is strong (`dtype = Bool` gives logical OR). Integers wrap.
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let x = Tensor::from_vec(vec![200u8, 100, 1, 2], &[2, 2]).unwrap();
/// let s = numpy::sum(&x, 0, None, false).unwrap();
/// assert_eq!((s.dtype(), s.to_vec::<u32>().unwrap()), (DType::U32, vec![201, 102]));
/// let w = numpy::sum(vec![1.5, 2.0], None, None, true).unwrap();
/// assert_eq!((w.is_weak(), w.shape(), w.to_vec::<f32>().unwrap()), (true, &[1usize][..], vec![3.5]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range or repeated.
pub fn sum(a: impl Into<Value>, axis: impl Into<Axes>, dtype: Option<DType>, keepdims: bool) -> Result<Tensor> {
    let a = to_tensor(a)?;
    if dtype == Some(DType::Bool) {
        return bool_reduce(&a.cast(DType::Bool)?, axis.into(), keepdims, true);
    }
    let x = match dtype {
        Some(d) => a.cast(d)?,
        None => retype(&a, widened_int(a.dtype()))?,
    };
    ops::reduce_sum(&x, axis, keepdims)
}

/// Product over `axis` (`tnp.prod`); dtypes as [`sum`] (`dtype = Bool` gives logical AND).
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let x = Tensor::from_vec(vec![100i8, 100], &[2]).unwrap();
/// let p = numpy::prod(&x, None, None, false).unwrap();
/// assert_eq!((p.dtype(), p.item::<i32>().unwrap()), (DType::I32, 10000));
/// ```
///
/// # Errors
/// As [`sum`].
pub fn prod(a: impl Into<Value>, axis: impl Into<Axes>, dtype: Option<DType>, keepdims: bool) -> Result<Tensor> {
    let a = to_tensor(a)?;
    if dtype == Some(DType::Bool) {
        return bool_reduce(&a.cast(DType::Bool)?, axis.into(), keepdims, false);
    }
    let x = match dtype {
        Some(d) => a.cast(d)?,
        None => retype(&a, widened_int(a.dtype()))?,
    };
    ops::reduce_prod(&x, axis, keepdims)
}

/// Arithmetic mean over `axis` (`tnp.mean`). Bool and integers are averaged in
/// float32 (`mean([1, 2])` is `1.5` as `f32*`); with `dtype` the input is cast
/// first (an integer `dtype` truncates the mean toward zero) and the result is strong.
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let x = Tensor::from_vec(vec![1i32, 2, 3, 5], &[2, 2]).unwrap();
/// let m = numpy::mean(&x, 1, None, false).unwrap();
/// assert_eq!((m.dtype(), m.to_vec::<f32>().unwrap()), (DType::F32, vec![1.5, 4.0]));
/// ```
///
/// # Errors
/// As [`sum`].
pub fn mean(a: impl Into<Value>, axis: impl Into<Axes>, dtype: Option<DType>, keepdims: bool) -> Result<Tensor> {
    let a = to_tensor(a)?;
    let x = match dtype {
        Some(d) => a.cast(d)?,
        None => to_inexact(&a)?,
    };
    ops::reduce_mean(&x, axis, keepdims)
}

fn extremum(a: impl Into<Value>, axis: Axes, keepdims: bool, max: bool) -> Result<Tensor> {
    let a = to_tensor(a)?;
    if a.dtype().is_bool() {
        return bool_reduce(&a, axis, keepdims, max);
    }
    if max { ops::reduce_max(&a, axis, keepdims) } else { ops::reduce_min(&a, axis, keepdims) }
}

/// Maximum over `axis` (`tnp.amax`); keeps dtype and weakness; bool gives logical OR;
/// NaN propagates.
///
/// ```
/// let m = lattensor::numpy::amax(vec![vec![1, 5], vec![3, 2]], 0, false).unwrap();
/// assert_eq!(m.to_vec::<i32>().unwrap(), vec![3, 5]);
/// ```
///
/// # Errors
/// As [`sum`]; [`Error::UnsupportedDType`] for complex (as TF).
pub fn amax(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    extremum(a, axis.into(), keepdims, true)
}

/// Minimum over `axis` (`tnp.amin`); as [`amax`], bool gives logical AND.
///
/// ```
/// assert_eq!(lattensor::numpy::amin(vec![3.0, -1.0], None, false).unwrap().item::<f32>().unwrap(), -1.0);
/// ```
///
/// # Errors
/// As [`amax`].
pub fn amin(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    extremum(a, axis.into(), keepdims, false)
}

/// Same as [`amax`] (`tnp.max`).
///
/// ```
/// assert_eq!(lattensor::numpy::max(vec![3, 7], None, false).unwrap().item::<i32>().unwrap(), 7);
/// ```
///
/// # Errors
/// As [`amax`].
pub fn max(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    amax(a, axis, keepdims)
}

/// Same as [`amin`] (`tnp.min`).
///
/// ```
/// assert_eq!(lattensor::numpy::min(vec![3, 7], None, false).unwrap().item::<i32>().unwrap(), 3);
/// ```
///
/// # Errors
/// As [`amin`].
pub fn min(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    amin(a, axis, keepdims)
}

/// `max - min` over `axis` (`tnp.ptp`), in the input's dtype and weakness;
/// integers wrap, as NumPy and TF.
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let x = Tensor::from_vec(vec![100i8, -100, 3, 5], &[2, 2]).unwrap();
/// let p = numpy::ptp(&x, 1, false).unwrap(); // 100 - (-100) wraps in int8
/// assert_eq!((p.dtype(), p.to_vec::<i8>().unwrap()), (DType::I8, vec![-56, 2]));
/// assert_eq!(numpy::ptp(vec![1.5, -1.0], None, false).unwrap().item::<f32>().unwrap(), 2.5);
/// ```
///
/// # Errors
/// As [`amax`]; [`Error::UnsupportedDType`] for bool (no subtraction).
pub fn ptp(a: impl Into<Value>, axis: impl Into<Axes>, keepdims: bool) -> Result<Tensor> {
    let (a, axis) = (to_tensor(a)?, axis.into());
    ops::subtract(&amax(&a, axis.clone(), keepdims)?, &amin(&a, axis, keepdims)?)
}

/// Standard deviation over `axis` with `ddof` delta degrees of freedom (`tnp.std`;
/// tnp's own `std` has no `ddof`, NumPy's does). Bool and integers are computed in
/// float32; complex inputs give their real dtype; weakness is kept.
///
/// ```
/// let s = lattensor::numpy::std(vec![1, 3], None, 0, false).unwrap();
/// assert_eq!((s.is_weak(), s.item::<f32>().unwrap()), (true, 1.0));
/// ```
///
/// # Errors
/// As [`sum`].
pub fn std(a: impl Into<Value>, axis: impl Into<Axes>, ddof: usize, keepdims: bool) -> Result<Tensor> {
    let x = to_inexact(&to_tensor(a)?)?;
    ops::reduce::variance("std", &x, axis.into(), keepdims, true, ddof as f64)
}

/// [`std`](fn@std) with NumPy's `dtype` argument: as [`var`] does with it, the computation
/// runs in the promotion of the input's dtype with `dtype` (checked in the current
/// mode before the input is made inexact), and the result is cast to `dtype` (strong).
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let x = Tensor::from_vec(vec![1i16, 3], &[2]).unwrap();
/// let s = numpy::std_dtype(&x, None, Some(DType::F64), 0, false).unwrap();
/// assert_eq!((s.dtype(), s.is_weak(), s.item::<f64>().unwrap()), (DType::F64, false, 1.0));
/// ```
///
/// # Errors
/// As [`var`].
pub fn std_dtype(
    a: impl Into<Value>,
    axis: impl Into<Axes>,
    dtype: Option<DType>,
    ddof: usize,
    keepdims: bool,
) -> Result<Tensor> {
    spread("std", true, to_tensor(a)?, axis.into(), dtype, ddof, keepdims)
}

/// The input of `var`/`std` with `dtype`: `a` cast to its promotion with `dtype`
/// in the current mode (the pair as given is checked, so SAFE refuses int32 with
/// float32 as `add` does), then made inexact.
fn working_input(op: &str, a: Tensor, dtype: Option<DType>) -> Result<Tensor> {
    match dtype {
        Some(d) => {
            let working = promote::promote_for(
                op,
                LatticeType::strong(a.dtype()),
                LatticeType::strong(d),
                promote::current_mode(),
            )?;
            to_inexact(&a.cast(working.dtype)?)
        }
        None => to_inexact(&a),
    }
}

/// Variance over `axis` with `ddof` delta degrees of freedom (`tnp.var`): the squared
/// deviations are divided by `n - ddof`. Bool and integers are computed in float32;
/// complex inputs give their real dtype. With `dtype`, the computation runs in the
/// promotion of the input's dtype with `dtype`, and the result is cast to `dtype` (strong).
///
/// ```
/// let v = lattensor::numpy::var(vec![1.0, 2.0, 3.0, 4.0], None, None, 1, false).unwrap();
/// assert_eq!(v.item::<f32>().unwrap(), 5.0 / 3.0);
/// ```
///
/// # Errors
/// As [`sum`]; [`Error::Promotion`] if the mode refuses the input's dtype with `dtype`.
pub fn var(
    a: impl Into<Value>,
    axis: impl Into<Axes>,
    dtype: Option<DType>,
    ddof: usize,
    keepdims: bool,
) -> Result<Tensor> {
    spread("var", false, to_tensor(a)?, axis.into(), dtype, ddof, keepdims)
}

/// `var` (or, with `sqrt`, `std`) of `a` with `dtype`: computed on [`working_input`],
/// the result cast to `dtype` if given.
fn spread(
    op: &str,
    sqrt: bool,
    a: Tensor,
    axis: Axes,
    dtype: Option<DType>,
    ddof: usize,
    keepdims: bool,
) -> Result<Tensor> {
    let x = working_input(op, a, dtype)?;
    cast_opt(ops::reduce::variance(op, &x, axis, keepdims, sqrt, ddof as f64)?, dtype)
}

/// `a` with its NaNs replaced by `fill` (0 or 1), keeping dtype and weakness;
/// bool and integers, which have no NaN, as they are.
fn nan_to(a: impl Into<Value>, fill: i32) -> Result<Tensor> {
    let a = to_tensor(a)?;
    if !a.dtype().is_inexact() {
        return Ok(a);
    }
    let filler = crate::full_like(&a, fill, None)?;
    crate::where_(&super::isnan(&a)?, &filler, &a)
}

/// [`sum`] with NaNs counted as zero (`tnp.nansum`); dtype and weakness are
/// `sum`'s (small integers widen to 32 bits; a weak input gives a weak result,
/// where TF's nansum is strong). Complex numbers with a NaN part count as zero.
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let s = numpy::nansum(vec![1.0, f64::NAN, 2.0], None, None, false).unwrap();
/// assert_eq!((s.dtype(), s.is_weak(), s.item::<f32>().unwrap()), (DType::F32, true, 3.0));
/// let i = numpy::nansum(&Tensor::from_vec(vec![1i8, 2], &[2]).unwrap(), None, None, false).unwrap();
/// assert_eq!((i.dtype(), i.item::<i32>().unwrap()), (DType::I32, 3));
/// ```
///
/// # Errors
/// As [`sum`].
pub fn nansum(a: impl Into<Value>, axis: impl Into<Axes>, dtype: Option<DType>, keepdims: bool) -> Result<Tensor> {
    sum(&nan_to(a, 0)?, axis, dtype, keepdims)
}

/// [`prod`] with NaNs counted as one (`tnp.nanprod`); dtype and weakness are `prod`'s.
///
/// ```
/// use lattensor::{numpy, DType, Tensor};
/// let m = Tensor::from_vec(vec![2.0f64, f64::NAN, 2.0, 3.0], &[2, 2]).unwrap();
/// let p = numpy::nanprod(&m, 1, None, false).unwrap();
/// assert_eq!((p.dtype(), p.to_vec::<f64>().unwrap()), (DType::F64, vec![2.0, 6.0]));
/// ```
///
/// # Errors
/// As [`sum`].
pub fn nanprod(a: impl Into<Value>, axis: impl Into<Axes>, dtype: Option<DType>, keepdims: bool) -> Result<Tensor> {
    prod(&nan_to(a, 1)?, axis, dtype, keepdims)
}

/// Mean over `axis` ignoring NaNs (`tnp.nanmean`); a slice of only NaNs gives NaN.
/// Bool and integers behave as [`mean`]. With `dtype` the result is cast to it (strong).
///
/// ```
/// let m = lattensor::numpy::nanmean(vec![1.0, f64::NAN, 3.0], None, None, false).unwrap();
/// assert_eq!(m.item::<f32>().unwrap(), 2.0);
/// ```
///
/// # Errors
/// As [`sum`]; [`Error::UnsupportedDType`] for complex (as TF).
pub fn nanmean(a: impl Into<Value>, axis: impl Into<Axes>, dtype: Option<DType>, keepdims: bool) -> Result<Tensor> {
    let a = to_tensor(a)?;
    let d = a.dtype();
    if !d.is_inexact() {
        return mean(&a, axis, dtype, keepdims);
    }
    if d.is_complex() {
        return Err(unsupported("nanmean", d, "bool, integers and real floats"));
    }
    let axis = axis.into();
    // in float64 (exact for every real float), NaNs summed as 0 and not counted
    let (clean, count) = if tape::recording() {
        // the same values from recorded ops, so that the gradient reaches the numbers that count
        let nan = super::isnan(&a)?;
        let x = a.cast(DType::F64)?;
        (crate::where_(&nan, &crate::zeros_like(&x, None)?, &x)?, ops::logical_not(&nan)?.cast(DType::F64)?)
    } else {
        let mut clean = Tensor::zeros(a.shape(), DType::F64)?;
        crate::kernels::unary::<f64, f64, _>(&a, clean.data_mut(), |v| if v.is_nan() { 0.0 } else { v });
        let mut count = Tensor::zeros(a.shape(), DType::F64)?;
        crate::kernels::unary::<f64, f64, _>(&a, count.data_mut(), |v| if v.is_nan() { 0.0 } else { 1.0 });
        (clean, count)
    };
    let s = ops::reduce_sum(&clean, axis.clone(), keepdims)?;
    let n = ops::reduce_sum(&count, axis, keepdims)?;
    let m = ops::divide(&s, &n)?;
    match dtype {
        Some(t) => m.cast(t),
        None => Ok(m.cast(d)?.with_weak(a.is_weak())),
    }
}

/// Weighted average over `axis` (`tnp.average`): `Σ a·w / Σ w`, or the mean without weights.
///
/// Bool and integer inputs are computed in float32 (weak inputs stay weak); the
/// result type is then the lattice promotion of `a` and `weights`
/// (`float16` data with `f32*` weights stays `float16`). `weights` has `a`'s shape,
/// or is 1-D with the length of `a` along `axis`. See [`average_returned`] for the
/// sum of weights as well.
///
/// ```
/// use lattensor::{constant, numpy};
/// let w = constant([3.0, 1.0]).unwrap();
/// let a = numpy::average(vec![1.0, 5.0], None, Some(&w)).unwrap();
/// assert_eq!(a.item::<f32>().unwrap(), 2.0);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range or weights of the wrong shape;
/// [`Error::Promotion`] if the mode refuses `a` with `weights` as given (SAFE
/// refuses int32 data with float32 weights, before `a` is made inexact).
pub fn average(a: impl Into<Value>, axis: Option<isize>, weights: Option<&Tensor>) -> Result<Tensor> {
    average_returned(a, axis, weights).map(|(avg, _)| avg)
}

/// [`average`] and the sum of the weights, broadcast to the average's shape
/// (`tnp.average(…, returned=True)`); both have the average's dtype and weakness.
///
/// ```
/// use lattensor::{constant, numpy};
/// let w = constant([1.0, 3.0]).unwrap();
/// let (avg, sw) = numpy::average_returned(vec![vec![2.0, 4.0], vec![0.0, 8.0]], Some(1), Some(&w)).unwrap();
/// assert_eq!(avg.to_vec::<f32>().unwrap(), vec![3.5, 6.0]);
/// assert_eq!(sw.to_vec::<f32>().unwrap(), vec![4.0, 4.0]);
/// ```
///
/// # Errors
/// As [`average`].
pub fn average_returned(
    a: impl Into<Value>,
    axis: Option<isize>,
    weights: Option<&Tensor>,
) -> Result<(Tensor, Tensor)> {
    let given = to_tensor(a)?;
    if let Some(w) = weights {
        // the data and the weights as given must join in the mode (SAFE refuses int32 with
        // float32 weights, as TF does) before the data is made inexact
        promote::promote_for("average", given.lattice_type(), w.lattice_type(), promote::current_mode())?;
    }
    let a = to_inexact(&given)?;
    let axes = axis.map_or(Axes::All, |ax| Axes::Some(vec![ax]));
    let Some(w) = weights else {
        let avg = ops::reduce_mean(&a, axes, false)?;
        let n = match axis {
            None => a.numel(),
            Some(ax) => a.shape()[normalize_axis(ax, a.rank(), "average")?],
        };
        let sw = crate::full(avg.shape(), n as u64, avg.dtype())?.with_weak(avg.is_weak());
        return Ok((avg, sw));
    };
    let out = promote::promote_for("average", a.lattice_type(), w.lattice_type(), promote::current_mode())?;
    let (x, w) = (a.cast(out.dtype)?, w.cast(out.dtype)?);
    let (num, sw) = if crate::core::layout::same_shape(w.shape(), x.shape()) {
        let prod = ops::multiply(&x, &w)?;
        (ops::reduce_sum(&prod, axes.clone(), false)?, ops::reduce_sum(&w, axes, false)?)
    } else {
        let (Some(ax), 1) = (axis, w.rank()) else {
            return Err(Error::InvalidArgument(format!(
                "average: weights of shape {:?} differ from the data's shape {:?}; give weights of the data's shape, or 1-D weights with an axis",
                w.shape(),
                x.shape()
            )));
        };
        let ax = normalize_axis(ax, x.rank(), "average")?;
        if w.shape()[0] != x.shape()[ax] {
            return Err(Error::InvalidArgument(format!(
                "average: {} weights do not match the length {} of axis {ax} of the data (shape {:?})",
                w.shape()[0],
                x.shape()[ax],
                x.shape()
            )));
        }
        let mut bshape = vec![1isize; x.rank()];
        bshape[ax] = w.shape()[0] as isize;
        let prod = ops::multiply(&x, &w.reshape(&bshape)?)?;
        let sw = ops::reduce_sum(&w, Axes::All, false)?;
        (ops::reduce_sum(&prod, axes, false)?, sw)
    };
    let avg = ops::divide(&num, &sw)?.with_weak(out.weak);
    let sw = sw.broadcast_to(avg.shape())?.with_weak(out.weak);
    Ok((avg, sw))
}

/// Which scan.
#[derive(Clone, Copy)]
enum Scan {
    Sum,
    Prod,
}

fn scan(op: &str, a: Tensor, axis: Option<isize>, dtype: Option<DType>, kind: Scan) -> Result<Tensor> {
    let x = match dtype {
        Some(d) => a.cast(d)?,
        None => retype(&a, widened_int(a.dtype()))?,
    };
    let (x, ax) = match axis {
        None => (x.reshape(&[-1])?, 0),
        Some(ax) => {
            let ax = normalize_axis(ax, x.rank(), op)?;
            (x, ax)
        }
    };
    if x.rank() == 0 {
        return Err(Error::InvalidArgument(format!("{op}: axis {ax} is out of range for a 0-d tensor")));
    }
    let weak = x.is_weak() && dtype.is_none();
    let desc = || match kind {
        Scan::Sum => TapeOp::Cumsum(ax),
        Scan::Prod => TapeOp::Cumprod(ax),
    };
    tape::op(&[&x], || scan_along(&x, ax, kind, weak), desc)
}

/// The scan `kind` of `x` along axis `ax`, weak if `weak`.
fn scan_along(x: &Tensor, ax: usize, kind: Scan, weak: bool) -> Result<Tensor> {
    // scan along the last axis of a permuted copy, then permute back (a view)
    let r = x.rank();
    let mut perm: Vec<usize> = (0..r).filter(|&i| i != ax).collect();
    perm.push(ax);
    let xt = x.transpose(&perm)?;
    let len = x.shape()[ax];
    let d = x.dtype();
    let mut out = Tensor::zeros(xt.shape(), d)?;
    fn run<A: Copy, T: crate::Element>(
        src: Vec<A>,
        dst: &mut [T],
        len: usize,
        one: A,
        f: impl Fn(A, A) -> A,
        put: impl Fn(A) -> T,
    ) {
        if len == 0 {
            return;
        }
        for (s, o) in src.chunks(len).zip(dst.chunks_mut(len)) {
            let mut acc = one;
            for (v, d) in s.iter().zip(o.iter_mut()) {
                acc = f(acc, *v);
                *d = put(acc);
            }
        }
    }
    let sum = matches!(kind, Scan::Sum);
    with_dtype!(d, T, {
        let dst = out.data_mut::<T>();
        if d.is_complex() {
            let (one, f): (Complex64, fn(Complex64, Complex64) -> Complex64) =
                if sum { (Complex64::new(0.0, 0.0), |a, b| a + b) } else { (Complex64::new(1.0, 0.0), |a, b| a * b) };
            run(xt.to_vec::<Complex64>()?, dst, len, one, f, T::from_c128);
        } else if d.is_float() {
            let (one, f): (f64, fn(f64, f64) -> f64) = if sum { (0.0, |a, b| a + b) } else { (1.0, |a, b| a * b) };
            run(xt.to_vec::<f64>()?, dst, len, one, f, T::from_f64);
        } else if d.is_bool() {
            let f: fn(bool, bool) -> bool = if sum { |a, b| a | b } else { |a, b| a & b };
            run(xt.to_vec::<bool>()?, dst, len, !sum, f, T::from_bool);
        } else {
            // two's-complement arithmetic mod 2⁶⁴, then wrapped to the dtype: exact wrapping
            let (one, f): (i64, fn(i64, i64) -> i64) =
                if sum { (0, i64::wrapping_add) } else { (1, i64::wrapping_mul) };
            run(xt.to_vec::<i64>()?, dst, len, one, f, T::from_i64);
        }
    });
    let mut inv = vec![0usize; r];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    Ok(out.transpose(&inv)?.with_weak(weak))
}

/// Cumulative sum along `axis` (`tnp.cumsum`); `None` scans the flattened input.
/// Dtypes as [`sum`]: bool, int8/int16 → int32, uint8/uint16 → uint32 (TF 2.21 gives
/// int32 for every unsigned type below 64 bits, float32 for uint64, and refuses bool).
/// Floats accumulate in f64, each output rounded once.
///
/// ```
/// let c = lattensor::numpy::cumsum(vec![vec![1, 2], vec![3, 4]], Some(1), None).unwrap();
/// assert_eq!(c.to_vec::<i32>().unwrap(), vec![1, 3, 3, 7]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range.
pub fn cumsum(a: impl Into<Value>, axis: Option<isize>, dtype: Option<DType>) -> Result<Tensor> {
    scan("cumsum", to_tensor(a)?, axis, dtype, Scan::Sum)
}

/// Cumulative product along `axis` (`tnp.cumprod`); as [`cumsum`].
///
/// ```
/// let c = lattensor::numpy::cumprod(vec![1.0, 2.0, 3.0], None, None).unwrap();
/// assert_eq!(c.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 6.0]);
/// ```
///
/// # Errors
/// As [`cumsum`].
pub fn cumprod(a: impl Into<Value>, axis: Option<isize>, dtype: Option<DType>) -> Result<Tensor> {
    scan("cumprod", to_tensor(a)?, axis, dtype, Scan::Prod)
}

/// Sum along a diagonal (`tnp.trace`): [`super::diagonal`]`(a, offset, axis1, axis2)`
/// summed over its last axis with [`sum`]'s dtype rules (int8 → int32, bool → int32).
///
/// ```
/// let m = lattensor::Tensor::from_vec((0..9).collect::<Vec<i8>>(), &[3, 3]).unwrap();
/// let t = lattensor::numpy::trace(&m, 1, 0, 1, None).unwrap();
/// assert_eq!((t.dtype(), t.item::<i32>().unwrap()), (lattensor::DType::I32, 1 + 5));
/// ```
///
/// # Errors
/// As [`super::diagonal`].
pub fn trace(a: impl Into<Value>, offset: isize, axis1: isize, axis2: isize, dtype: Option<DType>) -> Result<Tensor> {
    let d = super::diagonal(a, offset, axis1, axis2)?;
    sum(&d, -1, dtype, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn average_checks_the_given_pair_in_the_mode() {
        use crate::promote::{PromotionMode, with_mode};
        let a = Tensor::from_vec(vec![6i32, 6, 1], &[3]).unwrap();
        let w = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
        // TF: SAFE refuses int32 with float32 weights, as tf.math.add does
        let e = with_mode(PromotionMode::Safe, || average(&a, None, Some(&w))).unwrap_err();
        assert_eq!(e.category(), crate::Category::Type);
        let r = with_mode(PromotionMode::All, || average(&a, None, Some(&w))).unwrap();
        // ALL mode: the data is made inexact first (float32), then joins the weights
        assert_eq!((r.dtype(), r.item::<f32>().unwrap()), (crate::DType::F32, 3.5));
        let f = Tensor::from_vec(vec![6.0f32, 6.0, 1.0], &[3]).unwrap();
        let s = with_mode(PromotionMode::Safe, || average(&f, None, Some(&w))).unwrap();
        assert_eq!(s.item::<f32>().unwrap(), 3.5);
    }

    #[test]
    fn ptp_keeps_dtype_and_weakness() {
        let w = ptp(vec![vec![1, 9], vec![4, 2]], 1, true).unwrap();
        assert_eq!((w.is_weak(), w.shape(), w.to_vec::<i32>().unwrap()), (true, &[2usize, 1][..], vec![8, 2]));
        let u = Tensor::from_vec(vec![3u16, 250], &[2]).unwrap();
        assert_eq!(ptp(&u, None, false).unwrap().item::<u16>().unwrap(), 247);
        assert!(ptp(Tensor::from_vec(vec![true, false], &[2]).unwrap(), None, false).is_err());
    }

    #[test]
    fn nansum_nanprod_skip_nan_in_every_inexact_dtype() {
        let c = Tensor::from_vec(vec![Complex64::new(1.0, 1.0), Complex64::new(f64::NAN, 0.0)], &[2]).unwrap();
        assert_eq!(nansum(&c, None, None, false).unwrap().item::<Complex64>().unwrap(), Complex64::new(1.0, 1.0));
        let h = Tensor::from_vec(vec![half::f16::ONE, half::f16::NAN], &[2]).unwrap();
        let s = nansum(&h, None, None, true).unwrap();
        assert_eq!((s.dtype(), s.shape()), (DType::F16, &[1usize][..]));
        let p = nanprod(vec![f64::NAN, f64::NAN], None, None, false).unwrap();
        assert_eq!((p.is_weak(), p.item::<f32>().unwrap()), (true, 1.0));
        let e = nansum(Tensor::zeros(&[0, 2], DType::F32).unwrap(), 0, None, false).unwrap();
        assert_eq!(e.to_vec::<f32>().unwrap(), vec![0.0, 0.0]);
        let d = nansum(vec![1.0, f64::NAN], None, Some(DType::F64), false).unwrap();
        assert_eq!((d.dtype(), d.is_weak()), (DType::F64, false));
        let u = nanprod(Tensor::from_vec(vec![2u8, 3], &[2]).unwrap(), None, None, false).unwrap();
        assert_eq!((u.dtype(), u.item::<u32>().unwrap()), (DType::U32, 6));
    }

    #[test]
    fn sum_widens_small_ints_only() {
        let b = Tensor::from_vec(vec![true, true, false], &[3]).unwrap();
        assert_eq!(sum(&b, None, None, false).unwrap().item::<i32>().unwrap(), 2);
        let i = Tensor::from_vec(vec![i64::MAX, 1], &[2]).unwrap();
        assert_eq!(sum(&i, None, None, false).unwrap().item::<i64>().unwrap(), i64::MIN); // wraps
        let any = sum(&b, None, Some(DType::Bool), false).unwrap();
        assert_eq!((any.dtype(), any.item::<bool>().unwrap()), (DType::Bool, true));
    }

    #[test]
    fn var_ddof_and_dtype() {
        let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
        assert_eq!(var(&x, 0, None, 1, false).unwrap().to_vec::<f32>().unwrap(), vec![2.0, 2.0]);
        let v = var(&x, None, Some(DType::F64), 0, false).unwrap();
        assert_eq!((v.dtype(), v.item::<f64>().unwrap()), (DType::F64, 1.25));
        let one = var(vec![1.0], None, None, 1, false).unwrap();
        assert!(one.item::<f32>().unwrap().is_nan()); // 0 / 0, as NumPy
    }

    #[test]
    fn scans_wrap_and_keep_layout() {
        let x = Tensor::from_vec(vec![100i8, 100, 100], &[3]).unwrap();
        assert_eq!(cumsum(&x, None, Some(DType::I8)).unwrap().to_vec::<i8>().unwrap(), vec![100, -56, 44]);
        let m = Tensor::from_vec((1..=6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
        let c = cumprod(&m, Some(0), None).unwrap();
        assert_eq!((c.shape(), c.to_vec::<i32>().unwrap()), (&[2usize, 3][..], vec![1, 2, 3, 4, 10, 18]));
        assert!(cumsum(&m, Some(2), None).is_err());
    }

    #[test]
    fn nanmean_ignores_nans() {
        let x = Tensor::from_vec(vec![f32::NAN, 1.0, f32::NAN, f32::NAN], &[2, 2]).unwrap();
        let m = nanmean(&x, 1, None, false).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(m[0], 1.0);
        assert!(m[1].is_nan());
    }

    #[test]
    fn average_checks_weights() {
        let w = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
        assert!(average(vec![vec![1.0, 2.0]], Some(1), Some(&w)).is_err());
        assert!(average(vec![1.0, 2.0], None, Some(&w)).is_err());
        let (a, s) = average_returned(vec![2, 4], None, None).unwrap();
        assert_eq!((a.item::<f32>().unwrap(), s.item::<f32>().unwrap(), a.is_weak()), (3.0, 2.0, true));
    }
}
