//! `tf.linalg`'s diagonal functions (`diag`, `diag_part`, `set_diag`,
//! `band_part`) and `tf.dtypes.saturate_cast`, under TF's signatures.

use lattensor::ops::matrix::{self, DiagAlign};
use lattensor::{DType, Error, Tensor};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args::{self, Opt, arg, as_dtype, constant_impl, ints, run, scalar_of};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

/// `k`: one diagonal index or a `(lo, hi)` pair (an int, a sequence of one or
/// two ints, or an integer tensor of one or two elements).
fn band_k(op: &str, k: &Bound<'_, PyAny>) -> PyResult<(i64, i64)> {
    let v = ints(k, "k")?;
    match *v.as_slice() {
        [d] => Ok((d as i64, d as i64)),
        [lo, hi] => Ok((lo as i64, hi as i64)),
        ref other => Err(Error::InvalidArgument(format!(
            "{op}: k must be one diagonal index or a (lower, upper) pair, got {} elements",
            other.len()
        )))
        .py(),
    }
}

/// `num_rows`/`num_cols`: `-1` (inferred) or a size.
fn size_arg(op: &str, what: &str, v: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    match *ints(v, what)?.as_slice() {
        [-1] => Ok(None),
        [n] if n >= 0 => Ok(Some(n as usize)),
        _ => Err(Error::InvalidArgument(format!("{op}: {what} must be -1 (inferred) or a size ≥ 0, got {v}"))).py(),
    }
}

/// A value converted for an input of `dtype`, as TF converts an op's other
/// inputs: a Python number or list becomes `dtype` by `tf.constant`'s rule
/// (a bool input takes its truth value, as TF's `diag` does); a tensor keeps
/// its own dtype, which the op then checks.
fn like_input(value: &Bound<'_, PyAny>, dtype: DType) -> PyResult<Tensor> {
    if dtype == DType::Bool && scalar_of(value)?.is_some() {
        return Ok(Tensor::scalar(value.is_truthy()?));
    }
    match arg(value)? {
        args::Arg::Ref(t) => Ok((*t).clone()),
        // a literal `dtype` cannot hold (0.5 for an int32 input) is TF's conversion TypeError
        args::Arg::Scalar(_) => constant_impl(value, Some(dtype)).map_err(|_| {
            let shown = value.repr().map(|r| r.to_string()).unwrap_or_default();
            PyTypeError::new_err(format!("Cannot convert {shown} to a tensor of dtype {dtype}"))
        }),
        args::Arg::Owned(_) => constant_impl(value, Some(dtype)),
    }
}

/// `tf.linalg.diag(diagonal, name='diag', k=0, num_rows=-1, num_cols=-1,
/// padding_value=0, align='RIGHT_LEFT')`: matrices with the given diagonals
/// (TF's `MatrixDiagV3`); the result has the diagonal's dtype and weakness.
#[pyfunction]
#[pyo3(
    signature = (diagonal, name = None, k = None, num_rows = None, num_cols = None, padding_value = None, align = "RIGHT_LEFT"),
    text_signature = "(diagonal, name='diag', k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT')"
)]
#[allow(clippy::too_many_arguments)]
pub fn diag(
    py: Python<'_>,
    diagonal: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
    k: Opt<'_, '_>,
    num_rows: Opt<'_, '_>,
    num_cols: Opt<'_, '_>,
    padding_value: Opt<'_, '_>,
    align: &str,
) -> PyResult<PyTensor> {
    let _ = name;
    let a = arg(diagonal)?;
    let t = a.tensor()?;
    let k = k.map(|k| band_k("diag", k)).transpose()?.unwrap_or((0, 0));
    let rows = num_rows.map(|v| size_arg("diag", "num_rows", v)).transpose()?.flatten();
    let cols = num_cols.map(|v| size_arg("diag", "num_cols", v)).transpose()?.flatten();
    let pad = padding_value.map(|p| like_input(p, t.dtype())).transpose()?;
    let align = DiagAlign::parse("diag", align).py()?;
    run(py, t.numel(), || matrix::diag_ext(&t, k, rows, cols, pad.as_ref(), align)).map(PyTensor::new)
}

