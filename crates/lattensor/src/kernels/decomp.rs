//! Matrix decompositions of one matrix at a time, on faer.
//!
//! Each function reads one matrix stored row-major in a slice, runs faer's
//! factorisation (partial-pivot LU, Cholesky, Householder QR, self-adjoint
//! eigensolver, SVD) and writes its results row-major into `Vec`s. The ops layer
//! (`ops::decomp`) validates shapes and dtypes, loops over batch axes and builds
//! tensors; nothing here allocates a tensor or knows about dtypes beyond the
//! element type [`Field`].
//!
//! faer runs single-threaded here (no `rayon` feature): the batch loop of the
//! ops layer is where a batched call would parallelise.

use faer::linalg::solvers::{DenseSolveCore, Solve};
use faer::{MatRef, Side};
use num_complex::Complex;
use num_traits::{Float, One, Zero};

use crate::core::element::Element;

/// The element types faer factorises: f32, f64, complex64 and complex128.
pub(crate) trait Field: faer::traits::ComplexField<Real = Self::R> + Element + Copy {
    /// The real type of the modulus, eigenvalues and singular values.
    type R: faer::traits::RealField + Element + Float;
    /// `|self|`.
    fn modulus(self) -> Self::R;
    /// `self / |self|` (the unit-modulus sign; 0 for 0).
    fn unit(self) -> Self;
    /// The real value `r` as `Self`.
    fn from_r(r: Self::R) -> Self;
    /// The complex conjugate.
    fn conjugate(self) -> Self;
    /// `self · other`.
    fn times(self, other: Self) -> Self;
}

macro_rules! real_field {
    ($t:ty) => {
        impl Field for $t {
            type R = $t;
            fn modulus(self) -> $t {
                self.abs()
            }
            fn unit(self) -> $t {
                if self == 0.0 { 0.0 } else { self.signum() }
            }
            fn from_r(r: $t) -> $t {
                r
            }
            fn conjugate(self) -> $t {
                self
            }
            fn times(self, other: $t) -> $t {
                self * other
            }
        }
    };
}
real_field!(f32);
real_field!(f64);

macro_rules! complex_field {
    ($r:ty) => {
        impl Field for Complex<$r> {
            type R = $r;
            fn modulus(self) -> $r {
                self.norm()
            }
            fn unit(self) -> Self {
                let m = self.norm();
                if m == 0.0 { Complex::zero() } else { self / m }
            }
            fn from_r(r: $r) -> Self {
                Complex::new(r, 0.0)
            }
            fn conjugate(self) -> Self {
                self.conj()
            }
            fn times(self, other: Self) -> Self {
                self * other
            }
        }
    };
}
complex_field!(f32);
complex_field!(f64);

/// Why a factorisation of one matrix failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// Cholesky met a non-positive pivot at this index: the matrix is not
    /// (numerically) Hermitian positive-definite.
    NotPositiveDefinite(usize),
    /// LU met an exactly zero pivot: the matrix is singular.
    Singular,
    /// The iterative eigensolver or SVD did not converge (e.g. NaN input).
    NoConvergence,
}

fn view<T: Field>(a: &[T], m: usize, n: usize) -> MatRef<'_, T> {
    MatRef::from_row_major_slice(a, m, n)
}

/// `src` row-major into `out` (conjugated if `conj`, transposed if `transpose`).
fn write<T: Field>(src: MatRef<'_, T>, out: &mut Vec<T>, transpose: bool, conj: bool) {
    let (m, n) = if transpose { (src.ncols(), src.nrows()) } else { (src.nrows(), src.ncols()) };
    for i in 0..m {
        for j in 0..n {
            let v = if transpose { src[(j, i)] } else { src[(i, j)] };
            out.push(if conj { v.conjugate() } else { v });
        }
    }
}

