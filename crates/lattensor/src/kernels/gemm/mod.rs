//! Real matrix products on AVX-512: `C = A·B` for f32 and f64, the kernel
//! behind `matmul` and einsum's contractions on CPUs that have AVX-512F.
//!
//! The `gemm` crate (still used for complex types and on other CPUs)
//! dispatches to its AVX2 kernels on a stable toolchain, which reach about 40%
//! of the FMA peak on one AVX-512 core (48 KiB L1d, 2 MiB L2). This is the
//! classic Goto/BLIS layout, sized for 32 vector registers and that cache
//! hierarchy. (On CPUs with AVX2 but not AVX-512 the `gemm` crate stays: an
//! AVX2 kernel of this layout, 6-row sub-tiles of the 12-row tile, ran 7–20%
//! slower than it on Zen 3.)
//!
//! - B is packed once, whole, into panels of `NR` columns (two vectors)
//!   stored k-major, zero-padded at the right edge, shared by all threads; a
//!   depth block of `KC` = 1024 steps of a panel is a contiguous slice. A
//!   row-major B is read row after row, 16 rows at a time across the panels.
//!   A small row-major B (up to [`B_IN_PLACE_BYTES`]) is not copied: the
//!   kernel reads each step of a panel from B's row, and only a last panel of
//!   fewer than `NR` columns is packed.
//! - Each thread takes a band of rows of C and packs its rows of A, a block
//!   of 576 KiB at a time (144 rows in f32, 72 in f64: in L2 beside the B
//!   panel running past it, see [`A_BLOCK_BYTES`]), into panels of `MR` = 12
//!   rows stored k-major, zero-padded at the
//!   bottom. A row-major A whose rows are not a multiple of 4 KiB apart is
//!   not copied: the kernel broadcasts its elements in place (see
//!   `compute_band`), and only a short last panel is packed.
//! - Each B panel (KC × NR, 128 KiB) is brought in once per A block and every
//!   A panel of the block streams past it; except for an A read in place
//!   against a depth block of B of at most 512 KiB: then each A panel runs
//!   past every B panel in turn, its rows staying in L1.
//! - Why so deep a block: every depth block reads and writes all of C once
//!   more, and C's traffic costs more than L2 hits on B. `KC` = 1024 against
//!   512 (the A block kept at 576 KiB): 1024² f32 on two threads 7.1 → 6.8 ms,
//!   f64 14.4 → 13.8 ms (AVX-512 host, 48 KiB L1d, 2 MiB L2; batched small
//!   products level). A 1024-deep product is one depth block: C is written
//!   once (streamed, when large) and never read back.
//! - The micro-kernel keeps a 12 × NR tile of C in 24 vector registers and
//!   does 24 FMAs per step of k: 12 broadcasts of A against two vectors of B.
//!   A row of the tile is two vectors of a row of C, so C (row-major) is
//!   written with plain vector stores. A last panel of up to 4 or 8 rows (128
//!   rows are 10 × 12 + 8) runs the same kernel cut to 4 or 8 rows.
//! - The micro-kernel fetches its B panel [`PREFETCH_STEPS`](micro::PREFETCH_STEPS) steps of k
//!   ahead: the A panels streaming past evict it from L1 between passes. It
//!   fetches a packed A panel [`A_AHEAD`](micro::A_AHEAD) steps ahead: at this `KC` the two
//!   panels do not fit in L1 together.
//!
//! - A large C (a batch's outputs from twice L2 up, see [`streams_c`]) of a
//!   product with one depth block is written with streaming stores: no
//!   read-for-ownership of lines that are about to be overwritten whole.
//! - In a batch of small products run one per task, each product fetches the
//!   next one's operands into L2 as it goes: each tile's micro-kernel takes a
//!   share of their lines and fetches one per step of k (see [`Upcoming`] and
//!   [`Prefetcher`]). They come from memory, and packing them would otherwise
//!   wait on it.
//!
//! Each element of C is a sum over k in blocks of `KC`, each block summed in
//! order with FMAs, so results are deterministic (independent of the number
//! of threads) but not the same bits as another BLAS.

mod micro;

use micro::MR;
pub(crate) use micro::{Scalar, Write};

/// Whether [`gemm`](fn@gemm) can run here (the CPU has AVX-512F).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A strided read-only matrix: element (i, j) at `ptr + i·rs + j·cs`.
#[derive(Clone, Copy)]
pub(crate) struct MatRef<T> {
    pub ptr: *const T,
    pub rs: isize,
    pub cs: isize,
}

// SAFETY: a MatRef is only read, and only while the storage it points into is
// borrowed by the caller of `gemm` (see its contract); T is Sync.
unsafe impl<T: Sync> Send for MatRef<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for MatRef<T> {}

