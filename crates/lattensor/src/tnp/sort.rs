//! `argsort`: the stable sorting permutation along an axis.

use super::{Value, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::layout::normalize_axis;
use crate::{Element, Tensor};

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
    let a = to_tensor(a)?;
    let (a, ax) = match axis {
        None => (a.reshape(&[-1])?, 0),
        Some(ax) => {
            let ax = normalize_axis(ax, a.rank(), "argsort")?;
            (a, ax)
        }
    };
    let r = a.rank();
    let mut perm: Vec<usize> = (0..r).filter(|&i| i != ax).collect();
    perm.push(ax);
    let at = a.transpose(&perm)?;
    let len = a.shape()[ax];
    let out = match a.dtype() {
        crate::DType::C64 => argsort_rows(at.to_vec::<num_complex::Complex32>()?, len, complex_order),
        crate::DType::C128 => argsort_rows(at.to_vec::<num_complex::Complex64>()?, len, complex_order),
        d => crate::dispatch_dtype!(d, T, argsort_rows(at.to_vec::<T>()?, len, nan_last::<T>), [
            Bool => bool, U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
            BF16 => half::bf16, F16 => half::f16, F32 => f32, F64 => f64,
        ], else => return Err(crate::ops::unary::unsupported("argsort", d, "every dtype"))),
    };
    let mut inv = vec![0usize; r];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    Tensor::from_vec(out, at.shape())?.transpose(&inv)?.contiguous()
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
}
