//! Splitting, padding and appending: `split`/`hsplit`/`vsplit`/`dsplit`
//! (views), `pad` (NumPy's modes) and `append`. `split` and `pad` return
//! strong tensors, as TF's do; `append` promotes like `concatenate`.

use super::{Value, to_tensor};
use crate::Tensor;
use crate::core::error::{Error, Result};
use crate::core::layout::normalize_axis;
use crate::core::tape::TapeOp;
use crate::ops::matrix::need_rank;

/// How [`split`] divides an axis (NumPy's `indices_or_sections`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sections {
    /// This many parts of equal length; the count must divide the axis length.
    Count(i64),
    /// Cut before each of these indices: `[2, 5]` gives `a[:2]`, `a[2:5]`, `a[5:]`
    /// (Python slice semantics: negative indices count from the end, indices
    /// past the end clamp, and a decreasing pair gives an empty part).
    Indices(Vec<i64>),
}

impl From<i32> for Sections {
    fn from(n: i32) -> Self {
        Sections::Count(n.into())
    }
}

impl From<i64> for Sections {
    fn from(n: i64) -> Self {
        Sections::Count(n)
    }
}

impl From<Vec<i64>> for Sections {
    fn from(indices: Vec<i64>) -> Self {
        Sections::Indices(indices)
    }
}

impl From<&[i64]> for Sections {
    fn from(indices: &[i64]) -> Self {
        Sections::Indices(indices.to_vec())
    }
}

impl<const N: usize> From<[i32; N]> for Sections {
    fn from(indices: [i32; N]) -> Self {
        Sections::Indices(indices.iter().map(|&i| i.into()).collect())
    }
}

impl<const N: usize> From<[i64; N]> for Sections {
    fn from(indices: [i64; N]) -> Self {
        Sections::Indices(indices.to_vec())
    }
}

/// `tnp.split(ary, indices_or_sections, axis)`: `ary` cut along `axis` into
/// [`Sections::Count`] equal parts, or before each of [`Sections::Indices`]
/// (NumPy's semantics, also for negative and unsorted indices, which TF 2.21
/// refuses). Each part is a zero-copy view with `ary`'s dtype; the parts are
/// strong, as TF's are.
///
/// ```
/// use lattensor::numpy::{self, Sections};
/// let parts = numpy::split(vec![0, 1, 2, 3, 4, 5], [1, 4], 0).unwrap();
/// let vals: Vec<Vec<i32>> = parts.iter().map(|p| p.to_vec::<i32>().unwrap()).collect();
/// assert_eq!(vals, vec![vec![0], vec![1, 2, 3], vec![4, 5]]);
/// assert_eq!(numpy::split(vec![0, 1, 2, 3, 4, 5], 3, 0).unwrap()[2].to_vec::<i32>().unwrap(), vec![4, 5]);
/// assert!(numpy::split(vec![0, 1, 2, 3, 4, 5], Sections::Count(4), 0).is_err());
/// let tail = numpy::split(vec![0, 1, 2, 3, 4, 5], [-2], 0).unwrap();
/// assert_eq!(tail[1].to_vec::<i32>().unwrap(), vec![4, 5]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a 0-d input, an axis out of range, or a count
/// below 1 or not dividing the axis length.
pub fn split(ary: impl Into<Value>, indices_or_sections: impl Into<Sections>, axis: isize) -> Result<Vec<Tensor>> {
    split_for("split", &to_tensor(ary)?, indices_or_sections.into(), axis)
}

fn split_for(op: &str, a: &Tensor, sections: Sections, axis: isize) -> Result<Vec<Tensor>> {
    use crate::ops::array_ops::{equal_parts, parts_along, split_axis};
    let ax = split_axis(op, a, axis)?;
    match sections {
        Sections::Count(n) => {
            let sizes = equal_parts(op, a, ax, n)?;
            let bounds = (0..sizes.len()).map(|k| ((k * sizes[0]) as i64, ((k + 1) * sizes[0]) as i64));
            parts_along(a, ax, bounds)
        }
        Sections::Indices(idx) => {
            let len = a.shape()[ax] as i64;
            let starts = std::iter::once(0).chain(idx.iter().copied());
            let stops = idx.iter().copied().chain(std::iter::once(len));
            parts_along(a, ax, starts.zip(stops))
        }
    }
}

