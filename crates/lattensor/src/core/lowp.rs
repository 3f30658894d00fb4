//! The eight low-precision element types: six 8-bit floats, a 4-bit float
//! and two 4-bit integers, each stored in one byte as `ml_dtypes` stores it.
//!
//! They are storage-and-cast types: a value converts to and from every other
//! element type, but no arithmetic kernel is instantiated for them (the ops
//! that compute refuse them; see `docs/low_precision.md`).
//!
//! The floats share one description, [`Format`]: exponent and significand
//! widths, bias, and which bit patterns are NaN or infinity. Decoding is
//! exact (every value is an `f32`); encoding rounds once from `f64` to
//! nearest, ties to even, and applies the format's overflow rule:
//!
//! | type | max | overflow | NaN | −0 |
//! |---|---|---|---|---|
//! | `float8_e4m3fn` | 448 | NaN | `S.1111.111` | yes |
//! | `float8_e5m2` | 57344 | ±inf | IEEE | yes |
//! | `float8_e4m3fnuz` | 240 | NaN | `0x80` only | no |
//! | `float8_e5m2fnuz` | 57344 | NaN | `0x80` only | no |
//! | `float8_e8m0fnu` | 2^127 | NaN | `0xFF` | no sign, no zero |
//! | `float4_e2m1fn` | 6 | saturates | none (NaN → ∓0) | yes |
//!
//! `float8_e8m0fnu` has neither sign nor zero: zero and negative values become
//! NaN, a positive value below 2^-127 becomes 2^-127, and a value halfway
//! between two powers of two rounds up, as `ml_dtypes` does.
//!
//! `int4` and `uint4` hold −8..=7 and 0..=15 in the low four bits of a byte
//! (two's complement, upper bits zero, as `ml_dtypes` stores them); converting
//! an integer wraps (as for the other integers), a float truncates toward zero
//! and saturates (the project's rule for every integer; `ml_dtypes` gives 0
//! out of range, see `docs/low_precision.md`).

use num_complex::{Complex32, Complex64};

use super::element::{Element, i64_to_f64_odd, sealed, u64_to_f64_odd};
use crate::DType;
use crate::core::dtype::FInfo;

/// What a value too large for a format becomes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Overflow {
    /// ±infinity (`float8_e5m2`).
    Inf,
    /// The format's NaN.
    Nan,
    /// The largest finite value of the same sign (`float4_e2m1fn`, which has neither).
    Saturate,
}

/// Which bit patterns are NaN.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Nans {
    /// IEEE: all-ones exponent with a non-zero significand.
    Ieee,
    /// Only the all-ones exponent and significand (either sign): the `fn` types.
    AllOnes,
    /// Only the negative-zero pattern `0x80`: the `fnuz` types.
    NegZero,
    /// None (`float4_e2m1fn`).
    None,
}

/// A small binary floating-point format.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Format {
    /// Exponent bits.
    pub exp_bits: u32,
    /// Stored significand bits (the leading bit is implicit).
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Whether the top bit is a sign bit.
    pub signed: bool,
    /// Whether an exponent field of 0 means a subnormal (false for e8m0, whose
    /// every pattern but NaN is a power of two).
    pub subnormals: bool,
    /// NaN patterns.
    pub nans: Nans,
    /// Whether the all-ones exponent with a zero significand is infinity.
    pub inf: bool,
    /// What overflow gives.
    pub overflow: Overflow,
    /// Whether a tie rounds up (away from zero) rather than to even: e8m0,
    /// whose values have no significand bit to be even, as `ml_dtypes` rounds it.
    pub ties_up: bool,
}

