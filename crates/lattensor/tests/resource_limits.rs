//! Results and intermediates above the memory limit are `ResourceExhausted`
//! errors returned before anything is allocated: no abort, no OOM kill.
//!
//! Most cases ask for far more than any machine has (the default limit,
//! 16 GiB, applies); the tests that lower the limit to reach intermediates
//! hold `LIMIT` so they never race with each other (the limit is global).

use std::sync::Mutex;

use lattensor::einsum::{einsum, einsum_raw, numpy_einsum};
use lattensor::{
    Category, DType, Error, SliceArg, Tensor, arange, bitcast, eye, full, linspace, npy, ones, ops, zeros,
};

/// Serialises the tests of this binary that read or change the global limit.
static LIMIT: Mutex<()> = Mutex::new(());

fn exhausted<T: std::fmt::Debug>(what: &str, r: lattensor::Result<T>) -> String {
    match r {
        Err(e @ Error::ResourceExhausted(_)) => {
            assert_eq!(e.category(), Category::ResourceExhausted);
            e.to_string()
        }
        other => panic!("{what}: expected ResourceExhausted, got {other:?}"),
    }
}

/// Runs `f` with the limit set to `bytes`, restoring the default afterwards.
fn with_limit<R>(bytes: u64, f: impl FnOnce() -> R) -> R {
    let _g = LIMIT.lock().unwrap_or_else(|e| e.into_inner());
    lattensor::set_max_tensor_bytes(bytes);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    lattensor::set_max_tensor_bytes(lattensor::DEFAULT_MAX_TENSOR_BYTES);
    r.unwrap_or_else(|p| std::panic::resume_unwind(p))
}

fn default_limit<R>(f: impl FnOnce() -> R) -> R {
    with_limit(lattensor::DEFAULT_MAX_TENSOR_BYTES, f)
}

#[test]
fn diagonal_expansion_of_a_large_input() {
    default_limit(|| {
        // 1000^8 elements: far beyond any memory, and beyond u64 bytes too
        let x = Tensor::zeros(&[1000], DType::F32).unwrap();
        let m = exhausted("i->iiiiiiii", einsum_raw("i->iiiiiiii", &[&x]));
        assert!(m.contains("einsum"), "{m}");
        // 1000^4 float32 = 4 TB: representable, but over the limit
        let m = exhausted("i->iiii", einsum_raw("i->iiii", &[&x]));
        assert!(m.contains("exceeds the limit"), "{m}");
        // the same expansion of a small input works
        let s = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
        let d = einsum_raw("i->iii", &[&s]).unwrap();
        assert_eq!(d.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0]);
    });
}

#[test]
fn einsum_results_over_the_limit() {
    default_limit(|| {
        let v = Tensor::zeros(&[100_000], DType::F64).unwrap();
        // an outer product of 10^10 doubles (80 GB)
        exhausted("i,j->ij", einsum("i,j->ij", &[&v, &v]));
        exhausted("numpy i,j->ij", numpy_einsum("i,j->ij", &[&v, &v]));
        exhausted("i,j,k->ijk", einsum("i,j,k->ijk", &[&v, &v, &v]));
        // operands that are huge broadcast views (no memory of their own)
        let big = Tensor::scalar(1.0f32).broadcast_to(&[1 << 40]).unwrap();
        exhausted("sum of a 2^40 broadcast", einsum("i->", &[&big]));
    });
}

#[test]
fn einsum_allocations_over_a_lowered_limit() {
    // A 1 MiB limit: every operand is small, but the result of (i,j)·(j,k)
    // with i = k = 600 needs 1.44 MB, and the integer path's copy of a
    // transposed 600×600 operand needs as much.
    with_limit(1 << 20, || {
        let a = Tensor::zeros(&[600, 2], DType::F32).unwrap();
        let b = Tensor::zeros(&[2, 600], DType::F32).unwrap();
        let m = exhausted("ij,jk->ik", einsum_raw("ij,jk->ik", &[&a, &b]));
        assert!(m.contains("einsum") && m.contains("1048576"), "{m}");
        // under the limit the same contraction works
        let a = Tensor::zeros(&[256, 2], DType::F32).unwrap();
        let b = Tensor::zeros(&[2, 256], DType::F32).unwrap();
        assert_eq!(einsum_raw("ij,jk->ik", &[&a, &b]).unwrap().shape(), &[256, 256]);
        let t = Tensor::scalar(1i32).broadcast_to(&[600, 600]).unwrap().t();
        let m = exhausted("copy of a strided operand", einsum("ij,jk->", &[&t, &t]));
        assert!(m.contains("einsum"), "{m}");
    });
}

#[test]
fn arange_of_1e18_elements() {
    default_limit(|| {
        let m = exhausted("arange int", arange(0i64, 1_000_000_000_000_000_000i64, 1i64, None));
        assert!(m.contains("arange"), "{m}");
        exhausted("arange float", arange(0.0, 1e18, 1.0, None));
        exhausted("arange full i64 range", arange(i64::MIN, i64::MAX, 1i64, None));
        exhausted("arange f64", arange(0, 1_000_000_000_000i64, 1, Some(DType::F64)));
        // a negative step counts down just as far
        exhausted("arange down", arange(1e18, 0.0, -1.0, None));
    });
}

