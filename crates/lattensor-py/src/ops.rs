//! The op functions of `lattensor._lattensor`, under TF's names and
//! signatures (`name=` is accepted and ignored, as eager TF does).
//!
//! Each binding converts its arguments (convert.rs), runs the library op
//! under the caller's promotion mode (releasing the GIL for large inputs) and
//! wraps the result. No promotion logic lives here.

use std::borrow::Cow;

use lattensor::{DType, Tensor};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::args::run;
use crate::args::{
    self, Arg, Opt, arg, axes, constant_impl, count_or_list, ints, is_numpy, pad_constant, shape_of, to_value,
};
use crate::args::{as_dtype, opt_dtype};
use crate::classes::PyTensor;
use crate::errors::IntoPyResult;

// ---- helpers ---------------------------------------------------------------

fn tensor_arg<'a>(a: &'a Arg<'a>) -> PyResult<Cow<'a, Tensor>> {
    a.tensor()
}

// ---- generated families --------------------------------------------------------

macro_rules! unary {
    // each entry is `py_name => path`, or `py_name(param) => path` where TF names the parameter other than `x`
    ($register:ident: $($py:ident $(($arg:ident))? => $f:path),* $(,)?) => {
        $( unary!(@named $py [$($arg)?] $f); )*
        fn $register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($py, m)?)?; )*
            Ok(())
        }
    };
    (@named $py:ident [] $f:path) => { unary!(@def $py x $f); };
    (@named $py:ident [$arg:ident] $f:path) => { unary!(@def $py $arg $f); };
    (@def $py:ident $arg:ident $f:path) => {
        #[doc = concat!("Elementwise `", stringify!($py), "` (keeps the input's dtype family and weakness per the library).")]
        #[pyfunction]
        #[pyo3(signature = ($arg, name = None))]
        pub fn $py(py: Python<'_>, $arg: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
            let _ = name;
            let a = arg($arg)?;
            let t = tensor_arg(&a)?;
            run(py, t.numel(), || $f(&t)).map(PyTensor::new)
        }
    };
}

macro_rules! binary {
    ($register:ident: $($py:ident => $f:path),* $(,)?) => {
        $(
            #[doc = concat!("Elementwise `", stringify!($py), "`; the operands promote through the lattice.")]
            #[pyfunction]
            #[pyo3(signature = (x, y, name = None))]
            pub fn $py(py: Python<'_>, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
                let _ = name;
                let (a, b) = (arg(x)?, arg(y)?);
                run(py, a.numel().max(b.numel()), || $f(a.operand(), b.operand())).map(PyTensor::new)
            }
        )*
        fn $register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($py, m)?)?; )*
            Ok(())
        }
    };
}

macro_rules! reduction {
    ($register:ident: $($py:ident => $f:path),* $(,)?) => {
        $(
            #[doc = concat!("`", stringify!($py), "` over `axis` (all axes if None); keeps dtype and weakness per the library.")]
            #[pyfunction]
            #[pyo3(signature = (input_tensor, axis = None, keepdims = false, name = None))]
            pub fn $py(
                py: Python<'_>,
                input_tensor: &Bound<'_, PyAny>,
                axis: Opt<'_, '_>,
                keepdims: bool,
                name: Opt<'_, '_>,
            ) -> PyResult<PyTensor> {
                let _ = name;
                let a = arg(input_tensor)?;
                let t = tensor_arg(&a)?;
                let ax = axes(axis)?;
                run(py, t.numel(), || $f(&t, ax, keepdims)).map(PyTensor::new)
            }
        )*
        fn $register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $( m.add_function(wrap_pyfunction!($py, m)?)?; )*
            Ok(())
        }
    };
}

use lattensor::ops::special as sp;

