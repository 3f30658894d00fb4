//! Argument conversion shared by every binding module: Python values →
//! tensors (TF's input inference), dtypes, axes and shapes, tensors → NumPy,
//! and the runner that applies the caller's promotion mode.
//!
//! Every other module of the extension imports this one; it imports only
//! errors.rs, mode.rs and classes.rs.
//!
//! Python values convert as TF infers them:
//!
//! | Python value | lattensor |
//! |---|---|
//! | `int` | `i32*`; outside the int32 range `i64*`; beyond int64 a strong-uint64-only literal (OverflowError above 2**64-1) |
//! | `float` / `complex` | `f32*` / `c128*` |
//! | `bool`, `np.bool_` | strong bool |
//! | nested list / tuple | elements folded through the lattice in the current mode (`[1, 2.0]` → `f32*`, `[np.int8(1), 1]` → int8) |
//! | NumPy scalar / array | strong, its own dtype (bfloat16 through ml_dtypes) |
//! | `Tensor` | itself; `Variable`: its value (strong) |
//! | anything with `__array__` / `__dlpack__` (JAX, PyTorch, …) | as the NumPy array it converts to |

use lattensor::ops::Axes;
use lattensor::promote::{self, LatticeType, PromotionMode, with_mode};
use lattensor::{DType, Error, Operand, Scalar, Tensor, Value};
use num_complex::Complex64;
use numpy::npyffi::{NPY_ARRAY_ALIGNED, NpyTypes, PY_ARRAY_API, npy_intp};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};

use crate::classes::{PyDType, PyTensor, PyVariable};
use crate::errors::{IntoPyResult, to_py};
use crate::mode;

/// An optional Python argument.
pub type Opt<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
static NP_GENERIC: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static DESCRS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// The `numpy` module.
pub fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    Ok(NUMPY.get_or_try_init(py, || py.import("numpy").map(Bound::unbind))?.bind(py))
}

/// The NumPy dtype object for `d` (`ml_dtypes.bfloat16` for bfloat16, and
/// the `ml_dtypes` type of the same name for the low-precision dtypes).
pub fn numpy_descr(py: Python<'_>, d: DType) -> PyResult<&Bound<'_, PyAny>> {
    let all = DESCRS.get_or_try_init(py, || {
        let np = numpy(py)?;
        DType::ALL
            .iter()
            .map(|&d| {
                let spec = if d == DType::BF16 || d.is_low_precision() {
                    py.import("ml_dtypes")
                        .map_err(|_| {
                            PyTypeError::new_err(format!(
                                "{d} tensors need the ml_dtypes package: pip install ml_dtypes"
                            ))
                        })?
                        .getattr(d.name())?
                } else {
                    pyo3::types::PyString::new(py, d.name()).into_any()
                };
                Ok(np.getattr("dtype")?.call1((spec,))?.unbind())
            })
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(all[d.index()].bind(py))
}

/// The lattensor dtype of a NumPy dtype object.
pub fn dtype_of_descr(descr: &Bound<'_, numpy::PyArrayDescr>) -> PyResult<DType> {
    let (kind, size) = (descr.kind(), descr.itemsize());
    let d = match (kind, size) {
        (b'b', 1) => DType::Bool,
        (b'u', 1) => DType::U8,
        (b'u', 2) => DType::U16,
        (b'u', 4) => DType::U32,
        (b'u', 8) => DType::U64,
        (b'i', 1) => DType::I8,
        (b'i', 2) => DType::I16,
        (b'i', 4) => DType::I32,
        (b'i', 8) => DType::I64,
        (b'f', 2) => DType::F16,
        (b'f', 4) => DType::F32,
        (b'f', 8) => DType::F64,
        (b'c', 8) => DType::C64,
        (b'c', 16) => DType::C128,
        // ml_dtypes' types, by their type's name (float8_e5m2 has kind 'f' and
        // one byte, the others kind 'V')
        _ => match DType::parse(descr.typeobj().name()?.to_str()?) {
            Ok(d) if (d == DType::BF16 || d.is_low_precision()) && size == d.size() => d,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "NumPy dtype {} has no lattensor equivalent; supported are bool, (u)int8-64, bfloat16, \
                     float16-64, complex64/128 and ml_dtypes' float8_*, float4_e2m1fn, int4, uint4",
                    descr.repr()?
                )));
            }
        },
    };
    Ok(d)
}