/// The Cholesky factor of the `n × n` Hermitian positive-definite `a`: lower `L`
/// (`a = L Lᴴ`, reading `a`'s lower triangle) or, if `upper`, `U = Lᴴ`
/// (`a = Uᴴ U`, reading the upper triangle), appended to `out`.
pub(crate) fn cholesky<T: Field>(a: &[T], n: usize, upper: bool, out: &mut Vec<T>) -> Result<(), Failure> {
    let side = if upper { Side::Upper } else { Side::Lower };
    let llt = view(a, n, n).llt(side).map_err(|e| match e {
        faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index } => {
            Failure::NotPositiveDefinite(index)
        }
    })?;
    let l = llt.L();
    let start = out.len();
    write(l, out, upper, upper);
    // faer leaves the other triangle unspecified in its view; the factor is triangular
    for i in 0..n {
        for j in 0..n {
            if (upper && j < i) || (!upper && j > i) {
                out[start + i * n + j] = T::from_r(<T::R as Zero>::zero());
            }
        }
    }
    Ok(())
}

/// The sign (unit modulus; 0 if singular) and log of the absolute value of the
/// determinant of the `n × n` matrix `a`, from its partial-pivot LU.
pub(crate) fn slogdet<T: Field>(a: &[T], n: usize) -> (T, T::R) {
    if n == 0 {
        return (T::from_r(<T::R as num_traits::One>::one()), <T::R as Zero>::zero());
    }
    let lu = view(a, n, n).partial_piv_lu();
    let u = lu.U();
    let (fwd, _) = lu.P().arrays();
    // the permutation's parity: n minus its number of cycles
    let mut seen = vec![false; n];
    let mut odd = false;
    for s in 0..n {
        let mut i = s;
        let mut len = 0usize;
        while !seen[i] {
            seen[i] = true;
            i = fwd[i];
            len += 1;
        }
        if len > 0 && len.is_multiple_of(2) {
            odd = !odd;
        }
    }
    let one = <T::R as num_traits::One>::one();
    let mut sign = T::from_r(if odd { -one } else { one });
    let mut logabs = <T::R as Zero>::zero();
    for i in 0..n {
        let d = u[(i, i)];
        let m = d.modulus();
        if m == <T::R as Zero>::zero() {
            return (T::from_r(<T::R as Zero>::zero()), <T::R as Float>::neg_infinity());
        }
        sign = sign.times(d.unit());
        logabs += m.ln();
    }
    (sign, logabs)
}

/// The determinant of the `n × n` matrix `a` (the product of its LU pivots, signed
/// by the permutation), computed as faer does.
pub(crate) fn det<T: Field>(a: &[T], n: usize) -> T {
    if n == 0 {
        return T::from_r(<T::R as num_traits::One>::one());
    }
    view(a, n, n).determinant()
}

/// `true` if the partial-pivot LU of `a` has an exactly zero pivot (LAPACK's
/// `getrf` test, which NumPy and TF use to call a matrix singular).
fn has_zero_pivot<T: Field>(u: MatRef<'_, T>) -> bool {
    (0..u.nrows()).any(|i| u[(i, i)].modulus() == <T::R as Zero>::zero())
}

/// The inverse of the `n × n` matrix `a`, appended to `out`.
pub(crate) fn inv<T: Field>(a: &[T], n: usize, out: &mut Vec<T>) -> Result<(), Failure> {
    let lu = view(a, n, n).partial_piv_lu();
    if has_zero_pivot(lu.U()) {
        return Err(Failure::Singular);
    }
    write(lu.inverse().as_ref(), out, false, false);
    Ok(())
}

/// The solution `x` of `a x = b` for the `n × n` matrix `a` and the `n × k`
/// matrix `b`, appended to `out` (`n × k`).
pub(crate) fn solve<T: Field>(a: &[T], n: usize, b: &[T], k: usize, out: &mut Vec<T>) -> Result<(), Failure> {
    let lu = view(a, n, n).partial_piv_lu();
    if has_zero_pivot(lu.U()) {
        return Err(Failure::Singular);
    }
    let x = lu.solve(view(b, n, k));
    write(x.as_ref(), out, false, false);
    Ok(())
}