/// `float8_e4m3fn`.
pub(crate) const E4M3FN: Format = Format {
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    signed: true,
    subnormals: true,
    nans: Nans::AllOnes,
    inf: false,
    overflow: Overflow::Nan,
    ties_up: false,
};
/// `float8_e5m2`.
pub(crate) const E5M2: Format = Format {
    exp_bits: 5,
    man_bits: 2,
    bias: 15,
    signed: true,
    subnormals: true,
    nans: Nans::Ieee,
    inf: true,
    overflow: Overflow::Inf,
    ties_up: false,
};
/// `float8_e4m3fnuz`.
pub(crate) const E4M3FNUZ: Format = Format {
    exp_bits: 4,
    man_bits: 3,
    bias: 8,
    signed: true,
    subnormals: true,
    nans: Nans::NegZero,
    inf: false,
    overflow: Overflow::Nan,
    ties_up: false,
};
/// `float8_e5m2fnuz`.
pub(crate) const E5M2FNUZ: Format = Format {
    exp_bits: 5,
    man_bits: 2,
    bias: 16,
    signed: true,
    subnormals: true,
    nans: Nans::NegZero,
    inf: false,
    overflow: Overflow::Nan,
    ties_up: false,
};
/// `float8_e8m0fnu`.
pub(crate) const E8M0FNU: Format = Format {
    exp_bits: 8,
    man_bits: 0,
    bias: 127,
    signed: false,
    subnormals: false,
    nans: Nans::AllOnes,
    inf: false,
    overflow: Overflow::Nan,
    ties_up: true,
};
/// `float4_e2m1fn`.
pub(crate) const E2M1FN: Format = Format {
    exp_bits: 2,
    man_bits: 1,
    bias: 1,
    signed: true,
    subnormals: true,
    nans: Nans::None,
    inf: false,
    overflow: Overflow::Saturate,
    ties_up: false,
};

impl Format {
    /// Total bits of a value (the rest of the byte is zero).
    const fn bits(&self) -> u32 {
        self.exp_bits + self.man_bits + self.signed as u32
    }

    const fn sign_bit(&self) -> u8 {
        if self.signed { 1 << (self.exp_bits + self.man_bits) } else { 0 }
    }

    const fn exp_mask(&self) -> u32 {
        (1 << self.exp_bits) - 1
    }

    /// Whether `b` is a NaN pattern.
    pub(crate) const fn is_nan(&self, b: u8) -> bool {
        let mag = b & !self.sign_bit();
        let e = (mag as u32) >> self.man_bits;
        let m = (mag as u32) & ((1 << self.man_bits) - 1);
        match self.nans {
            Nans::Ieee => e == self.exp_mask() && m != 0,
            Nans::AllOnes => e == self.exp_mask() && m == (1 << self.man_bits) - 1,
            Nans::NegZero => b == 0x80,
            Nans::None => false,
        }
    }

    /// The canonical NaN pattern (negative if `negative` and the format has a signed NaN).
    const fn nan(&self, negative: bool) -> u8 {
        let s = if negative { self.sign_bit() } else { 0 };
        match self.nans {
            Nans::Ieee => s | (((self.exp_mask() << self.man_bits) | (1 << (self.man_bits - 1))) as u8),
            Nans::AllOnes => s | ((1u32 << (self.exp_bits + self.man_bits)) - 1) as u8,
            Nans::NegZero => 0x80,
            // no NaN: NaN becomes a zero of the opposite sign, as ml_dtypes 0.7
            // converts it (+NaN → -0, -NaN → +0)
            Nans::None => self.sign_bit() ^ s,
        }
    }

    /// The largest finite pattern (positive).
    const fn max_pattern(&self) -> u8 {
        let all = ((1u32 << (self.exp_bits + self.man_bits)) - 1) as u8;
        match self.nans {
            Nans::AllOnes => all - 1,
            _ if self.inf => (self.exp_mask() << self.man_bits) as u8 - 1,
            _ => all,
        }
    }

    /// `b` decoded exactly, as `f32` bits.
    pub(crate) const fn decode_bits(&self, b: u8) -> u32 {
        let b = b & (((1u32 << self.bits()) - 1) as u8);
        let sign: u32 = if b & self.sign_bit() != 0 { 1 << 31 } else { 0 };
        if self.is_nan(b) {
            // a quiet NaN of the pattern's sign (the fnuz NaN, 0x80, is negative), as in ml_dtypes
            return sign | 0x7fc0_0000;
        }
        let mag = (b & !self.sign_bit()) as u32;
        let e = mag >> self.man_bits;
        let m = mag & ((1 << self.man_bits) - 1);
        if self.inf && e == self.exp_mask() {
            return sign | 0x7f80_0000;
        }
        // value = sig × 2^exp with sig an integer of at most man_bits + 1 bits
        let (sig, exp) = if e == 0 && self.subnormals {
            (m, 1 - self.bias - self.man_bits as i32)
        } else {
            (m | (1 << self.man_bits), e as i32 - self.bias - self.man_bits as i32)
        };
        if sig == 0 {
            return sign;
        }
        // normalise sig to 1.xxx: its leading bit is bit `lead`
        let mut lead = 0;
        while sig >> (lead + 1) != 0 {
            lead += 1;
        }
        let e32 = exp + lead; // the value is in [2^e32, 2^(e32+1))
        let frac = (sig & ((1 << lead) - 1)) << (23 - lead);
        if e32 >= -126 {
            sign | (((e32 + 127) as u32) << 23) | frac
        } else {
            // an f32 subnormal (only e8m0's 2^-127): its bits count units of 2^-149
            sign | (sig << (exp + 149) as u32)
        }
    }