/// A `lattensor.Tensor` argument, borrowed through PyO3's borrow flag, which
/// makes item assignment on the object fail while an op reads it (also with
/// the GIL released).
pub struct TensorRef<'a>(PyRef<'a, PyTensor>);

// SAFETY: a shared `&TensorRef` gives access to nothing but `&Tensor` (which is
// `Sync`): `PyRef`'s deref is pointer arithmetic into the object, and its
// reference count and borrow flag are touched only by `Drop`, which runs on the
// thread that owns the `TensorRef` (the one holding the GIL).
unsafe impl Sync for TensorRef<'_> {}

impl std::ops::Deref for TensorRef<'_> {
    type Target = Tensor;
    #[inline]
    fn deref(&self) -> &Tensor {
        &self.0.t
    }
}

/// An operand taken from Python: a borrowed tensor, a converted one, or a literal.
pub enum Arg<'a> {
    /// A `lattensor.Tensor` argument, borrowed.
    Ref(TensorRef<'a>),
    /// A value converted to a tensor (NumPy data, lists, variables, …).
    Owned(Tensor),
    /// A Python number: weak per [`Scalar`], never materialised.
    Scalar(Scalar),
}

impl Arg<'_> {
    /// The operand to hand to a library op.
    #[inline]
    pub fn operand(&self) -> Operand<'_> {
        match self {
            Arg::Ref(t) => Operand::Tensor(t),
            Arg::Owned(t) => Operand::Tensor(t),
            Arg::Scalar(s) => Operand::Scalar(*s),
        }
    }

    /// The operand as a tensor (a literal becomes a 0-d tensor of its lattice type).
    pub fn tensor(&self) -> PyResult<std::borrow::Cow<'_, Tensor>> {
        use std::borrow::Cow;
        Ok(match self {
            Arg::Ref(t) => Cow::Borrowed(&**t),
            Arg::Owned(t) => Cow::Borrowed(t),
            Arg::Scalar(s) => Cow::Owned(s.to_tensor().py()?),
        })
    }

    /// Elements (1 for a literal), to decide whether releasing the GIL pays off.
    #[inline]
    pub fn numel(&self) -> usize {
        match self {
            Arg::Ref(t) => t.numel(),
            Arg::Owned(t) => t.numel(),
            Arg::Scalar(_) => 1,
        }
    }
}

/// Converts any Python value an op accepts into an operand.
#[inline]
pub fn arg<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Arg<'a>> {
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Ok(Arg::Ref(TensorRef(t.try_borrow()?)));
    }
    if let Some(s) = scalar_of(obj)? {
        return Ok(Arg::Scalar(s));
    }
    Ok(Arg::Owned(to_tensor_slow(obj)?))
}

/// A Python `bool`/`int`/`float`/`complex` as a weak literal; `None` for anything else.
///
/// NumPy scalars are *not* literals (they are strong), even `np.float64`,
/// which subclasses `float`.
#[inline]
pub fn scalar_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<Scalar>> {
    if obj.is_exact_instance_of::<PyFloat>() {
        return Ok(Some(Scalar::Float(obj.cast::<PyFloat>()?.value())));
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return int_scalar(obj).map(Some);
    }
    if obj.is_exact_instance_of::<PyBool>() {
        return Ok(Some(Scalar::Bool(obj.is_truthy()?)));
    }
    if obj.is_exact_instance_of::<PyComplex>() {
        let c = obj.cast::<PyComplex>()?;
        return Ok(Some(Scalar::Complex(Complex64::new(c.real(), c.imag()))));
    }
    if is_numpy_scalar(obj)? {
        return Ok(None);
    }
    // Subclasses (IntEnum, float subclasses, …) are literals too.
    if obj.is_instance_of::<PyBool>() {
        return Ok(Some(Scalar::Bool(obj.is_truthy()?)));
    }
    if obj.is_instance_of::<PyInt>() {
        return int_scalar(obj).map(Some);
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Some(Scalar::Float(obj.extract::<f64>()?)));
    }
    if obj.is_instance_of::<PyComplex>() {
        let c = obj.cast::<PyComplex>()?;
        return Ok(Some(Scalar::Complex(Complex64::new(c.real(), c.imag()))));
    }
    Ok(None)
}

