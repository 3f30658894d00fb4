//! `tf.linalg`: matmul, matrix_transpose, diag, diag_part, set_diag, band_part,
//! tensor_diag_part, trace.

use std::sync::Arc;

use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
use crate::core::tape::{self, TapeOp};
use crate::promote;
use crate::{DType, LatticeType, Tensor, with_dtype};

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
    matmul_with(
        a,
        b,
        MatMulOptions { transpose_a: ta, transpose_b: tb, adjoint_a: adj_a, adjoint_b: adj_b, ..Default::default() },
    )
}

/// What [`matmul_with`] does besides `a @ b`: TF's flags and JAX's `preferred_element_type`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatMulOptions {
    /// Transpose `a`'s last two axes first.
    pub transpose_a: bool,
    /// Transpose `b`'s last two axes first.
    pub transpose_b: bool,
    /// Conjugate-transpose `a` first.
    pub adjoint_a: bool,
    /// Conjugate-transpose `b` first.
    pub adjoint_b: bool,
    /// The dtype to accumulate in and return (JAX's `preferred_element_type`,
    /// TF's `output_type`); `None`: the operands' promoted dtype. See
    /// [`preferred`](crate::ops::preferred) for the rules: int8 × int8 → int32 is exact.
    pub preferred_element_type: Option<DType>,
}

/// [`matmul`] with every option: TF's transpose/adjoint flags and a preferred
/// element type, in which the product accumulates and which it returns.
///
/// ```
/// use lattensor::ops::matrix::{matmul_with, MatMulOptions};
/// use lattensor::{DType, Tensor};
/// // int8 × int8 → int32: exact, where int8 arithmetic would wrap
/// let a = Tensor::from_vec(vec![-128i8, 127, 100], &[1, 3]).unwrap();
/// let b = Tensor::from_vec(vec![-128i8, 127, 100], &[3, 1]).unwrap();
/// let opts = MatMulOptions { preferred_element_type: Some(DType::I32), ..Default::default() };
/// let c = matmul_with(&a, &b, opts).unwrap();
/// assert_eq!((c.dtype(), c.is_weak(), c.to_vec::<i32>().unwrap()), (DType::I32, false, vec![42513]));
/// // float8 operands of two formats accumulate in float32 without a join
/// let x = Tensor::from_vec(vec![1.5f32, 2.0], &[1, 2]).unwrap().cast(DType::F8E4M3Fn).unwrap();
/// let y = Tensor::from_vec(vec![4.0f32, 0.25], &[2, 1]).unwrap().cast(DType::F8E5M2).unwrap();
/// let opts = MatMulOptions { preferred_element_type: Some(DType::F32), ..Default::default() };
/// assert_eq!(matmul_with(&x, &y, opts).unwrap().to_vec::<f32>().unwrap(), vec![6.5]);
/// // a preferred type that would truncate is refused
/// let f = Tensor::from_vec(vec![1.5f32], &[1, 1]).unwrap();
/// let opts = MatMulOptions { preferred_element_type: Some(DType::I32), ..Default::default() };
/// assert!(matmul_with(&f, &f, opts).unwrap_err().to_string().contains("would truncate"));
/// ```
///
/// # Errors
/// As [`matmul`]; [`Error::InvalidType`] for a preferred element type the
/// operands cannot convert to (see [`preferred`](crate::ops::preferred)).
pub fn matmul_with(a: &Tensor, b: &Tensor, o: MatMulOptions) -> Result<Tensor> {
    let (ta, tb, adj_a, adj_b) = (o.transpose_a, o.transpose_b, o.adjoint_a, o.adjoint_b);
    if let Some(p) = o.preferred_element_type {
        need_rank("matmul", a, 2)?;
        need_rank("matmul", b, 2)?;
        super::preferred::check("matmul", &[a, b], p)?;
        let (a, b) = (super::preferred::convert(a, p)?, super::preferred::convert(b, p)?);
        return matmul_in(&a, &b, [ta, tb, adj_a, adj_b], Some(p));
    }
    matmul_in(a, b, [ta, tb, adj_a, adj_b], None)
}

