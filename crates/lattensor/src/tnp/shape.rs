//! Shape and ordering functions: `flip`, `rot90`, `swapaxes`, `moveaxis`,
//! `diagonal`, `diag`, `triu`, `repeat`, `sort`, `diff`, `vander`, ….
//!
//! All keep the input's dtype and weakness. Where the result is a
//! rearrangement of the input's elements it is a view (flips have negative
//! strides; `swapaxes`/`moveaxis`/`transpose`/`rot90` permute strides;
//! `diagonal` is strided; `ravel`/`flatten`/`reshape` view contiguous data).
//! Splitting, padding and appending are in the sibling module `split`.

use super::{Axes, Value, selection, to_tensor};
use crate::core::error::{Error, Result};
use crate::core::layout::{Layout, normalize_axis};
use crate::core::tape;
use crate::ops::{self, unary::unsupported};
use crate::{Element, SliceArg, Tensor, with_dtype};

/// Normalised, duplicate-free axes of `axes` for a tensor of rank `rank` (`All` = every axis).
fn axis_list(op: &str, axes: &Axes, rank: usize) -> Result<Vec<usize>> {
    let list: Vec<usize> = match axes {
        Axes::All => (0..rank).collect(),
        Axes::Some(v) => v.iter().map(|&a| normalize_axis(a, rank, op)).collect::<Result<_>>()?,
    };
    let mut seen = vec![false; rank];
    for &a in &list {
        if std::mem::replace(&mut seen[a], true) {
            return Err(Error::InvalidArgument(format!("{op}: axis {a} is given twice in {axes:?}")));
        }
    }
    Ok(list)
}

/// Reverses the order of elements along `axis` (`tnp.flip`); `None`/[`Axes::All`]
/// reverses every axis, a list reverses several (TF 2.21 accepts only one). A view
/// with negative strides.
///
/// ```
/// use lattensor::{numpy, Tensor};
/// let m = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// assert_eq!(numpy::flip(&m, 1).unwrap().to_vec::<i32>().unwrap(), vec![2, 1, 0, 5, 4, 3]);
/// assert_eq!(numpy::flip(&m, None).unwrap().to_vec::<i32>().unwrap(), vec![5, 4, 3, 2, 1, 0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range or given twice.
pub fn flip(m: impl Into<Value>, axis: impl Into<Axes>) -> Result<Tensor> {
    let m = to_tensor(m)?;
    let axes = axis_list("flip", &axis.into(), m.rank())?;
    let mut args = vec![SliceArg::FULL; m.rank()];
    for a in axes {
        args[a] = SliceArg::stepped(None, None, -1);
    }
    m.slice(&args)
}

/// Reverses axis 1 (`tnp.fliplr`), a view.
///
/// ```
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// assert_eq!(lattensor::numpy::fliplr(&m).unwrap().to_vec::<i32>().unwrap(), vec![2, 1, 4, 3]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2.
pub fn fliplr(m: impl Into<Value>) -> Result<Tensor> {
    let m = to_tensor(m)?;
    need_rank("fliplr", &m, 2)?;
    flip(&m, 1)
}

/// Reverses axis 0 (`tnp.flipud`), a view.
///
/// ```
/// assert_eq!(lattensor::numpy::flipud(vec![1, 2, 3]).unwrap().to_vec::<i32>().unwrap(), vec![3, 2, 1]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 1.
pub fn flipud(m: impl Into<Value>) -> Result<Tensor> {
    let m = to_tensor(m)?;
    need_rank("flipud", &m, 1)?;
    flip(&m, 0)
}

use crate::ops::matrix::need_rank;

/// Rotates by 90° `k` times in the plane of `axes`, from the first axis toward the
/// second (`tnp.rot90`); a view.
///
/// ```
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// let r = lattensor::numpy::rot90(&m, 1, (0, 1)).unwrap();
/// assert_eq!(r.to_vec::<i32>().unwrap(), vec![2, 4, 1, 3]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2, axes out of range or equal.
pub fn rot90(m: impl Into<Value>, k: i32, axes: (isize, isize)) -> Result<Tensor> {
    let m = to_tensor(m)?;
    need_rank("rot90", &m, 2)?;
    let (a0, a1) = (normalize_axis(axes.0, m.rank(), "rot90")?, normalize_axis(axes.1, m.rank(), "rot90")?);
    if a0 == a1 {
        return Err(Error::InvalidArgument(format!("rot90: the axes {axes:?} must be different")));
    }
    let mut perm: Vec<usize> = (0..m.rank()).collect();
    perm.swap(a0, a1);
    match k.rem_euclid(4) {
        0 => Ok(m),
        1 => flip(&m, a1 as i32)?.transpose(&perm),
        2 => flip(&m, [a0 as i32, a1 as i32]),
        _ => flip(&m.transpose(&perm)?, a1 as i32),
    }
}

