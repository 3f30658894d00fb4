//! The Rust element types behind the dtypes, and conversion between them.
//!
//! [`Element`] ties each of the 15 Rust types to its [`DType`] and converts
//! any element to any other with one set of rules (`cast` semantics):
//!
//! * integer → integer wraps (two's complement), as TF and NumPy do;
//! * integer → float rounds to nearest-even, correctly (no double rounding
//!   through `f64` for 64-bit integers into `bf16`/`f16`);
//! * float → integer truncates toward zero and **saturates**: NaN → 0,
//!   values beyond the range → the nearest bound. TF 2.21 on x86 gives
//!   platform artefacts here (`NaN → INT_MIN` for 32/64-bit, wrap-around or
//!   saturation for 8/16-bit depending on the *source* dtype); lattensor
//!   follows XLA/JAX and Rust's `as` instead (see `docs/deviations.md`);
//! * float → narrower float rounds to nearest-even, overflowing to ±inf;
//! * complex → real keeps the real part; real → complex gets a zero imaginary part;
//! * anything → bool is `x != 0` (NaN is true; a complex is true if either part is non-zero);
//!   bool → anything is 0 or 1.

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};

use crate::DType;

pub(crate) mod sealed {
    pub trait Sealed {}
}

/// A Rust type that is the element type of one [`DType`].
///
/// Implemented for `bool`, `u8`–`u64`, `i8`–`i64`, [`half::bf16`],
/// [`half::f16`], `f32`, `f64`, [`Complex32`], [`Complex64`] and the eight
/// low-precision types ([`F8E4M3Fn`](crate::F8E4M3Fn), …, [`U4`](crate::U4)); sealed.
///
/// ```
/// use lattensor::Element;
/// assert_eq!(f32::NAN.cast_into::<i32>(), 0);
/// assert_eq!(300i32.cast_into::<i8>(), 44);
/// assert_eq!((-1.5f64).cast_into::<u8>(), 0);
/// assert_eq!(1e10f64.cast_into::<i32>(), i32::MAX);
/// assert_eq!(num_complex::Complex64::new(2.5, 1.0).cast_into::<f32>(), 2.5);
/// ```
pub trait Element: sealed::Sealed + Copy + Send + Sync + PartialEq + Default + std::fmt::Debug + 'static {
    /// The dtype this type stores.
    const DTYPE: DType;

    /// Converts this element to `D` with lattensor's cast semantics.
    fn cast_into<D: Element>(self) -> D;

    #[doc(hidden)]
    fn from_bool(x: bool) -> Self;
    #[doc(hidden)]
    fn from_u64(x: u64) -> Self;
    #[doc(hidden)]
    fn from_i64(x: i64) -> Self;
    #[doc(hidden)]
    fn from_u32(x: u32) -> Self;
    #[doc(hidden)]
    fn from_i32(x: i32) -> Self;
    #[doc(hidden)]
    fn from_f32(x: f32) -> Self;
    #[doc(hidden)]
    fn from_f64(x: f64) -> Self;
    #[doc(hidden)]
    fn from_c64(x: Complex32) -> Self;
    #[doc(hidden)]
    fn from_c128(x: Complex64) -> Self;

    /// Views raw bytes as elements. `bytes` must be aligned for `Self` and a
    /// multiple of its size; the caller (the storage module) guarantees it.
    #[doc(hidden)]
    fn slice_from_bytes(bytes: &[u8]) -> &[Self];
    /// Mutable counterpart of [`Element::slice_from_bytes`].
    #[doc(hidden)]
    fn slice_from_bytes_mut(bytes: &mut [u8]) -> &mut [Self];
    /// Views elements as bytes.
    #[doc(hidden)]
    fn slice_as_bytes(items: &[Self]) -> &[u8];
}

/// Correctly rounded i64 → f64 "round to odd": the result's last bit records
/// whether bits were lost, so one more rounding to a type of at most 51
/// significand bits is exact round-to-nearest-even (no double rounding).
pub(crate) fn i64_to_f64_odd(x: i64) -> f64 {
    let r = x as f64;
    if r.abs() < 9007199254740992.0 {
        return r;
    }
    // compare r with x exactly in i128
    let back = r as i128;
    let xi = x as i128;
    if back == xi { r } else { odd_toward(r, (xi - back).signum()) }
}

