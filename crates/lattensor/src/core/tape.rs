//! The recording side of gradient tapes: tensor identities, the thread's
//! active tapes, and what an op leaves on them.
//!
//! A tape tracks tensor *ids*. A tensor has id 0 until a tape sees it: a
//! watched tensor gets a fresh id, and so does every output of an op recorded
//! because one of its inputs was tracked. Ops call [`op`] (or [`record`]) with
//! their inputs and a description ([`TapeOp`]); with no tape recording on the
//! thread that is one thread-local read and nothing else. The gradient rules
//! that read the records live above the ops, in `autodiff`.
//!
//! While an op computes its result, recording is paused ([`paused`]): an op
//! built from other ops is recorded once, as itself, not as its parts.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::error::Result;
use crate::core::tensor::Tensor;

/// A tensor's identity on the tapes: 0 until a tape tracks it.
///
/// Clones copy it, so a clone is the same tensor to a tape.
#[derive(Default)]
pub(crate) struct TapeId(AtomicU64);

impl Clone for TapeId {
    fn clone(&self) -> Self {
        TapeId(AtomicU64::new(self.get()))
    }
}

impl TapeId {
    pub(crate) fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    pub(crate) fn set(&self, id: u64) {
        self.0.store(id, Ordering::Relaxed);
    }

    /// The id, giving the tensor a fresh one first if it has none.
    pub(crate) fn ensure(&self) -> u64 {
        match self.get() {
            0 => {
                let id = fresh_id();
                self.set(id);
                id
            }
            id => id,
        }
    }
}

