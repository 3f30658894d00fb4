//! TF's top-level shape and identity functions (`tf.identity`,
//! `tf.stop_gradient`, `tf.reshape`, `tf.squeeze`, `tf.transpose`,
//! `tf.expand_dims`) as free functions with TF's argument conventions.
//! All of them keep dtype and weakness, as TF does.
//!
//! Also `tf.split` ([`split`]: zero-copy views of the parts) and `tf.pad`
//! ([`pad`]: constant, reflected or symmetric borders); their results are
//! strong, as TF's are (neither is on TF's WeakTensor list).

use crate::core::error::{Error, Result};
use crate::core::layout::normalize_axis;
use crate::core::tape::{self, TapeOp};
use crate::{Element, SliceArg, Tensor, Value, ops, with_dtype};

/// `x` itself (`tf.identity`): same dtype, weakness, shape and values.
///
/// Tensors are immutable, so the result shares `x`'s storage (O(1)).
///
/// ```
/// use lattensor::{constant, identity};
/// let x = constant([1.5, 2.5]).unwrap();
/// let y = identity(&x);
/// assert_eq!((y.is_weak(), y.to_vec::<f32>().unwrap()), (true, vec![1.5, 2.5]));
/// ```
pub fn identity(x: &Tensor) -> Tensor {
    x.clone()
}

/// `x`'s values as a tensor no gradient tape tracks (`tf.stop_gradient`):
/// gradients do not flow through it. O(1); shares `x`'s storage.
///
/// ```
/// use lattensor::{stop_gradient, GradientTape, Tensor};
/// let x = Tensor::scalar(3.0f64);
/// let tape = GradientTape::new();
/// tape.watch(&x);
/// let y = tape.record(|| lattensor::ops::multiply(&x, &stop_gradient(&x))).unwrap();
/// // d(x · c)/dx with c = x held constant
/// assert_eq!(tape.gradient(&y, &[&x]).unwrap()[0].as_ref().unwrap().item::<f64>().unwrap(), 3.0);
/// ```
pub fn stop_gradient(x: &Tensor) -> Tensor {
    x.untracked()
}

/// `tf.reshape(tensor, shape)`: the same elements in row-major order with a
/// new shape; one entry may be `-1` (inferred). A view when the layout
/// allows, otherwise a copy. See [`Tensor::reshape`].
///
/// ```
/// use lattensor::{reshape, Tensor};
/// let x = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let y = reshape(&x, &[3, -1]).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<i32>().unwrap()), (&[3usize, 2][..], vec![0, 1, 2, 3, 4, 5]));
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] if the element counts differ or the shape is malformed.
pub fn reshape(tensor: &Tensor, shape: &[isize]) -> Result<Tensor> {
    tensor.reshape(shape)
}

/// `tf.squeeze(input, axis)`: removes the listed length-1 axes (negative
/// axes count from the end), or every length-1 axis if `axis` is empty (TF's
/// `axis=None` or `[]`). A view.
///
/// ```
/// use lattensor::{squeeze, Tensor};
/// let x = Tensor::from_vec(vec![1.0f32, 2.0], &[1, 2, 1]).unwrap();
/// assert_eq!(squeeze(&x, &[]).unwrap().shape(), &[2]);
/// assert_eq!(squeeze(&x, &[-1]).unwrap().shape(), &[1, 2]);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] for an axis out of range or not of length 1.
pub fn squeeze(input: &Tensor, axis: &[isize]) -> Result<Tensor> {
    input.squeeze(axis)
}

/// `tf.transpose(a, perm, conjugate)`: output axis `i` is input axis
/// `perm[i]`; `None` reverses the axes (TF's default). With `conjugate`,
/// complex values are conjugated too (TF's `conjugate=True`); otherwise the
/// result is a view.
///
/// ```
/// use lattensor::{transpose, Tensor};
/// let x = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let t = transpose(&x, None, false).unwrap();
/// assert_eq!((t.shape(), t.to_vec::<i32>().unwrap()), (&[3usize, 2][..], vec![0, 3, 1, 4, 2, 5]));
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] if `perm` is not a permutation of the axes.
pub fn transpose(a: &Tensor, perm: Option<&[usize]>, conjugate: bool) -> Result<Tensor> {
    let t = match perm {
        Some(p) => a.transpose(p)?,
        None => a.t(),
    };
    if conjugate { ops::conj(&t) } else { Ok(t) }
}

