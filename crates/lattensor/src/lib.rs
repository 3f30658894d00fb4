//! # lattensor
//!
//! Tensors with runtime dtypes, weak types, and TensorFlow-NumPy's
//! lattice-based type promotion.
//!
//! * [`DType`]: bool, u8–u64, i8–i64, bf16, f16, f32, f64, c64, c128, and the
//!   storage-and-cast types float8 (five kinds), float4_e2m1fn, int4, uint4.
//! * Weak types (`i32*`, `i64*`, `f32*`, `f64*`, `c128*`): the type of a value
//!   nobody declared, such as a Rust literal. They adapt to strong operands.
//! * [`promote`]: one lattice, four modes (`All`, `Safe`, `Strict`, `NumPy`),
//!   chosen per call or by a scoped thread-local default.
//! * [`Tensor`]: shared aligned storage plus a strided layout; views never copy.
//! * [`ops`]: arithmetic that promotes first and dispatches once.
//! * [`Variable`]: mutable, thread-safe state whose dtype never changes.
//! * TF's grouping: [`math`] (with [`math::special`]), [`nn`], [`linalg`],
//!   [`image`], [`random`] (TF's stateless generators, bit for bit), [`bitwise`],
//!   [`debugging`]; TF's top-level functions
//!   ([`identity`], [`reshape`], [`transpose`], [`clip_by_value`], …) at the root.
//! * [`doc::tf_numpy_users`]: TF-NumPy's API mapped to lattensor's, name by name.
//!
//! ```
//! use lattensor::{constant, DType, Tensor};
//! use lattensor::promote::{with_mode, PromotionMode};
//!
//! // int32 + float32 → float32 (the lattice keeps the float's width)
//! let a = Tensor::scalar(10i32);
//! let b = Tensor::scalar(5.0f32);
//! let c = (&a + &b).unwrap();
//! assert_eq!(c.to_string(), "<Tensor: shape=(), dtype=float32, numpy=15.0>");
//!
//! // a weak literal adapts to the strong operand: f16 + 1.2 stays f16
//! let h = Tensor::scalar(half::f16::from_f32(3.1));
//! assert_eq!((&h + 1.2).unwrap().dtype(), DType::F16);
//!
//! // Safe mode refuses lossy promotions with an error that says what to do
//! let err = with_mode(PromotionMode::Safe, || &a + &b).unwrap_err();
//! assert!(err.to_string().contains("implicit dtype promotion between (int32, weak=False) and (float32, weak=False)"));
//!
//! // weak values stay weak through unary ops and among themselves
//! let w = (-&constant(5).unwrap()).unwrap();
//! assert!(w.is_weak());
//! ```
#![warn(missing_docs)]

pub mod autodiff;
mod core;
mod dispatch;
pub mod doc;
pub mod einsum;
mod io;
mod kernels;
pub mod ops;
pub mod promote;
pub mod tnp;

// TF's grouping: each module names ops implemented in `ops` (and `einsum`,
// `random`, `image`) under their `tf.<group>.<name>` paths.
pub mod bitwise;
pub mod debugging;
pub mod image;
pub mod linalg;
pub mod math;
pub mod nn;
pub mod random;
mod variable;

pub use io::{display, npy};
/// The old name of [`tnp`] (`tf.experimental.numpy`).
#[doc(hidden)]
pub use tnp as numpy;

pub use crate::core::dtype::{DType, FInfo, IInfo, Kind};
pub use crate::core::element::Element;
pub use crate::core::error::{Category, Error, Result};
pub use crate::core::layout::{Layout, SliceArg, broadcast_shapes};
pub use crate::core::lowp::{F4E2M1Fn, F8E4M3Fn, F8E4M3Fnuz, F8E5M2, F8E5M2Fnuz, F8E8M0Fnu, I4, U4};
pub use crate::core::scalar::{Operand, Scalar};
pub use crate::core::storage::{
    DEFAULT_MAX_TENSOR_BYTES, DEFAULT_STORAGE_CACHE_BYTES, max_tensor_bytes, set_max_tensor_bytes,
    set_storage_cache_bytes, storage_cache_bytes,
};
pub use crate::core::tensor::Tensor;
pub use autodiff::{GradientTape, Source, UnconnectedGradients, custom_gradient};
pub use ops::array_ops::{
    PadMode, Splits, expand_dims, identity, pad, reshape, split, squeeze, stop_gradient, transpose,
};
pub use ops::bitcast::bitcast;
pub use ops::categorical::{one_hot, unique, unique_with_counts};
pub use ops::combine::{concat, stack, where_};
pub use ops::creation::{
    Value, arange, constant, constant_as, eye, full, full_like, linspace, ones, ones_like, zeros, zeros_like,
};
pub use ops::gather::{TakeMode, gather};
pub use ops::{clip_by_value, realdiv, truncatediv, truncatemod};
pub use promote::{LatticeType, PromotionMode};
pub use variable::Variable;

/// Casts `x` to `dtype` (TF's `tf.cast`); the result is strong.
///
/// # Errors
/// [`Error::ResourceExhausted`] if the result cannot be allocated.
pub fn cast(x: &Tensor, dtype: DType) -> Result<Tensor> {
    x.cast(dtype)
}

// The README's Rust example runs as a doc test, so it cannot go stale.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
