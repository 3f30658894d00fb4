//! Piecewise polynomials with a double-double head, the special functions' tables:
//! `f(x) = m · Σₖ aₖ tᵏ` on rows that cover `[lo, hi]`, where each row is either
//! a Taylor window (`t = x − c`, formed exactly as a double-double, so a window
//! about a zero keeps the relative accuracy of `a₁·t` however close `x` is to it)
//! or a power series about 0 (`t = x²`, exact as a double-double), and `m` is `x`
//! or 1.
//!
//! `a₀ … a₃` are double-doubles summed by Horner's rule in double-double, the
//! rest doubles summed from `t`'s high part, so the value carries the head's
//! ~2⁻¹⁰⁰ relative accuracy wherever the terms after it are small.
//!
//! The same code runs one element at a time ([`eval`], over `f64`) and, with
//! AVX-512, on vectors of eight, four vectors side by side ([`eval_slice`]): one
//! [`Lanes`] implementation each, the same IEEE operations in the same order,
//! the same bits. The double-double steps are [`crate::kernels::dd`]'s, generic
//! over the lane type. The row of an element comes from a grid of cells narrower than any
//! row, so each cell holds at most one row boundary: one table read and one
//! comparison, with no branch.

#[cfg(target_arch = "x86_64")]
mod avx512;

use crate::kernels::dd::{Arith, Dd, two_prod, two_sum};

/// Coefficients `a₀ … a₃`, kept as double-doubles.
pub(crate) const HEAD: usize = 4;
/// Room for the coefficients after the head, kept as doubles (rows with fewer are
/// padded with zeros; a table sums only as many as its longest row has, [`Table::tail`]).
pub(crate) const TAIL: usize = 25;

// A row's layout: where the next row starts (+inf for the last), the centre as a
// double-double, the two flags (1.0 or 0.0), the head as (hi, lo) pairs, the tail.
const NEXT: usize = 0;
const CENTRE: usize = 1;
const SQUARE: usize = 3;
const BY_X: usize = 4;
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
        r.0[CENTRE] = centre.0;
        r.0[CENTRE + 1] = centre.1;
        r
    }

    /// A power series `m · Σ aₖ x²ᵏ`, `m = x` if `times_x` else 1.
    pub(crate) const fn series(next: f64, head: &[Dd], tail: &[f64], times_x: bool) -> Row {
        let mut r = Row::coefficients(head, tail);
        r.0[NEXT] = next;
        r.0[SQUARE] = 1.0;
        r.0[BY_X] = if times_x { 1.0 } else { 0.0 };
        r
    }

    /// Where the next row starts (+inf for the last).
    #[cfg(test)]
    pub(crate) fn next(&self) -> f64 {
        self.0[NEXT]
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
        Row(r)
    }
}

