//! `tf.linalg`: matrix products and diagonals under their TF names.
//!
//! `tf.linalg.<name>` is `lattensor::linalg::<name>`. `matmul(a, b,
//! transpose_a, transpose_b)` has TF's flags; [`matmul_ext`] adds
//! `adjoint_a`/`adjoint_b`. `tf.linalg.einsum` is [`einsum`].
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
pub use crate::ops::matrix::{diag, diag_part, matmul, matmul_ext, matrix_transpose, tensor_diag_part, trace};
