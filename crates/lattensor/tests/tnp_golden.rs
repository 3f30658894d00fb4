//! `lattensor::numpy` against TensorFlow 2.21's `tf.experimental.numpy` with WeakTensor
//! semantics (`scripts/golden/tnp_golden.py` → `tests/data/tnp_golden.json`): every tnp
//! name of the guide's list × every dtype (plus weak tensors and Python scalars),
//! checking dtype, weakness, shape and values, or that we refuse what TF refuses.
//!
//! Tolerances (relative, plus the same absolute floor for values near 0):
//! bool and integers exact; bfloat16 2⁻⁷; float16 2⁻⁹; float32 and complex64 2⁻²⁰
//! (8 ulp); float64 and complex128 2⁻⁴⁸ (32 ulp) — TF's transcendental kernels
//! (Eigen) are not correctly rounded, and ours compute f32 in f64. Infinities and
//! NaN match exactly; the sign of zero is checked too.
//!
//! Deliberate deviations (docs/deviations.md) are listed in [`deviation`]; those
//! cases are counted separately and checked as far as the deviation allows.

use crate::common;

use lattensor::numpy::{self as tnp, Axes, Value};
use lattensor::{DType, Result, Scalar, Tensor};
use num_complex::Complex64;
use serde_json::{Map, Value as Json};

fn num(v: &Json) -> f64 {
    match v {
        Json::Number(n) => n.as_f64().unwrap(),
        Json::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => panic!("bad number {s}"),
        },
        _ => panic!("bad value {v}"),
    }
}

fn dtype(name: &str) -> DType {
    DType::parse(name).unwrap()
}

