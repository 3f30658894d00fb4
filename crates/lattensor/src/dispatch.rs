//! Dtype dispatch: from a runtime [`DType`] to monomorphic generic code, in one place.
//!
//! Every op promotes its operands first (see [`crate::promote`]) and then
//! dispatches once, on the result dtype, to a generic loop instantiated for
//! that dtype's Rust types. This module holds every way of doing that:
//!
//! * **Macros** that bind a type alias to a dtype's element type and expand a
//!   body once per dtype of a fixed list, with an `other`/`else` branch for the
//!   rest:
//!
//!   | macro                   | dtypes                                 | binds                        |
//!   |-------------------------|----------------------------------------|------------------------------|
//!   | [`dispatch_dtype!`]     | any list                               | `$T`                         |
//!   | [`with_dtype!`]         | all 23                                 | `$T`                         |
//!   | [`with_lowp_dtype!`]    | the 8 low-precision storage dtypes     | `$T`                         |
//!   | [`with_numeric_dtype!`] | all but bool                           | `$T`                         |
//!   | [`with_native_dtype!`]  | all but bool, bfloat16, float16        | `$T`                         |
//!   | [`with_ordered_dtype!`] | bool, integers, real floats            | `$T`                         |
//!   | [`with_int_dtype!`]     | the 8 integers                         | `$T`                         |
//!   | [`with_inexact_dtype!`] | real floats and complex                | `$T`                         |
//!   | [`with_complex_dtype!`] | complex64, complex128                  | `$R`, the component type     |
//!   | [`with_half_dtype!`]    | bfloat16, float16                      | `$S` (computes in f32)       |
//!   | [`with_f32_dtype!`]     | bfloat16, float16, float32             | `$S` (computes in f32)       |
//!   | [`with_float_dtype!`]   | the 4 real floats                      | `$C` compute, `$S` storage   |
//!   | [`with_float_compute!`] | the 4 real floats, one body per `$C`   | `$C` compute                 |
//!   | [`with_order_compute!`] | all 21 ordered dtypes (not complex)    | `$S` storage, `$C` compute   |
//!   | [`with_decomp_dtype!`]  | float32, float64, complex64/128        | `$T` (bf16/f16 come as f32)  |
//!
//! * **Element classes**: [`Compute`] (the types real floats compute in) and
//!   [`FloatStorage`] (the types they are stored as). The op traits built on
//!   them, `ops::map::{Map1, Map2}` in the manner of candle's `Map1`/`Map2`,
//!   do the one `match` over an op's dtype and run the element-wise kernel;
//!   they sit with the ops because they drive the kernels.
//!
//! **The half-precision rule**, stated once here: `bfloat16` and `float16`
//! compute in `float32` ([`HalfCompute`]) and round once to their storage type
//! at the end. `float32` computes in itself and `float64` in itself. The
//! macros [`with_half_dtype!`], [`with_f32_dtype!`], [`with_float_dtype!`] and
//! [`with_float_compute!`] and the op traits follow it; an op that needs
//! another rule (the special functions compute in `float64`) says so in its
//! `Map1::real`.
//!
//! A dtype outside an op's list gives [`Error::UnsupportedDType`] naming the
//! op and the dtypes it takes ([`unsupported`]).
//!
//! Each macro expands its body once per listed dtype, so each generic body is
//! instantiated once per (op, dtype); a macro whose list shares one body
//! between dtypes ([`with_float_compute!`]: bfloat16, float16 and float32
//! all read as f32) instantiates it once for them.

use num_traits::Float;

use crate::DType;
use crate::core::element::Element;
use crate::core::error::Error;

/// The type `bfloat16` and `float16` compute in; results round once to 16 bits.
pub(crate) type HalfCompute = f32;