/// Interchanges two axes (`tnp.swapaxes`), a view.
///
/// ```
/// let m = lattensor::Tensor::zeros(&[2, 3, 4], lattensor::DType::F32).unwrap();
/// assert_eq!(lattensor::numpy::swapaxes(&m, 0, -1).unwrap().shape(), &[4, 3, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidIndex`] for an axis out of range (TF's `IndexError`).
pub fn swapaxes(a: impl Into<Value>, axis1: isize, axis2: isize) -> Result<Tensor> {
    let a = to_tensor(a)?;
    let axis = |k| normalize_axis(k, a.rank(), "swapaxes").map_err(|e| Error::InvalidIndex(e.to_string()));
    let (i, j) = (axis(axis1)?, axis(axis2)?);
    let mut perm: Vec<usize> = (0..a.rank()).collect();
    perm.swap(i, j);
    a.transpose(&perm)
}

/// Moves axes `source` to positions `destination`, keeping the order of the others
/// (`tnp.moveaxis`); a view. Both are an axis or a list of axes of equal length.
///
/// ```
/// let m = lattensor::Tensor::zeros(&[2, 3, 4], lattensor::DType::I8).unwrap();
/// assert_eq!(lattensor::numpy::moveaxis(&m, 0, -1).unwrap().shape(), &[3, 4, 2]);
/// assert_eq!(lattensor::numpy::moveaxis(&m, [0, 1], [2, 0]).unwrap().shape(), &[3, 4, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for axes out of range, repeated, `None`, or lists of different lengths.
pub fn moveaxis(a: impl Into<Value>, source: impl Into<Axes>, destination: impl Into<Axes>) -> Result<Tensor> {
    let a = to_tensor(a)?;
    let (source, destination) = (source.into(), destination.into());
    if source == Axes::All || destination == Axes::All {
        return Err(Error::InvalidArgument("moveaxis: source and destination must be axes, not None".into()));
    }
    let src = axis_list("moveaxis", &source, a.rank())?;
    let dst = axis_list("moveaxis", &destination, a.rank())?;
    if src.len() != dst.len() {
        return Err(Error::InvalidArgument(format!(
            "moveaxis: source {source:?} and destination {destination:?} must have the same number of elements"
        )));
    }
    let mut order: Vec<usize> = (0..a.rank()).filter(|i| !src.contains(i)).collect();
    let mut pairs: Vec<(usize, usize)> = dst.into_iter().zip(src).collect();
    pairs.sort_unstable();
    for (d, s) in pairs {
        order.insert(d, s);
    }
    a.transpose(&order)
}

/// Permutes the axes (`tnp.transpose`): `None` reverses them; negative axes count from the end. A view.
///
/// ```
/// let m = lattensor::Tensor::zeros(&[2, 3, 4], lattensor::DType::I8).unwrap();
/// assert_eq!(lattensor::numpy::transpose(&m, None).unwrap().shape(), &[4, 3, 2]);
/// assert_eq!(lattensor::numpy::transpose(&m, Some(&[1, -1, 0][..])).unwrap().shape(), &[3, 4, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] unless `axes` is a permutation of the axes.
pub fn transpose(a: impl Into<Value>, axes: Option<&[isize]>) -> Result<Tensor> {
    let a = to_tensor(a)?;
    match axes {
        None => Ok(a.t()),
        Some(p) => {
            let perm: Vec<usize> =
                p.iter().map(|&x| normalize_axis(x, a.rank(), "transpose")).collect::<Result<_>>()?;
            a.transpose(&perm)
        }
    }
}

/// Gives a new shape (`tnp.reshape`); one dimension may be `-1`. A view when possible.
///
/// ```
/// assert_eq!(lattensor::numpy::reshape(vec![1, 2, 3, 4], &[2, -1]).unwrap().shape(), &[2, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if the element counts differ.
pub fn reshape(a: impl Into<Value>, newshape: &[isize]) -> Result<Tensor> {
    to_tensor(a)?.reshape(newshape)
}

/// The order in which [`reshape_in`] and [`flatten_in`] read and write
/// elements (NumPy's `order=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Row-major: the last index changes fastest.
    C,
    /// Column-major (Fortran): the first index changes fastest.
    F,
}

impl Order {
    /// NumPy's spelling, `"C"` or `"F"` (TF's tnp takes no other).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for any other string.
    pub fn parse(op: &str, order: &str) -> Result<Order> {
        match order {
            "C" => Ok(Order::C),
            "F" => Ok(Order::F),
            _ => Err(Error::InvalidArgument(format!("{op}: unsupported order argument {order:?}; use \"C\" or \"F\""))),
        }
    }
}

