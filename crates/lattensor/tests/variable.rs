//! `Variable` against TF 2.21's measured behaviour: which assignments it allows,
//! which raise "Variable dtype is immutable", SAFE's precedence, wrapping,
//! and atomic updates under contention.

use half::f16;
use lattensor::promote::{PromotionMode, with_mode};
use lattensor::{DType, Error, Tensor, Variable, constant};
use num_complex::Complex64;

fn i32_var() -> Variable {
    let v = Variable::new(10).unwrap();
    assert_eq!(v.dtype(), DType::I32);
    v
}

fn f32_var() -> Variable {
    let v = Variable::new(Tensor::scalar(1.0f32)).unwrap();
    assert_eq!(v.dtype(), DType::F32);
    v
}

fn i32_value(v: &Variable) -> i32 {
    let r = v.read();
    assert_eq!((r.dtype(), r.is_weak()), (DType::I32, false));
    r.item::<i32>().unwrap()
}

fn assert_immutable(r: lattensor::Result<Tensor>, op: &str, var: DType) {
    match r {
        Err(e @ Error::VariableDType { .. }) => {
            let Error::VariableDType { op: got_op, var: got_var, .. } = &e else { unreachable!() };
            assert_eq!((got_op.as_str(), *got_var), (op, var));
            let msg = e.to_string();
            assert!(msg.starts_with("Variable dtype is immutable. Calling"), "{msg}");
            assert!(msg.contains(&format!("of Variable (with dtype {var})")), "{msg}");
            assert!(msg.contains("convert the value manually"), "{msg}");
        }
        other => panic!("{op} on a {var} variable: expected Error::VariableDType, got {other:?}"),
    }
}

#[test]
fn int32_variable_allowed_updates() {
    for mode in [PromotionMode::All, PromotionMode::Safe] {
        with_mode(mode, || {
            let v = i32_var();
            v.assign(5).unwrap();
            assert_eq!(i32_value(&v), 5);
            v.assign(true).unwrap();
            assert_eq!(i32_value(&v), 1);
            v.assign(Tensor::scalar(7i16)).unwrap();
            assert_eq!(i32_value(&v), 7);
            v.assign(Tensor::scalar(-3i8)).unwrap(); // np.array(5, np.int8)
            assert_eq!(i32_value(&v), -3);
            v.assign_add(1).unwrap();
            assert_eq!(i32_value(&v), -2);
            v.assign_add(Tensor::scalar(40000u16)).unwrap();
            assert_eq!(i32_value(&v), 39998);
            v.assign_sub(Tensor::scalar(-2i8)).unwrap();
            assert_eq!(i32_value(&v), 40000);
        });
    }
}

#[test]
fn int32_variable_refused_updates_keep_the_value() {
    let v = i32_var();
    assert_immutable(v.assign(5.0), "assign", DType::I32); // int32 ⊔ f32* = f64*
    assert_immutable(v.assign(Tensor::scalar(5i64)), "assign", DType::I32);
    assert_immutable(v.assign_add(constant(1.0).unwrap()), "assign_add", DType::I32);
    assert_immutable(v.assign_sub(Tensor::scalar(1u32)), "assign_sub", DType::I32);
    assert_eq!(i32_value(&v), 10);
}

#[test]
fn float32_variable() {
    let v = f32_var();
    v.assign_add(1).unwrap();
    assert_eq!(v.read().item::<f32>().unwrap(), 2.0);
    v.assign_add(Tensor::scalar(3i32)).unwrap(); // ALL only
    assert_eq!(v.read().item::<f32>().unwrap(), 5.0);
    v.assign_add(Tensor::scalar(f16::from_f32(0.5))).unwrap();
    assert_eq!(v.read().item::<f32>().unwrap(), 5.5);
    v.assign(2.5).unwrap();
    assert_eq!(v.read().item::<f32>().unwrap(), 2.5);
    assert_immutable(v.assign(Tensor::scalar(2.0f64)), "assign", DType::F32);
    assert_immutable(v.assign_add(Complex64::new(0.0, 1.0)), "assign_add", DType::F32);
    assert_eq!(v.read().item::<f32>().unwrap(), 2.5);
    assert!(!v.read().is_weak());
}

#[test]
fn float16_and_int8_variables() {
    let h = Variable::new(Tensor::scalar(f16::from_f32(1.0))).unwrap();
    h.assign(2.5).unwrap();
    h.assign(constant(2.5).unwrap()).unwrap(); // f32*
    assert_eq!(h.read().item::<f32>().unwrap(), 2.5);
    assert_immutable(h.assign(Tensor::scalar(2.5f32)), "assign", DType::F16);

    let b = Variable::new(Tensor::scalar(1i8)).unwrap();
    b.assign(constant(1).unwrap()).unwrap();
    assert_immutable(b.assign(Tensor::scalar(1u8)), "assign", DType::I8);
    // values are not range-checked: 1 + 3 = 4, then + 300 (44 as int8) = 48
    b.assign_add(3).unwrap();
    b.assign_add(300).unwrap();
    assert_eq!(b.read().item::<i8>().unwrap(), 48);
}

#[test]
fn safe_error_comes_before_the_variable_check() {
    with_mode(PromotionMode::Safe, || {
        let f = f32_var();
        let e = f.assign_add(Tensor::scalar(3i32)).unwrap_err();
        assert!(matches!(e, Error::Promotion { mode: PromotionMode::Safe, .. }), "{e:?}");
        assert!(e.to_string().contains("between (float32, weak=False) and (int32, weak=False)"), "{e}");
        let v = i32_var();
        let e = v.assign(5.0).unwrap_err();
        assert!(matches!(e, Error::Promotion { .. }), "{e:?}");
        assert!(e.to_string().contains("between (int32, weak=False) and (float32, weak=True)"), "{e}");
        // a cell SAFE allows but that changes the dtype is still the Variable error
        assert_immutable(v.assign(Tensor::scalar(5i64)), "assign", DType::I32);
        assert_eq!(i32_value(&v), 10);
        assert_eq!(f.read().item::<f32>().unwrap(), 1.0);
    });
}

#[test]
fn shape_mismatch_is_an_error() {
    let v = Variable::new(vec![1i32, 2, 3]).unwrap();
    // TF raises `ValueError` for a value of another shape
    assert!(matches!(v.assign(Tensor::from_vec(vec![1i32, 2], &[2]).unwrap()), Err(Error::InvalidValue(_))));
    // a scalar broadcasts
    v.assign_add(1).unwrap();
    assert_eq!(v.read().to_vec::<i32>().unwrap(), vec![2, 3, 4]);
}

#[test]
fn concurrent_assign_add_loses_no_update() {
    for round in 0..4 {
        let v = Variable::new(Tensor::scalar(0i64)).unwrap();
        assert_eq!(v.dtype(), DType::I64);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        v.assign_add(1).unwrap();
                    }
                });
            }
        });
        assert_eq!(v.read().item::<i64>().unwrap(), 8000, "round {round}");
    }
}

#[test]
fn concurrent_mixed_add_and_sub() {
    let v = Variable::new(Tensor::scalar(0i64)).unwrap();
    std::thread::scope(|s| {
        for t in 0..8 {
            let v = &v;
            s.spawn(move || {
                for _ in 0..500 {
                    if t % 2 == 0 {
                        v.assign_add(3).unwrap();
                    } else {
                        v.assign_sub(1).unwrap();
                    }
                }
            });
        }
    });
    assert_eq!(v.read().item::<i64>().unwrap(), 4 * 500 * 3 - 4 * 500);
}
