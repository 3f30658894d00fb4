//! The compute kernels, by concern:
//!
//! - [`elementwise`]: the element-wise drivers (`binary`, `unary`, …) over any
//!   layouts and input dtypes; [`copy`]: row-major copies and conversions.
//! - [`fused_half`]: f16/bf16 loops that compute in f32 registers.
//! - [`strided`]: walking an N-d layout as runs of constant stride.
//! - [`parallel`] (when to go parallel) over [`pool`] (the fork-join pool).
//! - [`simd`]: instruction-set dispatch, lane folds, CPU and cache detection,
//!   prefetches and streaming stores, vectorised conversions; [`exp`].
//! - [`matmul`] (batched matrix products over strided views, choosing
//!   `gemm` or a plain loop) and [`sums`] (sums, long and compensated, and
//!   row/column sums); [`extremum`] (the folds of `reduce_max` and `reduce_min`).
//! - [`taylor`]: piecewise polynomials with a double-double head (the Bessel
//!   functions' tables), one element or 32 at a time.

pub(crate) mod copy;
pub(crate) mod dd;
pub(crate) mod decomp;
pub(crate) mod elementwise;
pub(crate) mod exp;
pub(crate) mod extremum;
pub(crate) mod fft;
pub(crate) mod fused_half;
#[cfg(target_arch = "x86_64")]
pub(crate) mod gemm;
pub(crate) mod igemm;
pub(crate) mod matmul;
pub(crate) mod parallel;
pub(crate) mod pool;
pub(crate) mod simd;
pub(crate) mod strided;
pub(crate) mod sums;
pub(crate) mod taylor;

pub(crate) use copy::{copy_into, row_major};
pub(crate) use elementwise::{
    BLOCK, Input, Sink, Streaming, binary, binary_to, binary_via, for_each_block, unary, unary_slices_compute_bound,
};
pub(crate) use parallel::{PAR_CHUNK, PAR_MIN, for_chunks, multithreaded, par_for_each, par_map, par_map_chunks};
