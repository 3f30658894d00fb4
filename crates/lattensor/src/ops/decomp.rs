//! The Array API's `linalg` decompositions, batched over leading axes, on faer:
//! `cholesky`, `det`, `slogdet`, `inv`, `solve`, `qr`, `eigh`, `eigvalsh`, `eig`, `eigvals`, `svd`,
//! `svdvals`, `pinv`, `matrix_rank`, `matrix_norm`.
//!
//! Every function takes a tensor whose last two axes are the matrices and whose
//! leading axes (any number, possibly none) are a batch. Inputs must be
//! floating point or complex (the standard's rule, and TF's kernels refuse
//! integers too): an integer or bool input is [`Error::UnsupportedDType`]
//! naming the op and the cast to write. float32, float64, complex64 and
//! complex128 compute in their own type; bfloat16 and float16 compute in
//! float32 and round once to their dtype at the end. Results keep the input's
//! dtype (real-valued results, such as eigenvalues and singular values, its
//! real dtype) and weakness.
//!
//! A singular matrix given to [`inv`] or [`solve`] and a matrix that is not
//! positive-definite given to [`cholesky`] are [`Error::InvalidArgument`]
//! (TF's `InvalidArgumentError`; NumPy raises `LinAlgError`), naming the op
//! and the batch index. Singularity is LAPACK's test, an exactly zero pivot
//! of the partial-pivot LU, so a nearly singular matrix gives large values,
//! as in NumPy and TF.
//!
//! ```
//! use lattensor::{ops::decomp, Tensor};
//! let a = Tensor::from_vec(vec![4.0f64, 2.0, 2.0, 3.0], &[2, 2]).unwrap();
//! let l = decomp::cholesky(&a, false).unwrap().to_vec::<f64>().unwrap();
//! assert_eq!(&l[..3], &[2.0, 0.0, 1.0]);
//! assert!((l[3] - 2.0f64.sqrt()).abs() < 1e-15);
//! assert!((decomp::det(&a).unwrap().item::<f64>().unwrap() - 8.0).abs() < 1e-12);
//! ```

use crate::core::error::{Error, Result};
use crate::core::tape::{self, LinalgOp, TapeOp};
use crate::dispatch::{INEXACT, compute_dtype, unsupported};
use crate::kernels::decomp::{self as k, Failure, Field};
use crate::kernels::row_major;
use crate::promote;
use crate::{DType, Tensor, with_decomp_dtype};

/// The matrices of a checked input: batch shape, rows and columns.
struct Stack {
    batch: Vec<usize>,
    m: usize,
    n: usize,
}

impl Stack {
    fn count(&self) -> usize {
        self.batch.iter().product()
    }

    /// The batch shape followed by `tail`.
    fn shape(&self, tail: &[usize]) -> Vec<usize> {
        let mut s = self.batch.clone();
        s.extend_from_slice(tail);
        s
    }
}

/// Checks that `x` is a stack of (square, if `square`) matrices of an inexact dtype.
fn check(op: &str, x: &Tensor, square: bool) -> Result<Stack> {
    let d = x.dtype();
    if !d.is_inexact() {
        return Err(unsupported(op, d, INEXACT));
    }
    if x.rank() < 2 {
        return Err(Error::InvalidArgument(format!(
            "{op}: expected a matrix or a stack of matrices (rank ≥ 2), got shape {:?}; add axes with expand_dims or reshape",
            x.shape()
        )));
    }
    let r = x.rank();
    let (m, n) = (x.shape()[r - 2], x.shape()[r - 1]);
    if square && m != n {
        return Err(Error::InvalidArgument(format!(
            "{op}: expected square matrices in the last two axes, got shape {:?} ({m} × {n})",
            x.shape()
        )));
    }
    Ok(Stack { batch: x.shape()[..r - 2].to_vec(), m, n })
}

/// The `i`-th of consecutive `size`-element blocks of `a` (`size` may be 0).
fn block<T>(a: &[T], size: usize, i: usize) -> &[T] {
    &a[i * size..(i + 1) * size]
}

