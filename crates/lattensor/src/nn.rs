//! `tf.nn`: activations and NHWC layout ops under their TF names.
//!
//! `tf.nn.<name>` is `lattensor::nn::<name>`; TF's optional arguments are
//! explicit (`leaky_relu(x, alpha)` with TF's default `alpha = 0.2`,
//! `gelu(x, approximate)`, `swish(x, beta)` with `beta = 1` for TF's default,
//! `log_softmax(x, axis)` with `axis = -1`, `space_to_depth(x, block_size)`).
//! `silu` is TF's other name for `swish`.
//!
//! ```
//! use lattensor::{nn, Tensor};
//! let x = Tensor::from_vec(vec![-1.0f32, 0.5, 8.0], &[3]).unwrap();
//! assert_eq!(nn::relu6(&x).unwrap().to_vec::<f32>().unwrap(), vec![0.0, 0.5, 6.0]);
//! let l = nn::leaky_relu(&x, 0.2).unwrap().to_vec::<f32>().unwrap();
//! assert_eq!(l[0], -0.2);
//! ```

pub use crate::ops::activation::{
    depth_to_space, elu, gelu, leaky_relu, log_softmax, relu, relu6, selu, softmax, softsign, space_to_depth, swish,
    swish as silu,
};
pub use crate::ops::{sigmoid, softplus};
