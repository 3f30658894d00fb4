//! Matrix decompositions and solves (`ops::decomp`): the matrix-calculus
//! vector-Jacobian products TF's `linalg_grad.py` uses, written with the
//! library's ops so that they are differentiable again. Complex inputs follow
//! the conjugate convention of every rule here. Like TF's, the rules of
//! `cholesky` and `eigh` give the gradient of a function of a Hermitian
//! matrix: `cholesky`'s is Hermitian, `eigh`'s (whose forward reads the lower
//! triangle) is lower triangular.

use crate::Tensor;
use crate::core::error::{Error, Result};
use crate::core::tape::LinalgOp;
use crate::ops::linalg::{band_part, diag, diag_part, matmul, matrix_transpose};
use crate::ops::{self, decomp};

/// The gradients of a decomposition's inputs `x`, given its outputs `y` and
/// their gradients `g` (zeros for outputs the target does not depend on).
pub(super) fn vjp(op: LinalgOp, x: &[Tensor], y: &[Tensor], g: &[Tensor]) -> Result<Vec<Option<Tensor>>> {
    let one = |t: Tensor| Ok(vec![Some(t)]);
    match op {
        LinalgOp::Inv => one(ops::negative(&mm(&mm(&adj(&y[0])?, &g[0])?, &adj(&y[0])?)?)?),
        LinalgOp::Det => {
            let k = ops::multiply(&g[0], &ops::conj(&y[0])?)?;
            one(ops::multiply(&per_matrix(&k)?, &adj(&decomp::inv(&x[0])?)?)?)
        }
        LinalgOp::Slogdet => one(ops::multiply(&per_matrix(&g[1])?, &adj(&decomp::inv(&x[0])?)?)?),
        LinalgOp::Solve => {
            let gb = decomp::solve(&adj(&x[0])?, &g[0])?;
            let ga = ops::negative(&mm(&gb, &adj(&y[0])?)?)?;
            Ok(vec![Some(ga), Some(gb)])
        }
        LinalgOp::Cholesky { upper } => {
            let (l, gl) = if upper { (adj(&y[0])?, adj(&g[0])?) } else { (y[0].clone(), g[0].clone()) };
            one(cholesky(&l, &gl)?)
        }
        LinalgOp::Eigh => one(eigh(&y[0], &y[1], &g[0], Some(&g[1]))?),
        LinalgOp::Eigvalsh => {
            let (e, v) = decomp::eigh(&x[0])?;
            one(eigh(&e, &v, &g[0], None)?)
        }
        LinalgOp::Svdvals => {
            let (u, _, vh) = decomp::svd(&x[0], false)?;
            one(mm(&mm(&u, &diag(&g[0].cast(u.dtype())?)?)?, &vh)?)
        }
        LinalgOp::Svd { full_matrices } => one(svd(&x[0], y, g, full_matrices)?),
        LinalgOp::Qr { complete } => one(qr(&x[0], &y[0], &y[1], &g[0], &g[1], complete)?),
    }
}

fn adj(t: &Tensor) -> Result<Tensor> {
    matrix_transpose(t, true)
}

fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    matmul(a, b, false, false)
}

/// A batch of numbers (shape `[..]`) as `[.., 1, 1]`, to scale a batch of matrices.
fn per_matrix(t: &Tensor) -> Result<Tensor> {
    t.expand_dims(-1)?.expand_dims(-1)
}

/// The lower triangle of `t` with its diagonal halved.
fn lower_half_diagonal(t: &Tensor) -> Result<Tensor> {
    ops::subtract(&band_part(t, -1, 0)?, &ops::multiply(&band_part(t, 0, 0)?, 0.5)?)
}

/// `[i, j] ↦ 1 / (d[j] - d[i])` off the diagonal, 0 on it.
fn inverse_gaps(d: &Tensor) -> Result<Tensor> {
    let gap = ops::subtract(&d.expand_dims(-2)?, &d.expand_dims(-1)?)?;
    let n = d.shape()[d.rank() - 1];
    let eye = crate::eye(n, None, d.dtype())?;
    // 1 / (gap + I) · (1 - I): no division by the zero diagonal
    ops::multiply(&ops::reciprocal(&ops::add(&gap, &eye)?)?, &ops::subtract(&crate::ones_like(&eye, None)?, &eye)?)
}

/// `cholesky`: `Φ = Lᴴ Ḡ`, `S = L⁻ᴴ · tril(Φ, diagonal halved) · L⁻¹`, `Ā = (S + Sᴴ) / 2`.
fn cholesky(l: &Tensor, gl: &Tensor) -> Result<Tensor> {
    let middle = lower_half_diagonal(&mm(&adj(l)?, gl)?)?;
    let l_inv = decomp::inv(l)?;
    let s = mm(&mm(&adj(&l_inv)?, &middle)?, &l_inv)?;
    ops::multiply(&ops::add(&s, &adj(&s)?)?, 0.5)
}

/// `eigh`: `Ā = V (diag(ē) + F ∘ (Vᴴ V̄)) Vᴴ` with `F[i, j] = 1 / (e[j] - e[i])`,
/// then folded onto the lower triangle the forward reads.
fn eigh(e: &Tensor, v: &Tensor, ge: &Tensor, gv: Option<&Tensor>) -> Result<Tensor> {
    let mut inner = diag(&ge.cast(v.dtype())?)?;
    if let Some(gv) = gv {
        let f = inverse_gaps(e)?.cast(v.dtype())?;
        inner = ops::add(&inner, &ops::multiply(&f, &mm(&adj(v)?, gv)?)?)?;
    }
    let ga = mm(&mm(v, &inner)?, &adj(v)?)?;
    lower_half_diagonal(&ops::add(&ga, &adj(&ga)?)?)
}