/// A golden input as the value a tnp function receives.
fn input(spec: &Json) -> Value {
    let d = dtype(spec["d"].as_str().unwrap());
    let vals = spec["v"].as_array().unwrap();
    if spec.get("python").is_some() {
        let s = match d {
            DType::Bool => Scalar::Bool(vals[0].as_bool().unwrap()),
            DType::I32 => Scalar::Int(vals[0].as_i64().unwrap()),
            DType::F32 => Scalar::Float(num(&vals[0])),
            _ => Scalar::Complex(Complex64::new(num(&vals[0][0]), num(&vals[0][1]))),
        };
        return Value::Literal(s);
    }
    let shape: Vec<usize> = spec["s"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
    let t = if d.is_bool() {
        Tensor::from_vec(vals.iter().map(|v| v.as_bool().unwrap()).collect::<Vec<_>>(), &shape)
    } else if d == DType::U64 {
        Tensor::from_vec(vals.iter().map(|v| v.as_u64().unwrap()).collect::<Vec<_>>(), &shape)
    } else if d.is_integer() {
        Tensor::from_vec(vals.iter().map(|v| v.as_i64().unwrap()).collect::<Vec<_>>(), &shape)
    } else if d.is_complex() {
        let z: Vec<Complex64> = vals.iter().map(|v| Complex64::new(num(&v[0]), num(&v[1]))).collect();
        Tensor::from_vec(z, &shape)
    } else {
        Tensor::from_vec(vals.iter().map(num).collect::<Vec<f64>>(), &shape)
    }
    .unwrap();
    // values were written exactly in the source dtype, so this cast is exact
    Value::Tensor(t.cast(d).unwrap().with_weak(spec["w"].as_bool().unwrap()))
}

/// A nested JSON list of numbers as a weak tensor, as tnp converts a Python list.
fn list_tensor(v: &Json) -> Tensor {
    fn flat(v: &Json, out: &mut Vec<Json>, shape: &mut Vec<usize>, depth: usize) {
        if let Json::Array(a) = v {
            if shape.len() == depth {
                shape.push(a.len());
            }
            for x in a {
                flat(x, out, shape, depth + 1);
            }
        } else {
            out.push(v.clone());
        }
    }
    let (mut items, mut shape) = (Vec::new(), Vec::new());
    flat(v, &mut items, &mut shape, 0);
    let t = if items.iter().all(|x| x.is_i64()) {
        lattensor::constant(items.iter().map(|x| x.as_i64().unwrap()).collect::<Vec<_>>())
    } else {
        lattensor::constant(items.iter().map(num).collect::<Vec<_>>())
    }
    .unwrap();
    let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    t.reshape(&shape).unwrap()
}

fn axes(kw: &Map<String, Json>, key: &str) -> Axes {
    match kw.get(key) {
        None | Some(Json::Null) => Axes::All,
        Some(Json::Array(a)) => Axes::Some(a.iter().map(|x| x.as_i64().unwrap() as isize).collect()),
        Some(x) => Axes::Some(vec![x.as_i64().unwrap() as isize]),
    }
}

fn int(kw: &Map<String, Json>, key: &str, default: i64) -> i64 {
    kw.get(key).and_then(Json::as_i64).unwrap_or(default)
}

fn opt_axis(kw: &Map<String, Json>, key: &str) -> Option<isize> {
    kw.get(key).and_then(Json::as_i64).map(|a| a as isize)
}

fn opt_dtype(kw: &Map<String, Json>) -> Option<DType> {
    kw.get("dtype").and_then(Json::as_str).map(dtype)
}

fn flag(kw: &Map<String, Json>, key: &str) -> bool {
    kw.get(key).and_then(Json::as_bool).unwrap_or(false)
}

fn isizes(v: &Json) -> Vec<isize> {
    match v {
        Json::Array(a) => a.iter().map(|x| x.as_i64().unwrap() as isize).collect(),
        x => vec![x.as_i64().unwrap() as isize],
    }
}

fn scalar(v: &Json) -> Scalar {
    match v.as_i64() {
        Some(i) => Scalar::Int(i),
        None => Scalar::Float(num(v)),
    }
}

/// The name → function table: calls `lattensor::numpy::<name>` with the case's arguments.
fn call(name: &str, x: Value, kw: &Map<String, Json>) -> Result<Vec<Tensor>> {
    let one = |t: Result<Tensor>| t.map(|t| vec![t]);
    let keep = flag(kw, "keepdims");
    match name {
        "abs" => one(tnp::abs(x)),
        "absolute" => one(tnp::absolute(x)),
        "fabs" => one(tnp::fabs(x)),
        "angle" => one(tnp::angle(x, flag(kw, "deg"))),
        "arccos" => one(tnp::arccos(x)),
        "arccosh" => one(tnp::arccosh(x)),
        "arcsin" => one(tnp::arcsin(x)),
        "arcsinh" => one(tnp::arcsinh(x)),
        "arctan" => one(tnp::arctan(x)),
        "arctanh" => one(tnp::arctanh(x)),
        "around" => one(tnp::around(x, int(kw, "decimals", 0) as i32)),
        "round" => one(tnp::round(x, int(kw, "decimals", 0) as i32)),
        "bitwise_not" => one(tnp::bitwise_not(x)),
        "cbrt" => one(tnp::cbrt(x)),
        "ceil" => one(tnp::ceil(x)),
        "conj" => one(tnp::conj(x)),
        "conjugate" => one(tnp::conjugate(x)),
        "cos" => one(tnp::cos(x)),
        "cosh" => one(tnp::cosh(x)),
        "deg2rad" => one(tnp::deg2rad(x)),
        "exp2" => one(tnp::exp2(x)),
        "exp" => one(tnp::exp(x)),
        "expm1" => one(tnp::expm1(x)),
        "fix" => one(tnp::fix(x)),
        "floor" => one(tnp::floor(x)),
        "imag" => one(tnp::imag(x)),
        "log10" => one(tnp::log10(x)),
        "log1p" => one(tnp::log1p(x)),
        "log2" => one(tnp::log2(x)),
        "log" => one(tnp::log(x)),
        "negative" => one(tnp::negative(x)),
        "positive" => one(tnp::positive(x)),
        "rad2deg" => one(tnp::rad2deg(x)),
        "real" => one(tnp::real(x)),
        "reciprocal" => one(tnp::reciprocal(x)),
        "signbit" => one(tnp::signbit(x)),
        "sin" => one(tnp::sin(x)),
        "sinc" => one(tnp::sinc(x)),
        "sinh" => one(tnp::sinh(x)),
        "sqrt" => one(tnp::sqrt(x)),
        "square" => one(tnp::square(x)),
        "tan" => one(tnp::tan(x)),
        "tanh" => one(tnp::tanh(x)),
        "amax" => one(tnp::amax(x, axes(kw, "axis"), keep)),
        "amin" => one(tnp::amin(x, axes(kw, "axis"), keep)),
        "max" => one(tnp::max(x, axes(kw, "axis"), keep)),
        "min" => one(tnp::min(x, axes(kw, "axis"), keep)),
        "sum" => one(tnp::sum(x, axes(kw, "axis"), opt_dtype(kw), keep)),
        "prod" => one(tnp::prod(x, axes(kw, "axis"), opt_dtype(kw), keep)),
        "mean" => one(tnp::mean(x, axes(kw, "axis"), opt_dtype(kw), keep)),
        "std" => one(tnp::std(x, axes(kw, "axis"), int(kw, "ddof", 0) as usize, keep)),
        "var" => one(tnp::var(x, axes(kw, "axis"), opt_dtype(kw), int(kw, "ddof", 0) as usize, keep)),
        "nanmean" => one(tnp::nanmean(x, axes(kw, "axis"), opt_dtype(kw), keep)),
        "average" => {
            let w = kw.get("weights").map(list_tensor);
            if flag(kw, "returned") {
                tnp::average_returned(x, opt_axis(kw, "axis"), w.as_ref()).map(|(a, s)| vec![a, s])
            } else {
                one(tnp::average(x, opt_axis(kw, "axis"), w.as_ref()))
            }
        }
        "cumsum" => one(tnp::cumsum(x, opt_axis(kw, "axis"), opt_dtype(kw))),
        "cumprod" => one(tnp::cumprod(x, opt_axis(kw, "axis"), opt_dtype(kw))),
        "trace" => one(tnp::trace(
            x,
            int(kw, "offset", 0) as isize,
            int(kw, "axis1", 0) as isize,
            int(kw, "axis2", 1) as isize,
            opt_dtype(kw),
        )),
        "diff" => one(tnp::diff(x, int(kw, "n", 1) as usize, int(kw, "axis", -1) as isize)),
        "diag" => one(tnp::diag(x, int(kw, "k", 0) as isize)),
        "diagflat" => one(tnp::diagflat(x, int(kw, "k", 0) as isize)),
        "diagonal" => one(tnp::diagonal(
            x,
            int(kw, "offset", 0) as isize,
            int(kw, "axis1", 0) as isize,
            int(kw, "axis2", 1) as isize,
        )),
        "expand_dims" => one(tnp::expand_dims(x, int(kw, "axis", 0) as isize)),
        "flatten" => one(tnp::flatten(x)),
        "ravel" => one(tnp::ravel(x)),
        "flip" => one(tnp::flip(x, axes(kw, "axis"))),
        "fliplr" => one(tnp::fliplr(x)),
        "flipud" => one(tnp::flipud(x)),
        "moveaxis" => one(tnp::moveaxis(x, Axes::Some(isizes(&kw["source"])), Axes::Some(isizes(&kw["destination"])))),
        "repeat" => {
            let r: Vec<usize> = isizes(&kw["repeats"]).iter().map(|&r| r as usize).collect();
            one(tnp::repeat(x, &r, opt_axis(kw, "axis")))
        }
        "reshape" => one(tnp::reshape(x, &isizes(&kw["newshape"]))),
        "rot90" => {
            let a = kw.get("axes").map_or(vec![0, 1], isizes);
            one(tnp::rot90(x, int(kw, "k", 1) as i32, (a[0], a[1])))
        }
        "sort" => {
            let axis = match kw.get("axis") {
                None => Some(-1),
                Some(Json::Null) => None,
                Some(a) => a.as_i64().map(|a| a as isize),
            };
            one(tnp::sort(x, axis))
        }
        "squeeze" => one(tnp::squeeze(x, axes(kw, "axis"))),
        "swapaxes" => one(tnp::swapaxes(x, int(kw, "axis1", 0) as isize, int(kw, "axis2", 1) as isize)),
        "transpose" => {
            let a = kw.get("axes").map(isizes);
            one(tnp::transpose(x, a.as_deref()))
        }
        "triu" => one(tnp::triu(x, int(kw, "k", 0) as isize)),
        "vander" => one(tnp::vander(x, kw.get("N").and_then(Json::as_u64).map(|n| n as usize), flag(kw, "increasing"))),
        "copy" => one(tnp::copy(x)),
        "array" => one(tnp::array(x, opt_dtype(kw), true, int(kw, "ndmin", 0) as usize)),
        "asarray" => one(tnp::asarray(x, opt_dtype(kw))),
        "asanyarray" => one(tnp::asanyarray(x, opt_dtype(kw))),
        "ascontiguousarray" => one(tnp::ascontiguousarray(x, opt_dtype(kw))),
        "empty_like" => one(tnp::empty_like(x, opt_dtype(kw))),
        "zeros_like" => one(tnp::zeros_like(x, opt_dtype(kw))),
        "ones_like" => one(tnp::ones_like(x, opt_dtype(kw))),
        "full_like" => {
            let shape: Option<Vec<usize>> =
                kw.get("shape").map(|s| isizes(s).into_iter().map(|d| d as usize).collect());
            one(tnp::full_like(x, scalar(&kw["fill_value"]), opt_dtype(kw), shape.as_deref()))
        }
        other => panic!("no function for tnp.{other}"),
    }
}

fn arange(kw: &Map<String, Json>) -> Result<Tensor> {
    let args: Vec<Scalar> = kw["args"].as_array().unwrap().iter().map(scalar).collect();
    let d = opt_dtype(kw);
    match args.len() {
        1 => tnp::arange(args[0], None, 1, d),
        2 => tnp::arange(args[0], Some(args[1]), 1, d),
        _ => tnp::arange(args[0], Some(args[1]), args[2], d),
    }
}

/// How a deliberate deviation from TF 2.21 changes a case.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Dev {
    /// Another dtype or weakness: values are compared at the coarser tolerance.
    Type,
    /// Other values at some elements (or another kind of dtype): only the shape is compared.
    Values,
    /// TF raises, lattensor computes the result.
    More,
    /// TF returns a result, lattensor raises (as NumPy does).
    Refuse,
    /// Values are compared, but not the sign of zeros.
    ZeroSign,
}

