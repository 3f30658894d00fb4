//! Exact products of byte integers: `C = A·B` accumulated in i32 for int8,
//! uint8, int4 and uint4 operands (any pair), the kernel behind
//! `preferred_element_type` on byte integers and behind every int8/uint8 matmul.
//!
//! A product of two byte values fits i16, and C accumulates in wrapping i32:
//! each element is the exact sum modulo 2³², which is the exact sum itself
//! while that lies in i32's range. For int8 × int8 that holds at every depth
//! up to 2¹⁷ (127² · 2¹⁷ < 2³¹), except for the one sum (−128)² · 2¹⁷ = 2³¹;
//! [`product_i64`] adds depth slices short enough never to leave the range
//! and is exact at any depth.
//!
//! Where the CPU has AVX-512 VNNI, `vpdpbusd` multiplies 64 byte pairs
//! (unsigned × signed) and adds them in groups of four into 16 i32 lanes: four
//! times the multiply-adds of one f32 FMA instruction (see [`vnni`]). The
//! operands are shifted into those ranges and the shift is taken out exactly:
//! with `A = Aₛ + α` (`Aₛ` signed bytes; α = 128 for uint8 A, else 0) and
//! `B = Bᵤ − β` (`Bᵤ` unsigned bytes; β = 128 for signed B, else 0),
//!
//! `Σₖ A·B = Σₖ Aₛ·Bᵤ − β·Σₖ Aₛ + α·Σₖ Bᵤ − α·β·K`,
//!
//! every term in wrapping i32, so the identity holds modulo 2³² like the sum.
//! Elsewhere a portable loop multiplies i32 copies of the operands.

#[cfg(target_arch = "x86_64")]
mod vnni;

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::kernels::matmul::Strided;
use crate::{DType, Tensor};

/// How a byte holds an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ByteKind {
    /// int8: the byte as two's complement.
    I8,
    /// uint8: the byte.
    U8,
    /// int4: the low four bits as two's complement (the high four ignored).
    I4,
    /// uint4: the low four bits.
    U4,
}

impl ByteKind {
    /// The kind of a dtype stored one integer per byte, if it is one.
    pub(crate) fn of(d: DType) -> Option<Self> {
        match d {
            DType::I8 => Some(ByteKind::I8),
            DType::U8 => Some(ByteKind::U8),
            DType::I4 => Some(ByteKind::I4),
            DType::U4 => Some(ByteKind::U4),
            _ => None,
        }
    }

    /// The integer a byte holds.
    #[inline(always)]
    pub(crate) fn value(self, byte: u8) -> i32 {
        match self {
            ByteKind::I8 => byte as i8 as i32,
            ByteKind::U8 => byte as i32,
            ByteKind::I4 => ((byte << 4) as i8 >> 4) as i32,
            ByteKind::U4 => (byte & 0x0f) as i32,
        }
    }

    /// The largest magnitude of a value.
    fn max_abs(self) -> i64 {
        match self {
            ByteKind::I8 => 128,
            ByteKind::U8 => 255,
            ByteKind::I4 => 8,
            ByteKind::U4 => 15,
        }
    }

    /// α: what A's values are shifted down by to fit signed bytes (uint8's above 127).
    fn shift_a(self) -> i32 {
        if self == ByteKind::U8 { 128 } else { 0 }
    }

    /// β: what B's values are shifted up by to fit unsigned bytes (signed kinds' negatives).
    fn shift_b(self) -> i32 {
        if matches!(self, ByteKind::I8 | ByteKind::I4) { 128 } else { 0 }
    }
}

/// A batch of byte matrices, `[batch, rows, cols]` at any strides, and how its bytes hold values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bytes<'a> {
    m: Strided<'a, u8>,
    kind: ByteKind,
}

impl<'a> Bytes<'a> {
    /// A 3-D tensor of int8, uint8, int4 or uint4 as a view of its bytes.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (an internal error) for another dtype or rank.
    pub(crate) fn of(t: &'a Tensor) -> Result<Self> {
        fn raw<T: Element>(t: &Tensor) -> &[u8] {
            T::slice_as_bytes(t.storage_slice::<T>())
        }
        let data = match t.dtype() {
            DType::I8 => raw::<i8>(t),
            DType::U8 => raw::<u8>(t),
            DType::I4 => raw::<crate::I4>(t),
            DType::U4 => raw::<crate::U4>(t),
            d => return Err(Error::InvalidArgument(format!("matmul: internal error: {d} is not a byte integer"))),
        };
        let kind = ByteKind::of(t.dtype()).expect("matched above");
        let (l, s) = (t.layout(), t.layout().strides());
        let (&[b, r, c], &[sb, sr, sc]) = (t.shape(), s) else {
            return Err(Error::InvalidArgument(format!(
                "matmul: internal error: a byte operand of shape {:?} is not 3-D",
                t.shape()
            )));
        };
        let m = Strided::new(data, l.offset(), [b, r, c], [sb, sr, sc]).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "matmul: internal error: a view of shape {:?} outside its storage",
                t.shape()
            ))
        })?;
        Ok(Bytes { m, kind })
    }

    /// The value at (batch i, row r, column c), which must lie inside the dims.
    #[inline(always)]
    fn at(&self, i: usize, r: usize, c: usize) -> i32 {
        self.kind.value(self.m.get(i, r, c))
    }

    /// Columns `from..to` of every matrix (a view).
    fn columns(self, from: usize, to: usize) -> Self {
        Bytes { m: self.m.narrow(2, from, to), ..self }
    }

    /// Rows `from..to` of every matrix (a view).
    fn rows(self, from: usize, to: usize) -> Self {
        Bytes { m: self.m.narrow(1, from, to), ..self }
    }
}

