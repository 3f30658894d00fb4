//! Bad inputs return errors, never panic.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lattensor::{Category, DType, Error, LatticeType, Scalar, SliceArg, Tensor, arange, constant, ops};

/// Runs `f`, failing the test if it panics; returns its result.
fn no_panic<T>(what: &str, f: impl FnOnce() -> lattensor::Result<T>) -> lattensor::Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => panic!("{what} panicked instead of returning an error"),
    }
}

fn expect_err<T: std::fmt::Debug>(what: &str, f: impl FnOnce() -> lattensor::Result<T>) -> Error {
    match no_panic(what, f) {
        Ok(v) => panic!("{what}: expected an error, got {v:?}"),
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{what}: empty message");
            e
        }
    }
}

#[test]
fn unknown_dtype_names() {
    for name in ["float8", "", "int", "uint128", "Float32x", "complex256", "f", "i32*"] {
        let e = expect_err(name, || DType::parse(name));
        // TF's `tf.as_dtype` raises `TypeError` for an unknown name
        assert_eq!(e.category(), Category::InvalidType, "{name}");
        assert!(e.to_string().contains("bfloat16"), "lists the names: {e}");
    }
    for name in ["i8*", "bool*", "weak u8", "f16*", "nonsense*"] {
        expect_err(name, || name.parse::<LatticeType>());
    }
}

#[test]
fn weak_types_tf_does_not_allow() {
    // every dtype but TF's five weak ones
    for d in DType::ALL.into_iter().filter(|d| !lattensor::promote::WEAK_DTYPES.contains(d)) {
        let e = expect_err("LatticeType::weak", || LatticeType::weak(d));
        assert!(e.to_string().contains("not allowed as a weak type"), "{e}");
    }
    for d in [DType::I32, DType::I64, DType::F32, DType::F64, DType::C128] {
        assert!(LatticeType::weak(d).is_ok());
    }
}

#[test]
fn mismatched_shapes() {
    let a = Tensor::zeros(&[2, 3], DType::I32).unwrap();
    let b = Tensor::zeros(&[3, 2], DType::I32).unwrap();
    for op in ["add", "sub", "mul", "div"] {
        let e = expect_err(op, || match op {
            "add" => ops::add(&a, &b),
            "sub" => ops::subtract(&a, &b),
            "mul" => ops::multiply(&a, &b),
            _ => ops::divide(&a, &b),
        });
        assert!(matches!(e, Error::ShapeMismatch { .. }), "{op}: {e:?}");
    }
    expect_err("broadcast_to", || a.broadcast_to(&[3, 3]));
    expect_err("broadcast_to fewer dims", || a.broadcast_to(&[3]));
    expect_err("from_vec", || Tensor::from_vec(vec![1i32, 2, 3], &[2, 2]));
    expect_err("from_bytes", || Tensor::from_bytes(&[0u8; 7], &[2], DType::F32));
    expect_err("from_bytes bool", || Tensor::from_bytes(&[0u8, 2], &[2], DType::Bool));
    expect_err("ragged", || constant(vec![vec![1, 2], vec![3]]));
}

#[test]
fn reshape_errors() {
    let t = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    expect_err("wrong size", || t.reshape(&[4, 2]));
    expect_err("two -1", || t.reshape(&[-1, -1]));
    expect_err("negative", || t.reshape(&[-2, 3]));
    expect_err("-1 not dividing", || t.reshape(&[-1, 4]));
    expect_err("-1 with zero", || t.reshape(&[0, -1]));
    expect_err("overflowing product", || t.reshape(&[isize::MAX, isize::MAX, 2]));
    expect_err("overflowing product with zero", || t.reshape(&[isize::MAX, isize::MAX, 0]));
    expect_err("huge", || t.reshape(&[isize::MAX, 4]));
    assert_eq!(t.reshape(&[-1]).unwrap().shape(), &[6]);
    expect_err("transpose", || t.transpose(&[0, 0]));
    expect_err("transpose rank", || t.transpose(&[0]));
    expect_err("expand_dims", || t.expand_dims(5));
    expect_err("squeeze", || t.squeeze(&[0]));
    expect_err("item", || t.item::<f32>());
}

#[test]
fn slicing_errors() {
    let t = Tensor::zeros(&[4, 5], DType::I16).unwrap();
    expect_err("index out of range", || t.slice(&[SliceArg::Index(4)]));
    expect_err("negative index out of range", || t.slice(&[SliceArg::Index(-5)]));
    expect_err("zero step", || t.slice(&[SliceArg::stepped(None, None, 0)]));
    expect_err("too many indices", || t.slice(&[SliceArg::Index(0), SliceArg::Index(0), SliceArg::Index(0)]));
    // out-of-range bounds of a range clamp, as in Python
    assert_eq!(t.slice(&[SliceArg::range(2, 100)]).unwrap().shape(), &[2, 5]);
    assert_eq!(t.slice(&[SliceArg::range(-100, 100)]).unwrap().shape(), &[4, 5]);
    assert_eq!(t.slice(&[SliceArg::stepped(Some(isize::MIN), Some(isize::MAX), isize::MAX)]).unwrap().shape(), &[1, 5]);
    assert_eq!(t.slice(&[SliceArg::stepped(Some(isize::MAX), Some(isize::MIN), isize::MIN)]).unwrap().shape(), &[1, 5]);
}

