// The constants of `exp` f32: the reduction, the table, the polynomial and the
// boundary test. Included by `mod.rs` and by the standalone loop in
// `bench/probes/exp_flags.rs`, so that both run on the same values.

/// 2^(j/16) for j = 0..16, correctly rounded to f64 (computed with mpmath).
const EXP2_SIXTEENTHS: [u64; 16] = [
    0x3ff0000000000000,
    0x3ff0b5586cf9890f,
    0x3ff172b83c7d517b,
    0x3ff2387a6e756238,
    0x3ff306fe0a31b715,
    0x3ff3dea64c123422,
    0x3ff4bfdad5362a27,
    0x3ff5ab07dd485429,
    0x3ff6a09e667f3bcd,
    0x3ff7a11473eb0187,
    0x3ff8ace5422aa0db,
    0x3ff9c49182a3f090,
    0x3ffae89f995ad3ad,
    0x3ffc199bdd85529c,
    0x3ffd5818dcfba487,
    0x3ffea4afa2a490da,
];
/// 1.5·2⁵²: adding it puts round(v) in the low mantissa bits.
const SHIFTER: f64 = 6_755_399_441_055_744.0;
const SIXTEEN_LOG2E: f64 = 23.083_120_654_223_414;
/// ln2/16 rounded to f64: its error, 1.4·10⁻¹⁸, times |n| ≤ 2401 stays below 2⁻⁴⁸.
const LN2_SIXTEENTH: f64 = 0.043_321_698_784_996_58;
/// The degree-5 polynomial with P(0) = 1 of least maximum relative error for
/// eʳ on |r| ≤ 1.001·ln2/32, highest coefficient first (for Horner): 2⁻⁴⁷·⁴ with
/// these f64 coefficients, 22× below the Taylor polynomial's 2⁻⁴²·⁶. (A free
/// constant term would gain little and be 2⁻⁴⁷·⁷ off at r = 0, where tiny x
/// need e^x = 1 + x exactly to within far less.)
/// From `scripts/golden/exp_f32_poly.py` (Remez exchange in mpmath).
const EXP_POLY: [f64; 6] =
    [0.008333163282539833, 0.04166757577055335, 0.16666666681643652, 0.499999999867768, 0.9999999999999822, 1.0];
/// Beyond ±104 every f32 result is inf or 0; clamping there keeps 16·x·log₂e
/// far inside the shifter's range and 2ᵏ inside f64's normal range.
const EXP_CLAMP: f64 = 104.0;

/// The fast value's rounding is sure when the f64 values 2⁻⁴⁵ below and above
/// it (2.8× its error bound, 2⁻⁴⁶·⁵) round to the same f32: then so does eˣ, which
/// lies between them (f32 rounding is monotone; eˣ is never itself a boundary).
const BELOW: f64 = 1.0 - 1.0 / (1u64 << 45) as f64;
const ABOVE: f64 = 1.0 + 1.0 / (1u64 << 45) as f64;

/// The vector loops' cheaper first test, on the f64 value's bits: an f32
/// boundary (a midpoint between adjacent f32, or 2¹²⁸ − 2¹⁰³ before infinity)
/// has its low 29 mantissa bits equal to 2²⁸, and the value, within 2⁻⁴⁶·⁵ of eˣ,
/// is within 91 f64 ulps of any boundary eˣ is that close to. A lane whose low
/// 29 bits are within [`NEAR_ULPS`] of 2²⁸ (one in 2²⁰), or whose value is below
/// 2⁻¹²⁶ (an f32 subnormal, where the boundaries lie elsewhere), is finished by
/// [`round_wide`].
const NEAR_ULPS: u64 = 256;
/// Added to the f64 bits: the low 29 bits become `NEAR_ULPS` + (low 29 bits − 2²⁸)
/// (mod 2²⁹), below 2·`NEAR_ULPS` + 1 exactly for the lanes near a boundary.
const NEAR_OFFSET: u64 = (1 << 28) + NEAR_ULPS;
const LOW_29: u64 = (1 << 29) - 1;
/// 2⁻¹²⁶, the least normal f32.
const F32_MIN_NORMAL: f64 = 1.0 / (1u128 << 126) as f64;
/// The AVX-512 loop's lower clamp: the f32 input nearest above ln 2⁻¹²⁶ (−87.3365)
/// whose fast value lies near a boundary (54 f64 ulps below one). Every input
/// below it is raised to it, so its block is flagged by the near test alone and
/// [`exp_f32_slice`]'s redo computes those lanes by the element function: no
/// separate test for results below 2⁻¹²⁶ (f32 subnormals, whose boundaries lie
/// elsewhere), which cost the loop 8% (`bench/probes/exp_flags.rs`).
const FLAGGED_FLOOR: f32 = -87.221_11;
