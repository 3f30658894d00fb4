//! The inner loop of a column sum of f32 rows: `acc[c] += rows[0][c] + … +
//! rows[R-1][c]` in f64, rows added one after another (the same bits as R
//! separate passes over `acc`).
//!
//! A reduction over the leading axis of a large matrix reads its rows as they
//! lie in memory, into a stripe of f64 accumulators that stays in cache. Each
//! pass over the stripe reads and writes every accumulator once, so more rows
//! per pass mean less of that traffic, but each row is one more stream for the
//! hardware prefetchers: eight rows a pass is the best balance (on Zen 4, 4096²
//! f32 in 4096-column stripes, one thread: 28 GB/s against 22 with four rows and
//! 20 with sixteen).
//!
//! CPUs without AVX-512 take an AVX2 loop (four f64 a vector, two vectors a
//! step): the plain loop does not vectorise (on Zen 3 the mean over axis 0 of
//! 4096² f32 runs 3.7× faster with it on two threads).

/// Rows per pass.
pub(crate) const ROWS: usize = 8;

/// `acc[c] += ((rows[0][c] + rows[1][c]) + …)` in f64, in row order, for every
/// column `c` that `acc` and all the rows have.
pub(crate) fn add_rows<const R: usize>(acc: &mut [f64], rows: [&[f32]; R]) {
    let w = rows.iter().map(|r| r.len()).fold(acc.len(), usize::min);
    let acc = &mut acc[..w];
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked just now); every row has at least `w` = acc.len() elements.
        done = unsafe { avx512::add_rows(acc, rows) };
    } else if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just now); every row has at least `w` = acc.len() elements.
        done = unsafe { avx2::add_rows(acc, rows) };
    }
    crate::kernels::simd::simd!({
        for (c, s) in acc.iter_mut().enumerate().skip(done) {
            for row in rows {
                *s += row[c] as f64;
            }
        }
    },);
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{_mm256_loadu_ps, _mm512_add_pd, _mm512_cvtps_pd, _mm512_loadu_pd, _mm512_storeu_pd};

    /// [`super::add_rows`] over the columns in whole vectors of eight; returns how many it did.
    ///
    /// # Safety
    /// The CPU must have AVX-512F, and every row at least `acc.len()` elements.
    #[target_feature(enable = "avx512f,avx2")]
    pub(super) unsafe fn add_rows<const R: usize>(acc: &mut [f64], rows: [&[f32]; R]) -> usize {
        let w = acc.len() / 8 * 8;
        let a = acc.as_mut_ptr();
        for c in (0..w).step_by(8) {
            // SAFETY: c + 8 <= w <= acc.len(), and every row has at least acc.len() elements.
            unsafe {
                let mut s = _mm512_loadu_pd(a.add(c));
                for row in rows {
                    s = _mm512_add_pd(s, _mm512_cvtps_pd(_mm256_loadu_ps(row.as_ptr().add(c))));
                }
                _mm512_storeu_pd(a.add(c), s);
            }
        }
        w
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{_mm_loadu_ps, _mm256_add_pd, _mm256_cvtps_pd, _mm256_loadu_pd, _mm256_storeu_pd};

    /// [`super::add_rows`] over the columns in steps of eight (two vectors of four); returns how many it did.
    ///
    /// # Safety
    /// The CPU must have AVX2, and every row at least `acc.len()` elements.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_rows<const R: usize>(acc: &mut [f64], rows: [&[f32]; R]) -> usize {
        let w = acc.len() / 8 * 8;
        let a = acc.as_mut_ptr();
        for c in (0..w).step_by(8) {
            // SAFETY: c + 8 <= w <= acc.len(), and every row has at least acc.len() elements.
            unsafe {
                let mut lo = _mm256_loadu_pd(a.add(c));
                let mut hi = _mm256_loadu_pd(a.add(c + 4));
                for row in rows {
                    let p = row.as_ptr().add(c);
                    lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm_loadu_ps(p)));
                    hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm_loadu_ps(p.add(4))));
                }
                _mm256_storeu_pd(a.add(c), lo);
                _mm256_storeu_pd(a.add(c + 4), hi);
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bits_as_one_row_at_a_time() {
        // values of very different magnitudes, so that the order of the adds shows in the bits
        let rows: Vec<Vec<f32>> = (0..ROWS)
            .map(|r| (0..37).map(|c| ((c * 31 + r * 17) % 23) as f32 * 10f32.powi((c + r) as i32 % 9 - 4)).collect())
            .collect();
        let start: Vec<f64> = (0..37).map(|c| 1e8 / (c as f64 + 0.5)).collect();
        let mut want = start.clone();
        for row in &rows {
            for (s, &v) in want.iter_mut().zip(row) {
                *s += v as f64;
            }
        }
        let mut got = start.clone();
        add_rows(&mut got, std::array::from_fn::<_, ROWS, _>(|r| &rows[r][..]));
        assert_eq!(
            got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        // one row at a time, over a prefix (a tail of five columns after the vectors)
        let mut one = start[..29].to_vec();
        for row in &rows {
            add_rows(&mut one, [&row[..]]);
        }
        assert!(one.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()));
        // the AVX2 loop on its own, also on CPUs where the AVX-512 one is chosen
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut got = start.clone();
            // SAFETY: the CPU has AVX2; every row has 37 elements, as many as `got`.
            let done = unsafe { avx2::add_rows(&mut got, std::array::from_fn::<_, ROWS, _>(|r| &rows[r][..])) };
            assert_eq!(done, 32);
            assert!(got[..done].iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}
