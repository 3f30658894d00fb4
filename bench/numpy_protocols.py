"""What NumPy's protocols cost per call: ``np.add(t, u)`` against ``t + u`` and
``xp.add(t, u)``, ``np.sum(t)`` against ``xp.sum(t)``, and a fall-back
(``np.median``) against NumPy on the NumPy array.

    python bench/numpy_protocols.py           # ns per call, best of 7 repeats

Small (0-d and 16-element) operands show the dispatch overhead; the 1M-element
rows show whether it still matters when the kernel does real work. Compare the
numbers of one run only, as ratios (bench/README.md, "Method").
"""

from __future__ import annotations

import timeit


def best_ns(stmt, g, number):
    t = timeit.Timer(stmt, globals=g)
    return min(t.repeat(repeat=7, number=number)) / number * 1e9


def main():
    import numpy as np

    import lattensor.array_api as xp

    rows = []
    for n, number in ((0, 50_000), (16, 50_000), (1_000_000, 20)):
        shape = () if n == 0 else (n,)
        a_np = np.full(shape, 1.5, np.float32)
        b_np = np.full(shape, 2.5, np.float32)
        g = {"a": xp.asarray(a_np), "b": xp.asarray(b_np), "an": a_np, "bn": b_np, "np": np, "xp": xp}
        label = "0-d" if n == 0 else f"{n}"
        cases = [
            ("t + u", "a + b"),
            ("xp.add(t, u)", "xp.add(a, b)"),
            ("np.add(t, u)", "np.add(a, b)"),
            ("ndarray + t", "an + b"),
            ("numpy: np.add(a, b)", "np.add(an, bn)"),
            ("xp.sum(t)", "xp.sum(a)"),
            ("np.sum(t)", "np.sum(a)"),
            ("numpy: np.sum(a)", "np.sum(an)"),
        ]
        if n:
            cases += [("np.median(t) (fall-back)", "np.median(a)"), ("numpy: np.median(a)", "np.median(an)")]
        for name, stmt in cases:
            rows.append((f"{label:>7}  {name}", best_ns(stmt, g, number)))
    width = max(len(r[0]) for r in rows)
    for name, ns in rows:
        print(f"{name:<{width}}  {ns:12.0f} ns/call")


if __name__ == "__main__":
    main()
