//! Reference-counted, 64-byte-aligned byte buffers.
//!
//! A [`Storage`] is the memory behind one or more tensors; tensors share it
//! through an `Arc` and describe their part of it with a layout, so views
//! (reshape, transpose, slices, broadcast, bitcast) never copy. All typed
//! access to the bytes goes through [`crate::Element`], and this module is
//! the only place that reinterprets bytes as `bool`.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::error::{Error, Result};

/// One cache line; the allocation unit that gives every storage 64-byte alignment.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// An aligned byte buffer.
pub struct Storage {
    buf: Buf,
    len: usize,
}

/// Where the bytes live: small buffers on the heap, large ones in their own
/// huge-page-backed mappings that are recycled through a cache of free mappings (`large`).
enum Buf {
    Heap(Vec<Line>),
    #[cfg(target_os = "linux")]
    Mapped(large::Mapping),
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
    check_alloc_with(bytes, || what.to_string())
}

/// [`check_alloc`] with the description of the allocation made only for the
/// error: formatting it (a shape, a dtype) on every op was ~3% of a 0-d add's
/// time in a perf profile of the Python operator.
pub(crate) fn check_alloc_with(bytes: usize, what: impl FnOnce() -> String) -> Result<()> {
    if bytes > SMALL_BYTES && bytes as u64 > max_tensor_bytes() {
        return Err(Error::ResourceExhausted(format!(
            "{}: a tensor of {bytes} bytes exceeds the limit of {} bytes; use smaller shapes or raise the limit with lattensor::set_max_tensor_bytes",
            what(),
            max_tensor_bytes()
        )));
    }
    Ok(())
}

/// Default for [`set_storage_cache_bytes`]: 512 MiB.
pub const DEFAULT_STORAGE_CACHE_BYTES: u64 = 512 << 20;

/// Sets how many bytes of freed large storages (2 MiB and up) lattensor keeps
/// for reuse; 0 returns them to the OS at once (and empties the cache).
/// Mid-size storages (64 KiB up to 2 MiB) are kept too, at most four per size
/// class (about 44 MiB in all), and small ones (up to 256 bytes) by the thread
/// that frees them, at most 32 KiB a thread, unless the limit is 0 (which
/// empties the calling thread's small cache).
///
/// Why a cache: a fresh 40 MB buffer costs ~10,000 page faults (or kernel
/// zeroing of huge pages) on first touch, which makes an element-wise op on
/// 10M elements several times slower than the arithmetic. Recycled buffers
/// are already mapped. Large buffers leave the cache oldest first when it is
/// full. A mid-size buffer from the allocator would be zero-filled first
/// (`calloc`), which costs as much as an element-wise op on it; a recycled one
/// that an op overwrites in full is not, and it is often still in cache.
///
/// ```
/// use lattensor::{set_storage_cache_bytes, storage_cache_bytes, Tensor};
/// set_storage_cache_bytes(64 << 20);
/// assert_eq!(storage_cache_bytes(), 64 << 20);
/// let big = Tensor::zeros(&[1 << 20], lattensor::DType::F32).unwrap(); // 4 MiB
/// drop(big); // kept for the next tensor of this size
/// set_storage_cache_bytes(lattensor::DEFAULT_STORAGE_CACHE_BYTES);
/// ```
pub fn set_storage_cache_bytes(bytes: u64) {
    CACHE_LIMIT.store(bytes, Ordering::Relaxed);
    #[cfg(target_os = "linux")]
    large::trim(bytes);
    if bytes == 0 {
        medium::clear();
        small::clear();
    }
}

/// The current limit set by [`set_storage_cache_bytes`].
pub fn storage_cache_bytes() -> u64 {
    CACHE_LIMIT.load(Ordering::Relaxed)
}

static CACHE_LIMIT: AtomicU64 = AtomicU64::new(DEFAULT_STORAGE_CACHE_BYTES);

/// Buffers at least this large are mapped on their own (and recycled).
#[cfg(target_os = "linux")]
const LARGE_BYTES: usize = 2 << 20;