/// f64 → f32 rounding to odd (see [`i64_to_f64_odd`]); then f32 → bf16/f16
/// rounds correctly. (`half`'s own `from_f64` goes through f32 with
/// round-to-nearest, which double-rounds.)
#[inline(always)]
fn f64_to_f32_odd(x: f64) -> f32 {
    let r = x as f32;
    if r.is_finite() && (r as f64) != x && r.to_bits() & 1 == 0 {
        // the exact value lies strictly between r and its neighbour toward x
        let away_from_zero = (x.abs() > (r as f64).abs()) as u32;
        let bits = r.to_bits();
        return f32::from_bits(if away_from_zero == 1 { bits + 1 } else { bits - 1 });
    }
    r
}

/// Correctly rounded f64 → bf16/f16.
#[inline(always)]
fn f64_to_half<H: HalfFromF32>(x: f64) -> H {
    H::from_f32_(f64_to_f32_odd(x))
}

trait HalfFromF32 {
    fn from_f32_(x: f32) -> Self;
}
impl HalfFromF32 for bf16 {
    fn from_f32_(x: f32) -> Self {
        bf16::from_f32(x)
    }
}
impl HalfFromF32 for f16 {
    fn from_f32_(x: f32) -> Self {
        f16::from_f32(x)
    }
}

pub(crate) fn u64_to_f64_odd(x: u64) -> f64 {
    let r = x as f64;
    if r < 9007199254740992.0 {
        return r;
    }
    let back = r as u128 as i128; // r ≤ 2^64 fits in i128
    let xi = x as i128;
    if back == xi { r } else { odd_toward(r, (xi - back).signum()) }
}

/// The neighbour of `r` toward the exact value (direction `dir`), or `r`
/// itself, whichever has an odd significand: rounding to odd.
fn odd_toward(r: f64, dir: i128) -> f64 {
    let bits = r.to_bits();
    if bits & 1 == 1 {
        return r;
    }
    // r is even, so the exact value lies strictly between r and its neighbour.
    let away_from_zero = (dir > 0) == (r > 0.0);
    f64::from_bits(if away_from_zero { bits + 1 } else { bits - 1 })
}

macro_rules! impl_pod_bytes {
    () => {
        fn slice_from_bytes(bytes: &[u8]) -> &[Self] {
            bytemuck::cast_slice(bytes)
        }
        fn slice_from_bytes_mut(bytes: &mut [u8]) -> &mut [Self] {
            bytemuck::cast_slice_mut(bytes)
        }
        fn slice_as_bytes(items: &[Self]) -> &[u8] {
            bytemuck::cast_slice(items)
        }
    };
}

macro_rules! impl_int {
    ($($t:ty => $d:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn cast_into<D: Element>(self) -> D {
                if <$t>::MIN == 0 { D::from_u64(self as u64) } else { D::from_i64(self as i64) }
            }
            #[inline(always)] fn from_bool(x: bool) -> Self { x as $t }
            #[inline(always)] fn from_u64(x: u64) -> Self { x as $t }
            #[inline(always)] fn from_i64(x: i64) -> Self { x as $t }
            #[inline(always)] fn from_u32(x: u32) -> Self { x as $t }
            #[inline(always)] fn from_i32(x: i32) -> Self { x as $t }
            #[inline(always)] fn from_f32(x: f32) -> Self { x as $t }
            #[inline(always)] fn from_f64(x: f64) -> Self { x as $t }
            #[inline(always)] fn from_c64(x: Complex32) -> Self { x.re as $t }
            #[inline(always)] fn from_c128(x: Complex64) -> Self { x.re as $t }
            impl_pod_bytes!();
        }
    )*};
}
impl_int!(u8 => U8, u16 => U16, u32 => U32, u64 => U64, i8 => I8, i16 => I16, i32 => I32, i64 => I64);

