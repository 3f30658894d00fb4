//! Where a tensor's elements sit in its storage: shape, strides, offset.
//!
//! Strides and the offset count elements, not bytes. Strides may be zero
//! (broadcast) or negative (reversed slices). Every size computation is
//! checked, so a shape whose element count overflows is an error.

use crate::core::error::{Error, Result};

/// Shape, strides (in elements) and offset (in elements) of a view.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Layout {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
}

/// Product of dimensions, zero if any is zero, else saturating at `usize::MAX`:
/// for sub-shapes of a valid shape, whose product can overflow in a plain
/// left-to-right product when another dimension is zero (`[2⁴⁰, 2⁴⁰, 0]`);
/// a saturated size is then refused by the allocation checks.
pub(crate) fn dims_product(dims: impl IntoIterator<Item = usize>) -> usize {
    let mut zero = false;
    let mut p = 1usize;
    for d in dims {
        zero |= d == 0;
        p = p.saturating_mul(d);
    }
    if zero { 0 } else { p }
}

/// Number of elements of `shape`, or an error naming `op` if it overflows or a
/// dimension exceeds `isize::MAX` (as in NumPy, every dimension of a shape, even
/// an empty one, must fit a signed index).
pub fn checked_numel(shape: &[usize], op: &str) -> Result<usize> {
    if shape.iter().any(|&d| d > isize::MAX as usize) {
        return Err(Error::ResourceExhausted(format!(
            "{op}: shape {shape:?} has a dimension above isize::MAX; dimensions must fit a signed 64-bit index"
        )));
    }
    if shape.contains(&0) {
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| Error::ResourceExhausted(format!("{op}: shape {shape:?} has more elements than fit in memory")))
}

/// Whether two shapes are equal, without `==` on two empty slices: that calls
/// `memcmp` on their dangling pointers, and glibc's AVX-512 `memcmp` reads
/// them with a masked load whose fault suppression on an unmapped page costs a
/// microcode assist (345 ns per comparison on the bench host, against 1 ns).
#[inline]
pub(crate) fn same_shape(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && (a.is_empty() || a == b)
}

/// Row-major (C order) strides of a contiguous tensor of `shape`.
pub fn contiguous_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc: isize = 1;
    for (s, &d) in strides.iter_mut().zip(shape).rev() {
        *s = acc;
        acc = acc.saturating_mul(d.max(1) as isize);
    }
    strides
}

/// Normalises a possibly negative axis for a tensor of rank `rank`.
///
/// # Errors
/// [`Error::InvalidArgument`] if `axis` is outside `[-rank, rank)`.
pub fn normalize_axis(axis: isize, rank: usize, op: &str) -> Result<usize> {
    let r = rank as isize;
    if axis < -r || axis >= r {
        return Err(Error::InvalidArgument(format!(
            "{op}: axis {axis} is out of range for a tensor of rank {rank}; expected an axis in [{}, {})",
            -r, r
        )));
    }
    Ok(if axis < 0 { (axis + r) as usize } else { axis as usize })
}

/// The broadcast shape of two shapes (NumPy rules).
///
/// # Errors
/// [`Error::ShapeMismatch`] naming `op` when a pair of dimensions differs and neither is 1.
pub fn broadcast_shapes(a: &[usize], b: &[usize], op: &str) -> Result<Vec<usize>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let da = if i + a.len() >= n { a[i + a.len() - n] } else { 1 };
        let db = if i + b.len() >= n { b[i + b.len() - n] } else { 1 };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(Error::ShapeMismatch {
                op: op.to_string(),
                lhs: a.to_vec(),
                rhs: b.to_vec(),
                hint: format!(
                    "dimension {i} of the broadcast result is {da} in one operand and {db} in the other; dimensions must be equal or 1"
                ),
            });
        };
    }
    Ok(out)
}

/// One step of a slice along an axis, like Python's `start:stop:step`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SliceArg {
    /// Take one index (negative counts from the end); the axis is removed.
    Index(isize),
    /// `start:stop:step`; `None` bounds mean "from the start/to the end" in the step's direction.
    Range {
        /// First index, or `None`.
        start: Option<isize>,
        /// One past the last index, or `None`.
        stop: Option<isize>,
        /// Step, non-zero.
        step: isize,
    },
    /// Insert an axis of length 1 (`np.newaxis`).
    NewAxis,
}

impl SliceArg {
    /// `..`: the whole axis.
    pub const FULL: SliceArg = SliceArg::Range { start: None, stop: None, step: 1 };

