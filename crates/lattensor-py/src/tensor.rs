//! `lattensor.Tensor`: the Python face of [`lattensor::Tensor`].
//!
//! Every operator calls the library op (promotion happens there, once);
//! this file only converts arguments and results.

use std::ffi::{CStr, c_int};

use lattensor::{DType, SliceArg, Tensor, ops};
use num_complex::Complex64;
use pyo3::exceptions::{PyBufferError, PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyEllipsis, PySlice, PyTuple};

use crate::args::opt_dtype;
use crate::args::{self, arg};
use crate::args::{run, run_quiet};
use crate::classes::PyDType;
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

#[pymethods]
impl PyTensor {
    #[new]
    #[pyo3(signature = (value, dtype = None))]
    fn py_new(value: &Bound<'_, PyAny>, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        crate::args::constant_impl(value, opt_dtype(dtype)?).map(PyTensor::new)
    }

    // ---- metadata ---------------------------------------------------------

    /// The shape, as a tuple of ints.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.t.shape())
    }

    /// The element type.
    #[getter]
    fn dtype(&self) -> PyDType {
        PyDType { d: self.t.dtype() }
    }

    /// `True` for a weakly typed tensor (its dtype was inferred, not declared).
    #[getter]
    fn weak(&self) -> bool {
        self.t.is_weak()
    }

    /// Number of dimensions.
    #[getter]
    fn ndim(&self) -> usize {
        self.t.rank()
    }

    /// Number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.t.numel()
    }

    /// Always `"/job:localhost/replica:0/task:0/device:CPU:0"`, like TF's CPU tensors.
    #[getter]
    fn device(&self) -> &'static str {
        "/job:localhost/replica:0/task:0/device:CPU:0"
    }

    /// A NumPy copy of the values (a NumPy scalar for a 0-d tensor), like `tf.Tensor.numpy`.
    fn numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let view = args::numpy_view(py, &slf.borrow().t)?;
        let copy = view.call_method0("copy")?;
        if slf.borrow().t.rank() == 0 { copy.get_item(()) } else { Ok(copy) }
    }

    /// NumPy conversion: a read-only view of the tensor's memory, no copy
    /// (a copy when `copy=True` or a different `dtype` is asked for).
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let mut a = args::numpy_view(py, &slf.borrow().t)?;
        if let Some(d) = dtype.filter(|d| !d.is_none())
            && !a.getattr("dtype")?.eq(d)?
        {
            if copy == Some(false) {
                return Err(PyValueError::new_err("converting to another dtype needs a copy, but copy=False"));
            }
            return a.call_method1("astype", (d,));
        }
        if copy == Some(true) {
            a = a.call_method0("copy")?;
        }
        Ok(a)
    }

    #[classattr]
    fn __array_priority__() -> i32 {
        // NumPy defers `ndarray + tensor` to `Tensor.__radd__` (TF uses 100 too).
        100
    }

    // ---- Python protocol --------------------------------------------------

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let t = &slf.borrow().t;
        let weak = if t.is_weak() { ", weak=True" } else { "" };
        Ok(format!(
            "<lattensor.Tensor: shape={}, dtype={}, numpy={}{weak}>",
            lattensor::display::shape_str(t.shape()),
            t.dtype(),
            numpy_text(slf, true)?
        ))
    }

    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let t = &slf.borrow().t;
        let weak = if t.is_weak() { ", weak=True" } else { "" };
        Ok(format!(
            "lattensor.Tensor({}, shape={}, dtype={}{weak})",
            numpy_text(slf, false)?,
            lattensor::display::shape_str(t.shape()),
            t.dtype()
        ))
    }

    /// `f"{t}"`: the values (`5`, or `5 weakly typed` for a weak tensor, as TF prints).
    fn __format__(slf: &Bound<'_, Self>, spec: &str) -> PyResult<String> {
        let t = &slf.borrow().t;
        let text: String = if spec.is_empty() {
            numpy_text(slf, false)?
        } else {
            Self::numpy(slf)?.call_method1("__format__", (spec,))?.extract()?
        };
        // TF marks a weak tensor's text whatever the spec: format(tf.constant(2), "b") == "10 weakly typed"
        Ok(if t.is_weak() { format!("{text} weakly typed") } else { text })
    }

    /// `round(x)` and `round(x, ndigits)`: `tf.math.round` (half to even) of
    /// every element, or `tnp.around(x, ndigits)`; a tensor either way.
    #[pyo3(signature = (ndigits = None))]
    fn __round__(&self, py: Python<'_>, ndigits: Option<i32>) -> PyResult<PyTensor> {
        match ndigits {
            None => run(py, self.t.numel(), || ops::round(&self.t)).map(PyTensor::new),
            Some(d) => run(py, self.t.numel(), || lattensor::tnp::around(&self.t, d)).map(PyTensor::new),
        }
    }

    fn __len__(&self) -> PyResult<usize> {
        match self.t.shape().first() {
            Some(&n) => Ok(n),
            None => Err(PyTypeError::new_err("len() of a 0-d tensor")),
        }
    }

    fn __iter__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let t = &slf.borrow().t;
        let n = match t.shape().first() {
            Some(&n) => n,
            None => return Err(PyTypeError::new_err("iteration over a 0-d tensor")),
        };
        let rows = (0..n)
            .map(|i| t.slice(&[SliceArg::Index(i as isize)]).py().map(PyTensor::new))
            .collect::<PyResult<Vec<_>>>()?;
        pyo3::types::PyList::new(slf.py(), rows)?.into_any().try_iter().map(Bound::into_any)
    }

    fn __bool__(&self) -> PyResult<bool> {
        if self.t.numel() != 1 {
            return Err(PyValueError::new_err(format!(
                "the truth value of a tensor of shape {:?} is ambiguous; use lattensor.math.reduce_any or reduce_all",
                self.t.shape()
            )));
        }
        Ok(self.t.item::<Complex64>().py()? != Complex64::new(0.0, 0.0))
    }

    fn __int__(&self) -> PyResult<i128> {
        one_element(&self.t, "int")?;
        match self.t.dtype() {
            DType::U64 => Ok(self.t.item::<u64>().py()? as i128),
            d if d.is_integer() || d.is_bool() => Ok(self.t.item::<i64>().py()? as i128),
            d if d.is_complex() => Err(PyTypeError::new_err("int() of a complex tensor; take .real first")),
            _ => {
                let v = self.t.item::<f64>().py()?;
                if !v.is_finite() {
                    return Err(PyValueError::new_err(format!("cannot convert {v} to int")));
                }
                Ok(v.trunc() as i128)
            }
        }
    }

    fn __index__(&self) -> PyResult<i128> {
        if !(self.t.dtype().is_integer() || self.t.dtype().is_bool()) {
            return Err(PyTypeError::new_err(format!(
                "only integer tensors can be used as an index, not {}",
                self.t.dtype()
            )));
        }
        self.__int__()
    }

    fn __float__(&self) -> PyResult<f64> {
        one_element(&self.t, "float")?;
        if self.t.dtype().is_complex() {
            return Err(PyTypeError::new_err("float() of a complex tensor; take .real first"));
        }
        self.t.item::<f64>().py()
    }

    fn __complex__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyComplex>> {
        one_element(&self.t, "complex")?;
        let c = self.t.item::<Complex64>().py()?;
        Ok(pyo3::types::PyComplex::from_doubles(py, c.re, c.im))
    }

    fn __hash__(&self) -> PyResult<isize> {
        Err(PyTypeError::new_err(
            "Tensor is unhashable (== compares elementwise); use a tuple of its values or id(t) as a key",
        ))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let t = &slf.borrow().t;
        let bytes = PyBytes::new(py, &t.to_bytes().py()?);
        let f = py.import("lattensor._lattensor")?.getattr("_from_bytes")?;
        let args = (bytes, PyTuple::new(py, t.shape())?, t.dtype().name(), t.is_weak()).into_pyobject(py)?;
        Ok((f, args))
    }

    // ---- binary operators (promotion happens in the library op) ----------

    pub(crate) fn __add__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__radd__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::add(&self.t, b.operand())))
    }

    pub(crate) fn __radd__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::add(a.operand(), &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __sub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rsub__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::subtract(&self.t, b.operand())))
    }

    pub(crate) fn __rsub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::subtract(a.operand(), &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rmul__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::multiply(&self.t, b.operand())))
    }

    pub(crate) fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::multiply(a.operand(), &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __truediv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rtruediv__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::divide(&self.t, b.operand())))
    }

    pub(crate) fn __rtruediv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::divide(a.operand(), &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __floordiv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rfloordiv__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::floordiv(&self.t, b.operand())))
    }

    pub(crate) fn __rfloordiv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::floordiv(a.operand(), &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __mod__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rmod__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::floormod(&self.t, b.operand())))
    }

    pub(crate) fn __rmod__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::floormod(a.operand(), &self.t)).map(PyTensor::new)
    }

    fn __and__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rand__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::bitwise_and(&self.t, b.operand())))
    }

    fn __rand__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::bitwise_and(a.operand(), &self.t)).map(PyTensor::new)
    }

    fn __or__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__ror__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::bitwise_or(&self.t, b.operand())))
    }

    fn __ror__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::bitwise_or(a.operand(), &self.t)).map(PyTensor::new)
    }

    fn __xor__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rxor__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::bitwise_xor(&self.t, b.operand())))
    }

    fn __rxor__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::bitwise_xor(a.operand(), &self.t)).map(PyTensor::new)
    }

    fn __lshift__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let b = arg(other)?;
        run(py, self.t.numel().max(b.numel()), || ops::left_shift(&self.t, b.operand())).map(PyTensor::new)
    }

    fn __rlshift__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::left_shift(a.operand(), &self.t)).map(PyTensor::new)
    }

    fn __rshift__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let b = arg(other)?;
        run(py, self.t.numel().max(b.numel()), || ops::right_shift(&self.t, b.operand())).map(PyTensor::new)
    }

    fn __rrshift__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::right_shift(a.operand(), &self.t)).map(PyTensor::new)
    }

    // ---- unary and comparison operators -----------------------------------

    pub(crate) fn __neg__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        run(py, self.t.numel(), || ops::negative(&self.t)).map(PyTensor::new)
    }

    fn __pos__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    pub(crate) fn __abs__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        run(py, self.t.numel(), || ops::abs(&self.t)).map(PyTensor::new)
    }

    fn __invert__(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let f = if self.t.dtype().is_bool() { ops::logical_not } else { ops::invert };
        run(py, self.t.numel(), || f(&self.t)).map(PyTensor::new)
    }

    pub(crate) fn __pow__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        no_modulo(modulo)?;
        let b = match self.right(other, "__rpow__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        tensor_obj(py, run(py, self.t.numel().max(b.numel()), || ops::pow(&self.t, b.operand())))
    }

    pub(crate) fn __rpow__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        no_modulo(modulo)?;
        let a = arg(other)?;
        run(py, self.t.numel().max(a.numel()), || ops::pow(a.operand(), &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __matmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let b = match self.right(other, "__rmatmul__")? {
            Right::Arg(b) => b,
            Right::Handled(r) => return Ok(r),
        };
        let b = b.tensor()?;
        tensor_obj(py, run(py, matmul_work(&self.t, &b), || lattensor::tnp::matmul(&self.t, &b)))
    }

    pub(crate) fn __rmatmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let a = arg(other)?;
        let a = a.tensor()?;
        run(py, matmul_work(&a, &self.t), || lattensor::tnp::matmul(&a, &self.t)).map(PyTensor::new)
    }

    pub(crate) fn __richcmp__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        op: pyo3::basic::CompareOp,
    ) -> PyResult<Py<PyAny>> {
        use pyo3::basic::CompareOp::*;
        let b = match arg(other) {
            Ok(b) => b,
            // `t == "text"` is False, as for NumPy arrays, rather than an error
            Err(_) if matches!(op, Eq | Ne) => {
                return Ok(matches!(op, Ne).into_pyobject(py)?.to_owned().into_any().unbind());
            }
            Err(e) => return Err(e),
        };
        let f = match op {
            Lt => ops::less,
            Le => ops::less_equal,
            Eq => ops::equal,
            Ne => ops::not_equal,
            Gt => ops::greater,
            Ge => ops::greater_equal,
        };
        let r = run(py, self.t.numel().max(b.numel()), || f(&self.t, b.operand()))?;
        Ok(Py::new(py, PyTensor::new(r))?.into_any())
    }

    // ---- indexing ---------------------------------------------------------

    /// Basic indexing: ints, slices (with steps), `None`/`np.newaxis` and `...`
    /// (a view, no copy).
    pub(crate) fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let args = slice_args(key, self.t.rank())?;
        self.t.slice(&args).map_err(|e| crate::errors::invalid_index(e.to_string())).map(PyTensor::new)
    }

    // ---- methods TF tensors have ------------------------------------------

    /// The single element as a Python number.
    fn item<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        one_element(&slf.borrow().t, "item")?;
        Self::numpy(slf)?.call_method0("item")
    }

    /// Python (nested) list of the values.
    fn tolist<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        Self::numpy(slf)?.call_method0("tolist")
    }

    /// `x.ravel()`: `tnp.ravel(x)` (a method TF adds with NumPy behaviour on).
    fn ravel(&self, py: Python<'_>) -> PyResult<PyTensor> {
        run(py, self.t.numel(), || lattensor::tnp::ravel(&self.t)).map(PyTensor::new)
    }

    /// `x.flatten(order="C")`: `tnp.ravel(x)` in C order, or the first index
    /// fastest for `order="F"` (tensors are immutable, so a view is a copy's equal).
    #[pyo3(signature = (order = "C"))]
    fn flatten(&self, py: Python<'_>, order: &str) -> PyResult<PyTensor> {
        let order = args::order_arg("flatten", order)?;
        run(py, self.t.numel(), || lattensor::tnp::flatten_in(&self.t, order)).map(PyTensor::new)
    }

    /// `x.transpose(*axes)`: `tnp.transpose(x, axes)`; no axes reverses them.
    #[pyo3(signature = (*axes))]
    fn transpose(&self, axes: &Bound<'_, PyTuple>) -> PyResult<PyTensor> {
        let axes = match axes.len() {
            0 => None,
            1 if !axes.get_item(0)?.is_instance_of::<pyo3::types::PyInt>() => Some(axes.get_item(0)?),
            _ => Some(axes.clone().into_any()),
        };
        let perm: Option<Vec<isize>> = axes.filter(|x| !x.is_none()).map(|x| x.extract()).transpose()?;
        run_quiet(|| lattensor::tnp::transpose(&self.t, perm.as_deref())).py().map(PyTensor::new)
    }

    /// `x.clip(min, max)`: `tnp.clip(x, min, max)`.
    #[pyo3(signature = (min = None, max = None))]
    fn clip(
        &self,
        py: Python<'_>,
        min: Option<&Bound<'_, PyAny>>,
        max: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTensor> {
        let (lo, hi) = args::clip_bounds(min, max)?;
        run(py, self.t.numel(), || lattensor::tnp::clip(&self.t, lo, hi)).map(PyTensor::new)
    }

    /// `x.max(axis=None, out=None, keepdims=False)`: `tnp.amax` (`out` must be
    /// `None`; NumPy's `np.amax(x)` passes it).
    #[pyo3(signature = (axis = None, out = None, keepdims = false))]
    fn max(
        &self,
        py: Python<'_>,
        axis: Option<&Bound<'_, PyAny>>,
        out: Option<&Bound<'_, PyAny>>,
        keepdims: bool,
    ) -> PyResult<PyTensor> {
        args::no_out("max", out)?;
        let ax = args::axes(axis)?;
        run(py, self.t.numel(), || lattensor::tnp::amax(&self.t, ax, keepdims)).map(PyTensor::new)
    }

    /// `x.min(axis=None, out=None, keepdims=False)`: `tnp.amin`.
    #[pyo3(signature = (axis = None, out = None, keepdims = false))]
    fn min(
        &self,
        py: Python<'_>,
        axis: Option<&Bound<'_, PyAny>>,
        out: Option<&Bound<'_, PyAny>>,
        keepdims: bool,
    ) -> PyResult<PyTensor> {
        args::no_out("min", out)?;
        let ax = args::axes(axis)?;
        run(py, self.t.numel(), || lattensor::tnp::amin(&self.t, ax, keepdims)).map(PyTensor::new)
    }

    /// `x.mean(axis=None, dtype=None, out=None, keepdims=False)`: `tnp.mean`.
    #[pyo3(signature = (axis = None, dtype = None, out = None, keepdims = false))]
    fn mean(
        &self,
        py: Python<'_>,
        axis: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
        out: Option<&Bound<'_, PyAny>>,
        keepdims: bool,
    ) -> PyResult<PyTensor> {
        args::no_out("mean", out)?;
        let (ax, d) = (args::axes(axis)?, opt_dtype(dtype)?);
        run(py, self.t.numel(), || lattensor::tnp::mean(&self.t, ax, d, keepdims)).map(PyTensor::new)
    }

    /// `x.var(axis=None, dtype=None, out=None, ddof=0, keepdims=False)`: `tnp.var`.
    #[pyo3(signature = (axis = None, dtype = None, out = None, ddof = 0, keepdims = false))]
    #[allow(clippy::too_many_arguments)] // NumPy's signature
    fn var(
        &self,
        py: Python<'_>,
        axis: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
        out: Option<&Bound<'_, PyAny>>,
        ddof: usize,
        keepdims: bool,
    ) -> PyResult<PyTensor> {
        args::no_out("var", out)?;
        let (ax, d) = (args::axes(axis)?, opt_dtype(dtype)?);
        run(py, self.t.numel(), || lattensor::tnp::var(&self.t, ax, d, ddof, keepdims)).map(PyTensor::new)
    }

    /// `copy.copy(x)`: a new object with `x`'s values (sharing its memory,
    /// which no operation writes: item assignment gives an object a new tensor).
    fn __copy__(&self) -> PyTensor {
        PyTensor::new(self.t.clone())
    }

    /// `x.copy()` (NumPy's method): as `copy.copy`.
    fn copy(&self) -> PyTensor {
        PyTensor::new(self.t.clone())
    }

    /// `copy.deepcopy(x)`: as `copy.copy`.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyTensor {
        PyTensor::new(self.t.clone())
    }

    /// The last step of item assignment (`x[k] = v`, written in Python): this
    /// object now holds `value`, which has its dtype, shape and weakness. Other
    /// objects sharing the old memory keep it.
    fn _assign(slf: &Bound<'_, Self>, value: &Bound<'_, PyTensor>) -> PyResult<()> {
        let v = value.try_borrow()?.t.clone();
        let mut slf = slf.try_borrow_mut().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err(
                "__setitem__: an operation on another thread is reading this array (it is borrowed); \
                 assign after it returns",
            )
        })?;
        let t = &slf.t;
        if v.dtype() != t.dtype() || v.is_weak() != t.is_weak() || v.shape() != t.shape() {
            return Err(PyValueError::new_err(format!(
                "__setitem__: the updated value is {}{} {:?}, the array {}{} {:?}; they must agree",
                v.dtype(),
                if v.is_weak() { "*" } else { "" },
                v.shape(),
                t.dtype(),
                if t.is_weak() { "*" } else { "" },
                t.shape()
            )));
        }
        slf.t = v;
        Ok(())
    }

    /// A strong copy converted to `dtype` (`tf.cast`).
    fn astype(&self, py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
        let d = crate::args::as_dtype(dtype)?;
        run(py, self.t.numel(), || self.t.cast(d)).map(PyTensor::new)
    }

    /// The same values reinterpreted with a new shape (`tf.reshape`), read
    /// and written in NumPy's `order` ("C" or "F").
    #[pyo3(signature = (*shape, order = "C"))]
    fn reshape(&self, shape: &Bound<'_, PyTuple>, order: &str) -> PyResult<PyTensor> {
        let order = args::order_arg("reshape", order)?;
        let s: Vec<isize> = if shape.len() == 1 && !shape.get_item(0)?.is_instance_of::<pyo3::types::PyInt>() {
            shape.get_item(0)?.extract()?
        } else {
            shape.extract()?
        };
        lattensor::tnp::reshape_in(&self.t, &s, order).py().map(PyTensor::new)
    }

    /// Transposed view (axes reversed).
    #[getter(T)]
    fn transposed(&self) -> PyTensor {
        PyTensor::new(self.t.t())
    }

    // ---- buffer protocol and DLPack ---------------------------------------

    /// Read-only buffer export (zero-copy, strided).
    ///
    /// # Safety
    /// Called by CPython with a valid `view` to fill.
    unsafe fn __getbuffer__(slf: Bound<'_, Self>, view: *mut pyo3::ffi::Py_buffer, flags: c_int) -> PyResult<()> {
        use pyo3::ffi::{PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES, PyBUF_WRITABLE};
        if view.is_null() {
            return Err(PyBufferError::new_err("null view"));
        }
        if flags & PyBUF_WRITABLE == PyBUF_WRITABLE {
            return Err(PyBufferError::new_err("lattensor tensors are immutable: their buffers are read-only"));
        }
        let t = &slf.borrow().t;
        let Some(format) = buffer_format(t.dtype()) else {
            return Err(PyBufferError::new_err(format!(
                "{} has no buffer-protocol format; use numpy.asarray(t) (via ml_dtypes) or DLPack",
                t.dtype()
            )));
        };
        if flags & PyBUF_STRIDES != PyBUF_STRIDES && !t.is_contiguous() {
            return Err(PyBufferError::new_err("tensor is not contiguous; request a strided buffer"));
        }
        let size = t.dtype().size() as isize;
        let layout = t.layout();
        // shape then strides, and a clone of the tensor holding the memory (item
        // assignment may give `slf` another tensor meanwhile), freed in __releasebuffer__
        let mut dims: Vec<isize> = layout.shape().iter().map(|&d| d as isize).collect();
        dims.extend(layout.strides().iter().map(|&s| s * size));
        let ndim = layout.rank();
        let base = t.storage_bytes().as_ptr();
        let data = if t.numel() == 0 { base } else { base.wrapping_add(layout.offset() * t.dtype().size()) };
        let export = Box::into_raw(Box::new(BufferExport { dims, _memory: t.clone() }));
        // SAFETY: CPython hands us a writable `view`; the pointers stored in it stay
        // valid until __releasebuffer__: `data` points into storage kept alive by the
        // tensor clone in `export`, whose `dims` the shape and strides point into
        // (leaked above, freed there), and `format` is a static string.
        unsafe {
            let dp = (*export).dims.as_mut_ptr();
            (*view).buf = data.cast_mut().cast();
            (*view).obj = slf.clone().into_any().into_ptr();
            (*view).len = (t.numel() as isize) * size;
            (*view).readonly = 1;
            (*view).itemsize = size;
            (*view).format =
                if flags & PyBUF_FORMAT == PyBUF_FORMAT { format.as_ptr().cast_mut() } else { std::ptr::null_mut() };
            (*view).ndim = ndim as c_int;
            (*view).shape = if flags & PyBUF_ND == PyBUF_ND { dp } else { std::ptr::null_mut() };
            (*view).strides =
                if flags & PyBUF_STRIDES == PyBUF_STRIDES { dp.wrapping_add(ndim) } else { std::ptr::null_mut() };
            (*view).suboffsets = std::ptr::null_mut();
            (*view).internal = export.cast();
        }
        Ok(())
    }

    /// # Safety
    /// Called by CPython with a view this object filled.
    unsafe fn __releasebuffer__(&self, view: *mut pyo3::ffi::Py_buffer) {
        // SAFETY: `internal` holds the `BufferExport` boxed in __getbuffer__, freed once here.
        unsafe {
            let p = (*view).internal.cast::<BufferExport>();
            if !p.is_null() {
                drop(Box::from_raw(p));
            }
        }
    }

    /// DLPack export (zero-copy, read-only; legacy or versioned capsule).
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<&Bound<'py, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(u32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        crate::dlpack::export(py, &self.t, stream, max_version, dl_device, copy)
    }

    fn __dlpack_device__(&self) -> (u32, i32) {
        (1, 0) // kDLCPU, device 0
    }
}