/// The error for a failed factorisation of matrix `i` of `x`'s batch.
fn failed(op: &str, f: Failure, i: usize, x: &Tensor) -> Error {
    let at =
        if x.rank() > 2 { format!(" (matrix {i} of the batch, input shape {:?})", x.shape()) } else { String::new() };
    Error::InvalidArgument(match f {
        Failure::Singular => format!(
            "{op}: input is not invertible: the matrix is singular{at} (its LU factorisation has a zero pivot); \
             use pinv for a least-squares pseudo-inverse"
        ),
        Failure::NotPositiveDefinite(p) => format!(
            "{op}: the Cholesky decomposition was not successful: the matrix is not Hermitian positive-definite{at} \
             (pivot {p} is not positive)"
        ),
        Failure::NoConvergence => {
            format!("{op}: the iteration did not converge{at}; check the input for NaN or infinity")
        }
    })
}

/// `t` (computed in `x`'s compute dtype, or its real counterpart if `real`)
/// rounded to `x`'s dtype (or real dtype) and given `x`'s weakness.
fn finish(t: Tensor, x: &Tensor, real: bool) -> Result<Tensor> {
    let want = if real { x.dtype().real_dtype() } else { x.dtype() };
    let t = if t.dtype() == want { t } else { t.cast(want)? };
    Ok(t.with_weak(x.is_weak()))
}

/// Runs `$body` with `$T` bound to the element type `x` computes in.
macro_rules! compute {
    ($op:expr, $x:expr, $T:ident, $body:expr) => {
        with_decomp_dtype!(compute_dtype($x.dtype()), $T, $body, other => Err(unsupported($op, $x.dtype(), INEXACT)))
    };
}

/// The Cholesky factor of each Hermitian positive-definite matrix: lower
/// triangular `L` with `x = L Lᴴ` (reading `x`'s lower triangle), or if `upper`
/// the upper triangular `U = Lᴴ` with `x = Uᴴ U` (reading the upper triangle),
/// like `tf.linalg.cholesky` and `xp.linalg.cholesky(x, upper=)`.
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidArgument`]
/// for rank < 2, non-square matrices, or a matrix that is not positive-definite.
pub fn cholesky(x: &Tensor, upper: bool) -> Result<Tensor> {
    let s = check("cholesky", x, true)?;
    let n = s.n;
    let out = compute!("cholesky", x, T, {
        let a = row_major::<T>(x, "cholesky")?;
        let mut out = Vec::with_capacity(a.len());
        for i in 0..s.count() {
            k::cholesky(block(&a, n * n, i), n, upper, &mut out).map_err(|f| failed("cholesky", f, i, x))?;
        }
        Tensor::from_vec(out, x.shape())
    })?;
    Ok(tape::record(&[x], finish(out, x, false)?, || TapeOp::Linalg(LinalgOp::Cholesky { upper })))
}

/// The sign and the natural log of the absolute value of each matrix's
/// determinant, like `xp.linalg.slogdet`: `sign` has the input's dtype (±1 for
/// real input, a unit-modulus number for complex, 0 for a singular matrix) and
/// `logabsdet` its real dtype (`-inf` for a singular matrix).
///
/// # Errors
/// As [`det`].
pub fn slogdet(x: &Tensor) -> Result<(Tensor, Tensor)> {
    let s = check("slogdet", x, true)?;
    let n = s.n;
    let (sign, logabs) = compute!("slogdet", x, T, {
        let a = row_major::<T>(x, "slogdet")?;
        let (mut sign, mut logabs) = (Vec::with_capacity(s.count()), Vec::with_capacity(s.count()));
        for i in 0..s.count() {
            let (sg, la) = k::slogdet(block(&a, n * n, i), n);
            sign.push(sg);
            logabs.push(la);
        }
        Ok::<_, Error>((Tensor::from_vec(sign, &s.batch)?, Tensor::from_vec(logabs, &s.batch)?))
    })?;
    let outs = tape::record_n(&[x], vec![finish(sign, x, false)?, finish(logabs, x, true)?], || {
        TapeOp::Linalg(LinalgOp::Slogdet)
    });
    two(outs, "slogdet")
}

/// The determinant of each matrix (shape: the batch shape), like
/// `tf.linalg.det` and `xp.linalg.det`, from a partial-pivot LU.
///
/// ```
/// use lattensor::{ops::decomp, Tensor};
/// let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 2.0, 0.0, 0.0, 2.0], &[2, 2, 2]).unwrap();
/// let d = decomp::det(&a).unwrap().to_vec::<f32>().unwrap();
/// assert!((d[0] + 2.0).abs() < 1e-5 && (d[1] - 4.0).abs() < 1e-5);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidArgument`]
/// for rank < 2 or non-square matrices.
pub fn det(x: &Tensor) -> Result<Tensor> {
    let s = check("det", x, true)?;
    let n = s.n;
    let out = compute!("det", x, T, {
        let a = row_major::<T>(x, "det")?;
        let d: Vec<T> = (0..s.count()).map(|i| k::det(block(&a, n * n, i), n)).collect();
        Tensor::from_vec(d, &s.batch)
    })?;
    Ok(tape::record(&[x], finish(out, x, false)?, || TapeOp::Linalg(LinalgOp::Det)))
}