impl<T: Copy> MatRef<T> {
    /// Whether the kernel may read this matrix's rows where they are, rather
    /// than from a packed copy: they are contiguous, in order, and not a multiple
    /// of 4 KiB apart (rows that are fall into one L1 set, whose 8 ways cannot
    /// hold the lines of the `MR` rows, or of a B panel's steps, read side by side).
    fn rows_in_place(&self) -> bool {
        self.cs == 1 && self.rs > 0 && !(self.rs as usize * std::mem::size_of::<T>()).is_multiple_of(4096)
    }

    /// The submatrix from (i, j) on: a pointer move only, never dereferenced
    /// here (its caller reads it only where (i, j) is inside the matrix).
    fn shifted(self, i: usize, j: usize) -> Self {
        let ptr = self.ptr.wrapping_offset(i as isize * self.rs + j as isize * self.cs);
        MatRef { ptr, ..self }
    }

    /// # Safety
    /// (i, j) is inside the matrix the caller described.
    #[inline(always)]
    unsafe fn at(&self, i: usize, j: usize) -> T {
        // SAFETY: forwarded from the contract.
        unsafe { *self.ptr.offset(i as isize * self.rs + j as isize * self.cs) }
    }
}

/// Whether products whose outputs total `bytes` (a whole batch) should write
/// C with streaming stores: from twice one core's L2 up. Each C tile is then
/// written without first being read (no read-for-ownership), which spares the
/// kernel the wait and memory the traffic; but C is left in no cache, so the
/// next op reads it from memory. On Zen 4 (1 MiB L2): batched 256 × 64 × 256
/// products (16 MiB of C) 15% faster, batched 128³ ones (4 MiB) 6%; with 1 MiB
/// of C or less, slower (10%). Products over more than one depth block
/// ([`Scalar::KC`]) read C back and never stream.
pub(crate) fn streams_c(bytes: usize) -> bool {
    bytes >= 2 * crate::kernels::simd::cpu::l2_bytes()
}

/// A range of memory that [`gemm`](fn@gemm)'s caller reads next (the next product of a
/// batch): `gemm` fetches it into L2 while it computes. By address, as a hint
/// only: it is never dereferenced.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Upcoming {
    start: usize,
    len: usize,
}

impl Upcoming {
    /// Nothing to fetch.
    pub(crate) const NONE: Self = Upcoming { start: 0, len: 0 };

    /// The bytes of a `rows × cols` matrix at `ptr` with strides `rs`, `cs`
    /// (elements), if its strides are non-negative and it is dense enough
    /// (its span at most twice its elements) to be worth fetching whole;
    /// otherwise [`Upcoming::NONE`].
    pub(crate) fn of<T>(ptr: *const T, rows: usize, cols: usize, rs: isize, cs: isize) -> Self {
        if rows == 0 || cols == 0 || rs < 0 || cs < 0 {
            return Self::NONE;
        }
        let size = std::mem::size_of::<T>();
        let span = (rows - 1)
            .checked_mul(rs as usize)
            .and_then(|r| r.checked_add((cols - 1).checked_mul(cs as usize)?))
            .and_then(|e| e.checked_add(1)?.checked_mul(size));
        match span {
            Some(len) if len / 2 <= rows.saturating_mul(cols).saturating_mul(size) => {
                Upcoming { start: ptr as usize, len }
            }
            _ => Self::NONE,
        }
    }
}

/// A run of whole cache lines, `lines` × 64 bytes from `start`, that a
/// micro-kernel fetches into L2 as it goes, one line per step of k. By address,
/// as a hint only: never dereferenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fetch {
    start: usize,
    lines: usize,
}

impl Fetch {
    /// Nothing to fetch.
    const NONE: Self = Fetch { start: 0, lines: 0 };
}

/// Deals [`Upcoming`] ranges out to a band's tiles as [`Fetch`]es: each tile's
/// kernel fetches its share one line per step of k, so that the prefetches
/// spread over the work. (Issued all at once after each tile, the share — 47
/// lines per tile in batched 128³ products — stalls on the core's line-fill buffers.)
struct Prefetcher<'a> {
    spans: &'a [Upcoming],
    span: usize,
    offset: usize,
    lines_per_tile: usize,
}

impl<'a> Prefetcher<'a> {
    fn new(spans: &'a [Upcoming], tiles: usize) -> Self {
        let lines: usize = spans.iter().map(|s| s.len.div_ceil(64)).sum();
        // A share ends where its span does, which can leave one tile's share short
        // per span: deal over that many fewer tiles, so that every line is dealt
        // (when there are at least as many tiles as non-empty spans).
        let dealt = tiles.saturating_sub(spans.len()).max(1);
        Prefetcher { spans, span: 0, offset: 0, lines_per_tile: lines.div_ceil(dealt) }
    }

