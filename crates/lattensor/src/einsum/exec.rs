//! Executing a resolved einsum.
//!
//! 1. Each operand: size-1 broadcast axes are squeezed and repeated labels
//!    become generalised diagonals — both strided views, no copy.
//! 2. Operands are converted to the compute type (the result type, except
//!    bf16/f16 which compute in f32 and round once at the end).
//! 3. Labels private to one operand and absent from the output are summed first.
//! 4. Pairs are contracted in the planned order: each operand is permuted to
//!    `[batch, free, contracted]` / `[batch, contracted, free]` (a view when the
//!    strides allow it) and multiplied by a real GEMM (`gemm` crate) for
//!    f32/f64/c64/c128 (so also f16/bf16, via f32) or by a blocked loop for
//!    integers and bool. Outer products (nothing contracted) take a direct loop.
//! 5. The result is permuted to the output order (a view) and, for repeated
//!    output labels (raw op), expanded into a zero tensor's diagonal.

use std::borrow::Cow;
use std::sync::Arc;

use num_complex::{Complex32, Complex64};

use super::parse::Resolved;
use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
use crate::{DType, Tensor};

/// The semiring an einsum computes in: `(+, ×)` for numbers (integers wrap),
/// `(or, and)` for bool.
pub(crate) trait Ring: Element {
    const ZERO: Self;
    fn radd(self, o: Self) -> Self;
    fn rmul(self, o: Self) -> Self;
}

macro_rules! ring_int {
    ($($t:ty),*) => {$(
        impl Ring for $t {
            const ZERO: Self = 0;
            #[inline(always)] fn radd(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)] fn rmul(self, o: Self) -> Self { self.wrapping_mul(o) }
        }
    )*};
}
ring_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! ring_float {
    ($($t:ty => $z:expr),*) => {$(
        impl Ring for $t {
            const ZERO: Self = $z;
            #[inline(always)] fn radd(self, o: Self) -> Self { self + o }
            #[inline(always)] fn rmul(self, o: Self) -> Self { self * o }
        }
    )*};
}
ring_float!(f32 => 0.0, f64 => 0.0, Complex32 => Complex32::new(0.0, 0.0), Complex64 => Complex64::new(0.0, 0.0));

impl Ring for bool {
    const ZERO: Self = false;
    #[inline(always)]
    fn radd(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn rmul(self, o: Self) -> Self {
        self & o
    }
}

/// The dtype an einsum with result `d` computes in.
pub(crate) fn compute_dtype(d: DType) -> DType {
    match d {
        DType::BF16 | DType::F16 => DType::F32,
        d => d,
    }
}

/// Runs `$body` with `$T` bound to a compute element type (never bf16/f16).
macro_rules! with_compute {
    ($dtype:expr, $T:ident, $body:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            Bool => bool, U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32,
            I64 => i64, F32 => f32, F64 => f64, C64 => ::num_complex::Complex32, C128 => ::num_complex::Complex64,
        ], else => return Err(Error::Unimplemented(format!("einsum: internal error: {} is not a compute type", $dtype))))
    };
}

/// A tensor in the compute type with one label per axis (no repeats).
struct Op {
    t: Tensor,
    labels: Vec<usize>,
}

fn view(t: &Tensor, shape: Vec<usize>, strides: Vec<isize>, offset: usize) -> Tensor {
    Tensor::from_parts(Arc::clone(&t.storage), Layout::from_parts(shape, strides, offset), t.dtype, false)
}

/// Squeezes dropped (broadcast size-1) axes and takes generalised diagonals of
/// repeated labels, as a strided view.
fn prepare(t: &Tensor, axes: &[Option<usize>]) -> (Tensor, Vec<usize>) {
    let l = t.layout();
    let mut labels: Vec<usize> = Vec::new();
    let mut shape = Vec::new();
    let mut strides: Vec<isize> = Vec::new();
    for (ax, id) in axes.iter().enumerate() {
        let Some(id) = *id else { continue };
        match labels.iter().position(|&x| x == id) {
            Some(p) => strides[p] += l.strides()[ax],
            None => {
                labels.push(id);
                shape.push(l.shape()[ax]);
                strides.push(l.strides()[ax]);
            }
        }
    }
    (view(t, shape, strides, l.offset()), labels)
}

