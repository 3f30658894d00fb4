//! [`GradientTape`]: what the user holds; the records live in `core::tape`.

use std::cell::Cell;
use std::rc::Rc;

use super::backprop;
use crate::core::error::{Error, Result};
use crate::core::tape::{self, CustomVjp, SharedTape, TapeOp, TapeState};
use crate::{DType, Tensor, Variable};

/// What `gradient` returns for a source the target does not depend on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnconnectedGradients {
    /// `None` (TF's default).
    #[default]
    None,
    /// Zeros of the source's shape and dtype.
    Zero,
}

/// A source to differentiate with respect to: a tensor or a variable.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// A tensor the tape watched (or computed from one it watched).
    Tensor(&'a Tensor),
    /// A variable (read under the tape, or watched).
    Variable(&'a Variable),
}

impl<'a> From<&'a Tensor> for Source<'a> {
    fn from(t: &'a Tensor) -> Self {
        Source::Tensor(t)
    }
}

impl<'a> From<&'a Variable> for Source<'a> {
    fn from(v: &'a Variable) -> Self {
        Source::Variable(v)
    }
}

impl Source<'_> {
    fn id(&self) -> u64 {
        match self {
            Source::Tensor(t) => t.tape_id.get(),
            Source::Variable(v) => v.tape_id(),
        }
    }

    fn like(&self) -> Tensor {
        match self {
            Source::Tensor(t) => (*t).clone(),
            Source::Variable(v) => v.read_untracked(),
        }
    }
}

/// Records ops for reverse-mode differentiation, like `tf.GradientTape`.
///
/// A tape records while it is active — inside [`record`](Self::record), or
/// between [`activate`](Self::activate) and [`deactivate`](Self::deactivate)
/// (Python's `with` block). It tracks the tensors it [watches](Self::watch),
/// every trainable variable read while it records (unless made with
/// `watch_accessed_variables = false`), and everything computed from them.
///
/// A tape belongs to the thread that made it (it is not `Send`), as TF's
/// tapes are thread-local.
///
/// ```
/// use lattensor::{ops, GradientTape, Tensor, Variable};
/// let w = Variable::new(vec![0.5f32, -1.0]).unwrap();
/// let x = Tensor::from_vec(vec![2.0f32, 3.0], &[2]).unwrap();
/// let tape = GradientTape::new();
/// let loss = tape.record(|| ops::reduce_sum(&ops::multiply(&w.read(), &x)?, None, false)).unwrap();
/// let g = tape.gradient(&loss, &[&w]).unwrap();
/// assert_eq!(g[0].as_ref().unwrap().to_vec::<f32>().unwrap(), vec![2.0, 3.0]);
/// ```
pub struct GradientTape {
    state: SharedTape,
    persistent: bool,
    used: Cell<bool>,
}

impl Default for GradientTape {
    fn default() -> Self {
        GradientTape::new()
    }
}

impl GradientTape {
    /// A non-persistent tape (one `gradient` call) that watches the
    /// trainable variables read while it records.
    pub fn new() -> GradientTape {
        GradientTape::with_options(false, true)
    }

    /// A tape with TF's options: `persistent` allows several `gradient`
    /// calls; `watch_accessed_variables = false` tracks only what is watched.
    pub fn with_options(persistent: bool, watch_accessed_variables: bool) -> GradientTape {
        let state = TapeState { recording: true, watch_accessed_variables, ..TapeState::default() };
        GradientTape { state: Rc::new(std::cell::RefCell::new(state)), persistent, used: Cell::new(false) }
    }

    /// Whether the tape allows several `gradient` calls.
    pub fn is_persistent(&self) -> bool {
        self.persistent
    }

    /// Starts recording on this thread (TF's `__enter__`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if the tape is already active.
    pub fn activate(&self) -> Result<()> {
        if tape::is_active(&self.state) {
            return Err(Error::InvalidArgument(
                "GradientTape: the tape is already recording; nest a new tape for higher-order gradients".into(),
            ));
        }
        tape::push(&self.state);
        Ok(())
    }

    /// Stops recording (TF's `__exit__`); the records stay for `gradient`.
    pub fn deactivate(&self) {
        tape::pop(&self.state);
    }

