//! Einstein summation: one parser and planner, three front ends.
//!
//! | front end | rules |
//! |---|---|
//! | [`einsum_raw`] | TF's raw `Einsum` op: exactly one `->`, 1 or 2 inputs, any byte but `.` is a label, repeated output labels expand a diagonal (`i->ii`) |
//! | [`einsum`] | `tf.einsum`: letters, spaces ignored, any number of operands, implicit mode with TF's ordering |
//! | [`numpy_einsum`] | `numpy.einsum`: letters, implicit mode with NumPy's ordering, size-1 broadcasting of named labels |
//!
//! All three: repeated input labels take (generalised) diagonals; labels in one
//! input and not in the output are summed; `...` broadcasts by NumPy rules;
//! mixed dtypes promote through the lattice ([`crate::promote`], op name
//! `"einsum"`) and the result is strong; bf16/f16 accumulate in f32; every
//! numeric dtype works, and bool computes `or` of `and`s. There is no rank limit.
//! Every malformed equation is an error naming the equation — nothing panics:
//! [`Error::InvalidValue`](crate::Error) for an equation or operand count the
//! `tf.einsum`/`numpy.einsum` front ends refuse (TF's Python layer raises
//! `ValueError` there), [`Error::InvalidArgument`](crate::Error) for the raw op's
//! equations and for shapes that do not match (the kernel's refusal).
//!
//! With three or more operands the contraction order comes from the planner
//! ([`plan`]): exact (DP over subsets) for few operands, greedy beyond;
//! [`einsum_path`] prints it like `numpy.einsum_path`.
//!
//! ```
//! use lattensor::{einsum, Tensor};
//! let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
//! let b = Tensor::from_vec(vec![5.0f32, 6.0, 7.0, 8.0], &[2, 2]).unwrap();
//! let c = einsum::einsum("ij,jk->ik", &[&a, &b]).unwrap();
//! assert_eq!(c.to_vec::<f32>().unwrap(), vec![19.0, 22.0, 43.0, 50.0]);
//! assert_eq!(einsum::einsum("ii", &[&a]).unwrap().item::<f32>().unwrap(), 5.0); // implicit: trace
//! ```

mod cache;
mod exec;
pub mod numpy;
mod parse;
pub mod plan;
mod taped;

pub use numpy::{einsum as numpy_einsum, einsum_path as numpy_einsum_path};
pub use parse::Front;
pub use plan::{PathOptions, Plan, Step, Strategy};

use crate::core::error::Result;
use crate::promote;
use crate::{DType, Tensor};

/// Runs an einsum with the rules of `front` and path options `opts`.
///
/// ```
/// use lattensor::einsum::{einsum_front, Front, PathOptions, Strategy};
/// use lattensor::Tensor;
/// let v = Tensor::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
/// let opts = PathOptions { strategy: Strategy::Greedy, memory_limit: None };
/// // i,i,i-> : sum of cubes, contracted pairwise in the greedy order
/// let s = einsum_front(Front::NumPy, "i,i,i->", &[&v, &v, &v], opts).unwrap();
/// assert_eq!(s.item::<i64>().unwrap(), 36);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`](crate::Error::InvalidValue) for a malformed equation or a wrong number
/// of operands under [`Front::Tf`] and [`Front::NumPy`];
/// [`Error::InvalidArgument`](crate::Error::InvalidArgument) for those under [`Front::Raw`] and
/// for mismatching shapes; [`Error::Promotion`](crate::Error::Promotion) if the operands' dtypes do not promote in the current mode.
pub fn einsum_front(front: Front, equation: &str, operands: &[&Tensor], opts: PathOptions) -> Result<Tensor> {
    run(front, equation, operands, opts, None)
}

/// [`einsum_front`] accumulating in, and returning, `preferred` (JAX's
/// `preferred_element_type`; the rules are [`crate::ops::preferred`]'s): each
/// operand converts to `preferred` on its own, and byte integers into an integer
/// `preferred` multiply exactly.
///
/// ```
/// use lattensor::einsum::{einsum_preferred, Front, PathOptions};
/// use lattensor::{DType, Tensor};
/// let a = Tensor::from_vec(vec![100i8; 6], &[2, 3]).unwrap();
/// let b = Tensor::from_vec(vec![-100i8; 3], &[3]).unwrap();
/// let y = einsum_preferred(Front::Tf, "ij,j->i", &[&a, &b], PathOptions::default(), DType::I32).unwrap();
/// assert_eq!((y.dtype(), y.to_vec::<i32>().unwrap()), (DType::I32, vec![-30000, -30000]));
/// ```
///
/// # Errors
/// As [`einsum_front`]; [`Error::InvalidType`](crate::Error::InvalidType) for a
/// `preferred` the operands cannot convert to.
pub fn einsum_preferred(
    front: Front,
    equation: &str,
    operands: &[&Tensor],
    opts: PathOptions,
    preferred: DType,
) -> Result<Tensor> {
    crate::ops::preferred::check("einsum", operands, preferred)?;
    let converted =
        operands.iter().map(|t| crate::ops::preferred::convert(t, preferred)).collect::<Result<Vec<Tensor>>>()?;
    let refs: Vec<&Tensor> = converted.iter().collect();
    run(front, equation, &refs, opts, Some(preferred))
}