/// The elements of `t` (compute type `C`) in row-major order: borrowed when contiguous.
fn data<C: Element>(t: &Tensor) -> Result<Cow<'_, [C]>> {
    match t.as_slice::<C>() {
        Some(s) => Ok(Cow::Borrowed(s)),
        None => {
            let n = t.numel();
            crate::core::storage::check_alloc(
                n.saturating_mul(C::DTYPE.size()),
                &format!("einsum (a copy of an operand view of shape {:?})", t.shape()),
            )?;
            Ok(Cow::Owned(t.to_vec::<C>()?))
        }
    }
}

/// A new tensor filled by `fill`, which receives zeros.
fn new_tensor<C: Element>(shape: &[usize], fill: impl FnOnce(&mut [C])) -> Result<Tensor> {
    let mut out = Tensor::zeros_for("einsum", shape, C::DTYPE)?;
    fill(out.data_mut::<C>());
    Ok(out)
}

/// A new tensor filled by `fill`, which must write every element (it receives garbage).
fn new_tensor_overwrite<C: Element>(shape: &[usize], fill: impl FnOnce(&mut [C])) -> Result<Tensor> {
    let mut out = Tensor::for_overwrite("einsum", shape, C::DTYPE)?;
    fill(out.data_mut::<C>());
    Ok(out)
}

/// Sum of a slice with eight independent accumulators (faster, and more accurate than one);
/// f32 accumulates in f64, as `reduce_sum` does (as fast, and exact to the last bit far more often).
#[inline]
fn sum_slice<C: Ring>(x: &[C]) -> C {
    if let Some(xf) = crate::kernels::fast::same::<C, f32>(x) {
        return (crate::ops::reduce::sum_f32(xf) as f32).cast_into::<C>();
    }
    crate::kernels::fast::simd!(sum_slice_loop(x))
}

/// Sum of a long slice: chunks summed in parallel (each into 32 lanes), then in order.
/// f32 and f64 take `reduce_sum`'s compensated long sums, which read in several
/// streams where the CPU serves them faster.
fn sum_slice_par<C: Ring>(x: &[C]) -> C {
    const CHUNK: usize = 1 << 16;
    if x.len() < 4 * CHUNK || C::DTYPE == DType::F32 {
        return sum_slice(x); // f32: `sum_f32` splits long slices itself
    }
    if let Some(xd) = crate::kernels::fast::same::<C, f64>(x) {
        return crate::ops::reduce::sum_f64(xd).cast_into::<C>();
    }
    let parts: Vec<C> = crate::kernels::par_map_chunks(x, CHUNK, sum_slice_lanes);
    parts.into_iter().fold(C::ZERO, |a, b| a.radd(b))
}

/// [`sum_slice`] by [`crate::kernels::fast::fold_lanes`], for sums that come from DRAM.
fn sum_slice_lanes<C: Ring>(x: &[C]) -> C {
    let (lanes, tail) = crate::kernels::fast::fold_lanes(x, C::ZERO, C::radd);
    lanes.into_iter().flatten().fold(sum_slice(tail), C::radd)
}

#[inline(always)]
fn sum_slice_loop<C: Ring>(x: &[C]) -> C {
    let mut acc = [C::ZERO; 8];
    let chunks = x.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = a.radd(x);
        }
    }
    let mut s = C::ZERO;
    for &r in rest {
        s = s.radd(r);
    }
    let a = [acc[0].radd(acc[4]), acc[1].radd(acc[5]), acc[2].radd(acc[6]), acc[3].radd(acc[7])];
    s.radd(a[0].radd(a[2]).radd(a[1].radd(a[3])))
}

