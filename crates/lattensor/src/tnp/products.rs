//! Products: `matmul`, `dot`, `inner`, `vdot`, `outer`, `tensordot`, `kron`, `cross`.
//!
//! `matmul` is the library's matrix product with NumPy's vector rule. All
//! the others but `cross` run as one einsum (TF's front end), so mixed dtypes join
//! through the lattice and the result is strong; every numeric dtype works
//! (bool computes `or` of `and`s) and integers wrap. A scalar operand of
//! `dot`/`inner` multiplies instead, keeping the join's weakness as `*` does.
//! `cross` is computed with `*`, `-` and `stack`, so it joins weakness too.

use super::{Value, moveaxis, ravel, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::einsum::{Front, PathOptions, einsum};
use crate::ops;
use crate::{DType, SliceArg, Tensor};

/// The einsum labels: TF's front end takes ASCII letters, 52 in all.
const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The labels `LETTERS[from..to]` as a string.
fn labels(from: usize, to: usize) -> String {
    String::from_utf8_lossy(&LETTERS[from..to]).into_owned()
}

/// Refuses operands whose einsum needs more labels than there are letters.
fn check_labels(op: &str, needed: usize, ranks: (usize, usize)) -> Result<()> {
    crate::ensure!(
        needed <= LETTERS.len(),
        "{op}: operands of ranks {} and {} need {needed} einsum labels, more than the {} there are; \
         reshape the operands to fewer axes first",
        ranks.0,
        ranks.1,
        LETTERS.len()
    );
    Ok(())
}

/// `tnp.matmul` (and the `@` operator): NumPy's matmul — the matrix product
/// batched over broadcast leading axes, where a 1-D operand is a vector: a
/// length-1 axis is put before it (`a`) or after it (`b`) for the product and
/// taken out of the result.
///
/// ```
/// use lattensor::{tnp, Tensor};
/// let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
/// let v = Tensor::from_vec(vec![1.0f32, 0.0, -1.0], &[3]).unwrap();
/// let y = tnp::matmul(&a, &v).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<f32>().unwrap()), (&[2usize][..], vec![-2.0, -2.0]));
/// let w = tnp::matmul(&v, &v).unwrap();
/// assert_eq!((w.shape(), w.to_vec::<f32>().unwrap()), (&[][..], vec![2.0]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a 0-d operand or mismatched inner
/// dimensions, and as [`ops::linalg::matmul`](crate::ops::linalg::matmul).
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::ensure!(
        a.rank() > 0 && b.rank() > 0,
        "matmul: operands must have at least one dimension, got shapes {:?} and {:?}; use multiply for scalars",
        a.shape(),
        b.shape()
    );
    let (va, vb) = (a.rank() == 1, b.rank() == 1);
    if !va && !vb {
        return ops::linalg::matmul(a, b, false, false);
    }
    let a2 = if va { a.reshape(&[1, -1])? } else { a.clone() };
    let b2 = if vb { b.reshape(&[-1, 1])? } else { b.clone() };
    let r = ops::linalg::matmul(&a2, &b2, false, false)?;
    let n = r.rank();
    let mut shape: Vec<isize> = r.shape()[..n - 2].iter().map(|&d| d as isize).collect();
    if !va {
        shape.push(r.shape()[n - 2] as isize);
    }
    if !vb {
        shape.push(r.shape()[n - 1] as isize);
    }
    r.reshape(&shape)
}

