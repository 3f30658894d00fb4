"""``lattensor.linalg``: TF's ``tf.linalg`` (matmul on a real GEMM, diagonals, trace)."""

from lattensor._api import bind as _bind

_bind(globals(), "band_part diag diag_part matmul matrix_transpose set_diag tensor_diag_part trace einsum".split())


def adjoint(matrix, name=None):
    """Conjugate transpose of the last two axes (``tf.linalg.adjoint``)."""
    return matrix_transpose(matrix, conjugate=True)  # noqa: F821 (bound above)