/// `tf.expand_dims(input, axis)`: inserts a length-1 axis at `axis`
/// (in `[-rank-1, rank]`; negative counts from the end). A view.
///
/// ```
/// use lattensor::{expand_dims, Tensor};
/// let x = Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
/// assert_eq!(expand_dims(&x, 0).unwrap().shape(), &[1, 2]);
/// assert_eq!(expand_dims(&x, -1).unwrap().shape(), &[2, 1]);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] for an axis out of range.
pub fn expand_dims(input: &Tensor, axis: isize) -> Result<Tensor> {
    input.expand_dims(axis)
}

// ---- split ----------------------------------------------------------------------

/// How [`split`] divides an axis (`tf.split`'s `num_or_size_splits`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Splits {
    /// This many parts of equal length; the count must divide the axis length.
    Count(i64),
    /// Parts of these lengths, in order; they sum to the axis length, or one
    /// of them is `-1` and takes what the others leave.
    Sizes(Vec<i64>),
}

impl From<i32> for Splits {
    fn from(n: i32) -> Self {
        Splits::Count(n.into())
    }
}

impl From<i64> for Splits {
    fn from(n: i64) -> Self {
        Splits::Count(n)
    }
}

impl From<usize> for Splits {
    fn from(n: usize) -> Self {
        Splits::Count(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<Vec<i64>> for Splits {
    fn from(sizes: Vec<i64>) -> Self {
        Splits::Sizes(sizes)
    }
}

impl From<&[i64]> for Splits {
    fn from(sizes: &[i64]) -> Self {
        Splits::Sizes(sizes.to_vec())
    }
}

impl<const N: usize> From<[i32; N]> for Splits {
    fn from(sizes: [i32; N]) -> Self {
        Splits::Sizes(sizes.iter().map(|&s| s.into()).collect())
    }
}

impl<const N: usize> From<[i64; N]> for Splits {
    fn from(sizes: [i64; N]) -> Self {
        Splits::Sizes(sizes.to_vec())
    }
}

/// `tf.split(value, num_or_size_splits, axis)`: `value` cut along `axis`
/// (negative counts from the end) into [`Splits::Count`] equal parts or parts
/// of the given [`Splits::Sizes`] (one size may be `-1`: the rest of the axis).
///
/// Each part is a zero-copy view of `value`'s storage with `value`'s dtype. The
/// parts are strong, as TF's are (`tf.split` is not on TF's WeakTensor list).
///
/// ```
/// use lattensor::{split, DType, Splits, Tensor};
/// let x = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let cols = split(&x, 3, 1).unwrap();
/// assert_eq!(cols.len(), 3);
/// assert_eq!((cols[2].shape(), cols[2].to_vec::<i32>().unwrap()), (&[2usize, 1][..], vec![2, 5]));
/// assert!(cols[0].shares_storage_with(&x));
/// let parts = split(&Tensor::from_vec(vec![1.5f32, 2.5, 3.5, 4.5], &[4]).unwrap(), [1, -1, 1], 0).unwrap();
/// let lens: Vec<usize> = parts.iter().map(|p| p.shape()[0]).collect();
/// assert_eq!((lens, parts[1].to_vec::<f32>().unwrap()), (vec![1, 2, 1], vec![2.5, 3.5]));
/// assert!(split(&x, Splits::Count(4), 0).is_err()); // 4 parts do not divide 2 rows
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a 0-d `value`, an axis out of range, a
/// count below 1 or not dividing the axis length, an empty list of sizes, a
/// size below `-1`, more than one `-1`, or sizes that do not sum to the axis
/// length (that leave a negative rest, with a `-1`);
/// [`Error::ResourceExhausted`] for a count of parts too large to hold.
pub fn split(value: &Tensor, num_or_size_splits: impl Into<Splits>, axis: isize) -> Result<Vec<Tensor>> {
    tape::op_n(
        &[value],
        || {
            let op = "split";
            let ax = split_axis(op, value, axis)?;
            let len = value.shape()[ax];
            let sizes = match num_or_size_splits.into() {
                Splits::Count(n) => equal_parts(op, value, ax, n)?,
                Splits::Sizes(sizes) => {
                    crate::ensure!(
                        !sizes.is_empty(),
                        "{op}: the list of sizes is empty; give at least one size (they must sum to {len}, the length of axis {ax} of shape {:?})",
                        value.shape()
                    );
                    let mut rest = Some(len as i128);
                    let mut open = None;
                    for (i, &s) in sizes.iter().enumerate() {
                        if s == -1 {
                            crate::ensure!(
                                open.is_none(),
                                "{op}: sizes {sizes:?} hold more than one -1; at most one size can be inferred"
                            );
                            open = Some(i);
                        } else {
                            crate::ensure!(
                                s >= 0,
                                "{op}: size {s} at index {i} of {sizes:?} is negative; sizes must be ≥ 0 (or -1 for the rest)"
                            );
                            rest = rest.map(|r| r - s as i128);
                        }
                    }
                    let rest = rest.unwrap_or(0);
                    match open {
                        Some(i) if rest >= 0 => {
                            let mut v: Vec<usize> = sizes.iter().map(|&s| s.max(0) as usize).collect();
                            v[i] = rest as usize;
                            v
                        }
                        Some(_) => crate::bail!(
                            "{op}: sizes {sizes:?} already exceed {len}, the length of axis {ax} of shape {:?}; the -1 would be negative",
                            value.shape()
                        ),
                        None if rest == 0 => sizes.iter().map(|&s| s as usize).collect(),
                        None => crate::bail!(
                            "{op}: sizes {sizes:?} sum to {}, not to {len}, the length of axis {ax} of shape {:?}; make them sum to {len} or put -1 for one part",
                            len as i128 - rest,
                            value.shape()
                        ),
                    }
                }
            };
            let mut bounds = Vec::with_capacity(sizes.len());
            let mut at = 0usize;
            for s in sizes {
                bounds.push((at, at + s));
                at += s;
            }
            parts_along(value, ax, bounds.into_iter().map(|(a, b)| (a as i64, b as i64)))
        },
        || TapeOp::Split(split_axis("split", value, axis).unwrap_or(0)),
    )
}

/// `axis` normalised for splitting `value`, which must have an axis.
pub(crate) fn split_axis(op: &str, value: &Tensor, axis: isize) -> Result<usize> {
    crate::ensure!(
        value.rank() >= 1,
        "{op}: cannot split a 0-d tensor (shape []): there is no axis to cut; reshape it to [1] first"
    );
    normalize_axis(axis, value.rank(), op)
}

/// `n` equal lengths for axis `ax` of `value`, or an error if `n` does not divide it.
pub(crate) fn equal_parts(op: &str, value: &Tensor, ax: usize, n: i64) -> Result<Vec<usize>> {
    let len = value.shape()[ax];
    crate::ensure!(n >= 1, "{op}: the number of parts must be at least 1, got {n}");
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    // every part is a tensor of its own: refuse counts whose handles alone exceed the memory limit
    let per_part = std::mem::size_of::<Tensor>() + 2 * value.rank() * std::mem::size_of::<usize>();
    crate::core::storage::check_alloc(n.saturating_mul(per_part), &format!("{op} ({n} parts)"))?;
    crate::ensure!(
        len.is_multiple_of(n),
        "{op}: {n} equal parts do not divide axis {ax} of length {len} (shape {:?}); give a count that divides {len}, or a list of sizes",
        value.shape()
    );
    Ok(vec![len / n; n])
}

/// Views of `value` between each `(start, stop)` of `bounds` along `ax`
/// (Python slice semantics: negative counts from the end, out of range clamps), strong.
pub(crate) fn parts_along(value: &Tensor, ax: usize, bounds: impl Iterator<Item = (i64, i64)>) -> Result<Vec<Tensor>> {
    let mut args = vec![SliceArg::FULL; ax + 1];
    bounds
        .map(|(a, b)| {
            args[ax] = SliceArg::range(a as isize, b as isize);
            Ok(value.slice(&args)?.with_weak(false))
        })
        .collect()
}

// ---- pad --------------------------------------------------------------------------

/// How [`pad`] fills the border (`tf.pad`'s `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMode {
    /// A constant value (`constant_values`).
    Constant,
    /// The input mirrored without repeating the edge: `[1, 2, 3]` padded by 2
    /// on both sides is `[3, 2, 1, 2, 3, 2, 1]`.
    Reflect,
    /// The input mirrored, edge included: `[1, 2, 3]` padded by 2 on both sides
    /// is `[2, 1, 1, 2, 3, 3, 2]`.
    Symmetric,
}

impl std::str::FromStr for PadMode {
    type Err = Error;

    /// `"CONSTANT"`, `"REFLECT"` or `"SYMMETRIC"`, in any case (as `tf.pad`).
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_uppercase().as_str() {
            "CONSTANT" => Ok(PadMode::Constant),
            "REFLECT" => Ok(PadMode::Reflect),
            "SYMMETRIC" => Ok(PadMode::Symmetric),
            _ => Err(Error::InvalidArgument(format!(
                "pad: mode must be \"CONSTANT\", \"REFLECT\" or \"SYMMETRIC\" (any case), got {s:?}"
            ))),
        }
    }
}

/// `tf.pad(tensor, paddings, mode, constant_values)`: `tensor` with
/// `paddings[i][0]` elements added before and `paddings[i][1]` after its
/// axis `i`. `paddings` is an integer array-like of shape `[rank, 2]`.
///
/// [`PadMode::Constant`] fills the border with `constant_values`, converted to
/// `tensor`'s dtype by `tf.constant`'s rule ([`crate::constant_as`]: `300`
/// wraps to 44 in int8, `7.5` is refused for int32; a bool tensor takes
/// `false`/`true`, where Python's `tf.pad` also accepts its default `0`); it must
/// be a single value. [`PadMode::Reflect`] and [`PadMode::Symmetric`] mirror the input and
/// ignore `constant_values`; as in TF, a reflected border must be shorter than
/// the axis and a symmetric one at most as long.
///
/// The result has `tensor`'s dtype and is strong, as TF's is.
///
/// ```
/// use lattensor::{pad, DType, PadMode, Tensor};
/// let x = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
/// let p = pad(&x, [[1, 0], [0, 2]], PadMode::Constant, 9).unwrap();
/// assert_eq!(p.shape(), &[3, 4]);
/// assert_eq!(p.to_vec::<i32>().unwrap(), vec![9, 9, 9, 9, 1, 2, 9, 9, 3, 4, 9, 9]);
/// let v = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
/// let r = pad(&v, [[2, 2]], PadMode::Reflect, 0).unwrap();
/// assert_eq!(r.to_vec::<f32>().unwrap(), vec![3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]);
/// let s = pad(&v, [[3, 1]], PadMode::Symmetric, 0).unwrap();
/// assert_eq!(s.to_vec::<f32>().unwrap(), vec![3.0, 2.0, 1.0, 1.0, 2.0, 3.0, 3.0]);
/// assert!(pad(&v, [[3, 0]], PadMode::Reflect, 0).is_err()); // 3 is not < 3
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `paddings` is not an integer array of shape
/// `[rank, 2]`, holds a negative value, or is too long for a mirrored axis;
/// if `constant_values` is not a single value or does not convert to the
/// dtype; [`Error::ResourceExhausted`] if the result is too large.
pub fn pad(
    tensor: &Tensor,
    paddings: impl Into<Value>,
    mode: PadMode,
    constant_values: impl Into<Value>,
) -> Result<Tensor> {
    let op = "pad";
    let p = crate::constant(paddings)?;
    crate::ensure!(
        p.dtype().is_integer(),
        "{op}: paddings must be integers, got {} (shape {:?}); give whole numbers of elements",
        p.dtype(),
        p.shape()
    );
    crate::ensure!(
        p.rank() == 2 && p.shape()[1] == 2,
        "{op}: paddings must be a matrix with 2 columns ([before, after] per axis), got shape {:?}",
        p.shape()
    );
    crate::ensure!(
        p.shape()[0] == tensor.rank(),
        "{op}: paddings has {} rows but the input has rank {} (shape {:?}); give one [before, after] row per axis",
        p.shape()[0],
        tensor.rank(),
        tensor.shape()
    );
    let pads = pad_pairs(op, &p, tensor.shape())?;
    pad_with(op, tensor, &pads, mode, constant_values.into(), false)
}

/// The `[rank, 2]` integer tensor `p` as non-negative (before, after) pairs.
pub(crate) fn pad_pairs(op: &str, p: &Tensor, shape: &[usize]) -> Result<Vec<(usize, usize)>> {
    let v = p.to_vec::<i64>()?;
    v.chunks_exact(2)
        .enumerate()
        .map(|(ax, pair)| {
            let (b, a) = (pair[0], pair[1]);
            crate::ensure!(
                b >= 0 && a >= 0,
                "{op}: paddings must be non-negative; got [{b}, {a}] for axis {ax} of shape {shape:?}"
            );
            Ok((usize::try_from(b).unwrap_or(usize::MAX), usize::try_from(a).unwrap_or(usize::MAX)))
        })
        .collect()
}

/// Pads `x` by `pads` (one pair per axis, already validated as non-negative).
/// With `numpy_rules`, mirrored borders may be longer than the axis (the
/// mirror repeats, as NumPy's); without, TF's limits apply.
pub(crate) fn pad_with(
    op: &str,
    x: &Tensor,
    pads: &[(usize, usize)],
    mode: PadMode,
    constant_values: Value,
    numpy_rules: bool,
) -> Result<Tensor> {
    if !tape::recording() {
        return pad_untaped(op, x, pads, mode, constant_values, numpy_rules);
    }
    let (op_name, pads_v) = (op.to_string(), pads.to_vec());
    let select = move |t: &[Tensor]| {
        let filler = Value::Literal(crate::Scalar::from(0i64));
        pad_untaped(&op_name, &t[0], &pads_v, mode, filler, numpy_rules)
    };
    tape::op(
        &[x],
        || pad_untaped(op, x, pads, mode, constant_values, numpy_rules),
        || TapeOp::Select(std::rc::Rc::new(select)),
    )
}

fn pad_untaped(
    op: &str,
    x: &Tensor,
    pads: &[(usize, usize)],
    mode: PadMode,
    constant_values: Value,
    numpy_rules: bool,
) -> Result<Tensor> {
    let dtype = x.dtype();
    let fill = match mode {
        PadMode::Constant => {
            let f = crate::constant_as(constant_values, dtype)?;
            crate::ensure!(
                f.rank() == 0,
                "{op}: constant_values must be a single value, got shape {:?}; pass a scalar",
                f.shape()
            );
            Some(f)
        }
        // mirrored borders never read it (TF ignores it too)
        PadMode::Reflect | PadMode::Symmetric => None,
    };
    let mut shape = Vec::with_capacity(pads.len());
    for (ax, (&n, &(b, a))) in x.shape().iter().zip(pads).enumerate() {
        match mode {
            PadMode::Constant => {}
            _ if numpy_rules => crate::ensure!(
                n > 0 || (b == 0 && a == 0),
                "{op}: cannot extend the empty axis {ax} (shape {:?}) by mirroring; use mode 'constant'",
                x.shape()
            ),
            PadMode::Reflect => crate::ensure!(
                b < n && a < n,
                "{op}: REFLECT paddings must be less than the axis length: [{b}, {a}] for axis {ax} of length {n} (shape {:?}); \
                 use SYMMETRIC (up to the length) or CONSTANT",
                x.shape()
            ),
            PadMode::Symmetric => crate::ensure!(
                b <= n && a <= n,
                "{op}: SYMMETRIC paddings must be at most the axis length: [{b}, {a}] for axis {ax} of length {n} (shape {:?}); \
                 use CONSTANT for longer borders",
                x.shape()
            ),
        }
        let len = n.checked_add(b).and_then(|l| l.checked_add(a)).ok_or_else(|| {
            Error::ResourceExhausted(format!("{op}: axis {ax} of length {n} padded by [{b}, {a}] overflows usize"))
        })?;
        shape.push(len);
    }
    if x.rank() == 0 {
        return Ok(x.clone().with_weak(false));
    }
    // allocated first: its size check bounds the per-axis index maps below
    let mut out = Tensor::for_overwrite(op, &shape, dtype)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    with_dtype!(dtype, T, {
        let fill: T = match &fill {
            Some(f) => f.item::<T>()?,
            None => T::default(),
        };
        let dst = out.data_mut::<T>();
        if x.numel() == 0 {
            dst.fill(fill);
        } else {
            let owned;
            let src: &[T] = match x.as_slice::<T>() {
                Some(s) => s,
                None => {
                    owned = crate::kernels::row_major::<T>(x, op)?;
                    &owned
                }
            };
            pad_rows(src, x.shape(), &shape, pads, mode, fill, dst);
        }
    });
    Ok(out)
}

/// The input index that output position `i` (relative to the input's start)
/// reads on an axis of length `n` (> 0 unless nothing is read), or `None` for the constant.
fn source_index(mode: PadMode, n: usize, i: i128) -> Option<usize> {
    if (0..n as i128).contains(&i) {
        return Some(i as usize);
    }
    let n = n as i128;
    match mode {
        PadMode::Constant => None,
        PadMode::Reflect if n == 1 => Some(0),
        // the mirrored sequence repeats with period 2(n-1): 0 1 … n-1 n-2 … 1
        PadMode::Reflect => {
            let j = i.rem_euclid(2 * (n - 1));
            Some(if j >= n { 2 * (n - 1) - j } else { j } as usize)
        }
        // period 2n: 0 1 … n-1 n-1 … 0
        PadMode::Symmetric => {
            let j = i.rem_euclid(2 * n);
            Some(if j >= n { 2 * n - 1 - j } else { j } as usize)
        }
    }
}

/// Fills `dst` (row-major, of shape `out_shape`) row by row: a row whose
/// leading indices all map into the input copies its interior and maps its
/// borders; any other row is the constant. Index maps are computed on the fly
/// (no per-axis tables: a long axis of a small dtype would make them larger
/// than the result).
fn pad_rows<T: Element>(
    src: &[T],
    in_shape: &[usize],
    out_shape: &[usize],
    pads: &[(usize, usize)],
    mode: PadMode,
    fill: T,
    dst: &mut [T],
) {
    let r = in_shape.len();
    let map = |k: usize, o: usize| source_index(mode, in_shape[k], o as i128 - pads[k].0 as i128);
    let mut in_strides = vec![1usize; r];
    for k in (0..r - 1).rev() {
        in_strides[k] = in_strides[k + 1] * in_shape[k + 1];
    }
    let (n_last, b_last) = (in_shape[r - 1], pads[r - 1].0);
    let mut idx = vec![0usize; r - 1];
    for row in dst.chunks_exact_mut(out_shape[r - 1]) {
        let base = idx.iter().enumerate().try_fold(0usize, |acc, (k, &o)| map(k, o).map(|i| acc + i * in_strides[k]));
        match base {
            None => row.fill(fill),
            Some(base) => {
                let s = &src[base..base + n_last];
                let (left, rest) = row.split_at_mut(b_last);
                let (mid, right) = rest.split_at_mut(n_last);
                mid.copy_from_slice(s);
                for (j, o) in left
                    .iter_mut()
                    .enumerate()
                    .chain(right.iter_mut().enumerate().map(|(j, o)| (j + b_last + n_last, o)))
                {
                    *o = map(r - 1, j).map_or(fill, |i| s[i]);
                }
            }
        }
        for k in (0..r - 1).rev() {
            idx[k] += 1;
            if idx[k] < out_shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Category, DType, constant};

    fn t<T: Element>(v: Vec<T>, s: &[usize]) -> Tensor {
        Tensor::from_vec(v, s).unwrap()
    }

    #[test]
    fn split_makes_strong_views_along_any_axis() {
        let x = t((0..24).collect::<Vec<i32>>(), &[2, 3, 4]);
        let parts = split(&x, 2, -1).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[1].shape(), &[2, 3, 2]);
        assert_eq!(parts[1].to_vec::<i32>().unwrap()[..4], [2, 3, 6, 7]);
        assert!(parts.iter().all(|p| p.shares_storage_with(&x)));
        let rows = split(&x, [1, -1], 1).unwrap();
        assert_eq!((rows[0].shape(), rows[1].shape()), (&[2usize, 1, 4][..], &[2usize, 2, 4][..]));
        assert_eq!(rows[0].to_vec::<i32>().unwrap(), vec![0, 1, 2, 3, 12, 13, 14, 15]);
        // a weak input gives strong parts, as TF's
        let w = constant([1.5, 2.5]).unwrap();
        assert!(split(&w, 2, 0).unwrap().iter().all(|p| !p.is_weak() && p.dtype() == DType::F32));
        // zero-length parts and empty axes
        let z = split(&x, [0, 3, 0], 1).unwrap();
        assert_eq!(z.iter().map(|p| p.shape()[1]).collect::<Vec<_>>(), vec![0, 3, 0]);
        let e = split(&t(Vec::<f32>::new(), &[0, 2]), 3, 0).unwrap();
        assert_eq!((e.len(), e[2].shape()), (3, &[0usize, 2][..]));
        // a view of a view (negative strides) splits in logical order
        let f = x.slice(&[SliceArg::stepped(None, None, -1)]).unwrap();
        assert_eq!(split(&f, 2, 0).unwrap()[0].to_vec::<i32>().unwrap()[0], 12);
    }

    #[test]
    fn split_refuses_what_tf_refuses() {
        let x = t((0..6).collect::<Vec<i64>>(), &[6]);
        let msg = |s: Splits| split(&x, s, 0).unwrap_err().to_string();
        assert!(msg(Splits::Count(4)).contains("do not divide axis 0 of length 6"));
        assert!(msg(Splits::Count(0)).contains("at least 1"));
        assert!(msg(Splits::Count(-1)).contains("at least 1"));
        assert!(msg(Splits::Sizes(vec![1, 2])).contains("sum to 3, not to 6"));
        assert!(msg(Splits::Sizes(vec![1, -1, -1])).contains("more than one -1"));
        assert!(msg(Splits::Sizes(vec![7, -1])).contains("-1 would be negative"));
        assert!(msg(Splits::Sizes(vec![-2, 8])).contains("negative"));
        assert!(msg(Splits::Sizes(vec![])).contains("empty"));
        assert!(msg(Splits::Sizes(vec![i64::MAX, i64::MAX, -1])).contains("-1 would be negative"));
        assert!(msg(Splits::Sizes(vec![i64::MAX, i64::MAX])).contains("not to 6"));
        assert!(split(&x, 3, 1).unwrap_err().to_string().contains("axis 1"));
        assert!(split(&Tensor::scalar(5i32), 1, 0).unwrap_err().to_string().contains("0-d"));
        // a count of parts whose handles alone exceed the memory limit
        let e = split(&t(Vec::<u8>::new(), &[0]), Splits::Count(i64::MAX), 0).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
    }

    #[test]
    fn pad_constant_fills_every_border() {
        let x = t(vec![1i8, 2, 3, 4, 5, 6], &[2, 3]);
        let p = pad(&x, [[1, 1], [2, 0]], PadMode::Constant, 300).unwrap(); // 300 wraps to 44, as tf.constant
        assert_eq!(p.shape(), &[4, 5]);
        #[rustfmt::skip]
        assert_eq!(p.to_vec::<i8>().unwrap(), vec![
            44, 44, 44, 44, 44,
            44, 44, 1, 2, 3,
            44, 44, 4, 5, 6,
            44, 44, 44, 44, 44,
        ]);
        assert!(!p.is_weak() && p.dtype() == DType::I8);
        // a transposed view, an empty input, a 0-d input
        let q = pad(&x.t(), [[0, 1], [1, 0]], PadMode::Constant, 0).unwrap();
        assert_eq!(q.to_vec::<i8>().unwrap(), vec![0, 1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0]);
        let e = pad(&t(Vec::<f32>::new(), &[0, 2]), [[1, 0], [0, 0]], PadMode::Constant, 2.5).unwrap();
        assert_eq!((e.shape(), e.to_vec::<f32>().unwrap()), (&[1usize, 2][..], vec![2.5, 2.5]));
        let s =
            pad(&constant(5.0).unwrap(), Tensor::zeros(&[0, 2], DType::I32).unwrap(), PadMode::Constant, 0).unwrap();
        assert_eq!((s.shape(), s.is_weak(), s.item::<f32>().unwrap()), (&[][..], false, 5.0));
        assert_eq!(
            pad(&x, [[0, 0], [0, 0]], PadMode::Constant, 0).unwrap().to_vec::<i8>().unwrap(),
            x.to_vec::<i8>().unwrap()
        );
        let b = pad(&t(vec![true], &[1]), [[1, 0]], PadMode::Constant, false).unwrap();
        assert_eq!(b.to_vec::<bool>().unwrap(), vec![false, true]);
    }

    #[test]
    fn pad_mirrors_like_tf() {
        let x = t(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2]);
        // tf.pad([[1, 2], [3, 4]], [[1, 1], [1, 1]], "REFLECT") and "SYMMETRIC" (TF 2.21)
        let r = pad(&x, [[1, 1], [1, 1]], PadMode::Reflect, 0).unwrap();
        assert_eq!(r.to_vec::<f64>().unwrap(), [4.0, 3.0, 4.0, 3.0, 2.0, 1.0, 2.0, 1.0].repeat(2));
        let s = pad(&x, [[2, 2], [1, 1]], PadMode::Symmetric, 0).unwrap();
        let (a, b) = ([3.0, 3.0, 4.0, 4.0], [1.0, 1.0, 2.0, 2.0]);
        assert_eq!(s.to_vec::<f64>().unwrap(), [a, b, b, a, a, b].concat());
        let one = t(vec![7u16], &[1]);
        assert_eq!(pad(&one, [[1, 1]], PadMode::Symmetric, 0).unwrap().to_vec::<u16>().unwrap(), vec![7, 7, 7]);
        assert_eq!(pad(&t(Vec::<u16>::new(), &[0]), [[0, 0]], PadMode::Symmetric, 0).unwrap().numel(), 0);
    }