/// The taped matmul: flags `[transpose_a, transpose_b, adjoint_a, adjoint_b]`;
/// the result dtype `result`, or the operands' promoted one.
fn matmul_in(a: &Tensor, b: &Tensor, flags: [bool; 4], result: Option<DType>) -> Result<Tensor> {
    let [ta, tb, adj_a, adj_b] = flags;
    tape::op(
        &[a, b],
        || {
            need_rank("matmul", a, 2)?;
            need_rank("matmul", b, 2)?;
            let result = match result {
                Some(dtype) => LatticeType { dtype, weak: false },
                None => {
                    promote::result_type_for("matmul", &[a.lattice_type(), b.lattice_type()], promote::current_mode())?
                }
            };
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
        },
        || TapeOp::MatMul { transpose_a: ta, transpose_b: tb, adjoint_a: adj_a, adjoint_b: adj_b },
    )
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
        let v = Tensor::from_parts(Arc::clone(&t.storage), layout, t.dtype, false);
        let keep = v.dtype() == compute || crate::kernels::matmul::keeps_bytes(v.dtype(), compute);
        if keep { Ok(v) } else { v.cast(compute) }
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
    let out = crate::kernels::matmul::matmul_any(&a3, &b3, compute, "einsum")?;
    // the product's axes are [both, a_only, m, b_only, n]: back to [batch..., m, n]
    let labels: Vec<usize> =
        both.iter().chain(&a_only).copied().chain([nb]).chain(b_only.iter().copied()).chain([nb + 1]).collect();
    let shape: Vec<isize> = labels.iter().map(|&l| if l == nb { m } else if l == nb + 1 { n } else { sizes[l] } as isize).collect();
    let perm: Vec<usize> = (0..nb + 2).filter_map(|l| labels.iter().position(|&x| x == l)).collect();
    let t = out.reshape(&shape)?.transpose(&perm)?;
    let t = if result != compute { t.cast(result)? } else { t };
    Ok(Tensor::from_parts(t.storage.clone(), t.layout.clone(), t.dtype, false))
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
    tape::op(
        &[x],
        || {
            need_rank("diag_part", x, 2)?;
            let r = x.rank();
            let (shape, strides) = (x.shape(), x.layout().strides());
            let mut s = shape[..r - 2].to_vec();
            s.push(shape[r - 2].min(shape[r - 1]));
            let mut st = strides[..r - 2].to_vec();
            st.push(strides[r - 2] + strides[r - 1]);
            let layout = Layout::from_parts(s, st, x.layout().offset());
            Ok(Tensor::from_parts(Arc::clone(&x.storage), layout, x.dtype, x.weak))
        },
        || TapeOp::Select(std::rc::Rc::new(|t: &[Tensor]| diag_part(&t[0]))),
    )
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
    tape::op(
        &[v],
        || {
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
        },
        || TapeOp::Unary("matrix_diag"),
    )
}

/// Where the diagonals of a band that are shorter than its longest one sit in
/// their row of the packed diagonals (TF's `align` of `MatrixDiagV3`,
/// `MatrixDiagPartV3` and `MatrixSetDiagV3`).
///
/// The first word is for the superdiagonals (`d ≥ 0`), the second for the
/// subdiagonals (`d ≤ 0`): `RIGHT` pads a short diagonal on the left,
/// `LEFT` on the right. TF's default is [`DiagAlign::RightLeft`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagAlign {
    /// `"RIGHT_LEFT"`: superdiagonals right-aligned, subdiagonals left-aligned (TF's default).
    #[default]
    RightLeft,
    /// `"LEFT_RIGHT"`: superdiagonals left-aligned, subdiagonals right-aligned (cuSPARSE's packing).
    LeftRight,
    /// `"LEFT_LEFT"`: every diagonal left-aligned.
    LeftLeft,
    /// `"RIGHT_RIGHT"`: every diagonal right-aligned.
    RightRight,
}