/// `tnp.dot`: a scalar operand multiplies; otherwise the sum over `a`'s last
/// axis and `b`'s second-to-last (its only one if 1-D), as NumPy. Result shape
/// `a.shape[:-1] + b.shape[:-2] + b.shape[-1:]`.
///
/// Dtypes join through the lattice; the result is strong (an einsum), except
/// that a scalar operand gives `a * b`, weak iff the join is.
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::dot(vec![vec![1, 2], vec![3, 4]], [1, 1]).unwrap();
/// assert_eq!((y.dtype(), y.is_weak(), y.to_vec::<i32>().unwrap()), (DType::I32, false, vec![3, 7]));
/// let m = tnp::dot(vec![vec![1.5, 2.0]], vec![vec![1.0], vec![2.0]]).unwrap();
/// assert_eq!((m.shape(), m.to_vec::<f32>().unwrap()), (&[1usize, 1][..], vec![5.5]));
/// assert_eq!(tnp::dot(2, [3, 4]).unwrap().to_vec::<i32>().unwrap(), vec![6, 8]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if the contracted axes differ in length or the
/// ranks add up to more than 52; [`Error::Promotion`] if the mode refuses
/// the dtypes.
pub fn dot(a: impl Into<Value>, b: impl Into<Value>) -> Result<Tensor> {
    let (a, b) = (to_tensor(a)?, to_tensor(b)?);
    let (ra, rb) = (a.rank(), b.rank());
    if ra == 0 || rb == 0 {
        return ops::multiply(&a, &b);
    }
    check_labels("dot", ra + rb, (ra, rb))?;
    // the contracted label is the last letter, which the free axes never reach
    let k = labels(51, 52);
    let left = labels(0, ra - 1);
    let equation = if rb == 1 {
        format!("{left}{k},{k}->{left}")
    } else {
        let right = labels(ra - 1, ra + rb - 2);
        let (lead, last) = right.split_at(right.len() - 1);
        format!("{left}{k},{lead}{k}{last}->{left}{right}")
    };
    einsum(&equation, &[&a, &b])
}

/// `tnp.inner`: the sum over the last axes of `a` and `b` (a scalar operand
/// multiplies); result shape `a.shape[:-1] + b.shape[:-1]`. Dtypes and
/// weakness as [`dot`].
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// let a = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
/// let b = Tensor::from_vec(vec![3i16, 4], &[2]).unwrap();
/// let y = tnp::inner(&a, &b).unwrap();
/// assert_eq!((y.dtype(), y.item::<i16>().unwrap()), (DType::I16, 11));
/// let m = tnp::inner(vec![vec![1.0, 2.0], vec![3.0, 4.0]], vec![vec![1.0, 1.0]]).unwrap();
/// assert_eq!((m.shape(), m.to_vec::<f32>().unwrap()), (&[2usize, 1][..], vec![3.0, 7.0]));
/// ```
///
/// # Errors
/// As [`dot`] (the last axes must have one length).
pub fn inner(a: impl Into<Value>, b: impl Into<Value>) -> Result<Tensor> {
    let (a, b) = (to_tensor(a)?, to_tensor(b)?);
    let (ra, rb) = (a.rank(), b.rank());
    if ra == 0 || rb == 0 {
        return ops::multiply(&a, &b);
    }
    check_labels("inner", ra + rb - 1, (ra, rb))?;
    let k = labels(51, 52);
    let (la, lb) = (labels(0, ra - 1), labels(ra - 1, ra + rb - 2));
    einsum(&format!("{la}{k},{lb}{k}->{la}{lb}"), &[&a, &b])
}

/// `tnp.vdot`: `sum(conj(ravel(a)) * ravel(b))`, a 0-d tensor (`a` is
/// conjugated if complex). Dtypes join through the lattice; strong.
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// use num_complex::Complex64 as C;
/// let a = Tensor::from_vec(vec![C::new(1.0, 2.0), C::new(0.0, 3.0)], &[2]).unwrap();
/// let b = Tensor::from_vec(vec![C::new(2.0, 0.0), C::new(0.0, 1.0)], &[2]).unwrap();
/// let y = tnp::vdot(&a, &b).unwrap();
/// assert_eq!((y.dtype(), y.item::<C>().unwrap()), (DType::C128, C::new(5.0, -4.0)));
/// assert_eq!(tnp::vdot(vec![vec![1, 2], vec![3, 4]], [1, 0, 0, 1]).unwrap().item::<i32>().unwrap(), 5);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if the operands have different numbers of
/// elements; [`Error::Promotion`] if the mode refuses the dtypes.
pub fn vdot(a: impl Into<Value>, b: impl Into<Value>) -> Result<Tensor> {
    let (mut a, b) = (ravel(a)?, ravel(b)?);
    if a.dtype().is_complex() {
        a = ops::conj(&a)?;
    }
    einsum("i,i->", &[&a, &b])
}

