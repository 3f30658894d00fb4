//! `bitcast`: reinterpret a tensor's bytes as another dtype (TF's `tf.bitcast`).
//!
//! Shape rule (`in` = input element size, `out` = output element size):
//!
//! * `in == out`: the shape is kept;
//! * `in > out` (narrowing): a new innermost dimension of length `in / out` is
//!   appended, holding each element's little-endian pieces, lowest address first;
//! * `in < out` (widening): the input must have rank ≥ 1 and its last dimension
//!   must be exactly `out / in`; that dimension is removed.
//!
//! bool is refused in both directions (its bytes must stay 0/1, and TF does not
//! allow it). Bits are never changed: NaN payloads, signalling NaNs, `-0.0` and
//! subnormals survive exactly.
//!
//! **Zero-copy.** The result is a view of the input's storage (O(1)) whenever the
//! byte layout allows it: always for same-size and narrowing bitcasts (strides are
//! rescaled), and for widening when the last axis is contiguous, the other strides
//! and the byte offset are multiples of the new element size. Otherwise (e.g.
//! widening a transposed view) the input is first copied to a contiguous tensor
//! and the result is a view of that copy. The result is always strong.

use std::sync::Arc;

use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
use crate::{DType, Tensor};

const ALLOWED: &str = "bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, int16, \
                       complex64, complex128";

