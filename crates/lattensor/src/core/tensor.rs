//! [`Tensor`]: shared storage + layout + dtype + weak flag, and its views.

use std::sync::Arc;

use crate::DType;
use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::layout::{Layout, SliceArg, checked_numel};
use crate::core::storage::Storage;
use crate::core::tape::{self, TapeId, TapeOp};
use crate::promote::LatticeType;

/// An n-dimensional array with a runtime dtype.
///
/// Cloning a tensor is O(1): clones share storage. Views (reshape where
/// possible, transpose, expand_dims, squeeze, broadcast_to, slicing) share
/// storage too. Tensors are immutable; [`crate::Variable`] holds mutable state.
///
/// A tensor is *weak* if its dtype was never declared (it came from a Rust
/// literal): weak tensors adapt to the strong operands they meet.
///
/// ```
/// use lattensor::{constant, DType, Tensor};
/// let t = Tensor::from_vec(vec![1.5f32, 2.0], &[2]).unwrap();
/// assert_eq!(t.dtype(), DType::F32);
/// assert!(!t.is_weak());
/// let w = constant([5.0, 10.0, 3.0]).unwrap();
/// assert!(w.is_weak());
/// assert_eq!(w.to_string(), "<Tensor: shape=(3,), dtype=float32, numpy=[ 5., 10.,  3.], weak=True>");
/// ```
#[derive(Clone)]
pub struct Tensor {
    pub(crate) storage: Arc<Storage>,
    pub(crate) layout: Layout,
    pub(crate) dtype: DType,
    pub(crate) weak: bool,
    /// Identity on the gradient tapes (0 until a tape tracks it).
    pub(crate) tape_id: TapeId,
}

impl Tensor {
    // ---- construction ---------------------------------------------------