/// `tnp.outer`: `ravel(a)[i] * ravel(b)[j]`, of shape `(a.size, b.size)`.
/// Dtypes join through the lattice; strong.
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::outer([1, 2], [1.5, 2.0, 3.0]).unwrap();
/// assert_eq!((y.dtype(), y.shape()), (DType::F32, &[2usize, 3][..]));
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.5, 2.0, 3.0, 3.0, 4.0, 6.0]);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses the dtypes.
pub fn outer(a: impl Into<Value>, b: impl Into<Value>) -> Result<Tensor> {
    let (a, b) = (ravel(a)?, ravel(b)?);
    einsum("i,j->ij", &[&a, &b])
}

/// The axes [`tensordot`] sums over. Rust literals convert: `2` is
/// `Last(2)`, `(-1, 0)` and `([1, 2], [1, 0])` are `Pairs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TensordotAxes {
    /// `a`'s last `n` axes against `b`'s first `n` (NumPy's `axes=n`; a
    /// negative `n` is refused).
    Last(isize),
    /// `a`'s axes in the first list against `b`'s in the second, pairwise
    /// (negative axes count from the end).
    Pairs(Vec<isize>, Vec<isize>),
}

// Only `i32` forms, the type Rust gives unsuffixed literals, so that `2` and
// `(-1, 0)` infer (as `Axes` does).
impl From<i32> for TensordotAxes {
    fn from(n: i32) -> Self {
        TensordotAxes::Last(n as isize)
    }
}

impl From<(i32, i32)> for TensordotAxes {
    fn from((a, b): (i32, i32)) -> Self {
        TensordotAxes::Pairs(vec![a as isize], vec![b as isize])
    }
}

impl From<(Vec<i32>, Vec<i32>)> for TensordotAxes {
    fn from((a, b): (Vec<i32>, Vec<i32>)) -> Self {
        let wide = |v: Vec<i32>| v.into_iter().map(|x| x as isize).collect();
        TensordotAxes::Pairs(wide(a), wide(b))
    }
}

impl<const N: usize, const M: usize> From<([i32; N], [i32; M])> for TensordotAxes {
    fn from((a, b): ([i32; N], [i32; M])) -> Self {
        TensordotAxes::from((a.to_vec(), b.to_vec()))
    }
}

/// `axes` of an operand of rank `rank`, normalised and checked for repeats.
fn contracted(op: &str, which: &str, axes: &[isize], rank: usize) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(axes.len());
    for &ax in axes {
        let a = if ax < 0 { ax + rank as isize } else { ax };
        crate::ensure!(
            (0..rank as isize).contains(&a),
            "{op}: axis {ax} is out of range for {which} of rank {rank}; axes must lie in [-{rank}, {rank})"
        );
        crate::ensure!(!out.contains(&(a as usize)), "{op}: axis {ax} of {which} is given twice in {axes:?}");
        out.push(a as usize);
    }
    Ok(out)
}

