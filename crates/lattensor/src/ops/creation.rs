//! Making tensors: `constant` (TF's conversion rule), zeros/ones/full,
//! ranges, identity matrices and the `*_like` family.

use crate::core::element::Element;
use crate::core::error::{Error, Result};
use crate::core::scalar::Scalar;
use crate::promote::{self, LatticeType};
use crate::{DType, Tensor, with_dtype};

/// Anything [`constant`] accepts: a tensor, a literal, or a (nested) list of literals.
#[derive(Clone, Debug)]
pub enum Value {
    /// An existing tensor (keeps its dtype and weakness).
    Tensor(Tensor),
    /// A single literal.
    Literal(Scalar),
    /// Literals in row-major order with a shape.
    List {
        /// The elements.
        items: Vec<Scalar>,
        /// The shape; its product is `items.len()`.
        shape: Vec<usize>,
    },
    /// A nested list whose rows differ in length.
    Ragged(String),
}

impl Value {
    /// The lattice type of the value (a list folds its elements' types in the current mode).
    ///
    /// # Errors
    /// [`Error::Promotion`] if the elements' types do not promote; [`Error::InvalidValue`] for ragged
    /// lists (TF's `ValueError`).
    pub fn lattice_type(&self) -> Result<LatticeType> {
        match self {
            Value::Tensor(t) => Ok(t.lattice_type()),
            Value::Literal(s) => s.lattice_type(),
            Value::List { items, .. } => {
                let types = items.iter().map(Scalar::lattice_type).collect::<Result<Vec<_>>>()?;
                promote::result_type_for("constant", &types, promote::current_mode())
            }
            Value::Ragged(msg) => Err(Error::InvalidValue(msg.clone())),
        }
    }

    fn describe(&self) -> String {
        match self {
            Value::Tensor(t) => format!("a {} tensor", t.lattice_type()),
            Value::Literal(s) => format!("the literal {s}"),
            Value::List { shape, .. } => format!("a list of shape {shape:?}"),
            Value::Ragged(_) => "a ragged list".into(),
        }
    }

    /// Materialises the value as a strong tensor of `dtype` (cast semantics).
    pub(crate) fn materialize(&self, dtype: DType) -> Result<Tensor> {
        match self {
            Value::Tensor(t) => t.cast(dtype),
            Value::Literal(s) => Ok(s.to_tensor_as(dtype)),
            Value::List { items, shape } => with_dtype!(dtype, T, {
                let data: Vec<T> = items.iter().map(|s| s.to::<T>()).collect();
                Tensor::from_vec(data, shape)
            }),
            Value::Ragged(msg) => Err(Error::InvalidValue(msg.clone())),
        }
    }
}

impl From<Tensor> for Value {
    fn from(t: Tensor) -> Self {
        Value::Tensor(t)
    }
}

impl From<&Tensor> for Value {
    fn from(t: &Tensor) -> Self {
        Value::Tensor(t.clone())
    }
}

impl From<Scalar> for Value {
    fn from(s: Scalar) -> Self {
        Value::Literal(s)
    }
}

macro_rules! value_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Self { Value::Literal(Scalar::from(x)) }
        }
        impl From<Vec<$t>> for Value {
            fn from(v: Vec<$t>) -> Self {
                let shape = vec![v.len()];
                Value::List { items: v.into_iter().map(Scalar::from).collect(), shape }
            }
        }
        impl From<&[$t]> for Value {
            fn from(v: &[$t]) -> Self { Value::from(v.to_vec()) }
        }
        impl<const N: usize> From<[$t; N]> for Value {
            fn from(v: [$t; N]) -> Self { Value::from(v.to_vec()) }
        }
        impl From<Vec<Vec<$t>>> for Value {
            fn from(rows: Vec<Vec<$t>>) -> Self {
                let cols = rows.first().map_or(0, Vec::len);
                if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != cols) {
                    return Value::Ragged(format!(
                        "constant: row {i} has {} elements but row 0 has {cols}; nested lists must be rectangular",
                        r.len()
                    ));
                }
                let shape = vec![rows.len(), cols];
                Value::List { items: rows.into_iter().flatten().map(Scalar::from).collect(), shape }
            }
        }
        impl<const N: usize, const M: usize> From<[[$t; M]; N]> for Value {
            fn from(v: [[$t; M]; N]) -> Self { Value::from(v.iter().map(|r| r.to_vec()).collect::<Vec<_>>()) }
        }
    )*};
}
value_from!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    half::f16,
    half::bf16,
    num_complex::Complex32,
    num_complex::Complex64
);

