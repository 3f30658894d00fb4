//! `tf.bitwise`'s binary ops: TF 2.21's values on every integer dtype
//! (golden data from `scripts/golden/tf_bitwise.py`), the lattice on mixed
//! dtypes against an i128 reference, bool, weakness, operators and errors.

use crate::common;

use common::{int_tensor, ints_of};
use lattensor::promote::{result_type_in, with_mode};
use lattensor::{DType, Error, Kind, LatticeType, PromotionMode, Tensor, ops};

const INTS: [DType; 8] = [DType::I8, DType::I16, DType::I32, DType::I64, DType::U8, DType::U16, DType::U32, DType::U64];

fn run(op: &str, a: &Tensor, b: &Tensor) -> lattensor::Result<Tensor> {
    match op {
        "bitwise_and" => ops::bitwise_and(a, b),
        "bitwise_or" => ops::bitwise_or(a, b),
        "bitwise_xor" => ops::bitwise_xor(a, b),
        "left_shift" => ops::left_shift(a, b),
        "right_shift" => ops::right_shift(a, b),
        _ => unreachable!("{op}"),
    }
}

fn bits(d: DType) -> u32 {
    8 * d.size() as u32
}

/// `v` reduced to dtype `d` (two's complement wrap).
fn wrap(v: i128, d: DType) -> i128 {
    let m = v.rem_euclid(1i128 << bits(d));
    if d.kind() == Kind::Int && m >= 1i128 << (bits(d) - 1) { m - (1i128 << bits(d)) } else { m }
}

/// The reference: i128 bit ops on sign- or zero-extended values, then wrapped;
/// shifts clamp the amount to `[0, bits − 1]` as TF does.
fn reference(op: &str, a: i128, b: i128, d: DType) -> i128 {
    let s = b.clamp(0, i128::from(bits(d)) - 1) as u32;
    let r = match op {
        "bitwise_and" => a & b,
        "bitwise_or" => a | b,
        "bitwise_xor" => a ^ b,
        "left_shift" => a << s,
        "right_shift" => a >> s,
        _ => unreachable!(),
    };
    wrap(r, d)
}

const OPS: [&str; 5] = ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"];

#[test]
fn matches_tensorflow_on_every_integer_dtype() {
    let g = common::golden("tf_bitwise.json");
    let cases = g["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 40, "5 ops × 8 dtypes");
    for c in cases {
        let d = DType::parse(c["dtype"].as_str().unwrap()).unwrap();
        let nums = |k: &str| -> Vec<i128> {
            c[k].as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().map(i128::from).or(v.as_u64().map(i128::from)).unwrap())
                .collect()
        };
        let (a, b, want) = (nums("a"), nums("b"), nums("out"));
        let op = c["op"].as_str().unwrap();
        let got = run(op, &int_tensor(&a, d), &int_tensor(&b, d)).unwrap();
        assert_eq!((got.dtype(), got.is_weak()), (d, false), "{op} {d}");
        assert_eq!(ints_of(&got), want, "{op} on {d}: a={a:?} b={b:?}");
        let reference: Vec<i128> = a.iter().zip(&b).map(|(&x, &y)| reference(op, x, y, d)).collect();
        assert_eq!(reference, want, "the test's reference disagrees with TF for {op} on {d}");
    }
}

#[test]
fn mixed_integer_dtypes_promote_through_the_lattice() {
    let vals = [0i128, 1, -1, 5, -128, 127, 255, 1 << 20, -(1 << 40), 63, 64, -3];
    for mode in [PromotionMode::All, PromotionMode::Safe] {
        with_mode(mode, || {
            for &da in &INTS {
                for &db in &INTS {
                    let a: Vec<i128> = vals.iter().map(|&v| wrap(v, da)).collect();
                    let b: Vec<i128> = vals.iter().rev().map(|&v| wrap(v, db)).collect();
                    let (ta, tb) = (int_tensor(&a, da), int_tensor(&b, db));
                    let want = result_type_in(&[LatticeType::strong(da), LatticeType::strong(db)], mode);
                    for op in OPS {
                        let got = run(op, &ta, &tb);
                        match want {
                            Ok(t) if t.dtype.is_integer() => {
                                let got = got.unwrap_or_else(|e| panic!("{op}({da}, {db}) in {mode:?}: {e}"));
                                assert_eq!((got.dtype(), got.is_weak()), (t.dtype, false), "{op}({da}, {db})");
                                let r: Vec<i128> =
                                    a.iter().zip(&b).map(|(&x, &y)| reference(op, x, y, t.dtype)).collect();
                                assert_eq!(ints_of(&got), r, "{op}({da}, {db}) in {mode:?}");
                            }
                            // u64 ⊔ i64 is a float in ALL: not a bitwise dtype
                            Ok(t) => assert!(
                                matches!(got, Err(Error::UnsupportedDType { dtype, .. }) if dtype == t.dtype),
                                "{op}({da}, {db}) in {mode:?} promotes to {}: {got:?}",
                                t.dtype
                            ),
                            Err(_) => assert!(matches!(got, Err(Error::Promotion { .. })), "{op}({da}, {db}) {mode:?}"),
                        }
                    }
                }
            }
        })
    }
}

