//! The batched matrix product `[B, M, K] × [B, K, N] → [B, M, N]` over strided
//! operands: the one matmul kernel, called by einsum's contractions and by
//! `tf.linalg.matmul` (`ops::matrix::matmul`).
//!
//! An operand is a [`Strided`] view of a slice: any batch, row and column
//! strides (a transposed operand is the same data with its row and column
//! strides swapped; a broadcast batch has batch stride 0). This module decides
//! how a product runs:
//!
//! - f32/f64 products of at least ~80³ with sides of at least a tile take the
//!   own AVX-512 kernel ([`crate::kernels::gemm`]); other f32/f64 and all
//!   c64/c128 products the `gemm` crate (bf16/f16 arrive as f32);
//! - byte integers (int8, uint8, int4, uint4) exact products on their own
//!   kernel ([`crate::kernels::igemm`]), into any integer result;
//! - other integers and bool a blocked i-k-j loop over contiguous copies;
//! - threads: a batch of products one per task, or one product in bands of
//!   rows, above the thresholds in [`bmm`].

use std::borrow::Cow;

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::kernels::sums::Ring;
use crate::{DType, Tensor};

/// One operand of a batched product: `dims = [batch, rows, cols]` elements of
/// `data`, element `(i, r, c)` at `offset + i·strides[0] + r·strides[1] + c·strides[2]`.
/// Built only by [`Strided::new`], which checks that every element lies inside `data`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Strided<'a, C> {
    data: &'a [C],
    offset: usize,
    dims: [usize; 3],
    strides: [isize; 3],
}

impl<'a, C: Element> Strided<'a, C> {
    /// The view, or `None` if some element would lie outside `data`.
    pub(crate) fn new(data: &'a [C], offset: usize, dims: [usize; 3], strides: [isize; 3]) -> Option<Self> {
        if dims.contains(&0) {
            return Some(Strided { data, offset, dims, strides });
        }
        let (mut lo, mut hi) = (offset as i128, offset as i128);
        for (&d, &s) in dims.iter().zip(&strides) {
            let reach = (d as i128 - 1) * s as i128;
            if reach < 0 { lo += reach } else { hi += reach }
        }
        (lo >= 0 && hi < data.len() as i128).then_some(Strided { data, offset, dims, strides })
    }

    /// `[batch, rows, cols]`.
    pub(crate) fn dims(&self) -> [usize; 3] {
        self.dims
    }

    /// The strides of the batch, row and column axes, in elements.
    pub(crate) fn strides(&self) -> [isize; 3] {
        self.strides
    }

    /// Element (i, r, c), which must lie inside the dims (else it panics, as indexing does).
    #[inline(always)]
    pub(crate) fn get(&self, i: usize, r: usize, c: usize) -> C {
        let at = self.offset as isize
            + i as isize * self.strides[0]
            + r as isize * self.strides[1]
            + c as isize * self.strides[2];
        self.data[at as usize]
    }