/// The Householder QR of the `m × n` matrix `a`: `Q` (`m × m` if `complete`, else
/// `m × min(m, n)`) appended to `q` unless `q` is `None`, and `R` (`m × n` if
/// `complete`, else `min(m, n) × n`) appended to `r`.
pub(crate) fn qr<T: Field>(a: &[T], m: usize, n: usize, complete: bool, q: Option<&mut Vec<T>>, r: &mut Vec<T>) {
    let f = view(a, m, n).qr();
    let start = r.len();
    let zero = T::from_r(<T::R as Zero>::zero());
    let rm = f.thin_R();
    write(rm, r, false, false);
    // R is upper trapezoidal; make the part below the diagonal exactly zero
    let rows = rm.nrows();
    for i in 0..rows {
        for j in 0..n.min(i) {
            r[start + i * n + j] = zero;
        }
    }
    // R's diagonal is made real, as LAPACK's (so a QR is unique up to the signs
    // of R's rows, and gradients can follow TF's formula): row k of R times c_k,
    // column k of Q times conj(c_k). The sign follows LAPACK's rule where faer's
    // d_k tells it: a reflected d_k is -α·‖x‖/|α| where LAPACK's is
    // -sign(Re α)·‖x‖, so it keeps the sign of Re d_k; a last row of length one
    // (m ≤ n) faer leaves unreflected (d_k = α), LAPACK reflects to -sign(Re α)|α|.
    // The pivots α of the two libraries differ by phases, so a few signs (about
    // 1 complex matrix in 12) differ from LAPACK's.
    let one = T::from_r(<T::R as One>::one());
    let zero_r = <T::R as Zero>::zero();
    let signed: Vec<Option<T::R>> = (0..rows)
        .map(|k| {
            let d = r[start + k * n + k];
            if d == T::from_r(d.real_part()) {
                return None;
            }
            let positive = (d.real_part() > zero_r) != (k + 1 == m);
            Some(if positive { d.modulus() } else { -d.modulus() })
        })
        .collect();
    let phases: Vec<T> = (0..rows)
        .map(|k| signed[k].map_or(one, |t| T::from_r(t).times(r[start + k * n + k].unit().conjugate()).unit()))
        .collect();
    for (k, &c) in phases.iter().enumerate() {
        if let Some(t) = signed[k] {
            r[start + k * n..start + (k + 1) * n].iter_mut().for_each(|v| *v = v.times(c));
            // exactly real, not c·d with a rounding residue in its imaginary part
            r[start + k * n + k] = T::from_r(t);
        }
    }
    if let Some(q) = q {
        let qm = if complete { f.compute_Q() } else { f.compute_thin_Q() };
        let (qstart, cols) = (q.len(), qm.ncols());
        write(qm.as_ref(), q, false, false);
        for (k, &c) in phases.iter().enumerate() {
            if c != one {
                let c = c.conjugate();
                (0..m).for_each(|i| q[qstart + i * cols + k] = q[qstart + i * cols + k].times(c));
            }
        }
    }
    // the complete R of a tall matrix is the thin one over m - n zero rows
    if complete {
        r.resize(start + m * n, zero);
    }
}

/// The eigenvalues (ascending) of the `n × n` Hermitian `a`, reading its lower
/// triangle, appended to `w`; with `v`, the eigenvectors as columns (`n × n`).
pub(crate) fn eigh<T: Field>(a: &[T], n: usize, w: &mut Vec<T::R>, v: Option<&mut Vec<T>>) -> Result<(), Failure> {
    let a = view(a, n, n);
    match v {
        Some(v) => {
            let e = a.self_adjoint_eigen(Side::Lower).map_err(|_| Failure::NoConvergence)?;
            let s = e.S().column_vector();
            w.extend((0..n).map(|i| s[i].real_part()));
            write(e.U(), v, false, false);
        }
        None => w.extend(a.self_adjoint_eigenvalues(Side::Lower).map_err(|_| Failure::NoConvergence)?),
    }
    Ok(())
}

/// The singular values (descending) of the `m × n` matrix `a`, appended to `s`;
/// with `uv`, also `U` and `Vᴴ` (`m × m` and `n × n` if `full`, else `m × k` and
/// `k × n` for `k = min(m, n)`).
pub(crate) fn svd<T: Field>(
    a: &[T],
    m: usize,
    n: usize,
    full: bool,
    s: &mut Vec<T::R>,
    uv: Option<(&mut Vec<T>, &mut Vec<T>)>,
) -> Result<(), Failure> {
    // scale by the largest modulus first, so squares of large entries cannot
    // overflow inside the bidiagonalisation (the singular values scale back)
    let (scaled, scale) = normalised(a);
    let a = view(scaled.as_deref().unwrap_or(a), m, n);
    let start = s.len();
    match uv {
        Some((u, vh)) => {
            let f = if full { a.svd() } else { a.thin_svd() }.map_err(|_| Failure::NoConvergence)?;
            let d = f.S().column_vector();
            s.extend((0..m.min(n)).map(|i| d[i].real_part()));
            write(f.U(), u, false, false);
            write(f.V(), vh, true, true);
        }
        None => s.extend(a.singular_values().map_err(|_| Failure::NoConvergence)?),
    }
    if scale != <T::R as num_traits::One>::one() {
        s[start..].iter_mut().for_each(|v| *v *= scale);
    }
    Ok(())
}

