"""lattensor tensors as the chunks of Dask arrays.

Importing this module (or importing ``lattensor`` and ``dask.array`` in either
order) registers lattensor with Dask: ``lattensor.Tensor`` becomes a Dask
chunk type, Dask's per-type dispatch works on tensors, element-wise graphs take
their dtype and weakness from the lattice, and the ``"lattensor"`` array
backend is available::

    import dask.array as da
    import lattensor as tf
    import lattensor.dask as ld

    x = ld.from_array(tf.constant(np.ones((1000, 1000), np.float16)), chunks=250)
    y = x + 1.0                     # float16: the weak literal adapts, as in lattensor
    y._meta                         # a zero-size float16 lattensor tensor
    ld.compute(y.sum(axis=0))       # a lattensor tensor

    with dask.config.set({"array.backend": "lattensor"}):
        z = da.random.random((4096, 4096), chunks=1024)   # lattensor chunks

See ``docs/dask.md`` for what is registered, serialization and running on a
cluster of machines.
"""

from __future__ import annotations

from lattensor import _lattensor as _C
from lattensor.dask._register import register

register()

from lattensor.dask._backend import LattensorBackendEntrypoint  # noqa: E402
from lattensor.dask._random import RandomState  # noqa: E402

__all__ = [
    "LattensorBackendEntrypoint",
    "RandomState",
    "check_workers",
    "compute",
    "from_array",
    "is_lattensor",
    "register",
    "to_dask",
]


def from_array(x, chunks="auto", **kwargs):
    """A Dask array of lattensor chunks from ``x`` (a tensor, a NumPy array, a
    list; converted by ``lattensor.convert_to_tensor``'s rules, so a NumPy
    array keeps its dtype and a tensor its weakness). ``chunks`` and the other
    keywords are ``dask.array.from_array``'s."""
    import dask.array as da

    t = x if isinstance(x, _C.Tensor) else _C.convert_to_tensor(x)
    kwargs["asarray"] = False
    kwargs.setdefault("meta", t[tuple(slice(0, 0) for _ in range(t.ndim))])
    return da.from_array(t, chunks=chunks, **kwargs)


to_dask = from_array


def is_lattensor(x) -> bool:
    """Whether ``x`` is a Dask array whose chunks are lattensor tensors."""
    return isinstance(getattr(x, "_meta", None), _C.Tensor)


def compute(x, **kwargs):
    """Computes the Dask array ``x`` of lattensor chunks and returns the
    lattensor tensor (``dask.compute``'s keywords, e.g. ``scheduler=``).

    Raises:
        TypeError: ``x`` is not a Dask array of lattensor chunks, or a chunk
            came back as another type (a worker without lattensor's
            registration would hand back NumPy; nothing is converted silently).
    """
    import dask

    if not is_lattensor(x):
        raise TypeError(
            f"lattensor.dask.compute: expected a Dask array of lattensor chunks, got {type(x).__name__}"
            + (f" with {type(x._meta).__name__} chunks" if hasattr(x, "_meta") else "")
            + "; build it with lattensor.dask.from_array or under dask.config.set({'array.backend': 'lattensor'})"
        )
    (out,) = dask.compute(x, **kwargs)
    if not isinstance(out, _C.Tensor):
        raise TypeError(
            f"lattensor.dask.compute: the graph produced {type(out).__name__}, not a lattensor tensor; "
            "a task returned a non-lattensor chunk (check that every worker has lattensor installed)"
        )
    return out


def check_workers(client) -> dict:
    """Checks that every worker of the ``distributed.Client`` can import
    lattensor; returns ``{worker address: lattensor version}``.

    A worker without lattensor cannot unpickle a lattensor chunk or task: its
    process dies while receiving the task, and the task waits for another
    worker (nothing is lost, nothing is converted to NumPy). Call this after
    connecting to turn that into an error that names the workers.

    Raises:
        RuntimeError: some workers cannot import lattensor (names them and the
            import error).
    """
    import functools

    probe = functools.partial(exec, "import lattensor")  # pickled by reference: needs no lattensor to unpickle
    results = client.run(probe, on_error="return")
    failed = {addr: r for addr, r in results.items() if isinstance(r, BaseException)}
    if failed:
        lines = "; ".join(f"{addr}: {type(e).__name__}: {e}" for addr, e in sorted(failed.items()))
        raise RuntimeError(
            f"lattensor.dask.check_workers: {len(failed)} of {len(results)} Dask workers cannot import lattensor "
            f"({lines}); install lattensor (pip install lattensor[dask]) in every worker's environment"
        )
    versions = client.run(functools.partial(eval, "__import__('lattensor').__version__"))
    return dict(versions)
