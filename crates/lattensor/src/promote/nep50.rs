//! NumPy 2 promotion (NEP 50), the rule TF's `legacy` mode applies to operators.
//!
//! NumPy's strong promotion is not a lattice (`u8` and `i8` have both `i16`
//! and `f16` as minimal upper bounds; NumPy picks by kind), so it is written
//! as the rule it is: same kind → the wider type; mixed signedness → a signed
//! type twice the unsigned width (or float64 past 64 bits); integer with
//! float → the float if it holds the integer exactly, else the smallest wider
//! float that does; real with complex → the complex of sufficient component.
//!
//! Weak values play NEP 50's Python scalars: a weak int adapts to any
//! non-bool dtype, a weak float to any float or complex, a weak complex to
//! any complex (or the complex of a float's precision); otherwise they take
//! NumPy's 64-bit defaults. Only all-weak operands give a weak result, with
//! the default dtype of their highest kind (`i64*`, `f64*`, `c128*`).
//!
//! One deliberate deviation, kept clean: `bfloat16` is a float with 8
//! significand bits here, so it promotes where ml_dtypes' `np.result_type`
//! raises (`bf16 + i16 → f32`, which is what `np.add` computes), and
//! `bf16 + python float → bf16` as for every other float (ml_dtypes gives
//! float64 from `np.result_type` and float32 from `np.add`).

use super::{LatticeType, converts_losslessly};
use crate::DType;
use crate::core::dtype::Kind;

/// NumPy's `promote_types` on two strong dtypes (with bfloat16 as above).
pub(crate) fn promote_types(a: DType, b: DType) -> DType {
    use Kind::*;
    if a == b {
        return a;
    }
    if a.is_low_precision() || b.is_low_precision() {
        return low_precision_promote_types(a, b);
    }
    let (ka, kb) = (a.kind(), b.kind());
    let rank = |k: Kind| match k {
        Bool => 0,
        UInt | Int => 1,
        Float => 2,
        Complex => 3,
    };
    // Order the pair so that `lo` has the lower kind.
    let (lo, hi) = if (rank(ka), a as u8) <= (rank(kb), b as u8) { (a, b) } else { (b, a) };
    match (lo.kind(), hi.kind()) {
        (Bool, _) => hi,
        (UInt, UInt) | (Int, Int) => {
            if lo.size() >= hi.size() {
                lo
            } else {
                hi
            }
        }
        (UInt, Int) | (Int, UInt) => {
            let (u, i) = if lo.is_unsigned() { (lo, hi) } else { (hi, lo) };
            if i.size() > u.size() {
                i
            } else {
                match u.size() {
                    1 => DType::I16,
                    2 => DType::I32,
                    4 => DType::I64,
                    _ => DType::F64,
                }
            }
        }
        (UInt | Int, Float | Complex) => {
            if lo.value_bits() <= hi.value_bits() {
                hi
            } else {
                // the smallest float/complex of the same kind that holds the integer
                let wide = if lo.value_bits() <= 24 { DType::F32 } else { DType::F64 };
                let wide = if hi.is_complex() { complex_of(wide) } else { wide };
                promote_types(wide, hi)
            }
        }
        (Float, Float) => {
            if converts_losslessly(lo, hi) {
                hi
            } else if converts_losslessly(hi, lo) {
                lo
            } else {
                DType::F32 // bf16 with f16: neither holds the other
            }
        }
        (Float, Complex) => {
            if converts_losslessly(lo, hi) {
                hi
            } else {
                DType::C128
            }
        }
        (Complex, Complex) => {
            if lo.size() >= hi.size() {
                lo
            } else {
                hi
            }
        }
        _ => unreachable_pair(lo, hi),
    }
}

// The kinds are ordered above, so every pair is covered; keep the compiler
// satisfied without a panic on a public path.
fn unreachable_pair(_lo: DType, hi: DType) -> DType {
    hi
}

/// `np.result_type` of two different dtypes, one of them low-precision, as
/// NumPy computes it from the casts `ml_dtypes` registers as safe (0.7,
/// `tests/data/ml_dtypes_promotion.json`): not NEP 50's kind rule, so written
/// as what it is.
///
/// * `int4`/`uint4` promote as 4-bit integers of their signedness (`int4 +
///   uint8 → int16`, `uint4 + int8 → int8`, `int4 + uint4 → int8`) and as
///   int8/uint8 with the core floats;
/// * a float8 or `float4_e2m1fn` with bool, uint8 or int8 stays itself (`ml_dtypes`
///   registers those casts as safe); with a wider integer it is float32 up to
///   16 bits, float64 beyond; with bfloat16 → bfloat16, float16 → float32, and
///   the wider floats and complex types → those;
/// * a 4-bit integer with a low-precision float stays the float when the
///   float's significand holds it, else float32; `float4_e2m1fn` with a float8
///   other than e8m0 is that float8; every other low-precision pair is float32.
fn low_precision_promote_types(a: DType, b: DType) -> DType {
    use Kind::*;
    let int4 = |d: DType| matches!(d, DType::I4 | DType::U4);
    let (lo, hi) = if a.is_low_precision() { (a, b) } else { (b, a) };
    if hi.is_bool() {
        return lo;
    }
    match (lo.kind(), hi.kind()) {
        // a 4-bit integer with a core integer: NEP 50's rule with 4-bit widths
        (Int | UInt, Int | UInt) if !hi.is_low_precision() => {
            // same signedness, or a signed type that holds the unsigned 4 bits
            let same = lo.is_unsigned() == hi.is_unsigned();
            if same || (hi.value_bits() >= lo.value_bits() && !hi.is_unsigned()) {
                hi
            } else if lo.is_unsigned() {
                DType::I8
            } else {
                match hi.size() {
                    1 => DType::I16,
                    2 => DType::I32,
                    4 => DType::I64,
                    _ => DType::F64,
                }
            }
        }
        (Int | UInt, Int | UInt) => DType::I8, // int4 with uint4
        (Int | UInt, _) if !hi.is_low_precision() => {
            promote_types(if lo == DType::I4 { DType::I8 } else { DType::U8 }, hi)
        }
        (Float, Int | UInt) if int4(hi) => low_precision_promote_types(hi, lo),
        (Int | UInt, Float) => {
            if lo.value_bits() <= hi.value_bits() && hi != DType::F8E8M0Fnu && hi != DType::F4E2M1Fn {
                hi
            } else {
                DType::F32
            }
        }
        (Float, Int | UInt) => match hi.size() {
            1 => lo,
            2 => DType::F32,
            _ => DType::F64,
        },
        (Float, Float) if hi.is_low_precision() => {
            let f4_with = |x: DType, y: DType| x == DType::F4E2M1Fn && y != DType::F8E8M0Fnu;
            if f4_with(lo, hi) {
                hi
            } else if f4_with(hi, lo) {
                lo
            } else {
                DType::F32
            }
        }
        (Float, Float) => match hi {
            DType::F16 => DType::F32,
            _ => hi,
        },
        _ => hi, // complex
    }
}

