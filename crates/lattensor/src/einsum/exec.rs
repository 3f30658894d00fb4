//! Executing a resolved einsum.
//!
//! 1. Each operand: size-1 broadcast axes are squeezed and repeated labels
//!    become generalised diagonals — both strided views, no copy.
//! 2. Operands are converted to the compute type (the result type, except
//!    bf16/f16 which compute in f32 and round once at the end); byte integers
//!    against an integer compute type stay bytes for the exact byte product
//!    kernel, and are converted where anything else reads them.
//! 3. Labels private to one operand and absent from the output are summed first.
//! 4. Pairs are contracted in the planned order: each operand is permuted to
//!    `[batch, free, contracted]` / `[batch, contracted, free]` (a view when the
//!    strides allow it) and multiplied by the batched matmul kernel
//!    ([`crate::kernels::matmul`]: a real GEMM for f32/f64/c64/c128, so also
//!    f16/bf16 via f32, a blocked loop for integers and bool). Outer products
//!    (nothing contracted) take a direct loop.
//!
//! Sums run on [`crate::kernels::sums`].
//! 5. The result is permuted to the output order (a view) and, for repeated
//!    output labels (raw op), expanded into a zero tensor's diagonal.

use std::borrow::Cow;
use std::sync::Arc;

use super::parse::Resolved;
use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::layout::Layout;
use crate::kernels::matmul::compute_dtype;
pub(crate) use crate::kernels::sums::Ring;
use crate::kernels::sums::{ring_column_sums, sum_slice, sum_slice_par};
use crate::{DType, Tensor};

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

/// The elements of `t` in compute type `C`, in row-major order: borrowed when
/// contiguous and of dtype `C` (a byte-integer operand kept for the product
/// kernel is converted here when an op other than a product reads it).
fn data<C: Element>(t: &Tensor) -> Result<Cow<'_, [C]>> {
    if t.dtype() != C::DTYPE {
        return Ok(Cow::Owned(t.cast(C::DTYPE)?.to_vec::<C>()?));
    }
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
        new_tensor::<C>(&shape, |out| ring_column_sums(&d, out))?
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
                // ops' `STREAM_BLOCK`: the 4096² f32 outer product runs 11% faster so.
                let step = if streaming.on() { crate::kernels::BLOCK } else { n };
                for (i, row) in rows.chunks_exact_mut(n).enumerate() {
                    let r = t * rows_per_task + i;
                    let (bi, x) = (r / m, ad[r]);
                    let y = &bd[bi * n..bi * n + n];
                    for (o, y) in row.chunks_mut(step).zip(y.chunks(step)) {
                        sink.write(o, |o| {
                            crate::kernels::simd::simd!(o.iter_mut().zip(y).for_each(|(o, &y)| *o = x.rmul(y)),)
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
    let out = crate::kernels::matmul::matmul_tensors::<C>(&a3, &b3, "einsum")?;
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
        // byte integers stay bytes for the product kernel (crate::kernels::igemm)
        let keep = v.dtype() == C::DTYPE || crate::kernels::matmul::keeps_bytes(v.dtype(), C::DTYPE);
        let v = if keep { v } else { v.cast(C::DTYPE)? };
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
    let t = if t.dtype() != result { t.cast(result)? } else { t };
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
    fn streamed_outer_products_equal_the_products() {
        use crate::kernels::simd::cpu::FORCE_STREAM;
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
