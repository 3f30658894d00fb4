"""``lattensor.raw_ops``: TF's ``tf.raw_ops``, the ops under their kernel names
with keyword-only arguments. The library's raw ops that programs call directly
are here."""

from lattensor import _lattensor


def Einsum(*, inputs, equation, name=None):  # noqa: N802 (TF's op name)
    """``tf.raw_ops.Einsum(inputs=[...], equation=...)``: the raw op's rules: an
    explicit ``->`` is required and a label repeated in the output expands a
    diagonal (``'i->ii'``), which the op's gradient uses."""
    del name
    return _lattensor.raw_einsum(inputs, equation)
