//! Indexing by a tensor of indices: `tf.gather` (with `axis` and
//! `batch_dims`) and the index modes of `tnp.take`.
//!
//! Both copy whole rows: for each index, the block of `params` below the
//! gathered axis is one contiguous run after the input is made contiguous, so
//! the copy is a `copy_from_slice` per index whatever the dtype.

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::layout::{checked_numel, normalize_axis};
use crate::core::tape::{self, TapeOp};
use crate::{Tensor, with_dtype};

/// `tf.gather(params, indices, axis, batch_dims)`: slices of `params` along
/// `axis` picked by `indices`.
///
/// The result has shape `params.shape[..axis] + indices.shape[batch_dims..] +
/// params.shape[axis + 1..]`: with `batch_dims = 0`, `out[a.., i.., b..] =
/// params[a.., indices[i..], b..]`; the first `batch_dims` axes of `params`
/// and `indices` are matched instead (`out[n, a.., i.., b..] = params[n, a..,
/// indices[n, i..], b..]` for `batch_dims = 1`). `axis` and `batch_dims` may
/// be negative (counted from the end of `params` and `indices`).
///
/// The result has `params`' dtype and is strong, as in TF 2.21 (`gather` is
/// not on the WeakTensor list). Indices may have any integer dtype (TF takes
/// int16, int32 and int64). Every dtype of `params` works, bool included.
///
/// ```
/// use lattensor::{gather, Tensor};
/// let p = Tensor::from_vec(vec![1, 2, 3, 4, 5, 6], &[3, 2]).unwrap();
/// let rows = gather(&p, &Tensor::from_vec(vec![2i32, 0], &[2]).unwrap(), 0, 0).unwrap();
/// assert_eq!((rows.shape(), rows.to_vec::<i32>().unwrap()), (&[2, 2][..], vec![5, 6, 1, 2]));
/// let per_row = gather(&p, &Tensor::from_vec(vec![1i64, 0, 1], &[3, 1]).unwrap(), 1, 1).unwrap();
/// assert_eq!((per_row.shape(), per_row.to_vec::<i32>().unwrap()), (&[3, 1][..], vec![2, 3, 6]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] when `params` is a scalar, `indices` is not an
/// integer tensor, `axis` or `batch_dims` is out of range, `batch_dims >
/// axis`, the batch dimensions of `params` and `indices` differ, or an index
/// is outside `[0, params.shape[axis])` (TF's "indices[…] = 5 is not in [0, 2)");
/// [`Error::ResourceExhausted`] if the result is too large.
pub fn gather(params: &Tensor, indices: &Tensor, axis: isize, batch_dims: isize) -> Result<Tensor> {
    tape::op(
        &[params, indices],
        || {
            let op = "gather";
            let idx = integer_indices(op, indices)?;
            gather_indices(op, params, &idx, indices.shape(), axis, batch_dims)
        },
        || TapeOp::Gather {
            axis: crate::core::layout::normalize_axis(axis, params.rank(), "gather").unwrap_or(0),
            batch_dims: if batch_dims < 0 {
                (batch_dims + indices.rank() as isize) as usize
            } else {
                batch_dims as usize
            },
        },
    )
}

/// The values of an integer tensor as i64 (unsigned values above `i64::MAX`
/// become negative, hence out of range wherever they are used).
pub(crate) fn integer_indices(op: &str, indices: &Tensor) -> Result<Vec<i64>> {
    if !indices.dtype().is_integer() {
        return Err(Error::UnsupportedDType {
            op: format!("{op} (indices)"),
            dtype: indices.dtype(),
            supported: "the integer dtypes".into(),
        });
    }
    indices.to_vec::<i64>()
}

