//! `lgamma` and `digamma`.

use super::dd::{Dd, two_sum};

/// `log|Γ(x)|`; `+inf` at the poles (0 and negative integers) and at `±inf`.
pub fn lgamma(x: f64) -> f64 {
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x < -2.0 && x > -40.0 {
        return lgamma_negative(x);
    }
    libm::lgamma_r(x).0
}

/// `log|Γ(x)|` for `-40 < x < -2`, accurate near the roots too.
///
/// With `x = z - k` (`k = round(-x)`, `z ∈ [-½, ½]` exact), the recurrence gives
/// `|Γ(x)| = Γ(1+z) / (|z|·∏ⱼ₌₁ᵏ (j - z))`, so `log|Γ(x)| = -log Q` with
/// `Q = |z|·∏(j - z)·(1/Γ(1+z))`. Q is formed in double-double (each `j - z`
/// exact, 1/Γ(1+z) by its Taylor series), so where `Q ≈ 1` — at the two roots
/// in every interval, which lie within ~1/k! of the integers for large k —
/// `Q - 1` keeps its relative accuracy and `log1p` finishes.
fn lgamma_negative(x: f64) -> f64 {
    let k = (-x).round();
    let z = x + k; // exact: |x| < 40, and z is a multiple of ulp(x)
    if z == 0.0 {
        return f64::INFINITY;
    }
    let mut r = Dd(0.0, 0.0);
    for &(hi, lo) in RECIP_GAMMA_TAYLOR.iter().rev() {
        r = r.mul_f(z).add(Dd(hi, lo));
    }
    let mut q = r.mul_f(z.abs());
    let mut j = 1.0;
    while j <= k {
        let (h, l) = two_sum(j, -z);
        q = q.mul(Dd(h, l));
        j += 1.0;
    }
    if q.0 > 0.5 && q.0 < 2.0 {
        let (d, e) = two_sum(q.0 - 1.0, q.1); // q.0 - 1 exact (Sterbenz)
        -(d.ln_1p() + e / (1.0 + d))
    } else {
        -(q.0.ln() + q.1 / q.0)
    }
}

const X0_HI: f64 = 1.4616321449683622;
const X0_LO: f64 = 9.549995429965697e-17;
const PSI_ROOT_TAYLOR: [f64; 45] = [
    0.9676722454476212,
    -0.4427631689835921,
    0.258499760955651,
    -0.16394270544240652,
    0.10782405069126237,
    -0.07219956125645471,
    0.04880428816414311,
    -0.03316112647484736,
    0.022597648232218104,
    -0.01542476590494896,
    0.010538791616612175,
    -0.007204534386356869,
    0.004926781395729853,
    -0.003369801655439328,
    0.002305126326734928,
    -0.0015769367714301972,
    0.0010788252019162967,
    -0.0007380709389960052,
    0.000504953265834602,
    -0.0003454680251063077,
    0.00023635601564027053,
    -0.00016170622091974803,
    0.0001106337276874741,
    -7.569179582195066e-05,
    5.178575795222081e-05,
    -3.5430070947659604e-05,
    2.424006611860132e-05,
    -1.6584242271854135e-05,
    1.134638458466385e-05,
    -7.762817668462094e-06,
    5.3110609208898636e-06,
    -3.6336507898010456e-06,
    2.486022733129538e-06,
    -1.7008538854332607e-06,
    1.1636675363548843e-06,
    -7.96142543124197e-07,
    5.446941930669446e-07,
    -3.7266161283438227e-07,
    2.549626552021554e-07,
    -1.7443695117727745e-07,
    1.1934394829830244e-07,
    -8.165115189488409e-08,
    5.586299683532171e-08,
    -3.821960061917494e-08,
    2.6148576951961865e-08,
];

