#!/usr/bin/env python3
"""Runs lattensor tensors through libraries that accept Array API arrays or NumPy
duck arrays, and prints a Markdown table: library / call -> works or fails, why.

    pip install array-api-compat scipy scikit-learn xarray   # what it exercises
    python scripts/ecosystem_check.py                        # run by hand; not in CI

Each call runs three times: on NumPy arrays (the reference), on lattensor
tensors and on array-api-strict arrays (the standard's reference namespace,
which tells a library's own limits from lattensor's). A call "works" when it
returns without error, its array result is the namespace's own array type (or
an xarray object wrapping one) and its values equal the NumPy run (to 1e-6
relative). A call that returns a NumPy array instead is reported as such.
Libraries that are not installed are reported as skipped. The table in
docs/array_api.md is this script's output.
"""

from __future__ import annotations

import os
import sys
import traceback
import warnings

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # before SciPy is imported

import numpy as np  # noqa: E402

import lattensor as lt  # noqa: E402
import lattensor.array_api as xp  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.standard_normal((20, 3))
Y = (X[:, 0] + 0.3 * RNG.standard_normal(20) > 0).astype(np.int64)
P = np.abs(RNG.standard_normal((4, 5))) + 0.1

ROWS: list[tuple[str, str, str, str]] = []

try:
    import array_api_strict as strict

    STRICT_ARRAY = type(strict.asarray(0))
except ImportError:  # the fourth column then says so
    strict = STRICT_ARRAY = None


def kind_of(a) -> str:
    if isinstance(a, lt.Tensor):
        return "Tensor"
    if STRICT_ARRAY is not None and isinstance(a, STRICT_ARRAY):
        return "Array"
    return type(a).__name__


def host(a):
    return np.from_dlpack(a) if STRICT_ARRAY is not None and isinstance(a, STRICT_ARRAY) else np.asarray(a)


def as_numpy(r):
    """The result's values as NumPy (tensors, xarray objects, tuples); its kind for the report."""
    if isinstance(r, lt.Tensor) or (STRICT_ARRAY is not None and isinstance(r, STRICT_ARRAY)):
        return host(r), kind_of(r)
    if hasattr(r, "variable") and hasattr(r, "dims"):  # an xarray object
        inner = r.data
        return host(inner), f"DataArray of {kind_of(inner)}"
    if isinstance(r, np.ndarray):
        return r, "ndarray"
    if isinstance(r, (tuple, list)) and r and hasattr(r[0], "__array__"):
        parts = [as_numpy(p) for p in r]
        kinds = {k for _, k in parts}
        return [v for v, _ in parts], "/".join(sorted(kinds))
    if hasattr(r, "_asdict"):  # SciPy result objects (named tuples)
        return as_numpy(tuple(r))
    return np.asarray(r), type(r).__name__


def check(lib: str, call: str, fn, reference, *, expect="own"):
    """Runs ``fn(t)`` with lattensor's and array-api-strict's converters and ``reference()``
    on NumPy arrays, and records both outcomes."""
    ours = outcome(lambda: fn(xp.asarray), reference, "Tensor" if expect == "own" else expect)
    if strict is None:
        theirs = "array-api-strict not installed"
    else:
        theirs = outcome(lambda: fn(strict.asarray), reference, "Array" if expect == "own" else expect)
    ROWS.append((lib, call, ours, theirs))


def outcome(run, reference, expect: str) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = run()
    except Exception as e:  # noqa: BLE001 (recorded)
        return f"fails: {type(e).__name__}: {reason(e)}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = reference()
        g, kind = as_numpy(got)
        w, _ = as_numpy(want)
        for a, b in zip(g, w) if isinstance(g, list) else [(g, w)]:
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-9)
    except AssertionError as e:
        return f"fails: values differ from NumPy's ({reason(e)})"
    except Exception as e:  # noqa: BLE001
        return f"fails: NumPy reference raised {type(e).__name__}: {reason(e)}"
    if expect not in (kind, f"DataArray of {kind}") and kind not in (expect, f"DataArray of {expect}"):
        return f"works, but returns {kind}"
    return f"works ({kind})"


def reason(e: BaseException) -> str:
    text = " ".join(str(e).split()).split("; ")[0]
    return (text[:160] + "...") if len(text) > 160 else text or traceback.format_exception_only(type(e), e)[-1].strip()


