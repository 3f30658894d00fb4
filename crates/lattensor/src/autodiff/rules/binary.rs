//! Promoting binary ops: each operand's gradient, summed back over the axes
//! it was broadcast along. Ties in `maximum`/`minimum` go to the first
//! operand, as in TF.

use super::{masked, times_conj, unary::no_rule, unbroadcast};
use crate::Tensor;
use crate::core::error::Result;
use crate::ops::{self, combine::where_};

fn pair(ga: Option<Tensor>, gb: Option<Tensor>, a: &Tensor, b: &Tensor) -> Result<Vec<Option<Tensor>>> {
    let back = |g: Option<Tensor>, x: &Tensor| g.map(|g| unbroadcast(&g, x.shape())).transpose();
    Ok(vec![back(ga, a)?, back(gb, b)?])
}

/// The gradients of `a` and `b` for `out = name(a, b)`.
pub(super) fn vjp(name: &str, a0: &Tensor, b0: &Tensor, out: &Tensor, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    use ops::{divide, multiply, negative};
    // the op computed in its result's dtype: so do the derivatives (an int32 base of a
    // float32 power takes a float32 log; a float32 operand of a float64 op is widened first)
    let promoted = |t: &Tensor| -> Result<Tensor> {
        let d = out.dtype();
        if t.dtype() == d || !d.is_inexact() { Ok(t.clone()) } else { t.cast(d) }
    };
    let (a, b) = (&promoted(a0)?, &promoted(b0)?);
    let (ga, gb) = match name {
        "add" => (g.clone(), g.clone()),
        "subtract" => (g.clone(), negative(g)?),
        "multiply" => (times_conj(g, b)?, times_conj(g, a)?),
        "truediv" => (divide(g, &ops::conj(b)?)?, negative(&times_conj(g, &divide(out, b)?)?)?),
        "divide_no_nan" => {
            let gb = times_conj(g, &ops::divide_no_nan(&negative(out)?, b)?)?;
            (ops::divide_no_nan(g, &ops::conj(b)?)?, gb)
        }
        "multiply_no_nan" => (ops::multiply_no_nan(&ops::conj(b)?, g)?, ops::multiply_no_nan(&ops::conj(a)?, g)?),
        "pow" => {
            // d/da = b·a^(b-1); d/db = out·log(a), taken as 0 where a ≤ 0 (a = 0 for complex), as TF
            let da = multiply(b, &ops::pow(a, &ops::subtract(b, 1.0)?)?)?;
            let positive = if a.dtype().is_complex() { ops::not_equal(a, 0.0)? } else { ops::greater(a, 0.0)? };
            let safe = where_(&positive, a, &crate::ones_like(a, None)?)?;
            let log_a = where_(&positive, &ops::log(&safe)?, &crate::zeros_like(a, None)?)?;
            (times_conj(g, &da)?, times_conj(g, &multiply(out, &log_a)?)?)
        }
        "maximum" | "minimum" => {
            let first = if name == "maximum" { ops::greater_equal(a, b)? } else { ops::less_equal(a, b)? };
            let gb = where_(&first, &crate::zeros_like(g, None)?, g)?;
            (masked(&first, g)?, gb)
        }
        "atan2" => {
            // atan2(a, b): d/da = b/(a²+b²), d/db = -a/(a²+b²)
            let r2 = ops::add(&ops::square(a)?, &ops::square(b)?)?;
            (multiply(g, &divide(b, &r2)?)?, multiply(g, &divide(&negative(a)?, &r2)?)?)
        }
        "hypot" => (multiply(g, &divide(a, out)?)?, multiply(g, &divide(b, out)?)?),
        "floormod" => (g.clone(), negative(&multiply(g, &ops::floordiv(a, b)?)?)?),
        "truncatemod" => (g.clone(), negative(&multiply(g, &ops::truncatediv(a, b)?)?)?),
        "floordiv" | "truncatediv" => return Ok(vec![None, None]),
        // a step function: x2 is the value where x1 is 0; x1 only decides where (TF's
        // tnp builds it from `where` and comparisons, so x1 gets no gradient)
        "heaviside" => return pair(None, Some(masked(&ops::equal(a, 0.0)?.broadcast_to(g.shape())?, g)?), a, b),
        other => return Err(no_rule(other)),
    };
    pair(Some(ga), Some(gb), a0, b0)
}

/// `clip_by_value(x, lo, hi)`: `x` gets the gradient where `lo ≤ x ≤ hi`,
/// a bound where `x` is beyond it (TF's `maximum(minimum(x, hi), lo)` rule).
pub(super) fn clip(x: &Tensor, lo: &Tensor, hi: &Tensor, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    let inside = ops::logical_and(&ops::greater_equal(x, lo)?, &ops::less_equal(x, hi)?)?;
    let gx = unbroadcast(&masked(&inside, g)?, x.shape())?;
    let glo = unbroadcast(&masked(&ops::less(x, lo)?, g)?, lo.shape())?;
    let ghi = unbroadcast(&masked(&ops::greater(x, hi)?, g)?, hi.shape())?;
    Ok(vec![Some(gx), Some(glo), Some(ghi)])
}