/// The inverse of each matrix, like `tf.linalg.inv` and `xp.linalg.inv`.
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidArgument`]
/// for rank < 2, non-square or singular matrices.
pub fn inv(x: &Tensor) -> Result<Tensor> {
    let s = check("inv", x, true)?;
    let n = s.n;
    let out = compute!("inv", x, T, {
        let a = row_major::<T>(x, "inv")?;
        let mut out = Vec::with_capacity(a.len());
        for i in 0..s.count() {
            k::inv(block(&a, n * n, i), n, &mut out).map_err(|f| failed("inv", f, i, x))?;
        }
        Tensor::from_vec(out, x.shape())
    })?;
    Ok(tape::record(&[x], finish(out, x, false)?, || TapeOp::Linalg(LinalgOp::Inv)))
}

/// The solution `x` of `a @ x = b` for each square matrix of `a` and each
/// `M × K` matrix of `b` (`tf.linalg.solve`, TF's `matrix_solve`). The operands
/// promote through the lattice; their batch axes broadcast.
///
/// ```
/// use lattensor::{ops::decomp, Tensor};
/// let a = Tensor::from_vec(vec![2.0f64, 0.0, 0.0, 4.0], &[2, 2]).unwrap();
/// let b = Tensor::from_vec(vec![2.0f64, 8.0], &[2, 1]).unwrap();
/// assert_eq!(decomp::solve(&a, &b).unwrap().to_vec::<f64>().unwrap(), vec![1.0, 2.0]);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses the dtypes, [`Error::UnsupportedDType`]
/// if they promote to an integer or bool, [`Error::InvalidArgument`] for rank < 2,
/// non-square or singular `a`, or a `b` whose rows differ from `a`'s;
/// [`Error::ShapeMismatch`] for batch axes that do not broadcast.
pub fn solve(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let t = promote::result_type_for("solve", &[a.lattice_type(), b.lattice_type()], promote::current_mode())?;
    let sa = check("solve", &a.cast(t.dtype)?, true)?;
    if b.rank() < 2 {
        return Err(Error::InvalidArgument(format!(
            "solve: expected b of rank ≥ 2 (a matrix of right-hand sides per batch entry), got shape {:?}; \
             write b[..., None] for a single vector",
            b.shape()
        )));
    }
    let (rb, cb) = (b.shape()[b.rank() - 2], b.shape()[b.rank() - 1]);
    if rb != sa.n {
        return Err(Error::InvalidArgument(format!(
            "solve: a has {} rows but b has {rb}: shapes {:?} and {:?}",
            sa.n,
            a.shape(),
            b.shape()
        )));
    }
    let batch =
        crate::core::layout::broadcast_shapes(&sa.batch, &b.shape()[..b.rank() - 2], "solve").map_err(|_| {
            Error::ShapeMismatch {
                op: "solve".into(),
                lhs: a.shape().to_vec(),
                rhs: b.shape().to_vec(),
                hint: "the batch axes (all but the last two) must broadcast".into(),
            }
        })?;
    let n = sa.n;
    let mut full_a = batch.clone();
    full_a.extend([n, n]);
    let mut full_b = batch.clone();
    full_b.extend([n, cb]);
    let a2 = a.cast(t.dtype)?.broadcast_to(&full_a)?;
    let b2 = b.cast(t.dtype)?.broadcast_to(&full_b)?;
    let count: usize = batch.iter().product();
    let out = compute!("solve", a2, T, {
        let av = row_major::<T>(&a2, "solve")?;
        let bv = row_major::<T>(&b2, "solve")?;
        let mut out = Vec::with_capacity(bv.len());
        for i in 0..count {
            k::solve(block(&av, n * n, i), n, block(&bv, n * cb, i), cb, &mut out)
                .map_err(|f| failed("solve", f, i, &a2))?;
        }
        Tensor::from_vec(out, &full_b)
    })?;
    let out = finish(out, &a2.clone().with_weak(t.weak), false)?;
    Ok(tape::record(&[&a2, &b2], out, || TapeOp::Linalg(LinalgOp::Solve)))
}