    /// A zero-filled, contiguous, strong tensor.
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] if the size overflows or exceeds the memory limit.
    pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::zeros_for("zeros", shape, dtype)
    }

    /// [`Tensor::zeros`] for `op`: size errors name `op` and the requested shape.
    pub(crate) fn zeros_for(op: &str, shape: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::allocate(op, shape, dtype, true)
    }

    /// A contiguous, strong tensor whose elements are unspecified until written:
    /// for outputs that a kernel fills in full (bool tensors are zeroed, so
    /// their bytes are always valid `bool`s).
    ///
    /// # Errors
    /// As [`Tensor::zeros`].
    pub(crate) fn for_overwrite(op: &str, shape: &[usize], dtype: DType) -> Result<Tensor> {
        Tensor::allocate(op, shape, dtype, dtype == DType::Bool)
    }

    /// A contiguous, strong tensor of `shape`, zeroed if `zeroed`; the size is
    /// checked against the address space and the configured limit first.
    fn allocate(op: &str, shape: &[usize], dtype: DType, zeroed: bool) -> Result<Tensor> {
        let n = checked_numel(shape, op)?;
        let bytes = n.checked_mul(dtype.size()).ok_or_else(|| {
            Error::ResourceExhausted(format!("{op}: shape {shape:?} of {dtype} overflows the address space"))
        })?;
        crate::core::storage::check_alloc_with(bytes, || format!("{op} (shape {shape:?}, {dtype})"))?;
        let storage = if zeroed { Storage::zeroed(bytes)? } else { Storage::for_overwrite(bytes)? };
        Ok(Tensor {
            storage: Arc::new(storage),
            layout: Layout::contiguous(shape)?,
            dtype,
            weak: false,
            tape_id: TapeId::default(),
        })
    }

    /// A strong tensor that takes ownership of `data` (row-major) with `shape`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if `data.len()` is not the product of `shape`.
    pub fn from_vec<T: Element>(data: Vec<T>, shape: &[usize]) -> Result<Tensor> {
        Tensor::from_slice(&data, shape)
    }

    /// A strong tensor holding a copy of `data` (row-major) with `shape`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if `data.len()` is not the product of `shape`.
    pub fn from_slice<T: Element>(data: &[T], shape: &[usize]) -> Result<Tensor> {
        let n = checked_numel(shape, "from_slice")?;
        if n != data.len() {
            return Err(Error::InvalidArgument(format!(
                "from_slice: {} elements cannot fill shape {shape:?} ({n} elements)",
                data.len()
            )));
        }
        let storage = Storage::from_bytes(T::slice_as_bytes(data))?;
        Ok(Tensor {
            storage: Arc::new(storage),
            layout: Layout::contiguous(shape)?,
            dtype: T::DTYPE,
            weak: false,
            tape_id: TapeId::default(),
        })
    }

    /// A strong 0-d tensor.
    pub fn scalar<T: Element>(value: T) -> Tensor {
        let storage = Storage::small(T::slice_as_bytes(&[value]));
        Tensor {
            storage: Arc::new(storage),
            layout: Layout::from_parts(vec![], vec![], 0),
            dtype: T::DTYPE,
            weak: false,
            tape_id: TapeId::default(),
        }
    }

    /// A strong tensor from raw little-endian bytes.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if the byte count does not match, or bool bytes are not 0/1.
    pub fn from_bytes(bytes: &[u8], shape: &[usize], dtype: DType) -> Result<Tensor> {
        let n = checked_numel(shape, "from_bytes")?;
        if Some(bytes.len()) != n.checked_mul(dtype.size()) {
            return Err(Error::InvalidArgument(format!(
                "from_bytes: {} bytes do not hold shape {shape:?} of {dtype} ({} bytes per element)",
                bytes.len(),
                dtype.size()
            )));
        }
        if dtype == DType::Bool {
            crate::core::storage::validate_bools(bytes)?;
        }
        Ok(Tensor {
            storage: Arc::new(Storage::from_bytes(bytes)?),
            layout: Layout::contiguous(shape)?,
            dtype,
            weak: false,
            tape_id: TapeId::default(),
        })
    }

    /// The same tensor marked weak (if its dtype may be weak) or strong.
    ///
    /// Only int32, int64, float32, float64 and complex128 can be weak; for
    /// other dtypes `weak = true` is ignored.
    pub fn with_weak(mut self, weak: bool) -> Tensor {
        self.weak = LatticeType::weak_or_strong(self.dtype, weak).weak;
        self
    }

    /// The same tensor with no identity on the gradient tapes (gradients
    /// stop here).
    pub(crate) fn untracked(&self) -> Tensor {
        let t = self.clone();
        t.tape_id.set(0);
        t
    }

    // ---- metadata -------------------------------------------------------

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// `true` for a weakly typed tensor.
    pub fn is_weak(&self) -> bool {
        self.weak
    }

    /// The dtype and weakness, as a promotion-lattice node.
    pub fn lattice_type(&self) -> LatticeType {
        LatticeType { dtype: self.dtype, weak: self.weak }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The layout (shape, strides, offset).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// `true` if the elements are contiguous in row-major order.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// `true` if `self` and `other` share storage (one is a view of the other).
    pub fn shares_storage_with(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// All bytes of the storage this tensor views (shared with its other views).
    ///
    /// With [`Layout::offset`] and [`Layout::strides`] (both in elements) this
    /// locates every element; it is what zero-copy exports (NumPy, the buffer
    /// protocol, DLPack) hand out.
    ///
    /// ```
    /// use lattensor::{SliceArg, Tensor};
    /// let t = Tensor::from_vec(vec![1u8, 2, 3, 4], &[4]).unwrap();
    /// let v = t.slice(&[SliceArg::range(1, 3)]).unwrap();
    /// assert_eq!(v.storage_bytes(), &[1, 2, 3, 4]);
    /// assert_eq!(v.layout().offset(), 1);
    /// ```
    pub fn storage_bytes(&self) -> &[u8] {
        self.storage.as_bytes()
    }

    // ---- element access ---------------------------------------------------

    /// All of the storage's elements typed as `T` (not just this view's).
    pub(crate) fn storage_slice<T: Element>(&self) -> &[T] {
        debug_assert_eq!(T::DTYPE.size(), self.dtype.size());
        T::slice_from_bytes(self.storage.as_bytes())
    }

    /// About how many bytes reading every element of the view touches: its
    /// elements' bytes, or its storage's if smaller (a broadcast view).
    pub(crate) fn bytes_read(&self) -> usize {
        (self.numel().saturating_mul(self.dtype.size())).min(self.storage.as_bytes().len())
    }

    /// The view's elements as a slice, if it is contiguous and of type `T`.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        if T::DTYPE != self.dtype || !self.is_contiguous() {
            return None;
        }
        let n = self.numel();
        let all = self.storage_slice::<T>();
        all.get(self.layout.offset()..self.layout.offset() + n)
    }

    /// Mutable elements of a freshly allocated tensor (storage not shared).
    pub(crate) fn data_mut<T: Element>(&mut self) -> &mut [T] {
        let n = self.numel();
        let off = self.layout.offset();
        match Arc::get_mut(&mut self.storage) {
            Some(s) => &mut T::slice_from_bytes_mut(s.as_bytes_mut())[off..off + n],
            None => &mut [],
        }
    }

    /// A tensor from its parts; the caller guarantees that `layout` stays inside
    /// `storage` for elements of `dtype`, and that the bytes are valid for `dtype`.
    pub(crate) fn from_parts(storage: Arc<Storage>, layout: Layout, dtype: DType, weak: bool) -> Tensor {
        Tensor { storage, layout, dtype, weak, tape_id: TapeId::default() }
    }

    // ---- views ----------------------------------------------------------

    /// A view recorded on the tapes that track `self` (kept out of line: the
    /// views' path with no tape recording is then the same as with no tapes at all).
    #[inline(never)]
    #[cold]
    fn recorded_view(&self, layout: Layout, desc: impl FnOnce() -> TapeOp) -> Tensor {
        tape::record(&[self], self.view(layout), desc)
    }

    pub(crate) fn view(&self, layout: Layout) -> Tensor {
        Tensor {
            storage: Arc::clone(&self.storage),
            layout,
            dtype: self.dtype,
            weak: self.weak,
            tape_id: TapeId::default(),
        }
    }

    /// Reverses the axes (a view).
    pub fn t(&self) -> Tensor {
        let perm: Vec<usize> = (0..self.rank()).rev().collect();
        self.transpose(&perm).unwrap_or_else(|_| self.clone())
    }

    /// Reorders the axes: output axis `i` is input axis `perm[i]` (a view).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if `perm` is not a permutation of the axes.
    pub fn transpose(&self, perm: &[usize]) -> Result<Tensor> {
        let layout = self.layout.permute(perm)?;
        if tape::recording() {
            return Ok(self.recorded_view(layout, || TapeOp::Transpose(perm.to_vec())));
        }
        Ok(self.view(layout))
    }

    /// Inserts an axis of length 1 (a view).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an axis outside `[-rank-1, rank]`.
    pub fn expand_dims(&self, axis: isize) -> Result<Tensor> {
        let layout = self.layout.expand_dims(axis)?;
        if tape::recording() {
            return Ok(self.recorded_view(layout, || TapeOp::Reshape));
        }
        Ok(self.view(layout))
    }

    /// Removes length-1 axes: the given ones, or all if `axes` is empty (a view).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an axis out of range or not of length 1.
    pub fn squeeze(&self, axes: &[isize]) -> Result<Tensor> {
        let layout = self.layout.squeeze(axes)?;
        if tape::recording() {
            return Ok(self.recorded_view(layout, || TapeOp::Reshape));
        }
        Ok(self.view(layout))
    }

    /// Broadcasts to `shape` (a view with zero strides).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] if the shapes are not compatible.
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Tensor> {
        let layout = self.layout.broadcast_to(shape)?;
        if tape::recording() {
            return Ok(self.recorded_view(layout, || TapeOp::BroadcastTo));
        }
        Ok(self.view(layout))
    }

    /// Basic slicing, like `x[1:, ::-2, 3]` in Python (a view).
    ///
    /// ```
    /// use lattensor::{SliceArg, Tensor};
    /// let t = Tensor::from_vec((0..12).collect::<Vec<i32>>(), &[3, 4]).unwrap();
    /// let s = t.slice(&[SliceArg::range(1, 3), SliceArg::stepped(None, None, -2)]).unwrap();
    /// assert_eq!(s.shape(), &[2, 2]);
    /// assert_eq!(s.to_vec::<i32>().unwrap(), vec![7, 5, 11, 9]);
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an index out of range, a zero step or too many indices.
    pub fn slice(&self, args: &[SliceArg]) -> Result<Tensor> {
        let layout = self.layout.slice(args)?;
        if tape::recording() {
            return Ok(self.recorded_view(layout, || {
                let args = args.to_vec();
                TapeOp::Select(std::rc::Rc::new(move |t: &[Tensor]| t[0].slice(&args)))
            }));
        }
        Ok(self.view(layout))
    }
}

