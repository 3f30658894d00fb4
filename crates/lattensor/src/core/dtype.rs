//! The twenty-three runtime element types and their metadata.
//!
//! [`DType`] is a small `Copy` enum; every fact about a dtype (size, kind,
//! names, significand width, integer range, float limits) is a `const fn`
//! on it, so promotion rules and kernels read the same source of truth.

use std::fmt;
use std::str::FromStr;

use crate::core::error::{Error, Result};

/// A runtime element type.
///
/// The order of the first fifteen variants is the order TensorFlow's
/// promotion tables use (bool, unsigned, signed, floats, complex); the eight
/// low-precision storage types follow (see [`DType::is_low_precision`]).
///
/// ```
/// use lattensor::DType;
/// let d: DType = "bfloat16".parse().unwrap();
/// assert_eq!(d, DType::BF16);
/// assert_eq!(d.size(), 2);
/// assert_eq!(d.short_name(), "bf16");
/// assert_eq!("i32".parse::<DType>().unwrap().name(), "int32");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum DType {
    /// Boolean, one byte holding 0 or 1.
    Bool,
    /// Unsigned 8-bit integer.
    U8,
    /// Unsigned 16-bit integer.
    U16,
    /// Unsigned 32-bit integer.
    U32,
    /// Unsigned 64-bit integer.
    U64,
    /// Signed 8-bit integer.
    I8,
    /// Signed 16-bit integer.
    I16,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
    /// bfloat16 (8 exponent bits, 8 significand bits), [`half::bf16`].
    BF16,
    /// IEEE half precision, [`half::f16`].
    F16,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
    /// Complex number of two `f32`, [`num_complex::Complex32`].
    C64,
    /// Complex number of two `f64`, [`num_complex::Complex64`].
    C128,
    /// `float8_e4m3fn` ([`F8E4M3Fn`](crate::F8E4M3Fn)): storage and casts only.
    F8E4M3Fn,
    /// `float8_e5m2` ([`F8E5M2`](crate::F8E5M2)): storage and casts only.
    F8E5M2,
    /// `float8_e4m3fnuz` ([`F8E4M3Fnuz`](crate::F8E4M3Fnuz)): storage and casts only.
    F8E4M3Fnuz,
    /// `float8_e5m2fnuz` ([`F8E5M2Fnuz`](crate::F8E5M2Fnuz)): storage and casts only.
    F8E5M2Fnuz,
    /// `float8_e8m0fnu` ([`F8E8M0Fnu`](crate::F8E8M0Fnu)): storage and casts only.
    F8E8M0Fnu,
    /// `float4_e2m1fn` ([`F4E2M1Fn`](crate::F4E2M1Fn)), one value per byte: storage and casts only.
    F4E2M1Fn,
    /// `int4` ([`I4`](crate::I4)), one value per byte: storage and casts only.
    I4,
    /// `uint4` ([`U4`](crate::U4)), one value per byte: storage and casts only.
    U4,
}

/// The category a dtype belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// `bool`.
    Bool,
    /// Unsigned integers.
    UInt,
    /// Signed integers.
    Int,
    /// Real floating point.
    Float,
    /// Complex floating point.
    Complex,
}

/// Integer limits, like `numpy.iinfo`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IInfo {
    /// Width in bits.
    pub bits: u32,
    /// Smallest value.
    pub min: i128,
    /// Largest value.
    pub max: i128,
}

/// Floating-point limits, like `numpy.finfo` (for complex dtypes: of one component).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct FInfo {
    /// Width in bits of one real component.
    pub bits: u32,
    /// Significand bits including the implicit leading bit (f32: 24).
    pub significand_bits: u32,
    /// Exponent bits.
    pub exponent_bits: u32,
    /// Difference between 1.0 and the next representable value.
    pub eps: f64,
    /// Largest finite value.
    pub max: f64,
    /// Most negative finite value.
    pub min: f64,
    /// Smallest positive normal value.
    pub smallest_normal: f64,
    /// Smallest positive subnormal value.
    pub smallest_subnormal: f64,
}

impl DType {
    /// All twenty-three dtypes, in table order.
    pub const ALL: [DType; 23] = [
        DType::Bool,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::BF16,
        DType::F16,
        DType::F32,
        DType::F64,
        DType::C64,
        DType::C128,
        DType::F8E4M3Fn,
        DType::F8E5M2,
        DType::F8E4M3Fnuz,
        DType::F8E5M2Fnuz,
        DType::F8E8M0Fnu,
        DType::F4E2M1Fn,
        DType::I4,
        DType::U4,
    ];

