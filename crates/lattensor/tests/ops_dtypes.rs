//! add / subtract / multiply / divide / negative over every dtype: result
//! dtype and weakness from the lattice, values against a reference computed
//! here in i128 (integers wrap) or f64 (rounded once to the result type),
//! TF's true-division rule, broadcasting, views, mixed dtypes and literals.

use crate::common;

use common::{int_tensor, ints_of};
use half::{bf16, f16};
use lattensor::promote::{result_type_in, with_mode};
use lattensor::{DType, Error, Kind, LatticeType, PromotionMode, SliceArg, Tensor, constant, ops};
use num_complex::Complex64;

// ---- reference ----------------------------------------------------------

fn int_range(d: DType) -> (i128, i128) {
    let bits = 8 * d.size() as u32;
    if d.kind() == Kind::UInt { (0, (1i128 << bits) - 1) } else { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) }
}

fn wrap(n: i128, d: DType) -> i128 {
    let bits = 8 * d.size() as u32;
    let m = n.rem_euclid(1i128 << bits);
    if d.kind() == Kind::Int && m > int_range(d).1 { m - (1i128 << bits) } else { m }
}

/// `x` rounded once to the real type of `d` (f64 → f32/f16/bf16 via the
/// `half` and `as` conversions, which round to nearest even).
fn round_to(x: f64, d: DType) -> f64 {
    match d.real_dtype() {
        DType::F64 => x,
        DType::F32 => x as f32 as f64,
        DType::F16 => f16::from_f64(x).to_f64(),
        _ => bf16::from_f64(x).to_f64(),
    }
}

fn complex_of(t: &Tensor) -> Vec<Complex64> {
    t.to_vec::<Complex64>().unwrap()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= rel * a.abs().max(b.abs())
}

/// Input values for dtype `d`, as (integer, float) pairs of the same value.
fn int_inputs(d: DType) -> (Vec<i128>, Vec<i128>) {
    let (lo, hi) = int_range(d);
    let a = vec![0, 1, 7, hi, lo, hi - 3, 100, 12];
    let b = vec![3, hi, 1, 1, 2, 5, 0, 9];
    (a.into_iter().map(|x| wrap(x, d)).collect(), b.into_iter().map(|x| wrap(x, d)).collect())
}

const FA: [f64; 8] = [1.5, -2.25, 0.1, 1000.0, f64::NAN, f64::INFINITY, 3.0, -0.0];
const FB: [f64; 8] = [0.5, 4.0, 0.2, -3.0, 1.0, 2.0, 0.0, 7.0];

fn float_tensor(vals: &[f64], d: DType) -> (Tensor, Vec<f64>) {
    let t = Tensor::from_vec(vals.to_vec(), &[vals.len()]).unwrap().cast(d).unwrap();
    let exact = vals.iter().map(|&x| round_to(x, d)).collect();
    (t, exact)
}

fn complex_tensor(d: DType) -> (Tensor, Tensor, Vec<Complex64>, Vec<Complex64>) {
    let a: Vec<Complex64> = FA.iter().zip(FB).map(|(&r, i)| Complex64::new(r, i)).collect();
    let b: Vec<Complex64> = FB.iter().zip(FA).map(|(&r, i)| Complex64::new(r, -i)).collect();
    let r =
        |v: &[Complex64]| v.iter().map(|c| Complex64::new(round_to(c.re, d), round_to(c.im, d))).collect::<Vec<_>>();
    let ta = Tensor::from_vec(a.clone(), &[8]).unwrap().cast(d).unwrap();
    let tb = Tensor::from_vec(b.clone(), &[8]).unwrap().cast(d).unwrap();
    (ta, tb, r(&a), r(&b))
}

fn binary(name: &str, a: &Tensor, b: &Tensor) -> lattensor::Result<Tensor> {
    match name {
        "add" => ops::add(a, b),
        "subtract" => ops::subtract(a, b),
        "multiply" => ops::multiply(a, b),
        "divide" => ops::divide(a, b),
        _ => unreachable!(),
    }
}

const RING: [&str; 3] = ["add", "subtract", "multiply"];

