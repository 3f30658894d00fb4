//! The AVX-512 VNNI path of [`super::product_i32`].
//!
//! The layout is the f32 kernel's ([`crate::kernels::gemm`]) with four steps
//! of k to a 32-bit lane:
//! - B is packed once per product into panels of `NR` = 32 columns, each
//!   depth block of a panel `groups × 128` bytes: a group is four steps of k,
//!   column j's four bytes at `4j` (the layout `vpdpbusd` reads: lane j sums
//!   the four products of its bytes). Values are stored as `Bᵤ = B + β`.
//!   Panels pack in parallel.
//! - Each thread takes a band of C's rows. A row-major int8 A (depth a
//!   multiple of 4) is read where it is: a tile broadcasts each row's four
//!   bytes of a group as one i32. Other A is packed a block of `MC` rows at a
//!   time, per depth block, into panels of `MR` = 12 rows, each row's four
//!   bytes (`Aₛ = A − α`) of a group side by side.
//! - The micro-kernel keeps a 12 × 32 tile of C in 24 registers; each group
//!   is 2 loads of B and 24 `vpdpbusd`, 1536 multiply-adds.
//! - The shift corrections (see the parent module) start the tile: `−β·ΣAₛ`
//!   per row over the whole depth (first depth block only) and `α·ΣBᵤ − αβK`
//!   per column over each depth block.
//! - `KC` = 1024 steps: a B panel's block is 32 KiB and an A panel's 12 KiB,
//!   both in L1 (48 KiB) as the A panels of a block run past one B panel.

use std::arch::x86_64::*;

use super::{ByteKind, Bytes};
use crate::core::error::Result;

/// Rows of C per tile (and per packed A panel).
const MR: usize = 12;
/// Columns of C per tile (and per packed B panel): two vectors of 16 i32.
const NR: usize = 32;
/// Steps of k per depth block (a multiple of 4).
const KC: usize = 1024;
/// Rows of A packed at a time (10 panels: 120 KiB at `KC`, in L2).
const MC: usize = 10 * MR;
/// Products below this many multiply-adds take the portable loop (packing
/// both operands costs more than it saves).
pub(super) const MIN_MACS: usize = 1 << 12;

/// Whether the CPU has the instructions this path uses.
pub(super) fn available() -> bool {
    use std::sync::OnceLock;
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vnni")
            && is_x86_feature_detected!("avx2")
    })
}

/// Steps of k rounded up to whole groups of four.
fn padded(k: usize) -> usize {
    k.div_ceil(4) * 4
}

/// [`super::product_i32`] on VNNI. The caller has checked the dimensions and
/// [`available`].
pub(super) fn product(a: Bytes<'_>, b: Bytes<'_>, out: &mut [i32], op: &str) -> Result<()> {
    let ([bt, m, k], n) = (a.m.dims(), b.m.dims()[2]);
    let panels = n.div_ceil(NR);
    let panel_len = NR * padded(k);
    crate::core::storage::check_alloc(panels.saturating_mul(panel_len), &format!("{op} (a packed byte operand)"))?;
    let work = (m as u128) * (n as u128) * (k as u128);
    let threads = crate::kernels::pool::threads();
    // Many small products: one per task; few or large ones: each in bands of rows.
    let batch_parallel = threads > 1 && bt >= threads && work < 1 << 24 && work * bt as u128 >= 1 << 22;
    let threaded = threads > 1 && !batch_parallel && work >= 1 << 22;
    let product = |i: usize, dst: &mut [i32]| {
        let mut packed = vec![0u8; panels * panel_len];
        let blocks = k.div_ceil(KC);
        let mut col_terms = vec![0i32; panels * blocks * NR];
        let pack = |p: usize, panel: &mut [u8], terms: &mut [i32]| pack_b_panel(b, i, p, panel, terms, a.kind);
        if threaded {
            let tasks: Vec<_> =
                packed.chunks_mut(panel_len).zip(col_terms.chunks_mut(blocks * NR)).enumerate().collect();
            crate::kernels::pool::for_each_item(tasks, true, |(p, (panel, terms))| pack(p, panel, terms));
        } else {
            for ((p, panel), terms) in packed.chunks_mut(panel_len).enumerate().zip(col_terms.chunks_mut(blocks * NR)) {
                pack(p, panel, terms);
            }
        }
        let band = |r0: usize, c: &mut [i32]| compute_band(a, i, r0, c, n, &packed, &col_terms, b.kind);
        if threaded {
            let rows = m.div_ceil(threads).div_ceil(MR) * MR;
            crate::kernels::pool::chunks_mut(dst, rows * n, true, |t, c| band(t * rows, c));
        } else {
            band(0, dst);
        }
    };
    if batch_parallel {
        crate::kernels::pool::chunks_mut(
            out,
            m * n,
            crate::kernels::pool::worth_waking_macs(work * bt as u128),
            product,
        );
    } else {
        out.chunks_exact_mut(m * n).enumerate().for_each(|(i, dst)| product(i, dst));
    }
    Ok(())
}