unary! { register_unary:
    abs => lattensor::ops::abs, acos => lattensor::ops::acos, acosh => lattensor::ops::acosh,
    angle(input) => lattensor::ops::angle, asin => lattensor::ops::asin, asinh => lattensor::ops::asinh,
    atan => lattensor::ops::atan, atanh => lattensor::ops::atanh, ceil => lattensor::ops::ceil,
    conj => lattensor::ops::conj, cos => lattensor::ops::cos, cosh => lattensor::ops::cosh,
    digamma => lattensor::ops::digamma, erf => lattensor::ops::erf, erfc => lattensor::ops::erfc,
    erfcinv => lattensor::ops::erfcinv, erfinv => lattensor::ops::erfinv, exp => lattensor::ops::exp,
    expm1 => lattensor::ops::expm1, floor => lattensor::ops::floor, imag(input) => lattensor::ops::imag,
    invert => lattensor::ops::invert, is_finite => lattensor::ops::is_finite, is_inf => lattensor::ops::is_inf,
    is_nan => lattensor::ops::is_nan, lgamma => lattensor::ops::lgamma, log => lattensor::ops::log,
    log1p => lattensor::ops::log1p, log_sigmoid => lattensor::ops::log_sigmoid,
    logical_not => lattensor::ops::logical_not, ndtri => lattensor::ops::ndtri,
    negative => lattensor::ops::negative, real(input) => lattensor::ops::real, reciprocal => lattensor::ops::reciprocal,
    reciprocal_no_nan => lattensor::ops::reciprocal_no_nan, rint => lattensor::ops::rint,
    round => lattensor::ops::round, rsqrt => lattensor::ops::rsqrt, sigmoid => lattensor::ops::sigmoid,
    sign => lattensor::ops::sign, sin => lattensor::ops::sin, sinh => lattensor::ops::sinh,
    softplus(features) => lattensor::ops::softplus, sqrt => lattensor::ops::sqrt, square => lattensor::ops::square,
    tan => lattensor::ops::tan, tanh => lattensor::ops::tanh,
    bessel_i0 => sp::bessel_i0, bessel_i0e => sp::bessel_i0e, bessel_i1 => sp::bessel_i1,
    bessel_i1e => sp::bessel_i1e, bessel_j0 => sp::bessel_j0, bessel_j1 => sp::bessel_j1,
    bessel_k0 => sp::bessel_k0, bessel_k0e => sp::bessel_k0e, bessel_k1 => sp::bessel_k1,
    bessel_k1e => sp::bessel_k1e, bessel_y0 => sp::bessel_y0, bessel_y1 => sp::bessel_y1,
    dawsn => sp::dawsn, expint => sp::expint, fresnel_cos => sp::fresnel_cos, fresnel_sin => sp::fresnel_sin,
    spence => sp::spence,
    relu(features) => lattensor::ops::nn::relu, relu6(features) => lattensor::ops::nn::relu6,
    elu(features) => lattensor::ops::nn::elu,
    selu(features) => lattensor::ops::nn::selu, softsign(features) => lattensor::ops::nn::softsign,
    tensor_diag_part(input) => lattensor::ops::linalg::tensor_diag_part, trace => lattensor::ops::linalg::trace,
}

binary! { register_binary:
    add => lattensor::ops::add, subtract => lattensor::ops::subtract, multiply => lattensor::ops::multiply,
    divide => lattensor::ops::divide, truediv => lattensor::ops::truediv, realdiv => lattensor::ops::realdiv,
    floordiv => lattensor::ops::floordiv, floormod => lattensor::ops::floormod,
    truncatediv => lattensor::ops::truncatediv, truncatemod => lattensor::ops::truncatemod,
    pow => lattensor::ops::pow, maximum => lattensor::ops::maximum, minimum => lattensor::ops::minimum,
    divide_no_nan => lattensor::ops::divide_no_nan, multiply_no_nan => lattensor::ops::multiply_no_nan,
    equal => lattensor::ops::equal, not_equal => lattensor::ops::not_equal, less => lattensor::ops::less,
    less_equal => lattensor::ops::less_equal, greater => lattensor::ops::greater,
    greater_equal => lattensor::ops::greater_equal, logical_and => lattensor::ops::logical_and,
    logical_or => lattensor::ops::logical_or, logical_xor => lattensor::ops::logical_xor,
    bitwise_and => lattensor::ops::bitwise_and, bitwise_or => lattensor::ops::bitwise_or,
    bitwise_xor => lattensor::ops::bitwise_xor, left_shift => lattensor::ops::left_shift,
    right_shift => lattensor::ops::right_shift,
}

reduction! { register_reductions:
    reduce_sum => lattensor::ops::reduce_sum, reduce_mean => lattensor::ops::reduce_mean,
    reduce_prod => lattensor::ops::reduce_prod, reduce_max => lattensor::ops::reduce_max,
    reduce_min => lattensor::ops::reduce_min, reduce_variance => lattensor::ops::reduce_variance,
    reduce_std => lattensor::ops::reduce_std, reduce_logsumexp => lattensor::ops::reduce_logsumexp,
    reduce_euclidean_norm => lattensor::ops::reduce_euclidean_norm,
}

// ---- individually shaped signatures --------------------------------------------

/// `tf.constant(value, dtype=None, shape=None)`: TF's input inference; with a
/// dtype, the value converts by `tf.constant`'s rule (`lattensor::constant_as`); with a shape, the values are
/// reshaped (or a scalar broadcast).
#[pyfunction]
#[pyo3(signature = (value, dtype = None, shape = None, name = None))]
pub fn constant(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    dtype: Opt<'_, '_>,
    shape: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = (py, name);
    let t = constant_impl(value, opt_dtype(dtype)?)?;
    let Some(shape) = shape.filter(|s| !s.is_none()) else { return Ok(PyTensor::new(t)) };
    let s = ints(shape, "shape")?;
    let target: Vec<usize> = s.iter().map(|&d| d.max(0) as usize).collect();
    let target_numel = target.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    if t.numel() == 1 && target_numel != Some(1) && !s.contains(&-1) {
        let b = t.reshape(&[]).py()?.broadcast_to(&target).py()?;
        return Ok(PyTensor::new(b.contiguous().py()?.with_weak(t.is_weak())));
    }
    t.reshape(&s).py().map(PyTensor::new)
}

/// `tf.cast(x, dtype)`: TF's cast; the result is strong.
#[pyfunction]
#[pyo3(signature = (x, dtype, name = None))]
pub fn cast(py: Python<'_>, x: &Bound<'_, PyAny>, dtype: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let d = as_dtype(dtype)?;
    let a = arg(x)?;
    let t = tensor_arg(&a)?;
    run(py, t.numel(), || lattensor::cast(&t, d)).map(PyTensor::new)
}