/// The einsum of `operands` with result dtype `result`, or the operands' promoted one.
fn run(front: Front, equation: &str, operands: &[&Tensor], opts: PathOptions, result: Option<DType>) -> Result<Tensor> {
    let shapes: Vec<&[usize]> = operands.iter().map(|t| t.shape()).collect();
    let prepared = cache::prepared(front, equation, &shapes, opts, || {
        let parsed = parse::parse(front, equation)?;
        let r = parse::resolve(front, &parsed, &shapes)?;
        let path = if operands.len() > 2 {
            plan::plan(&r.labels(), &r.output, &r.sizes, &r.names, opts)?.path()
        } else if operands.len() == 2 {
            vec![vec![0, 1]]
        } else {
            vec![]
        };
        Ok(cache::Prepared { resolved: r, path })
    })?;
    // The taped run promotes its operands itself: it runs when they promote to the
    // result (a preferred dtype converted them all, or none was given).
    let (result, promotes) = match result {
        Some(d) => (d, operands.iter().all(|t| t.dtype() == d)),
        None => {
            let types: Vec<_> = operands.iter().map(|t| t.lattice_type()).collect();
            (promote::result_type_for("einsum", &types, promote::current_mode())?.dtype, true)
        }
    };
    if promotes && crate::core::tape::recording() && operands.iter().any(|t| t.tape_id.get() != 0) {
        return taped::run(&prepared.resolved, operands, &prepared.path);
    }
    exec::execute(&prepared.resolved, operands, result, &prepared.path)
}

/// TF's raw `Einsum` op (`tf.raw_ops.Einsum`), with its crashes turned into errors.
///
/// Exactly one `->`; one or two inputs; every byte except `.` is a label (so
/// `i1,1k->ik` works and spaces are labels); repeated output labels expand the
/// result onto a diagonal (`i->ii` gives `diag(x)`); named labels must have
/// the same size everywhere (no size-1 broadcasting); the ellipsis broadcasts.
///
/// ```
/// use lattensor::{einsum::einsum_raw, Tensor};
/// let x = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
/// let d = einsum_raw("i->ii", &[&x]).unwrap();
/// assert_eq!(d.to_vec::<i32>().unwrap(), vec![1, 0, 0, 0, 2, 0, 0, 0, 3]);
/// let e = einsum_raw("ij,jk", &[&x, &x]).unwrap_err();
/// assert!(e.to_string().contains("Expecting exactly one '->'"));
/// ```
///
/// # Errors
/// As [`einsum_front`].
pub fn einsum_raw(equation: &str, operands: &[&Tensor]) -> Result<Tensor> {
    einsum_front(Front::Raw, equation, operands, PathOptions::default())
}

/// `tf.einsum`: any number of operands, implicit mode, TF's validation.
///
/// Spaces are ignored; labels are ASCII letters; without `->` the output is
/// every label that occurs once, in ASCII order (uppercase first), with the
/// ellipsis first if exactly one term has one (TF drops an ellipsis shared
/// by several terms). Sizes must match exactly. Three or more operands are
/// contracted pairwise in the order [`Strategy::Auto`] finds.
///
/// ```
/// use lattensor::{einsum::einsum, DType, Tensor};
/// let a = Tensor::from_vec(vec![1i32, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
/// let t = einsum("ba", &[&a]).unwrap(); // implicit: transpose
/// assert_eq!(t.shape(), &[3, 2]);
/// assert_eq!(t.to_vec::<i32>().unwrap(), vec![1, 4, 2, 5, 3, 6]);
/// // mixed dtypes promote through the lattice: int32 × float32 → float32
/// let v = Tensor::from_vec(vec![1.0f32, 0.5, 0.25], &[3]).unwrap();
/// let y = einsum("ij,j->i", &[&a, &v]).unwrap();
/// assert_eq!(y.dtype(), DType::F32);
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![2.75, 8.0]);
/// ```
///
/// # Errors
/// As [`einsum_front`].
pub fn einsum(equation: &str, operands: &[&Tensor]) -> Result<Tensor> {
    einsum_front(Front::Tf, equation, operands, PathOptions::default())
}

/// [`einsum`] with explicit path options (strategy, memory limit).
///
/// ```
/// use lattensor::einsum::{einsum_with, PathOptions, Strategy};
/// use lattensor::Tensor;
/// let a = Tensor::from_vec(vec![1.0f64, 2.0], &[1, 2]).unwrap();
/// let b = Tensor::from_vec(vec![3.0f64, 4.0], &[2, 1]).unwrap();
/// let opts = PathOptions { strategy: Strategy::Optimal, memory_limit: Some(4) };
/// let c = einsum_with("ij,jk,kl->il", &[&a, &b, &a], opts).unwrap();
/// assert_eq!(c.to_vec::<f64>().unwrap(), vec![11.0, 22.0]);
/// ```
///
/// # Errors
/// As [`einsum_front`].
pub fn einsum_with(equation: &str, operands: &[&Tensor], opts: PathOptions) -> Result<Tensor> {
    einsum_front(Front::Tf, equation, operands, opts)
}

/// The contraction plan for `equation` over operands of `shapes`, under the
/// rules of `front` — like `numpy.einsum_path` (printable with `Display`).
///
/// ```
/// use lattensor::einsum::{einsum_path, Front, PathOptions};
/// let p = einsum_path(Front::Tf, "ij,jk,kl->il", &[&[2, 100], &[100, 2], &[2, 100]], PathOptions::default()).unwrap();
/// assert_eq!(p.path(), vec![vec![0, 1], vec![0, 1]]);
/// assert_eq!(p.flops, 800 + 800);
/// assert_eq!(p.largest_intermediate, 200);
/// assert!(p.to_string().contains("Optimized FLOP count"));
/// ```
///
/// # Errors
/// As [`einsum_front`] (minus dtype errors).
pub fn einsum_path(front: Front, equation: &str, shapes: &[&[usize]], opts: PathOptions) -> Result<Plan> {
    let parsed = parse::parse(front, equation)?;
    let r = parse::resolve(front, &parsed, shapes)?;
    plan::plan(&r.labels(), &r.output, &r.sizes, &r.names, opts)
}
