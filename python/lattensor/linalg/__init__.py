"""``lattensor.linalg``: TF's ``tf.linalg`` (matmul on a real GEMM, diagonals,
trace, and the decompositions on faer: cholesky, det, slogdet, logdet, inv,
solve, qr, eigh, eigvalsh, svd, pinv)."""

from lattensor._api import bind as _bind

_bind(
    globals(),
    (
        "band_part diag diag_part matmul matrix_transpose set_diag tensor_diag_part trace einsum "
        "cholesky det slogdet logdet inv solve qr eigh eigvalsh svd pinv"
    ).split(),
)


def adjoint(matrix, name=None):
    """Conjugate transpose of the last two axes (``tf.linalg.adjoint``)."""
    return matrix_transpose(matrix, conjugate=True)  # noqa: F821 (bound above)
