//! Reference-counted, 64-byte-aligned byte buffers.
//!
//! A [`Storage`] is the memory behind one or more tensors; tensors share it
//! through an `Arc` and describe their part of it with a layout, so views
//! (reshape, transpose, slices, broadcast, bitcast) never copy. All typed
//! access to the bytes goes through [`crate::Element`], and this module is
//! the only place that reinterprets bytes as `bool`.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// One cache line; the allocation unit that gives every storage 64-byte alignment.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// An aligned byte buffer.
pub struct Storage {
    lines: Vec<Line>,
    len: usize,
}

/// Default limit on one tensor's bytes: 16 GiB (this machine has 24 GiB).
pub const DEFAULT_MAX_TENSOR_BYTES: u64 = 16 << 30;

static MAX_TENSOR_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_TENSOR_BYTES);

/// The largest single tensor, in bytes, that lattensor will allocate.
pub fn max_tensor_bytes() -> u64 {
    MAX_TENSOR_BYTES.load(Ordering::Relaxed)
}

/// Allocations up to this many bytes are always allowed, whatever the limit.
pub const SMALL_BYTES: usize = 4096;

/// Sets the largest single tensor lattensor will allocate; larger requests
/// fail with [`Error::ResourceExhausted`] before any memory is touched.
pub fn set_max_tensor_bytes(bytes: u64) {
    MAX_TENSOR_BYTES.store(bytes, Ordering::Relaxed);
}

/// Checks that `bytes` may be allocated under the configured limit.
pub(crate) fn check_alloc(bytes: usize, what: &str) -> Result<()> {
    if bytes > SMALL_BYTES && bytes as u64 > max_tensor_bytes() {
        return Err(Error::ResourceExhausted(format!(
            "{what}: a tensor of {bytes} bytes exceeds the limit of {} bytes; use smaller shapes or raise the limit with lattensor::set_max_tensor_bytes",
            max_tensor_bytes()
        )));
    }
    Ok(())
}

impl Storage {
    /// A zero-filled buffer of `len` bytes.
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] when `len` exceeds [`max_tensor_bytes`].
    pub fn zeroed(len: usize) -> Result<Self> {
        check_alloc(len, "allocate")?;
        // zeroed_vec asks the allocator for zeroed pages, which the OS maps lazily.
        let lines = bytemuck::zeroed_vec::<Line>(len.div_ceil(64));
        Ok(Storage { lines, len })
    }

    /// A buffer holding a copy of a few bytes (at most [`SMALL_BYTES`]); never fails.
    pub(crate) fn small(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() <= SMALL_BYTES);
        let mut lines = bytemuck::zeroed_vec::<Line>(bytes.len().div_ceil(64));
        bytemuck::cast_slice_mut::<Line, u8>(&mut lines)[..bytes.len()].copy_from_slice(bytes);
        Storage { lines, len: bytes.len() }
    }

    /// A buffer holding a copy of `bytes`.
    ///
    /// # Errors
    /// As [`Storage::zeroed`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut s = Storage::zeroed(bytes.len())?;
        s.as_bytes_mut().copy_from_slice(bytes);
        Ok(s)
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &bytemuck::cast_slice::<Line, u8>(&self.lines)[..self.len]
    }

    /// The bytes, mutably.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut::<Line, u8>(&mut self.lines)[..self.len]
    }
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Storage({} bytes)", self.len)
    }
}

/// Views bytes of a bool tensor as `bool`s.
pub(crate) fn bools_from_bytes(bytes: &[u8]) -> &[bool] {
    debug_assert!(bytes.iter().all(|&b| b <= 1));
    // SAFETY: bool has size 1 and alignment 1 like u8. Every byte of storage
    // whose dtype is bool holds 0 or 1: such storage is created zeroed and is
    // only written through `&mut [bool]`, by casts (which produce bools), or
    // by readers that validate bytes first (`validate_bools`); bitcast to
    // bool is refused. So each byte is a valid `bool`.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<bool>(), bytes.len()) }
}

/// Mutable counterpart of [`bools_from_bytes`].
pub(crate) fn bools_from_bytes_mut(bytes: &mut [u8]) -> &mut [bool] {
    debug_assert!(bytes.iter().all(|&b| b <= 1));
    // SAFETY: as in `bools_from_bytes`; writes through `&mut [bool]` only store 0 or 1.
    unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<bool>(), bytes.len()) }
}

/// Checks that raw bytes offered as bool data hold only 0 and 1.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the first bad byte.
pub(crate) fn validate_bools(bytes: &[u8]) -> Result<()> {
    match bytes.iter().position(|&b| b > 1) {
        None => Ok(()),
        Some(i) => Err(Error::InvalidArgument(format!(
            "bool data must hold bytes 0 or 1, but byte {i} is {}; convert it with `cast` from uint8 instead",
            bytes[i]
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_zeroed() {
        let s = Storage::zeroed(100).unwrap();
        assert_eq!(s.as_bytes().len(), 100);
        assert_eq!(s.as_bytes().as_ptr() as usize % 64, 0);
        assert!(s.as_bytes().iter().all(|&b| b == 0));
    }

    #[test]
    fn limit_is_enforced_before_allocating() {
        let e = Storage::zeroed(usize::MAX).unwrap_err();
        assert!(matches!(e, Error::ResourceExhausted(_)), "{e}");
    }

    #[test]
    fn bool_bytes_are_validated() {
        assert!(validate_bools(&[0, 1, 1]).is_ok());
        assert!(validate_bools(&[0, 2]).unwrap_err().to_string().contains("byte 1 is 2"));
    }
}
