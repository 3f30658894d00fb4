//! Special functions against mpmath (50+ digits): max ulp error per function, with SciPy's
//! and TF's errors on the same points for comparison (`scripts/golden/special_golden.py`).

use lattensor::{DType, Tensor, ops};
use serde_json::Value;

type TensorFn = fn(&Tensor) -> lattensor::Result<Tensor>;

/// (name, function, our max-ulp bound in f64 over the golden points): 2 for each;
/// docs/special_functions.md has the measured maxima.
const FUNCS: &[(&str, TensorFn, f64)] = &[
    ("erf", ops::erf, 2.0),
    ("erfc", ops::erfc, 2.0),
    ("erfinv", ops::erfinv, 2.0),
    ("erfcinv", ops::erfcinv, 2.0),
    ("ndtri", ops::ndtri, 2.0),
    ("lgamma", ops::lgamma, 2.0),
    ("digamma", ops::digamma, 2.0),
    ("expint", ops::special::expint, 2.0),
    ("dawsn", ops::special::dawsn, 2.0),
    ("fresnel_cos", ops::special::fresnel_cos, 2.0),
    ("fresnel_sin", ops::special::fresnel_sin, 2.0),
    ("spence", ops::special::spence, 2.0),
    ("bessel_i0", ops::special::bessel_i0, 2.0),
    ("bessel_i0e", ops::special::bessel_i0e, 2.0),
    ("bessel_i1", ops::special::bessel_i1, 2.0),
    ("bessel_i1e", ops::special::bessel_i1e, 2.0),
    ("bessel_k0", ops::special::bessel_k0, 2.0),
    ("bessel_k0e", ops::special::bessel_k0e, 2.0),
    ("bessel_k1", ops::special::bessel_k1, 2.0),
    ("bessel_k1e", ops::special::bessel_k1e, 2.0),
    ("bessel_j0", ops::special::bessel_j0, 2.0),
    ("bessel_j1", ops::special::bessel_j1, 2.0),
    ("bessel_y0", ops::special::bessel_y0, 2.0),
    ("bessel_y1", ops::special::bessel_y1, 2.0),
];

fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => s.parse().unwrap(), // correctly rounded, unlike a JSON float
        },
        _ => panic!("bad value {v}"),
    }
}

fn ulp(v: f64) -> f64 {
    let a = v.abs();
    if a < f64::MIN_POSITIVE {
        return f64::from_bits(1);
    }
    f64::from_bits(a.to_bits() + 1) - a
}

/// Ulp error of `got` against `hi + lo`; infinite when the kinds (finite/inf/NaN) differ.
fn ulp_err(got: f64, hi: f64, lo: f64) -> f64 {
    if hi.is_infinite() || got.is_infinite() || got.is_nan() {
        return if got == hi { 0.0 } else { f64::INFINITY };
    }
    ((got - hi) - lo).abs() / ulp(hi)
}

/// Our convention for points without a finite reference (non-finite input or outside the domain).
fn convention(name: &str, x: f64) -> f64 {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    if x.is_nan() {
        return nan;
    }
    match name {
        "erf" => x.signum(),
        "erfc" => {
            if x > 0.0 {
                0.0
            } else {
                2.0
            }
        }
        "erfinv" => {
            if x.abs() == 1.0 {
                x * inf
            } else {
                nan
            }
        }
        "erfcinv" => match x {
            0.0 => inf,
            2.0 => -inf,
            _ => nan,
        },
        "ndtri" => match x {
            0.0 => -inf,
            1.0 => inf,
            _ => nan,
        },
        "lgamma" => inf,
        "digamma" => {
            if x == inf {
                inf
            } else {
                nan
            }
        }
        "expint" => match x {
            0.0 => -inf,
            _ if x == inf => inf,
            _ if x == -inf => 0.0,
            _ => nan,
        },
        "dawsn" => 0.0,
        "fresnel_cos" | "fresnel_sin" => 0.5f64.copysign(x),
        "spence" => nan,
        "bessel_i0" | "bessel_i1" => inf.copysign(if name == "bessel_i1" { x } else { 1.0 }),
        "bessel_i0e" | "bessel_i1e" | "bessel_j0" | "bessel_j1" => 0.0,
        "bessel_k0" | "bessel_k1" | "bessel_k0e" | "bessel_k1e" => match x {
            0.0 => inf,
            _ if x == inf => 0.0,
            _ => nan,
        },
        "bessel_y0" | "bessel_y1" => match x {
            0.0 => -inf,
            _ if x == inf => 0.0,
            _ => nan,
        },
        _ => unreachable!(),
    }
}

