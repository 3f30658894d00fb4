//! `lattensor.DType`: the dtype objects (`lattensor.int32`, `lattensor.bfloat16`, …).

use lattensor::DType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args::{self, as_dtype};
use crate::classes::PyDType;

#[pymethods]
impl PyDType {
    /// The dtype's name: `"float32"`, `"bfloat16"`, … .
    #[getter]
    fn name(&self) -> &'static str {
        self.d.name()
    }

    /// Bytes per element.
    #[getter]
    fn size(&self) -> usize {
        self.d.size()
    }

    #[getter]
    fn is_bool(&self) -> bool {
        self.d.is_bool()
    }

    #[getter]
    fn is_integer(&self) -> bool {
        self.d.is_integer()
    }

    #[getter]
    fn is_unsigned(&self) -> bool {
        self.d.is_unsigned()
    }

    #[getter]
    fn is_floating(&self) -> bool {
        self.d.is_float()
    }

    #[getter]
    fn is_complex(&self) -> bool {
        self.d.is_complex()
    }

    /// The NumPy scalar type (`ml_dtypes.bfloat16` for bfloat16).
    #[getter]
    fn as_numpy_dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        args::numpy_descr(py, self.d)?.getattr("type")
    }

    /// The dtype of a real component: complex64 → float32, others unchanged.
    #[getter]
    fn real_dtype(&self) -> PyDType {
        PyDType { d: self.d.real_dtype() }
    }

    /// Smallest value (integers and floats).
    #[getter]
    fn min<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        limit(py, self.d, false)
    }

    /// Largest value (integers and floats).
    #[getter]
    fn max<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        limit(py, self.d, true)
    }

    fn __repr__(&self) -> String {
        format!("lattensor.{}", self.d.name())
    }

    fn __str__(&self) -> String {
        format!("<dtype: '{}'>", self.d.name())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str,))> {
        Ok((py.import("lattensor")?.getattr("as_dtype")?, (self.d.name(),)))
    }

    /// Lets `t.dtype == np.float32` and `t.dtype == "float32"` work.
    #[pyo3(name = "__eq__")]
    fn eq_any(&self, other: &Bound<'_, PyAny>) -> bool {
        matches!(as_dtype(other), Ok(d) if d == self.d)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.eq_any(other)
    }

    fn __hash__(&self) -> u64 {
        self.d.index() as u64
    }
}

fn limit<'py>(py: Python<'py>, d: DType, max: bool) -> PyResult<Bound<'py, PyAny>> {
    if let Some(i) = d.iinfo() {
        let v = if max { i.max } else { i.min };
        return Ok(v.into_pyobject(py)?.into_any());
    }
    if let Some(f) = d.finfo() {
        let v = if max { f.max } else { -f.max };
        return Ok(v.into_pyobject(py)?.into_any());
    }
    Err(PyTypeError::new_err(format!("{} has no min/max", d.name())))
}
