//! Ops on categorical data: [`one_hot`] (`tf.one_hot`), [`unique`] and
//! [`unique_with_counts`] (`tf.unique`, `tf.unique_with_counts`).
//!
//! Their results are strong, as TF's are (none of them is on TF's WeakTensor list).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;

use rustc_hash::FxBuildHasher;

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use crate::core::error::{Error, Result};
use crate::ops::unary::unsupported;
use crate::{DType, Element, Tensor, with_dtype};

/// `tf.one_hot(indices, depth, on_value, off_value, axis)`: a tensor with a new
/// axis of length `depth` at `axis`, holding `on_value` where its position
/// equals the index and `off_value` elsewhere. An index outside `[0, depth)`
/// (negative ones included) gives a row of `off_value`s.
///
/// `indices` has any integer dtype. `on_value` and `off_value` are 0-d tensors
/// of one dtype, the result's (TF's defaults are float32 1 and 0; in Python,
/// `tf.one_hot` applies TF's rules for choosing them). `axis` is `-1` (the new
/// axis is last, TF's default) or in `[-(rank+1), rank]`, negative counting
/// from the end of the result (TF accepts only `-1` of the negative axes).
/// The result is strong, as TF's is.
///
/// ```
/// use lattensor::{one_hot, Tensor};
/// let idx = Tensor::from_vec(vec![0i64, 2, -1, 3], &[4]).unwrap();
/// let (on, off) = (Tensor::scalar(1.0f32), Tensor::scalar(0.0f32));
/// let m = one_hot(&idx, 3, &on, &off, -1).unwrap();
/// assert_eq!(m.shape(), &[4, 3]);
/// assert_eq!(m.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
/// let t = one_hot(&idx, 3, &Tensor::scalar(5i8), &Tensor::scalar(-1i8), 0).unwrap(); // depth first
/// assert_eq!(t.shape(), &[3, 4]);
/// assert_eq!(t.to_vec::<i8>().unwrap(), vec![5, -1, -1, -1, -1, -1, -1, -1, -1, 5, -1, -1]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-integer indices; [`Error::InvalidArgument`]
/// for a negative depth, an axis out of range, `on_value`/`off_value` that are
/// not 0-d or differ in dtype; [`Error::ResourceExhausted`] if the result is too large.
pub fn one_hot(indices: &Tensor, depth: i64, on_value: &Tensor, off_value: &Tensor, axis: isize) -> Result<Tensor> {
    let op = "one_hot";
    if !indices.dtype().is_integer() {
        return Err(unsupported(op, indices.dtype(), "integer indices (int8–int64, uint8–uint64); cast them first"));
    }
    crate::ensure!(depth >= 0, "{op}: depth must be non-negative, got {depth}");
    for (what, v) in [("on_value", on_value), ("off_value", off_value)] {
        crate::ensure!(v.rank() == 0, "{op}: {what} must be a single value (0-d), got shape {:?}", v.shape());
    }
    crate::ensure!(
        on_value.dtype() == off_value.dtype(),
        "{op}: on_value is {} but off_value is {}; they must have one dtype (the result's): cast one of them",
        on_value.dtype(),
        off_value.dtype()
    );
    let rank = indices.rank();
    let r = rank as isize;
    crate::ensure!(
        (-r - 1..=r).contains(&axis),
        "{op}: axis {axis} is out of range for indices of rank {rank} (shape {:?}); expected -1 or an axis in [{}, {rank}]",
        indices.shape(),
        -r - 1
    );
    let ax = if axis < 0 { (axis + r + 1) as usize } else { axis as usize };
    let depth = usize::try_from(depth).unwrap_or(usize::MAX);
    let mut shape = indices.shape().to_vec();
    shape.insert(ax, depth);
    let dtype = on_value.dtype();
    // allocated first: its size check bounds the index copy below
    let mut out = Tensor::for_overwrite(op, &shape, dtype)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let inner: usize = indices.shape()[ax..].iter().product();
    let idx = crate::kernels::row_major::<i64>(indices, op)?;
    with_dtype!(dtype, T, {
        let (on, off) = (on_value.item::<T>()?, off_value.item::<T>()?);
        let dst = out.data_mut::<T>();
        dst.fill(off);
        for (k, &i) in idx.iter().enumerate() {
            if (0..depth as i128).contains(&(i as i128)) {
                let (o, rest) = (k / inner, k % inner);
                dst[(o * depth + i as usize) * inner + rest] = on;
            }
        }
    });
    Ok(out)
}

