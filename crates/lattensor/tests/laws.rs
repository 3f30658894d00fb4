//! Property laws that tie the pieces together, beyond what the per-module
//! tests check: the lattice as the ops see it, lossless casts and bitcasts
//! round-tripping on random bits and strided views, einsum with mixed dtypes
//! and strided operands against a naive loop nest, reductions against a
//! Kahan-summed f64 reference, and every op family giving the same answer on
//! a view as on its contiguous copy.
//!
//! Case counts are kept small so the file runs in seconds.

use lattensor::einsum::{einsum, einsum_raw, numpy_einsum};
use lattensor::promote::{converts_losslessly, join, result_type_in};
use lattensor::{DType, LatticeType, PromotionMode, SliceArg, Tensor, bitcast, ops};
use num_complex::Complex64;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("tests/laws.proptest-regressions"))),
        ..ProptestConfig::default()
    }
}

fn dtype() -> impl Strategy<Value = DType> {
    (0usize..DType::CORE.len()).prop_map(|i| DType::CORE[i])
}

/// A tensor of `shape` and `dtype` holding `bytes` (cycled; bool bytes masked to 0/1).
fn from_bits(bytes: &[u8], shape: &[usize], dtype: DType) -> Tensor {
    let n = shape.iter().product::<usize>() * dtype.size();
    let mut data: Vec<u8> = bytes.iter().copied().cycle().take(n).collect();
    data.resize(n, 0);
    if dtype == DType::Bool {
        data.iter_mut().for_each(|b| *b &= 1);
    }
    Tensor::from_bytes(&data, shape, dtype).unwrap()
}

/// How a view is made: each gives a tensor of the requested shape whose
/// strides are not row-major.
#[derive(Clone, Copy, Debug)]
enum ViewKind {
    /// The transpose of a contiguous tensor of the reversed shape.
    Transposed,
    /// Every axis reversed (negative strides).
    Reversed,
    /// Every other element of a tensor twice as long on the last axis.
    Stepped,
    /// A size-1 axis (or a scalar) broadcast: zero strides.
    Broadcast,
}

fn view_kind() -> impl Strategy<Value = ViewKind> {
    prop_oneof![
        Just(ViewKind::Transposed),
        Just(ViewKind::Reversed),
        Just(ViewKind::Stepped),
        Just(ViewKind::Broadcast)
    ]
}

/// A view of `shape` over a base built from `bytes`.
fn make_view(kind: ViewKind, bytes: &[u8], shape: &[usize], dtype: DType) -> Tensor {
    let rank = shape.len();
    match kind {
        ViewKind::Transposed => {
            let rev: Vec<usize> = shape.iter().rev().copied().collect();
            let perm: Vec<usize> = (0..rank).rev().collect();
            from_bits(bytes, &rev, dtype).transpose(&perm).unwrap()
        }
        ViewKind::Reversed => {
            let all: Vec<SliceArg> = (0..rank).map(|_| SliceArg::stepped(None, None, -1)).collect();
            from_bits(bytes, shape, dtype).slice(&all).unwrap()
        }
        ViewKind::Stepped => {
            let mut wide = shape.to_vec();
            if let Some(last) = wide.last_mut() {
                *last *= 2;
            }
            let mut args: Vec<SliceArg> = vec![SliceArg::FULL; rank];
            if let Some(a) = args.last_mut() {
                *a = SliceArg::stepped(Some(1), None, 2);
            }
            from_bits(bytes, &wide, dtype).slice(&args).unwrap()
        }
        ViewKind::Broadcast => {
            let mut one = shape.to_vec();
            if let Some(first) = one.first_mut() {
                *first = 1;
            }
            from_bits(bytes, &one, dtype).broadcast_to(shape).unwrap()
        }
    }
}

fn shape() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(1usize..5, 1..=3)
}

/// The elements of `t` as complex128 (NaN-aware comparison of any dtype).
fn values(t: &Tensor) -> Vec<Complex64> {
    t.to_vec::<Complex64>().unwrap()
}

