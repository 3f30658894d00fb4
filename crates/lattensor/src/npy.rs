//! Reading and writing NumPy `.npy` files.