impl Storage {
    /// A zero-filled buffer of `len` bytes.
    ///
    /// # Errors
    /// [`Error::ResourceExhausted`] when `len` exceeds [`max_tensor_bytes`].
    pub fn zeroed(len: usize) -> Result<Self> {
        check_alloc(len, "allocate")?;
        #[cfg(target_os = "linux")]
        if len >= LARGE_BYTES
            && let Some(m) = large::Mapping::get(len, true)
        {
            return Ok(Storage { buf: Buf::Mapped(m), len });
        }
        Ok(Storage { buf: Buf::Heap(medium::get(len, true)), len })
    }

    /// A buffer of `len` bytes whose contents are unspecified (but initialised:
    /// zeros, or bytes of an earlier tensor), for outputs that are written in full.
    /// Must not back a bool tensor before every byte is written (see [`bools_from_bytes`]).
    ///
    /// # Errors
    /// As [`Storage::zeroed`].
    pub(crate) fn for_overwrite(len: usize) -> Result<Self> {
        check_alloc(len, "allocate")?;
        #[cfg(target_os = "linux")]
        if len >= LARGE_BYTES
            && let Some(m) = large::Mapping::get(len, false)
        {
            return Ok(Storage { buf: Buf::Mapped(m), len });
        }
        Ok(Storage { buf: Buf::Heap(medium::get(len, false)), len })
    }

    /// A buffer holding a copy of a few bytes (at most [`SMALL_BYTES`]); never fails.
    pub(crate) fn small(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() <= SMALL_BYTES);
        let mut lines = small::get(bytes.len(), false);
        bytemuck::cast_slice_mut::<Line, u8>(&mut lines)[..bytes.len()].copy_from_slice(bytes);
        Storage { buf: Buf::Heap(lines), len: bytes.len() }
    }

    /// A buffer holding a copy of `bytes`.
    ///
    /// # Errors
    /// As [`Storage::zeroed`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut s = Storage::for_overwrite(bytes.len())?;
        s.as_bytes_mut().copy_from_slice(bytes);
        Ok(s)
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.buf {
            Buf::Heap(lines) => &bytemuck::cast_slice::<Line, u8>(lines)[..self.len],
            #[cfg(target_os = "linux")]
            Buf::Mapped(m) => &m.bytes()[..self.len],
        }
    }

    /// The bytes, mutably.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        match &mut self.buf {
            Buf::Heap(lines) => &mut bytemuck::cast_slice_mut::<Line, u8>(lines)[..self.len],
            #[cfg(target_os = "linux")]
            Buf::Mapped(m) => &mut m.bytes_mut()[..self.len],
        }
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if let Buf::Heap(lines) = &mut self.buf {
            medium::put(std::mem::take(lines));
        }
    }
}

/// Small heap buffers, one to four lines (up to 256 bytes): kept per thread
/// and reused, at most [`small::PER_CLASS`] per line count (32 KiB a thread).
///
/// A 64-byte-aligned request takes the C allocator's `memalign` path, which
/// splits a larger chunk and frees the pieces: in a `perf` profile of 0-d
/// float32 `a + b` from Python, `memalign`, `free` and the consolidation they
/// trigger took 11% of the time, and the heap's state moved a call's cost by
/// up to 150 ns within a run. A reused buffer costs a thread-local pop.
mod small {
    use super::Line;
    use std::cell::RefCell;

    /// The largest buffer kept, in lines.
    const MAX_LINES: usize = 4;
    /// Freed buffers kept per line count and thread.
    pub(super) const PER_CLASS: usize = 32;

    thread_local! {
        static FREE: RefCell<[Vec<Vec<Line>>; MAX_LINES]> = const { RefCell::new([const { Vec::new() }; MAX_LINES]) };
    }

    /// A buffer of `len` bytes rounded up to lines (zero-filled when `zero`;
    /// else holding zeros or bytes of an earlier storage).
    pub(super) fn get(len: usize, zero: bool) -> Vec<Line> {
        let lines = len.div_ceil(64);
        if (1..=MAX_LINES).contains(&lines) {
            // `try_with`: during the thread's teardown the cache may be gone
            let hit = FREE.try_with(|f| f.try_borrow_mut().ok().and_then(|mut f| f[lines - 1].pop())).ok().flatten();
            if let Some(mut buf) = hit {
                if zero {
                    buf.fill(Line([0; 64]));
                }
                return buf;
            }
        }
        bytemuck::zeroed_vec::<Line>(lines)
    }

