//! `tf.linalg`: matmul, matrix_transpose, diag, diag_part, tensor_diag_part, trace.

use std::sync::Arc;

use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
use crate::einsum::{Front, PathOptions, einsum_front};
use crate::promote;
use crate::{DType, Tensor, with_dtype};

/// An `InvalidArgument` error unless `x` has rank ≥ `rank`.
pub(crate) fn need_rank(op: &str, x: &Tensor, rank: usize) -> Result<()> {
    if x.rank() < rank {
        return Err(Error::InvalidArgument(format!(
            "{op}: expected a tensor of rank ≥ {rank}, got shape {:?}",
            x.shape()
        )));
    }
    Ok(())
}

/// Matrix product over the last two axes, with broadcast batch axes, like
/// `tf.linalg.matmul` / `@`.
///
/// The operands promote through the lattice and the result keeps the
/// promotion's weakness (`int32 @ float32 → float32`, `i32* @ i32* → i32*`).
/// `transpose_*` transposes and `adjoint_*` conjugate-transposes an operand
/// first (views, no copies). Floats and complex numbers run on a blocked
/// GEMM; bf16/f16 accumulate in f32; integers wrap.
///
/// ```
/// use lattensor::{constant, ops, DType, Tensor};
/// let a = constant(vec![vec![1, 2]]).unwrap();
/// let b = constant(vec![vec![3], vec![4]]).unwrap();
/// let c = ops::matrix::matmul(&a, &b, false, false).unwrap();
/// assert_eq!((c.dtype(), c.is_weak(), c.to_vec::<i32>().unwrap()), (DType::I32, true, vec![11]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2 or mismatched inner dimensions,
/// [`Error::ShapeMismatch`] for batch axes that do not broadcast,
/// [`Error::Promotion`] if the mode refuses the dtypes, [`Error::UnsupportedDType`] if
/// both operands are bool.
pub fn matmul(a: &Tensor, b: &Tensor, transpose_a: bool, transpose_b: bool) -> Result<Tensor> {
    matmul_ext(a, b, transpose_a, transpose_b, false, false)
}

/// [`matmul`] with TF's `adjoint_a`/`adjoint_b` as well.
///
/// # Errors
/// As [`matmul`].
pub fn matmul_ext(a: &Tensor, b: &Tensor, ta: bool, tb: bool, adj_a: bool, adj_b: bool) -> Result<Tensor> {
    need_rank("matmul", a, 2)?;
    need_rank("matmul", b, 2)?;
    let result = promote::result_type_for("matmul", &[a.lattice_type(), b.lattice_type()], promote::current_mode())?;
    if result.dtype.is_bool() {
        // TF has no bool matmul kernel
        return Err(super::unary::unsupported("matmul", DType::Bool, "every dtype but bool"));
    }
    let a = if ta || adj_a { matrix_transpose(a, adj_a)? } else { a.clone() };
    let b = if tb || adj_b { matrix_transpose(b, adj_b)? } else { b.clone() };
    let (k1, k2) = (a.shape()[a.rank() - 1], b.shape()[b.rank() - 2]);
    if k1 != k2 {
        return Err(Error::InvalidArgument(format!(
            "matmul: the inner dimensions differ: {:?} @ {:?} ({k1} vs {k2}); the last axis of a must equal the second-to-last of b",
            a.shape(),
            b.shape()
        )));
    }
    let out = einsum_front(Front::NumPy, "...ij,...jk->...ik", &[&a, &b], PathOptions::default())?;
    Ok(out.with_weak(result.weak))
}

/// Swaps the last two axes (a view); with `conjugate`, also conjugates.
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2.
pub fn matrix_transpose(x: &Tensor, conjugate: bool) -> Result<Tensor> {
    need_rank("matrix_transpose", x, 2)?;
    let r = x.rank();
    let mut perm: Vec<usize> = (0..r).collect();
    perm.swap(r - 2, r - 1);
    let t = x.transpose(&perm)?;
    // `conjugate` means nothing for a real dtype (bool included), as in TF
    if conjugate && x.dtype().is_complex() { super::conj(&t) } else { Ok(t) }
}

/// The main diagonal of the last two axes, `[..., m, n] → [..., min(m, n)]` (a strided view).
///
/// ```
/// use lattensor::{ops, Tensor};
/// let m = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let d = ops::matrix::diag_part(&m).unwrap();
/// assert!(d.shares_storage_with(&m));
/// assert_eq!(d.to_vec::<i32>().unwrap(), vec![0, 4]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2.
pub fn diag_part(x: &Tensor) -> Result<Tensor> {
    need_rank("diag_part", x, 2)?;
    let r = x.rank();
    let (shape, strides) = (x.shape(), x.layout().strides());
    let mut s = shape[..r - 2].to_vec();
    s.push(shape[r - 2].min(shape[r - 1]));
    let mut st = strides[..r - 2].to_vec();
    st.push(strides[r - 2] + strides[r - 1]);
    let layout = Layout::from_parts(s, st, x.layout().offset());
    Ok(Tensor { storage: Arc::clone(&x.storage), layout, dtype: x.dtype, weak: x.weak })
}

