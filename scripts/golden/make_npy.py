"""Golden .npy files for crates/lattensor/tests/npy.rs, written by NumPy and ml_dtypes.

Run from the repository root:
    /work/venv/oracle/bin/python scripts/golden/make_npy.py

Every dtype gets `<name>.npy` holding np.arange(6).reshape(2, 3) converted to
that dtype (bool: arange % 3 == 0; complex: k + 0.5k j). Extra files cover the
reader's other paths: Fortran order, big-endian, 0-d, empty, versions 2.0/3.0.
The expected values are restated in the Rust test, so no JSON is needed.
"""
import os

import ml_dtypes
import numpy as np

OUT = os.path.join("crates", "lattensor", "tests", "data", "npy")
os.makedirs(OUT, exist_ok=True)

base = np.arange(6).reshape(2, 3)
dtypes = {
    "bool": np.bool_, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "bfloat16": ml_dtypes.bfloat16, "float16": np.float16, "float32": np.float32, "float64": np.float64,
    "complex64": np.complex64, "complex128": np.complex128,
}


def save(name, arr, version=None):
    path = os.path.join(OUT, name + ".npy")
    if version is None:
        np.save(path, arr)
    else:
        with open(path, "wb") as f:
            np.lib.format.write_array(f, arr, version=version)


for name, dt in dtypes.items():
    if name == "bool":
        arr = base % 3 == 0
    elif name.startswith("complex"):
        arr = (base + 0.5j * base).astype(dt)
    else:
        arr = base.astype(dt)
    save(name, arr)

# Negative values and specials, to check sign handling and NaN/inf bits.
save("int16_neg", np.array([-32768, -1, 0, 32767], np.int16))
save("float32_special", np.array([np.nan, np.inf, -np.inf, -0.0, 1e-45], np.float32))
save("bfloat16_special", np.array([1.5, -0.25, np.inf, 3.0e38], ml_dtypes.bfloat16))

# Fortran order: the same values as base, stored column-major.
save("fortran_int32", np.asfortranarray(base.astype(np.int32)))
save("fortran_f64_3d", np.asfortranarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4)))
# Big-endian descrs.
save("big_int32", base.astype(">i4"))
save("big_float64", base.astype(">f8"))
save("big_complex64", (base + 0.5j * base).astype(">c8"))
save("big_uint16_fortran", np.asfortranarray(base.astype(">u2")))
# Shapes.
save("scalar_f32", np.array(2.5, np.float32))
save("empty_i64", np.zeros((0, 3), np.int64))
# Header versions.
save("v2_int32", base.astype(np.int32), version=(2, 0))
save("v3_int32", base.astype(np.int32), version=(3, 0))
print("wrote", len(os.listdir(OUT)), "files to", OUT)
