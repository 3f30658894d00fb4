//! Golden `.npy` files written by NumPy / ml_dtypes (`scripts/golden/make_npy.py`):
//! read every dtype, compare values, and check that our writer reproduces
//! numpy's bytes exactly.

use std::path::PathBuf;

use half::{bf16, f16};
use lattensor::npy::{from_npy_bytes, read_npy, to_npy_bytes, write_npy};
use lattensor::{DType, Tensor};
use num_complex::{Complex32, Complex64};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy").join(format!("{name}.npy"))
}

const BASE: [f64; 6] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];

#[test]
fn every_dtype_reads_with_the_right_values_and_rewrites_byte_for_byte() {
    for dtype in DType::CORE {
        let path = data(dtype.name());
        let t = read_npy(&path).unwrap_or_else(|e| panic!("{dtype}: {e}"));
        assert_eq!(t.dtype(), dtype);
        assert_eq!(t.shape(), &[2, 3]);
        assert!(!t.is_weak());
        match dtype {
            DType::Bool => assert_eq!(t.to_vec::<bool>().unwrap(), vec![true, false, false, true, false, false]),
            DType::C64 | DType::C128 => {
                let want: Vec<Complex64> = BASE.iter().map(|&k| Complex64::new(k, 0.5 * k)).collect();
                assert_eq!(t.to_vec::<Complex64>().unwrap(), want, "{dtype}");
            }
            _ => assert_eq!(t.to_vec::<f64>().unwrap(), BASE.to_vec(), "{dtype}"),
        }
        // Our writer produces exactly what np.save wrote.
        let file = std::fs::read(&path).unwrap();
        assert_eq!(to_npy_bytes(&t).unwrap(), file, "{dtype}: bytes differ from numpy's");
    }
}

#[test]
fn specials_keep_their_bits() {
    let t = read_npy(data("int16_neg")).unwrap();
    assert_eq!(t.to_vec::<i16>().unwrap(), vec![-32768, -1, 0, 32767]);
    let f = read_npy(data("float32_special")).unwrap().to_vec::<f32>().unwrap();
    assert!(f[0].is_nan());
    assert_eq!(f[1..3], [f32::INFINITY, f32::NEG_INFINITY]);
    assert!(f[3] == 0.0 && f[3].is_sign_negative());
    assert_eq!(f[4].to_bits(), 1);
    let b = read_npy(data("bfloat16_special")).unwrap();
    assert_eq!(b.dtype(), DType::BF16);
    let want = [1.5f32, -0.25, f32::INFINITY, 3.0e38].map(bf16::from_f32).to_vec();
    assert_eq!(b.to_vec::<bf16>().unwrap(), want);
}

#[test]
fn fortran_order_and_big_endian_give_the_right_values() {
    let t = read_npy(data("fortran_int32")).unwrap();
    assert_eq!((t.dtype(), t.shape()), (DType::I32, &[2usize, 3][..]));
    assert_eq!(t.to_vec::<i32>().unwrap(), vec![0, 1, 2, 3, 4, 5]);
    let t = read_npy(data("fortran_f64_3d")).unwrap();
    assert_eq!(t.shape(), &[2, 3, 4]);
    assert_eq!(t.to_vec::<f64>().unwrap(), (0..24).map(f64::from).collect::<Vec<_>>());
    assert_eq!(read_npy(data("big_int32")).unwrap().to_vec::<i32>().unwrap(), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(read_npy(data("big_float64")).unwrap().to_vec::<f64>().unwrap(), BASE.to_vec());
    let c = read_npy(data("big_complex64")).unwrap();
    assert_eq!(c.dtype(), DType::C64);
    let want: Vec<Complex32> = BASE.iter().map(|&k| Complex32::new(k as f32, 0.5 * k as f32)).collect();
    assert_eq!(c.to_vec::<Complex32>().unwrap(), want);
    let u = read_npy(data("big_uint16_fortran")).unwrap();
    assert_eq!((u.dtype(), u.shape()), (DType::U16, &[2usize, 3][..]));
    assert_eq!(u.to_vec::<u16>().unwrap(), vec![0, 1, 2, 3, 4, 5]);
}

#[test]
fn shapes_and_versions() {
    let s = read_npy(data("scalar_f32")).unwrap();
    assert_eq!((s.shape(), s.item::<f32>().unwrap()), (&[][..], 2.5));
    let e = read_npy(data("empty_i64")).unwrap();
    assert_eq!((e.dtype(), e.shape(), e.numel()), (DType::I64, &[0usize, 3][..], 0));
    assert_eq!(to_npy_bytes(&e).unwrap(), std::fs::read(data("empty_i64")).unwrap());
    for v in ["v2_int32", "v3_int32"] {
        let t = read_npy(data(v)).unwrap();
        assert_eq!(t.to_vec::<i32>().unwrap(), vec![0, 1, 2, 3, 4, 5], "{v}");
    }
}

#[test]
fn round_trips_through_files() {
    let dir = std::env::temp_dir().join(format!("lattensor_npy_it_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tensors = [
        Tensor::from_vec(vec![f16::from_f32(0.1), f16::MAX, f16::NEG_INFINITY], &[3]).unwrap(),
        Tensor::from_vec((0..60).map(|i| bf16::from_f32(i as f32 / 7.0)).collect(), &[3, 4, 5]).unwrap(),
        Tensor::from_vec((0..12).map(|i| i as u32 * 1_000_000).collect::<Vec<_>>(), &[4, 3]).unwrap().t(),
        Tensor::from_vec(vec![Complex64::new(-1.0, 1e-300)], &[1, 1, 1, 1]).unwrap(),
        lattensor::constant([5.0, 10.0, 3.0]).unwrap(),
    ];
    for (i, t) in tensors.iter().enumerate() {
        let path = dir.join(format!("{i}.npy"));
        write_npy(&path, t).unwrap();
        let back = read_npy(&path).unwrap();
        assert_eq!((back.dtype(), back.shape()), (t.dtype(), t.shape()));
        assert_eq!(back.to_bytes().unwrap(), t.to_bytes().unwrap());
        assert!(!back.is_weak(), "files carry no weakness");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_golden_files_are_errors_not_panics() {
    for dtype in DType::CORE {
        let file = std::fs::read(data(dtype.name())).unwrap();
        for cut in 0..file.len() {
            assert!(from_npy_bytes(&file[..cut]).is_err(), "{dtype} cut at {cut}");
        }
        for at in 0..file.len() {
            let mut f = file.clone();
            f[at] ^= 0xff;
            let _ = from_npy_bytes(&f);
        }
    }
    assert!(read_npy(data("does_not_exist")).is_err());
}