/// [`reshape`] reading and writing the elements in `order` (`tnp.reshape(a,
/// newshape, order)`): `Order::F` fills the new shape first index fastest, as
/// NumPy. Keeps dtype and weakness; a view when the strides allow it.
///
/// ```
/// use lattensor::tnp::{self, Order};
/// let a = tnp::reshape_in(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], Order::F).unwrap();
/// assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
/// ```
///
/// # Errors
/// As [`reshape`].
pub fn reshape_in(a: impl Into<Value>, newshape: &[isize], order: Order) -> Result<Tensor> {
    let a = to_tensor(a)?;
    match order {
        Order::C => a.reshape(newshape),
        Order::F => {
            // column-major order is row-major order of the reversed axes
            let reversed: Vec<isize> = newshape.iter().rev().copied().collect();
            reversed_axes(&reversed_axes(&a)?.reshape(&reversed)?)
        }
    }
}

/// `a` with its axes in reverse order (a view).
fn reversed_axes(a: &Tensor) -> Result<Tensor> {
    let perm: Vec<usize> = (0..a.rank()).rev().collect();
    a.transpose(&perm)
}

/// Inserts a length-1 axis at `axis` (`tnp.expand_dims`), a view.
///
/// ```
/// assert_eq!(lattensor::numpy::expand_dims(vec![1, 2], -1).unwrap().shape(), &[2, 1]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis outside `[-rank-1, rank]`.
pub fn expand_dims(a: impl Into<Value>, axis: isize) -> Result<Tensor> {
    to_tensor(a)?.expand_dims(axis)
}

/// Removes length-1 axes (`tnp.squeeze`): all of them for `None`, else the given ones. A view.
///
/// ```
/// let t = lattensor::Tensor::zeros(&[1, 3, 1], lattensor::DType::F32).unwrap();
/// assert_eq!(lattensor::numpy::squeeze(&t, None).unwrap().shape(), &[3]);
/// assert_eq!(lattensor::numpy::squeeze(&t, 0).unwrap().shape(), &[3, 1]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range or not of length 1.
pub fn squeeze(a: impl Into<Value>, axis: impl Into<Axes>) -> Result<Tensor> {
    let a = to_tensor(a)?;
    match axis.into() {
        Axes::All => a.squeeze(&[]),
        Axes::Some(v) if v.is_empty() => Ok(a),
        Axes::Some(v) => a.squeeze(&v),
    }
}

/// The elements as a 1-D tensor in row-major order (`tnp.ravel`); a view of contiguous input.
///
/// ```
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// let r = lattensor::numpy::ravel(&m).unwrap();
/// assert!(r.shares_storage_with(&m));
/// assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 2, 3, 4]);
/// ```
///
/// # Errors
/// [`Error::ResourceExhausted`] if a non-contiguous input is too large to copy.
pub fn ravel(a: impl Into<Value>) -> Result<Tensor> {
    to_tensor(a)?.reshape(&[-1])
}

/// Same as [`ravel`] (`tnp.flatten`, C order). Tensors are immutable, so the view
/// NumPy's copy would protect against cannot be written through.
///
/// ```
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// assert_eq!(lattensor::numpy::flatten(&m).unwrap().shape(), &[4]);
/// ```
///
/// # Errors
/// As [`ravel`].
pub fn flatten(a: impl Into<Value>) -> Result<Tensor> {
    ravel(a)
}

/// [`flatten`] in `order` (`x.flatten(order)`): `Order::F` reads the first
/// index fastest.
///
/// ```
/// use lattensor::tnp::{self, Order};
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// assert_eq!(tnp::flatten_in(&m, Order::F).unwrap().to_vec::<i32>().unwrap(), vec![1, 3, 2, 4]);
/// ```
///
/// # Errors
/// As [`ravel`].
pub fn flatten_in(a: impl Into<Value>, order: Order) -> Result<Tensor> {
    reshape_in(a, &[-1], order)
}

