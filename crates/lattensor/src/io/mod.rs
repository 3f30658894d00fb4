//! Tensors in and out of the process: `.npy` files and text.

pub mod display;
pub mod npy;
