//! `tf.bitwise`'s binary ops: and, or, xor and the two shifts.
//!
//! They promote through the lattice like `add` (TF 2.21 does not promote
//! them: `int8 | int16` raises there; see `docs/deviations.md`) and keep
//! weakness (`i32* & i32* → i32*`). Integers of every width are accepted;
//! `and`/`or`/`xor` also accept bool, where they are the logical ops (as in
//! NumPy), so `a & b` means one thing whatever the dtypes.

use super::binary::prepare;
use super::unary::unsupported;
use crate::core::element::Element;
use crate::core::error::Result;
use crate::core::scalar::Operand;
use crate::kernels;
use crate::{DType, Tensor};

const INTEGERS: &str = "int8, int16, int32, int64, uint8, uint16, uint32, uint64";
const INTEGERS_AND_BOOL: &str = "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64";

/// An element type with bit operations.
trait Bits:
    Element + std::ops::BitAnd<Output = Self> + std::ops::BitOr<Output = Self> + std::ops::BitXor<Output = Self>
{
    /// `self << s` with `s` clamped to `[0, bits − 1]` (TF's rule; never UB or a panic).
    fn shl_clamped(self, s: Self) -> Self;
    /// `self >> s` (arithmetic for signed types) with `s` clamped the same way.
    fn shr_clamped(self, s: Self) -> Self;
}

macro_rules! bits_int {
    ($($t:ty),*) => {$(impl Bits for $t {
        #[inline(always)]
        fn shl_clamped(self, s: Self) -> Self {
            self.wrapping_shl(clamp_shift(s as i128, <$t>::BITS))
        }
        #[inline(always)]
        fn shr_clamped(self, s: Self) -> Self {
            self.wrapping_shr(clamp_shift(s as i128, <$t>::BITS))
        }
    })*};
}
bits_int!(u8, u16, u32, u64, i8, i16, i32, i64);

impl Bits for bool {
    // Never called: shifts refuse bool before dispatch.
    fn shl_clamped(self, _: Self) -> Self {
        self
    }
    fn shr_clamped(self, _: Self) -> Self {
        self
    }
}

#[inline(always)]
fn clamp_shift(s: i128, bits: u32) -> u32 {
    s.clamp(0, i128::from(bits) - 1) as u32
}

#[derive(Clone, Copy)]
enum BitOp {
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl BitOp {
    #[inline(always)]
    fn apply<T: Bits>(self, a: T, b: T) -> T {
        match self {
            BitOp::And => a & b,
            BitOp::Or => a | b,
            BitOp::Xor => a ^ b,
            BitOp::Shl => a.shl_clamped(b),
            BitOp::Shr => a.shr_clamped(b),
        }
    }
}

fn bitwise(op: &str, bit_op: BitOp, a: Operand<'_>, b: Operand<'_>) -> Result<Tensor> {
    let p = prepare(op, &a, &b)?;
    let d = p.result.dtype;
    let shift = matches!(bit_op, BitOp::Shl | BitOp::Shr);
    let supported = if shift { INTEGERS } else { INTEGERS_AND_BOOL };
    if !(d.is_integer() || (d.is_bool() && !shift)) {
        return Err(unsupported(op, d, supported));
    }
    let mut out = Tensor::for_overwrite(op, &p.shape, d)?;
    fn go<T: Bits>(bit_op: BitOp, p: &super::binary::Prepared<'_>, out: &mut [T]) {
        // One monomorphised loop per op: the match on `bit_op` is outside the loop.
        match bit_op {
            BitOp::And => kernels::binary::<T, _>(&p.a, &p.b, out, |x, y| BitOp::And.apply(x, y)),
            BitOp::Or => kernels::binary::<T, _>(&p.a, &p.b, out, |x, y| BitOp::Or.apply(x, y)),
            BitOp::Xor => kernels::binary::<T, _>(&p.a, &p.b, out, |x, y| BitOp::Xor.apply(x, y)),
            BitOp::Shl => kernels::binary::<T, _>(&p.a, &p.b, out, |x, y| BitOp::Shl.apply(x, y)),
            BitOp::Shr => kernels::binary::<T, _>(&p.a, &p.b, out, |x, y| BitOp::Shr.apply(x, y)),
        }
    }
    match d {
        DType::Bool => go::<bool>(bit_op, &p, out.data_mut()),
        DType::U8 => go::<u8>(bit_op, &p, out.data_mut()),
        DType::U16 => go::<u16>(bit_op, &p, out.data_mut()),
        DType::U32 => go::<u32>(bit_op, &p, out.data_mut()),
        DType::U64 => go::<u64>(bit_op, &p, out.data_mut()),
        DType::I8 => go::<i8>(bit_op, &p, out.data_mut()),
        DType::I16 => go::<i16>(bit_op, &p, out.data_mut()),
        DType::I32 => go::<i32>(bit_op, &p, out.data_mut()),
        DType::I64 => go::<i64>(bit_op, &p, out.data_mut()),
        _ => return Err(unsupported(op, d, supported)),
    }
    Ok(out.with_weak(p.result.weak))
}

/// Bitwise AND (`a & b`), promoted through the lattice, keeping weakness.
/// On bool it is the logical AND.
///
/// ```
/// use lattensor::{bitwise, DType, Tensor};
/// let x = Tensor::from_vec(vec![0b1100u8, 0xFF], &[2]).unwrap();
/// let y = bitwise::bitwise_and(&x, 0b1010).unwrap(); // u8 ⊔ i32* = u8
/// assert_eq!((y.dtype(), y.to_vec::<u8>().unwrap()), (DType::U8, vec![0b1000, 0b1010]));
/// // TF 2.21 raises for int8 & int16; the lattice gives int16
/// let z = bitwise::bitwise_and(&Tensor::scalar(-1i8), &Tensor::scalar(0x0F0Fi16)).unwrap();
/// assert_eq!((z.dtype(), z.item::<i16>().unwrap()), (DType::I16, 0x0F0F));
/// ```
///
/// # Errors
/// [`crate::Error::Promotion`] if the mode refuses the pair, [`crate::Error::ShapeMismatch`]
/// for shapes that do not broadcast, [`crate::Error::UnsupportedDType`] if the promoted
/// dtype is a float or complex (`int32 & 1.5` promotes to float32).
pub fn bitwise_and<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    bitwise("bitwise_and", BitOp::And, a.into(), b.into())
}