    /// Runs `f` with the tape recording, then stops (also if `f` panics).
    pub fn record<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Exit<'a>(&'a SharedTape, bool);
        impl Drop for Exit<'_> {
            fn drop(&mut self) {
                if self.1 {
                    tape::pop(self.0);
                }
            }
        }
        let pushed = !tape::is_active(&self.state);
        if pushed {
            tape::push(&self.state);
        }
        let _exit = Exit(&self.state, pushed);
        f()
    }

    /// Runs `f` without recording on this tape (TF's `stop_recording`).
    pub fn stop_recording<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Resume<'a>(&'a SharedTape, bool);
        impl Drop for Resume<'_> {
            fn drop(&mut self) {
                tape::set_recording(self.0, self.1);
            }
        }
        let was = self.state.borrow().recording;
        tape::set_recording(&self.state, false);
        let _resume = Resume(&self.state, was);
        f()
    }

    /// Pauses (`false`) or resumes (`true`) recording; what the Python
    /// `stop_recording` context manager calls.
    pub fn set_recording(&self, on: bool) {
        tape::set_recording(&self.state, on);
    }

    /// Tracks `t`: gradients with respect to it, and to what is computed
    /// from it while the tape records, can be taken. Integer and bool tensors
    /// are not tracked (they have no gradient, as in TF).
    pub fn watch(&self, t: &Tensor) {
        if t.dtype().is_inexact() {
            let id = t.tape_id.ensure();
            self.state.borrow_mut().tracked.insert(id);
        }
    }

    /// Tracks a variable, as reading it under a tape that watches accessed variables does.
    pub fn watch_variable(&self, v: &Variable) {
        if v.dtype().is_inexact() {
            let mut st = self.state.borrow_mut();
            if st.tracked.insert(v.tape_id()) {
                st.variables.push(v.tape_id());
            }
        }
    }

    /// The identities of the variables the tape watches, in the order first
    /// watched (compare with [`Variable::tape_id`]).
    pub fn watched_variable_ids(&self) -> Vec<u64> {
        self.state.borrow().variables.clone()
    }

    /// Forgets everything recorded and watched (TF's `reset`).
    pub fn reset(&self) {
        let mut st = self.state.borrow_mut();
        st.tracked.clear();
        st.entries.clear();
        st.variables.clear();
        self.used.set(false);
    }

    /// The gradient of `target` with respect to each source (`None` where
    /// the target does not depend on it, or it is not a float or complex).
    ///
    /// # Errors
    /// As [`gradient_with`](Self::gradient_with).
    pub fn gradient<'s>(
        &self,
        target: &Tensor,
        sources: &[impl Into<Source<'s>> + Copy],
    ) -> Result<Vec<Option<Tensor>>> {
        let sources: Vec<Source<'s>> = sources.iter().map(|&s| s.into()).collect();
        self.gradient_with(&[target], &sources, None, UnconnectedGradients::None)
    }

    /// `tf.GradientTape.gradient` in full: the gradient of the sum of
    /// `targets` (each weighted by its `output_gradients` entry, ones by
    /// default) with respect to each source.
    ///
    /// ```
    /// use lattensor::{ops, GradientTape, Source, Tensor, UnconnectedGradients};
    /// let x = Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
    /// let u = Tensor::scalar(7.0f64);
    /// let tape = GradientTape::with_options(true, true);
    /// tape.watch(&x);
    /// let y = tape.record(|| ops::multiply(&x, &x)).unwrap();
    /// let w = Tensor::from_vec(vec![10.0f64, 1.0], &[2]).unwrap();
    /// let g = tape.gradient_with(&[&y], &[Source::from(&x), Source::from(&u)], Some(&[w]), UnconnectedGradients::Zero).unwrap();
    /// assert_eq!(g[0].as_ref().unwrap().to_vec::<f64>().unwrap(), vec![20.0, 4.0]);
    /// assert_eq!(g[1].as_ref().unwrap().item::<f64>().unwrap(), 0.0);
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if a non-persistent tape already computed
    /// gradients, or an output gradient's shape differs from its target's;
    /// any error of the ops the gradient rules run.
    pub fn gradient_with(
        &self,
        targets: &[&Tensor],
        sources: &[Source<'_>],
        output_gradients: Option<&[Tensor]>,
        unconnected: UnconnectedGradients,
    ) -> Result<Vec<Option<Tensor>>> {
        self.claim("gradient")?;
        if let Some(og) = output_gradients
            && og.len() != targets.len()
        {
            return Err(Error::InvalidArgument(format!(
                "GradientTape.gradient: {} output_gradients for {} targets; give one per target",
                og.len(),
                targets.len()
            )));
        }
        let mut seeds = Vec::with_capacity(targets.len());
        for (i, t) in targets.iter().enumerate() {
            seeds.push(match output_gradients {
                Some(og) => {
                    let g = &og[i];
                    if !crate::core::layout::same_shape(g.shape(), t.shape()) {
                        return Err(Error::ShapeMismatch {
                            op: "GradientTape.gradient".into(),
                            lhs: t.shape().to_vec(),
                            rhs: g.shape().to_vec(),
                            hint: "each output gradient must have its target's shape".into(),
                        });
                    }
                    Some(g.clone())
                }
                None => None,
            });
        }
        let result = self.run(targets, seeds, sources, unconnected);
        self.release();
        result
    }

    /// The Jacobian of `target` with respect to `source`: shape
    /// `target.shape + source.shape` (`None` if unconnected and
    /// `unconnected` is `None`). One backward pass per target element.
    ///
    /// ```
    /// use lattensor::{ops, GradientTape, Tensor, UnconnectedGradients};
    /// let x = Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
    /// let tape = GradientTape::new();
    /// tape.watch(&x);
    /// let y = tape.record(|| ops::multiply(&x, &x)).unwrap();
    /// let j = tape.jacobian(&y, &x, UnconnectedGradients::None).unwrap().unwrap();
    /// assert_eq!(j.to_vec::<f64>().unwrap(), vec![2.0, 0.0, 0.0, 4.0]);
    /// ```
    ///
    /// # Errors
    /// As [`gradient_with`](Self::gradient_with).
    pub fn jacobian<'s>(
        &self,
        target: &Tensor,
        source: impl Into<Source<'s>>,
        unconnected: UnconnectedGradients,
    ) -> Result<Option<Tensor>> {
        self.claim("jacobian")?;
        let source = source.into();
        let result = self.jacobian_rows(target, source, target.numel(), |k| one_hot(target.shape(), target.dtype(), k));
        self.release();
        let rows = match result? {
            Some(rows) => rows,
            None => return self.unconnected_jacobian(target.shape(), &source, unconnected),
        };
        let mut shape: Vec<isize> = target.shape().iter().map(|&d| d as isize).collect();
        shape.extend(source.like().shape().iter().map(|&d| d as isize));
        stack_rows(&rows, &source.like(), &shape).map(Some)
    }

    /// The Jacobian of each batch row of `target` (`[b, …]`) with respect to
    /// the same row of `source` (`[b, …]`), assuming rows do not interact:
    /// shape `[b] + target.shape[1..] + source.shape[1..]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if either is a scalar or their first
    /// dimensions differ; as [`gradient_with`](Self::gradient_with).
    pub fn batch_jacobian<'s>(
        &self,
        target: &Tensor,
        source: impl Into<Source<'s>>,
        unconnected: UnconnectedGradients,
    ) -> Result<Option<Tensor>> {
        let source = source.into();
        let like = source.like();
        if target.rank() == 0 || like.rank() == 0 || target.shape()[0] != like.shape()[0] {
            return Err(Error::InvalidArgument(format!(
                "GradientTape.batch_jacobian: target {:?} and source {:?} need a common first (batch) dimension",
                target.shape(),
                like.shape()
            )));
        }
        self.claim("batch_jacobian")?;
        let b = target.shape()[0];
        let per_row = target.numel().checked_div(b).unwrap_or(0);
        let result = self.jacobian_rows(target, source, per_row, |k| {
            // one-hot in every batch row at element k of the row
            let row = one_hot(&target.shape()[1..], target.dtype(), k)?;
            row.expand_dims(0)?.broadcast_to(target.shape())?.contiguous()
        });
        self.release();
        let rows = match result? {
            Some(rows) => rows,
            None => return self.unconnected_jacobian(target.shape(), &source, unconnected),
        };
        // rows[k]: [b, source_rest…] → stack on axis 1 after the batch axis
        let mut shape: Vec<isize> = vec![per_row as isize, b as isize];
        shape.extend(like.shape()[1..].iter().map(|&d| d as isize));
        let stacked = stack_rows(&rows, &like, &shape)?;
        let mut perm: Vec<usize> = (0..stacked.rank()).collect();
        perm.swap(0, 1);
        let t = stacked.transpose(&perm)?;
        let mut out: Vec<isize> = target.shape().iter().map(|&d| d as isize).collect();
        out.extend(like.shape()[1..].iter().map(|&d| d as isize));
        t.reshape(&out).map(Some)
    }

    fn jacobian_rows(
        &self,
        target: &Tensor,
        source: Source<'_>,
        n: usize,
        seed: impl Fn(usize) -> Result<Tensor>,
    ) -> Result<Option<Vec<Tensor>>> {
        let mut rows = Vec::with_capacity(n);
        for k in 0..n {
            let g = self.run(&[target], vec![Some(seed(k)?)], &[source], UnconnectedGradients::None)?;
            match g.into_iter().next().flatten() {
                Some(g) => rows.push(g),
                None => return Ok(None),
            }
        }
        Ok(Some(rows))
    }

    fn unconnected_jacobian(
        &self,
        target_shape: &[usize],
        source: &Source<'_>,
        unconnected: UnconnectedGradients,
    ) -> Result<Option<Tensor>> {
        match unconnected {
            UnconnectedGradients::None => Ok(None),
            UnconnectedGradients::Zero => {
                let like = source.like();
                let mut shape = target_shape.to_vec();
                shape.extend_from_slice(like.shape());
                Ok(Some(Tensor::zeros(&shape, like.dtype())?.with_weak(like.is_weak())))
            }
        }
    }

    /// Refuses a second use of a non-persistent tape.
    fn claim(&self, what: &str) -> Result<()> {
        if !self.persistent && self.used.get() {
            return Err(Error::InvalidArgument(format!(
                "GradientTape.{what}: a non-persistent GradientTape can only be used to compute one set of gradients \
                 (or jacobians); make it persistent to call it more than once"
            )));
        }
        Ok(())
    }

    /// Marks a non-persistent tape used and frees its records.
    fn release(&self) {
        if !self.persistent {
            self.used.set(true);
            self.state.borrow_mut().entries.clear();
        }
    }

    fn run(
        &self,
        targets: &[&Tensor],
        seeds: Vec<Option<Tensor>>,
        sources: &[Source<'_>],
        unconnected: UnconnectedGradients,
    ) -> Result<Vec<Option<Tensor>>> {
        let (entries, ids) = {
            let st = self.state.borrow();
            // a source the tape does not track (never watched, a variable that is not
            // trainable) has no gradient, even if the target was computed from it
            let ids: Vec<u64> =
                sources.iter().map(|s| s.id()).map(|i| if st.tracked.contains(&i) { i } else { 0 }).collect();
            (st.entries.clone(), ids)
        };
        let raw = backprop::gradients(&entries, targets, seeds, &ids)?;
        raw.into_iter()
            .zip(sources)
            .map(|(g, s)| {
                let like = s.like();
                match g {
                    Some(g) => finish(g, &like).map(Some),
                    None if unconnected == UnconnectedGradients::Zero && like.dtype().is_inexact() => {
                        Ok(Some(Tensor::zeros(like.shape(), like.dtype())?.with_weak(like.is_weak())))
                    }
                    None => Ok(None),
                }
            })
            .collect()
    }
}

