//! Poisson sampling by TF's choice of algorithms: Knuth's product of uniforms
//! for small rates, Hörmann's PTRS ("The transformed rejection method for
//! generating Poisson random variables", 1993) for large ones.

use super::philox::{Stream, Words, words_to_f64};
use crate::kernels::for_chunks;
use crate::ops::special::scalar::lgamma;

/// Rates below this use Knuth's method (expected cost: `rate` uniforms);
/// above it PTRS (about 1.2 pairs of uniforms whatever the rate).
const SMALL_RATE: f64 = 10.0;

/// The largest rate accepted: counts stay far below 2⁶³ (the sampler's `k`
/// is within a few standard deviations of the rate).
pub(super) const MAX_RATE: f64 = 1e18;

/// Blocks of the stream reserved for each element (TF reserves as many).
const BLOCKS_PER_ELEMENT: u64 = 256;

/// A uniform double in `[0, 1)` from the next two words.
fn uniform(w: &mut Words) -> f64 {
    let hi = w.next();
    words_to_f64(hi, w.next())
}

/// One count for `rate` (finite, `0 <= rate <= MAX_RATE`).
fn draw(rate: f64, u: &mut Words) -> i64 {
    if rate == 0.0 {
        return 0;
    }
    if rate < SMALL_RATE {
        // Knuth: the number of uniforms whose running product stays above e^-rate
        let limit = (-rate).exp();
        let (mut prod, mut k) = (1.0, 0);
        loop {
            prod *= uniform(u);
            if prod <= limit {
                return k;
            }
            k += 1;
        }
    }
    // PTRS: a transformed uniform proposes k; a cheap box accepts most
    // proposals, the exact Poisson log-probability decides the rest.
    let log_rate = rate.ln();
    let b = 0.931 + 2.53 * rate.sqrt();
    let a = -0.059 + 0.02483 * b;
    let inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
    let v_r = 0.9277 - 3.6224 / (b - 2.0);
    loop {
        let x = uniform(u) - 0.5;
        let v = uniform(u);
        let us = 0.5 - x.abs();
        let k = ((2.0 * a / us + b) * x + rate + 0.43).floor();
        if us >= 0.07 && v <= v_r {
            return k as i64;
        }
        if k < 0.0 || (us < 0.013 && v > us) {
            continue;
        }
        let s = (v * inv_alpha / (a / (us * us) + b)).ln();
        let t = -rate + k * log_rate - lgamma(k + 1.0);
        if s <= t {
            return k as i64;
        }
    }
}

/// A count for each rate; element `i` draws from the stream `256 i` blocks on.
pub(super) fn sample(rates: &[f64], stream: Stream) -> Vec<i64> {
    let mut out = vec![0i64; rates.len()];
    for_chunks(&mut out, |start, chunk| {
        for (i, o) in chunk.iter_mut().enumerate() {
            let at = (start + i) as u64;
            *o = draw(rates[start + i], &mut Words::new(stream.skipped(at.wrapping_mul(BLOCKS_PER_ELEMENT))));
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mean and variance of many draws at one rate.
    fn moments(rate: f64, n: usize) -> (f64, f64) {
        let xs = sample(&vec![rate; n], Stream::from_seed([11, rate.to_bits() as i64]));
        let m = xs.iter().sum::<i64>() as f64 / n as f64;
        let v = xs.iter().map(|&x| (x as f64 - m).powi(2)).sum::<f64>() / n as f64;
        (m, v)
    }

    #[test]
    fn both_methods_have_the_poisson_moments() {
        // mean and variance both equal the rate; the bounds are 6 standard errors
        // (se of the mean sqrt(rate/n), of the variance about rate*sqrt(2/n))
        let n = 100_000;
        for rate in [0.5, 3.0, 9.9, 10.0, 37.5, 1000.0, 1e7] {
            let (m, v) = moments(rate, n);
            let se_m = (rate / n as f64).sqrt();
            let se_v = rate * (2.0 / n as f64).sqrt() + (rate / n as f64).sqrt();
            assert!((m - rate).abs() < 6.0 * se_m, "rate {rate}: mean {m}");
            assert!((v - rate).abs() < 6.0 * se_v, "rate {rate}: variance {v}");
        }
    }

    #[test]
    fn small_counts_have_the_poisson_frequencies() {
        // P(k) = e^-r r^k / k! at r = 2 and r = 12 (one rate per method)
        let n = 200_000;
        for rate in [2.0f64, 12.0] {
            let xs = sample(&vec![rate; n], Stream::from_seed([3, 1]));
            for k in 0..6 {
                let p = (-rate + k as f64 * rate.ln() - lgamma(k as f64 + 1.0)).exp();
                let seen = xs.iter().filter(|&&x| x == k).count() as f64 / n as f64;
                let se = (p * (1.0 - p) / n as f64).sqrt();
                assert!((seen - p).abs() < 6.0 * se + 1e-9, "rate {rate}, k {k}: {seen} vs {p}");
            }
        }
    }
}