    /// The next tile's share: up to `lines_per_tile` lines of the current span.
    #[inline]
    fn share(&mut self) -> Fetch {
        while let Some(s) = self.spans.get(self.span) {
            if self.offset < s.len {
                let lines = (s.len - self.offset).div_ceil(64).min(self.lines_per_tile);
                let start = s.start.wrapping_add(self.offset);
                self.offset += lines * 64;
                return Fetch { start, lines };
            }
            (self.span, self.offset) = (self.span + 1, 0);
        }
        Fetch::NONE
    }
}

/// Takes this thread's buffer from `cell`, grown to at least `len` elements of
/// `T` after a 64-byte aligned start; returns it with that start. Give it back
/// with `cell.set` so that the next call reuses it (no allocation, no page
/// faults per call).
fn take_buffer<T: Scalar>(
    cell: &'static std::thread::LocalKey<std::cell::Cell<Vec<u64>>>,
    len: usize,
) -> (Vec<u64>, usize) {
    let mut words = cell.take();
    let per_word = 8 / std::mem::size_of::<T>();
    words.resize(words.len().max(len.div_ceil(per_word) + 8), 0);
    let all: &[T] = bytemuck::cast_slice(&words[..]);
    let start = all.as_ptr().align_offset(64).min(64 / std::mem::size_of::<T>());
    (words, start)
}

/// Returns a buffer to its thread-local cell for the next call, unless it is
/// large (a packed copy of a huge B is not worth keeping alive between calls).
fn give_back(cell: &'static std::thread::LocalKey<std::cell::Cell<Vec<u64>>>, words: Vec<u64>) {
    if words.len() * 8 <= 16 << 20 {
        cell.set(words);
    }
}

/// `C = A·B` with `A` m × k, `B` k × n and `C` m × n row-major with row stride
/// `rs_c` (column stride 1), overwritten. `parallel` splits the rows of C
/// across the pool's threads. `upcoming` (only used single-threaded): memory the
/// caller reads next, fetched into L2 a share per tile. `stream_c`
/// (see [`streams_c`]): write C with streaming stores, when there is one
/// depth block and C's rows are 64-byte aligned; C is fenced before return.
///
/// # Safety
/// [`available`] returned true; every (i, p) with i < m, p < k is a readable
/// element of `a`, every (p, j) with p < k, j < n a readable element of `b`;
/// `c` points to m rows of n writable elements `rs_c` apart that nothing else
/// reads or writes during the call and that do not overlap `a` or `b`.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gemm<T: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    a: MatRef<T>,
    b: MatRef<T>,
    c: *mut T,
    rs_c: usize,
    parallel: bool,
    upcoming: &[Upcoming],
    stream_c: bool,
) {
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        for i in 0..m {
            // SAFETY: row i < m of C has n writable elements (contract).
            unsafe { std::slice::from_raw_parts_mut(c.add(i * rs_c), n) }.fill(T::default());
        }
        return;
    }
    let panels_m = m.div_ceil(MR);
    // one worker: run on the calling thread (see `kernels::multithreaded`)
    let threads = crate::kernels::pool::threads();
    let parallel = parallel && threads > 1;
    // bands of whole micro-panels, two per thread so that the pool can balance them
    // (one band when single-threaded: the caller may be one of many parallel products)
    let bands = if parallel { panels_m.min(2 * threads) } else { 1 };
    let c_addr = c as usize;
    // A small row-major B is read in place: each step of a whole panel is NR contiguous
    // elements of a row, and only a last panel of fewer columns is packed. (Not a large
    // B, whose panels would run down thousands of rows on as many pages.) See
    // [`B_IN_PLACE_BYTES`] for what it gained.
    let b_in_place =
        b.rows_in_place() && k.saturating_mul(n).saturating_mul(std::mem::size_of::<T>()) <= B_IN_PLACE_BYTES;
    // all of B (or its last panel), packed into NR-column panels that run over the whole
    // depth: the block (pc..pc+kc) of a panel is then its contiguous slice pc·NR..(pc+kc)·NR
    let (j_packed, full) = if b_in_place { (n / T::NR * T::NR, n / T::NR) } else { (0, 0) };
    let packed_len = (n - j_packed).div_ceil(T::NR) * k * T::NR;
    let (mut b_words, b_start) = take_buffer::<T>(&PACKED_B, packed_len);
    let packed = &mut bytemuck::cast_slice_mut::<u64, T>(&mut b_words)[b_start..b_start + packed_len];
    if parallel && j_packed == 0 && !packs_in_parallel(k, n) && n.div_ceil(T::NR) >= 2 {
        // SAFETY: forwarded from this function's contract; B is packed whole (j_packed = 0).
        unsafe { column_bands(m, n, k, a, b, packed, c, rs_c, stream_c) };
        give_back(&PACKED_B, b_words);
        return;
    }
    if j_packed < n {
        // SAFETY: columns j_packed..n of B, k × (n - j_packed).
        unsafe { pack_b(packed, b.shifted(0, j_packed), k, n - j_packed, parallel) };
    }
    // (`step` is only read for the `full` panels, which are B's own: b.rs > 0 then)
    let panels = Panels { full, ptr: b.ptr, step: b.rs as usize, packed: packed.as_ptr(), k };
    // one parallel region per product: each band runs every depth block itself
    let band = |(r0, rows): (usize, usize)| {
        let upcoming = if bands == 1 { upcoming } else { &[] };
        // SAFETY: rows r0..r0+rows ≤ m of A and C; bands write disjoint rows of C; the
        // panels are B's (alive for the call) or the packed copy (alive until the end).
        unsafe { compute_band(a, panels, c_addr as *mut T, rs_c, r0, rows, k, n, upcoming, stream_c) };
    };
    // band b: panels b·P/B .. (b+1)·P/B, so sizes differ by at most one panel and the
    // halves the pool deals to two threads are even. (Equal bands of ⌈P/B⌉ panels left
    // 1024 rows as 264 + 264 | 264 + 232: the critical path 3% over half. Balanced, in
    // four runs alternating calls with the old split, 1024² products took 1–3% less: the
    // fastest of 50 calls 2–3% (f32) and 1–2% (f64), the median 1–3% in 7 of 8.)
    let edge = |b: usize| (b * panels_m / bands * MR).min(m);
    let starts: Vec<(usize, usize)> = (0..bands).map(|b| (edge(b), edge(b + 1) - edge(b))).collect();
    if bands > 1 {
        let wake = crate::kernels::pool::worth_waking_macs(m as u128 * n as u128 * k as u128);
        crate::kernels::pool::for_each_item(starts, wake, band);
    } else {
        starts.into_iter().for_each(band);
    }
    give_back(&PACKED_B, b_words);
}

