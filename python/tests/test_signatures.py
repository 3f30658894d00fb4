"""Every public function of lattensor's TF-like modules against TF 2.21's signature.

data/tf_signatures.json (from scripts/golden/tf_signatures.py) holds TF's
parameters (name, kind, default) for each module. For each lattensor function
that TF also has, the parameters must agree in names, order and kind, and in
their defaults (`name`'s default aside: TF names the op, lattensor ignores it).
A lattensor parameter TF lacks is an extension; a TF parameter lattensor lacks
is a gap. `KNOWN` lists the functions that still differ and how; the test
fails if a listed one starts to agree (so the list stays true) or another one
differs. `python scripts/golden/tf_signatures.py --compare` prints the report.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_signatures.json").read_text())

#: TF's module path (relative to `tf`) → lattensor's module.
MODULES = {
    "": "lattensor", "math": "lattensor.math", "math.special": "lattensor.math.special",
    "linalg": "lattensor.linalg", "nn": "lattensor.nn", "image": "lattensor.image",
    "bitwise": "lattensor.bitwise", "debugging": "lattensor.debugging", "dtypes": "lattensor.dtypes",
    "random": "lattensor.random", "experimental.numpy": "lattensor.experimental.numpy",
    "experimental.numpy.random": "lattensor.experimental.numpy.random", "raw_ops": "lattensor.raw_ops",
}

#: Functions whose signature still differs from TF's: "module:function" → the kinds of difference.
#: "default": lattensor's default is None where TF spells the value it stands for (dtype=None
#: for float32, output_type=None for int64, keepdims=False for TF's None); the calls behave alike.
#: "missing": TF parameters lattensor does not take yet (DTensor's `layout`, matmul's
#: `grad_a`/`grad_b`, eye's `batch_shape`, linspace's `axis`, full_like's `order`/`subok`,
#: sort's `kind`/`order`, sign's `out`/`where`, flatten's `order`).
#: "extra": NumPy's parameters TF's tnp lacks (`out=None`, std's `dtype`/`ddof`,
#: count_nonzero's `keepdims`), linspace's honoured `dtype`, swish's `name`, and
#: matmul's and tensordot's `preferred_element_type` (JAX's).
#: "kind": tf.raw_ops.Einsum's parameters are keyword-only (TF's raw ops refuse positional
#: arguments at call time; lattensor's signature says so).
KNOWN: dict[str, set[str]] = {
    ':argmax': {'default'},
    ':argmin': {'default'},
    ':eye': {'default', 'missing'},
    ':fill': {'missing'},
    ':linspace': {'extra', 'missing'},
    ':matmul': {'missing'},
    ':ones': {'default', 'missing'},
    ':ones_like': {'missing'},
    ':pad': {'default'},
    ':range': {'default'},
    ':split': {'default'},
    ':unique': {'default'},
    ':unique_with_counts': {'default'},
    ':zeros': {'default', 'missing'},
    ':zeros_like': {'missing'},
    'experimental.numpy:all': {'default', 'extra'},
    'experimental.numpy:amax': {'default'},
    'experimental.numpy:amin': {'default'},
    'experimental.numpy:any': {'default', 'extra'},
    'experimental.numpy:arange': {'default'},
    'experimental.numpy:count_nonzero': {'extra'},
    'experimental.numpy:diff': {'default'},
    'experimental.numpy:flatten': {'extra', 'missing'},
    'experimental.numpy:full_like': {'missing'},
    'experimental.numpy:max': {'default', 'extra'},
    'experimental.numpy:matmul': {'extra'},
    'experimental.numpy:mean': {'default'},
    'experimental.numpy:min': {'default', 'extra'},
    'experimental.numpy:nanmean': {'default', 'extra'},
    'experimental.numpy:nanprod': {'extra'},
    'experimental.numpy:nansum': {'extra'},
    'experimental.numpy:prod': {'default', 'extra'},
    'experimental.numpy:ptp': {'default', 'extra'},
    'experimental.numpy:rot90': {'default'},
    'experimental.numpy:sign': {'missing'},
    'experimental.numpy:sort': {'default', 'missing'},
    'experimental.numpy:std': {'default', 'extra'},
    'experimental.numpy:sum': {'default', 'extra'},
    'experimental.numpy:tensordot': {'extra'},
    'experimental.numpy:tri': {'default'},
    'experimental.numpy:var': {'default'},
    'image:adjust_gamma': {'default'},
    'linalg:matmul': {'missing'},
    'math:argmax': {'default'},
    'math:argmin': {'default'},
    'math:count_nonzero': {'default'},
    'nn:swish': {'extra'},
    'random:normal': {'default'},
    'random:poisson': {'default'},
    'random:stateless_normal': {'default'},
    'random:stateless_poisson': {'default'},
    'random:stateless_truncated_normal': {'default'},
    'random:stateless_uniform': {'default'},
    'random:truncated_normal': {'default'},
    'random:uniform': {'default'},
    'raw_ops:Einsum': {'kind'},
}


def _default(v):
    """A default in the golden file's encoding."""
    if v is inspect.Parameter.empty:
        return None
    name = getattr(v, "name", None)
    if isinstance(name, str) and type(v).__name__ in ("DType", "dtype"):
        return {"dtype": name}
    if isinstance(v, type):
        return {"type": v.__name__}
    return {"repr": repr(v)}


