//! Reductions and softmax: the output gradient is given its reduced axes
//! back (length 1) and broadcast over the input.

use super::{dims, unary::no_rule};
use crate::core::error::Result;
use crate::ops;
use crate::{DType, Tensor};

/// `t` (a reduction's output over `axes`) with the reduced axes kept as length 1.
fn kept(t: &Tensor, x: &Tensor, axes: &[usize], keepdims: bool) -> Result<Tensor> {
    if keepdims {
        return Ok(t.clone());
    }
    let shape: Vec<usize> = (0..x.rank()).map(|i| if axes.contains(&i) { 1 } else { x.shape()[i] }).collect();
    t.reshape(&dims(&shape))
}

fn axes_i32(axes: &[usize]) -> Vec<i32> {
    axes.iter().map(|&a| a as i32).collect()
}

/// The gradient of `x` for `y = kind(x, axes)`.
pub(super) fn vjp(
    kind: &str,
    x: &Tensor,
    y: &Tensor,
    g: &Tensor,
    axes: &[usize],
    keepdims: bool,
    ddof: f64,
) -> Result<Tensor> {
    use ops::{divide, multiply, subtract};
    let gk = kept(g, x, axes, keepdims)?;
    let yk = || kept(y, x, axes, keepdims);
    let count: usize = axes.iter().map(|&a| x.shape()[a]).product();
    let spread = |t: &Tensor| t.broadcast_to(x.shape());
    match kind {
        "sum" => spread(&gk),
        "mean" => divide(&spread(&gk)?, count as f64),
        "max" | "min" => {
            // split evenly among the elements equal to the extremum
            let hit = ops::equal(x, &yk()?)?.cast(g.dtype())?;
            let n = ops::reduce_sum(&hit, axes_i32(axes), true)?;
            multiply(&divide(&hit, &n)?, &gk)
        }
        "logsumexp" => multiply(&gk, &ops::exp(&subtract(x, &yk()?)?)?),
        "variance" | "std" => {
            let mean = ops::reduce_mean(x, axes_i32(axes), true)?;
            let dev = subtract(x, &mean)?;
            let denom = (count as f64 - ddof).max(0.0);
            let d = if kind == "variance" {
                multiply(&dev, 2.0 / denom)?
            } else {
                // NaN where the deviation is 0/0 (no spread), as TF
                divide(&dev, &multiply(&yk()?.cast(x.dtype())?, denom)?)?
            };
            multiply(&gk, &d)
        }
        // NaN at a zero norm, as TF (like sqrt's infinite slope at 0)
        "euclidean_norm" => multiply(&gk, &divide(x, &yk()?)?),
        "prod" => prod(x, &gk, axes),
        other => Err(no_rule(other)),
    }
}

/// The product's gradient without dividing by `x` (exact with zeros): the
/// reduced axes are moved last and flattened, and each element's gradient is
/// the product of the others, an exclusive cumulative product from each side.
fn prod(x: &Tensor, gk: &Tensor, axes: &[usize]) -> Result<Tensor> {
    let rank = x.rank();
    let rest: Vec<usize> = (0..rank).filter(|a| !axes.contains(a)).collect();
    let perm: Vec<usize> = rest.iter().chain(axes).copied().collect();
    let n: usize = axes.iter().map(|&a| x.shape()[a]).product();
    let m: usize = rest.iter().map(|&a| x.shape()[a]).product();
    let flat = x.transpose(&perm)?.reshape(&[m as isize, n as isize])?;
    let ones =
        crate::ones_like(&flat.slice(&[crate::SliceArg::stepped(None, None, 1), crate::SliceArg::range(0, 1)])?, None)?;
    let exclusive = |t: &Tensor| -> Result<Tensor> {
        // [1, t0, t0·t1, …]: cumulative product of [1, t0, …, t(n-2)]
        let head = t.slice(&[
            crate::SliceArg::stepped(None, None, 1),
            crate::SliceArg::range(0, n.saturating_sub(1) as isize),
        ])?;
        crate::tnp::cumprod(ops::combine::concat(&[&ones, &head], 1)?, Some(1), None)
    };
    let left = exclusive(&flat)?;
    let reversed =
        |t: &Tensor| t.slice(&[crate::SliceArg::stepped(None, None, 1), crate::SliceArg::stepped(None, None, -1)]);
    let right = reversed(&exclusive(&reversed(&flat)?)?)?;
    let others = ops::multiply(&left, &right)?;
    let permuted: Vec<usize> = perm.iter().map(|&p| x.shape()[p]).collect();
    let others = others.reshape(&dims(&permuted))?.transpose(&super::inverse(&perm))?;
    let dt = if others.dtype() == DType::Bool { x.dtype() } else { others.dtype() };
    ops::multiply(&gk.broadcast_to(x.shape())?, &ops::conj(&others.cast(dt)?)?)
}

/// softmax / log_softmax along `axis`, from the output `y`.
pub(super) fn softmax(kind: &str, y: &Tensor, g: &Tensor, axis: usize) -> Result<Tensor> {
    let ax = vec![axis as i32];
    if kind == "softmax" {
        let s = ops::reduce_sum(&ops::multiply(g, y)?, ax, true)?;
        ops::multiply(&ops::subtract(g, &s)?, y)
    } else {
        let s = ops::reduce_sum(g, ax, true)?;
        ops::subtract(g, &ops::multiply(&ops::exp(y)?, &s)?)
    }
}
