//! The GEMM kernel against a plain triple loop at every edge and layout, and its packing and prefetch plans.

use super::*;

fn naive(m: usize, n: usize, k: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    c
}

fn check<T: Scalar + Into<f64> + From<f32>>(m: usize, n: usize, k: usize, transposed: u8, tol: f64) {
    let (transposed_a, transposed_b) = (transposed & 1 != 0, transposed & 2 != 0);
    let av: Vec<f64> = (0..m * k).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
    let bv: Vec<f64> = (0..k * n).map(|i| ((i * 104_729) % 11) as f64 * 0.25 - 1.0).collect();
    let want = naive(m, n, k, &av, &bv);
    // A stored either row-major or as the transpose of a row-major k × m matrix
    let a_store: Vec<T> = if transposed_a {
        (0..k * m).map(|q| T::from(av[(q % m) * k + q / m] as f32)).collect()
    } else {
        av.iter().map(|&x| T::from(x as f32)).collect()
    };
    let b_store: Vec<T> = if transposed_b {
        (0..n * k).map(|q| T::from(bv[(q % k) * n + q / k] as f32)).collect()
    } else {
        bv.iter().map(|&x| T::from(x as f32)).collect()
    };
    let a = if transposed_a {
        MatRef { ptr: a_store.as_ptr(), rs: 1, cs: m as isize }
    } else {
        MatRef { ptr: a_store.as_ptr(), rs: k as isize, cs: 1 }
    };
    let b = if transposed_b {
        MatRef { ptr: b_store.as_ptr(), rs: 1, cs: k as isize }
    } else {
        MatRef { ptr: b_store.as_ptr(), rs: n as isize, cs: 1 }
    };
    // C 64-byte aligned, so that rows a multiple of 64 bytes long are streamed when asked
    let mut c_store = vec![T::from(f32::NAN); m * n + 64];
    let off = c_store.as_ptr().align_offset(64).min(64);
    let mut first: Option<Vec<T>> = None;
    for (parallel, stream) in [(false, false), (true, false), (false, true), (true, true)] {
        let c = &mut c_store[off..off + m * n];
        c.fill(T::from(f32::NAN));
        // SAFETY: AVX-512F is checked by the caller; the buffers have the stated shapes.
        unsafe { gemm(m, n, k, a, b, c.as_mut_ptr(), n, parallel, &[], stream) };
        for (i, (&g, &w)) in c.iter().zip(&want).enumerate() {
            let g: f64 = g.into();
            assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{m}×{n}×{k} [{i}]: {g} vs {w}");
        }
        // threads and stores change no bit
        let first = first.get_or_insert_with(|| c.to_vec());
        assert!(bytemuck::cast_slice::<T, u8>(c) == bytemuck::cast_slice::<T, u8>(first), "{m}×{n}×{k}");
    }
}

#[test]
fn upcoming_spans_cover_dense_matrices_only() {
    let p = 4096 as *const f32;
    // 3 × 5 row-major: 15 elements, 60 bytes; transposed: the same span
    let s = Upcoming::of(p, 3, 5, 5, 1);
    assert_eq!((s.start, s.len), (4096, 60));
    assert_eq!(Upcoming::of(p, 3, 5, 1, 3).len, 60);
    // rows of 5 elements 8 apart: 21 elements, within twice 15
    assert_eq!(Upcoming::of(p, 3, 5, 8, 1).len, 84);
    // too sparse, negative strides, empty, overflowing: nothing
    for s in [
        Upcoming::of(p, 3, 5, 100, 1),
        Upcoming::of(p, 3, 5, -5, 1),
        Upcoming::of(p, 0, 5, 5, 1),
        Upcoming::of(p, usize::MAX / 2, 5, isize::MAX, 1),
    ] {
        assert_eq!(s.len, 0);
    }
}

#[test]
fn prefetcher_deals_every_line_once_over_the_tiles() {
    let spans = [Upcoming { start: 1000, len: 130 }, Upcoming::NONE, Upcoming { start: 9000, len: 64 }];
    let deal = |tiles: usize| {
        let mut p = Prefetcher::new(&spans, tiles);
        let shares: Vec<Fetch> = (0..tiles).map(|_| p.share()).collect();
        assert_eq!(p.share(), Fetch::NONE, "{tiles} tiles");
        let lines: Vec<usize> = shares.iter().flat_map(|f| (0..f.lines).map(move |l| f.start + 64 * l)).collect();
        (shares, lines)
    };
    // four lines, each fetched once, from as many tiles as non-empty spans (two) up
    for tiles in 2..8 {
        assert_eq!(deal(tiles).1, [1000, 1064, 1128, 9000], "{tiles} tiles");
    }
    // one tile has one share, which ends with its span (the rest is not fetched: hints)
    assert_eq!(Prefetcher::new(&spans, 1).share(), Fetch { start: 1000, lines: 3 });
    // six tiles (three after the spans' allowance): two lines per tile
    let six = deal(6).0;
    assert_eq!(
        &six[..3],
        [Fetch { start: 1000, lines: 2 }, Fetch { start: 1128, lines: 1 }, Fetch { start: 9000, lines: 1 }]
    );
    assert_eq!(Prefetcher::new(&[], 0).share(), Fetch::NONE);
}

