//! Every op's gradient rule (vector-Jacobian product), one `match` over the
//! recorded op. Each rule gets the op's inputs and outputs as recorded and
//! the gradient of each output, and returns one gradient (or `None`) per
//! input — written with the library's own ops, so rules are differentiable.
//!
//! Broadcasting is undone by [`unbroadcast`] (TF's `broadcast_gradient_args`
//! followed by a sum); for complex tensors a rule multiplies by the conjugate
//! of the derivative (TF's convention).

mod binary;
mod einsum;
mod fft;
mod linalg;
mod reduce;
mod scan;
mod shape;
mod unary;

use crate::core::error::{Error, Result};
use crate::core::tape::{Entry, TapeOp};
use crate::{Tensor, ops};

/// The op's name in error messages.
pub(super) fn name(op: &TapeOp) -> &'static str {
    match op {
        TapeOp::Unary(n) | TapeOp::UnaryWith(n, _) | TapeOp::Binary(n) | TapeOp::Softmax(n, _) => n,
        TapeOp::Reduce { kind, .. } => kind,
        TapeOp::Reshape => "reshape",
        TapeOp::Transpose(_) => "transpose",
        TapeOp::BroadcastTo => "broadcast_to",
        TapeOp::Cast => "cast",
        TapeOp::MatMul { .. } => "matmul",
        TapeOp::Einsum(_) => "einsum",
        TapeOp::Concat(_) => "concat",
        TapeOp::Stack(_) => "stack",
        TapeOp::Split(_) => "split",
        TapeOp::Clip => "clip_by_value",
        TapeOp::Where => "where",
        TapeOp::Gather { .. } => "gather",
        TapeOp::Select(_) => "a view (slice, diagonal, pad)",
        TapeOp::SegmentSum => "unsorted_segment_sum",
        TapeOp::Custom(_) => "custom_gradient",
        TapeOp::Cumsum(_) => "cumsum",
        TapeOp::Cumprod(_) => "cumprod",
        TapeOp::Fft { .. } => "a Fourier transform",
        TapeOp::Linalg(op) => linalg_name(*op),
    }
}

fn linalg_name(op: crate::core::tape::LinalgOp) -> &'static str {
    use crate::core::tape::LinalgOp as L;
    match op {
        L::Cholesky { .. } => "cholesky",
        L::Det => "det",
        L::Slogdet => "slogdet",
        L::Inv => "inv",
        L::Solve => "solve",
        L::Qr { .. } => "qr",
        L::Eigh => "eigh",
        L::Eigvalsh => "eigvalsh",
        L::Svd { .. } => "svd",
        L::Svdvals => "svdvals",
    }
}

/// The gradients of a recorded op's inputs, given its outputs' gradients `g`.
pub(super) fn vjp(e: &Entry, g: &[Tensor]) -> Result<Vec<Option<Tensor>>> {
    let x = &e.inputs;
    let one = |t: Result<Tensor>| t.map(|t| vec![Some(t)]);
    match &e.op {
        TapeOp::Unary(name) => Ok(vec![unary::vjp(name, &x[0], &e.outputs[0], &g[0])?]),
        TapeOp::UnaryWith(name, p) => one(unary::vjp_with(name, *p, &x[0], &e.outputs[0], &g[0])),
        TapeOp::Binary(name) => binary::vjp(name, &x[0], &x[1], &e.outputs[0], &g[0]),
        TapeOp::Clip => binary::clip(&x[0], &x[1], &x[2], &g[0]),
        TapeOp::Reduce { kind, axes, keepdims, ddof } => {
            one(reduce::vjp(kind, &x[0], &e.outputs[0], &g[0], axes, *keepdims, *ddof))
        }
        TapeOp::Softmax(kind, axis) => one(reduce::softmax(kind, &e.outputs[0], &g[0], *axis)),
        TapeOp::Reshape => one(g[0].reshape(&dims(x[0].shape()))),
        TapeOp::Transpose(perm) => one(g[0].transpose(&inverse(perm))),
        TapeOp::BroadcastTo => one(unbroadcast(&g[0], x[0].shape())),
        TapeOp::Cast => Ok(vec![Some(g[0].clone())]),
        TapeOp::Select(pick) => shape::select(pick.as_ref(), x, &g[0]),
        TapeOp::Concat(axis) => shape::concat(x, &g[0], *axis),
        TapeOp::Stack(axis) => shape::stack(x.len(), &g[0], *axis),
        TapeOp::Split(axis) => {
            let refs: Vec<&Tensor> = g.iter().collect();
            one(ops::combine::concat(&refs, *axis as isize))
        }
        TapeOp::Where => shape::where_grad(&x[0], &x[1], &x[2], &g[0]),
        TapeOp::Gather { axis, batch_dims } => shape::gather(&x[0], &x[1], &g[0], *axis, *batch_dims),
        TapeOp::SegmentSum => shape::segment_sum(&x[0], &x[1], &g[0]),
        TapeOp::MatMul { transpose_a, transpose_b, adjoint_a, adjoint_b } => {
            einsum::matmul(&x[0], &x[1], &g[0], [(*transpose_a, *adjoint_a), (*transpose_b, *adjoint_b)])
        }
        TapeOp::Einsum(eq) => einsum::vjp(eq, x, &g[0]),
        TapeOp::Cumsum(axis) => one(scan::cumsum(&g[0], *axis)),
        TapeOp::Cumprod(axis) => one(scan::cumprod(&x[0], &e.outputs[0], &g[0], *axis)),
        TapeOp::Fft { kind, axis, n, scale } => one(fft::vjp(*kind, *axis, *n, *scale, &x[0], &g[0])),
        TapeOp::Linalg(op) => linalg::vjp(*op, x, &e.outputs, g),
        TapeOp::Custom(f) => {
            let r = f(g)?;
            if r.len() != x.len() {
                return Err(Error::InvalidArgument(format!(
                    "custom_gradient: the gradient function returned {} gradients for {} inputs; return one per input",
                    r.len(),
                    x.len()
                )));
            }
            Ok(r)
        }
    }
}

/// A shape as `isize`s (for `reshape`).
pub(super) fn dims(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&d| d as isize).collect()
}

/// The inverse permutation.
pub(super) fn inverse(perm: &[usize]) -> Vec<usize> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    inv
}

/// Sums `g` over the axes along which an operand of `shape` was broadcast to
/// `g`'s shape, giving `shape` back.
pub(super) fn unbroadcast(g: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if crate::core::layout::same_shape(g.shape(), shape) {
        return Ok(g.clone());
    }
    let extra = g.rank().saturating_sub(shape.len());
    let axes: Vec<i32> = (0..g.rank())
        .filter(|&i| i < extra || (shape[i - extra] == 1 && g.shape()[i] != 1))
        .map(|i| i as i32)
        .collect();
    let s = if axes.is_empty() { g.clone() } else { ops::reduce_sum(g, axes, true)? };
    s.reshape(&dims(shape))
}

/// `g · conj(d)`: the chain rule with TF's complex convention.
pub(super) fn times_conj(g: &Tensor, d: &Tensor) -> Result<Tensor> {
    ops::multiply(g, &ops::conj(d)?)
}

/// `where(c, g, 0)`.
pub(super) fn masked(c: &Tensor, g: &Tensor) -> Result<Tensor> {
    ops::combine::where_(c, g, &crate::zeros_like(g, None)?)
}