const FLOAT_FNS: &[&str] = &[
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil", "cos", "cosh", "deg2rad", "exp2",
    "exp", "expm1", "fix", "floor", "log1p", "log", "sin", "sinc", "sinh", "sqrt", "tan", "tanh", "average",
];

/// The deviations of docs/deviations.md, as (function, input dtype, kwargs, TF's output) → kind.
fn deviation(name: &str, key: &str, d: DType, weak: bool, kw: &Map<String, Json>, tf: &Json) -> Option<Dev> {
    let tf_err = tf.get("err").is_some();
    // the edge-value vectors (NaN, ±inf, integer extremes)
    let edge = key.starts_with("e_") || key.starts_with("we_");
    let unsigned_or_bool = d.is_unsigned() || d.is_bool();
    match name {
        // cbrt(-0.0) is -0.0 (TF computes |x|^(1/3) and gives +0.0)
        "cbrt" if d.is_float() && edge => Some(Dev::ZeroSign),
        // bfloat16 is a float: float functions keep it (TF computes it as float32)
        n if FLOAT_FNS.contains(&n) && d == DType::BF16 && !tf_err => Some(Dev::Type),
        // TF's tnp.arccosh is not wrapped for WeakTensor and drops weakness
        "arccosh" if weak && !tf_err => Some(Dev::Type),
        // log2/log10 keep the float dtype (TF divides by a float64 constant)
        "log2" | "log10" if !tf_err => Some(Dev::Type),
        // angle keeps the float dtype (TF: float32 for every real input) and propagates NaN
        "angle" if !d.is_complex() && !tf_err => Some(Dev::Values),
        // rad2deg treats integers and bool like deg2rad (TF: f64* for ints, bool unchanged)
        "rad2deg" if !d.is_inexact() && !tf_err => Some(if d.is_bool() { Dev::Values } else { Dev::Type }),
        // complex 1/0 is inf+nanj as tf.math.reciprocal gives (tnp.reciprocal: nan+nanj)
        "reciprocal" if d.is_complex() && edge && !tf_err => Some(Dev::Values),
        // signbit is the sign bit (TF: x < 0, false for -0.0)
        "signbit" if d.is_float() && !tf_err => Some(Dev::Values),
        // integers round exactly (TF goes through float32 and corrupts values beyond 2^24)
        "around" | "round" if d.is_integer() && d.size() >= 4 && !tf_err => Some(Dev::Values),
        // TF scales float64 by a float32 10^decimals (around(-100.25, -1) = -99.9999985)
        "around" | "round" if d == DType::F64 && int(kw, "decimals", 0) != 0 => Some(Dev::Values),
        // sums of values that cancel catastrophically (int extremes as floats): compensated
        // summation gives the correctly rounded sum, TF's float32 accumulation gives 0
        "sum" | "mean" if edge && d.is_integer() && d.size() >= 4 && !tf_err => Some(Dev::Values),
        // NaNs sort last (TF sorts them before +inf)
        "sort" if edge && d.is_float() && !tf_err => Some(Dev::Values),
        // flips, rot90 and repeat along an axis of a 0-d value: TF returns the value, NumPy raises
        "flip" | "fliplr" | "flipud" | "rot90" | "repeat" if key.starts_with("py_") && !tf_err => Some(Dev::Refuse),
        // trace widens like sum in every case (TF's offset-0 matrix fast path does not, and refuses bool)
        "trace" if d.size() < 4 && !d.is_inexact() && kw.get("dtype").is_none() => {
            Some(if tf_err { Dev::More } else { Dev::Type })
        }
        // cumsum/cumprod widen like sum (TF: int32 for small unsigned, float32 for uint64, refuses bool)
        "cumsum" | "cumprod" if unsigned_or_bool && kw.get("dtype").is_none() => {
            Some(if tf_err { Dev::More } else { Dev::Type })
        }
        // var with ddof != 0 raises in TF 2.21
        "var" if int(kw, "ddof", 0) != 0 && tf_err => Some(Dev::More),
        // average(returned=True) of weak input raises in TF 2.21
        "average" if flag(kw, "returned") && weak && tf_err => Some(Dev::More),
        // flip over several axes, repeat of uint16, sort of bool/uint32/uint64, triu of bool, full_like(shape)
        "flip" if matches!(kw.get("axis"), Some(Json::Array(_))) && tf_err => Some(Dev::More),
        "repeat" if d == DType::U16 && tf_err => Some(Dev::More),
        "sort" if matches!(d, DType::Bool | DType::U32 | DType::U64) && tf_err => Some(Dev::More),
        "triu" if d.is_bool() && tf_err => Some(Dev::More),
        "full_like" if kw.get("shape").is_some() && tf_err => Some(Dev::More),
        _ => None,
    }
}

