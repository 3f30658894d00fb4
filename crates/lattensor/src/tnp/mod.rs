//! `tf.experimental.numpy` (tnp): NumPy-style functions with TF-NumPy's
//! dtype rules under WeakTensor semantics
//! (`tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")`).
//!
//! Every function takes *array-like* input: anything [`Into<Value>`] — a
//! `&Tensor` (keeps its dtype and weakness), a Rust literal (weak, like a
//! Python scalar: `3` is `i32*`, `2.5` is `f32*`), or a (nested) `Vec`/array of
//! literals (weak, like a Python list). Arguments follow tnp's signatures:
//! axes are [`Axes`] (an `i32`, a list, or `None`/[`Axes::All`]), `keepdims`,
//! `dtype: Option<DType>` where tnp has it, and so on.
//!
//! The rules, measured on TF 2.21 (`scripts/golden/tnp_golden.py`):
//!
//! * **Weakness**: the result is weak iff the input is weak, no `dtype` is
//!   given, and the result dtype can be weak (int32, int64, float32, float64,
//!   complex128). `sin(2)` is `f32*`, `signbit(2.0)` is strong bool.
//! * **Float functions** (`sin`, `exp`, `sqrt`, `floor`, `mean`, `std`, …)
//!   compute integer and bool inputs in the default float type, float32
//!   (`sin(int64) → float32`, `mean(i32*) → f32*`); float and complex
//!   inputs keep their dtype.
//! * **`sum`, `prod`, `cumsum`, `cumprod`, `trace`** widen bool, 8- and 16-bit
//!   integers to 32 bits, keeping signedness (`sum(int8) → int32`,
//!   `sum(uint8) → uint32`).
//! * **Shape functions** (`flip`, `swapaxes`, `moveaxis`, `diagonal`,
//!   `ravel`, `transpose`, …) keep dtype and weakness and return views where
//!   the layout allows (negative strides for flips, permuted strides for axis
//!   moves, a strided diagonal).
//!
//! Where TF 2.21 breaks these rules (e.g. `log2(float32) → float64`,
//! `bfloat16` computed as float32, `arccosh` dropping weakness), lattensor
//! follows the rule; `docs/deviations.md` lists each case.
//!
//! Names are tnp's (`numpy::max`, `numpy::abs`, `numpy::copy`, …); call them
//! through the module path, as a glob import would shadow common names.
//!
//! ```
//! use lattensor::{numpy, DType, Tensor};
//! let x = Tensor::from_vec(vec![1i8, 2, 3, 4], &[2, 2]).unwrap();
//! let s = numpy::sum(&x, None, None, false).unwrap();         // int8 → int32
//! assert_eq!((s.dtype(), s.item::<i32>().unwrap()), (DType::I32, 10));
//! let m = numpy::mean([1, 2], None, None, false).unwrap();    // a list of Python ints is weak
//! assert_eq!((m.dtype(), m.is_weak(), m.item::<f32>().unwrap()), (DType::F32, true, 1.5));
//! let f = numpy::flip(&x, 0).unwrap();                         // a view with negative strides
//! assert!(f.shares_storage_with(&x));
//! assert_eq!(f.to_vec::<i8>().unwrap(), vec![3, 4, 1, 2]);
//! ```

mod binary;
mod creation;
mod grids;
mod index;
mod logic;
mod math;
mod products;
mod reduce;
mod shape;
mod sort;
mod spacing;
mod split;
mod stack;

pub use binary::{clip, float_power, gcd, lcm, logaddexp, logaddexp2, nextafter};
pub use creation::{
    arange, array, asanyarray, asarray, ascontiguousarray, copy, empty_like, full, full_like, ones_like, zeros_like,
};
pub use grids::{Indexing, diag_indices, eye, ix_, meshgrid, polyval, select, tri, tril, where_};
pub use index::{broadcast_arrays, compress, nonzero, roll, take_along_axis, tile};
pub use logic::{
    all, allclose, any, array_equal, count_nonzero, isclose, iscomplex, isfinite, isinf, isnan, isneginf, isposinf,
    isreal, logical_and, logical_not, logical_or, logical_xor,
};
pub use math::{
    abs, absolute, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, around, bitwise_not, cbrt, ceil,
    conj, conjugate, cos, cosh, deg2rad, exp, exp2, expm1, fabs, fix, floor, heaviside, hypot, imag, log, log1p, log2,
    log10, negative, positive, rad2deg, real, reciprocal, round, sign, signbit, sin, sinc, sinh, sqrt, square, tan,
    tanh,
};
pub use products::{TensordotAxes, cross, dot, inner, kron, matmul, outer, tensordot, tensordot_preferred, vdot};
pub use reduce::{
    amax, amin, average, average_returned, cumprod, cumsum, max, mean, min, nanmean, nanprod, nansum, prod, ptp, std,
    std_dtype, sum, trace, var,
};
pub use shape::{
    Order, diag, diagflat, diagonal, diff, expand_dims, flatten, flatten_in, flip, fliplr, flipud, moveaxis, ravel,
    repeat, reshape, reshape_in, rot90, squeeze, swapaxes, take, transpose, triu, vander,
};
pub use split::{Sections, append, dsplit, hsplit, pad, split, vsplit};

pub use sort::{argsort, sort};
pub use spacing::{geomspace, linspace, linspace_with_step, logspace};
pub use stack::{atleast_1d, atleast_2d, atleast_3d, dstack, hstack, vstack};

pub use crate::ops::Axes;
pub use crate::ops::creation::Value;

use crate::core::error::Result;
use crate::core::tape::TapeOp;
use crate::{DType, Tensor};

/// The tape's description of an op whose output elements are copies of its
/// input's elements or fillers: `pick`, applied to a tensor of the input's
/// element positions, gives each output element's source ([`TapeOp::Select`]).
fn selection(pick: impl Fn(&Tensor) -> Result<Tensor> + 'static) -> TapeOp {
    TapeOp::Select(std::rc::Rc::new(move |t: &[Tensor]| pick(&t[0])))
}

/// tnp's default float type under WeakTensor semantics (`np_utils.result_type(float)`).
pub const DEFAULT_FLOAT: DType = DType::F32;

/// Converts array-like input to a tensor (`tnp.asarray` without a dtype).
fn to_tensor(x: impl Into<Value>) -> Result<Tensor> {
    crate::constant(x)
}

/// Bool and integer tensors become the default float type, keeping weakness;
/// floats and complex numbers are returned as they are.
fn to_inexact(x: &Tensor) -> Result<Tensor> {
    if x.dtype().is_inexact() {
        return Ok(x.clone());
    }
    Ok(x.cast(DEFAULT_FLOAT)?.with_weak(x.is_weak()))
}

/// The accumulation type of tnp's `sum`/`prod`/`cumsum`/`cumprod`/`trace`:
/// bool and integers narrower than 32 bits widen to 32 bits, keeping signedness.
fn widened_int(d: DType) -> DType {
    match d {
        DType::Bool | DType::I8 | DType::I16 => DType::I32,
        DType::U8 | DType::U16 => DType::U32,
        d => d,
    }
}

/// `x` cast to `dtype` (strong, as an explicit dtype argument always makes it), or `x` itself.
fn cast_opt(x: Tensor, dtype: Option<DType>) -> Result<Tensor> {
    match dtype {
        Some(d) => x.cast(d),
        None => Ok(x),
    }
}