/// The diagonal with `offset` of the plane `(axis1, axis2)` (`tnp.diagonal`): the two
/// axes are removed and the diagonal becomes the last axis. `offset > 0` takes
/// `a[i, i + offset]`, `offset < 0` takes `a[i - offset, i]`. A strided view.
///
/// ```
/// let m = lattensor::Tensor::from_vec((0..9).collect::<Vec<i32>>(), &[3, 3]).unwrap();
/// let d = lattensor::numpy::diagonal(&m, 1, 0, 1).unwrap();
/// assert!(d.shares_storage_with(&m));
/// assert_eq!(d.to_vec::<i32>().unwrap(), vec![1, 5]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2, axes out of range or equal.
pub fn diagonal(a: impl Into<Value>, offset: isize, axis1: isize, axis2: isize) -> Result<Tensor> {
    let a = to_tensor(a)?;
    need_rank("diagonal", &a, 2)?;
    let (i, j) = (normalize_axis(axis1, a.rank(), "diagonal")?, normalize_axis(axis2, a.rank(), "diagonal")?);
    if i == j {
        return Err(Error::InvalidArgument(format!("diagonal: axis1 and axis2 cannot be the same (both {i})")));
    }
    let (shape, strides) = (a.shape(), a.layout().strides());
    let (n1, n2) = (shape[i] as isize, shape[j] as isize);
    let len = if offset >= 0 { n1.min(n2 - offset) } else { (n1 + offset).min(n2) }.max(0) as usize;
    let mut base = a.layout().offset() as isize;
    if len > 0 {
        base += if offset >= 0 { offset * strides[j] } else { -offset * strides[i] };
    }
    let keep = (0..a.rank()).filter(|&k| k != i && k != j);
    let mut s: Vec<usize> = keep.clone().map(|k| shape[k]).collect();
    let mut st: Vec<isize> = keep.map(|k| strides[k]).collect();
    s.push(len);
    st.push(strides[i] + strides[j]);
    let layout = Layout::from_parts(s, st, base as usize);
    let out = Tensor::from_parts(a.storage.clone(), layout, a.dtype(), a.is_weak());
    Ok(tape::record(&[&a], out, || selection(move |t| diagonal(t, offset, axis1, axis2))))
}

/// `diag(v, k)` (`tnp.diag`): a 1-D `v` gives the square matrix with `v` on diagonal
/// `k`; a 2-D `v` gives its diagonal `k` (a view).
///
/// ```
/// let m = lattensor::numpy::diag(vec![1, 2], 1).unwrap();
/// assert_eq!((m.shape(), m.to_vec::<i32>().unwrap()), (&[3usize, 3][..], vec![0, 1, 0, 0, 0, 2, 0, 0, 0]));
/// assert_eq!(lattensor::numpy::diag(&m, 1).unwrap().to_vec::<i32>().unwrap(), vec![1, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] for rank > 2 (TF's `ValueError`), [`Error::InvalidArgument`] for a scalar.
pub fn diag(v: impl Into<Value>, k: isize) -> Result<Tensor> {
    let v = to_tensor(v)?;
    match v.rank() {
        1 => tape::op(&[&v], || diag_matrix(&v, k), || selection(move |t| diag_matrix(t, k))),
        2 => diagonal(&v, k, 0, 1),
        0 => Err(Error::InvalidArgument("diag: the input must be 1-D or 2-D, got a scalar".to_string())),
        _ => Err(Error::InvalidValue(format!("diag: the input must be 1-D or 2-D, got shape {:?}", v.shape()))),
    }
}

/// The square matrix with the 1-D `v` on diagonal `k`, zeros elsewhere.
fn diag_matrix(v: &Tensor, k: isize) -> Result<Tensor> {
    let n = v.shape()[0];
    let size = n
        .checked_add(k.unsigned_abs())
        .ok_or_else(|| Error::ResourceExhausted(format!("diag: a matrix of side {n} + |{k}| overflows")))?;
    let mut out = Tensor::zeros(&[size, size], v.dtype())?;
    with_dtype!(v.dtype(), T, {
        let src = v.to_vec::<T>()?;
        let dst = out.data_mut::<T>();
        let (r0, c0) = if k >= 0 { (0, k as usize) } else { (k.unsigned_abs(), 0) };
        for (i, x) in src.into_iter().enumerate() {
            dst[(r0 + i) * size + c0 + i] = x;
        }
    });
    Ok(out.with_weak(v.is_weak()))
}

/// [`diag`] of the flattened input (`tnp.diagflat`).
///
/// ```
/// let m = lattensor::numpy::diagflat(vec![vec![1, 2]], 0).unwrap();
/// assert_eq!(m.to_vec::<i32>().unwrap(), vec![1, 0, 0, 2]);
/// ```
///
/// # Errors
/// As [`diag`].
pub fn diagflat(v: impl Into<Value>, k: isize) -> Result<Tensor> {
    diag(&ravel(v)?, k)
}