/// Makes a tensor from a value, inferring dtype and weakness like `tf.constant(value)`.
///
/// A literal is weak (`5 → i32*`, `5.0 → f32*`, `true → bool`); a list folds
/// its elements' types (`[5.0, 10.0, 3.0] → f32*`); a tensor is returned as is.
///
/// ```
/// use lattensor::{constant, DType};
/// let t = constant(5).unwrap();
/// assert_eq!(t.to_string(), "<Tensor: shape=(), dtype=int32, numpy=5, weak=True>");
/// let l = constant(vec![vec![1i32, 2], vec![3, 4]]).unwrap();
/// assert_eq!((l.shape(), l.dtype()), (&[2usize, 2][..], DType::I32));
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] for a ragged list; [`Error::Overflow`] for an
/// integer literal beyond `i64::MAX`.
pub fn constant(value: impl Into<Value>) -> Result<Tensor> {
    let value = value.into();
    if let Value::Tensor(t) = value {
        return Ok(t);
    }
    let t = value.lattice_type()?;
    Ok(value.materialize(t.dtype)?.with_weak(t.weak))
}

/// Makes a strong tensor of `dtype` from a value, by TF's rule:
/// the value is converted only if promoting it with `dtype` gives `dtype`.
///
/// So `constant_as(int16_tensor, F32)`, `constant_as(300, I8)` (wraps to 44),
/// `constant_as(1.2, F16)` and `constant_as(true, I32)` convert, while
/// `constant_as(1.5, I32)` and `constant_as(int64_tensor, I32)` are errors. In
/// `Safe` mode, pairs SAFE forbids (e.g. an int32 tensor to float32) raise the
/// promotion error first.
///
/// ```
/// use lattensor::{constant_as, DType, Tensor};
/// let a = Tensor::scalar(10i16);
/// let b = constant_as(&a, DType::F32).unwrap();
/// assert_eq!((b.dtype(), b.is_weak(), b.item::<f32>().unwrap()), (DType::F32, false, 10.0));
/// assert!(constant_as(1.5, DType::I32).is_err());
/// assert_eq!(constant_as(300, DType::I8).unwrap().item::<i8>().unwrap(), 44);
/// // beyond int32, a literal must fit the dtype (TF's OverflowError)
/// assert_eq!(constant_as(1i64 << 40, DType::I32).unwrap_err().category(), lattensor::Category::Overflow);
/// assert_eq!(constant_as(1i64 << 40, DType::I64).unwrap().item::<i64>().unwrap(), 1 << 40);
/// // an empty list has no values to convert: any dtype (as TF's `tf.constant([], tf.int32)`)
/// assert_eq!(constant_as(Vec::<f64>::new(), DType::I32).unwrap().shape(), &[0]);
/// ```
///
/// # Errors
/// [`Error::Promotion`] if the mode refuses the pair; [`Error::InvalidType`]
/// if the promotion does not land on `dtype` (TF's `TypeError`); [`Error::Overflow`]
/// for an integer literal outside both int32 and an integer `dtype`.
pub fn constant_as(value: impl Into<Value>, dtype: DType) -> Result<Tensor> {
    let value = value.into();
    // a list's own type is not the result (the dtype is): only the conversion below is a promotion to report
    let from = promote::unobserved(|| value.lattice_type())?;
    let empty = match &value {
        Value::Tensor(t) => t.numel() == 0,
        Value::List { items, .. } => items.is_empty(),
        _ => false,
    };
    if from.weak && empty {
        // no values and no declared dtype (`tf.constant([], tf.int32)`): nothing to convert
        return value.materialize(dtype);
    }
    let target = LatticeType::strong(dtype);
    let r = promote::promote_for("constant", from, target, promote::current_mode())?;
    if r.dtype != dtype {
        // TF's `tf.constant` refuses the conversion with a `TypeError`
        return Err(Error::InvalidType(format!(
            "constant: cannot convert {} ({from}) to {dtype}: promoting {from} with {dtype} gives {r}, not {dtype}. \
             Convert explicitly with `.cast(DType::{dtype:?})` if the loss is intended",
            value.describe()
        )));
    }
    check_int_literals("constant", &value, dtype)?;
    value.materialize(dtype)
}

