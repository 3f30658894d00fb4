"""`preferred_element_type` on matmul, einsum and tensordot, measured with JAX.

Writes python/tests/data/jax_preferred_element_type.json, read by
python/tests/test_preferred_element_type.py. Run in a venv with jax[cpu],
numpy and ml_dtypes:

    python scripts/golden/jax_preferred_element_type.py

Each case names an op, the operands' dtypes and shapes (their values follow
from a seed by the formula in `values`, which the test repeats), the preferred
dtype, and JAX's result: its dtype and values, or the exception class JAX
raised. Float operands hold small multiples of 1/8 so that every sum is exact
in float32 and the result does not depend on the summation order.
"""
import json
import os

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "python", "tests", "data",
                   "jax_preferred_element_type.json")

RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767), "uint16": (0, 65535),
          "int32": (-2**31, 2**31 - 1), "int4": (-8, 7), "uint4": (0, 15), "bool": (0, 1)}


def values(dtype, shape, seed):
    """Deterministic operand values: integers over the dtype's range; floats k/8 with |k| <= 12."""
    n = int(np.prod(shape))
    u = (np.arange(seed * 7919, seed * 7919 + n, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(2**32)
    if dtype in RANGES:
        lo, hi = RANGES[dtype]
        v = (lo + (u.astype(object) * (hi - lo + 1)) // 2**32)
        return np.array([int(x) for x in v], dtype=np.int64).reshape(shape)
    return ((u % np.uint64(25)).astype(np.float64) - 12.0).reshape(shape) / 8.0


def as_jax(v, dtype):
    return jnp.asarray(np.asarray(v).astype(np.dtype(getattr(ml_dtypes, dtype, None) or dtype)))


CASES = []


def case(op, dtypes, shapes, preferred, extra=None):
    CASES.append(dict(op=op, dtypes=dtypes, shapes=shapes, preferred=preferred, extra=extra or {}))


INTS = ["int8", "uint8", "int4", "uint4", "int16", "bool"]
for a in INTS:
    for b in INTS:
        for p in ["int32", "int64", "uint32", "int16"]:
            case("matmul", [a, b], [[5, 37], [37, 6]], p)
FLOATS = ["bfloat16", "float16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"]
for a in FLOATS:
    for b in FLOATS:
        case("matmul", [a, b], [[4, 40], [40, 3]], "float32")
for a, b in [("int8", "float8_e4m3fn"), ("float8_e5m2", "int8"), ("bfloat16", "int8")]:
    case("matmul", [a, b], [[3, 16], [16, 2]], "float32")
# the refused cases (JAX accepts some: documented deviations)
for a, p in [("float32", "int32"), ("complex64", "float64"), ("float64", "float32"), ("int32", "int16"),
             ("float32", "bfloat16"), ("float32", "bool")]:
    case("matmul", [a, a], [[2, 3], [3, 2]], p)
# depth 2^17 extremes
for x, y, depth in [(-128, -128, 2**17 - 1), (127, 127, 2**17), (-128, 127, 2**17)]:
    case("matmul_fill", ["int8", "int8"], [[2, depth], [depth, 2]], "int32", dict(fill=[x, y]))
case("matmul_fill", ["int8", "int8"], [[1, 2**17], [2**17, 1]], "int32", dict(fill=[-128, -128]))
case("matmul_fill", ["int8", "int8"], [[1, 2**17], [2**17, 1]], "int64", dict(fill=[-128, -128]))
# einsum and tensordot
case("einsum", ["int8", "uint8"], [[6, 5], [5, 4]], "int32", dict(equation="ij,jk->ik"))
case("einsum", ["int8"], [[6, 5]], "int32", dict(equation="ij->i"))
case("einsum", ["int8", "int8"], [[5], [4]], "int32", dict(equation="i,j->ij"))
case("einsum", ["int8", "int8", "int8"], [[6, 5], [5, 4], [4, 3]], "int64", dict(equation="ij,jk,kl->il"))
case("einsum", ["float8_e4m3fn", "float8_e5m2"], [[3, 8], [8, 2]], "float32", dict(equation="ij,jk->ik"))
case("tensordot", ["int8", "int8"], [[3, 4, 5], [4, 5, 2]], "int32", dict(axes=2))
case("tensordot", ["uint8", "uint8"], [[3, 40], [40, 2]], "uint32", dict(axes=1))


def run(c):
    ops = []
    for i, (d, shp) in enumerate(zip(c["dtypes"], c["shapes"])):
        if c["op"] == "matmul_fill":
            ops.append(as_jax(np.full(shp, c["extra"]["fill"][i]), d))
        else:
            ops.append(as_jax(values(d, shp, i + 1), d))
    p = jnp.dtype(c["preferred"])
    if c["op"] in ("matmul", "matmul_fill"):
        return jnp.matmul(ops[0], ops[1], preferred_element_type=p)
    if c["op"] == "einsum":
        return jnp.einsum(c["extra"]["equation"], *ops, preferred_element_type=p)
    return jnp.tensordot(ops[0], ops[1], axes=c["extra"]["axes"], preferred_element_type=p)


out = []
for c in CASES:
    rec = dict(c)
    try:
        r = np.asarray(run(c))
        rec["dtype"] = str(r.dtype)
        rec["shape"] = list(r.shape)
        if r.dtype.kind in "iu":
            rec["values"] = [int(x) for x in r.ravel()]
        else:
            rec["values"] = [float(x) for x in r.astype(np.float64).ravel()]
    except Exception as e:  # noqa: BLE001 - the class is the datum
        rec["error"] = type(e).__name__
        rec["message"] = str(e).splitlines()[0][:200]
    out.append(rec)

with open(OUT, "w") as f:
    json.dump(dict(jax=jax.__version__, ml_dtypes=ml_dtypes.__version__, numpy=np.__version__, cases=out), f, indent=0)
print(f"{len(out)} cases -> {OUT}; errors: {sum('error' in r for r in out)}")
