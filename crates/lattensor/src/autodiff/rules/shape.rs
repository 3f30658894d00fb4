//! Shape and indexing ops: gradients route back to the positions the
//! forward op read, with a scatter-add ([`unsorted_segment_sum`](crate::ops::unsorted_segment_sum))
//! where positions can repeat.

use super::{dims, masked, unbroadcast};
use crate::core::error::Result;
use crate::ops::{self, combine::where_};
use crate::{DType, Tensor};

/// A selection's adjoint: the selection applied to the inputs' element
/// positions (from 1, across all inputs) tells where each output element came
/// from; the gradient is scattered back there, summing repeats and dropping
/// fillers (positions 0 and below).
pub(super) fn select(
    pick: &(dyn Fn(&[Tensor]) -> Result<Tensor> + '_),
    inputs: &[Tensor],
    g: &Tensor,
) -> Result<Vec<Option<Tensor>>> {
    let mut start = 1i64;
    let mut positions = Vec::with_capacity(inputs.len());
    for x in inputs {
        let n = x.numel() as i64;
        positions.push(
            Tensor::from_vec((start..start + n).collect::<Vec<i64>>(), &[n as usize])?.reshape(&dims(x.shape()))?,
        );
        start += n;
    }
    let total = (start - 1) as usize;
    let from = ops::subtract(&pick(&positions)?.reshape(&[-1])?, 1)?;
    let summed = ops::unsorted_segment_sum(&g.reshape(&[-1])?, &from, total)?;
    let mut out = Vec::with_capacity(inputs.len());
    let mut at = 0isize;
    for x in inputs {
        let n = x.numel() as isize;
        let part = summed.slice(&[crate::SliceArg::range(at, at + n)])?;
        out.push(Some(part.reshape(&dims(x.shape()))?));
        at += n;
    }
    Ok(out)
}

/// `concat`: each input gets its stretch of the gradient.
pub(super) fn concat(inputs: &[Tensor], g: &Tensor, axis: usize) -> Result<Vec<Option<Tensor>>> {
    let sizes: Vec<i64> = inputs.iter().map(|t| t.shape()[axis] as i64).collect();
    let parts = ops::array_ops::split(g, ops::array_ops::Splits::Sizes(sizes), axis as isize)?;
    Ok(parts.into_iter().map(Some).collect())
}

/// `stack`: each input gets its slice of the gradient along the new axis.
pub(super) fn stack(n: usize, g: &Tensor, axis: usize) -> Result<Vec<Option<Tensor>>> {
    if n == 0 {
        return Ok(vec![]);
    }
    let parts = ops::array_ops::split(g, ops::array_ops::Splits::Count(n as i64), axis as isize)?;
    parts.into_iter().map(|p| p.squeeze(&[axis as isize]).map(Some)).collect()
}

/// `where(c, x, y)`: `x` where the condition holds, `y` elsewhere; none for the condition.
pub(super) fn where_grad(c: &Tensor, x: &Tensor, y: &Tensor, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    let c = c.broadcast_to(g.shape())?;
    let gx = unbroadcast(&masked(&c, g)?, x.shape())?;
    let gy = unbroadcast(&where_(&c, &crate::zeros_like(g, None)?, g)?, y.shape())?;
    Ok(vec![None, Some(gx), Some(gy)])
}

/// `gather(params, indices, axis)`: the gradient rows are added back into
/// the rows they were read from.
pub(super) fn gather(
    params: &Tensor,
    indices: &Tensor,
    g: &Tensor,
    axis: usize,
    batch_dims: usize,
) -> Result<Vec<Option<Tensor>>> {
    if batch_dims != 0 {
        // a selection: gather the positions of params' elements the same way and scatter back
        let pick = |t: &[Tensor]| ops::gather::gather(&t[0], indices, axis as isize, batch_dims as isize);
        let mut g = select(&pick, std::slice::from_ref(params), g)?;
        g.push(None);
        return Ok(g);
    }
    let (pr, ir) = (params.rank(), indices.rank());
    // g: params[..axis] + indices.shape + params[axis+1..] → index axes first, flattened
    let perm: Vec<usize> = (axis..axis + ir).chain(0..axis).chain(axis + ir..g.rank()).collect();
    let rows = g.transpose(&perm)?;
    let mut flat_shape: Vec<isize> = vec![indices.numel() as isize];
    flat_shape.extend(rows.shape()[ir..].iter().map(|&d| d as isize));
    let rows = rows.reshape(&flat_shape)?;
    let ids = indices.reshape(&[-1])?;
    let summed = ops::unsorted_segment_sum(&rows, &ids, params.shape()[axis])?;
    // summed: [params[axis]] + params[..axis] + params[axis+1..] → params' order
    let back: Vec<usize> = (1..=axis).chain(std::iter::once(0)).chain(axis + 1..pr).collect();
    Ok(vec![Some(summed.transpose(&back)?), None])
}

/// `unsorted_segment_sum(data, ids, n)`: each row of data gets its segment's gradient (0 for dropped ids).
pub(super) fn segment_sum(data: &Tensor, ids: &Tensor, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    let flat = ids.reshape(&[-1])?;
    let valid = ops::greater_equal(&flat, 0)?;
    let safe = ops::maximum(&flat, 0)?.cast(DType::I64)?;
    let rows = ops::gather::gather(g, &safe, 0, 0)?;
    let mut shape: Vec<usize> = vec![flat.numel()];
    shape.extend_from_slice(&g.shape()[1..]);
    let mut vshape = vec![flat.numel()];
    vshape.extend(std::iter::repeat_n(1, g.rank().saturating_sub(1)));
    let valid = valid.reshape(&dims(&vshape))?.broadcast_to(&shape)?;
    let gd = masked(&valid, &rows)?.reshape(&dims(data.shape()))?;
    Ok(vec![Some(gd), None])
}
