//! Casts of the eight low-precision dtypes against `ml_dtypes` 0.7, bit for
//! bit (`tests/data/ml_dtypes_casts.json`, made by
//! `scripts/golden/ml_dtypes_casts.py`): every bit pattern decoded, every
//! float16 and bfloat16 pattern, a dense float32 and float64 sample and every
//! rounding tie encoded, integers, float → int32, and every pattern cast to
//! each other low-precision type.
//!
//! One documented difference: a value out of int4's or uint4's range becomes
//! 0 in `ml_dtypes`, while lattensor saturates a float and wraps an integer,
//! as for every integer dtype (`docs/low_precision.md`); those cells are
//! checked against lattensor's rule instead and counted.

use crate::common;

use common::golden;
use half::{bf16, f16};
use lattensor::{DType, Tensor};
use serde_json::Value as Json;

const FLOATS: [&str; 6] =
    ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn"];
const ALL: [&str; 8] = [
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float4_e2m1fn",
    "int4",
    "uint4",
];

fn data() -> Json {
    golden("ml_dtypes_casts.json")
}

fn dtype(name: &str) -> DType {
    DType::parse(name).unwrap()
}

/// Number of bit patterns of a type (16 for the 4-bit ones).
fn count(name: &str) -> usize {
    if dtype(name).finfo().is_some_and(|f| f.bits == 4) || dtype(name).iinfo().is_some_and(|i| i.bits == 4) {
        16
    } else {
        256
    }
}

/// Expands `[[first, byte], …]` runs to `n` bytes.
fn unrle(runs: &Json, n: usize) -> Vec<u8> {
    let runs = runs.as_array().unwrap();
    let mut out = vec![0u8; n];
    for (i, r) in runs.iter().enumerate() {
        let start = r[0].as_u64().unwrap() as usize;
        let end = runs.get(i + 1).map_or(n, |next| next[0].as_u64().unwrap() as usize);
        out[start..end].fill(r[1].as_u64().unwrap() as u8);
    }
    out
}

fn hex_bytes(s: &Json) -> Vec<u8> {
    let s = s.as_str().unwrap();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// The bytes of `x` cast to `name`.
fn cast_bytes(x: &Tensor, name: &str) -> Vec<u8> {
    x.cast(dtype(name)).unwrap().to_bytes().unwrap()
}

/// The value of each bit pattern of `name`, exactly (an f64 of its f32 decoding).
fn values(name: &str) -> Vec<f64> {
    let n = count(name);
    let bytes: Vec<u8> = (0..n as u32).map(|b| b as u8).collect();
    let t = Tensor::from_bytes(&bytes, &[n], dtype(name)).unwrap();
    t.cast(DType::F64).unwrap().to_vec::<f64>().unwrap()
}

/// ml_dtypes' byte for `x` converted to an integer type, or lattensor's where
/// the documented rule differs (out of range, a float saturates and an
/// integer wraps, as for every integer dtype, where ml_dtypes gives 0);
/// counts the differences in `deviations`.
fn int_rule(name: &str, x: f64, from_int: bool, ml: u8, deviations: &mut usize) -> u8 {
    let info = dtype(name).iinfo().unwrap();
    let t = x.trunc();
    if x.is_nan() || (t >= info.min as f64 && t <= info.max as f64) {
        return ml;
    }
    let sat = if from_int {
        t as i128
    } else if t < 0.0 {
        info.min
    } else {
        info.max
    };
    let ours = (sat as i64 & 0xf) as u8;
    if ours != ml {
        *deviations += 1;
    }
    ours
}

/// Compares byte vectors, reporting the first mismatches with their inputs.
fn check(what: &str, got: &[u8], want: &[u8], input: impl Fn(usize) -> String) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let bad: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    let shown: Vec<String> =
        bad.iter().take(8).map(|&i| format!("{} -> {:#04x} (ml_dtypes {:#04x})", input(i), got[i], want[i])).collect();
    assert!(bad.is_empty(), "{what}: {} of {} differ: {}", bad.len(), got.len(), shown.join("; "));
}