/// `tnp.hsplit`: [`split`] along axis 1, or axis 0 of a 1-D input (NumPy's rule).
///
/// ```
/// let m = lattensor::Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let cols = lattensor::numpy::hsplit(&m, 3).unwrap();
/// assert_eq!((cols[1].shape(), cols[1].to_vec::<i32>().unwrap()), (&[2usize, 1][..], vec![1, 4]));
/// assert_eq!(lattensor::numpy::hsplit(vec![1, 2], 2).unwrap().len(), 2);
/// ```
///
/// # Errors
/// As [`split`]; a 0-d input is refused.
pub fn hsplit(ary: impl Into<Value>, indices_or_sections: impl Into<Sections>) -> Result<Vec<Tensor>> {
    let a = to_tensor(ary)?;
    let axis = if a.rank() == 1 { 0 } else { 1 };
    split_for("hsplit", &a, indices_or_sections.into(), axis)
}

/// `tnp.vsplit`: [`split`] along axis 0. A 1-D input is split too, as TF 2.21
/// does (NumPy refuses it).
///
/// ```
/// let m = lattensor::Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let rows = lattensor::numpy::vsplit(&m, 2).unwrap();
/// assert_eq!((rows[1].shape(), rows[1].to_vec::<i32>().unwrap()), (&[1usize, 3][..], vec![3, 4, 5]));
/// ```
///
/// # Errors
/// As [`split`].
pub fn vsplit(ary: impl Into<Value>, indices_or_sections: impl Into<Sections>) -> Result<Vec<Tensor>> {
    split_for("vsplit", &to_tensor(ary)?, indices_or_sections.into(), 0)
}

/// `tnp.dsplit`: [`split`] along axis 2 (the input needs rank ≥ 3).
///
/// ```
/// let c = lattensor::Tensor::zeros(&[1, 2, 4], lattensor::DType::F32).unwrap();
/// assert_eq!(lattensor::numpy::dsplit(&c, [1]).unwrap()[1].shape(), &[1, 2, 3]);
/// ```
///
/// # Errors
/// As [`split`]; [`Error::InvalidIndex`] for rank < 3 (TF's `IndexError`).
pub fn dsplit(ary: impl Into<Value>, indices_or_sections: impl Into<Sections>) -> Result<Vec<Tensor>> {
    let a = to_tensor(ary)?;
    need_rank("dsplit", &a, 3).map_err(|e| Error::InvalidIndex(e.to_string()))?;
    split_for("dsplit", &a, indices_or_sections.into(), 2)
}

/// `tnp.pad(array, pad_width, mode, constant_values=…)`: `array` with a border
/// on each axis. `pad_width` takes NumPy's forms, any integer array-like that
/// broadcasts to `[rank, 2]`: `n` (every side of every axis), `[before, after]`
/// (every axis), `[[b0, a0], [b1, a1], …]` (TF 2.21 accepts only the last).
///
/// [`PadMode::Constant`](crate::PadMode::Constant) fills with
/// `constant_values` (a single value, converted to the dtype by `tf.constant`'s
/// rule); `Reflect` and `Symmetric` mirror the input (NumPy's `'reflect'` and
/// `'symmetric'`), and, as in NumPy, may be longer than the axis (the mirror
/// repeats; TF 2.21 refuses that). The result has `array`'s dtype and is
/// strong, as TF's is.
///
/// ```
/// use lattensor::{numpy, PadMode};
/// let p = numpy::pad(vec![1, 2, 3], 2, PadMode::Constant, 0).unwrap();
/// assert_eq!(p.to_vec::<i32>().unwrap(), vec![0, 0, 1, 2, 3, 0, 0]);
/// let r = numpy::pad(vec![1, 2, 3], [0, 5], PadMode::Reflect, 0).unwrap();
/// assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 2, 3, 2, 1, 2, 3, 2]);
/// let m = numpy::pad(vec![vec![1.5, 2.5]], [[1, 0], [0, 1]], PadMode::Constant, -1).unwrap();
/// assert_eq!(m.to_vec::<f32>().unwrap(), vec![-1.0, -1.0, -1.0, 1.5, 2.5, -1.0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `pad_width` is not integer, does not broadcast
/// to `[rank, 2]` or holds a negative value; if a mirrored axis is empty but
/// padded; if `constant_values` is not a single value or does not convert;
/// [`Error::ResourceExhausted`] if the result is too large.
pub fn pad(
    array: impl Into<Value>,
    pad_width: impl Into<Value>,
    mode: crate::PadMode,
    constant_values: impl Into<Value>,
) -> Result<Tensor> {
    let op = "pad";
    let a = to_tensor(array)?;
    let w = crate::constant(pad_width)?;
    if !w.dtype().is_integer() {
        return Err(Error::InvalidArgument(format!(
            "{op}: pad_width must be integers, got {} (shape {:?})",
            w.dtype(),
            w.shape()
        )));
    }
    // every width given must be non-negative, even one a 0-d input broadcasts away (NumPy's check)
    if let Some(n) = w.to_vec::<i64>()?.into_iter().find(|&n| n < 0) {
        return Err(Error::InvalidArgument(format!(
            "{op}: pad_width must be non-negative, got {n} (input shape {:?})",
            a.shape()
        )));
    }
    let target = [a.rank(), 2];
    let w = w.broadcast_to(&target).map_err(|_| {
        Error::InvalidArgument(format!(
            "{op}: pad_width of shape {:?} does not broadcast to {target:?} (the input has shape {:?}); \
             give n, [before, after] or one [before, after] per axis",
            w.shape(),
            a.shape()
        ))
    })?;
    let pads = crate::ops::array_ops::pad_pairs(op, &w, a.shape())?;
    crate::ops::array_ops::pad_with(op, &a, &pads, mode, constant_values.into(), true)
}

