//! `tf.linalg`: matrix products, diagonals and decompositions under their TF names.
//!
//! The decompositions (on faer, see [`crate::ops::decomp`]) follow TF's
//! signatures and return conventions: [`cholesky`] (lower), [`det`],
//! [`slogdet`], [`logdet`], [`inv`] and [`solve`] with `adjoint`, [`qr`] with
//! `full_matrices`, [`eigh`]/[`eigvalsh`], [`svd`] returning `(s, u, v)`,
//! [`pinv`] with TF's default `rcond`. A singular matrix or one that is not
//! positive-definite is an `InvalidArgument` error, as TF's kernels raise.
//!
//! `tf.linalg.<name>` is `lattensor::linalg::<name>`. `matmul(a, b,
//! transpose_a, transpose_b)` has TF's flags; [`matmul_ext`] adds
//! `adjoint_a`/`adjoint_b`. `tf.linalg.einsum` is [`einsum`]. `diag`/`diag_part`
//! take the main diagonal; [`diag_ext`]/[`diag_part_ext`] add TF's `k`,
//! `num_rows`/`num_cols`, `padding_value` and `align`.
//!
//! ```
//! use lattensor::{linalg, DType, Tensor};
//! let a = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
//! let b = Tensor::from_vec(vec![1.0f32, 0.0, 0.0, 1.0], &[2, 2]).unwrap();
//! let c = linalg::matmul(&a, &b, false, false).unwrap(); // int32 @ float32 → float32
//! assert_eq!((c.dtype(), c.to_vec::<f32>().unwrap()), (DType::F32, vec![1.0, 2.0, 3.0, 4.0]));
//! assert_eq!(linalg::trace(&a).unwrap().item::<i32>().unwrap(), 5);
//! ```

pub use crate::einsum::einsum;
pub use crate::ops::matrix::{
    DiagAlign, band_part, diag, diag_ext, diag_part, diag_part_ext, matmul, matmul_ext, matrix_transpose, set_diag,
    tensor_diag_part, trace,
};

/// The decompositions under their Array API names and signatures (`svd` there
/// returns `(U, S, Vh)`; this module's [`svd`] follows TF).
pub use crate::ops::decomp::{QrMode, cholesky as cholesky_ext, det, eigh, eigvalsh, slogdet};

use crate::core::error::Result;
use crate::ops::decomp;
use crate::{Tensor, ops};

/// The lower Cholesky factor `L` of each Hermitian positive-definite matrix
/// (`x = L Lᴴ`), reading the lower triangle, like `tf.linalg.cholesky`.
///
/// ```
/// use lattensor::{linalg, Tensor};
/// let a = Tensor::from_vec(vec![4.0f32, 2.0, 2.0, 2.0], &[2, 2]).unwrap();
/// assert_eq!(linalg::cholesky(&a).unwrap().to_vec::<f32>().unwrap(), vec![2.0, 0.0, 1.0, 1.0]);
/// ```
///
/// # Errors
/// [`crate::Error::UnsupportedDType`] for integer or bool input,
/// [`crate::Error::InvalidArgument`] for rank < 2, non-square matrices or a
/// matrix that is not positive-definite.
pub fn cholesky(x: &Tensor) -> Result<Tensor> {
    decomp::cholesky(x, false)
}

/// The inverse of each matrix, or with `adjoint` of its conjugate transpose,
/// like `tf.linalg.inv(input, adjoint)`.
///
/// ```
/// use lattensor::{linalg, Tensor};
/// let a = Tensor::from_vec(vec![2.0f64, 0.0, 0.0, 4.0], &[2, 2]).unwrap();
/// assert_eq!(linalg::inv(&a, false).unwrap().to_vec::<f64>().unwrap(), vec![0.5, 0.0, 0.0, 0.25]);
/// ```
///
/// # Errors
/// As [`decomp::inv`]: a singular matrix is [`crate::Error::InvalidArgument`] ("input is not invertible").
pub fn inv(x: &Tensor, adjoint: bool) -> Result<Tensor> {
    if adjoint { decomp::inv(&matrix_transpose(x, true)?) } else { decomp::inv(x) }
}