/// `tnp.tensordot`: sums over `axes` ([`TensordotAxes::Last`]`(n)`: `a`'s last
/// `n` axes with `b`'s first `n`; or pairs of axis lists); the free axes of
/// `a` then of `b` remain, in order. Dtypes join through the lattice; strong.
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// let a = Tensor::from_vec(vec![1i16, 2, 3, 4], &[2, 2]).unwrap();
/// let b = Tensor::from_vec(vec![5i16, 6], &[2, 1]).unwrap();
/// let y = tnp::tensordot(&a, &b, (-1, 0)).unwrap();
/// assert_eq!((y.dtype(), y.shape(), y.to_vec::<i16>().unwrap()), (DType::I16, &[2usize, 1][..], vec![17, 39]));
/// assert_eq!(tnp::tensordot([1, 2], [3, 4], 0).unwrap().to_vec::<i32>().unwrap(), vec![3, 4, 6, 8]);
/// assert_eq!(tnp::tensordot(&a, &a, 2).unwrap().item::<i16>().unwrap(), 30);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `n` exceeds either rank, the axis lists differ
/// in length, an axis is out of range or repeated, paired axes differ in
/// length, or the ranks add up to more than 52; [`Error::Promotion`] if the
/// mode refuses the dtypes.
pub fn tensordot(a: impl Into<Value>, b: impl Into<Value>, axes: impl Into<TensordotAxes>) -> Result<Tensor> {
    tensordot_in(to_tensor(a)?, to_tensor(b)?, axes.into(), None)
}

/// [`tensordot`] accumulating in, and returning, `preferred` (JAX's
/// `preferred_element_type`; the rules are [`crate::ops::preferred`]'s).
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// let a = Tensor::from_vec(vec![200u8; 4], &[2, 2]).unwrap();
/// let y = tnp::tensordot_preferred(&a, &a, 1, DType::U32).unwrap();
/// assert_eq!((y.dtype(), y.to_vec::<u32>().unwrap()), (DType::U32, vec![80000; 4]));
/// ```
///
/// # Errors
/// As [`tensordot`]; [`Error::InvalidType`] for a `preferred` the operands
/// cannot convert to.
pub fn tensordot_preferred(
    a: impl Into<Value>,
    b: impl Into<Value>,
    axes: impl Into<TensordotAxes>,
    preferred: DType,
) -> Result<Tensor> {
    tensordot_in(to_tensor(a)?, to_tensor(b)?, axes.into(), Some(preferred))
}

fn tensordot_in(a: Tensor, b: Tensor, axes: TensordotAxes, preferred: Option<DType>) -> Result<Tensor> {
    let op = "tensordot";
    let (ra, rb) = (a.rank(), b.rank());
    let (ax_a, ax_b) = match axes {
        TensordotAxes::Last(n) => {
            crate::ensure!(
                n >= 0 && n as usize <= ra.min(rb),
                "{op}: axes={n} does not fit ranks {ra} and {rb}; it must lie in [0, {}]",
                ra.min(rb)
            );
            let n = n as usize;
            ((ra - n..ra).collect::<Vec<_>>(), (0..n).collect::<Vec<_>>())
        }
        TensordotAxes::Pairs(xa, xb) => {
            crate::ensure!(xa.len() == xb.len(), "{op}: {} axes of a against {} of b", xa.len(), xb.len());
            (contracted(op, "a", &xa, ra)?, contracted(op, "b", &xb, rb)?)
        }
    };
    check_labels(op, ra + rb, (ra, rb))?;
    let la: Vec<u8> = LETTERS[..ra].to_vec();
    let mut lb: Vec<u8> = LETTERS[ra..ra + rb].to_vec();
    for (&i, &j) in ax_a.iter().zip(&ax_b) {
        lb[j] = la[i];
    }
    let free_a = la.iter().enumerate().filter(|(i, _)| !ax_a.contains(i)).map(|(_, &c)| c);
    let free_b = lb.iter().enumerate().filter(|(j, _)| !ax_b.contains(j)).map(|(_, &c)| c);
    let out: Vec<u8> = free_a.chain(free_b).collect();
    let text = |l: &[u8]| String::from_utf8_lossy(l).into_owned();
    let equation = format!("{},{}->{}", text(&la[..]), text(&lb[..]), text(&out[..]));
    match preferred {
        None => einsum(&equation, &[&a, &b]),
        Some(p) => crate::einsum::einsum_preferred(Front::Tf, &equation, &[&a, &b], PathOptions::default(), p),
    }
}