    #[test]
    fn pad_refuses_what_tf_refuses() {
        let v = t(vec![1i32, 2, 3], &[3]);
        let msg = |p: Value, m: PadMode| pad(&v, p, m, 0).unwrap_err().to_string();
        assert!(msg([[3, 0]].into(), PadMode::Reflect).contains("less than the axis length"));
        assert!(msg([[4, 0]].into(), PadMode::Symmetric).contains("at most the axis length"));
        assert!(msg([[-1, 1]].into(), PadMode::Constant).contains("non-negative"));
        assert!(msg([[1, 1], [1, 1]].into(), PadMode::Constant).contains("2 rows but the input has rank 1"));
        assert!(msg([1, 1].into(), PadMode::Constant).contains("matrix with 2 columns"));
        assert!(msg([[1.0, 1.0]].into(), PadMode::Constant).contains("integers"));
        assert!(pad(&t(Vec::<i32>::new(), &[0]), [[0, 0]], PadMode::Reflect, 0).is_err()); // 0 is not < 0, as TF
        assert!(pad(&v, [[1, 1]], PadMode::Constant, 7.5).unwrap_err().to_string().contains("7.5"));
        assert!(pad(&v, [[1, 1]], PadMode::Constant, vec![1, 2]).unwrap_err().to_string().contains("single value"));
        assert_eq!(
            pad(&v, [[1, 1]], PadMode::Reflect, vec![1, 2]).unwrap().to_vec::<i32>().unwrap(),
            vec![2, 1, 2, 3, 2]
        );
        let e = pad(&v, [[i64::MAX, i64::MAX]], PadMode::Constant, 0).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
        let e = pad(&v, [[1i64 << 40, 0]], PadMode::Constant, 0).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
        assert_eq!("symmetric".parse::<PadMode>().unwrap(), PadMode::Symmetric);
        assert!("WRAP".parse::<PadMode>().unwrap_err().to_string().contains("WRAP"));
    }