impl Drop for GradientTape {
    fn drop(&mut self) {
        tape::pop(&self.state);
    }
}

/// A gradient in the source's dtype and weakness.
fn finish(g: Tensor, like: &Tensor) -> Result<Tensor> {
    let g = if g.dtype() == like.dtype() { g } else { g.cast(like.dtype())? };
    Ok(g.with_weak(like.is_weak()))
}

/// Ones at flat position `k` of a zero tensor of `shape`.
fn one_hot(shape: &[usize], dtype: DType, k: usize) -> Result<Tensor> {
    let dtype = if dtype.is_inexact() { dtype } else { DType::F32 };
    let n = crate::core::layout::checked_numel(shape, "jacobian")?;
    let mut v = vec![0.0f64; n];
    if let Some(x) = v.get_mut(k) {
        *x = 1.0;
    }
    Tensor::from_vec(v, shape)?.cast(dtype)
}

/// The rows stacked and reshaped to `shape`, in the source's dtype.
fn stack_rows(rows: &[Tensor], like: &Tensor, shape: &[isize]) -> Result<Tensor> {
    let rows: Vec<Tensor> = rows.iter().map(|r| finish(r.clone(), like)).collect::<Result<_>>()?;
    let refs: Vec<&Tensor> = rows.iter().collect();
    let s = if refs.is_empty() { Tensor::zeros(&[0], like.dtype())? } else { crate::stack(&refs, 0)? };
    s.reshape(shape)
}

