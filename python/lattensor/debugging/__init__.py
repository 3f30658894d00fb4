"""``lattensor.debugging``: TF's ``tf.debugging``."""

from lattensor._api import bind as _bind

_bind(globals(), "check_numerics".split())
