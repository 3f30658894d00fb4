//! Ops that combine several tensors into one: [`concat`](fn@concat), [`stack`] and the
//! element-wise selection [`where_`] (`tf.concat`, `tf.stack`, `tf.where`;
//! `tnp.concatenate`, `tnp.stack`, `tnp.where`).
//!
//! Their value inputs' lattice types are joined in the current mode, as `add`
//! joins its operands: the result has the join's dtype and weakness. (TF's
//! `tf.concat`/`tf.stack`/`tf.where` refuse mixed dtypes; its `tnp` forms
//! promote, to the same dtypes, but return strong tensors: they are not on the
//! WeakTensor list.)

use crate::core::error::{Error, Result};
use crate::core::layout::{broadcast_shapes, normalize_axis};
use crate::core::tape::{self, TapeOp};
use crate::kernels::{copy_into, row_major};
use crate::promote::{LatticeType, current_mode, result_type_for};
use crate::{DType, Tensor, with_dtype};

/// The lattice type that `op`'s value inputs promote to.
fn common_type(op: &str, values: &[&Tensor]) -> Result<LatticeType> {
    let types: Vec<LatticeType> = values.iter().map(|t| t.lattice_type()).collect();
    result_type_for(op, &types, current_mode())
}

/// `tf.concat(values, axis)` / `tnp.concatenate`: the tensors joined along
/// `axis` (negative counts from the end). Every input has the same rank (at
/// least 1) and the same length on every other axis.
///
/// Promotion: the inputs' lattice types are joined as by [`crate::promote::result_type`]
/// in the current mode, dtype and weakness, as `a + b` joins them
/// (`int32* ⊔ float16 = float16`, `int32 ⊔ float32* = float64*`; `int32 ⊔ float32`
/// is refused in `Safe` mode).
///
/// ```
/// use lattensor::{concat, constant, DType, Tensor};
/// let a = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
/// let b = constant([[5.5f64], [6.5]]).unwrap(); // f32*
/// let c = concat(&[&a, &b], 1).unwrap(); // as `a + b`: float64*
/// assert_eq!((c.shape(), c.dtype(), c.is_weak()), (&[2usize, 3][..], DType::F64, true));
/// assert_eq!(c.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 5.5, 3.0, 4.0, 6.5]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for no inputs, scalar inputs, an axis out of
/// range or ranks that differ; [`Error::ShapeMismatch`] when lengths differ
/// off the axis; [`Error::Promotion`] when the dtypes do not promote in the
/// current mode; [`Error::ResourceExhausted`] when the result is too large.
pub fn concat(values: &[&Tensor], axis: isize) -> Result<Tensor> {
    tape::op(
        values,
        || concat_for("concat", values, axis),
        || TapeOp::Concat(normalize_axis(axis, values.first().map_or(1, |t| t.rank()), "concat").unwrap_or(0)),
    )
}

pub(crate) fn concat_for(op: &str, values: &[&Tensor], axis: isize) -> Result<Tensor> {
    let Some(first) = values.first() else {
        crate::bail!("{op}: needs at least one tensor; got an empty list");
    };
    let rank = first.rank();
    crate::ensure!(rank >= 1, "{op}: can't concatenate scalars (shape []); use stack instead");
    let axis = normalize_axis(axis, rank, op)?;
    let mut shape = first.shape().to_vec();
    shape[axis] = 0;
    for (i, t) in values.iter().enumerate() {
        crate::ensure!(
            t.rank() == rank,
            "{op}: input {i} has rank {} (shape {:?}) but input 0 has rank {rank} (shape {:?}); all inputs need the same rank",
            t.rank(),
            t.shape(),
            first.shape()
        );
        let same_off_axis = t.shape().iter().zip(first.shape()).enumerate().all(|(d, (a, b))| d == axis || a == b);
        if !same_off_axis {
            return Err(Error::ShapeMismatch {
                op: op.to_string(),
                lhs: first.shape().to_vec(),
                rhs: t.shape().to_vec(),
                hint: format!("input {i} differs from input 0 on an axis other than the concatenation axis {axis}"),
            });
        }
        shape[axis] = shape[axis]
            .checked_add(t.shape()[axis])
            .ok_or_else(|| Error::ResourceExhausted(format!("{op}: the concatenated axis {axis} overflows usize")))?;
    }
    let ty = common_type(op, values)?;
    // allocated first: its size check bounds every input's copy below
    let mut out = Tensor::for_overwrite(op, &shape, ty.dtype)?;
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    with_dtype!(ty.dtype, T, {
        let dst = out.data_mut::<T>();
        if outer == 1 {
            // each input is one stretch of the output: converted straight into it
            let mut at = 0;
            for t in values {
                copy_into(t, &mut dst[at..at + t.numel()]);
                at += t.numel();
            }
        } else {
            let parts: Vec<Vec<T>> = values.iter().map(|t| row_major::<T>(t, op)).collect::<Result<_>>()?;
            let chunks: Vec<usize> = values.iter().map(|t| t.shape()[axis] * inner).collect();
            let row: usize = chunks.iter().sum();
            // one row of the output: each input's next chunk, in turn
            for (o, dst) in dst.chunks_exact_mut(row.max(1)).enumerate() {
                let mut at = 0;
                for (part, &chunk) in parts.iter().zip(&chunks) {
                    dst[at..at + chunk].copy_from_slice(&part[o * chunk..(o + 1) * chunk]);
                    at += chunk;
                }
            }
        }
    });
    Ok(out.with_weak(ty.weak))
}