/// Refuses an integer literal outside both the int32 range and `dtype`'s range
/// when `dtype` is an integer dtype.
///
/// TF converts a Python `int` through `np.int32` and raises `OverflowError` for
/// one outside int32, then casts (wrapping) to the dtype: `tf.constant(300,
/// tf.int8)` is 44, `tf.constant(2**40, tf.int32)` raises. The same literals are
/// refused here; a literal beyond int32 that `dtype` holds (`2**40` as int64,
/// `2**31` as uint32) is kept, so every value of the dtype can be written.
pub(crate) fn check_int_literals(op: &str, value: &Value, dtype: DType) -> Result<()> {
    let Some(info) = dtype.iinfo().filter(|_| dtype.is_integer()) else {
        return Ok(());
    };
    let int32 = i32::MIN as i128..=i32::MAX as i128;
    let refused = |s: &Scalar| -> Option<i128> {
        let v = match *s {
            Scalar::Int(v) => v as i128,
            Scalar::UInt(v) => v as i128,
            _ => return None,
        };
        (!int32.contains(&v) && !(info.min..=info.max).contains(&v)).then_some(v)
    };
    let bad = match value {
        Value::Literal(s) => refused(s),
        Value::List { items, .. } => items.iter().find_map(refused),
        _ => None,
    };
    match bad {
        Some(v) => Err(Error::Overflow(format!(
            "{op}: the integer {v} is out of range for {dtype} ({} to {}); give a dtype that holds it \
             (such as int64) or reduce it modulo 2^{} first if wrapping is intended",
            info.min, info.max, info.bits
        ))),
        None => Ok(()),
    }
}

/// A strong tensor of `shape` filled with `value` converted to `dtype`.
///
/// # Errors
/// [`Error::ResourceExhausted`] if the size overflows or exceeds the limit.
pub fn full(shape: &[usize], value: impl Into<Scalar>, dtype: DType) -> Result<Tensor> {
    let value = value.into();
    let mut t = Tensor::for_overwrite("full", shape, dtype)?;
    with_dtype!(dtype, T, t.data_mut::<T>().fill(value.to::<T>()));
    Ok(t)
}

/// A strong tensor of zeros (same as [`Tensor::zeros`]).
///
/// # Errors
/// As [`full`].
pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
    Tensor::zeros(shape, dtype)
}

/// A strong tensor of ones.
///
/// # Errors
/// As [`full`].
pub fn ones(shape: &[usize], dtype: DType) -> Result<Tensor> {
    full(shape, 1, dtype)
}

/// Zeros with the shape of `t`, and its dtype and weakness unless `dtype` is given (then strong).
///
/// # Errors
/// As [`full`].
pub fn zeros_like(t: &Tensor, dtype: Option<DType>) -> Result<Tensor> {
    full_like(t, 0, dtype)
}

/// Ones with the shape of `t`, and its dtype and weakness unless `dtype` is given (then strong).
///
/// # Errors
/// As [`full`].
pub fn ones_like(t: &Tensor, dtype: Option<DType>) -> Result<Tensor> {
    full_like(t, 1, dtype)
}

/// `value` with the shape of `t`, and its dtype and weakness unless `dtype` is given (then strong).
///
/// # Errors
/// As [`full`].
pub fn full_like(t: &Tensor, value: impl Into<Scalar>, dtype: Option<DType>) -> Result<Tensor> {
    match dtype {
        Some(d) => full(t.shape(), value, d),
        None => Ok(full(t.shape(), value, t.dtype())?.with_weak(t.is_weak())),
    }
}

