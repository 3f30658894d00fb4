//! `tf.bitwise`.
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tf.bitwise.bitwise_and` | [`bitwise_and`] (also `&t & &u`) |
//! | `tf.bitwise.bitwise_or` | [`bitwise_or`] (also `&t | &u`) |
//! | `tf.bitwise.bitwise_xor` | [`bitwise_xor`] (also `&t ^ &u`) |
//! | `tf.bitwise.invert` | [`invert`] |
//! | `tf.bitwise.left_shift` | [`left_shift`] (also `&t << &u`) |
//! | `tf.bitwise.right_shift` | [`right_shift`] (also `&t >> &u`) |
//!
//! The binary ops promote through the lattice and keep weakness; TF 2.21 does
//! not promote them (`int8 | int16` raises there).
//!
//! ```
//! use lattensor::{bitwise, Tensor};
//! let x = Tensor::from_vec(vec![0u8, 0b1010_0000], &[2]).unwrap();
//! assert_eq!(bitwise::invert(&x).unwrap().to_vec::<u8>().unwrap(), vec![255, 0b0101_1111]);
//! let y = (&x | 1).unwrap(); // u8 ⊔ i32* = u8
//! assert_eq!(y.to_vec::<u8>().unwrap(), vec![1, 0b1010_0001]);
//! ```

pub use crate::ops::{bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift};