#[test]
fn every_bit_pattern_decodes_as_ml_dtypes_does() {
    let d = data();
    for name in ALL {
        let want = d["types"][name]["decode"].as_array().unwrap();
        let n = count(name);
        assert_eq!(want.len(), n, "{name}");
        let bytes: Vec<u8> = (0..n as u32).map(|b| b as u8).collect();
        let t = Tensor::from_bytes(&bytes, &[n], dtype(name)).unwrap();
        let got = t.cast(DType::F32).unwrap().to_vec::<f32>().unwrap();
        for (b, (g, w)) in got.iter().zip(want).enumerate() {
            let w = f32::from_bits(u32::from_str_radix(w.as_str().unwrap(), 16).unwrap());
            // NaN payloads differ between NaN encodings; a NaN's sign and NaN-ness must match
            let same = if w.is_nan() {
                g.is_nan() && g.is_sign_negative() == w.is_sign_negative()
            } else {
                g.to_bits() == w.to_bits()
            };
            assert!(same, "{name} pattern {b:#04x}: {g:?} (ml_dtypes {w:?})");
        }
    }
}

#[test]
fn every_bit_pattern_round_trips_through_f32_as_in_ml_dtypes() {
    let d = data();
    for name in ALL {
        let n = count(name);
        let bytes: Vec<u8> = (0..n as u32).map(|b| b as u8).collect();
        let t = Tensor::from_bytes(&bytes, &[n], dtype(name)).unwrap();
        let back = t.cast(DType::F32).unwrap().cast(dtype(name)).unwrap().to_bytes().unwrap();
        let want = hex_bytes(&d["types"][name]["round_trip_f32"]);
        check(&format!("{name} round trip"), &back, &want, |i| format!("{i:#04x}"));
        // every pattern but the extra NaN encodings of e5m2 comes back unchanged
        let changed = (0..n).filter(|&i| back[i] != bytes[i]).count();
        assert_eq!(changed, if name == "float8_e5m2" { 4 } else { 0 }, "{name}");
        // the same type keeps every bit, NaN payloads included
        assert_eq!(t.cast(dtype(name)).unwrap().to_bytes().unwrap(), bytes);
    }
}

#[test]
fn all_f16_and_bf16_patterns_convert_as_ml_dtypes() {
    let d = data();
    let f16s = Tensor::from_vec((0..=u16::MAX).map(f16::from_bits).collect(), &[65536]).unwrap();
    let bf16s = Tensor::from_vec((0..=u16::MAX).map(bf16::from_bits).collect(), &[65536]).unwrap();
    let mut deviations = 0;
    for name in ALL {
        let rec = &d["types"][name];
        let mut want = unrle(&rec["from_f16"], 65536);
        if !FLOATS.contains(&name) {
            for (i, w) in want.iter_mut().enumerate() {
                *w = int_rule(name, f16::from_bits(i as u16).to_f64(), false, *w, &mut deviations);
            }
        }
        check(&format!("f16 -> {name}"), &cast_bytes(&f16s, name), &want, |i| {
            format!("{:?} ({i:#06x})", f16::from_bits(i as u16))
        });
        if FLOATS.contains(&name) {
            let want = unrle(&rec["from_bf16"], 65536);
            check(&format!("bf16 -> {name}"), &cast_bytes(&bf16s, name), &want, |i| {
                format!("{:?} ({i:#06x})", bf16::from_bits(i as u16))
            });
        }
    }
    // ml_dtypes gives 0 for every f16 outside the 4-bit ranges but ±0.x, ±8..15 / 16..
    assert!(deviations > 0);
}