impl DiagAlign {
    /// TF's spelling of `align`.
    ///
    /// ```
    /// use lattensor::ops::matrix::DiagAlign;
    /// assert_eq!(DiagAlign::parse("diag", "LEFT_RIGHT").unwrap(), DiagAlign::LeftRight);
    /// assert!(DiagAlign::parse("diag", "left_right").is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] naming `op` and the four allowed values for anything else.
    pub fn parse(op: &str, align: &str) -> Result<DiagAlign> {
        Ok(match align {
            "RIGHT_LEFT" => DiagAlign::RightLeft,
            "LEFT_RIGHT" => DiagAlign::LeftRight,
            "LEFT_LEFT" => DiagAlign::LeftLeft,
            "RIGHT_RIGHT" => DiagAlign::RightRight,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "{op}: align must be one of \"RIGHT_LEFT\", \"LEFT_RIGHT\", \"LEFT_LEFT\" or \"RIGHT_RIGHT\", got {other:?}"
                )));
            }
        })
    }

    /// Whether diagonal `d` is right-aligned (padded on its left).
    fn right(self, d: i64) -> bool {
        match self {
            DiagAlign::RightLeft => d >= 0,
            DiagAlign::LeftRight => d <= 0,
            DiagAlign::LeftLeft => false,
            DiagAlign::RightRight => true,
        }
    }
}

/// The band `lo ≤ j − i ≤ hi` of a `rows × cols` matrix and its packing into a
/// `[hi − lo + 1, max_len]` array of diagonals (row `hi − d` holds diagonal `d`).
struct Band {
    lo: i64,
    hi: i64,
    rows: i64,
    cols: i64,
    max_len: usize,
    align: DiagAlign,
}

impl Band {
    /// Diagonals in the band.
    fn count(&self) -> usize {
        (self.hi - self.lo + 1) as usize
    }

    /// The length of diagonal `d` in the matrix (0 if it misses the matrix).
    fn len(&self, d: i64) -> usize {
        (self.rows + d.min(0)).min(self.cols - d.max(0)).max(0) as usize
    }

    /// Where element `n` of diagonal `d` sits in its row of the packed array.
    fn pos(&self, d: i64, n: usize) -> usize {
        if self.align.right(d) { n + self.max_len.saturating_sub(self.len(d)) } else { n }
    }

    /// Each (matrix offset `i·cols + j`, packed offset) of the band's elements,
    /// the packed offset within `[count, max_len]`.
    fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.lo..=self.hi).flat_map(move |d| {
            let (i0, j0) = ((-d).max(0) as usize, d.max(0) as usize);
            let row = (self.hi - d) as usize * self.max_len;
            (0..self.len(d)).filter_map(move |n| {
                let p = self.pos(d, n);
                (p < self.max_len).then(|| ((i0 + n) * self.cols as usize + j0 + n, row + p))
            })
        })
    }
}

/// `k` as the band `(lo, hi)`, checked for `lo ≤ hi`.
fn band_bounds(op: &str, k: (i64, i64)) -> Result<(i64, i64)> {
    if k.0 > k.1 {
        return Err(Error::InvalidArgument(format!(
            "{op}: k = ({}, {}): the lower diagonal index must not be larger than the upper one",
            k.0, k.1
        )));
    }
    Ok(k)
}

/// Checks that each end of the band names a diagonal of a `rows × cols`
/// matrix: `-rows < k < cols`, or `k = 0` (which an empty matrix has too).
fn check_band_in(op: &str, (lo, hi): (i64, i64), rows: usize, cols: usize) -> Result<()> {
    let (r, c) = (rows as i64, cols as i64);
    for (what, k) in [("lower", lo), ("upper", hi)] {
        if k != 0 && !(-r < k && k < c) {
            return Err(Error::InvalidArgument(format!(
                "{op}: the {what} diagonal index {k} is out of bounds for a {rows}×{cols} matrix: \
                 it must lie strictly between {} and {cols}",
                -r
            )));
        }
    }
    Ok(())
}

/// The padding value as one element of `dtype`: a 0-d tensor of that dtype, or zero.
fn padding_of(op: &str, padding: Option<&Tensor>, dtype: DType) -> Result<Tensor> {
    let Some(p) = padding else { return Tensor::zeros(&[], dtype) };
    if p.rank() != 0 {
        return Err(Error::InvalidArgument(format!("{op}: padding_value must be a scalar, got shape {:?}", p.shape())));
    }
    if p.dtype() != dtype {
        return Err(Error::InvalidArgument(format!(
            "{op}: padding_value is {}, but the input is {dtype}; it must have the input's dtype",
            p.dtype()
        )));
    }
    Ok(p.clone())
}

