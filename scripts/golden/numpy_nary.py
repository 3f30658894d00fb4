#!/usr/bin/env python3
"""np.result_type of every multiset of 3 builtin dtypes (no bfloat16: ml_dtypes
cannot promote it with several dtypes), for lattensor's NumPy promotion mode.

Output: crates/lattensor/tests/data/numpy_nary.json
    {"meta": {...}, "cases": [[["uint16", "int8", "float16"], "float32"], ...]}

Run with the oracle venv: /work/venv/oracle/bin/python scripts/golden/numpy_nary.py
"""
import itertools
import json
import os

import numpy as np

NAMES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
         "float16", "float32", "float64", "complex64", "complex128"]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "lattensor", "tests", "data",
                   "numpy_nary.json")


def main():
    cases = []
    for combo in itertools.combinations_with_replacement(NAMES, 3):
        results = {str(np.result_type(*[np.dtype(n) for n in p])) for p in itertools.permutations(combo)}
        assert len(results) == 1, (combo, results)  # NumPy itself is order independent here
        cases.append([list(combo), results.pop()])
    meta = {"numpy_version": np.__version__, "what": "np.result_type(a, b, c) on dtypes, all multisets of 3"}
    with open(OUT, "w") as f:
        json.dump({"meta": meta, "cases": cases}, f, separators=(",", ":"))
        f.write("\n")
    print(len(cases), "cases ->", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
