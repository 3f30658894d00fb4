#!/usr/bin/env python3
"""TF 2.21's Python signatures of the modules lattensor mirrors.

For every public function of tf, tf.math, tf.math.special, tf.linalg, tf.nn,
tf.image, tf.bitwise, tf.debugging, tf.dtypes, tf.random,
tf.experimental.numpy and tf.experimental.numpy.random (and the tf.raw_ops
that lattensor.raw_ops defines), records each parameter's name, kind and
default. python/tests/test_signatures.py compares lattensor's signatures with
these; `python scripts/golden/tf_signatures.py --compare` (run with lattensor
importable) prints the comparison.

    /work/venv/tf/bin/python scripts/golden/tf_signatures.py

Writes python/tests/data/tf_signatures.json.
"""
import inspect
import json
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "python/tests/data/tf_signatures.json"

MODULES = ["", "math", "math.special", "linalg", "nn", "image", "bitwise", "debugging", "dtypes", "random",
           "experimental.numpy", "experimental.numpy.random", "raw_ops"]


def norm_default(v):
    """A default as JSON: DTypes and NumPy dtypes by name, other values by repr."""
    if v is inspect.Parameter.empty:
        return None
    name = getattr(v, "name", None)
    if isinstance(name, str) and type(v).__name__ in ("DType", "dtype"):
        return {"dtype": name}
    if isinstance(v, type):
        return {"type": v.__name__}
    return {"repr": repr(v)}


def describe(f):
    """[[name, kind, default], ...] or None if there is no signature."""
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, norm_default(p.default)] for p in sig.parameters.values()]


def raw_ops_names():
    text = (ROOT / "python/lattensor/raw_ops/__init__.py").read_text()
    return re.findall(r"^def ([A-Z]\w*)\(", text, re.M)


def dump():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    out = {}
    for mod in MODULES:
        m = tf
        for part in filter(None, mod.split(".")):
            m = getattr(m, part)
        names = raw_ops_names() if mod == "raw_ops" else [n for n in dir(m) if not n.startswith("_")]
        funcs = {}
        for n in names:
            f = getattr(m, n, None)
            if f is None or isinstance(f, type) or not callable(f) or inspect.ismodule(f):
                continue
            d = describe(f)
            if d is not None:
                funcs[n] = d
        out[mod] = funcs
    OUT.write_text(json.dumps({"tf_version": tf.__version__, "modules": out}, indent=0, sort_keys=True) + "\n")
    print(f"wrote {sum(len(v) for v in out.values())} signatures to {OUT}")


if __name__ == "__main__":
    if "--compare" in sys.argv:
        sys.path.insert(0, str(ROOT / "python/tests"))
        from test_signatures import report

        report(verbose=True)
    else:
        dump()
