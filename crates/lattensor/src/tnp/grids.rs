//! Grids, masks and selections: `eye`, `tri`, `meshgrid`, `ix_`,
//! `diag_indices`, `tril`, `where_`, `select`, `polyval`.

use super::logic::truth;
use super::{Value, asarray, nonzero, ravel, to_tensor};
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::promote::{self, LatticeType};
use crate::{DType, SliceArg, Tensor, ops};

/// An `n × m` matrix (`m = n` if `None`) of `dtype` with ones where
/// `keep(i, j)` and zeros elsewhere; strong.
fn diagonal_grid(
    op: &str,
    n: usize,
    m: Option<usize>,
    dtype: DType,
    keep: impl Fn(isize, isize) -> bool,
) -> Result<Tensor> {
    let m = m.unwrap_or(n);
    let mut mask = Tensor::zeros_for(op, &[n, m], DType::Bool)?;
    for (idx, o) in mask.data_mut::<bool>().iter_mut().enumerate() {
        *o = keep((idx / m) as isize, (idx % m) as isize);
    }
    mask.cast(dtype)
}

/// `tnp.eye`: an `n × m` matrix (`m = n` if `None`) with ones on diagonal `k`
/// (`k > 0` above the main one) and zeros elsewhere, strong `dtype` (tnp's
/// default is float32).
///
/// ```
/// use lattensor::{tnp, DType};
/// let e = tnp::eye(2, Some(3), 1, DType::I8).unwrap();
/// assert_eq!((e.dtype(), e.is_weak(), e.to_vec::<i8>().unwrap()), (DType::I8, false, vec![0, 1, 0, 0, 0, 1]));
/// assert_eq!(tnp::eye(2, None, 0, DType::F32).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.0, 1.0]);
/// ```
///
/// # Errors
/// [`Error::ResourceExhausted`] if the matrix is too large.
pub fn eye(n: usize, m: Option<usize>, k: isize, dtype: DType) -> Result<Tensor> {
    diagonal_grid("eye", n, m, dtype, |i, j| j == i.saturating_add(k))
}

/// `tnp.tri`: an `n × m` matrix (`m = n` if `None`) with ones at and below
/// diagonal `k` (`j ≤ i + k`) and zeros above, strong `dtype`.
///
/// ```
/// use lattensor::{tnp, DType};
/// let t = tnp::tri(3, Some(2), -1, DType::Bool).unwrap();
/// assert_eq!(t.to_vec::<bool>().unwrap(), vec![false, false, true, false, true, true]);
/// ```
///
/// # Errors
/// [`Error::ResourceExhausted`] if the matrix is too large.
pub fn tri(n: usize, m: Option<usize>, k: isize, dtype: DType) -> Result<Tensor> {
    diagonal_grid("tri", n, m, dtype, |i, j| j <= i.saturating_add(k))
}

/// How [`meshgrid`] orders the first two axes of its grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Indexing {
    /// Cartesian (`indexing="xy"`, NumPy's default): the first two axes are
    /// swapped, so 2-D grids are `(len(y), len(x))`.
    #[default]
    Xy,
    /// Matrix (`indexing="ij"`): axis `i` runs along the `i`-th input.
    Ij,
}

