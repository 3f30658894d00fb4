#!/usr/bin/env python3
"""Slim the TF promotion golden tables to what the conformance tests read.

Input: the full tables measured on TF 2.21 (shared/spec/promotion/
tf_promotion_{all,safe}.json, ~2 MB, with per-op outcomes and TF's internal
table entries). Output, written in place of the big files under
crates/lattensor/tests/data/ (same names):

    {"meta": {...}, "dtypes": [24 kind names],
     "table": {a: {b: {"dtype": str, "weak": bool} | {"error": str}}}}

Only the top-level `flexible_dtypes.result_type(a, b)` outcome of each cell is
kept (dtype + weak, or the error text; error text is kept in full because the
SAFE tests check its core).  Pure stdlib; idempotent (running it on an already
slim table gives the same file).

Usage: python3 scripts/golden/slim_tables.py [SRC_DIR] [DST_DIR]
       defaults: crates/lattensor/tests/data for both (in place).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "crates", "lattensor", "tests", "data"))
NAMES = ["tf_promotion_all.json", "tf_promotion_safe.json"]
META_KEYS = ["tf_version", "numpy_version", "mode", "dtype_conversion_mode_enum", "input_construction"]


def slim(full):
    table = {}
    for a in full["dtypes"]:
        row = {}
        for b in full["dtypes"]:
            cell = full["table"][a][b]
            if "error" in cell:
                row[b] = {"error": cell["error"]}
            else:
                row[b] = {"dtype": cell["dtype"], "weak": bool(cell["weak"])}
        table[a] = row
    meta = {k: full["meta"][k] for k in META_KEYS if k in full.get("meta", {})}
    meta["slimmed_by"] = "scripts/golden/slim_tables.py (top-level result_type outcome per cell only)"
    return {"meta": meta, "dtypes": list(full["dtypes"]), "table": table}


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else DATA
    dst = sys.argv[2] if len(sys.argv) > 2 else DATA
    for name in NAMES:
        with open(os.path.join(src, name)) as f:
            full = json.load(f)
        out = slim(full)
        assert len(out["dtypes"]) == 24 and sum(len(r) for r in out["table"].values()) == 576
        with open(os.path.join(dst, name), "w") as f:
            json.dump(out, f, indent=0, sort_keys=False)
            f.write("\n")
        print(f"{name}: {os.path.getsize(os.path.join(dst, name))} bytes")


if __name__ == "__main__":
    main()