/// Resolves a shape with at most one `-1` against `numel` elements.
pub(crate) fn infer_shape(shape: &[isize], numel: usize, from: &[usize]) -> Result<Vec<usize>> {
    let unknown: Vec<usize> = shape.iter().enumerate().filter(|&(_, &d)| d == -1).map(|(i, _)| i).collect();
    if unknown.len() > 1 || shape.iter().any(|&d| d < -1) {
        return Err(Error::InvalidArgument(format!(
            "reshape: {shape:?} is not a valid shape; dimensions must be ≥ 0 with at most one -1"
        )));
    }
    let known: Vec<usize> = shape.iter().filter(|&&d| d >= 0).map(|&d| d as usize).collect();
    let known_n = checked_numel(&known, "reshape")?;
    let mut out: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
    if let Some(&u) = unknown.first() {
        if known_n == 0 || !numel.is_multiple_of(known_n) {
            return Err(Error::InvalidArgument(format!(
                "reshape: cannot reshape a tensor of shape {from:?} ({numel} elements) into {shape:?}"
            )));
        }
        out[u] = numel / known_n;
    } else if known_n != numel {
        return Err(Error::InvalidArgument(format!(
            "reshape: cannot reshape a tensor of shape {from:?} ({numel} elements) into {shape:?} ({known_n} elements)"
        )));
    }
    Ok(out)
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_views_past_the_end_of_storage_read_as_empty() {
        // zeros([5, 0]) owns no bytes; its row 4 is an empty view (whose offset
        // `slice` leaves at the parent's, since an empty view reads nothing)
        let t = Tensor::zeros(&[5, 0], DType::F32).unwrap();
        let row = t.slice(&[SliceArg::Index(4)]).unwrap();
        assert_eq!(row.shape(), &[0]);
        assert_eq!(row.to_bytes().unwrap(), Vec::<u8>::new());
        assert_eq!(row.to_vec::<f32>().unwrap(), Vec::<f32>::new());
        assert_eq!(row.contiguous().unwrap().numel(), 0);
        assert!(row.as_slice::<f32>().is_none_or(|s| s.is_empty()));
    }
}