/// Equal bits, or both NaN in the same components (NaN payloads may be quieted).
fn same_value(a: Complex64, b: Complex64) -> bool {
    let eq = |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
    eq(a.re, b.re) && eq(a.im, b.im)
}

/// `a` and `b` hold the same dtype, shape and bits (NaNs compared as NaN).
fn assert_same(a: &Tensor, b: &Tensor, what: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.dtype(), b.dtype(), "{}", what);
    prop_assert_eq!(a.shape(), b.shape(), "{}", what);
    prop_assert_eq!(a.is_weak(), b.is_weak(), "{}", what);
    if a.to_bytes().unwrap() != b.to_bytes().unwrap() {
        let (va, vb) = (values(a), values(b));
        for (i, (x, y)) in va.iter().zip(&vb).enumerate() {
            prop_assert!(same_value(*x, *y), "{}: element {} differs: {} vs {}", what, i, x, y);
        }
    }
    Ok(())
}

// ---- promotion: the lattice as the ops apply it ----------------------------------

/// A tensor of lattice type `t` (weak types via `with_weak`).
fn of_type(t: LatticeType) -> Tensor {
    Tensor::zeros(&[2], t.dtype).unwrap().with_weak(t.weak)
}

#[test]
fn join_is_monotone_and_absorbing() {
    // on all 28 nodes, with a missing join read as a top above every node
    let nodes = LatticeType::ALL;
    let le = |x: Option<LatticeType>, y: Option<LatticeType>| match (x, y) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(x), Some(y)) => x.le(y),
    };
    for &a in &nodes {
        for &b in &nodes {
            // absorption: a ⊔ (a ⊔ b) = a ⊔ b
            assert_eq!(join(a, b).and_then(|ab| join(a, ab)), join(a, b), "absorption at {a}, {b}");
            if a.le(b) {
                for &c in &nodes {
                    assert!(le(join(a, c), join(b, c)), "monotone: {a} ≤ {b} but {a}⊔{c} ≰ {b}⊔{c}");
                }
            }
        }
    }
}

#[test]
fn binary_ops_promote_exactly_as_the_lattice_says() {
    // For every mode and every pair of the 28 nodes: add/multiply/maximum
    // succeed iff result_type does, with its dtype and weakness, in both orders.
    for mode in PromotionMode::ALL_MODES {
        for &a in &LatticeType::ALL {
            for &b in &LatticeType::ALL {
                let want = result_type_in(&[a, b], mode);
                let (x, y) = (of_type(a), of_type(b));
                let got = lattensor::promote::with_mode(mode, || ops::add(&x, &y));
                let rev = lattensor::promote::with_mode(mode, || ops::multiply(&y, &x));
                match &want {
                    Ok(t) if t.dtype != DType::Bool && !t.dtype.is_low_precision() => {
                        for r in [&got, &rev] {
                            let r = r.as_ref().unwrap_or_else(|e| panic!("{a} op {b} in {mode}: {e}"));
                            assert_eq!(r.lattice_type(), *t, "{a} op {b} in {mode}");
                        }
                    }
                    // bool ⊔ bool, or a low-precision result: add refuses a dtype it has no
                    // kernel for, which is not promotion's business (but must not panic)
                    Ok(_) => assert!(got.is_err() && rev.is_err(), "{a}, {b} in {mode}: no kernel, yet no error"),
                    Err(_) => {
                        assert!(got.is_err() && rev.is_err(), "{a}, {b} in {mode}: ops allow what promotion refuses");
                    }
                }
            }
        }
    }
}

// ---- casts and bitcasts --------------------------------------------------------------

#[test]
fn copies_of_half_views_keep_signalling_nan_bits() {
    // found by bitcasts_round_trip_on_views: copying a strided f16 view went
    // through f32 and quieted 0x7c01 into 0x7e01
    for (d, bits) in [(DType::F16, 0x7c01u16), (DType::BF16, 0x7f81u16)] {
        let raw: Vec<u8> = [bits, 0x3c00, bits, 0].iter().flat_map(|b| b.to_le_bytes()).collect();
        let t = Tensor::from_bytes(&raw, &[2, 2], d).unwrap();
        let v = t.t();
        let want: Vec<u8> = [bits, bits, 0x3c00, 0].iter().flat_map(|b| b.to_le_bytes()).collect();
        assert_eq!(v.to_bytes().unwrap(), want, "{d}");
        assert_eq!(v.cast(d).unwrap().to_bytes().unwrap(), want, "{d}");
    }
}

