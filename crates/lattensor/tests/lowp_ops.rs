//! The eight low-precision dtypes through the ops: the ones that move bytes
//! (reshape, transpose, slicing, concat, stack, gather, where, bitcast, copy)
//! keep every bit; comparisons are exact; display prints values; every op
//! that computes refuses them with an error naming the op, the dtype and the
//! cast to write — and nothing panics.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lattensor::{DType, Error, SliceArg, Tensor, bitcast, concat, gather, ops, stack, where_};

/// A tensor of `d` holding every bit pattern of the type once (`n` = 256 or 16), shaped [n/4, 4].
fn patterns(d: DType) -> Tensor {
    let n = if matches!(d, DType::F4E2M1Fn | DType::I4 | DType::U4) { 16 } else { 256 };
    let bytes: Vec<u8> = (0..n as u32).map(|b| b as u8).collect();
    Tensor::from_bytes(&bytes, &[n / 4, 4], d).unwrap()
}

type Unary = fn(&Tensor) -> lattensor::Result<Tensor>;
type Binary = fn(&Tensor, &Tensor) -> lattensor::Result<Tensor>;

fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("{what} panicked"))
}

#[test]
fn moving_ops_keep_every_bit() {
    for d in DType::LOW_PRECISION {
        let x = patterns(d);
        let bytes = x.to_bytes().unwrap();
        let rows = x.shape()[0];
        // transpose twice, reshape, a strided slice copied, concat and stack
        let tt = x.t().contiguous().unwrap().t().contiguous().unwrap();
        assert_eq!(tt.to_bytes().unwrap(), bytes, "{d} transpose");
        assert_eq!(x.reshape(&[-1]).unwrap().to_bytes().unwrap(), bytes, "{d} reshape");
        let odd = x.slice(&[SliceArg::Range { start: Some(1), stop: None, step: 2 }, SliceArg::FULL]).unwrap();
        let want: Vec<u8> = bytes.chunks(4).skip(1).step_by(2).flatten().copied().collect();
        assert_eq!(odd.to_bytes().unwrap(), want, "{d} slice");
        let c = concat(&[&x, &x], 0).unwrap();
        assert_eq!((c.dtype(), c.shape()[0]), (d, 2 * rows));
        assert_eq!(c.to_bytes().unwrap(), [bytes.clone(), bytes.clone()].concat(), "{d} concat");
        let s = stack(&[&x, &x], 1).unwrap();
        assert_eq!(s.shape(), &[rows, 2, 4]);
        // gather rows in reverse
        let idx = Tensor::from_vec((0..rows as i32).rev().collect(), &[rows]).unwrap();
        let g = gather(&x, &idx, 0, 0).unwrap();
        let rev: Vec<u8> = bytes.chunks(4).rev().flatten().copied().collect();
        assert_eq!(g.to_bytes().unwrap(), rev, "{d} gather");
        // where picks bytes from either side
        let cond = Tensor::from_vec((0..rows * 4).map(|i| i % 2 == 0).collect(), &[rows, 4]).unwrap();
        let w = where_(&cond, &x, &g).unwrap();
        assert_eq!(w.dtype(), d);
        let want: Vec<u8> = (0..rows * 4).map(|i| if i % 2 == 0 { bytes[i] } else { rev[i] }).collect();
        assert_eq!(w.to_bytes().unwrap(), want, "{d} where");
        // bitcast to and from uint8 is a view and keeps the bits
        let u = bitcast(&x, DType::U8).unwrap();
        assert!(u.shares_storage_with(&x));
        assert_eq!(bitcast(&u, d).unwrap().to_bytes().unwrap(), bytes, "{d} bitcast");
    }
}