/// (relative, absolute) tolerance of a dtype.
fn tol(d: DType) -> f64 {
    match d {
        DType::BF16 => 2f64.powi(-7),
        DType::F16 => 2f64.powi(-9),
        DType::F32 | DType::C64 => 2f64.powi(-20),
        DType::F64 | DType::C128 => 2f64.powi(-48),
        _ => 0.0,
    }
}

fn close(got: f64, exp: f64, t: f64) -> bool {
    if exp.is_nan() || got.is_nan() {
        return exp.is_nan() && got.is_nan();
    }
    if exp.is_infinite() || got.is_infinite() {
        return got == exp;
    }
    if exp == 0.0 && got == 0.0 {
        return exp.is_sign_negative() == got.is_sign_negative();
    }
    (got - exp).abs() <= t * (1.0 + exp.abs())
}

/// Compares our tensor's values with TF's, at tolerance `t`.
fn values(got: &Tensor, tf_dtype: DType, exp: &[Json], t: f64) -> std::result::Result<(), String> {
    let d = got.dtype();
    let bad = |i: usize, g: String| Err(format!("element {i}: got {g}, TF {}", exp[i]));
    if d.is_bool() != tf_dtype.is_bool() {
        return Err(format!("bool vs non-bool ({d} vs {tf_dtype})"));
    }
    if d.is_bool() {
        for (i, g) in got.to_vec::<bool>().unwrap().into_iter().enumerate() {
            if Some(g) != exp[i].as_bool() {
                return bad(i, g.to_string());
            }
        }
    } else if d.is_complex() || tf_dtype.is_complex() {
        for (i, g) in got.to_vec::<Complex64>().unwrap().into_iter().enumerate() {
            let e = match &exp[i] {
                Json::Array(p) => Complex64::new(num(&p[0]), num(&p[1])),
                v => Complex64::new(num(v), 0.0),
            };
            // each part within the tolerance relative to the magnitude of the whole number
            let ok = |gp: f64, ep: f64| close(gp, ep, t) || (gp - ep).abs() <= t * (1.0 + e.norm());
            if !(ok(g.re, e.re) && ok(g.im, e.im)) {
                return bad(i, g.to_string());
            }
        }
    } else if d.is_integer() && tf_dtype.is_integer() {
        let g: Vec<i128> = if d == DType::U64 {
            got.to_vec::<u64>().unwrap().into_iter().map(i128::from).collect()
        } else {
            got.to_vec::<i64>().unwrap().into_iter().map(i128::from).collect()
        };
        for (i, g) in g.into_iter().enumerate() {
            let e = exp[i].as_i64().map(i128::from).or(exp[i].as_u64().map(i128::from));
            if Some(g) != e {
                return bad(i, g.to_string());
            }
        }
    } else {
        for (i, g) in got.to_vec::<f64>().unwrap().into_iter().enumerate() {
            let e = match &exp[i] {
                Json::Bool(b) => f64::from(u8::from(*b)),
                v => num(v),
            };
            if !close(g, e, t) {
                return bad(i, format!("{g:?}"));
            }
        }
    }
    Ok(())
}