/// A Python int as a literal: int32 range → `i32*`, int64 range → `i64*`,
/// up to 2**64-1 a literal only a uint64 (or float) dtype accepts.
fn int_scalar(obj: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(Scalar::Int(v));
    }
    if let Ok(v) = obj.extract::<u64>() {
        return Ok(Scalar::UInt(v));
    }
    Err(PyOverflowError::new_err(format!(
        "Python int {} does not fit in 64 bits; lattensor integers are at most int64 (or uint64 with an explicit dtype)",
        obj.repr()?
    )))
}

fn is_numpy_scalar(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    let generic = NP_GENERIC.get_or_try_init(py, || Ok::<_, PyErr>(numpy(py)?.getattr("generic")?.unbind()))?;
    obj.is_instance(generic.bind(py))
}

/// Converts a Python value into a tensor by TF's inference rules.
pub fn to_tensor(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    if let Ok(t) = obj.cast::<PyTensor>() {
        return Ok(t.try_borrow()?.t.clone());
    }
    if let Some(s) = scalar_of(obj)? {
        return s.to_tensor().py();
    }
    to_tensor_slow(obj)
}

/// Everything but tensors and Python numbers.
fn to_tensor_slow(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let py = obj.py();
    if let Ok(v) = obj.cast::<PyVariable>() {
        crate::classes::variable_read(v);
        return Ok(v.get().v.read());
    }
    if let Ok(a) = obj.cast::<PyUntypedArray>() {
        return tensor_from_numpy(a);
    }
    if is_numpy_scalar(obj)? {
        let a = numpy(py)?.getattr("asarray")?.call1((obj,))?;
        return tensor_from_numpy(a.cast::<PyUntypedArray>()?);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return fold_sequence(obj);
    }
    // TF refuses values of types it does not convert with `ValueError`
    if obj.is_none() {
        return Err(to_py(Error::InvalidValue("None cannot be converted to a lattensor Tensor".into())));
    }
    if obj.hasattr("__array__")? || obj.hasattr("__dlpack__")? {
        let a = numpy(py)?.getattr("asarray")?.call1((obj,))?;
        if let Ok(a) = a.cast::<PyUntypedArray>() {
            return tensor_from_numpy(a);
        }
    }
    Err(to_py(Error::InvalidValue(format!(
        "cannot convert {} (of type {}) to a lattensor Tensor; pass a number, a (nested) list of numbers, a NumPy array or a Tensor",
        truncated_repr(obj),
        obj.get_type().name()?
    ))))
}

fn truncated_repr(obj: &Bound<'_, PyAny>) -> String {
    let r = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "<unprintable>".into());
    if r.chars().count() > 60 { format!("{}…", r.chars().take(60).collect::<String>()) } else { r }
}

/// Copies a NumPy array into a strong tensor of its dtype.
///
/// The copy goes into lattensor's 64-byte-aligned, immutable storage: a
/// tensor never aliases memory that NumPy code could write while a kernel
/// reads it with the GIL released.
pub fn tensor_from_numpy(a: &Bound<'_, PyUntypedArray>) -> PyResult<Tensor> {
    let py = a.py();
    let descr = a.dtype();
    let dtype = dtype_of_descr(&descr)?;
    let native = descr.is_native_byteorder().unwrap_or(true);
    let a = if a.is_c_contiguous() && a.is_aligned() && native {
        a.clone()
    } else {
        // ascontiguousarray with the native-order dtype fixes layout, alignment and byte order in one copy
        let target = numpy_descr(py, dtype)?;
        numpy(py)?.getattr("ascontiguousarray")?.call1((a, target))?.cast_into::<PyUntypedArray>()?
    };
    let shape = a.shape().to_vec();
    let nbytes = a.len() * dtype.size();
    // SAFETY: `a` is a C-contiguous, aligned NumPy array of `a.len()` elements of
    // `dtype.size()` bytes each, kept alive by the `a` reference for this scope;
    // its data pointer is valid for `nbytes` reads (and may dangle only when
    // `nbytes == 0`, for which an empty slice is made instead).
    let bytes: &[u8] = if nbytes == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts((*a.as_array_ptr()).fields.data.cast::<u8>(), nbytes) }
    };
    Tensor::from_bytes(bytes, &shape, dtype).py()
}