#[test]
fn creation_with_huge_sizes() {
    default_limit(|| {
        let m = exhausted("linspace", linspace(0.0, 1.0, 1 << 40, None));
        assert!(m.contains("linspace"), "{m}");
        exhausted("linspace usize::MAX", linspace(0.0, 1.0, usize::MAX, Some(DType::C128)));
        let m = exhausted("eye", eye(1 << 20, None, DType::F32));
        assert!(m.contains("eye"), "{m}");
        exhausted("eye overflow", eye(usize::MAX, Some(3), DType::F32));
        let m = exhausted("full", full(&[1 << 20, 1 << 20], 1.5, DType::F64));
        assert!(m.contains("full"), "{m}");
        exhausted("full overflow", full(&[usize::MAX, 2], 0, DType::U8));
        exhausted("full bytes overflow", full(&[usize::MAX / 2], 0, DType::C128));
        exhausted("zeros", zeros(&[1 << 62], DType::Bool));
        exhausted("ones", ones(&[1 << 40], DType::I8));
        exhausted("from_vec-style zeros", Tensor::zeros(&[3, usize::MAX / 2], DType::I16));
    });
}

/// A version-1.0 `.npy` file with `shape` in its header and `data` after it.
fn npy_file(shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}\n");
    let mut f = b"\x93NUMPY\x01\x00".to_vec();
    f.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    f.extend_from_slice(dict.as_bytes());
    f.extend_from_slice(data);
    f
}

#[test]
fn npy_header_claiming_a_huge_shape() {
    default_limit(|| {
        for shape in ["(1099511627776,)", "(4294967296, 4294967296)", "(18446744073709551615, 2)"] {
            let m = exhausted(shape, npy::from_npy_bytes(&npy_file(shape, &[0; 8])));
            assert!(m.contains("npy"), "{m}");
            let path = std::env::temp_dir().join(format!("lattensor_limits_{}.npy", std::process::id()));
            std::fs::write(&path, npy_file(shape, &[0; 8])).unwrap();
            let r = npy::read_npy(&path);
            std::fs::remove_file(&path).unwrap();
            exhausted(shape, r);
        }
    });
}

#[test]
fn reshape_and_broadcast_to_huge_shapes() {
    default_limit(|| {
        let t = Tensor::zeros(&[2, 3], DType::F32).unwrap();
        // reshape cannot change the element count: an error, whatever the size
        assert!(t.reshape(&[1 << 40, 1 << 40]).is_err());
        exhausted("reshape overflow", t.reshape(&[isize::MAX, isize::MAX]));
        // broadcasting to a shape whose element count overflows
        exhausted("broadcast overflow", t.broadcast_to(&[usize::MAX, 2, 3]));
        // a huge broadcast is a view (it owns nothing) …
        let b = t.broadcast_to(&[1 << 40, 2, 3]).unwrap();
        assert_eq!(b.numel(), 6 << 40);
        assert!(b.shares_storage_with(&t));
        // … but anything that would materialise it fails before allocating
        exhausted("to_vec", b.to_vec::<f32>());
        exhausted("to_bytes", b.to_bytes());
        exhausted("contiguous", b.contiguous());
        exhausted("cast", b.cast(DType::F64));
        exhausted("reshape needing a copy", b.slice(&[SliceArg::FULL, SliceArg::Index(0)]).unwrap().t().reshape(&[-1]));
        exhausted("add", ops::add(&b, 1.0));
        exhausted("negate", ops::negative(&b));
        // widening needs a unit-stride last axis: a reversed one forces a copy
        let rev = Tensor::zeros(&[2], DType::F32).unwrap().slice(&[SliceArg::stepped(None, None, -1)]).unwrap();
        exhausted("bitcast needing a copy", bitcast(&rev.broadcast_to(&[1 << 40, 2]).unwrap(), DType::F64));
        let m = exhausted("npy write", npy::to_npy_bytes(&b));
        assert!(m.contains("exceeds the limit"), "{m}");
    });
}

#[test]
fn the_limit_is_configurable() {
    with_limit(1 << 16, || {
        assert_eq!(lattensor::max_tensor_bytes(), 1 << 16);
        // 64 KiB is allowed, one byte more is not
        assert!(Tensor::zeros(&[1 << 16], DType::U8).is_ok());
        let m = exhausted("zeros", Tensor::zeros(&[(1 << 16) + 1], DType::U8));
        assert!(m.contains("set_max_tensor_bytes"), "the message says how to raise the limit: {m}");
        exhausted("arange", arange(0, 1 << 14, 1, Some(DType::F64)));
        assert!(arange(0, 1 << 13, 1, Some(DType::F64)).is_ok());
        // allocations up to 4 KiB are always allowed (scalars, small results)
        lattensor::set_max_tensor_bytes(0);
        assert!(Tensor::zeros(&[4096], DType::U8).is_ok());
        exhausted("zeros over 4 KiB", Tensor::zeros(&[4097], DType::U8));
    });
    default_limit(|| assert_eq!(lattensor::max_tensor_bytes(), lattensor::DEFAULT_MAX_TENSOR_BYTES));
}