/// Packs panel `p` of matrix `i` of B (every depth block) and its column
/// corrections `α·ΣBᵤ − αβK` per depth block (zero when α = 0).
fn pack_b_panel(b: Bytes<'_>, i: usize, p: usize, panel: &mut [u8], terms: &mut [i32], kind_a: ByteKind) {
    let [_, k, n] = b.m.dims();
    let (j0, cols) = (p * NR, NR.min(n - p * NR));
    let beta = b.kind.shift_b();
    let flip = beta as u8; // + 128 on a byte is a flip of its top bit
    let row_major = b.m.strides()[2] == 1 && matches!(b.kind, ByteKind::I8 | ByteKind::U8);
    for (d, k0) in (0..k).step_by(KC).enumerate() {
        let k1 = (k0 + KC).min(k);
        let block = &mut panel[NR * k0..NR * k0 + NR * padded(k1 - k0)];
        for (g, group) in block.chunks_exact_mut(4 * NR).enumerate() {
            let kg = k0 + 4 * g;
            if row_major && cols == NR && kg + 4 <= k1 {
                let rows: [&[u8]; 4] = std::array::from_fn(|t| b.m.row(i, kg + t, j0, NR));
                // SAFETY: `available()` (the caller's contract) includes AVX2; each row is
                // NR = 32 bytes and the group 128.
                unsafe { interleave4(rows, flip, group) };
                continue;
            }
            for t in 0..4 {
                let kk = kg + t;
                for j in 0..NR {
                    group[4 * j + t] = if kk < k1 && j < cols { (b.at(i, kk, j0 + j) + beta) as u8 } else { 0 };
                }
            }
        }
        let alpha = kind_a.shift_a();
        let terms = &mut terms[d * NR..(d + 1) * NR];
        if alpha == 0 {
            terms.fill(0);
            continue;
        }
        let mut sums = [0i32; NR];
        for group in block.chunks_exact(4 * NR) {
            for (s, c) in sums.iter_mut().zip(group.chunks_exact(4)) {
                *s += c.iter().map(|&x| x as i32).sum::<i32>();
            }
        }
        let fixed = alpha.wrapping_mul(beta).wrapping_mul((k1 - k0) as i32);
        for (t, s) in terms.iter_mut().zip(sums) {
            *t = alpha.wrapping_mul(s).wrapping_sub(fixed);
        }
    }
}