    /// `b` decoded exactly.
    pub(crate) fn decode(&self, b: u8) -> f32 {
        f32::from_bits(self.decode_bits(b))
    }

    /// `x` rounded once to the format (to nearest, ties to even), with its overflow rule.
    pub(crate) fn encode(&self, x: f64) -> u8 {
        if x.is_nan() {
            return self.nan(x.is_sign_negative());
        }
        let negative = x.is_sign_negative();
        let sign = if negative { self.sign_bit() } else { 0 };
        let a = x.abs();
        if !self.signed && negative && a != 0.0 {
            return self.nan(false);
        }
        let zero = || match self.nans {
            // the fnuz types have one zero; e8m0 has none and rounds zero to NaN
            Nans::NegZero => 0,
            _ if !self.signed => self.nan(false),
            _ => sign,
        };
        if a == 0.0 {
            return zero();
        }
        let max_pattern = self.max_pattern();
        let max = self.decode(max_pattern) as f64;
        let overflow = || match self.overflow {
            Overflow::Inf => sign | ((self.exp_mask() << self.man_bits) as u8),
            Overflow::Nan => self.nan(negative),
            Overflow::Saturate => sign | max_pattern,
        };
        if a.is_infinite() {
            return match self.overflow {
                // a saturating format has no infinity either: ±inf goes to ±max
                Overflow::Saturate => sign | max_pattern,
                _ => overflow(),
            };
        }
        let man = self.man_bits as i32;
        // the lowest exponent of a normal value (e8m0: of its smallest value)
        let emin = if self.subnormals { 1 - self.bias } else { -self.bias };
        let e = exponent_of(a);
        // the value's quantum: the weight of its last significand bit
        let q = e.max(emin) - man;
        let scaled = a * pow2(-q); // exact: a power-of-two scaling
        let mut n = if self.ties_up {
            let whole = scaled.floor();
            if scaled - whole >= 0.5 { whole + 1.0 } else { whole }
        } else {
            scaled.round_ties_even()
        };
        if n == 0.0 {
            if self.subnormals {
                return zero();
            }
            // e8m0 has no zero to underflow to: a tiny positive value is its smallest power
            n = 1.0;
        }
        let v = n * pow2(q);
        if v > max {
            return overflow();
        }
        let n = n as u32;
        if n < (1 << man) && self.subnormals {
            return sign | n as u8;
        }
        // n has man + 1 or man + 2 bits (a carry out of the significand)
        let (n, e2) = if n >= (2 << man) { (n >> 1, q + man + 1) } else { (n, q + man) };
        let field = (e2 + self.bias) as u32;
        sign | ((field << self.man_bits) | (n & ((1 << man) - 1))) as u8
    }
}

/// The format of a low-precision float dtype, `None` for every other dtype.
pub(crate) const fn format_of(d: DType) -> Option<&'static Format> {
    match d {
        DType::F8E4M3Fn => Some(&E4M3FN),
        DType::F8E5M2 => Some(&E5M2),
        DType::F8E4M3Fnuz => Some(&E4M3FNUZ),
        DType::F8E5M2Fnuz => Some(&E5M2FNUZ),
        DType::F8E8M0Fnu => Some(&E8M0FNU),
        DType::F4E2M1Fn => Some(&E2M1FN),
        _ => None,
    }
}

impl Format {
    /// `numpy.finfo`'s facts as `ml_dtypes.finfo` states them (for e8m0, with
    /// no negative values, `min` is its smallest value, 2^-127).
    pub(crate) fn finfo(&self) -> FInfo {
        let finite = (0..1u32 << self.bits()).map(|b| self.decode(b as u8) as f64).filter(|v| v.is_finite());
        let max = finite.clone().fold(0.0, f64::max);
        let smallest_subnormal = finite.filter(|&v| v > 0.0).fold(f64::INFINITY, f64::min);
        let smallest_normal = if self.subnormals { pow2(1 - self.bias) } else { smallest_subnormal };
        FInfo {
            bits: self.bits(),
            significand_bits: self.man_bits + 1,
            exponent_bits: self.exp_bits,
            eps: pow2(-(self.man_bits as i32)),
            max,
            min: if self.signed { -max } else { smallest_subnormal },
            smallest_normal,
            smallest_subnormal,
        }
    }
}

