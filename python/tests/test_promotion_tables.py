"""The 24×24 promotion tables of TF 2.21 (ALL and SAFE), through real Python values.

Every cell combines two real operands — tensors made with ``constant``,
weak tensors, Python literals — with the ``+`` operator (both orders, so
``__add__`` and ``__radd__``), ``lattensor.math.add`` and ``result_type``,
and checks the dtype and weakness TF gives (or TF's TypeError in SAFE).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import lattensor as lt

from conftest import DATA

TABLES = {mode: json.loads((DATA / f"tf_promotion_{mode}.json").read_text()) for mode in ("all", "safe")}
KINDS = TABLES["all"]["dtypes"]


def operand(kind: str):
    """A real Python value of a table kind."""
    if kind == "bool":
        return lt.constant(True)
    if kind in ("py_int", "py_float", "py_complex", "py_bool"):
        return {"py_int": 1, "py_float": 1.0, "py_complex": 1 + 0j, "py_bool": True}[kind]
    if kind == "i32*":
        return lt.constant(1)
    if kind == "i64*":
        return lt.constant(2**40)  # an int beyond int32 is i64* (TF raises OverflowError here)
    if kind == "f32*":
        return lt.constant(1.0)
    if kind == "f64*":
        return lt.constant(1) / lt.constant(2)  # TF's true division: i32* / i32* → f64*
    if kind == "c128*":
        return lt.constant(1j)
    return lt.constant(1, dtype=kind)


def kind_of(x):
    if isinstance(x, lt.Tensor):
        return (x.dtype.name, x.weak)
    return None


def test_operands_have_their_kind():
    for kind in KINDS:
        x = operand(kind)
        if isinstance(x, lt.Tensor):
            exp = TABLES["all"]["table"][kind][kind]
            assert kind_of(x) == (exp["dtype"], exp["weak"]), kind


def expected(mode, a, b):
    cell = TABLES[mode]["table"][a][b]
    return "TypeError" if "error" in cell else (cell["dtype"], cell["weak"])


def outcome(f):
    try:
        r = f()
    except TypeError:
        return "TypeError"
    return (r.dtype.name, bool(r.weak))


CELLS = [(m, a, b) for m in ("all", "safe") for a in KINDS for b in KINDS]


@pytest.mark.parametrize("mode,a,b", CELLS)
def test_cell(mode, a, b):
    want = expected(mode, a, b)
    x, y = operand(a), operand(b)
    with lt.promotion_mode(mode):
        got_rt = outcome(lambda: _rt(x, y))
        assert got_rt == want, ("result_type", got_rt, want)
        if want != "TypeError" and want[0] == "bool":
            return  # bool ⊔ bool is bool, but arithmetic kernels reject bool (as TF's do)
        got_fn = outcome(lambda: lt.math.add(x, y))
        assert got_fn == want, ("math.add", got_fn, want)
        if isinstance(x, lt.Tensor) or isinstance(y, lt.Tensor):
            assert outcome(lambda: x + y) == want, "x + y"
            assert outcome(lambda: y + x) == want, "y + x (reflected)"


class _RT:
    def __init__(self, d, weak):
        self.dtype, self.weak = d, weak


def _rt(x, y):
    d, weak = lt.result_type(x, y)
    return _RT(d, weak)


def test_safe_error_text_names_both_operands():
    with lt.promotion_mode("safe"):
        with pytest.raises(TypeError) as e:
            lt.constant(10, lt.int32) + lt.constant(5.0, lt.float32)
    msg = str(e.value)
    assert "implicit dtype promotion between (int32, weak=False) and (float32, weak=False)" in msg
    assert "safe" in msg.lower()


def test_numpy_values_are_strong():
    a = np.array(1, np.int8)
    assert kind_of(lt.math.add(a, lt.constant(1))) == ("int8", False)
    assert kind_of(np.float16(3.2) + lt.constant(1, lt.int8)) == ("float16", False)