/// A literal holding the value of a one-element tensor, exactly.
fn scalar_of_tensor(t: &Tensor) -> PyResult<Scalar> {
    let d = t.dtype();
    Ok(if d.is_bool() {
        Scalar::Bool(t.item::<bool>().py()?)
    } else if d == DType::U64 {
        Scalar::from(t.item::<u64>().py()?)
    } else if d.is_integer() {
        Scalar::Int(t.item::<i64>().py()?)
    } else if d.is_complex() {
        Scalar::Complex(t.item::<Complex64>().py()?)
    } else {
        Scalar::Float(t.item::<f64>().py()?)
    })
}

/// Flattened elements of a nested sequence, with the distinct lattice types seen.
struct Fold {
    shape: Vec<usize>,
    leaf_depth: Option<usize>,
    items: Vec<Scalar>,
    types: Vec<LatticeType>,
    /// No tensor or array among the elements.
    only_literals: bool,
}

impl Fold {
    fn note_type(&mut self, t: LatticeType) {
        if !self.types.contains(&t) {
            self.types.push(t);
        }
    }

    fn ragged(&self) -> PyErr {
        PyValueError::new_err(
            "cannot convert a ragged nested sequence to a Tensor: every list at one depth must have the same length \
             and all numbers must sit at the same depth",
        )
    }

    fn dim(&mut self, depth: usize, n: usize) -> PyResult<()> {
        match self.shape.get(depth) {
            Some(&d) if d == n => Ok(()),
            Some(_) => Err(self.ragged()),
            None if self.shape.len() == depth && self.leaf_depth.is_none_or(|l| l > depth) => {
                self.shape.push(n);
                Ok(())
            }
            None => Err(self.ragged()),
        }
    }

    fn leaf(&mut self, depth: usize) -> PyResult<()> {
        match self.leaf_depth {
            Some(l) if l == depth => Ok(()),
            Some(_) => Err(self.ragged()),
            None if self.shape.len() == depth => {
                self.leaf_depth = Some(depth);
                Ok(())
            }
            None => Err(self.ragged()),
        }
    }