/// Checks one case; `Ok(kind)` says whether it passed outright or as a deviation.
fn check(
    name: &str,
    got: Result<Vec<Tensor>>,
    tf: &Json,
    dev: Option<Dev>,
) -> std::result::Result<&'static str, String> {
    let tf_outs: Vec<&Json> = match tf.get("tuple") {
        Some(Json::Array(a)) => a.iter().collect(),
        _ => vec![tf],
    };
    match (got, tf.get("err")) {
        (Err(_), Some(_)) => Ok("pass"),
        (Ok(_), Some(_)) if dev == Some(Dev::More) => Ok("deviation"),
        (Err(_), None) if dev == Some(Dev::Refuse) => Ok("deviation"),
        (Ok(g), Some(e)) => Err(format!("TF raises {e} but we return {:?}", g.first())),
        (Err(e), None) => Err(format!("we fail ({e}) but TF returns {tf}")),
        (Ok(g), None) => {
            if g.len() != tf_outs.len() {
                return Err(format!("{} results, TF {}", g.len(), tf_outs.len()));
            }
            for (ours, tf) in g.iter().zip(tf_outs) {
                let tf_dtype = dtype(tf["d"].as_str().unwrap());
                let tf_shape: Vec<usize> =
                    tf["s"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
                if ours.shape() != tf_shape.as_slice() {
                    return Err(format!("{name}: shape {:?}, TF {tf_shape:?}", ours.shape()));
                }
                let same_type = ours.dtype() == tf_dtype && ours.is_weak() == tf["w"].as_bool().unwrap();
                if !same_type && dev.is_none() {
                    return Err(format!(
                        "{name}: {}{} but TF gives {tf_dtype}{}",
                        ours.dtype(),
                        if ours.is_weak() { "*" } else { "" },
                        if tf["w"].as_bool().unwrap() { "*" } else { "" }
                    ));
                }
                if dev == Some(Dev::Values) {
                    continue;
                }
                let t = tol(ours.dtype()).max(tol(tf_dtype));
                let exp = tf["v"].as_array().unwrap();
                let exp: Vec<Json> = if dev == Some(Dev::ZeroSign) {
                    // compare -0.0 with +0.0 as equal: flip TF's zeros to our zeros' sign
                    let ours_v = ours.to_vec::<f64>().unwrap();
                    exp.iter()
                        .zip(ours_v)
                        .map(|(e, g)| if e.as_f64() == Some(0.0) && g == 0.0 { Json::from(g) } else { e.clone() })
                        .collect()
                } else {
                    exp.clone()
                };
                values(ours, tf_dtype, &exp, t).map_err(|e| format!("{name}: {e}"))?;
            }
            Ok(if dev.is_some() { "deviation" } else { "pass" })
        }
    }
}