/// `tf.stack(values, axis)` / `tnp.stack`: the tensors, all of one shape,
/// joined along a new axis at position `axis` (in `-(rank+1)..=rank`).
/// Promotes as [`concat`](fn@concat) does.
///
/// ```
/// use lattensor::{constant, stack, DType};
/// let a = constant([1, 2]).unwrap(); // i32*
/// let b = constant([3.0, 4.0]).unwrap(); // f32*
/// let s = stack(&[&a, &b], -1).unwrap();
/// assert_eq!((s.shape(), s.dtype(), s.is_weak()), (&[2usize, 2][..], DType::F32, true));
/// assert_eq!(s.to_vec::<f32>().unwrap(), vec![1.0, 3.0, 2.0, 4.0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for no inputs or an axis out of range;
/// [`Error::ShapeMismatch`] when shapes differ; [`Error::Promotion`] as for [`concat`](fn@concat).
pub fn stack(values: &[&Tensor], axis: isize) -> Result<Tensor> {
    tape::op(
        values,
        || {
            let op = "stack";
            let Some(first) = values.first() else {
                crate::bail!("{op}: needs at least one tensor; got an empty list");
            };
            let axis = normalize_axis(axis, first.rank() + 1, op)?;
            for (i, t) in values.iter().enumerate() {
                if !crate::core::layout::same_shape(t.shape(), first.shape()) {
                    return Err(Error::ShapeMismatch {
                        op: op.to_string(),
                        lhs: first.shape().to_vec(),
                        rhs: t.shape().to_vec(),
                        hint: format!("input {i} differs from input 0; stacked tensors must all have one shape"),
                    });
                }
            }
            let expanded: Vec<Tensor> = values.iter().map(|t| t.expand_dims(axis as isize)).collect::<Result<_>>()?;
            concat_for(op, &expanded.iter().collect::<Vec<_>>(), axis as isize)
        },
        || TapeOp::Stack(normalize_axis(axis, values.first().map_or(0, |t| t.rank()) + 1, "stack").unwrap_or(0)),
    )
}