/// Negative roots of ψ as (hi, lo) and Taylor coefficients c1, c2, … (generated with mpmath).
const PSI_NEG_ROOTS: [(f64, f64, &[f64]); 6] = [
    (
        -0.5040830082644554,
        -8.15428206243813e-18,
        &[
            8.939798558792134,
            -0.8093454625306507,
            32.258572064915505,
            -2.761011648790828,
            128.27342343090902,
            -14.70672173553036,
            513.2704629562862,
            -75.37700066344631,
            2055.5357119463315,
            -368.5783503832191,
            8234.667099203069,
            -1743.364608867363,
            32997.785655255044,
            -8051.818155363498,
            132262.95480834588,
            -36529.94596948565,
            530280.3912420176,
            -163451.79342700253,
            2126602.3725968753,
            -723318.8861804305,
            8530604.878543982,
            -3172131.3155744765,
            34228316.69580112,
            -13807481.997263888,
            137373435.87411496,
            -59721085.411294304,
            551481251.858545,
            -256915093.79875362,
            2214464568.013911,
            -1100067148.941634,
        ],
    ),
    (
        -1.5734984731623904,
        -1.574185691077347e-17,
        &[
            9.941513615924176,
            -7.802593974782628,
            39.911910808498966,
            -54.82093287162743,
            194.4376179574295,
            -340.5781696501909,
            998.8875783432551,
            -1992.4996040262852,
            5280.90721723033,
            -11319.594764761363,
            28392.778384038458,
            -63341.621003608976,
            154145.9448243582,
            -351599.7910103957,
            841503.4207747859,
            -1943181.342358103,
            4608154.024613989,
            -10713767.831316479,
            25278398.938754097,
            -58993192.05385585,
            138800078.37784168,
            -324599498.0350916,
            762537849.2688279,
            -1785338714.8001394,
            4190456567.903232,
            -9817428126.535824,
            23032032608.20299,
            -53978642372.9445,
            126602553738.7482,
            -296767916148.1991,
        ],
    ),
    (
        -2.6107208684441447,
        9.881960746978353e-17,
        &[
            10.84832879920919,
            -12.770725694247192,
            51.217352382808855,
            -100.2036323192089,
            306.843080795829,
            -706.7052450573435,
            1948.0852652620983,
            -4786.785969940508,
            12652.372604354454,
            -31919.2289457462,
            82949.8731907648,
            -211523.43319593722,
            545930.3505014677,
            -1398224.70739006,
            3598689.520560963,
            -9233265.531308448,
            23737270.807886213,
            -60947395.49249487,
            156614068.50404468,
            -402237440.62896353,
            1033420152.2070676,
            -2654485713.20714,
            6819332105.297987,
            -17517266261.77796,
            45000193293.40704,
            -115597225647.38393,
            296954570712.59143,
            -762827808475.693,
            1959597639924.4612,
            -5033902737690.281,
        ],
    ),
    (
        -3.635293366436901,
        5.454396163173039e-17,
        &[
            11.650939359651861,
            -16.938337607821335,
            63.16205964241572,
            -145.45199182008608,
            440.37818718162464,
            -1141.3233980389668,
            3232.6440925841607,
            -8700.78423006634,
            24112.90022627927,
            -65712.73440774584,
            180814.05819229368,
            -494780.80672965344,
            1358226.093813731,
            -3721686.383217015,
            10208497.556997271,
            -27984853.560869675,
            76742154.734458,
            -210406414.22026286,
            576943534.3265252,
            -1581901055.2067955,
            4337520941.919529,
            -11893084835.87434,
            32610150937.01554,
            -89414514768.86761,
            245168689511.3904,
            -672234772189.3932,
            1843221479852.8743,
            -5053982551790.693,
            13857667782700.045,
            -37996749238107.65,
        ],
    ),
    (
        -4.653237761743142,
        -2.5492686201468193e-16,
        &[
            12.369637994669782,
            -20.636997462381604,
            75.16701278577447,
            -191.19880243991764,
            588.2838897926692,
            -1639.1313916625995,
            4813.770065042627,
            -13748.637856812207,
            39852.31593119324,
            -114614.76590425898,
            331005.9805944661,
            -953830.505840743,
            2751795.146716904,
            -7933969.253832636,
            22882765.161359254,
            -65985768.20848166,
            190297248.60109204,
            -548773667.9155307,
            1582579078.1565964,
            -4563851701.0935335,
            13161362179.05856,
            -37954952431.64206,
            109455343397.37685,
            -315649425815.8821,
            910276423676.0693,
            -2625073392748.165,
            7570240510057.561,
            -21831212987531.27,
            62957297341098.59,
            -181557533822269.72,
        ],
    ),
    (
        -5.6671624415568855,
        -3.2153051074948335e-18,
        &[
            13.021406387509394,
            -24.0108335669899,
            87.05344839974758,
            -237.41817939113608,
            747.1149127904746,
            -2193.015906371229,
            6665.187546739225,
            -19910.323828704128,
            59991.778412707245,
            -179985.50305343443,
            541147.0701411078,
            -1625280.206943129,
            4883971.343185349,
            -14672437.550305542,
            44084828.29867977,
            -132448560.2186355,
            397941924.2248931,
            -1195597457.015876,
            3592144885.297101,
            -10792471833.629496,
            32425665073.89394,
            -97421860060.14389,
            292700971165.26917,
            -879410808528.3173,
            2642162290198.1367,
            -7938293523336.171,
            23850354040378.06,
            -71657639921507.48,
            215293131112414.97,
            -646841455749161.9,
        ],
    ),
];
/// Taylor coefficients of 1/Γ(1+z) about 0 as (hi, lo), lowest first (generated with mpmath:
/// `scripts/golden/recip_gamma_taylor.py`).
const RECIP_GAMMA_TAYLOR: [(f64, f64); 35] = [
    (1.0, 0.0),
    (0.5772156649015329, -4.942915152430645e-18),
    (-0.6558780715202539, 2.137185197068536e-17),
    (-0.04200263503409524, 1.4920306285650505e-18),
    (0.16653861138229148, 1.0189144546842026e-17),
    (-0.04219773455554433, -3.3579992682480134e-18),
    (-0.009621971527876973, -5.300031368830263e-19),
    (0.0072189432466631, -3.6006537063394283e-19),
    (-0.0011651675918590652, 5.659947853880981e-20),
    (-0.00021524167411495098, 2.3758686180729364e-21),
    (0.0001280502823881162, -9.359124499198967e-21),
    (-2.013485478078824e-05, 3.0488773972037385e-23),
    (-1.2504934821426706e-06, -2.66214092271898e-23),
    (1.133027231981696e-06, -4.622235212104869e-23),
    (-2.056338416977607e-07, -3.0061601618645134e-24),
    (6.116095104481416e-09, -2.693458298171306e-25),
    (5.002007644469223e-09, -1.538123614056751e-26),
    (-1.18127457048702e-09, -1.0052356155716208e-25),
    (1.0434267116911005e-10, -2.9298419956825035e-27),
    (7.782263439905071e-12, 4.397255556595848e-28),
    (-3.696805618642206e-12, 2.7050034921703885e-28),
    (5.100370287454476e-13, 2.253001461085878e-29),
    (-2.0583260535665066e-14, -1.4747481491954336e-30),
    (-5.348122539423018e-15, -1.6208384686356568e-31),
    (1.2267786282382608e-15, -5.072915146023867e-32),
    (-1.1812593016974588e-16, 6.422257838149681e-33),
    (1.1866922547516004e-18, -4.2037265494226014e-35),
    (1.4123806553180319e-18, -7.576946701116294e-35),
    (-2.29874568443537e-19, 1.3335481917069145e-36),
    (1.7144063219273374e-20, 5.230715150426935e-38),
    (1.337351730493693e-22, 2.6434059649079228e-39),
    (-2.0542335517666728e-22, 3.6856892424568953e-39),
    (2.736030048608e-23, -2.8599315416397774e-39),
    (-1.7323564459105165e-24, -1.7540883508197598e-40),
    (-2.3606190244992872e-26, -1.260225016995785e-42),
];