/// The right operand of a forward binary operator (`self + other`, …).
enum Right<'a> {
    /// An operand the tensor converts.
    Arg(args::Arg<'a>),
    /// What the operand's own reflected method returned.
    Handled(Py<PyAny>),
}

impl PyTensor {
    /// `other` as the right operand of `self ∘ other`, as TF's operators take it.
    ///
    /// An operand of a type no tensor converts (not a number, sequence, array or
    /// tensor) is handed to its reflected method (`reflected`, e.g. `"__radd__"`)
    /// with this tensor, so an object that knows tensors can implement the
    /// operator. If it has none, declines (`NotImplemented`) or fails with
    /// `TypeError`/`ValueError`, the conversion error stands (a `ValueError`, as
    /// TF's). Python itself would try the reflected method only after a
    /// `NotImplemented`, and raise `TypeError` when nothing handles it.
    fn right<'a>(&self, other: &'a Bound<'_, PyAny>, reflected: &str) -> PyResult<Right<'a>> {
        let e = match arg(other) {
            Ok(a) => return Ok(Right::Arg(a)),
            Err(e) => e,
        };
        let py = other.py();
        // a sequence's reflected methods (list * n) are not arithmetic with a tensor
        if other.is_instance_of::<pyo3::types::PyList>()
            || other.is_instance_of::<PyTuple>()
            || !other.get_type().hasattr(reflected)?
        {
            return Err(e);
        }
        let me = Py::new(py, PyTensor::new(self.t.clone()))?;
        match other.call_method1(reflected, (me,)) {
            Ok(r) if !r.is(py.NotImplemented().bind(py)) => Ok(Right::Handled(r.unbind())),
            Ok(_) => Err(e),
            Err(r) if r.is_instance_of::<PyTypeError>(py) || r.is_instance_of::<PyValueError>(py) => Err(e),
            Err(r) => Err(r),
        }
    }
}

