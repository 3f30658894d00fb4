//! `bitcast`: the cases of spec.md §1 and §3.3 (TF's bitcast_op_test, docs and observed edges).

use half::{bf16, f16};
use lattensor::{Category, DType, SliceArg, Tensor, bitcast};
use num_complex::{Complex32, Complex64};
use proptest::prelude::*;

fn t<T: lattensor::Element>(v: Vec<T>, shape: &[usize]) -> Tensor {
    Tensor::from_vec(v, shape).unwrap()
}

fn err(x: &Tensor, d: DType) -> String {
    let e = bitcast(x, d).unwrap_err();
    assert_eq!(e.category(), Category::InvalidArgument);
    e.to_string()
}

#[test]
fn smaller_f64_to_i8() {
    let v = vec![0.5f64, -1.25, 3.0e300, f64::MIN_POSITIVE, -0.0, 7.0];
    let x = t(v.clone(), &[3, 2]);
    let b = bitcast(&x, DType::I8).unwrap();
    assert_eq!(b.shape(), &[3, 2, 8]);
    let bytes: Vec<u8> = v.iter().flat_map(|f| f.to_le_bytes()).collect();
    assert_eq!(b.to_vec::<i8>().unwrap().iter().map(|&i| i as u8).collect::<Vec<_>>(), bytes);
    assert!(b.shares_storage_with(&x));
}

#[test]
fn larger_i8_to_i32() {
    let x = t((0..16).collect::<Vec<i8>>(), &[4, 4]);
    let b = bitcast(&x, DType::I32).unwrap();
    assert_eq!(b.shape(), &[4]);
    assert_eq!(b.to_vec::<i32>().unwrap(), vec![50462976, 117835012, 185207048, 252579084]);
    assert!(b.shares_storage_with(&x));
    let s = bitcast(&t((0..4).collect::<Vec<i8>>(), &[4]), DType::I32).unwrap();
    assert_eq!(s.shape(), &[] as &[usize]);
    assert_eq!(s.item::<i32>().unwrap(), 50462976);
}

#[test]
fn same_dtype_and_same_size() {
    let x = t((0..12).map(|i| i as f64 * 0.5).collect(), &[3, 4]);
    let same = bitcast(&x, DType::F64).unwrap();
    assert_eq!(same.shape(), &[3, 4]);
    assert_eq!(same.to_vec::<f64>().unwrap(), x.to_vec::<f64>().unwrap());
    let i = bitcast(&x, DType::I64).unwrap();
    assert_eq!(i.shape(), &[3, 4]);
    assert_eq!(i.to_vec::<i64>().unwrap()[1], 0.5f64.to_bits() as i64);
    let u = bitcast(&t(vec![0i64; 12], &[3, 4]), DType::U64).unwrap();
    assert_eq!(u.shape(), &[3, 4]);
    let q = bitcast(&t(vec![0u16; 12], &[3, 4]), DType::U16).unwrap();
    assert_eq!(q.shape(), &[3, 4]);
    assert_eq!(bitcast(&t(vec![-1i64, 1], &[2]), DType::U64).unwrap().to_vec::<u64>().unwrap(), vec![u64::MAX, 1]);
    assert_eq!(bitcast(&t(vec![u32::MAX], &[1]), DType::I32).unwrap().to_vec::<i32>().unwrap(), vec![-1]);
}

#[test]
fn errors_tf_texts() {
    for shape in [vec![1, 1], vec![2, 3], vec![2, 8], vec![], vec![4, 0], vec![0], vec![0, 3]] {
        let n: usize = shape.iter().product();
        let m = err(&t(vec![0i8; n], &shape), DType::I32);
        assert!(m.contains("Cannot bitcast from 6 to 3"), "{m}");
        assert!(m.contains("int8") && m.contains("int32"), "{m}");
    }
    let m = err(&t(vec![0i8; 6], &[2, 3]), DType::I32);
    assert!(m.contains("reshape the input to [2,4]"), "{m}");
    assert!(err(&t(vec![0i16; 3], &[3]), DType::F32).contains("Cannot bitcast from 5 to 1"));
    assert!(err(&t(vec![1.0f32, 2.0, 3.0], &[3]), DType::C128).contains("Cannot bitcast from 1 to 18"));
    assert!(err(&t(vec![1.0f64; 3], &[3]), DType::C128).contains("Cannot bitcast from 2 to 18"));
    let m = err(&t(vec![true], &[1]), DType::I8);
    assert!(m.contains("Value for attr 'T' of bool is not in the list of allowed values"), "{m}");
    let m = err(&t(vec![1i8], &[1]), DType::Bool);
    assert!(m.contains("Value for attr 'type' of bool"), "{m}");
}

