"""Writes small .npy files as seed inputs for the `npy` fuzz target into
crates/lattensor/tests/data/fuzz_regressions/npy/ (replayed by
tests/fuzz_regressions.rs): every dtype numpy can write for lattensor, a
bfloat16 array (ml_dtypes, descr '<V2'), Fortran order, big-endian, format
version 2.0, empty and 0-d arrays.

Run with a Python that has numpy and ml_dtypes:
    python scripts/golden/npy_fuzz_seeds.py
"""
import io
import pathlib

import ml_dtypes
import numpy as np

out = pathlib.Path(__file__).resolve().parents[2] / "crates/lattensor/tests/data/fuzz_regressions/npy"
out.mkdir(parents=True, exist_ok=True)


def save(name, arr, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, arr)
    else:
        np.lib.format.write_array(buf, arr, version=version)
    (out / f"seed_{name}.npy").write_bytes(buf.getvalue())


save("bool", np.array([True, False, True]))
for dt in ["u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8", "f2", "f4", "f8", "c8", "c16"]:
    save(dt, np.arange(6, dtype=dt).reshape(2, 3))
save("bf16", np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16))
save("fortran_i2", np.asfortranarray(np.arange(6, dtype="i2").reshape(2, 3)))
save("big_endian_f4", np.array([1.5, -2.0], dtype=">f4"))
save("big_endian_c16", np.array([1 + 2j], dtype=">c16"))
save("v2_f8", np.array([3.25]), version=(2, 0))
save("empty", np.zeros((0, 3), dtype="f4"))
save("scalar", np.array(7, dtype="i8"))