macro_rules! impl_prim_float {
    ($($t:ty => $d:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn cast_into<D: Element>(self) -> D {
                if std::mem::size_of::<$t>() == 4 { D::from_f32(self as f32) } else { D::from_f64(self as f64) }
            }
            #[inline(always)] fn from_bool(x: bool) -> Self { x as u8 as $t }
            #[inline(always)] fn from_u64(x: u64) -> Self { x as $t }
            #[inline(always)] fn from_i64(x: i64) -> Self { x as $t }
            #[inline(always)] fn from_u32(x: u32) -> Self { x as $t }
            #[inline(always)] fn from_i32(x: i32) -> Self { x as $t }
            #[inline(always)] fn from_f32(x: f32) -> Self { x as $t }
            #[inline(always)] fn from_f64(x: f64) -> Self { x as $t }
            #[inline(always)] fn from_c64(x: Complex32) -> Self { x.re as $t }
            #[inline(always)] fn from_c128(x: Complex64) -> Self { x.re as $t }
            impl_pod_bytes!();
        }
    )*};
}
impl_prim_float!(f32 => F32, f64 => F64);

macro_rules! impl_half {
    ($($t:ty => $d:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn cast_into<D: Element>(self) -> D {
                if D::DTYPE == Self::DTYPE {
                    // the same type keeps its bits: the f32 round trip below
                    // would quiet a signalling NaN (so copies of views would differ)
                    return D::slice_from_bytes(Self::slice_as_bytes(std::slice::from_ref(&self)))[0];
                }
                D::from_f32(self.to_f32())
            }
            #[inline(always)] fn from_bool(x: bool) -> Self { if x { <$t>::ONE } else { <$t>::ZERO } }
            #[inline(always)] fn from_u64(x: u64) -> Self { f64_to_half(u64_to_f64_odd(x)) }
            #[inline(always)] fn from_i64(x: i64) -> Self { f64_to_half(i64_to_f64_odd(x)) }
            // 32-bit integers are exact in f64.
            #[inline(always)] fn from_u32(x: u32) -> Self { f64_to_half(x as f64) }
            #[inline(always)] fn from_i32(x: i32) -> Self { f64_to_half(x as f64) }
            #[inline(always)] fn from_f32(x: f32) -> Self { <$t>::from_f32(x) }
            #[inline(always)] fn from_f64(x: f64) -> Self { f64_to_half(x) }
            #[inline(always)] fn from_c64(x: Complex32) -> Self { <$t>::from_f32(x.re) }
            #[inline(always)] fn from_c128(x: Complex64) -> Self { f64_to_half(x.re) }
            impl_pod_bytes!();
        }
    )*};
}
impl_half!(bf16 => BF16, f16 => F16);

macro_rules! impl_complex {
    ($($t:ty, $r:ty => $d:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn cast_into<D: Element>(self) -> D {
                if std::mem::size_of::<$r>() == 4 {
                    D::from_c64(Complex32::new(self.re as f32, self.im as f32))
                } else {
                    D::from_c128(Complex64::new(self.re as f64, self.im as f64))
                }
            }
            #[inline(always)] fn from_bool(x: bool) -> Self { <$t>::new(x as u8 as $r, 0.0) }
            #[inline(always)] fn from_u64(x: u64) -> Self { <$t>::new(x as $r, 0.0) }
            #[inline(always)] fn from_i64(x: i64) -> Self { <$t>::new(x as $r, 0.0) }
            #[inline(always)] fn from_u32(x: u32) -> Self { <$t>::new(x as $r, 0.0) }
            #[inline(always)] fn from_i32(x: i32) -> Self { <$t>::new(x as $r, 0.0) }
            #[inline(always)] fn from_f32(x: f32) -> Self { <$t>::new(x as $r, 0.0) }
            #[inline(always)] fn from_f64(x: f64) -> Self { <$t>::new(x as $r, 0.0) }
            #[inline(always)] fn from_c64(x: Complex32) -> Self { <$t>::new(x.re as $r, x.im as $r) }
            #[inline(always)] fn from_c128(x: Complex64) -> Self { <$t>::new(x.re as $r, x.im as $r) }
            impl_pod_bytes!();
        }
    )*};
}
impl_complex!(Complex32, f32 => C64, Complex64, f64 => C128);