def skipped(lib: str, why: str):
    ROWS.append((lib, "(all)", f"skipped: {why}", ""))


# ---------------------------------------------------------------------------


def check_array_api_compat():
    try:
        import array_api_compat as c
    except ImportError:
        return skipped("array-api-compat", "not installed")
    lib = f"array-api-compat {c.__version__}"
    x = xp.asarray(X)
    ns = c.array_namespace(x)
    ROWS.append((lib, "array_namespace(t)", "works (lattensor.array_api)" if ns is xp else f"fails: resolves to {ns}", "-"))
    ROWS.append((lib, "is_array_api_obj(t)", "works" if c.is_array_api_obj(x) else "fails: not recognised", "-"))
    ROWS.append((lib, "size(t)", "works" if c.size(x) == X.size else f"fails: {c.size(x)}", "-"))
    try:
        ok = c.device(x) == x.device and c.to_device(x, c.device(x)) is not None
        ROWS.append((lib, "device(t), to_device(t, d)", "works" if ok else "fails: device mismatch", "-"))
    except Exception as e:  # noqa: BLE001
        ROWS.append((lib, "device(t), to_device(t, d)", f"fails: {type(e).__name__}: {reason(e)}", "-"))


def check_scipy():
    try:
        import scipy
        import scipy.cluster.vq as vq
        import scipy.fft
        import scipy.special as sp
        import scipy.stats as st
    except ImportError:
        return skipped("SciPy", "not installed")
    lib = f"SciPy {scipy.__version__}"
    for name in ("erf", "erfc", "expit", "logit", "gammaln", "ndtr", "ndtri", "log_ndtr", "entr", "i0", "xlogy", "rel_entr"):
        f = getattr(sp, name)
        args = (P / P.max() / 2,) if name in ("logit", "ndtri") else (P,)
        if name in ("xlogy", "rel_entr"):
            args = (P, P[::-1])
        check(lib, f"special.{name}", lambda t, f=f, a=args: f(*[t(v) for v in a]), lambda f=f, a=args: f(*a))
    check(lib, "special.logsumexp(axis=1)", lambda t: sp.logsumexp(t(P), axis=1), lambda: sp.logsumexp(P, axis=1))
    check(lib, "special.softmax(axis=0)", lambda t: sp.softmax(t(P), axis=0), lambda: sp.softmax(P, axis=0))
    for name, kw in (("moment", {"order": 2}), ("moment", {"order": 3, "axis": 1}), ("skew", {}), ("kurtosis", {}),
                     ("zscore", {}), ("variation", {}), ("sem", {}), ("gmean", {}), ("hmean", {}), ("describe", {})):
        f = getattr(st, name)
        label = f"stats.{name}({', '.join(f'{k}={v}' for k, v in kw.items())})"
        check(lib, label, lambda t, f=f, kw=kw: f(t(P), **kw), lambda f=f, kw=kw: f(P, **kw))
    check(lib, "stats.pearsonr", lambda t: st.pearsonr(t(X[:, 0]), t(X[:, 1])), lambda: st.pearsonr(X[:, 0], X[:, 1]))
    check(lib, "stats.ttest_ind", lambda t: st.ttest_ind(t(X[:, 0]), t(X[:, 1])), lambda: st.ttest_ind(X[:, 0], X[:, 1]))
    check(lib, "cluster.vq.whiten", lambda t: vq.whiten(t(X)), lambda: vq.whiten(X))
    check(lib, "fft.fft", lambda t: scipy.fft.fft(t(X[:, 0])), lambda: scipy.fft.fft(X[:, 0]))


