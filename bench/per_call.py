"""Per-call overhead of small element-wise ops: lattensor vs NumPy and array-api-strict.

    python bench/per_call.py                 # 0-d and 8-element float32, best of 7
    python bench/per_call.py --repeat 15 --number 100000 --sizes 0,8,64

Each row times one call shape (an operator, a named function of a namespace)
on float32 operands that are 0-d (``--sizes 0``) or 1-D of n elements, so the
numbers are dominated by argument conversion, promotion, dispatch, allocation
of the result and its wrapping. Every case of every library runs in the same
process, interleaved repeat by repeat (the host drifts from minute to minute);
each reports the minimum over the repeats of the mean over ``--number`` calls.
Ratios divide lattensor's time by NumPy's equivalent (and by array-api-strict's
for the Array API namespace). Needs ``lattensor`` built with
``maturin develop --release``; array-api-strict is optional.
"""

from __future__ import annotations

import argparse
import timeit


def cases(n):
    """(group, label, lattensor stmt, numpy stmt, array-api-strict stmt or None), plus the globals."""
    import numpy as np

    import lattensor as lt
    import lattensor.array_api as xp
    import lattensor.experimental.numpy as tnp

    shape = () if n == 0 else (n,)
    va = np.full(shape, 1.5, np.float32)
    vb = np.full(shape, 2.25, np.float32)
    g = {
        "a": lt.constant(va),
        "b": lt.constant(vb),
        "x": va.copy(),
        "y": vb.copy(),
        "lt_add": lt.math.add,
        "lt_mul": lt.math.multiply,
        "tnp_add": tnp.add,
        "xp_add": xp.add,
        "xp_mul": xp.multiply,
        "np_add": np.add,
        "np_mul": np.multiply,
    }
    strict = None
    try:
        import array_api_strict as strict
    except ImportError:
        pass
    if strict is not None:
        g["s"] = strict.asarray(va)
        g["t"] = strict.asarray(vb)
        g["s_add"] = strict.add
        g["s_mul"] = strict.multiply
    has = strict is not None
    rows = [
        ("operator", "a + b", "a + b", "x + y", "s + t" if has else None),
        ("operator", "a * b", "a * b", "x * y", "s * t" if has else None),
        ("operator", "a + 1.0", "a + 1.0", "x + 1.0", "s + 1.0" if has else None),
        ("operator", "1.0 + a", "1.0 + a", "1.0 + x", "1.0 + s" if has else None),
        ("operator", "-a", "-a", "-x", "-s" if has else None),
        ("function", "lt.math.add(a, b)", "lt_add(a, b)", "np_add(x, y)", None),
        ("function", "lt.math.multiply(a, b)", "lt_mul(a, b)", "np_mul(x, y)", None),
        ("function", "tnp.add(a, b)", "tnp_add(a, b)", "np_add(x, y)", None),
        ("array_api", "xp.add(a, b)", "xp_add(a, b)", "np_add(x, y)", "s_add(s, t)" if has else None),
        ("array_api", "xp.multiply(a, b)", "xp_mul(a, b)", "np_mul(x, y)", "s_mul(s, t)" if has else None),
        ("array_api", "xp.add(a, 1.0)", "xp_add(a, 1.0)", "np_add(x, 1.0)", "s_add(s, 1.0)" if has else None),
    ]
    return rows, g


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="0,8", help="comma-separated element counts; 0 means a 0-d array")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--number", type=int, default=100_000)
    args = p.parse_args()

    import numpy as np

    import lattensor as lt

    print(f"lattensor {getattr(lt, '__version__', '?')}, numpy {np.__version__}; "
          f"min over {args.repeat} repeats of {args.number} calls, ns per call, float32")
    for n in (int(s) for s in args.sizes.split(",")):
        rows, g = cases(n)
        # each statement's timer; None for a peer that is missing
        timers = [[None if s is None else timeit.Timer(s, globals=g) for s in r[2:]] for r in rows]
        for ts in timers:  # warm-up (first-call caches, allocator pools)
            for t in ts:
                if t is not None:
                    t.timeit(1000)
        best = [[float("inf")] * 3 for _ in rows]
        for _ in range(args.repeat):
            for i, ts in enumerate(timers):
                for j, t in enumerate(ts):
                    if t is not None:
                        best[i][j] = min(best[i][j], t.timeit(args.number) / args.number * 1e9)
        what = "0-d" if n == 0 else f"{n} elements"
        print(f"\n### {what}\n")
        print("| group | call | lattensor ns | NumPy ns | ×NumPy | array-api-strict ns | ×strict |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for r, (lt_ns, np_ns, s_ns) in zip(rows, best):
            strict = "" if r[4] is None else f"{s_ns:.0f} | {lt_ns / s_ns:.2f}"
            if not strict:
                strict = " | "
            print(f"| {r[0]} | `{r[1]}` | {lt_ns:.0f} | {np_ns:.0f} | {lt_ns / np_ns:.2f} | {strict} |")


if __name__ == "__main__":
    main()