/// `tnp.kron`: the Kronecker product. The shapes are padded with leading 1s
/// to one rank `n`; the result has shape `a.shape[i] * b.shape[i]` and block
/// `i` is `a[i] * b`. Dtypes join through the lattice; strong.
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// assert_eq!(tnp::kron([1, 2], [1, 10]).unwrap().to_vec::<i32>().unwrap(), vec![1, 10, 2, 20]);
/// let k = tnp::kron(vec![vec![1, 2]], vec![vec![1], vec![1]]).unwrap();
/// assert_eq!((k.shape(), k.to_vec::<i32>().unwrap()), (&[2usize, 2][..], vec![1, 2, 1, 2]));
/// let a = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
/// let b = Tensor::from_vec(vec![3i16], &[1]).unwrap();
/// assert_eq!(tnp::kron(&a, &b).unwrap().dtype(), DType::I16);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if the larger rank exceeds 26;
/// [`Error::Promotion`] if the mode refuses the dtypes;
/// [`Error::ResourceExhausted`] if the result is too large.
pub fn kron(a: impl Into<Value>, b: impl Into<Value>) -> Result<Tensor> {
    let (a, b) = (to_tensor(a)?, to_tensor(b)?);
    let n = a.rank().max(b.rank());
    if n == 0 {
        return einsum(",->", &[&a, &b]);
    }
    check_labels("kron", 2 * n, (a.rank(), b.rank()))?;
    let padded = |t: &Tensor| -> Vec<usize> {
        let mut s = vec![1; n - t.rank()];
        s.extend_from_slice(t.shape());
        s
    };
    let (sa, sb) = (padded(&a), padded(&b));
    let as_isize = |s: &[usize]| s.iter().map(|&d| d as isize).collect::<Vec<_>>();
    let (a, b) = (a.reshape(&as_isize(&sa))?, b.reshape(&as_isize(&sb))?);
    let (la, lb) = (labels(0, n), labels(n, 2 * n));
    let paired: String = la.chars().zip(lb.chars()).flat_map(|(x, y)| [x, y]).collect();
    let product = einsum(&format!("{la},{lb}->{paired}"), &[&a, &b])?;
    let mut shape = Vec::with_capacity(n);
    for (&x, &y) in sa.iter().zip(&sb) {
        let d = x
            .checked_mul(y)
            .and_then(|d| isize::try_from(d).ok())
            .ok_or_else(|| crate::Error::ResourceExhausted(format!("kron: an axis of length {x} × {y} overflows")))?;
        shape.push(d);
    }
    product.reshape(&shape)
}

