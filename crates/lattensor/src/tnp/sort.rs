//! `sort` and `argsort`: NumPy's order (ascending, NaN last; complex numbers
//! by real then imaginary part) along an axis, stably.

use super::{Value, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::layout::normalize_axis;
use crate::ops::matrix::need_rank;
use crate::ops::unary::unsupported;
use crate::{Element, Tensor};

/// `a` with the sorted axis moved last (the flattened `a` if `axis` is `None`),
/// the length of that axis, and the permutation that moves it back.
struct AxisLast {
    rows: Tensor,
    len: usize,
    back: Vec<usize>,
}

impl AxisLast {
    fn new(op: &str, a: Tensor, axis: Option<isize>) -> Result<(Tensor, Self)> {
        let (a, ax) = match axis {
            None => (a.reshape(&[-1])?, 0),
            Some(ax) => {
                let ax = normalize_axis(ax, a.rank(), op)?;
                (a, ax)
            }
        };
        let r = a.rank();
        let mut perm: Vec<usize> = (0..r).filter(|&i| i != ax).collect();
        perm.push(ax);
        let mut back = vec![0usize; r];
        for (i, &p) in perm.iter().enumerate() {
            back[p] = i;
        }
        let axis_last = AxisLast { rows: a.transpose(&perm)?, len: a.shape()[ax], back };
        Ok((a, axis_last))
    }
}

/// Orders `x` before `y` as NumPy sorts: ascending, NaN after everything.
#[allow(clippy::eq_op)] // x != x is the generic NaN test
fn nan_last<T: PartialOrd>(x: &T, y: &T) -> std::cmp::Ordering {
    x.partial_cmp(y).unwrap_or_else(|| (x != x).cmp(&(y != y)))
}

/// Complex numbers sort by real part, then imaginary part (NumPy's order).
fn complex_order<T: PartialOrd>(x: &num_complex::Complex<T>, y: &num_complex::Complex<T>) -> std::cmp::Ordering {
    nan_last(&x.re, &y.re).then_with(|| nan_last(&x.im, &y.im))
}

fn argsort_rows<T: Element>(src: Vec<T>, len: usize, cmp: impl Fn(&T, &T) -> std::cmp::Ordering) -> Vec<i32> {
    let mut out = Vec::with_capacity(src.len());
    if len == 0 {
        return out;
    }
    let mut idx: Vec<usize> = Vec::with_capacity(len);
    for row in src.chunks(len) {
        idx.clear();
        idx.extend(0..len);
        idx.sort_by(|&i, &j| cmp(&row[i], &row[j])); // stable: ties keep their order
        out.extend(idx.iter().map(|&i| i as i32));
    }
    out
}

/// The indices that sort `a` along `axis` (`tnp.argsort`; the flattened `a` if
/// `None`): ascending, NaNs last, ties in their original order (a stable
/// sort, whatever NumPy `kind` is asked for); complex numbers by real then
/// imaginary part. Strong int32, as in TF (NumPy gives int64).
///
/// ```
/// use lattensor::{tnp, DType};
/// let i = tnp::argsort([3.0, f64::NAN, 1.0, 3.0], Some(-1)).unwrap();
/// assert_eq!((i.dtype(), i.to_vec::<i32>().unwrap()), (DType::I32, vec![2, 0, 3, 1]));
/// let m = tnp::argsort(vec![vec![2, 1], vec![0, 5]], Some(0)).unwrap();
/// assert_eq!(m.to_vec::<i32>().unwrap(), vec![1, 0, 0, 1]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an axis out of range (a 0-d input has none
/// unless `axis` is `None`); [`Error::ResourceExhausted`] if a copy is too big.
pub fn argsort(a: impl Into<Value>, axis: Option<isize>) -> Result<Tensor> {
    let (a, AxisLast { rows, len, back }) = AxisLast::new("argsort", to_tensor(a)?, axis)?;
    let out = match a.dtype() {
        crate::DType::C64 => argsort_rows(rows.to_vec::<num_complex::Complex32>()?, len, complex_order),
        crate::DType::C128 => argsort_rows(rows.to_vec::<num_complex::Complex64>()?, len, complex_order),
        d => crate::dispatch_dtype!(d, T, argsort_rows(rows.to_vec::<T>()?, len, nan_last::<T>), [
            Bool => bool, U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
            BF16 => half::bf16, F16 => half::f16, F32 => f32, F64 => f64,
        ], else => return Err(unsupported("argsort", d, "every dtype"))),
    };
    Tensor::from_vec(out, rows.shape())?.transpose(&back)?.contiguous()
}

/// Sorts along `axis` (`tnp.sort`; `None` sorts the flattened input), ascending, NaNs last.
/// Bool, uint32 and uint64 are accepted (TF 2.21 refuses them).
///
/// ```
/// let s = lattensor::numpy::sort(vec![3.0, f64::NAN, -1.0], Some(-1)).unwrap();
/// let v = s.to_vec::<f32>().unwrap();
/// assert_eq!(&v[..2], &[-1.0, 3.0]);
/// assert!(v[2].is_nan());
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for complex (as TF); [`Error::InvalidArgument`] for an axis out of range.
pub fn sort(a: impl Into<Value>, axis: Option<isize>) -> Result<Tensor> {
    let a = to_tensor(a)?;
    if axis.is_some() {
        need_rank("sort", &a, 1)?;
    }
    crate::core::tape::op(
        &[&a],
        || sort_of(a.clone(), axis),
        || {
            // argsort orders as sort does (stably, NaNs last): the gradient goes back
            // through that permutation (computed unrecorded: the tapes are busy
            // recording this op while its description is made)
            let order = crate::core::tape::paused(|| argsort(&a, axis));
            super::selection(move |t| super::take_along_axis(t, order.clone()?, axis))
        },
    )
}

fn sort_of(a: Tensor, axis: Option<isize>) -> Result<Tensor> {
    let (a, AxisLast { rows, len, back }) = AxisLast::new("sort", a, axis)?;
    let mut out = Tensor::zeros(rows.shape(), a.dtype())?;
    fn sort_rows<T: Element + PartialOrd>(src: Vec<T>, dst: &mut [T], len: usize) {
        dst.copy_from_slice(&src);
        if len > 0 {
            dst.chunks_mut(len).for_each(|row| row.sort_by(nan_last));
        }
    }
    crate::dispatch_dtype!(a.dtype(), T, sort_rows::<T>(rows.to_vec::<T>()?, out.data_mut::<T>(), len), [
        Bool => bool, U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
        BF16 => half::bf16, F16 => half::f16, F32 => f32, F64 => f64,
    ], else => return Err(unsupported("sort", a.dtype(), "every dtype but complex")));
    Ok(out.transpose(&back)?.with_weak(a.is_weak()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argsort_is_stable_on_every_axis() {
        let x = Tensor::from_vec(vec![1i16, 1, 0, 0, 1, 0], &[2, 3]).unwrap();
        assert_eq!(argsort(&x, Some(1)).unwrap().to_vec::<i32>().unwrap(), vec![2, 0, 1, 0, 2, 1]);
        assert_eq!(argsort(&x, None).unwrap().to_vec::<i32>().unwrap(), vec![2, 3, 5, 0, 1, 4]);
        assert_eq!(argsort(&x, Some(0)).unwrap().shape(), &[2, 3]);
        assert!(argsort(&x, Some(2)).is_err());
        let b = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        assert_eq!(argsort(&b, Some(-1)).unwrap().to_vec::<i32>().unwrap(), vec![1, 0]);
    }

    #[test]
    fn sort_orders_nan_last_and_handles_unsigned() {
        let u = Tensor::from_vec(vec![u64::MAX, 0, 5], &[3]).unwrap();
        assert_eq!(sort(&u, Some(0)).unwrap().to_vec::<u64>().unwrap(), vec![0, 5, u64::MAX]);
        let m = Tensor::from_vec(vec![3.0f32, 1.0, f32::NAN, -2.0], &[2, 2]).unwrap();
        let s = sort(&m, Some(0)).unwrap().to_vec::<f32>().unwrap();
        assert_eq!((s[0], s[1], s[3]), (3.0, -2.0, 1.0)); // [[3, 1], [nan, -2]] sorted down the columns
        assert!(s[2].is_nan());
        assert!(sort(Tensor::scalar(num_complex::Complex32::new(1.0, 0.0)), None).is_err());
    }
}