/// Sums the labels for which `drop` holds.
fn reduce<C: Ring>(op: Op, drop: impl Fn(usize) -> bool) -> Result<Op> {
    if !op.labels.iter().any(|&l| drop(l)) {
        return Ok(op);
    }
    let keep: Vec<usize> = (0..op.labels.len()).filter(|&a| !drop(op.labels[a])).collect();
    let gone: Vec<usize> = (0..op.labels.len()).filter(|&a| drop(op.labels[a])).collect();
    let perm: Vec<usize> = keep.iter().chain(&gone).copied().collect();
    let p = op.t.transpose(&perm)?;
    let shape: Vec<usize> = keep.iter().map(|&a| op.t.shape()[a]).collect();
    let inner: usize = crate::core::layout::dims_product(gone.iter().map(|&a| op.t.shape()[a]));
    let labels = keep.iter().map(|&a| op.labels[a]).collect();
    let leading = gone.iter().enumerate().all(|(q, &a)| a == q); // summed axes come first
    let t = if inner == 0 {
        Tensor::zeros_for("einsum", &shape, C::DTYPE)?
    } else if leading && op.t.is_contiguous() && !keep.is_empty() {
        // column sums of a contiguous [summed, kept] block: add whole rows, no transpose copy
        let d = data::<C>(&op.t)?;
        let width: usize = crate::core::layout::dims_product(shape.iter().copied());
        new_tensor::<C>(&shape, |out| {
            if width == 0 {
                return;
            }
            for row in d.chunks_exact(width) {
                for (o, &x) in out.iter_mut().zip(row) {
                    *o = o.radd(x);
                }
            }
        })?
    } else {
        let d = data::<C>(&p)?;
        new_tensor_overwrite::<C>(&shape, |out| {
            if out.len() == 1 {
                out[0] = sum_slice_par(&d[..inner]);
                return;
            }
            for (o, chunk) in out.iter_mut().zip(d.chunks_exact(inner)) {
                *o = sum_slice(chunk);
            }
        })?
    };
    Ok(Op { t, labels })
}

