//! Piecewise polynomials with a double-double head, the special functions' tables:
//! `f(x) = m · Σₖ aₖ tᵏ` on rows that cover `[lo, hi]`, where each row is either
//! a Taylor window (`t = x − c`, formed exactly as a double-double, so a window
//! about a zero keeps the relative accuracy of `a₁·t` however close `x` is to it)
//! or a power series about 0 (`t = x²`, exact as a double-double), and `m` is `x`
//! on a table's series rows if it says so, else 1.
//!
//! `a₀ … a₃` are double-doubles summed by Horner's rule in double-double
//! ([`Dd::mul_add`]), the rest doubles summed from `t`'s high part, so the value
//! carries the head's ~2⁻¹⁰⁰ relative accuracy wherever the terms after it are small.
//!
//! The same code runs one element at a time ([`eval`], over `f64`) and, with
//! AVX-512, on vectors of eight, four vectors side by side ([`eval_slice`]): one
//! [`Lanes`] implementation each, the same IEEE operations in the same order,
//! the same bits. The double-double steps are [`crate::kernels::dd`]'s, generic
//! over the lane type. The row of an element comes from a grid of cells narrower than any
//! row, so each cell holds at most one row boundary: one table read and one
//! comparison, with no branch. Rows are stored as they are and column by column
//! ([`columns`]), where one entry of neighbouring rows is contiguous for the vector path.

#[cfg(target_arch = "x86_64")]
mod avx512;

use crate::kernels::dd::{Arith, Dd, fast_two_sum, two_prod};

/// Coefficients `a₀ … a₃`, kept as double-doubles.
pub(crate) const HEAD: usize = 4;
/// Room for the coefficients after the head, kept as doubles (rows with fewer are
/// padded with zeros, which the evaluation skips); even, as the tail is summed in pairs.
pub(crate) const TAIL: usize = 26;

// A row's layout: where the next row starts (+inf for the last), −centre as a
// double-double, 1.0 for a power series (read when the table is built), how many tail
// coefficients the row has (as a double), the head as (hi, lo) pairs, the tail.
const NEXT: usize = 0;
const NEG_CENTRE: usize = 1;
const SQUARE: usize = 3;
const TAIL_LEN: usize = 4;
const HEAD_AT: usize = 5;
const TAIL_AT: usize = HEAD_AT + 2 * HEAD;
const ROW: usize = TAIL_AT + TAIL;

/// One piece of a [`Table`], built by [`Row::window`] or [`Row::series`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row([f64; ROW]);

impl Row {
    /// A Taylor window `Σ aₖ (x − centre)ᵏ` whose successor starts at `next`
    /// (`f64::INFINITY` for the last row); `head` and `tail` as in the module docs,
    /// a head shorter than [`HEAD`] taking its missing terms from the tail.
    ///
    /// Fails to compile (const evaluation) with more than `HEAD + TAIL` terms.
    pub(crate) const fn window(next: f64, centre: Dd, head: &[Dd], tail: &[f64]) -> Row {
        let mut r = Row::coefficients(head, tail);
        r.0[NEXT] = next;
        r.0[NEG_CENTRE] = -centre.0;
        r.0[NEG_CENTRE + 1] = -centre.1;
        r
    }

    /// A power series `m · Σ aₖ x²ᵏ` (`m` as the table says).
    pub(crate) const fn series(next: f64, head: &[Dd], tail: &[f64]) -> Row {
        let mut r = Row::coefficients(head, tail);
        r.0[NEXT] = next;
        r.0[SQUARE] = 1.0;
        r
    }

    const fn coefficients(head: &[Dd], tail: &[f64]) -> Row {
        assert!(head.len() <= HEAD && head.len() + tail.len() <= HEAD + TAIL, "too many terms for a row");
        let mut r = [0.0; ROW];
        let mut k = 0;
        while k < head.len() + tail.len() {
            let (hi, lo) = if k < head.len() { (head[k].0, head[k].1) } else { (tail[k - head.len()], 0.0) };
            if k < HEAD {
                r[HEAD_AT + 2 * k] = hi;
                r[HEAD_AT + 2 * k + 1] = lo;
            } else {
                r[TAIL_AT + k - HEAD] = hi;
            }
            k += 1;
        }
        // the tail up to its last nonzero coefficient (Horner's rule over leading zero
        // pairs keeps the sum at +0, so skipping them changes no bit)
        let mut n = TAIL;
        while n > 0 && r[TAIL_AT + n - 1] == 0.0 {
            n -= 1;
        }
        r[TAIL_LEN] = n as f64;
        Row(r)
    }

    const fn tail_len(&self) -> usize {
        self.0[TAIL_LEN] as usize
    }
}

/// Zero rows after a table's last, so that the vector path may read 16 rows of a column
/// from any row.
const PAD: usize = 16;

