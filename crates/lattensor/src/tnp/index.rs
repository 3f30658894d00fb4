//! Index functions: `nonzero`, `take_along_axis`, `compress`, `roll`, `tile`,
//! `broadcast_arrays`.

use super::logic::truth;
use super::{Value, ravel, to_tensor};
use crate::Tensor;
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::layout::{broadcast_shapes, contiguous_strides, normalize_axis};
use crate::ops::unary::unsupported;

/// The coordinates of the nonzero (true) elements of `a`, one int64 tensor
/// per axis, in row-major order (`tnp.nonzero`).
///
/// ```
/// let ix = lattensor::tnp::nonzero(vec![vec![0, 3], vec![4, 0]]).unwrap();
/// assert_eq!(ix[0].to_vec::<i64>().unwrap(), vec![0, 1]);
/// assert_eq!(ix[1].to_vec::<i64>().unwrap(), vec![1, 0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a 0-d input (as NumPy 2).
pub fn nonzero(a: impl Into<Value>) -> Result<Vec<Tensor>> {
    let t = truth(&to_tensor(a)?)?;
    crate::ensure!(t.rank() > 0, "nonzero: calling nonzero on 0d arrays is not allowed; use atleast_1d first");
    let shape = t.shape().to_vec();
    let hits: Vec<usize> = t.to_vec::<bool>()?.iter().enumerate().filter(|(_, v)| **v).map(|(i, _)| i).collect();
    let strides = contiguous_strides(&shape);
    (0..shape.len())
        .map(|d| {
            let s = strides[d] as usize;
            let col = hits.iter().map(|&i| ((i / s.max(1)) % shape[d].max(1)) as i64).collect();
            Tensor::from_vec(col, &[hits.len()])
        })
        .collect()
}

/// `arr`'s elements at `indices` along `axis` (`tnp.take_along_axis`; the
/// other axes broadcast, as NumPy; `axis = None`: of the flattened `arr`).
/// Negative indices count from the end. Strong, in `arr`'s dtype, as `gather`.
///
/// ```
/// use lattensor::tnp;
/// let a = vec![vec![10, 30, 20], vec![60, 40, 50]];
/// let y = tnp::take_along_axis(a, vec![vec![0], vec![-1]], Some(1)).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<i32>().unwrap()), (&[2usize, 1][..], vec![10, 50]));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-integer `indices`;
/// [`Error::InvalidArgument`] if the ranks differ, `axis` is out of range or an
/// index is outside `[-n, n)`; [`Error::ShapeMismatch`] if the other axes do not
/// broadcast.
pub fn take_along_axis(arr: impl Into<Value>, indices: impl Into<Value>, axis: Option<isize>) -> Result<Tensor> {
    let op = "take_along_axis";
    let (mut a, idx) = (to_tensor(arr)?, to_tensor(indices)?);
    if !idx.dtype().is_integer() {
        return Err(unsupported(op, idx.dtype(), "integer dtypes"));
    }
    let axis = match axis {
        None => {
            a = ravel(&a)?;
            0
        }
        Some(ax) => ax,
    };
    crate::ensure!(idx.rank() == a.rank(), "{op}: indices of rank {} for an array of rank {}", idx.rank(), a.rank());
    let ax = normalize_axis(axis, a.rank(), op)?;
    let shp = a.shape().to_vec();
    let n = shp[ax] as i64;
    let values = idx.to_vec::<i64>()?;
    if values.iter().any(|&v| v < -n || v >= n) {
        crate::bail!("{op}: index out of range [{}, {n}) along axis {ax}", -n);
    }
    let mut other = shp.clone();
    other[ax] = 1;
    let mut ishape = idx.shape().to_vec();
    ishape[ax] = 1;
    let mut out_shape = broadcast_shapes(&other, &ishape, op)?;
    out_shape[ax] = idx.shape()[ax];
    let idx = idx.broadcast_to(&out_shape)?.to_vec::<i64>()?;
    let a_strides = contiguous_strides(&shp);
    let o_strides = contiguous_strides(&out_shape);
    let flat: Vec<i64> = idx
        .iter()
        .enumerate()
        .map(|(k, &v)| {
            (0..shp.len())
                .map(|d| {
                    let c = if d == ax {
                        if v < 0 { v + n } else { v }
                    } else if shp[d] == 1 {
                        0
                    } else {
                        (k as i64 / o_strides[d] as i64) % out_shape[d] as i64
                    };
                    c * a_strides[d] as i64
                })
                .sum()
        })
        .collect();
    let gathered = crate::gather(&ravel(&a)?, &Tensor::from_vec(flat, &[idx.len()])?, 0, 0)?;
    let out: Vec<isize> = out_shape.iter().map(|&d| d as isize).collect();
    gathered.reshape(&out)
}

/// The slices of `a` along `axis` (the flattened `a` if `None`) where the 1-D
/// `condition` is true (nonzero) (`tnp.compress`); a shorter condition is
/// padded with false, as NumPy. Strong, in `a`'s dtype, as `gather`.
///
/// ```
/// let y = lattensor::tnp::compress([0, 1, 1], vec![vec![1, 2], vec![3, 4], vec![5, 6]], Some(0)).unwrap();
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![3, 4, 5, 6]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `condition` is not 1-D, `axis` is out of range,
/// or `condition` has a true element beyond the axis' length.
pub fn compress(condition: impl Into<Value>, a: impl Into<Value>, axis: Option<isize>) -> Result<Tensor> {
    let c = truth(&to_tensor(condition)?)?;
    crate::ensure!(c.rank() == 1, "compress: condition must be 1-D, got rank {}", c.rank());
    let mut x = to_tensor(a)?;
    let axis = match axis {
        None => {
            x = ravel(&x)?;
            0
        }
        Some(ax) => ax,
    };
    let ax = normalize_axis(axis, x.rank(), "compress")?;
    let n = x.shape()[ax];
    let c = c.to_vec::<bool>()?;
    if c.iter().skip(n).any(|&v| v) {
        crate::bail!("compress: condition has a true element beyond the axis' {n} entries");
    }
    let keep: Vec<i64> = c.iter().take(n).enumerate().filter(|(_, v)| **v).map(|(i, _)| i as i64).collect();
    let len = keep.len();
    crate::gather(&x, &Tensor::from_vec(keep, &[len])?, ax as isize, 0)
}