/// A new, never used id (ids start at 1; 0 means "untracked").
pub(crate) fn fresh_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What an op was, as far as its gradient rule needs to know: the op's name
/// and the attributes its inputs and outputs do not carry.
#[derive(Clone)]
#[non_exhaustive]
pub enum TapeOp {
    /// An element-wise function of one tensor, by its TF name (`"exp"`, `"relu"`, …).
    Unary(&'static str),
    /// An element-wise function of one tensor with a real parameter
    /// (`leaky_relu`'s alpha, `swish`'s beta).
    UnaryWith(&'static str, f64),
    /// A promoting binary op, by its TF name (`"add"`, `"pow"`, …); the
    /// operands may broadcast.
    Binary(&'static str),
    /// A reduction (`"sum"`, `"mean"`, `"prod"`, `"max"`, `"min"`,
    /// `"logsumexp"`, `"variance"`, `"std"`, `"euclidean_norm"`) over `axes`
    /// (sorted, non-negative).
    Reduce {
        /// The reduction, by name.
        kind: &'static str,
        /// The reduced axes of the input.
        axes: Vec<usize>,
        /// Whether the reduced axes were kept with length 1.
        keepdims: bool,
        /// Delta degrees of freedom (`variance` and `std` only).
        ddof: f64,
    },
    /// A change of shape that keeps the elements in order (reshape,
    /// expand_dims, squeeze).
    Reshape,
    /// Output axis `i` is input axis `perm[i]`.
    Transpose(Vec<usize>),
    /// Broadcast to the output's shape.
    BroadcastTo,
    /// A change of dtype.
    Cast,
    /// A batched matrix product with its operand flags.
    MatMul {
        /// `a` is transposed.
        transpose_a: bool,
        /// `b` is transposed.
        transpose_b: bool,
        /// `a` is transposed and conjugated.
        adjoint_a: bool,
        /// `b` is transposed and conjugated.
        adjoint_b: bool,
    },
    /// An einsum of the inputs with the raw op's rules (an equation with an
    /// explicit output; repeated output labels are diagonal expansion).
    Einsum(String),
    /// Concatenation of the inputs along an axis.
    Concat(usize),
    /// Stacking of the inputs along a new axis.
    Stack(usize),
    /// The outputs are consecutive pieces of the input along an axis.
    Split(usize),
    /// `clip_by_value(x, lo, hi)`: inputs x, lo, hi.
    Clip,
    /// `where(condition, x, y)`; the condition is input 0.
    Where,
    /// `gather(params, indices, axis, batch_dims)`; params is input 0, indices input 1.
    Gather {
        /// The gathered axis of params.
        axis: usize,
        /// The leading axes params and indices share.
        batch_dims: usize,
    },
    /// Each output element is one of the inputs' elements, or a filler (a
    /// view, a diagonal, padding, a band): the function, applied to int64
    /// tensors of the inputs' shapes holding their elements' positions
    /// counted from 1 across all inputs, gives each output element's source
    /// position, 0 or negative for a filler.
    Select(Rc<SelectFn>),
    /// `unsorted_segment_sum(data, ids, n)`: data is input 0, ids input 1.
    SegmentSum,
    /// softmax / log_softmax along an axis (`"softmax"`, `"log_softmax"`).
    Softmax(&'static str, usize),
    /// An op whose gradient the caller gives (`custom_gradient`): the
    /// function from the output gradients to the input gradients.
    Custom(Rc<CustomVjp>),
    /// A cumulative sum along an axis of the input (`tnp.cumsum`).
    Cumsum(usize),
    /// A cumulative product along an axis of the input (`tnp.cumprod`).
    Cumprod(usize),
    /// A one-dimensional discrete Fourier transform along `axis` (`ops::fft`):
    /// the input cropped or zero-padded to `n` terms (`n / 2 + 1` for
    /// [`FftKind::ComplexToReal`]), transformed unscaled, times `scale`.
    Fft {
        /// Which transform.
        kind: FftKind,
        /// The transformed axis.
        axis: usize,
        /// The transform's length.
        n: usize,
        /// The factor the `norm` argument applies (`1`, `1/√n` or `1/n`).
        scale: f64,
    },
    /// A matrix decomposition or solve of `ops::decomp`, batched over leading axes.
    Linalg(LinalgOp),
}

/// The transforms [`TapeOp::Fft`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftKind {
    /// Complex to complex, `e^{-2πi jk/n}`.
    Forward,
    /// Complex to complex, `e^{+2πi jk/n}`.
    Inverse,
    /// Real to the `n / 2 + 1` non-negative frequencies.
    RealToComplex,
    /// Hermitian half-spectrum to `n` real terms.
    ComplexToReal,
}

/// The decompositions [`TapeOp::Linalg`] records; the outputs are recorded
/// in the order the op returns them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinalgOp {
    /// `L` (lower) or `U = Lᴴ` (`upper`).
    Cholesky {
        /// The factor is upper triangular.
        upper: bool,
    },
    /// The determinant.
    Det,
    /// `(sign, logabsdet)`.
    Slogdet,
    /// The inverse.
    Inv,
    /// `solve(a, b)`: `a` and `b` broadcast to the batch, same dtype.
    Solve,
    /// `(Q, R)`.
    Qr {
        /// `Q` is square (`"complete"`).
        complete: bool,
    },
    /// `(eigenvalues, eigenvectors)` of a Hermitian matrix (its lower triangle).
    Eigh,
    /// The eigenvalues of a Hermitian matrix (its lower triangle).
    Eigvalsh,
    /// `(U, S, Vh)`.
    Svd {
        /// `U` and `Vh` are square.
        full_matrices: bool,
    },
    /// The singular values.
    Svdvals,
}

/// The position map of a [`TapeOp::Select`] op.
pub type SelectFn = dyn Fn(&[Tensor]) -> Result<Tensor>;

/// A caller's vector-Jacobian product: output gradients to input gradients.
pub type CustomVjp = dyn Fn(&[Tensor]) -> Result<Vec<Option<Tensor>>>;

/// One recorded op: inputs and outputs as they were (clones share storage),
/// with the ids they had.
pub(crate) struct Entry {
    pub(crate) op: TapeOp,
    pub(crate) inputs: Vec<Tensor>,
    pub(crate) input_ids: Vec<u64>,
    pub(crate) outputs: Vec<Tensor>,
    pub(crate) output_ids: Vec<u64>,
}

/// A tape's state: the ids it tracks and the ops it recorded, in order.
#[derive(Default)]
pub(crate) struct TapeState {
    pub(crate) tracked: HashSet<u64>,
    pub(crate) entries: Vec<Rc<Entry>>,
    /// False inside `stop_recording`.
    pub(crate) recording: bool,
    pub(crate) watch_accessed_variables: bool,
    /// Ids of the variables it watches, in the order first watched.
    pub(crate) variables: Vec<u64>,
}

pub(crate) type SharedTape = Rc<RefCell<TapeState>>;

thread_local! {
    /// How many tapes on this thread record right now (0 inside an op's computation).
    static RECORDING: Cell<usize> = const { Cell::new(0) };
    /// The thread's active tapes, outermost first.
    static STACK: RefCell<Vec<SharedTape>> = const { RefCell::new(Vec::new()) };
}

/// Whether any tape on this thread records right now.
#[inline(always)]
pub(crate) fn recording() -> bool {
    RECORDING.with(Cell::get) != 0
}

/// Recounts the recording tapes after a push, pop, pause or resume.
fn refresh() {
    let n = STACK.with(|s| s.borrow().iter().filter(|t| t.borrow().recording).count());
    RECORDING.with(|r| r.set(n));
}

/// Makes `tape` active on this thread (innermost).
pub(crate) fn push(tape: &SharedTape) {
    STACK.with(|s| s.borrow_mut().push(Rc::clone(tape)));
    refresh();
}

/// Removes `tape` from this thread's active tapes; `false` if it was not active.
pub(crate) fn pop(tape: &SharedTape) -> bool {
    let found = STACK.with(|s| {
        let mut s = s.borrow_mut();
        match s.iter().rposition(|t| Rc::ptr_eq(t, tape)) {
            Some(i) => {
                s.remove(i);
                true
            }
            None => false,
        }
    });
    refresh();
    found
}

/// Whether `tape` is on this thread's stack.
pub(crate) fn is_active(tape: &SharedTape) -> bool {
    STACK.with(|s| s.borrow().iter().any(|t| Rc::ptr_eq(t, tape)))
}

/// Pauses or resumes `tape`'s recording.
pub(crate) fn set_recording(tape: &SharedTape, on: bool) {
    tape.borrow_mut().recording = on;
    refresh();
}

/// Runs `f` with no tape recording on this thread (restored after, also on panic).
pub(crate) fn paused<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            RECORDING.with(|r| r.set(self.0));
        }
    }
    let _restore = Restore(RECORDING.with(|r| r.replace(0)));
    f()
}