impl sealed::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    #[inline(always)]
    fn cast_into<D: Element>(self) -> D {
        D::from_bool(self)
    }
    #[inline(always)]
    fn from_bool(x: bool) -> Self {
        x
    }
    #[inline(always)]
    fn from_u64(x: u64) -> Self {
        x != 0
    }
    #[inline(always)]
    fn from_i64(x: i64) -> Self {
        x != 0
    }
    #[inline(always)]
    fn from_u32(x: u32) -> Self {
        x != 0
    }
    #[inline(always)]
    fn from_i32(x: i32) -> Self {
        x != 0
    }
    #[inline(always)]
    fn from_f32(x: f32) -> Self {
        x != 0.0
    }
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x != 0.0
    }
    #[inline(always)]
    fn from_c64(x: Complex32) -> Self {
        x.re != 0.0 || x.im != 0.0
    }
    #[inline(always)]
    fn from_c128(x: Complex64) -> Self {
        x.re != 0.0 || x.im != 0.0
    }
    fn slice_from_bytes(bytes: &[u8]) -> &[Self] {
        crate::core::storage::bools_from_bytes(bytes)
    }
    fn slice_from_bytes_mut(bytes: &mut [u8]) -> &mut [Self] {
        crate::core::storage::bools_from_bytes_mut(bytes)
    }
    fn slice_as_bytes(items: &[Self]) -> &[u8] {
        bytemuck::cast_slice(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_to_int_saturates() {
        assert_eq!(f64::INFINITY.cast_into::<i64>(), i64::MAX);
        assert_eq!(f64::NEG_INFINITY.cast_into::<u32>(), 0);
        assert_eq!(300.5f32.cast_into::<i8>(), 127);
        assert_eq!((-3.7f32).cast_into::<i8>(), -3);
        assert_eq!(f16::from_f32(70000.0).cast_into::<i32>(), i32::MAX); // f16 overflowed to inf
        assert_eq!(bf16::from_f32(70000.0).cast_into::<i32>(), 70144);
    }

    #[test]
    fn int_to_bf16_rounds_once() {
        let v: i64 = (1 << 60) + (1 << 52) + 1;
        // the exact value is above the midpoint between 2^60 and 2^60 + 2^53
        assert_eq!(v.cast_into::<bf16>().to_f64(), ((1u64 << 60) + (1u64 << 53)) as f64);
        let t: i64 = (1 << 60) + (1 << 52);
        assert_eq!(t.cast_into::<bf16>().to_f64(), (1u64 << 60) as f64); // a true tie → even
        assert_eq!(u64::MAX.cast_into::<f16>(), f16::INFINITY);
        assert_eq!((-300i64).cast_into::<f16>().to_f32(), -300.0);
    }

    #[test]
    fn bool_and_complex_rules() {
        assert!(f32::NAN.cast_into::<bool>());
        assert!(Complex64::new(0.0, 1.0).cast_into::<bool>());
        assert!(!Complex64::new(0.0, 0.0).cast_into::<bool>());
        assert_eq!(true.cast_into::<Complex32>(), Complex32::new(1.0, 0.0));
        assert_eq!(true.cast_into::<bf16>(), bf16::ONE);
        assert_eq!(Complex64::new(1.5, 2.0).cast_into::<i32>(), 1);
    }

    #[test]
    fn f64_to_half_rounds_once() {
        // 1 + 2^-8 + 2^-30 is just above the bf16 midpoint 1 + 2^-8; via f32 it would tie to 1.0
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
        assert_eq!(x.cast_into::<bf16>().to_f64(), 1.0 + 2f64.powi(-7));
        let y = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(y.cast_into::<f16>().to_f64(), 1.0 + 2f64.powi(-10));
        assert_eq!((1.0 + 2f64.powi(-11)).cast_into::<f16>().to_f64(), 1.0); // a true tie → even
        assert!(f64::NAN.cast_into::<bf16>().is_nan());
        assert_eq!(1e300f64.cast_into::<bf16>(), bf16::INFINITY);
        assert_eq!((-1e300f64).cast_into::<f16>(), f16::NEG_INFINITY);
    }

    #[test]
    fn float_narrowing_rounds_to_nearest_even() {
        assert_eq!(65519.9f64.cast_into::<f16>().to_f32(), 65504.0);
        assert_eq!(65520.0f64.cast_into::<f16>(), f16::INFINITY);
        assert_eq!(1e-8f64.cast_into::<f16>().to_f32(), 0.0);
    }
}
