//! Evenly spaced ranges: `linspace`, `logspace`, `geomspace`.
//!
//! The values are NumPy's: computed in float64 by NumPy's algorithm, then
//! rounded once to the requested dtype (float32 by default, tnp's `float`).
//! `start` and `stop` may be arrays; they broadcast, and the `num` samples go
//! along `axis` of the result.

use super::{DEFAULT_FLOAT, Value, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::{Error as E, Result};
use crate::core::layout::{broadcast_shapes, normalize_axis};
use crate::core::storage::max_tensor_bytes;
use crate::ops;
use crate::ops::unary::unsupported;
use crate::{DType, Tensor};

/// `start` and `stop` as float64 values broadcast to their common shape, with
/// the shape and the two tensors (for the gradient tapes).
type Ends = (Vec<f64>, Vec<f64>, Vec<usize>, [Tensor; 2]);

fn endpoints(op: &str, start: Value, stop: Value) -> Result<Ends> {
    let (a, b) = (exact_tensor(start)?, exact_tensor(stop)?);
    for t in [&a, &b] {
        if t.dtype().is_complex() {
            return Err(unsupported(op, t.dtype(), "real dtypes"));
        }
    }
    let shape = broadcast_shapes(a.shape(), b.shape(), op)?;
    let (va, vb) = (a.broadcast_to(&shape)?.to_vec::<f64>()?, b.broadcast_to(&shape)?.to_vec::<f64>()?);
    Ok((va, vb, shape, [a, b]))
}

/// How a range's samples depend on its endpoints (for its gradient).
#[derive(Clone, Copy)]
enum Spacing {
    /// `start + t·(stop - start)`.
    Linear,
    /// `base^(start + t·(stop - start))`.
    Log(f64),
    /// `start^(1-t) · stop^t`.
    Geometric,
}

/// `out`, the `num` samples of a range along `axis`, recorded on the tapes as
/// a function of its endpoints `ends`: sample `i` lies the fraction
/// `t_i = i / div` of the way (1 for an included endpoint), so
/// `∂out/∂start = s·(1 - t)` and `∂out/∂stop = s·t`, with `s` 1 for a linear
/// range, `out·ln(base)` for a logarithmic one, `out/start` and `out/stop` for
/// a geometric one. The gradients are summed over the samples and over the
/// axes each endpoint was broadcast along.
fn recorded(ends: &[Tensor; 2], out: Tensor, num: usize, endpoint: bool, axis: isize, kind: Spacing) -> Tensor {
    if !crate::core::tape::recording() {
        return out;
    }
    crate::core::tape::record(&[&ends[0], &ends[1]], out.clone(), || {
        let ends = ends.clone();
        crate::core::tape::TapeOp::Custom(std::rc::Rc::new(move |g: &[Tensor]| {
            let ax = normalize_axis(axis, out.rank(), "linspace")?;
            let div = if endpoint { num.saturating_sub(1) } else { num };
            let t: Vec<f64> = (0..num).map(|i| if div == 0 { 0.0 } else { i as f64 / div as f64 }).collect();
            let mut along = vec![1isize; out.rank()];
            along[ax] = num as isize;
            let t = Tensor::from_vec(t, &[num])?.reshape(&along)?;
            let shape: Vec<usize> = (0..out.rank()).filter(|&d| d != ax).map(|d| out.shape()[d]).collect();
            let scale = |end: &Tensor| -> Result<Tensor> {
                match kind {
                    Spacing::Linear => Ok(g[0].clone()),
                    Spacing::Log(base) => ops::multiply(&ops::multiply(&g[0], &out)?, base.ln()),
                    Spacing::Geometric => {
                        let e = end.broadcast_to(&shape)?.expand_dims(ax as isize)?;
                        ops::multiply(&g[0], &ops::divide(&out, &e)?)
                    }
                }
            };
            let mut grads = Vec::with_capacity(2);
            for (end, w) in ends.iter().zip([ops::subtract(1.0, &t)?, t.clone()]) {
                let full = ops::reduce_sum(&ops::multiply(&scale(end)?, &w)?, vec![ax as i32], false)?;
                grads.push(Some(sum_to(&full, end.shape())?));
            }
            Ok(grads)
        }))
    })
}

/// `t` summed over the axes along which a tensor of `shape` broadcasts to it.
fn sum_to(t: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let extra = t.rank() - shape.len();
    let axes: Vec<i32> = (0..t.rank())
        .filter(|&i| i < extra || (shape[i - extra] == 1 && t.shape()[i] != 1))
        .map(|i| i as i32)
        .collect();
    let s = if axes.is_empty() { t.clone() } else { ops::reduce_sum(t, axes, true)? };
    s.reshape(&shape.iter().map(|&d| d as isize).collect::<Vec<_>>())
}

/// `v` as a tensor, literals kept at float64 (a weak float literal would
/// otherwise be rounded to float32 first: `0.1` as f32 is 1.5e-9 off).
fn exact_tensor(v: Value) -> Result<Tensor> {
    match v {
        Value::Literal(_) | Value::List { .. } if !v.lattice_type()?.dtype.is_complex() => v.materialize(DType::F64),
        v => to_tensor(v),
    }
}

/// The float64 samples of `linspace` in `(num, …shape)` order, and the step(s).
fn linspace_f64(start: &[f64], stop: &[f64], num: usize, endpoint: bool) -> (Vec<f64>, Vec<f64>) {
    let m = start.len();
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let delta: Vec<f64> = start.iter().zip(stop).map(|(a, b)| b - a).collect();
    let step: Vec<f64> = delta.iter().map(|d| if div > 0 { d / div as f64 } else { f64::NAN }).collect();
    // NumPy's rule: a zero step anywhere scales by `delta / div` in two steps for every element
    let any_step_zero = div > 0 && step.contains(&0.0);
    let mut out = vec![0.0; num * m];
    for i in 0..num {
        let y = i as f64;
        for j in 0..m {
            let v = if div == 0 {
                y * delta[j]
            } else if any_step_zero {
                (y / div as f64) * delta[j]
            } else {
                y * step[j]
            };
            out[i * m + j] = v + start[j];
        }
    }
    if endpoint && num > 1 {
        out[(num - 1) * m..].copy_from_slice(stop);
    }
    (out, step)
}

/// Float64 `values` of shape `(num, …shape)` as a `dtype` tensor with the
/// sample axis moved to `axis`; integer dtypes take `to_int` of each value
/// first (`floor` for `linspace`, truncation for `logspace`/`geomspace`, as NumPy).
fn finish(
    op: &str,
    mut values: Vec<f64>,
    num: usize,
    shape: &[usize],
    dtype: DType,
    axis: isize,
    to_int: fn(f64) -> f64,
) -> Result<Tensor> {
    if dtype.is_integer() {
        values.iter_mut().for_each(|v| *v = to_int(*v));
    }
    let mut full = vec![num];
    full.extend_from_slice(shape);
    let ax = normalize_axis(axis, full.len(), op)?;
    let t = Tensor::from_vec(values, &full)?;
    let mut perm: Vec<usize> = (1..full.len()).collect();
    perm.insert(ax, 0);
    t.transpose(&perm)?.cast(dtype)
}

/// Refuses more than `max_tensor_bytes` of float64 samples before computing them.
fn check_size(op: &str, num: usize, m: usize) -> Result<()> {
    let n = num.saturating_mul(m);
    if n.saturating_mul(8) as u64 > max_tensor_bytes() {
        return Err(E::ResourceExhausted(format!("{op}: {n} values exceed max_tensor_bytes ({})", max_tensor_bytes())));
    }
    Ok(())
}

/// `num` evenly spaced values from `start` to `stop` (`tnp.linspace`), with the
/// step: NumPy's algorithm in float64, rounded once to `dtype` (float32 if
/// `None`; integer dtypes take the floor first, as NumPy). `endpoint = false`
/// leaves `stop` out. Array `start`/`stop` broadcast; their samples go along
/// `axis`. The result is strong. TF 2.21 ignores `dtype` (always float32).
///
/// ```
/// use lattensor::{tnp, DType};
/// let (y, step) = tnp::linspace_with_step(0, 1, 5, true, None, 0).unwrap();
/// assert_eq!((y.dtype(), y.is_weak()), (DType::F32, false));
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
/// assert_eq!(step.item::<f64>().unwrap(), 0.25);
/// let i = tnp::linspace(0, 10, 5, true, Some(DType::I32), 0).unwrap();
/// assert_eq!(i.to_vec::<i32>().unwrap(), vec![0, 2, 5, 7, 10]);
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] if `start` and `stop` do not broadcast;
/// [`Error::InvalidArgument`] for an `axis` out of range;
/// [`Error::UnsupportedDType`] for complex endpoints;
/// [`Error::ResourceExhausted`] if the float64 samples exceed the size limit.
pub fn linspace_with_step(
    start: impl Into<Value>,
    stop: impl Into<Value>,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
    axis: isize,
) -> Result<(Tensor, Tensor)> {
    let (a, b, shape, ends) = endpoints("linspace", start.into(), stop.into())?;
    check_size("linspace", num, a.len())?;
    let (values, step) = linspace_f64(&a, &b, num, endpoint);
    let y = finish("linspace", values, num, &shape, dtype.unwrap_or(DEFAULT_FLOAT), axis, f64::floor)?;
    let y = recorded(&ends, y, num, endpoint, axis, Spacing::Linear);
    Ok((y, Tensor::from_vec(step, &shape)?))
}

