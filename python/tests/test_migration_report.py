"""Migration reports: `promotion_mode(mode, compare_with=other)` runs code in
`mode` and records every promotion whose outcome `other` would change, with
the Python line that called the op.

The reports are checked against independent runs: each example runs once in
each mode on its own, and the report must list exactly the examples whose
results differ (dtype, weakness, or a refusal).
"""

from __future__ import annotations

import json
import sys
import warnings

import numpy as np
import pytest

import lattensor as tf
import lattensor.experimental.numpy as tnp


def here() -> int:
    """The caller's line number."""
    return sys._getframe(1).f_lineno


def outcome(f):
    """(dtype name, weak) of f()'s result, or "refused" for a TypeError."""
    try:
        r = f()
    except TypeError:
        return "refused"
    return (r.dtype.name, bool(r.weak))


# The type promotion guide's examples (examples/type_promotion_guide.py), one op each.
GUIDE = {
    "i32+f32": lambda: tf.constant(2, tf.int32) + tf.constant(3.0, tf.float32),
    "i8+u32": lambda: tf.constant(2, tf.int8) + tf.constant(3, tf.uint32),
    "i64+f16": lambda: tf.constant(10, tf.int64) + tf.constant(3.5, tf.float16),
    "f32*+f16": lambda: tf.constant(1.2) + tf.constant(3.1, tf.float16),
    "i16-f32": lambda: tf.constant(5, tf.int16) - tf.constant(1, tf.float32),
    "np_f16+i8": lambda: np.array(3.2, np.float16) + tf.constant(1, tf.int8),
    "i8+i32*": lambda: tf.add(np.array(1, dtype=np.int8), tf.constant(1)),
    "i32*+f16": lambda: tf.add(tf.constant(1), np.array(1, dtype=np.float16)),
}


def report_lines(mode, other, examples):
    """Runs each example once under `mode` compared with `other`; returns the
    example names the report lists and the report."""
    lines = {}
    with warnings.catch_warnings(), tf.promotion_mode(mode, compare_with=other) as scope:
        warnings.simplefilter("ignore")
        for name, f in examples.items():
            lines[f.__code__.co_firstlineno] = name
            try:
                f()
            except TypeError:
                pass
    report = scope.report()
    return {lines[row["line"]] for row in report.rows}, report


@pytest.mark.parametrize("other", ["numpy", "safe", "strict"])
def test_guide_examples_reported_exactly_where_the_modes_differ(other):
    differs = set()
    for name, f in GUIDE.items():
        with tf.promotion_mode("all"):
            a = outcome(f)
        with tf.promotion_mode(other):
            b = outcome(f)
        if a != b and not (a == b == "refused"):
            differs.add(name)
    listed, report = report_lines("all", other, GUIDE)
    assert listed == differs, str(report)
    assert all(row["file"] == __file__ for row in report.rows)


def test_guide_expectations():
    """What the guide itself says: SAFE refuses its two examples (i32 + f32, i8 + u32);
    NumPy rules widen i32 + f32 and i64 + f16 to float64, where the lattice does not."""
    assert report_lines("all", "safe", GUIDE)[0] == {"i32+f32", "i8+u32", "i64+f16"}
    listed, report = report_lines("all", "legacy", GUIDE)
    assert listed == {"i32+f32", "i64+f16"}
    by_name = {row["operands"][0]["dtype"]: row for row in report.rows}
    assert by_name["int32"]["result"] == {"dtype": "float32", "weak": False}
    assert by_name["int32"]["other"] == {"dtype": "float64", "weak": False}
    assert by_name["int64"]["result"] == {"dtype": "float16", "weak": False}
    assert by_name["int64"]["other"] == {"dtype": "float64", "weak": False}


