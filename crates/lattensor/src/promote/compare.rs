//! Migration reports: run code in one promotion mode while recording every
//! promotion whose outcome another mode would change.
//!
//! A comparison is a scoped, thread-local observer ([`with_comparison`],
//! [`ComparisonGuard`]). While one is active, each promotion an op asks for is
//! also decided in the comparison mode; when the two outcomes differ (another
//! dtype, another weakness, or one mode refuses), the observer is called with a
//! [`Divergence`]. The op itself always gets the first mode's outcome: the
//! comparison only observes. With no comparison active the cost is one
//! thread-local flag read per promotion.
//!
//! [`migration_report`] runs a closure under a mode and collects what changes
//! into a [`MigrationReport`], grouped by site and op:
//!
//! ```
//! use lattensor::promote::{PromotionMode, migration_report};
//! use lattensor::{DType, Tensor};
//! let a = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
//! let b = Tensor::from_vec(vec![0.5f32, 0.25], &[2]).unwrap();
//! let (sum, report) = migration_report(PromotionMode::All, PromotionMode::NumPy, || &a + &b);
//! assert_eq!(sum.unwrap().dtype(), DType::F32); // the result is ALL's
//! let row = &report.rows()[0];
//! assert_eq!((row.op.as_str(), row.outcome.to_string(), row.other.to_string()), ("add", "float32".into(), "float64".into()));
//! ```

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use super::{LatticeType, PromotionMode};
use crate::core::error::Result;

/// What a mode makes of one promotion: a result type, or a refusal.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The result type (dtype and weakness).
    Type(LatticeType),
    /// The mode refuses the operands; the error message.
    Refused(String),
}

impl Outcome {
    fn of(r: &Result<LatticeType>) -> Self {
        match r {
            Ok(t) => Outcome::Type(*t),
            Err(e) => Outcome::Refused(e.to_string()),
        }
    }

    /// Whether two outcomes mean the same for a program: the same type, or both a refusal.
    fn same_as(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Type(a), Outcome::Type(b)) => a == b,
            (Outcome::Refused(_), Outcome::Refused(_)) => true,
            _ => false,
        }
    }
}

impl fmt::Display for Outcome {
    /// `float32`, `float32*` (weak) or `refused`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Type(t) => fmt::Display::fmt(t, f),
            Outcome::Refused(_) => f.pad("refused"),
        }
    }
}

/// One promotion whose outcome differs between the running mode and the compared one.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// The op that asked for the promotion.
    pub op: String,
    /// Its operands' types, with weakness.
    pub operands: Vec<LatticeType>,
    /// The mode the code runs in.
    pub mode: PromotionMode,
    /// That mode's outcome, which the op used.
    pub outcome: Outcome,
    /// The mode compared with.
    pub other_mode: PromotionMode,
    /// What the compared mode would have given.
    pub other: Outcome,
}

type Observer = Box<dyn FnMut(&Divergence)>;

struct Scope {
    other: PromotionMode,
    /// `None` while the observer runs, so ops it calls are not observed.
    observer: Option<Observer>,
}

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static SCOPES: RefCell<Vec<Scope>> = const { RefCell::new(Vec::new()) };
}

/// Called by every promotion with the running mode's outcome.
#[inline]
pub(super) fn observe(op: &str, operands: &[LatticeType], mode: PromotionMode, outcome: &Result<LatticeType>) {
    if ACTIVE.with(Cell::get) {
        observe_active(op, operands, mode, outcome);
    }
}

#[cold]
#[inline(never)]
fn observe_active(op: &str, operands: &[LatticeType], mode: PromotionMode, outcome: &Result<LatticeType>) {
    // Take the innermost observer out while it runs: ops it calls are not observed.
    let Some((other, mut observer)) = SCOPES.with(|s| {
        let mut s = s.borrow_mut();
        let scope = s.last_mut()?;
        Some((scope.other, scope.observer.take()?))
    }) else {
        return;
    };
    if other != mode {
        let first = Outcome::of(outcome);
        let second = Outcome::of(&super::decide(op, operands, other));
        if !first.same_as(&second) {
            let d = Divergence {
                op: op.to_string(),
                operands: operands.to_vec(),
                mode,
                outcome: first,
                other_mode: other,
                other: second,
            };
            observer(&d);
        }
    }
    SCOPES.with(|s| {
        if let Some(scope) = s.borrow_mut().last_mut() {
            scope.observer = Some(observer);
        }
    });
}

/// Compares every promotion on this thread with `other` mode until dropped,
/// calling `on_divergence` for each one whose outcome differs.
///
/// Comparisons nest: the innermost one observes. Ops run inside the observer
/// are not observed.
#[must_use = "the comparison ends when the guard is dropped"]
pub struct ComparisonGuard {
    // Thread-local state: the guard must be dropped on the thread that made it.
    _not_send: PhantomData<*const ()>,
}