/// `tf.linalg.diag_part(input, name='diag_part', k=0, padding_value=0,
/// align='RIGHT_LEFT')`: the diagonals `k` of the last two axes (TF's
/// `MatrixDiagPartV3`); the result has the input's dtype and weakness.
#[pyfunction]
#[pyo3(
    signature = (input, name = None, k = None, padding_value = None, align = "RIGHT_LEFT"),
    text_signature = "(input, name='diag_part', k=0, padding_value=0, align='RIGHT_LEFT')"
)]
pub fn diag_part(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
    k: Opt<'_, '_>,
    padding_value: Opt<'_, '_>,
    align: &str,
) -> PyResult<PyTensor> {
    let _ = name;
    let a = arg(input)?;
    let t = a.tensor()?;
    let k = k.map(|k| band_k("diag_part", k)).transpose()?.unwrap_or((0, 0));
    let pad = padding_value.map(|p| like_input(p, t.dtype())).transpose()?;
    let align = DiagAlign::parse("diag_part", align).py()?;
    run(py, t.numel(), || matrix::diag_part_ext(&t, k, pad.as_ref(), align)).map(PyTensor::new)
}

/// `tf.linalg.set_diag(input, diagonal, name='set_diag', k=0,
/// align='RIGHT_LEFT')`: `input` with its diagonals `k` replaced (TF's
/// `MatrixSetDiagV3`); the result has the input's dtype and is strong, as TF's.
#[pyfunction]
#[pyo3(
    signature = (input, diagonal, name = None, k = None, align = "RIGHT_LEFT"),
    text_signature = "(input, diagonal, name='set_diag', k=0, align='RIGHT_LEFT')"
)]
pub fn set_diag(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    diagonal: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
    k: Opt<'_, '_>,
    align: &str,
) -> PyResult<PyTensor> {
    let _ = name;
    let a = arg(input)?;
    let t = a.tensor()?;
    let d = like_input(diagonal, t.dtype())?;
    let k = k.map(|k| band_k("set_diag", k)).transpose()?.unwrap_or((0, 0));
    let align = DiagAlign::parse("set_diag", align).py()?;
    run(py, t.numel(), || matrix::set_diag(&t, &d, k, align)).map(PyTensor::new)
}

/// `tf.linalg.band_part(input, num_lower, num_upper, name=None)`: the band
/// `-num_lower ≤ j - i ≤ num_upper` of the last two axes, zeros elsewhere (a
/// negative bound keeps the whole triangle); a strong result, as TF's.
#[pyfunction]
#[pyo3(signature = (input, num_lower, num_upper, name = None))]
pub fn band_part(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    num_lower: &Bound<'_, PyAny>,
    num_upper: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let one = |v: &Bound<'_, PyAny>, what: &str| -> PyResult<i64> {
        match *ints(v, what)?.as_slice() {
            [n] => Ok(n as i64),
            _ => Err(PyTypeError::new_err(format!("band_part: {what} must be an int, got {v}"))),
        }
    };
    let (lo, hi) = (one(num_lower, "num_lower")?, one(num_upper, "num_upper")?);
    let a = arg(input)?;
    let t = a.tensor()?;
    run(py, t.numel(), || matrix::band_part(&t, lo, hi)).map(PyTensor::new)
}

/// `tf.dtypes.saturate_cast(value, dtype, name=None)`: a cast that clips to
/// the target's range first; the result is strong. Bool has no range
/// (`TypeError`, as TF).
#[pyfunction]
#[pyo3(signature = (value, dtype, name = None))]
pub fn saturate_cast(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    dtype: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let d = as_dtype(dtype)?;
    let a = arg(value)?;
    let t = a.tensor()?;
    if d == DType::Bool || t.dtype() == DType::Bool {
        return Err(PyTypeError::new_err(format!(
            "saturate_cast: bool has no range to saturate to (casting {} to {d})",
            t.dtype()
        )));
    }
    run(py, t.numel(), || lattensor::ops::saturate_cast(&t, d)).map(PyTensor::new)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(diag, m)?,
        wrap_pyfunction!(diag_part, m)?,
        wrap_pyfunction!(set_diag, m)?,
        wrap_pyfunction!(band_part, m)?,
        wrap_pyfunction!(saturate_cast, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