    fn walk(&mut self, obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<()> {
        if depth > 64 {
            return Err(PyValueError::new_err("nested sequence is more than 64 levels deep"));
        }
        if let Ok(l) = obj.cast::<PyList>() {
            self.dim(depth, l.len())?;
            for x in l.iter() {
                self.walk(&x, depth + 1)?;
            }
            return Ok(());
        }
        if let Ok(l) = obj.cast::<PyTuple>() {
            self.dim(depth, l.len())?;
            for x in l.iter() {
                self.walk(&x, depth + 1)?;
            }
            return Ok(());
        }
        if let Some(s) = scalar_of(obj)? {
            self.leaf(depth)?;
            self.note_type(s.lattice_type().py()?);
            self.items.push(s);
            return Ok(());
        }
        // A tensor or array inside a list: its axes continue the nesting.
        self.only_literals = false;
        let t = to_tensor(obj)?;
        for (i, &n) in t.shape().iter().enumerate() {
            self.dim(depth + i, n)?;
        }
        self.leaf(depth + t.rank())?;
        self.note_type(t.lattice_type());
        if t.rank() == 0 {
            self.items.push(scalar_of_tensor(&t)?);
        } else {
            self.items.reserve(t.numel());
            let flat = t.reshape(&[-1]).py()?;
            for i in 0..flat.numel() {
                let e = flat.slice(&[lattensor::SliceArg::Index(i as isize)]).py()?;
                self.items.push(scalar_of_tensor(&e)?);
            }
        }
        Ok(())
    }
}

/// A nested list/tuple as a tensor: elements folded through the lattice (empty → `f32*`).
fn fold_sequence(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let mut f = Fold { shape: vec![], leaf_depth: None, items: vec![], types: vec![], only_literals: true };
    f.walk(obj, 0)?;
    let packs = !f.only_literals;
    let out = fold_tensor(f)?;
    if packs { autopack(obj, out) } else { Ok(out) }
}

/// A folded sequence with tensors inside, built again from its elements with
/// recorded ops (casts to the folded dtype, then stacks) while a gradient
/// tape records, so that gradients reach the tensors: TF's auto-packing.
/// Without a recording tape the folded tensor is returned as it is.
fn autopack(obj: &Bound<'_, PyAny>, folded: Tensor) -> PyResult<Tensor> {
    fn pack(obj: &Bound<'_, PyAny>, dtype: DType) -> PyResult<Option<Tensor>> {
        let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = obj.cast::<PyList>() {
            l.iter().collect()
        } else if let Ok(l) = obj.cast::<PyTuple>() {
            l.iter().collect()
        } else {
            let t = to_tensor(obj)?;
            return Ok(Some(if t.dtype() == dtype { t } else { t.cast(dtype).py()? }));
        };
        let mut parts = Vec::with_capacity(items.len());
        for x in &items {
            match pack(x, dtype)? {
                Some(t) => parts.push(t),
                None => return Ok(None),
            }
        }
        if parts.is_empty() {
            return Ok(None);
        }
        let refs: Vec<&Tensor> = parts.iter().collect();
        lattensor::stack(&refs, 0).py().map(Some)
    }
    if !lattensor::autodiff::is_recording() {
        return Ok(folded);
    }
    match pack(obj, folded.dtype())? {
        Some(t) if t.shape() == folded.shape() => Ok(t.with_weak(folded.is_weak())),
        _ => Ok(folded),
    }
}

/// A nested list/tuple as the library's value: when every element is a Python
/// number, `Value::List` of the literals as given (a float keeps all of its
/// float64 digits until the dtype is chosen); with tensors or arrays inside, or
/// no elements at all, the folded tensor.
pub fn sequence_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let mut f = Fold { shape: vec![], leaf_depth: None, items: vec![], types: vec![], only_literals: true };
    f.walk(obj, 0)?;
    if f.only_literals && f.leaf_depth.is_some() {
        return Ok(Value::List { items: f.items, shape: f.shape });
    }
    let packs = !f.only_literals;
    let out = fold_tensor(f)?;
    if packs { autopack(obj, out).map(Value::Tensor) } else { Ok(Value::Tensor(out)) }
}

fn fold_tensor(mut f: Fold) -> PyResult<Tensor> {
    if f.leaf_depth.is_none() {
        // only empty lists: their shape is what was seen, the type f32*
        f.note_type(LatticeType::weak_or_strong(DType::F32, true));
    }
    // TF infers a literal's type by one rule in every mode (the library's default, ALL);
    // it is not an op's promotion, so a migration report does not observe it.
    let t = promote::unobserved(|| promote::result_type_for("constant", &f.types, PromotionMode::All)).py()?;
    let out = lattensor::with_dtype!(t.dtype, T, {
        let data: Vec<T> = f.items.iter().map(|s| s.to::<T>()).collect();
        Tensor::from_vec(data, &f.shape)
    })
    .py()?;
    Ok(out.with_weak(t.weak))
}

/// A read-only NumPy array viewing `t`'s memory (no copy); its base object
/// (a [`TensorMemory`](crate::classes::TensorMemory)) keeps the memory alive.
pub fn numpy_view<'py>(py: Python<'py>, t: &Tensor) -> PyResult<Bound<'py, PyAny>> {
    let owner = crate::classes::TensorMemory::hold(py, t)?;
    let dtype = t.dtype();
    let size = dtype.size() as isize;
    let descr = numpy_descr(py, dtype)?.clone().cast_into::<numpy::PyArrayDescr>()?;
    let layout = t.layout();
    let mut dims: Vec<npy_intp> = layout.shape().iter().map(|&d| d as npy_intp).collect();
    let mut strides: Vec<npy_intp> = layout.strides().iter().map(|&s| s * size).collect();
    let base = t.storage_bytes().as_ptr();
    let data = if t.numel() == 0 {
        base
    } else {
        // the layout keeps every element inside the storage, so the offset is in bounds
        base.wrapping_add(layout.offset() * dtype.size())
    };
    // SAFETY: `descr` is a valid dtype reference, which PyArray_NewFromDescr steals;
    // `dims`/`strides` hold `ndim` entries and are only read during the call;
    // `data` points into storage that outlives the array because `owner` (which
    // holds a clone of the tensor, unreachable to reassignment) becomes the array's base object. The array is created
    // without NPY_ARRAY_WRITEABLE, so NumPy never writes through the pointer.
    unsafe {
        let arr = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            numpy::npyffi::get_type_object(py, NpyTypes::PyArray_Type),
            descr.into_ptr().cast(),
            dims.len() as i32,
            dims.as_mut_ptr(),
            strides.as_mut_ptr(),
            data.cast_mut().cast(),
            NPY_ARRAY_ALIGNED,
            std::ptr::null_mut(),
        );
        let arr = Bound::from_owned_ptr_or_err(py, arr)?;
        if PY_ARRAY_API.PyArray_SetBaseObject(py, arr.as_ptr().cast(), owner.into_ptr()) != 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(arr)
    }
}

