//! TF's top-level shape and identity functions (`tf.identity`,
//! `tf.stop_gradient`, `tf.reshape`, `tf.squeeze`, `tf.transpose`,
//! `tf.expand_dims`) as free functions with TF's argument conventions.
//! All of them keep dtype and weakness, as TF does.

use crate::error::Result;
use crate::{Tensor, ops};

/// `x` itself (`tf.identity`): same dtype, weakness, shape and values.
///
/// Tensors are immutable, so the result shares `x`'s storage (O(1)).
///
/// ```
/// use lattensor::{constant, identity};
/// let x = constant([1.5, 2.5]).unwrap();
/// let y = identity(&x);
/// assert_eq!((y.is_weak(), y.to_vec::<f32>().unwrap()), (true, vec![1.5, 2.5]));
/// ```
pub fn identity(x: &Tensor) -> Tensor {
    x.clone()
}

/// `x` itself (`tf.stop_gradient`). lattensor has no automatic
/// differentiation, so there is no gradient to stop; the function exists so
/// that code written against TF's API reads the same.
///
/// ```
/// use lattensor::{stop_gradient, Tensor};
/// let x = Tensor::from_vec(vec![3i8], &[1]).unwrap();
/// assert_eq!(stop_gradient(&x).to_vec::<i8>().unwrap(), vec![3]);
/// ```
pub fn stop_gradient(x: &Tensor) -> Tensor {
    x.clone()
}

/// `tf.reshape(tensor, shape)`: the same elements in row-major order with a
/// new shape; one entry may be `-1` (inferred). A view when the layout
/// allows, otherwise a copy. See [`Tensor::reshape`].
///
/// ```
/// use lattensor::{reshape, Tensor};
/// let x = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let y = reshape(&x, &[3, -1]).unwrap();
/// assert_eq!((y.shape(), y.to_vec::<i32>().unwrap()), (&[3usize, 2][..], vec![0, 1, 2, 3, 4, 5]));
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] if the element counts differ or the shape is malformed.
pub fn reshape(tensor: &Tensor, shape: &[isize]) -> Result<Tensor> {
    tensor.reshape(shape)
}

/// `tf.squeeze(input, axis)`: removes the listed length-1 axes (negative
/// axes count from the end), or every length-1 axis if `axis` is empty (TF's
/// `axis=None` or `[]`). A view.
///
/// ```
/// use lattensor::{squeeze, Tensor};
/// let x = Tensor::from_vec(vec![1.0f32, 2.0], &[1, 2, 1]).unwrap();
/// assert_eq!(squeeze(&x, &[]).unwrap().shape(), &[2]);
/// assert_eq!(squeeze(&x, &[-1]).unwrap().shape(), &[1, 2]);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] for an axis out of range or not of length 1.
pub fn squeeze(input: &Tensor, axis: &[isize]) -> Result<Tensor> {
    input.squeeze(axis)
}

/// `tf.transpose(a, perm, conjugate)`: output axis `i` is input axis
/// `perm[i]`; `None` reverses the axes (TF's default). With `conjugate`,
/// complex values are conjugated too (TF's `conjugate=True`); otherwise the
/// result is a view.
///
/// ```
/// use lattensor::{transpose, Tensor};
/// let x = Tensor::from_vec((0..6).collect::<Vec<i32>>(), &[2, 3]).unwrap();
/// let t = transpose(&x, None, false).unwrap();
/// assert_eq!((t.shape(), t.to_vec::<i32>().unwrap()), (&[3usize, 2][..], vec![0, 3, 1, 4, 2, 5]));
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] if `perm` is not a permutation of the axes.
pub fn transpose(a: &Tensor, perm: Option<&[usize]>, conjugate: bool) -> Result<Tensor> {
    let t = match perm {
        Some(p) => a.transpose(p)?,
        None => a.t(),
    };
    if conjugate { ops::conj(&t) } else { Ok(t) }
}

/// `tf.expand_dims(input, axis)`: inserts a length-1 axis at `axis`
/// (in `[-rank-1, rank]`; negative counts from the end). A view.
///
/// ```
/// use lattensor::{expand_dims, Tensor};
/// let x = Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
/// assert_eq!(expand_dims(&x, 0).unwrap().shape(), &[1, 2]);
/// assert_eq!(expand_dims(&x, -1).unwrap().shape(), &[2, 1]);
/// ```
///
/// # Errors
/// [`crate::Error::InvalidArgument`] for an axis out of range.
pub fn expand_dims(input: &Tensor, axis: isize) -> Result<Tensor> {
    input.expand_dims(axis)
}