/// A parallel product whose B is packed on one thread (see [`packs_in_parallel`])
/// split by columns: each band packs its own panels of B and runs every row of
/// A past them, so no thread reads panels another thread has just written. Bands
/// of rows would each read all of B, packed by the caller: when the two vCPUs sit
/// far apart (a cache line's round trip between them 380–440 ns against 42–46 ns
/// near, switching every few seconds on the host measured), 256×64 · 64×256 f32
/// (B transposed) took 31 µs on two threads against 35 on one; near, 21.
///
/// # Safety
/// As for [`gemm`](fn@gemm); `packed` holds `n.div_ceil(NR) · k · NR` elements.
#[allow(clippy::too_many_arguments)]
unsafe fn column_bands<T: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    a: MatRef<T>,
    b: MatRef<T>,
    packed: &mut [T],
    c: *mut T,
    rs_c: usize,
    stream_c: bool,
) {
    let nr = T::NR;
    let panels = n.div_ceil(nr);
    // two bands a thread, as the row bands, so that the pool can balance them
    let bands = panels.min(2 * crate::kernels::pool::threads());
    let edge = |band: usize| band * panels / bands;
    let mut runs = Vec::with_capacity(bands);
    let mut rest = packed;
    for band in 0..bands {
        let (run, tail) = std::mem::take(&mut rest).split_at_mut((edge(band + 1) - edge(band)) * k * nr);
        runs.push((edge(band), run));
        rest = tail;
    }
    let c_addr = c as usize;
    let wake = crate::kernels::pool::worth_waking_macs(m as u128 * n as u128 * k as u128);
    crate::kernels::pool::for_each_item(runs, wake, |(q0, run): (usize, &mut [T])| {
        let j0 = q0 * nr;
        let w = (j0 + run.len() / k).min(n) - j0;
        // SAFETY: columns j0..j0 + w ≤ n of B, k × w, into this band's panels (w.div_ceil(NR)
        // of them, k·NR each: `run`); not in parallel, this task is one of the region's.
        unsafe { pack_b(run, b.shifted(0, j0), k, w, false) };
        let pb = Panels { full: 0, ptr: run.as_ptr(), step: 0, packed: run.as_ptr(), k };
        // SAFETY: columns j0..j0 + w of every row of C, which no other band writes; A whole
        // (read only); the panels just packed (alive until the region ends).
        unsafe { compute_band(a, pb, (c_addr as *mut T).add(j0), rs_c, 0, m, k, w, &[], stream_c) };
    });
}

/// Whether [`pack_b`] shares the packing of a k × n B between threads: from
/// 2¹⁵ elements. Below, a parallel product takes [`column_bands`].
fn packs_in_parallel(k: usize, n: usize) -> bool {
    k * n >= 1 << 15
}

/// The largest row-major B (bytes) read in place rather than packed (see
/// [`gemm`](fn@gemm)): a quarter of a 1 MiB L2, which holds a batch's next B
/// beside this one. Packing cost a copy per product and, for a single product of
/// 2¹⁵ elements of B or more, a parallel region of its own (on Zen 4, two
/// threads: batched 128³ products 4% faster, 96 × 512 × 64 f32 2× faster).
const B_IN_PLACE_BYTES: usize = 256 << 10;