/// Diagonal `k` of the last two axes as a strided view, `[..., m, n] → [..., len]`.
fn diagonal_view(x: &Tensor, k: i64) -> Tensor {
    let r = x.rank();
    let (shape, strides) = (x.shape(), x.layout().strides());
    let band = Band {
        lo: k,
        hi: k,
        rows: shape[r - 2] as i64,
        cols: shape[r - 1] as i64,
        max_len: 0,
        align: DiagAlign::default(),
    };
    let len = band.len(k);
    let mut s = shape[..r - 2].to_vec();
    s.push(len);
    let mut st = strides[..r - 2].to_vec();
    st.push(strides[r - 2] + strides[r - 1]);
    // the first element is (max(-k, 0), max(k, 0)); an empty view keeps the offset
    let start = if len == 0 { 0 } else { (-k).max(0) as isize * strides[r - 2] + k.max(0) as isize * strides[r - 1] };
    let offset = (x.layout().offset() as isize + start) as usize;
    Tensor::from_parts(Arc::clone(&x.storage), Layout::from_parts(s, st, offset), x.dtype, x.weak)
}

/// Diagonals `k.0 ..= k.1` of the last two axes (`tf.linalg.diag_part` with
/// `k`, `padding_value` and `align`; TF's `MatrixDiagPartV3`).
///
/// For `[..., m, n]` input the result is `[..., max_len]` for one diagonal
/// (`k.0 == k.1`, a strided view) and `[..., k.1 − k.0 + 1, max_len]` for a
/// band, row `k.1 − d` holding diagonal `d`, where `max_len` is the length of
/// the band's longest diagonal; shorter diagonals are aligned by `align` and
/// padded with `padding_value` (a 0-d tensor of the input's dtype; zero if
/// `None`). The result keeps the input's dtype and weakness.
///
/// ```
/// use lattensor::{ops::matrix::{diag_part_ext, DiagAlign}, Tensor};
/// let x = Tensor::from_vec((0..9).collect::<Vec<i32>>(), &[3, 3]).unwrap();
/// let d = diag_part_ext(&x, (1, 1), None, DiagAlign::RightLeft).unwrap();
/// assert_eq!(d.to_vec::<i32>().unwrap(), vec![1, 5]);
/// let pad = Tensor::scalar(-1i32);
/// let b = diag_part_ext(&x, (-1, 1), Some(&pad), DiagAlign::RightLeft).unwrap();
/// assert_eq!(b.shape(), &[3, 3]);
/// assert_eq!(b.to_vec::<i32>().unwrap(), vec![-1, 1, 5, 0, 4, 8, 3, 7, -1]);
/// let l = diag_part_ext(&x, (-1, 1), Some(&pad), DiagAlign::LeftLeft).unwrap();
/// assert_eq!(l.to_vec::<i32>().unwrap(), vec![1, 5, -1, 0, 4, 8, 3, 7, -1]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2, `k.0 > k.1`, a `k` outside
/// `(-m, n)` (other than 0), or a `padding_value` that is not a 0-d tensor
/// of the input's dtype; [`Error::ResourceExhausted`] if the result is too large.
pub fn diag_part_ext(x: &Tensor, k: (i64, i64), padding_value: Option<&Tensor>, align: DiagAlign) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
            const OP: &str = "diag_part";
            need_rank(OP, x, 2)?;
            let (lo, hi) = band_bounds(OP, k)?;
            let r = x.rank();
            let (rows, cols) = (x.shape()[r - 2], x.shape()[r - 1]);
            check_band_in(OP, (lo, hi), rows, cols)?;
            let pad = padding_of(OP, padding_value, x.dtype())?;
            if lo == hi {
                return Ok(diagonal_view(x, lo));
            }
            let (ri, ci) = (rows as i64, cols as i64);
            let max_len = (ri + hi.min(0)).min(ci - lo.max(0)).max(0) as usize;
            let band = Band { lo, hi, rows: ri, cols: ci, max_len, align };
            let mut shape = x.shape()[..r - 2].to_vec();
            shape.extend([band.count(), max_len]);
            let batch = crate::core::layout::dims_product(x.shape()[..r - 2].iter().copied());
            let mut out = Tensor::zeros_for(OP, &shape, x.dtype())?;
            with_dtype!(x.dtype(), T, {
                let src = x.to_vec::<T>()?;
                let p = pad.to_vec::<T>()?[0];
                let dst = out.data_mut::<T>();
                dst.fill(p);
                let (per_in, per_out) = (rows * cols, band.count() * max_len);
                for b in 0..batch {
                    for (m, q) in band.cells() {
                        dst[b * per_out + q] = src[b * per_in + m];
                    }
                }
            });
            Ok(out.with_weak(x.is_weak()))
        },
        || TapeOp::Select(std::rc::Rc::new(move |t: &[Tensor]| diag_part_ext(&t[0], k, None, align))),
    )
}

