"""scikit-learn fits on lattensor arrays against the same fits on NumPy arrays
(and array-api-strict's), in one process.

    python bench/sklearn_fit.py                      # 4000 x 64 float64, best of 7
    python bench/sklearn_fit.py --rows 20000 --cols 128 --repeat 5

Each estimator is fitted (and, for the classifiers and regressors, used to
predict) on the same data given as NumPy arrays (scikit-learn's own path),
as lattensor arrays and as array-api-strict arrays, both with
``array_api_dispatch=True``. The runs are interleaved repeat by repeat (the
host drifts), each reports the minimum over the repeats, and the ratios divide
lattensor's time by NumPy's and by array-api-strict's. The results are checked
against NumPy's before timing. Needs ``lattensor`` built with
``maturin develop --release`` and scikit-learn; array-api-strict is optional.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # before SciPy (imported by scikit-learn)


def estimators():
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import StandardScaler

    return [
        ("PCA(8, svd_solver='full').fit_transform", lambda X, y, t: PCA(8, svd_solver="full").fit_transform(X)),
        ("LinearDiscriminantAnalysis().fit.predict", lambda X, y, t: LinearDiscriminantAnalysis().fit(X, y).predict(X)),
        ("Ridge(solver='svd').fit.predict", lambda X, y, t: Ridge(solver="svd").fit(X, t).predict(X)),
        ("StandardScaler().fit_transform", lambda X, y, t: StandardScaler().fit_transform(X)),
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=4000)
    p.add_argument("--cols", type=int, default=64)
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()

    import numpy as np
    import sklearn

    import lattensor as lt
    import lattensor.array_api as xp

    try:
        import array_api_strict as strict
    except ImportError:
        strict = None

    rng = np.random.default_rng(0)
    X = rng.standard_normal((args.rows, args.cols))
    t = X[:, 0] + 0.5 * rng.standard_normal(args.rows)  # a regression target
    y = (t > 0).astype(np.int64)  # class labels
    inputs = {"numpy": (X, y, t), "lattensor": tuple(xp.asarray(a) for a in (X, y, t))}
    if strict is not None:
        inputs["array-api-strict"] = tuple(strict.asarray(a) for a in (X, y, t))

    def run(lib, f):
        if lib == "numpy":
            return f(*inputs[lib])
        with sklearn.config_context(array_api_dispatch=True):
            return f(*inputs[lib])

    rows = estimators()
    for name, f in rows:  # the results agree before anything is timed
        want = np.asarray(run("numpy", f), np.float64)
        got = run("lattensor", f)
        assert isinstance(got, lt.Tensor), f"{name}: lattensor returned {type(got).__name__}"
        g = np.asarray(got, np.float64)
        if name.startswith("PCA"):
            g, want = np.abs(g), np.abs(want)  # components are defined up to sign
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-9, err_msg=name)

    best = {(name, lib): float("inf") for name, _ in rows for lib in inputs}
    for _ in range(args.repeat):
        for name, f in rows:
            for lib in inputs:
                t0 = time.perf_counter()
                run(lib, f)
                best[(name, lib)] = min(best[(name, lib)], time.perf_counter() - t0)

    libs = list(inputs)
    print(f"scikit-learn {sklearn.__version__}, NumPy {np.__version__}, lattensor {lt.__version__}; "
          f"X {args.rows} x {args.cols} float64, min over {args.repeat} repeats, ms")
    head = " | ".join(libs)
    print(f"| estimator | {head} | lattensor / numpy |" + (" lattensor / strict |" if strict else ""))
    print("|---" * (len(libs) + 2 + (1 if strict else 0)) + "|")
    for name, _ in rows:
        ms = [best[(name, lib)] * 1e3 for lib in libs]
        cells = " | ".join(f"{v:.2f}" for v in ms)
        ratio = f"{ms[1] / ms[0]:.2f}"
        extra = f" {ms[1] / ms[2]:.2f} |" if strict else ""
        print(f"| `{name}` | {cells} | {ratio} |{extra}")


if __name__ == "__main__":
    main()