#[test]
fn einsum_of_a_scalar_operand() {
    for d in DType::CORE {
        let x = Tensor::scalar(2u8).cast(d).unwrap();
        let want = x.to_bytes().unwrap();
        assert_eq!(einsum_raw("->", &[&x]).unwrap().to_bytes().unwrap(), want, "raw {d}");
        assert_eq!(einsum("->", &[&x]).unwrap().to_bytes().unwrap(), want, "tf {d}");
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// `from → to → from` is the identity (NaNs stay NaN) for every lossless pair,
    /// on random bit patterns and strided sources.
    #[test]
    fn lossless_casts_round_trip(bytes in proptest::collection::vec(any::<u8>(), 64), shape in shape(), kind in view_kind()) {
        let mut pairs = 0;
        for from in DType::CORE {
            let x = make_view(kind, &bytes, &shape, from);
            for to in DType::CORE {
                if !converts_losslessly(from, to) {
                    continue;
                }
                let back = x.cast(to).unwrap().cast(from).unwrap();
                assert_same(&back, &x.contiguous().unwrap(), &format!("{from} → {to} → {from}"))?;
                pairs += 1;
            }
        }
        prop_assert!(pairs > 50);
    }

    /// bitcast there and back restores the bits exactly, for every pair of
    /// non-bool dtypes and any view (the view's row-major bytes are what is reinterpreted).
    #[test]
    fn bitcasts_round_trip_on_views(bytes in proptest::collection::vec(any::<u8>(), 64), shape in shape(), kind in view_kind(), a in 1usize..15, b in 1usize..15) {
        let (da, db) = (DType::CORE[a], DType::CORE[b]);
        let mut shape = shape;
        if da.size() < db.size() {
            shape.push(db.size() / da.size());
        }
        let x = make_view(kind, &bytes, &shape, da);
        let y = bitcast(&x, db).unwrap();
        prop_assert_eq!(y.to_bytes().unwrap(), x.to_bytes().unwrap());
        let back = bitcast(&y, da).unwrap();
        prop_assert_eq!(back.shape(), x.shape());
        prop_assert_eq!(back.to_bytes().unwrap(), x.to_bytes().unwrap());
    }
}

// ---- einsum: mixed dtypes and views against a naive loop nest -------------------------

/// Naive einsum with an explicit output of distinct labels, over exact integers.
fn naive(inputs: &[Vec<usize>], output: &[usize], sizes: &[usize], data: &[Vec<i128>]) -> Vec<i128> {
    // labels no term uses do not take part (enumerating them would count every term again)
    let sizes: Vec<usize> =
        (0..sizes.len()).map(|l| if inputs.iter().any(|t| t.contains(&l)) { sizes[l] } else { 1 }).collect();
    let nl = sizes.len();
    let total: usize = sizes.iter().product();
    let out_len: usize = output.iter().map(|&l| sizes[l]).product();
    let mut out = vec![0i128; out_len];
    let mut idx = vec![0usize; nl];
    for flat in 0..total {
        let mut f = flat;
        for l in (0..nl).rev() {
            idx[l] = f % sizes[l];
            f /= sizes[l];
        }
        let mut p = 1i128;
        for (term, d) in inputs.iter().zip(data) {
            let off = term.iter().fold(0usize, |acc, &l| acc * sizes[l] + idx[l]);
            p *= d[off];
        }
        let o = output.iter().fold(0usize, |acc, &l| acc * sizes[l] + idx[l]);
        out[o] += p;
    }
    out
}

fn einsum_case() -> impl Strategy<Value = (Vec<Vec<usize>>, Vec<usize>, Vec<usize>)> {
    (
        proptest::collection::vec(proptest::collection::vec(0usize..4, 0..4), 1..=3),
        proptest::collection::vec(1usize..4, 4),
        proptest::collection::vec(0usize..4, 0..4),
    )
        .prop_map(|(terms, sizes, out)| {
            let mut used: Vec<usize> = terms.iter().flatten().copied().collect();
            used.sort_unstable();
            used.dedup();
            let mut o: Vec<usize> = Vec::new();
            for l in out {
                if used.contains(&l) && !o.contains(&l) {
                    o.push(l);
                }
            }
            (terms, sizes, o)
        })
}

proptest! {
    #![proptest_config(config(96))]

    /// Every front end, operands of independent random dtypes (promoted through
    /// the lattice) given as strided views: the result is the exact integer
    /// contraction converted to the result dtype (integers wrap, bool is `!= 0`).
    #[test]
    fn einsum_mixed_dtypes_and_views_match_naive(
        (terms, sizes, output) in einsum_case(),
        dts in proptest::collection::vec(dtype(), 3),
        kinds in proptest::collection::vec(view_kind(), 3),
        bytes in proptest::collection::vec(0u8..3, 64),
        front in 0usize..3,
    ) {
        let name = |t: &[usize]| -> String { t.iter().map(|&l| (b'a' + l as u8) as char).collect() };
        let eq = format!("{}->{}", terms.iter().map(|t| name(t)).collect::<Vec<_>>().join(","), name(&output));
        let front = if terms.len() > 2 { 1 + front % 2 } else { front };
        let mut ops_: Vec<Tensor> = Vec::new();
        let mut data: Vec<Vec<i128>> = Vec::new();
        for (k, t) in terms.iter().enumerate() {
            let shape: Vec<usize> = t.iter().map(|&l| sizes[l]).collect();
            // values 0..3 (0/1 for bool) from the bytes, via a u8 view
            let base = make_view(kinds[k], &bytes[k * 7..], &shape, DType::U8);
            let x = if dts[k] == DType::Bool { ops::minimum(&base, 1u8 as i32).unwrap().cast(DType::Bool).unwrap() } else { base.cast(dts[k]).unwrap() };
            let x = if shape.is_empty() { x } else { make_strided_copy(&x, kinds[(k + 1) % 3]) };
            data.push(x.to_vec::<i64>().unwrap().into_iter().map(i128::from).collect());
            ops_.push(x);
        }
        let refs: Vec<&Tensor> = ops_.iter().collect();
        let got = match front {
            0 => einsum_raw(&eq, &refs),
            1 => einsum(&eq, &refs),
            _ => numpy_einsum(&eq, &refs),
        };
        let got = got.map_err(|e| TestCaseError::fail(format!("{eq} {dts:?}: {e}")))?;
        let types: Vec<LatticeType> = ops_.iter().map(Tensor::lattice_type).collect();
        let rt = result_type_in(&types, PromotionMode::All).unwrap().dtype;
        prop_assert_eq!(got.dtype(), rt);
        let want = naive(&terms, &output, &sizes, &data);
        let out_shape: Vec<usize> = output.iter().map(|&l| sizes[l]).collect();
        let want_t = Tensor::from_vec(want.iter().map(|&v| v as i64).collect::<Vec<_>>(), &out_shape).unwrap().cast(rt).unwrap();
        assert_same(&got, &want_t, &format!("{eq} front {front} dtypes {dts:?} views {kinds:?}"))?;
    }
}

/// The same values as `x` laid out in another stride pattern (a copy seen through a view).
fn make_strided_copy(x: &Tensor, kind: ViewKind) -> Tensor {
    let rank = x.rank();
    match kind {
        ViewKind::Transposed | ViewKind::Broadcast => {
            let perm: Vec<usize> = (0..rank).rev().collect();
            x.transpose(&perm).unwrap().contiguous().unwrap().transpose(&perm).unwrap()
        }
        ViewKind::Reversed | ViewKind::Stepped => {
            let all: Vec<SliceArg> = (0..rank).map(|_| SliceArg::stepped(None, None, -1)).collect();
            x.slice(&all).unwrap().contiguous().unwrap().slice(&all).unwrap()
        }
    }
}

// ---- reductions against Kahan-summed f64 ------------------------------------------------

/// Kahan–Babuška–Neumaier sum in f64.
fn kahan(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut s, mut c, mut abs) = (0.0f64, 0.0f64, 0.0f64);
    for x in xs {
        let t = s + x;
        c += if s.abs() >= x.abs() { (s - t) + x } else { (x - t) + s };
        s = t;
        abs += x.abs();
    }
    (s + c, abs)
}