/// How many doubles [`columns`] makes of `rows` rows.
pub(crate) const fn columns_len(rows: usize) -> usize {
    ROW * (rows + PAD)
}

/// The entries of `rows` column by column: entry `k` of row `r` at `k·(rows.len() + PAD) + r`,
/// so that one entry of neighbouring rows is contiguous. `N` must be
/// [`columns_len`]`(rows.len())`.
pub(crate) const fn columns<const N: usize>(rows: &[Row]) -> [f64; N] {
    assert!(N == columns_len(rows.len()), "column length");
    let stride = rows.len() + PAD;
    let mut out = [0.0; N];
    let mut r = 0;
    while r < rows.len() {
        let mut k = 0;
        while k < ROW {
            out[k * stride + r] = rows[r].0[k];
            k += 1;
        }
        r += 1;
    }
    out
}

/// Rows covering `[lo, hi]` and the grid that finds them, built by [`Table::new`].
pub(crate) struct Table {
    /// The rows, each's entries contiguous (for lanes that share a row).
    rows: &'static [Row],
    /// The same entries by [`columns`] (for lanes in different rows).
    cols: &'static [f64],
    /// `grid[g]`: the row holding `g · step` (cells of `step`, from 0), then 3 bytes
    /// of padding (the vector path reads 4 bytes at each cell).
    grid: &'static [u8],
    /// `1/step`, a power of two, so that `x · step_inv` is exact.
    step_inv: f64,
    /// How many tail coefficients the rows have at most.
    tail: usize,
    /// How many rows, from the first, are power series.
    series: usize,
    /// Whether the power series are multiplied by `x`.
    by_x: bool,
    pub lo: f64,
    pub hi: f64,
}

impl Table {
    /// The table of `rows` over `[lo, hi]`, kept also as `cols` (their [`columns`]) and
    /// found by `grid` (their [`grid`], with the same `step_inv`); `by_x` multiplies its
    /// power series by `x`.
    ///
    /// Fails to compile (const evaluation) unless the power series come first and every
    /// window lies within a factor of two of its centre, which makes `x − centre`'s high
    /// part exact (Sterbenz's lemma).
    pub(crate) const fn new(
        rows: &'static [Row],
        cols: &'static [f64],
        grid: &'static [u8],
        step_inv: f64,
        lo: f64,
        hi: f64,
        by_x: bool,
    ) -> Table {
        assert!(cols.len() == columns_len(rows.len()), "columns of other rows");
        let mut series = 0;
        let mut tail = 0;
        let mut start = lo;
        let mut r = 0;
        while r < rows.len() {
            let row = &rows[r].0;
            assert!(cols[NEXT * (rows.len() + PAD) + r] == row[NEXT], "columns of other rows");
            let end = if row[NEXT] < hi { row[NEXT] } else { hi };
            if row[SQUARE] != 0.0 {
                assert!(series == r, "power series rows must come first");
                series += 1;
            } else {
                let c = -row[NEG_CENTRE];
                assert!(start >= c / 2.0 && end <= 2.0 * c, "a window reaches past half or twice its centre");
            }
            if rows[r].tail_len() > tail {
                tail = rows[r].tail_len();
            }
            start = row[NEXT];
            r += 1;
        }
        Table { rows, cols, grid, step_inv, tail, series, by_x, lo, hi }
    }

    /// How many rows the table has.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Where row `r`'s successor starts (+inf for the last).
    #[cfg(test)]
    pub(crate) fn next(&self, r: usize) -> f64 {
        self.rows[r].0[NEXT]
    }

    /// Where entry `k`'s column starts in `cols`.
    #[inline(always)]
    fn at(&self, k: usize) -> usize {
        k * (self.len() + PAD)
    }
}

/// The grid for `rows`, the first starting at `lo`, with cells of `1/step_inv`:
/// `G − 3` cells must reach past `hi`, and every row must be wider than a cell.
pub(crate) const fn grid<const G: usize>(rows: &[Row], lo: f64, hi: f64, step_inv: f64) -> [u8; G] {
    assert!(rows.len() <= 256 && (G - 4) as f64 >= hi * step_inv, "grid too short");
    let mut start = lo;
    let mut r = 0;
    while r < rows.len() {
        let next = rows[r].0[NEXT];
        assert!(next - start > 1.0 / step_inv, "a row is narrower than a grid cell");
        start = next;
        r += 1;
    }
    let mut g = [0u8; G];
    let mut i = 0;
    while i < G - 3 {
        let x = i as f64 / step_inv;
        let mut r = 0;
        while r + 1 < rows.len() && rows[r].0[NEXT] <= x {
            r += 1;
        }
        g[i] = r as u8;
        i += 1;
    }
    g
}