def numpy_style_program():
    x = tnp.asarray([1, 2, 3], dtype=tnp.int8)
    lines = {}
    y = x * 2  # a weak literal adapts in both modes
    z = x + tnp.asarray([0.5], dtype=tnp.float16)  # int8 ⊔ float16 = float16 in both
    lines["mixed"] = here() + 1
    w = tnp.asarray([1, 2], tnp.int64) + tnp.asarray([1.0], tnp.float32)  # ALL float32, NumPy float64
    u = tnp.asarray([1], tnp.uint32) + tnp.asarray([1], tnp.int32)  # int64 in both
    total = 0
    for i in range(3):
        lines["loop"] = here() + 1
        total = tnp.asarray([i], tnp.int32) * tnp.asarray([1.5], tnp.float32) + total  # repeated
    return (y, z, w, u, total), lines


def test_numpy_style_program_rows():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tf.promotion_mode("all", compare_with="numpy") as scope:
            (y, z, w, u, total), lines = numpy_style_program()
    assert [t.dtype for t in (y, z, w, u, total)] == [tf.int8, tf.float16, tf.float32, tf.int64, tf.float32]
    rows = scope.report().rows
    got = [(r["line"], [o["dtype"] for o in r["operands"]], r["result"]["dtype"], r["other"]["dtype"], r["count"])
           for r in rows]
    assert got == [
        (lines["mixed"], ["int64", "float32"], "float32", "float64", 1),
        (lines["loop"], ["int32", "float32"], "float32", "float64", 3),
    ], str(scope.report())


def test_results_are_those_of_the_first_mode():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain, _ = numpy_style_program()
        with tf.promotion_mode("all", compare_with="numpy"):
            observed, _ = numpy_style_program()
    for a, b in zip(plain, observed):
        assert (a.dtype, a.weak) == (b.dtype, b.weak)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_a_refusal_in_the_first_mode_still_raises_and_is_recorded():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tf.promotion_mode("safe", compare_with="all") as scope:
            line = here() + 2
            with pytest.raises(TypeError):
                tf.constant(1, tf.int32) + tf.constant(1.0, tf.float32)
    (row,) = scope.report().rows
    assert row["line"] == line
    assert set(row["result"]) == {"refused"} and "int32" in row["result"]["refused"]
    assert row["other"] == {"dtype": "float32", "weak": False}


def test_one_warning_per_site_attributed_to_the_line():
    with pytest.warns(tf.PromotionChangeWarning) as caught:
        with tf.promotion_mode("all", compare_with="numpy"):
            line = here() + 2
            for _ in range(4):
                tf.constant([1, 2], tf.int32) + tf.constant([1.0, 2.0], tf.float32)
    mine = [w for w in caught if issubclass(w.category, tf.PromotionChangeWarning)]
    assert len(mine) == 1
    assert (mine[0].filename, mine[0].lineno) == (__file__, line)
    assert "float32 in all mode but f64 in numpy mode" in str(mine[0].message).replace("f32", "float32")


def test_report_json_table_and_repr():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tf.promotion_mode("all", compare_with="numpy") as scope:
            tf.constant(1, tf.int64) + tf.constant(1.0, tf.float16)
    report = scope.report()
    data = json.loads(report.to_json())
    assert data["mode"] == "all" and data["compare_with"] == "numpy"
    assert data["rows"] == report.rows and len(report) == 1
    table = str(report)
    assert "i64, f16" in table and "f16" in table and "f64" in table and "test_migration_report.py" in table
    assert repr(report) == "<lattensor.PromotionReport: all vs numpy, 1 rows>"
    assert repr(scope) == "lattensor.promotion_mode(\"all\", compare_with=\"numpy\")"


def test_comparison_ends_with_its_scope_even_on_error():
    scope = tf.promotion_mode("all", compare_with="numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError):
            with scope:
                raise RuntimeError("boom")
        tf.constant(1, tf.int32) + tf.constant(1.0, tf.float32)  # outside: not recorded
    assert len(scope.report()) == 0


def test_equal_modes_report_nothing_and_bad_arguments_refuse():
    with tf.promotion_mode("all", compare_with="all") as scope:
        tf.constant(1, tf.int32) + tf.constant(1.0, tf.float32)
    assert len(scope.report()) == 0
    with pytest.raises(ValueError, match="compare_with"):
        tf.promotion_mode("all").report()
    with pytest.raises(ValueError, match="unknown promotion mode"):
        tf.promotion_mode("all", compare_with="sometimes")
