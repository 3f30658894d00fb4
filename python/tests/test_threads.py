"""Tensors and variables used from several Python threads at once."""

from __future__ import annotations

import threading

import numpy as np

import lattensor as lt


def test_concurrent_ops_and_scoped_modes():
    big = lt.constant(np.arange(200_000, dtype=np.float32))  # large: kernels run without the GIL
    want = float(np.arange(200_000, dtype=np.float64).sum())
    errors, results = [], []

    def work(i):
        try:
            mode = "safe" if i % 2 else "all"
            with lt.promotion_mode(mode):
                for _ in range(20):
                    s = lt.math.reduce_sum(lt.cast(big, lt.float64))
                    results.append(float(s))
                    assert lt.get_promotion_mode() == mode
                    if mode == "safe":
                        try:
                            lt.constant(1, lt.int32) + lt.constant(1.0, lt.float32)
                            errors.append("safe mode leaked into another thread")
                        except TypeError:
                            pass
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 120 and all(r == want for r in results)


def test_variable_updates_are_atomic():
    v = lt.Variable(0, dtype=lt.int64)

    def bump():
        for _ in range(500):
            v.assign_add(1)

    threads = [threading.Thread(target=bump) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert int(v.numpy()) == 4000