/// `e > b`, counting NaN as exceeding.
fn exceeds(e: f64, b: f64) -> bool {
    e.is_nan() || e > b
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b
}

#[test]
fn special_functions_against_mpmath() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/special_golden.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    println!("{:<12} {:>6} {:>12} {:>12} {:>12}   worst x (ours)", "function", "points", "ours", "scipy", "tf");
    let mut failures = Vec::new();
    for &(name, f, bound) in FUNCS {
        let d = &data[name];
        let xs: Vec<f64> = d["x"].as_array().unwrap().iter().map(num).collect();
        let ours = f(&Tensor::from_vec(xs.clone(), &[xs.len()]).unwrap()).unwrap().to_vec::<f64>().unwrap();
        let (mut m_ours, mut m_sp, mut m_tf, mut worst) = (0.0f64, 0.0f64, 0.0f64, f64::NAN);
        for (i, &x) in xs.iter().enumerate() {
            let r = &d["ref"][i];
            if r.is_null() {
                let want = convention(name, x);
                if !same(ours[i], want) {
                    failures.push(format!("{name}({x:e}) = {} but the convention is {want}", ours[i]));
                }
                continue;
            }
            let (hi, lo) = (num(&r[0]), num(&r[1]));
            let e = ulp_err(ours[i], hi, lo);
            if std::env::var("SPECIAL_DEBUG").is_ok() && exceeds(e, bound) {
                eprintln!("  {name}({x:e}): ours {:e} ref {hi:e} ({e:.1} ulp)", ours[i]);
            }
            if exceeds(e, m_ours) {
                m_ours = e;
                worst = x;
            }
            m_sp = m_sp.max(ulp_err(num(&d["scipy"][i]), hi, lo));
            m_tf = m_tf.max(ulp_err(num(&d["tf"][i]), hi, lo));
        }
        println!("{name:<12} {:>6} {m_ours:>12.3e} {m_sp:>12.3e} {m_tf:>12.3e}   {worst:e}", xs.len());
        if exceeds(m_ours, bound) {
            failures.push(format!("{name}: max {m_ours} ulp at x = {worst:e} exceeds the bound {bound}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn special_dtypes_weakness_and_errors() {
    let x = Tensor::from_vec(vec![0.25f32, 2.0], &[2]).unwrap();
    for &(name, f, _) in FUNCS {
        let y = f(&x).unwrap();
        assert_eq!(y.dtype(), DType::F32, "{name}");
        // f32 is the f64 value rounded once
        let y64 = f(&Tensor::from_vec(vec![0.25f64, 2.0], &[2]).unwrap()).unwrap().to_vec::<f64>().unwrap();
        let y32 = y.to_vec::<f32>().unwrap();
        for (a, b) in y32.iter().zip(&y64) {
            assert!(same(f64::from(*a), f64::from(*b as f32)), "{name}");
        }
        for dt in [DType::BF16, DType::F16] {
            assert_eq!(f(&x.cast(dt).unwrap()).unwrap().dtype(), dt, "{name}");
        }
        assert!(f(&Tensor::from_vec(vec![1i32], &[1]).unwrap()).is_err(), "{name}");
        assert!(f(&Tensor::from_vec(vec![true], &[1]).unwrap()).is_err(), "{name}");
        let w = f(&Tensor::scalar(0.5f64).with_weak(true)).unwrap();
        assert!(w.is_weak(), "{name}");
    }
}

/// Dense scans where the golden sweep is sparse (`scripts/golden/special_dense.py`,
/// mpmath): (name, function, max-ulp bound).
type ScalarFn = fn(f64) -> f64;
const DENSE: &[(&str, ScalarFn, f64)] =
    &[("dawsn", ops::special::scalar::dawsn, 4.0), ("spence", ops::special::scalar::spence, 4.0)];

#[test]
fn dawsn_and_spence_on_dense_scans() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/special_dense.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let mut failures = Vec::new();
    for &(name, f, bound) in DENSE {
        let d = &data[name];
        let (mut worst, mut at) = (0.0f64, f64::NAN);
        for (x, r) in d["x"].as_array().unwrap().iter().zip(d["ref"].as_array().unwrap()) {
            let x = num(x);
            let e = ulp_err(f(x), num(&r[0]), num(&r[1]));
            if exceeds(e, worst) {
                (worst, at) = (e, x);
            }
        }
        println!("{name:<8} {:>6} points, max {worst:.2} ulp at x = {at:e}", d["x"].as_array().unwrap().len());
        if exceeds(worst, bound) {
            failures.push(format!("{name}: max {worst} ulp at x = {at:e} exceeds the bound {bound}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
