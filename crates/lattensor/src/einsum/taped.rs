//! Einsum on a gradient tape: recorded as raw einsums of one or two operands,
//! along the planned path, so that the gradient of an n-operand einsum costs
//! what its forward path costs (each step's rule is two einsums of the step's size).
//!
//! Labels become single ASCII characters and size-1 broadcast axes are
//! reshaped away first, so every recorded equation is explicit, without an
//! ellipsis or broadcasting — the form the gradient rules expect.

use super::parse::Resolved;
use super::{Front, PathOptions, einsum_front};
use crate::Tensor;
use crate::core::error::{Error, Result};
use crate::core::tape::{self, TapeOp};

/// The characters recorded equations name labels with (none is `.`, `,`, `-` or `>`).
const LABELS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&*+/:;<=?@[]^_{|}~";

fn letters(labels: &[usize]) -> Result<String> {
    labels
        .iter()
        .map(|&l| {
            LABELS.get(l).map(|&b| b as char).ok_or_else(|| {
                Error::Unimplemented(format!(
                    "einsum: a gradient tape records at most {} distinct labels, this equation has more",
                    LABELS.len()
                ))
            })
        })
        .collect()
}

/// One recorded raw einsum of `inputs` (with their labels) giving `output`.
fn step(inputs: &[(Tensor, Vec<usize>)], output: &[usize]) -> Result<Tensor> {
    let terms: Vec<String> = inputs.iter().map(|(_, l)| letters(l)).collect::<Result<_>>()?;
    let eq = format!("{}->{}", terms.join(","), letters(output)?);
    let refs: Vec<&Tensor> = inputs.iter().map(|(t, _)| t).collect();
    tape::op(&refs, || einsum_front(Front::Raw, &eq, &refs, PathOptions::default()), || TapeOp::Einsum(eq.clone()))
}

/// Runs a resolved einsum as recorded steps along `path`.
pub(super) fn run(r: &Resolved, operands: &[&Tensor], path: &[Vec<usize>]) -> Result<Tensor> {
    let mut ops: Vec<(Tensor, Vec<usize>)> = Vec::with_capacity(operands.len());
    for (t, axes) in operands.iter().zip(&r.axes) {
        let kept: Vec<isize> =
            axes.iter().zip(t.shape()).filter(|(a, _)| a.is_some()).map(|(_, &d)| d as isize).collect();
        let t = if kept.len() == t.rank() { (*t).clone() } else { t.reshape(&kept)? };
        ops.push((t, axes.iter().flatten().copied().collect()));
    }
    if ops.len() <= 2 {
        return step(&ops, &r.output);
    }
    let mut pairs: Vec<[usize; 2]> = path.iter().filter_map(|s| <[usize; 2]>::try_from(&s[..]).ok()).collect();
    while pairs.len() + 1 < ops.len() {
        pairs.push([0, 1]);
    }
    for [i, j] in pairs {
        let (i, j) = (i.min(j), i.max(j));
        if j >= ops.len() {
            return Err(Error::InvalidArgument(format!("einsum: path step [{i}, {j}] is out of range")));
        }
        let b = ops.remove(j);
        let a = ops.remove(i);
        let labels = if ops.is_empty() {
            r.output.clone()
        } else {
            let needed = |l: &usize| r.output.contains(l) || ops.iter().any(|(_, o)| o.contains(l));
            let mut out: Vec<usize> = Vec::new();
            for l in a.1.iter().chain(&b.1).filter(|l| needed(l)) {
                if !out.contains(l) {
                    out.push(*l);
                }
            }
            out
        };
        let c = step(&[a, b], &labels)?;
        ops.push((c, labels));
    }
    let (t, labels) = ops.pop().ok_or_else(|| Error::InvalidArgument("einsum: no operands".into()))?;
    if labels == r.output { Ok(t) } else { step(&[(t, labels)], &r.output) }
}