#[test]
fn comparisons_are_exact() {
    for d in DType::LOW_PRECISION {
        let x = patterns(d);
        let v = x.cast(DType::F32).unwrap().to_vec::<f32>().unwrap();
        // 1 is in every type (zero is not in float8_e8m0fnu)
        let one = Tensor::scalar(1.0f32).cast(d).unwrap();
        for (name, got, f) in [
            ("equal", ops::equal(&x, &x), (|a: f32, b: f32| a == b) as fn(f32, f32) -> bool),
            ("less", ops::less(&x, &one), |a, _| a < 1.0),
            ("greater_equal", ops::greater_equal(&x, &one), |a, _| a >= 1.0),
        ] {
            let got = got.unwrap_or_else(|e| panic!("{name}({d}): {e}")).to_vec::<bool>().unwrap();
            let want: Vec<bool> = v.iter().map(|&a| f(a, a)).collect();
            assert_eq!(got, want, "{name}({d})");
        }
    }
    // -0 equals +0 and NaN equals nothing
    let e = Tensor::from_bytes(&[0x00, 0x80, 0x7f], &[3], DType::F8E4M3Fn).unwrap();
    assert_eq!(
        ops::equal(&e, &e.slice(&[SliceArg::Index(0)]).unwrap()).unwrap().to_vec::<bool>().unwrap(),
        [true, true, false]
    );
}

#[test]
fn display_shows_values_with_the_dtype() {
    let x = Tensor::from_vec(vec![1.5f32, -448.0, 0.0625], &[3]).unwrap().cast(DType::F8E4M3Fn).unwrap();
    let s = x.to_string();
    assert!(s.contains("dtype=float8_e4m3fn") && s.contains("-4.48e+02") && s.contains("1.5e+00"), "{s}");
    let i = Tensor::from_vec(vec![-8i32, 7, 9], &[3]).unwrap().cast(DType::I4).unwrap();
    let s = i.to_string();
    assert!(s.contains("int4") && s.contains("-8") && s.contains("-7"), "9 wraps to -7: {s}");
}

#[test]
fn computing_ops_refuse_them_with_the_cast_to_write() {
    for d in DType::LOW_PRECISION {
        let x = patterns(d);
        let unary: [(&str, Unary); 10] = [
            ("exp", ops::exp),
            ("negative", ops::negative),
            ("abs", ops::abs),
            ("sqrt", ops::sqrt),
            ("sin", ops::sin),
            ("round", ops::round),
            ("floor", ops::floor),
            ("sign", ops::sign),
            ("square", ops::square),
            ("is_nan", ops::is_nan),
        ];
        for (name, f) in unary {
            let r = no_panic(&format!("{name}({d})"), || f(&x));
            if d.is_integer() && name == "round" {
                // an integer rounds to itself (as in TF): the same bytes
                assert_eq!(r.unwrap().to_bytes().unwrap(), x.to_bytes().unwrap(), "{name}({d})");
                continue;
            }
            let e = r.err().unwrap_or_else(|| panic!("{name}({d}) computed"));
            let msg = e.to_string();
            assert!(msg.contains(name) && msg.contains(d.name()), "{name}({d}): {msg}");
            assert!(msg.contains("x.cast(DType::"), "{name}({d}): {msg}");
        }
        let binary: [(&str, Binary); 6] = [
            ("add", |a, b| ops::add(a, b)),
            ("multiply", |a, b| ops::multiply(a, b)),
            ("maximum", |a, b| ops::maximum(a, b)),
            ("divide", |a, b| ops::divide(a, b)),
            ("pow", |a, b| ops::pow(a, b)),
            ("matmul", |a, b| ops::linalg::matmul(a, &b.t(), false, false)),
        ];
        for (name, f) in binary {
            let r = no_panic(&format!("{name}({d})"), || f(&x, &x));
            let msg = r.err().unwrap_or_else(|| panic!("{name}({d}) computed")).to_string();
            assert!(msg.contains(d.name()), "{name}({d}): {msg}");
        }
    }
    // the message names the cast: float32 for a float op, int8 for int4 in an integer op
    let e = ops::exp(&patterns(DType::I4)).unwrap_err().to_string();
    assert!(e.contains("exp") && e.contains("int4") && e.contains("x.cast(DType::F32)"), "{e}");
    let e = ops::bitwise_and(&patterns(DType::I4), &patterns(DType::I4)).unwrap_err().to_string();
    assert!(e.contains("x.cast(DType::I8)"), "{e}");
    // a mixed strong pair is a promotion refusal naming both dtypes
    let e = ops::add(&patterns(DType::F8E5M2), &Tensor::zeros(&[64, 4], DType::BF16).unwrap()).unwrap_err();
    assert!(matches!(e, Error::Promotion { .. }), "{e:?}");
    assert!(e.to_string().contains("float8_e5m2") && e.to_string().contains("bfloat16"), "{e}");
}