#[test]
fn scalar_narrowing_and_docs() {
    let b = bitcast(&Tensor::scalar(0x01020304i32), DType::I8).unwrap();
    assert_eq!(b.shape(), &[4]);
    assert_eq!(b.to_vec::<i8>().unwrap(), vec![4, 3, 2, 1]);
    assert_eq!(bitcast(&Tensor::scalar(0x3f800000i32), DType::F32).unwrap().item::<f32>().unwrap(), 1.0);
    assert_eq!(bitcast(&Tensor::scalar(3i32), DType::F32).unwrap().item::<f32>().unwrap(), f32::from_bits(3));
    let b = bitcast(&Tensor::scalar(u32::MAX), DType::U8).unwrap();
    assert_eq!(b.to_vec::<u8>().unwrap(), vec![255; 4]);
    let b = bitcast(&t(vec![0.0f32, 1.0, 1.0], &[3]), DType::U8).unwrap();
    assert_eq!(b.to_vec::<u8>().unwrap(), vec![0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 128, 63]);
    let b = bitcast(&t(vec![1.0f32, 2.0, -0.0], &[3]), DType::I8).unwrap();
    assert_eq!(b.to_vec::<i8>().unwrap(), vec![0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 0, -128]);
}

#[test]
fn complex_pairs() {
    let c = bitcast(&t(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[3, 2]), DType::C64).unwrap();
    assert_eq!(c.shape(), &[3]);
    assert_eq!(c.to_vec::<Complex32>().unwrap()[2], Complex32::new(5.0, 6.0));
    let c = bitcast(&t(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2]), DType::C128).unwrap();
    assert_eq!(c.to_vec::<Complex64>().unwrap(), vec![Complex64::new(1.0, 2.0), Complex64::new(3.0, 4.0)]);
    let z = t(vec![Complex32::new(1.0, 2.0), Complex32::new(3.0, 4.0)], &[2]);
    let f = bitcast(&z, DType::F32).unwrap();
    assert_eq!((f.shape(), f.to_vec::<f32>().unwrap()), (&[2usize, 2][..], vec![1.0, 2.0, 3.0, 4.0]));
    assert_eq!(bitcast(&z, DType::F64).unwrap().shape(), &[2]);
    assert_eq!(bitcast(&z, DType::U8).unwrap().shape(), &[2, 8]);
    let zz = t(vec![Complex64::new(1.0, 2.0), Complex64::new(3.0, 4.0)], &[2]);
    assert_eq!(bitcast(&zz, DType::F32).unwrap().shape(), &[2, 4]);
    assert_eq!(bitcast(&zz, DType::C64).unwrap().shape(), &[2, 2]);
    assert_eq!(bitcast(&t(vec![Complex64::new(0.0, 0.0); 2], &[2, 1]), DType::I8).unwrap().shape(), &[2, 1, 16]);
    assert_eq!(bitcast(&t(vec![0i8; 16], &[16]), DType::C128).unwrap().shape(), &[] as &[usize]);
    let u = bitcast(&t(vec![Complex32::new(1.0, 2.0)], &[1]), DType::U8).unwrap();
    assert_eq!(u.to_vec::<u8>().unwrap(), vec![0, 0, 128, 63, 0, 0, 0, 64]);
}

#[test]
fn halves() {
    let h = t(vec![f16::from_f32(1.0), f16::from_f32(2.0)], &[2]);
    let b = bitcast(&h, DType::BF16).unwrap();
    assert_eq!(b.to_vec::<f32>().unwrap(), vec![0.0078125, 2.0]);
    let b = bitcast(&t(vec![1.0f32, 2.0], &[2]), DType::BF16).unwrap();
    assert_eq!(b.to_vec::<f32>().unwrap(), vec![0.0, 1.0, 0.0, 2.0]);
    let x = t(vec![bf16::from_f32(0.0), bf16::from_f32(1.0), bf16::from_f32(2.0), bf16::from_f32(3.0)], &[2, 2]);
    assert_eq!(bitcast(&x, DType::F32).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 3.0 + 1.0 / 256.0]);
    let b = bitcast(&t(vec![1.0f64], &[1]), DType::F16).unwrap();
    assert_eq!(b.to_vec::<f32>().unwrap(), vec![0.0, 0.0, 0.0, 1.984375]);
}

