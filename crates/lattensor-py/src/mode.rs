//! The promotion mode seen from Python: a process-wide default (what
//! `experimental_enable_numpy_behavior(dtype_conversion_mode=…)` sets) and
//! scoped, per-thread overrides (`with lattensor.promotion_mode("safe"):`).

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};

use lattensor::PromotionMode;
use pyo3::prelude::*;

use crate::errors::IntoPyResult;

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
pub fn parse(name: &str) -> PyResult<PromotionMode> {
    match name.trim().to_ascii_lowercase().as_str() {
        "off" => Ok(PromotionMode::Strict),
        other => PromotionMode::parse(other).py(),
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
#[pyclass(name = "promotion_mode", module = "lattensor", frozen)]
pub struct ModeScope {
    mode: PromotionMode,
    saved: Mutex<Vec<Option<PromotionMode>>>,
}

#[pymethods]
impl ModeScope {
    #[new]
    fn new(mode: &str) -> PyResult<Self> {
        Ok(ModeScope { mode: parse(mode)?, saved: Mutex::new(vec![]) })
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        let me = slf.get();
        let prev = SCOPED.with(|s| s.replace(Some(me.mode)));
        me.saved.lock().unwrap_or_else(|e| e.into_inner()).push(prev);
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        let prev = self.saved.lock().unwrap_or_else(|e| e.into_inner()).pop().flatten();
        SCOPED.with(|s| s.set(prev));
        false
    }

    #[getter(mode)]
    fn mode_name(&self) -> &'static str {
        name(self.mode)
    }

    fn __repr__(&self) -> String {
        format!("lattensor.promotion_mode({:?})", name(self.mode))
    }
}