/// Inputs with at least this many elements run with the GIL released: below
/// it, releasing and re-taking the GIL costs more than the kernel.
pub const GIL_RELEASE_MIN_ELEMENTS: usize = 1 << 14;

/// Runs a library call under the caller's promotion mode; releases the GIL
/// when `work` (elements touched) is large enough for other threads to gain.
#[inline]
pub fn run<R: Send>(py: Python<'_>, work: usize, f: impl FnOnce() -> lattensor::Result<R> + Send) -> PyResult<R> {
    run_lib(py, work, f).py()
}

/// As [`run`], keeping the library's error (for a binding that maps some errors itself).
#[inline]
pub fn run_lib<R: Send>(
    py: Python<'_>,
    work: usize,
    f: impl FnOnce() -> lattensor::Result<R> + Send,
) -> lattensor::Result<R> {
    let m = mode::effective();
    if work >= GIL_RELEASE_MIN_ELEMENTS { py.detach(|| with_mode(m, f)) } else { with_mode(m, f) }
}

/// Runs a (cheap) library call under the caller's promotion mode, holding the GIL.
#[inline]
pub fn run_quiet<R>(f: impl FnOnce() -> R) -> R {
    with_mode(mode::effective(), f)
}

/// Resolves anything naming a dtype: a `DType`, a name, a NumPy dtype or type,
/// or the Python types `bool`, `int` (int32), `float` (float32), `complex` (complex128).
pub fn as_dtype(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    if let Ok(d) = obj.cast::<PyDType>() {
        return Ok(d.get().d);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return DType::parse(s.to_str()?).py();
    }
    if obj.is_none() {
        // NumPy reads None as float64; TF's `tf.as_dtype(None)` is a TypeError, and `dtype == None` is False
        return Err(PyTypeError::new_err(
            "cannot interpret None as a lattensor dtype; use lattensor.float32, a name such as 'float32', or a NumPy dtype",
        ));
    }
    if let Ok(t) = obj.cast::<PyType>() {
        if t.is(obj.py().get_type::<PyBool>()) {
            return Ok(DType::Bool);
        }
        if t.is(obj.py().get_type::<PyInt>()) {
            return Ok(DType::I32);
        }
        if t.is(obj.py().get_type::<PyFloat>()) {
            return Ok(DType::F32);
        }
        if t.is(obj.py().get_type::<PyComplex>()) {
            return Ok(DType::C128);
        }
    }
    // NumPy dtypes, scalar types and anything NumPy understands as a dtype.
    let np = numpy(obj.py())?;
    match np.getattr("dtype")?.call1((obj,)) {
        Ok(descr) => DType::parse(&descr.getattr("name")?.extract::<String>()?).py(),
        Err(_) => Err(PyTypeError::new_err(format!(
            "cannot interpret {} as a lattensor dtype; use lattensor.int32, a name such as 'float32', or a NumPy dtype",
            obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "the object".into())
        ))),
    }
}

/// Resolves an optional dtype argument (`None` stays `None`).
pub fn opt_dtype(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DType>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => as_dtype(o).map(Some),
    }
}

