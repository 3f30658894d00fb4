//! How the crate is built: its layers, where each rule lives, and the path of
//! one op from the API down to the kernel.
//!
//! # Layers
//!
//! Data flows down; no module calls into a layer above its own (the test
//! `tests/layers.rs` reads every source file and fails on an upward path).
//!
//! | layer | modules | holds |
//! |---|---|---|
//! | 0 core | `core/` | [`DType`](crate::DType), the element types, [`Scalar`](crate::Scalar), storage, [`Layout`](crate::Layout) (shape, strides, broadcasting), [`Tensor`](crate::Tensor), [`Error`](crate::Error), and `tape.rs`: tensor identities and what an op leaves on the active gradient tapes |
//! | 0 core | `promote/` | the promotion lattice and its modes: [`promote::promote_for`](crate::promote::promote_for) is the one place a pair of dtypes becomes a result |
//! | 0 core | `dispatch.rs` | every dtype-dispatch macro (`with_dtype!`, `with_float_dtype!`, …), the element classes, and the rule "bfloat16 and float16 compute in float32" |
//! | 1 kernels | `kernels/` | loops over memory: `elementwise/` (any layouts, mixed input dtypes), `fused_half.rs`, `strided.rs`, `copy.rs`, `sums.rs`, `matmul.rs` over `gemm/`, `simd/` (instruction sets, CPU detection, streaming stores, conversions), `exp.rs`, `parallel.rs` over `pool.rs` |
//! | 2 ops | `ops/` | every op: promote, check, dispatch once, call a kernel (`binary.rs`, `compare.rs`, `unary.rs`, `reduce.rs`, `matrix.rs`, `special/`, …); `map.rs` has the traits `Map1`/`Map2` that do the dispatch for families of ops |
//! | 3 composite | `einsum/`, `random/`, `image/` | ops built from ops and kernels (einsum: parse, plan, execute through `kernels::matmul` and `kernels::sums`) |
//! | 4 api | `tnp/`, `io/`, `math`, `nn`, `linalg`, `bitwise`, `debugging`, `variable`, `autodiff/`, `doc/` | `tf.experimental.numpy`, `.npy` and printing, the TF-named modules (re-exports of `ops`), `Variable`, [`GradientTape`](crate::GradientTape) and every gradient rule (`autodiff/rules/`) |
//!
//! The Python extension (`crates/lattensor-py`) sits on top: argument
//! conversion in `args.rs`, the classes in `classes.rs`, one module per
//! namespace; it computes nothing itself.
//!
//! # One op, top to bottom
//!
//! `lattensor::ops::add(&a, 1.5)` with `a` an int8 tensor:
//!
//! 1. **Operands** (`core/scalar.rs`): `&Tensor` and the literal both become an
//!    `Operand`; the literal is weak (`f32*`).
//! 2. **Promotion** (`ops/binary.rs` `prepare` → `promote/`): the lattice of the
//!    thread's mode joins `int8` and `f32*`; the result is the dtype and
//!    weakness of the output. A refused pair is an `Error::Promotion` here,
//!    before any memory is touched.
//! 3. **Broadcasting** (`core/layout.rs`): the shapes meet by NumPy's rules;
//!    each operand becomes a kernel `Input` (a strided view or a scalar), not
//!    a promoted copy.
//! 4. **Dispatch** (`dispatch.rs` macros): one `match` on the result dtype
//!    picks the monomorphic loop; float16 and bfloat16 read as float32.
//! 5. **Kernel** (`kernels/elementwise/`): walks the layouts as runs of
//!    constant stride, converts inputs of another dtype a block at a time,
//!    vectorises through `simd/`, splits large outputs across the pool and
//!    streams them to memory.
//!
//! ```
//! use lattensor::{DType, Tensor, ops};
//!
//! let a = Tensor::from_vec(vec![1i8, 2], &[2])?;
//! let y = ops::add(&a, 1.5)?; // int8 ⊕ f32* = f64*, by the lattice
//! assert_eq!((y.dtype(), y.is_weak()), (DType::F64, true));
//! assert_eq!(y.to_vec::<f64>()?, vec![2.5, 3.5]);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # Where a new rule goes
//!
//! - A new dtype: `core/dtype.rs` and `core/element.rs`, its place in the
//!   lattice in `promote/lattice.rs`, its arm in the macros of `dispatch.rs`;
//!   ops pick it up through the macros.
//! - A new element-wise op: a `Map1`/`Map2` implementation in `ops/`, which
//!   gives promotion, dispatch and the kernel for free.
//! - A new op's gradient: the op calls `core::tape::op(inputs, compute,
//!   describe)` (one thread-local read when no tape records) with a
//!   `TapeOp` describing it, and its rule is an arm of the one `match` in
//!   `autodiff/rules/mod.rs`. An op made of recorded ops needs neither; an op
//!   whose outputs are copies of input elements is a `TapeOp::Select` and
//!   needs no rule of its own.
//! - A new kernel strategy (a loop, a threshold, an instruction set):
//!   `kernels/`, with the reason and its measured figure beside it.
