"""Promotion of the eight low-precision dtypes, measured with JAX and with NumPy + ml_dtypes.

Writes crates/lattensor/tests/data/lowp_promotion.json, read by
crates/lattensor/tests/lowp_promotion.rs. Run in a venv with jax[cpu],
numpy and ml_dtypes:

    python scripts/golden/lowp_promotion.py

Operands are the 28 lattice nodes of lattensor: the 23 dtypes (strong) and
the weak kinds i32* i64* f32* f64* c128*, which JAX and NumPy see as Python
scalars (1, 1.0, 1j). For every pair with at least one low-precision dtype it
records

* `jax` / `jax_strict`: `jax.dtypes.result_type(a, b, return_weak_type_flag=True)`
  in the standard and the strict `jax_numpy_dtype_promotion` (with x64 on, so
  64-bit results are not canonicalised to 32 bits), as `"dtype"` or
  `"dtype*"` (weak), or `null` where JAX raises TypePromotionError;
* `numpy`: `np.result_type(a, b)` with ml_dtypes' dtypes, `null` where NumPy raises.
"""
import json
import os

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

CORE = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
        "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
LOWP = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
        "float4_e2m1fn", "int4", "uint4"]
WEAK = {"i32*": 1, "i64*": 1, "f32*": 1.0, "f64*": 1.0, "c128*": 1j}
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "lattensor", "tests", "data", "lowp_promotion.json")


def operand(name):
    if name in WEAK:
        return WEAK[name]
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def jax_result(a, b):
    try:
        dt, weak = jax.dtypes.result_type(operand(a), operand(b), return_weak_type_flag=True)
    except jax.dtypes.TypePromotionError:
        return None
    return np.dtype(dt).name + ("*" if weak else "")


def numpy_result(a, b):
    try:
        return np.result_type(operand(a), operand(b)).name
    except (TypeError, ValueError):
        return None


def main():
    nodes = CORE + LOWP + list(WEAK)
    pairs = [(a, b) for a in nodes for b in nodes if a in LOWP or b in LOWP]
    out = {"jax": jax.__version__, "ml_dtypes": ml_dtypes.__version__, "numpy": np.__version__,
           "pairs": [[a, b] for a, b in pairs], "jax_standard": [], "jax_strict": [], "numpy_result_type": []}
    for a, b in pairs:
        out["jax_standard"].append(jax_result(a, b))
        out["numpy_result_type"].append(numpy_result(a, b))
    with jax.numpy_dtype_promotion("strict"):
        for a, b in pairs:
            out["jax_strict"].append(jax_result(a, b))
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {os.path.normpath(OUT)}: {len(pairs)} pairs")


if __name__ == "__main__":
    main()