/// Bitwise OR (`a | b`); as [`bitwise_and`].
///
/// ```
/// use lattensor::{bitwise, Tensor};
/// let y = bitwise::bitwise_or(&Tensor::from_vec(vec![1i32, 4], &[2]).unwrap(), 2).unwrap();
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![3, 6]);
/// ```
///
/// # Errors
/// As [`bitwise_and`].
pub fn bitwise_or<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    bitwise("bitwise_or", BitOp::Or, a.into(), b.into())
}

/// Bitwise XOR (`a ^ b`); as [`bitwise_and`].
///
/// ```
/// use lattensor::{bitwise, Tensor};
/// let y = bitwise::bitwise_xor(&Tensor::from_vec(vec![true, false], &[2]).unwrap(), true).unwrap();
/// assert_eq!(y.to_vec::<bool>().unwrap(), vec![false, true]);
/// ```
///
/// # Errors
/// As [`bitwise_and`].
pub fn bitwise_xor<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    bitwise("bitwise_xor", BitOp::Xor, a.into(), b.into())
}

/// `a << b` on integers, promoted and keeping weakness. As in TF, the shift
/// is clamped to `[0, bits − 1]`: `1 << 40` on int32 is `1 << 31`, a negative
/// shift is 0.
///
/// ```
/// use lattensor::{bitwise, Tensor};
/// let x = Tensor::from_vec(vec![1i8, 1, 1, 3], &[4]).unwrap();
/// let s = Tensor::from_vec(vec![3i8, 7, 9, -2], &[4]).unwrap();
/// assert_eq!(bitwise::left_shift(&x, &s).unwrap().to_vec::<i8>().unwrap(), vec![8, -128, -128, 3]);
/// ```
///
/// # Errors
/// As [`bitwise_and`]; bool is refused too.
pub fn left_shift<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    bitwise("left_shift", BitOp::Shl, a.into(), b.into())
}

/// `a >> b` on integers (arithmetic for signed types), the shift clamped as in [`left_shift`].
///
/// ```
/// use lattensor::{bitwise, Tensor};
/// let x = Tensor::from_vec(vec![-16i32, 16, -1], &[3]).unwrap();
/// assert_eq!(bitwise::right_shift(&x, 2).unwrap().to_vec::<i32>().unwrap(), vec![-4, 4, -1]);
/// assert_eq!(bitwise::right_shift(&x, 99).unwrap().to_vec::<i32>().unwrap(), vec![-1, 0, -1]);
/// ```
///
/// # Errors
/// As [`left_shift`].
pub fn right_shift<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    bitwise("right_shift", BitOp::Shr, a.into(), b.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_clamp_like_tf() {
        assert_eq!(clamp_shift(-5, 8), 0);
        assert_eq!(clamp_shift(8, 8), 7);
        assert_eq!(clamp_shift(i128::from(u64::MAX), 64), 63);
        assert_eq!(200u8.shr_clamped(200), 1); // TF 2.21: 200 >> 200 on uint8 is 1
        assert_eq!((-128i8).shr_clamped(100), -1);
        assert_eq!((-16i8).shr_clamped(-1), -16);
        assert_eq!(1u64.shl_clamped(u64::MAX), 1 << 63);
    }

    #[test]
    fn floats_and_shifted_bools_are_refused() {
        let f = Tensor::scalar(1.5f32);
        assert!(bitwise_and(&f, 1).is_err());
        assert!(bitwise_or(&Tensor::scalar(1i32), 1.5).is_err());
        assert!(left_shift(&Tensor::scalar(true), true).is_err());
        assert!(bitwise_and(&Tensor::scalar(true), false).is_ok());
    }

    #[test]
    fn weak_operands_stay_weak() {
        let w = Tensor::scalar(6i32).with_weak(true);
        let r = bitwise_xor(&w, 3).unwrap();
        assert!(r.is_weak());
        assert_eq!(r.item::<i32>().unwrap(), 5);
        let s = bitwise_xor(&Tensor::scalar(6i32), 3).unwrap();
        assert!(!s.is_weak());
    }
}
