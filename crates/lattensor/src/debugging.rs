//! `tf.debugging`.
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tf.debugging.check_numerics` | [`check_numerics`] |

use crate::Tensor;
use crate::core::error::{Error, Result};
use crate::kernels::{for_each_block, strided::Walk};

/// Returns `tensor` unchanged if it holds no NaN or infinity
/// (`tf.debugging.check_numerics`); keeps dtype and weakness.
///
/// Like TF, only real float dtypes (`bfloat16`, `float16`, `float32`,
/// `float64`) are accepted.
///
/// ```
/// use lattensor::{debugging::check_numerics, Tensor};
/// let ok = Tensor::from_vec(vec![1.0f32, -2.0], &[2]).unwrap();
/// assert_eq!(check_numerics(&ok, "x").unwrap().to_vec::<f32>().unwrap(), vec![1.0, -2.0]);
/// let bad = Tensor::from_vec(vec![f64::NAN, f64::INFINITY], &[2]).unwrap();
/// let e = check_numerics(&bad, "after layer 3").unwrap_err();
/// assert_eq!(e.to_string(), "check_numerics: after layer 3 : Tensor had Inf and NaN values");
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] naming `message` and whether NaN, Inf or both
/// were found (TF's wording); [`Error::UnsupportedDType`] for any other dtype.
pub fn check_numerics(tensor: &Tensor, message: &str) -> Result<Tensor> {
    let (mut nan, mut inf) = (false, false);
    let walk = Walk::new([tensor.layout()]);
    let n = tensor.numel();
    // bf16 and f16 widen to f32 exactly, NaN and infinities included.
    crate::with_float_compute!(tensor.dtype(), C,
    for_each_block::<C>(tensor, &walk, 0, n, |b| {
        nan |= b.iter().any(|v| v.is_nan());
        inf |= b.iter().any(|v| v.is_infinite());
    }),
    other => {
        return Err(Error::UnsupportedDType {
            op: "check_numerics".into(),
            dtype: tensor.dtype(),
            supported: "bfloat16, float16, float32, float64".into(),
        });
    });
    let what = match (inf, nan) {
        (false, false) => return Ok(tensor.clone()),
        (true, true) => "Inf and NaN",
        (true, false) => "Inf",
        (false, true) => "NaN",
    };
    Err(Error::InvalidArgument(format!("check_numerics: {message} : Tensor had {what} values")))
}
