"""Per-call overhead of a small op on scalars: lattensor vs NumPy (and JAX / TF eager if installed).

    python bench/py_overhead.py            # prints ns per call (best of 7 repeats)

Every case adds two 0-d float32 values of the library under test, so the
numbers are dominated by argument conversion, dispatch and result wrapping.
"""

from __future__ import annotations

import timeit


def best_ns(stmt, setup_globals, number=200_000, repeat=7):
    t = timeit.Timer(stmt, globals=setup_globals)
    return min(t.repeat(repeat=repeat, number=number)) / number * 1e9


def main():
    import numpy as np

    import lattensor as lt

    rows = []
    a, b = lt.constant(1.0, lt.float32), lt.constant(2.0, lt.float32)
    g = {"a": a, "b": b, "lt": lt, "add": lt.math.add}
    rows.append(("lattensor  a + b  (0-d tensors)", best_ns("a + b", g)))
    rows.append(("lattensor  a + 1.0 (Python float)", best_ns("a + 1.0", g)))
    rows.append(("lattensor  lt.math.add(a, b)", best_ns("add(a, b)", g)))
    rows.append(("lattensor  -a", best_ns("-a", g)))
    x, y = np.float32(1.0), np.float32(2.0)
    xa, ya = np.array(1.0, np.float32), np.array(2.0, np.float32)
    g = {"x": x, "y": y, "xa": xa, "ya": ya, "np": np}
    rows.append(("numpy      x + y  (np.float32 scalars)", best_ns("x + y", g)))
    rows.append(("numpy      xa + ya (0-d arrays)", best_ns("xa + ya", g)))
    rows.append(("numpy      np.add(xa, ya)", best_ns("np.add(xa, ya)", g)))
    try:
        import jax.numpy as jnp

        ja, jb = jnp.float32(1.0), jnp.float32(2.0)
        (ja + jb).block_until_ready()
        rows.append(("jax        a + b", best_ns("(ja + jb)", {"ja": ja, "jb": jb}, number=20_000)))
    except ImportError:
        pass
    try:
        import tensorflow as tf

        ta, tb = tf.constant(1.0), tf.constant(2.0)
        rows.append(("tf eager   a + b", best_ns("ta + tb", {"ta": ta, "tb": tb}, number=20_000)))
        rows.append(("tf eager   tf.add(a, b)", best_ns("tf.add(ta, tb)", {"ta": ta, "tb": tb, "tf": tf}, number=20_000)))
    except ImportError:
        pass
    width = max(len(r[0]) for r in rows)
    for name, ns in rows:
        print(f"{name:<{width}}  {ns:8.0f} ns/call")


if __name__ == "__main__":
    main()