#[test]
fn sums_and_arg_extrema_read_values_exactly() {
    // reduce_sum/reduce_mean read every dtype through the conversions (f64,
    // i128) and round once to the input dtype, so they take these dtypes too
    let x = Tensor::from_vec(vec![0.5f32, 1.5, 3.0, 8.0], &[4]).unwrap().cast(DType::F8E4M3Fn).unwrap();
    let s = ops::reduce_sum(&x, None::<i32>, false).unwrap();
    assert_eq!((s.dtype(), s.cast(DType::F32).unwrap().item::<f32>().unwrap()), (DType::F8E4M3Fn, 13.0));
    let m = ops::reduce_mean(&x, None::<i32>, false).unwrap();
    assert_eq!(m.cast(DType::F32).unwrap().item::<f32>().unwrap(), 3.25);
    // 448 + 448 overflows float8_e4m3fn to NaN, as the cast of 896 does
    let big = Tensor::from_vec(vec![448.0f32, 448.0], &[2]).unwrap().cast(DType::F8E4M3Fn).unwrap();
    assert!(
        ops::reduce_sum(&big, None::<i32>, false).unwrap().cast(DType::F32).unwrap().item::<f32>().unwrap().is_nan()
    );
    // argmax/argmin read values exactly too
    let v = Tensor::from_vec(vec![1.0f32, 448.0, -448.0, 3.0], &[4]).unwrap().cast(DType::F8E4M3Fn).unwrap();
    assert_eq!(ops::argmax(&v, 0, DType::I64).unwrap().item::<i64>().unwrap(), 1);
    assert_eq!(ops::argmin(&v, 0, DType::I64).unwrap().item::<i64>().unwrap(), 2);
    // integers wrap, as every integer sum does: 3 + 4 + 5 = 12 → -4 in int4
    let i = Tensor::from_vec(vec![3i32, 4, 5], &[3]).unwrap().cast(DType::I4).unwrap();
    let s = ops::reduce_sum(&i, None::<i32>, false).unwrap();
    assert_eq!((s.dtype(), s.cast(DType::I32).unwrap().item::<i32>().unwrap()), (DType::I4, -4));
}