/// Elements shifted by `shift` places along `axis` (`tnp.roll`; the flattened
/// input if `None`), wrapping around. `shift` and `axis` broadcast against each
/// other (one of them may have length 1); shifts of a repeated axis add up, as
/// NumPy. Keeps the input's dtype and weakness.
///
/// ```
/// use lattensor::tnp;
/// let y = tnp::roll(vec![vec![1, 2, 3], vec![4, 5, 6]], &[1], Some(&[1])).unwrap();
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![3, 1, 2, 6, 4, 5]);
/// assert_eq!(tnp::roll([1, 2, 3], &[-1], None).unwrap().to_vec::<i32>().unwrap(), vec![2, 3, 1]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `shift` and `axis` do not broadcast or an axis
/// is out of range.
pub fn roll(a: impl Into<Value>, shift: &[i64], axis: Option<&[isize]>) -> Result<Tensor> {
    let x = to_tensor(a)?;
    let Some(axes) = axis else {
        let shape: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
        return roll(&ravel(&x)?, shift, Some(&[0]))?.reshape(&shape);
    };
    let len = shift.len().max(axes.len());
    let fits = |k: usize| k == len || k == 1;
    crate::ensure!(
        fits(shift.len()) && fits(axes.len()),
        "roll: shape mismatch: shift ({}) and axis ({}) do not broadcast",
        shift.len(),
        axes.len()
    );
    let mut total = vec![0i64; x.rank()];
    for k in 0..len {
        let s = shift[if shift.len() == 1 { 0 } else { k }];
        let ax = axes[if axes.len() == 1 { 0 } else { k }];
        let ax = normalize_axis(ax, x.rank(), "roll")?;
        total[ax] = total[ax].wrapping_add(s);
    }
    let mut out = x.clone();
    for (ax, &s) in total.iter().enumerate() {
        let n = x.shape()[ax] as i64;
        if n == 0 || s.rem_euclid(n) == 0 {
            continue;
        }
        let cut = n - s.rem_euclid(n);
        let idx: Vec<i64> = (0..n).map(|i| (i + cut) % n).collect();
        out = crate::gather(&out, &Tensor::from_vec(idx, &[n as usize])?, ax as isize, 0)?;
    }
    Ok(out.with_weak(x.is_weak()))
}

/// `a` repeated `reps[i]` times along axis `i` (`tnp.tile`; NumPy's rule: the
/// shorter of `a.shape` and `reps` is padded with leading 1s). Keeps `a`'s
/// dtype and weakness.
///
/// ```
/// let y = lattensor::tnp::tile([1, 2], &[2, 2]).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<i32>().unwrap()), (&[2usize, 4][..], vec![1, 2, 1, 2, 1, 2, 1, 2]));
/// ```
///
/// # Errors
/// [`Error::ResourceExhausted`] if the result is too big.
pub fn tile(a: impl Into<Value>, reps: &[usize]) -> Result<Tensor> {
    let x = to_tensor(a)?;
    let rank = x.rank().max(reps.len());
    let mut shape = vec![1usize; rank - x.rank()];
    shape.extend_from_slice(x.shape());
    let mut reps_full = vec![1usize; rank - reps.len()];
    reps_full.extend_from_slice(reps);
    let as_isize = |s: &[usize]| s.iter().map(|&d| d as isize).collect::<Vec<_>>();
    let x = x.reshape(&as_isize(&shape))?;
    if reps_full.iter().all(|&r| r == 1) {
        return Ok(x);
    }
    // [1, d0, 1, d1, …] broadcast to [r0, d0, r1, d1, …], then merged pairwise
    let inter: Vec<usize> = shape.iter().flat_map(|&d| [1, d]).collect();
    let target: Vec<usize> = shape.iter().zip(&reps_full).flat_map(|(&d, &r)| [r, d]).collect();
    let out: Vec<usize> = shape.iter().zip(&reps_full).map(|(&d, &r)| d * r).collect();
    let b = x.reshape(&as_isize(&inter))?.broadcast_to(&target)?;
    Ok(b.contiguous()?.reshape(&as_isize(&out))?.with_weak(x.is_weak()))
}

/// The inputs broadcast to their common shape (`tnp.broadcast_arrays`), each
/// in its own dtype, as strong zero-copy views.
///
/// ```
/// use lattensor::{tnp, Value};
/// let v = tnp::broadcast_arrays(vec![Value::from(vec![1, 2]), Value::from(vec![vec![0], vec![1]])]).unwrap();
/// assert_eq!((v[0].shape(), v[1].to_vec::<i32>().unwrap()), (&[2usize, 2][..], vec![0, 0, 1, 1]));
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] if the shapes do not broadcast.
pub fn broadcast_arrays(args: Vec<Value>) -> Result<Vec<Tensor>> {
    let ts = args.into_iter().map(to_tensor).collect::<Result<Vec<_>>>()?;
    let mut shape: Vec<usize> = Vec::new();
    for t in &ts {
        shape = broadcast_shapes(&shape, t.shape(), "broadcast_arrays")?;
    }
    ts.iter().map(|t| Ok(t.broadcast_to(&shape)?.with_weak(false))).collect()
}