    /// `len` elements of row r of matrix i from column c0, as a slice: the column
    /// stride must be 1 and the span inside the dims.
    pub(crate) fn row(&self, i: usize, r: usize, c0: usize, len: usize) -> &'a [C] {
        debug_assert!(self.strides[2] == 1 && c0 + len <= self.dims[2]);
        let at = self.offset as isize + i as isize * self.strides[0] + r as isize * self.strides[1] + c0 as isize;
        &self.data[at as usize..at as usize + len]
    }

    /// Indices `from..to` of `axis` (a view; `from ≤ to ≤` the axis's size).
    pub(crate) fn narrow(self, axis: usize, from: usize, to: usize) -> Self {
        debug_assert!(from <= to && to <= self.dims[axis]);
        let mut dims = self.dims;
        dims[axis] = to - from;
        let offset =
            if to > from { (self.offset as isize + from as isize * self.strides[axis]) as usize } else { self.offset };
        Strided { dims, offset, ..self }
    }

    /// A 3-D tensor of element type `C` as a view.
    pub(crate) fn of(t: &'a Tensor) -> Result<Self> {
        let (l, s) = (t.layout(), t.layout().strides());
        let (dims, strides) = match (t.shape(), s) {
            (&[b, r, c], &[sb, sr, sc]) if C::DTYPE == t.dtype() => ([b, r, c], [sb, sr, sc]),
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "matmul: internal error: a {} operand of shape {:?} is not a 3-D {} view",
                    t.dtype(),
                    t.shape(),
                    C::DTYPE
                )));
            }
        };
        Strided::new(t.storage_slice::<C>(), l.offset(), dims, strides).ok_or_else(|| {
            Error::InvalidArgument(format!("matmul: internal error: a view of shape {dims:?} outside its storage"))
        })
    }

    /// The elements in row-major order: borrowed when they lie so already.
    fn contiguous(&self, op: &str) -> Result<Cow<'a, [C]>> {
        let [b, r, c] = self.dims;
        let n = b * r * c;
        let row_major = [(r * c) as isize, c as isize, 1];
        if n == 0 || self.dims.iter().zip(self.strides.iter().zip(row_major)).all(|(&d, (&s, w))| d == 1 || s == w) {
            return Ok(Cow::Borrowed(&self.data[self.offset..self.offset + n]));
        }
        crate::core::storage::check_alloc(
            n.saturating_mul(std::mem::size_of::<C>()),
            &format!("{op} (a copy of an operand view of shape {:?})", self.dims),
        )?;
        let mut out = Vec::with_capacity(n);
        for i in 0..b {
            for rr in 0..r {
                let row = self.offset as isize + i as isize * self.strides[0] + rr as isize * self.strides[1];
                out.extend((0..c).map(|cc| self.data[(row + cc as isize * self.strides[2]) as usize]));
            }
        }
        Ok(Cow::Owned(out))
    }
}

/// The dtype a product (or an einsum) with result `d` computes in.
pub(crate) use crate::dispatch::compute_dtype;

/// Whether [`bmm`] writes every element of its output, for a product of inner
/// dimension `k` in `C` (else the output must be zero-filled before).
pub(crate) fn overwrites<C: Ring>(k: usize) -> bool {
    k > 0 && matches!(C::DTYPE, DType::F32 | DType::F64 | DType::C64 | DType::C128)
}

/// Whether operands of `operand` dtype may reach [`matmul_tensors`] in compute
/// type `compute` uncast: byte integers against an integer compute type, whose
/// products [`crate::kernels::igemm`] forms exactly (the same bits as products
/// of the operands cast to `compute`, which wrap modulo its width).
pub(crate) fn keeps_bytes(operand: DType, compute: DType) -> bool {
    crate::kernels::igemm::ByteKind::of(operand).is_some() && compute.is_integer()
}

