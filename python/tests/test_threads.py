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


def _sum_in_a_forked_child(pause_s):
    """Sums 4M f32 (long enough to split and to wake napping helpers) in the
    parent, idles `pause_s`, forks, and sums again three times in the child.
    Returns the parent's CPUs as they were at the fork; fails if the child's
    sums are wrong or it hangs (60 s)."""
    import os
    import sys
    import time

    if not hasattr(os, "fork") or sys.platform == "darwin":
        import pytest

        pytest.skip("needs fork (Linux)")
    n = 4_000_000
    x = lt.constant(np.arange(n, dtype=np.float32) % 7)
    want = float((np.arange(n, dtype=np.float64) % 7).sum())
    assert float(lt.math.reduce_sum(x)) == want  # the parent's pool is up
    time.sleep(pause_s)
    allowed = os.sched_getaffinity(0)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        code = 1
        try:
            ok = all(float(lt.math.reduce_sum(x + 0.0)) == want for _ in range(3))
            code = 0 if ok else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
            return allowed
        time.sleep(0.01)
    os.kill(pid, 9)
    raise AssertionError("a parallel op hung in a forked child")


def test_ops_after_fork_complete_in_the_child():
    # The parent's pool helpers do not exist in a forked child: a parallel op
    # there must run on the child's one thread, not wait for them (rayon hangs).
    # Forked at once, while the parent's helpers spin.
    _sum_in_a_forked_child(0.0)


def test_a_forked_child_leaves_the_parents_helpers_where_they_were():
    # A long op wakes napping helpers after taking its caller's CPU out of their
    # affinity. In a forked child the helpers' thread ids name the parent's threads:
    # the child must not steer them (the parent's helpers would stay pinned).
    # Forked 10 ms after the parent's op: past the helpers' spin, napping.
    import os

    allowed = _sum_in_a_forked_child(0.01)
    for tid in os.listdir("/proc/self/task"):
        assert os.sched_getaffinity(int(tid)) == allowed, f"thread {tid} was steered from the child"