/// Four rows of 32 bytes (each flipped by `flip`) into 32 columns of four bytes.
///
/// # Safety
/// AVX2 is available.
#[target_feature(enable = "avx2")]
unsafe fn interleave4(rows: [&[u8]; 4], flip: u8, out: &mut [u8]) {
    assert!(rows.iter().all(|r| r.len() == 32) && out.len() == 128);
    let f = _mm256_set1_epi8(flip as i8);
    // SAFETY: each row holds 32 readable bytes and `out` 128 writable ones (asserted).
    unsafe {
        let r: [__m256i; 4] = std::array::from_fn(|t| _mm256_xor_si256(_mm256_loadu_si256(rows[t].as_ptr().cast()), f));
        // per 128-bit lane: pairs (r0, r1) and (r2, r3) of columns 0–7 / 8–15 (16–23 / 24–31)
        let lo01 = _mm256_unpacklo_epi8(r[0], r[1]);
        let hi01 = _mm256_unpackhi_epi8(r[0], r[1]);
        let lo23 = _mm256_unpacklo_epi8(r[2], r[3]);
        let hi23 = _mm256_unpackhi_epi8(r[2], r[3]);
        // quadruples: columns 0–3 | 16–19, 4–7 | 20–23, 8–11 | 24–27, 12–15 | 28–31
        let q0 = _mm256_unpacklo_epi16(lo01, lo23);
        let q1 = _mm256_unpackhi_epi16(lo01, lo23);
        let q2 = _mm256_unpacklo_epi16(hi01, hi23);
        let q3 = _mm256_unpackhi_epi16(hi01, hi23);
        let o = out.as_mut_ptr().cast::<__m256i>();
        _mm256_storeu_si256(o, _mm256_permute2x128_si256::<0x20>(q0, q1));
        _mm256_storeu_si256(o.add(1), _mm256_permute2x128_si256::<0x20>(q2, q3));
        _mm256_storeu_si256(o.add(2), _mm256_permute2x128_si256::<0x31>(q0, q1));
        _mm256_storeu_si256(o.add(3), _mm256_permute2x128_si256::<0x31>(q2, q3));
    }
}

/// Rows `r0..` of product `i` into `c` (whole rows of `n`), from the packed B.
///
/// A row-major int8 A whose depth is a multiple of 4 is read in place (a full
/// tile's 12 rows broadcast straight from A: no packing, which took a fifth of
/// a 1024² product's time); other A, and a last tile of fewer than 12 rows,
/// are packed.
#[allow(clippy::too_many_arguments)]
fn compute_band(
    a: Bytes<'_>,
    i: usize,
    r0: usize,
    c: &mut [i32],
    n: usize,
    packed: &[u8],
    col_terms: &[i32],
    kind_b: ByteKind,
) {
    let k = a.m.dims()[2];
    let (rows, panels, blocks) = (c.len() / n, n.div_ceil(NR), k.div_ceil(KC));
    let panel_len = NR * padded(k);
    let in_place = a.kind == ByteKind::I8 && a.m.strides()[2] == 1 && k.is_multiple_of(4);
    let lda = a.m.strides()[1];
    let mut a_block = vec![0u8; MC * KC];
    let mut row_terms = [0i32; MC];
    let zero_terms = [0i32; MR];
    for m0 in (0..rows).step_by(MC) {
        let mb = MC.min(rows - m0);
        // −β·ΣAₛ over the whole depth, added by the first depth block's tiles
        let beta = kind_b.shift_b();
        for (r, term) in row_terms[..mb].iter_mut().enumerate() {
            *term = if beta == 0 { 0 } else { beta.wrapping_neg().wrapping_mul(row_sum(a, i, r0 + m0 + r)) };
        }
        row_terms[mb..].fill(0);
        for (d, k0) in (0..k).step_by(KC).enumerate() {
            let k1 = (k0 + KC).min(k);
            let groups = padded(k1 - k0) / 4;
            // (in place, only a short last tile needs packing)
            let packed_from = if in_place { mb / MR * MR } else { 0 };
            pack_a_block(a, i, r0 + m0, packed_from, mb, k0, k1, &mut a_block);
            for p in 0..panels {
                let (j0, cols) = (p * NR, NR.min(n - p * NR));
                let bp = &packed[p * panel_len + NR * k0..][..groups * 4 * NR];
                let terms = &col_terms[(p * blocks + d) * NR..][..NR];
                for q in 0..mb.div_ceil(MR) {
                    let tile_rows = MR.min(mb - q * MR);
                    let rt: &[i32; MR] =
                        if d == 0 { row_terms[q * MR..q * MR + MR].try_into().expect("MR terms") } else { &zero_terms };
                    let start = (m0 + q * MR) * n + j0;
                    let end = start + (tile_rows - 1) * n + cols;
                    let out = c[start..end].as_mut_ptr();
                    let accumulate = d > 0;
                    if in_place && tile_rows == MR {
                        let row = a.m.row(i, r0 + m0 + q * MR, k0, k1 - k0);
                        // SAFETY: `available()` holds (the caller's contract). A is row-major
                        // int8 with its depth a multiple of 4, so the tile reads rows
                        // r0 + m0 + q·MR + (0..MR) < m (a full tile), bytes k0..k1, all inside
                        // A's view (checked by `Strided::new`); `bp` holds `groups` groups of
                        // 128 bytes; the C tile lies inside `c[start..end]`.
                        unsafe {
                            tile::<false>(groups, row.as_ptr(), lda, bp, rt, terms, out, n, tile_rows, cols, accumulate)
                        };
                    } else {
                        let ap = &a_block[q * MR * 4 * groups..][..MR * 4 * groups];
                        // SAFETY: `available()` holds (the caller's contract); `ap` holds `groups`
                        // groups of MR·4 bytes and `bp` of 128; the tile's `tile_rows` rows of
                        // `cols` elements, `n` apart from `start`, lie inside `c[start..end]`.
                        unsafe {
                            tile::<true>(groups, ap.as_ptr(), 0, bp, rt, terms, out, n, tile_rows, cols, accumulate)
                        };
                    }
                }
            }
        }
    }
}