    /// `start..stop` with step 1.
    pub fn range(start: isize, stop: isize) -> Self {
        SliceArg::Range { start: Some(start), stop: Some(stop), step: 1 }
    }

    /// `start:stop:step` with optional bounds.
    pub fn stepped(start: Option<isize>, stop: Option<isize>, step: isize) -> Self {
        SliceArg::Range { start, stop, step }
    }
}

/// Python's `slice.indices`: the (start, length) a slice selects on an axis of `len`.
fn slice_indices(start: Option<isize>, stop: Option<isize>, step: isize, len: usize) -> (isize, usize) {
    let len = len as isize;
    let clamp = |v: isize, lo: isize, hi: isize| v.max(lo).min(hi);
    let (lo, hi) = if step > 0 { (0, len) } else { (-1, len - 1) };
    let norm = |v: Option<isize>, default: isize| match v {
        None => default,
        Some(v) if v < 0 => clamp(v + len, lo, hi),
        Some(v) => clamp(v, lo, hi),
    };
    let s = norm(start, if step > 0 { lo } else { hi });
    let e = norm(stop, if step > 0 { hi } else { lo });
    // ceil(distance / |step|) without `distance + |step| - 1`, which overflows
    // for steps near isize::MAX (and `-step` for isize::MIN).
    let (dist, mag) = if step > 0 { (e - s, step.unsigned_abs()) } else { (s - e, step.unsigned_abs()) };
    let n = if dist > 0 { (dist as usize).div_ceil(mag) } else { 0 };
    (s, n)
}