/// `tnp.append(arr, values, axis)`: `values` appended to `arr` along `axis`;
/// with `None`, both are flattened first (NumPy's semantics). The dtypes
/// promote through the lattice as in `concatenate` (dtype and weakness, as
/// `+` joins them).
///
/// ```
/// use lattensor::{numpy, DType};
/// let a = numpy::append(vec![vec![1, 2], vec![3, 4]], vec![5.5], None).unwrap();
/// assert_eq!((a.shape(), a.dtype()), (&[5usize][..], DType::F32));
/// assert_eq!(a.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0, 5.5]);
/// let b = numpy::append(vec![vec![1, 2]], vec![vec![3, 4]], Some(0)).unwrap();
/// assert_eq!(b.shape(), &[2, 2]);
/// ```
///
/// # Errors
/// As `concatenate`: [`Error::InvalidArgument`] for 0-d inputs with an axis,
/// an axis out of range or ranks that differ; [`Error::ShapeMismatch`] when
/// lengths differ off the axis; [`Error::Promotion`] when the dtypes do not
/// promote in the current mode.
pub fn append(arr: impl Into<Value>, values: impl Into<Value>, axis: Option<isize>) -> Result<Tensor> {
    let (a, v) = (to_tensor(arr)?, to_tensor(values)?);
    let (a, v, ax) = match axis {
        None => (a.reshape(&[-1])?, v.reshape(&[-1])?, 0),
        Some(ax) => (a, v, ax),
    };
    let parts = [&a, &v];
    // recorded as the concatenation it is (the axis is checked by the computation first)
    crate::core::tape::op(
        &parts,
        || crate::ops::combine::concat_for("append", &parts, ax),
        || TapeOp::Concat(normalize_axis(ax, a.rank(), "append").unwrap_or(0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m34() -> Tensor {
        Tensor::from_vec((0..12).collect::<Vec<i32>>(), &[3, 4]).unwrap()
    }

    fn values(parts: &[Tensor]) -> Vec<Vec<i32>> {
        parts.iter().map(|p| p.to_vec::<i32>().unwrap()).collect()
    }

    #[test]
    fn split_by_indices_follows_numpy_slicing() {
        let a = || (0..6).collect::<Vec<i32>>();
        // np.split(np.arange(6), [4, 1]) and [-2], [-10], [10]
        assert_eq!(values(&split(a(), [4, 1], 0).unwrap()), vec![vec![0, 1, 2, 3], vec![], vec![1, 2, 3, 4, 5]]);
        assert_eq!(values(&split(a(), [-2], 0).unwrap()), vec![vec![0, 1, 2, 3], vec![4, 5]]);
        assert_eq!(values(&split(a(), [-10], 0).unwrap()), vec![vec![], vec![0, 1, 2, 3, 4, 5]]);
        assert_eq!(values(&split(a(), [10], 0).unwrap()), vec![vec![0, 1, 2, 3, 4, 5], vec![]]);
        assert_eq!(values(&split(a(), Sections::Indices(vec![]), 0).unwrap()), vec![a()]);
        let m = m34();
        let parts = split(&m, [1, 3], 1).unwrap();
        assert_eq!(parts.iter().map(|p| p.shape()[1]).collect::<Vec<_>>(), vec![1, 2, 1]);
        assert!(parts.iter().all(|p| p.shares_storage_with(&m) && !p.is_weak()));
        assert!(split(&m, 0, 0).is_err());
        assert!(split(&m, 2, 0).unwrap_err().to_string().contains("length 3"));
        assert!(split(5, 1, 0).unwrap_err().to_string().contains("0-d"));
        assert!(!split(vec![1.5, 2.5], 2, 0).unwrap()[0].is_weak());
    }

    #[test]
    fn hsplit_vsplit_dsplit_pick_numpys_axes() {
        let m = m34();
        assert_eq!(hsplit(&m, 2).unwrap()[1].shape(), &[3, 2]);
        assert_eq!(hsplit(vec![1, 2, 3, 4], 2).unwrap()[1].to_vec::<i32>().unwrap(), vec![3, 4]);
        assert!(hsplit(7, 1).unwrap_err().to_string().contains("hsplit"));
        assert_eq!(vsplit(&m, [1]).unwrap()[1].shape(), &[2, 4]);
        assert_eq!(vsplit(vec![1, 2], 2).unwrap().len(), 2); // TF splits 1-D inputs too
        assert!(dsplit(&m, 2).unwrap_err().to_string().contains("rank ≥ 3"));
        let c = Tensor::zeros(&[2, 1, 4], crate::DType::U8).unwrap();
        assert_eq!(dsplit(&c, 4).unwrap().len(), 4);
    }

    #[test]
    fn numpy_pad_broadcasts_pad_width_and_repeats_mirrors() {
        use crate::PadMode;
        let m = m34();
        // np.pad(np.arange(12).reshape(3, 4), [[1], [2]]): 1 row above and below, 2 columns each side
        let p = pad(&m, vec![vec![1], vec![2]], PadMode::Constant, 0).unwrap();
        assert_eq!(p.shape(), &[5, 8]);
        assert_eq!(p.to_vec::<i32>().unwrap()[8..16], [0, 0, 0, 1, 2, 3, 0, 0]);
        assert_eq!(pad(&m, [1, 0], PadMode::Constant, 0).unwrap().shape(), &[4, 5]);
        assert_eq!(pad(&m, 2, PadMode::Constant, 0).unwrap().shape(), &[7, 8]);
        assert_eq!(pad(7, 3, PadMode::Constant, 0).unwrap().shape(), &[] as &[usize]);
        assert!(pad(7, [-1, 0], PadMode::Constant, 0).unwrap_err().to_string().contains("non-negative"));
        // mirrors longer than the axis repeat: np.pad([1, 2, 3], 4, 'reflect'), 'symmetric'
        let r = pad(vec![1, 2, 3], 4, PadMode::Reflect, 0).unwrap();
        assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3]);
        let s = pad(vec![1, 2, 3], [4, 0], PadMode::Symmetric, 0).unwrap();
        assert_eq!(s.to_vec::<i32>().unwrap(), vec![3, 3, 2, 1, 1, 2, 3]);
        assert_eq!(pad(vec![5], 2, PadMode::Reflect, 0).unwrap().to_vec::<i32>().unwrap(), vec![5; 5]);
        // NumPy's refusals: negative widths, widths that do not broadcast, mirrors of an empty axis
        assert!(pad(&m, -1, PadMode::Constant, 0).unwrap_err().to_string().contains("non-negative"));
        assert!(pad(&m, [[1, 2, 3]], PadMode::Constant, 0).unwrap_err().to_string().contains("broadcast"));
        assert!(pad(&m, 1.5, PadMode::Constant, 0).unwrap_err().to_string().contains("integers"));
        let empty = Tensor::zeros(&[0, 2], crate::DType::F32).unwrap();
        assert!(pad(&empty, [[1, 0], [0, 0]], PadMode::Reflect, 0).unwrap_err().to_string().contains("empty axis"));
        assert_eq!(pad(&empty, [[0, 0], [1, 1]], PadMode::Reflect, 0).unwrap().shape(), &[0, 4]);
        assert!(!pad(vec![1.5], 1, PadMode::Constant, 0).unwrap().is_weak());
    }

    #[test]
    fn append_flattens_or_joins_and_promotes() {
        let a = append(vec![vec![1, 2], vec![3, 4]], vec![vec![5, 6]], None).unwrap();
        assert_eq!((a.shape(), a.is_weak()), (&[6usize][..], true));
        let b = append(Tensor::from_vec(vec![1i8, 2], &[2]).unwrap(), 300, None).unwrap();
        assert_eq!((b.dtype(), b.to_vec::<i8>().unwrap()), (crate::DType::I8, vec![1, 2, 44]));
        let c = append(vec![vec![1, 2], vec![3, 4]], vec![vec![5], vec![6]], Some(1)).unwrap();
        assert_eq!(c.to_vec::<i32>().unwrap(), vec![1, 2, 5, 3, 4, 6]);
        assert!(append(vec![vec![1, 2]], vec![3], Some(0)).unwrap_err().to_string().contains("append"));
        assert!(append(1, 2, Some(0)).unwrap_err().to_string().contains("scalars"));
        assert_eq!(append(1, 2.5, None).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.5]);
    }
}