/// What [`qr`] returns (the Array API's `mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QrMode {
    /// `Q` is `M × K` and `R` is `K × N` for `K = min(M, N)` (`"reduced"`).
    Reduced,
    /// `Q` is `M × M` and `R` is `M × N` (`"complete"`).
    Complete,
}

impl QrMode {
    /// `"reduced"` or `"complete"`.
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for any other name.
    pub fn parse(op: &str, mode: &str) -> Result<QrMode> {
        match mode {
            "reduced" => Ok(QrMode::Reduced),
            "complete" => Ok(QrMode::Complete),
            _ => Err(Error::InvalidValue(format!("{op}: mode must be 'reduced' or 'complete', got {mode:?}"))),
        }
    }
}

/// The QR decomposition of each matrix, `x = Q R` with `Q` having orthonormal
/// columns and `R` upper triangular with a real diagonal (Householder
/// reflections, so the signs of `R`'s diagonal follow the reflections, as in
/// LAPACK: NumPy's `Q` and `R` for real input; for complex input the signs of
/// some rows may differ from LAPACK's, with `Q`'s columns to match).
///
/// Differentiable for matrices with at least as many rows as columns in
/// reduced mode, and square ones in complete mode (TF's limits).
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidArgument`]
/// for rank < 2.
pub fn qr(x: &Tensor, mode: QrMode) -> Result<(Tensor, Tensor)> {
    let s = check("qr", x, false)?;
    let (m, n) = (s.m, s.n);
    let complete = mode == QrMode::Complete;
    // Q is m × kk and R is kk × n: kk = m when complete, min(m, n) when reduced
    let kk = if complete { m } else { m.min(n) };
    let (q, r) = compute!("qr", x, T, {
        let a = row_major::<T>(x, "qr")?;
        let (mut q, mut r) = (Vec::with_capacity(s.count() * m * kk), Vec::with_capacity(s.count() * kk * n));
        for i in 0..s.count() {
            k::qr(block(&a, m * n, i), m, n, complete, Some(&mut q), &mut r);
        }
        Ok::<_, Error>((Tensor::from_vec(q, &s.shape(&[m, kk]))?, Tensor::from_vec(r, &s.shape(&[kk, n]))?))
    })?;
    let outs = tape::record_n(&[x], vec![finish(q, x, false)?, finish(r, x, false)?], || {
        TapeOp::Linalg(LinalgOp::Qr { complete })
    });
    two(outs, "qr")
}

/// The eigenvalues (ascending, real dtype) and eigenvectors (columns, input
/// dtype) of each Hermitian matrix, reading its lower triangle, like
/// `tf.linalg.eigh` and `xp.linalg.eigh`.
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidArgument`]
/// for rank < 2, non-square matrices or an iteration that does not converge.
pub fn eigh(x: &Tensor) -> Result<(Tensor, Tensor)> {
    eigh_impl("eigh", x, true).map(|(w, v)| (w, v.expect("eigenvectors were asked for")))
}

/// The eigenvalues (ascending, real dtype) of each Hermitian matrix, reading its
/// lower triangle, like `tf.linalg.eigvalsh` and `xp.linalg.eigvalsh`.
///
/// # Errors
/// As [`eigh`].
pub fn eigvalsh(x: &Tensor) -> Result<Tensor> {
    eigh_impl("eigvalsh", x, false).map(|(w, _)| w)
}

