"""The encoding of TF results shared by the Python-side golden scripts
(tnp_combine.py, tnp_port.py); python/tests/conftest.py's `encode_values` reads the
same format back from lattensor results."""
import numpy as np


def encode(r):
    """dtype name, weakness (`EagerWeakTensor`), shape and values of a TF result.

    Values: complex as [re, im]; bool as bool; real as float, with non-finite values and
    -0.0 as strings ("nan", "inf", "-inf", "-0.0")."""
    a = np.asarray(r)
    if a.dtype.kind == "c":
        vals = [[float(x.real), float(x.imag)] for x in a.reshape(-1)]
    elif a.dtype.kind == "b":
        vals = [bool(x) for x in a.reshape(-1)]
    else:
        vals = [float(x) if np.isfinite(x) else str(float(x)) for x in a.astype(np.float64).reshape(-1)]
        vals = [("-0.0" if (v == 0.0 and np.signbit(v)) else v) if isinstance(v, float) else v for v in vals]
    return {"dtype": r.dtype.name, "weak": type(r).__name__ == "EagerWeakTensor", "shape": list(a.shape),
            "values": vals}