/// What the evaluation needs besides double-double arithmetic, over one element
/// (`f64`) or a vector of them.
pub(crate) trait Lanes: Arith {
    /// A yes or no for each lane.
    type Mask: Copy;
    fn splat(v: f64) -> Self;
    /// `a` in the lanes `m` says yes to, else `b`.
    fn pick(m: Self::Mask, a: Self, b: Self) -> Self;
}

/// Where the lanes of a `V` find their rows' entries.
pub(crate) trait Rows<V: Lanes>: Copy {
    /// Entry `k` of each lane's row.
    fn entry(self, t: &Table, k: usize) -> V;
    /// The lanes whose row is a power series.
    fn series(self, t: &Table) -> V::Mask;
    /// How many tail coefficients to sum: at least each lane's row has.
    fn tail_len(self, t: &Table) -> usize;
}

impl Lanes for f64 {
    type Mask = bool;
    #[inline(always)]
    fn splat(v: f64) -> f64 {
        v
    }
    #[inline(always)]
    fn pick(m: bool, a: f64, b: f64) -> f64 {
        if m { a } else { b }
    }
}

/// One element's row, by its index.
impl Rows<f64> for usize {
    #[inline(always)]
    fn entry(self, t: &Table, k: usize) -> f64 {
        t.rows[self].0[k]
    }
    #[inline(always)]
    fn series(self, t: &Table) -> bool {
        self < t.series
    }
    #[inline(always)]
    fn tail_len(self, t: &Table) -> usize {
        t.rows[self].tail_len()
    }
}

/// The row of `x ∈ [lo, hi]`: the last whose start is at most `x`.
#[inline(always)]
pub(crate) fn row_of(t: &Table, x: f64) -> usize {
    let cell = ((x * t.step_inv) as usize).min(t.grid.len() - 4);
    let r = usize::from(t.grid[cell]);
    r + usize::from(x >= t.rows[r].0[NEXT])
}

/// `f(x)` from the rows `row`.
#[inline(always)]
fn eval_at<V: Lanes, R: Rows<V>>(t: &Table, row: R, x: V) -> V {
    let at = |k| row.entry(t, k);
    let zero = V::splat(0.0);
    // t = x − centre as a double-double: x − centre.hi is exact (Sterbenz, checked by
    // `Table::new`), and unless 0 it is at least half an ulp of centre.hi, so at least
    // |centre.lo|, as the fast two-sum needs
    let (h, l) = fast_two_sum(x.add(at(NEG_CENTRE)), at(NEG_CENTRE + 1));
    let mut arg = Dd(h, l);
    let series = row.series(t);
    if t.series > 0 {
        // t = x², exactly, in the series' lanes
        let (h, l) = two_prod(x, x);
        arg = Dd(V::pick(series, h, arg.0), V::pick(series, l, arg.1));
    }
    // the tail by Horner's rule in t² over pairs bₖ + bₖ₊₁·t: half the chain of dependent
    // steps of Horner's rule in t (the pairs are independent of it and of each other)
    let t2 = arg.0.mul(arg.0);
    let mut s = zero;
    for k in (0..row.tail_len(t).div_ceil(2)).rev() {
        let pair = at(TAIL_AT + 2 * k + 1).mul_add(arg.0, at(TAIL_AT + 2 * k));
        s = s.mul_add(t2, pair);
    }
    let mut p = Dd(s, zero);
    for k in (0..HEAD).rev() {
        p = p.mul_add(arg, Dd(at(HEAD_AT + 2 * k), at(HEAD_AT + 2 * k + 1)));
    }
    if t.series > 0 && t.by_x {
        // m·(p.0 + p.1) rounded once (m = 1 gives p.0 + p.1)
        let m = V::pick(series, x, V::splat(1.0));
        let (h, e) = two_prod(p.0, m);
        h.add(p.1.mul_add(m, e))
    } else {
        p.0.add(p.1)
    }
}

/// `f(x)` for one `x ∈ [t.lo, t.hi]` (the bits [`eval_slice`] gives it).
pub(crate) fn eval(t: &Table, x: f64) -> f64 {
    eval_at(t, row_of(t, x), x)
}

/// `f(x)` from the row `row` whatever `x` is (to compare neighbouring rows at their boundary).
#[cfg(test)]
pub(crate) fn eval_row(t: &Table, row: usize, x: f64) -> f64 {
    eval_at(t, row, x)
}

/// How a function's table is reached from a negative argument.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Symmetry {
    /// `f(−x) = f(x)`.
    Even,
    /// `f(−x) = −f(x)` (for `x < 0`).
    Odd,
    /// The table is for `x` itself.
    None,
}

