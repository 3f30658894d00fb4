"""``tf.GradientTape``, ``tf.custom_gradient`` and ``tf.UnconnectedGradients``.

The tape itself is Rust (``lattensor._lattensor._GradientTape``): it records
the ops run on watched tensors and trainable variables and applies each op's
gradient rule in reverse. This module gives it TF's Python face: the context
managers and nested structures (lists, tuples, dicts) of targets and sources.
"""

from __future__ import annotations

import contextlib
import enum
import functools

from lattensor import _lattensor


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


def _zero(unconnected_gradients) -> bool:
    u = unconnected_gradients
    if isinstance(u, UnconnectedGradients):
        return u is UnconnectedGradients.ZERO
    if isinstance(u, str) and u.lower() in ("none", "zero"):
        return u.lower() == "zero"
    raise ValueError(f"Unknown value for unconnected_gradients: {u!r}; use 'none' or 'zero'")


def _flatten(structure):
    """The leaves of a nested list/tuple/dict, in TF's order (dict keys sorted)."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in _flatten(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _pack(structure, leaves):
    """``leaves`` (an iterator) arranged like ``structure``."""
    if isinstance(structure, dict):
        packed = {k: _pack(structure[k], leaves) for k in sorted(structure)}
        return {k: packed[k] for k in structure}
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[_pack(s, leaves) for s in structure])
    if isinstance(structure, (list, tuple)):
        return type(structure)(_pack(s, leaves) for s in structure)
    return next(leaves)


class GradientTape:
    """Records operations for automatic differentiation, as ``tf.GradientTape``.

    >>> import lattensor as tf
    >>> x = tf.constant(3.0)
    >>> with tf.GradientTape() as g:
    ...     g.watch(x)
    ...     y = x * x
    >>> g.gradient(y, x)
    <lattensor.Tensor: shape=(), dtype=float32, numpy=6.0, weak=True>

    Trainable variables read inside the ``with`` block are watched
    automatically (unless ``watch_accessed_variables=False``). A gradient has
    its source's dtype and weakness; integer sources and sources the target
    does not depend on give ``None``. A non-persistent tape computes one set
    of gradients; ``persistent=True`` allows more. Tapes nest: a tape that
    records while another computes gradients gives second derivatives.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._tape = _lattensor._GradientTape(bool(persistent), bool(watch_accessed_variables))
        self._persistent = bool(persistent)
        self._recording = False
        self._used = False

    def __enter__(self):
        self._tape.activate()
        self._recording = True
        return self

    def __exit__(self, typ, value, traceback):
        self._tape.deactivate()
        self._recording = False

    def watch(self, tensor):
        """Tracks a tensor or variable (or a nested structure of them)."""
        for t in _flatten(tensor):
            self._tape.watch(t)

    @contextlib.contextmanager
    def stop_recording(self):
        """A context in which operations are not recorded on this tape."""
        if not self._recording:
            raise RuntimeError("GradientTape.stop_recording() can only be used in the context of a tape that is recording")
        self._tape.set_recording(False)
        try:
            yield
        finally:
            self._tape.set_recording(True)

    def reset(self):
        """Clears everything the tape recorded and watched."""
        self._tape.reset()
        self._used = False

    def watched_variables(self):
        """The variables the tape watches, in the order first watched."""
        return tuple(self._tape.watched_variables())

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
        """The gradient of ``target`` (a tensor or a nested structure of them,
        summed) with respect to ``sources``, in the structure of ``sources``."""
        self._claim()
        targets = _flatten(target)
        flat_sources = _flatten(sources)
        og = None
        if output_gradients is not None:
            og = _flatten(output_gradients)
            if len(og) != len(targets):
                raise ValueError(
                    f"GradientTape.gradient: {len(og)} output_gradients for {len(targets)} targets; give one per target"
                )
        grads = self._tape.gradient(targets, flat_sources, og, _zero(unconnected_gradients))
        return _pack(sources, iter(grads))

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None, experimental_use_pfor=True):
        """The Jacobian of ``target`` with respect to each source: shape
        ``target.shape + source.shape``, in the structure of ``sources``."""
        del parallel_iterations, experimental_use_pfor
        self._claim()
        zero = _zero(unconnected_gradients)
        flat = [self._tape.jacobian(target, s, zero, False) for s in _flatten(sources)]
        return _pack(sources, iter(flat))

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians: ``[b] + target.shape[1:] + source.shape[1:]``."""
        del parallel_iterations, experimental_use_pfor
        self._claim()
        return self._tape.jacobian(target, source, _zero(unconnected_gradients), True)

    def _claim(self):
        # TF raises RuntimeError for a second use of a non-persistent tape
        if self._used and not self._persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians); "
                "create it with persistent=True to call it more than once"
            )
        self._used = True


def custom_gradient(f=None):
    """Decorator for a function with its own gradient, as ``tf.custom_gradient``.

    ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(dy)`` returns the gradient of
    each input (a tensor, or a list with one per input)::

        @tf.custom_gradient
        def clipped_square(x):
            def grad(dy):
                return tf.clip_by_value(2 * x * dy, -1.0, 1.0)
            return x * x, grad
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        if kwargs:
            raise TypeError(f"custom_gradient: {f.__name__} takes positional tensor arguments only, got {sorted(kwargs)}")
        return _lattensor.custom_gradient_call(f, list(args))

    return wrapped