/// An operator's tensor result as a Python object.
fn tensor_obj(py: Python<'_>, r: PyResult<Tensor>) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, PyTensor::new(r?))?.into_any())
}

fn no_modulo(m: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match m {
        Some(m) if !m.is_none() => Err(PyTypeError::new_err("pow() with a modulus is not supported for tensors")),
        _ => Ok(()),
    }
}

fn matmul_work(a: &Tensor, b: &Tensor) -> usize {
    // multiply-adds: (batch·m·k) · n
    a.numel().saturating_mul(b.shape().last().copied().unwrap_or(1))
}

fn one_element(t: &Tensor, what: &str) -> PyResult<()> {
    if t.numel() != 1 {
        return Err(PyTypeError::new_err(format!(
            "{what}() needs a tensor with one element, got shape {:?}",
            t.shape()
        )));
    }
    Ok(())
}

/// The struct-module format of a dtype (`None` for bfloat16 and the
/// low-precision dtypes, which have none).
fn buffer_format(d: DType) -> Option<&'static CStr> {
    Some(match d {
        DType::Bool => c"?",
        DType::U8 => c"B",
        DType::U16 => c"H",
        DType::U32 => c"I",
        DType::U64 => c"Q",
        DType::I8 => c"b",
        DType::I16 => c"h",
        DType::I32 => c"i",
        DType::I64 => c"q",
        DType::F16 => c"e",
        DType::F32 => c"f",
        DType::F64 => c"d",
        DType::C64 => c"Zf",
        DType::C128 => c"Zd",
        DType::BF16
        | DType::F8E4M3Fn
        | DType::F8E5M2
        | DType::F8E4M3Fnuz
        | DType::F8E5M2Fnuz
        | DType::F8E8M0Fnu
        | DType::F4E2M1Fn
        | DType::I4
        | DType::U4 => return None,
    })
}

