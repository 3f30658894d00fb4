//! `tf.linalg`: matrix products and diagonals under their TF names.
//!
//! `tf.linalg.<name>` is `lattensor::linalg::<name>`. `matmul(a, b,
//! transpose_a, transpose_b)` has TF's flags; [`matmul_ext`] adds
//! `adjoint_a`/`adjoint_b`. `tf.linalg.einsum` is [`einsum`]. `diag`/`diag_part`
//! take the main diagonal; [`diag_ext`]/[`diag_part_ext`] add TF's `k`,
//! `num_rows`/`num_cols`, `padding_value` and `align`.
//!
//! ```
//! use lattensor::{linalg, DType, Tensor};
//! let a = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
//! let b = Tensor::from_vec(vec![1.0f32, 0.0, 0.0, 1.0], &[2, 2]).unwrap();
//! let c = linalg::matmul(&a, &b, false, false).unwrap(); // int32 @ float32 → float32
//! assert_eq!((c.dtype(), c.to_vec::<f32>().unwrap()), (DType::F32, vec![1.0, 2.0, 3.0, 4.0]));
//! assert_eq!(linalg::trace(&a).unwrap().item::<i32>().unwrap(), 5);
//! ```

pub use crate::einsum::einsum;
pub use crate::ops::matrix::{
    DiagAlign, band_part, diag, diag_ext, diag_part, diag_part_ext, matmul, matmul_ext, matrix_transpose, set_diag,
    tensor_diag_part, trace,
};
