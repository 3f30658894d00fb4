//! `lattensor.DType`: the dtype objects (`lattensor.int32`, `lattensor.bfloat16`, …).

use lattensor::DType;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyString, PyType};

use crate::convert;
use crate::errors::IntoPyResult;

/// A tensor element type, like `tf.DType`.
///
/// Compares equal to the same dtype given as a `DType`, a name (`"float32"`),
/// or a NumPy dtype or scalar type (`np.float32`, `np.dtype("float32")`).
#[pyclass(name = "DType", module = "lattensor", frozen)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyDType {
    pub d: DType,
}

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
        convert::numpy_descr(py, self.d)?.getattr("type")
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

/// Resolves anything naming a dtype: a `DType`, a name, a NumPy dtype or type,
/// or the Python types `bool`, `int` (int32), `float` (float32), `complex` (complex128).
pub fn as_dtype(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    if let Ok(d) = obj.cast::<PyDType>() {
        return Ok(d.get().d);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return DType::parse(s.to_str()?).py();
    }
    if let Ok(t) = obj.cast::<PyType>() {
        if t.is(obj.py().get_type::<PyBool>()) {
            return Ok(DType::Bool);
        }
        if t.is(obj.py().get_type::<PyInt>()) {
            return Ok(DType::I32);
        }
        if t.is(obj.py().get_type::<PyFloat>()) {
            return Ok(DType::F32);
        }
        if t.is(obj.py().get_type::<PyComplex>()) {
            return Ok(DType::C128);
        }
    }
    // NumPy dtypes, scalar types and anything NumPy understands as a dtype.
    let np = convert::numpy(obj.py())?;
    match np.getattr("dtype")?.call1((obj,)) {
        Ok(descr) => DType::parse(&descr.getattr("name")?.extract::<String>()?).py(),
        Err(_) => Err(PyTypeError::new_err(format!(
            "cannot interpret {} as a lattensor dtype; use lattensor.int32, a name such as 'float32', or a NumPy dtype",
            obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "the object".into())
        ))),
    }
}

/// Resolves an optional dtype argument (`None` stays `None`).
pub fn opt_dtype(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DType>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => as_dtype(o).map(Some),
    }
}