/// The dtype an op whose result is `d` computes in: `d`, except that bfloat16
/// and float16 compute in float32 ([`HalfCompute`]) and round once at the end.
pub(crate) fn compute_dtype(d: DType) -> DType {
    match d {
        DType::BF16 | DType::F16 => DType::F32,
        d => d,
    }
}

/// The dtypes of [`with_float_dtype!`], for [`Error::UnsupportedDType`].
pub(crate) const REAL_FLOATS: &str = "bfloat16, float16, float32, float64";
/// The dtypes of [`with_inexact_dtype!`], for [`Error::UnsupportedDType`].
pub(crate) const INEXACT: &str = "bfloat16, float16, float32, float64, complex64, complex128";
/// The dtypes of [`with_int_dtype!`], for [`Error::UnsupportedDType`].
pub(crate) const INTEGERS: &str = "int8, int16, int32, int64, uint8, uint16, uint32, uint64";

/// The error for a dtype an op does not take: the op's name and the dtypes it does.
pub(crate) fn unsupported(op: &str, dtype: DType, supported: &str) -> Error {
    Error::UnsupportedDType { op: op.to_string(), dtype, supported: supported.to_string() }
}

/// Runs `$body` with `$T` bound to the Rust element type of `$dtype` for the
/// listed variants, and evaluates `$other` for the rest; the base of the
/// `with_*` macros, which are this with fixed lists.
#[macro_export]
#[doc(hidden)]
macro_rules! dispatch_dtype {
    ($dtype:expr, $T:ident, $body:expr, [$($v:ident => $t:ty),* $(,)?], else => $other:expr) => {{
        #[allow(unreachable_patterns)]
        match $dtype {
            $($crate::DType::$v => {
                type $T = $t;
                $body
            })*
            _ => $other,
        }
    }};
}

/// Runs `$body` with `$T` bound to the Rust element type of `$dtype` (all 23).
///
/// The bodies that run for every dtype only move and convert elements
/// (copies, casts, gathers, display), so the eight low-precision storage
/// dtypes are here and in no compute macro: arithmetic refuses them with
/// [`Error::UnsupportedDType`], which names the cast to write.
#[macro_export]
#[doc(hidden)]
macro_rules! with_dtype {
    ($dtype:expr, $T:ident, $body:expr) => {
        // every variant is listed, so the last `else` arm can never run
        $crate::with_numeric_dtype!($dtype, $T, $body, bool => $crate::with_lowp_dtype!($dtype, $T, $body,
            other => {
                type $T = bool;
                $body
            }))
    };
}

/// Runs `$body` for the eight low-precision storage dtypes (`float8_*`,
/// `float4_e2m1fn`, `int4`, `uint4`) with `$T` bound to their element type;
/// `$other` for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_lowp_dtype {
    ($dtype:expr, $T:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            F8E4M3Fn => $crate::F8E4M3Fn, F8E5M2 => $crate::F8E5M2, F8E4M3Fnuz => $crate::F8E4M3Fnuz,
            F8E5M2Fnuz => $crate::F8E5M2Fnuz, F8E8M0Fnu => $crate::F8E8M0Fnu, F4E2M1Fn => $crate::F4E2M1Fn,
            I4 => $crate::I4, U4 => $crate::U4,
        ], else => $other)
    };
}

/// Like [`with_dtype!`] for the 14 core numeric dtypes; `$bool` is evaluated
/// for bool and for the eight low-precision storage dtypes (which have no
/// kernels: a `$bool` arm that refuses must name the actual dtype).
#[macro_export]
#[doc(hidden)]
macro_rules! with_numeric_dtype {
    ($dtype:expr, $T:ident, $body:expr, bool => $bool:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
            BF16 => ::half::bf16, F16 => ::half::f16, F32 => f32, F64 => f64,
            C64 => ::num_complex::Complex32, C128 => ::num_complex::Complex64,
        ], else => $bool)
    };
}