/// `[B, M, K] × [B, K, N] → [B, M, N]` into `out` (row-major, zero-filled).
fn bmm<C: Ring>(a: &Tensor, b: &Tensor, out: &mut [C], dims: [usize; 4]) -> Result<()> {
    let [bt, m, k, n] = dims;
    if bt * m * n == 0 || k == 0 {
        return Ok(());
    }
    if matches!(C::DTYPE, DType::F32 | DType::F64 | DType::C64 | DType::C128) {
        let (la, lb) = (a.layout(), b.layout());
        let (sa, sb) = (la.strides(), lb.strides());
        let (da, db) = (a.storage_slice::<C>(), b.storage_slice::<C>());
        let work = (m as u128) * (n as u128) * (k as u128);
        let threads = crate::kernels::pool::threads();
        // Many small products: one per task, each single-threaded (gemm's own
        // threading costs more than it gains below ~160³). Few or large ones:
        // one at a time, gemm threading each.
        // The AVX-512 kernel pads tiles to 12 × 32 (f32) / 12 × 16 (f64) and packs
        // both operands: thin products (a side below a tile) and small ones (below
        // ~80³, measured on the E7 workload) go to the gemm crate, whose small kernels fit them.
        let own_kernel = matches!(C::DTYPE, DType::F32 | DType::F64)
            && m >= 12
            && n >= 16
            && k >= 8
            && work >= 1 << 19
            && crate::kernels::gemm::available();
        // Thresholds measured with `examples/einsum_threshold_sweep` (session 21, the
        // own pool, whose region costs ~12–16 µs), two threads, five rounds of each
        // strategy forced in turn, medians back to back / after 200 µs idle:
        // - a batch split one product per task pays from ~1M multiply-adds in all:
        //   4 × 64³ 38 / 58 µs against 64 / 69 serial, 2 × 96³ 41 / 57 against 64 / 73,
        //   8 × 64³ 72 / 89 against 119 / 144; at 2 × 64³ (0.5M) it is level;
        // - one product threaded pays from ~4M (192³: 142 / 168 against 169 / 215 µs
        //   serial; 160³ and below level or slower), for the gemm crate too:
        //   8 × 512 × 512 (2M) threaded took 171 / 229 µs against 136 / 254 serial,
        //   8 × 1024 × 512 (4M) 322 / 397 against 505 / 648. A complex product is four
        //   real ones: it threads from 1M.
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
            let oa = la.offset() as isize + i as isize * sa[0];
            let ob = lb.offset() as isize + i as isize * sb[0];
            #[cfg(target_arch = "x86_64")]
            if own_kernel {
                use crate::kernels::gemm::{MatRef, Upcoming, gemm};
                // SAFETY: AVX-512F is available (`own_kernel`). As for the gemm
                // crate below: `a` is a valid [bt, m, k] view and `b` a valid
                // [bt, k, n] view of storages alive for the call, so (r, p) of
                // product i lies inside `pa`'s storage and (p, c) inside `pb`'s;
                // `dst` is an exclusive m × n row-major buffer not aliasing them.
                // C is f32 (resp. f64) exactly when its DTYPE says so, so the casts are identities.
                unsafe {
                    let a = pa.offset(oa);
                    let b = pb.offset(ob);
                    // The next product's operands (most often this thread's next task), fetched
                    // into L2 while this one computes: its B is then packed from L2, and its A
                    // read from there. Separate processes in turn, medians of 5–6 rounds (ms):
                    // one thread E2 3.44 → 3.22, E3 6.83 → 6.57; two threads E2 1.93 → 1.73,
                    // E3 3.89 → 3.54. (Fetching its C as well: no better.)
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
                // supports (gemm's c32/c64 are num_complex's types). `a` is a valid
                // [bt, m, k] view of its storage and `b` a valid [bt, k, n] view, so
                // every element gemm reads, at `offset + i*s0 + r*s1 + c*s2` within
                // the dims (rows r0..r0 + mb ≤ m of A), lies inside the storage slices
                // `da`/`db` (those storages are alive for the call). `dst` is an
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
            if matches!(C::DTYPE, DType::C64 | DType::C128) {
                dst.iter_mut().for_each(|x| *x = x.radd(C::ZERO));
            }
        };
        if batch_parallel {
            let wake = crate::kernels::pool::worth_waking_macs(work * bt as u128);
            crate::kernels::pool::chunks_mut(out, m * n, wake, |i, c| product((i, c)));
        } else {
            out.chunks_exact_mut(m * n).enumerate().for_each(product);
        }
        return Ok(());
    }
    // integers and bool: a blocked i-k-j loop over contiguous copies, row blocks in parallel
    let ad = data::<C>(a)?;
    let bd = data::<C>(b)?;
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

/// Contracts two operands, keeping the labels for which `keep` holds.
fn contract<C: Ring>(a: Op, b: Op, keep: &dyn Fn(usize) -> bool, sizes: &[usize]) -> Result<Op> {
    // labels private to one side and not kept: sum them first
    let (la, lb) = (a.labels.clone(), b.labels.clone());
    let a = reduce::<C>(a, |l| !keep(l) && !lb.contains(&l))?;
    let b = reduce::<C>(b, |l| !keep(l) && !la.contains(&l))?;
    let batch: Vec<usize> = a.labels.iter().copied().filter(|l| b.labels.contains(l) && keep(*l)).collect();
    let con: Vec<usize> = a.labels.iter().copied().filter(|l| b.labels.contains(l) && !keep(*l)).collect();
    let fa: Vec<usize> = a.labels.iter().copied().filter(|l| !b.labels.contains(l)).collect();
    let fb: Vec<usize> = b.labels.iter().copied().filter(|l| !a.labels.contains(l)).collect();
    let pos = |labels: &[usize], want: &[usize]| -> Vec<usize> {
        want.iter().filter_map(|w| labels.iter().position(|l| l == w)).collect()
    };
    let prod = |ls: &[usize]| -> usize { crate::core::layout::dims_product(ls.iter().map(|&l| sizes[l])) };
    let (bt, m, k, n) = (prod(&batch), prod(&fa), prod(&con), prod(&fb));
    let shape: Vec<usize> = batch.iter().chain(&fa).chain(&fb).map(|&l| sizes[l]).collect();
    let labels: Vec<usize> = batch.iter().chain(&fa).chain(&fb).copied().collect();
    let pa: Vec<usize> = [pos(&a.labels, &batch), pos(&a.labels, &fa), pos(&a.labels, &con)].concat();
    let pb: Vec<usize> = [pos(&b.labels, &batch), pos(&b.labels, &con), pos(&b.labels, &fb)].concat();
    let ta = a.t.transpose(&pa)?;
    let tb = b.t.transpose(&pb)?;
    if con.is_empty() {
        // outer product (possibly batched): out[b, i, j] = a[b, i] * b[b, j]
        let ad = data::<C>(&ta)?;
        let bd = data::<C>(&tb)?;
        let t = new_tensor_overwrite::<C>(&shape, |out| {
            if m * n == 0 {
                return;
            }
            // A large output is written by streaming stores, as element-wise ops' are
            // (no read-for-ownership of its lines).
            let streaming =
                crate::kernels::Streaming::of(out, std::mem::size_of_val(&ad[..]) + std::mem::size_of_val(&bd[..]));
            // Tasks of whole rows, about PAR_CHUNK elements each, one sink per task; row r of
            // the output is a[b, i] * b[b, :] with r = b·m + i.
            let rows_per_task = (crate::kernels::PAR_CHUNK / n).max(1);
            let task = |(t, rows): (usize, &mut [C])| {
                let mut sink = crate::kernels::Sink::new(streaming);
                // Streamed rows go out `BLOCK` (256) elements at a time, not the element-wise
                // ops' `STREAM_BLOCK`: the 4096² f32 outer product took 2817 µs against 3149
                // with blocks of 1024 (two threads, medians of five rounds in turn).
                let step = if streaming.on() { crate::kernels::BLOCK } else { n };
                for (i, row) in rows.chunks_exact_mut(n).enumerate() {
                    let r = t * rows_per_task + i;
                    let (bi, x) = (r / m, ad[r]);
                    let y = &bd[bi * n..bi * n + n];
                    for (o, y) in row.chunks_mut(step).zip(y.chunks(step)) {
                        sink.write(o, |o| {
                            crate::kernels::fast::simd!(o.iter_mut().zip(y).for_each(|(o, &y)| *o = x.rmul(y)),)
                        });
                    }
                }
                sink.finish();
            };
            if out.len() >= crate::kernels::PAR_MIN && crate::kernels::multithreaded() {
                let wake = crate::kernels::pool::worth_waking(out.len());
                crate::kernels::pool::chunks_mut(out, rows_per_task * n, wake, |i, c| task((i, c)));
            } else {
                out.chunks_mut(rows_per_task * n).enumerate().for_each(task);
            }
        })?;
        return Ok(Op { t, labels });
    }
    let a3 = ta.reshape(&[bt as isize, m as isize, k as isize])?;
    let b3 = tb.reshape(&[bt as isize, k as isize, n as isize])?;
    // the float GEMM writes every element (k > 0); the integer kernel accumulates into zeros
    let gemm_writes_all = k > 0 && matches!(C::DTYPE, DType::F32 | DType::F64 | DType::C64 | DType::C128);
    let mut out = if gemm_writes_all {
        Tensor::for_overwrite("einsum", &[bt, m, n], C::DTYPE)?
    } else {
        Tensor::zeros_for("einsum", &[bt, m, n], C::DTYPE)?
    };
    bmm::<C>(&a3, &b3, out.data_mut::<C>(), [bt, m, k, n])?;
    let t = out.reshape(&shape.iter().map(|&d| d as isize).collect::<Vec<_>>())?;
    Ok(Op { t, labels })
}

/// Runs the contraction: `path` holds pairs of positions in the evolving operand list.
pub(crate) fn execute(r: &Resolved, operands: &[&Tensor], result: DType, path: &[Vec<usize>]) -> Result<Tensor> {
    let cdt = compute_dtype(result);
    with_compute!(cdt, C, execute_in::<C>(r, operands, result, path))
}

fn execute_in<C: Ring>(r: &Resolved, operands: &[&Tensor], result: DType, path: &[Vec<usize>]) -> Result<Tensor> {
    let sizes = &r.sizes;
    let mut ops: Vec<Op> = Vec::with_capacity(operands.len());
    for (t, axes) in operands.iter().zip(&r.axes) {
        let (v, labels) = prepare(t, axes);
        let v = if v.dtype() == C::DTYPE { v } else { v.cast(C::DTYPE)? };
        ops.push(Op { t: v, labels });
    }
    let in_output = |l: usize| r.output.contains(&l);
    // private labels first
    let n = ops.len();
    let mut summed = Vec::with_capacity(n);
    for (i, op) in ops.into_iter().enumerate() {
        let others: Vec<usize> =
            r.axes.iter().enumerate().filter(|&(j, _)| j != i).flat_map(|(_, a)| a.iter().flatten().copied()).collect();
        summed.push(reduce::<C>(op, |l| !in_output(l) && !others.contains(&l))?);
    }
    let mut ops = summed;
    for step in path {
        let [i, j] = step[..] else { continue };
        let (i, j) = (i.min(j), i.max(j));
        if j >= ops.len() {
            return Err(Error::InvalidArgument(format!("einsum: path step {step:?} is out of range")));
        }
        let b = ops.remove(j);
        let a = ops.remove(i);
        let others: Vec<usize> = ops.iter().flat_map(|o| o.labels.iter().copied()).collect();
        let keep = |l: usize| in_output(l) || others.contains(&l);
        let c = contract::<C>(a, b, &keep, sizes)?;
        ops.push(c);
    }
    // any operands left (no path given): contract left to right
    while ops.len() > 1 {
        let b = ops.remove(1);
        let a = ops.remove(0);
        let others: Vec<usize> = ops.iter().flat_map(|o| o.labels.iter().copied()).collect();
        let keep = |l: usize| in_output(l) || others.contains(&l);
        let c = contract::<C>(a, b, &keep, sizes)?;
        ops.insert(0, c);
    }
    let Some(op) = ops.pop() else {
        return Err(Error::InvalidArgument("einsum: no operands".into()));
    };
    let op = reduce::<C>(op, |l| !in_output(l))?;
    // permute to the output order (first occurrences)
    let mut uniq: Vec<usize> = Vec::new();
    for &l in &r.output {
        if !uniq.contains(&l) {
            uniq.push(l);
        }
    }
    let perm: Vec<usize> = uniq.iter().filter_map(|u| op.labels.iter().position(|l| l == u)).collect();
    if perm.len() != op.labels.len() || perm.len() != uniq.len() {
        return Err(Error::InvalidArgument(format!(
            "einsum: internal error: result labels {:?} do not match the output {:?}",
            op.labels, uniq
        )));
    }
    let mut t = op.t.transpose(&perm)?;
    if uniq.len() != r.output.len() {
        t = inflate::<C>(&t, &uniq, &r.output, sizes)?;
    }
    let t = if result != C::DTYPE { t.cast(result)? } else { t };
    Ok(Tensor::from_parts(t.storage.clone(), t.layout.clone(), t.dtype, false))
}

/// Expands a result with unique labels `uniq` into `output` (with repeats):
/// values on the generalised diagonal, zeros elsewhere.
fn inflate<C: Ring>(t: &Tensor, uniq: &[usize], output: &[usize], sizes: &[usize]) -> Result<Tensor> {
    let out_shape: Vec<usize> = output.iter().map(|&l| sizes[l]).collect();
    let strides = crate::core::layout::contiguous_strides(&out_shape);
    let ustr: Vec<usize> = uniq
        .iter()
        .map(|u| output.iter().zip(&strides).filter(|(l, _)| *l == u).map(|(_, &s)| s as usize).sum())
        .collect();
    let src = data::<C>(t)?;
    let dims: Vec<usize> = uniq.iter().map(|&u| sizes[u]).collect();
    new_tensor::<C>(&out_shape, |out| {
        if src.is_empty() {
            return;
        }
        let mut idx = vec![0usize; dims.len()];
        let mut off = 0usize;
        for &v in src.iter() {
            out[off] = v;
            for a in (0..dims.len()).rev() {
                idx[a] += 1;
                off += ustr[a];
                if idx[a] < dims[a] {
                    break;
                }
                off -= dims[a] * ustr[a];
                idx[a] = 0;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_sums_are_exact_for_integers_and_exact_sums() {
        // long enough for the parallel 32-lane path, with a ragged tail
        let n: usize = 5 * (1 << 16) + 37;
        let ints: Vec<i32> = (0..n).map(|i| (i as i32).wrapping_mul(2_654_435) ^ (i as i32 >> 3)).collect();
        let want = ints.iter().fold(0i32, |a, &x| a.wrapping_add(x));
        assert_eq!(sum_slice_par(&ints), want);
        assert_eq!(sum_slice_lanes(&ints), want);
        let floats: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1000) as f64 / 8.0).collect();
        let exact: f64 = floats.iter().sum(); // exact: every partial sum is a multiple of 1/8 below 2^53
        assert_eq!(sum_slice_par(&floats), exact);
        // f32 accumulates in f64: the exact sum, rounded once
        let f32s: Vec<f32> = floats.iter().map(|&x| x as f32).collect();
        assert_eq!(sum_slice_par(&f32s), exact as f32);
        assert_eq!(sum_slice(&f32s[..1000]), floats[..1000].iter().sum::<f64>() as f32);
    }

    #[test]
    fn streamed_outer_products_equal_the_products() {
        use crate::kernels::fast::tests::FORCE_STREAM;
        use std::sync::atomic::Ordering;
        // 300 rows of 1001 (rows not line-aligned; enough elements for the parallel path),
        // and a batched f64 one
        let a = Tensor::from_vec((0..300).map(|i| i as f32 * 0.37 - 50.0).collect(), &[300]).unwrap();
        let b = Tensor::from_vec((0..1001).map(|j| j as f32 * -0.11 + 3.0).collect(), &[1001]).unwrap();
        let bm = Tensor::from_vec((0..600).map(|i| i as f64 / 7.0).collect(), &[2, 300]).unwrap();
        let bn = Tensor::from_vec((0..1002).map(|j| 1.0 - j as f64).collect(), &[2, 501]).unwrap();
        for forced in [false, true] {
            FORCE_STREAM.store(forced, Ordering::Relaxed);
            let got = crate::einsum::einsum("i,j->ij", &[&a, &b]);
            let got_b = crate::einsum::einsum("bi,bj->bij", &[&bm, &bn]);
            FORCE_STREAM.store(false, Ordering::Relaxed);
            let (av, bv) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
            let want: Vec<f32> = av.iter().flat_map(|&x| bv.iter().map(move |&y| x * y)).collect();
            assert_eq!(got.unwrap().to_vec::<f32>().unwrap(), want, "streamed {forced}");
            let (mv, nv) = (bm.to_vec::<f64>().unwrap(), bn.to_vec::<f64>().unwrap());
            let want: Vec<f64> = (0..2)
                .flat_map(|k| (0..300).flat_map(move |i| (0..501).map(move |j| (k, i, j))))
                .map(|(k, i, j)| mv[k * 300 + i] * nv[k * 501 + j])
                .collect();
            assert_eq!(got_b.unwrap().to_vec::<f64>().unwrap(), want, "batched, streamed {forced}");
        }
    }

    #[test]
    fn complex_products_of_zeros_are_positive_zero() {
        use num_complex::{Complex32, Complex64};
        fn signs<C: Element>(m: usize, k: usize, n: usize) -> usize {
            let a = Tensor::zeros(&[m, k], C::DTYPE).unwrap();
            let b = Tensor::zeros(&[k, n], C::DTYPE).unwrap();
            let b_rev = b.slice(&[crate::SliceArg::stepped(None, None, -1), crate::SliceArg::FULL]).unwrap();
            [&b, &b_rev]
                .iter()
                .map(|b| {
                    let r = crate::einsum::einsum("ij,jk->ik", &[&a, b]).unwrap().to_vec::<Complex64>().unwrap();
                    r.iter().filter(|c| c.re.is_sign_negative() || c.im.is_sign_negative()).count()
                })
                .sum()
        }
        for (m, k, n) in [(1, 3, 1), (4, 3, 4), (40, 64, 40)] {
            assert_eq!(signs::<Complex32>(m, k, n), 0, "c64 {m}x{k}x{n}");
            assert_eq!(signs::<Complex64>(m, k, n), 0, "c128 {m}x{k}x{n}");
        }
    }
}