def check_sklearn():
    try:
        import sklearn
        from sklearn.decomposition import PCA
        from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
        from sklearn.linear_model import Ridge
        from sklearn.metrics import accuracy_score, mean_squared_error, r2_score, zero_one_loss
        from sklearn.metrics.pairwise import cosine_similarity, euclidean_distances
        from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, Normalizer, StandardScaler
    except ImportError:
        return skipped("scikit-learn", "not installed")
    lib = f"scikit-learn {sklearn.__version__}"
    try:
        import array_api_compat  # noqa: F401 (scikit-learn's dispatch needs it)
    except ImportError:
        return skipped(lib, "array_api_dispatch needs array-api-compat")

    def dispatched(fn):
        def run(t):
            with sklearn.config_context(array_api_dispatch=True):
                return fn(t)

        return run

    for cls in (MinMaxScaler, StandardScaler, MaxAbsScaler, Normalizer):
        check(lib, f"{cls.__name__}().fit_transform", dispatched(lambda t, c=cls: c().fit_transform(t(X))),
              lambda c=cls: c().fit_transform(X))
    yp = np.roll(Y, 1)
    for name, f, a, b in (("accuracy_score", accuracy_score, Y, yp), ("zero_one_loss", zero_one_loss, Y, yp),
                          ("r2_score", r2_score, X[:, 0], X[:, 1]), ("mean_squared_error", mean_squared_error, X[:, 0], X[:, 1])):
        check(lib, f"metrics.{name}", dispatched(lambda t, f=f, a=a, b=b: float(f(t(a), t(b)))),
              lambda f=f, a=a, b=b: float(f(a, b)), expect="float")
    check(lib, "pairwise.euclidean_distances", dispatched(lambda t: euclidean_distances(t(X[:5]), t(X[5:9]))),
          lambda: euclidean_distances(X[:5], X[5:9]))
    check(lib, "pairwise.cosine_similarity", dispatched(lambda t: cosine_similarity(t(X[:5]), t(X[5:9]))),
          lambda: cosine_similarity(X[:5], X[5:9]))
    check(lib, "LinearDiscriminantAnalysis().fit(X, y).predict",
          dispatched(lambda t: LinearDiscriminantAnalysis().fit(t(X), t(Y)).predict(t(X))),
          lambda: LinearDiscriminantAnalysis().fit(X, Y).predict(X))
    check(lib, "PCA(2, svd_solver='full').fit_transform", dispatched(lambda t: PCA(2, svd_solver="full").fit_transform(t(X))),
          lambda: PCA(2, svd_solver="full").fit_transform(X))
    check(lib, "Ridge(solver='svd').fit(X, y).predict",
          dispatched(lambda t: Ridge(solver="svd").fit(t(X), t(X[:, 0])).predict(t(X))),
          lambda: Ridge(solver="svd").fit(X, X[:, 0]).predict(X))


def check_xarray():
    try:
        import xarray as xr
    except ImportError:
        return skipped("xarray", "not installed")
    lib = f"xarray {xr.__version__}"
    dims = ("row", "col")

    def da(t):
        return xr.DataArray(t(X), dims=dims)

    cases = {
        "DataArray(t) wraps the array": lambda d: d,
        "da + 1 + da * da": lambda d: d + 1 + d * d,
        "da.mean()": lambda d: d.mean(),
        "da.sum('row')": lambda d: d.sum("row"),
        "da.std('col')": lambda d: d.std("col"),
        "da.max('row')": lambda d: d.max("row"),
        "np.exp(da)": np.exp,
        "da.transpose()": lambda d: d.transpose(),
        "da.isel(row=slice(0, 5))": lambda d: d.isel(row=slice(0, 5)),
        "xr.concat([da, da], 'row')": lambda d: xr.concat([d, d], "row"),
        "da.where(da > 0)": lambda d: d.where(d > 0),
        "da.cumsum('row')": lambda d: d.cumsum("row"),
    }
    for label, f in cases.items():
        check(lib, label, lambda t, f=f: f(da(t)), lambda f=f: f(da(np.asarray)), expect="own")


def main() -> int:
    print(f"lattensor {lt.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}\n")
    for f in (check_array_api_compat, check_scipy, check_sklearn, check_xarray):
        f()
    print("| library | call | lattensor | array-api-strict (for comparison) |")
    print("|---|---|---|---|")
    for lib, call, ours, theirs in ROWS:
        print(f"| {lib} | `{call}` | {ours.replace('|', '/')} | {theirs.replace('|', '/')} |")
    def count(col):
        return sum(r[col].startswith("works") and not r[col].startswith("works, but") for r in ROWS)

    n = len(ROWS) - 4  # the array-api-compat rows have no array-api-strict run
    print(f"\nlattensor: {count(2)} of {len(ROWS)} calls work (same type out, NumPy's values); "
          f"array-api-strict: {count(3)} of {n}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