/// `ΣAₛ` over the whole depth of row `r` of matrix `i` (`Aₛ = A − α`), wrapping.
fn row_sum(a: Bytes<'_>, i: usize, r: usize) -> i32 {
    let k = a.m.dims()[2];
    let alpha = a.kind.shift_a();
    if a.m.strides()[2] == 1 && matches!(a.kind, ByteKind::I8 | ByteKind::U8) {
        let flip = alpha as u8;
        return a.m.row(i, r, 0, k).iter().fold(0i32, |s, &x| s.wrapping_add((x ^ flip) as i8 as i32));
    }
    (0..k).fold(0i32, |s, kk| s.wrapping_add(a.at(i, r, kk) - alpha))
}

/// Packs rows `r0 + from..r0 + rows` (`rows` at most `MC`), depth `k0..k1`, of
/// matrix `i` of A into panels of `MR` rows (`Aₛ = A − α`), zero-padded; panel
/// `q` of the block at `q·MR·4·groups`. `from` is a multiple of `MR`.
#[allow(clippy::too_many_arguments)]
fn pack_a_block(a: Bytes<'_>, i: usize, r0: usize, from: usize, rows: usize, k0: usize, k1: usize, block: &mut [u8]) {
    if from >= rows {
        return;
    }
    let groups = padded(k1 - k0) / 4;
    let alpha = a.kind.shift_a();
    let row_major = a.m.strides()[2] == 1 && matches!(a.kind, ByteKind::I8 | ByteKind::U8);
    let flip = u32::from_ne_bytes([alpha as u8; 4]); // − 128 on a byte is a flip of its top bit
    let span = &mut block[from * 4 * groups..rows.div_ceil(MR) * MR * 4 * groups];
    span.fill(0);
    for r in from..rows {
        let (q, rr) = (r / MR, r % MR);
        let panel = &mut block[q * MR * 4 * groups..(q + 1) * MR * 4 * groups];
        if row_major {
            let src = a.m.row(i, r0 + r, k0, k1 - k0);
            let whole = src.len() / 4 * 4;
            for (g, four) in src[..whole].chunks_exact(4).enumerate() {
                let v = u32::from_ne_bytes([four[0], four[1], four[2], four[3]]) ^ flip;
                panel[(g * MR + rr) * 4..(g * MR + rr) * 4 + 4].copy_from_slice(&v.to_ne_bytes());
            }
            for (t, &x) in src[whole..].iter().enumerate() {
                panel[((whole / 4) * MR + rr) * 4 + t] = x ^ alpha as u8;
            }
        } else {
            for kk in k0..k1 {
                let v = (a.at(i, r0 + r, kk) - alpha) as i8;
                let (g, t) = ((kk - k0) / 4, (kk - k0) % 4);
                panel[(g * MR + rr) * 4 + t] = v as u8;
            }
        }
    }
}

