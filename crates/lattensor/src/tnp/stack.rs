//! Rank padding and stacking: `atleast_1d`/`2d`/`3d`, `hstack`, `vstack`, `dstack`.
//!
//! Padding keeps dtype and weakness (a reshape); stacking joins the inputs'
//! dtypes through the lattice, as `concatenate` does.

use super::{Value, to_tensor};
use crate::Tensor;
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;

/// `x` reshaped to at least `rank` axes by NumPy's rule: leading 1s, except
/// that rank 3 makes `(N,)` into `(1, N, 1)` and `(M, N)` into `(M, N, 1)`.
fn at_least(x: Tensor, rank: usize) -> Result<Tensor> {
    if x.rank() >= rank {
        return Ok(x);
    }
    let s: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
    let shape = match (rank, s.len()) {
        (3, 1) => vec![1, s[0], 1],
        (3, 2) => vec![s[0], s[1], 1],
        _ => std::iter::repeat_n(1, rank - s.len()).chain(s).collect(),
    };
    x.reshape(&shape)
}

/// `a` with at least one axis (`tnp.atleast_1d`; a scalar becomes shape `(1,)`),
/// in its own dtype and weakness.
///
/// ```
/// assert_eq!(lattensor::tnp::atleast_1d(5).unwrap().shape(), &[1]);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn atleast_1d(a: impl Into<Value>) -> Result<Tensor> {
    at_least(to_tensor(a)?, 1)
}

/// `a` with at least two axes (`tnp.atleast_2d`; leading 1s added).
///
/// ```
/// assert_eq!(lattensor::tnp::atleast_2d([1, 2]).unwrap().shape(), &[1, 2]);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn atleast_2d(a: impl Into<Value>) -> Result<Tensor> {
    at_least(to_tensor(a)?, 2)
}

/// `a` with at least three axes (`tnp.atleast_3d`; NumPy's rule: `()` to
/// `(1, 1, 1)`, `(N,)` to `(1, N, 1)`, `(M, N)` to `(M, N, 1)`).
///
/// ```
/// assert_eq!(lattensor::tnp::atleast_3d([1, 2]).unwrap().shape(), &[1, 2, 1]);
/// ```
///
/// # Errors
/// Only for array-likes that do not convert.
pub fn atleast_3d(a: impl Into<Value>) -> Result<Tensor> {
    at_least(to_tensor(a)?, 3)
}

fn join(tup: Vec<Value>, rank: usize, axis: impl Fn(&[Tensor]) -> isize) -> Result<Tensor> {
    let ts = tup.into_iter().map(|v| at_least(to_tensor(v)?, rank)).collect::<Result<Vec<_>>>()?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    crate::concat(&refs, axis(&ts))
}

/// The inputs concatenated along axis 1 (`tnp.hstack`; axis 0 if they are
/// 1-D, scalars becoming 1-D); dtypes join through the lattice.
///
/// ```
/// use lattensor::{tnp, Value};
/// let y = tnp::hstack(vec![Value::from(vec![1, 2]), Value::from(3)]).unwrap();
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![1, 2, 3]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for no inputs or shapes that do not join.
pub fn hstack(tup: Vec<Value>) -> Result<Tensor> {
    join(tup, 1, |ts| if ts.first().is_some_and(|t| t.rank() == 1) { 0 } else { 1 })
}

/// The inputs made at least 2-D, concatenated along axis 0 (`tnp.vstack`).
///
/// ```
/// use lattensor::{tnp, Value};
/// let y = tnp::vstack(vec![Value::from(vec![1, 2]), Value::from(vec![3, 4])]).unwrap();
/// assert_eq!(y.shape(), &[2, 2]);
/// ```
///
/// # Errors
/// As [`hstack`].
pub fn vstack(tup: Vec<Value>) -> Result<Tensor> {
    join(tup, 2, |_| 0)
}

/// The inputs made at least 3-D (as [`atleast_3d`]), concatenated along axis 2 (`tnp.dstack`).
///
/// ```
/// use lattensor::{tnp, Value};
/// let y = tnp::dstack(vec![Value::from(vec![1, 2]), Value::from(vec![3, 4])]).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<i32>().unwrap()), (&[1usize, 2, 2][..], vec![1, 3, 2, 4]));
/// ```
///
/// # Errors
/// As [`hstack`].
pub fn dstack(tup: Vec<Value>) -> Result<Tensor> {
    join(tup, 3, |_| 2)
}