/// `tf.bitcast(input, type)`: reinterprets the bytes (a view, no copy).
#[pyfunction]
#[pyo3(signature = (input, r#type, name = None))]
pub fn bitcast(input: &Bound<'_, PyAny>, r#type: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let d = as_dtype(r#type)?;
    let t = args::to_tensor(input)?;
    lattensor::bitcast(&t, d).py().map(PyTensor::new)
}

fn einsum_with(
    py: Python<'_>,
    numpy_rules: bool,
    equation: &str,
    inputs: &Bound<'_, PyTuple>,
    preferred: Option<DType>,
) -> PyResult<PyTensor> {
    // tf.einsum also accepts the operands as one list
    let items: Vec<Bound<'_, PyAny>> =
        if inputs.len() == 1 && inputs.get_item(0)?.is_instance_of::<pyo3::types::PyList>() {
            inputs.get_item(0)?.try_iter()?.collect::<PyResult<_>>()?
        } else {
            inputs.iter().collect()
        };
    let ts = items.iter().map(args::to_tensor).collect::<PyResult<Vec<_>>>()?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    let work = ts.iter().map(Tensor::numel).max().unwrap_or(0);
    let front = if numpy_rules { lattensor::einsum::Front::NumPy } else { lattensor::einsum::Front::Tf };
    let opts = lattensor::einsum::PathOptions::default();
    run(py, work, || match preferred {
        Some(p) => lattensor::einsum::einsum_preferred(front, equation, &refs, opts, p),
        None => lattensor::einsum::einsum_front(front, equation, &refs, opts),
    })
    .map(PyTensor::new)
}

/// `tf.raw_ops.Einsum(inputs=[...], equation=...)`: the raw op's equation
/// rules (an explicit `->`, repeated output labels expand a diagonal).
#[pyfunction]
#[pyo3(signature = (inputs, equation))]
pub fn raw_einsum(py: Python<'_>, inputs: &Bound<'_, PyAny>, equation: &str) -> PyResult<PyTensor> {
    let items: Vec<Bound<'_, PyAny>> = inputs.try_iter()?.collect::<PyResult<_>>()?;
    let ts = items.iter().map(args::to_tensor).collect::<PyResult<Vec<_>>>()?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    let work = ts.iter().map(Tensor::numel).max().unwrap_or(0);
    run(py, work, || lattensor::einsum::einsum_raw(equation, &refs)).map(PyTensor::new)
}

/// `tf.einsum(equation, *inputs, name=None, optimize='greedy')`: TF's
/// equation rules; mixed dtypes promote through the lattice. Any other keyword
/// is a `TypeError`, as in TF.
#[pyfunction]
#[pyo3(signature = (equation, *inputs, **kwargs))]
pub fn einsum(
    py: Python<'_>,
    equation: &str,
    inputs: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<PyTensor> {
    if let Some(kw) = kwargs {
        let unknown: Vec<String> = kw
            .keys()
            .iter()
            .map(|k| k.str().map(|s| s.to_string()))
            .collect::<PyResult<Vec<_>>>()?
            .into_iter()
            .filter(|k| k != "name" && k != "optimize" && k != "preferred_element_type")
            .collect();
        if !unknown.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "Invalid keyword arguments for this function: {} (einsum takes name, optimize and \
                 preferred_element_type)",
                unknown.join(", ")
            )));
        }
    }
    einsum_with(py, false, equation, inputs, preferred_kwarg(kwargs)?)
}

/// `tnp.einsum(subscripts, *operands)`: NumPy's equation rules (implicit output, broadcasting).
#[pyfunction]
#[pyo3(signature = (subscripts, *operands, **kwargs))]
pub fn numpy_einsum(
    py: Python<'_>,
    subscripts: &str,
    operands: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<PyTensor> {
    let preferred = preferred_kwarg(kwargs)?;
    einsum_with(py, true, subscripts, operands, preferred)
}

/// The `preferred_element_type` keyword (JAX's) among an einsum's keywords, as a dtype.
fn preferred_kwarg(kwargs: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Option<DType>> {
    match kwargs {
        Some(kw) => opt_dtype(kw.get_item("preferred_element_type")?.as_ref()),
        None => Ok(None),
    }
}

/// `tf.linalg.matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
/// output_type=None)`: `output_type` is the dtype the product accumulates in and
/// returns (JAX's `preferred_element_type`): int8 × int8 → int32 is exact.
#[pyfunction]
#[pyo3(signature = (a, b, transpose_a = false, transpose_b = false, adjoint_a = false, adjoint_b = false,
    a_is_sparse = false, b_is_sparse = false, output_type = None, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    transpose_a: bool,
    transpose_b: bool,
    adjoint_a: bool,
    adjoint_b: bool,
    a_is_sparse: bool,
    b_is_sparse: bool,
    output_type: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = (a_is_sparse, b_is_sparse, name);
    let (x, y) = (args::to_tensor(a)?, args::to_tensor(b)?);
    let work = x.numel().saturating_mul(y.shape().last().copied().unwrap_or(1));
    let opts = lattensor::ops::matrix::MatMulOptions {
        transpose_a,
        transpose_b,
        adjoint_a,
        adjoint_b,
        preferred_element_type: opt_dtype(output_type)?,
    };
    run(py, work, || lattensor::ops::matrix::matmul_with(&x, &y, opts)).map(PyTensor::new)
}

/// `tf.linalg.matrix_transpose(a, conjugate=False)`: swaps the last two axes (a view).
#[pyfunction]
#[pyo3(signature = (a, name = None, conjugate = false))]
pub fn matrix_transpose(a: &Bound<'_, PyAny>, name: Opt<'_, '_>, conjugate: bool) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(a)?;
    crate::args::run_quiet(|| lattensor::ops::linalg::matrix_transpose(&t, conjugate)).py().map(PyTensor::new)
}

/// The tensors of a Python sequence (a list, a tuple, a tensor's rows are not accepted).
fn tensor_list(values: &Bound<'_, PyAny>, op: &str) -> PyResult<Vec<Tensor>> {
    if values.is_instance_of::<PyTensor>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{op}: expects a list or tuple of tensors, got one tensor; wrap it in a list"
        )));
    }
    values.try_iter()?.map(|v| args::to_tensor(&v?)).collect()
}