/// `tnp.meshgrid`: coordinate grids from the inputs (each flattened first),
/// every grid broadcast to the grid's shape `(len(x0), len(x1), …)`, with the
/// first two axes swapped under [`Indexing::Xy`]. The inputs are converted
/// to their lattice join first (as TF converts them to a common dtype); the
/// results are strong zero-copy views.
///
/// ```
/// use lattensor::{tnp, DType};
/// use lattensor::tnp::Indexing;
/// let g = tnp::meshgrid(vec![[0, 1].into(), [5.0, 6.0, 7.0].into()], Indexing::Xy).unwrap();
/// assert_eq!((g[0].dtype(), g[0].is_weak(), g[0].shape()), (DType::F32, false, &[3usize, 2][..]));
/// assert_eq!(g[0].to_vec::<f32>().unwrap(), vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);
/// assert_eq!(g[1].to_vec::<f32>().unwrap(), vec![5.0, 5.0, 6.0, 6.0, 7.0, 7.0]);
/// let ij = tnp::meshgrid(vec![[0, 1].into(), [5, 6, 7].into()], Indexing::Ij).unwrap();
/// assert_eq!(ij[1].shape(), &[2, 3]);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses to join the inputs' dtypes.
pub fn meshgrid(xi: Vec<Value>, indexing: Indexing) -> Result<Vec<Tensor>> {
    if xi.is_empty() {
        return Ok(vec![]);
    }
    let types = xi.iter().map(Value::lattice_type).collect::<Result<Vec<LatticeType>>>()?;
    let dtype = promote::result_type_for("meshgrid", &types, promote::current_mode())?.dtype;
    let vs = xi.into_iter().map(|v| ravel(&asarray(v, Some(dtype))?)).collect::<Result<Vec<Tensor>>>()?;
    let n = vs.len();
    let swap = indexing == Indexing::Xy && n > 1;
    // input i runs along grid axis `axis_of(i)`: 0 and 1 trade places under `xy`
    let axis_of = |i: usize| if swap && i < 2 { 1 - i } else { i };
    let mut shape = vec![0; n];
    for (i, v) in vs.iter().enumerate() {
        shape[axis_of(i)] = v.numel();
    }
    vs.iter()
        .enumerate()
        .map(|(i, v)| {
            let mut view = vec![1isize; n];
            view[axis_of(i)] = v.numel() as isize;
            Ok(v.reshape(&view)?.broadcast_to(&shape)?.with_weak(false))
        })
        .collect()
}

/// `tnp.ix_`: open-mesh index arrays. The `k`-th input, which must be 1-D, is
/// reshaped to have its length on axis `k` and 1 elsewhere, keeping its dtype
/// and weakness; a bool input is first replaced by the (int64, strong)
/// indices of its true elements.
///
/// ```
/// use lattensor::{tnp, DType};
/// let ix = tnp::ix_(vec![[0, 1].into(), [true, false, true].into()]).unwrap();
/// assert_eq!((ix[0].shape(), ix[0].is_weak()), (&[2usize, 1][..], true));
/// assert_eq!((ix[1].shape(), ix[1].dtype()), (&[1usize, 2][..], DType::I64));
/// assert_eq!(ix[1].to_vec::<i64>().unwrap(), vec![0, 2]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for an input that is not 1-D.
pub fn ix_(args: Vec<Value>) -> Result<Vec<Tensor>> {
    let n = args.len();
    args.into_iter()
        .enumerate()
        .map(|(k, v)| {
            let mut t = to_tensor(v)?;
            crate::ensure!(
                t.rank() == 1,
                "ix_: inputs must be 1-D, got rank {} (shape {:?}) for input {k}; ravel it first",
                t.rank(),
                t.shape()
            );
            if t.dtype() == DType::Bool {
                t = nonzero(&t)?.remove(0);
            }
            let mut shape = vec![1isize; n];
            shape[k] = t.numel() as isize;
            t.reshape(&shape)
        })
        .collect()
}

/// `tnp.diag_indices`: `ndim` copies of `range(n)` as strong int32 tensors,
/// the index arrays of the main diagonal of an `(n,) * ndim` array.
///
/// ```
/// use lattensor::{tnp, DType};
/// let ix = tnp::diag_indices(3, 2).unwrap();
/// assert_eq!(ix.len(), 2);
/// assert_eq!((ix[1].dtype(), ix[1].to_vec::<i32>().unwrap()), (DType::I32, vec![0, 1, 2]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if `n` exceeds the int32 range;
/// [`Error::ResourceExhausted`] if the range is too large to allocate.
pub fn diag_indices(n: usize, ndim: usize) -> Result<Vec<Tensor>> {
    let n = i32::try_from(n).map_err(|_| {
        crate::Error::InvalidArgument(format!("diag_indices: n = {n} is beyond the int32 range of the indices"))
    })?;
    let r = crate::arange(0, n, 1, Some(DType::I32))?;
    Ok(vec![r; ndim])
}

