//! `tf.bitwise`.
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tf.bitwise.invert` | [`invert`] |
//!
//! ```
//! use lattensor::{bitwise, Tensor};
//! let x = Tensor::from_vec(vec![0u8, 0b1010_0000], &[2]).unwrap();
//! assert_eq!(bitwise::invert(&x).unwrap().to_vec::<u8>().unwrap(), vec![255, 0b0101_1111]);
//! ```

pub use crate::ops::invert;