/// Matrices with the given diagonals (`tf.linalg.diag` with `k`, `num_rows`,
/// `num_cols`, `padding_value` and `align`; TF's `MatrixDiagV3`).
///
/// `diagonal` is `[..., len]` for one diagonal (`k.0 == k.1`) or
/// `[..., k.1 − k.0 + 1, len]` for a band (row `k.1 − d` holds diagonal `d`,
/// shorter diagonals aligned by `align`). The result is `[..., num_rows,
/// num_cols]`, everything outside the band `padding_value` (a 0-d tensor of
/// the diagonal's dtype; zero if `None`). A `None` size is inferred: the
/// smallest matrix that holds the band, square if both are `None`. The result
/// keeps the diagonal's dtype and weakness.
///
/// ```
/// use lattensor::{ops::matrix::{diag_ext, DiagAlign}, Tensor};
/// let v = Tensor::from_vec(vec![-3.0f64, -1.5], &[2]).unwrap();
/// let m = diag_ext(&v, (1, 1), None, None, None, DiagAlign::RightLeft).unwrap();
/// assert_eq!(m.shape(), &[3, 3]);
/// assert_eq!(m.to_vec::<f64>().unwrap(), vec![0.0, -3.0, 0.0, 0.0, 0.0, -1.5, 0.0, 0.0, 0.0]);
/// let band = Tensor::from_vec(vec![1, 2, 3, 4, 5, 6], &[2, 3]).unwrap(); // diagonals 0 and -1
/// let pad = Tensor::scalar(9);
/// let b = diag_ext(&band, (-1, 0), None, None, Some(&pad), DiagAlign::RightLeft).unwrap();
/// assert_eq!(b.to_vec::<i32>().unwrap(), vec![1, 9, 9, 4, 2, 9, 9, 5, 3]);
/// let wide = diag_ext(&v, (0, 0), None, Some(4), None, DiagAlign::RightLeft).unwrap();
/// assert_eq!(wide.shape(), &[2, 4]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a 0-d `diagonal`, `k.0 > k.1`, a band whose
/// diagonal count is not `diagonal`'s second-to-last axis, sizes too small
/// for the band or neither of which is the band's smallest, or a
/// `padding_value` that is not a 0-d tensor of the diagonal's dtype;
/// [`Error::ResourceExhausted`] if the result is too large.
pub fn diag_ext(
    diagonal: &Tensor,
    k: (i64, i64),
    num_rows: Option<usize>,
    num_cols: Option<usize>,
    padding_value: Option<&Tensor>,
    align: DiagAlign,
) -> Result<Tensor> {
    tape::op(
        &[diagonal],
        || {
            const OP: &str = "diag";
            need_rank(OP, diagonal, 1)?;
            let (lo, hi) = band_bounds(OP, k)?;
            let r = diagonal.rank();
            let count = i128::from(hi) - i128::from(lo) + 1;
            let batch_rank = if lo == hi { r - 1 } else { r.saturating_sub(2) };
            if lo != hi && (r < 2 || diagonal.shape()[r - 2] as i128 != count) {
                return Err(Error::InvalidArgument(format!(
                    "{OP}: k = ({lo}, {hi}) names {count} diagonals, but the diagonals have shape {:?} \
             (a band needs shape [..., {count}, len])",
                    diagonal.shape()
                )));
            }
            let pad = padding_of(OP, padding_value, diagonal.dtype())?;
            let len = diagonal.shape()[r - 1];
            let min_rows = len as i128 - i128::from(hi.min(0));
            let min_cols = len as i128 + i128::from(lo.max(0));
            let (rows, cols) = match (num_rows, num_cols) {
                (None, None) => (min_rows.max(min_cols), min_rows.max(min_cols)),
                (None, Some(c)) => (min_rows, c as i128),
                (Some(rr), None) => (rr as i128, min_cols),
                (Some(rr), Some(c)) => (rr as i128, c as i128),
            };
            if rows < min_rows || cols < min_cols {
                return Err(Error::InvalidArgument(format!(
                    "{OP}: a {rows}×{cols} matrix is too small for {len}-element diagonals at k = ({lo}, {hi}): \
             it needs at least {min_rows} rows and {min_cols} columns"
                )));
            }
            if rows != min_rows && cols != min_cols {
                return Err(Error::InvalidArgument(format!(
                    "{OP}: a {rows}×{cols} matrix does not fit {len}-element diagonals at k = ({lo}, {hi}): \
             the rows must be {min_rows} or the columns {min_cols}"
                )));
            }
            let too_big =
                || Error::ResourceExhausted(format!("{OP}: a {rows}×{cols} matrix overflows the address space"));
            let (rows, cols) =
                (usize::try_from(rows).map_err(|_| too_big())?, usize::try_from(cols).map_err(|_| too_big())?);
            let mut shape = diagonal.shape()[..batch_rank].to_vec();
            shape.extend([rows, cols]);
            let mut out = Tensor::zeros_for(OP, &shape, diagonal.dtype())?;
            // the output is allocated, so both sizes fit an i64
            let band = Band { lo, hi, rows: rows as i64, cols: cols as i64, max_len: len, align };
            let batch = crate::core::layout::dims_product(diagonal.shape()[..batch_rank].iter().copied());
            with_dtype!(diagonal.dtype(), T, {
                let src = diagonal.to_vec::<T>()?;
                let p = pad.to_vec::<T>()?[0];
                let dst = out.data_mut::<T>();
                dst.fill(p);
                let (per_in, per_out) = (band.count() * len, rows * cols);
                for b in 0..batch {
                    for (m, q) in band.cells() {
                        dst[b * per_out + m] = src[b * per_in + q];
                    }
                }
            });
            Ok(out.with_weak(diagonal.is_weak()))
        },
        || TapeOp::Select(std::rc::Rc::new(move |t: &[Tensor]| diag_ext(&t[0], k, num_rows, num_cols, None, align))),
    )
}

