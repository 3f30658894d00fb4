//! The micro-kernels: a 12 × NR tile of C in registers, updated with FMAs from
//! a packed A panel and a B panel over a depth block (see the parent module
//! for the blocking around them), for f32 and f64, and the packing of B's
//! columns they read.

use super::Fetch;

/// Rows of A per micro-panel (and of the register tile).
pub(super) const MR: usize = 12;

/// How many steps of k ahead the micro-kernel fetches its B panel into L1
/// (two lines a step), when many A panels run past that panel in turn: the A
/// panels streaming past evict it from L1 between passes, and the hardware
/// prefetchers do not hide the reload from L2 (1024² f64, one thread: 5% faster).
/// Distances of 8 to 32 steps are level. Products that read A in place
/// against a B block from L2, A panel outer, do not prefetch.
pub(super) const PREFETCH_STEPS: usize = 16;

/// How many steps of k ahead the micro-kernel fetches a packed A panel into L1
/// (one line a step in f32, two in f64). At `KC` = 1024 the A panel (48 KiB in
/// f32, 96 KiB in f64) and the B panel do not fit in L1 together, and A's panel
/// would come from L2 at every pass (1024² f64, one thread: 8% faster).
/// Distances of 8 and 32 steps are level.
pub(super) const A_AHEAD: usize = 8;

/// How a micro-kernel writes its tile into C.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Write {
    /// `C = tile`, plain stores.
    Overwrite,
    /// `C += tile`.
    Accumulate,
    /// `C = tile` with non-temporal stores, which write whole lines to memory
    /// without first reading them (no read-for-ownership) and leave them in no
    /// cache. Every row of the tile must start 64-byte aligned; the caller
    /// fences ([`crate::kernels::simd::stream::store_fence`]) before C is read.
    Stream,
}

/// An element type with an AVX-512 micro-kernel.
pub(crate) trait Scalar: bytemuck::Pod + Send + Sync + Default + std::ops::Add<Output = Self> {
    /// Columns per micro-panel: two vectors.
    const NR: usize;
    /// Depth of a packed block.
    const KC: usize;
    /// `C[0..rows, 0..NR] (=|+=) Apanel[0..rows] · Bpanel` over `kc` steps, for
    /// `rows` = 4, 8 or [`MR`] (the short ones for a last panel of up to 4 or 8
    /// rows, which would otherwise cost a whole tile); `c` has row stride `rs_c`
    /// and is written as `write` says. Step p of the B panel is the `NR`
    /// elements at `b + p·rs_b`: `rs_b` = NR for a packed panel, B's row stride
    /// for a row-major B read in place.
    ///
    /// # Safety
    /// AVX-512F is available; `a` holds `kc·MR` readable elements and `b` `kc`
    /// steps of `NR`, `rs_b` apart; `c` points to `rows` rows of `NR` writable
    /// elements, `rs_c` apart, each 64-byte aligned if `write` is [`Write::Stream`].
    ///
    /// `fetch`: lines to bring into L2 as the kernel goes, one per step of k (see
    /// [`Fetch`]).
    #[allow(clippy::too_many_arguments)]
    unsafe fn kernel(
        kc: usize,
        a: *const Self,
        b: *const Self,
        rs_b: usize,
        c: *mut Self,
        rs_c: usize,
        write: Write,
        rows: usize,
        fetch: Fetch,
    );
    /// As [`Scalar::kernel`], but A is read in place: element (r, p) of the
    /// tile's A at `a + r·rs_a + p` (a row-major A needs no packing).
    ///
    /// `next`, unless null, is where the next tile's A starts (`MR` rows of
    /// `kc` elements, `rs_a` apart): its cache lines are prefetched one per
    /// step of k (two for f64), so that their misses overlap this tile's work.
    /// Small products read A in place straight from memory, in rows too short
    /// (512 bytes in batched 128³ products) for the hardware prefetchers to pick up.
    ///
    /// `prefetch_b`: fetch B's panel [`PREFETCH_STEPS`] steps ahead into L1 (see
    /// there), for a B panel that many A panels run past in turn.
    ///
    /// # Safety
    /// As for [`Scalar::kernel`], with `MR` rows of `kc` readable elements at `a`, `rs_a` apart.
    #[allow(clippy::too_many_arguments)]
    unsafe fn kernel_rows(
        kc: usize,
        a: *const Self,
        rs_a: usize,
        b: *const Self,
        rs_b: usize,
        c: *mut Self,
        rs_c: usize,
        write: Write,
        next: *const Self,
        prefetch_b: bool,
        fetch: Fetch,
    );
    /// Packs columns `0..w` (w ≤ NR) of a column-major B into `panel`, k-major
    /// (step p holds the NR elements (p, 0..NR)), zero-padded on the right: f32
    /// by 16 × 16 register transposes of contiguous column segments, f64 by
    /// two masked gathers per step, instead of NR scalar copies.
    ///
    /// # Safety
    /// AVX-512F is available; column j < w has `k` readable elements at `b + j·cs`;
    /// `(NR - 1)·cs` fits in an `i32`; `panel` holds `k·NR` elements.
    unsafe fn pack_columns(panel: &mut [Self], b: *const Self, cs: usize, k: usize, w: usize);
}