/// `[start, start + step, …]` below `limit` (above it for negative steps), like `tf.range`.
///
/// The result is strong, of `dtype` or else of the promoted type of the
/// three literals (`arange(0, 5, 1, None)` is int32, with a float argument float32).
///
/// ```
/// use lattensor::{arange, DType};
/// let r = arange(1, 10, 3, None).unwrap();
/// assert_eq!((r.dtype(), r.to_vec::<i32>().unwrap()), (DType::I32, vec![1, 4, 7]));
/// let f = arange(0.0, 1.0, 0.25, Some(DType::F64)).unwrap();
/// assert_eq!(f.to_vec::<f64>().unwrap(), vec![0.0, 0.25, 0.5, 0.75]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a zero or non-finite step;
/// [`Error::ResourceExhausted`] if the length exceeds the memory limit.
pub fn arange(
    start: impl Into<Scalar>,
    limit: impl Into<Scalar>,
    step: impl Into<Scalar>,
    dtype: Option<DType>,
) -> Result<Tensor> {
    let (start, limit, step) = (start.into(), limit.into(), step.into());
    let dtype = match dtype {
        Some(d) => d,
        None => {
            let types = [start.lattice_type()?, limit.lattice_type()?, step.lattice_type()?];
            promote::result_type_in(&types, promote::PromotionMode::All)?.dtype
        }
    };
    let (s, l, d) = (start.to::<f64>(), limit.to::<f64>(), step.to::<f64>());
    if d == 0.0 || !d.is_finite() || !s.is_finite() || !l.is_finite() {
        return Err(Error::InvalidArgument(format!(
            "arange: start {start}, limit {limit} and step {step} must be finite with a non-zero step"
        )));
    }
    let n = match (start, limit, step) {
        // Integer ranges count exactly: in f64, i64::MAX - 2 and i64::MAX are
        // the same number and the range would come out empty.
        (Scalar::Int(s0), Scalar::Int(l0), Scalar::Int(d0)) => {
            let (dist, d0) = (i128::from(l0) - i128::from(s0), i128::from(d0));
            let count = if dist != 0 && (dist > 0) == (d0 > 0) { (dist.abs() + d0.abs() - 1) / d0.abs() } else { 0 };
            count as f64
        }
        _ => ((l - s) / d).ceil().max(0.0),
    };
    let max_elems = crate::core::storage::max_tensor_bytes() as f64 / dtype.size() as f64;
    if n > max_elems {
        return Err(Error::ResourceExhausted(format!(
            "arange: {n:.0} elements of {dtype} exceed the limit of {} bytes",
            crate::core::storage::max_tensor_bytes()
        )));
    }
    let n = n as usize;
    let integral = matches!(start, Scalar::Int(_)) && matches!(step, Scalar::Int(_));
    // Filled in place: one allocation of the checked size, no temporary Vec.
    let mut t = Tensor::zeros_for("arange", &[n], dtype)?;
    with_dtype!(dtype, T, {
        let out = t.data_mut::<T>();
        if integral {
            let (s0, d0) = (start.to::<i64>(), step.to::<i64>());
            for (i, o) in (0i64..).zip(out.iter_mut()) {
                *o = T::from_i64(s0.wrapping_add(i.wrapping_mul(d0)));
            }
        } else {
            for (i, o) in out.iter_mut().enumerate() {
                *o = T::from_f64(s + i as f64 * d);
            }
        }
    });
    Ok(t)
}

/// `num` evenly spaced values from `start` to `stop` inclusive, like `tf.linspace`
/// (float32 unless `dtype` is given; computed in f64).
///
/// # Errors
/// As [`full`].
pub fn linspace(start: f64, stop: f64, num: usize, dtype: Option<DType>) -> Result<Tensor> {
    let dtype = dtype.unwrap_or(DType::F32);
    let step = if num > 1 { (stop - start) / (num - 1) as f64 } else { 0.0 };
    let mut t = Tensor::zeros_for("linspace", &[num], dtype)?;
    with_dtype!(dtype, T, {
        for (i, o) in t.data_mut::<T>().iter_mut().enumerate() {
            *o = T::from_f64(if i + 1 == num && num > 1 { stop } else { start + i as f64 * step });
        }
    });
    Ok(t)
}

/// An `n × m` matrix with ones on the diagonal (`m = n` if `None`), like `tf.eye`.
///
/// # Errors
/// As [`full`].
pub fn eye(n: usize, m: Option<usize>, dtype: DType) -> Result<Tensor> {
    let m = m.unwrap_or(n);
    let mut t = Tensor::zeros_for("eye", &[n, m], dtype)?;
    with_dtype!(dtype, T, {
        let d = t.data_mut::<T>();
        for i in 0..n.min(m) {
            d[i * m + i] = T::from_bool(true);
        }
    });
    Ok(t)
}