/// Like [`with_dtype!`] for the numeric dtypes that compute in their own type:
/// all but bool, bfloat16 and float16 (see [`with_half_dtype!`]); `$other` for those.
#[macro_export]
#[doc(hidden)]
macro_rules! with_native_dtype {
    ($dtype:expr, $T:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
            F32 => f32, F64 => f64, C64 => ::num_complex::Complex32, C128 => ::num_complex::Complex64,
        ], else => $other)
    };
}

/// Like [`with_dtype!`] for the 13 ordered dtypes (bool, integers, real floats,
/// each in its own storage type); `$complex` is evaluated for complex64/complex128.
#[macro_export]
#[doc(hidden)]
macro_rules! with_ordered_dtype {
    ($dtype:expr, $T:ident, $body:expr, complex => $complex:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            Bool => bool,
            U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
            BF16 => ::half::bf16, F16 => ::half::f16, F32 => f32, F64 => f64,
        ], else => $complex)
    };
}

/// Like [`with_dtype!`] for the 8 integer dtypes; `$other` is evaluated for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_int_dtype {
    ($dtype:expr, $T:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            U8 => u8, U16 => u16, U32 => u32, U64 => u64, I8 => i8, I16 => i16, I32 => i32, I64 => i64,
        ], else => $other)
    };
}

/// Like [`with_dtype!`] for the six inexact dtypes; `$other` is evaluated for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_inexact_dtype {
    ($dtype:expr, $T:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            BF16 => ::half::bf16, F16 => ::half::f16, F32 => f32, F64 => f64,
            C64 => ::num_complex::Complex32, C128 => ::num_complex::Complex64,
        ], else => $other)
    };
}

/// Runs `$body` for complex64/complex128 with `$R` bound to the component type
/// (`f32`, `f64`; the element type is `Complex<$R>`); `$other` for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_complex_dtype {
    ($dtype:expr, $R:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $R, $body, [C64 => f32, C128 => f64], else => $other)
    };
}

/// Runs `$body` for bfloat16/float16 with `$S` bound to the storage type; both
/// compute in [`HalfCompute`] (f32) and round once. `$other` for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_half_dtype {
    ($dtype:expr, $S:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $S, $body, [BF16 => ::half::bf16, F16 => ::half::f16], else => $other)
    };
}

/// Runs `$body` for the dtypes that compute in f32 (bfloat16, float16 and
/// float32) with `$S` bound to the storage type; `$other` for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_f32_dtype {
    ($dtype:expr, $S:ident, $body:expr, other => $other:expr) => {
        $crate::with_half_dtype!($dtype, $S, $body, other => $crate::dispatch_dtype!($dtype, $S, $body,
            [F32 => f32], else => $other))
    };
}

/// Runs `$body` for the four real floats with `$C` bound to the compute type
/// and `$S` to the storage type: (f32, bf16), (f32, f16), (f32, f32), (f64, f64).
/// `$other` for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_float_dtype {
    ($dtype:expr, $C:ident, $S:ident, $body:expr, other => $other:expr) => {
        $crate::with_f32_dtype!($dtype, $S, {
            #[allow(dead_code)]
            type $C = f32;
            $body
        }, other => $crate::dispatch_dtype!($dtype, $S, {
            #[allow(dead_code)]
            type $C = f64;
            $body
        }, [F64 => f64], else => $other))
    };
}

/// Runs `$body` once per compute type of the real floats, with `$C` bound to it:
/// bfloat16, float16 and float32 share the f32 body (read as f32, exactly),
/// float64 has its own. For bodies that only read, such as predicates;
/// `$other` for the rest.
#[macro_export]
#[doc(hidden)]
macro_rules! with_float_compute {
    ($dtype:expr, $C:ident, $body:expr, other => $other:expr) => {{
        #[allow(unreachable_patterns)]
        match $dtype {
            $crate::DType::BF16 | $crate::DType::F16 | $crate::DType::F32 => {
                type $C = f32;
                $body
            }
            $crate::DType::F64 => {
                type $C = f64;
                $body
            }
            _ => $other,
        }
    }};
}