#[test]
fn empty_tensors() {
    assert_eq!(bitcast(&t(Vec::<f32>::new(), &[0]), DType::I8).unwrap().shape(), &[0, 4]);
    assert_eq!(bitcast(&t(Vec::<f32>::new(), &[2, 0]), DType::I8).unwrap().shape(), &[2, 0, 4]);
    assert_eq!(bitcast(&t(Vec::<i8>::new(), &[0, 4]), DType::I32).unwrap().shape(), &[0]);
}

#[test]
fn nan_payloads_survive() {
    let bits = vec![0x7FC00001u32, 0xFFC00000, 0x7F800001, 0x80000000, 0x00000001];
    let f = bitcast(&t(bits.clone(), &[5]), DType::F32).unwrap();
    let back = bitcast(&f, DType::U32).unwrap();
    assert_eq!(back.to_vec::<u32>().unwrap(), bits);
    let halves = bitcast(&f, DType::U16).unwrap();
    assert_eq!(halves.to_vec::<u16>().unwrap()[..2], [0x0001, 0x7FC0]);
}

#[test]
fn result_is_strong_and_views_are_zero_copy() {
    let w = lattensor::constant([1.0, 2.0]).unwrap();
    assert!(w.is_weak());
    let b = bitcast(&w, DType::I32).unwrap();
    assert!(!b.is_weak() && b.shares_storage_with(&w));
    // narrowing a transposed view: still a view (strides rescaled)
    let x = t((0..6).collect::<Vec<i32>>(), &[2, 3]).t();
    let b = bitcast(&x, DType::I16).unwrap();
    assert!(b.shares_storage_with(&x));
    assert_eq!(b.shape(), &[3, 2, 2]);
    assert_eq!(b.to_vec::<i16>().unwrap(), vec![0, 0, 3, 0, 1, 0, 4, 0, 2, 0, 5, 0]);
    // widening a slice whose last axis is contiguous and aligned: a view
    let y = t((0..32).collect::<Vec<u8>>(), &[4, 8]);
    let s = y.slice(&[SliceArg::range(1, 3)]).unwrap();
    let w = bitcast(&s, DType::U64).unwrap();
    assert!(w.shares_storage_with(&y));
    assert_eq!(
        w.to_vec::<u64>().unwrap(),
        vec![u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]), u64::from_le_bytes([16, 17, 18, 19, 20, 21, 22, 23])]
    );
    // widening a transposed view: copied first, values still right
    let z = t((0..8).collect::<Vec<u8>>(), &[2, 4]).t().contiguous().unwrap().t();
    let w = bitcast(&z, DType::U32).unwrap();
    assert_eq!(w.to_vec::<u32>().unwrap(), vec![u32::from_le_bytes([0, 1, 2, 3]), u32::from_le_bytes([4, 5, 6, 7])]);
    // a reversed slice narrows as a view
    let r = t(vec![1u16, 2, 3], &[3]).slice(&[SliceArg::stepped(None, None, -1)]).unwrap();
    assert_eq!(bitcast(&r, DType::U8).unwrap().to_vec::<u8>().unwrap(), vec![3, 0, 2, 0, 1, 0]);
}

/// Every dtype bitcast accepts: all but bool.
const NON_BOOL: &[DType] = DType::CORE.split_at(1).1;

proptest! {
    #[test]
    fn round_trips_are_bit_exact(bytes in proptest::collection::vec(any::<u8>(), 16..=16), rows in 1usize..4, a in 0usize..14, b in 0usize..14) {
        let (da, db) = (NON_BOOL[a], NON_BOOL[b]);
        let data: Vec<u8> = bytes.iter().cycle().take(16 * rows).copied().collect();
        let shape = if da.size() < db.size() {
            vec![rows, 16 / db.size(), db.size() / da.size()]
        } else {
            vec![rows, 16 / da.size()]
        };
        let x = Tensor::from_bytes(&data, &shape, da).unwrap();
        let mid = bitcast(&x, db).unwrap();
        prop_assert!(mid.shares_storage_with(&x));
        prop_assert_eq!(mid.to_bytes().unwrap(), data.clone());
        let back = bitcast(&mid, da).unwrap();
        prop_assert_eq!(back.shape(), x.shape());
        prop_assert_eq!(back.to_bytes().unwrap(), data);
    }
}