/// `tf.concat(values, axis)`: joins along `axis`; dtypes promote through the lattice.
#[pyfunction]
#[pyo3(signature = (values, axis, name = None))]
pub fn concat(py: Python<'_>, values: &Bound<'_, PyAny>, axis: isize, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let ts = tensor_list(values, "concat")?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    run(py, ts.iter().map(Tensor::numel).sum(), || lattensor::concat(&refs, axis)).map(PyTensor::new)
}

/// `tf.stack(values, axis=0)`: joins equal shapes along a new axis; dtypes promote through the lattice.
#[pyfunction]
#[pyo3(signature = (values, axis = 0, name = None))]
pub fn stack(py: Python<'_>, values: &Bound<'_, PyAny>, axis: isize, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let ts = tensor_list(values, "stack")?;
    let refs: Vec<&Tensor> = ts.iter().collect();
    run(py, ts.iter().map(Tensor::numel).sum(), || lattensor::stack(&refs, axis)).map(PyTensor::new)
}

/// `tf.where(condition, x, y)`: `x` where `condition` (bool) holds, else `y`,
/// broadcast; `x` and `y` promote through the lattice.
#[pyfunction]
#[pyo3(signature = (condition, x = None, y = None, name = None))]
pub fn r#where(
    py: Python<'_>,
    condition: &Bound<'_, PyAny>,
    x: Opt<'_, '_>,
    y: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let (Some(x), Some(y)) = (x, y) else {
        return Err(pyo3::exceptions::PyNotImplementedError::new_err(
            "where: only the three-argument form where(condition, x, y) is implemented; \
             the indices of true elements (where(condition)) are not",
        ));
    };
    let (c, x, y) = (args::to_tensor(condition)?, args::to_tensor(x)?, args::to_tensor(y)?);
    let work = c.numel().max(x.numel()).max(y.numel());
    run(py, work, || lattensor::where_(&c, &x, &y)).map(PyTensor::new)
}

/// `tf.math.argmax(input, axis=None, output_type=tf.int64)`: the first index of the
/// maximum along `axis` (`None` is 0, as TF); the first NaN wins.
#[pyfunction]
#[pyo3(signature = (input, axis = None, output_type = None, name = None))]
pub fn argmax(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    axis: Option<isize>,
    output_type: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    arg_extremum(py, input, axis, output_type, lattensor::ops::argmax)
}

/// `tf.math.argmin(input, axis=None, output_type=tf.int64)`: as `argmax`, for the minimum.
#[pyfunction]
#[pyo3(signature = (input, axis = None, output_type = None, name = None))]
pub fn argmin(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    axis: Option<isize>,
    output_type: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    arg_extremum(py, input, axis, output_type, lattensor::ops::argmin)
}

fn arg_extremum(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    axis: Option<isize>,
    output_type: Opt<'_, '_>,
    op: fn(&Tensor, isize, DType) -> lattensor::Result<Tensor>,
) -> PyResult<PyTensor> {
    let (x, out) = (args::to_tensor(input)?, opt_dtype(output_type)?.unwrap_or(DType::I64));
    run(py, x.numel(), || op(&x, axis.unwrap_or(0), out)).map(PyTensor::new)
}

/// `tf.clip_by_value(t, clip_value_min, clip_value_max)`: keeps `t`'s dtype and weakness.
#[pyfunction]
#[pyo3(signature = (t, clip_value_min, clip_value_max, name = None))]
pub fn clip_by_value(
    py: Python<'_>,
    t: &Bound<'_, PyAny>,
    clip_value_min: &Bound<'_, PyAny>,
    clip_value_max: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let x = args::to_tensor(t)?;
    let (lo, hi) = (arg(clip_value_min)?, arg(clip_value_max)?);
    run(py, x.numel(), || lattensor::ops::clip_by_value(&x, lo.operand(), hi.operand())).map(PyTensor::new)
}

/// `tf.math.scalar_mul(scalar, x)`: the dtype and weakness of `x`.
#[pyfunction]
#[pyo3(signature = (scalar, x, name = None))]
pub fn scalar_mul(
    py: Python<'_>,
    scalar: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let s = arg(scalar)?;
    let t = args::to_tensor(x)?;
    run(py, t.numel(), || lattensor::ops::scalar_mul(s.operand(), &t)).map(PyTensor::new)
}

