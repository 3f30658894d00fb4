"""``lattensor.experimental``: holds ``experimental.numpy`` (TF-NumPy)."""

from lattensor.experimental import numpy

__all__ = ["numpy"]