/// Sum of the main diagonal of the last two axes (`tf.linalg.trace`); keeps dtype and weakness.
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2; [`Error::UnsupportedDType`] for bool.
pub fn trace(x: &Tensor) -> Result<Tensor> {
    super::reduce_sum(&diag_part(x)?, -1, false)
}

/// Batched diagonal matrices: `[..., n] → [..., n, n]` with `v` on the diagonal (`tf.linalg.diag`).
///
/// # Errors
/// [`Error::InvalidArgument`] for a scalar input; [`Error::ResourceExhausted`] if the result is too large.
pub fn diag(v: &Tensor) -> Result<Tensor> {
    need_rank("diag", v, 1)?;
    let n = v.shape()[v.rank() - 1];
    let mut shape = v.shape().to_vec();
    shape.push(n);
    let batch: usize = crate::core::layout::dims_product(v.shape()[..v.rank() - 1].iter().copied());
    let mut out = Tensor::zeros(&shape, v.dtype())?;
    with_dtype!(v.dtype(), T, {
        let src = v.to_vec::<T>()?;
        let dst = out.data_mut::<T>();
        for b in 0..batch {
            for i in 0..n {
                dst[b * n * n + i * n + i] = src[b * n + i];
            }
        }
    });
    Ok(out.with_weak(v.is_weak()))
}

/// The diagonal of a tensor of shape `[d1, …, dk, d1, …, dk]`, of shape `[d1, …, dk]`
/// (`tf.linalg.tensor_diag_part`; a strided view).
///
/// # Errors
/// [`Error::InvalidArgument`] unless the rank is even and the two halves of the shape agree.
pub fn tensor_diag_part(x: &Tensor) -> Result<Tensor> {
    let r = x.rank();
    let (a, b) = x.shape().split_at(r / 2);
    if !r.is_multiple_of(2) || a != b {
        return Err(Error::InvalidArgument(format!(
            "tensor_diag_part: the input's shape must be [d1, ..., dk, d1, ..., dk], got {:?}",
            x.shape()
        )));
    }
    let st = x.layout().strides();
    let strides: Vec<isize> = (0..r / 2).map(|i| st[i] + st[i + r / 2]).collect();
    let layout = Layout::from_parts(a.to_vec(), strides, x.layout().offset());
    Ok(Tensor { storage: Arc::clone(&x.storage), layout, dtype: x.dtype, weak: x.weak })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Found by the TF golden test: TF refuses bool matmul and ignores `conjugate` for bool.
    #[test]
    fn bool_like_tf() {
        let b = Tensor::from_vec(vec![true, false, true, true], &[2, 2]).unwrap();
        assert!(matches!(matmul(&b, &b, false, true), Err(Error::UnsupportedDType { .. })));
        let t = matrix_transpose(&b, true).unwrap();
        assert_eq!(t.to_vec::<bool>().unwrap(), vec![true, true, false, true]);
    }

    #[test]
    fn matmul_promotes_and_broadcasts_batches() {
        let a = Tensor::from_vec((0..12).collect::<Vec<i32>>(), &[2, 2, 3]).unwrap();
        let b = Tensor::from_vec(vec![1.0f32, 0.0, 0.0, 1.0, 1.0, 1.0], &[3, 2]).unwrap();
        let c = matmul(&a, &b, false, false).unwrap();
        assert_eq!((c.dtype(), c.shape()), (DType::F32, &[2usize, 2, 2][..]));
        assert_eq!(c.to_vec::<f32>().unwrap(), vec![2.0, 3.0, 8.0, 9.0, 14.0, 15.0, 20.0, 21.0]);
        let t = matmul(&b, &b, true, false).unwrap();
        assert_eq!(t.shape(), &[2, 2]);
        assert!(matmul(&a, &a, false, false).is_err());
        assert!(matmul(&Tensor::scalar(1.0f32), &b, false, false).is_err());
    }

    #[test]
    fn diagonals_are_views() {
        let x = Tensor::from_vec((0..16).collect::<Vec<i64>>(), &[2, 2, 2, 2]).unwrap();
        let d = tensor_diag_part(&x).unwrap();
        assert!(d.shares_storage_with(&x));
        assert_eq!(d.to_vec::<i64>().unwrap(), vec![0, 5, 10, 15]);
        let m = Tensor::from_vec((0..9).collect::<Vec<i32>>(), &[3, 3]).unwrap();
        assert_eq!(trace(&m).unwrap().item::<i32>().unwrap(), 12);
        let v = crate::constant([1.0, 2.0]).unwrap();
        let dm = diag(&v).unwrap();
        assert!(dm.is_weak());
        assert_eq!(dm.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.0, 2.0]);
        assert_eq!(diag_part(&dm).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
    }
}