    /// The fifteen dtypes with compute kernels (TF's promotion tables).
    pub const CORE: [DType; 15] = {
        let mut out = [DType::Bool; 15];
        let mut i = 0;
        while i < 15 {
            out[i] = DType::ALL[i];
            i += 1;
        }
        out
    };

    /// The eight low-precision storage-and-cast dtypes.
    pub const LOW_PRECISION: [DType; 8] = [
        DType::F8E4M3Fn,
        DType::F8E5M2,
        DType::F8E4M3Fnuz,
        DType::F8E5M2Fnuz,
        DType::F8E8M0Fnu,
        DType::F4E2M1Fn,
        DType::I4,
        DType::U4,
    ];

    /// Position in [`DType::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Size of one element in bytes.
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::U8 | DType::I8 => 1,
            DType::F8E4M3Fn
            | DType::F8E5M2
            | DType::F8E4M3Fnuz
            | DType::F8E5M2Fnuz
            | DType::F8E8M0Fnu
            | DType::F4E2M1Fn
            | DType::I4
            | DType::U4 => 1,
            DType::U16 | DType::I16 | DType::BF16 | DType::F16 => 2,
            DType::U32 | DType::I32 | DType::F32 => 4,
            DType::U64 | DType::I64 | DType::F64 | DType::C64 => 8,
            DType::C128 => 16,
        }
    }

    /// The dtype's category.
    pub const fn kind(self) -> Kind {
        match self {
            DType::Bool => Kind::Bool,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 | DType::U4 => Kind::UInt,
            DType::I8 | DType::I16 | DType::I32 | DType::I64 | DType::I4 => Kind::Int,
            DType::BF16 | DType::F16 | DType::F32 | DType::F64 => Kind::Float,
            DType::F8E4M3Fn
            | DType::F8E5M2
            | DType::F8E4M3Fnuz
            | DType::F8E5M2Fnuz
            | DType::F8E8M0Fnu
            | DType::F4E2M1Fn => Kind::Float,
            DType::C64 | DType::C128 => Kind::Complex,
        }
    }

    /// TensorFlow / NumPy name: `"float32"`, `"bfloat16"`, `"complex128"`.
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::U8 => "uint8",
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::BF16 => "bfloat16",
            DType::F16 => "float16",
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::C64 => "complex64",
            DType::C128 => "complex128",
            DType::F8E4M3Fn => "float8_e4m3fn",
            DType::F8E5M2 => "float8_e5m2",
            DType::F8E4M3Fnuz => "float8_e4m3fnuz",
            DType::F8E5M2Fnuz => "float8_e5m2fnuz",
            DType::F8E8M0Fnu => "float8_e8m0fnu",
            DType::F4E2M1Fn => "float4_e2m1fn",
            DType::I4 => "int4",
            DType::U4 => "uint4",
        }
    }

    /// Short name: `"f32"`, `"bf16"`, `"c128"`, `"b"` for bool, `"f8e4m3fn"`;
    /// `int4`/`uint4` keep their names (`i4`/`u4` are NumPy's int32/uint32).
    pub const fn short_name(self) -> &'static str {
        match self {
            DType::Bool => "b",
            DType::U8 => "u8",
            DType::U16 => "u16",
            DType::U32 => "u32",
            DType::U64 => "u64",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::BF16 => "bf16",
            DType::F16 => "f16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::C64 => "c64",
            DType::C128 => "c128",
            DType::F8E4M3Fn => "f8e4m3fn",
            DType::F8E5M2 => "f8e5m2",
            DType::F8E4M3Fnuz => "f8e4m3fnuz",
            DType::F8E5M2Fnuz => "f8e5m2fnuz",
            DType::F8E8M0Fnu => "f8e8m0fnu",
            DType::F4E2M1Fn => "f4e2m1fn",
            // "i4"/"u4" are NumPy's codes for int32/uint32
            DType::I4 => "int4",
            DType::U4 => "uint4",
        }
    }

    /// `true` for the eight storage-and-cast dtypes (`float8_*`, `float4_e2m1fn`,
    /// `int4`, `uint4`): they convert to and from every dtype and move through
    /// the shape and copy ops, but no arithmetic kernel takes them.
    pub const fn is_low_precision(self) -> bool {
        self as u8 >= DType::F8E4M3Fn as u8
    }

    /// `true` for bool.
    pub const fn is_bool(self) -> bool {
        matches!(self, DType::Bool)
    }

    /// `true` for signed and unsigned integers (not bool).
    pub const fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::UInt | Kind::Int)
    }

    /// `true` for unsigned integers.
    pub const fn is_unsigned(self) -> bool {
        matches!(self.kind(), Kind::UInt)
    }

    /// `true` for real floating-point dtypes.
    pub const fn is_float(self) -> bool {
        matches!(self.kind(), Kind::Float)
    }

    /// `true` for complex dtypes.
    pub const fn is_complex(self) -> bool {
        matches!(self.kind(), Kind::Complex)
    }

    /// `true` for real or complex floating point.
    pub const fn is_inexact(self) -> bool {
        matches!(self.kind(), Kind::Float | Kind::Complex)
    }

    /// The dtype of a real component: `complex64 → float32`, others unchanged.
    pub const fn real_dtype(self) -> DType {
        match self {
            DType::C64 => DType::F32,
            DType::C128 => DType::F64,
            d => d,
        }
    }

    /// Bits of value an integer or bool carries (sign bit excluded), or the
    /// significand bits of a float / complex component. SAFE mode's exactness
    /// test uses it: a conversion int → float is exact iff
    /// `int.value_bits() <= float.value_bits()`.
    pub const fn value_bits(self) -> u32 {
        match self {
            DType::Bool => 1,
            DType::U8 => 8,
            DType::U16 => 16,
            DType::U32 => 32,
            DType::U64 => 64,
            DType::I8 => 7,
            DType::I16 => 15,
            DType::I32 => 31,
            DType::I64 => 63,
            DType::BF16 => 8,
            DType::F16 => 11,
            DType::F32 | DType::C64 => 24,
            DType::F64 | DType::C128 => 53,
            DType::F8E4M3Fn | DType::F8E4M3Fnuz => 4,
            DType::F8E5M2 | DType::F8E5M2Fnuz => 3,
            DType::F8E8M0Fnu => 1,
            DType::F4E2M1Fn => 2,
            DType::I4 => 3,
            DType::U4 => 4,
        }
    }

    /// For real floats (and complex components): `(emax, emin)` with
    /// 2^emax ≤ the largest finite value < 2^(emax+1) and 2^emin the smallest
    /// positive value, so one float holds another's range iff its `emax` is
    /// not lower and its `emin` not higher. `None` for the rest.
    pub const fn exponent_range(self) -> Option<(i32, i32)> {
        Some(match self.real_dtype() {
            DType::BF16 => (127, -133),
            DType::F16 => (15, -24),
            DType::F32 => (127, -149),
            DType::F64 => (1023, -1074),
            DType::F8E4M3Fn => (8, -9),
            DType::F8E5M2 => (15, -16),
            DType::F8E4M3Fnuz => (7, -10),
            DType::F8E5M2Fnuz => (15, -17),
            DType::F8E8M0Fnu => (127, -127),
            DType::F4E2M1Fn => (2, -1),
            _ => return None,
        })
    }

    /// Integer limits for bool and integer dtypes, `None` otherwise.
    ///
    /// ```
    /// use lattensor::DType;
    /// assert_eq!(DType::I8.iinfo().unwrap().min, -128);
    /// assert_eq!(DType::U64.iinfo().unwrap().max, u64::MAX as i128);
    /// assert!(DType::F32.iinfo().is_none());
    /// ```
    pub const fn iinfo(self) -> Option<IInfo> {
        let (bits, min, max) = match self {
            DType::Bool => (8, 0, 1),
            DType::U8 => (8, 0, u8::MAX as i128),
            DType::U16 => (16, 0, u16::MAX as i128),
            DType::U32 => (32, 0, u32::MAX as i128),
            DType::U64 => (64, 0, u64::MAX as i128),
            DType::I8 => (8, i8::MIN as i128, i8::MAX as i128),
            DType::I16 => (16, i16::MIN as i128, i16::MAX as i128),
            DType::I32 => (32, i32::MIN as i128, i32::MAX as i128),
            DType::I64 => (64, i64::MIN as i128, i64::MAX as i128),
            DType::I4 => (4, -8, 7),
            DType::U4 => (4, 0, 15),
            _ => return None,
        };
        Some(IInfo { bits, min, max })
    }

    /// Floating-point limits for float and complex dtypes (per component), `None` otherwise.
    ///
    /// ```
    /// use lattensor::DType;
    /// let f = DType::F16.finfo().unwrap();
    /// assert_eq!(f.max, 65504.0);
    /// assert_eq!(f.eps, 2f64.powi(-10));
    /// assert_eq!(DType::BF16.finfo().unwrap().significand_bits, 8);
    /// ```
    pub fn finfo(self) -> Option<FInfo> {
        if let Some(f) = crate::core::lowp::format_of(self) {
            return Some(f.finfo());
        }
        // (total bits, significand bits incl. implicit, exponent bits)
        let (bits, p, e) = match self.real_dtype() {
            DType::BF16 => (16, 8, 8),
            DType::F16 => (16, 11, 5),
            DType::F32 => (32, 24, 8),
            DType::F64 => (64, 53, 11),
            _ => return None,
        };
        let emax = (1i32 << (e - 1)) - 1;
        let emin = 1 - emax;
        let eps = 2f64.powi(1 - p as i32);
        let max = (2.0 - eps) * 2f64.powi(emax);
        Some(FInfo {
            bits,
            significand_bits: p,
            exponent_bits: e,
            eps,
            max,
            min: -max,
            smallest_normal: 2f64.powi(emin),
            // two factors: 2^-1074 in one powi underflows at opt-level 0
            smallest_subnormal: 2f64.powi(emin) * 2f64.powi(1 - p as i32),
        })
    }

    /// TensorFlow's `DataType` enum value of a dtype (used in TF's error texts).
    pub const fn tf_enum(self) -> u32 {
        match self {
            DType::F32 => 1,
            DType::F64 => 2,
            DType::I32 => 3,
            DType::U8 => 4,
            DType::I16 => 5,
            DType::I8 => 6,
            DType::C64 => 8,
            DType::I64 => 9,
            DType::Bool => 10,
            DType::BF16 => 14,
            DType::U16 => 17,
            DType::C128 => 18,
            DType::F16 => 19,
            DType::U32 => 22,
            DType::U64 => 23,
            DType::F8E5M2 => 24,
            DType::F8E4M3Fn => 25,
            DType::F8E4M3Fnuz => 26,
            DType::F8E5M2Fnuz => 28,
            DType::I4 => 29,
            DType::U4 => 30,
            // TF has no DataType for these two: DT_INVALID
            DType::F8E8M0Fnu | DType::F4E2M1Fn => 0,
        }
    }

    /// The descr `np.save` writes for `dtype` (little-endian). NumPy writes an
    /// `ml_dtypes` array as raw bytes (`<V2` for bfloat16, `<V1` for the 1-byte
    /// types) except `float8_e5m2`, whose kind is `f` (`<f1`).
    pub const fn numpy_descr(self) -> &'static str {
        match self {
            DType::Bool => "|b1",
            DType::U8 => "|u1",
            DType::U16 => "<u2",
            DType::U32 => "<u4",
            DType::U64 => "<u8",
            DType::I8 => "|i1",
            DType::I16 => "<i2",
            DType::I32 => "<i4",
            DType::I64 => "<i8",
            DType::BF16 => "<V2",
            DType::F16 => "<f2",
            DType::F32 => "<f4",
            DType::F64 => "<f8",
            DType::C64 => "<c8",
            DType::C128 => "<c16",
            DType::F8E5M2 => "<f1",
            DType::F8E4M3Fn
            | DType::F8E4M3Fnuz
            | DType::F8E5M2Fnuz
            | DType::F8E8M0Fnu
            | DType::F4E2M1Fn
            | DType::I4
            | DType::U4 => "<V1",
        }
    }

    /// Parses a TF/NumPy name (`float32`, `bfloat16`, `half`, `double`, `bool_`),
    /// a short name (`f32`, `bf16`, `c128`, `b`), or a NumPy type string
    /// (`<f4`, `|u1`, `<c16`).
    ///
    /// # Errors
    /// [`Error::InvalidType`] for an unknown name (TF's `TypeError`), listing the accepted names.
    pub fn parse(name: &str) -> Result<DType> {
        let n = name.trim();
        let n = n.strip_prefix("tf.").or_else(|| n.strip_prefix("np.")).unwrap_or(n);
        let d = match n {
            "bool" | "b" | "bool_" | "?" | "|b1" | "b1" => DType::Bool,
            "uint8" | "u8" | "|u1" | "u1" | "<u1" => DType::U8,
            "uint16" | "u16" | "<u2" | "u2" => DType::U16,
            "uint32" | "u32" | "<u4" | "u4" => DType::U32,
            "uint64" | "u64" | "<u8" => DType::U64,
            "int8" | "i8" | "|i1" | "i1" | "<i1" => DType::I8,
            "int16" | "i16" | "<i2" | "i2" => DType::I16,
            "int32" | "i32" | "<i4" | "i4" => DType::I32,
            "int64" | "i64" | "<i8" => DType::I64,
            "bfloat16" | "bf16" => DType::BF16,
            "float16" | "f16" | "half" | "<f2" | "f2" => DType::F16,
            "float32" | "f32" | "float" | "single" | "<f4" | "f4" => DType::F32,
            "float64" | "f64" | "double" | "<f8" | "f8" => DType::F64,
            "complex64" | "c64" | "<c8" | "c8" => DType::C64,
            "complex128" | "c128" | "complex" | "<c16" | "c16" => DType::C128,
            "float8_e4m3fn" | "f8e4m3fn" => DType::F8E4M3Fn,
            "float8_e5m2" | "f8e5m2" | "<f1" | "f1" => DType::F8E5M2,
            "float8_e4m3fnuz" | "f8e4m3fnuz" => DType::F8E4M3Fnuz,
            "float8_e5m2fnuz" | "f8e5m2fnuz" => DType::F8E5M2Fnuz,
            "float8_e8m0fnu" | "f8e8m0fnu" => DType::F8E8M0Fnu,
            "float4_e2m1fn" | "f4e2m1fn" => DType::F4E2M1Fn,
            "int4" => DType::I4,
            "uint4" => DType::U4,
            // TF's `tf.as_dtype` refuses an unknown name with `TypeError`
            _ => {
                return Err(Error::InvalidType(format!(
                    "unknown dtype name {name:?}; expected one of {} (or a short name such as f32, bf16, c128)",
                    DType::ALL.map(|d| d.name()).join(", ")
                )));
            }
        };
        Ok(d)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for DType {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        DType::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::parse(d.name()).unwrap(), d);
            assert_eq!(DType::parse(d.short_name()).unwrap(), d);
            assert_eq!(d.to_string(), d.name());
        }
    }

    #[test]
    fn index_matches_table_order() {
        for (i, d) in DType::ALL.iter().enumerate() {
            assert_eq!(d.index(), i);
        }
    }

    #[test]
    fn unknown_name_is_an_error_listing_names() {
        let e = DType::parse("float8").unwrap_err().to_string();
        assert!(e.contains("float8_e4m3fn") && e.contains("uint4"), "{e}");
        assert!(e.contains("float8") && e.contains("bfloat16"), "{e}");
    }

    #[test]
    fn finfo_matches_rust_constants() {
        let f = DType::F32.finfo().unwrap();
        assert_eq!(f.eps, f32::EPSILON as f64);
        assert_eq!(f.max, f32::MAX as f64);
        assert_eq!(f.smallest_normal, f32::MIN_POSITIVE as f64);
        let d = DType::C128.finfo().unwrap();
        assert_eq!(d.max, f64::MAX);
        assert_eq!(d.smallest_subnormal, 5e-324);
        let b = DType::BF16.finfo().unwrap();
        assert_eq!(b.max, half::bf16::MAX.to_f64());
        assert_eq!(b.smallest_normal, half::bf16::MIN_POSITIVE.to_f64());
    }

    #[test]
    fn low_precision_metadata() {
        for d in DType::LOW_PRECISION {
            assert!(d.is_low_precision() && d.size() == 1, "{d}");
        }
        assert!(DType::CORE.iter().all(|d| !d.is_low_precision()));
        assert_eq!(DType::I4.iinfo().unwrap().min, -8);
        assert_eq!(DType::U4.iinfo().unwrap().max, 15);
        let f = DType::F8E4M3Fn.finfo().unwrap();
        assert_eq!(
            (f.max, f.eps, f.smallest_normal, f.smallest_subnormal),
            (448.0, 0.125, 2f64.powi(-6), 2f64.powi(-9))
        );
        let e = DType::F8E8M0Fnu.finfo().unwrap();
        assert_eq!((e.max, e.min, e.eps), (2f64.powi(127), 2f64.powi(-127), 1.0));
        assert_eq!(DType::F4E2M1Fn.finfo().unwrap().bits, 4);
        assert_eq!(DType::F8E5M2.numpy_descr(), "<f1");
    }
}