/// floor(log2(a)) for a positive finite `a` (f64 subnormals, far below every
/// format's smallest value, report the lowest normal exponent).
fn exponent_of(a: f64) -> i32 {
    (((a.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(-1022)
}

/// 2^k exactly, for |k| ≤ 1023.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

macro_rules! float_type {
    ($(#[$doc:meta] $name:ident, $fmt:ident, $dtype:ident;)*) => {$(
        #[$doc]
        ///
        /// One byte, the bit pattern `ml_dtypes` stores; `==` compares values
        /// (NaN is unequal to itself).
        #[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
        #[repr(transparent)]
        pub struct $name(pub u8);

        impl $name {
            /// The value with bit pattern `bits`.
            pub const fn from_bits(bits: u8) -> Self {
                $name(bits)
            }
            /// The bit pattern.
            pub const fn to_bits(self) -> u8 {
                self.0
            }
            /// The value, exactly.
            pub fn to_f32(self) -> f32 {
                $fmt.decode(self.0)
            }
            /// `x` rounded to nearest, ties to even, with the type's overflow rule.
            pub fn from_f64(x: f64) -> Self {
                $name($fmt.encode(x))
            }
            /// `x` rounded to nearest, ties to even, with the type's overflow rule.
            pub fn from_f32(x: f32) -> Self {
                $name($fmt.encode(x as f64))
            }
            /// Whether the value is NaN.
            pub fn is_nan(self) -> bool {
                $fmt.is_nan(self.0)
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.to_f32() == other.to_f32()
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.to_f32(), f)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.to_f32(), f)
            }
        }

        impl sealed::Sealed for $name {}
        impl Element for $name {
            const DTYPE: DType = DType::$dtype;
            #[inline(always)]
            fn cast_into<D: Element>(self) -> D {
                if D::DTYPE == Self::DTYPE {
                    // the same type keeps its bits (NaN payloads, the fnuz NaN)
                    return D::slice_from_bytes(std::slice::from_ref(&self.0))[0];
                }
                D::from_f32(self.to_f32())
            }
            #[inline(always)] fn from_bool(x: bool) -> Self { Self::from_f64(x as u8 as f64) }
            #[inline(always)] fn from_u64(x: u64) -> Self { Self::from_f64(u64_to_f64_odd(x)) }
            #[inline(always)] fn from_i64(x: i64) -> Self { Self::from_f64(i64_to_f64_odd(x)) }
            #[inline(always)] fn from_u32(x: u32) -> Self { Self::from_f64(x as f64) }
            #[inline(always)] fn from_i32(x: i32) -> Self { Self::from_f64(x as f64) }
            #[inline(always)] fn from_f32(x: f32) -> Self { Self::from_f64(x as f64) }
            #[inline(always)] fn from_f64(x: f64) -> Self { Self::from_f64(x) }
            #[inline(always)] fn from_c64(x: Complex32) -> Self { Self::from_f64(x.re as f64) }
            #[inline(always)] fn from_c128(x: Complex64) -> Self { Self::from_f64(x.re) }
            fn slice_from_bytes(bytes: &[u8]) -> &[Self] { bytemuck::cast_slice(bytes) }
            fn slice_from_bytes_mut(bytes: &mut [u8]) -> &mut [Self] { bytemuck::cast_slice_mut(bytes) }
            fn slice_as_bytes(items: &[Self]) -> &[u8] { bytemuck::cast_slice(items) }
        }
    )*};
}

float_type! {
    /// `float8_e4m3fn`: 4 exponent bits, 3 significand bits, no infinity, max 448.
    F8E4M3Fn, E4M3FN, F8E4M3Fn;
    /// `float8_e5m2`: 5 exponent bits, 2 significand bits, IEEE infinities and NaNs, max 57344.
    F8E5M2, E5M2, F8E5M2;
    /// `float8_e4m3fnuz`: 4 exponent bits, 3 significand bits, bias 8, one NaN (`0x80`), no −0.
    F8E4M3Fnuz, E4M3FNUZ, F8E4M3Fnuz;
    /// `float8_e5m2fnuz`: 5 exponent bits, 2 significand bits, bias 16, one NaN (`0x80`), no −0.
    F8E5M2Fnuz, E5M2FNUZ, F8E5M2Fnuz;
    /// `float8_e8m0fnu`: the powers of two 2^-127..=2^127 and NaN (`0xFF`); no sign, no zero.
    F8E8M0Fnu, E8M0FNU, F8E8M0Fnu;
    /// `float4_e2m1fn`: ±{0, 0.5, 1, 1.5, 2, 3, 4, 6} in the low 4 bits; no infinity or NaN.
    F4E2M1Fn, E2M1FN, F4E2M1Fn;
}

/// An integer type of `bits` bits held in one byte.
macro_rules! int_type {
    ($(#[$doc:meta] $name:ident, $repr:ty, $min:expr, $max:expr, $dtype:ident;)*) => {$(
        #[$doc]
        ///
        /// Only the low four bits count (a byte written by `bitcast` may carry
        /// others); `==` compares values.
        #[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
        #[repr(transparent)]
        pub struct $name(u8);

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.get() == other.get()
            }
        }

        impl $name {
            /// The smallest value.
            pub const MIN: $name = $name::wrapping_from_i64($min);
            /// The largest value.
            pub const MAX: $name = $name::wrapping_from_i64($max);

            /// `x` wrapped to 4 bits (two's complement), as integer casts wrap.
            pub const fn wrapping_from_i64(x: i64) -> Self {
                $name((x & 0xf) as u8)
            }

            /// `x` truncated toward zero and saturated to the range; NaN is 0.
            pub fn saturating_from_f64(x: f64) -> Self {
                Self::wrapping_from_i64(x.clamp($min as f64, $max as f64) as i64)
            }

            /// The value.
            pub const fn get(self) -> $repr {
                // the sign bit of a 4-bit two's complement value is bit 3
                let v = self.0 & 0xf;
                if $min < 0 && v & 0x8 != 0 { (v as i16 - 16) as $repr } else { v as $repr }
            }

            /// The byte as stored (the value in the low four bits).
            pub const fn to_bits(self) -> u8 {
                self.0
            }

            /// The value stored as `bits` (only the low four bits count).
            pub const fn from_bits(bits: u8) -> Self {
                $name(bits & 0xf)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.get(), f)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.get(), f)
            }
        }

        impl sealed::Sealed for $name {}
        impl Element for $name {
            const DTYPE: DType = DType::$dtype;
            #[inline(always)]
            fn cast_into<D: Element>(self) -> D {
                D::from_i64(self.get() as i64)
            }
            #[inline(always)] fn from_bool(x: bool) -> Self { $name(x as u8) }
            #[inline(always)] fn from_u64(x: u64) -> Self { Self::wrapping_from_i64(x as i64) }
            #[inline(always)] fn from_i64(x: i64) -> Self { Self::wrapping_from_i64(x) }
            #[inline(always)] fn from_u32(x: u32) -> Self { Self::wrapping_from_i64(x as i64) }
            #[inline(always)] fn from_i32(x: i32) -> Self { Self::wrapping_from_i64(x as i64) }
            #[inline(always)] fn from_f32(x: f32) -> Self { Self::saturating_from_f64(x as f64) }
            #[inline(always)] fn from_f64(x: f64) -> Self { Self::saturating_from_f64(x) }
            #[inline(always)] fn from_c64(x: Complex32) -> Self { Self::saturating_from_f64(x.re as f64) }
            #[inline(always)] fn from_c128(x: Complex64) -> Self { Self::saturating_from_f64(x.re) }
            fn slice_from_bytes(bytes: &[u8]) -> &[Self] { bytemuck::cast_slice(bytes) }
            fn slice_from_bytes_mut(bytes: &mut [u8]) -> &mut [Self] { bytemuck::cast_slice_mut(bytes) }
            fn slice_as_bytes(items: &[Self]) -> &[u8] { bytemuck::cast_slice(items) }
        }
    )*};
}

