//! The backward pass: walks a tape's records in reverse, applying each op's
//! vector-Jacobian product and summing the contributions per tensor.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::rules;
use crate::core::error::{Error, Result};
use crate::core::tape::Entry;
use crate::promote::{ModeGuard, PromotionMode};
use crate::{DType, Tensor, ops};

/// The dtype gradients of a `dtype` tensor accumulate in: float32 for the
/// half-precision floats, the dtype itself otherwise.
pub(super) fn accumulation_dtype(dtype: DType) -> DType {
    match dtype {
        DType::F16 | DType::BF16 => DType::F32,
        d => d,
    }
}

/// A rule's gradient for an input like `like`, in its accumulation dtype:
/// `None` for integer and bool inputs; the real part for a real input.
pub(super) fn conform(op: &str, g: Tensor, like: &Tensor) -> Result<Option<Tensor>> {
    let dt = like.dtype();
    if !dt.is_inexact() {
        return Ok(None);
    }
    let g = if g.dtype().is_complex() && !dt.is_complex() { ops::real(&g)? } else { g };
    let want = accumulation_dtype(dt);
    let g = if g.dtype() == want { g } else { g.cast(want)? };
    if !crate::core::layout::same_shape(g.shape(), like.shape()) {
        return Err(Error::Unimplemented(format!(
            "gradient of {op}: the rule gave shape {:?} for an input of shape {:?} (a bug in the rule)",
            g.shape(),
            like.shape()
        )));
    }
    Ok(Some(g))
}

fn accumulate(grads: &mut HashMap<u64, Tensor>, id: u64, g: Tensor) -> Result<()> {
    match grads.remove(&id) {
        Some(old) => grads.insert(id, ops::add(&old, &g)?),
        None => grads.insert(id, g),
    };
    Ok(())
}

/// Gradients of `targets` (seeded with `seeds`, ones where `None`) with
/// respect to the tensors with ids `sources`, in accumulation dtypes.
pub(super) fn gradients(
    entries: &[Rc<Entry>],
    targets: &[&Tensor],
    seeds: Vec<Option<Tensor>>,
    sources: &[u64],
) -> Result<Vec<Option<Tensor>>> {
    // the rules choose their dtypes themselves; the lattice's join never refuses them
    let _mode = ModeGuard::new(PromotionMode::All);
    // ops reachable from the sources …
    let mut reach: HashSet<u64> = sources.iter().copied().filter(|&i| i != 0).collect();
    let mut needed = vec![false; entries.len()];
    for (k, e) in entries.iter().enumerate() {
        if e.input_ids.iter().any(|i| reach.contains(i)) {
            needed[k] = true;
            reach.extend(e.output_ids.iter().copied());
        }
    }
    // … that lead to a target
    let mut wanted: HashSet<u64> = targets.iter().map(|t| t.tape_id.get()).filter(|&i| i != 0).collect();
    for (k, e) in entries.iter().enumerate().rev() {
        if needed[k] && e.output_ids.iter().any(|i| wanted.contains(i)) {
            wanted.extend(e.input_ids.iter().copied());
        } else {
            needed[k] = false;
        }
    }
    let mut grads: HashMap<u64, Tensor> = HashMap::new();
    for (t, seed) in targets.iter().zip(seeds) {
        let id = t.tape_id.get();
        if id == 0 || !t.dtype().is_inexact() || !reach.contains(&id) {
            continue;
        }
        let seed = match seed {
            Some(s) => s,
            None => crate::ones_like(t, None)?,
        };
        if let Some(s) = conform("the target", seed, t)? {
            accumulate(&mut grads, id, s)?;
        }
    }
    let keep: HashSet<u64> = sources.iter().copied().collect();
    for (k, e) in entries.iter().enumerate().rev() {
        if !needed[k] || e.output_ids.iter().all(|i| !grads.contains_key(i)) {
            continue;
        }
        let mut out_grads = Vec::with_capacity(e.outputs.len());
        for (o, id) in e.outputs.iter().zip(&e.output_ids) {
            let g = if keep.contains(id) { grads.get(id).cloned() } else { grads.remove(id) };
            out_grads.push(match g {
                Some(g) => g,
                None => Tensor::zeros(o.shape(), accumulation_dtype(o.dtype()))?,
            });
        }
        let in_grads = rules::vjp(e, &out_grads)?;
        for ((x, &id), g) in e.inputs.iter().zip(&e.input_ids).zip(in_grads) {
            let Some(g) = g else { continue };
            if id == 0 || !reach.contains(&id) {
                continue;
            }
            if let Some(g) = conform(rules::name(&e.op), g, x)? {
                accumulate(&mut grads, id, g)?;
            }
        }
    }
    Ok(sources.iter().map(|id| grads.get(id).cloned()).collect())
}