/// `tf.where(condition, x, y)` / `tnp.where(condition, x, y)`: element-wise
/// `x` where `condition` is true, else `y`. The three shapes broadcast
/// together; `condition` is bool.
///
/// Promotion: `x` and `y` promote as `maximum` does (`int32* ⊔ float32 = float32`);
/// `condition` takes no part.
///
/// ```
/// use lattensor::{constant, where_, DType, Tensor};
/// let c = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
/// let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
/// let y = constant(0).unwrap(); // i32*, broadcast
/// let r = where_(&c, &x, &y).unwrap();
/// assert_eq!((r.dtype(), r.is_weak()), (DType::F32, false));
/// assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 3.0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `condition` is not bool (compare it first,
/// e.g. `not_equal(c, 0)`); [`Error::ShapeMismatch`] if the shapes do not
/// broadcast; [`Error::Promotion`] if `x` and `y` do not promote.
pub fn where_(condition: &Tensor, x: &Tensor, y: &Tensor) -> Result<Tensor> {
    tape::op(
        &[condition, x, y],
        || {
            let op = "where";
            crate::ensure!(
                condition.dtype() == DType::Bool,
                "{op}: condition must be bool, got {} (shape {:?}); compare it first, e.g. not_equal(condition, 0)",
                condition.dtype(),
                condition.shape()
            );
            let shape = broadcast_shapes(&broadcast_shapes(condition.shape(), x.shape(), op)?, y.shape(), op)?;
            let ty = common_type(op, &[x, y])?;
            // allocated first: its size check bounds the broadcast copies below
            let mut out = Tensor::for_overwrite(op, &shape, ty.dtype)?;
            let keep = row_major::<bool>(&condition.broadcast_to(&shape)?, op)?;
            let y = y.broadcast_to(&shape)?;
            with_dtype!(ty.dtype, T, {
                let dst = out.data_mut::<T>();
                // x converted straight into the output, then y where the condition is false
                copy_into(&x.broadcast_to(&shape)?, dst);
                let ys = row_major::<T>(&y, op)?;
                for ((d, &k), &v) in dst.iter_mut().zip(&keep).zip(&ys) {
                    if !k {
                        *d = v;
                    }
                }
            });
            Ok(out.with_weak(ty.weak))
        },
        || TapeOp::Where,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::promote::{PromotionMode, with_mode};
    use crate::{Category, constant};

    fn t<T: crate::Element>(v: Vec<T>, s: &[usize]) -> Tensor {
        Tensor::from_vec(v, s).unwrap()
    }

    #[test]
    fn concat_along_each_axis_matches_the_row_major_layout() {
        let a = t((0..6).collect::<Vec<i16>>(), &[2, 3]);
        let b = t((10..16).collect::<Vec<i16>>(), &[2, 3]);
        let r0 = concat(&[&a, &b], 0).unwrap();
        assert_eq!(r0.shape(), &[4, 3]);
        assert_eq!(r0.to_vec::<i16>().unwrap(), vec![0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15]);
        let r1 = concat(&[&a, &b, &a], -1).unwrap();
        assert_eq!(r1.shape(), &[2, 9]);
        assert_eq!(r1.to_vec::<i16>().unwrap(), vec![0, 1, 2, 10, 11, 12, 0, 1, 2, 3, 4, 5, 13, 14, 15, 3, 4, 5]);
        // views (transposed, negative strides) are read in logical order
        let at = a.t();
        let r2 = concat(&[&at, &at.slice(&[crate::SliceArg::range(0, 1)]).unwrap()], 0).unwrap();
        assert_eq!(r2.to_vec::<i16>().unwrap(), vec![0, 3, 1, 4, 2, 5, 0, 3]);
    }

    #[test]
    fn concat_promotes_through_the_lattice_as_add_does() {
        let w = constant([1, 2]).unwrap(); // i32*
        let h = t(vec![half::f16::from_f32(0.5)], &[1]);
        let r = concat(&[&w, &h], 0).unwrap();
        assert_eq!((r.dtype(), r.is_weak()), (DType::F16, false));
        let r = concat(&[&w, &constant([0.5]).unwrap()], 0).unwrap();
        assert_eq!((r.dtype(), r.is_weak()), (DType::F32, true));
        let s = t(vec![1i32], &[1]);
        let r = concat(&[&s, &constant([0.5]).unwrap()], 0).unwrap();
        let sum = crate::ops::add(&s, &constant([0.5]).unwrap()).unwrap();
        assert_eq!((r.dtype(), r.is_weak()), (sum.dtype(), sum.is_weak()));
        assert_eq!((r.dtype(), r.is_weak()), (DType::F64, true));
        let i = t(vec![1i32], &[1]);
        let f = t(vec![1.0f32], &[1]);
        // the same join as `add`: i32 ⊔ f32 = f32 in mode All
        assert_eq!(concat(&[&i, &f], 0).unwrap().dtype(), crate::ops::add(&i, &f).unwrap().dtype());
        assert_eq!(concat(&[&i, &f], 0).unwrap().dtype(), DType::F32);
        let e = with_mode(PromotionMode::Safe, || concat(&[&i, &f], 0)).unwrap_err();
        assert!(matches!(e, Error::Promotion { .. }), "{e}");
    }

    #[test]
    fn concat_and_stack_refuse_bad_inputs_with_errors() {
        let a = t(vec![1.0f32; 6], &[2, 3]);
        let b = t(vec![1.0f32; 4], &[2, 2]);
        assert!(concat(&[], 0).unwrap_err().to_string().contains("at least one"));
        assert!(concat(&[&t(vec![1.0f32], &[])], 0).unwrap_err().to_string().contains("scalars"));
        assert_eq!(concat(&[&a, &a], 2).unwrap_err().category(), Category::InvalidArgument);
        assert!(matches!(concat(&[&a, &b], 0).unwrap_err(), Error::ShapeMismatch { .. }));
        assert_eq!(concat(&[&a, &b], 1).unwrap().shape(), &[2, 5]);
        assert!(concat(&[&a, &t(vec![1.0f32; 6], &[6])], 0).unwrap_err().to_string().contains("rank"));
        assert!(matches!(stack(&[&a, &b], 0).unwrap_err(), Error::ShapeMismatch { .. }));
        assert!(stack(&[], 0).is_err());
        assert!(stack(&[&a], 3).is_err());
        assert_eq!(stack(&[&a], -3).unwrap().shape(), &[1, 2, 3]);
    }

    #[test]
    fn huge_results_are_refused_before_any_copy() {
        // broadcast views cost nothing; their concatenation would need 2^62 bytes
        let big = t(vec![1.0f32], &[1]).broadcast_to(&[1 << 30, 1 << 30]).unwrap();
        let e = concat(&[&big, &big], 0).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
        let e = where_(&t(vec![true], &[]), &big, &t(vec![0.0f32], &[])).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
        let e = stack(&[&big, &big], 1).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
    }

    proptest::proptest! {
        /// Element `idx` of the result comes from the input whose slot along the
        /// axis holds `idx[axis]`, at that offset: a naive index map.
        #[test]
        fn concat_equals_the_naive_index_map(
            base in proptest::collection::vec(0usize..4, 1..4),
            lens in proptest::collection::vec(0usize..4, 1..4),
            axis_pick in 0usize..8,
        ) {
            let axis = axis_pick % base.len();
            let mut next = 0i64;
            let inputs: Vec<Tensor> = lens.iter().map(|&l| {
                let mut s = base.clone();
                s[axis] = l;
                let n: usize = s.iter().product();
                let v: Vec<i64> = (0..n as i64).map(|k| next + k).collect();
                next += 1000;
                t(v, &s)
            }).collect();
            let refs: Vec<&Tensor> = inputs.iter().collect();
            let r = concat(&refs, axis as isize - base.len() as isize).unwrap();
            let got = r.to_vec::<i64>().unwrap();
            let shape = r.shape().to_vec();
            proptest::prop_assert_eq!(shape[axis], lens.iter().sum::<usize>());
            for (flat, &g) in got.iter().enumerate() {
                let mut idx = vec![0; shape.len()];
                let mut rem = flat;
                for d in (0..shape.len()).rev() { idx[d] = rem % shape[d]; rem /= shape[d]; }
                let (mut which, mut pos) = (0, idx[axis]);
                while pos >= lens[which] { pos -= lens[which]; which += 1; }
                let mut src = idx.clone();
                src[axis] = pos;
                let s = inputs[which].shape();
                let off = src.iter().zip(s).fold(0, |acc, (&i, &d)| acc * d + i);
                proptest::prop_assert_eq!(g, inputs[which].to_vec::<i64>().unwrap()[off]);
            }
        }
    }

    #[test]
    fn stack_inserts_the_new_axis_where_asked() {
        let a = t(vec![1u8, 2, 3, 4], &[2, 2]);
        let b = t(vec![5u8, 6, 7, 8], &[2, 2]);
        let s0 = stack(&[&a, &b], 0).unwrap();
        assert_eq!((s0.shape(), s0.to_vec::<u8>().unwrap()), (&[2usize, 2, 2][..], vec![1, 2, 3, 4, 5, 6, 7, 8]));
        let s1 = stack(&[&a, &b], 1).unwrap();
        assert_eq!(s1.to_vec::<u8>().unwrap(), vec![1, 2, 5, 6, 3, 4, 7, 8]);
        let s2 = stack(&[&a, &b], 2).unwrap();
        assert_eq!(s2.to_vec::<u8>().unwrap(), vec![1, 5, 2, 6, 3, 7, 4, 8]);
        let scalars = stack(&[&t(vec![1i64], &[]), &t(vec![2i64], &[])], 0).unwrap();
        assert_eq!((scalars.shape(), scalars.to_vec::<i64>().unwrap()), (&[2usize][..], vec![1, 2]));
    }

    #[test]
    fn where_selects_broadcasts_and_promotes() {
        let c = t(vec![true, false], &[2, 1]);
        let x = t(vec![1i8, 2, 3], &[3]);
        let y = t(vec![-1.5f32], &[1]);
        let r = where_(&c, &x, &y).unwrap();
        assert_eq!((r.shape(), r.dtype()), (&[2usize, 3][..], DType::F32));
        assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, -1.5, -1.5, -1.5]);
        let w = where_(&t(vec![false], &[]), &constant(1).unwrap(), &constant(2.5).unwrap()).unwrap();
        assert_eq!((w.dtype(), w.is_weak(), w.item::<f32>().unwrap()), (DType::F32, true, 2.5));
        let bad = where_(&t(vec![1i32], &[1]), &x, &x).unwrap_err();
        assert!(matches!(bad, Error::InvalidArgument(_)) && bad.to_string().contains("not_equal"), "{bad}");
        assert!(matches!(where_(&t(vec![true; 2], &[2]), &x, &x).unwrap_err(), Error::ShapeMismatch { .. }));
    }
}
