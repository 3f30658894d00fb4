//! Where the extremum is: [`argmax`] and [`argmin`] (`tf.math.argmax`,
//! `tf.math.argmin`; `tnp.argmax`/`tnp.argmin` flatten first when their axis
//! is `None`).

use crate::core::error::Result;
use crate::core::layout::normalize_axis;
use crate::kernels::extremum::{self, Extreme};
use crate::kernels::{par_map, row_major};
use crate::{DType, Tensor};

use super::unary::unsupported;

/// The index of the largest element along `axis` (negative counts from the
/// end), as `output_type` (int16, uint16, int32 or int64, TF's choices; TF's
/// default is int64). Ties give the first index; a NaN counts as larger than
/// every number, so the first NaN wins (NumPy's rule, under which
/// `x[argmax(x)]` is `reduce_max(x)`, which propagates NaN). bool compares as
/// `false < true`. The result is strong and has `x`'s shape without `axis`.
///
/// ```
/// use lattensor::{ops, DType, Tensor};
/// let x = Tensor::from_vec(vec![1i32, 5, 5, 7, 2, 7], &[2, 3]).unwrap();
/// let a = ops::argmax(&x, 0, DType::I64).unwrap();
/// assert_eq!(a.to_vec::<i64>().unwrap(), vec![1, 0, 1]);
/// let r = ops::argmax(&x, -1, DType::I32).unwrap();
/// assert_eq!((r.dtype(), r.to_vec::<i32>().unwrap()), (DType::I32, vec![1, 0]));
/// let f = Tensor::from_vec(vec![1.0f32, f32::NAN, 3.0], &[3]).unwrap();
/// assert_eq!(ops::argmax(&f, 0, DType::I64).unwrap().item::<i64>().unwrap(), 1);
/// ```
///
/// # Errors
/// [`crate::Error::UnsupportedDType`] for complex input (no order) or another
/// `output_type`; [`crate::Error::InvalidArgument`] for a scalar, an axis out
/// of range or an empty axis (there is no extremum to locate), and when the
/// axis is longer than `output_type` can count.
pub fn argmax(x: &Tensor, axis: isize, output_type: DType) -> Result<Tensor> {
    arg_extremum("argmax", x, axis, output_type, true)
}

/// The index of the smallest element along `axis`; as [`argmax`] with the
/// order reversed (the first NaN still wins: NaN is nobody's minimum either).
///
/// ```
/// use lattensor::{ops, DType, Tensor};
/// let x = Tensor::from_vec(vec![3u64, u64::MAX, 0, 0], &[4]).unwrap();
/// assert_eq!(ops::argmin(&x, 0, DType::I64).unwrap().item::<i64>().unwrap(), 2);
/// ```
///
/// # Errors
/// As [`argmax`].
pub fn argmin(x: &Tensor, axis: isize, output_type: DType) -> Result<Tensor> {
    arg_extremum("argmin", x, axis, output_type, false)
}

fn arg_extremum(op: &str, x: &Tensor, axis: isize, output_type: DType, max: bool) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(unsupported(op, x.dtype(), "every dtype but complex (complex numbers have no order)"));
    }
    if !matches!(output_type, DType::I16 | DType::U16 | DType::I32 | DType::I64) {
        return Err(unsupported(op, output_type, "int16, uint16, int32 or int64 as output_type"));
    }
    crate::ensure!(x.rank() > 0, "{op}: input is a scalar (shape []); it has no axis {axis}; reshape it to [1] first");
    let ax = normalize_axis(axis, x.rank(), op)?;
    let n = x.shape()[ax];
    crate::ensure!(n > 0, "{op}: axis {ax} of shape {:?} is empty; there is no extremum to locate", x.shape());
    let limit = output_type.iinfo().map_or(i128::MAX, |i| i.max);
    crate::ensure!(
        (n - 1) as i128 <= limit,
        "{op}: axis {ax} has {n} elements, more than output_type {output_type} can index; use int64"
    );
    // the reduced axis last, so that each row of the row-major copy is one search
    let perm: Vec<usize> = (0..x.rank()).filter(|&d| d != ax).chain([ax]).collect();
    let rows = x.transpose(&perm)?;
    let d = x.dtype();
    let idx: Vec<i64> = crate::with_order_compute!(d, S, C, positions::<C>(&rows, n, max, op)?, other => {
        return Err(unsupported(op, d, "every dtype but complex (complex numbers have no order)"));
    });
    let shape: Vec<usize> = x.shape().iter().enumerate().filter(|&(i, _)| i != ax).map(|(_, &s)| s).collect();
    Tensor::from_vec(idx, &shape)?.cast(output_type)
}

/// For each row of `n` values of `rows` (the searched axis last, read as `C`),
/// the index of its first maximum (`max`) or minimum, or of its first NaN.
fn positions<C: Extreme>(rows: &Tensor, n: usize, max: bool, op: &str) -> Result<Vec<i64>> {
    let copy;
    let values = match rows.as_slice::<C>() {
        Some(v) => v,
        None => {
            copy = row_major::<C>(rows, op)?;
            &copy[..]
        }
    };
    let first = if max { first_extremum::<C, true> } else { first_extremum::<C, false> };
    Ok(par_map(values.len() / n, values.len(), |o| first(&values[o * n..(o + 1) * n])))
}