/// `a` divided by its largest modulus when that is finite, non-zero and not
/// 1 (`None` otherwise), and the divisor.
fn normalised<T: Field>(a: &[T]) -> (Option<Vec<T>>, T::R) {
    let one = <T::R as num_traits::One>::one();
    let big = a.iter().fold(<T::R as Zero>::zero(), |m, v| m.max(v.modulus()));
    if !big.is_finite() || big == <T::R as Zero>::zero() || big == one {
        return (None, one);
    }
    let inv = T::from_r(one / big);
    (Some(a.iter().map(|v| v.times(inv)).collect()), big)
}

/// The eigenvalues of the general `n × n` matrix `a` (complex, in faer's
/// order), appended to `w`; with `v`, the eigenvectors as columns (`n × n`,
/// complex, unit norm).
pub(crate) fn eig<T: Field>(
    a: &[T],
    n: usize,
    w: &mut Vec<Complex<T::R>>,
    v: Option<&mut Vec<Complex<T::R>>>,
) -> Result<(), Failure> {
    let (scaled, scale) = normalised(a);
    let a = view(scaled.as_deref().unwrap_or(a), n, n);
    let start = w.len();
    match v {
        Some(v) => {
            let e = a.eigen().map_err(|_| Failure::NoConvergence)?;
            let s = e.S().column_vector();
            w.extend((0..n).map(|i| s[i]));
            let u = e.U();
            for i in 0..n {
                for j in 0..n {
                    v.push(u[(i, j)]);
                }
            }
        }
        None => w.extend(a.eigenvalues().map_err(|_| Failure::NoConvergence)?),
    }
    w[start..].iter_mut().for_each(|x| *x *= scale);
    Ok(())
}

/// The real part, for the diagonal of faer's eigenvalue and singular-value results.
trait RealPart<R> {
    fn real_part(self) -> R;
}

impl<T: Field> RealPart<T::R> for T {
    fn real_part(self) -> T::R {
        faer::traits::ComplexField::real_part_impl(&self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slogdet_counts_the_permutation_parity() {
        // [[0, 1], [1, 0]] needs one row swap: det = -1
        let (sign, logabs) = slogdet(&[0.0f64, 1.0, 1.0, 0.0], 2);
        assert_eq!((sign, logabs), (-1.0, 0.0));
        let (sign, logabs) = slogdet(&[2.0f64, 0.0, 0.0, 3.0], 2);
        assert_eq!(sign, 1.0);
        assert!((logabs - 6.0f64.ln()).abs() < 1e-15);
        assert_eq!(slogdet(&[1.0f64, 2.0, 2.0, 4.0], 2), (0.0, f64::NEG_INFINITY));
    }

    #[test]
    fn singular_and_indefinite_matrices_fail() {
        let mut out = Vec::new();
        assert_eq!(inv(&[1.0f32, 2.0, 2.0, 4.0], 2, &mut out), Err(Failure::Singular));
        let mut out64 = Vec::new();
        assert_eq!(cholesky(&[1.0f64, 2.0, 2.0, 1.0], 2, false, &mut out64), Err(Failure::NotPositiveDefinite(1)));
    }

    #[test]
    fn cholesky_upper_is_the_adjoint_of_lower() {
        let a = [Complex::new(4.0f64, 0.0), Complex::new(1.0, -1.0), Complex::new(1.0, 1.0), Complex::new(3.0, 0.0)];
        let (mut l, mut u) = (Vec::new(), Vec::new());
        cholesky(&a, 2, false, &mut l).unwrap();
        cholesky(&a, 2, true, &mut u).unwrap();
        assert_eq!(l[1], Complex::new(0.0, 0.0));
        assert_eq!(u[2], Complex::new(0.0, 0.0));
        assert!((u[1] - l[2].conj()).norm() < 1e-14);
        assert_eq!(l[0], Complex::new(2.0, 0.0));
    }
}