/// `tf.reshape(tensor, shape)`: a view when the strides allow it.
#[pyfunction]
#[pyo3(signature = (tensor, shape, name = None))]
pub fn reshape(tensor: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(tensor)?;
    t.reshape(&ints(shape, "shape")?).py().map(PyTensor::new)
}

/// `tf.expand_dims(input, axis)`: inserts a length-1 axis (a view).
#[pyfunction]
#[pyo3(signature = (input, axis, name = None))]
pub fn expand_dims(input: &Bound<'_, PyAny>, axis: isize, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    args::to_tensor(input)?.expand_dims(axis).py().map(PyTensor::new)
}

/// `tf.squeeze(input, axis=None)`: removes length-1 axes (a view).
#[pyfunction]
#[pyo3(signature = (input, axis = None, name = None))]
pub fn squeeze(input: &Bound<'_, PyAny>, axis: Opt<'_, '_>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let ax = match axis.filter(|a| !a.is_none()) {
        Some(a) => ints(a, "axis")?,
        None => vec![],
    };
    args::to_tensor(input)?.squeeze(&ax).py().map(PyTensor::new)
}

/// `tf.transpose(a, perm=None, conjugate=False)`: reorders axes (a view; reversed if `perm` is None).
#[pyfunction]
#[pyo3(signature = (a, perm = None, conjugate = false, name = None))]
pub fn transpose(a: &Bound<'_, PyAny>, perm: Opt<'_, '_>, conjugate: bool, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(a)?;
    let p = match perm.filter(|p| !p.is_none()) {
        Some(p) => ints(p, "perm")?
            .into_iter()
            .map(|v| usize::try_from(v).map_err(|_| PyValueError::new_err("perm entries must be ≥ 0")))
            .collect::<PyResult<Vec<_>>>()?,
        None => (0..t.rank()).rev().collect(),
    };
    let r = t.transpose(&p).py()?;
    if conjugate && r.dtype().is_complex() {
        return crate::args::run_quiet(|| lattensor::ops::conj(&r)).py().map(PyTensor::new);
    }
    Ok(PyTensor::new(r))
}

/// `tf.gather(params, indices, validate_indices=None, axis=None, batch_dims=0)`:
/// slices of `params` along `axis` (default `batch_dims`) picked by `indices`;
/// strong, with `params`' dtype. Indices out of range are an InvalidArgumentError.
#[pyfunction]
#[pyo3(signature = (params, indices, validate_indices = None, axis = None, batch_dims = 0, name = None))]
pub fn gather(
    py: Python<'_>,
    params: &Bound<'_, PyAny>,
    indices: &Bound<'_, PyAny>,
    validate_indices: Opt<'_, '_>,
    axis: Opt<'_, '_>,
    batch_dims: isize,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = (validate_indices, name);
    let (p, i) = (arg(params)?, arg(indices)?);
    let (p, i) = (tensor_arg(&p)?, tensor_arg(&i)?);
    let axis = match axis.filter(|a| !a.is_none()) {
        None => batch_dims,
        Some(a) => a.extract::<isize>().map_err(|_| PyTypeError::new_err("gather: axis must be None or an int"))?,
    };
    run(py, i.numel(), || lattensor::gather(&p, &i, axis, batch_dims)).map(PyTensor::new)
}

/// `tf.math.unsorted_segment_sum(data, segment_ids, num_segments)`: row `k` is the
/// sum of the rows of `data` whose id is `k` (negative ids dropped); strong, with
/// `data`'s dtype.
#[pyfunction]
#[pyo3(signature = (data, segment_ids, num_segments, name = None))]
pub fn unsorted_segment_sum(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    segment_ids: &Bound<'_, PyAny>,
    num_segments: &Bound<'_, PyAny>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let (d, i) = (arg(data)?, arg(segment_ids)?);
    let (d, i) = (tensor_arg(&d)?, tensor_arg(&i)?);
    let n = crate::args::to_tensor(num_segments)?;
    let n: i64 = n.item::<i64>().py()?;
    let n = usize::try_from(n).map_err(|_| {
        pyo3::exceptions::PyValueError::new_err(format!("unsorted_segment_sum: num_segments must be ≥ 0, got {n}"))
    })?;
    run(py, d.numel(), || lattensor::ops::unsorted_segment_sum(&d, &i, n)).map(PyTensor::new)
}

/// `tf.math.atan2(y, x)`: the angle of the point `(x, y)`; the operands promote
/// through the lattice (TF 2.21 refuses mixed dtypes), real floats only.
#[pyfunction]
#[pyo3(signature = (y, x, name = None))]
pub fn atan2(py: Python<'_>, y: &Bound<'_, PyAny>, x: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let (a, b) = (arg(y)?, arg(x)?);
    run(py, a.numel().max(b.numel()), || lattensor::ops::atan2(a.operand(), b.operand())).map(PyTensor::new)
}

/// `tf.broadcast_to(input, shape)` / `tnp.broadcast_to(array, shape)`: `input`
/// (converted as `tf.constant` would) broadcast to `shape` by NumPy's rules, as a
/// zero-copy view (0 strides on the broadcast axes). The result is strong, as in
/// TF 2.21, where `broadcast_to` is not on the WeakTensor list.
#[pyfunction]
#[pyo3(signature = (input, shape, name = None))]
pub fn broadcast_to(input: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(input)?;
    t.broadcast_to(&shape_of(shape)?).py().map(|b| PyTensor::new(b.with_weak(false)))
}