/// The index of the first NaN of `row`, or else of the first element equal to
/// its extremum (`-0.0` equals `0.0`): the extremum's vectorised fold, then a
/// search that stops at the index.
fn first_extremum<C: Extreme, const MAX: bool>(row: &[C]) -> i64 {
    let m = extremum::fold::<C, MAX>(extremum::identity::<C, MAX>(), row);
    let at = if m.is_nan() { row.iter().position(|x| x.is_nan()) } else { row.iter().position(|&x| x == m) };
    at.unwrap_or(0) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Category;

    fn t<T: crate::Element>(v: Vec<T>, s: &[usize]) -> Tensor {
        Tensor::from_vec(v, s).unwrap()
    }

    #[test]
    fn every_real_dtype_along_every_axis_matches_a_naive_search() {
        let vals = [3i64, -1, 7, 7, 0, -5, 2, 7, -5, 1, 0, 3];
        for d in DType::ALL.iter().copied().filter(|d| !d.is_complex() && !d.is_low_precision()) {
            let x = t(vals.to_vec(), &[2, 3, 2]).cast(d).unwrap();
            let back = x.cast(DType::F64).unwrap().to_vec::<f64>().unwrap();
            for axis in 0..3 {
                for max in [true, false] {
                    let got =
                        if max { argmax(&x, axis as isize, DType::I64) } else { argmin(&x, axis as isize, DType::I64) }
                            .unwrap()
                            .to_vec::<i64>()
                            .unwrap();
                    // naive: walk the output's indices, scan the axis
                    let shape = [2usize, 3, 2];
                    let strides = [6usize, 2, 1];
                    let mut want = vec![];
                    for i in 0..2 {
                        for j in 0..3 {
                            for k in 0..2 {
                                let mut pos = [i, j, k];
                                if pos[axis] != 0 {
                                    continue;
                                }
                                let mut best = 0;
                                for q in 0..shape[axis] {
                                    pos[axis] = q;
                                    let v = back[pos.iter().zip(&strides).map(|(a, b)| a * b).sum::<usize>()];
                                    pos[axis] = best;
                                    let b = back[pos.iter().zip(&strides).map(|(a, b)| a * b).sum::<usize>()];
                                    if (max && v > b) || (!max && v < b) {
                                        best = q;
                                    }
                                }
                                want.push(best as i64);
                            }
                        }
                    }
                    assert_eq!(got, want, "{d} axis {axis} max {max}");
                }
            }
        }
    }

    #[test]
    fn nan_wins_ties_take_the_first_and_extremes_are_exact() {
        let f = t(vec![1.0f64, 3.0, f64::NAN, f64::NAN, -0.0, 0.0], &[6]);
        assert_eq!(argmax(&f, 0, DType::I64).unwrap().item::<i64>().unwrap(), 2);
        assert_eq!(argmin(&f, 0, DType::I64).unwrap().item::<i64>().unwrap(), 2);
        let z = t(vec![-0.0f32, 0.0], &[2]);
        assert_eq!(argmax(&z, 0, DType::I64).unwrap().item::<i64>().unwrap(), 0);
        let big = t(vec![i64::MAX - 1, i64::MAX, i64::MIN], &[3]);
        assert_eq!(argmax(&big, 0, DType::I64).unwrap().item::<i64>().unwrap(), 1);
        assert_eq!(argmin(&big, 0, DType::I64).unwrap().item::<i64>().unwrap(), 2);
        let u = t(vec![u64::MAX - 1, u64::MAX], &[2]);
        assert_eq!(argmax(&u, 0, DType::U16).unwrap().to_vec::<u16>().unwrap(), vec![1]);
        let b = t(vec![false, true, true], &[3]);
        assert_eq!(argmax(&b, 0, DType::I32).unwrap().item::<i32>().unwrap(), 1);
        // views: a transposed, reversed input
        let x = t(vec![1i32, 9, 3, 4], &[2, 2]).t();
        assert_eq!(argmax(&x, 1, DType::I64).unwrap().to_vec::<i64>().unwrap(), vec![1, 0]);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let c = t(vec![num_complex::Complex64::new(1.0, 0.0)], &[1]);
        assert!(argmax(&c, 0, DType::I64).unwrap_err().to_string().contains("no order"));
        let x = t(vec![1.0f32, 2.0], &[2]);
        assert!(argmax(&x, 0, DType::F32).unwrap_err().to_string().contains("output_type"));
        assert!(argmax(&t(vec![1.0f32], &[]), 0, DType::I64).unwrap_err().to_string().contains("scalar"));
        assert_eq!(argmax(&x, 1, DType::I64).unwrap_err().category(), Category::InvalidArgument);
        assert!(argmin(&t(Vec::<f32>::new(), &[2, 0]), 1, DType::I64).unwrap_err().to_string().contains("empty"));
        assert_eq!(argmin(&t(Vec::<f32>::new(), &[0, 2]), 1, DType::I64).unwrap().shape(), &[0]);
        let huge = t(vec![1.0f32], &[1]).broadcast_to(&[1 << 30, 1 << 30]).unwrap();
        assert_eq!(argmax(&huge, 1, DType::I64).unwrap_err().category(), Category::ResourceExhausted);
        let long = Tensor::zeros(&[40000], DType::U8).unwrap();
        assert!(argmax(&long, 0, DType::I16).unwrap_err().to_string().contains("int64"));
        assert_eq!(argmax(&long, 0, DType::U16).unwrap().item::<u16>().unwrap(), 0);
    }
}