/// B's panels as `compute_band` reads them: step p of panel s is `NR`
/// elements, at `ptr + s·NR + p·step` (B's own row p) for the first `full`
/// panels, and at `packed + (s − full)·k·NR + p·NR` for the rest (a packed
/// copy, zero-padded). Either all of B is packed (`full` = 0), or a row-major B
/// is read in place but for a last panel of fewer than NR columns.
#[derive(Clone, Copy)]
struct Panels<T> {
    full: usize,
    ptr: *const T,
    step: usize,
    packed: *const T,
    k: usize,
}

impl<T: Scalar> Panels<T> {
    /// Where step `p` of panel `s` starts, and how far apart its steps are.
    ///
    /// # Safety
    /// `s < n.div_ceil(NR)` and `p < k`, for panels that describe a live B (the
    /// contract of `compute_band`).
    #[inline]
    unsafe fn at(&self, s: usize, p: usize) -> (*const T, usize) {
        // SAFETY: inside B's row p, columns s·NR.. (in place), or inside the packed copy
        // of the panels past `full`, k steps each (forwarded from the contract).
        unsafe {
            if s < self.full {
                (self.ptr.add(s * T::NR + p * self.step), self.step)
            } else {
                (self.packed.add((s - self.full) * self.k * T::NR + p * T::NR), T::NR)
            }
        }
    }
}

// SAFETY: only read, while the storage or packed buffer it points into is alive
// (for the `gemm` call that made it); T is Sync.
unsafe impl<T: Sync> Send for Panels<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Panels<T> {}

/// Packs all of B (k × n) into NR-column panels over the whole depth, k-major, zero-padded.
///
/// # Safety
/// `b` describes a readable k × n matrix; `dst` holds `k · n.div_ceil(NR) · NR` elements.
unsafe fn pack_b<T: Scalar>(dst: &mut [T], b: MatRef<T>, k: usize, n: usize, parallel: bool) {
    let nr = T::NR;
    let panels = n.div_ceil(nr);
    let dst = &mut dst[..k * panels * nr];
    let parallel = parallel && packs_in_parallel(k, n);
    if b.cs == 1 {
        // a row-major B: one task per thread, each packing a run of whole panels
        let tasks = if parallel { crate::kernels::pool::threads().min(panels) } else { 1 };
        let per_task = panels.div_ceil(tasks);
        let pack = |t: usize, run: &mut [T]| {
            // SAFETY: `run` is panels t·per_task.. of the packed B, inside B's n columns
            // (forwarded from this function's contract).
            unsafe { pack_rows_across_panels(run, b, k, n, t * per_task) }
        };
        if tasks > 1 {
            crate::kernels::pool::chunks_mut(dst, per_task * k * nr, crate::kernels::pool::worth_waking(k * n), pack);
        } else {
            pack(0, dst);
        }
        return;
    }
    let pack = |(q, panel): (usize, &mut [T])| {
        let j0 = q * nr;
        let w = nr.min(n - j0);
        if b.rs == 1 && b.cs > 0 && b.cs as usize * nr <= i32::MAX as usize {
            // column-major B (a transposed operand): each column is contiguous in k. Gathers
            // ran 1.06–1.09× faster than scalar copies on f32 products of 128³ and 256×256×64
            // (single-threaded, in one process), the same on f64 and on large products; f32
            // now transposes in registers instead (see `pack_columns_f32`).
            // SAFETY: columns j0..j0 + w ≤ n have k elements each, cs apart (checked to fit
            // the gathers' i32 offsets); the panel holds k·NR; `gemm`'s caller checked AVX-512F.
            unsafe { T::pack_columns(panel, b.ptr.offset(j0 as isize * b.cs), b.cs as usize, k, w) };
        } else if b.rs == 1 {
            // column-major B (a transposed operand): each column is contiguous in k
            for jj in 0..nr {
                if jj < w {
                    // SAFETY: column j0 + jj < n of B has the k contiguous elements 0..k.
                    let col = unsafe { std::slice::from_raw_parts(b.ptr.offset((j0 + jj) as isize * b.cs), k) };
                    for (p, &x) in col.iter().enumerate() {
                        panel[p * nr + jj] = x;
                    }
                } else {
                    for p in 0..k {
                        panel[p * nr + jj] = T::default();
                    }
                }
            }
        } else {
            for (p, step) in panel.chunks_exact_mut(nr).enumerate() {
                for (jj, d) in step.iter_mut().enumerate() {
                    // SAFETY: p < k and j0 + jj < n when jj < w: inside B.
                    *d = if jj < w { unsafe { b.at(p, j0 + jj) } } else { T::default() };
                }
            }
        }
    };
    if parallel {
        crate::kernels::pool::chunks_mut(dst, k * nr, crate::kernels::pool::worth_waking(k * n), |q, panel| {
            pack((q, panel))
        });
    } else {
        dst.chunks_mut(k * nr).enumerate().for_each(pack);
    }
}