/// `f(x)` by its Taylor series about a tabulated root, when `x` is within a sixth of the
/// distance from the root to the nearest pole (and 0.05).
pub(crate) fn near_root(x: f64, roots: &[(f64, f64, &[f64])]) -> Option<f64> {
    for &(hi, lo, c) in roots {
        let radius = (0.05f64).min((hi - hi.round()).abs() / 6.0);
        if (x - hi).abs() < radius {
            let t = (x - hi) - lo; // x - hi exact (Sterbenz)
            let mut s = 0.0;
            for &ck in c.iter().rev() {
                s = s * t + ck;
            }
            return Some(s * t);
        }
    }
    None
}

/// `ψ(X0 + t)` by its Taylor series about the positive root `X0` (for `|t| ≤ 0.55`).
fn psi_root(t: f64) -> f64 {
    let mut s = 0.0;
    for &c in PSI_ROOT_TAYLOR.iter().rev() {
        s = s * t + c;
    }
    s * t
}

/// `ψ(x)` for `x ≥ 10` by its asymptotic series.
fn psi_asym(x: f64) -> f64 {
    // B_{2k} / (2k)
    const C: [f64; 10] = [
        1.0 / 12.0,
        -1.0 / 120.0,
        1.0 / 252.0,
        -1.0 / 240.0,
        1.0 / 132.0,
        -691.0 / 32760.0,
        1.0 / 12.0,
        -3617.0 / 8160.0,
        43867.0 / 14364.0,
        -174611.0 / 6600.0,
    ];
    if x > 1e17 {
        return x.ln() - 0.5 / x;
    }
    let z = 1.0 / (x * x);
    let mut s = 0.0;
    for &c in C.iter().rev() {
        s = s * z + c;
    }
    x.ln() - 0.5 / x - s * z
}