int_type! {
    /// `int4`: −8..=7 in the low four bits of a byte, as `ml_dtypes` holds it.
    I4, i8, -8, 7, I4;
    /// `uint4`: 0..=15 in one byte.
    U4, u8, 0, 15, U4;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(f: &Format) -> Vec<f32> {
        (0..1u32 << f.bits()).map(|b| f.decode(b as u8)).collect()
    }

    #[test]
    fn value_sets_have_the_documented_extremes() {
        let max = |f: &Format| values(f).into_iter().filter(|v| v.is_finite()).fold(f32::MIN, f32::max);
        assert_eq!(max(&E4M3FN), 448.0);
        assert_eq!(max(&E5M2), 57344.0);
        assert_eq!(max(&E4M3FNUZ), 240.0);
        assert_eq!(max(&E5M2FNUZ), 57344.0);
        assert_eq!(max(&E8M0FNU), 2f32.powi(127));
        assert_eq!(max(&E2M1FN), 6.0);
        assert_eq!(E8M0FNU.decode(0), 2f64.powi(-127) as f32);
        assert_eq!(E4M3FN.decode(1), 2f32.powi(-9));
        assert_eq!(E5M2.decode(1), 2f32.powi(-16));
        assert_eq!(E4M3FNUZ.decode(1), 2f32.powi(-10));
        assert_eq!(E5M2FNUZ.decode(1), 2f32.powi(-17));
        assert_eq!(values(&E2M1FN)[..8], [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]);
    }

    #[test]
    fn nan_and_infinity_patterns() {
        let nans = |f: &Format| (0..=255u8).filter(|&b| f.decode(b).is_nan()).collect::<Vec<_>>();
        assert_eq!(nans(&E4M3FN), vec![0x7f, 0xff]);
        assert_eq!(nans(&E5M2), vec![0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff]);
        assert_eq!(nans(&E4M3FNUZ), vec![0x80]);
        assert_eq!(nans(&E5M2FNUZ), vec![0x80]);
        assert_eq!(nans(&E8M0FNU), vec![0xff]);
        assert_eq!(E5M2.decode(0x7c), f32::INFINITY);
        assert_eq!(E5M2.decode(0xfc), f32::NEG_INFINITY);
    }

    #[test]
    fn every_value_round_trips() {
        for f in [E4M3FN, E5M2, E4M3FNUZ, E5M2FNUZ, E8M0FNU, E2M1FN] {
            for b in 0..1u32 << f.bits() {
                let b = b as u8;
                if f.is_nan(b) {
                    // NaN payloads are not kept (as in ml_dtypes): the canonical NaN of the sign
                    assert!(f.is_nan(f.encode(f.decode(b) as f64)), "{f:?} {b:#04x}");
                    continue;
                }
                assert_eq!(f.encode(f.decode(b) as f64), b, "{f:?} {b:#04x}");
            }
        }
    }

    #[test]
    fn rounding_ties_to_even_and_overflow() {
        // 448 = 1.110b × 2^8; 464 is the tie with 480 (which does not exist): even → 448
        assert_eq!(E4M3FN.decode(E4M3FN.encode(464.0)), 448.0);
        assert!(E4M3FN.decode(E4M3FN.encode(464.0001)).is_nan());
        assert_eq!(E5M2.decode(E5M2.encode(61439.0)), 57344.0);
        assert_eq!(E5M2.decode(E5M2.encode(61440.0)), f32::INFINITY);
        assert_eq!(E2M1FN.decode(E2M1FN.encode(1e9)), 6.0);
        assert_eq!(E2M1FN.decode(E2M1FN.encode(-0.25)), -0.0);
        assert_eq!(E2M1FN.decode(E2M1FN.encode(0.75)), 1.0);
        assert_eq!(E2M1FN.decode(E2M1FN.encode(2.5)), 2.0);
        assert_eq!(E4M3FNUZ.encode(-0.0), 0);
        // e8m0: 1.5 and 3 are ties and round up; zero is NaN, underflow is 2^-127
        assert_eq!((E8M0FNU.encode(1.5), E8M0FNU.encode(3.0), E8M0FNU.encode(2.9)), (128, 129, 128));
        assert_eq!((E8M0FNU.encode(0.0), E8M0FNU.encode(1e-300), E8M0FNU.encode(-1.0)), (0xff, 0, 0xff));
    }

    #[test]
    fn int4_wraps_from_ints_and_saturates_from_floats() {
        assert_eq!(I4::wrapping_from_i64(9).get(), -7);
        assert_eq!(I4::wrapping_from_i64(-9).get(), 7);
        assert_eq!(U4::wrapping_from_i64(-1).get(), 15);
        assert_eq!(I4::saturating_from_f64(100.0).get(), 7);
        assert_eq!(I4::saturating_from_f64(-7.9).get(), -7);
        assert_eq!(U4::saturating_from_f64(f64::NAN).get(), 0);
        assert_eq!(I4::wrapping_from_i64(-1).to_bits(), 0x0f);
        assert_eq!((I4::MIN.get(), I4::MAX.get(), U4::MAX.get()), (-8, 7, 15));
        // bytes with high bits set (from a bitcast) read by their low four bits
        assert_eq!((I4::from_bits(0xff).get(), I4(0xf7).get(), U4(0xf3).get()), (-1, 7, 3));
        assert_eq!(I4(0xff), I4::wrapping_from_i64(-1));
    }
}