/// `tnp.cross`: the cross product of 2- or 3-component vectors along `axisa`
/// of `a` and `axisb` of `b` (NumPy's `axis=` sets all three axes). Two
/// 2-vectors give the scalar z component; a 2-vector is taken with z = 0.
/// The other axes broadcast; the components go along `axisc` of the result.
///
/// Computed with `*`, `-` and `stack`, so dtypes and weakness join through the
/// lattice as `a * b` does.
///
/// ```
/// use lattensor::{tnp, DType};
/// let c = tnp::cross([1, 2, 3], [4, 5, 6], -1, -1, -1).unwrap();
/// assert_eq!((c.dtype(), c.to_vec::<i32>().unwrap()), (DType::I32, vec![-3, 6, -3]));
/// let z = tnp::cross([1.0, 2.0], [4.0, 5.0], -1, -1, -1).unwrap();
/// assert_eq!((z.shape(), z.item::<f32>().unwrap()), (&[0usize; 0][..], -3.0));
/// let m = tnp::cross([1.0, 2.0], [4.0, 5.0, 6.0], -1, -1, -1).unwrap();
/// assert_eq!(m.to_vec::<f32>().unwrap(), vec![12.0, -6.0, -3.0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if a vector axis has other than 2 or 3
/// components or an axis is out of range (a 0-d operand has none);
/// [`Error::ShapeMismatch`] if the other axes do not broadcast;
/// [`Error::Promotion`] if the mode refuses the dtypes.
pub fn cross(a: impl Into<Value>, b: impl Into<Value>, axisa: isize, axisb: isize, axisc: isize) -> Result<Tensor> {
    let a = moveaxis(&to_tensor(a)?, axisa as i32, 0)?;
    let b = moveaxis(&to_tensor(b)?, axisb as i32, 0)?;
    let (na, nb) = (a.shape()[0], b.shape()[0]);
    crate::ensure!(
        matches!(na, 2 | 3) && matches!(nb, 2 | 3),
        "cross: incompatible dimensions for cross product (dimension must be 2 or 3), got {na} and {nb}"
    );
    let part = |t: &Tensor, i: isize| t.slice(&[SliceArg::Index(i)]);
    let (a0, a1, b0, b1) = (part(&a, 0)?, part(&a, 1)?, part(&b, 0)?, part(&b, 1)?);
    let mul = |x: &Tensor, y: &Tensor| ops::multiply(x, y);
    let z = ops::subtract(&mul(&a0, &b1)?, &mul(&a1, &b0)?)?;
    if na == 2 && nb == 2 {
        return Ok(z);
    }
    let (x, y) = if na == 2 {
        let b2 = part(&b, 2)?;
        (mul(&a1, &b2)?, ops::negative(&mul(&a0, &b2)?)?)
    } else if nb == 2 {
        let a2 = part(&a, 2)?;
        (ops::negative(&mul(&a2, &b1)?)?, mul(&a2, &b0)?)
    } else {
        let (a2, b2) = (part(&a, 2)?, part(&b, 2)?);
        (ops::subtract(&mul(&a1, &b2)?, &mul(&a2, &b1)?)?, ops::subtract(&mul(&a2, &b0)?, &mul(&a0, &b2)?)?)
    };
    let out = crate::stack(&[&x, &y, &z], 0)?;
    moveaxis(&out, 0, axisc as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DType;

    fn t<T: crate::Element>(v: Vec<T>, shape: &[usize]) -> Tensor {
        Tensor::from_vec(v, shape).unwrap()
    }

    #[test]
    fn dot_and_inner_over_ranks_and_dtypes() {
        let a = t((0..24).map(|v| v as f64).collect(), &[2, 3, 4]);
        let b = t((0..40).map(|v| v as f64).collect(), &[5, 4, 2]);
        let d = dot(&a, &b).unwrap();
        assert_eq!((d.dtype(), d.shape()), (DType::F64, &[2, 3, 5, 2][..]));
        // d[1, 2, 3, 1] (flat index 57) = sum_k a[1, 2, k] * b[3, k, 1]
        let want: f64 = (0..4).map(|k| (20 + k) as f64 * (24 + 2 * k + 1) as f64).sum();
        assert_eq!(d.to_vec::<f64>().unwrap()[57], want);
        let s = dot(Tensor::scalar(2u8), t(vec![3u8, 4], &[2])).unwrap();
        assert_eq!((s.dtype(), s.to_vec::<u8>().unwrap()), (DType::U8, vec![6, 8]));
        assert!(dot(2, 3).unwrap().is_weak()); // a scalar multiplies, keeping weakness
        assert!(dot([1, 2], [1, 2, 3]).is_err());
        let i = inner(t(vec![true, false], &[2]), t(vec![true, true], &[2])).unwrap();
        assert_eq!((i.dtype(), i.item::<bool>().unwrap()), (DType::Bool, true));
        let e = inner(Tensor::zeros(&[0], DType::F32).unwrap(), Tensor::zeros(&[3, 0], DType::F32).unwrap());
        assert_eq!(e.unwrap().to_vec::<f32>().unwrap(), vec![0.0; 3]);
    }

    #[test]
    fn vdot_outer_and_empty_operands() {
        assert_eq!(vdot(Vec::<f32>::new(), Vec::<f32>::new()).unwrap().item::<f32>().unwrap(), 0.0);
        assert!(vdot([1, 2], [1, 2, 3]).is_err());
        let o = outer(Tensor::zeros(&[0], DType::I64).unwrap(), [1, 2]).unwrap();
        assert_eq!((o.dtype(), o.shape()), (DType::I64, &[0, 2][..]));
        let o = outer(3, vec![vec![1.0, 2.0]]).unwrap();
        assert_eq!((o.shape(), o.is_weak()), (&[1, 2][..], false));
    }

    #[test]
    fn tensordot_axis_forms_and_refusals() {
        let a = t((0..24).collect::<Vec<i32>>(), &[2, 3, 4]);
        let b = t((0..24).collect::<Vec<i32>>(), &[4, 3, 2]);
        let y = tensordot(&a, &b, (vec![1, 2], vec![1, 0])).unwrap();
        assert_eq!(y.shape(), &[2, 2]);
        let want: i32 = (0..3).flat_map(|j| (0..4).map(move |k| (j * 4 + k) * (k * 6 + j * 2))).sum();
        assert_eq!(y.to_vec::<i32>().unwrap()[0], want);
        assert_eq!(tensordot(&a, &b, 1).unwrap().shape(), &[2, 3, 3, 2]);
        assert_eq!(tensordot(&a, &b, 0).unwrap().shape(), &[2, 3, 4, 4, 3, 2]);
        assert!(tensordot(&a, &b, 4).is_err());
        assert!(tensordot(&a, &b, -1).is_err());
        assert!(tensordot(&a, &b, (vec![0], vec![0, 1])).is_err());
        assert!(tensordot(&a, &b, (3, 0)).is_err());
        assert!(tensordot(&a, &b, ([0, 0], [0, 1])).is_err());
        assert!(tensordot(&a, &b, (0, 0)).is_err()); // lengths 2 and 4
    }

    #[test]
    fn kron_pads_ranks_and_handles_scalars() {
        let k = kron(t(vec![1u16, 2], &[2]), t(vec![1u16, 1, 1, 1], &[2, 2])).unwrap();
        assert_eq!((k.dtype(), k.shape()), (DType::U16, &[2, 4][..]));
        assert_eq!(k.to_vec::<u16>().unwrap(), vec![1, 1, 2, 2, 1, 1, 2, 2]);
        let s = kron(2, 3).unwrap();
        assert_eq!((s.shape(), s.item::<i32>().unwrap(), s.is_weak()), (&[0usize; 0][..], 6, false));
        assert_eq!(kron(2, [1, 2]).unwrap().to_vec::<i32>().unwrap(), vec![2, 4]);
        assert_eq!(kron(Tensor::zeros(&[0, 2], DType::F32).unwrap(), [1.0]).unwrap().shape(), &[0, 2]);
    }

    #[test]
    fn cross_broadcasts_and_moves_axes() {
        let u = t(vec![1i64, 0, 0, 0, 1, 0], &[2, 3]);
        let v = t(vec![0i64, 1, 0], &[3]);
        let c = cross(&u, &v, -1, -1, -1).unwrap();
        assert_eq!((c.shape(), c.to_vec::<i64>().unwrap()), (&[2, 3][..], vec![0, 0, 1, 0, 0, 0]));
        let c0 = cross(u.t(), &v, 0, 0, 0).unwrap();
        assert_eq!((c0.shape(), c0.to_vec::<i64>().unwrap()), (&[3, 2][..], vec![0, 0, 0, 0, 1, 0]));
        let w = cross(Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap(), [4.0, 5.0, 6.0], -1, -1, -1).unwrap();
        assert_eq!(w.dtype(), DType::F64); // f64 ⊔ f32* = f64
        let e = cross([1, 2, 3, 4], [1, 2, 3], -1, -1, -1).unwrap_err();
        assert!(e.to_string().contains("must be 2 or 3"));
        assert!(cross(1, 2, -1, -1, -1).is_err());
        let z = cross(Tensor::zeros(&[0, 2], DType::I32).unwrap(), [1, 2], -1, -1, -1).unwrap();
        assert_eq!(z.shape(), &[0]);
    }
}
