#!/usr/bin/env python3
"""Dense scans for the special functions whose worst points lie between the
golden set's sweep points: dawsn over |x| in [10, 20] (either side of the
switch to the asymptotic series at 12) and [0, 15], spence over [0, 3] with
[0.4, 0.6] densest. References from mpmath at 50 digits as an f64 pair
(hi, lo) of round-trip decimal strings, as in special_golden.py.

Writes crates/lattensor/tests/data/special_dense.json. Needs numpy and mpmath:
    python scripts/golden/special_dense.py
"""
import json
import os

import numpy as np
from mpmath import mp, mpf

mp.dps = 50
rng = np.random.default_rng(20261207)


def scan(lo, hi, n):
    """n points spread over [lo, hi]: a grid jittered by up to a cell."""
    return list(np.linspace(lo, hi, n) + rng.uniform(0, 1, n) * (hi - lo) / n)


def dawsn(x):
    x = mpf(x)
    return mp.sqrt(mp.pi) / 2 * mp.exp(-x * x) * mp.erfi(x)


def spence(x):
    return mp.polylog(2, 1 - mpf(x))


POINTS = {
    "dawsn": scan(-20, -10, 3000) + scan(10, 20, 3000) + scan(-12.2, -11.8, 500) + scan(0, 15, 3000),
    "spence": scan(0.4, 0.6, 4000) + scan(0, 3, 4000) + scan(1e-6, 0.01, 500),
}


def pair(v):
    hi = float(v)
    return [repr(hi), repr(float(v - mpf(hi)))]


def main():
    path = os.path.join(os.path.dirname(__file__), "../../crates/lattensor/tests/data/special_dense.json")
    out = {}
    for name, xs in POINTS.items():
        f = {"dawsn": dawsn, "spence": spence}[name]
        out[name] = {"x": [repr(float(x)) for x in xs], "ref": [pair(f(x)) for x in xs]}
    with open(path, "w") as fh:
        json.dump(out, fh, separators=(",", ":"))


if __name__ == "__main__":
    main()