/// Runs an op: `compute` with recording paused, then records the result on
/// every recording tape that tracks one of `inputs`.
#[inline(always)]
pub(crate) fn op(
    inputs: &[&Tensor],
    compute: impl FnOnce() -> Result<Tensor>,
    desc: impl FnOnce() -> TapeOp,
) -> Result<Tensor> {
    if !recording() {
        return compute();
    }
    op_recorded(inputs, compute, desc)
}

/// [`op`] with a tape recording, out of line (see [`record_one`]).
#[inline(never)]
#[cold]
fn op_recorded(
    inputs: &[&Tensor],
    compute: impl FnOnce() -> Result<Tensor>,
    desc: impl FnOnce() -> TapeOp,
) -> Result<Tensor> {
    let out = paused(compute)?;
    Ok(record_one(inputs, out, desc))
}

/// [`op`] for an op with several outputs.
pub(crate) fn op_n(
    inputs: &[&Tensor],
    compute: impl FnOnce() -> Result<Vec<Tensor>>,
    desc: impl FnOnce() -> TapeOp,
) -> Result<Vec<Tensor>> {
    if !recording() {
        return compute();
    }
    let outs = paused(compute)?;
    Ok(record_n(inputs, outs, desc))
}

/// Records `out` as the result of `desc` on `inputs` (see [`op`]) and returns it.
#[inline(always)]
pub(crate) fn record(inputs: &[&Tensor], out: Tensor, desc: impl FnOnce() -> TapeOp) -> Tensor {
    if !recording() {
        return out;
    }
    record_one(inputs, out, desc)
}

/// [`record`]'s work, kept out of line so that an op's code with no tape
/// recording stays as small as it was (inlined, it tripled a view's code and
/// cost it 6 ns).
#[inline(never)]
#[cold]
fn record_one(inputs: &[&Tensor], out: Tensor, desc: impl FnOnce() -> TapeOp) -> Tensor {
    let mut outs = record_n(inputs, vec![out], desc);
    outs.pop().expect("one output in, one out")
}

/// [`record`] for several outputs.
pub(crate) fn record_n(inputs: &[&Tensor], outs: Vec<Tensor>, desc: impl FnOnce() -> TapeOp) -> Vec<Tensor> {
    if !recording() {
        return outs;
    }
    let input_ids: Vec<u64> = inputs.iter().map(|t| t.tape_id.get()).collect();
    if input_ids.iter().all(|&i| i == 0) {
        return outs;
    }
    // which tapes record this op: those that track one of its inputs
    let tapes: Vec<SharedTape> = STACK.with(|s| {
        s.borrow()
            .iter()
            .filter(|t| {
                let st = t.borrow();
                st.recording && input_ids.iter().any(|i| st.tracked.contains(i))
            })
            .cloned()
            .collect()
    });
    if tapes.is_empty() {
        return outs;
    }
    // described with no borrow held and recording paused: a description may run ops
    let op = paused(desc);
    let output_ids: Vec<u64> = outs.iter().map(|_| fresh_id()).collect();
    for (o, &id) in outs.iter().zip(&output_ids) {
        o.tape_id.set(id);
    }
    let entry = Rc::new(Entry {
        op,
        inputs: inputs.iter().map(|&t| t.clone()).collect(),
        input_ids,
        outputs: outs.clone(),
        output_ids,
    });
    for tape in tapes {
        let mut st = tape.borrow_mut();
        st.tracked.extend(entry.output_ids.iter().copied());
        st.entries.push(Rc::clone(&entry));
    }
    outs
}

/// Marks a variable (by id) as read: every recording tape that watches
/// accessed variables tracks it.
pub(crate) fn variable_read(id: u64) {
    if !recording() {
        return;
    }
    STACK.with(|s| {
        for tape in s.borrow().iter() {
            let mut st = tape.borrow_mut();
            if st.recording && st.watch_accessed_variables && st.tracked.insert(id) {
                st.variables.push(id);
            }
        }
    });
}
