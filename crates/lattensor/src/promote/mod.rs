//! Type promotion: which dtype (and weakness) an op computes in.
//!
//! Every op that combines operands asks this module first ("promote first,
//! dispatch once"). Four modes:
//!
//! | mode | rule |
//! |---|---|
//! | [`All`](PromotionMode::All) | the lattice join ([`join`]): TF's `dtype_conversion_mode="all"` |
//! | [`Safe`](PromotionMode::Safe) | the join, refused unless the result is one operand's dtype and no strong operand loses information (TF's `"safe"`) |
//! | [`Strict`](PromotionMode::Strict) | no implicit promotion between different strong dtypes; weak values still adapt to a strong type of a kind that holds them |
//! | [`NumPy`](PromotionMode::NumPy) | NumPy 2 / NEP 50: what TF's default `legacy` mode applies to operators |
//!
//! The mode is an argument ([`promote`], [`result_type_in`]) or a scoped,
//! thread-local default ([`with_mode`], [`ModeGuard`]); the default is `All`.
//! Code can run in one mode while a scoped comparison ([`with_comparison`],
//! [`migration_report`]) records every promotion another mode would change.
//!
//! ```
//! use lattensor::promote::{self, PromotionMode};
//! use lattensor::{DType, LatticeType};
//! let i32_ = LatticeType::strong(DType::I32);
//! let f32_ = LatticeType::strong(DType::F32);
//! assert_eq!(promote::promote(i32_, f32_, PromotionMode::All).unwrap(), f32_);
//! assert_eq!(promote::promote(i32_, f32_, PromotionMode::NumPy).unwrap(), LatticeType::strong(DType::F64));
//! let err = promote::with_mode(PromotionMode::Safe, || promote::result_type(&[i32_, f32_])).unwrap_err();
//! assert!(err.to_string().contains("(int32, weak=False) and (float32, weak=False)"));
//! ```

mod compare;
mod lattice;
mod nep50;

use std::cell::Cell;
use std::fmt;

pub use compare::{
    ComparisonGuard, Divergence, MigrationReport, Outcome, ReportRow, migration_report, unobserved, with_comparison,
};
pub use lattice::{COVERING_EDGES, LatticeType, NODES, WEAK_DTYPES, join, path};

use crate::DType;
use crate::core::dtype::Kind;
use crate::core::error::{Error, Result};

/// How implicit promotion behaves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum PromotionMode {
    /// TF's `all`: the lattice join, always allowed.
    #[default]
    All,
    /// TF's `safe`: the join, unless it loses information or widens to a new type.
    Safe,
    /// No implicit promotion between different strong dtypes.
    Strict,
    /// NumPy 2 (NEP 50) promotion, as TF's `legacy` mode applies to operators.
    NumPy,
}

impl PromotionMode {
    /// The four modes.
    pub const ALL_MODES: [PromotionMode; 4] =
        [PromotionMode::All, PromotionMode::Safe, PromotionMode::Strict, PromotionMode::NumPy];

    /// Parses `all`, `safe`, `strict`, `numpy` (or its alias `legacy`), any case.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for another name.
    pub fn parse(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => Ok(PromotionMode::All),
            "safe" => Ok(PromotionMode::Safe),
            "strict" | "off" => Ok(PromotionMode::Strict),
            "numpy" | "legacy" | "nep50" => Ok(PromotionMode::NumPy),
            _ => Err(Error::InvalidArgument(format!(
                "unknown promotion mode {s:?}; expected all, safe, strict or numpy"
            ))),
        }
    }
}

impl fmt::Display for PromotionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            PromotionMode::All => "ALL",
            PromotionMode::Safe => "SAFE",
            PromotionMode::Strict => "STRICT",
            PromotionMode::NumPy => "NUMPY",
        })
    }
}

impl std::str::FromStr for PromotionMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        PromotionMode::parse(s)
    }
}

thread_local! {
    static MODE: Cell<PromotionMode> = const { Cell::new(PromotionMode::All) };
}

/// The calling thread's current default mode (`All` unless set by [`with_mode`] or a [`ModeGuard`]).
pub fn current_mode() -> PromotionMode {
    MODE.with(Cell::get)
}

/// Runs `f` with `mode` as this thread's default, restoring the previous mode
/// afterwards (also if `f` panics).
pub fn with_mode<R>(mode: PromotionMode, f: impl FnOnce() -> R) -> R {
    let _guard = ModeGuard::new(mode);
    f()
}