/// `out[i] = f(x[i])`, where `f` is the whole function and `t` its table: elements
/// whose `|x|` (or `x`, by `sym`) lies in `[t.lo, t.hi]` are evaluated eight at a time
/// on CPUs with AVX-512 (the bits `f` gives them), the rest by `f`.
pub(crate) fn eval_slice(t: &Table, sym: Symmetry, x: &[f64], out: &mut [f64], f: fn(f64) -> f64) {
    let n = x.len().min(out.len());
    #[allow(unused_mut)]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if avx512::available() {
        // SAFETY: the CPU has AVX-512F and AVX-512VL (checked just now); `n` is within both slices.
        done = unsafe { avx512::eval_blocks(t, sym, &x[..n], &mut out[..n], f) };
    }
    for (o, &v) in out[done..n].iter_mut().zip(&x[done..n]) {
        *o = f(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f(x) = 2·x² as a series up to 1, then 3 + (x − 2) + (x − 2)⁴/2, a window about 2
    /// (up to 4): the head, a one-term tail and, in `TABLE_X`, the series times x.
    static ROWS: [Row; 2] = [
        Row::series(1.0, &[], &[0.0, 2.0]),
        Row::window(f64::INFINITY, Dd(2.0, 0.0), &[Dd(3.0, 0.0), Dd(1.0, 0.0)], &[0.0, 0.0, 0.5]),
    ];
    static GRID: [u8; 12] = grid::<12>(&ROWS, 0.0, 4.0, 2.0);
    static COLS: [f64; columns_len(2)] = columns(&ROWS);
    static TABLE: Table = Table::new(&ROWS, &COLS, &GRID, 2.0, 0.0, 4.0, false);
    static TABLE_X: Table = Table::new(&ROWS, &COLS, &GRID, 2.0, 0.0, 4.0, true);

    #[test]
    fn rows_are_found_by_the_grid_and_boundaries_go_to_the_later_row() {
        assert_eq!(&GRID[..9], &[0, 0, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!((TABLE.tail, TABLE.series), (1, 1));
        assert_eq!(row_of(&TABLE, 0.999), 0);
        assert_eq!(row_of(&TABLE, 1.0), 1);
        assert_eq!(eval(&TABLE, 0.5), 0.5);
        assert_eq!(eval(&TABLE, 1.0), 2.5);
        assert_eq!(eval(&TABLE, 1.5), 2.531_25);
        assert_eq!(eval(&TABLE, 3.0), 4.5);
        assert_eq!(eval(&TABLE, 4.0), 13.0);
        assert_eq!(eval_row(&TABLE, 0, 3.0), 18.0);
        assert_eq!(eval(&TABLE_X, 0.5), 0.25);
        assert_eq!(eval(&TABLE_X, 3.0), 4.5);
    }

    /// The whole function for each symmetry: the table inside `[0, 4]`, −7 outside.
    fn whole(t: &Table, sym: Symmetry, x: f64) -> f64 {
        let a = if sym == Symmetry::None { x } else { x.abs() };
        if !(0.0..=4.0).contains(&a) {
            return -7.0;
        }
        let v = eval(t, a);
        if sym == Symmetry::Odd && x < 0.0 { -v } else { v }
    }

    /// Eight at a time gives the bits of one at a time, in and out of the table, for each
    /// symmetry, with and without the series times x, in whole blocks and in the remainder.
    #[test]
    fn slices_give_the_bits_of_single_elements() {
        let xs: Vec<f64> =
            (0..203).map(|i| f64::from(i) * 0.0213 - 0.3).chain([f64::NAN, -0.0, 4.0, 4.5, -4.0, -1.0]).collect();
        type Whole = (&'static Table, Symmetry, fn(f64) -> f64);
        let fs: [Whole; 6] = [
            (&TABLE, Symmetry::Even, |x| whole(&TABLE, Symmetry::Even, x)),
            (&TABLE, Symmetry::Odd, |x| whole(&TABLE, Symmetry::Odd, x)),
            (&TABLE, Symmetry::None, |x| whole(&TABLE, Symmetry::None, x)),
            (&TABLE_X, Symmetry::Even, |x| whole(&TABLE_X, Symmetry::Even, x)),
            (&TABLE_X, Symmetry::Odd, |x| whole(&TABLE_X, Symmetry::Odd, x)),
            (&TABLE_X, Symmetry::None, |x| whole(&TABLE_X, Symmetry::None, x)),
        ];
        for (t, sym, f) in fs {
            let mut out = vec![0.0; xs.len()];
            eval_slice(t, sym, &xs, &mut out, f);
            let mut inside = 0;
            for (&x, &o) in xs.iter().zip(&out) {
                assert_eq!(o.to_bits(), f(x).to_bits(), "{sym:?} at {x}");
                inside += usize::from(o != -7.0);
            }
            assert!(inside > 100, "{sym:?}: {inside}");
        }
    }
}