/// `[B, M, K] × [B, K, N] → [B, M, N]` into `out` (row-major): each element the
/// exact sum of its products modulo 2³² (the exact sum while it lies in i32).
///
/// # Errors
/// [`Error::InvalidArgument`] (internal) if the dimensions do not chain or `out`
/// has the wrong length; [`Error::ResourceExhausted`] if packed copies do not fit.
pub(crate) fn product_i32(a: Bytes<'_>, b: Bytes<'_>, out: &mut [i32], op: &str) -> Result<()> {
    let ([bt, m, k], [bt2, k2, n]) = (a.m.dims(), b.m.dims());
    if bt != bt2 || k != k2 || out.len() != bt * m * n {
        return Err(Error::InvalidArgument(format!(
            "{op}: internal error: a byte product of {:?} and {:?} into {} elements",
            a.m.dims(),
            b.m.dims(),
            out.len()
        )));
    }
    if out.is_empty() {
        return Ok(());
    }
    if k == 0 {
        out.fill(0);
        return Ok(());
    }
    #[cfg(target_arch = "x86_64")]
    if vnni::available() && m * n * k >= vnni::MIN_MACS {
        return vnni::product(a, b, out, op);
    }
    portable(a, b, out, op)
}

/// As [`product_i32`], but each element the exact sum at any depth: the depth
/// is cut into slices whose sums cannot leave i32, and their sums are added in i64.
///
/// # Errors
/// As [`product_i32`].
pub(crate) fn product_i64(a: Bytes<'_>, b: Bytes<'_>, out: &mut [i64], op: &str) -> Result<()> {
    let k = a.m.dims()[2];
    let biggest = a.kind.max_abs() * b.kind.max_abs();
    let slice = ((i32::MAX as i64 / biggest) as usize).max(1);
    out.fill(0);
    let mut part = vec![0i32; out.len()];
    for k0 in (0..k).step_by(slice) {
        let k1 = (k0 + slice).min(k);
        product_i32(a.columns(k0, k1), b.rows(k0, k1), &mut part, op)?;
        out.iter_mut().zip(&part).for_each(|(o, &p)| *o += p as i64);
    }
    Ok(())
}

/// [`product_i32`] without SIMD: an i-k-j loop over i32 copies of the operands.
fn portable(a: Bytes<'_>, b: Bytes<'_>, out: &mut [i32], op: &str) -> Result<()> {
    let ([bt, m, k], n) = (a.m.dims(), b.m.dims()[2]);
    let bytes = (bt * (m * k + k * n)).saturating_mul(4);
    crate::core::storage::check_alloc(bytes, &format!("{op} (i32 copies of byte operands)"))?;
    for (i, dst) in out.chunks_exact_mut(m * n).enumerate() {
        let av: Vec<i32> = (0..m * k).map(|x| a.at(i, x / k, x % k)).collect();
        let bv: Vec<i32> = (0..k * n).map(|x| b.at(i, x / n, x % n)).collect();
        let rows = |(r0, band): (usize, &mut [i32])| {
            for (dr, row) in band.chunks_exact_mut(n).enumerate() {
                row.fill(0);
                let arow = &av[(r0 + dr) * k..(r0 + dr + 1) * k];
                for (p, &x) in arow.iter().enumerate() {
                    for (o, &y) in row.iter_mut().zip(&bv[p * n..(p + 1) * n]) {
                        *o = o.wrapping_add(x * y);
                    }
                }
            }
        };
        let work = (m as u128) * (n as u128) * (k as u128);
        if work >= 1 << 20 && crate::kernels::multithreaded() {
            const BAND: usize = 16;
            let wake = crate::kernels::pool::worth_waking_macs(work);
            crate::kernels::pool::chunks_mut(dst, BAND * n, wake, |t, c| rows((t * BAND, c)));
        } else {
            rows((0, dst));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