macro_rules! micro_kernel {
    ($t:ty, $lanes:expr, $kc:expr, $vec:ty, $zero:ident, $load:ident, $store:ident, $set1:ident, $fma:ident, $add:ident, $stream:ident, $pack:ident) => {
        impl Scalar for $t {
            const NR: usize = 2 * $lanes;
            const KC: usize = $kc;

            #[inline]
            unsafe fn kernel(
                kc: usize,
                a: *const $t,
                b: *const $t,
                rs_b: usize,
                c: *mut $t,
                rs_c: usize,
                write: Write,
                rows: usize,
                fetch: Fetch,
            ) {
                let none = std::ptr::null();
                // SAFETY: forwarded from this function's contract (`c` has at least the rows written).
                unsafe {
                    match (rows, fetch.lines > 0) {
                        (4, false) => {
                            avx512_tile::<true, 4, true, false>(kc, a, MR, b, rs_b, c, rs_c, write, none, fetch)
                        }
                        (8, false) => {
                            avx512_tile::<true, 8, true, false>(kc, a, MR, b, rs_b, c, rs_c, write, none, fetch)
                        }
                        (_, false) => {
                            avx512_tile::<true, MR, true, false>(kc, a, MR, b, rs_b, c, rs_c, write, none, fetch)
                        }
                        (4, true) => {
                            avx512_tile::<true, 4, true, true>(kc, a, MR, b, rs_b, c, rs_c, write, none, fetch)
                        }
                        (8, true) => {
                            avx512_tile::<true, 8, true, true>(kc, a, MR, b, rs_b, c, rs_c, write, none, fetch)
                        }
                        (_, true) => {
                            avx512_tile::<true, MR, true, true>(kc, a, MR, b, rs_b, c, rs_c, write, none, fetch)
                        }
                    }
                }
            }

            #[inline]
            unsafe fn kernel_rows(
                kc: usize,
                a: *const $t,
                rs_a: usize,
                b: *const $t,
                rs_b: usize,
                c: *mut $t,
                rs_c: usize,
                write: Write,
                next: *const $t,
                prefetch_b: bool,
                fetch: Fetch,
            ) {
                // SAFETY: forwarded from this function's contract.
                unsafe {
                    match (prefetch_b, fetch.lines > 0) {
                        (true, false) => {
                            avx512_tile::<false, MR, true, false>(kc, a, rs_a, b, rs_b, c, rs_c, write, next, fetch)
                        }
                        (false, false) => {
                            avx512_tile::<false, MR, false, false>(kc, a, rs_a, b, rs_b, c, rs_c, write, next, fetch)
                        }
                        (true, true) => {
                            avx512_tile::<false, MR, true, true>(kc, a, rs_a, b, rs_b, c, rs_c, write, next, fetch)
                        }
                        (false, true) => {
                            avx512_tile::<false, MR, false, true>(kc, a, rs_a, b, rs_b, c, rs_c, write, next, fetch)
                        }
                    }
                }
            }

            #[inline]
            unsafe fn pack_columns(panel: &mut [$t], b: *const $t, cs: usize, k: usize, w: usize) {
                // SAFETY: forwarded from this function's contract.
                unsafe { $pack(panel, b, cs, k, w) }
            }
        }

        /// The micro-kernel, for rows `0..ROWS` of the tile. `PACKED`: A is a packed
        /// panel, element (r, p) at `a + p·MR + r`; otherwise A is read in place, (r, p)
        /// at `a + r·rs_a + p`. `PREFETCH_B`: fetch B [`PREFETCH_STEPS`] steps ahead.
        /// `FETCH`: fetch `fetch`'s lines, one per step (without it, the kernels of
        /// single large products carry no test for it in their loop).
        ///
        /// # Safety
        /// As for [`Scalar::kernel`] (`PACKED`) or [`Scalar::kernel_rows`].
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f")]
        #[allow(clippy::too_many_arguments)]
        unsafe fn avx512_tile<const PACKED: bool, const ROWS: usize, const PREFETCH_B: bool, const FETCH: bool>(
            kc: usize,
            a: *const $t,
            rs_a: usize,
            b: *const $t,
            rs_b: usize,
            c: *mut $t,
            rs_c: usize,
            write: Write,
            next: *const $t,
            fetch: Fetch,
        ) {
            use std::arch::x86_64::*;
            const L: usize = $lanes;
            // Elements per cache line; `next`'s line (row pf_row, elements pf_off..) comes next.
            const LINE: usize = 64 / std::mem::size_of::<$t>();
            let (mut pf_row, mut pf_off) = (0usize, 0usize);
            // The C tile is written (and read, when accumulating) at the end: start fetching
            // its lines now, so that their misses (rows may be far apart, and a fresh C is in
            // no cache) overlap the kc steps of work (with the prefetch of `next`: batched
            // 128³ products 15% faster, batched 256 × 64 × 256 ones 20%).
            // (Streamed stores need no line fetched: they write whole lines past the caches.)
            if write != Write::Stream {
                for r in 0..ROWS {
                    // SAFETY: prefetching is a hint and never faults; the address is inside C anyway.
                    unsafe {
                        _mm_prefetch::<_MM_HINT_T0>(c.add(r * rs_c).cast::<i8>());
                        _mm_prefetch::<_MM_HINT_T0>(c.add(r * rs_c + L).cast::<i8>());
                    }
                }
            }
            let mut acc: [[$vec; 2]; ROWS] = [[$zero(); 2]; ROWS];
            let mut fetched = 0;
            for p in 0..kc {
                if FETCH && fetched < fetch.lines {
                    // a hint, never a fault
                    _mm_prefetch::<_MM_HINT_T1>(fetch.start.wrapping_add(fetched * 64) as *const i8);
                    fetched += 1;
                }
                if !PACKED && !next.is_null() {
                    // 12·kc/16 lines in kc steps (f32), 12·kc/8 in kc steps of two (f64)
                    for _ in 0..std::mem::size_of::<$t>() / 4 {
                        if pf_off < kc {
                            // a hint, never a fault (row pf_row < MR, element pf_off < kc of `next`)
                            _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(pf_row * rs_a + pf_off).cast::<i8>());
                            pf_row += 1;
                            if pf_row == MR {
                                pf_row = 0;
                                pf_off += LINE;
                            }
                        }
                    }
                }
                if PACKED {
                    // hints, never faults: the packed A panel's lines A_AHEAD steps ahead
                    // (MR elements a step: 48 bytes in f32, 96 in f64, so f64 takes two)
                    for i in 0..std::mem::size_of::<$t>() / 4 {
                        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add((p + A_AHEAD) * MR + i * LINE).cast::<i8>());
                    }
                }
                if PREFETCH_B {
                    // hints, never faults (past the depth block's end they fetch lines not needed)
                    let ahead = b.wrapping_add((p + PREFETCH_STEPS) * rs_b);
                    _mm_prefetch::<_MM_HINT_T0>(ahead.cast::<i8>());
                    _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(L).cast::<i8>());
                }
                // SAFETY: p < kc, so the B step `p·rs_b..p·rs_b + 2L` is inside the B panel,
                // and element (r, p) of A inside the panel or row r < ROWS ≤ MR of A
                // (caller's contract).
                unsafe {
                    let b0 = $load(b.add(p * rs_b));
                    let b1 = $load(b.add(p * rs_b + L));
                    for (r, row) in acc.iter_mut().enumerate() {
                        let ap = if PACKED { a.add(p * MR + r) } else { a.add(r * rs_a + p) };
                        let av = $set1(*ap);
                        row[0] = $fma(av, b0, row[0]);
                        row[1] = $fma(av, b1, row[1]);
                    }
                }
            }
            // the rest of a share longer than the tile's steps (shallow products: k < lines)
            for line in fetched..fetch.lines {
                _mm_prefetch::<_MM_HINT_T1>(fetch.start.wrapping_add(line * 64) as *const i8);
            }
            for (r, row) in acc.iter().enumerate() {
                // SAFETY: row r < ROWS of the C tile has 2L writable elements at c + r·rs_c
                // (64-byte aligned when streamed: the contract).
                unsafe {
                    let cp = c.add(r * rs_c);
                    let (v0, v1) = (row[0], row[1]);
                    match write {
                        Write::Overwrite => {
                            $store(cp, v0);
                            $store(cp.add(L), v1);
                        }
                        Write::Accumulate => {
                            $store(cp, $add(v0, $load(cp)));
                            $store(cp.add(L), $add(v1, $load(cp.add(L))));
                        }
                        // the row's two vectors are two whole 64-byte-aligned lines (contract)
                        Write::Stream => {
                            $stream(cp.cast(), v0);
                            $stream(cp.add(L).cast(), v1);
                        }
                    }
                }
            }
        }
    };
}