/// `ψ(hi + lo)` for `hi + lo ∈ [1, 2]` as a double-double.
fn psi_12(hi: f64, lo: f64) -> f64 {
    let t = ((hi - X0_HI) + lo) - X0_LO; // hi - X0_HI exact (Sterbenz)
    psi_root(t)
}

/// The digamma function `ψ(x) = Γ'(x)/Γ(x)`; NaN at 0, the negative integers and `-inf` (as TF).
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x <= 0.0 && x == x.floor() {
        return f64::NAN;
    }
    if x < 0.0
        && let Some(v) = near_root(x, &PSI_NEG_ROOTS)
    {
        return v;
    }
    if x >= 10.0 {
        return psi_asym(x);
    }
    if x >= 1.0 {
        // reduce to [1, 2): x - m exact
        let m = x.floor() - 1.0;
        let f = x - m;
        let mut s = 0.0;
        let mut k = m;
        while k >= 1.0 {
            s += 1.0 / (x - k);
            k -= 1.0;
        }
        return psi_12(f, 0.0) + s;
    }
    if x < -6.0 {
        return digamma_negative(x);
    }
    // -6 ≤ x < 1: upward recurrence to [1, 2], with x + m kept as a double-double
    let m = 1.0 - x.floor();
    let (h, l) = two_sum(x, m);
    let mut s = 0.0;
    let mut k = m - 1.0;
    while k >= 0.0 {
        s += 1.0 / (x + k);
        k -= 1.0;
    }
    psi_12(h, l) - s
}

include!("digamma_dd.rs");

/// `ψ(x)` for `x < −6`, not an integer, in double-double: `ψ(x) = ψ(1 − x) − π·cot(πz)`
/// with `z = x − round(x)` exact.
///
/// Every interval (−k−1, −k) holds a root, where the two terms cancel; computing both to
/// ~2⁻¹⁰⁰ keeps the difference's relative accuracy there. `ψ(y)`, `y = 1 − x` (a
/// double-double, as `1 − x` may not be a double): upward recurrence to y ≥ 30, then the
/// asymptotic series (13 terms, truncation below 1e-34). `π·cot(πz)`: the partial fractions
/// `1/z − 2z/(1 − z²) − 2z/(4 − z²)` plus a series in z² that gains a factor 9 per term.
fn digamma_negative(x: f64) -> f64 {
    let z = x - x.round();
    let (yh, yl) = two_sum(1.0, -x);
    let mut y = Dd(yh, yl);
    let mut shift = Dd(0.0, 0.0); // Σ 1/(y + i) over the recurrence steps
    while y.0 < 30.0 {
        shift = shift.add(Dd(1.0, 0.0).div(y));
        y = y.add(Dd(1.0, 0.0));
    }
    let inv = Dd(1.0, 0.0).div(y);
    let w = inv.mul(inv);
    let mut series = Dd(0.0, 0.0);
    for &(hi, lo) in PSI_ASYM_DD.iter().rev() {
        series = series.add(Dd(hi, lo)).mul(w);
    }
    let psi_y = y.ln().add(inv.mul_f(-0.5)).add(series.neg()).add(shift.neg());
    // π·cot(πz)
    let zz = {
        let (h, l) = super::dd::two_prod(z, z);
        Dd(h, l)
    };
    let mut c = Dd(0.0, 0.0);
    for &(hi, lo) in COT_DD.iter().rev() {
        c = c.mul(zz).add(Dd(hi, lo));
    }
    let zd = Dd(z, 0.0);
    let pi_cot = Dd(1.0, 0.0)
        .div(zd)
        .add(zd.mul_f(-2.0).div(Dd(1.0, 0.0).add(zz.neg())))
        .add(zd.mul_f(-2.0).div(Dd(4.0, 0.0).add(zz.neg())))
        .add(c.mul(zd).mul_f(-2.0));
    psi_y.add(pi_cot.neg()).to_f64()
}

