//! `lattensor::random` against TF 2.21's stateless generators, bit for bit
//! (golden data from scripts/golden/tf_random.py).

use lattensor::{DType, Tensor, random};
use serde_json::Value;

/// The result's elements as unsigned integers of the dtype's width.
fn bits(t: &Tensor) -> Vec<u64> {
    let b = t.to_bytes().unwrap();
    let w = t.dtype().size();
    b.chunks(w).map(|c| c.iter().rev().fold(0u64, |acc, &x| (acc << 8) | u64::from(x))).collect()
}

fn dtype(name: &str) -> DType {
    name.parse().unwrap()
}

fn run(c: &Value) -> Tensor {
    let shape: Vec<usize> = c["shape"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let seed: Vec<i64> = c["seed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap_or_else(|| v.as_u64().unwrap() as i64))
        .collect();
    let seed = [seed[0], seed[1]];
    let dt = dtype(c["dtype"].as_str().unwrap());
    let f = |k: &str| c[k].as_f64().unwrap();
    let i = |k: &str| c[k].as_i64().unwrap();
    match c["fn"].as_str().unwrap() {
        "uniform" => random::stateless_uniform(&shape, seed, f("minval"), f("maxval"), dt),
        "normal" => random::stateless_normal(&shape, seed, f("mean"), f("stddev"), dt),
        "truncated_normal" => random::stateless_truncated_normal(&shape, seed, f("mean"), f("stddev"), dt),
        "uniform_int" => random::stateless_uniform_int(&shape, seed, i("minval"), i("maxval"), dt),
        "full_int" => random::stateless_uniform_full_int(&shape, seed, dt),
        other => panic!("unknown case {other}"),
    }
    .unwrap()
}

#[test]
fn stateless_generators_match_tf_bit_for_bit() {
    let golden: Value = serde_json::from_str(include_str!("data/tf_random.json")).unwrap();
    let cases = golden["cases"].as_array().unwrap();
    assert!(cases.len() > 200);
    let mut failures = Vec::new();
    for c in cases {
        let t = run(c);
        assert_eq!(t.dtype(), dtype(c["dtype"].as_str().unwrap()));
        assert!(!t.is_weak());
        let got = bits(&t);
        let ok = if let Some(want) = c.get("bits") {
            let want: Vec<u64> = want.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            got == want
        } else {
            let at = c["at"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize);
            let want = c["bits_at"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap());
            let sampled = at.zip(want).all(|(i, w)| got[i] == w);
            let sum = got.iter().enumerate().fold(0u64, |s, (i, &b)| s.wrapping_add((i as u64 + 1).wrapping_mul(b)));
            sampled && sum == c["checksum"].as_u64().unwrap()
        };
        if !ok {
            failures.push(format!("{} {} {:?} seed {}", c["fn"], c["dtype"], c["shape"], c["seed"]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from TF:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