/// `tf.unique(x, out_idx)`: the distinct values of the 1-D `x` in order of
/// first occurrence (`y`, `x`'s dtype), and for each element of `x` the
/// position of its value in `y` (`idx`, of dtype `out_idx`: int32 or int64),
/// so that `y[idx] == x`.
///
/// Values compare with `==`, as in TF: `-0.0` and `0.0` are one value (the
/// first one seen is kept), and NaN equals nothing, so every NaN is a distinct
/// value of its own (NumPy's `np.unique` merges NaNs). Every dtype is accepted
/// (TF 2.21 has no complex128 kernel). The results are strong.
///
/// ```
/// use lattensor::{unique, DType, Tensor};
/// let x = Tensor::from_vec(vec![1i32, 1, 2, 4, 4, 4, 7, 8, 8], &[9]).unwrap();
/// let (y, idx) = unique(&x, DType::I32).unwrap();
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![1, 2, 4, 7, 8]);
/// assert_eq!(idx.to_vec::<i32>().unwrap(), vec![0, 0, 1, 2, 2, 2, 3, 4, 4]);
/// let f = Tensor::from_vec(vec![f32::NAN, f32::NAN, -0.0, 0.0], &[4]).unwrap();
/// let (y, idx) = unique(&f, DType::I64).unwrap();
/// assert_eq!(idx.to_vec::<i64>().unwrap(), vec![0, 1, 2, 2]); // each NaN is its own value
/// assert_eq!(y.shape(), &[3]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] unless `x` is 1-D; [`Error::UnsupportedDType`]
/// unless `out_idx` is int32 or int64; [`Error::OutOfRange`] if int32 cannot
/// index `x`.
pub fn unique(x: &Tensor, out_idx: DType) -> Result<(Tensor, Tensor)> {
    let (y, idx, _) = unique_impl("unique", x, out_idx)?;
    Ok((y, idx))
}

/// `tf.unique_with_counts(x, out_idx)`: [`unique`]'s `y` and `idx`, and `count`
/// (of dtype `out_idx`): how many elements of `x` equal each value of `y`.
///
/// ```
/// use lattensor::{unique_with_counts, DType, Tensor};
/// let x = Tensor::from_vec(vec![3u8, 1, 3, 2, 1, 3], &[6]).unwrap();
/// let (y, idx, count) = unique_with_counts(&x, DType::I64).unwrap();
/// assert_eq!(y.to_vec::<u8>().unwrap(), vec![3, 1, 2]);
/// assert_eq!(idx.to_vec::<i64>().unwrap(), vec![0, 1, 0, 2, 1, 0]);
/// assert_eq!(count.to_vec::<i64>().unwrap(), vec![3, 2, 1]);
/// ```
///
/// # Errors
/// As [`unique`].
pub fn unique_with_counts(x: &Tensor, out_idx: DType) -> Result<(Tensor, Tensor, Tensor)> {
    unique_impl("unique_with_counts", x, out_idx)
}

fn unique_impl(op: &str, x: &Tensor, out_idx: DType) -> Result<(Tensor, Tensor, Tensor)> {
    crate::ensure!(
        x.rank() == 1,
        "{op}: expects a 1-D tensor, got shape {:?}; flatten it first (reshape(x, [-1]))",
        x.shape()
    );
    if !matches!(out_idx, DType::I32 | DType::I64) {
        return Err(unsupported(op, out_idx, "int32 and int64 (out_idx)"));
    }
    let n = x.numel();
    if out_idx == DType::I32 && n > i32::MAX as usize {
        return Err(Error::OutOfRange(format!("{op}: {n} elements cannot be indexed with int32; pass out_idx=int64")));
    }
    // y gathers the first occurrences (a copy: they are not evenly spaced in x)
    let (y, idx, counts) = crate::dispatch_dtype!(x.dtype(), T, {
        let xs = crate::kernels::row_major::<T>(x, op)?;
        let (first, idx, counts) = distinct::<T>(&xs);
        let y = Tensor::from_vec(first.iter().map(|&p| xs[p]).collect::<Vec<T>>(), &[first.len()])?;
        (y, idx, counts)
    }, [
        Bool => bool, U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
        BF16 => bf16, F16 => f16, F32 => f32, F64 => f64, C64 => Complex32, C128 => Complex64,
    ], else => return Err(unsupported(op, x.dtype(), "every dtype")));
    let as_index = |v: Vec<usize>| -> Result<Tensor> {
        let len = v.len();
        match out_idx {
            DType::I32 => Tensor::from_vec(v.into_iter().map(|i| i as i32).collect::<Vec<_>>(), &[len]),
            _ => Tensor::from_vec(v.into_iter().map(|i| i as i64).collect::<Vec<_>>(), &[len]),
        }
    };
    Ok((y, as_index(idx)?, as_index(counts)?))
}

