//! `lattensor._lattensor._GradientTape`: the gradient tape's core, with flat
//! arguments. `lattensor.GradientTape` (python/lattensor/_autodiff.py) adds
//! TF's context managers and nested structures (lists, tuples, dicts) of
//! targets and sources.

use std::sync::Arc;

use lattensor::{GradientTape, Source, Tensor, UnconnectedGradients, Variable};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyWeakrefReference};

use crate::args;
use crate::classes::{PyTensor, PyVariable};
use crate::errors::IntoPyResult;

/// A source: a `Variable` or anything that converts to a tensor.
enum Src {
    Var(Arc<Variable>),
    Tensor(Tensor),
}

fn source_of(obj: &Bound<'_, PyAny>) -> PyResult<Src> {
    if let Ok(v) = obj.cast::<PyVariable>() {
        return Ok(Src::Var(Arc::clone(&v.get().v)));
    }
    Ok(Src::Tensor(args::to_tensor(obj)?))
}

impl Src {
    fn source(&self) -> Source<'_> {
        match self {
            Src::Var(v) => Source::Variable(v),
            Src::Tensor(t) => Source::Tensor(t),
        }
    }
}

fn unconnected(zero: bool) -> UnconnectedGradients {
    if zero { UnconnectedGradients::Zero } else { UnconnectedGradients::None }
}

fn wrap(py: Python<'_>, g: Option<Tensor>) -> PyResult<Py<PyAny>> {
    match g {
        Some(t) => Ok(Py::new(py, PyTensor::new(t))?.into_any()),
        None => Ok(py.None()),
    }
}

/// The tape core (one thread, like TF's tapes).
#[pyclass(name = "_GradientTape", module = "lattensor", unsendable)]
pub struct PyGradientTape {
    tape: GradientTape,
}

#[pymethods]
impl PyGradientTape {
    #[new]
    fn new(persistent: bool, watch_accessed_variables: bool) -> Self {
        PyGradientTape { tape: GradientTape::with_options(persistent, watch_accessed_variables) }
    }

    fn activate(&self) -> PyResult<()> {
        self.tape.activate().py()
    }

    fn deactivate(&self) {
        self.tape.deactivate();
    }

    fn set_recording(&self, on: bool) {
        self.tape.set_recording(on);
    }

    fn reset(&self) {
        self.tape.reset();
    }

    /// Watches a tensor or a variable.
    fn watch(&self, obj: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(v) = obj.cast::<PyVariable>() {
            self.tape.watch_variable(&v.get().v);
            if let Ok(w) = PyWeakrefReference::new(v) {
                crate::classes::READ_VARIABLES.with(|m| m.borrow_mut().insert(v.get().v.tape_id(), w.unbind()));
            }
            return Ok(());
        }
        match obj.cast::<PyTensor>() {
            Ok(t) => {
                self.tape.watch(&t.borrow().t);
                Ok(())
            }
            Err(_) => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "GradientTape.watch: expected a Tensor or a Variable, got {}; convert it with tf.constant first \
                 (a new tensor made from it would not be the one the computation uses)",
                obj.get_type().name()?
            ))),
        }
    }

    /// The variables the tape watches, in the order first watched.
    fn watched_variables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ids = self.tape.watched_variable_ids();
        let objs: Vec<Py<PyAny>> = crate::classes::READ_VARIABLES.with(|m| {
            let m = m.borrow();
            ids.iter().filter_map(|id| m.get(id)).filter_map(|w| w.bind(py).upgrade()).map(|o| o.unbind()).collect()
        });
        PyList::new(py, objs)
    }

    /// Gradients of the flat `targets` with respect to the flat `sources`.
    #[pyo3(signature = (targets, sources, output_gradients, zero))]
    fn gradient(
        &self,
        py: Python<'_>,
        targets: Vec<Bound<'_, PyAny>>,
        sources: Vec<Bound<'_, PyAny>>,
        output_gradients: Option<Vec<Option<Bound<'_, PyAny>>>>,
        zero: bool,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let targets: Vec<Tensor> = targets.iter().map(args::to_tensor).collect::<PyResult<_>>()?;
        let srcs: Vec<Src> = sources.iter().map(source_of).collect::<PyResult<_>>()?;
        let og: Option<Vec<Tensor>> = match output_gradients {
            Some(list) => Some(
                list.iter()
                    .zip(&targets)
                    .map(|(g, t)| match g {
                        Some(g) => args::to_tensor(g),
                        None => lattensor::ones_like(t, None).py(),
                    })
                    .collect::<PyResult<_>>()?,
            ),
            None => None,
        };
        let sources: Vec<Source<'_>> = srcs.iter().map(Src::source).collect();
        let refs: Vec<&Tensor> = targets.iter().collect();
        let g = self.tape.gradient_with(&refs, &sources, og.as_deref(), unconnected(zero)).py()?;
        g.into_iter().map(|g| wrap(py, g)).collect()
    }

    #[pyo3(signature = (target, source, zero, batch))]
    fn jacobian(
        &self,
        py: Python<'_>,
        target: &Bound<'_, PyAny>,
        source: &Bound<'_, PyAny>,
        zero: bool,
        batch: bool,
    ) -> PyResult<Py<PyAny>> {
        let target = args::to_tensor(target)?;
        let src = source_of(source)?;
        let s = src.source();
        let j = if batch {
            self.tape.batch_jacobian(&target, s, unconnected(zero))
        } else {
            self.tape.jacobian(&target, s, unconnected(zero))
        };
        wrap(py, j.py()?)
    }
}

