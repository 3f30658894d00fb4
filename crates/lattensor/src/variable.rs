//! [`Variable`]: mutable, thread-safe tensor state with TF's dtype rules.

use std::sync::{Mutex, MutexGuard};

use crate::core::error::{Error, Result};
use crate::core::tape;
use crate::ops::creation::Value;
use crate::promote::{self, LatticeType};
use crate::{DType, Tensor, ops};

/// A mutable tensor whose dtype never changes, like `tf.Variable`.
///
/// A variable is always strong. `assign`, `assign_add` and `assign_sub`
/// promote the offered value with the variable's dtype (the variable counts
/// as strong); if the result is not the variable's dtype, the call fails with
/// TF's "Variable dtype is immutable" error instead of changing the dtype.
/// In `Safe` mode a pair SAFE forbids fails with the promotion error first.
///
/// Updates are atomic: a variable can be shared between threads (`&Variable`
/// is `Sync`) and concurrent `assign_add`s never lose an update.
///
/// ```
/// use lattensor::{DType, Tensor, Variable};
/// let a = Variable::new(10).unwrap();            // int32 (strong) from a weak literal
/// a.assign_add(&Tensor::scalar(5i16)).unwrap();  // int16 promotes into int32
/// assert_eq!(a.read().item::<i32>().unwrap(), 15);
/// assert_eq!(a.to_string(), "<Variable shape=() dtype=int32, numpy=15>");
/// let err = a.assign(2.5).unwrap_err();          // int32 ⊔ f32* = f64*: refused
/// assert!(err.to_string().starts_with("Variable dtype is immutable"));
/// ```
pub struct Variable {
    value: Mutex<Tensor>,
    dtype: DType,
    shape: Vec<usize>,
    /// The variable's identity on gradient tapes: every value it holds carries it.
    id: u64,
    trainable: bool,
}

impl Variable {
    /// A variable holding `initial` (made strong, dtype kept).
    ///
    /// # Errors
    /// As [`crate::constant`].
    pub fn new(initial: impl Into<Value>) -> Result<Variable> {
        let t = crate::constant(initial)?.contiguous()?.with_weak(false).untracked();
        let id = tape::fresh_id();
        t.tape_id.set(id);
        Ok(Variable { dtype: t.dtype(), shape: t.shape().to_vec(), value: Mutex::new(t), id, trainable: true })
    }

    /// The same variable, trainable or not (`tf.Variable(..., trainable=)`):
    /// gradient tapes watch trainable variables when they are read.
    pub fn with_trainable(mut self, trainable: bool) -> Variable {
        self.trainable = trainable;
        self
    }

    /// Whether tapes watch the variable when it is read.
    pub fn trainable(&self) -> bool {
        self.trainable
    }

    /// The variable's identity on gradient tapes (see
    /// [`GradientTape::watched_variable_ids`](crate::GradientTape::watched_variable_ids)).
    pub fn tape_id(&self) -> u64 {
        self.id
    }

    /// The current value, without telling the tapes it was read.
    pub(crate) fn read_untracked(&self) -> Tensor {
        self.lock().clone()
    }

    /// Stores `t` as the new value, carrying the variable's identity.
    fn store(&self, guard: &mut MutexGuard<'_, Tensor>, t: Tensor) -> Tensor {
        let t = t.untracked();
        t.tape_id.set(self.id);
        **guard = t.clone();
        t
    }

    /// The variable's dtype.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The variable's shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The current value (a snapshot; later updates do not change it).
    ///
    /// A trainable variable read while a gradient tape records is watched
    /// by that tape (unless it was made with `watch_accessed_variables =
    /// false`): gradients with respect to the variable sum over its reads.
    pub fn read(&self) -> Tensor {
        if self.trainable {
            tape::variable_read(self.id);
        }
        self.lock().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Tensor> {
        // A panic while holding the lock cannot leave a half-written tensor:
        // the new value is computed first and stored in one move.
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Converts `value` to the variable's dtype and shape, or explains why not.
    fn convert(&self, op: &str, value: Value) -> Result<Tensor> {
        let vt = value.lattice_type()?;
        let r = promote::promote_for(op, LatticeType::strong(self.dtype), vt, promote::current_mode())?;
        if r.dtype != self.dtype {
            return Err(Error::VariableDType { op: op.to_string(), var: self.dtype, value: vt });
        }
        let t = crate::constant(value)?;
        let t = if t.dtype() == self.dtype { t } else { t.cast(self.dtype)? };
        // TF's variables refuse another shape in Python, with `ValueError`
        let t = t.broadcast_to(&self.shape).map_err(|_| {
            Error::InvalidValue(format!(
                "{op}: the value of shape {:?} does not broadcast to the variable's shape {:?}; reshape it first",
                t.shape(),
                self.shape
            ))
        })?;
        Ok(t.with_weak(false))
    }

    /// Replaces the value; returns the new value.
    ///
    /// # Errors
    /// [`Error::VariableDType`] if the value's promotion with the variable's
    /// dtype is another dtype; [`Error::Promotion`] in `Safe`/`Strict` modes for
    /// forbidden pairs; [`Error::InvalidValue`] if the value does not broadcast
    /// to the variable's shape.
    pub fn assign(&self, value: impl Into<Value>) -> Result<Tensor> {
        let t = tape::paused(|| self.convert("assign", value.into())?.contiguous())?;
        Ok(self.store(&mut self.lock(), t))
    }

    /// Adds `value` in place (atomically); returns the new value.
    ///
    /// # Errors
    /// As [`Variable::assign`].
    pub fn assign_add(&self, value: impl Into<Value>) -> Result<Tensor> {
        tape::paused(|| {
            let v = self.convert("assign_add", value.into())?;
            let mut guard = self.lock();
            let new = ops::add(&*guard, &v)?;
            Ok(self.store(&mut guard, new))
        })
    }

    /// Subtracts `value` in place (atomically); returns the new value.
    ///
    /// # Errors
    /// As [`Variable::assign`].
    pub fn assign_sub(&self, value: impl Into<Value>) -> Result<Tensor> {
        tape::paused(|| {
            let v = self.convert("assign_sub", value.into())?;
            let mut guard = self.lock();
            let new = ops::subtract(&*guard, &v)?;
            Ok(self.store(&mut guard, new))
        })
    }
}

impl std::fmt::Display for Variable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = self.read_untracked();
        write!(
            f,
            "<Variable shape={} dtype={}, numpy={}>",
            crate::io::display::shape_str(t.shape()),
            t.dtype(),
            crate::io::display::numpy_str(&t)
        )
    }
}

impl std::fmt::Debug for Variable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}
