//! Migration reports from Python: `with promotion_mode("all", compare_with="legacy") as scope:`
//! records every promotion the other mode would change, with the Python
//! source line that called the op; `scope.report()` returns the table.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock};

use lattensor::PromotionMode;
use lattensor::promote::{ComparisonGuard, Divergence, MigrationReport, Outcome, ReportRow};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

pyo3::create_exception!(
    lattensor,
    PromotionChangeWarning,
    pyo3::exceptions::PyUserWarning,
    "An op whose result dtype, weakness or refusal differs between two promotion modes (see `promotion_mode(..., compare_with=...)`)."
);

thread_local! {
    /// The comparisons open on this thread, innermost last.
    static GUARDS: RefCell<Vec<ComparisonGuard>> = const { RefCell::new(Vec::new()) };
}

/// The report a comparison scope fills, shared with its observer.
pub type SharedReport = Arc<Mutex<MigrationReport>>;

/// Starts comparing this thread's promotions with `other`, recording into `report`.
pub fn begin(other: PromotionMode, report: SharedReport) {
    let guard = ComparisonGuard::new(other, move |d: &Divergence| {
        let site = Python::attach(caller_site);
        report.lock().unwrap_or_else(|e| e.into_inner()).push(d, site);
    });
    GUARDS.with(|g| g.borrow_mut().push(guard));
}

/// Ends the innermost comparison on this thread.
pub fn end() {
    GUARDS.with(|g| drop(g.borrow_mut().pop()));
}

/// `file:line` of the innermost Python frame outside the lattensor package.
fn caller_site(py: Python<'_>) -> Option<String> {
    static PACKAGE_DIR: OnceLock<Option<String>> = OnceLock::new();
    let package = PACKAGE_DIR.get_or_init(|| {
        let file: String = py.import("lattensor").ok()?.getattr("__file__").ok()?.extract().ok()?;
        std::path::Path::new(&file).parent().map(|p| p.to_string_lossy().into_owned())
    });
    let mut frame = py.import("sys").ok()?.call_method1("_getframe", (0,)).ok()?;
    loop {
        let code = frame.getattr("f_code").ok()?;
        let file: String = code.getattr("co_filename").ok()?.extract().ok()?;
        let inside = package.as_deref().is_some_and(|p| file.starts_with(p));
        if !inside {
            let line: i64 = frame.getattr("f_lineno").ok()?.extract().ok()?;
            return Some(format!("{file}:{line}"));
        }
        frame = frame.getattr("f_back").ok()?;
        if frame.is_none() {
            return None;
        }
    }
}

/// Splits `file:line` into its parts.
fn split_site(site: &str) -> (&str, Option<i64>) {
    match site.rsplit_once(':') {
        Some((file, line)) => match line.parse() {
            Ok(n) => (file, Some(n)),
            Err(_) => (site, None),
        },
        None => (site, None),
    }
}

fn outcome_dict<'py>(py: Python<'py>, o: &Outcome) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match o {
        Outcome::Type(t) => {
            d.set_item("dtype", t.dtype.name())?;
            d.set_item("weak", t.weak)?;
        }
        Outcome::Refused(msg) => {
            d.set_item("refused", msg)?;
        }
    }
    Ok(d)
}

fn row_dict<'py>(py: Python<'py>, r: &ReportRow) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (file, line) = r.site.as_deref().map(split_site).unzip();
    d.set_item("file", file)?;
    d.set_item("line", line.flatten())?;
    d.set_item("op", &r.op)?;
    let operands = PyList::empty(py);
    for t in &r.operands {
        let o = PyDict::new(py);
        o.set_item("dtype", t.dtype.name())?;
        o.set_item("weak", t.weak)?;
        operands.append(o)?;
    }
    d.set_item("operands", operands)?;
    d.set_item("result", outcome_dict(py, &r.outcome)?)?;
    d.set_item("other", outcome_dict(py, &r.other)?)?;
    d.set_item("count", r.count)?;
    Ok(d)
}

/// What changes between two promotion modes, as recorded by
/// `promotion_mode(mode, compare_with=other)`: one row per distinct source
/// line, op, operand types and pair of outcomes. `str(report)` is a table,
/// `report.rows` a list of dicts, `report.to_json()` the same as JSON.
#[pyclass(name = "PromotionReport", module = "lattensor", frozen)]
pub struct PyReport {
    report: MigrationReport,
}

impl PyReport {
    pub fn new(report: MigrationReport) -> Self {
        PyReport { report }
    }
}

#[pymethods]
impl PyReport {
    /// The mode the code ran in (`"all"`, `"safe"`, `"strict"` or `"numpy"`).
    #[getter]
    fn mode(&self) -> String {
        self.report.mode.to_string().to_ascii_lowercase()
    }

    /// The mode compared with.
    #[getter]
    fn compare_with(&self) -> String {
        self.report.other_mode.to_string().to_ascii_lowercase()
    }

    /// One dict per row: `file`, `line`, `op`, `operands` (`[{"dtype", "weak"}]`),
    /// `result` and `other` (`{"dtype", "weak"}` or `{"refused": message}`), `count`.
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for r in self.report.rows() {
            out.append(row_dict(py, r)?)?;
        }
        Ok(out)
    }

    /// The report as a JSON string: `{"mode", "compare_with", "rows": [...]}`.
    #[pyo3(signature = (indent=None))]
    fn to_json(&self, py: Python<'_>, indent: Option<usize>) -> PyResult<String> {
        let d = PyDict::new(py);
        d.set_item("mode", self.mode())?;
        d.set_item("compare_with", self.compare_with())?;
        d.set_item("rows", self.rows(py)?)?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("indent", indent)?;
        py.import("json")?.call_method("dumps", (d,), Some(&kwargs))?.extract()
    }

    fn __len__(&self) -> usize {
        self.report.rows().len()
    }

    fn __str__(&self) -> String {
        self.report.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<lattensor.PromotionReport: {} vs {}, {} rows>",
            self.mode(),
            self.compare_with(),
            self.report.rows().len()
        )
    }
}

/// One `PromotionChangeWarning` per distinct (site, op) of `report`, attributed to the site.
pub fn warn_sites(py: Python<'_>, report: &MigrationReport) -> PyResult<()> {
    let warnings = py.import("warnings")?;
    let category = py.get_type::<PromotionChangeWarning>();
    let mut seen: Vec<(Option<&str>, &str)> = Vec::new();
    for r in report.rows() {
        let key = (r.site.as_deref(), r.op.as_str());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let operands: Vec<String> = r.operands.iter().map(|t| t.short_name()).collect();
        let message = format!(
            "{}({}) gives {} in {} mode but {} in {} mode",
            r.op,
            operands.join(", "),
            describe(&r.outcome),
            report.mode.to_string().to_ascii_lowercase(),
            describe(&r.other),
            report.other_mode.to_string().to_ascii_lowercase(),
        );
        let (file, line) = r.site.as_deref().map(split_site).unwrap_or(("<unknown>", None));
        warnings.call_method1("warn_explicit", (message, &category, file, line.unwrap_or(0)))?;
    }
    Ok(())
}

fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Type(t) => t.short_name(),
        Outcome::Refused(_) => "a refusal".into(),
    }
}