/// `svd` (reduced, or full for square matrices), with TF's formula: a wide
/// matrix is differentiated through its adjoint.
fn svd(a: &Tensor, y: &[Tensor], g: &[Tensor], full_matrices: bool) -> Result<Tensor> {
    let (m, n) = (a.shape()[a.rank() - 2], a.shape()[a.rank() - 1]);
    if full_matrices && m != n {
        return Err(Error::Unimplemented(format!(
            "svd: the gradient of full_matrices=True is defined for square matrices only, got {m} × {n}; \
             use full_matrices=False"
        )));
    }
    // U, V (= Vhᴴ) and their gradients, the tall orientation first
    let (u, s, v) = (&y[0], &y[1], adj(&y[2])?);
    let (gu, gs, gv) = (&g[0], &g[1], adj(&g[2])?);
    let wide = m < n;
    let (u, v, gu, gv) = if wide { (v, u.clone(), gv, gu.clone()) } else { (u.clone(), v, gu.clone(), gv) };
    let dt = u.dtype();
    let s_mat = diag(&s.cast(dt)?)?;
    let s2 = ops::square(s)?;
    let f = inverse_gaps(&s2)?.cast(dt)?;
    let u_gu = mm(&adj(&u)?, &gu)?;
    let v_gv = mm(&adj(&v)?, &gv)?;
    let f_u = ops::multiply(&f, &u_gu)?;
    let f_v = ops::multiply(&f, &v_gv)?;
    let mut inner = diag(&gs.cast(dt)?)?;
    inner = ops::add(&inner, &mm(&ops::add(&f_u, &adj(&f_u)?)?, &s_mat)?)?;
    inner = ops::add(&inner, &mm(&s_mat, &ops::add(&f_v, &adj(&f_v)?)?)?)?;
    let s_inv = diag(&ops::reciprocal(s)?.cast(dt)?)?;
    if dt.is_complex() {
        // the phase freedom of each singular pair: ½ S⁻¹ (Lᴴ - L), L = I ∘ (Vᴴ V̄)
        let l = ops::multiply(&crate::eye(v_gv.shape()[v_gv.rank() - 1], None, dt)?, &v_gv)?;
        inner = ops::add(&inner, &ops::multiply(&mm(&s_inv, &ops::subtract(&adj(&l)?, &l)?)?, 0.5)?)?;
    }
    let mut ga = mm(&mm(&u, &inner)?, &adj(&v)?)?;
    let (rows, cols) = if wide { (n, m) } else { (m, n) };
    if rows != cols {
        // the part of Ū outside U's column space: (I - U Uᴴ) Ū S⁻¹ Vᴴ
        let outside = ops::subtract(&gu, &mm(&u, &u_gu)?)?;
        ga = ops::add(&ga, &mm(&mm(&outside, &s_inv)?, &adj(&v)?)?)?;
    }
    if wide { adj(&ga) } else { Ok(ga) }
}

/// `qr` of a matrix with at least as many rows as columns (reduced mode), or
/// a square one, by TF's formula: with `D = Qᴴ Q̄ - (Qᴴ Q̄)ᴴ + R R̄ᴴ - (R R̄ᴴ)ᴴ`,
/// `Ā = Q (R̄ + tril(D) R⁻ᴴ) + (Q̄ - Q Qᴴ Q̄) R⁻ᴴ`, plus for complex input the
/// imaginary part of `diag(R R̄ᴴ - (Qᴴ Q̄)ᴴ)` carried through `Q … R⁻ᴴ`.
fn qr(a: &Tensor, q: &Tensor, r: &Tensor, gq: &Tensor, gr: &Tensor, complete: bool) -> Result<Tensor> {
    let (m, n) = (a.shape()[a.rank() - 2], a.shape()[a.rank() - 1]);
    if m < n || (complete && m != n) {
        return Err(Error::Unimplemented(format!(
            "qr: the gradient is defined for matrices with at least as many rows as columns in \
             mode='reduced' (square ones in mode='complete'), got {m} × {n}"
        )));
    }
    // x R⁻ᴴ, as the adjoint of the solve of R z = xᴴ
    let times_r_inv_adj = |x: &Tensor| adj(&decomp::solve(r, &adj(x)?)?);
    let qdq = mm(&adj(q)?, gq)?;
    let rdr = mm(r, &adj(gr)?)?;
    let d = ops::add(&ops::subtract(&qdq, &adj(&qdq)?)?, &ops::subtract(&rdr, &adj(&rdr)?)?)?;
    let grad_a = mm(q, &ops::add(gr, &times_r_inv_adj(&band_part(&d, -1, 0)?)?)?)?;
    let grad_b = times_r_inv_adj(&ops::subtract(gq, &mm(q, &qdq)?)?)?;
    let mut ga = ops::add(&grad_a, &grad_b)?;
    if q.dtype().is_complex() {
        let md = diag_part(&ops::subtract(&rdr, &adj(&qdq)?)?)?;
        let correction = diag(&ops::subtract(&md, &ops::real(&md)?.cast(md.dtype())?)?)?;
        ga = ops::add(&ga, &times_r_inv_adj(&mm(q, &adj(&correction)?)?)?)?;
    }
    Ok(ga)
}
