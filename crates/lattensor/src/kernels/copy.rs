//! Copying a tensor of any layout and dtype into row-major order, and the
//! `Tensor` methods built on it (`cast`, `contiguous`, `to_vec`, …).
//!
//! Those methods are defined here, not in `core`, so that core only describes
//! data and never calls a kernel; they run the same loop as before.

use super::elementwise::{gather_into, read_one};
use super::parallel::for_chunks;
use super::strided::{Run, Walk};
use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
use crate::core::tape::{self, TapeOp};
use crate::core::tensor::infer_shape;
use crate::{DType, Tensor, with_dtype};

/// Copies `src` (any layout, any dtype) into `dst` in row-major order, converting to `D`.
pub(crate) fn copy_into<D: Element>(src: &Tensor, dst: &mut [D]) {
    let walk = Walk::new([src.layout()]);
    let body = |lo: usize, out: &mut [D]| {
        walk.runs(lo, lo + out.len(), |r: Run<1>| {
            let o = &mut out[r.out - lo..r.out - lo + r.len];
            if r.strides[0] == 0 {
                o.fill(read_one::<D>(src, r.offsets[0]));
            } else {
                gather_into(src, r.offsets[0], r.strides[0], o);
            }
        })
    };
    for_chunks(dst, body);
}

/// `src` (any layout, any dtype) converted to `D` in row-major order, as a new
/// `Vec`; its size is checked as a tensor's would be (a broadcast view may be huge).
pub(crate) fn row_major<D: Element>(src: &Tensor, op: &str) -> crate::Result<Vec<D>> {
    let bytes = src.numel().saturating_mul(std::mem::size_of::<D>());
    crate::core::storage::check_alloc_with(bytes, || format!("{op} (shape {:?}, {})", src.shape(), D::DTYPE))?;
    let mut v = vec![D::default(); src.numel()];
    copy_into(src, &mut v);
    Ok(v)
}

/// The `Tensor` methods that copy data (see the module doc for why they live here).
impl Tensor {
    /// Copies the elements, in row-major order, converted to `T` with cast semantics.
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] if the view (e.g. a large broadcast) is too big to copy.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let n = self.numel();
        crate::core::storage::check_alloc(n.saturating_mul(T::DTYPE.size()), "to_vec")?;
        let mut out = vec![T::default(); n];
        copy_into(self, &mut out);
        Ok(out)
    }

    /// The single element of a tensor with one element, converted to `T`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if the tensor does not have exactly one element.
    pub fn item<T: Element>(&self) -> Result<T> {
        if self.numel() != 1 {
            return Err(Error::InvalidArgument(format!(
                "item: a tensor of shape {:?} has {} elements, not 1",
                self.shape(),
                self.numel()
            )));
        }
        let mut out = [T::default()];
        copy_into(self, &mut out);
        Ok(out[0])
    }

    /// The raw little-endian bytes of the elements in row-major order.
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] if the view is too big to copy.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        if self.numel() == 0 {
            // an empty view may sit past the end of its storage (`zeros([5, 0])[4]`)
            return Ok(Vec::new());
        }
        let c = self.contiguous()?;
        let size = c.dtype.size();
        let start = c.layout.offset() * size;
        Ok(c.storage.as_bytes()[start..start + c.numel() * size].to_vec())
    }

    /// A contiguous tensor with the same values, dtype and weakness
    /// (`self`, shared, if already contiguous).
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] if the view (e.g. a large broadcast) is too big to copy.
    pub fn contiguous(&self) -> Result<Tensor> {
        if self.is_contiguous() {
            return Ok(self.clone());
        }
        Ok(self.cast(self.dtype)?.with_weak(self.weak))
    }

    /// Converts to `dtype` with TF's cast rules; the result is strong.
    ///
    /// ```
    /// use lattensor::{DType, Tensor};
    /// let t = Tensor::from_vec(vec![1.7f32, -2.5, f32::NAN], &[3]).unwrap();
    /// assert_eq!(t.cast(DType::I32).unwrap().to_vec::<i32>().unwrap(), vec![1, -2, 0]);
    /// ```
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] if the result cannot be allocated.
    pub fn cast(&self, dtype: DType) -> Result<Tensor> {
        let mut out = Tensor::for_overwrite("cast", self.shape(), dtype)?;
        with_dtype!(dtype, T, {
            let dst = out.data_mut::<T>();
            copy_into(self, dst);
        });
        Ok(tape::record(&[self], out, || TapeOp::Cast))
    }

    /// The same elements with a new shape; one dimension may be `-1` (inferred).
    /// A view when the strides allow it, otherwise a copy.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if the element counts differ or more than one `-1` is given.
    pub fn reshape(&self, shape: &[isize]) -> Result<Tensor> {
        let shape = infer_shape(shape, self.numel(), self.shape())?;
        let compute = || match self.layout.reshape_view(&shape) {
            Some(l) => Ok(self.view(l)),
            None => {
                let c = self.contiguous()?;
                Ok(c.view(Layout::contiguous(&shape)?))
            }
        };
        tape::op(&[self], compute, || TapeOp::Reshape)
    }
}