/// Runs `$body` for the 21 ordered dtypes (all but complex) with `$S` bound to
/// the storage type and `$C` to the type their order is computed in, exactly:
/// the integers, float32 and float64 in their own type; bfloat16, float16 and
/// the float8/float4 dtypes in f32; bool, int4 and uint4 in i64. `$other` for
/// complex64/complex128. For comparisons (max, min, argmax, argmin), whose
/// results are input values or indices, so no rounding rule applies.
#[macro_export]
#[doc(hidden)]
macro_rules! with_order_compute {
    ($dtype:expr, $S:ident, $C:ident, $body:expr, other => $other:expr) => {
        $crate::with_order_compute!(@pairs $dtype, $S, $C, $body, $other, [
            Bool => bool as i64, I4 => $crate::I4 as i64, U4 => $crate::U4 as i64,
            U8 => u8 as u8, U16 => u16 as u16, U32 => u32 as u32, U64 => u64 as u64,
            I8 => i8 as i8, I16 => i16 as i16, I32 => i32 as i32, I64 => i64 as i64,
            BF16 => ::half::bf16 as f32, F16 => ::half::f16 as f32, F32 => f32 as f32, F64 => f64 as f64,
            F8E4M3Fn => $crate::F8E4M3Fn as f32, F8E5M2 => $crate::F8E5M2 as f32,
            F8E4M3Fnuz => $crate::F8E4M3Fnuz as f32, F8E5M2Fnuz => $crate::F8E5M2Fnuz as f32,
            F8E8M0Fnu => $crate::F8E8M0Fnu as f32, F4E2M1Fn => $crate::F4E2M1Fn as f32,
        ])
    };
    (@pairs $dtype:expr, $S:ident, $C:ident, $body:expr, $other:expr,
        [$($v:ident => $s:ty as $c:ty),* $(,)?]) => {{
        #[allow(unreachable_patterns)]
        match $dtype {
            $($crate::DType::$v => {
                #[allow(dead_code)]
                type $S = $s;
                #[allow(dead_code)]
                type $C = $c;
                $body
            })*
            _ => $other,
        }
    }};
}

/// Runs `$body` for the dtypes the matrix decompositions and FFTs compute in
/// natively (float32, float64, complex64, complex128) with `$T` bound to the
/// element type; `$other` for the rest. bfloat16 and float16 reach it as
/// float32 ([`compute_dtype`]) and round back once at the end.
#[macro_export]
#[doc(hidden)]
macro_rules! with_decomp_dtype {
    ($dtype:expr, $T:ident, $body:expr, other => $other:expr) => {
        $crate::dispatch_dtype!($dtype, $T, $body, [
            F32 => f32, F64 => f64, C64 => ::num_complex::Complex32, C128 => ::num_complex::Complex64,
        ], else => $other)
    };
}

/// The types real floats compute in: f32 (for bfloat16, float16 and float32) and f64.
pub(crate) trait Compute: Float + Element {
    /// `f32f(self)` if `Self` is f32, `f64f(self)` if it is f64: for ops given
    /// as one function per compute type.
    fn either(self, f32f: &impl Fn(f32) -> f32, f64f: &impl Fn(f64) -> f64) -> Self;
}

impl Compute for f32 {
    #[inline(always)]
    fn either(self, f32f: &impl Fn(f32) -> f32, _: &impl Fn(f64) -> f64) -> f32 {
        f32f(self)
    }
}

impl Compute for f64 {
    #[inline(always)]
    fn either(self, _: &impl Fn(f32) -> f32, f64f: &impl Fn(f64) -> f64) -> f64 {
        f64f(self)
    }
}

/// The storage types of the real floats: bf16, f16, f32 and f64.
pub(crate) trait FloatStorage: Element {
    /// `x` rounded once to this type (to nearest, ties to even).
    fn round_f64(x: f64) -> Self;
}

