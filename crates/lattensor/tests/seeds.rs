//! The seed examples (`tests/data/seed_outputs.json`, measured on TF 2.21)
//! run through the Rust API in the modes `all` and `safe`: TF's dtype,
//! weakness, value and repr text (after mapping TF's repr to ours), and in
//! SAFE the refusals with TF's message core.

use crate::common;

use common::{golden, safe_message_core};
use half::f16;
use lattensor::promote::{PromotionMode, with_mode};
use lattensor::{DType, Error, Result, Scalar, Tensor, Value, Variable, constant, constant_as, ops};
use serde_json::Value as Json;

/// What one seed statement gives in lattensor.
enum Outcome {
    Tensor(Tensor),
    Variable(String, DType, f64),
}

/// TF repr → lattensor repr: `<tf.Tensor:` → `<Tensor:`, `numpy=array([…], dtype=x)` → `numpy=[…]`,
/// `<tf.Variable 'name' shape=` → `<Variable shape=`.
fn map_repr(tf: &str) -> String {
    let mut s = tf.replacen("<tf.Tensor:", "<Tensor:", 1);
    if let Some(rest) = s.strip_prefix("<tf.Variable '") {
        let after = &rest[rest.find("' ").expect("variable name") + 2..];
        s = format!("<Variable {after}");
    }
    if let Some(i) = s.find("numpy=array(") {
        let body_start = i + "numpy=array(".len();
        let j = s[body_start..].find(", dtype=").expect("array( without dtype") + body_start;
        let k = s[j..].find(')').expect("unclosed array(") + j;
        s = format!("{}numpy={}{}", &s[..i], &s[body_start..j], &s[k + 1..]);
    }
    s
}

#[test]
fn repr_mapping() {
    assert_eq!(
        map_repr("<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 5., 10.,  3.], dtype=float32), weak=True>"),
        "<Tensor: shape=(3,), dtype=float32, numpy=[ 5., 10.,  3.], weak=True>"
    );
    assert_eq!(
        map_repr("<tf.Variable 'UnreadVariable' shape=() dtype=int32, numpy=15>"),
        "<Variable shape=() dtype=int32, numpy=15>"
    );
}

/// State the seed statements share (`a = …`, `b = …`).
#[derive(Default)]
struct Env {
    var: Option<Variable>,
}

fn f16_(x: f32) -> Tensor {
    Tensor::scalar(f16::from_f32(x))
}

/// Runs one seed statement, or `None` for statements that only bind names or
/// need Python itself. Unknown statements fail the test, so a new seed in the
/// golden data cannot be silently ignored.
fn run(stmt: &str, env: &mut Env) -> Option<Result<Outcome>> {
    let t = |r: Result<Tensor>| Some(r.map(Outcome::Tensor));
    // numpy arrays are strong tensors of their dtype; `tf.constant(1)` is weak
    let a_np = || Tensor::scalar(1i8);
    let b_tf = || constant(1).unwrap();
    let c_np = || f16_(1.0);
    match stmt {
        "tf.constant(10, tf.int32) + tf.constant(5.0, tf.float32)" => {
            t(&Tensor::scalar(10i32) + &Tensor::scalar(5.0f32))
        }
        "tf.constant(10, tf.int8) + tf.constant(5, tf.uint32)" => t(&Tensor::scalar(10i8) + &Tensor::scalar(5u32)),
        "tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16)" => t(&Tensor::scalar(1i64) + &f16_(3.2)),
        "tf.constant(1.2) + tf.constant(3.1, tf.float16)" => t(&constant(1.2).unwrap() + &f16_(3.1)),
        "tf.constant(5)" => t(constant(5)),
        "tf.constant([5.0, 10.0, 3])" => {
            t(constant(Value::List { items: vec![5.0.into(), 10.0.into(), Scalar::from(3)], shape: vec![3] }))
        }
        "tf.constant(5, tf.int32)" => t(constant_as(5, DType::I32)),
        "tf.add(tf.add(a, b), c)" => t(ops::add(&ops::add(&a_np(), &b_tf()).unwrap(), &c_np())),
        "tf.add(tf.add(b, a), c)" => t(ops::add(&ops::add(&b_tf(), &a_np()).unwrap(), &c_np())),
        "(a + b) + c" => t(&(&a_np() + &b_tf()).unwrap() + &c_np()),
        "(b + a) + c" => t(&(&b_tf() + &a_np()).unwrap() + &c_np()),
        "np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)" => {
            t(&(&f16_(3.2) + &Tensor::scalar(1i8)).unwrap() + &constant(50).unwrap())
        }
        "np.array(3.2, np.float16) + tf.constant(1, tf.int8)" => t(&f16_(3.2) + &Tensor::scalar(1i8)),
        "tf.constant(1, tf.int8) + tf.constant(50)" => t(&Tensor::scalar(1i8) + &constant(50).unwrap()),
        "-tf.constant(5)" => t(-&constant(5).unwrap()),
        "tf.constant(5, tf.int16) - tf.constant(1, tf.float32)" => t(&Tensor::scalar(5i16) - &Tensor::scalar(1.0f32)),
        "a = tf.Variable(10, tf.int32)" => {
            let v = Variable::new(10).unwrap();
            env.var = Some(v);
            None
        }
        "a" => {
            let v = env.var.as_ref().expect("a variable");
            let r = v.read();
            Some(Ok(Outcome::Variable(v.to_string(), r.dtype(), r.item::<f64>().unwrap())))
        }
        "a.assign_add(tf.constant(5, tf.int16))" => {
            let v = env.var.as_ref().expect("a variable");
            Some(
                v.assign_add(Tensor::scalar(5i16))
                    .map(|r| Outcome::Variable(v.to_string(), r.dtype(), r.item::<f64>().unwrap())),
            )
        }
        "tf.constant(a, tf.float32)" => t(constant_as(Tensor::scalar(10i16), DType::F32)),
        "tf.math.abs([100.0, 4.0])" => t(ops::abs(&constant([100.0, 4.0]).unwrap())),
        "tnp.array(1)" => t(constant(1)),
        "tnp.array(1.0)" => t(constant(1.0)),
        // Bindings re-created inline above, and Python-only behaviour:
        // `a.trainable` (TF's positional `trainable` argument quirk).
        "a = np.array(1, dtype=np.int8)"
        | "b = tf.constant(1)"
        | "c = np.array(1, dtype=np.float16)"
        | "a = tf.constant(10, tf.int16)"
        | "a.trainable" => None,
        other => panic!("seed statement not mapped to the Rust API: {other:?}"),
    }
}