/// `tf.custom_gradient`'s core: runs `f(*inputs)` (which returns `(y,
/// grad_fn)`) untaped and records `y` with `grad_fn` as its gradient.
#[pyfunction]
fn custom_gradient_call(py: Python<'_>, f: Py<PyAny>, inputs: Vec<Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let tensors: Vec<Tensor> = inputs.iter().map(args::to_tensor).collect::<PyResult<_>>()?;
    let refs: Vec<&Tensor> = tensors.iter().collect();
    let objs: Vec<Py<PyAny>> =
        tensors.iter().map(|t| Ok(Py::new(py, PyTensor::new(t.clone()))?.into_any())).collect::<PyResult<_>>()?;
    let out = lattensor::custom_gradient(&refs, || {
        let r = f.bind(py).call1(pyo3::types::PyTuple::new(py, &objs).map_err(to_lib)?).map_err(to_lib)?;
        let (y, grad_fn): (Bound<'_, PyAny>, Py<PyAny>) = r.extract().map_err(|e| {
            to_lib(pyo3::exceptions::PyTypeError::new_err(format!(
                "custom_gradient: the function must return (output, grad_fn): {e}"
            )))
        })?;
        let y = args::to_tensor(&y).map_err(to_lib)?;
        let n = objs.len();
        let vjp = move |g: &[Tensor]| -> lattensor::Result<Vec<Option<Tensor>>> {
            Python::attach(|py| {
                let gs: Vec<Py<PyAny>> = g
                    .iter()
                    .map(|t| Ok(Py::new(py, PyTensor::new(t.clone()))?.into_any()))
                    .collect::<PyResult<_>>()
                    .map_err(to_lib)?;
                let r = grad_fn.bind(py).call1(pyo3::types::PyTuple::new(py, &gs).map_err(to_lib)?).map_err(to_lib)?;
                let items: Vec<Bound<'_, PyAny>> =
                    if n == 1 && !(r.is_instance_of::<PyList>() || r.is_instance_of::<pyo3::types::PyTuple>()) {
                        vec![r]
                    } else {
                        r.extract().map_err(to_lib)?
                    };
                items
                    .iter()
                    .map(|o| if o.is_none() { Ok(None) } else { args::to_tensor(o).map(Some).map_err(to_lib) })
                    .collect()
            })
        };
        Ok((y, vjp))
    });
    Ok(Py::new(py, PyTensor::new(out.py()?))?.into_any())
}

/// A Python exception carried through the library's error type.
fn to_lib(e: PyErr) -> lattensor::Error {
    lattensor::Error::InvalidArgument(format!("custom_gradient: {e}"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGradientTape>()?;
    m.add_function(wrap_pyfunction!(custom_gradient_call, m)?)?;
    Ok(())
}