impl ComparisonGuard {
    /// Starts comparing with `other`.
    pub fn new(other: PromotionMode, on_divergence: impl FnMut(&Divergence) + 'static) -> Self {
        SCOPES.with(|s| s.borrow_mut().push(Scope { other, observer: Some(Box::new(on_divergence)) }));
        ACTIVE.with(|a| a.set(true));
        ComparisonGuard { _not_send: PhantomData }
    }
}

impl Drop for ComparisonGuard {
    fn drop(&mut self) {
        let empty = SCOPES.with(|s| {
            let mut s = s.borrow_mut();
            s.pop();
            s.is_empty()
        });
        ACTIVE.with(|a| a.set(!empty));
    }
}

/// Runs `f`, calling `on_divergence` for every promotion whose outcome `other` would change.
///
/// ```
/// use std::{cell::RefCell, rc::Rc};
/// use lattensor::promote::{PromotionMode, with_comparison, with_mode};
/// use lattensor::Tensor;
/// let seen = Rc::new(RefCell::new(vec![]));
/// let log = seen.clone();
/// let x = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
/// let y = Tensor::from_vec(vec![1u8, 2], &[2]).unwrap();
/// with_mode(PromotionMode::All, || {
///     with_comparison(PromotionMode::Safe, move |d| log.borrow_mut().push(d.other.to_string()), || {
///         (&x + &y).unwrap(); // i64 ⊔ u8 = i64 in both modes: not reported
///         (&x + &Tensor::scalar(1.5f32)).unwrap(); // SAFE refuses i64 ⊔ f32
///     })
/// });
/// assert_eq!(*seen.borrow(), vec!["refused".to_string()]);
/// ```
pub fn with_comparison<R>(
    other: PromotionMode,
    on_divergence: impl FnMut(&Divergence) + 'static,
    f: impl FnOnce() -> R,
) -> R {
    let _guard = ComparisonGuard::new(other, on_divergence);
    f()
}

/// Runs `f` with no comparison observing it: for promotions that are not an
/// op's result, such as inferring a literal list's type before an explicit
/// dtype replaces it.
pub fn unobserved<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ACTIVE.with(|a| a.set(self.0));
        }
    }
    let _restore = Restore(ACTIVE.with(|a| a.replace(false)));
    f()
}

/// One row of a [`MigrationReport`]: a distinct (site, op, operands, outcomes) and how often it happened.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReportRow {
    /// Where the op was called from (a source line), when the front end knows it.
    pub site: Option<String>,
    /// The op.
    pub op: String,
    /// The operands' types.
    pub operands: Vec<LatticeType>,
    /// The running mode's outcome.
    pub outcome: Outcome,
    /// The compared mode's outcome.
    pub other: Outcome,
    /// How many times this promotion happened.
    pub count: usize,
}

/// What makes two divergences one row: site, op, operands and both outcomes.
type RowKey = (Option<String>, String, Vec<LatticeType>, Outcome, Outcome);

/// What changes between two promotion modes, grouped by site and op.
///
/// Rows keep the order in which each was first seen. `Display` prints a table.
#[derive(Clone, Debug)]
pub struct MigrationReport {
    /// The mode the code ran in.
    pub mode: PromotionMode,
    /// The mode compared with.
    pub other_mode: PromotionMode,
    rows: Vec<ReportRow>,
    index: HashMap<RowKey, usize>,
}

impl MigrationReport {
    /// An empty report comparing `mode` with `other_mode`.
    pub fn new(mode: PromotionMode, other_mode: PromotionMode) -> Self {
        MigrationReport { mode, other_mode, rows: Vec::new(), index: HashMap::new() }
    }

    /// Adds one divergence seen at `site`.
    pub fn push(&mut self, d: &Divergence, site: Option<String>) {
        let key = (site, d.op.clone(), d.operands.clone(), d.outcome.clone(), d.other.clone());
        if let Some(&i) = self.index.get(&key) {
            self.rows[i].count += 1;
            return;
        }
        self.index.insert(key.clone(), self.rows.len());
        let (site, op, operands, outcome, other) = key;
        self.rows.push(ReportRow { site, op, operands, outcome, other, count: 1 });
    }

    /// The rows, in first-seen order.
    pub fn rows(&self) -> &[ReportRow] {
        &self.rows
    }

    /// Whether nothing changes.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

impl fmt::Display for MigrationReport {
    /// A table: site, op, operands, the two outcomes and the count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rows.is_empty() {
            return writeln!(f, "no promotion differs between {} and {}", self.mode, self.other_mode);
        }
        let header = ["site", "op", "operands", &self.mode.to_string(), &self.other_mode.to_string(), "count"];
        let cells: Vec<[String; 6]> = self
            .rows
            .iter()
            .map(|r| {
                let ops: Vec<String> = r.operands.iter().map(|t| t.short_name()).collect();
                [
                    r.site.clone().unwrap_or_else(|| "-".into()),
                    r.op.clone(),
                    ops.join(", "),
                    outcome_cell(&r.outcome),
                    outcome_cell(&r.other),
                    r.count.to_string(),
                ]
            })
            .collect();
        let mut width = header.map(str::len);
        for row in &cells {
            for (w, c) in width.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |f: &mut fmt::Formatter<'_>, row: &[&str]| -> fmt::Result {
            let padded: Vec<String> = row.iter().zip(width).map(|(c, w)| format!("{c:<w$}")).collect();
            writeln!(f, "{}", padded.join("  ").trim_end())
        };
        line(f, &header)?;
        line(f, &width.map(|w| "-".repeat(w)).iter().map(String::as_str).collect::<Vec<_>>())?;
        for row in &cells {
            line(f, &row.iter().map(String::as_str).collect::<Vec<_>>())?;
        }
        Ok(())
    }
}