/// Tensor-level functions.
/// The trigamma function `ψ'(x)` (the derivative of digamma, the gradient of
/// `tf.math.digamma`): `+inf` at 0 and the negative integers, 0 at `+inf`,
/// NaN at `-inf`. Positive arguments are shifted up to 10 by
/// `ψ'(x) = ψ'(x + 1) + 1/x²` and finished by the asymptotic series
/// `1/x + 1/(2x²) + Σ B₂ₖ/x²ᵏ⁺¹`; negative ones use the reflection
/// `ψ'(1 - x) + ψ'(x) = π²/sin²(πx)`.
pub fn trigamma(x: f64) -> f64 {
    // B₂ₖ for k = 1..8
    const B: [f64; 8] =
        [1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0, 5.0 / 66.0, -691.0 / 2730.0, 7.0 / 6.0, -3617.0 / 510.0];
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    if x <= 0.0 && x == x.floor() {
        return f64::INFINITY;
    }
    if x < 0.0 {
        // sin(πx) from the distance to the nearest integer keeps its digits near the poles
        let r = x - x.round();
        let s = (std::f64::consts::PI * r).sin();
        return std::f64::consts::PI * std::f64::consts::PI / (s * s) - trigamma(1.0 - x);
    }
    let mut acc = 0.0;
    let mut x = x;
    while x < 10.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let z = 1.0 / (x * x);
    let mut s = 0.0;
    for &b in B.iter().rev() {
        s = s * z + b;
    }
    acc + 1.0 / x + 0.5 * z + s * z / x
}

pub mod tensor {
    use super::super::special_fn;
    use crate::Tensor;
    use crate::core::error::Result;

    special_fn!(
        /// `tf.math.lgamma`: `log|Γ(x)|`, `+inf` at the poles and at `±inf`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, 0.5, 0.0, -1.0], &[4]).unwrap();
        /// let y = ops::lgamma(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert_eq!(y[0], 0.0);
        /// assert!((y[1] - 0.572_364_942_924_700_1).abs() < 1e-15);
        /// assert_eq!(y[2], f64::INFINITY);
        /// assert_eq!(y[3], f64::INFINITY);
        /// ```
        lgamma, "lgamma", super::lgamma
    );
    special_fn!(
        /// `tf.math.digamma`: `ψ(x) = d/dx log Γ(x)`; NaN at 0, the negative integers and `-inf`.
        ///
        /// ```
        /// use lattensor::{ops, Tensor};
        /// let x = Tensor::from_vec(vec![1.0f64, 0.0, -2.0], &[3]).unwrap();
        /// let y = ops::digamma(&x).unwrap().to_vec::<f64>().unwrap();
        /// assert!((y[0] + 0.577_215_664_901_532_9).abs() < 1e-16);
        /// assert!(y[1].is_nan() && y[2].is_nan());
        /// ```
        digamma, "digamma", super::digamma
    );

    /// `ψ'(x)`, the derivative of digamma (its gradient rule's factor); recorded on
    /// the tapes as `trigamma`, which has no gradient rule of its own.
    pub(crate) fn trigamma(x: &Tensor) -> Result<Tensor> {
        crate::core::tape::op(
            &[x],
            || crate::ops::special::map_f64("trigamma", x, super::trigamma),
            || crate::core::tape::TapeOp::Unary("trigamma"),
        )
    }
}