impl FloatStorage for half::bf16 {
    #[inline(always)]
    fn round_f64(x: f64) -> Self {
        half::bf16::from_f64(x)
    }
}

impl FloatStorage for half::f16 {
    #[inline(always)]
    fn round_f64(x: f64) -> Self {
        half::f16::from_f64(x)
    }
}

impl FloatStorage for f32 {
    #[inline(always)]
    fn round_f64(x: f64) -> Self {
        x as f32
    }
}

impl FloatStorage for f64 {
    #[inline(always)]
    fn round_f64(x: f64) -> Self {
        x
    }
}

#[cfg(test)]
mod tests {
    use std::any::TypeId;

    use half::{bf16, f16};
    use num_complex::{Complex, Complex32, Complex64};

    use super::*;

    fn id<T: 'static>() -> TypeId {
        TypeId::of::<T>()
    }

    #[test]
    fn each_dtype_reaches_its_element_type() {
        for d in DType::ALL {
            let (t, size) = crate::with_dtype!(d, T, (id::<T>(), std::mem::size_of::<T>()));
            assert_eq!(size, d.size(), "{d}");
            let want = crate::with_dtype!(d, T, <T as Element>::DTYPE);
            assert_eq!(want, d);
            let _ = t;
        }
        assert_eq!(crate::with_numeric_dtype!(DType::Bool, T, id::<T>(), bool => id::<()>()), id::<()>());
        assert_eq!(crate::with_ordered_dtype!(DType::C64, T, id::<T>(), complex => id::<()>()), id::<()>());
        assert_eq!(crate::with_ordered_dtype!(DType::BF16, T, id::<T>(), complex => id::<()>()), id::<bf16>());
        assert_eq!(crate::with_int_dtype!(DType::I16, T, id::<T>(), other => id::<()>()), id::<i16>());
        assert_eq!(crate::with_int_dtype!(DType::F16, T, id::<T>(), other => id::<()>()), id::<()>());
        assert_eq!(crate::with_inexact_dtype!(DType::C128, T, id::<T>(), other => id::<()>()), id::<Complex64>());
        assert_eq!(
            crate::with_complex_dtype!(DType::C64, R, id::<Complex<R>>(), other => id::<()>()),
            id::<Complex32>()
        );
    }

    #[test]
    fn half_precision_computes_in_f32() {
        let pair = |d: DType| crate::with_float_dtype!(d, C, S, Some((id::<C>(), id::<S>())), other => None);
        assert_eq!(pair(DType::BF16), Some((id::<f32>(), id::<bf16>())));
        assert_eq!(pair(DType::F16), Some((id::<f32>(), id::<f16>())));
        assert_eq!(pair(DType::F32), Some((id::<f32>(), id::<f32>())));
        assert_eq!(pair(DType::F64), Some((id::<f64>(), id::<f64>())));
        for d in DType::ALL.into_iter().filter(|d| !d.is_float()) {
            assert_eq!(pair(d), None, "{d}");
        }
        assert_eq!(id::<HalfCompute>(), id::<f32>());
        let compute = |d: DType| crate::with_float_compute!(d, C, Some(id::<C>()), other => None);
        assert_eq!(compute(DType::BF16), Some(id::<f32>()));
        assert_eq!(compute(DType::F16), Some(id::<f32>()));
        assert_eq!(compute(DType::F64), Some(id::<f64>()));
        assert_eq!(compute(DType::C64), None);
        let halves = |d: DType| crate::with_half_dtype!(d, S, Some(id::<S>()), other => None);
        assert_eq!((halves(DType::BF16), halves(DType::F32)), (Some(id::<bf16>()), None));
        let single = |d: DType| crate::with_f32_dtype!(d, S, Some(id::<S>()), other => None);
        assert_eq!((single(DType::F32), single(DType::F64)), (Some(id::<f32>()), None));
    }
}