/// `input` with diagonals `k.0 ..= k.1` of its last two axes replaced
/// (`tf.linalg.set_diag`; TF's `MatrixSetDiagV3`).
///
/// `diagonal` has [`diag_part_ext`]'s shape for the same `k` and `align`
/// (`[..., max_len]` or `[..., k.1 − k.0 + 1, max_len]`) and `input`'s dtype;
/// the padding slots of short diagonals are ignored. The result has
/// `input`'s dtype and is strong, as TF's (the op is not on the guide's
/// WeakTensor list).
///
/// ```
/// use lattensor::{ops::matrix::{set_diag, DiagAlign}, Tensor};
/// let x = Tensor::zeros(&[2, 3], lattensor::DType::I32).unwrap();
/// let d = Tensor::from_vec(vec![7, 8], &[2]).unwrap();
/// let y = set_diag(&x, &d, (1, 1), DiagAlign::RightLeft).unwrap();
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![0, 7, 0, 0, 0, 8]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2, `k.0 > k.1`, a `k` outside
/// `(-m, n)` (other than 0), or a `diagonal` of another dtype or shape.
pub fn set_diag(input: &Tensor, diagonal: &Tensor, k: (i64, i64), align: DiagAlign) -> Result<Tensor> {
    tape::op(
        &[input, diagonal],
        || {
            const OP: &str = "set_diag";
            need_rank(OP, input, 2)?;
            let (lo, hi) = band_bounds(OP, k)?;
            let r = input.rank();
            let (rows, cols) = (input.shape()[r - 2], input.shape()[r - 1]);
            check_band_in(OP, (lo, hi), rows, cols)?;
            let (ri, ci) = (rows as i64, cols as i64);
            let max_len = (ri + hi.min(0)).min(ci - lo.max(0)).max(0) as usize;
            let band = Band { lo, hi, rows: ri, cols: ci, max_len, align };
            let mut want = input.shape()[..r - 2].to_vec();
            if lo != hi {
                want.push(band.count());
            }
            want.push(max_len);
            if !crate::core::layout::same_shape(diagonal.shape(), &want) {
                return Err(Error::InvalidArgument(format!(
                    "{OP}: the diagonals have shape {:?}, but k = ({lo}, {hi}) of a {:?} input needs {want:?}",
                    diagonal.shape(),
                    input.shape()
                )));
            }
            if diagonal.dtype() != input.dtype() {
                return Err(Error::InvalidArgument(format!(
                    "{OP}: the diagonals are {}, but the input is {}; they must have the input's dtype",
                    diagonal.dtype(),
                    input.dtype()
                )));
            }
            let batch = crate::core::layout::dims_product(input.shape()[..r - 2].iter().copied());
            let out = with_dtype!(input.dtype(), T, {
                let src = diagonal.to_vec::<T>()?;
                let mut dst = input.to_vec::<T>()?;
                let (per_in, per_out) = (band.count() * max_len, rows * cols);
                for b in 0..batch {
                    for (m, q) in band.cells() {
                        dst[b * per_out + m] = src[b * per_in + q];
                    }
                }
                Tensor::from_vec(dst, input.shape())?
            });
            Ok(out)
        },
        || TapeOp::Select(std::rc::Rc::new(move |t: &[Tensor]| set_diag(&t[0], &t[1], k, align))),
    )
}

