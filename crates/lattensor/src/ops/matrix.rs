//! `tf.linalg`: matmul, matrix_transpose, diag, diag_part, tensor_diag_part, trace.

use std::sync::Arc;

use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
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
    let out = batched_product(&a, &b, result.dtype)?;
    Ok(out.with_weak(result.weak))
}

/// `a @ b` over the last two axes with NumPy's broadcasting of the batch axes,
/// computed in `result`'s compute type and returned as a strong `result` tensor.
///
/// The operands' batch axes fall in three groups: those both operands have
/// (beyond size-1 broadcasting) form the product's batch; those only one has
/// (the other's being absent or 1) join that operand's free axis, making one
/// larger product (`[2, 1, m, k] @ [5, k, n]` is one `[2m, k] × [k, 5n]`
/// product). Each operand is permuted to `[batch, free, contracted]` /
/// `[batch, contracted, free]` (a view when its strides allow), multiplied by
/// [`crate::kernels::matmul`], and the result is permuted back to
/// `[batch..., m, n]` (a view).
fn batched_product(a: &Tensor, b: &Tensor, result: DType) -> Result<Tensor> {
    let (ea, eb) = (a.rank() - 2, b.rank() - 2);
    let nb = ea.max(eb);
    // (Messages and allocation errors name "einsum", as when matmul ran on `...ij,...jk->...ik`.)
    // the size of batch axis q (0..nb, right-aligned) in an operand with `e` batch axes, if it has it
    let dim = |t: &Tensor, e: usize, q: usize| (q >= nb - e).then(|| t.shape()[q - (nb - e)]);
    let mut sizes = Vec::with_capacity(nb);
    for q in 0..nb {
        sizes.push(match (dim(a, ea, q), dim(b, eb, q)) {
            (Some(s), Some(d)) if s != d && s != 1 && d != 1 => {
                return Err(Error::InvalidArgument(format!(
                    "einsum: operands could not be broadcast together: the ellipsis ('...') dimensions of operand 0 \
                     (shaped {}) and operand 1 (shaped {}) have sizes {s} and {d} [equation '...ij,...jk->...ik']",
                    shape_str(a.shape()),
                    shape_str(b.shape())
                )));
            }
            (Some(1), Some(d)) | (None, Some(d)) => d,
            (Some(s), _) => s,
            (None, None) => 1,
        });
    }
    // each operand's batch axes that are not broadcast (size-1 against a larger size)
    let kept = |t: &Tensor, e: usize| -> Vec<usize> { (0..nb).filter(|&q| dim(t, e, q) == Some(sizes[q])).collect() };
    let (qa, qb) = (kept(a, ea), kept(b, eb));
    let both: Vec<usize> = qa.iter().copied().filter(|q| qb.contains(q)).collect();
    let a_only: Vec<usize> = qa.iter().copied().filter(|q| !qb.contains(q)).collect();
    let b_only: Vec<usize> = qb.iter().copied().filter(|q| !qa.contains(q)).collect();
    let compute = crate::kernels::matmul::compute_dtype(result);
    // an operand as a view of its kept batch axes and its two matrix axes, in `compute`
    let prepare = |t: &Tensor, e: usize, kept: &[usize]| -> Result<Tensor> {
        let (l, r) = (t.layout(), t.rank());
        let axes: Vec<usize> = kept.iter().map(|&q| q - (nb - e)).chain([r - 2, r - 1]).collect();
        let layout = Layout::from_parts(
            axes.iter().map(|&x| l.shape()[x]).collect(),
            axes.iter().map(|&x| l.strides()[x]).collect(),
            l.offset(),
        );
        let v = Tensor { storage: Arc::clone(&t.storage), layout, dtype: t.dtype, weak: false };
        if v.dtype() == compute { Ok(v) } else { v.cast(compute) }
    };
    let (va, vb) = (prepare(a, ea, &qa)?, prepare(b, eb, &qb)?);
    let pos = |kept: &[usize], want: &[usize]| -> Vec<usize> {
        want.iter().filter_map(|w| kept.iter().position(|q| q == w)).collect()
    };
    let (ra, rb) = (qa.len(), qb.len());
    // a as [both, a_only, m, k], b as [both, k, b_only, n]
    let pa: Vec<usize> = [pos(&qa, &both), pos(&qa, &a_only), vec![ra, ra + 1]].concat();
    let pb: Vec<usize> = [pos(&qb, &both), vec![rb], pos(&qb, &b_only), vec![rb + 1]].concat();
    let prod = |qs: &[usize]| crate::core::layout::dims_product(qs.iter().map(|&q| sizes[q]));
    let (m, k, n) = (a.shape()[ea], a.shape()[ea + 1], b.shape()[eb + 1]);
    let (bt, mm, nn) = (prod(&both), prod(&a_only) * m, prod(&b_only) * n);
    let a3 = va.transpose(&pa)?.reshape(&[bt as isize, mm as isize, k as isize])?;
    let b3 = vb.transpose(&pb)?.reshape(&[bt as isize, k as isize, nn as isize])?;
    let out = crate::kernels::matmul::matmul_any(&a3, &b3, "einsum")?;
    // the product's axes are [both, a_only, m, b_only, n]: back to [batch..., m, n]
    let labels: Vec<usize> =
        both.iter().chain(&a_only).copied().chain([nb]).chain(b_only.iter().copied()).chain([nb + 1]).collect();
    let shape: Vec<isize> = labels.iter().map(|&l| if l == nb { m } else if l == nb + 1 { n } else { sizes[l] } as isize).collect();
    let perm: Vec<usize> = (0..nb + 2).filter_map(|l| labels.iter().position(|&x| x == l)).collect();
    let t = out.reshape(&shape)?.transpose(&perm)?;
    let t = if result != compute { t.cast(result)? } else { t };
    Ok(Tensor { storage: t.storage.clone(), layout: t.layout.clone(), dtype: t.dtype, weak: false })
}

/// A shape as einsum's messages print it: `[2,3,4]`.
fn shape_str(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// Swaps the last two axes (a view); with `conjugate`, also conjugates.
///
/// # Errors
/// [`Error::InvalidValue`] for rank < 2 (TF's `ValueError`).
pub fn matrix_transpose(x: &Tensor, conjugate: bool) -> Result<Tensor> {
    need_rank("matrix_transpose", x, 2).map_err(|e| Error::InvalidValue(e.to_string()))?;
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