/// Sets this thread's default mode until dropped, then restores the previous one.
///
/// ```
/// use lattensor::promote::{current_mode, ModeGuard, PromotionMode};
/// {
///     let _g = ModeGuard::new(PromotionMode::Safe);
///     assert_eq!(current_mode(), PromotionMode::Safe);
/// }
/// assert_eq!(current_mode(), PromotionMode::All);
/// ```
#[must_use = "the mode is restored when the guard is dropped"]
pub struct ModeGuard {
    previous: PromotionMode,
}

impl ModeGuard {
    /// Makes `mode` this thread's default until the guard is dropped.
    pub fn new(mode: PromotionMode) -> Self {
        ModeGuard { previous: MODE.with(|m| m.replace(mode)) }
    }
}

impl Drop for ModeGuard {
    fn drop(&mut self) {
        MODE.with(|m| m.set(self.previous));
    }
}

/// Whether every value of `from` converts to `to` exactly (the test behind SAFE mode's refusals).
///
/// Integer → integer needs range containment; integer → float/complex needs
/// at most as many value bits as the significand; bf16 and f16 sit below f32
/// but not below each other; real → complex goes by component; bool fits anything.
pub const fn converts_losslessly(from: DType, to: DType) -> bool {
    use Kind::*;
    if from as u8 == to as u8 {
        return true;
    }
    match (from.kind(), to.kind()) {
        (Bool, _) => true,
        // value bits: u8 has 8, i16 15, int4 3
        (UInt, UInt) | (Int, Int) | (UInt, Int) => from.value_bits() <= to.value_bits(),
        (UInt | Int, Float | Complex) => from.value_bits() <= to.value_bits(),
        (Float, Float | Complex) | (Complex, Complex) => {
            let (f, t) = (from.real_dtype(), to.real_dtype());
            match (f.exponent_range(), t.exponent_range()) {
                (Some((fmax, fmin)), Some((tmax, tmin))) => {
                    f as u8 == t as u8 || (t.value_bits() >= f.value_bits() && tmax >= fmax && tmin <= fmin)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Why SAFE refuses `operands` whose join is `result`, or `None` if it allows it.
fn safe_refusal(operands: &[LatticeType], result: LatticeType) -> Option<String> {
    if !operands.iter().any(|o| o.dtype == result.dtype) {
        return Some(format!(": the result {result} would be a new dtype, not one of the operands'"));
    }
    operands
        .iter()
        .find(|o| !o.weak && !converts_losslessly(o.dtype, result.dtype))
        .map(|o| format!(": {} does not convert to {} without loss", o.dtype, result.dtype))
}

/// Why STRICT refuses `operands` whose join is `result`, or `None`.
fn strict_refusal(operands: &[LatticeType], result: LatticeType) -> Option<String> {
    operands.iter().find(|o| !o.weak && o.dtype != result.dtype).map(|o| {
        if operands.iter().all(|x| !x.weak) {
            ": Strict mode never converts between different strong dtypes".to_string()
        } else {
            format!(": a weak value only adapts to a strong dtype of a kind that holds it, and {} does not", o.dtype)
        }
    })
}

/// Promotes two operands in `mode`.
///
/// # Errors
/// [`Error::Promotion`] when the mode refuses the pair; the message names both
/// operands with their weakness and says how to fix the call.
pub fn promote(a: LatticeType, b: LatticeType, mode: PromotionMode) -> Result<LatticeType> {
    promote_for("result_type", a, b, mode)
}

/// [`promote`] with the name of the op that asks, for the error message.
///
/// # Errors
/// As [`promote`].
pub fn promote_for(op: &str, a: LatticeType, b: LatticeType, mode: PromotionMode) -> Result<LatticeType> {
    result_type_for(op, &[a, b], mode)
}

/// The result type of any number of operands in this thread's current mode.
///
/// With no operands the result is `float32*`, as in TF.
///
/// # Errors
/// As [`promote`].
pub fn result_type(operands: &[LatticeType]) -> Result<LatticeType> {
    result_type_for("result_type", operands, current_mode())
}

/// The result type of any number of operands in `mode`.
///
/// The result never depends on the operands' order. In `Safe` mode this
/// deviates from TF, which checks a left fold pair by pair (so TF accepts
/// `(u8, i16, i8)` but refuses `(u8, i8, i16)`); lattensor checks the set:
/// the join must be one operand's dtype and every strong operand must
/// convert to it without loss.
///
/// # Errors
/// As [`promote`].
pub fn result_type_in(operands: &[LatticeType], mode: PromotionMode) -> Result<LatticeType> {
    result_type_for("result_type", operands, mode)
}

/// [`result_type_in`] with the name of the op that asks, for the error message.
///
/// # Errors
/// As [`promote`].
pub fn result_type_for(op: &str, operands: &[LatticeType], mode: PromotionMode) -> Result<LatticeType> {
    let outcome = decide(op, operands, mode);
    compare::observe(op, operands, mode, &outcome);
    outcome
}

/// The promotion itself: every mode's rule, with no observer.
fn decide(op: &str, operands: &[LatticeType], mode: PromotionMode) -> Result<LatticeType> {
    let Some((&first, rest)) = operands.split_first() else {
        return Ok(LatticeType { dtype: DType::F32, weak: true });
    };
    if mode == PromotionMode::NumPy {
        return Ok(nep50::result_type(operands));
    }
    let mut result = first;
    for &t in rest {
        match join(result, t) {
            Some(j) => result = j,
            None => return Err(no_join(op, mode, operands)),
        }
    }
    let refusal = match mode {
        PromotionMode::Safe => safe_refusal(operands, result),
        PromotionMode::Strict => strict_refusal(operands, result),
        _ => None,
    };
    match refusal {
        None => Ok(result),
        Some(reason) => {
            let (left, right) = offending_pair(operands, mode);
            Err(Error::Promotion { op: op.to_string(), mode, left, right, suggestion: result, reason })
        }
    }
}

/// The refusal of operands with no common upper bound (a low-precision dtype
/// with a dtype not below it): names the first such pair and suggests the
/// join of the operands with each low-precision dtype read as the dtype it
/// computes in (float32, int8, uint8), the explicit cast that works.
fn no_join(op: &str, mode: PromotionMode, operands: &[LatticeType]) -> Error {
    let (left, right) = operands
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| operands[i + 1..].iter().map(move |&b| (a, b)))
        .find(|&(a, b)| join(a, b).is_none())
        .unwrap_or((operands[0], operands[operands.len() - 1]));
    let widened = |t: LatticeType| match t.dtype {
        d if !d.is_low_precision() => t,
        DType::I4 => LatticeType::strong(DType::I8),
        DType::U4 => LatticeType::strong(DType::U8),
        _ => LatticeType::strong(DType::F32),
    };
    // every core node has a join with every other, so this fold always succeeds
    let suggestion = operands
        .iter()
        .map(|&t| widened(t))
        .try_fold(widened(operands[0]), join)
        .unwrap_or(LatticeType::strong(DType::F32));
    Error::Promotion {
        op: op.to_string(),
        mode,
        left,
        right,
        suggestion,
        reason: format!(
            ": {} and {} have no common dtype (low-precision dtypes only take weak values and the dtypes below them)",
            left.dtype, right.dtype
        ),
    }
}

/// The two operands to name in an error: the first pair the mode refuses
/// on its own, or else the first and last operands.
fn offending_pair(operands: &[LatticeType], mode: PromotionMode) -> (LatticeType, LatticeType) {
    for (i, &a) in operands.iter().enumerate() {
        for &b in &operands[i + 1..] {
            let Some(r) = join(a, b) else { return (a, b) };
            let refused = match mode {
                PromotionMode::Safe => safe_refusal(&[a, b], r).is_some(),
                PromotionMode::Strict => strict_refusal(&[a, b], r).is_some(),
                _ => false,
            };
            if refused {
                return (a, b);
            }
        }
    }
    (operands[0], operands[operands.len() - 1])
}

/// A human account of one promotion, for `lattensor promote` and docs.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The mode asked about.
    pub mode: PromotionMode,
    /// The operands.
    pub operands: Vec<LatticeType>,
    /// The lattice join (ALL's answer); `None` if the operands have no upper bound.
    pub join: Option<LatticeType>,
    /// Each operand's chain of covering edges up to the join.
    pub paths: Vec<Vec<LatticeType>>,
    /// The mode's result, or its refusal.
    pub outcome: Result<LatticeType>,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.operands.iter().map(|t| t.short_name()).collect();
        writeln!(f, "promote({}) in mode {}", names.join(", "), self.mode)?;
        match &self.outcome {
            Ok(t) => writeln!(f, "result: {t} ({})", if t.weak { "weak" } else { "strong" })?,
            Err(e) => writeln!(f, "refused: {e}")?,
        }
        if self.mode == PromotionMode::NumPy {
            return writeln!(f, "(NumPy mode follows NEP 50 promotion rules, not the lattice)");
        }
        match self.join {
            Some(j) => writeln!(f, "lattice join: {j}")?,
            None => writeln!(f, "lattice join: none (no dtype is above all operands)")?,
        }
        for p in self.paths.iter().filter(|p| !p.is_empty()) {
            let chain: Vec<String> = p.iter().map(|t| t.short_name()).collect();
            writeln!(f, "  {}", chain.join(" -> "))?;
        }
        Ok(())
    }
}

/// Explains the promotion of `operands` in `mode`: the result or the refusal,
/// and each operand's path through the lattice to the join.
pub fn explain(operands: &[LatticeType], mode: PromotionMode) -> Explanation {
    let join_all = match operands.split_first() {
        Some((&first, rest)) => rest.iter().try_fold(first, |acc, &t| join(acc, t)),
        None => Some(LatticeType { dtype: DType::F32, weak: true }),
    };
    Explanation {
        mode,
        operands: operands.to_vec(),
        join: join_all,
        paths: operands.iter().map(|&o| join_all.and_then(|j| path(o, j)).unwrap_or_default()).collect(),
        outcome: result_type_in(operands, mode),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> LatticeType {
        s.parse().unwrap()
    }

    #[test]
    fn safe_nary_is_order_independent() {
        let xs = [p("u8"), p("i8"), p("i16")];
        let r1 = result_type_in(&xs, PromotionMode::Safe).unwrap();
        let r2 = result_type_in(&[xs[1], xs[2], xs[0]], PromotionMode::Safe).unwrap();
        assert_eq!(r1, p("i16"));
        assert_eq!(r1, r2);
        let ys = [p("i32"), p("f32*"), p("f64")];
        assert_eq!(result_type_in(&ys, PromotionMode::Safe).unwrap(), p("f64"));
    }

    #[test]
    fn strict_lets_weak_values_adapt() {
        let m = PromotionMode::Strict;
        assert_eq!(promote(p("u8"), p("i32*"), m).unwrap(), p("u8"));
        assert_eq!(promote(p("f16"), p("f64*"), m).unwrap(), p("f16"));
        assert_eq!(promote(p("i32*"), p("f32*"), m).unwrap(), p("f32*"));
        assert!(promote(p("i32"), p("f32*"), m).is_err());
        assert!(promote(p("i32"), p("i64"), m).is_err());
        assert!(promote(p("b"), p("i32*"), m).is_err());
    }

    #[test]
    fn empty_operands_give_weak_f32() {
        assert_eq!(result_type_in(&[], PromotionMode::Safe).unwrap(), p("f32*"));
    }

    #[test]
    fn thread_local_mode_is_scoped() {
        assert_eq!(current_mode(), PromotionMode::All);
        with_mode(PromotionMode::Strict, || {
            assert_eq!(current_mode(), PromotionMode::Strict);
            std::thread::spawn(|| assert_eq!(current_mode(), PromotionMode::All)).join().unwrap();
        });
        assert_eq!(current_mode(), PromotionMode::All);
    }

    #[test]
    fn low_precision_pairs_without_join_are_refused_in_every_lattice_mode() {
        for mode in [PromotionMode::All, PromotionMode::Safe, PromotionMode::Strict] {
            let e = promote(p("f8e4m3fn"), p("bf16"), mode).unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains("(float8_e4m3fn, weak=False) and (bfloat16, weak=False)"), "{msg}");
            assert!(msg.contains("x.cast(DType::F32)") && msg.contains("no common dtype"), "{msg}");
        }
        let e = result_type_in(&[p("f32*"), p("int4"), p("i8")], PromotionMode::All).unwrap_err().to_string();
        // the suggestion is the join with int4 read as int8: int8 with a weak float is f64* in the lattice
        assert!(e.contains("(float32, weak=True) and (int4, weak=False)") && e.contains("DType::F64"), "{e}");
        let e = promote(p("int4"), p("u8"), PromotionMode::All).unwrap_err().to_string();
        assert!(e.contains("x.cast(DType::I16)"), "{e}");
        assert_eq!(promote(p("int4"), p("i32*"), PromotionMode::Strict).unwrap(), p("int4"));
        assert_eq!(promote(p("f8e5m2"), p("f32*"), PromotionMode::Safe).unwrap(), p("f8e5m2"));
        // an integer meets a float8 through the weak float; SAFE and STRICT refuse it
        assert_eq!(promote(p("i8"), p("f8e5m2"), PromotionMode::All).unwrap(), p("f8e5m2"));
        assert!(promote(p("i8"), p("f8e5m2"), PromotionMode::Safe).is_err());
        assert!(promote(p("i8"), p("f8e5m2"), PromotionMode::Strict).is_err());
        assert!(explain(&[p("f8e5m2"), p("f16")], PromotionMode::All).to_string().contains("lattice join: none"));
    }

    #[test]
    fn explanation_names_path_and_refusal() {
        let e = explain(&[p("i8"), p("u32")], PromotionMode::Safe).to_string();
        assert!(e.contains("i8 -> i16 -> i32 -> i64"), "{e}");
        assert!(e.contains("refused"), "{e}");
    }
}