fn eigh_impl(op: &str, x: &Tensor, vectors: bool) -> Result<(Tensor, Option<Tensor>)> {
    let s = check(op, x, true)?;
    let n = s.n;
    let (w, v) = compute!(op, x, T, {
        let a = row_major::<T>(x, op)?;
        let (mut w, mut v) = (Vec::with_capacity(s.count() * n), Vec::with_capacity(if vectors { a.len() } else { 0 }));
        for i in 0..s.count() {
            k::eigh(block(&a, n * n, i), n, &mut w, vectors.then_some(&mut v)).map_err(|f| failed(op, f, i, x))?;
        }
        let v = if vectors { Some(Tensor::from_vec(v, x.shape())?) } else { None };
        Ok::<_, Error>((Tensor::from_vec(w, &s.shape(&[n]))?, v))
    })?;
    let w = finish(w, x, true)?;
    match v {
        Some(v) => {
            let outs = tape::record_n(&[x], vec![w, finish(v, x, false)?], || TapeOp::Linalg(LinalgOp::Eigh));
            let (w, v) = two(outs, op)?;
            Ok((w, Some(v)))
        }
        None => Ok((tape::record(&[x], w, || TapeOp::Linalg(LinalgOp::Eigvalsh)), None)),
    }
}

/// Two outputs recorded together, as a pair.
fn two(outs: Vec<Tensor>, op: &str) -> Result<(Tensor, Tensor)> {
    let mut it = outs.into_iter();
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(Error::InvalidArgument(format!("{op}: expected two outputs"))),
    }
}

/// The complex dtype of [`eig`]'s results for an input of dtype `d`.
fn eig_dtype(d: DType) -> DType {
    match d {
        DType::F64 | DType::C128 => DType::C128,
        _ => DType::C64,
    }
}

/// The eigenvalues and right eigenvectors (columns, unit norm) of each general
/// square matrix, complex whatever the input (complex64 for float32, bfloat16
/// and float16 input, complex128 for float64), like `xp.linalg.eig`; the order
/// of the eigenvalues is faer's (unspecified by the standard).
///
/// # Errors
/// As [`eigh`].
pub fn eig(x: &Tensor) -> Result<(Tensor, Tensor)> {
    eig_impl("eig", x, true).map(|(w, v)| (w, v.expect("eigenvectors were asked for")))
}

/// The eigenvalues of each general square matrix, complex (`xp.linalg.eigvals`).
///
/// # Errors
/// As [`eigh`].
pub fn eigvals(x: &Tensor) -> Result<Tensor> {
    eig_impl("eigvals", x, false).map(|(w, _)| w)
}

fn eig_impl(op: &str, x: &Tensor, vectors: bool) -> Result<(Tensor, Option<Tensor>)> {
    let s = check(op, x, true)?;
    let n = s.n;
    let (w, v) = compute!(op, x, T, {
        let a = row_major::<T>(x, op)?;
        let (mut w, mut v) = (Vec::with_capacity(s.count() * n), Vec::with_capacity(if vectors { a.len() } else { 0 }));
        for i in 0..s.count() {
            k::eig(block(&a, n * n, i), n, &mut w, vectors.then_some(&mut v)).map_err(|f| failed(op, f, i, x))?;
        }
        let v = if vectors { Some(Tensor::from_vec(v, x.shape())?) } else { None };
        Ok::<_, Error>((Tensor::from_vec(w, &s.shape(&[n]))?, v))
    })?;
    let want = eig_dtype(x.dtype());
    let fix = |t: Tensor| if t.dtype() == want { Ok(t) } else { t.cast(want) };
    Ok((fix(w)?, v.map(fix).transpose()?))
}

/// The singular value decomposition of each matrix, `x = U diag(S) Vh`, in the
/// Array API's order `(U, S, Vh)`; `S` is descending with the real dtype. With
/// `full_matrices` `U` is `M × M` and `Vh` `N × N`, otherwise `M × K` and `K × N`
/// for `K = min(M, N)`. (`tf.linalg.svd` returns `(s, u, v)` with `v = Vhᴴ`;
/// see `lattensor::linalg::svd`.)
///
/// # Errors
/// [`Error::UnsupportedDType`] for integer or bool input, [`Error::InvalidArgument`]
/// for rank < 2 or an iteration that does not converge.
pub fn svd(x: &Tensor, full_matrices: bool) -> Result<(Tensor, Tensor, Tensor)> {
    let s = check("svd", x, false)?;
    let (m, n, kk) = (s.m, s.n, s.m.min(s.n));
    let (ku, kv) = if full_matrices { (m, n) } else { (kk, kk) };
    let (u, sv, vh) = compute!("svd", x, T, {
        let a = row_major::<T>(x, "svd")?;
        let (mut u, mut sv, mut vh) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..s.count() {
            k::svd(block(&a, m * n, i), m, n, full_matrices, &mut sv, Some((&mut u, &mut vh)))
                .map_err(|f| failed("svd", f, i, x))?;
        }
        Ok::<_, Error>((
            Tensor::from_vec(u, &s.shape(&[m, ku]))?,
            Tensor::from_vec(sv, &s.shape(&[kk]))?,
            Tensor::from_vec(vh, &s.shape(&[kv, n]))?,
        ))
    })?;
    let outs = tape::record_n(&[x], vec![finish(u, x, false)?, finish(sv, x, true)?, finish(vh, x, false)?], || {
        TapeOp::Linalg(LinalgOp::Svd { full_matrices })
    });
    let mut it = outs.into_iter();
    match (it.next(), it.next(), it.next()) {
        (Some(u), Some(s), Some(vh)) => Ok((u, s, vh)),
        _ => Err(Error::InvalidArgument("svd: expected three outputs".into())),
    }
}