    /// Keeps `lines` if it is small and there is room (and the storage cache is
    /// not switched off); gives it back otherwise.
    pub(super) fn put(lines: Vec<Line>) -> Option<Vec<Line>> {
        let n = lines.len();
        if !(1..=MAX_LINES).contains(&n) || super::storage_cache_bytes() == 0 {
            return Some(lines);
        }
        let mut back = Some(lines);
        let _ = FREE.try_with(|f| {
            if let Ok(mut f) = f.try_borrow_mut()
                && f[n - 1].len() < PER_CLASS
            {
                f[n - 1].push(back.take().expect("taken once"));
            }
        });
        back
    }

    /// Empties this thread's cache.
    pub(super) fn clear() {
        let _ = FREE.try_with(|f| f.try_borrow_mut().map(|mut f| f.iter_mut().for_each(Vec::clear)));
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn small_buffers_are_reused_zeroed_on_request_and_bounded() {
            let mut a = get(100, true);
            assert_eq!(a.len(), 2);
            a[0].0[5] = 9;
            let p = a.as_ptr();
            assert!(put(a).is_none());
            // the same buffer comes back for the same line count, zeroed when asked
            let b = get(128, true);
            assert_eq!((b.as_ptr(), b[0].0[5]), (p, 0));
            assert_eq!(b.as_ptr() as usize % 64, 0);
            // larger buffers are not kept, and each class holds at most PER_CLASS
            assert!(put(vec![Line([0; 64]); MAX_LINES + 1]).is_some());
            let kept = (0..PER_CLASS + 3).filter(|_| put(vec![Line([0; 64]); 1]).is_none()).count();
            assert!(kept <= PER_CLASS);
            assert!(put(vec![Line([0; 64]); 1]).is_some());
            clear();
            assert!(put(b).is_none());
            clear();
        }
    }
}

/// Mid-size heap buffers, from 64 KiB up to the large ones: allocated in size
/// classes (four per octave, so at most a quarter is slack) and recycled,
/// most recently freed first, at most [`medium::PER_CLASS`] per class.
mod medium {
    use super::Line;
    use std::sync::Mutex;

    /// The smallest recycled buffer; below it the allocator's own bins are fast.
    const MIN_BYTES: usize = 64 << 10;
    /// Freed buffers kept per size class.
    pub(super) const PER_CLASS: usize = 4;
    /// Classes: MIN_BYTES · 2^octave · (4 + step) / 4 for five octaves, i.e.
    /// 64 KiB, 80 KiB, 96 KiB, 112 KiB, 128 KiB, … 1.75 MiB.
    const CLASSES: usize = 20;

    static FREE: [Mutex<Vec<Vec<Line>>>; CLASSES] = [const { Mutex::new(Vec::new()) }; CLASSES];

    fn class_bytes(c: usize) -> usize {
        (MIN_BYTES << (c / 4)) / 4 * (4 + c % 4)
    }

    /// The class holding `len` bytes, if `len` is mid-size.
    fn class_of(len: usize) -> Option<usize> {
        if len < MIN_BYTES {
            return None;
        }
        (0..CLASSES).find(|&c| class_bytes(c) >= len)
    }

    /// A buffer of at least `len` bytes (zero-filled when `zero`; else holding
    /// zeros or bytes of an earlier storage).
    pub(super) fn get(len: usize, zero: bool) -> Vec<Line> {
        let Some(c) = class_of(len) else { return super::small::get(len, zero) };
        let hit = FREE[c].lock().unwrap_or_else(|e| e.into_inner()).pop();
        match hit {
            Some(mut lines) => {
                if zero {
                    lines.fill(Line([0; 64]));
                }
                lines
            }
            None => bytemuck::zeroed_vec::<Line>(class_bytes(c) / 64),
        }
    }

    /// Takes back a freed buffer if it is one of a class and there is room.
    pub(super) fn put(lines: Vec<Line>) {
        let Some(lines) = super::small::put(lines) else { return };
        let bytes = lines.len() * 64;
        let Some(c) = class_of(bytes).filter(|&c| class_bytes(c) == bytes) else { return };
        if super::storage_cache_bytes() == 0 {
            return;
        }
        let mut free = FREE[c].lock().unwrap_or_else(|e| e.into_inner());
        if free.len() < PER_CLASS {
            free.push(lines);
        }
    }