/// `value` as a tensor of `dtype` by `tf.constant`'s rule, or inferred if `dtype` is `None`.
pub fn constant_impl(value: &Bound<'_, PyAny>, dtype: Option<DType>) -> PyResult<Tensor> {
    if let Some(d) = dtype
        && is_sequence(value)
    {
        // the literals convert straight to `d`, at full precision
        let v = sequence_value(value)?;
        return run_quiet(|| lattensor::constant_as(v, d)).py();
    }
    let a = arg(value)?;
    let Some(d) = dtype else {
        return Ok(match a {
            Arg::Ref(t) => (*t).clone(),
            Arg::Owned(t) => t,
            Arg::Scalar(s) => run_quiet(|| s.to_tensor()).py()?,
        });
    };
    let numpy_input = matches!(a, Arg::Owned(_)) && is_numpy(value);
    match a {
        // NumPy data converts like NumPy's astype (TF casts NumPy arrays silently too).
        Arg::Owned(t) if numpy_input => t.cast(d).py(),
        // A literal beyond int64 has no weak type; it converts only to uint64 or an inexact dtype.
        Arg::Scalar(s @ Scalar::UInt(_)) if d == DType::U64 || d.is_inexact() => Ok(s.to_tensor_as(d)),
        Arg::Ref(t) => run_quiet(|| lattensor::constant_as(&*t, d)).py(),
        Arg::Owned(t) => run_quiet(|| lattensor::constant_as(t, d)).py(),
        Arg::Scalar(s) => run_quiet(|| lattensor::constant_as(Value::Literal(s), d)).py(),
    }
}

/// Whether `value` is a Python list or tuple.
pub fn is_sequence(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>()
}

/// Whether `value` is a NumPy array or scalar.
pub fn is_numpy(value: &Bound<'_, PyAny>) -> bool {
    value.get_type().module().map(|m| m == "numpy").unwrap_or(false)
}

/// A reduction's `axis` argument: None, an int, a sequence of ints, or an integer tensor.
pub fn axes(axis: Opt<'_, '_>) -> PyResult<Axes> {
    let Some(a) = axis.filter(|a| !a.is_none()) else { return Ok(Axes::All) };
    if let Ok(i) = a.extract::<isize>() {
        return Ok(Axes::Some(vec![i]));
    }
    if let Ok(v) = a.extract::<Vec<isize>>() {
        return Ok(Axes::Some(v));
    }
    let t = to_tensor(a)?;
    if !t.dtype().is_integer() || t.rank() > 1 {
        return Err(PyTypeError::new_err("axis must be None, an int, or a list of ints"));
    }
    Ok(Axes::Some(t.to_vec::<i64>().py()?.into_iter().map(|v| v as isize).collect()))
}

/// A list of ints from an int, a sequence of ints, or a 1-D integer tensor.
pub fn ints(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<isize>> {
    if let Ok(v) = obj.extract::<Vec<isize>>() {
        return Ok(v);
    }
    if let Ok(i) = obj.extract::<isize>() {
        return Ok(vec![i]);
    }
    let t = to_tensor(obj)?;
    if !t.dtype().is_integer() || t.rank() > 1 {
        return Err(PyTypeError::new_err(format!("{what} must be a list of ints or a 1-d integer tensor")));
    }
    Ok(t.to_vec::<i64>().py()?.into_iter().map(|v| v as isize).collect())
}

/// A shape argument: non-negative ints.
pub fn shape_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    ints(obj, "shape")?
        .into_iter()
        .map(|d| usize::try_from(d).map_err(|_| crate::errors::invalid_value("shape dimensions must be ≥ 0")))
        .collect()
}

/// A Python value as the library's `Value` (literals stay literals, so they convert by TF's rule).
pub fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if is_sequence(obj) {
        return sequence_value(obj);
    }
    Ok(match arg(obj)? {
        Arg::Ref(t) => Value::Tensor((*t).clone()),
        Arg::Owned(t) => Value::Tensor(t),
        Arg::Scalar(s) => Value::Literal(s),
    })
}

