//! Scans along an axis: cumulative sums and products. Their adjoints are
//! scans run from the other end, so each costs a few scans of the input's
//! size; they are built from recorded ops (reversing views and the scans
//! themselves), so they are differentiable again.

use crate::core::error::Result;
use crate::ops::{self, combine::where_};
use crate::tnp;
use crate::{SliceArg, Tensor};

/// `t` reversed along `axis` (a view).
fn reversed(t: &Tensor, axis: usize) -> Result<Tensor> {
    let mut args = vec![SliceArg::FULL; axis + 1];
    args[axis] = SliceArg::stepped(None, None, -1);
    t.slice(&args)
}

/// `Σ_{j ≥ i} t_j` along `axis`: a cumulative sum from the end.
fn cumsum_from_end(t: &Tensor, axis: usize) -> Result<Tensor> {
    reversed(&tnp::cumsum(&reversed(t, axis)?, Some(axis as isize), None)?, axis)
}

/// `y = cumsum(x)`: `x_j` reaches every `y_i` with `i ≥ j`, so its gradient is
/// the output gradient summed from the end.
pub(super) fn cumsum(g: &Tensor, axis: usize) -> Result<Tensor> {
    cumsum_from_end(g, axis)
}

/// `y = cumprod(x)`: `∂y_i/∂x_k = y_i / x_k` for `i ≥ k`, so away from zeros
/// the gradient is `cumsum_from_end(g·y) / x` (TF's rule). That division is
/// exact only before a slice's first zero `x_z`; there the terms are the
/// products with `x_z` left out, `cumsum_from_end(g·cumprod(x with x_z = 1))`;
/// after it every product holds `x_z`, so the gradient is 0. Complex inputs
/// use `conj(x)` and `conj(y)` (TF's convention).
pub(super) fn cumprod(x: &Tensor, y: &Tensor, g: &Tensor, axis: usize) -> Result<Tensor> {
    let (x, y) = if x.dtype().is_complex() { (ops::conj(x)?, ops::conj(y)?) } else { (x.clone(), y.clone()) };
    let zero = ops::equal(&x, 0.0)?;
    let one = crate::ones_like(&x, None)?;
    let safe = where_(&zero, &one, &x)?;
    let before = ops::divide(&cumsum_from_end(&ops::multiply(g, &y)?, axis)?, &safe)?;
    if !zero.to_vec::<bool>()?.contains(&true) {
        return Ok(before);
    }
    // zeros seen up to and including each position (int32): 0 before the first zero
    let seen = tnp::cumsum(&zero, Some(axis as isize), None)?;
    let first = ops::logical_and(&zero, &ops::equal(&seen, 1)?)?;
    let without = tnp::cumprod(&where_(&first, &one, &x)?, Some(axis as isize), None)?;
    let at_first = cumsum_from_end(&ops::multiply(g, &without)?, axis)?;
    let none = crate::zeros_like(&before, None)?;
    where_(&ops::equal(&seen, 0)?, &before, &where_(&first, &at_first, &none)?)
}
