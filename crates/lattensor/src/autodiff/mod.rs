//! Reverse-mode automatic differentiation with TF's `GradientTape`.
//!
//! A [`GradientTape`] records the ops run on the tensors it tracks — the ones
//! it [watches](GradientTape::watch), the trainable [`Variable`](crate::Variable)s
//! read while it records, and every result computed from them — and
//! [`gradient`](GradientTape::gradient) walks the record backwards, applying
//! each op's vector-Jacobian product. Every rule is written with the library's
//! own ops, so a tape that records while another computes gradients gives
//! second-order derivatives.
//!
//! ```
//! use lattensor::{ops, GradientTape, Tensor};
//! let x = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &[3]).unwrap();
//! let tape = GradientTape::new();
//! tape.watch(&x);
//! let y = tape.record(|| ops::reduce_sum(&ops::multiply(&x, &x)?, None, false)).unwrap();
//! let g = tape.gradient(&y, &[&x]).unwrap();
//! assert_eq!(g[0].as_ref().unwrap().to_vec::<f64>().unwrap(), vec![2.0, 4.0, 6.0]);
//! ```
//!
//! Conventions, as TF's:
//! - a gradient has its source's dtype and weakness; integer and bool
//!   sources, and sources the target does not depend on, get `None`
//!   (or zeros with [`UnconnectedGradients::Zero`]);
//! - a non-scalar target is differentiated as the sum of its elements (or
//!   weighted by `output_gradients`);
//! - for complex tensors the gradient is the conjugate of the derivative
//!   (`∂L/∂z̄`-style, as TF): `gradient(z·z, z) = 2·conj(z)`;
//! - at kinks the one-sided choices are TF's: `abs`, `sign`, `relu` have
//!   derivative 0 at 0, `maximum`/`minimum` give a tie to the first operand,
//!   `sqrt` has derivative `inf` at 0; `floor`, `ceil`, `round`, `rint`,
//!   integer division and comparisons have no gradient (`None`);
//! - float16/bfloat16 gradients accumulate in float32 and are rounded to the
//!   source's dtype at the end.
//!
//! With no tape recording on the thread, an op pays one thread-local read.

mod backprop;
mod rules;
mod tape;

pub use tape::{GradientTape, Source, UnconnectedGradients, custom_gradient};

/// Whether a gradient tape records on this thread right now.
pub fn is_recording() -> bool {
    crate::core::tape::recording()
}