/// The product of two 3-D tensors (`[B, M, K]` and `[B, K, N]`, any strides) in
/// element type `C`, as a new contiguous `[B, M, N]` tensor; `op` names the
/// caller in allocation errors. The operands are of dtype `C`, or byte integers
/// when `C` is an integer type ([`keeps_bytes`]): two byte operands multiply on
/// [`crate::kernels::igemm`] (exact in i32 or i64, then wrapped to `C`); one
/// byte operand against another dtype is cast to `C` first.
pub(crate) fn matmul_tensors<C: Ring>(a: &Tensor, b: &Tensor, op: &str) -> Result<Tensor> {
    use crate::kernels::igemm::{Bytes, product_i32, product_i64};
    let bytes = |t: &Tensor| keeps_bytes(t.dtype(), C::DTYPE);
    if bytes(a) && bytes(b) {
        let (ba, bb) = (Bytes::of(a)?, Bytes::of(b)?);
        let shape = [a.shape()[0], a.shape()[1], b.shape()[2]];
        let exact = if matches!(C::DTYPE, DType::I64 | DType::U64) {
            let mut out = Tensor::for_overwrite(op, &shape, DType::I64)?;
            product_i64(ba, bb, out.data_mut::<i64>(), op)?;
            out
        } else {
            let mut out = Tensor::for_overwrite(op, &shape, DType::I32)?;
            product_i32(ba, bb, out.data_mut::<i32>(), op)?;
            out
        };
        // integer casts wrap: the exact sums modulo C's width, as C's own products give
        return if exact.dtype() == C::DTYPE { Ok(exact) } else { exact.cast(C::DTYPE) };
    }
    fn in_c<'t, C: Element>(t: &'t Tensor) -> Result<Cow<'t, Tensor>> {
        if t.dtype() == C::DTYPE { Ok(Cow::Borrowed(t)) } else { t.cast(C::DTYPE).map(Cow::Owned) }
    }
    let (a, b) = (in_c::<C>(a)?, in_c::<C>(b)?);
    let (sa, sb) = (Strided::<C>::of(&a)?, Strided::<C>::of(&b)?);
    let (bt, m, n) = (sa.dims[0], sa.dims[1], sb.dims[2]);
    let mut out = if overwrites::<C>(sa.dims[2]) {
        Tensor::for_overwrite(op, &[bt, m, n], C::DTYPE)?
    } else {
        Tensor::zeros_for(op, &[bt, m, n], C::DTYPE)?
    };
    bmm::<C>(sa, sb, out.data_mut::<C>(), op)?;
    Ok(out)
}

/// [`matmul_tensors`] in a compute dtype known at run time: f32, f64, c64,
/// c128, the integers or bool (never bf16/f16, which compute in f32).
///
/// # Errors
/// [`Error::Unimplemented`] for bf16/f16; as [`matmul_tensors`] otherwise.
pub(crate) fn matmul_any(a: &Tensor, b: &Tensor, compute: DType, op: &str) -> Result<Tensor> {
    crate::dispatch_dtype!(compute, C, matmul_tensors::<C>(a, b, op), [
        Bool => bool, U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32,
        I64 => i64, F32 => f32, F64 => f64, C64 => ::num_complex::Complex32, C128 => ::num_complex::Complex64,
    ], else => Err(Error::Unimplemented(format!("{op}: internal error: {compute} is not a compute type"))))
}

/// `[B, M, K] × [B, K, N] → [B, M, N]` into `out` (row-major; zero-filled
/// unless [`overwrites`]).
///
/// # Errors
/// [`Error::InvalidArgument`] if the dimensions do not chain or `out` has the
/// wrong length; [`Error::ResourceExhausted`] if an integer operand's
/// contiguous copy does not fit.
pub(crate) fn bmm<C: Ring>(a: Strided<'_, C>, b: Strided<'_, C>, out: &mut [C], op: &str) -> Result<()> {
    let ([bt, m, k], [bt2, k2, n]) = (a.dims, b.dims);
    if bt != bt2 || k != k2 || out.len() != bt * m * n {
        return Err(Error::InvalidArgument(format!(
            "{op}: internal error: a product of {:?} and {:?} into {} elements",
            a.dims,
            b.dims,
            out.len()
        )));
    }
    if bt * m * n == 0 || k == 0 {
        return Ok(());
    }
    if matches!(C::DTYPE, DType::F32 | DType::F64 | DType::C64 | DType::C128) {
        float_bmm(a, b, out);
        return Ok(());
    }
    int_bmm(a, b, out, op)
}