#[test]
fn bool_and_or_xor_are_the_logical_ops_and_shifts_refuse_bool() {
    let a = Tensor::from_vec(vec![true, true, false, false], &[4]).unwrap();
    let b = Tensor::from_vec(vec![true, false, true, false], &[4]).unwrap();
    for (op, want) in [
        ("bitwise_and", [true, false, false, false]),
        ("bitwise_or", [true, true, true, false]),
        ("bitwise_xor", [false, true, true, false]),
    ] {
        let got = run(op, &a, &b).unwrap();
        assert_eq!(got.dtype(), DType::Bool);
        assert_eq!(got.to_vec::<bool>().unwrap(), want, "{op}");
    }
    for op in ["left_shift", "right_shift"] {
        let e = run(op, &a, &b).unwrap_err();
        assert!(e.to_string().contains(op) && e.to_string().contains("bool"), "{e}");
    }
    // bool ⊔ int8 = int8: bits, not logic
    let i = Tensor::from_vec(vec![6i8, -1, 2, 0], &[4]).unwrap();
    assert_eq!(ops::bitwise_and(&a, &i).unwrap().to_vec::<i8>().unwrap(), vec![0, 1, 0, 0]);
}

#[test]
fn weakness_literals_operators_and_broadcasting() {
    let w = Tensor::scalar(12i32).with_weak(true);
    let r = ops::bitwise_or(&w, 3).unwrap();
    assert_eq!((r.dtype(), r.is_weak(), r.item::<i32>().unwrap()), (DType::I32, true, 15));
    // an int8 tensor with a Python-like literal stays int8 and strong (TF's probe: int8 & 3)
    let x = Tensor::from_vec(vec![1i8, 7, -8], &[3]).unwrap();
    let r = (&x & 3).unwrap();
    assert_eq!((r.dtype(), r.is_weak(), r.to_vec::<i8>().unwrap()), (DType::I8, false, vec![1, 3, 0]));
    assert_eq!((&x | 8).unwrap().to_vec::<i8>().unwrap(), vec![9, 15, -8]);
    assert_eq!((&x ^ -1).unwrap().to_vec::<i8>().unwrap(), vec![-2, -8, 7]);
    assert_eq!((&x << 1).unwrap().to_vec::<i8>().unwrap(), vec![2, 14, -16]);
    assert_eq!((&x >> 1).unwrap().to_vec::<i8>().unwrap(), vec![0, 3, -4]);
    // [3, 1] with [2] broadcasts to [3, 2]
    let col = Tensor::from_vec(vec![1u16, 2, 4], &[3, 1]).unwrap();
    let row = Tensor::from_vec(vec![0u16, 3], &[2]).unwrap();
    let r = ops::left_shift(&col, &row).unwrap();
    assert_eq!(r.shape(), &[3, 2]);
    assert_eq!(r.to_vec::<u16>().unwrap(), vec![1, 8, 2, 16, 4, 32]);
}

#[test]
fn errors_name_the_op_and_dtype() {
    let f = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
    let e = ops::bitwise_and(&f, 1).unwrap_err();
    assert!(matches!(e, Error::UnsupportedDType { dtype: DType::F32, .. }), "{e}");
    assert!(e.to_string().contains("bitwise_and"), "{e}");
    // int32 | 1.5 promotes to a float, which has no bits to or
    let e = ops::bitwise_or(&Tensor::scalar(1i32), 1.5).unwrap_err();
    assert!(matches!(e, Error::UnsupportedDType { dtype, .. } if dtype.is_float()), "{e}");
    let a = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
    let b = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
    let e = ops::bitwise_xor(&a, &b).unwrap_err();
    assert!(e.to_string().contains("bitwise_xor"), "{e}");
    // SAFE refuses i64 ⊔ u64 with the promotion error, before any kernel runs
    with_mode(PromotionMode::Safe, || {
        let e = ops::bitwise_and(&Tensor::scalar(1i64), &Tensor::scalar(1u64)).unwrap_err();
        assert!(matches!(e, Error::Promotion { .. }), "{e}");
    });
}