/// [`linspace_with_step`] without the step (`tnp.linspace`).
///
/// ```
/// use lattensor::tnp;
/// let y = tnp::linspace(1, 2, 3, false, None, 0).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 4.0 / 3.0, 5.0 / 3.0]);
/// ```
///
/// # Errors
/// As [`linspace_with_step`].
pub fn linspace(
    start: impl Into<Value>,
    stop: impl Into<Value>,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
    axis: isize,
) -> Result<Tensor> {
    Ok(linspace_with_step(start, stop, num, endpoint, dtype, axis)?.0)
}

/// `base ** linspace(start, stop, num)` (`tnp.logspace`), computed in float64
/// and rounded once to `dtype` (float32 if `None`; integer dtypes truncate
/// first, as NumPy's cast). Strong. TF 2.21 ignores `dtype`.
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::logspace(0, 2, 3, true, 10.0, Some(DType::F64), 0).unwrap();
/// assert_eq!(y.to_vec::<f64>().unwrap(), vec![1.0, 10.0, 100.0]);
/// ```
///
/// # Errors
/// As [`linspace`].
pub fn logspace(
    start: impl Into<Value>,
    stop: impl Into<Value>,
    num: usize,
    endpoint: bool,
    base: f64,
    dtype: Option<DType>,
    axis: isize,
) -> Result<Tensor> {
    let (a, b, shape, ends) = endpoints("logspace", start.into(), stop.into())?;
    check_size("logspace", num, a.len())?;
    let (mut values, _) = linspace_f64(&a, &b, num, endpoint);
    values.iter_mut().for_each(|v| *v = base.powf(*v));
    let y = finish("logspace", values, num, &shape, dtype.unwrap_or(DEFAULT_FLOAT), axis, f64::trunc)?;
    Ok(recorded(&ends, y, num, endpoint, axis, Spacing::Log(base)))
}