/// Rows of a row-major B copied into each panel at a time by [`pack_rows_across_panels`].
const PACK_ROWS: usize = 16;

/// Packs the panels `q0..` (as many as `run` holds) of a row-major B, [`PACK_ROWS`]
/// rows at a time across all of them, so that B is read row after row, each row
/// from start to end in NR-element steps. Packed a panel at a time instead, each
/// panel read its NR columns down all k rows, rows a page or two apart: on a 1024²
/// f64 product that was 6% of the time (`perf`), in `memmove` calls of NR elements;
/// this copy takes 3%, and the product's median fell 2–3% (1024² f32 and f64, one
/// and two threads, old and new builds in turn).
///
/// # Safety
/// `b` has k readable rows of n elements at unit column stride; `run` holds whole
/// panels of `k · NR` elements, panels `q0..` of B's `n.div_ceil(NR)`.
unsafe fn pack_rows_across_panels<T: Scalar>(run: &mut [T], b: MatRef<T>, k: usize, n: usize, q0: usize) {
    let nr = T::NR;
    let panel_len = k * nr;
    for p0 in (0..k).step_by(PACK_ROWS) {
        let p1 = (p0 + PACK_ROWS).min(k);
        for (g, panel) in run.chunks_exact_mut(panel_len).enumerate() {
            let j0 = (q0 + g) * nr;
            let w = nr.min(n - j0);
            for p in p0..p1 {
                // SAFETY: row p < k of B has the w contiguous elements j0..j0 + w ≤ n.
                let row = unsafe { std::slice::from_raw_parts(b.ptr.offset(p as isize * b.rs + j0 as isize), w) };
                let step = &mut panel[p * nr..(p + 1) * nr];
                if w == nr {
                    // a copy of NR elements the compiler knows: vector moves, not a call
                    step.copy_from_slice(row);
                } else {
                    step[..w].copy_from_slice(row);
                    step[w..].fill(T::default());
                }
            }
        }
    }
}

/// Packs rows `i0..i0+h` (h ≤ MR) of `A[.., pc..pc+kc]` into one MR-row panel, k-major, zero-padded.
///
/// # Safety
/// The rows and columns are inside `a`'s matrix; `panel` holds `kc · MR` elements.
#[inline]
unsafe fn pack_a_panel<T: Scalar>(panel: &mut [T], a: MatRef<T>, i0: usize, h: usize, pc: usize, kc: usize) {
    if a.rs == 1 {
        // column-major A (a transposed operand): each step of k is h contiguous elements
        for (p, step) in panel.chunks_exact_mut(MR).enumerate() {
            // SAFETY: column pc + p < k of A has the h contiguous rows i0..i0 + h ≤ m.
            let col = unsafe { std::slice::from_raw_parts(a.ptr.offset((pc + p) as isize * a.cs + i0 as isize), h) };
            step[..h].copy_from_slice(col);
            step[h..].fill(T::default());
        }
    } else if a.cs == 1 {
        // Row-major A: the h rows are read side by side, so their cache misses overlap
        // (rows are often whole pages apart, where the prefetchers restart). Reading a row
        // at a time instead left the packing waiting on one miss after another: 10% of a
        // 1024³ product's time, measured with `perf`; side by side, products of 1024² and
        // 2048² ran 4% faster this way, on 1 and 2 threads. (Prefetching the next panel's
        // rows as well gained nothing measurable.)
        // Side by side a segment of SEG steps at a time, not one step: rows 4 KiB apart
        // (the only row-major A that is packed whole, see `compute_band`) share one L1 set,
        // whose 8 ways cannot hold the lines of MR rows, so one step at a time reloaded each
        // line from L2 for every element. A whole segment of a row is consumed as soon as it
        // arrives: the 1024² f32 product ran 1–2% faster (one process, alternating calls).
        let mut rows = [std::ptr::null::<T>(); MR];
        for (ii, r) in rows.iter_mut().enumerate().take(h) {
            *r = a.ptr.wrapping_offset((i0 + ii) as isize * a.rs + pc as isize);
        }
        const SEG: usize = 16;
        let segs = kc / SEG * SEG;
        for p0 in (0..segs).step_by(SEG) {
            let steps = &mut panel[p0 * MR..(p0 + SEG) * MR];
            for (ii, row) in rows.iter().enumerate() {
                if ii < h {
                    // SAFETY: row i0 + ii < m of A has the kc contiguous elements pc..pc + kc ≤ k
                    // (the caller's contract), and p0 + SEG ≤ kc.
                    let seg = unsafe { std::slice::from_raw_parts(row.add(p0), SEG) };
                    for (t, &x) in seg.iter().enumerate() {
                        steps[t * MR + ii] = x;
                    }
                } else {
                    for t in 0..SEG {
                        steps[t * MR + ii] = T::default();
                    }
                }
            }
        }
        for (p, step) in panel.chunks_exact_mut(MR).enumerate().take(kc).skip(segs) {
            for (ii, d) in step.iter_mut().enumerate() {
                // SAFETY: for ii < h, row i0 + ii < m of A has the kc contiguous elements
                // pc..pc + kc ≤ k (the caller's contract), and p < kc.
                *d = if ii < h { unsafe { *rows[ii].add(p) } } else { T::default() };
            }
        }
    } else {
        for (p, step) in panel.chunks_exact_mut(MR).enumerate() {
            for (ii, d) in step.iter_mut().enumerate() {
                // SAFETY: i0 + ii < i0 + h ≤ m and pc + p < k when ii < h.
                *d = if ii < h { unsafe { a.at(i0 + ii, pc + p) } } else { T::default() };
            }
        }
    }
}