/// An integer argument given as a Python/NumPy int or a 0-d integer tensor.
fn int_arg(obj: &Bound<'_, PyAny>, op: &str, what: &str) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyInt>() {
        return obj.extract::<i64>();
    }
    let t = args::to_tensor(obj)?;
    if !t.dtype().is_integer() {
        return Err(PyTypeError::new_err(format!("{op}: {what} must be an integer, got {}", obj.repr()?)));
    }
    if t.rank() != 0 {
        return Err(crate::errors::InvalidArgumentError::new_err(format!(
            "{op}: {what} must be a scalar, got shape {:?}",
            t.shape()
        )));
    }
    t.item::<i64>().py()
}

/// `tf.split(value, num_or_size_splits, axis=0, num=None)`: a list of zero-copy
/// views of `value` along `axis`: `num_or_size_splits` equal parts (an int),
/// or parts of the listed sizes (one may be -1). Strong, as TF's parts are.
#[pyfunction]
#[pyo3(signature = (value, num_or_size_splits, axis = None, num = None, name = None))]
pub fn split(
    value: &Bound<'_, PyAny>,
    num_or_size_splits: &Bound<'_, PyAny>,
    axis: Opt<'_, '_>,
    num: Option<i64>,
    name: Opt<'_, '_>,
) -> PyResult<Vec<PyTensor>> {
    let _ = name;
    let t = args::to_tensor(value)?;
    let axis = match axis.filter(|a| !a.is_none()) {
        Some(a) => int_arg(a, "split", "axis")? as isize,
        None => 0,
    };
    let spec = match count_or_list(num_or_size_splits, "split", "num_or_size_splits", true)? {
        Err(n) => lattensor::Splits::Count(n),
        Ok(sizes) => {
            if let Some(n) = num.filter(|&n| n != sizes.len() as i64) {
                return Err(crate::errors::InvalidArgumentError::new_err(format!(
                    "split: num={n} but num_or_size_splits lists {} sizes; they must agree",
                    sizes.len()
                )));
            }
            lattensor::Splits::Sizes(sizes)
        }
    };
    let parts = crate::args::run_quiet(|| lattensor::split(&t, spec, axis)).py()?;
    Ok(parts.into_iter().map(PyTensor::new).collect())
}

/// `tf.pad(tensor, paddings, mode="CONSTANT", constant_values=0)`: `tensor` with
/// `paddings[i] = [before, after]` elements added on axis `i`; CONSTANT fills with
/// `constant_values` (converted to the dtype as `tf.constant` would), REFLECT and
/// SYMMETRIC mirror the input (any case). Strong, as TF's result is.
#[pyfunction]
#[pyo3(signature = (tensor, paddings, mode = "CONSTANT", constant_values = None, name = None))]
pub fn pad(
    py: Python<'_>,
    tensor: &Bound<'_, PyAny>,
    paddings: &Bound<'_, PyAny>,
    mode: &str,
    constant_values: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let mode: lattensor::PadMode = mode.parse().map_err(|e: lattensor::Error| PyValueError::new_err(e.to_string()))?;
    let t = args::to_tensor(tensor)?;
    let p = to_value(paddings)?;
    let c = pad_constant(constant_values, t.dtype())?;
    run(py, t.numel(), || lattensor::pad(&t, p, mode, c)).map(PyTensor::new)
}

/// `indices`/`on_value`/`off_value` of `tf.one_hot`: tensors keep their dtype; a Python
/// number or list converts to `dtype` if it can (TF's `dtype_hint`), else by inference.
fn hinted(obj: &Bound<'_, PyAny>, dtype: Option<DType>) -> PyResult<Tensor> {
    if obj.is_instance_of::<PyTensor>() || is_numpy(obj) {
        return args::to_tensor(obj);
    }
    if let Some(d) = dtype
        && let Ok(t) = constant_impl(obj, Some(d))
    {
        return Ok(t);
    }
    args::to_tensor(obj)
}

