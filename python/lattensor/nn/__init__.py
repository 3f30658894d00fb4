"""``lattensor.nn``: TF's ``tf.nn`` activations and space/depth rearrangements."""

from lattensor._api import bind as _bind

_bind(
    globals(),
    """
    depth_to_space elu gelu leaky_relu log_softmax relu relu6 selu softsign space_to_depth swish
    softmax sigmoid tanh softplus
    """.split(),
)
