//! einsum and matmul. An einsum is recorded with an explicit equation of one
//! or two operands (see `einsum::taped`), and its gradient follows TF's
//! `_EinsumGrad`: a unary einsum's gradient is the reversed equation (`ii->i`
//! gives `i->ii`, the raw op's diagonal expansion), labels summed away inside
//! one operand come back by broadcasting, and a binary einsum's gradient
//! contracts the output gradient with the other operand (conjugated).

use super::unbroadcast;
use crate::Tensor;
use crate::core::error::{Error, Result};
use crate::einsum::einsum_raw;
use crate::ops;

/// The gradient with respect to an operand with labels `input` (of `shape`),
/// from the einsum of `operands` (gradient first) with labels `terms` giving
/// the operand's labels.
fn grad_wrt(operands: &[&Tensor], terms: &[&str], input: &str, shape: &[usize], everything: &str) -> Result<Tensor> {
    // labels of the input found nowhere else are summed inside it: bring them back by broadcasting
    let reduced: Vec<char> = {
        let mut r = Vec::new();
        for c in input.chars() {
            if !everything.contains(c) && !r.contains(&c) {
                r.push(c);
            }
        }
        r
    };
    let left: String = input.chars().filter(|c| !reduced.contains(c)).collect();
    let eq = format!("{}->{}", terms.join(","), if reduced.is_empty() { input } else { &left });
    let g = einsum_raw(&eq, operands)?;
    if reduced.is_empty() {
        return Ok(g);
    }
    let sizes: Vec<usize> =
        reduced.iter().map(|&c| input.chars().position(|d| d == c).map_or(1, |p| shape[p])).collect();
    let mut full: Vec<usize> = sizes.clone();
    full.extend_from_slice(g.shape());
    let mut ones: Vec<isize> = vec![1; sizes.len()];
    ones.extend(g.shape().iter().map(|&d| d as isize));
    let spread = g.reshape(&ones)?.broadcast_to(&full)?;
    let red: String = reduced.iter().collect();
    einsum_raw(&format!("{red}{left}->{input}"), &[&spread])
}

/// The gradients of an einsum's operands.
pub(super) fn vjp(eq: &str, x: &[Tensor], g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    let (lhs, out) = eq
        .split_once("->")
        .ok_or_else(|| Error::InvalidArgument(format!("gradient of einsum: \"{eq}\" has no '->'")))?;
    let terms: Vec<&str> = lhs.split(',').collect();
    match (terms.as_slice(), x) {
        ([a], [xa]) => Ok(vec![Some(grad_wrt(&[g], &[out], a, xa.shape(), out)?)]),
        ([a, b], [xa, xb]) => {
            let cb = ops::conj(xb)?;
            let ca = ops::conj(xa)?;
            let ga = grad_wrt(&[g, &cb], &[out, b], a, xa.shape(), &format!("{out}{b}"))?;
            let gb = grad_wrt(&[g, &ca], &[out, a], b, xb.shape(), &format!("{out}{a}"))?;
            Ok(vec![Some(ga), Some(gb)])
        }
        _ => Err(Error::Unimplemented(format!("gradient of einsum: \"{eq}\" has more than two operands"))),
    }
}

/// `op(a)`: transposed and/or conjugated as the flags say.
fn apply(t: &Tensor, (transpose, adjoint): (bool, bool)) -> Result<Tensor> {
    if transpose || adjoint { ops::matrix::matrix_transpose(t, adjoint) } else { Ok(t.clone()) }
}

/// The gradient of `A` from the gradient of `op(A)`.
fn unapply(g: Tensor, flags: (bool, bool)) -> Result<Tensor> {
    apply(&g, flags)
}

/// `matmul(op(a), op(b))`: `op(a)` gets `g · op(b)ᴴ`, `op(b)` gets
/// `op(a)ᴴ · g`; each is mapped back through its `op` and summed over
/// broadcast batch axes.
pub(super) fn matmul(a: &Tensor, b: &Tensor, g: &Tensor, flags: [(bool, bool); 2]) -> Result<Vec<Option<Tensor>>> {
    let (oa, ob) = (apply(a, flags[0])?, apply(b, flags[1])?);
    let ga = ops::matrix::matmul_ext(g, &ob, false, false, false, true)?;
    let gb = ops::matrix::matmul_ext(&oa, g, false, false, true, false)?;
    let ga = unbroadcast(&unapply(ga, flags[0])?, a.shape())?;
    let gb = unbroadcast(&unapply(gb, flags[1])?, b.shape())?;
    Ok(vec![Some(ga), Some(gb)])
}
