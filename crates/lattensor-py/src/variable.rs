//! `lattensor.Variable`: mutable state whose dtype never changes (`tf.Variable`).

use std::sync::Arc;

use lattensor::{Value, Variable};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::args::opt_dtype;
use crate::args::{self, Arg};
use crate::classes::{PyDType, PyTensor, PyVariable};
use crate::errors::IntoPyResult;

fn value_of(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    Ok(match args::arg(obj)? {
        Arg::Ref(t) => Value::Tensor((*t).clone()),
        Arg::Owned(t) => Value::Tensor(t),
        Arg::Scalar(s) => Value::Literal(s),
    })
}

#[pymethods]
impl PyVariable {
    /// `Variable(initial_value, trainable=True, name=None, dtype=None)` — TF's
    /// positional order, so `Variable(10, tf.int32)` passes `tf.int32` as
    /// `trainable` and the dtype comes from the value, as in TF.
    #[new]
    #[pyo3(signature = (initial_value, trainable = None, name = None, dtype = None))]
    fn new(
        py: Python<'_>,
        initial_value: &Bound<'_, PyAny>,
        trainable: Option<Py<PyAny>>,
        name: Option<String>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let init = match opt_dtype(dtype)? {
            Some(d) => crate::args::constant_impl(initial_value, Some(d))?,
            None => args::to_tensor(initial_value)?,
        };
        let trainable = trainable.unwrap_or_else(|| {
            true.into_pyobject(py).map(|b| b.to_owned().into_any().unbind()).unwrap_or_else(|_| py.None())
        });
        // gradient tapes watch a variable read under them if `trainable` is truthy
        let watched = trainable.bind(py).is_truthy()?;
        let v = crate::args::run_quiet(|| Variable::new(init)).py()?.with_trainable(watched);
        Ok(PyVariable { v: Arc::new(v), name: name.unwrap_or_else(|| "Variable:0".into()), trainable })
    }

    #[getter]
    fn dtype(&self) -> PyDType {
        PyDType { d: self.v.dtype() }
    }

    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.v.shape())
    }

    #[getter]
    fn ndim(&self) -> usize {
        self.v.shape().len()
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    #[getter]
    fn trainable(&self, py: Python<'_>) -> Py<PyAny> {
        self.trainable.clone_ref(py)
    }

    /// Variables are always strong.
    #[getter]
    fn weak(&self) -> bool {
        false
    }

    /// The current value as a tensor (a snapshot).
    fn read_value(slf: &Bound<'_, Self>) -> PyTensor {
        Self::read_watched(slf)
    }

    /// The current value (same as `read_value`).
    fn value(slf: &Bound<'_, Self>) -> PyTensor {
        Self::read_watched(slf)
    }

    /// Same as `read_value().numpy()`.
    fn numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = Bound::new(py, PyTensor::new(self.v.read()))?;
        t.call_method0("numpy")
    }

    /// Replaces the value; returns a handle to the variable (TF's `UnreadVariable`).
    fn assign(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = value_of(value)?;
        crate::args::run_quiet(|| self.v.assign(v)).py()?;
        Ok(self.unread(py))
    }

    /// Adds `value` atomically; returns a handle to the variable (TF's `UnreadVariable`).
    fn assign_add(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = value_of(value)?;
        crate::args::run_quiet(|| self.v.assign_add(v)).py()?;
        Ok(self.unread(py))
    }

    /// Subtracts `value` atomically; returns a handle to the variable (TF's `UnreadVariable`).
    fn assign_sub(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v = value_of(value)?;
        crate::args::run_quiet(|| self.v.assign_sub(v)).py()?;
        Ok(self.unread(py))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let t = Bound::new(py, PyTensor::new(self.v.read()))?;
        let text = if self.v.shape().is_empty() {
            lattensor::display::numpy_str(&t.borrow().t)
        } else {
            t.call_method0("__array__")?.repr()?.to_string()
        };
        Ok(format!(
            "<lattensor.Variable '{}' shape={} dtype={}, numpy={text}>",
            self.name,
            lattensor::display::shape_str(self.v.shape()),
            self.v.dtype()
        ))
    }

    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = Bound::new(py, PyTensor::new(self.v.read()))?;
        t.call_method1("__array__", (dtype, copy))
    }

    // Operators act on the current value, as TF's variables do.
    fn __add__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__add__(py, other)
    }
    fn __radd__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__radd__(py, other)
    }
    fn __sub__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__sub__(py, other)
    }
    fn __rsub__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rsub__(py, other)
    }
    fn __mul__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__mul__(py, other)
    }
    fn __rmul__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rmul__(py, other)
    }
    fn __truediv__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__truediv__(py, other)
    }
    fn __rtruediv__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rtruediv__(py, other)
    }
    fn __floordiv__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__floordiv__(py, other)
    }
    fn __rfloordiv__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rfloordiv__(py, other)
    }
    fn __mod__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__mod__(py, other)
    }
    fn __rmod__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rmod__(py, other)
    }
    fn __matmul__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__matmul__(py, other)
    }
    fn __rmatmul__(slf: &Bound<'_, Self>, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rmatmul__(py, other)
    }
    fn __pow__(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        Self::read_watched(slf).__pow__(py, other, modulo)
    }
    fn __rpow__(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        Self::read_watched(slf).__rpow__(py, other, modulo)
    }
    fn __neg__(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__neg__(py)
    }
    fn __abs__(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__abs__(py)
    }
    /// Indexing reads the variable (watched by a recording tape) and indexes the value, as TF's.
    fn __getitem__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        Self::read_watched(slf).__getitem__(key)
    }
    fn __richcmp__(&self, py: Python<'_>, other: &Bound<'_, PyAny>, op: pyo3::basic::CompareOp) -> PyResult<Py<PyAny>> {
        PyTensor::new(self.v.read()).__richcmp__(py, other, op)
    }
    fn __hash__(&self) -> isize {
        // variables are hashable by identity (TF's are too)
        std::sync::Arc::as_ptr(&self.v) as isize
    }

    #[classattr]
    fn __array_priority__() -> i32 {
        100
    }

    fn __getattr__<'py>(slf: &Bound<'py, Self>, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        // Everything else (operators aside) behaves like the current value.
        let t = Bound::new(py, Self::read_watched(slf))?;
        t.getattr(name)
    }
}

impl PyVariable {
    /// The current value, telling the recording gradient tapes it was read.
    fn read_watched(slf: &Bound<'_, Self>) -> PyTensor {
        crate::classes::variable_read(slf);
        PyTensor::new(slf.get().v.read())
    }

    /// Another handle to the same variable, named as TF names the result of an update.
    fn unread(&self, py: Python<'_>) -> Self {
        PyVariable { v: Arc::clone(&self.v), name: "UnreadVariable".into(), trainable: self.trainable.clone_ref(py) }
    }
}