/// The singular values of each matrix, descending, with the real dtype
/// (`xp.linalg.svdvals`).
///
/// # Errors
/// As [`svd`].
pub fn svdvals(x: &Tensor) -> Result<Tensor> {
    let s = check("svdvals", x, false)?;
    let (m, n) = (s.m, s.n);
    let out = compute!("svdvals", x, T, {
        let a = row_major::<T>(x, "svdvals")?;
        let mut sv = Vec::with_capacity(s.count() * m.min(n));
        for i in 0..s.count() {
            k::svd(block(&a, m * n, i), m, n, false, &mut sv, None).map_err(|f| failed("svdvals", f, i, x))?;
        }
        Tensor::from_vec(sv, &s.shape(&[m.min(n)]))
    })?;
    Ok(tape::record(&[x], finish(out, x, true)?, || TapeOp::Linalg(LinalgOp::Svdvals)))
}

/// The default relative cutoff of [`pinv`] and [`matrix_rank`] in the Array
/// API: `max(M, N) · eps` of the input's (real) dtype.
fn default_rtol(x: &Tensor, m: usize, n: usize) -> f64 {
    let eps = x.dtype().real_dtype().finfo().map_or(f64::EPSILON, |f| f.eps);
    m.max(n) as f64 * eps
}

/// The Moore-Penrose pseudo-inverse of each matrix (`N × M` for an `M × N`
/// input) from its SVD, treating singular values at most `rtol · max(S)` as
/// zero; `rtol` defaults to `max(M, N) · eps` (the Array API's default; TF's
/// `tf.linalg.pinv` uses `10 · max(M, N) · eps`, see `lattensor::linalg::pinv`).
///
/// # Errors
/// As [`svd`].
pub fn pinv(x: &Tensor, rtol: Option<f64>) -> Result<Tensor> {
    let s = check("pinv", x, false)?;
    let (m, n, kk) = (s.m, s.n, s.m.min(s.n));
    let rtol = rtol.unwrap_or_else(|| default_rtol(x, m, n));
    let out = compute!("pinv", x, T, {
        let a = row_major::<T>(x, "pinv")?;
        let mut out = Vec::with_capacity(s.count() * m * n);
        let (mut u, mut sv, mut vh) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..s.count() {
            u.clear();
            sv.clear();
            vh.clear();
            k::svd(block(&a, m * n, i), m, n, false, &mut sv, Some((&mut u, &mut vh)))
                .map_err(|f| failed("pinv", f, i, x))?;
            pinv_from_svd::<T>(&u, &sv, &vh, m, n, kk, rtol, &mut out);
        }
        Tensor::from_vec(out, &s.shape(&[n, m]))
    })?;
    finish(out, x, false)
}

/// `V diag(1/S) Uᴴ` (`N × M`) from the thin SVD, singular values at most
/// `rtol · max(S)` dropped, appended to `out`.
#[allow(clippy::too_many_arguments)]
fn pinv_from_svd<T: Field>(u: &[T], s: &[T::R], vh: &[T], m: usize, n: usize, kk: usize, rtol: f64, out: &mut Vec<T>) {
    let cutoff = s.first().map_or(0.0, |&s0| num_traits::ToPrimitive::to_f64(&s0).unwrap_or(0.0) * rtol);
    let zero = T::from_r(<T::R as num_traits::Zero>::zero());
    for i in 0..n {
        for j in 0..m {
            // sum over l of conj(vh[l, i]) / s[l] * conj(u[j, l])
            let mut acc = zero;
            for l in 0..kk {
                let sl = num_traits::ToPrimitive::to_f64(&s[l]).unwrap_or(0.0);
                if sl > cutoff {
                    let inv = T::from_r(<T::R as num_traits::One>::one() / s[l]);
                    acc += vh[l * n + i].conjugate().times(inv).times(u[j * kk + l].conjugate());
                }
            }
            out.push(acc);
        }
    }
}