/// Every op on one dtype, against the reference.
fn check_dtype(d: DType) {
    if d == DType::Bool {
        let t = Tensor::from_vec(vec![true, false], &[2]).unwrap();
        for op in ["add", "subtract", "multiply", "divide"] {
            match binary(op, &t, &t) {
                Err(Error::UnsupportedDType { dtype: DType::Bool, .. }) => {}
                other => panic!("{op}(bool, bool): expected UnsupportedDType, got {other:?}"),
            }
        }
        assert!(matches!(ops::negative(&t), Err(Error::UnsupportedDType { dtype: DType::Bool, .. })));
        return;
    }
    match d.kind() {
        Kind::UInt | Kind::Int => {
            let (av, bv) = int_inputs(d);
            let (a, b) = (int_tensor(&av, d), int_tensor(&bv, d));
            for op in RING {
                let r = binary(op, &a, &b).unwrap();
                assert_eq!((r.dtype(), r.is_weak(), r.shape()), (d, false, &[8usize][..]), "{op} {d}");
                let want: Vec<i128> = av
                    .iter()
                    .zip(&bv)
                    .map(|(&x, &y)| match op {
                        "add" => wrap(x + y, d),
                        "subtract" => wrap(x - y, d),
                        _ => wrap(x * y, d),
                    })
                    .collect();
                assert_eq!(ints_of(&r), want, "{op} {d}");
            }
            if d.is_unsigned() {
                // TF has no Neg kernel for unsigned integers; neither does lattensor
                let e = ops::negative(&a).unwrap_err();
                assert!(matches!(e, Error::UnsupportedDType { dtype, .. } if dtype == d), "negative {d}: {e}");
            } else {
                let n = ops::negative(&a).unwrap();
                assert_eq!(n.dtype(), d);
                assert_eq!(ints_of(&n), av.iter().map(|&x| wrap(-x, d)).collect::<Vec<_>>(), "negative {d}");
            }
            // true division: 8/16-bit → float32, 32/64-bit → float64
            let q = ops::divide(&a, &b).unwrap();
            let qd = if d.size() <= 2 { DType::F32 } else { DType::F64 };
            assert_eq!((q.dtype(), q.is_weak()), (qd, false), "divide {d}");
            let got = q.to_vec::<f64>().unwrap();
            for ((&x, &y), g) in av.iter().zip(&bv).zip(got) {
                let want = round_to(round_to(x as f64, qd) / round_to(y as f64, qd), qd);
                assert!(close(g, want, 0.0), "divide {d}: {x}/{y} = {g}, expected {want}");
            }
        }
        Kind::Float => {
            let (a, ae) = float_tensor(&FA, d);
            let (b, be) = float_tensor(&FB, d);
            for op in ["add", "subtract", "multiply", "divide"] {
                let r = binary(op, &a, &b).unwrap();
                assert_eq!((r.dtype(), r.is_weak()), (d, false), "{op} {d}");
                let got = r.to_vec::<f64>().unwrap();
                for ((&x, &y), g) in ae.iter().zip(&be).zip(got) {
                    let exact = match op {
                        "add" => x + y,
                        "subtract" => x - y,
                        "multiply" => x * y,
                        _ => x / y,
                    };
                    let want = round_to(exact, d);
                    assert!(
                        (close(g, want, 0.0) && g.is_sign_negative() == want.is_sign_negative())
                            || (g.is_nan() && want.is_nan()),
                        "{op} {d}: {x} ∘ {y} = {g}, expected {want}"
                    );
                }
            }
            let n = ops::negative(&a).unwrap().to_vec::<f64>().unwrap();
            for (&x, g) in ae.iter().zip(n) {
                assert!((g.is_nan() && x.is_nan()) || g.to_bits() == (-x).to_bits(), "negative {d}: {x} → {g}");
            }
        }
        Kind::Complex => {
            let (a, b, ae, be) = complex_tensor(d);
            let rel = if d == DType::C64 { 2e-6 } else { 1e-14 };
            for op in ["add", "subtract", "multiply", "divide"] {
                let r = binary(op, &a, &b).unwrap();
                assert_eq!((r.dtype(), r.is_weak()), (d, false), "{op} {d}");
                for ((&x, &y), g) in ae.iter().zip(&be).zip(complex_of(&r)) {
                    let want = match op {
                        "add" => x + y,
                        "subtract" => x - y,
                        "multiply" => x * y,
                        _ => x / y,
                    };
                    if want.re.is_finite() && want.im.is_finite() {
                        assert!(
                            (g - want).norm() <= rel * want.norm().max(1e-30),
                            "{op} {d}: {x} ∘ {y} = {g}, expected {want}"
                        );
                    } else {
                        // non-finite: only require non-finiteness to agree
                        assert!(!(g.re.is_finite() && g.im.is_finite()), "{op} {d}: {x} ∘ {y} = {g}, expected {want}");
                    }
                }
            }
            for (&x, g) in ae.iter().zip(complex_of(&ops::negative(&a).unwrap())) {
                assert!(close(g.re, -x.re, 0.0) && close(g.im, -x.im, 0.0), "negative {d}");
            }
        }
        Kind::Bool => unreachable!(),
    }
}