#[test]
fn max_and_min_of_every_low_precision_dtype_along_each_axis() {
    // values every one of the eight holds exactly (float8_e8m0fnu holds only powers of two,
    // uint4 and float8_e8m0fnu no negatives)
    for d in DType::LOW_PRECISION {
        let vals: Vec<f32> = match d {
            DType::F8E8M0Fnu => vec![1.0, 4.0, 0.5, 2.0, 0.25, 8.0],
            DType::U4 => vec![1.0, 4.0, 0.0, 2.0, 3.0, 6.0],
            DType::F4E2M1Fn => vec![1.0, -4.0, 0.5, 2.0, -1.5, 6.0],
            _ => vec![1.0, -4.0, 0.0, 2.0, -3.0, 6.0],
        };
        let x = Tensor::from_vec(vals.clone(), &[3, 2]).unwrap().cast(d).unwrap();
        let column = |c: usize| vals.iter().skip(c).step_by(2).copied();
        let row = |r: usize| vals[2 * r..2 * r + 2].iter().copied();
        let fmax = |it: &mut dyn Iterator<Item = f32>| it.fold(f32::NEG_INFINITY, f32::max);
        let fmin = |it: &mut dyn Iterator<Item = f32>| it.fold(f32::INFINITY, f32::min);
        for (axis, want_max, want_min) in [
            (
                0,
                (0..2).map(|c| fmax(&mut column(c))).collect::<Vec<_>>(),
                (0..2).map(|c| fmin(&mut column(c))).collect::<Vec<_>>(),
            ),
            (1, (0..3).map(|r| fmax(&mut row(r))).collect(), (0..3).map(|r| fmin(&mut row(r))).collect()),
        ] {
            let m = ops::reduce_max(&x, axis, false).unwrap();
            assert_eq!(m.dtype(), d);
            assert_eq!(m.cast(DType::F32).unwrap().to_vec::<f32>().unwrap(), want_max, "{d} max axis {axis}");
            let m = ops::reduce_min(&x, axis, false).unwrap();
            assert_eq!(m.cast(DType::F32).unwrap().to_vec::<f32>().unwrap(), want_min, "{d} min axis {axis}");
        }
    }
    // the extrema of nothing are the ends of the dtype's own range, as for int8
    for (d, lo, hi) in [(DType::I4, -8, 7), (DType::U4, 0, 15), (DType::I8, -128, 127)] {
        let e = Tensor::from_vec(Vec::<i32>::new(), &[0]).unwrap().cast(d).unwrap();
        let m = ops::reduce_max(&e, None::<i32>, false).unwrap();
        assert_eq!((m.dtype(), m.cast(DType::I32).unwrap().item::<i32>().unwrap()), (d, lo), "{d}");
        let m = ops::reduce_min(&e, None::<i32>, false).unwrap();
        assert_eq!(m.cast(DType::I32).unwrap().item::<i32>().unwrap(), hi, "{d}");
    }
}

#[test]
fn weak_literals_adapt_and_casts_go_everywhere() {
    let x = patterns(DType::F8E4M3Fn);
    // a weak literal adapts in promotion; equality runs, arithmetic is refused
    let eq = ops::equal(&x, 1.0).unwrap();
    assert_eq!(eq.to_vec::<bool>().unwrap().iter().filter(|&&b| b).count(), 1);
    for to in DType::ALL {
        let y = no_panic(&format!("cast to {to}"), || x.cast(to)).unwrap();
        assert_eq!((y.dtype(), y.shape()), (to, x.shape()));
    }
    let y = Tensor::from_vec(vec![1.0f64, 448.0, 464.0, 465.0], &[4]).unwrap().cast(DType::F8E4M3Fn).unwrap();
    let back = y.cast(DType::F64).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(back[..3], [1.0, 448.0, 448.0]);
    assert!(back[3].is_nan(), "465 overflows float8_e4m3fn to NaN");
}

#[test]
fn npy_round_trips_as_numpy_writes_ml_dtypes_arrays() {
    for d in DType::LOW_PRECISION {
        let x = patterns(d);
        let bytes = lattensor::npy::to_npy_bytes(&x).unwrap();
        let header = std::str::from_utf8(&bytes[10..128]).unwrap();
        let descr = if d == DType::F8E5M2 { "'<f1'" } else { "'<V1'" };
        assert!(header.starts_with(&format!("{{'descr': {descr}, 'fortran_order': False, 'shape': (")), "{header}");
        let back = lattensor::npy::from_npy_bytes(&bytes).unwrap();
        // float8_e5m2 names itself; the opaque byte reads as uint8 to bitcast
        assert_eq!(back.dtype(), if d == DType::F8E5M2 { d } else { DType::U8 });
        assert_eq!(bitcast(&back, d).unwrap().to_bytes().unwrap(), x.to_bytes().unwrap(), "{d}");
    }
}