/// `tnp.tril`: the elements of the last two axes at and below diagonal `k`
/// (`m[..., i, j]` where `j - i ≤ k`), zeros (`false`) above. Keeps the
/// input's dtype and weakness, as [`triu`](super::triu).
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// let m = Tensor::from_vec(vec![1i8, 2, 3, 4], &[2, 2]).unwrap();
/// let l = tnp::tril(&m, 0).unwrap();
/// assert_eq!((l.dtype(), l.to_vec::<i8>().unwrap()), (DType::I8, vec![1, 0, 3, 4]));
/// assert_eq!(tnp::tril(&m, -1).unwrap().to_vec::<i8>().unwrap(), vec![0, 0, 3, 0]);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] for rank < 2 (TF's `ValueError`).
pub fn tril(m: impl Into<Value>, k: isize) -> Result<Tensor> {
    let m = to_tensor(m)?;
    crate::ensure!(
        m.rank() >= 2,
        InvalidValue,
        "tril: the input must have rank at least 2, got shape {:?}; add axes first (e.g. atleast_2d)",
        m.shape()
    );
    crate::core::tape::op(
        &[&m],
        || super::shape::keep_band(&m, |offset| offset <= k),
        || super::selection(move |t| tril(t, k)),
    )
}

/// `tnp.where(condition, x, y)`: `x` where `condition` is true (nonzero),
/// else `y`, broadcast; `x` and `y` join through the lattice (dtype and
/// weakness, as [`crate::where_`], which takes only a bool condition).
/// NumPy's one-argument `where(condition)` is [`nonzero`].
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::where_([0, 2, 3], [1.5, 2.5, 3.5], 0).unwrap();
/// assert_eq!((y.dtype(), y.is_weak(), y.to_vec::<f32>().unwrap()), (DType::F32, true, vec![0.0, 2.5, 3.5]));
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] if the shapes do not broadcast;
/// [`Error::Promotion`] if the mode refuses to join `x` and `y`.
pub fn where_(condition: impl Into<Value>, x: impl Into<Value>, y: impl Into<Value>) -> Result<Tensor> {
    let c = truth(&to_tensor(condition)?)?;
    crate::where_(&c, &to_tensor(x)?, &to_tensor(y)?)
}

/// `tnp.select`: for each element, the value of `choicelist[i]` for the
/// first true `condlist[i]` (nonzero is true), else `default`. Everything
/// broadcasts; the choices and `default` join through the lattice (dtype and
/// weakness, as [`where_`](crate::where_) joins them).
///
/// ```
/// use lattensor::{tnp, DType, Tensor};
/// let x = Tensor::from_vec(vec![-2i8, 0, 3], &[3]).unwrap();
/// let neg = lattensor::ops::less(&x, 0).unwrap();
/// let pos = lattensor::ops::greater(&x, 0).unwrap();
/// let y = tnp::select(vec![neg.into(), pos.into()], vec![(-1).into(), 1.into()], 0).unwrap();
/// assert_eq!((y.dtype(), y.is_weak(), y.to_vec::<i32>().unwrap()), (DType::I32, true, vec![-1, 0, 1]));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] if the lists differ in length;
/// [`Error::ShapeMismatch`] if the shapes do not broadcast;
/// [`Error::Promotion`] if the mode refuses to join the choices' dtypes.
pub fn select(condlist: Vec<Value>, choicelist: Vec<Value>, default: impl Into<Value>) -> Result<Tensor> {
    crate::ensure!(
        condlist.len() == choicelist.len(),
        "select: {} conditions for {} choices; give one condition per choice",
        condlist.len(),
        choicelist.len()
    );
    // from the last pair to the first, so the first true condition wins
    let mut out = to_tensor(default)?;
    for (cond, choice) in condlist.into_iter().zip(choicelist).rev() {
        out = crate::where_(&truth(&to_tensor(cond)?)?, &to_tensor(choice)?, &out)?;
    }
    Ok(out)
}