/// The solution of `matrix @ x = rhs` (or `matrixᴴ @ x = rhs` with `adjoint`)
/// for each square matrix and `M × K` right-hand side, like `tf.linalg.solve`
/// (TF's `MatrixSolve`); batch axes broadcast.
///
/// # Errors
/// As [`decomp::solve`].
pub fn solve(matrix: &Tensor, rhs: &Tensor, adjoint: bool) -> Result<Tensor> {
    if adjoint { decomp::solve(&matrix_transpose(matrix, true)?, rhs) } else { decomp::solve(matrix, rhs) }
}

/// The QR decomposition `(q, r)` of each matrix, like `tf.linalg.qr(input,
/// full_matrices)`: with `full_matrices` `q` is `M × M` and `r` `M × N`,
/// otherwise `M × K` and `K × N` for `K = min(M, N)`.
///
/// # Errors
/// As [`decomp::qr`].
pub fn qr(x: &Tensor, full_matrices: bool) -> Result<(Tensor, Tensor)> {
    decomp::qr(x, if full_matrices { QrMode::Complete } else { QrMode::Reduced })
}

/// The SVD in TF's order and convention, `(s, u, v)` with `x = u diag(s) vᴴ`
/// (`v`, not `vᴴ`), like `tf.linalg.svd(tensor, full_matrices)`; for the
/// singular values alone (`compute_uv=False`) see [`svdvals`].
///
/// ```
/// use lattensor::{linalg, Tensor};
/// let a = Tensor::from_vec(vec![3.0f64, 0.0, 0.0, -2.0], &[2, 2]).unwrap();
/// let (s, _u, _v) = linalg::svd(&a, false).unwrap();
/// assert_eq!(s.to_vec::<f64>().unwrap(), vec![3.0, 2.0]);
/// ```
///
/// # Errors
/// As [`decomp::svd`].
pub fn svd(x: &Tensor, full_matrices: bool) -> Result<(Tensor, Tensor, Tensor)> {
    let (u, s, vh) = decomp::svd(x, full_matrices)?;
    Ok((s, u, matrix_transpose(&vh, true)?))
}

/// The singular values of each matrix, descending (`tf.linalg.svd(x, compute_uv=False)`).
///
/// # Errors
/// As [`decomp::svd`].
pub fn svdvals(x: &Tensor) -> Result<Tensor> {
    decomp::svdvals(x)
}

/// The Moore-Penrose pseudo-inverse, dropping singular values at most
/// `rcond · max(S)`; `rcond` defaults to TF's `10 · max(M, N) · eps`
/// (`tf.linalg.pinv(a, rcond)`).
///
/// # Errors
/// As [`decomp::pinv`].
pub fn pinv(a: &Tensor, rcond: Option<f64>) -> Result<Tensor> {
    let r = a.rank();
    let rcond = rcond.or_else(|| {
        let eps = a.dtype().real_dtype().finfo()?.eps;
        (r >= 2).then(|| 10.0 * a.shape()[r - 2].max(a.shape()[r - 1]) as f64 * eps)
    });
    decomp::pinv(a, rcond)
}

/// `log(det(x))` of each Hermitian positive-definite matrix, computed as
/// `2 Σ log(diag(cholesky(x)))`, like `tf.linalg.logdet`; the result has `x`'s dtype.
///
/// # Errors
/// As [`cholesky`].
pub fn logdet(x: &Tensor) -> Result<Tensor> {
    let l = decomp::cholesky(x, false)?;
    let logs = ops::log(&diag_part(&l)?)?;
    ops::multiply(&ops::reduce_sum(&logs, -1, false)?, 2.0)
}
