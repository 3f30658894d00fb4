//! The promotion mode seen from Python: a process-wide default (what
//! `experimental_enable_numpy_behavior(dtype_conversion_mode=…)` sets) and
//! scoped, per-thread overrides (`with lattensor.promotion_mode("safe"):`),
//! optionally compared with another mode (`compare_with=`, see `migration`).

use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use lattensor::PromotionMode;
use lattensor::promote::MigrationReport;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::IntoPyResult;
use crate::migration::{self, PyReport, SharedReport};

static GLOBAL: AtomicU8 = AtomicU8::new(0);

thread_local! {
    static SCOPED: Cell<Option<PromotionMode>> = const { Cell::new(None) };
}

fn to_u8(m: PromotionMode) -> u8 {
    PromotionMode::ALL_MODES.iter().position(|&x| x == m).unwrap_or(0) as u8
}

/// The mode ops use on this thread: the innermost scope, else the process default.
#[inline]
pub fn effective() -> PromotionMode {
    SCOPED.with(Cell::get).unwrap_or_else(|| {
        let i = GLOBAL.load(Ordering::Relaxed) as usize;
        PromotionMode::ALL_MODES.get(i).copied().unwrap_or_default()
    })
}

/// Parses TF's `dtype_conversion_mode` names too: `all`, `safe`, `legacy` (NumPy rules), `off` (strict).
/// An unknown name is a `ValueError`, as in TF.
pub fn parse(name: &str) -> PyResult<PromotionMode> {
    match name.trim().to_ascii_lowercase().as_str() {
        "off" => Ok(PromotionMode::Strict),
        other => PromotionMode::parse(other).map_err(|e| lattensor::Error::InvalidValue(e.to_string())).py(),
    }
}

fn name(m: PromotionMode) -> &'static str {
    match m {
        PromotionMode::All => "all",
        PromotionMode::Safe => "safe",
        PromotionMode::Strict => "strict",
        PromotionMode::NumPy => "numpy",
    }
}

/// Sets the process-wide default promotion mode (all threads without a scope).
#[pyfunction]
pub fn set_promotion_mode(mode: &str) -> PyResult<()> {
    GLOBAL.store(to_u8(parse(mode)?), Ordering::Relaxed);
    Ok(())
}

/// The promotion mode in effect on the calling thread: `"all"`, `"safe"`, `"strict"` or `"numpy"`.
#[pyfunction]
pub fn get_promotion_mode() -> &'static str {
    name(effective())
}

/// A context manager that sets the promotion mode for the calling thread and
/// restores the previous one on exit (re-entrant, nestable).
///
/// With `compare_with`, every promotion inside the block is also decided in
/// that mode, and each one whose outcome differs is recorded with the source
/// line that called the op: `scope.report()` returns the table, and on exit one
/// `PromotionChangeWarning` is issued per distinct line and op. Results are
/// always those of `mode`.
#[pyclass(name = "promotion_mode", module = "lattensor", frozen)]
pub struct ModeScope {
    mode: PromotionMode,
    compare_with: Option<PromotionMode>,
    saved: Mutex<Vec<Option<PromotionMode>>>,
    report: Mutex<Option<SharedReport>>,
}

#[pymethods]
impl ModeScope {
    #[new]
    #[pyo3(signature = (mode, compare_with=None))]
    fn new(mode: &str, compare_with: Option<&str>) -> PyResult<Self> {
        Ok(ModeScope {
            mode: parse(mode)?,
            compare_with: compare_with.map(parse).transpose()?,
            saved: Mutex::new(vec![]),
            report: Mutex::new(None),
        })
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        let me = slf.get();
        let prev = SCOPED.with(|s| s.replace(Some(me.mode)));
        me.saved.lock().unwrap_or_else(|e| e.into_inner()).push(prev);
        if let Some(other) = me.compare_with {
            let report: SharedReport = Arc::new(Mutex::new(MigrationReport::new(me.mode, other)));
            *me.report.lock().unwrap_or_else(|e| e.into_inner()) = Some(report.clone());
            migration::begin(other, report);
        }
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        let prev = self.saved.lock().unwrap_or_else(|e| e.into_inner()).pop().flatten();
        SCOPED.with(|s| s.set(prev));
        if self.compare_with.is_some() {
            migration::end();
            migration::warn_sites(py, &self.snapshot())?;
        }
        Ok(false)
    }

    /// What the block changed between `mode` and `compare_with` (so far, if still open).
    ///
    /// Raises `ValueError` when the scope was made without `compare_with`.
    fn report(&self) -> PyResult<PyReport> {
        if self.compare_with.is_none() {
            return Err(PyValueError::new_err(format!(
                "promotion_mode({:?}).report(): this scope compares with no other mode; \
                 use promotion_mode({:?}, compare_with=\"numpy\")",
                name(self.mode),
                name(self.mode)
            )));
        }
        Ok(PyReport::new(self.snapshot()))
    }

    #[getter(mode)]
    fn mode_name(&self) -> &'static str {
        name(self.mode)
    }

    /// The mode compared with, or `None`.
    #[getter(compare_with)]
    fn compare_name(&self) -> Option<&'static str> {
        self.compare_with.map(name)
    }

    fn __repr__(&self) -> String {
        match self.compare_with {
            None => format!("lattensor.promotion_mode({:?})", name(self.mode)),
            Some(o) => format!("lattensor.promotion_mode({:?}, compare_with={:?})", name(self.mode), name(o)),
        }
    }
}

impl ModeScope {
    /// A copy of the current report, or an empty one before the scope is entered.
    fn snapshot(&self) -> MigrationReport {
        let other = self.compare_with.unwrap_or(self.mode);
        match &*self.report.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(r) => r.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            None => MigrationReport::new(self.mode, other),
        }
    }
}