/// The 12 × 32 tile: `C = terms + Aₛ·Bᵤ` (`+ C` if `accumulate`) over `groups`
/// groups of four steps, rows `..rows` and columns `..cols` stored. `PACKED`:
/// row r's bytes of group g at `a + (g·MR + r)·4`; otherwise A is read in place,
/// at `a + r·lda + 4g`.
///
/// # Safety
/// AVX-512F, BW and VNNI are available; `a` holds, as `PACKED` says, `groups`
/// groups of all `MR` rows, and `b` `groups · 128` bytes; `col_terms` holds `NR`
/// values; `c` points to `rows ≤ MR` rows of `cols ≤ NR` writable elements,
/// `ldc` apart.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
#[allow(clippy::too_many_arguments)]
unsafe fn tile<const PACKED: bool>(
    groups: usize,
    a: *const u8,
    lda: isize,
    b: &[u8],
    row_terms: &[i32; MR],
    col_terms: &[i32],
    c: *mut i32,
    ldc: usize,
    rows: usize,
    cols: usize,
    accumulate: bool,
) {
    debug_assert!(b.len() >= groups * 4 * NR && col_terms.len() >= NR);
    let mut acc = [[_mm512_setzero_si512(); 2]; MR];
    let bp = b.as_ptr();
    for g in 0..groups {
        // SAFETY: group g < groups of each panel lies inside it (the contract).
        unsafe {
            let b0 = _mm512_loadu_si512(bp.add(g * 4 * NR).cast());
            let b1 = _mm512_loadu_si512(bp.add(g * 4 * NR + 64).cast());
            for (r, row) in acc.iter_mut().enumerate() {
                let at = if PACKED { a.add((g * MR + r) * 4) } else { a.offset(r as isize * lda + 4 * g as isize) };
                let av = _mm512_set1_epi32(at.cast::<i32>().read_unaligned());
                row[0] = _mm512_dpbusd_epi32(row[0], b0, av);
                row[1] = _mm512_dpbusd_epi32(row[1], b1, av);
            }
        }
    }
    let m0: __mmask16 = if cols >= 16 { 0xffff } else { (1u16 << cols) - 1 };
    let m1: __mmask16 = if cols >= NR {
        0xffff
    } else if cols > 16 {
        (1u16 << (cols - 16)) - 1
    } else {
        0
    };
    // SAFETY: `col_terms` holds NR elements.
    let (t0, t1) = unsafe {
        (_mm512_loadu_si512(col_terms.as_ptr().cast()), _mm512_loadu_si512(col_terms.as_ptr().add(16).cast()))
    };
    for (r, row) in acc.iter().enumerate() {
        if r >= rows {
            break;
        }
        let rt = _mm512_set1_epi32(row_terms[r]);
        let mut v0 = _mm512_add_epi32(row[0], _mm512_add_epi32(t0, rt));
        let mut v1 = _mm512_add_epi32(row[1], _mm512_add_epi32(t1, rt));
        // SAFETY: row r < rows of C has `cols` writable elements at c + r·ldc; the masks
        // cover exactly those (masked-off lanes are neither read nor written, and do not fault).
        unsafe {
            let cp = c.add(r * ldc);
            if accumulate {
                v0 = _mm512_add_epi32(v0, _mm512_maskz_loadu_epi32(m0, cp));
                v1 = _mm512_add_epi32(v1, _mm512_maskz_loadu_epi32(m1, cp.add(16)));
            }
            _mm512_mask_storeu_epi32(cp, m0, v0);
            _mm512_mask_storeu_epi32(cp.add(16), m1, v1);
        }
    }
}