/// The rank of each matrix: its number of singular values above
/// `rtol · max(S)` (`rtol` defaults to `max(M, N) · eps`), as int64 with the
/// batch shape (`xp.linalg.matrix_rank`).
///
/// # Errors
/// As [`svd`].
pub fn matrix_rank(x: &Tensor, rtol: Option<f64>) -> Result<Tensor> {
    let s = check("matrix_rank", x, false)?;
    let (m, n, kk) = (s.m, s.n, s.m.min(s.n));
    let rtol = rtol.unwrap_or_else(|| default_rtol(x, m, n));
    let sv = svdvals(x)?.cast(DType::F64)?.to_vec::<f64>()?;
    let ranks: Vec<i64> = (0..s.count())
        .map(|i| {
            let b = block(&sv, kk, i);
            let cutoff = b.first().copied().unwrap_or(0.0) * rtol;
            b.iter().filter(|&&v| v > cutoff).count() as i64
        })
        .collect();
    Tensor::from_vec(ranks, &s.batch)
}

/// The matrix norms of [`matrix_norm`] (the Array API's `ord`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MatrixOrd {
    /// `"fro"`: the square root of the sum of squared moduli.
    Fro,
    /// `"nuc"`: the sum of the singular values.
    Nuc,
    /// `1` / `-1`: the largest / smallest column sum of moduli.
    One(bool),
    /// `inf` / `-inf`: the largest / smallest row sum of moduli.
    Inf(bool),
    /// `2` / `-2`: the largest / smallest singular value.
    Two(bool),
}

/// The norm of each matrix of `x` (real dtype, batch shape; with `keepdims`
/// the last two axes stay as size 1), as `xp.linalg.matrix_norm`.
///
/// # Errors
/// As [`svd`].
pub fn matrix_norm(x: &Tensor, ord: MatrixOrd, keepdims: bool) -> Result<Tensor> {
    let s = check("matrix_norm", x, false)?;
    let (m, n) = (s.m, s.n);
    let values: Vec<f64> = match ord {
        MatrixOrd::Nuc | MatrixOrd::Two(_) => {
            let sv = svdvals(x)?.cast(DType::F64)?.to_vec::<f64>()?;
            let kk = m.min(n);
            (0..s.count())
                .map(|i| {
                    let b = block(&sv, kk, i);
                    match ord {
                        MatrixOrd::Nuc => b.iter().sum(),
                        MatrixOrd::Two(false) => b.first().copied().unwrap_or(0.0),
                        _ => b.last().copied().unwrap_or(0.0),
                    }
                })
                .collect()
        }
        _ => {
            let moduli = crate::ops::abs(x)?.cast(DType::F64)?.to_vec::<f64>()?;
            (0..s.count())
                .map(|i| {
                    let b = block(&moduli, m * n, i);
                    let pick = |v: Vec<f64>, neg: bool| {
                        v.into_iter().fold(if neg { f64::INFINITY } else { f64::NEG_INFINITY }, |a, b| {
                            if b.is_nan() || a.is_nan() {
                                f64::NAN
                            } else if neg {
                                a.min(b)
                            } else {
                                a.max(b)
                            }
                        })
                    };
                    match ord {
                        MatrixOrd::Fro => b.iter().map(|v| v * v).sum::<f64>().sqrt(),
                        MatrixOrd::One(neg) => pick((0..n).map(|j| (0..m).map(|r| b[r * n + j]).sum()).collect(), neg),
                        MatrixOrd::Inf(neg) => pick((0..m).map(|r| b[r * n..(r + 1) * n].iter().sum()).collect(), neg),
                        _ => unreachable!("the SVD norms are handled above"),
                    }
                })
                .collect()
        }
    };
    let shape = if keepdims { s.shape(&[1, 1]) } else { s.batch.clone() };
    finish(Tensor::from_vec(values, &shape)?, x, true)
}
