"""``lattensor.image``: TF's ``tf.image`` brightness, gamma and patch ops."""

from lattensor._api import bind as _bind

_bind(
    globals(),
    """
    adjust_brightness adjust_gamma extract_patches random_brightness stateless_random_brightness
    convert_image_dtype
    """.split(),
)
