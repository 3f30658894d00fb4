//! The Python classes' data: `Tensor`, `Variable`, `DType`.
//!
//! Their methods live in tensor.rs, variable.rs and dtype.rs; the structs
//! sit here, below the argument conversion (args.rs) that recognises them,
//! so that no module imports one above it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use lattensor::{DType, Tensor, Variable};
use pyo3::prelude::*;
use pyo3::types::PyWeakrefReference;

/// An n-dimensional array with a dtype and a weak flag.
///
/// Made by `lattensor.constant`, the ops, or `lattensor.from_dlpack`.
/// Operators promote through the lattice of the current promotion mode.
/// The values a `Tensor` holds never change in place: item assignment
/// (`x[k] = v`, for the Array API) gives the object a new tensor, so other
/// tensors sharing its memory (slices, NumPy views, DLPack capsules) keep
/// theirs. Hence the class is not `frozen`: PyO3's borrow flag guards the swap.
#[pyclass(name = "Tensor", module = "lattensor", weakref)]
pub struct PyTensor {
    pub t: Tensor,
}

/// The owner of memory lent to NumPy or the buffer protocol: a tensor that
/// no Python code can reach to reassign, so the memory lives as long as the
/// borrower holds it, whatever happens to the `Tensor` object it came from.
#[pyclass(name = "_TensorMemory", module = "lattensor", frozen)]
pub struct TensorMemory {
    _t: Tensor,
}

impl TensorMemory {
    /// A Python object keeping `t`'s memory alive.
    pub fn hold<'py>(py: Python<'py>, t: &Tensor) -> PyResult<Bound<'py, PyAny>> {
        Ok(Bound::new(py, TensorMemory { _t: t.clone() })?.into_any())
    }
}

impl PyTensor {
    #[inline]
    pub fn new(t: Tensor) -> Self {
        PyTensor { t }
    }
}

/// A mutable tensor with a fixed dtype and shape, like `tf.Variable`.
///
/// `assign`, `assign_add` and `assign_sub` promote the value with the
/// variable's dtype; if that is not the variable's dtype they raise TF's
/// "Variable dtype is immutable" `TypeError`. Updates are atomic, so a
/// variable can be shared between threads.
#[pyclass(name = "Variable", module = "lattensor", frozen, weakref)]
pub struct PyVariable {
    pub v: Arc<Variable>,
    pub(crate) name: String,
    pub(crate) trainable: Py<PyAny>,
}

/// A tensor element type, like `tf.DType`.
///
/// Compares equal to the same dtype given as a `DType`, a name (`"float32"`),
/// or a NumPy dtype or scalar type (`np.float32`, `np.dtype("float32")`).
#[pyclass(name = "DType", module = "lattensor", frozen)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyDType {
    pub d: DType,
}

thread_local! {
    /// The Python variables read while a tape records, by tape id (weakly), so
    /// that `watched_variables` can return the objects.
    pub static READ_VARIABLES: RefCell<HashMap<u64, Py<PyWeakrefReference>>> = RefCell::new(HashMap::new());
}

/// Notes a variable read: called when a `Variable` is converted to a tensor.
pub fn variable_read(v: &Bound<'_, PyVariable>) {
    if !lattensor::autodiff::is_recording() {
        return;
    }
    let id = v.get().v.tape_id();
    if let Ok(w) = PyWeakrefReference::new(v) {
        READ_VARIABLES.with(|m| m.borrow_mut().insert(id, w.unbind()));
    }
}