#[test]
fn dense_f32_and_f64_samples_convert_as_ml_dtypes() {
    let d = data();
    let f32s = Tensor::from_vec((0..1u32 << 20).map(|i| f32::from_bits(i << 12)).collect(), &[1 << 20]).unwrap();
    let f64s = Tensor::from_vec((0..1u64 << 20).map(|i| f64::from_bits(i << 44)).collect(), &[1 << 20]).unwrap();
    for name in FLOATS {
        let rec = &d["types"][name];
        check(&format!("f32 -> {name}"), &cast_bytes(&f32s, name), &unrle(&rec["from_f32"], 1 << 20), |i| {
            format!("{:e}", f32::from_bits((i as u32) << 12))
        });
        check(&format!("f64 -> {name}"), &cast_bytes(&f64s, name), &unrle(&rec["from_f64"], 1 << 20), |i| {
            format!("{:e}", f64::from_bits((i as u64) << 44))
        });
    }
}

#[test]
fn rounding_ties_and_overflow_convert_as_ml_dtypes() {
    let d = data();
    for name in FLOATS {
        let rec = &d["types"][name];
        for (key, width) in [("ties_f32", 8), ("ties_f64", 16)] {
            let s = rec[key].as_str().unwrap();
            let step = width + 2;
            assert_eq!(s.len() % step, 0);
            let recs: Vec<(u64, u8)> = (0..s.len() / step)
                .map(|k| {
                    let r = &s[k * step..(k + 1) * step];
                    (u64::from_str_radix(&r[..width], 16).unwrap(), u8::from_str_radix(&r[width..], 16).unwrap())
                })
                .collect();
            assert!(recs.len() > 30, "{name} {key}: {} records", recs.len());
            let t = if width == 8 {
                Tensor::from_vec(recs.iter().map(|&(b, _)| f32::from_bits(b as u32)).collect(), &[recs.len()])
            } else {
                Tensor::from_vec(recs.iter().map(|&(b, _)| f64::from_bits(b)).collect(), &[recs.len()])
            }
            .unwrap();
            let want: Vec<u8> = recs.iter().map(|&(_, o)| o).collect();
            check(&format!("{key} -> {name}"), &cast_bytes(&t, name), &want, |i| format!("bits {:#x}", recs[i].0));
        }
    }
}

#[test]
fn integers_convert_as_ml_dtypes() {
    let d = data();
    let ints: Vec<i64> = d["ints"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse().unwrap()).collect();
    let t = Tensor::from_vec(ints.clone(), &[ints.len()]).unwrap();
    for name in ALL {
        let want = hex_bytes(&d["types"][name]["from_i64"]);
        check(&format!("int64 -> {name}"), &cast_bytes(&t, name), &want, |i| ints[i].to_string());
    }
}

#[test]
fn finite_values_convert_to_int32_as_ml_dtypes() {
    let d = data();
    for name in FLOATS {
        let v = values(name);
        let n = v.len();
        let bytes: Vec<u8> = (0..n as u32).map(|b| b as u8).collect();
        let got =
            Tensor::from_bytes(&bytes, &[n], dtype(name)).unwrap().cast(DType::I32).unwrap().to_vec::<i32>().unwrap();
        let cells = d["types"][name]["to_i32"].as_array().unwrap();
        assert!(!cells.is_empty());
        for c in cells {
            let (i, want) = (c[0].as_u64().unwrap() as usize, c[1].as_i64().unwrap() as i32);
            assert_eq!(got[i], want, "{name} {i:#04x} ({}) -> int32", v[i]);
        }
    }
}

#[test]
fn every_pattern_converts_to_every_other_low_precision_type_as_ml_dtypes() {
    let d = data();
    let mut deviations = 0;
    for from in ALL {
        let n = count(from);
        let bytes: Vec<u8> = (0..n as u32).map(|b| b as u8).collect();
        let t = Tensor::from_bytes(&bytes, &[n], dtype(from)).unwrap();
        let v = values(from);
        for to in ALL.into_iter().filter(|&t| t != from) {
            let mut want = hex_bytes(&d["types"][from]["cross"][to]);
            if !FLOATS.contains(&to) {
                for (i, w) in want.iter_mut().enumerate() {
                    *w = int_rule(to, v[i], dtype(from).is_integer(), *w, &mut deviations);
                }
            }
            check(&format!("{from} -> {to}"), &cast_bytes(&t, to), &want, |i| format!("{i:#04x} ({})", v[i]));
        }
    }
    assert!(deviations > 0);
}