/// For each distinct value (in order of first occurrence) the position of its
/// first occurrence; for each element its value's number; each value's count.
fn distinct<T: EqKey>(xs: &[T]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    // Fx hashing: a multiply per key, several times faster than the default
    // SipHash, whose resistance to crafted keys a tensor op does not need (a
    // colliding input costs time, never correctness).
    let mut seen: HashMap<T::Key, usize, FxBuildHasher> = HashMap::default();
    let (mut first, mut idx, mut counts) = (Vec::new(), Vec::with_capacity(xs.len()), Vec::new());
    for (p, &x) in xs.iter().enumerate() {
        let id = match x.eq_key() {
            Some(key) => match seen.entry(key) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => *e.insert(first.len()),
            },
            None => first.len(), // NaN: equal to nothing, so always new
        };
        if id == first.len() {
            first.push(p);
            counts.push(0);
        }
        counts[id] += 1;
        idx.push(id);
    }
    (first, idx, counts)
}

/// A key such that two values are `==` iff their keys are equal; `None` for
/// values equal to nothing (NaN, or a complex number with a NaN part). Keys
/// are as narrow as the values allow, so the hash table stays small.
trait EqKey: Element {
    type Key: Hash + Eq + Copy;
    fn eq_key(self) -> Option<Self::Key>;
}

macro_rules! int_key {
    ($($t:ty),*) => {$(
        impl EqKey for $t {
            type Key = u64;
            fn eq_key(self) -> Option<u64> {
                Some(self as u64)
            }
        }
    )*};
}
int_key!(u8, u16, u32, u64, i8, i16, i32, i64);

impl EqKey for bool {
    type Key = u64;
    fn eq_key(self) -> Option<u64> {
        Some(u64::from(self))
    }
}

/// The bits of a float with `-0.0` folded onto `0.0`; `None` for NaN.
macro_rules! float_key {
    ($($t:ty),*) => {$(
        impl EqKey for $t {
            type Key = u64;
            fn eq_key(self) -> Option<u64> {
                if self.is_nan() {
                    None
                } else if self == <$t>::default() {
                    Some(0)
                } else {
                    Some(u64::from(self.to_bits()))
                }
            }
        }
    )*};
}
float_key!(f16, bf16, f32, f64);

impl EqKey for Complex32 {
    type Key = u64;
    fn eq_key(self) -> Option<u64> {
        Some((self.re.eq_key()? << 32) | self.im.eq_key()?)
    }
}