/// What a buffer-protocol export holds until it is released: its shape and
/// strides (in bytes), and the tensor whose memory it lends.
struct BufferExport {
    dims: Vec<isize>,
    _memory: Tensor,
}

/// TF's `numpy=` text: Python's repr of the item for 0-d tensors, NumPy's repr
/// (`array([...], dtype=...)`) for arrays when `repr`, NumPy's str otherwise.
fn numpy_text(slf: &Bound<'_, PyTensor>, repr: bool) -> PyResult<String> {
    let t = &slf.borrow().t;
    if t.rank() == 0 {
        return Ok(lattensor::display::numpy_str(t));
    }
    let view = args::numpy_view(slf.py(), t)?;
    Ok(if repr { view.repr()? } else { view.str()? }.to_string())
}

/// Python index → slice arguments: ints, slices, `None`, `...`, 0-d integer tensors.
fn slice_args(key: &Bound<'_, PyAny>, rank: usize) -> PyResult<Vec<SliceArg>> {
    let items: Vec<Bound<'_, PyAny>> = match key.cast::<PyTuple>() {
        Ok(t) => t.iter().collect(),
        Err(_) => vec![key.clone()],
    };
    let consumes = |x: &Bound<'_, PyAny>| !(x.is_none() || x.is_instance_of::<PyEllipsis>());
    let used = items.iter().filter(|x| consumes(x)).count();
    let mut out = Vec::with_capacity(rank + items.len());
    let mut seen_ellipsis = false;
    for x in &items {
        if x.is_none() {
            out.push(SliceArg::NewAxis);
        } else if x.is_instance_of::<PyEllipsis>() {
            if seen_ellipsis {
                return Err(crate::errors::invalid_index("an index can only have a single ellipsis ('...')"));
            }
            seen_ellipsis = true;
            out.extend(std::iter::repeat_n(SliceArg::FULL, rank.saturating_sub(used)));
        } else if let Ok(s) = x.cast::<PySlice>() {
            let get = |name: &str| -> PyResult<Option<isize>> {
                let v = s.getattr(name)?;
                if v.is_none() { Ok(None) } else { Ok(Some(index_value(&v)?)) }
            };
            let step = get("step")?.unwrap_or(1);
            if step == 0 {
                return Err(PyValueError::new_err("slice step cannot be zero"));
            }
            out.push(SliceArg::Range { start: get("start")?, stop: get("stop")?, step });
        } else {
            out.push(SliceArg::Index(index_value(x)?));
        }
    }
    Ok(out)
}

fn index_value(x: &Bound<'_, PyAny>) -> PyResult<isize> {
    if x.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyIndexError::new_err("boolean indices (masks) are not supported; use basic indexing"));
    }
    if let Ok(t) = x.cast::<PyTensor>() {
        let t = &t.borrow().t;
        if t.rank() == 0 && t.dtype().is_integer() {
            return t.item::<i64>().py().map(|v| v as isize);
        }
    }
    match x.call_method0("__index__") {
        Ok(v) => v.extract::<isize>().map_err(|_| PyIndexError::new_err("index out of range")),
        Err(_) => Err(PyIndexError::new_err(format!(
            "only integers, slices (`:`), ellipsis (`...`) and None are valid indices, not {}; \
             advanced (array) indexing is not supported",
            x.get_type().name()?
        ))),
    }
}
