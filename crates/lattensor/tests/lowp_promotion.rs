//! Promotion with the eight low-precision dtypes against JAX 0.10 and NumPy
//! with ml_dtypes 0.7 (`tests/data/lowp_promotion.json`, made by
//! `scripts/golden/lowp_promotion.py`), on every pair of lattice nodes with
//! at least one low-precision dtype (384 pairs).
//!
//! * ALL mode is JAX's standard promotion and STRICT mode JAX's strict
//!   promotion on every pair: the low-precision dtypes sit in the lattice as
//!   JAX places them, and JAX's weak int/float/complex are lattensor's weak
//!   kinds (`i32*`/`i64*`, `f32*`/`f64*`, `c128*`).
//! * SAFE mode, which JAX does not have, gives ALL's result or refuses it;
//!   it refuses every strong operand that does not convert to the result
//!   exactly (an int8 into a float8).
//! * NumPy mode is `np.result_type` with ml_dtypes' dtypes on every pair
//!   (weak kinds as Python scalars). `np.add` can differ from
//!   `np.result_type` (int4 + 1.0 is float16 there, float64 here and in
//!   `np.result_type`); lattensor follows `np.result_type`.

use crate::common;

use common::golden;
use lattensor::promote::{join, promote};
use lattensor::{DType, Error, LatticeType, PromotionMode};
use serde_json::Value as Json;

fn node(name: &str) -> LatticeType {
    match name.strip_suffix('*') {
        Some(short) => LatticeType::weak(DType::parse(short).unwrap()).unwrap(),
        None => LatticeType::strong(DType::parse(name).unwrap()),
    }
}

/// `"float32"` / `"float32*"` / `null` as lattensor's answer would print it.
fn expected(j: &Json) -> Option<String> {
    j.as_str().map(|s| {
        // JAX reports a weak result with its canonical (64-bit) dtype; never
        // reached here, since a low-precision operand is strong
        s.to_string()
    })
}

fn answer(r: lattensor::Result<LatticeType>) -> Option<String> {
    match r {
        Ok(t) => Some(format!("{}{}", t.dtype.name(), if t.weak { "*" } else { "" })),
        Err(Error::Promotion { .. }) => None,
        Err(e) => panic!("not a promotion error: {e}"),
    }
}

fn pairs(d: &Json) -> Vec<(String, String)> {
    d["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn all_and_strict_match_jax_on_every_low_precision_pair() {
    let d = golden("lowp_promotion.json");
    let ps = pairs(&d);
    assert_eq!(ps.len(), 384);
    for (mode, key) in [(PromotionMode::All, "jax_standard"), (PromotionMode::Strict, "jax_strict")] {
        let want = d[key].as_array().unwrap();
        let mut refused = 0;
        for ((a, b), w) in ps.iter().zip(want) {
            let got = answer(promote(node(a), node(b), mode));
            assert_eq!(got, expected(w), "{mode} {a} + {b} (JAX {key})");
            refused += got.is_none() as usize;
        }
        // both outcomes occur: the table is not all refusals or all results
        assert!(refused > 100 && refused < ps.len() - 20, "{mode}: {refused} refused");
    }
}

#[test]
fn all_mode_is_the_lattice_join_and_safe_refuses_lossy_strong_operands() {
    let d = golden("lowp_promotion.json");
    for (a, b) in pairs(&d) {
        let (x, y) = (node(&a), node(&b));
        let all = promote(x, y, PromotionMode::All).ok();
        assert_eq!(all, join(x, y), "{a} + {b}");
        match promote(x, y, PromotionMode::Safe) {
            Ok(r) => assert_eq!(Some(r), all, "{a} + {b}"),
            Err(Error::Promotion { .. }) => {
                if let Some(r) = all {
                    let lossy =
                        [x, y].iter().any(|o| !o.weak && !lattensor::promote::converts_losslessly(o.dtype, r.dtype));
                    let new = x.dtype != r.dtype && y.dtype != r.dtype;
                    assert!(lossy || new, "SAFE refused {a} + {b} → {r} without cause");
                }
            }
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn numpy_mode_matches_np_result_type_with_ml_dtypes() {
    let d = golden("lowp_promotion.json");
    let ps = pairs(&d);
    let want = d["numpy_result_type"].as_array().unwrap();
    let mut differences = Vec::new();
    for ((a, b), w) in ps.iter().zip(want) {
        let got = answer(promote(node(a), node(b), PromotionMode::NumPy));
        let w = w.as_str().map(str::to_string);
        if got != w {
            differences.push(format!("{a} + {b}: {got:?} (NumPy {w:?})"));
        }
    }
    assert!(differences.is_empty(), "{} differ: {differences:#?}", differences.len());
}

#[test]
fn refusals_name_both_dtypes_and_the_cast_to_write() {
    let s = |d| LatticeType::strong(d);
    let e = promote(s(DType::F8E4M3Fn), s(DType::BF16), PromotionMode::All).unwrap_err().to_string();
    assert!(e.contains("(float8_e4m3fn, weak=False) and (bfloat16, weak=False)"), "{e}");
    assert!(e.contains("x.cast(DType::F32)"), "{e}");
    let e = promote(s(DType::F8E5M2), s(DType::F8E4M3Fn), PromotionMode::NumPy);
    assert_eq!(e.unwrap(), s(DType::F32)); // NumPy mode: ml_dtypes promotes to float32
    let e = promote(s(DType::U4), s(DType::I8), PromotionMode::All).unwrap_err().to_string();
    assert!(e.contains("(uint4, weak=False) and (int8, weak=False)") && e.contains("x.cast(DType::I16)"), "{e}");
}
