//! `eˣ` for f32 in double-double arithmetic, for the rare inputs (about one in
//! 2²⁰) whose fast f64 value lies too near an f32 rounding boundary to round
//! from: the value to well within 2⁻⁹⁰ ([`Dd::exp`]), and its f32 rounding
//! decided against the boundaries on either side.

use crate::kernels::dd::Dd;

/// Relative error bound of [`Dd::exp`] used to decide the rounding: the
/// reduction's error (below 2⁻¹⁰⁰ absolute on r for |k| ≤ 151) plus 22 Horner
/// steps of a few 2⁻¹⁰⁴ each stay below 2⁻⁹⁶; 2⁻⁹⁰ leaves room.
pub(super) const EXACT_BOUND: f64 = 1.0 / (1u128 << 90) as f64;

/// The correctly rounded f32 `eˣ` for finite |x| ≤ 104, or `None` if the
/// double-double value lies within 4·[`EXACT_BOUND`] of a rounding boundary
/// (no f32 input does: the tests check every input near a boundary), or if x
/// is outside that range.
pub(super) fn exp_f32_exact(x: f32) -> Option<f32> {
    if x.is_nan() || x.abs() > 104.0 {
        return None;
    }
    // eˣ ≥ 2⁻¹⁵¹ keeps both parts' scaling by 2ᵏ exact (normal f64)
    let Dd(hi, lo) = Dd(f64::from(x), 0.0).exp();
    round_dd_to_f32(hi, lo, hi * 4.0 * EXACT_BOUND)
}

/// `hi + lo` (positive, |lo| ≤ ½ ulp of `hi`) rounded to the nearest f32 when the
/// exact value it stands for, within `tol` of it, is on a known side of every
/// boundary; else `None`. The boundaries next to `a`, the f32 nearest `hi`, are
/// the midpoints to its neighbours (exact in f64), 2¹²⁸ − 2¹⁰³ between f32::MAX
/// and infinity, and none below 0.
fn round_dd_to_f32(hi: f64, lo: f64, tol: f64) -> Option<f32> {
    const OVERFLOW: f64 = 340_282_356_779_733_661_637_539_395_458_142_568_448.0; // 2¹²⁸ − 2¹⁰³
    let a = hi as f32;
    let mid = |b: f32| if a.is_infinite() || b.is_infinite() { OVERFLOW } else { (f64::from(a) + f64::from(b)) / 2.0 };
    let bits = a.to_bits();
    if a.is_finite() {
        let above = f32::from_bits(bits + 1);
        // hi − m is exact (the two are within a factor of two), lo is added once
        let d = (hi - mid(above)) + lo;
        if d > tol {
            return Some(above);
        }
        if d >= -tol {
            return None;
        }
    }
    if a > 0.0 {
        let below = f32::from_bits(bits - 1);
        let d = (hi - mid(below)) + lo;
        if d < -tol {
            return Some(below);
        }
        if d <= tol {
            return None;
        }
    }
    Some(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_decides_on_either_side_of_a_boundary_and_refuses_within_the_tolerance() {
        let m = 1.0 + f64::powi(2.0, -24); // the midpoint between 1 and the next f32
        let next = f32::from_bits(1.0f32.to_bits() + 1);
        let tiny = f64::powi(2.0, -80);
        assert_eq!(round_dd_to_f32(m, tiny, tiny / 4.0), Some(next));
        assert_eq!(round_dd_to_f32(m, -tiny, tiny / 4.0), Some(1.0));
        assert_eq!(round_dd_to_f32(m, tiny, tiny * 4.0), None);
        // below 1 the midpoint is 1 − 2⁻²⁵
        let m = 1.0 - f64::powi(2.0, -25);
        assert_eq!(round_dd_to_f32(m, tiny, tiny / 4.0), Some(1.0));
        assert_eq!(round_dd_to_f32(m, -tiny, tiny / 4.0), Some(f32::from_bits(1.0f32.to_bits() - 1)));
        // the subnormal range: 2⁻¹⁵⁰ between 0 and the least subnormal
        let m = f64::powi(2.0, -150);
        let t = f64::powi(2.0, -220);
        assert_eq!(round_dd_to_f32(m, t, t / 4.0), Some(f32::from_bits(1)));
        assert_eq!(round_dd_to_f32(m, -t, t / 4.0), Some(0.0));
        // overflow: 2¹²⁸ − 2¹⁰³ between f32::MAX and infinity
        let m = 340_282_356_779_733_661_637_539_395_458_142_568_448.0;
        let t = f64::powi(2.0, 40);
        assert_eq!(round_dd_to_f32(m, t, t / 4.0), Some(f32::INFINITY));
        assert_eq!(round_dd_to_f32(m, -t, t / 4.0), Some(f32::MAX));
        // away from any boundary, the nearest f32
        assert_eq!(round_dd_to_f32(1.5, 1e-20, 1e-25), Some(1.5));
    }
}