/// Zeroes the elements below diagonal `k` of the last two axes (`tnp.triu`):
/// keeps `m[..., i, j]` where `j - i ≥ k`. Bool is accepted (TF 2.21 refuses it).
///
/// ```
/// let m = lattensor::constant(vec![vec![1, 2], vec![3, 4]]).unwrap();
/// assert_eq!(lattensor::numpy::triu(&m, 0).unwrap().to_vec::<i32>().unwrap(), vec![1, 2, 0, 4]);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] for rank < 2 (TF's `ValueError`).
pub fn triu(m: impl Into<Value>, k: isize) -> Result<Tensor> {
    let m = to_tensor(m)?;
    crate::ensure!(
        m.rank() >= 2,
        InvalidValue,
        "triu: the input must have rank at least 2, got shape {:?}; add axes first (e.g. atleast_2d)",
        m.shape()
    );
    tape::op(&[&m], || keep_band(&m, |offset| offset >= k), || selection(move |t| triu(t, k)))
}

/// `m` (rank ≥ 2) with the elements of each trailing matrix kept where
/// `keep(j - i)` holds and zeros elsewhere; dtype and weakness kept.
pub(super) fn keep_band(m: &Tensor, keep: impl Fn(isize) -> bool) -> Result<Tensor> {
    let r = m.rank();
    let (rows, cols) = (m.shape()[r - 2], m.shape()[r - 1]);
    let mut out = Tensor::zeros(m.shape(), m.dtype())?;
    with_dtype!(m.dtype(), T, {
        let src = m.to_vec::<T>()?;
        let dst = out.data_mut::<T>();
        for (idx, (o, x)) in dst.iter_mut().zip(src).enumerate() {
            let (i, j) = ((idx / cols.max(1)) % rows.max(1), idx % cols.max(1));
            if keep(j as isize - i as isize) {
                *o = x;
            }
        }
    });
    Ok(out.with_weak(m.is_weak()))
}

/// The Vandermonde matrix of a 1-D `x` (`tnp.vander`): `N` columns (default `len(x)`)
/// of powers, decreasing (`x^(N-1) … x^0`) unless `increasing`. Integers wrap.
///
/// ```
/// let v = lattensor::numpy::vander(vec![2, 3], None, false).unwrap();
/// assert_eq!(v.to_vec::<i32>().unwrap(), vec![2, 1, 3, 1]);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] unless `x` is 1-D (TF's `ValueError`); [`Error::UnsupportedDType`]
/// for bool and unsigned integers (as TF).
pub fn vander(x: impl Into<Value>, n: Option<usize>, increasing: bool) -> Result<Tensor> {
    let x = to_tensor(x)?;
    if x.rank() != 1 {
        return Err(Error::InvalidValue(format!("vander: x must be 1-D, got shape {:?}", x.shape())));
    }
    let d = x.dtype();
    if d.is_bool() || d.is_unsigned() || d.is_low_precision() {
        return Err(unsupported("vander", d, "signed integers, floats and complex numbers"));
    }
    let rows = x.shape()[0];
    let cols = n.unwrap_or(rows);
    if tape::recording() && d.is_inexact() && cols > 0 {
        // built from recorded ops, so that tapes differentiate it: the columns are the
        // running products of [1, x, x, …], multiplied in the kernel's order and precision
        let col = x.reshape(&[rows as isize, 1])?;
        let ones = crate::ones_like(&col, None)?;
        let powers = crate::concat(&[&ones, &col.broadcast_to(&[rows, cols - 1])?], 1)?;
        let inc = super::cumprod(&powers, Some(1), None)?;
        let out = if increasing { inc } else { flip(&inc, 1)? };
        return Ok(out.with_weak(x.is_weak()));
    }
    let mut out = Tensor::zeros(&[rows, cols], d)?;
    fn fill<A: Copy, T: Element>(
        src: Vec<A>,
        dst: &mut [T],
        cols: usize,
        inc: bool,
        one: A,
        mul: fn(A, A) -> A,
        put: fn(A) -> T,
    ) {
        for (i, &v) in src.iter().enumerate() {
            let mut p = one;
            for j in 0..cols {
                let c = if inc { j } else { cols - 1 - j };
                dst[i * cols + c] = put(p);
                p = mul(p, v);
            }
        }
    }
    crate::with_numeric_dtype!(d, T, {
        let dst = out.data_mut::<T>();
        if d.is_complex() {
            let one = num_complex::Complex64::new(1.0, 0.0);
            fill(x.to_vec()?, dst, cols, increasing, one, |a, b| a * b, T::from_c128);
        } else if d.is_float() {
            fill(x.to_vec::<f64>()?, dst, cols, increasing, 1.0, |a, b| a * b, T::from_f64);
        } else {
            fill(x.to_vec::<i64>()?, dst, cols, increasing, 1, i64::wrapping_mul, T::from_i64);
        }
    }, bool => unreachable!("bool refused above"));
    Ok(out.with_weak(x.is_weak()))
}

