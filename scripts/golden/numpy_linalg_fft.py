"""Golden values for the Array API `linalg` and `fft` extensions, from NumPy.

Writes python/tests/data/numpy_linalg_fft_golden.json, which
python/tests/test_linalg_fft_golden.py compares lattensor.array_api against.
Each case holds the inputs (values and dtype), the function, its keyword
arguments and NumPy's outputs (values, dtype, shape). Only outputs that are
unique are recorded: for `qr` the moduli of R (Householder signs differ
between libraries), for `eigh` and `svd` the eigenvalues and singular values
(the vectors are checked by their laws in the test instead).

float16 cases follow lattensor's rule (compute in float32, round once): NumPy
computes in float32 on the float16-rounded inputs and the result is rounded to
float16. Run with NumPy installed:

    python scripts/golden/numpy_linalg_fft.py
"""

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parents[2] / "python" / "tests" / "data" / "numpy_linalg_fft_golden.json"
rng = np.random.default_rng(20261206)


def enc(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        flat = [[float(v.real), float(v.imag)] for v in a.ravel()]
    elif a.dtype == np.bool_:
        flat = [bool(v) for v in a.ravel()]
    elif a.dtype.kind in "iu":
        flat = [int(v) for v in a.ravel()]
    else:
        flat = [float(v) for v in a.ravel()]
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": flat}


def rand(shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def hpd(batch, n, dtype):
    b = rand(batch + (n, n), dtype)
    a = b @ np.conj(np.swapaxes(b, -1, -2)) + n * np.eye(n, dtype=dtype)
    return ((a + np.conj(np.swapaxes(a, -1, -2))) / 2).astype(dtype)


cases = []


def case(fn, inputs, kwargs, outputs, module="linalg"):
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    cases.append({
        "module": module,
        "fn": fn,
        "inputs": [enc(x) for x in inputs],
        "kwargs": kwargs,
        "outputs": [enc(o) for o in outs],
    })


for dt in ["float32", "float64", "complex64", "complex128"]:
    a = rand((2, 4, 4), dt)
    spd = hpd((2,), 4, dt)
    rect = rand((3, 5, 3), dt)
    wide = rand((4, 6), dt)
    b = rand((2, 4, 2), dt)
    v = rand((4,), dt)
    case("det", [a], {}, np.linalg.det(a))
    s, l = np.linalg.slogdet(a)
    case("slogdet", [a], {}, (s, l))
    case("inv", [a], {}, np.linalg.inv(a))
    case("solve", [a, b], {}, np.linalg.solve(a, b))
    case("solve", [a[0], v], {}, np.linalg.solve(a[0], v))
    case("cholesky", [spd], {}, np.linalg.cholesky(spd))
    case("cholesky", [spd], {"upper": True}, np.linalg.cholesky(spd, upper=True))
    case("eigvalsh", [spd], {}, np.linalg.eigvalsh(spd))
    case("eigh", [spd], {}, np.linalg.eigh(spd).eigenvalues)
    for x in (rect, wide):
        case("svdvals", [x], {}, np.linalg.svd(x, compute_uv=False))
        case("svd", [x], {"full_matrices": False}, np.linalg.svd(x, full_matrices=False).S)
        case("pinv", [x], {}, np.linalg.pinv(x, rtol=None))
        for mode in ("reduced", "complete"):
            case("qr", [x], {"mode": mode}, np.abs(np.linalg.qr(x, mode=mode).R))
        for o in ("fro", "nuc", 1, -1, 2, -2, "inf", "-inf"):
            ordv = {"inf": np.inf, "-inf": -np.inf}.get(o, o)
            case("matrix_norm", [x], {"ord": o}, np.linalg.matrix_norm(x, ord=ordv))
    low = (rand((5, 2), dt) @ rand((2, 4), dt)).astype(dt)
    case("matrix_rank", [np.stack([low, rand((5, 4), dt)])], {}, np.linalg.matrix_rank(np.stack([low, rand((5, 4), dt)])))
    for o in (2, 1, "inf", "-inf", 0, 3):
        ordv = {"inf": np.inf, "-inf": -np.inf}.get(o, o)
        case("vector_norm", [rect], {"ord": o, "axis": -1}, np.linalg.vector_norm(rect, ord=ordv, axis=-1))
    case("vector_norm", [rect], {}, np.linalg.vector_norm(rect))
    case("matrix_power", [a], {"n": 3}, np.linalg.matrix_power(a, 3))
    case("matrix_power", [a], {"n": -2}, np.linalg.matrix_power(a, -2))
    case("trace", [a], {"offset": 1}, np.linalg.trace(a, offset=1))
    case("diagonal", [rect], {"offset": -1}, np.linalg.diagonal(rect, offset=-1))
    x3, y3 = rand((2, 3), dt), rand((3,), dt)
    case("cross", [x3, y3], {}, np.linalg.cross(x3, y3))
    case("outer", [v, v[:3]], {}, np.linalg.outer(v, v[:3]))

# float16: float32 arithmetic on the rounded inputs, rounded once
for fn, make, call in [
    ("det", lambda: rand((3, 3), "float16"), lambda x: np.linalg.det(x.astype(np.float32))),
    ("inv", lambda: hpd((), 3, "float16"), lambda x: np.linalg.inv(x.astype(np.float32))),
    ("cholesky", lambda: hpd((), 3, "float16"), lambda x: np.linalg.cholesky(x.astype(np.float32))),
    ("svdvals", lambda: rand((4, 3), "float16"), lambda x: np.linalg.svd(x.astype(np.float32), compute_uv=False)),
]:
    x = make()
    case(fn, [x], {}, call(x).astype(np.float16))

# fft
for dt, rdt in [("complex64", "float32"), ("complex128", "float64")]:
    x = rand((3, 8), dt)
    odd = rand((2, 7), dt)
    r = rand((3, 10), rdt)
    for norm in ("backward", "ortho", "forward"):
        case("fft", [x], {"norm": norm}, np.fft.fft(x, norm=norm), "fft")
        case("ifft", [x], {"norm": norm}, np.fft.ifft(x, norm=norm), "fft")
        case("rfft", [r], {"norm": norm}, np.fft.rfft(r, norm=norm), "fft")
        case("irfft", [x], {"norm": norm}, np.fft.irfft(x, norm=norm), "fft")
        case("hfft", [x], {"norm": norm}, np.fft.hfft(x, norm=norm), "fft")
        case("ihfft", [r], {"norm": norm}, np.fft.ihfft(r, norm=norm), "fft")
        case("fftn", [x], {"norm": norm}, np.fft.fftn(x, norm=norm), "fft")
        case("ifftn", [x], {"norm": norm}, np.fft.ifftn(x, norm=norm), "fft")
        case("rfftn", [r], {"norm": norm}, np.fft.rfftn(r, norm=norm), "fft")
        case("irfftn", [x], {"norm": norm}, np.fft.irfftn(x, norm=norm), "fft")
    case("fft", [odd], {"n": 11, "axis": 0}, np.fft.fft(odd, n=11, axis=0), "fft")
    case("fft", [odd], {"n": 4}, np.fft.fft(odd, n=4), "fft")
    case("ifft", [odd], {"n": 5, "axis": -1}, np.fft.ifft(odd, n=5), "fft")
    case("rfft", [r], {"n": 7, "axis": 1}, np.fft.rfft(r, n=7, axis=1), "fft")
    case("irfft", [odd], {"n": 9}, np.fft.irfft(odd, n=9), "fft")
    case("hfft", [odd], {"n": 5, "axis": 0}, np.fft.hfft(odd, n=5, axis=0), "fft")
    case("fftn", [x], {"s": [4, 6], "axes": [1, 0]}, np.fft.fftn(x, s=[4, 6], axes=[1, 0]), "fft")
    case("rfftn", [r], {"s": [2, 12], "axes": [0, 1]}, np.fft.rfftn(r, s=[2, 12], axes=[0, 1]), "fft")
    case("irfftn", [x], {"s": [3, 9], "axes": [0, 1]}, np.fft.irfftn(x, s=[3, 9], axes=[0, 1]), "fft")
    case("fftshift", [x], {}, np.fft.fftshift(x), "fft")
    case("ifftshift", [odd], {"axes": [1]}, np.fft.ifftshift(odd, axes=[1]), "fft")
for n, d in [(8, 1.0), (9, 0.25), (1, 2.0)]:
    case("fftfreq", [], {"n": n, "d": d}, np.fft.fftfreq(n, d), "fft")
    case("rfftfreq", [], {"n": n, "d": d}, np.fft.rfftfreq(n, d), "fft")

OUT.write_text(json.dumps({"numpy": np.__version__, "cases": cases}, separators=(",", ":")) + "\n")
print(f"{len(cases)} cases -> {OUT}")
