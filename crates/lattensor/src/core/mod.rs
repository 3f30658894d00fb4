//! The data model: what a tensor is, below every op and kernel.
//!
//! | module | holds |
//! |---|---|
//! | [`dtype`] | [`DType`](dtype::DType), its kinds and metadata (`finfo`/`iinfo`) |
//! | [`element`] | the Rust element types behind each dtype and their casts |
//! | [`lowp`] | the 8-bit and 4-bit element types and their correctly rounded conversions |
//! | [`scalar`] | one value of any dtype, and the operand of a binary op (tensor or literal) |
//! | [`storage`] | shared, 64-byte-aligned bytes with a size limit |
//! | [`layout`] | shape, strides and offset; views (reshape, transpose, slicing, broadcasting) |
//! | [`tensor`] | storage + layout + dtype + weakness |
//! | [`tape`] | tensor identities and the records gradient tapes keep |
//! | [`error`] | [`Error`](error::Error) and its categories |
//!
//! Nothing here calls an op or a kernel: data flows down, from the facades
//! through `ops` and `kernels` to these types.

pub(crate) mod dtype;
pub(crate) mod element;
pub(crate) mod error;
pub(crate) mod layout;
pub(crate) mod lowp;
pub(crate) mod scalar;
pub(crate) mod storage;
pub(crate) mod tape;
pub(crate) mod tensor;