/// The `n`-th discrete difference along `axis` (`tnp.diff`): `a[1:] - a[:-1]`, `n` times
/// (`!=` for bool). Integers wrap. `n = 0` returns the input; `n` at least the axis
/// length gives an empty axis, as in NumPy.
///
/// ```
/// let d = lattensor::numpy::diff(vec![1, 4, 9, 16], 1, -1).unwrap();
/// assert_eq!(d.to_vec::<i32>().unwrap(), vec![3, 5, 7]);
/// assert_eq!(lattensor::numpy::diff(vec![1, 4, 9, 16], 2, -1).unwrap().to_vec::<i32>().unwrap(), vec![2, 2]);
/// assert_eq!(lattensor::numpy::diff(vec![1, 4, 9, 16], usize::MAX, -1).unwrap().shape(), &[0]);
/// ```
///
/// # Errors
/// [`Error::InvalidIndex`] for a 0-d input (TF's `IndexError`); [`Error::InvalidArgument`]
/// for an axis out of range.
pub fn diff(a: impl Into<Value>, n: usize, axis: isize) -> Result<Tensor> {
    let mut a = to_tensor(a)?;
    need_rank("diff", &a, 1).map_err(|e| Error::InvalidIndex(e.to_string()))?;
    let ax = normalize_axis(axis, a.rank(), "diff")?;
    // each difference shortens the axis by one; once it is empty, further ones change
    // nothing (not the dtype either), so a huge `n` must not loop `n` times
    for _ in 0..n.min(a.shape()[ax]) {
        let mut hi = vec![SliceArg::FULL; ax + 1];
        let mut lo = hi.clone();
        hi[ax] = SliceArg::stepped(Some(1), None, 1);
        lo[ax] = SliceArg::stepped(None, Some(-1), 1);
        let (h, l) = (a.slice(&hi)?, a.slice(&lo)?);
        a = if a.dtype().is_bool() { ops::not_equal(&h, &l)? } else { ops::subtract(&h, &l)? };
    }
    Ok(a)
}

/// Repeats elements (`tnp.repeat`): each element along `axis` (of the flattened input
/// for `None`) `repeats[i]` times; a single count applies to every element.
/// Any dtype (TF 2.21 has no uint16 kernel).
///
/// ```
/// let r = lattensor::numpy::repeat(vec![vec![1, 2], vec![3, 4]], &[1, 2], Some(0)).unwrap();
/// assert_eq!((r.shape(), r.to_vec::<i32>().unwrap()), (&[3usize, 2][..], vec![1, 2, 3, 4, 3, 4]));
/// assert_eq!(lattensor::numpy::repeat(vec![1, 2], &[2], None).unwrap().to_vec::<i32>().unwrap(), vec![1, 1, 2, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `repeats` has neither one nor `len(axis)` entries, or the axis is out of range;
/// [`Error::ResourceExhausted`] if the result is too large.
pub fn repeat(a: impl Into<Value>, repeats: &[usize], axis: Option<isize>) -> Result<Tensor> {
    let a = to_tensor(a)?;
    tape::op(
        &[&a],
        || repeat_of(&a, repeats, axis),
        || {
            let repeats = repeats.to_vec();
            selection(move |t| repeat_of(t, &repeats, axis))
        },
    )
}

fn repeat_of(a: &Tensor, repeats: &[usize], axis: Option<isize>) -> Result<Tensor> {
    let (a, ax) = match axis {
        None => (a.reshape(&[-1])?, 0),
        Some(ax) => {
            need_rank("repeat", a, 1)?;
            let ax = normalize_axis(ax, a.rank(), "repeat")?;
            (a.clone(), ax)
        }
    };
    let len = a.shape()[ax];
    // one count for every element is not spelled out: an empty tensor's axis can be 2⁴⁰ long
    let count = |i: usize| if repeats.len() == 1 { repeats[0] } else { repeats[i] };
    let total = match repeats.len() {
        1 => len.checked_mul(repeats[0]),
        n if n == len => repeats.iter().try_fold(0usize, |s, &c| s.checked_add(c)),
        n => {
            return Err(Error::InvalidArgument(format!(
                "repeat: {n} repeat counts for axis {ax} of length {len}; give one count or one per element"
            )));
        }
    }
    .ok_or_else(|| Error::ResourceExhausted("repeat: the total repeat count overflows".into()))?;
    // gather rows of the tensor with `ax` moved first
    let r = a.rank();
    let mut perm = vec![ax];
    perm.extend((0..r).filter(|&i| i != ax));
    let at = a.transpose(&perm)?;
    let inner: usize = crate::core::layout::dims_product(at.shape()[1..].iter().copied());
    let mut shape = at.shape().to_vec();
    shape[0] = total;
    let mut out = Tensor::zeros(&shape, a.dtype())?;
    // (an empty result has nothing to copy, however large its counts: don't loop over them)
    with_dtype!(
        a.dtype(),
        T,
        if out.numel() > 0 {
            let src = at.to_vec::<T>()?;
            let dst = out.data_mut::<T>();
            let mut o = 0;
            for i in 0..len {
                for _ in 0..count(i) {
                    dst[o * inner..(o + 1) * inner].copy_from_slice(&src[i * inner..(i + 1) * inner]);
                    o += 1;
                }
            }
        }
    );
    let mut inv = vec![0usize; r];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    Ok(out.transpose(&inv)?.with_weak(a.is_weak()))
}