#[test]
fn row_major_packing_places_every_element_and_zero_pads() {
    // k not a multiple of PACK_ROWS, n not of NR, and large enough (k·n ≥ 2¹⁵) to be
    // packed in parallel runs of panels when asked
    fn check_packing<T: Scalar + From<f32> + PartialEq + std::fmt::Debug>() {
        let nr = T::NR;
        for (k, n) in [(1, 1), (17, 5), (33, 2 * nr), (40, 3 * nr + 1), (300, 7 * nr + 3)] {
            let b: Vec<T> = (0..k * n).map(|i| T::from(i as f32 + 1.0)).collect();
            let panels = n.div_ceil(nr);
            for parallel in [false, true] {
                let mut dst = vec![T::from(f32::NAN); k * panels * nr];
                let mat = MatRef { ptr: b.as_ptr(), rs: n as isize, cs: 1 };
                // SAFETY: B is k × n row-major; dst holds k · panels · NR elements.
                unsafe { pack_b(&mut dst, mat, k, n, parallel) };
                for q in 0..panels {
                    for p in 0..k {
                        for jj in 0..nr {
                            let j = q * nr + jj;
                            let want = if j < n { b[p * n + j] } else { T::default() };
                            assert_eq!(dst[(q * k + p) * nr + jj], want, "k={k} n={n} q={q} p={p} jj={jj}");
                        }
                    }
                }
            }
        }
    }
    check_packing::<f32>();
    check_packing::<f64>();
}

#[test]
fn column_packing_transposes_and_zero_pads() {
    if !available() {
        return;
    }
    for k in [1, 15, 16, 17, 40] {
        for w in [1, 15, 16, 17, 31, 32] {
            let cs = k + 3; // columns k + 3 apart: the gaps must not be read into the panel
            let b: Vec<f32> = (0..32 * cs).map(|i| i as f32 + 0.5).collect();
            let mut panel = vec![f32::NAN; k * 32];
            // SAFETY: AVX-512F checked; column j < w ≤ 32 has k elements at j·cs.
            unsafe { f32::pack_columns(&mut panel, b.as_ptr(), cs, k, w) };
            for p in 0..k {
                for j in 0..32 {
                    let want = if j < w { b[j * cs + p] } else { 0.0 };
                    assert_eq!(panel[p * 32 + j].to_bits(), want.to_bits(), "k={k} w={w} p={p} j={j}");
                }
            }
        }
    }
}

#[test]
fn rows_with_gaps_are_read_in_place_exactly() {
    // A and B as views into wider row-major matrices (rows padded past the
    // columns used, the padding poisoned with NaN): B small enough to be read in
    // place, with whole panels and a packed last panel, over one and two depth blocks
    fn run<T: Scalar + Into<f64> + From<f32>>(m: usize, n: usize, k: usize) {
        let (rs_a, rs_b) = (k + 5, n + 7);
        let av: Vec<f64> = (0..m * k).map(|i| ((i * 31) % 17) as f64 - 8.0).collect();
        let bv: Vec<f64> = (0..k * n).map(|i| ((i * 13) % 7) as f64 * 0.5 - 1.5).collect();
        let want = naive(m, n, k, &av, &bv);
        let pad = |v: &[f64], rows: usize, cols: usize, rs: usize| -> Vec<T> {
            (0..rows * rs)
                .map(|q| if q % rs < cols { T::from(v[q / rs * cols + q % rs] as f32) } else { T::from(f32::NAN) })
                .collect()
        };
        let (a_store, b_store) = (pad(&av, m, k, rs_a), pad(&bv, k, n, rs_b));
        let a = MatRef { ptr: a_store.as_ptr(), rs: rs_a as isize, cs: 1 };
        let b = MatRef { ptr: b_store.as_ptr(), rs: rs_b as isize, cs: 1 };
        let mut c = vec![T::from(f32::NAN); m * n];
        // SAFETY: AVX-512F is checked by the caller; A is m × k and B k × n inside their stores.
        unsafe { gemm(m, n, k, a, b, c.as_mut_ptr(), n, false, &[], false) };
        for (i, (&g, &w)) in c.iter().zip(&want).enumerate() {
            // small integers and halves: every product and sum is exact
            assert_eq!(g.into(), w, "{m}×{n}×{k} [{i}]");
        }
    }
    if !available() {
        return;
    }
    for (m, n, k) in [(30, 64, 40), (25, 70, 33), (13, 40, 1100)] {
        run::<f32>(m, n, k);
        run::<f64>(m, n, k);
    }
}

#[test]
fn products_match_a_naive_loop_at_every_edge() {
    if !available() {
        return;
    }
    for &(m, n, k) in &[
        (1, 1, 1),
        (12, 32, 5),
        (13, 33, 7),
        (11, 31, 300),
        (25, 17, 257),
        (100, 530, 3),
        (180, 40, 33),    // two A blocks (f32: 96 + 84 rows; f64: three)
        (301, 20, 520),   // three A blocks (f64: five), the last panel short
        (37, 1000, 1025), // two depth blocks
        (14, 40, 2100),   // three depth blocks
        (20, 64, 33),     // a last panel of 8 rows (the 8-row kernel, straight into C)
        (18, 48, 9),      // of 6 rows (the 8-row kernel, through the edge tile)
        (16, 70, 40),     // of 4 rows, and a short last column panel
        (25, 40, 1024),   // rows of A 4 KiB apart (f32): packed, not read in place
        (26, 64, 300),    // B read in place (columns fill whole panels, small)
        (14, 32, 2000),   // B read in place over two depth blocks (f32), packed (f64)
        (20, 40, 1500),   // the same with a packed last panel of 8 columns (f32)
        (13, 1024, 40),   // B's rows 4 KiB apart (f32): packed, not read in place
        (20, 24, 1300),   // column bands (B packed on one thread) over two depth blocks (f32)
        (3, 2, 0),
    ] {
        // row-major, A transposed, B transposed, both
        for layout in 0..4 {
            check::<f32>(m, n, k, layout, 1e-5);
            check::<f64>(m, n, k, layout, 1e-12);
        }
    }
}