fn outcome_cell(o: &Outcome) -> String {
    match o {
        Outcome::Type(t) => t.short_name(),
        Outcome::Refused(_) => "refused".into(),
    }
}

/// Runs `f` in `mode` while comparing with `other`; returns `f`'s result and the report.
///
/// The report has no sites (Rust code has no cheap caller location per op);
/// the Python front end fills them in with source lines.
pub fn migration_report<R>(mode: PromotionMode, other: PromotionMode, f: impl FnOnce() -> R) -> (R, MigrationReport) {
    let report = std::rc::Rc::new(RefCell::new(MigrationReport::new(mode, other)));
    let sink = report.clone();
    let r = super::with_mode(mode, || with_comparison(other, move |d| sink.borrow_mut().push(d, None), f));
    let report = std::rc::Rc::try_unwrap(report).map(RefCell::into_inner).unwrap_or_else(|rc| rc.borrow().clone());
    (r, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::promote::{result_type_in, with_mode};

    fn p(s: &str) -> LatticeType {
        s.parse().unwrap()
    }

    fn recorded(mode: PromotionMode, other: PromotionMode, operands: &[LatticeType]) -> Vec<Divergence> {
        let log = std::rc::Rc::new(RefCell::new(vec![]));
        let sink = log.clone();
        let r1 = result_type_in(operands, mode).map_err(|e| e.to_string());
        let r2 = with_comparison(
            other,
            move |d| sink.borrow_mut().push(d.clone()),
            || result_type_in(operands, mode).map_err(|e| e.to_string()),
        );
        assert_eq!(r1, r2, "observing must not change the outcome");
        log.take()
    }

    #[test]
    fn reports_exactly_the_pairs_whose_outcome_differs() {
        use PromotionMode::*;
        for mode in PromotionMode::ALL_MODES {
            for other in PromotionMode::ALL_MODES {
                for a in LatticeType::ALL {
                    for b in LatticeType::ALL {
                        let got = recorded(mode, other, &[a, b]);
                        let x = Outcome::of(&result_type_in(&[a, b], mode));
                        let y = Outcome::of(&result_type_in(&[a, b], other));
                        assert_eq!(got.len(), usize::from(!x.same_as(&y)), "{mode} vs {other}: {a} {b}");
                        if let Some(d) = got.first() {
                            assert_eq!((d.outcome.clone(), d.other.clone(), d.operands.clone()), (x, y, vec![a, b]));
                        }
                    }
                }
            }
        }
        let d = &recorded(All, NumPy, &[p("i32"), p("f32")])[0];
        assert_eq!((d.outcome.clone(), d.other.clone()), (Outcome::Type(p("f32")), Outcome::Type(p("f64"))));
        assert!(recorded(All, All, &[p("i32"), p("f32")]).is_empty());
    }

    #[test]
    fn innermost_comparison_observes_and_scopes_end() {
        let outer = std::rc::Rc::new(Cell::new(0));
        let inner = std::rc::Rc::new(Cell::new(0));
        let (o, i) = (outer.clone(), inner.clone());
        with_mode(PromotionMode::All, || {
            with_comparison(
                PromotionMode::Safe,
                move |_| o.set(o.get() + 1),
                || {
                    with_comparison(
                        PromotionMode::Strict,
                        move |_| i.set(i.get() + 1),
                        || {
                            super::super::result_type(&[p("i32"), p("i64")]).unwrap();
                        },
                    );
                    super::super::result_type(&[p("i32"), p("f32")]).unwrap();
                },
            );
        });
        assert_eq!((outer.get(), inner.get()), (1, 1));
        assert!(!ACTIVE.with(Cell::get));
        super::super::result_type(&[p("i32"), p("f32")]).unwrap(); // no scope: nothing recorded
        assert_eq!(outer.get(), 1);
    }

    #[test]
    fn report_groups_repeats_and_prints_a_table() {
        let (_, report) = migration_report(PromotionMode::All, PromotionMode::NumPy, || {
            for _ in 0..3 {
                super::super::result_type_for("add", &[p("i64"), p("f16")], super::super::current_mode()).unwrap();
            }
            super::super::result_type_for("mul", &[p("u8"), p("i8")], super::super::current_mode()).unwrap();
        });
        assert_eq!(report.rows().len(), 1, "u8 ⊔ i8 = i16 in both modes");
        assert_eq!(report.rows()[0].count, 3);
        let table = report.to_string();
        assert!(table.contains("-     add  i64, f16  f16  f64    3"), "{table}");
    }
}