/// [`bmm`] for f32/f64/c64/c128, on the own kernel or the `gemm` crate.
fn float_bmm<C: Ring>(a: Strided<'_, C>, b: Strided<'_, C>, out: &mut [C]) {
    let ([bt, m, k], n) = (a.dims, b.dims[2]);
    let (sa, sb) = (a.strides, b.strides);
    let (da, db) = (a.data, b.data);
    let work = (m as u128) * (n as u128) * (k as u128);
    let threads = crate::kernels::pool::threads();
    // The AVX-512 kernel pads tiles to 12 × 32 (f32) / 12 × 16 (f64) and packs
    // both operands: thin products (a side below a tile) and small ones (below
    // ~80³, batches of 64 such products) go to the gemm crate, whose small kernels fit them.
    let own_kernel = matches!(C::DTYPE, DType::F32 | DType::F64)
        && m >= 12
        && n >= 16
        && k >= 8
        && work >= 1 << 19
        && crate::kernels::gemm::available();
    // Many small products: one per task, each single-threaded; few or large ones:
    // one at a time, each in bands of rows across the threads. Measured with
    // `bench/rust/src/bin/einsum_threshold_sweep.rs` on two threads (the pool's region costs ~12–16 µs):
    // - a batch split one product per task pays from ~1M multiply-adds in all
    //   (4 × 64³: 38 µs against 64 serial; at 2 × 64³ it is level);
    // - one product threaded pays from ~4M (192³: 142 µs against 169 serial; 160³
    //   and below level or slower), for the gemm crate too. A complex product is
    //   four real ones: it threads from 1M.
    // The own kernel runs a batch of large products best one per task too (no
    // synchronisation inside a product) once there are enough of them.
    let batch_parallel = threads > 1
        && bt >= threads
        && work * bt as u128 >= 1 << 20
        && (work < 1 << 22 || (own_kernel && bt >= 2 * threads));
    let complex = matches!(C::DTYPE, DType::C64 | DType::C128);
    let threaded = threads > 1 && !batch_parallel && work >= if complex { 1 << 20 } else { 1 << 22 };
    let one = C::from_f32(1.0);
    // the whole batch's output decides whether the own kernel streams C
    #[cfg(target_arch = "x86_64")]
    let stream_c = crate::kernels::gemm::streams_c(std::mem::size_of_val(out));
    let product = |(i, dst): (usize, &mut [C])| {
        let (pa, pb) = (da.as_ptr(), db.as_ptr());
        let oa = a.offset as isize + i as isize * sa[0];
        let ob = b.offset as isize + i as isize * sb[0];
        #[cfg(target_arch = "x86_64")]
        if own_kernel {
            use crate::kernels::gemm::{MatRef, Upcoming, gemm};
            // SAFETY: AVX-512F is available (`own_kernel`). `a` and `b` are
            // `Strided` views, checked by `Strided::new` to lie inside `da`/`db`
            // (alive for the call), so (r, p) of product i lies inside `pa`'s slice
            // and (p, c) inside `pb`'s; `dst` is an exclusive m × n row-major buffer
            // not aliasing them. C is f32 (resp. f64) exactly when its DTYPE says so,
            // so the casts are identities.
            unsafe {
                let a = pa.offset(oa);
                let b = pb.offset(ob);
                // The next product's operands (most often this thread's next task), fetched
                // into L2 while this one computes: its B is then packed from L2, and its A
                // read from there (batches of 128³ products: 7–10% faster).
                let upcoming = if i + 1 < bt && !threaded {
                    let (na, nb) = (a.wrapping_offset(sa[0]), b.wrapping_offset(sb[0]));
                    [Upcoming::of(na, m, k, sa[1], sa[2]), Upcoming::of(nb, k, n, sb[1], sb[2])]
                } else {
                    [Upcoming::NONE; 2]
                };
                if C::DTYPE == DType::F32 {
                    let a = MatRef { ptr: a.cast::<f32>(), rs: sa[1], cs: sa[2] };
                    let b = MatRef { ptr: b.cast::<f32>(), rs: sb[1], cs: sb[2] };
                    gemm(m, n, k, a, b, dst.as_mut_ptr().cast::<f32>(), n, threaded, &upcoming, stream_c);
                } else {
                    let a = MatRef { ptr: a.cast::<f64>(), rs: sa[1], cs: sa[2] };
                    let b = MatRef { ptr: b.cast::<f64>(), rs: sb[1], cs: sb[2] };
                    gemm(m, n, k, a, b, dst.as_mut_ptr().cast::<f64>(), n, threaded, &upcoming, stream_c);
                }
            }
            return;
        }
        // Threaded, the rows are cut into one band per thread, each a product of its own
        // (gemm's own threading would run on rayon's pool, whose sleeping workers cost a
        // vCPU wake-up per call: see `kernels::pool`).
        let rows = if threaded { m.div_ceil(threads) } else { m };
        let band = |bi: usize, dst: &mut [C]| {
            let (r0, mb) = (bi * rows, dst.len() / n);
            // SAFETY: `C` is one of f32/f64/Complex32/Complex64, the types gemm
            // supports (gemm's c32/c64 are num_complex's types). `a` and `b` are
            // `Strided` views checked to lie inside `da`/`db` (alive for the call),
            // so every element gemm reads, at `offset + i*s0 + r*s1 + c*s2` within
            // the dims (rows r0..r0 + mb ≤ m of A), lies inside them. `dst` is an
            // exclusive mb×n row-major buffer (row stride n, column stride 1), rows
            // r0.. of this product's output, not aliasing the inputs. With
            // read_dst = false gemm writes dst = 1·a·b.
            unsafe {
                gemm::gemm::<C>(
                    mb,
                    n,
                    k,
                    dst.as_mut_ptr(),
                    1,
                    n as isize,
                    false,
                    da.as_ptr().offset(oa + r0 as isize * sa[1]),
                    sa[2],
                    sa[1],
                    db.as_ptr().offset(ob),
                    sb[2],
                    sb[1],
                    C::ZERO,
                    one,
                    false,
                    false,
                    false,
                    gemm::Parallelism::None,
                );
            }
        };
        if threaded {
            crate::kernels::pool::chunks_mut(dst, rows * n, crate::kernels::pool::worth_waking_macs(work), band);
        } else {
            band(0, dst);
        }
        // The gemm crate's complex kernels return -0 real parts for sums of
        // zero products (0·0 − 0·0); a sum started at +0, as NumPy's and
        // BLAS's are, never ends at -0. Adding +0 gives exactly that result.
        if complex {
            dst.iter_mut().for_each(|x| *x = x.radd(C::ZERO));
        }
    };
    if batch_parallel {
        let wake = crate::kernels::pool::worth_waking_macs(work * bt as u128);
        crate::kernels::pool::chunks_mut(out, m * n, wake, |i, c| product((i, c)));
    } else {
        out.chunks_exact_mut(m * n).enumerate().for_each(product);
    }
}