thread_local! {
    /// Each thread's packed-A buffer, kept between calls.
    static PACKED_A: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
    /// The calling thread's packed-B buffer, kept between calls.
    static PACKED_B: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The size of a packed A block (`mc` rows × `KC`) within a band: 144 rows in
/// f32, 72 in f64 at `KC` = 1024. It stays in a 1–2 MiB L2 beside the B panel
/// running past it (1024² f64, one thread: 2–7% faster than blocks of half the
/// size). Blocks of twice the size were 1–2% faster on a 2 MiB L2 but would
/// leave no room for B in a 1 MiB L2 (Zen 4).
const A_BLOCK_BYTES: usize = 576 << 10;

/// The most rows of A packed at a time within a band: [`A_BLOCK_BYTES`] of whole
/// panels (`compute_band` evens its blocks out below this).
const fn max_block_rows<T: Scalar>() -> usize {
    let rows = A_BLOCK_BYTES / (T::KC * std::mem::size_of::<T>()) / MR * MR;
    if rows < MR { MR } else { rows }
}

/// One band of rows `r0..r0+rows` of C against B's panels: for each depth
/// block and each block of rows of the band, pack A, then run every B panel
/// past every A panel.
///
/// # Safety
/// As for [`gemm`](fn@gemm), for this band's rows and this block; no other thread
/// touches these rows of C during the call; `pb` describes `n.div_ceil(NR)`
/// panels of `k` readable steps.
#[allow(clippy::too_many_arguments)]
unsafe fn compute_band<T: Scalar>(
    a: MatRef<T>,
    pb: Panels<T>,
    c: *mut T,
    rs_c: usize,
    r0: usize,
    rows: usize,
    k: usize,
    n: usize,
    upcoming: &[Upcoming],
    stream_c: bool,
) {
    let nr = T::NR;
    // One depth block writes each tile of C once: with 64-byte aligned rows, it
    // can stream them.
    let size = std::mem::size_of::<T>();
    let stream = stream_c && k <= T::KC && (c as usize).is_multiple_of(64) && (rs_c * size).is_multiple_of(64);
    let tiles = k.div_ceil(T::KC) * rows.div_ceil(MR) * n.div_ceil(nr);
    let mut prefetcher = Prefetcher::new(upcoming, tiles);
    let mc_max = max_block_rows::<T>();
    let (mut words, start) = take_buffer::<T>(&PACKED_A, mc_max * T::KC.min(k));
    let all: &mut [T] = bytemuck::cast_slice_mut(&mut words[..]);
    let mut tile = [T::default(); MR * 32];
    // blocks of at most mc_max rows, as even as whole panels allow (f32, 180 rows: 96 + 84,
    // not 144 + 36)
    // A row-major A is read in place, a whole panel at a time: no copy. Measured in one
    // process, single-threaded, f32/f64: 1.03–1.27× faster from 120×64×48 to 512³, the
    // same at 1000³. Not when its rows are a multiple of 4 KiB apart: the MR rows then
    // fall into one L1 set (8 ways), and 1024³ ran 0.80–0.94× as fast as packed.
    // Short panels (fewer than MR rows left) are packed: the kernel reads MR rows.
    let in_place = a.rows_in_place();
    let blocks = rows.div_ceil(mc_max);
    let block_rows = rows.div_ceil(MR).div_ceil(blocks) * MR;
    for pc in (0..k).step_by(T::KC) {
        let kc = T::KC.min(k - pc);
        let accumulate = pc > 0;
        // full tiles write C so; edge tiles go through `tile`
        let to_c = if accumulate {
            Write::Accumulate
        } else if stream {
            Write::Stream
        } else {
            Write::Overwrite
        };
        for ic in (r0..r0 + rows).step_by(block_rows) {
            let mc = block_rows.min(r0 + rows - ic);
            let panels = mc.div_ceil(MR);
            let pa = &mut all[start..start + panels * MR * kc];
            for (q, panel) in pa.chunks_exact_mut(MR * kc).enumerate() {
                let i0 = ic + q * MR;
                let h = MR.min(ic + mc - i0);
                if in_place && h == MR {
                    continue;
                }
                // SAFETY: rows i0..i0 + h < m and columns pc..pc + kc ≤ k are inside A.
                unsafe { pack_a_panel(panel, a, i0, h, pc, kc) };
            }
            let pa: &[T] = pa;
            // A read in place runs each of its panels past every B panel in turn, when this
            // depth block of B is small enough to come from L2 (half of it) each time: the
            // panel's rows then stay in L1, and B is one sequential stream. Otherwise (and
            // for a packed A) the A block is L2's and each B panel L1's (see the module docs).
            // (Batched 256 × 64 × 256 products, A in place: 1–6% faster.)
            let panels_n = n.div_ceil(nr);
            let a_panel_outer = in_place && panels_n * kc * nr * std::mem::size_of::<T>() <= 512 << 10;
            let mut run_tile = |s: usize, q: usize| {
                // SAFETY: panel s < n.div_ceil(NR), from step pc < k (the contract).
                let (bp, rs_b) = unsafe { pb.at(s, pc) };
                let ap = &pa[q * MR * kc..(q + 1) * MR * kc];
                let j0 = s * nr;
                let w = nr.min(n - j0);
                let i0 = ic + q * MR;
                let h = MR.min(ic + mc - i0);
                // SAFETY: row i0 < m, column j0 < n of C.
                let cp = unsafe { c.add(i0 * rs_c + j0) };
                // A last panel of up to 4 or 8 rows runs a kernel of 4 or 8 rows. A tile
                // of exactly the kernel's rows and NR columns runs into C; any other edge
                // tile into `tile`, whose valid part is then copied (or added).
                let rows_k = if h <= 4 {
                    4
                } else if h <= 8 {
                    8
                } else {
                    MR
                };
                let full = h == rows_k && w == nr;
                let fetch = prefetcher.share();
                let (dst, rs_dst, write) =
                    if full { (cp, rs_c, to_c) } else { (tile.as_mut_ptr(), nr, Write::Overwrite) };
                if in_place && h == MR {
                    // SAFETY: rows i0..i0 + MR ≤ m of the row-major A have the kc
                    // contiguous elements pc..pc + kc ≤ k; the rest as below.
                    unsafe {
                        let ar = a.ptr.offset(i0 as isize * a.rs + pc as isize);
                        // with this panel's first tile, prefetch the next panel's rows if
                        // they are this band's
                        let next = if s == 0 && i0 + 2 * MR <= r0 + rows {
                            ar.wrapping_offset(MR as isize * a.rs)
                        } else {
                            std::ptr::null()
                        };
                        T::kernel_rows(
                            kc,
                            ar,
                            a.rs as usize,
                            bp,
                            rs_b,
                            dst,
                            rs_dst,
                            write,
                            next,
                            !a_panel_outer,
                            fetch,
                        );
                    }
                } else {
                    // SAFETY: the A panel holds kc·MR elements, the B panel kc steps (from
                    // pc, `pb`'s step apart: the contract); the destination
                    // has rows_k rows of NR writable elements, `rs_dst` apart (C's tile when
                    // `full`: h = rows_k rows of C, else `tile`, MR ≥ rows_k rows); a
                    // streamed tile is C's, whose rows start 64-byte aligned (`stream`: C
                    // and rs_c are, and j0 is a multiple of NR, two whole lines);
                    // `gemm`'s caller checked AVX-512F.
                    unsafe { T::kernel(kc, ap.as_ptr(), bp, rs_b, dst, rs_dst, write, rows_k, fetch) };
                }
                if full {
                    return;
                }
                for ii in 0..h {
                    // SAFETY: row i0 + ii < m, columns j0..j0 + w ≤ n of C.
                    let crow = unsafe { std::slice::from_raw_parts_mut(cp.add(ii * rs_c), w) };
                    let trow = &tile[ii * nr..ii * nr + w];
                    if accumulate {
                        crow.iter_mut().zip(trow).for_each(|(c, &t)| *c = *c + t);
                    } else {
                        crow.copy_from_slice(trow);
                    }
                }
            };
            if a_panel_outer {
                for q in 0..panels {
                    for s in 0..panels_n {
                        run_tile(s, q);
                    }
                }
            } else {
                for s in 0..panels_n {
                    for q in 0..panels {
                        run_tile(s, q);
                    }
                }
            }
        }
    }
    if stream {
        crate::kernels::simd::stream::store_fence();
    }
    give_back(&PACKED_A, words);
}

#[cfg(test)]
mod tests;
