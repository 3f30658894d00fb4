//! The fft extension's transforms as private helpers (`_fft_*`) that
//! `lattensor.array_api.fft` and `lattensor.signal` wrap with their own
//! signatures.

use lattensor::ops::fft::{self, Norm};
use lattensor::{DType, Tensor};
use pyo3::prelude::*;

use crate::args::{arg, as_dtype, run};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

fn tensor(x: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    Ok(arg(x)?.tensor()?.into_owned())
}

macro_rules! one_axis {
    ($name:ident, $py:literal, $f:path) => {
        #[doc = concat!("`", stringify!($f), "` along one axis (`n`, `axis`, `norm` as the standard's).")]
        #[pyfunction]
        #[pyo3(name = $py)]
        pub fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            n: Option<usize>,
            axis: isize,
            norm: &str,
        ) -> PyResult<PyTensor> {
            let t = tensor(x)?;
            let norm = Norm::parse($py.trim_start_matches("_fft_"), norm).py()?;
            run(py, t.numel(), || $f(&t, n, axis, norm)).map(PyTensor::new)
        }
    };
}

macro_rules! many_axes {
    ($name:ident, $py:literal, $f:path) => {
        #[doc = concat!("`", stringify!($f), "` over several axes (`s`, `axes`, `norm` as the standard's).")]
        #[pyfunction]
        #[pyo3(name = $py)]
        pub fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            s: Option<Vec<usize>>,
            axes: Option<Vec<isize>>,
            norm: &str,
        ) -> PyResult<PyTensor> {
            let t = tensor(x)?;
            let norm = Norm::parse($py.trim_start_matches("_fft_"), norm).py()?;
            run(py, t.numel(), || $f(&t, s.as_deref(), axes.as_deref(), norm)).map(PyTensor::new)
        }
    };
}

one_axis!(fft_fft, "_fft_fft", fft::fft);
one_axis!(fft_ifft, "_fft_ifft", fft::ifft);
one_axis!(fft_rfft, "_fft_rfft", fft::rfft);
one_axis!(fft_irfft, "_fft_irfft", fft::irfft);
one_axis!(fft_hfft, "_fft_hfft", fft::hfft);
one_axis!(fft_ihfft, "_fft_ihfft", fft::ihfft);
many_axes!(fft_fftn, "_fft_fftn", fft::fftn);
many_axes!(fft_ifftn, "_fft_ifftn", fft::ifftn);
many_axes!(fft_rfftn, "_fft_rfftn", fft::rfftn);
many_axes!(fft_irfftn, "_fft_irfftn", fft::irfftn);

/// `fftfreq(n, d, dtype)` / `rfftfreq` with `rfft`.
#[pyfunction]
#[pyo3(name = "_fft_freq")]
pub fn fft_freq(n: usize, d: f64, dtype: &Bound<'_, PyAny>, rfft: bool) -> PyResult<PyTensor> {
    let dt: DType = as_dtype(dtype)?;
    if rfft { fft::rfftfreq(n, d, dt) } else { fft::fftfreq(n, d, dt) }.py().map(PyTensor::new)
}

/// `fftshift(x, axes)` / `ifftshift` with `inverse`.
#[pyfunction]
#[pyo3(name = "_fft_shift")]
pub fn fft_shift(py: Python<'_>, x: &Bound<'_, PyAny>, axes: Option<Vec<isize>>, inverse: bool) -> PyResult<PyTensor> {
    let t = tensor(x)?;
    run(py, t.numel(), || fft::fftshift(&t, axes.as_deref(), inverse)).map(PyTensor::new)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for f in [
        wrap_pyfunction!(fft_fft, m)?,
        wrap_pyfunction!(fft_ifft, m)?,
        wrap_pyfunction!(fft_rfft, m)?,
        wrap_pyfunction!(fft_irfft, m)?,
        wrap_pyfunction!(fft_hfft, m)?,
        wrap_pyfunction!(fft_ihfft, m)?,
        wrap_pyfunction!(fft_fftn, m)?,
        wrap_pyfunction!(fft_ifftn, m)?,
        wrap_pyfunction!(fft_rfftn, m)?,
        wrap_pyfunction!(fft_irfftn, m)?,
        wrap_pyfunction!(fft_freq, m)?,
        wrap_pyfunction!(fft_shift, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