/// A count or a list of integers (`tf.split`'s `num_or_size_splits`, NumPy's
/// `indices_or_sections`): a Python or NumPy integer is `Ok(Err(n))`, a 1-D
/// integer array-like `Ok(Ok(list))` (an empty list too). With `tf_rules`, a
/// 0-d tensor is refused with TF's `ValueError`; otherwise it counts.
pub fn count_or_list(obj: &Bound<'_, PyAny>, op: &str, what: &str, tf_rules: bool) -> PyResult<Result<Vec<i64>, i64>> {
    if obj.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(Err(obj.extract::<i64>()?));
    }
    if tf_rules && obj.is_instance_of::<pyo3::types::PyFloat>() {
        return Err(PyValueError::new_err(format!(
            "{op}: {what} must be an int or a list of ints, got {}",
            obj.repr()?
        )));
    }
    let t = to_tensor(obj)?;
    if t.numel() == 0 && t.rank() == 1 {
        return Ok(Ok(vec![]));
    }
    if !t.dtype().is_integer() {
        let msg =
            format!("{op}: {what} must be an int or a list of ints, got {} values of shape {:?}", t.dtype(), t.shape());
        // TF's split kernel refuses non-integer sizes (InvalidArgumentError); NumPy raises TypeError
        return Err(if tf_rules {
            crate::errors::InvalidArgumentError::new_err(msg)
        } else {
            PyTypeError::new_err(msg)
        });
    }
    match t.rank() {
        0 if tf_rules && obj.is_instance_of::<PyTensor>() => Err(PyValueError::new_err(format!(
            "{op}: a 0-d tensor is not accepted as {what} (as in TF); pass a Python int"
        ))),
        0 => Ok(Err(t.item::<i64>().py()?)),
        1 => Ok(Ok(t.to_vec::<i64>().py()?)),
        r => Err(crate::errors::InvalidArgumentError::new_err(format!(
            "{op}: {what} must be an int or a 1-D list of ints, got rank {r} (shape {:?})",
            t.shape()
        ))),
    }
}

/// `pad`'s `constant_values`: absent or a zero literal (`0`, `0.0`, `False`) is the
/// dtype's zero, as TF pads with zeros then (so bool pads with False); anything else
/// converts by `tf.constant`'s rule in the library.
pub fn pad_constant(constant_values: Opt<'_, '_>, dtype: DType) -> PyResult<Value> {
    let Some(c) = constant_values.filter(|c| !c.is_none()) else {
        return Ok(Value::Tensor(Tensor::zeros(&[], dtype).py()?));
    };
    let zero = match scalar_of(c)? {
        Some(Scalar::Int(v)) => v == 0,
        Some(Scalar::Float(v)) => v == 0.0,
        Some(Scalar::Bool(v)) => !v,
        Some(Scalar::Complex(v)) => v.re == 0.0 && v.im == 0.0,
        _ => false,
    };
    if zero { Ok(Value::Tensor(Tensor::zeros(&[], dtype).py()?)) } else { to_value(c) }
}

/// `clip`'s bounds as values; both `None` is NumPy's `ValueError`.
pub fn clip_bounds(a_min: Opt<'_, '_>, a_max: Opt<'_, '_>) -> PyResult<(Option<Value>, Option<Value>)> {
    let lo = a_min.filter(|v| !v.is_none()).map(to_value).transpose()?;
    let hi = a_max.filter(|v| !v.is_none()).map(to_value).transpose()?;
    if lo.is_none() && hi.is_none() {
        return Err(PyValueError::new_err("clip: a_min and a_max cannot both be None"));
    }
    Ok((lo, hi))
}

/// NumPy's `order=` ("C" or "F"); anything else is TF's `ValueError`.
pub(crate) fn order_arg(op: &str, order: &str) -> PyResult<lattensor::tnp::Order> {
    lattensor::tnp::Order::parse(op, order).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
}

/// NumPy's `out=` argument, which tensors (never written in place) cannot honour: only
/// `None` is accepted; anything else is TF's `ValueError`.
pub(crate) fn no_out(op: &str, out: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match out {
        Some(o) if !o.is_none() => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{op}: setting out is not supported (tensors are not written in place); use the returned tensor"
        ))),
        _ => Ok(()),
    }
}

/// The lattice type of a Python operand: a literal's (weak) or a tensor's.
pub(crate) fn lattice_type_of(obj: &Bound<'_, PyAny>) -> PyResult<lattensor::LatticeType> {
    Ok(match arg(obj)? {
        Arg::Scalar(s) => s.lattice_type().py()?,
        a => a.tensor()?.lattice_type(),
    })
}