/// Elements of `a` picked by `indices` along `axis` (`tnp.take`); with
/// `axis = None`, from the flattened `a`. The result has shape
/// `a.shape[..axis] + indices.shape + a.shape[axis + 1..]`, `a`'s dtype, and
/// is strong (as TF 2.21's).
///
/// Out-of-range indices follow `mode`. TF's default is [`TakeMode::Clip`](crate::TakeMode::Clip),
/// which clamps them, so `take(a, -1)` is the *first* element (as TF 2.21,
/// not NumPy, whose default `raise` gives the last); [`TakeMode::Raise`](crate::TakeMode::Raise) is
/// NumPy's rule, which TF does not support.
///
/// ```
/// use lattensor::{numpy, Tensor, TakeMode};
/// let a = Tensor::from_vec(vec![10, 20, 30, 40], &[2, 2]).unwrap();
/// assert_eq!(numpy::take(&a, [3, 0], None, TakeMode::Clip).unwrap().to_vec::<i32>().unwrap(), vec![40, 10]);
/// assert_eq!(numpy::take(&a, 1, Some(1), TakeMode::Clip).unwrap().to_vec::<i32>().unwrap(), vec![20, 40]);
/// assert_eq!(numpy::take(&a, -1, None, TakeMode::Clip).unwrap().item::<i32>().unwrap(), 10);
/// assert_eq!(numpy::take(&a, -1, None, TakeMode::Raise).unwrap().item::<i32>().unwrap(), 40);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range, non-integer indices,
/// an index out of range in [`TakeMode::Raise`](crate::TakeMode::Raise), or any index into an empty axis.
pub fn take(
    a: impl Into<Value>,
    indices: impl Into<Value>,
    axis: Option<isize>,
    mode: crate::TakeMode,
) -> Result<Tensor> {
    let (a, it) = (to_tensor(a)?, to_tensor(indices)?);
    tape::op(
        &[&a],
        || take_of(&a, &it, axis, mode),
        || {
            let it = it.clone();
            selection(move |t| take_of(t, &it, axis, mode))
        },
    )
}