/// [`bmm`] for integers and bool: a blocked i-k-j loop over contiguous copies,
/// row blocks in parallel; `out` arrives zero-filled.
fn int_bmm<C: Ring>(a: Strided<'_, C>, b: Strided<'_, C>, out: &mut [C], op: &str) -> Result<()> {
    let ([_, m, k], n) = (a.dims, b.dims[2]);
    let ad = a.contiguous(op)?;
    let bd = b.contiguous(op)?;
    const MB: usize = 16;
    const KB: usize = 128;
    const NB: usize = 512;
    let parallel = (m as u128) * (n as u128) * (k as u128) >= 1 << 20 && crate::kernels::multithreaded();
    for (i, dst) in out.chunks_exact_mut(m * n).enumerate() {
        let ab = &ad[i * m * k..(i + 1) * m * k];
        let bb = &bd[i * k * n..(i + 1) * k * n];
        let block = |(blk, rows): (usize, &mut [C])| {
            let r0 = blk * MB;
            for n0 in (0..n).step_by(NB) {
                let n1 = (n0 + NB).min(n);
                for k0 in (0..k).step_by(KB) {
                    let k1 = (k0 + KB).min(k);
                    for (dr, row) in rows.chunks_exact_mut(n).enumerate() {
                        let r = r0 + dr;
                        let row = &mut row[n0..n1];
                        for kk in k0..k1 {
                            let x = ab[r * k + kk];
                            let brow = &bb[kk * n + n0..kk * n + n1];
                            for (o, &y) in row.iter_mut().zip(brow) {
                                *o = o.radd(x.rmul(y));
                            }
                        }
                    }
                }
            }
        };
        if parallel {
            // (the integer kernel does about one multiply-add per element's time)
            let wake = crate::kernels::pool::worth_waking(m.saturating_mul(n).saturating_mul(k));
            crate::kernels::pool::chunks_mut(dst, MB * n, wake, |i, c| block((i, c)));
        } else {
            dst.chunks_mut(MB * n).enumerate().for_each(block);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;

    /// `[bt, m, k] × [bt, k, n]` by the definition, each sum in `k` order from zero.
    fn naive<C: Ring>(a: Strided<'_, C>, b: Strided<'_, C>) -> Vec<C> {
        let ([bt, m, k], n) = (a.dims, b.dims[2]);
        let at = |s: &Strided<'_, C>, i: usize, r: usize, c: usize| {
            s.data[(s.offset as isize
                + i as isize * s.strides[0]
                + r as isize * s.strides[1]
                + c as isize * s.strides[2]) as usize]
        };
        let mut out = Vec::with_capacity(bt * m * n);
        for i in 0..bt {
            for r in 0..m {
                for c in 0..n {
                    out.push((0..k).fold(C::ZERO, |s, p| s.radd(at(&a, i, r, p).rmul(at(&b, i, p, c)))));
                }
            }
        }
        out
    }

    /// Runs [`bmm`] on the operands, with a dirty output buffer where it overwrites.
    fn run<C: Ring>(a: Strided<'_, C>, b: Strided<'_, C>) -> Vec<C> {
        let len = a.dims[0] * a.dims[1] * b.dims[2];
        let fill = if overwrites::<C>(a.dims[2]) { C::from_f32(7.0) } else { C::ZERO };
        let mut out = vec![fill; len];
        bmm(a, b, &mut out, "test").unwrap();
        out
    }

    /// Small integers (exact in every dtype, and every partial sum exact in f32),
    /// so the kernels' summation orders cannot show: the products must be equal.
    fn values<C: Element>(n: usize, seed: usize) -> Vec<C> {
        (0..n).map(|i| C::from_f32(((i * 7 + seed * 13) % 11) as f32 - 5.0)).collect()
    }

    /// Strided, transposed and batch-broadcast operands of several sizes (below and
    /// above the own kernel's and the threading thresholds) against the naive loop.
    fn check<C: Ring + std::fmt::Debug + PartialEq>() {
        for (bt, m, k, n) in [
            (1, 1, 1, 1),
            (3, 5, 7, 4),
            (2, 13, 9, 17),
            (4, 40, 33, 50),
            (1, 130, 140, 150),
            (1, 0, 3, 2),
            (2, 3, 0, 4),
        ] {
            let a_store = values::<C>(bt * m * k * 2 + 5, 1);
            let b_store = values::<C>(bt * k * n * 2 + 5, 2);
            // A row-major at an offset; A transposed (stored [bt, k, m]); A every other element
            let a_plain = Strided::new(&a_store, 3, [bt, m, k], [(m * k) as isize, k as isize, 1]).unwrap();
            let a_trans = Strided::new(&a_store, 0, [bt, m, k], [(m * k) as isize, 1, m as isize]).unwrap();
            let a_step = Strided::new(&a_store, 1, [bt, m, k], [(2 * m * k) as isize, 2 * k as isize, 2]).unwrap();
            // B row-major; B transposed (stored [bt, n, k]); one B broadcast over the batch;
            // B with reversed rows (negative row stride)
            let b_plain = Strided::new(&b_store, 0, [bt, k, n], [(k * n) as isize, n as isize, 1]).unwrap();
            let b_trans = Strided::new(&b_store, 2, [bt, k, n], [(k * n) as isize, 1, k as isize]).unwrap();
            let b_bcast = Strided::new(&b_store, 0, [bt, k, n], [0, n as isize, 1]).unwrap();
            let rev = (k.max(1) - 1) * n;
            let b_rev = Strided::new(&b_store, rev, [bt, k, n], [(k * n) as isize, -(n as isize), 1]);
            let b_rev = if bt * k * n == 0 { b_plain } else { b_rev.unwrap() };
            for (an, a) in [("plain", a_plain), ("transposed", a_trans), ("strided", a_step)] {
                for (bn, b) in
                    [("plain", b_plain), ("transposed", b_trans), ("broadcast", b_bcast), ("reversed", b_rev)]
                {
                    assert_eq!(run(a, b), naive(a, b), "{} {bt}x{m}x{k}x{n}: A {an}, B {bn}", C::DTYPE);
                }
            }
        }
    }

    #[test]
    fn strided_transposed_and_broadcast_operands_match_the_naive_product() {
        check::<f32>();
        check::<f64>();
        check::<i32>();
    }

    #[test]
    fn bf16_products_accumulate_in_f32() {
        // bf16 operands convert to f32 (matmul's and einsum's compute type) and
        // the product rounds once: check through `matmul_tensors` on f32 views of
        // bf16 data, against the naive f32 loop rounded to bf16.
        let (bt, m, k, n) = (2usize, 20, 300, 24);
        let a16: Vec<bf16> = (0..bt * m * k).map(|i| bf16::from_f32(((i * 37) % 15) as f32 / 8.0 - 0.875)).collect();
        let b16: Vec<bf16> = (0..bt * k * n).map(|i| bf16::from_f32(((i * 53) % 13) as f32 / 4.0 - 1.5)).collect();
        let a = Tensor::from_vec(a16.clone(), &[bt, m, k]).unwrap().cast(DType::F32).unwrap();
        // B transposed by strides: stored [bt, n, k]
        let b = Tensor::from_vec(b16.clone(), &[bt, n, k])
            .unwrap()
            .cast(DType::F32)
            .unwrap()
            .transpose(&[0, 2, 1])
            .unwrap();
        let got = matmul_tensors::<f32>(&a, &b, "test").unwrap().cast(DType::BF16).unwrap().to_vec::<bf16>().unwrap();
        let (af, bf): (Vec<f32>, Vec<f32>) =
            (a16.iter().map(|x| x.to_f32()).collect(), b16.iter().map(|x| x.to_f32()).collect());
        let sa = Strided::new(&af, 0, [bt, m, k], [(m * k) as isize, k as isize, 1]).unwrap();
        let sb = Strided::new(&bf, 0, [bt, k, n], [(k * n) as isize, 1, k as isize]).unwrap();
        let exact = naive(sa, sb);
        // the products are multiples of 1/32 below 2 in magnitude, so their sums are exact
        // in f32 in any order, and need more bits than bf16 has: one rounding at the end
        let want: Vec<bf16> = exact.iter().map(|&x| bf16::from_f32(x)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn views_outside_their_slice_are_refused() {
        let d = [0f32; 12];
        assert!(Strided::new(&d, 0, [2, 2, 3], [6, 3, 1]).is_some());
        assert!(Strided::new(&d, 1, [2, 2, 3], [6, 3, 1]).is_none());
        assert!(Strided::new(&d, 0, [1, 2, 3], [0, -3, 1]).is_none());
        assert!(Strided::new(&d, 3, [1, 2, 3], [0, -3, 1]).is_some());
        assert!(Strided::new(&d, 99, [1, 0, 3], [0, 3, 1]).is_some()); // empty
    }
}
