//! Discrete Fourier transforms of contiguous rows, on rustfft and realfft.
//!
//! Each function transforms every row of a row-major buffer of rows of equal
//! length, unnormalised (the ops layer, `ops::fft`, scales for the `norm`
//! argument, moves the transformed axis last and pads or crops it). rustfft
//! plans any length (mixed radix, Rader and Bluestein for primes), so no length
//! is special.

use num_complex::Complex;
use realfft::RealFftPlanner;
use rustfft::{FftNum, FftPlanner};

/// Transforms each length-`n` row of `rows` in place: the forward DFT
/// `X[k] = Σ x[j] e^{-2πijk/n}`, or without the `1/n` factor its inverse.
pub(crate) fn complex_rows<R: FftNum>(rows: &mut [Complex<R>], n: usize, inverse: bool) {
    if n == 0 || rows.is_empty() {
        return;
    }
    let mut planner = FftPlanner::<R>::new();
    let plan = if inverse { planner.plan_fft_inverse(n) } else { planner.plan_fft_forward(n) };
    // rows.len() is a multiple of n, so every chunk is one whole row
    plan.process(rows);
}

/// The forward DFT of each real length-`n` row of `input`: its `n / 2 + 1`
/// non-negative-frequency terms per row, appended to `out`.
pub(crate) fn real_to_complex_rows<R: FftNum>(input: &[R], n: usize, out: &mut Vec<Complex<R>>) {
    let half = n / 2 + 1;
    if n == 0 {
        return;
    }
    let plan = RealFftPlanner::<R>::new().plan_fft_forward(n);
    let mut row = plan.make_input_vec();
    let mut spectrum = plan.make_output_vec();
    let mut scratch = plan.make_scratch_vec();
    for chunk in input.chunks_exact(n) {
        row.copy_from_slice(chunk);
        // the lengths come from the plan, so the call cannot fail
        let _ = plan.process_with_scratch(&mut row, &mut spectrum, &mut scratch);
        out.extend_from_slice(&spectrum[..half]);
    }
}

/// The unnormalised inverse DFT of each Hermitian half-spectrum row of
/// `n / 2 + 1` terms in `input`, as real length-`n` rows appended to `out`.
/// The imaginary parts of the zero-frequency term (and, for even `n`, of the
/// Nyquist term) are ignored, as NumPy's `irfft` does.
pub(crate) fn complex_to_real_rows<R: FftNum>(input: &[Complex<R>], n: usize, out: &mut Vec<R>) {
    let half = n / 2 + 1;
    if n == 0 {
        return;
    }
    let plan = RealFftPlanner::<R>::new().plan_fft_inverse(n);
    let mut spectrum = plan.make_input_vec();
    let mut row = plan.make_output_vec();
    let mut scratch = plan.make_scratch_vec();
    for chunk in input.chunks_exact(half) {
        spectrum.copy_from_slice(chunk);
        spectrum[0].im = R::zero();
        if n.is_multiple_of(2) {
            spectrum[half - 1].im = R::zero();
        }
        // the lengths come from the plan and the imaginary parts it checks are zeroed, so it cannot fail
        let _ = plan.process_with_scratch(&mut spectrum, &mut row, &mut scratch);
        out.extend_from_slice(&row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delta_transforms_to_ones_and_back() {
        let mut x = vec![Complex::new(1.0f64, 0.0), Complex::new(0.0, 0.0), Complex::new(0.0, 0.0)];
        complex_rows(&mut x, 3, false);
        assert!(x.iter().all(|v| (v - Complex::new(1.0, 0.0)).norm() < 1e-15));
        complex_rows(&mut x, 3, true);
        assert!((x[0] - Complex::new(3.0, 0.0)).norm() < 1e-15 && x[1].norm() < 1e-15);
    }

    #[test]
    fn real_rows_round_trip() {
        let x = [1.0f32, 2.0, 3.0, 4.0, 5.0, -1.0, 0.5, 2.0];
        let mut spec = Vec::new();
        real_to_complex_rows(&x, 4, &mut spec);
        assert_eq!(spec.len(), 6);
        assert_eq!(spec[0], Complex::new(10.0, 0.0));
        let mut back = Vec::new();
        complex_to_real_rows(&spec, 4, &mut back);
        for (b, x) in back.iter().zip(x) {
            assert!((b / 4.0 - x).abs() < 1e-6);
        }
    }
}