/// Runs `forward` as one op whose gradient `vjp` gives (`tf.custom_gradient`).
///
/// `forward` runs with recording paused and returns the output and the
/// vector-Jacobian product: given the output's gradient, one gradient (or
/// `None`) per input. On an outer tape the product's own ops are recorded,
/// so it can be differentiated again.
///
/// ```
/// use lattensor::{autodiff::custom_gradient, ops, GradientTape, Tensor};
/// let x = Tensor::scalar(2.0f64);
/// let tape = GradientTape::new();
/// tape.watch(&x);
/// // y = x², with a gradient rule that clips to [-1, 1]
/// let y = tape.record(|| custom_gradient(&[&x], || {
///     let y = ops::multiply(&x, &x)?;
///     Ok((y, |g: &[Tensor]| Ok(vec![Some(ops::clip_by_value(&g[0], -1.0, 1.0)?)])))
/// })).unwrap();
/// assert_eq!(tape.gradient(&y, &[&x]).unwrap()[0].as_ref().unwrap().item::<f64>().unwrap(), 1.0);
/// ```
///
/// # Errors
/// Any error of `forward`.
pub fn custom_gradient<G>(inputs: &[&Tensor], forward: impl FnOnce() -> Result<(Tensor, G)>) -> Result<Tensor>
where
    G: Fn(&[Tensor]) -> Result<Vec<Option<Tensor>>> + 'static,
{
    let (out, vjp) = tape::paused(forward)?;
    let vjp: Rc<CustomVjp> = Rc::new(vjp);
    Ok(tape::record(inputs, out, || TapeOp::Custom(vjp)))
}
