//! The matrix decompositions: `tf.linalg`'s names under TF's signatures
//! (`cholesky`, `det`, `slogdet`, `logdet`, `inv`, `solve`, `qr`, `eigh`,
//! `eigvalsh`, `svd`, `pinv`) and the Array API's forms as private helpers
//! (`_linalg_*`) that `lattensor.array_api.linalg` wraps.

use lattensor::ops::decomp::{self, MatrixOrd, QrMode};
use lattensor::{Tensor, linalg};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::args::{Opt, arg, run};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

/// The tensor of a Python argument (a tensor, NumPy array, list or scalar).
fn tensor(x: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    Ok(arg(x)?.tensor()?.into_owned())
}

macro_rules! unary {
    ($(#[$doc:meta])* $name:ident, $arg:ident, $f:path) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = ($arg, name = None))]
        pub fn $name(py: Python<'_>, $arg: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
            let _ = name;
            let t = tensor($arg)?;
            run(py, t.numel(), || $f(&t)).map(PyTensor::new)
        }
    };
}

unary!(
    /// `tf.linalg.cholesky(input, name=None)`: the lower Cholesky factor.
    cholesky, input, linalg::cholesky
);
unary!(
    /// `tf.linalg.det(input, name=None)`: the determinant of each matrix.
    det, input, linalg::det
);
unary!(
    /// `tf.linalg.logdet(matrix, name=None)`: log(det) of Hermitian positive-definite matrices.
    logdet, matrix, linalg::logdet
);
unary!(
    /// `tf.linalg.eigvalsh(tensor, name=None)`: the eigenvalues of Hermitian matrices, ascending.
    eigvalsh, tensor, linalg::eigvalsh
);

/// `tf.linalg.slogdet(input, name=None)`: `(sign, log_abs_determinant)`.
#[pyfunction]
#[pyo3(signature = (input, name = None))]
pub fn slogdet(py: Python<'_>, input: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<(PyTensor, PyTensor)> {
    let _ = name;
    let t = tensor(input)?;
    let (s, l) = run(py, t.numel(), || linalg::slogdet(&t))?;
    Ok((PyTensor::new(s), PyTensor::new(l)))
}

/// `tf.linalg.inv(input, adjoint=False, name=None)`.
#[pyfunction]
#[pyo3(signature = (input, adjoint = false, name = None))]
pub fn inv(py: Python<'_>, input: &Bound<'_, PyAny>, adjoint: bool, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = tensor(input)?;
    run(py, t.numel(), || linalg::inv(&t, adjoint)).map(PyTensor::new)
}

/// `tf.linalg.solve(matrix, rhs, adjoint=False, name=None)` (TF's `MatrixSolve`).
#[pyfunction]
#[pyo3(signature = (matrix, rhs, adjoint = false, name = None))]
pub fn solve(
    py: Python<'_>,
    matrix: &Bound<'_, PyAny>,
    rhs: &Bound<'_, PyAny>,
    adjoint: bool,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let (a, b) = (tensor(matrix)?, tensor(rhs)?);
    run(py, a.numel() + b.numel(), || linalg::solve(&a, &b, adjoint)).map(PyTensor::new)
}

/// `tf.linalg.qr(input, full_matrices=False, name=None)`: `(q, r)`.
#[pyfunction]
#[pyo3(signature = (input, full_matrices = false, name = None))]
pub fn qr(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    full_matrices: bool,
    name: Opt<'_, '_>,
) -> PyResult<(PyTensor, PyTensor)> {
    let _ = name;
    let t = tensor(input)?;
    let (q, r) = run(py, t.numel(), || linalg::qr(&t, full_matrices))?;
    Ok((PyTensor::new(q), PyTensor::new(r)))
}

/// `tf.linalg.eigh(tensor, name=None)`: `(e, v)`, eigenvalues ascending and eigenvectors as columns.
#[pyfunction]
#[pyo3(signature = (tensor, name = None))]
pub fn eigh(py: Python<'_>, tensor: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<(PyTensor, PyTensor)> {
    let _ = name;
    let t = self::tensor(tensor)?;
    let (w, v) = run(py, t.numel(), || linalg::eigh(&t))?;
    Ok((PyTensor::new(w), PyTensor::new(v)))
}

/// `xp.linalg.eig(x)`: `(eigenvalues, eigenvectors)`, complex.
#[pyfunction]
#[pyo3(name = "_linalg_eig")]
pub fn linalg_eig(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<(PyTensor, PyTensor)> {
    let t = tensor(x)?;
    let (w, v) = run(py, t.numel(), || decomp::eig(&t))?;
    Ok((PyTensor::new(w), PyTensor::new(v)))
}

/// `xp.linalg.eigvals(x)`: complex eigenvalues.
#[pyfunction]
#[pyo3(name = "_linalg_eigvals")]
pub fn linalg_eigvals(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let t = tensor(x)?;
    run(py, t.numel(), || decomp::eigvals(&t)).map(PyTensor::new)
}

/// `tf.linalg.svd(tensor, full_matrices=False, compute_uv=True, name=None)`:
/// `(s, u, v)` with `tensor = u diag(s) vᴴ`, or `s` alone without `compute_uv`.
#[pyfunction]
#[pyo3(signature = (tensor, full_matrices = false, compute_uv = true, name = None))]
pub fn svd(
    py: Python<'_>,
    tensor: &Bound<'_, PyAny>,
    full_matrices: bool,
    compute_uv: bool,
    name: Opt<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = name;
    let t = self::tensor(tensor)?;
    if !compute_uv {
        let s = run(py, t.numel(), || linalg::svdvals(&t))?;
        return Ok(PyTensor::new(s).into_pyobject(py)?.into_any().unbind());
    }
    let (s, u, v) = run(py, t.numel(), || linalg::svd(&t, full_matrices))?;
    Ok((PyTensor::new(s), PyTensor::new(u), PyTensor::new(v)).into_pyobject(py)?.into_any().unbind())
}

/// `tf.linalg.pinv(a, rcond=None, validate_args=False, name=None)`.
#[pyfunction]
#[pyo3(signature = (a, rcond = None, validate_args = false, name = None))]
pub fn pinv(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    rcond: Option<f64>,
    validate_args: bool,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = (name, validate_args);
    let t = tensor(a)?;
    run(py, t.numel(), || linalg::pinv(&t, rcond)).map(PyTensor::new)
}

/// `xp.linalg.cholesky(x, upper=)`.
#[pyfunction]
#[pyo3(name = "_linalg_cholesky")]
pub fn linalg_cholesky(py: Python<'_>, x: &Bound<'_, PyAny>, upper: bool) -> PyResult<PyTensor> {
    let t = tensor(x)?;
    run(py, t.numel(), || decomp::cholesky(&t, upper)).map(PyTensor::new)
}

/// `xp.linalg.solve(x1, x2)` for `x2` of rank ≥ 2.
#[pyfunction]
#[pyo3(name = "_linalg_solve")]
pub fn linalg_solve(py: Python<'_>, x1: &Bound<'_, PyAny>, x2: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let (a, b) = (tensor(x1)?, tensor(x2)?);
    run(py, a.numel() + b.numel(), || decomp::solve(&a, &b)).map(PyTensor::new)
}

/// `xp.linalg.qr(x, mode=)`: `(Q, R)`.
#[pyfunction]
#[pyo3(name = "_linalg_qr")]
pub fn linalg_qr(py: Python<'_>, x: &Bound<'_, PyAny>, mode: &str) -> PyResult<(PyTensor, PyTensor)> {
    let t = tensor(x)?;
    let mode = QrMode::parse("qr", mode).py()?;
    let (q, r) = run(py, t.numel(), || decomp::qr(&t, mode))?;
    Ok((PyTensor::new(q), PyTensor::new(r)))
}

/// `xp.linalg.svd(x, full_matrices=)`: `(U, S, Vh)`.
#[pyfunction]
#[pyo3(name = "_linalg_svd")]
pub fn linalg_svd(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    full_matrices: bool,
) -> PyResult<(PyTensor, PyTensor, PyTensor)> {
    let t = tensor(x)?;
    let (u, s, vh) = run(py, t.numel(), || decomp::svd(&t, full_matrices))?;
    Ok((PyTensor::new(u), PyTensor::new(s), PyTensor::new(vh)))
}

/// `xp.linalg.svdvals(x)`.
#[pyfunction]
#[pyo3(name = "_linalg_svdvals")]
pub fn linalg_svdvals(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let t = tensor(x)?;
    run(py, t.numel(), || decomp::svdvals(&t)).map(PyTensor::new)
}

/// `xp.linalg.pinv(x, rtol=)` for a float or `None` `rtol`.
#[pyfunction]
#[pyo3(name = "_linalg_pinv")]
pub fn linalg_pinv(py: Python<'_>, x: &Bound<'_, PyAny>, rtol: Option<f64>) -> PyResult<PyTensor> {
    let t = tensor(x)?;
    run(py, t.numel(), || decomp::pinv(&t, rtol)).map(PyTensor::new)
}

/// `xp.linalg.matrix_rank(x, rtol=)` for a float or `None` `rtol`.
#[pyfunction]
#[pyo3(name = "_linalg_matrix_rank")]
pub fn linalg_matrix_rank(py: Python<'_>, x: &Bound<'_, PyAny>, rtol: Option<f64>) -> PyResult<PyTensor> {
    let t = tensor(x)?;
    run(py, t.numel(), || decomp::matrix_rank(&t, rtol)).map(PyTensor::new)
}

/// `xp.linalg.matrix_norm(x, ord=, keepdims=)`; `ord` is `"fro"`, `"nuc"` or
/// one of `1, -1, 2, -2, inf, -inf`.
#[pyfunction]
#[pyo3(name = "_linalg_matrix_norm")]
pub fn linalg_matrix_norm(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    ord: &Bound<'_, PyAny>,
    keepdims: bool,
) -> PyResult<PyTensor> {
    let o = if let Ok(s) = ord.extract::<String>() {
        match s.as_str() {
            "fro" => MatrixOrd::Fro,
            "nuc" => MatrixOrd::Nuc,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {s:?}"
                )));
            }
        }
    } else {
        match ord.extract::<f64>()? {
            1.0 => MatrixOrd::One(false),
            -1.0 => MatrixOrd::One(true),
            2.0 => MatrixOrd::Two(false),
            -2.0 => MatrixOrd::Two(true),
            f64::INFINITY => MatrixOrd::Inf(false),
            f64::NEG_INFINITY => MatrixOrd::Inf(true),
            v => {
                return Err(PyValueError::new_err(format!(
                    "matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, got {v}"
                )));
            }
        }
    };
    let t = tensor(x)?;
    run(py, t.numel(), || decomp::matrix_norm(&t, o, keepdims)).map(PyTensor::new)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(cholesky, m)?,
        wrap_pyfunction!(det, m)?,
        wrap_pyfunction!(logdet, m)?,
        wrap_pyfunction!(eigvalsh, m)?,
        wrap_pyfunction!(slogdet, m)?,
        wrap_pyfunction!(inv, m)?,
        wrap_pyfunction!(solve, m)?,
        wrap_pyfunction!(qr, m)?,
        wrap_pyfunction!(eigh, m)?,
        wrap_pyfunction!(svd, m)?,
        wrap_pyfunction!(pinv, m)?,
        wrap_pyfunction!(linalg_cholesky, m)?,
        wrap_pyfunction!(linalg_eig, m)?,
        wrap_pyfunction!(linalg_eigvals, m)?,
        wrap_pyfunction!(linalg_solve, m)?,
        wrap_pyfunction!(linalg_qr, m)?,
        wrap_pyfunction!(linalg_svd, m)?,
        wrap_pyfunction!(linalg_svdvals, m)?,
        wrap_pyfunction!(linalg_pinv, m)?,
        wrap_pyfunction!(linalg_matrix_rank, m)?,
        wrap_pyfunction!(linalg_matrix_norm, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