#[test]
fn huge_shapes() {
    let e = expect_err("zeros usize::MAX", || Tensor::zeros(&[usize::MAX, 2], DType::F32));
    assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
    expect_err("zeros huge", || Tensor::zeros(&[1 << 40, 1 << 30], DType::U8));
    expect_err("ones huge", || lattensor::ones(&[usize::MAX], DType::Bool));
    expect_err("full huge", || lattensor::full(&[1 << 62], 1, DType::C128));
    expect_err("eye huge", || lattensor::eye(1 << 33, None, DType::F32));
    expect_err("linspace huge", || lattensor::linspace(0.0, 1.0, usize::MAX, None));
    let e = expect_err("arange 1e18", || arange(0, 1e18 as i64, 1, None));
    assert_eq!(e.category(), Category::ResourceExhausted, "{e}");
    expect_err("arange f64", || arange(0.0, 1e300, 1e-300, None));
    expect_err("arange zero step", || arange(0, 10, 0, None));
    expect_err("arange nan", || arange(0.0, f64::NAN, 1.0, None));
    let big = Tensor::scalar(1.0f64).broadcast_to(&[1 << 30, 1 << 30]).unwrap();
    assert_eq!(big.numel(), 1 << 60);
    expect_err("to_vec of a huge broadcast", || big.to_vec::<f64>());
    expect_err("contiguous of a huge broadcast", || big.contiguous());
    expect_err("cast of a huge broadcast", || big.cast(DType::F32));
    expect_err("add of a huge broadcast", || ops::add(&big, 1.0));
    expect_err("negative of a huge broadcast", || ops::negative(&big));
    expect_err("to_bytes of a huge broadcast", || big.to_bytes());
    // printing a huge view summarises it without materialising it
    let start = std::time::Instant::now();
    let shown = no_panic("display of a huge broadcast", || Ok(big.to_string())).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(10), "{:?}", start.elapsed());
    assert!(
        shown.starts_with(
            "<Tensor: shape=(1073741824, 1073741824), dtype=float64, numpy=[[1., 1., 1., ..., 1., 1., 1.],"
        ),
        "{shown}"
    );
    assert!(shown.contains("\n ...,\n") && shown.len() < 1000, "{shown}");
    let over = Tensor::scalar(1u8).broadcast_to(&[usize::MAX, 2]);
    if let Ok(o) = over {
        expect_err("to_vec of an overflowing broadcast", || o.to_vec::<u8>());
    }
}

#[test]
fn literals_out_of_range() {
    let big = u64::MAX;
    let e = expect_err("lattice_type", || Scalar::from(big).lattice_type());
    assert_eq!(e.category(), Category::Overflow);
    assert!(e.to_string().contains("uint64"), "says what to do: {e}");
    let t = Tensor::scalar(1u64);
    expect_err("u64 literal operand", || ops::add(&t, big));
    expect_err("u64 literal operand (rhs)", || ops::multiply(big, &t));
    expect_err("constant", || constant(big));
    expect_err("constant list", || constant(vec![1u64, big]));
    // i64::MAX + 1 as a literal is still too large for a weak int64
    expect_err("i64::MAX + 1", || ops::add(&Tensor::scalar(1i64), (i64::MAX as u64) + 1));
    // in range: fine
    assert_eq!(ops::add(&t, i64::MAX as u64).unwrap().item::<u64>().unwrap(), 1u64 << 63);
}

#[test]
fn safe_and_strict_refusals_are_errors() {
    use lattensor::PromotionMode;
    use lattensor::promote::with_mode;
    let a = Tensor::scalar(1u64);
    let b = Tensor::scalar(1i8);
    for mode in [PromotionMode::Safe, PromotionMode::Strict] {
        let e = expect_err("refused", || with_mode(mode, || ops::add(&a, &b)));
        assert_eq!(e.category(), Category::Type, "{mode}");
    }
    expect_err("mode name", || PromotionMode::parse("sloppy"));
}

#[test]
fn integer_ranges_near_the_int64_limits_count_exactly() {
    let r = no_panic("arange near i64::MAX", || arange(i64::MAX - 2, i64::MAX, 1, None)).unwrap();
    assert_eq!((r.dtype(), r.to_vec::<i64>().unwrap()), (DType::I64, vec![i64::MAX - 2, i64::MAX - 1]));
    let r = arange(i64::MIN + 3, i64::MIN, -2, None).unwrap();
    assert_eq!(r.to_vec::<i64>().unwrap(), vec![i64::MIN + 3, i64::MIN + 1]);
    let r = arange(10, 0, -3, None).unwrap();
    assert_eq!((r.dtype(), r.to_vec::<i32>().unwrap()), (DType::I32, vec![10, 7, 4, 1]));
    assert_eq!(arange(5, 5, 1, None).unwrap().numel(), 0);
    assert_eq!(arange(0, 5, -1, None).unwrap().numel(), 0);
    expect_err("full int64 span", || arange(i64::MIN, i64::MAX, 1, None));
}