fn complex_of(d: DType) -> DType {
    if d.value_bits() <= 24 { DType::C64 } else { DType::C128 }
}

/// The kind a weak value stands for in NEP 50 (a Python int, float or complex).
fn weak_kind(t: LatticeType) -> Kind {
    t.dtype.kind()
}

fn weak_with_strong(kind: Kind, s: DType) -> DType {
    match kind {
        Kind::Int | Kind::UInt => {
            if s.is_bool() {
                DType::I64
            } else {
                s
            }
        }
        Kind::Float => {
            if s.is_inexact() {
                s
            } else {
                DType::F64
            }
        }
        Kind::Complex => match s.kind() {
            Kind::Complex => s,
            Kind::Float => complex_of(s),
            _ => DType::C128,
        },
        Kind::Bool => s,
    }
}

fn default_of(kind: Kind) -> DType {
    match kind {
        Kind::Bool => DType::Bool,
        Kind::Int | Kind::UInt => DType::I64,
        Kind::Float => DType::F64,
        Kind::Complex => DType::C128,
    }
}

fn kind_rank(k: Kind) -> u8 {
    match k {
        Kind::Bool => 0,
        Kind::UInt | Kind::Int => 1,
        Kind::Float => 2,
        Kind::Complex => 3,
    }
}

/// NEP 50 result type of any operands; order-independent.
///
/// `promote_types` is not associative (`(u16 ⊔ i8) ⊔ f16 = f64` but
/// `(u16 ⊔ f16) ⊔ i8 = f32`), so the strong dtypes are folded in a fixed
/// order: highest kind first (complex, float, integer, bool), then table
/// order. This reproduces `np.result_type` for every combination of 2–5
/// builtin dtypes (11613 checked against NumPy 2.4), e.g. `(u16, i8, f16) → f32`.
pub(crate) fn result_type(operands: &[LatticeType]) -> LatticeType {
    let mut strong_dtypes: Vec<DType> = operands.iter().filter(|t| !t.weak).map(|t| t.dtype).collect();
    strong_dtypes.sort_by_key(|&d| (std::cmp::Reverse(kind_rank(d.kind())), d as u8));
    let strong = strong_dtypes.into_iter().reduce(promote_types);
    let weak = operands.iter().filter(|t| t.weak).map(|&t| weak_kind(t)).max_by_key(|&k| kind_rank(k));
    match (strong, weak) {
        (Some(s), None) => LatticeType::strong(s),
        (Some(s), Some(k)) => LatticeType::strong(weak_with_strong(k, s)),
        (None, Some(k)) => LatticeType::weak_or_strong(default_of(k), true),
        (None, None) => LatticeType { dtype: DType::F32, weak: true },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_from_report() {
        assert_eq!(promote_types(DType::I32, DType::F32), DType::F64);
        assert_eq!(promote_types(DType::I16, DType::F16), DType::F32);
        assert_eq!(promote_types(DType::U32, DType::C64), DType::C128);
        assert_eq!(promote_types(DType::U64, DType::I64), DType::F64);
        assert_eq!(promote_types(DType::U8, DType::I8), DType::I16);
        assert_eq!(promote_types(DType::BF16, DType::F16), DType::F32);
        assert_eq!(promote_types(DType::I8, DType::BF16), DType::BF16);
        assert_eq!(promote_types(DType::F64, DType::C64), DType::C128);
    }

    #[test]
    fn nary_is_order_independent_like_np_result_type() {
        let s = LatticeType::strong;
        let (u16_, i8_, f16_) = (s(DType::U16), s(DType::I8), s(DType::F16));
        for xs in [[u16_, i8_, f16_], [i8_, u16_, f16_], [f16_, i8_, u16_]] {
            assert_eq!(result_type(&xs), s(DType::F32), "{xs:?}");
        }
        assert_eq!(result_type(&[s(DType::U8), s(DType::I8), s(DType::F16)]), s(DType::F16));
    }
}