    pub(super) fn clear() {
        for class in &FREE {
            let dropped = std::mem::take(&mut *class.lock().unwrap_or_else(|e| e.into_inner()));
            drop(dropped);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn classes_grow_by_quarters_and_cover_the_mid_range() {
            assert_eq!(class_bytes(0), 64 << 10);
            assert_eq!(class_bytes(1), 80 << 10);
            assert_eq!(class_bytes(4), 128 << 10);
            assert_eq!(class_bytes(CLASSES - 1), (1 << 20) + (3 << 18));
            assert!(class_bytes(CLASSES - 1) < super::super::LARGE_BYTES);
            for c in 1..CLASSES {
                assert!(class_bytes(c) > class_bytes(c - 1));
                assert!(class_bytes(c) <= class_bytes(c - 1) * 5 / 4);
            }
            assert_eq!(class_of(MIN_BYTES - 1), None);
            assert_eq!(class_of(MIN_BYTES + 1), Some(1));
            assert_eq!(class_of(2 << 20), None);
        }
    }
}

/// Large buffers: anonymous mappings rounded up to whole 2 MiB huge pages,
/// advised `MADV_HUGEPAGE` (for systems whose THP mode is `madvise`), and a FIFO
/// cache of freed ones.
#[cfg(target_os = "linux")]
mod large {
    use std::collections::VecDeque;
    use std::ptr::NonNull;
    use std::sync::Mutex;

    const HUGE: usize = 2 << 20;

    /// An anonymous read-write mapping of `cap` bytes at a 2 MiB-aligned address.
    pub(super) struct Mapping {
        ptr: NonNull<u8>,
        cap: usize,
    }

    // SAFETY: a Mapping owns its pages exclusively (like a Vec<u8>); the raw
    // pointer is not shared with anything else, so it may move between
    // threads, and `&Mapping` only gives out `&[u8]`.
    unsafe impl Send for Mapping {}
    // SAFETY: as above; shared access is read-only.
    unsafe impl Sync for Mapping {}

    struct Cache {
        free: VecDeque<Mapping>,
        bytes: usize,
    }

    static CACHE: Mutex<Cache> = Mutex::new(Cache { free: VecDeque::new(), bytes: 0 });

    /// Unmaps cached buffers until at most `bytes` remain.
    pub(super) fn trim(bytes: u64) {
        let evicted = {
            let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
            let mut out = Vec::new();
            while c.bytes as u64 > bytes {
                let Some(m) = c.free.pop_front() else { break };
                c.bytes -= m.cap;
                out.push(m);
            }
            out
        };
        evicted.into_iter().for_each(Mapping::unmap);
    }

    impl Mapping {
        /// A mapping of at least `len` bytes: a cached one of the same rounded
        /// size (zero-filled first when `zero`), else a fresh one (zero pages).
        /// `None` if the OS refuses (the caller falls back to the heap).
        pub(super) fn get(len: usize, zero: bool) -> Option<Mapping> {
            let cap = len.checked_next_multiple_of(HUGE)?;
            let cached = {
                let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
                let hit = c.free.iter().rposition(|m| m.cap == cap);
                hit.and_then(|i| c.free.remove(i)).inspect(|m| c.bytes -= m.cap)
            };
            match cached {
                Some(mut m) => {
                    if zero {
                        m.bytes_mut().fill(0);
                    }
                    Some(m)
                }
                None => Mapping::map(cap),
            }
        }

