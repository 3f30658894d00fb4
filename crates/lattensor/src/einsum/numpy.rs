//! `numpy.einsum`'s rules.
//!
//! Differences from [`einsum`](super::einsum) (TF's rules): a named label of
//! size 1 broadcasts against any size (`ij,ij->ij` with `[1,3]` and `[2,3]`),
//! and the implicit output puts the ellipsis first whenever any term has one
//! (TF drops an ellipsis shared by several terms). Error texts follow NumPy's.
//! Unlike NumPy, mixed dtypes promote through lattensor's lattice in the
//! current mode (`All` by default: int32 × float32 → float32, where NumPy gives
//! float64), and bf16 is supported.

use super::{Front, PathOptions, Plan, einsum_front};
use crate::Tensor;
use crate::core::error::Result;

/// `numpy.einsum(subscripts, *operands, optimize=True)`; re-exported as
/// [`lattensor::einsum::numpy_einsum`](super::numpy_einsum).
///
/// ```
/// use lattensor::{einsum::numpy_einsum, Tensor};
/// let a = Tensor::from_vec(vec![1i64, 2, 3], &[1, 3]).unwrap();
/// let b = Tensor::from_vec(vec![1i64, 10, 100, 1000, 10000, 100000], &[2, 3]).unwrap();
/// // the size-1 label i broadcasts (TF would refuse)
/// let c = numpy_einsum("ij,ij->ij", &[&a, &b]).unwrap();
/// assert_eq!(c.shape(), &[2, 3]);
/// assert_eq!(c.to_vec::<i64>().unwrap(), vec![1, 20, 300, 1000, 20000, 300000]);
/// // implicit mode puts the ellipsis first
/// let x = Tensor::from_vec((0..24).collect::<Vec<i32>>(), &[2, 3, 4]).unwrap();
/// assert_eq!(numpy_einsum("i...", &[&x]).unwrap().shape(), &[3, 4, 2]);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] with NumPy's error texts for malformed
/// equations and shapes; [`crate::Error::Promotion`] if the dtypes do not promote.
pub fn einsum(equation: &str, operands: &[&Tensor]) -> Result<Tensor> {
    einsum_front(Front::NumPy, equation, operands, PathOptions::default())
}

/// `numpy.einsum_path` for operands of `shapes` (printable with `Display`);
/// re-exported as [`lattensor::einsum::numpy_einsum_path`](super::numpy_einsum_path).
///
/// ```
/// use lattensor::einsum::{numpy_einsum_path, PathOptions};
/// let shapes: [&[usize]; 5] = [&[10, 10], &[10, 10], &[10, 10, 10, 10], &[10, 10], &[10, 10]];
/// let p = numpy_einsum_path("ea,fb,abcd,gc,hd->efgh", &shapes, PathOptions::default()).unwrap();
/// assert_eq!(p.steps.len(), 4);
/// assert_eq!(p.naive_flops, 5 * 10u128.pow(8));
/// assert!(p.flops < p.naive_flops / 100);
/// println!("{p}");
/// ```
///
/// # Errors
/// As [`einsum`].
pub fn einsum_path(equation: &str, shapes: &[&[usize]], opts: PathOptions) -> Result<Plan> {
    super::einsum_path(Front::NumPy, equation, shapes, opts)
}