/// [`gather`] with the indices given as values and a shape.
pub(crate) fn gather_indices(
    op: &str,
    params: &Tensor,
    idx: &[i64],
    idx_shape: &[usize],
    axis: isize,
    batch_dims: isize,
) -> Result<Tensor> {
    let pr = params.rank();
    if pr == 0 {
        return Err(Error::InvalidArgument(format!(
            "{op}: params must be at least 1-dimensional, got a scalar; reshape it to [1] first"
        )));
    }
    let ir = idx_shape.len() as isize;
    if batch_dims < -ir || batch_dims > ir {
        return Err(Error::InvalidArgument(format!(
            "{op}: batch_dims {batch_dims} is out of range for indices of rank {ir}; expected a value in [{}, {ir}]",
            -ir
        )));
    }
    let bd = if batch_dims < 0 { (batch_dims + ir) as usize } else { batch_dims as usize };
    let ax = normalize_axis(axis, pr, op)?;
    if bd > ax {
        return Err(Error::InvalidArgument(format!(
            "{op}: batch_dims ({bd}) must be less than or equal to axis ({ax}); the batch axes come first"
        )));
    }
    let ps = params.shape();
    if ps[..bd] != idx_shape[..bd] {
        return Err(Error::ShapeMismatch {
            op: op.into(),
            lhs: ps.to_vec(),
            rhs: idx_shape.to_vec(),
            hint: format!("with batch_dims={bd}, the first {bd} dimensions of params and indices must be equal"),
        });
    }
    let n = ps[ax];
    if let Some(pos) = idx.iter().position(|&k| k < 0 || k as u64 >= n as u64) {
        return Err(Error::InvalidArgument(format!(
            "{op}: indices{} = {} is not in [0, {n}) (axis {ax} of params with shape {ps:?})",
            position(pos, idx_shape),
            idx[pos]
        )));
    }
    let mut shape = ps[..ax].to_vec();
    shape.extend_from_slice(&idx_shape[bd..]);
    shape.extend_from_slice(&ps[ax + 1..]);
    let mut out = Tensor::for_overwrite(op, &shape, params.dtype())?;
    if out.numel() == 0 {
        return Ok(out);
    }
    // every size below is at most a dimension product of `params`, `indices` or the result, which exist
    let batch = checked_numel(&ps[..bd], op)?;
    let outer = checked_numel(&ps[bd..ax], op)?;
    let per_batch = checked_numel(&idx_shape[bd..], op)?;
    let inner = checked_numel(&ps[ax + 1..], op)?;
    with_dtype!(params.dtype(), T, {
        copy_rows::<T>(params, out.data_mut::<T>(), idx, [batch, outer, n, per_batch, inner])?;
    });
    Ok(out)
}

/// `out[b, o, j, :] = params[b, o, idx[b, j], :]` in row-major order (a
/// contiguous `params` is read in place, a strided view copied once), with
/// `dims = [batch, outer, n, per_batch, inner]`.
fn copy_rows<T: Element>(params: &Tensor, out: &mut [T], idx: &[i64], dims: [usize; 5]) -> Result<()> {
    let [batch, outer, n, per_batch, inner] = dims;
    let owned;
    let src: &[T] = match params.as_slice::<T>() {
        Some(s) => s,
        None => {
            owned = crate::kernels::row_major::<T>(params, "gather")?;
            &owned
        }
    };
    let mut rows = out.chunks_exact_mut(inner);
    for b in 0..batch {
        let picks = &idx[b * per_batch..(b + 1) * per_batch];
        for o in 0..outer {
            let base = (b * outer + o) * n;
            for (&k, dst) in picks.iter().zip(rows.by_ref()) {
                // k was checked to be in [0, n)
                let start = (base + k as usize) * inner;
                dst.copy_from_slice(&src[start..start + inner]);
            }
        }
    }
    Ok(())
}

/// `[i, j, …]`: the multi-index of flat position `pos` in `shape`.
fn position(mut pos: usize, shape: &[usize]) -> String {
    let mut at = vec![0; shape.len()];
    for (a, &d) in at.iter_mut().zip(shape).rev() {
        *a = pos % d.max(1);
        pos /= d.max(1);
    }
    format!("[{}]", at.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
}

/// How `tnp.take` treats indices outside `[0, n)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum TakeMode {
    /// Clamp to `[0, n - 1]`: negative indices take the first element. TF's
    /// default for `tnp.take` (NumPy's default is `Raise`).
    #[default]
    Clip,
    /// Wrap around modulo `n`: `-1` is the last element.
    Wrap,
    /// Negative indices count from the end (`-1` is the last element); others
    /// out of range are an error. NumPy's default; TF 2.21 does not support it.
    Raise,
}

impl std::str::FromStr for TakeMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<TakeMode> {
        match s {
            "clip" => Ok(TakeMode::Clip),
            "wrap" => Ok(TakeMode::Wrap),
            "raise" => Ok(TakeMode::Raise),
            _ => Err(Error::InvalidArgument(format!("take: unknown mode {s:?}; expected 'clip', 'wrap' or 'raise'"))),
        }
    }
}