fn check_mode(mode_name: &str, mode: PromotionMode) -> (usize, usize) {
    let seeds = golden("seed_outputs.json");
    let groups = seeds["modes"][mode_name].as_object().expect("mode in seed_outputs.json");
    let (mut matched, mut refused) = (0, 0);
    for (group, stmts) in groups {
        let mut env = Env::default();
        for ex in stmts.as_array().unwrap() {
            let stmt = ex["in"].as_str().unwrap();
            let Some(ours) = with_mode(mode, || run(stmt, &mut env)) else { continue };
            let ctx = format!("[{mode_name}] {group}: {stmt}");
            if let Some(tf_err) = ex.get("error").and_then(Json::as_str) {
                let e = match ours {
                    Ok(_) => panic!("{ctx}: TF refuses ({tf_err}) but lattensor computes a result"),
                    Err(e) => e,
                };
                assert!(matches!(e, Error::Promotion { .. }), "{ctx}: {e:?}");
                let core = safe_message_core(tf_err);
                assert!(e.to_string().contains(&core), "{ctx}: {e} lacks {core:?}");
                refused += 1;
                continue;
            }
            let want_dtype = DType::parse(ex["dtype"].as_str().unwrap()).unwrap();
            let want_weak = ex["weak"].as_bool().unwrap();
            let want_repr = map_repr(ex["repr"].as_str().unwrap());
            match ours.unwrap_or_else(|e| panic!("{ctx}: {e}")) {
                Outcome::Tensor(r) => {
                    assert_eq!((r.dtype(), r.is_weak()), (want_dtype, want_weak), "{ctx}");
                    assert_eq!(r.to_string(), want_repr, "{ctx}");
                }
                Outcome::Variable(repr, dtype, value) => {
                    assert_eq!(dtype, want_dtype, "{ctx}");
                    assert!(!want_weak, "{ctx}: variables are strong");
                    assert_eq!(repr, want_repr, "{ctx}");
                    let numpy = want_repr.rsplit("numpy=").next().unwrap().trim_end_matches('>');
                    assert_eq!(value, numpy.parse::<f64>().unwrap(), "{ctx}");
                }
            }
            matched += 1;
        }
    }
    (matched, refused)
}

#[test]
fn seeds_all_mode() {
    let (matched, refused) = check_mode("all", PromotionMode::All);
    println!("seeds ALL: {matched} matched TF's dtype/weak/value/repr, {refused} refused");
    assert_eq!(refused, 0);
    assert_eq!(matched, 23);
}

#[test]
fn seeds_safe_mode() {
    let (matched, refused) = check_mode("safe", PromotionMode::Safe);
    println!("seeds SAFE: {matched} matched TF, {refused} refused like TF");
    assert_eq!(refused, 3, "TF refuses exactly three seeds in SAFE");
    assert_eq!(matched, 20);
}

#[test]
fn safe_refusals_name_operands_in_our_spelling() {
    let err = with_mode(PromotionMode::Safe, || &Tensor::scalar(10i32) + &Tensor::scalar(5.0f32)).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("implicit dtype promotion between (int32, weak=False) and (float32, weak=False)"), "{msg}");
    assert!(msg.contains("mode SAFE"), "{msg}");
}

#[test]
fn variable_seed() {
    let a = Variable::new(10).unwrap();
    assert_eq!(a.dtype(), DType::I32);
    let r = a.assign_add(Tensor::scalar(5i16)).unwrap();
    assert_eq!((r.dtype(), r.is_weak(), r.item::<i32>().unwrap()), (DType::I32, false, 15));
    assert_eq!(a.read().item::<i32>().unwrap(), 15);
    // allowed in SAFE too
    let b = Variable::new(10).unwrap();
    with_mode(PromotionMode::Safe, || b.assign_add(Tensor::scalar(5i16))).unwrap();
    assert_eq!(b.read().item::<i32>().unwrap(), 15);
}
