//! Helpers shared by the conformance tests: golden-data loading, the
//! mapping from the golden tables' kind names to lattice types, and integer
//! tensors built from (and read back as) i128 values.
#![allow(dead_code)]

use std::path::PathBuf;

use lattensor::{DType, Kind, LatticeType, Scalar, Tensor};
use num_complex::Complex64;
use serde_json::Value as Json;

/// Loads `tests/data/<name>` (relative to the crate, so a clone without
/// `/work/shared` works).
pub fn golden(name: &str) -> Json {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The lattice type of a golden-table kind name: the 15 dtype names
/// (strong), `i32* i64* f32* f64* c128*` (weak), and the Python literals,
/// which map to what the same Rust literal gives.
pub fn kind(name: &str) -> LatticeType {
    match name {
        "py_int" => Scalar::from(1).lattice_type().unwrap(),
        "py_float" => Scalar::from(1.0).lattice_type().unwrap(),
        "py_complex" => Scalar::from(Complex64::new(1.0, 0.0)).lattice_type().unwrap(),
        "py_bool" => Scalar::from(true).lattice_type().unwrap(),
        n => match n.strip_suffix('*') {
            Some(short) => LatticeType::weak(DType::parse(short).unwrap()).unwrap(),
            None => LatticeType::strong(DType::parse(n).unwrap()),
        },
    }
}

/// `(<dtype: 'int32'>, weak=False)` in a TF message → `(int32, weak=False)`.
pub fn tf_names_to_ours(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(i) = rest.find("<dtype: '") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "<dtype: '".len()..];
        let end = after.find("'>").expect("unterminated <dtype: '…'>");
        out.push_str(&after[..end]);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The core of TF's SAFE message, `implicit dtype promotion between (…) and (…)`,
/// with TF's dtype reprs mapped to lattensor's names.
pub fn safe_message_core(tf_error: &str) -> String {
    let mapped = tf_names_to_ours(tf_error);
    let start = mapped.find("implicit dtype promotion between").expect("not a SAFE promotion message");
    let end = mapped[start..].find(" is disallowed").expect("no 'is disallowed'") + start;
    mapped[start..end].to_string()
}

/// A rank-1 tensor of integer dtype `d` holding `vals` (each wrapped to `d`).
pub fn int_tensor(vals: &[i128], d: DType) -> Tensor {
    let t = if d.kind() == Kind::UInt {
        Tensor::from_vec(vals.iter().map(|&x| x as u64).collect::<Vec<_>>(), &[vals.len()]).unwrap()
    } else {
        Tensor::from_vec(vals.iter().map(|&x| x as i64).collect::<Vec<_>>(), &[vals.len()]).unwrap()
    };
    t.cast(d).unwrap()
}

/// The elements of an integer tensor as i128.
pub fn ints_of(t: &Tensor) -> Vec<i128> {
    if t.dtype().kind() == Kind::UInt {
        t.to_vec::<u64>().unwrap().into_iter().map(i128::from).collect()
    } else {
        t.to_vec::<i64>().unwrap().into_iter().map(i128::from).collect()
    }
}