/// The band `−num_lower ≤ j − i ≤ num_upper` of the last two axes, zeros
/// elsewhere (`tf.linalg.band_part`); a negative bound keeps that whole
/// triangle. Keeps the input's dtype; the result is strong, as TF's (the op
/// is not on the guide's WeakTensor list).
///
/// ```
/// use lattensor::{ops::matrix::band_part, Tensor};
/// let x = Tensor::from_vec((1..=9).collect::<Vec<i32>>(), &[3, 3]).unwrap();
/// let b = band_part(&x, 1, 0).unwrap();
/// assert_eq!(b.to_vec::<i32>().unwrap(), vec![1, 0, 0, 4, 5, 0, 0, 8, 9]);
/// let upper = band_part(&x, 0, -1).unwrap();
/// assert_eq!(upper.to_vec::<i32>().unwrap(), vec![1, 2, 3, 0, 5, 6, 0, 0, 9]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for rank < 2, or `num_lower` (`num_upper`)
/// larger than the number of rows (columns).
pub fn band_part(input: &Tensor, num_lower: i64, num_upper: i64) -> Result<Tensor> {
    tape::op(
        &[input],
        || {
            const OP: &str = "band_part";
            need_rank(OP, input, 2)?;
            let r = input.rank();
            let (rows, cols) = (input.shape()[r - 2], input.shape()[r - 1]);
            for (what, v, size, axis) in
                [("num_lower", num_lower, rows, "rows"), ("num_upper", num_upper, cols, "columns")]
            {
                if v > size as i64 {
                    return Err(Error::InvalidArgument(format!(
                        "{OP}: {what} = {v} must be negative (the whole triangle) or at most the number of {axis} ({size})"
                    )));
                }
            }
            let batch = crate::core::layout::dims_product(input.shape()[..r - 2].iter().copied());
            let keep = |i: usize, j: usize| {
                let d = j as i64 - i as i64;
                (num_lower < 0 || -d <= num_lower) && (num_upper < 0 || d <= num_upper)
            };
            let out = with_dtype!(input.dtype(), T, {
                let mut dst = input.to_vec::<T>()?;
                let zero = T::default();
                for b in 0..batch {
                    for i in 0..rows {
                        for j in 0..cols {
                            if !keep(i, j) {
                                dst[(b * rows + i) * cols + j] = zero;
                            }
                        }
                    }
                }
                Tensor::from_vec(dst, input.shape())?
            });
            Ok(out)
        },
        || TapeOp::Select(std::rc::Rc::new(move |t: &[Tensor]| band_part(&t[0], num_lower, num_upper))),
    )
}

