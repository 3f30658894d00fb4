"""``lattensor.bitwise``: TF's ``tf.bitwise``."""

from lattensor._api import bind as _bind

_bind(globals(), "invert bitwise_and bitwise_or bitwise_xor left_shift right_shift".split())