/// Half the spacing of a float dtype's subnormals: the absolute error of
/// rounding a result that lands below the normal range.
fn tiny(d: DType) -> f64 {
    match d {
        DType::BF16 => 2f64.powi(-134),
        DType::F16 => 2f64.powi(-25),
        DType::F32 => 2f64.powi(-150),
        _ => 0.0,
    }
}

/// The unit roundoff of a float dtype.
fn unit_roundoff(d: DType) -> f64 {
    match d {
        DType::BF16 => 2f64.powi(-8),
        DType::F16 => 2f64.powi(-11),
        DType::F32 => 2f64.powi(-24),
        _ => 2f64.powi(-53),
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// reduce_sum and reduce_mean over any axis of a float tensor (any view) agree
    /// with a Kahan-summed f64 reference of the same elements within
    /// `u·|ref| + t + n·2⁻⁵²·Σ|x|` (u: the dtype's unit roundoff and t half its
    /// subnormal spacing — the result is rounded once — plus the f64
    /// accumulation's own bound), and reduce_max exactly.
    #[test]
    fn float_reductions_match_kahan_reference(
        raw in proptest::collection::vec(-1e4f64..1e4, 1..=120),
        exps in proptest::collection::vec(-20i32..20, 8),
        rows in 1usize..5,
        d in 0usize..4,
        axis in -2i32..2,
        kind in view_kind(),
    ) {
        let dt = [DType::BF16, DType::F16, DType::F32, DType::F64][d];
        let cols = raw.len().div_ceil(rows).max(1);
        // values of widely varying magnitude and both signs (|x| ≤ 500, so no f16
        // sum overflows), made exactly representable in dt by the cast
        let vals: Vec<f64> = (0..rows * cols).map(|i| raw[i % raw.len()] * 2f64.powi(exps[i % 8]) * if i % 3 == 0 { -1.0 } else { 1.0 }).collect();
        let vals: Vec<f64> = vals.iter().map(|&v| v.clamp(-500.0, 500.0)).collect();
        let base = Tensor::from_vec(vals, &[rows, cols]).unwrap().cast(dt).unwrap();
        let x = match kind {
            ViewKind::Broadcast => base.clone(),
            k => make_strided_copy(&base, k),
        };
        let exact: Vec<f64> = x.to_vec::<f64>().unwrap();
        let ax = if axis < 0 { (axis + 2) as usize } else { axis as usize };
        let (outer, inner) = if ax == 0 { (cols, rows) } else { (rows, cols) };
        let at = |o: usize, i: usize| if ax == 0 { exact[i * cols + o] } else { exact[o * cols + i] };
        let sum = ops::reduce_sum(&x, axis, false).unwrap().to_vec::<f64>().unwrap();
        let mean = ops::reduce_mean(&x, axis, false).unwrap().to_vec::<f64>().unwrap();
        let max = ops::reduce_max(&x, axis, false).unwrap().to_vec::<f64>().unwrap();
        for o in 0..outer {
            let (r, abs) = kahan((0..inner).map(|i| at(o, i)));
            let bound = unit_roundoff(dt) * r.abs() + tiny(dt) + inner as f64 * 2f64.powi(-52) * abs;
            prop_assert!((sum[o] - r).abs() <= bound, "sum {} vs {} (bound {}) {}", sum[o], r, bound, dt);
            let m = r / inner as f64;
            prop_assert!((mean[o] - m).abs() <= bound / inner as f64 + unit_roundoff(dt) * m.abs() + tiny(dt), "mean {} vs {} {}", mean[o], m, dt);
            let mx = (0..inner).map(|i| at(o, i)).fold(f64::NEG_INFINITY, f64::max);
            prop_assert_eq!(max[o], mx);
        }
    }

    /// Integer sums wrap exactly like the i128 sum reduced modulo the dtype.
    #[test]
    fn integer_sums_wrap_like_the_exact_sum(bytes in proptest::collection::vec(any::<u8>(), 1..200), d in 0usize..8) {
        let dt = [DType::U8, DType::U16, DType::U32, DType::U64, DType::I8, DType::I16, DType::I32, DType::I64][d];
        let n = bytes.len() / dt.size();
        prop_assume!(n > 0);
        let x = from_bits(&bytes, &[n], dt);
        let exact: i128 = x.to_vec::<i64>().unwrap().iter().map(|&v| if dt == DType::U64 { i128::from(v as u64) } else { i128::from(v) }).sum();
        let got = ops::reduce_sum(&x, 0, false).unwrap();
        let want = Tensor::scalar(exact as i64).cast(dt).unwrap();
        prop_assert_eq!(got.to_bytes().unwrap(), want.to_bytes().unwrap());
    }
}

// ---- views give what their contiguous copies give, in every op family -----------------

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn every_op_family_agrees_on_views_and_copies(
        bytes in proptest::collection::vec(any::<u8>(), 96),
        shape in proptest::collection::vec(1usize..5, 2..=3),
        dt in dtype(),
        to in dtype(),
        kind in view_kind(),
        weak in any::<bool>(),
    ) {
        let v = make_view(kind, &bytes, &shape, dt).with_weak(weak);
        let c = v.contiguous().unwrap();
        prop_assert!(c.is_contiguous());
        let both = |what: &str, f: &dyn Fn(&Tensor) -> lattensor::Result<Tensor>| -> Result<(), TestCaseError> {
            match (f(&v), f(&c)) {
                // Sums over floats may visit a strided view in another order than the
                // contiguous fast path, so they agree to rounding, not to the bit.
                (Ok(a), Ok(b)) if a.dtype().is_inexact() && (what.starts_with("reduce_sum") || what.starts_with("reduce_mean") || what.starts_with("reduce_prod") || what == "einsum sum" || what == "einsum self") => {
                    prop_assert_eq!((a.dtype(), a.shape(), a.is_weak()), (b.dtype(), b.shape(), b.is_weak()));
                    for (x, y) in values(&a).iter().zip(&values(&b)) {
                        for (p, q) in [(x.re, y.re), (x.im, y.im)] {
                            let (m, rd) = (p.abs().max(q.abs()), a.dtype().real_dtype());
                            let ok = p == q || !p.is_finite() || !q.is_finite() || m < 1e-300
                                || (p - q).abs() <= 4.0 * unit_roundoff(rd) * m + 2.0 * tiny(rd);
                            prop_assert!(ok, "{} on a {:?} view of {}: {} vs {}", what, kind, dt, p, q);
                        }
                    }
                    Ok(())
                }
                (Ok(a), Ok(b)) => assert_same(&a, &b, &format!("{what} on a {kind:?} view of {dt}")),
                (Err(a), Err(b)) => { prop_assert_eq!(a.to_string(), b.to_string()); Ok(()) }
                (a, b) => Err(TestCaseError::fail(format!("{what}: view gives {a:?}, copy gives {b:?}"))),
            }
        };
        // unary
        both("negative", &|t| ops::negative(t))?;
        both("abs", &|t| ops::abs(t))?;
        both("square", &|t| ops::square(t))?;
        both("sign", &|t| ops::sign(t))?;
        both("exp", &|t| ops::exp(t))?;
        both("sqrt", &|t| ops::sqrt(t))?;
        both("is_nan", &|t| ops::is_nan(t))?;
        both("invert", &|t| ops::invert(t))?;
        // binary, with itself, a scalar, and a broadcast row
        let row = c.slice(&[SliceArg::Index(0)]).unwrap();
        both("add self", &|t| ops::add(t, t))?;
        both("multiply scalar", &|t| ops::multiply(t, 3))?;
        both("subtract row", &|t| ops::subtract(t, &row))?;
        both("maximum row", &|t| ops::maximum(&row, t))?;
        both("floordiv", &|t| ops::floordiv(t, 2))?;
        both("less", &|t| ops::less(t, &row))?;
        both("pow", &|t| ops::pow(t, 2))?;
        // reductions over each axis and all
        for axis in 0..shape.len() as i32 {
            both("reduce_sum", &|t| ops::reduce_sum(t, axis, false))?;
            both("reduce_max", &|t| ops::reduce_max(t, axis, true))?;
            both("reduce_prod", &|t| ops::reduce_prod(t, axis, false))?;
            both("reduce_mean", &|t| ops::reduce_mean(t, axis, false))?;
        }
        both("reduce_sum all", &|t| ops::reduce_sum(t, ops::Axes::All, false))?;
        // einsum: a transpose, a trace-like sum, a contraction with itself
        both("einsum ij->ji", &|t| einsum(if t.rank() == 2 { "ij->ji" } else { "ijk->kji" }, &[t]))?;
        both("einsum sum", &|t| einsum(if t.rank() == 2 { "ij->i" } else { "ijk->j" }, &[t]))?;
        both("einsum self", &|t| einsum(if t.rank() == 2 { "ij,ij->j" } else { "ijk,ijk->k" }, &[t, t]))?;
        // cast and bitcast
        both("cast", &|t| t.cast(to))?;
        both("bitcast", &|t| bitcast(t, to))?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// `x ** 2` (a literal two) is the product `x · x` bit for bit, in the
    /// dtype and weakness the general pow gives (a weak 0-d tensor two, typed as the literal, takes the
    /// general path); and for every float dtype the general pow agrees within
    /// one ulp (the system `powf` is not always correctly rounded).
    #[test]
    fn pow_by_a_literal_two_is_the_square(bytes in proptest::collection::vec(any::<u8>(), 64..256), k in 0usize..4, weak in any::<bool>()) {
        let dtype = [DType::F16, DType::BF16, DType::F32, DType::F64][k];
        let x = from_bits(&bytes, &[bytes.len() / 8], dtype).with_weak(weak);
        let fast = ops::pow(&x, 2).unwrap();
        let product = ops::multiply(&x, &x).unwrap();
        let general = ops::pow(&x, &Tensor::scalar(2i32).with_weak(true)).unwrap();
        prop_assert_eq!((fast.dtype(), fast.is_weak()), (general.dtype(), general.is_weak()));
        prop_assert_eq!(fast.storage_bytes(), product.storage_bytes());
        let (f, g) = (fast.cast(DType::F64).unwrap().to_vec::<f64>().unwrap(), general.cast(DType::F64).unwrap().to_vec::<f64>().unwrap());
        for (i, (&f, &g)) in f.iter().zip(&g).enumerate() {
            let ulp = unit_roundoff(dtype) * 2.0 * g.abs() + tiny(dtype).max(f64::from_bits(1));
            prop_assert!(f == g || (f.is_nan() && g.is_nan()) || (f - g).abs() <= ulp, "{dtype}[{i}]: {f} against pow's {g}");
        }
    }
}

#[test]
fn pow_by_a_literal_two_promotes_as_pow() {
    // an int8 tensor to a float literal two takes pow's promotion (a float result), not int8's product
    let x = Tensor::from_vec(vec![3i8, -4], &[2]).unwrap();
    let fast = ops::pow(&x, 2.0).unwrap();
    let general = ops::pow(&x, &Tensor::scalar(2.0f64).with_weak(true)).unwrap();
    assert_eq!((fast.dtype(), fast.is_weak()), (general.dtype(), general.is_weak()));
    assert_eq!(fast.cast(DType::F64).unwrap().to_vec::<f64>().unwrap(), vec![9.0, 16.0]);
}