/// Rows covering `[lo, hi]` and the grid that finds them.
pub(crate) struct Table {
    pub rows: &'static [Row],
    /// `grid[g]`: the row holding `g · step` (cells of `step`, from 0), then 3 bytes
    /// of padding (the vector path reads 4 bytes at each cell).
    pub grid: &'static [u8],
    /// `1/step`, a power of two, so that `x · step_inv` is exact.
    pub step_inv: f64,
    /// How many tail coefficients the rows use at most ([`tail_len`]).
    pub tail: usize,
    pub lo: f64,
    pub hi: f64,
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

/// How many tail coefficients the longest of `rows` has.
pub(crate) const fn tail_len(rows: &[Row]) -> usize {
    let mut n = 0;
    let mut r = 0;
    while r < rows.len() {
        let mut k = TAIL;
        while k > n && rows[r].0[TAIL_AT + k - 1] == 0.0 {
            k -= 1;
        }
        if k > n {
            n = k;
        }
        r += 1;
    }
    n
}

/// What the evaluation needs besides double-double arithmetic, over one element
/// (`f64`) or a vector of them.
pub(crate) trait Lanes: Arith {
    /// Where each lane's row is.
    type Row: Copy;
    fn splat(v: f64) -> Self;
    /// `self · b + c`, rounded once.
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// `a` where `flag ≠ 0`, else `b`.
    fn pick(flag: Self, a: Self, b: Self) -> Self;
    /// The row of `x ∈ [lo, hi]`: the last whose start is at most `x`.
    fn row_of(t: &Table, x: Self) -> Self::Row;
    /// Entry `k` of each lane's row.
    fn entry(t: &Table, row: Self::Row, k: usize) -> Self;
}

impl Lanes for f64 {
    type Row = usize;
    #[inline(always)]
    fn splat(v: f64) -> f64 {
        v
    }
    #[inline(always)]
    fn mul_add(self, b: f64, c: f64) -> f64 {
        f64::mul_add(self, b, c)
    }
    #[inline(always)]
    fn pick(flag: f64, a: f64, b: f64) -> f64 {
        if flag != 0.0 { a } else { b }
    }
    #[inline(always)]
    fn row_of(t: &Table, x: f64) -> usize {
        let cell = ((x * t.step_inv) as usize).min(t.grid.len() - 4);
        let r = usize::from(t.grid[cell]);
        r + usize::from(x >= t.rows[r].0[NEXT])
    }
    #[inline(always)]
    fn entry(t: &Table, row: usize, k: usize) -> f64 {
        t.rows[row].0[k]
    }
}

/// `f(x)` from `x`'s row, for `x ∈ [t.lo, t.hi]`.
#[inline(always)]
pub(crate) fn eval_lanes<V: Lanes>(t: &Table, x: V) -> V {
    eval_at(t, V::row_of(t, x), x)
}

/// `f(x)` from the rows `row`.
#[inline(always)]
fn eval_at<V: Lanes>(t: &Table, row: V::Row, x: V) -> V {
    let at = |k| V::entry(t, row, k);
    let zero = V::splat(0.0);
    // t = x − centre exactly (two_sum, then the centre's low part), or x² exactly
    let (s, e) = two_sum(x, zero.sub(at(CENTRE)));
    let lin = Dd(s, e).add(Dd(zero.sub(at(CENTRE + 1)), zero));
    let sq = two_prod(x, x);
    let square = at(SQUARE);
    let arg = Dd(V::pick(square, sq.0, lin.0), V::pick(square, sq.1, lin.1));
    let mut s = zero;
    for k in (0..t.tail).rev() {
        s = s.mul_add(arg.0, at(TAIL_AT + k));
    }
    let mut p = Dd(s, zero);
    for k in (0..HEAD).rev() {
        p = p.mul(arg).add(Dd(at(HEAD_AT + 2 * k), at(HEAD_AT + 2 * k + 1)));
    }
    // m = 1 rounds p once, as p.0 + p.1 would
    let m = V::pick(at(BY_X), x, V::splat(1.0));
    let Dd(h, l) = p.mul_f(m);
    h.add(l)
}

/// `f(x)` for one `x ∈ [t.lo, t.hi]` (the bits [`eval_slice`] gives it).
pub(crate) fn eval(t: &Table, x: f64) -> f64 {
    eval_lanes(t, x)
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

    /// f(x) = 1 + x (a window about 0 up to 1), then 2·x² as a series (up to 4).
    static ROWS: [Row; 2] = [
        Row::window(1.0, Dd(0.0, 0.0), &[Dd(1.0, 0.0), Dd(1.0, 0.0)], &[]),
        Row::series(f64::INFINITY, &[], &[0.0, 2.0], false),
    ];
    static GRID: [u8; 12] = grid::<12>(&ROWS, 0.0, 4.0, 2.0);
    static TABLE: Table = Table { rows: &ROWS, grid: &GRID, step_inv: 2.0, tail: tail_len(&ROWS), lo: 0.0, hi: 4.0 };

    #[test]
    fn rows_are_found_by_the_grid_and_boundaries_go_to_the_later_row() {
        assert_eq!(&GRID[..9], &[0, 0, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(TABLE.tail, 0);
        assert_eq!(<f64 as Lanes>::row_of(&TABLE, 0.999), 0);
        assert_eq!(<f64 as Lanes>::row_of(&TABLE, 1.0), 1);
        assert_eq!(eval(&TABLE, 0.5), 1.5);
        assert_eq!(eval(&TABLE, 1.0), 2.0);
        assert_eq!(eval(&TABLE, 3.0), 18.0);
        assert_eq!(eval(&TABLE, 4.0), 32.0);
        assert_eq!(eval_row(&TABLE, 0, 3.0), 4.0);
    }

    /// The whole function for each symmetry: the table inside `[0, 4]`, −7 outside.
    fn whole(sym: Symmetry, x: f64) -> f64 {
        let a = if sym == Symmetry::None { x } else { x.abs() };
        if !(0.0..=4.0).contains(&a) {
            return -7.0;
        }
        let v = eval(&TABLE, a);
        if sym == Symmetry::Odd && x < 0.0 { -v } else { v }
    }

    /// Eight at a time gives the bits of one at a time, in and out of the table, for each
    /// symmetry, in whole blocks and in the remainder.
    #[test]
    fn slices_give_the_bits_of_single_elements() {
        let xs: Vec<f64> =
            (0..203).map(|i| f64::from(i) * 0.0213 - 0.3).chain([f64::NAN, -0.0, 4.0, 4.5, -4.0, -1.0]).collect();
        type Whole = (Symmetry, fn(f64) -> f64);
        let fs: [Whole; 3] = [
            (Symmetry::Even, |x| whole(Symmetry::Even, x)),
            (Symmetry::Odd, |x| whole(Symmetry::Odd, x)),
            (Symmetry::None, |x| whole(Symmetry::None, x)),
        ];
        for (sym, f) in fs {
            let mut out = vec![0.0; xs.len()];
            eval_slice(&TABLE, sym, &xs, &mut out, f);
            let mut inside = 0;
            for (&x, &o) in xs.iter().zip(&out) {
                assert_eq!(o.to_bits(), f(x).to_bits(), "{sym:?} at {x}");
                inside += usize::from(o != -7.0);
            }
            assert!(inside > 100, "{sym:?}: {inside}");
        }
    }
}
