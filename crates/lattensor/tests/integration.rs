//! The integration tests, linked into one test binary: each file of this
//! directory is a module (`cargo test -p lattensor --test integration einsum::`
//! runs one). One binary instead of one per file keeps the build to one link
//! of the crate and its dependencies, about 120 MB each in a debug build.
//! `resource_limits.rs` and `fuzz_regressions.rs` are binaries of their own:
//! they lower the process-wide tensor size limit, which would fail unrelated
//! tests running beside them.

mod common;

mod bitcast;
mod bitwise;
mod cast;
mod concurrency;
mod einsum;
mod fft;
mod gradients;
mod gradients_decomp;
mod image;
mod laws;
mod layers;
mod linalg_decomp;
mod lowp_casts;
mod lowp_ops;
mod lowp_promotion;
mod no_panic;
mod npy;
mod ops_dtypes;
mod preferred_element_type;
mod promotion_laws;
mod promotion_tables;
mod random;
mod seeds;
mod special;
mod tf_api_golden;
mod tnp_golden;
mod variable;