mod f32_kernel {
    use super::{A_AHEAD, Fetch, MR, PREFETCH_STEPS, Scalar, Write};

    /// [`Scalar::pack_columns`] for f32: blocks of 16 steps × 16 columns, each
    /// read as 16 contiguous column segments (one 64-byte load each) and
    /// transposed in registers (for the column-major B of an attention-shaped
    /// `bhqd,bhkd->bhqk`, packing took 13.4% of the time with two masked gathers
    /// per step, 10.2% this way, 7.8% with the whole-panel prefetch below).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn pack_columns_f32(panel: &mut [f32], b: *const f32, cs: usize, k: usize, w: usize) {
        use std::arch::x86_64::*;
        let out = panel.as_mut_ptr();
        // A panel of at most 16 KiB (8 KiB in `bhqd,bhkd->bhqk` with d = 64) is requested whole before the first
        // load: its lines then arrive in parallel rather than 16 at a time.
        if w * k * std::mem::size_of::<f32>() <= 16 << 10 {
            for j in 0..w {
                for off in (0..k).step_by(16) {
                    // SAFETY: a prefetch is a hint and never faults; the address is inside column j.
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(b.add(j * cs + off).cast()) };
                }
            }
        }
        for p0 in (0..k).step_by(16) {
            let depth = (k - p0).min(16);
            let steps: __mmask16 = if depth == 16 { 0xffff } else { ((1u32 << depth) - 1) as u16 };
            for j0 in [0, 16] {
                let mut rows = [_mm512_setzero_ps(); 16];
                for (i, row) in rows.iter_mut().enumerate().take(w.saturating_sub(j0)) {
                    // SAFETY: column j0 + i < w has k readable elements at b + (j0 + i)·cs; the
                    // mask selects steps p0..p0 + depth ≤ k only (masked lanes are not read).
                    *row = unsafe { _mm512_maskz_loadu_ps(steps, b.add((j0 + i) * cs + p0)) };
                }
                for (t, v) in transpose_16x16(rows).into_iter().enumerate().take(depth) {
                    // SAFETY: step p0 + t < k of the panel holds 32 elements; j0 + 16 ≤ 32.
                    unsafe { _mm512_storeu_ps(out.add((p0 + t) * 32 + j0), v) };
                }
            }
        }
    }

    /// The 16 × 16 transpose of `r` (row i = `r[i]`): element t of row i
    /// becomes element i of row t. Pairs of rows interleave by 32 bits, then by
    /// 64 bits (leaving, in each 128-bit lane l, column 4l + c of four rows in
    /// register 4g + c), then two rounds of 128-bit lane shuffles gather the
    /// four lanes of each column.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn transpose_16x16(r: [std::arch::x86_64::__m512; 16]) -> [std::arch::x86_64::__m512; 16] {
        use std::arch::x86_64::*;
        let mut a = [_mm512_setzero_ps(); 16];
        for i in 0..8 {
            a[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
            a[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
        }
        let mut q = [_mm512_setzero_ps(); 16];
        for g in 0..4 {
            let pd = |x: __m512| _mm512_castps_pd(x);
            let (a0, a1, a2, a3) = (pd(a[4 * g]), pd(a[4 * g + 1]), pd(a[4 * g + 2]), pd(a[4 * g + 3]));
            q[4 * g] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
            q[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
            q[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
            q[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
        }
        let mut t = [_mm512_setzero_ps(); 16];
        for c in 0..4 {
            let (x, y, z, w) = (q[c], q[4 + c], q[8 + c], q[12 + c]);
            let (d0, d1) = (_mm512_shuffle_f32x4::<0x44>(x, y), _mm512_shuffle_f32x4::<0xEE>(x, y));
            let (e0, e1) = (_mm512_shuffle_f32x4::<0x44>(z, w), _mm512_shuffle_f32x4::<0xEE>(z, w));
            t[c] = _mm512_shuffle_f32x4::<0x88>(d0, e0);
            t[4 + c] = _mm512_shuffle_f32x4::<0xDD>(d0, e0);
            t[8 + c] = _mm512_shuffle_f32x4::<0x88>(d1, e1);
            t[12 + c] = _mm512_shuffle_f32x4::<0xDD>(d1, e1);
        }
        t
    }

    micro_kernel!(
        f32,
        16,
        1024,
        __m512,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_storeu_ps,
        _mm512_set1_ps,
        _mm512_fmadd_ps,
        _mm512_add_ps,
        _mm512_stream_ps,
        pack_columns_f32
    );
}

mod f64_kernel {
    use super::{A_AHEAD, Fetch, MR, PREFETCH_STEPS, Scalar, Write};

    /// [`Scalar::pack_columns`] for f64: 8 columns per gather.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn pack_columns_f64(panel: &mut [f64], b: *const f64, cs: usize, k: usize, w: usize) {
        use std::arch::x86_64::*;
        let cs = cs as i32;
        let lo = _mm256_mullo_epi32(_mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0), _mm256_set1_epi32(cs));
        let hi = _mm256_add_epi32(lo, _mm256_set1_epi32(8 * cs));
        let mask = |from: usize| -> __mmask8 {
            if w >= from + 8 { 0xff } else { ((1u32 << w.saturating_sub(from)) - 1) as u8 }
        };
        let (m_lo, m_hi) = (mask(0), mask(8));
        for (p, step) in panel.chunks_exact_mut(16).take(k).enumerate() {
            // SAFETY: as for f32: only the selected columns j < w are read; `step` has 16 elements.
            unsafe {
                let base = b.add(p);
                let v0 = _mm512_mask_i32gather_pd::<8>(_mm512_setzero_pd(), m_lo, lo, base.cast());
                let v1 = _mm512_mask_i32gather_pd::<8>(_mm512_setzero_pd(), m_hi, hi, base.cast());
                _mm512_storeu_pd(step.as_mut_ptr(), v0);
                _mm512_storeu_pd(step.as_mut_ptr().add(8), v1);
            }
        }
    }

    micro_kernel!(
        f64,
        8,
        1024,
        __m512d,
        _mm512_setzero_pd,
        _mm512_loadu_pd,
        _mm512_storeu_pd,
        _mm512_set1_pd,
        _mm512_fmadd_pd,
        _mm512_add_pd,
        _mm512_stream_pd,
        pack_columns_f64
    );
}
