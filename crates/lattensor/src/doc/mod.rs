//! Standalone documentation pages.
//!
//! - [`tf_numpy_users`]: lattensor for users of TensorFlow's NumPy behaviour
//!   (`tf.experimental.numpy`), name by name.

pub mod tf_numpy_users;