fn shape_str(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// Reinterprets the bytes of `x` as `dtype` (TF's `tf.bitcast`), without copying when possible.
///
/// Same size keeps the shape; narrowing appends a dimension of `in/out`; widening
/// needs rank ≥ 1 and a last dimension of exactly `out/in`, which it removes.
/// Bytes are little-endian and never change (NaN payloads and `-0.0` survive).
/// bool is refused. The result is strong and, whenever the byte layout allows
/// (always for same-size and narrowing casts; for widening when the last axis is
/// contiguous and the offset/strides are aligned to the new size), a zero-copy
/// view of `x`'s storage; otherwise `x` is copied to a contiguous tensor first.
///
/// ```
/// use lattensor::{bitcast, DType, Tensor};
/// // narrowing appends a dimension: f32 1.0 is 0x3f800000, little-endian
/// let x = Tensor::from_vec(vec![1.0f32, -0.0], &[2]).unwrap();
/// let b = bitcast(&x, DType::U8).unwrap();
/// assert_eq!(b.shape(), &[2, 4]);
/// assert_eq!(b.to_vec::<u8>().unwrap(), vec![0, 0, 128, 63, 0, 0, 0, 128]);
/// assert!(b.shares_storage_with(&x)); // a view, no copy
/// // widening removes a last dimension of exactly out/in
/// let i = Tensor::from_vec((0..4).collect::<Vec<i8>>(), &[4]).unwrap();
/// assert_eq!(bitcast(&i, DType::I32).unwrap().item::<i32>().unwrap(), 0x03020100);
/// // anything else is an error naming the dtypes and the shape that would work
/// let e = bitcast(&Tensor::from_vec(vec![0i8; 6], &[2, 3]).unwrap(), DType::I32).unwrap_err();
/// assert!(e.to_string().contains("Cannot bitcast from 6 to 3"));
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for bool on either side, or a widening bitcast of a
/// scalar or of a tensor whose last dimension is not `out / in`.
pub fn bitcast(x: &Tensor, dtype: DType) -> Result<Tensor> {
    let from = x.dtype();
    for (attr, d) in [("T", from), ("type", dtype)] {
        if d == DType::Bool {
            return Err(Error::InvalidArgument(format!(
                "bitcast: Value for attr '{attr}' of bool is not in the list of allowed values: {ALLOWED}. \
                 bool has no bit layout to reinterpret; use `cast` to convert between bool and uint8 first"
            )));
        }
    }
    let (isz, osz) = (from.size(), dtype.size());
    let shape = x.shape();
    let out_shape: Vec<usize> = if isz == osz {
        shape.to_vec()
    } else if isz > osz {
        let mut s = shape.to_vec();
        s.push(isz / osz);
        s
    } else {
        let ratio = osz / isz;
        match shape.last() {
            Some(&d) if d == ratio => shape[..shape.len() - 1].to_vec(),
            _ => {
                let wanted = if shape.is_empty() {
                    format!("[{ratio}]")
                } else {
                    let mut s = shape[..shape.len() - 1].to_vec();
                    s.push(ratio);
                    shape_str(&s)
                };
                let what = match shape.last() {
                    None => "a scalar has no last dimension to merge".to_string(),
                    Some(&d) => format!("the last dimension of the input shaped {} is {d}", shape_str(shape)),
                };
                return Err(Error::InvalidArgument(format!(
                    "bitcast: Cannot bitcast from {} to {} ({from} to {dtype}): widening {isz}-byte elements to \
                     {osz}-byte elements needs rank >= 1 and a last dimension of exactly {ratio} = {osz}/{isz}, \
                     which is removed, but {what}; reshape the input to {wanted}",
                    from.tf_enum(),
                    dtype.tf_enum()
                )));
            }
        }
    };
    if x.numel() == 0 {
        let storage = Arc::new(crate::core::storage::Storage::zeroed(0)?);
        return Ok(Tensor::from_parts(storage, Layout::contiguous(&out_shape)?, dtype, false));
    }
    if let Some(layout) = view_layout(x, isz, osz, &out_shape) {
        return Ok(Tensor::from_parts(Arc::clone(&x.storage), layout, dtype, false));
    }
    // Widening a view whose bytes are not laid out for the new type: copy first.
    let c = x.cast(from)?;
    let layout = view_layout(&c, isz, osz, &out_shape)
        .ok_or_else(|| Error::InvalidArgument("bitcast: internal error: contiguous copy is not viewable".into()))?;
    Ok(Tensor::from_parts(Arc::clone(&c.storage), layout, dtype, false))
}

/// The layout of `x`'s bytes seen as elements of `osz` bytes, if one exists.
fn view_layout(x: &Tensor, isz: usize, osz: usize, out_shape: &[usize]) -> Option<Layout> {
    let l = x.layout();
    let storage_bytes = x.storage.as_bytes().len();
    if !storage_bytes.is_multiple_of(osz) {
        return None; // the storage cannot be typed as whole `osz`-byte elements
    }
    if isz == osz {
        return Some(l.clone());
    }
    if isz > osz {
        let r = (isz / osz) as isize;
        let mut strides: Vec<isize> = l.strides().iter().map(|&s| s * r).collect();
        strides.push(1);
        return Some(Layout::from_parts(out_shape.to_vec(), strides, l.offset() * (isz / osz)));
    }
    let r = osz / isz;
    let rank = l.rank();
    if l.strides()[rank - 1] != 1 || !(l.offset() * isz).is_multiple_of(osz) {
        return None;
    }
    let mut strides = Vec::with_capacity(rank - 1);
    for (&s, &d) in l.strides()[..rank - 1].iter().zip(&l.shape()[..rank - 1]) {
        if d == 1 {
            strides.push(0);
        } else if s % r as isize == 0 {
            strides.push(s / r as isize);
        } else {
            return None;
        }
    }
    Some(Layout::from_parts(out_shape.to_vec(), strides, l.offset() * isz / osz))
}

impl Tensor {
    /// Reinterprets the bytes as `dtype`; see [`bitcast`](crate::bitcast()).
    ///
    /// ```
    /// use lattensor::{DType, Tensor};
    /// let c = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap().bitcast(DType::C64).unwrap();
    /// assert_eq!(c.to_vec::<num_complex::Complex32>().unwrap()[1], num_complex::Complex32::new(3.0, 4.0));
    /// ```
    ///
    /// # Errors
    /// As [`bitcast`](crate::bitcast()).
    pub fn bitcast(&self, dtype: DType) -> Result<Tensor> {
        bitcast(self, dtype)
    }
}
