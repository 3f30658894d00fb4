//! The former home of the SIMD primitives and `exp`, re-exported for callers
//! outside `kernels/` that still name these paths; new code uses
//! [`super::simd`] and [`super::exp`].

pub(crate) use super::exp::{exp_f32, exp_f32_slice};
pub(crate) use super::simd::cpu::{LongReads, l2_bytes, long_reads};
pub(crate) use super::simd::stream::store_fence;
pub(crate) use super::simd::{fold_lanes, fold_streams, same, simd};

#[cfg(test)]
pub(crate) mod tests {
    pub(crate) use crate::kernels::simd::cpu::FORCE_STREAM;
}