#[test]
fn tnp_matches_tensorflow() {
    let g = common::golden("tnp_golden.json");
    let inputs = g["inputs"].as_object().unwrap();
    let mut failures = Vec::new();
    let (mut pass, mut dev_count) = (0usize, 0usize);
    // (name, dtype) pairs in which every case passed or deviated as documented
    let mut pairs: std::collections::BTreeMap<(String, String), bool> = Default::default();
    let mut names = std::collections::BTreeSet::new();
    for c in g["cases"].as_array().unwrap() {
        let name = c["fn"].as_str().unwrap();
        names.insert(name.to_string());
        let kw = c["kw"].as_object().unwrap();
        let tf = &c["out"];
        let (got, d, weak, label) = if name == "arange" {
            (arange(kw).map(|t| vec![t]), DType::F32, true, "scalars".to_string())
        } else {
            let key = c["in"].as_str().unwrap();
            let spec = &inputs[key];
            let d = dtype(spec["d"].as_str().unwrap());
            let weak = spec["w"].as_bool().unwrap();
            let label = if spec.get("python").is_some() {
                key.to_string()
            } else {
                format!("{d}{}", if weak { "*" } else { "" })
            };
            (call(name, input(spec), kw), d, weak, label)
        };
        let dev = if name == "arange" {
            // TF types arange(1, 2, 0.3) as f64* (0.3 is not a float32); a float literal is f32*
            (kw["args"].as_array().unwrap().iter().any(|a| a.as_f64() == Some(0.3))).then_some(Dev::Type)
        } else {
            deviation(name, c["in"].as_str().unwrap(), d, weak, kw, tf)
        };
        let ok = match check(name, got, tf, dev) {
            Ok("pass") => {
                pass += 1;
                true
            }
            Ok(_) => {
                dev_count += 1;
                true
            }
            Err(e) => {
                failures.push(format!("tnp.{name}({label}, {kw:?}): {e}"));
                false
            }
        };
        let entry = pairs.entry((name.to_string(), label)).or_insert(true);
        *entry &= ok;
    }
    let good_pairs = pairs.values().filter(|&&ok| ok).count();
    eprintln!(
        "tnp golden: {} names, {} cases: {pass} pass, {dev_count} documented deviations, {} fail; \
         (name, dtype) pairs fully passing: {good_pairs}/{}",
        names.len(),
        pass + dev_count + failures.len(),
        failures.len(),
        pairs.len()
    );
    assert_eq!(names.len(), 87, "the golden must cover all 87 tnp names");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