    proptest::proptest! {
        /// Every element of a padded tensor is the naive per-axis rule's: the
        /// input element whose index each axis maps to, or the constant.
        #[test]
        fn pad_equals_the_naive_index_rule(
            shape in proptest::collection::vec(1usize..4, 1..4),
            raw_pads in proptest::collection::vec((0usize..4, 0usize..4), 3),
            mode_pick in 0usize..3,
        ) {
            let mode = [PadMode::Constant, PadMode::Reflect, PadMode::Symmetric][mode_pick];
            let limit = |n: usize| match mode { PadMode::Reflect => n - 1, PadMode::Symmetric => n, PadMode::Constant => 9 };
            let pads: Vec<[i64; 2]> = shape.iter().zip(&raw_pads)
                .map(|(&n, &(b, a))| [b.min(limit(n)) as i64, a.min(limit(n)) as i64]).collect();
            let n: usize = shape.iter().product();
            let x = t((1..=n as i64).collect::<Vec<i64>>(), &shape);
            let p = pad(&x, Tensor::from_vec(pads.concat(), &[shape.len(), 2]).unwrap(), mode, -1).unwrap();
            let got = p.to_vec::<i64>().unwrap();
            let out = p.shape().to_vec();
            for (flat, &g) in got.iter().enumerate() {
                let mut rem = flat;
                let mut src = 0i64;
                let mut inside = true;
                for d in (0..out.len()).rev() {
                    let o = (rem % out[d]) as i64;
                    rem /= out[d];
                    let (len, b) = (shape[d] as i64, pads[d][0]);
                    let mut i = o - b;
                    match mode {
                        PadMode::Constant => inside &= (0..len).contains(&i),
                        PadMode::Reflect => { if i < 0 { i = -i } else if i >= len { i = 2 * (len - 1) - i } }
                        PadMode::Symmetric => { if i < 0 { i = -i - 1 } else if i >= len { i = 2 * len - 1 - i } }
                    }
                    let stride: usize = shape[d + 1..].iter().product();
                    src += i * stride as i64;
                }
                let want = if inside { src + 1 } else { -1 };
                proptest::prop_assert_eq!(g, want);
            }
        }
    }
}