/// The diagonal of a tensor of shape `[d1, …, dk, d1, …, dk]`, of shape `[d1, …, dk]`
/// (`tf.linalg.tensor_diag_part`; a strided view).
///
/// # Errors
/// [`Error::InvalidArgument`] unless the rank is even and the two halves of the shape agree.
pub fn tensor_diag_part(x: &Tensor) -> Result<Tensor> {
    tape::op(
        &[x],
        || {
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
            Ok(Tensor::from_parts(Arc::clone(&x.storage), layout, x.dtype, x.weak))
        },
        || TapeOp::Select(std::rc::Rc::new(|t: &[Tensor]| tensor_diag_part(&t[0]))),
    )
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
    fn diag_bands_round_trip_in_every_alignment() {
        // a 2×3×4 batch; every band of each matrix packs and unpacks to itself
        let x = Tensor::from_vec((1..=24).collect::<Vec<i32>>(), &[2, 3, 4]).unwrap();
        let pad = Tensor::scalar(-7i32);
        for align in [DiagAlign::RightLeft, DiagAlign::LeftRight, DiagAlign::LeftLeft, DiagAlign::RightRight] {
            for (lo, hi) in [(-2, 3), (-1, 1), (0, 2), (-2, -1), (1, 1)] {
                let d = diag_part_ext(&x, (lo, hi), Some(&pad), align).unwrap();
                let m = diag_ext(&d, (lo, hi), Some(3), Some(4), Some(&pad), align).unwrap();
                // the rebuilt matrices hold the band's values and the padding elsewhere
                let (mv, xv) = (m.to_vec::<i32>().unwrap(), x.to_vec::<i32>().unwrap());
                for (idx, (&got, &orig)) in mv.iter().zip(&xv).enumerate() {
                    let (i, j) = ((idx / 4) % 3, idx % 4);
                    let dd = j as i64 - i as i64;
                    let want = if (lo..=hi).contains(&dd) { orig } else { -7 };
                    assert_eq!(got, want, "{align:?} k=({lo},{hi}) at {idx}");
                }
                // set_diag writes the same diagonals back into zeros
                let z = Tensor::zeros(&[2, 3, 4], DType::I32).unwrap();
                let s = set_diag(&z, &d, (lo, hi), align).unwrap();
                let sv = s.to_vec::<i32>().unwrap();
                assert!(sv.iter().zip(&mv).all(|(&a, &b)| a == if b == -7 { 0 } else { b }));
            }
        }
    }

    #[test]
    fn diag_refusals_name_the_op() {
        let v = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let msg = |r: Result<Tensor>| r.unwrap_err().to_string();
        assert!(msg(diag_ext(&v, (1, 0), None, None, None, DiagAlign::RightLeft)).contains("diag: k = (1, 0)"));
        assert!(msg(diag_ext(&v, (0, 1), None, None, None, DiagAlign::RightLeft)).contains("names 2 diagonals"));
        assert!(msg(diag_ext(&v, (0, 0), Some(1), None, None, DiagAlign::RightLeft)).contains("too small"));
        assert!(msg(diag_ext(&v, (-1, -1), Some(5), Some(5), None, DiagAlign::RightLeft)).contains("does not fit"));
        let pad64 = Tensor::scalar(1.0f64);
        assert!(msg(diag_ext(&v, (0, 0), None, None, Some(&pad64), DiagAlign::RightLeft)).contains("float64"));
        assert!(msg(diag_ext(&v, (0, 0), None, None, Some(&v), DiagAlign::RightLeft)).contains("scalar"));
        assert!(diag_ext(&Tensor::scalar(1.0f32), (0, 0), None, None, None, DiagAlign::RightLeft).is_err());
        let m = Tensor::from_vec((0..9).collect::<Vec<i32>>(), &[3, 3]).unwrap();
        assert!(msg(diag_part_ext(&m, (3, 3), None, DiagAlign::RightLeft)).contains("out of bounds"));
        assert!(msg(diag_part_ext(&m, (-3, 0), None, DiagAlign::RightLeft)).contains("out of bounds"));
        assert!(msg(band_part(&m, 4, 0)).contains("num_lower"));
        assert!(DiagAlign::parse("diag_part", "BAD").unwrap_err().to_string().contains("diag_part: align"));
        // huge k: the inferred size is refused, not overflowed
        assert!(diag_ext(&v, (i64::MAX, i64::MAX), None, None, None, DiagAlign::RightLeft).is_err());
        assert!(diag_ext(&v, (i64::MIN, i64::MIN), None, None, None, DiagAlign::RightLeft).is_err());
        // an empty matrix has diagonal 0 and no other
        let e = Tensor::zeros(&[0, 3], DType::F32).unwrap();
        assert_eq!(diag_part_ext(&e, (1, 1), None, DiagAlign::RightLeft).unwrap().shape(), &[0]);
        assert_eq!(diag_part_ext(&e, (0, 0), None, DiagAlign::RightLeft).unwrap().shape(), &[0]);
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