def _params(f):
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, _default(p.default)] for p in sig.parameters.values()]


def differences(ours, theirs):
    """The kinds of difference between two parameter lists, each with detail."""
    out = {}
    our_names = [p[0] for p in ours]
    tf_names = [p[0] for p in theirs]
    varargs = {"VAR_POSITIONAL", "VAR_KEYWORD"}
    if any(p[1] in varargs for p in theirs) or any(p[1] == "VAR_KEYWORD" for p in ours):
        # a *args/**kwargs side cannot be compared name by name; only a missing named parameter counts
        missing = [n for n, k, _ in theirs if k not in varargs and n not in our_names]
        if missing and not any(p[1] == "VAR_KEYWORD" for p in ours):
            out["missing"] = missing
        return out
    missing = [n for n in tf_names if n not in our_names]
    extra = [n for n in our_names if n not in tf_names]
    if missing:
        out["missing"] = missing
    if extra:
        out["extra"] = extra
    common_ours = [p for p in ours if p[0] in tf_names]
    common_tf = [p for p in theirs if p[0] in our_names]
    if [p[0] for p in common_ours] != [p[0] for p in common_tf]:
        out["order"] = [p[0] for p in common_ours]
    tf_by_name = {p[0]: p for p in theirs}
    kinds = [p[0] for p in common_ours if p[1] != tf_by_name[p[0]][1]]
    if kinds:
        out["kind"] = kinds
    defaults = [p[0] for p in common_ours if p[0] != "name" and p[2] != tf_by_name[p[0]][2]]
    if defaults:
        out["default"] = defaults
    return out


def compare():
    """(number compared, {"module:function": {kind: detail}}) over every module."""
    compared, diffs = 0, {}
    for tf_mod, funcs in GOLDEN["modules"].items():
        mod = importlib.import_module(MODULES[tf_mod])
        for fname, theirs in funcs.items():
            f = getattr(mod, fname, None)
            if f is None or isinstance(f, type) or not callable(f):
                continue
            ours = _params(f)
            if ours is None:
                continue
            compared += 1
            d = differences(ours, theirs)
            if d:
                diffs[f"{tf_mod}:{fname}"] = d
    return compared, diffs


def report(verbose=False):
    compared, diffs = compare()
    kinds: dict[str, int] = {}
    for d in diffs.values():
        for k in d:
            kinds[k] = kinds.get(k, 0) + 1
    print(f"{compared} functions compared with TF {GOLDEN['tf_version']}; {len(diffs)} differ: {kinds}")
    if verbose:
        for key, d in sorted(diffs.items()):
            print(f"  {key}: {d}")
    return compared, diffs


def test_signatures_match_tf_or_are_listed():
    compared, diffs = compare()
    assert compared > 300
    got = {k: set(v) for k, v in diffs.items()}
    unexpected = {k: diffs[k] for k in got if k not in KNOWN or not got[k] <= KNOWN[k]}
    fixed = sorted(k for k in KNOWN if k not in got)
    assert not unexpected, f"signatures that differ from TF's: {unexpected}"
    assert not fixed, f"now agree with TF; remove from KNOWN: {fixed}"


def test_diag_signatures_are_tfs():
    import lattensor as tf

    assert str(inspect.signature(tf.linalg.diag)) == (
        "(diagonal, name='diag', k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT')"
    )
    assert str(inspect.signature(tf.linalg.diag_part)) == "(input, name='diag_part', k=0, padding_value=0, align='RIGHT_LEFT')"