/// `num` values from `start` to `stop` in geometric progression
/// (`tnp.geomspace`): NumPy's algorithm in float64 (exact endpoints; two
/// negative endpoints give a negated progression), rounded once to `dtype`
/// (float32 if `None`, tnp's `float`). Strong. TF 2.21 returns float64
/// computed through float32 (`geomspace(1, 1000, 4)[1]` is 10.0000003 there).
///
/// ```
/// use lattensor::tnp;
/// let y = tnp::geomspace(1, 1000, 4, true, None, 0).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 10.0, 100.0, 1000.0]);
/// let n = tnp::geomspace(-1, -8, 4, true, None, 0).unwrap();
/// assert_eq!(n.to_vec::<f32>().unwrap(), vec![-1.0, -2.0, -4.0, -8.0]);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] if an endpoint is zero (NumPy's `ValueError`); otherwise as [`linspace`].
pub fn geomspace(
    start: impl Into<Value>,
    stop: impl Into<Value>,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
    axis: isize,
) -> Result<Tensor> {
    let (mut a, mut b, shape, ends) = endpoints("geomspace", start.into(), stop.into())?;
    if a.iter().chain(&b).any(|&v| v == 0.0) {
        // NumPy's `ValueError` (TF returns NaN)
        return Err(E::InvalidValue("geomspace: Geometric sequence cannot include zero".to_string()));
    }
    check_size("geomspace", num, a.len())?;
    let sign: Vec<f64> = a.iter().map(|&v| if v.is_nan() { v } else { v.signum() }).collect();
    for ((x, y), s) in a.iter_mut().zip(b.iter_mut()).zip(&sign) {
        *x /= s;
        *y /= s;
    }
    let (la, lb): (Vec<f64>, Vec<f64>) = a.iter().zip(&b).map(|(x, y)| (x.log10(), y.log10())).unzip();
    let (mut values, _) = linspace_f64(&la, &lb, num, endpoint);
    values.iter_mut().for_each(|v| *v = 10f64.powf(*v));
    let m = a.len();
    if num > 0 {
        values[..m].copy_from_slice(&a);
        if num > 1 && endpoint {
            values[(num - 1) * m..].copy_from_slice(&b);
        }
    }
    for (i, v) in values.iter_mut().enumerate() {
        *v *= sign[i % m.max(1)];
    }
    let y = finish("geomspace", values, num, &shape, dtype.unwrap_or(DEFAULT_FLOAT), axis, f64::trunc)?;
    Ok(recorded(&ends, y, num, endpoint, axis, Spacing::Geometric))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy_on_arrays_and_axes() {
        // np.linspace([0, 10], [1, 20], 3, axis=1)
        let y = linspace(vec![0.0, 10.0], vec![1.0, 20.0], 3, true, Some(DType::F64), 1).unwrap();
        assert_eq!(y.shape(), &[2, 3]);
        assert_eq!(y.to_vec::<f64>().unwrap(), vec![0.0, 0.5, 1.0, 10.0, 15.0, 20.0]);
        // num = 1: the start only; the step is NaN
        let (y, s) = linspace_with_step(3, 7, 1, true, Some(DType::F64), 0).unwrap();
        assert_eq!(y.to_vec::<f64>().unwrap(), vec![3.0]);
        assert!(s.item::<f64>().unwrap().is_nan());
        assert_eq!(linspace(0, 1, 0, true, None, 0).unwrap().shape(), &[0]);
        // -0.5 floors to -1 for an integer dtype
        assert_eq!(linspace(-1, 0, 3, true, Some(DType::I8), 0).unwrap().to_vec::<i8>().unwrap(), vec![-1, -1, 0]);
    }

    #[test]
    fn geomspace_and_logspace_edges() {
        assert!(geomspace(0, 1, 3, true, None, 0).is_err());
        let y = geomspace(2.5, 0.1, 5, false, Some(DType::F64), 0).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(y[0], 2.5);
        assert_eq!(
            logspace(0, 2, 3, true, 10.0, Some(DType::I32), 0).unwrap().to_vec::<i32>().unwrap(),
            vec![1, 10, 100]
        );
        // float literals are read at float64: np.logspace(0.1, 10, 7, base=3.0)[0] == 3**0.1
        let y = logspace(0.1, 10.0, 7, true, 3.0, Some(DType::F64), 0).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(y[0], 3f64.powf(0.1));
        let y = linspace(vec![0.1], 0.7, 2, true, Some(DType::F64), 0).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(y, vec![0.1, 0.7]);
    }
}