fn take_of(a: &Tensor, it: &Tensor, axis: Option<isize>, mode: crate::TakeMode) -> Result<Tensor> {
    let mut idx = crate::ops::gather::integer_indices("take", it)?;
    let (a, ax) = match axis {
        None => (a.reshape(&[-1])?, 0),
        Some(x) => {
            let ax = normalize_axis(x, a.rank(), "take")?;
            (a.clone(), ax)
        }
    };
    crate::ops::gather::take_indices(&mut idx, a.shape()[ax], mode)?;
    crate::ops::gather::gather_indices("take", &a, &idx, it.shape(), ax as isize, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m34() -> Tensor {
        Tensor::from_vec((0..12).collect::<Vec<i32>>(), &[3, 4]).unwrap()
    }

    #[test]
    fn reshape_in_fortran_order_fills_the_first_index_fastest() {
        // np.arange(24).reshape(2, 3, 4) reshaped to (4, -1) and flattened in order 'F'
        let a = Tensor::from_vec((0..24).collect::<Vec<i64>>(), &[2, 3, 4]).unwrap();
        let r = reshape_in(&a, &[4, -1], Order::F).unwrap();
        assert_eq!(r.shape(), &[4, 6]);
        let want: Vec<i64> = vec![0, 8, 5, 2, 10, 7, 12, 20, 17, 14, 22, 19, 4, 1, 9, 6, 3, 11, 16, 13, 21, 18, 15, 23];
        assert_eq!(r.to_vec::<i64>().unwrap(), want);
        let f = flatten_in(&a, Order::F).unwrap().to_vec::<i64>().unwrap();
        assert_eq!(&f[..6], &[0, 12, 4, 16, 8, 20]);
        assert_eq!(reshape_in(&a, &[24], Order::C).unwrap().to_vec::<i64>().unwrap(), (0..24).collect::<Vec<_>>());
        assert!(reshape_in(&a, &[5, -1], Order::F).is_err());
        assert!(Order::parse("reshape", "A").unwrap_err().to_string().contains("order"));
        let s = reshape_in(Tensor::scalar(7i8), &[1, 1], Order::F).unwrap();
        assert_eq!(s.shape(), &[1, 1]);
    }

    #[test]
    fn views_share_storage() {
        let m = m34();
        for v in [
            flip(&m, None).unwrap(),
            rot90(&m, 1, (0, 1)).unwrap(),
            swapaxes(&m, 0, 1).unwrap(),
            moveaxis(&m, 0, 1).unwrap(),
            diagonal(&m, -1, 0, 1).unwrap(),
            ravel(&m).unwrap(),
        ] {
            assert!(v.shares_storage_with(&m));
        }
        assert_eq!(diagonal(&m, -1, 0, 1).unwrap().to_vec::<i32>().unwrap(), vec![4, 9]);
        assert_eq!(diagonal(&m, 5, 0, 1).unwrap().shape(), &[0]);
    }

    #[test]
    fn rot90_matches_numpy() {
        let m = m34();
        // np.rot90(np.arange(12).reshape(3, 4)) = [[3,7,11],[2,6,10],[1,5,9],[0,4,8]]
        assert_eq!(rot90(&m, 1, (0, 1)).unwrap().to_vec::<i32>().unwrap(), vec![3, 7, 11, 2, 6, 10, 1, 5, 9, 0, 4, 8]);
        assert_eq!(
            rot90(&m, -1, (0, 1)).unwrap().to_vec::<i32>().unwrap(),
            rot90(&m, 3, (0, 1)).unwrap().to_vec::<i32>().unwrap()
        );
        assert!(rot90(&m, 1, (0, 0)).is_err());
    }

    #[test]
    fn repeat_and_triu() {
        let m = m34();
        let r = repeat(&m, &[2, 0, 1, 1], Some(-1)).unwrap();
        assert_eq!(r.shape(), &[3, 4]);
        assert_eq!(r.to_vec::<i32>().unwrap()[..4], [0, 0, 2, 3]);
        assert!(repeat(&m, &[1, 2], Some(0)).is_err());
        let t = triu(&m, 1).unwrap().to_vec::<i32>().unwrap();
        assert_eq!(t, vec![0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11]);
        assert!(triu(vec![1, 2], 0).is_err());
    }

    #[test]
    fn diff_of_bool_and_unsigned() {
        let b = Tensor::from_vec(vec![true, true, false], &[3]).unwrap();
        assert_eq!(diff(&b, 1, 0).unwrap().to_vec::<bool>().unwrap(), vec![false, true]);
        let u = Tensor::from_vec(vec![5u8, 3], &[2]).unwrap();
        assert_eq!(diff(&u, 1, 0).unwrap().to_vec::<u8>().unwrap(), vec![254]);
        assert!(diff(Tensor::scalar(1i32), 1, 0).is_err());
    }

    #[test]
    fn repeat_of_an_empty_tensor_is_quick_whatever_its_counts() {
        // found by the `ops` fuzz target: counts of 2⁴⁰ on a tensor with a zero dimension
        // looped 2⁴⁰ times copying nothing; an axis of 2⁴⁰ (other axis 0) spelled out 2⁴⁰ counts
        let e = Tensor::zeros(&[3, 0], crate::DType::F32).unwrap();
        let r = repeat(&e, &[1 << 40], Some(0)).unwrap();
        assert_eq!(r.shape(), &[3 << 40, 0]);
        let wide = Tensor::zeros(&[0], crate::DType::I8).unwrap().reshape(&[0, 1 << 40]).unwrap();
        assert_eq!(repeat(&wide, &[2], Some(1)).unwrap().shape(), &[0, 1 << 41]);
        assert!(matches!(repeat(&e, &[usize::MAX], Some(0)), Err(Error::ResourceExhausted(_))));
    }

    #[test]
    fn diff_more_times_than_the_axis_is_long_is_empty_and_quick() {
        // np.diff(np.ones((2, 3), np.int16), n=5) has shape (2, 0) and dtype int16; a fuzzed
        // n of 2⁴⁰ used to loop 2⁴⁰ times
        let a = Tensor::from_vec(vec![1i16; 6], &[2, 3]).unwrap();
        for n in [3, 4, 5, 1 << 40, usize::MAX] {
            let d = diff(&a, n, 1).unwrap();
            assert_eq!((d.shape(), d.dtype()), (&[2usize, 0][..], crate::DType::I16), "n = {n}");
        }
        let b = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        let d = diff(&b, usize::MAX, 0).unwrap();
        assert_eq!((d.shape(), d.dtype()), (&[0usize][..], crate::DType::Bool));
    }
}