/// Maps indices into `[0, n)` by `mode` (the `take` of [`crate::tnp::take`]).
pub(crate) fn take_indices(idx: &mut [i64], n: usize, mode: TakeMode) -> Result<()> {
    if idx.is_empty() {
        return Ok(());
    }
    if n == 0 {
        return Err(Error::InvalidArgument(
            "take: cannot take from an empty axis (length 0); index a non-empty one".into(),
        ));
    }
    let len = i64::try_from(n).unwrap_or(i64::MAX);
    for k in idx.iter_mut() {
        *k = match mode {
            TakeMode::Clip => (*k).clamp(0, len - 1),
            TakeMode::Wrap => k.rem_euclid(len),
            TakeMode::Raise => {
                let j = if *k < 0 { *k + len } else { *k };
                if !(0..len).contains(&j) {
                    return Err(Error::InvalidArgument(format!(
                        "take: index {k} is out of bounds for an axis of length {n}; use mode='clip' or 'wrap' to keep it in range"
                    )));
                }
                j
            }
        };
    }
    Ok(())
}

/// `tf.math.unsorted_segment_sum(data, segment_ids, num_segments)`: row `k`
/// of the result is the sum of the rows of `data` whose id is `k`.
///
/// `segment_ids` (any integer dtype) has the shape of a prefix of `data`'s;
/// the result has shape `[num_segments] + data.shape[ids.rank..]` and `data`'s
/// dtype (strong). Negative ids are dropped, as in TF; segments no id names
/// are 0. Integers wrap; float16/bfloat16 add in float32 and round once. This
/// is the adjoint of [`gather`]: the gradient tape turns a gather into it.
///
/// ```
/// use lattensor::{ops::unsorted_segment_sum, Tensor};
/// let d = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[4]).unwrap();
/// let ids = Tensor::from_vec(vec![0i32, 2, 0, -1], &[4]).unwrap();
/// let s = unsorted_segment_sum(&d, &ids, 3).unwrap();
/// assert_eq!(s.to_vec::<f32>().unwrap(), vec![4.0, 0.0, 2.0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if the ids' shape is not a prefix of `data`'s
/// or an id is `num_segments` or more; [`Error::UnsupportedDType`] for bool
/// data or non-integer ids.
pub fn unsorted_segment_sum(data: &Tensor, segment_ids: &Tensor, num_segments: usize) -> Result<Tensor> {
    tape::op(
        &[data, segment_ids],
        || {
            let op = "unsorted_segment_sum";
            let ids = integer_indices(op, segment_ids)?;
            let k = segment_ids.rank();
            if k > data.rank() || data.shape()[..k] != *segment_ids.shape() {
                return Err(Error::ShapeMismatch {
                    op: op.into(),
                    lhs: data.shape().to_vec(),
                    rhs: segment_ids.shape().to_vec(),
                    hint: "segment_ids.shape must be a prefix of data.shape".into(),
                });
            }
            if let Some(&bad) = ids.iter().find(|&&i| i >= num_segments as i64) {
                return Err(Error::InvalidArgument(format!(
                    "{op}: segment id {bad} is out of range [0, {num_segments}); pass a larger num_segments"
                )));
            }
            let mut shape = vec![num_segments];
            shape.extend_from_slice(&data.shape()[k..]);
            let inner = checked_numel(&data.shape()[k..], op)?;
            let compute = crate::dispatch::compute_dtype(data.dtype());
            let src = if compute == data.dtype() { data.contiguous()? } else { data.cast(compute)? };
            let mut out = Tensor::zeros_for(op, &shape, compute)?;
            crate::with_native_dtype!(compute, T, {
                let s = src.as_slice::<T>().unwrap_or(&[]);
                let o = out.data_mut::<T>();
                for (row, &id) in s.chunks_exact(inner.max(1)).zip(&ids) {
                    if id < 0 || inner == 0 {
                        continue;
                    }
                    let dst = &mut o[id as usize * inner..(id as usize + 1) * inner];
                    for (d, &v) in dst.iter_mut().zip(row) {
                        *d = crate::ops::scalar_arith::Num::add(*d, v);
                    }
                }
            }, other => return Err(Error::UnsupportedDType {
                op: op.into(),
                dtype: data.dtype(),
                supported: "every numeric dtype".into(),
            }));
            if compute == data.dtype() { Ok(out) } else { out.cast(data.dtype()) }
        },
        || TapeOp::SegmentSum,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    fn t(v: Vec<i32>, shape: &[usize]) -> Tensor {
        Tensor::from_vec(v, shape).unwrap()
    }

    /// `gather` by the definition: index arithmetic on row-major data.
    fn naive(params: &Tensor, idx: &[i64], idx_shape: &[usize], ax: usize, bd: usize) -> Vec<i32> {
        let ps = params.shape();
        let v = params.to_vec::<i32>().unwrap();
        let batch: usize = ps[..bd].iter().product();
        let outer: usize = ps[bd..ax].iter().product();
        let per: usize = idx_shape[bd..].iter().product();
        let inner: usize = ps[ax + 1..].iter().product();
        let mut out = vec![];
        for b in 0..batch {
            for o in 0..outer {
                for j in 0..per {
                    let k = idx[b * per + j] as usize;
                    for i in 0..inner {
                        out.push(v[(((b * outer + o) * ps[ax]) + k) * inner + i]);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn matches_the_definition_for_every_axis_and_batch_dims() {
        let p = t((0..2 * 3 * 4).collect(), &[2, 3, 4]);
        for ax in 0..3 {
            for bd in 0..=ax.min(1) {
                let idx_shape: Vec<usize> = if bd == 1 { vec![2, 5] } else { vec![5] };
                let n = p.shape()[ax] as i64;
                let idx: Vec<i64> = (0..idx_shape.iter().product::<usize>() as i64).map(|i| (i * 7 + 1) % n).collect();
                let it = Tensor::from_vec(idx.clone(), &idx_shape).unwrap();
                let g = gather(&p, &it, ax as isize, bd as isize).unwrap();
                assert_eq!(
                    g.to_vec::<i32>().unwrap(),
                    naive(&p, &idx, &idx_shape, ax, bd),
                    "axis {ax} batch_dims {bd}"
                );
                assert!(!g.is_weak());
            }
        }
    }

    #[test]
    fn views_and_other_dtypes_gather_too() {
        let p = t((0..12).collect(), &[3, 4]).t(); // a transposed view
        let g = gather(&p, &Tensor::from_vec(vec![2u8, 0], &[2]).unwrap(), -1, 0).unwrap();
        assert_eq!(g.to_vec::<i32>().unwrap(), vec![8, 0, 9, 1, 10, 2, 11, 3]);
        let b = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        let g = gather(&b, &Tensor::from_vec(vec![1i16, 1, 0], &[3]).unwrap(), 0, 0).unwrap();
        assert_eq!(g.to_vec::<bool>().unwrap(), vec![false, false, true]);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let p = t(vec![1, 2], &[2]);
        let i = |v: Vec<i32>| Tensor::from_vec(v, &[1]).unwrap();
        let e = gather(&p, &i(vec![5]), 0, 0).unwrap_err().to_string();
        assert!(e.contains("indices[0] = 5 is not in [0, 2)"), "{e}");
        assert!(gather(&p, &i(vec![-1]), 0, 0).is_err());
        assert!(gather(&Tensor::scalar(1.0f32), &i(vec![0]), 0, 0).is_err());
        assert!(gather(&p, &Tensor::from_vec(vec![0.0f32], &[1]).unwrap(), 0, 0).is_err());
        assert!(gather(&p, &i(vec![0]), 1, 0).is_err());
        assert!(gather(&p, &i(vec![0]), 0, 2).is_err());
        assert!(gather(&p, &i(vec![0]), 0, 1).is_err(), "batch_dims > axis");
        let p2 = t(vec![1, 2, 3, 4], &[2, 2]);
        assert!(gather(&p2, &Tensor::from_vec(vec![0i32; 3], &[3, 1]).unwrap(), 1, 1).is_err(), "batch shapes differ");
        // an empty axis can only take no indices
        let e = Tensor::zeros(&[0, 2], DType::F32).unwrap();
        assert_eq!(gather(&e, &Tensor::from_vec(Vec::<i32>::new(), &[0]).unwrap(), 0, 0).unwrap().shape(), &[0, 2]);
        assert!(gather(&e, &i(vec![0]), 0, 0).is_err());
    }

    #[test]
    fn take_modes_map_indices() {
        let mut v = vec![-5, -1, 0, 2, 3, 7];
        take_indices(&mut v, 3, TakeMode::Clip).unwrap();
        assert_eq!(v, vec![0, 0, 0, 2, 2, 2]);
        let mut v = vec![-5, -1, 0, 2, 3, 7];
        take_indices(&mut v, 3, TakeMode::Wrap).unwrap();
        assert_eq!(v, vec![1, 2, 0, 2, 0, 1]);
        let mut v = vec![-3, -1, 2];
        take_indices(&mut v, 3, TakeMode::Raise).unwrap();
        assert_eq!(v, vec![0, 2, 2]);
        assert!(take_indices(&mut [3], 3, TakeMode::Raise).is_err());
        assert!(take_indices(&mut [-4], 3, TakeMode::Raise).is_err());
        assert!(take_indices(&mut [i64::MIN], 3, TakeMode::Raise).is_err());
        assert!(take_indices(&mut [0], 0, TakeMode::Clip).is_err());
        assert!("nope".parse::<TakeMode>().is_err());
    }
}