/// `tf.one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None)`:
/// a new axis of length `depth` at `axis` (-1: last) holding `on_value` at each
/// index and `off_value` elsewhere; out-of-range indices give all `off_value`.
/// The dtype is TF's: `dtype`, else `on_value`'s or `off_value`'s, else float32;
/// mismatches raise `TypeError`, as in TF. Strong.
#[pyfunction]
#[pyo3(signature = (indices, depth, on_value = None, off_value = None, axis = None, dtype = None, name = None))]
#[allow(clippy::too_many_arguments)]
pub fn one_hot(
    py: Python<'_>,
    indices: &Bound<'_, PyAny>,
    depth: &Bound<'_, PyAny>,
    on_value: Opt<'_, '_>,
    off_value: Opt<'_, '_>,
    axis: Option<isize>,
    dtype: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    // Python numbers and lists convert with TF's int64 hint ([True] is [1]; [] is an empty index list)
    let mut idx = hinted(indices, Some(DType::I64))?;
    if idx.numel() == 0 && !idx.dtype().is_integer() && !(indices.is_instance_of::<PyTensor>() || is_numpy(indices)) {
        idx = idx.cast(DType::I64).py()?;
    }
    let depth = int_arg(depth, "one_hot", "depth")?;
    let dtype = opt_dtype(dtype)?;
    let on = on_value.filter(|v| !v.is_none()).map(|v| hinted(v, dtype)).transpose()?;
    let off = off_value.filter(|v| !v.is_none()).map(|v| hinted(v, dtype)).transpose()?;
    if let Some(d) = dtype {
        for (what, v) in [("on_value", &on), ("off_value", &off)] {
            if let Some(t) = v.as_ref().filter(|t| t.dtype() != d) {
                return Err(PyTypeError::new_err(format!(
                    "one_hot: dtype {} of {what} does not match dtype parameter {d}",
                    t.dtype()
                )));
            }
        }
    }
    if let (Some(a), Some(b)) = (&on, &off)
        && a.dtype() != b.dtype()
    {
        return Err(PyTypeError::new_err(format!(
            "one_hot: dtype {} of on_value does not match dtype {} of off_value",
            a.dtype(),
            b.dtype()
        )));
    }
    let d = dtype.or(on.as_ref().map(Tensor::dtype)).or(off.as_ref().map(Tensor::dtype)).unwrap_or(DType::F32);
    let default = |v: i64, what: &str| -> PyResult<Tensor> {
        crate::args::run_quiet(|| lattensor::constant_as(v, d)).map_err(|_| {
            PyTypeError::new_err(format!(
                "one_hot: the default {what} {v} does not convert to {d}; pass on_value and off_value of that dtype"
            ))
        })
    };
    let on = match on {
        Some(t) => t,
        None => default(1, "on_value")?,
    };
    let off = match off {
        Some(t) => t,
        None => default(0, "off_value")?,
    };
    let work = idx.numel().saturating_mul(usize::try_from(depth).unwrap_or(0));
    run(py, work, || lattensor::one_hot(&idx, depth, &on, &off, axis.unwrap_or(-1))).map(PyTensor::new)
}