macro_rules! per_dtype {
    ($($name:ident => $d:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            check_dtype(DType::$d);
        }
    )*};
}

per_dtype!(
    ops_bool => Bool, ops_u8 => U8, ops_u16 => U16, ops_u32 => U32, ops_u64 => U64,
    ops_i8 => I8, ops_i16 => I16, ops_i32 => I32, ops_i64 => I64,
    ops_bf16 => BF16, ops_f16 => F16, ops_f32 => F32, ops_f64 => F64,
    ops_c64 => C64, ops_c128 => C128,
);

// ---- promotion through the ops ---------------------------------------------

fn sample(t: LatticeType) -> Tensor {
    // values 1..=4 are exact in every dtype; bool gets [true, false, true, true]
    let base = Tensor::from_vec(vec![1i64, 0, 3, 4], &[4]).unwrap();
    base.cast(t.dtype).unwrap().with_weak(t.weak)
}

#[test]
fn every_pair_of_lattice_types_promotes_through_the_ops() {
    let mut checked = 0;
    for &a in &LatticeType::CORE {
        for &b in &LatticeType::CORE {
            let want = result_type_in(&[a, b], PromotionMode::All).unwrap();
            let (ta, tb) = (sample(a), sample(b));
            for op in ["add", "subtract", "multiply", "divide"] {
                let r = binary(op, &ta, &tb);
                if want.dtype == DType::Bool {
                    assert!(matches!(r, Err(Error::UnsupportedDType { .. })), "{op}({a}, {b})");
                    continue;
                }
                let r = r.unwrap_or_else(|e| panic!("{op}({a}, {b}): {e}"));
                let want = if op == "divide" { ops::truediv_type(want).unwrap() } else { want };
                assert_eq!(r.lattice_type(), want, "{op}({a}, {b})");
                // converting on the fly gives the same as casting first
                let same = binary(op, &ta.cast(want.dtype).unwrap(), &tb.cast(want.dtype).unwrap()).unwrap();
                assert_eq!(r.to_bytes().unwrap(), same.to_bytes().unwrap(), "{op}({a}, {b}) values");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * (400 - 1));
}

#[test]
fn mixed_dtype_examples() {
    let cases: Vec<(Tensor, Tensor, &str, &str)> = vec![
        (Tensor::scalar(10i32), Tensor::scalar(5.0f32), "float32", "15.0"),
        (Tensor::scalar(200u8), Tensor::scalar(-100i8), "int16", "100"),
        (Tensor::scalar(10i8), Tensor::scalar(5u32), "int64", "15"),
        (Tensor::scalar(u64::MAX), Tensor::scalar(-1i8), "float64*", "1.8446744073709552e+19"),
        (Tensor::scalar(bf16::from_f32(1.5)), Tensor::scalar(f16::from_f32(2.0)), "float32", "3.5"),
        (Tensor::scalar(1.0f64), Tensor::scalar(num_complex::Complex32::new(1.0, 2.0)), "complex128", "(2+2j)"),
        (Tensor::scalar(f16::from_f32(3.1)), constant(1.2).unwrap(), "float16", "4.30078125"),
        (Tensor::scalar(3i32), constant(2.0).unwrap(), "float64*", "5.0"),
        (constant(3).unwrap(), constant(2.5).unwrap(), "float32*", "5.5"),
        (
            Tensor::scalar(num_complex::Complex32::new(1.0, 1.0)),
            constant(Complex64::new(0.0, 1.0)).unwrap(),
            "complex64",
            "(1+2j)",
        ),
    ];
    for (a, b, ty, val) in cases {
        let r = ops::add(&a, &b).unwrap();
        assert_eq!(r.lattice_type().to_string(), ty, "{a} + {b}");
        assert!(r.to_string().contains(&format!("numpy={val}")), "{a} + {b} = {r}");
    }
}

#[test]
fn true_division_rule() {
    let q = ops::divide(&constant(1).unwrap(), &constant(2).unwrap()).unwrap();
    assert_eq!((q.lattice_type().to_string(), q.item::<f64>().unwrap()), ("float64*".into(), 0.5));
    let q = ops::divide(&Tensor::scalar(7i8), 2).unwrap();
    assert_eq!((q.dtype(), q.is_weak(), q.item::<f32>().unwrap()), (DType::F32, false, 3.5));
    let q = ops::divide(&Tensor::scalar(7i32), 2.0).unwrap();
    assert_eq!(q.lattice_type().to_string(), "float64*");
    let q = ops::divide(&Tensor::scalar(f16::from_f32(3.0)), 2).unwrap();
    assert_eq!(q.dtype(), DType::F16);
    let q = ops::divide(&Tensor::scalar(7u16), &Tensor::scalar(2u16)).unwrap();
    assert_eq!(q.dtype(), DType::F32);
    let q = ops::divide(&Tensor::scalar(7u64), &Tensor::scalar(2u32)).unwrap();
    assert_eq!(q.dtype(), DType::F64);
    assert!(matches!(ops::divide(&Tensor::scalar(true), true), Err(Error::UnsupportedDType { .. })));
    // SAFE: int32 / 2.0 is refused (int32 ⊔ f32* = f64*)
    assert!(matches!(
        with_mode(PromotionMode::Safe, || ops::divide(&Tensor::scalar(1i32), 2.0)),
        Err(Error::Promotion { .. })
    ));
}

#[test]
fn weakness_is_kept_or_dropped_as_the_lattice_says() {
    let w = constant(vec![1, 2, 3]).unwrap();
    assert!(w.is_weak());
    assert!(ops::add(&w, &w).unwrap().is_weak());
    assert!(ops::negative(&w).unwrap().is_weak());
    assert!((&w * 2).unwrap().is_weak());
    let s = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
    assert!(!ops::add(&w, &s).unwrap().is_weak());
    let r = ops::add(&w, &Tensor::from_vec(vec![1u8, 2, 3], &[3]).unwrap()).unwrap();
    assert_eq!((r.dtype(), r.is_weak()), (DType::U8, false));
    let r = ops::add(&constant(1.0).unwrap(), &constant(1).unwrap()).unwrap();
    assert_eq!(r.lattice_type().to_string(), "float32*");
}

// ---- shapes and views --------------------------------------------------------

#[test]
fn broadcasting_3x1_with_4() {
    let a = Tensor::from_vec(vec![0i32, 10, 20], &[3, 1]).unwrap();
    let b = Tensor::from_vec(vec![1i32, 2, 3, 4], &[4]).unwrap();
    for (op, f) in [("add", 0), ("subtract", 1), ("multiply", 2)] {
        let r = binary(op, &a, &b).unwrap();
        assert_eq!(r.shape(), &[3, 4]);
        let mut want = Vec::new();
        for x in [0, 10, 20] {
            for y in [1, 2, 3, 4] {
                want.push([x + y, x - y, x * y][f]);
            }
        }
        assert_eq!(r.to_vec::<i32>().unwrap(), want, "{op}");
        // and the other way round
        assert_eq!(binary(op, &b, &a).unwrap().shape(), &[3, 4]);
    }
    let q = ops::divide(&a, &b).unwrap();
    assert_eq!((q.shape(), q.dtype()), (&[3usize, 4][..], DType::F64));
    assert_eq!(q.to_vec::<f64>().unwrap()[4..8], [10.0, 5.0, 10.0 / 3.0, 2.5]);
}

#[test]
fn views_give_the_same_results_as_contiguous_copies() {
    let base = Tensor::from_vec((0..24).map(|x| x as f64 * 0.5 - 3.0).collect::<Vec<_>>(), &[4, 6]).unwrap();
    let other = Tensor::from_vec((0..24).map(|x| (x * 7 % 11) as f64 + 1.0).collect::<Vec<_>>(), &[6, 4]).unwrap();
    let transposed = base.t(); // [6, 4]
    let sliced = other.slice(&[SliceArg::stepped(None, None, -1), SliceArg::stepped(Some(3), None, -1)]).unwrap(); // [6, 4] reversed
    let row = Tensor::from_vec(vec![1.5f64, -2.0, 0.25, 4.0], &[4]).unwrap();
    let broadcast = row.broadcast_to(&[6, 4]).unwrap();
    let views = [("transposed", transposed), ("sliced", sliced), ("broadcast", broadcast)];
    for (name, v) in &views {
        assert!(!v.is_contiguous(), "{name} should be a view");
        let c = v.contiguous().unwrap();
        assert!(c.is_contiguous());
        for dtype in [DType::F64, DType::F32, DType::I32, DType::U8, DType::C64, DType::BF16] {
            let (v, c) = (v.cast(dtype).unwrap(), c.cast(dtype).unwrap());
            let (v2, c2) = (views[0].1.cast(dtype).unwrap(), views[0].1.contiguous().unwrap().cast(dtype).unwrap());
            for op in ["add", "subtract", "multiply", "divide"] {
                let a = binary(op, &v, &v2).unwrap();
                let b = binary(op, &c, &c2).unwrap();
                assert_eq!(a.to_bytes().unwrap(), b.to_bytes().unwrap(), "{op} on {name} {dtype}");
            }
            if dtype != DType::U8 {
                assert_eq!(
                    ops::negative(&v).unwrap().to_bytes().unwrap(),
                    ops::negative(&c).unwrap().to_bytes().unwrap(),
                    "negative on {name} {dtype}"
                );
            }
        }
    }
    // a view of a view, against explicit values
    let s = base.slice(&[SliceArg::stepped(None, None, -2), SliceArg::stepped(Some(5), Some(0), -2)]).unwrap();
    assert_eq!(s.shape(), &[2, 3]);
    let r = (&s + 1.0).unwrap().to_vec::<f64>().unwrap();
    let want: Vec<f64> =
        [3usize, 1].iter().flat_map(|&i| [5usize, 3, 1].map(move |j| (i * 6 + j) as f64 * 0.5 - 2.0)).collect();
    assert_eq!(r, want);
}

#[test]
fn rust_literal_operands() {
    let t = Tensor::from_vec(vec![1.0f32, 2.0, 4.0], &[3]).unwrap();
    let r = (&t + 1.0).unwrap();
    assert_eq!((r.dtype(), r.to_vec::<f32>().unwrap()), (DType::F32, vec![2.0, 3.0, 5.0]));
    let r = (2 * &t).unwrap();
    assert_eq!((r.dtype(), r.to_vec::<f32>().unwrap()), (DType::F32, vec![2.0, 4.0, 8.0]));
    let r = (1.0 / &t).unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![1.0, 0.5, 0.25]);
    let r = (10 - &t).unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![9.0, 8.0, 6.0]);
    let i = Tensor::from_vec(vec![100i8, -100, 5], &[3]).unwrap();
    let r = (&i + 100).unwrap(); // i8 ⊔ i32* = i8, wraps
    assert_eq!((r.dtype(), r.to_vec::<i8>().unwrap()), (DType::I8, vec![-56, 0, 105]));
    let r = (&i * 1.5).unwrap(); // i8 ⊔ f32* = f64*
    assert_eq!(
        (r.lattice_type().to_string(), r.to_vec::<f64>().unwrap()),
        ("float64*".into(), vec![150.0, -150.0, 7.5])
    );
    let r = (&i + true).unwrap();
    assert_eq!(r.to_vec::<i8>().unwrap(), vec![101, -99, 6]);
    let c = (&t + Complex64::new(0.0, 1.0)).unwrap();
    assert_eq!(c.dtype(), DType::C64);
    let u = (&Tensor::scalar(7u8) + lattensor::Scalar::from(250u8)).unwrap();
    assert_eq!((u.dtype(), u.item::<u8>().unwrap()), (DType::U8, 1));
}

#[test]
fn mismatched_shapes_name_the_op() {
    let a = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = Tensor::zeros(&[4], DType::F32).unwrap();
    for (op, r) in [
        ("add", ops::add(&a, &b)),
        ("subtract", ops::subtract(&a, &b)),
        ("multiply", ops::multiply(&a, &b)),
        ("truediv", ops::divide(&a, &b)),
    ] {
        match r {
            Err(e @ Error::ShapeMismatch { .. }) => {
                let Error::ShapeMismatch { op: got, lhs, rhs, .. } = &e else { unreachable!() };
                assert_eq!((got.as_str(), lhs.as_slice(), rhs.as_slice()), (op, &[2usize, 3][..], &[4usize][..]));
                assert!(e.to_string().starts_with(op), "{e}");
            }
            other => panic!("{op}: expected ShapeMismatch, got {other:?}"),
        }
    }
}