impl EqKey for Complex64 {
    type Key = u128;
    fn eq_key(self) -> Option<u128> {
        Some((u128::from(self.re.eq_key()?) << 64) | u128::from(self.im.eq_key()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Category;

    fn t<T: Element>(v: Vec<T>, s: &[usize]) -> Tensor {
        Tensor::from_vec(v, s).unwrap()
    }

    #[test]
    fn one_hot_puts_the_new_axis_where_asked() {
        let idx = t(vec![0i32, 2, 1, 1], &[2, 2]);
        let (on, off) = (Tensor::scalar(1u8), Tensor::scalar(0u8));
        // axis 0: out[d, i, j] = idx[i, j] == d
        let a0 = one_hot(&idx, 3, &on, &off, 0).unwrap();
        assert_eq!(a0.shape(), &[3, 2, 2]);
        assert_eq!(a0.to_vec::<u8>().unwrap(), vec![1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0]);
        let a1 = one_hot(&idx, 3, &on, &off, 1).unwrap();
        assert_eq!(a1.shape(), &[2, 3, 2]);
        assert_eq!(a1.to_vec::<u8>().unwrap(), vec![1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]);
        let last = one_hot(&idx, 3, &on, &off, -1).unwrap();
        assert_eq!(last.to_vec::<u8>().unwrap(), one_hot(&idx, 3, &on, &off, 2).unwrap().to_vec::<u8>().unwrap());
        assert_eq!(one_hot(&idx, 3, &on, &off, -3).unwrap().to_vec::<u8>().unwrap(), a0.to_vec::<u8>().unwrap());
        // a 0-d index, depth 0, unsigned indices beyond i64
        let s = one_hot(&Tensor::scalar(1i8), 3, &on, &off, -1).unwrap();
        assert_eq!((s.shape(), s.to_vec::<u8>().unwrap()), (&[3usize][..], vec![0, 1, 0]));
        assert_eq!(one_hot(&idx, 0, &on, &off, -1).unwrap().shape(), &[2, 2, 0]);
        let big = one_hot(&t(vec![u64::MAX, 1], &[2]), 2, &on, &off, -1).unwrap();
        assert_eq!(big.to_vec::<u8>().unwrap(), vec![0, 0, 0, 1]);
        assert!(
            !one_hot(&idx, 3, &Tensor::scalar(1.0f32).with_weak(true), &Tensor::scalar(0.0f32), -1).unwrap().is_weak()
        );
    }

    #[test]
    fn one_hot_refuses_bad_arguments() {
        let idx = t(vec![0i32, 1], &[2]);
        let (on, off) = (Tensor::scalar(1.0f32), Tensor::scalar(0.0f32));
        let e = one_hot(&t(vec![0.0f32], &[1]), 2, &on, &off, -1).unwrap_err();
        assert!(matches!(e, Error::UnsupportedDType { .. }), "{e}");
        assert!(one_hot(&idx, -1, &on, &off, -1).unwrap_err().to_string().contains("non-negative"));
        assert!(one_hot(&idx, 2, &on, &off, 2).unwrap_err().to_string().contains("axis 2"));
        assert!(one_hot(&idx, 2, &on, &off, -3).is_err());
        assert!(one_hot(&idx, 2, &t(vec![1.0f32], &[1]), &off, -1).unwrap_err().to_string().contains("on_value"));
        assert!(one_hot(&idx, 2, &on, &Tensor::scalar(0.0f64), -1).unwrap_err().to_string().contains("float64"));
        let e = one_hot(&idx, i64::MAX, &on, &off, -1).unwrap_err();
        assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
    }

    #[test]
    fn unique_keeps_first_occurrences_and_counts() {
        let x = t(vec![3i16, 1, 3, 2, 1, 3], &[6]);
        let (y, idx, c) = unique_with_counts(&x, DType::I32).unwrap();
        assert_eq!(y.to_vec::<i16>().unwrap(), vec![3, 1, 2]);
        assert_eq!(idx.to_vec::<i32>().unwrap(), vec![0, 1, 0, 2, 1, 0]);
        assert_eq!(c.to_vec::<i32>().unwrap(), vec![3, 2, 1]);
        assert_eq!((y.dtype(), idx.dtype(), c.dtype()), (DType::I16, DType::I32, DType::I32));
        // a strided view is read in logical order
        let v = t((0..8).map(|i| i % 3).collect::<Vec<i64>>(), &[8])
            .slice(&[crate::SliceArg::stepped(None, None, -2)])
            .unwrap();
        let (y, idx) = unique(&v, DType::I64).unwrap();
        assert_eq!((y.to_vec::<i64>().unwrap(), idx.to_vec::<i64>().unwrap()), (vec![1, 2, 0], vec![0, 1, 2, 0]));
        // -0.0 and 0.0 are one value, the first kept; NaN is never equal to itself
        let f = t(vec![-0.0f64, 0.0, f64::NAN, 1.0, f64::NAN], &[5]);
        let (y, idx, c) = unique_with_counts(&f, DType::I64).unwrap();
        let yv = y.to_vec::<f64>().unwrap();
        assert_eq!(yv.len(), 4);
        assert!(yv[0] == 0.0 && yv[0].is_sign_negative() && yv[1].is_nan() && yv[2] == 1.0 && yv[3].is_nan());
        assert_eq!((idx.to_vec::<i64>().unwrap(), c.to_vec::<i64>().unwrap()), (vec![0, 0, 1, 2, 3], vec![2, 1, 1, 1]));
        let z = t(vec![Complex64::new(1.0, -0.0), Complex64::new(1.0, 0.0), Complex64::new(f64::NAN, 0.0)], &[3]);
        assert_eq!(unique(&z, DType::I32).unwrap().1.to_vec::<i32>().unwrap(), vec![0, 0, 1]);
        let h = t(vec![f16::from_f32(1.5), f16::from_f32(1.5)], &[2]);
        assert_eq!(unique(&h, DType::I32).unwrap().0.shape(), &[1]);
        let b = t(vec![true, false, true], &[3]);
        assert_eq!(unique(&b, DType::I32).unwrap().0.to_vec::<bool>().unwrap(), vec![true, false]);
        let (y, idx) = unique(&t(Vec::<u32>::new(), &[0]), DType::I32).unwrap();
        assert_eq!((y.shape(), idx.shape()), (&[0usize][..], &[0usize][..]));
    }

    #[test]
    fn unique_refuses_other_ranks_and_index_types() {
        let e = unique(&t(vec![1i32, 2, 1, 2], &[2, 2]), DType::I32).unwrap_err();
        assert!(e.to_string().contains("1-D") && e.to_string().contains("[2, 2]"), "{e}");
        assert!(unique(&Tensor::scalar(5i32), DType::I32).is_err());
        let e = unique(&t(vec![1i32], &[1]), DType::I16).unwrap_err();
        assert!(matches!(e, Error::UnsupportedDType { .. }), "{e}");
        assert!(unique_with_counts(&t(vec![1i32], &[1]), DType::F32).is_err());
    }
}