/// `tf.unique(x, out_idx=tf.int32)` (the `(y, idx)` pair; the Python package wraps it in a named tuple).
#[pyfunction]
#[pyo3(signature = (x, out_idx = None, name = None))]
pub fn unique(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    out_idx: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<(PyTensor, PyTensor)> {
    let _ = name;
    let (t, d) = (args::to_tensor(x)?, opt_dtype(out_idx)?.unwrap_or(DType::I32));
    let (y, idx) = run(py, t.numel(), || lattensor::unique(&t, d))?;
    Ok((PyTensor::new(y), PyTensor::new(idx)))
}

/// `tf.unique_with_counts(x, out_idx=tf.int32)` (the `(y, idx, count)` triple).
#[pyfunction]
#[pyo3(signature = (x, out_idx = None, name = None))]
pub fn unique_with_counts(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    out_idx: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<(PyTensor, PyTensor, PyTensor)> {
    let _ = name;
    let (t, d) = (args::to_tensor(x)?, opt_dtype(out_idx)?.unwrap_or(DType::I32));
    let (y, idx, count) = run(py, t.numel(), || lattensor::unique_with_counts(&t, d))?;
    Ok((PyTensor::new(y), PyTensor::new(idx), PyTensor::new(count)))
}

/// `tf.convert_to_tensor(value, dtype=None)`: same as `constant`, except that a
/// tensor or variable is never converted: with a `dtype` other than its own it is a
/// `ValueError`, as in TF (`tf.constant(tensor, dtype)` converts where the promotion
/// allows).
#[pyfunction]
#[pyo3(signature = (value, dtype = None, dtype_hint = None, name = None))]
pub fn convert_to_tensor(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    dtype: Opt<'_, '_>,
    dtype_hint: Opt<'_, '_>,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = dtype_hint;
    let held = match (value.cast::<PyTensor>(), value.cast::<crate::classes::PyVariable>()) {
        (Ok(t), _) => Some(("Tensor", t.borrow().t.dtype())),
        (_, Ok(v)) => Some(("Variable", v.get().v.dtype())),
        _ => None,
    };
    if let (Some((kind, have)), Some(d)) = (held, opt_dtype(dtype)?)
        && have != d
    {
        return Err(crate::errors::invalid_value(format!(
            "convert_to_tensor: conversion requested dtype {d} for a {kind} of dtype {have}; \
             convert it explicitly with `tf.cast(x, tf.{})`, or use `tf.constant(x, tf.{})`, \
             which converts where the promotion allows",
            d.name(),
            d.name()
        )));
    }
    constant(py, value, dtype, None, name)
}

/// The result type of the operands in the current mode: `(dtype, weak)`.
#[pyfunction]
#[pyo3(signature = (*operands))]
pub fn result_type(operands: &Bound<'_, PyTuple>) -> PyResult<(crate::classes::PyDType, bool)> {
    let mut types = Vec::with_capacity(operands.len());
    for o in operands.iter() {
        let t = match o.cast::<crate::classes::PyDType>() {
            Ok(d) => lattensor::LatticeType::strong(d.get().d),
            Err(_) if o.is_instance_of::<pyo3::types::PyType>() || o.is_instance_of::<pyo3::types::PyString>() => {
                lattensor::LatticeType::strong(as_dtype(&o)?)
            }
            // a NumPy dtype instance, `np.dtype(np.float32)`, as in TF; a structured one is refused as TF does
            Err(_) if o.is_instance(&args::numpy(o.py())?.getattr("dtype")?)? => {
                if !o.getattr("fields")?.is_none() {
                    return Err(pyo3::exceptions::PyNotImplementedError::new_err(format!(
                        "result_type: structured NumPy dtype {o} has no TF dtype"
                    )));
                }
                lattensor::LatticeType::strong(as_dtype(&o)?)
            }
            Err(_) => args::lattice_type_of(&o)?,
        };
        types.push(t);
    }
    let r = crate::args::run_quiet(|| lattensor::promote::result_type(&types)).py()?;
    Ok((crate::classes::PyDType { d: r.dtype }, r.weak))
}

/// Rebuilds a pickled tensor.
/// `lattensor._lattensor._with_weak(x, weak)`: `x` marked weak or strong (the
/// same storage; weakness is ignored for dtypes that cannot be weak).
#[pyfunction]
pub fn _with_weak(x: &Bound<'_, PyAny>, weak: bool) -> PyResult<PyTensor> {
    Ok(PyTensor::new(args::to_tensor(x)?.with_weak(weak)))
}

#[pyfunction]
pub fn _from_bytes(data: &[u8], shape: Vec<usize>, dtype: &str, weak: bool) -> PyResult<PyTensor> {
    let d = DType::parse(dtype).py()?;
    Tensor::from_bytes(data, &shape, d).py().map(|t| PyTensor::new(t.with_weak(weak)))
}

/// The largest tensor (in bytes) lattensor allocates; larger requests raise ResourceExhaustedError.
#[pyfunction]
pub fn max_tensor_bytes() -> u64 {
    lattensor::max_tensor_bytes()
}

/// Sets the allocation limit of [`max_tensor_bytes`].
#[pyfunction]
pub fn set_max_tensor_bytes(n: u64) {
    lattensor::set_max_tensor_bytes(n)
}

/// `tf.identity(input)`: the same tensor (dtype and weakness kept).
#[pyfunction]
#[pyo3(signature = (input, name = None))]
pub fn identity(input: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    Ok(PyTensor::new(lattensor::identity(&args::to_tensor(input)?)))
}

/// `tf.stop_gradient(input)`: the same tensor (lattensor has no gradients).
#[pyfunction]
#[pyo3(signature = (input, name = None))]
pub fn stop_gradient(input: &Bound<'_, PyAny>, name: Opt<'_, '_>) -> PyResult<PyTensor> {
    let _ = name;
    Ok(PyTensor::new(lattensor::stop_gradient(&args::to_tensor(input)?)))
}

/// `tf.debugging.check_numerics(tensor, message)`: raises InvalidArgumentError on NaN or Inf.
#[pyfunction]
#[pyo3(signature = (tensor, message, name = None))]
pub fn check_numerics(
    py: Python<'_>,
    tensor: &Bound<'_, PyAny>,
    message: &str,
    name: Opt<'_, '_>,
) -> PyResult<PyTensor> {
    let _ = name;
    let t = args::to_tensor(tensor)?;
    run(py, t.numel(), || lattensor::debugging::check_numerics(&t, message)).map(PyTensor::new)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_unary(m)?;
    register_binary(m)?;
    register_reductions(m)?;
    for f in [
        wrap_pyfunction!(constant, m)?,
        wrap_pyfunction!(cast, m)?,
        wrap_pyfunction!(bitcast, m)?,
        wrap_pyfunction!(einsum, m)?,
        wrap_pyfunction!(numpy_einsum, m)?,
        wrap_pyfunction!(raw_einsum, m)?,
        wrap_pyfunction!(matmul, m)?,
        wrap_pyfunction!(matrix_transpose, m)?,
        wrap_pyfunction!(clip_by_value, m)?,
        wrap_pyfunction!(concat, m)?,
        wrap_pyfunction!(argmax, m)?,
        wrap_pyfunction!(argmin, m)?,
        wrap_pyfunction!(stack, m)?,
        wrap_pyfunction!(r#where, m)?,
        wrap_pyfunction!(scalar_mul, m)?,
        wrap_pyfunction!(reshape, m)?,
        wrap_pyfunction!(expand_dims, m)?,
        wrap_pyfunction!(squeeze, m)?,
        wrap_pyfunction!(transpose, m)?,
        wrap_pyfunction!(broadcast_to, m)?,
        wrap_pyfunction!(atan2, m)?,
        wrap_pyfunction!(gather, m)?,
        wrap_pyfunction!(unsorted_segment_sum, m)?,
        wrap_pyfunction!(split, m)?,
        wrap_pyfunction!(pad, m)?,
        wrap_pyfunction!(one_hot, m)?,
        wrap_pyfunction!(unique, m)?,
        wrap_pyfunction!(unique_with_counts, m)?,
        wrap_pyfunction!(convert_to_tensor, m)?,
        wrap_pyfunction!(result_type, m)?,
        wrap_pyfunction!(_from_bytes, m)?,
        wrap_pyfunction!(_with_weak, m)?,
        wrap_pyfunction!(max_tensor_bytes, m)?,
        wrap_pyfunction!(identity, m)?,
        wrap_pyfunction!(stop_gradient, m)?,
        wrap_pyfunction!(check_numerics, m)?,
        wrap_pyfunction!(set_max_tensor_bytes, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