/// `tnp.polyval`: the polynomial with coefficients `p` (highest degree first;
/// a 0-d `p` is a constant) at `x`, by Horner's rule: `y = y * x + p[i]` from
/// `y = zeros_like(x)`. Dtypes and weakness join through the lattice, as
/// `*` and `+` join them.
///
/// ```
/// use lattensor::{tnp, DType};
/// let y = tnp::polyval([1, 2, 3], 2).unwrap();
/// assert_eq!((y.dtype(), y.item::<i32>().unwrap()), (DType::I32, 11));
/// let v = tnp::polyval([1.0, 0.5], [1.0, 2.0]).unwrap();
/// assert_eq!(v.to_vec::<f32>().unwrap(), vec![1.5, 2.5]);
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] if a coefficient does not broadcast with `x`;
/// [`Error::Promotion`] if the mode refuses the dtypes.
pub fn polyval(p: impl Into<Value>, x: impl Into<Value>) -> Result<Tensor> {
    let (p, x) = (to_tensor(p)?, to_tensor(x)?);
    // the coefficients and the points as given must join in the mode before the
    // Horner steps compute in `x`'s dtype (whose kernels may refuse it first)
    promote::promote_for("polyval", p.lattice_type(), x.lattice_type(), promote::current_mode())?;
    let mut y = crate::zeros_like(&x, None)?;
    if p.rank() == 0 {
        return ops::add(&ops::multiply(&y, &x)?, &p);
    }
    for i in 0..p.shape()[0] {
        let c = p.slice(&[SliceArg::Index(i as isize)])?;
        y = ops::add(&ops::multiply(&y, &x)?, &c)?;
    }
    Ok(y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meshgrid_joins_and_orders_axes() {
        let a = Tensor::from_vec(vec![7i16, 8], &[2]).unwrap();
        let g = meshgrid(vec![[0, 1].into(), [0, 1, 2].into(), (&a).into()], Indexing::Xy).unwrap();
        assert_eq!((g[2].dtype(), g[2].shape()), (DType::I16, &[3usize, 2, 2][..]));
        assert_eq!(g[2].to_vec::<i16>().unwrap(), [7, 8].repeat(6));
        assert_eq!(g[1].to_vec::<i16>().unwrap()[..4], [0, 0, 0, 0]);
        let u = Tensor::from_vec(vec![1u8, 2], &[1, 2]).unwrap();
        let one = meshgrid(vec![u.into()], Indexing::Xy).unwrap();
        assert_eq!((one[0].shape(), one[0].dtype()), (&[2usize][..], DType::U8));
        assert!(meshgrid(vec![], Indexing::Ij).unwrap().is_empty());
        let e = meshgrid(vec![Vec::<f64>::new().into(), 3.into()], Indexing::Ij).unwrap();
        assert_eq!(e[1].shape(), &[0, 1]);
    }

    #[test]
    fn ix_diag_indices_and_refusals() {
        let ix = ix_(vec![Tensor::from_vec(vec![1i64, 3], &[2]).unwrap().into(), [2].into()]).unwrap();
        assert_eq!((ix[0].dtype(), ix[0].is_weak(), ix[1].is_weak()), (DType::I64, false, true));
        assert!(ix_(vec![vec![vec![0, 1]].into()]).is_err());
        assert!(ix_(vec![3.into()]).is_err());
        assert!(ix_(vec![]).unwrap().is_empty());
        assert!(diag_indices(0, 3).unwrap().iter().all(|t| t.rank() == 1 && t.numel() == 0));
        assert!(diag_indices(2, 0).unwrap().is_empty());
    }

    #[test]
    fn eye_and_tri_shapes_offsets_and_dtypes() {
        let e = eye(3, None, -1, DType::C64).unwrap();
        let ones: Vec<f32> = e.to_vec::<num_complex::Complex32>().unwrap().iter().map(|c| c.re).collect();
        assert_eq!(ones, vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(eye(0, Some(4), 0, DType::F32).unwrap().shape(), &[0, 4]);
        assert_eq!(eye(2, Some(2), 5, DType::U8).unwrap().to_vec::<u8>().unwrap(), vec![0; 4]);
        assert_eq!(eye(1, None, isize::MAX, DType::I32).unwrap().to_vec::<i32>().unwrap(), vec![0]);
        let t = tri(2, Some(3), 0, DType::F64).unwrap();
        assert_eq!((t.is_weak(), t.to_vec::<f64>().unwrap()), (false, vec![1.0, 0.0, 0.0, 1.0, 1.0, 0.0]));
        assert_eq!(tri(2, None, -5, DType::I64).unwrap().to_vec::<i64>().unwrap(), vec![0; 4]);
        assert!(tri(usize::MAX, None, 0, DType::F32).is_err());
    }

    #[test]
    fn tril_over_dtypes_batches_and_empty() {
        let b = Tensor::from_vec(vec![true; 4], &[2, 2]).unwrap();
        assert_eq!(tril(&b, 0).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true, true]);
        let f = Tensor::from_vec(vec![1.0f32; 12], &[2, 2, 3]).unwrap();
        let l = tril(&f, 1).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(l[..6], [1.0, 1.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(l[6..], l[..6]);
        assert!(tril(vec![vec![1, 2]], 0).unwrap().is_weak());
        assert_eq!(tril(Tensor::zeros(&[0, 3], DType::U16).unwrap(), 0).unwrap().shape(), &[0, 3]);
        assert_eq!(tril(Tensor::zeros(&[3, 0], DType::U16).unwrap(), 0).unwrap().shape(), &[3, 0]);
        assert!(tril([1, 2, 3], 0).unwrap_err().to_string().contains("rank at least 2"));
    }

    #[test]
    fn where_takes_the_truth_of_any_condition() {
        let c = Tensor::from_vec(vec![0.0f32, f32::NAN, -1.0], &[3]).unwrap();
        let y = where_(&c, 1u8, Tensor::from_vec(vec![7u8], &[1]).unwrap()).unwrap();
        assert_eq!((y.dtype(), y.to_vec::<u8>().unwrap()), (DType::U8, vec![7, 1, 1]));
        let e = where_(Vec::<bool>::new(), 1, 2).unwrap();
        assert_eq!(e.shape(), &[0]);
        assert!(where_([true, false], [1, 2, 3], 0).is_err());
    }

    #[test]
    fn select_and_polyval_join_through_the_lattice() {
        let c = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        let ch = Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
        let y = select(vec![(&c).into()], vec![(&ch).into()], Tensor::scalar(7.0f32)).unwrap();
        assert_eq!((y.dtype(), y.to_vec::<f64>().unwrap()), (DType::F64, vec![1.0, 7.0]));
        let z = select(vec![[1, 0].into()], vec![[1.5, 2.5].into()], 0).unwrap();
        assert_eq!((z.is_weak(), z.to_vec::<f32>().unwrap()), (true, vec![1.5, 0.0]));
        assert!(select(vec![[true].into()], vec![], 0).unwrap_err().to_string().contains("conditions"));
        assert_eq!(select(vec![], vec![], 4).unwrap().item::<i32>().unwrap(), 4);
        let p = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
        let v = polyval(&p, Tensor::from_vec(vec![3i8], &[1]).unwrap()).unwrap();
        assert_eq!((v.dtype(), v.to_vec::<i8>().unwrap()), (DType::I8, vec![5]));
        let m = polyval([2.0, 0.0, -1.0], vec![vec![0.5], vec![2.0]]).unwrap();
        assert_eq!((m.shape(), m.to_vec::<f32>().unwrap()), (&[2usize, 1][..], vec![-0.5, 7.0]));
        assert_eq!(polyval(Vec::<i32>::new(), [1, 2]).unwrap().to_vec::<i32>().unwrap(), vec![0, 0]);
        assert_eq!(polyval(5, [1, 2]).unwrap().to_vec::<i32>().unwrap(), vec![5, 5]);
    }
}
