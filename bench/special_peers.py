"""J0, J1, Y0, Y1 on 100,000 float64, one thread: lattensor (the release `profile_workload`)
against SciPy's Cephes kernels, side by side in one run, evenly spaced and shuffled.

    cargo build --release -p lattensor-bench --bin profile_workload
    python bench/special_peers.py [REPEATS]

The binary is looked up under $CARGO_TARGET_DIR (default target/). Prints ns per element
(minimum over the repeats) and lattensor's time as a multiple of SciPy's.
"""
import os
import re
import subprocess
import sys
import timeit

import numpy as np
import scipy.special as sc

N = 100_000
REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 30
EXE = os.path.join(os.environ.get('CARGO_TARGET_DIR', os.path.join(os.path.dirname(__file__), '../target')),
                   'release/profile_workload')


def shuffled(xs):
    """The permutation `profile_workload`'s `:shuffled` applies (Fisher-Yates, Knuth's MMIX LCG, seed 1)."""
    xs = list(xs)
    state = 1
    for i in range(len(xs) - 1, 0, -1):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        j = (state >> 33) % (i + 1)
        xs[i], xs[j] = xs[j], xs[i]
    return np.array(xs)


def scipy_ns(f, xs):
    t = timeit.Timer(lambda: f(xs))
    return min(t.repeat(REPEATS, 1)) / len(xs) * 1e9


def ours_ns(specs):
    env = dict(os.environ, LATTENSOR_NUM_THREADS='1')
    out = subprocess.run([EXE, ','.join(specs), str(REPEATS)], env=env, capture_output=True, text=True, check=True)
    mins = {}
    for line in (out.stdout + out.stderr).splitlines():
        m = re.match(r'(sp:\S+): .*\(min ([\d.]+),', line)
        if m:
            mins[m.group(1)] = float(m.group(2)) * 1e3 / N
    return mins


def main():
    os.environ.setdefault('OMP_NUM_THREADS', '1')
    cases = []
    for name, f in [('j0', sc.j0), ('j1', sc.j1), ('y0', sc.y0), ('y1', sc.y1)]:
        for lo, hi in [(0, 100), (0, 5)]:
            for order in ['', ':shuffled']:
                cases.append((name, f, lo, hi, order))
    specs = [f'sp:{n}:{lo}:{hi}:{N}{o}' for n, _, lo, hi, o in cases]
    ours = ours_ns(specs)
    print(f'{"function":8} {"range":9} {"order":9} {"lattensor":>10} {"SciPy":>8} {"ratio":>6}   (ns/element)')
    for (name, f, lo, hi, order), spec in zip(cases, specs):
        xs = np.linspace(lo, hi, N)
        if order:
            xs = shuffled(xs)
        peer = scipy_ns(f, xs)
        o = ours[spec]
        print(f'{name:8} [{lo}, {hi}]'.ljust(19) + f'{order[1:] or "sorted":9} {o:10.2f} {peer:8.2f} {o / peer:6.2f}')


if __name__ == '__main__':
    main()