        fn map(cap: usize) -> Option<Mapping> {
            // Over-map by one huge page so that a 2 MiB-aligned start exists,
            // then unmap the unaligned head and the tail.
            let span = cap.checked_add(HUGE)?;
            // SAFETY: an anonymous private mapping at an address of the kernel's
            // choosing touches no existing memory; the result is checked below.
            let raw = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    span,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if raw == libc::MAP_FAILED {
                return None;
            }
            let base = raw as usize;
            let start = base.next_multiple_of(HUGE);
            let head = start - base;
            let tail = span - head - cap;
            // SAFETY: [base, base+head) and [start+cap, base+span) lie inside the
            // mapping just created and are not used by anyone; unmapping them
            // leaves exactly [start, start+cap) mapped. madvise only changes how
            // that range is backed (huge pages when possible); a failure is harmless.
            unsafe {
                if head > 0 {
                    libc::munmap(raw, head);
                }
                if tail > 0 {
                    libc::munmap((start + cap) as *mut libc::c_void, tail);
                }
                libc::madvise(start as *mut libc::c_void, cap, libc::MADV_HUGEPAGE);
            }
            Some(Mapping { ptr: NonNull::new(start as *mut u8)?, cap })
        }

        fn unmap(self) {
            let m = std::mem::ManuallyDrop::new(self);
            // SAFETY: `m` owns the mapping [ptr, ptr+cap) (created by `map`) and is
            // never used again (ManuallyDrop: its Drop does not run).
            unsafe {
                libc::munmap(m.ptr.as_ptr().cast(), m.cap);
            }
        }

        pub(super) fn bytes(&self) -> &[u8] {
            // SAFETY: [ptr, ptr+cap) is a live read-write mapping owned by self;
            // anonymous pages start zeroed and are only written through
            // `bytes_mut`, so every byte is initialised.
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.cap) }
        }

        pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
            // SAFETY: as in `bytes`, and `&mut self` makes the access exclusive.
            unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.cap) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            let limit = usize::try_from(super::storage_cache_bytes()).unwrap_or(usize::MAX);
            let me = Mapping { ptr: self.ptr, cap: self.cap };
            let evicted = {
                let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
                if me.cap > limit {
                    vec![me]
                } else {
                    let mut out = Vec::new();
                    while c.bytes + me.cap > limit {
                        let Some(old) = c.free.pop_front() else { break };
                        c.bytes -= old.cap;
                        out.push(old);
                    }
                    c.bytes += me.cap;
                    c.free.push_back(me);
                    out
                }
            };
            // outside the lock: munmap is slow
            evicted.into_iter().for_each(Mapping::unmap);
        }
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
    fn large_buffers_are_zeroed_aligned_and_recycled() {
        let n = (5 << 20) + 3;
        let mut a = Storage::zeroed(n).unwrap();
        assert_eq!(a.as_bytes().len(), n);
        assert_eq!(a.as_bytes().as_ptr() as usize % 64, 0);
        assert!(a.as_bytes().iter().all(|&b| b == 0));
        a.as_bytes_mut().fill(7);
        let p = a.as_bytes().as_ptr();
        drop(a);
        // the same size class comes back zeroed even when the cached buffer is reused
        let b = Storage::zeroed(n - 100).unwrap();
        assert!(b.as_bytes().iter().all(|&b| b == 0));
        let again = Storage::for_overwrite(n).unwrap();
        assert_eq!(again.as_bytes().len(), n);
        drop((b, again, p));
    }

    #[test]
    fn mid_size_buffers_are_recycled_and_zeroed_on_request() {
        // 1.2 MiB, in the 1.25 MiB class. Tests running alongside may use that class
        // too (4 × 70001 f32 outputs do) and take the freed buffer first, so a round
        // where it went elsewhere is retried; recycling that never happens still fails.
        let n = (1 << 20) + (1 << 18) - 4096;
        let round = || {
            let mut a = Storage::for_overwrite(n).unwrap();
            assert_eq!(a.as_bytes().len(), n);
            assert_eq!(a.as_bytes().as_ptr() as usize % 64, 0);
            a.as_bytes_mut().fill(7);
            let p = a.as_bytes().as_ptr() as usize;
            drop(a);
            let b = Storage::for_overwrite(n - 1000).unwrap();
            if b.as_bytes().as_ptr() as usize != p {
                return false;
            }
            assert!(b.as_bytes().iter().all(|&x| x == 7), "for_overwrite does not zero a recycled buffer");
            drop(b);
            let c = Storage::zeroed(n).unwrap();
            if c.as_bytes().as_ptr() as usize != p {
                return false;
            }
            assert!(c.as_bytes().iter().all(|&x| x == 0), "zeroed zero-fills a recycled buffer");
            true
        };
        assert!((0..50).any(|_| round()), "the freed buffer is reused");
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