impl Layout {
    /// A contiguous row-major layout.
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] if the element count overflows.
    pub fn contiguous(shape: &[usize]) -> Result<Self> {
        checked_numel(shape, "shape")?;
        Ok(Layout { shape: shape.to_vec(), strides: contiguous_strides(shape), offset: 0 })
    }

    /// A layout from parts; the caller guarantees it stays inside its storage.
    pub(crate) fn from_parts(shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> Self {
        Layout { shape, strides, offset }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// Offset of the first element, in elements.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements (cannot overflow: checked when the layout was made).
    pub fn numel(&self) -> usize {
        dims_product(self.shape.iter().copied())
    }

    /// `true` if the elements are contiguous in row-major order.
    pub fn is_contiguous(&self) -> bool {
        let mut expected: isize = 1;
        for (&d, &s) in self.shape.iter().zip(&self.strides).rev() {
            if d != 1 && s != expected {
                return false;
            }
            // saturating like `contiguous_strides`: the dims of an empty view
            // may multiply past isize::MAX (`[0, 2^40, 2^40]` is a valid shape)
            expected = expected.saturating_mul(d.max(1) as isize);
        }
        true
    }

    /// The range of element indices the view touches, `[lo, hi)`; empty views give `(offset, offset)`.
    pub fn span(&self) -> (usize, usize) {
        if self.numel() == 0 {
            return (self.offset, self.offset);
        }
        let (mut lo, mut hi) = (self.offset as isize, self.offset as isize);
        for (&d, &s) in self.shape.iter().zip(&self.strides) {
            let reach = (d as isize - 1) * s;
            if reach < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        (lo as usize, hi as usize + 1)
    }

    /// Reorders the axes: output axis `i` is input axis `perm[i]`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if `perm` is not a permutation of `0..rank`.
    pub fn permute(&self, perm: &[usize]) -> Result<Self> {
        let mut seen = vec![false; self.rank()];
        if perm.len() != self.rank() || perm.iter().any(|&p| p >= self.rank() || std::mem::replace(&mut seen[p], true))
        {
            return Err(Error::InvalidArgument(format!(
                "transpose: {perm:?} is not a permutation of the {} axes of a tensor of shape {:?}",
                self.rank(),
                self.shape
            )));
        }
        Ok(Layout {
            shape: perm.iter().map(|&p| self.shape[p]).collect(),
            strides: perm.iter().map(|&p| self.strides[p]).collect(),
            offset: self.offset,
        })
    }

    /// The same elements seen with a new shape, without copying, if the
    /// strides allow it (always for contiguous layouts); `None` otherwise.
    pub fn reshape_view(&self, shape: &[usize]) -> Option<Self> {
        // an empty view reads nothing: any strides do (and products of its other
        // dimensions, used below, may overflow)
        if self.is_contiguous() || self.numel() == 0 {
            return Some(Layout { shape: shape.to_vec(), strides: contiguous_strides(shape), offset: self.offset });
        }
        // Split/merge runs of old axes that are contiguous among themselves.
        let old: Vec<(usize, isize)> =
            self.shape.iter().zip(&self.strides).filter(|&(&d, _)| d != 1).map(|(&d, &s)| (d, s)).collect();
        let mut strides = vec![0isize; shape.len()];
        let (mut oi, mut ni) = (0usize, 0usize);
        while ni < shape.len() {
            if shape[ni] == 1 {
                strides[ni] = 0;
                ni += 1;
                continue;
            }
            // take old axes until their product matches new axes' product
            let (o_start, n_start) = (oi, ni);
            let (mut po, mut pn) = (1usize, 1usize);
            loop {
                if po == pn && po != 1 {
                    break;
                }
                if po <= pn && oi < old.len() {
                    po *= old[oi].0;
                    oi += 1;
                } else if ni < shape.len() {
                    pn *= shape[ni];
                    ni += 1;
                } else {
                    return None;
                }
            }
            // the old group must be contiguous among itself
            for k in o_start..oi - 1 {
                if old[k].1 != old[k + 1].1 * old[k + 1].0 as isize {
                    return None;
                }
            }
            let mut stride = old[oi - 1].1;
            for k in (n_start..ni).rev() {
                strides[k] = stride;
                stride *= shape[k] as isize;
            }
        }
        if oi != old.len() {
            return None;
        }
        Some(Layout { shape: shape.to_vec(), strides, offset: self.offset })
    }

    /// Inserts an axis of length 1 at `axis` (in `[-rank-1, rank]`).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an axis out of range.
    pub fn expand_dims(&self, axis: isize) -> Result<Self> {
        let a = normalize_axis(axis, self.rank() + 1, "expand_dims")?;
        let mut l = self.clone();
        l.shape.insert(a, 1);
        l.strides.insert(a, 0);
        Ok(l)
    }

    /// Removes the given axes (which must have length 1), or all length-1 axes if `axes` is empty.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an axis out of range or of length other than 1.
    pub fn squeeze(&self, axes: &[isize]) -> Result<Self> {
        let mut drop = vec![false; self.rank()];
        if axes.is_empty() {
            for (i, &d) in self.shape.iter().enumerate() {
                drop[i] = d == 1;
            }
        } else {
            for &ax in axes {
                let a = normalize_axis(ax, self.rank(), "squeeze")?;
                if self.shape[a] != 1 {
                    return Err(Error::InvalidArgument(format!(
                        "squeeze: cannot squeeze axis {ax} of shape {:?}: its length is {}, not 1",
                        self.shape, self.shape[a]
                    )));
                }
                drop[a] = true;
            }
        }
        let keep = |i: &usize| !drop[*i];
        Ok(Layout {
            shape: (0..self.rank()).filter(keep).map(|i| self.shape[i]).collect(),
            strides: (0..self.rank()).filter(keep).map(|i| self.strides[i]).collect(),
            offset: self.offset,
        })
    }

    /// Views the layout as `shape` by broadcasting (stride 0 on new or length-1 axes).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] if the layout cannot broadcast to `shape`.
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Self> {
        let err = || Error::ShapeMismatch {
            op: "broadcast_to".into(),
            lhs: self.shape.clone(),
            rhs: shape.to_vec(),
            hint: "each dimension must equal the target's or be 1, and the target must have at least as many axes"
                .into(),
        };
        if shape.len() < self.rank() {
            return Err(err());
        }
        checked_numel(shape, "broadcast_to")?;
        let lead = shape.len() - self.rank();
        let mut strides = vec![0isize; shape.len()];
        for i in 0..self.rank() {
            let (d, t) = (self.shape[i], shape[lead + i]);
            strides[lead + i] = if d == t {
                self.strides[i]
            } else if d == 1 {
                0
            } else {
                return Err(err());
            };
        }
        Ok(Layout { shape: shape.to_vec(), strides, offset: self.offset })
    }

    /// Basic slicing: one [`SliceArg`] per leading axis (missing trailing axes are taken whole).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for too many slice arguments, a zero step, or an index out of range.
    pub fn slice(&self, args: &[SliceArg]) -> Result<Self> {
        let consumed = args.iter().filter(|a| !matches!(a, SliceArg::NewAxis)).count();
        if consumed > self.rank() {
            return Err(Error::InvalidArgument(format!(
                "slice: {consumed} indices given for a tensor of rank {} (shape {:?})",
                self.rank(),
                self.shape
            )));
        }
        let mut offset = self.offset as isize;
        // Offsets of a non-empty view stay inside its storage; an empty one's
        // strides may be huge (saturated), and it reads nothing: keep its offset.
        let empty = self.numel() == 0;
        let (mut shape, mut strides) = (Vec::new(), Vec::new());
        let mut axis = 0;
        for arg in args {
            match *arg {
                SliceArg::NewAxis => {
                    shape.push(1);
                    strides.push(0);
                }
                SliceArg::Index(i) => {
                    let d = self.shape[axis] as isize;
                    if i < -d || i >= d {
                        return Err(Error::InvalidArgument(format!(
                            "slice: index {i} is out of bounds for axis {axis} of length {d} (shape {:?})",
                            self.shape
                        )));
                    }
                    let i = if i < 0 { i + d } else { i };
                    if !empty {
                        offset += i * self.strides[axis];
                    }
                    axis += 1;
                }
                SliceArg::Range { start, stop, step } => {
                    if step == 0 {
                        return Err(Error::InvalidArgument("slice: step cannot be zero".into()));
                    }
                    let (s, n) = slice_indices(start, stop, step, self.shape[axis]);
                    if n > 0 && !empty {
                        offset += s * self.strides[axis];
                    }
                    shape.push(n);
                    // With a step this large at most one element is selected, and
                    // the stride of a length-≤1 axis is never used: avoid the overflow.
                    strides.push(self.strides[axis].checked_mul(step).unwrap_or(self.strides[axis]));
                    axis += 1;
                }
            }
        }
        shape.extend_from_slice(&self.shape[axis..]);
        strides.extend_from_slice(&self.strides[axis..]);
        Ok(Layout { shape, strides, offset: offset as usize })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasting() {
        assert_eq!(broadcast_shapes(&[3, 1], &[4], "t").unwrap(), vec![3, 4]);
        assert_eq!(broadcast_shapes(&[], &[2, 2], "t").unwrap(), vec![2, 2]);
        assert!(broadcast_shapes(&[3], &[4], "add").unwrap_err().to_string().contains("add"));
    }

    #[test]
    fn slice_like_python() {
        let l = Layout::contiguous(&[10]).unwrap();
        let s = l.slice(&[SliceArg::stepped(None, None, -3)]).unwrap();
        assert_eq!((s.shape()[0], s.strides()[0], s.offset()), (4, -3, 9));
        let s = l.slice(&[SliceArg::stepped(Some(2), Some(-1), 2)]).unwrap();
        assert_eq!((s.shape()[0], s.offset()), (4, 2));
        let s = l.slice(&[SliceArg::stepped(Some(20), None, 1)]).unwrap();
        assert_eq!(s.shape()[0], 0);
        assert!(l.slice(&[SliceArg::Index(10)]).is_err());
    }

    #[test]
    fn reshape_of_transposed_needs_copy() {
        let l = Layout::contiguous(&[2, 3]).unwrap().permute(&[1, 0]).unwrap();
        assert!(l.reshape_view(&[6]).is_none());
        assert!(l.reshape_view(&[3, 2, 1]).is_some());
        let l = Layout::contiguous(&[4, 6]).unwrap().slice(&[SliceArg::FULL, SliceArg::range(0, 3)]).unwrap();
        let r = l.reshape_view(&[4, 3, 1]).unwrap();
        assert_eq!(r.strides(), &[6, 1, 0]);
        assert!(l.reshape_view(&[12]).is_none());
    }

    #[test]
    fn span_of_negative_strides() {
        let l = Layout::contiguous(&[3, 4]).unwrap();
        let s = l.slice(&[SliceArg::stepped(None, None, -1), SliceArg::stepped(None, None, -2)]).unwrap();
        assert_eq!(s.span(), (1, 12));
    }

    #[test]
    fn empty_views_with_huge_dims_are_contiguous() {
        let l = Layout::contiguous(&[0, 1 << 40, 1 << 40]).unwrap();
        assert!(l.is_contiguous());
        let r = l.reshape_view(&[1 << 40, 0, 1 << 40]).unwrap();
        assert!(r.is_contiguous());
        assert_eq!(r.span(), (0, 0));
    }

    #[test]
    fn overflowing_shape_is_an_error() {
        assert!(Layout::contiguous(&[usize::MAX, 2]).is_err());
    }
}
