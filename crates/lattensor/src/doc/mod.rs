//! Standalone documentation pages.
//!
//! - [`inside`]: how the crate is built: its layers, where each rule lives,
//!   and the path of one op from the API to the kernel.
//! - [`tf_numpy_users`]: lattensor for users of TensorFlow's NumPy behaviour
//!   (`tf.experimental.numpy`), name by name.

pub mod inside;
pub mod tf_numpy_users;
