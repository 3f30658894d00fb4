//! `tf.image`: brightness and gamma adjustment, patch extraction, and seeded
//! random brightness.
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tf.image.adjust_brightness` | [`adjust_brightness`] |
//! | `tf.image.adjust_gamma` | [`adjust_gamma`] |
//! | `tf.image.convert_image_dtype` | [`convert_image_dtype`] |
//! | `tf.image.extract_patches` | [`extract_patches`] |
//! | `tf.image.random_brightness` | [`random_brightness`] |
//! | `tf.image.stateless_random_brightness` | [`stateless_random_brightness`] |
//!
//! # Dtypes and weakness
//!
//! The pixel ops follow TF 2.21 exactly. An image of any integer or float
//! dtype is accepted; `float16` and `float32` images are adjusted in their own
//! dtype, every other dtype is first converted to `float32` by
//! [`convert_image_dtype`] (integers scaled to `[0, 1]`) and converted back
//! afterwards with saturation. So a `float64` image is adjusted at `float32`
//! precision, as in TF. Bool and complex images are refused. The result has
//! the image's dtype and is **strong**, even for a weak image: TF converts the
//! image through a dtype conversion first, and a cast's result is strong in
//! the guide's model too.
//!
//! [`extract_patches`] only moves elements: it accepts every dtype but bool and
//! keeps the input's dtype and weakness, as TF does.

use std::str::FromStr;

use crate::core::error::{Error, Result};
use crate::core::layout::{broadcast_shapes, checked_numel};
use crate::core::scalar::{Operand, Scalar};
use crate::promote::{self, PromotionMode};
use crate::{DType, Tensor, ops};

const IMAGE_DTYPES: &str =
    "uint8, uint16, uint32, uint64, int8, int16, int32, int64, bfloat16, float16, float32, float64";

/// The image's dtype, if an image may have it (any integer or real float).
fn image_dtype(op: &str, d: DType) -> Result<DType> {
    if d.is_integer() || d.is_float() {
        Ok(d)
    } else {
        Err(Error::UnsupportedDType { op: op.into(), dtype: d, supported: IMAGE_DTYPES.into() })
    }
}

/// An operand as a tensor: a literal becomes a tensor of its lattice type.
fn operand_tensor(x: Operand<'_>) -> Result<Tensor> {
    match x {
        Operand::Tensor(t) => Ok(t.clone()),
        Operand::Scalar(s) => s.to_tensor(),
    }
}

fn all_mode<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    promote::with_mode(PromotionMode::All, f)
}

/// The float image TF's pixel ops compute on: `float16`/`float32` as they are,
/// anything else converted to `float32`.
fn working_float(image: &Tensor) -> Result<Tensor> {
    match image.dtype() {
        DType::F16 | DType::F32 => Ok(image.clone()),
        _ => convert_image_dtype(image, DType::F32, false),
    }
}

/// Converts an image to `dtype`, scaling integer pixel values
/// (`tf.image.convert_image_dtype`).
///
/// Float images hold values in `[0, 1]`, integer images in `[0, MAX]`:
/// * integer → float: cast, then multiply by `1 / MAX` (rounded to `dtype`);
/// * float → integer: multiply by `MAX + 0.5` (rounded to the image's dtype),
///   then cast (truncating);
/// * integer → integer: floor-divide by `(MAX_in + 1) / (MAX_out + 1)` when
///   narrowing, multiply by its inverse when widening;
/// * float → float: a plain cast.
///
/// With `saturate`, values are clipped to the target's range before the cast
/// (TF's `saturate_cast`, [`ops::saturate_cast`]; see [`crate::cast`] for what a cast does beyond it).
/// Converting to the image's own dtype returns the image unchanged (keeping its
/// weakness); any other result is strong.
///
/// ```
/// use lattensor::{image, DType, Tensor};
/// let x = Tensor::from_vec(vec![0u8, 51, 255], &[3]).unwrap();
/// let f = image::convert_image_dtype(&x, DType::F32, false).unwrap();
/// assert_eq!(f.to_vec::<f32>().unwrap(), vec![0.0, 0.200_000_02, 1.0]); // 51 · float32(1/255)
/// let back = image::convert_image_dtype(&f, DType::U8, true).unwrap();
/// assert_eq!(back.to_vec::<u8>().unwrap(), vec![0, 51, 255]);
/// let wide = image::convert_image_dtype(&x, DType::I16, false).unwrap();
/// assert_eq!(wide.to_vec::<i16>().unwrap(), vec![0, 6528, 32640]);
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] if the image or `dtype` is bool or complex.
pub fn convert_image_dtype(image: &Tensor, dtype: DType, saturate: bool) -> Result<Tensor> {
    let from = image_dtype("convert_image_dtype", image.dtype())?;
    image_dtype("convert_image_dtype", dtype)?;
    if from == dtype {
        return Ok(image.clone());
    }
    let cast = |x: &Tensor| if saturate { ops::saturate_cast(x, dtype) } else { x.cast(dtype) };
    all_mode(|| match (from.iinfo(), dtype.iinfo()) {
        (Some(i), Some(o)) if i.max > o.max => {
            let scale = (i.max + 1) / (o.max + 1); // < 2⁶³ for every pair of integer dtypes
            cast(&ops::floordiv(image, &Scalar::Int(scale as i64).to_tensor_as(from))?)
        }
        (Some(i), Some(o)) => {
            let scale = (o.max + 1) / (i.max + 1);
            ops::multiply(&cast(image)?, &Scalar::Int(scale as i64).to_tensor_as(dtype))
        }
        (Some(i), None) => ops::multiply(&image.cast(dtype)?, &Scalar::Float(1.0 / i.max as f64).to_tensor_as(dtype)),
        (None, Some(o)) => cast(&ops::multiply(image, &Scalar::Float(o.max as f64 + 0.5).to_tensor_as(from))?),
        (None, None) => image.cast(dtype),
    })
}

/// Adds `delta` to every pixel (`tf.image.adjust_brightness`).
///
/// `float16`/`float32` images are adjusted in place of type; other images are
/// converted to `float32` in `[0, 1]` first and back with saturation after (see
/// the [module docs](self)). `delta` — a literal or a tensor broadcastable to
/// the image, usually a scalar in `(-1, 1)` — is cast to the working float
/// dtype first (a float literal is rounded to `float32` on the way, as TF's
/// `tf.cast(0.1, tf.float16)` does). The result has the image's dtype, shape
/// and weakness (the guide lists the op as a WeakTensor API; TF 2.21's export
/// returns a strong tensor, see `docs/deviations.md`).
///
/// ```
/// use lattensor::{image, DType, Tensor};
/// let x = Tensor::from_vec(vec![0.25f32, 0.5], &[2, 1]).unwrap();
/// let y = image::adjust_brightness(&x, 0.125).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![0.375, 0.625]);
/// let p = Tensor::from_vec(vec![0u8, 100, 250], &[3, 1]).unwrap();
/// let q = image::adjust_brightness(&p, 0.1).unwrap(); // 0.1 · 255.5, saturating at 255
/// assert_eq!((q.dtype(), q.to_vec::<u8>().unwrap()), (DType::U8, vec![25, 125, 255]));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool or complex images, [`Error::ShapeMismatch`]
/// if `delta` does not broadcast to the image, [`Error::Overflow`] for an
/// integer literal above `i64::MAX`.
pub fn adjust_brightness<'a>(image: &Tensor, delta: impl Into<Operand<'a>>) -> Result<Tensor> {
    let orig = image_dtype("adjust_brightness", image.dtype())?;
    let delta = operand_tensor(delta.into())?;
    broadcast_shapes(image.shape(), delta.shape(), "adjust_brightness")?;
    all_mode(|| {
        let flt = working_float(image)?;
        let adjusted = ops::add(&flt, &delta.cast(flt.dtype())?)?;
        Ok(convert_image_dtype(&adjusted, orig, true)?.with_weak(image.is_weak()))
    })
}

/// Refuses what TF's `gamma >= 0` check refuses: more than one value, a
/// complex value, a negative value or NaN. TF checks a Python number in Python
/// (`ValueError`, [`Error::InvalidValue`]) and a tensor with an assertion op
/// (`InvalidArgumentError`); `literal` says which `gamma` was.
fn check_gamma(gamma: &Tensor, literal: bool) -> Result<()> {
    if gamma.numel() != 1 {
        return Err(Error::InvalidArgument(format!(
            "adjust_gamma: gamma must be a single number, got a tensor of shape {:?}",
            gamma.shape()
        )));
    }
    if gamma.dtype().is_complex() {
        return Err(Error::UnsupportedDType {
            op: "adjust_gamma".into(),
            dtype: gamma.dtype(),
            supported: "real gamma values (any integer or float dtype)".into(),
        });
    }
    let g = gamma.cast(DType::F64)?.to_vec::<f64>()?[0];
    if g >= 0.0 {
        Ok(())
    } else {
        let msg = format!("adjust_gamma: Gamma should be a non-negative real number, got {g}");
        Err(if literal { Error::InvalidValue(msg) } else { Error::InvalidArgument(msg) })
    }
}

/// `y` cast to the dtype `x ⊕ y` promotes to in the current mode (whose
/// refusals surface here). TF converts an operand to the result dtype before
/// the kernel runs, so `float16 ** 2.2` raises to `float16(2.2) = 2.19921875`;
/// casting first gives that rounding for literals and tensors alike.
fn in_result_dtype(op: &str, x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let t = promote::promote_for(op, x.lattice_type(), y.lattice_type(), promote::current_mode())?;
    y.cast(t.dtype)
}

/// Gamma correction `gain · image ** gamma` (`tf.image.adjust_gamma`).
///
/// The image is handled as in [`adjust_brightness`]: `float16`/`float32`
/// images are used directly, others converted to `float32` in `[0, 1]` and
/// back with saturation. `gamma` and `gain` (literals or tensors) promote with
/// the working image through the lattice in the current mode and are converted
/// to the promoted dtype before use (so on a `float16` image a literal gamma is
/// rounded to `float16`, as in TF), and a `float64` gamma makes the power run
/// in `float64` before the result is converted back to the image's dtype (TF
/// does the same). TF's defaults are `gamma = 1`, `gain = 1`. The result has
/// the image's dtype and weakness, as [`adjust_brightness`].
///
/// The power is the correctly rounded `powf`/`pow` of the platform; TF's
/// vectorised Eigen `pow` is sometimes one ulp further from the true value.
///
/// ```
/// use lattensor::{image, DType, Tensor};
/// let x = Tensor::from_vec(vec![0.25f32, 1.0], &[2, 1]).unwrap();
/// let y = image::adjust_gamma(&x, 0.5, 2.0).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
/// let p = Tensor::from_vec(vec![0u8, 64, 255], &[3, 1]).unwrap();
/// let q = image::adjust_gamma(&p, 2, 1).unwrap();
/// assert_eq!(q.to_vec::<u8>().unwrap(), vec![0, 16, 255]);
/// assert!(image::adjust_gamma(&x, -1.0, 1.0).is_err());
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] if `gamma` is a negative or NaN literal (TF's `ValueError`),
/// [`Error::InvalidArgument`] if it is such a tensor or not a single value; [`Error::UnsupportedDType`] for bool or complex images and complex
/// gamma; [`Error::Promotion`] if the mode refuses to combine gamma or gain
/// with the image.
pub fn adjust_gamma<'a>(image: &Tensor, gamma: impl Into<Operand<'a>>, gain: impl Into<Operand<'a>>) -> Result<Tensor> {
    let orig = image_dtype("adjust_gamma", image.dtype())?;
    let gamma = gamma.into();
    let literal = matches!(gamma, Operand::Scalar(_));
    let gamma = operand_tensor(gamma)?;
    let gain = operand_tensor(gain.into())?;
    check_gamma(&gamma, literal)?;
    let flt = all_mode(|| working_float(image))?;
    let powered = all_mode(|| ops::pow(&flt, &in_result_dtype("pow", &flt, &gamma)?))?;
    let adjusted = all_mode(|| ops::multiply(&in_result_dtype("multiply", &powered, &gain)?, &powered))?;
    if adjusted.dtype().is_complex() {
        return Err(Error::UnsupportedDType {
            op: "adjust_gamma".into(),
            dtype: adjusted.dtype(),
            supported: format!("a real gain; the adjusted image would be {}", adjusted.dtype()),
        });
    }
    Ok(all_mode(|| convert_image_dtype(&adjusted, orig, true))?.with_weak(image.is_weak()))
}

/// Padding of [`extract_patches`], as TF's `padding` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// Only patches that lie inside the image (`"VALID"`).
    Valid,
    /// Zero padding so that there are `ceil(size / stride)` patches per axis,
    /// the odd padding element at the end (`"SAME"`).
    Same,
}

impl FromStr for Padding {
    type Err = Error;

    /// `"VALID"` or `"SAME"`, upper case as TF requires.
    fn from_str(s: &str) -> Result<Padding> {
        match s {
            "VALID" => Ok(Padding::Valid),
            "SAME" => Ok(Padding::Same),
            _ => Err(Error::InvalidArgument(format!(
                "padding must be \"VALID\" or \"SAME\" (upper case, as in TF), got {s:?}"
            ))),
        }
    }
}

/// Validates one of `sizes`/`strides`/`rates` and returns its two spatial entries.
fn spatial(name: &str, v: &[usize]) -> Result<[usize; 2]> {
    if v.len() != 4 {
        return Err(Error::InvalidArgument(format!(
            "extract_patches: {name} must have 4 entries [1, rows, cols, 1], got {v:?}"
        )));
    }
    if v.contains(&0) {
        return Err(Error::OutOfRange(format!("extract_patches: {name} is out of range: {v:?} has a zero entry")));
    }
    if v[0] != 1 || v[3] != 1 {
        return Err(Error::Unimplemented(format!(
            "extract_patches: only {name} across space are supported: {name}[0] and {name}[3] must be 1, got {v:?}"
        )));
    }
    Ok([v[1], v[2]])
}

/// Output length and leading padding along one spatial axis (TF's windowed output size).
fn window(input: usize, size: usize, stride: usize, rate: usize, padding: Padding) -> Result<(usize, usize)> {
    let overflow = || Error::ResourceExhausted(format!("extract_patches: patch size {size} at rate {rate} overflows"));
    let effective = (size - 1).checked_mul(rate - 1).and_then(|d| d.checked_add(size)).ok_or_else(overflow)?;
    Ok(match padding {
        Padding::Valid if effective <= input => ((input - effective) / stride + 1, 0),
        // TF's (input - effective + stride) / stride: 0 while that is not negative
        Padding::Valid if effective - input <= stride => (0, 0),
        Padding::Valid => {
            return Err(Error::InvalidArgument(format!(
                "extract_patches: computed output size would be negative: input size {input}, \
                 effective patch size {effective} (size {size} at rate {rate}), stride {stride}"
            )));
        }
        Padding::Same => {
            let out = input.div_ceil(stride);
            // (out - 1) · stride < input, so only the addition can overflow
            let needed = ((out.max(1) - 1) * stride).saturating_add(effective).saturating_sub(input);
            (out, needed / 2)
        }
    })
}

/// Extracts patches from a batch of NHWC images into the depth axis
/// (`tf.image.extract_patches`).
///
/// `sizes`, `strides` and `rates` are TF's four-element lists `[1, rows, cols, 1]`:
/// a patch has `sizes[1] × sizes[2]` pixels taken every `rates` pixels (dilation),
/// and patches start every `strides` pixels. The result has shape
/// `[N, out_rows, out_cols, rows · cols · C]`, each patch flattened in
/// (row, column, channel) order; with [`Padding::Same`] pixels outside the image
/// are zero. Every dtype but bool; dtype and weakness are kept.
///
/// ```
/// use lattensor::{image::{self, Padding}, Tensor};
/// let x = Tensor::from_vec((1..=9).collect::<Vec<i32>>(), &[1, 3, 3, 1]).unwrap();
/// let p = image::extract_patches(&x, &[1, 2, 2, 1], &[1, 1, 1, 1], &[1, 1, 1, 1], Padding::Valid).unwrap();
/// assert_eq!(p.shape(), &[1, 2, 2, 4]);
/// assert_eq!(p.to_vec::<i32>().unwrap(), vec![1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9]);
/// let s = image::extract_patches(&x, &[1, 2, 2, 1], &[1, 2, 2, 1], &[1, 1, 1, 1], "SAME".parse().unwrap()).unwrap();
/// assert_eq!(s.to_vec::<i32>().unwrap(), vec![1, 2, 4, 5, 3, 0, 6, 0, 7, 8, 0, 0, 9, 0, 0, 0]);
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] unless `images` is 4-D and each list has four
/// entries, or if a `VALID` patch is larger than the image plus one stride;
/// [`Error::OutOfRange`] for a zero entry; [`Error::Unimplemented`] unless the
/// first and last entries are 1; [`Error::UnsupportedDType`] for bool.
pub fn extract_patches(
    images: &Tensor,
    sizes: &[usize],
    strides: &[usize],
    rates: &[usize],
    padding: Padding,
) -> Result<Tensor> {
    if !crate::core::tape::recording() {
        return patches(images, sizes, strides, rates, padding);
    }
    // every output element is a pixel or zero padding: a selection, whose gradient
    // sums each patch element's gradient back into its pixel
    let (sz, st, rt) = (sizes.to_vec(), strides.to_vec(), rates.to_vec());
    let pick = move |t: &[Tensor]| patches(&t[0], &sz, &st, &rt, padding);
    crate::core::tape::op(
        &[images],
        || patches(images, sizes, strides, rates, padding),
        || crate::core::tape::TapeOp::Select(std::rc::Rc::new(pick)),
    )
}

fn patches(images: &Tensor, sizes: &[usize], strides: &[usize], rates: &[usize], padding: Padding) -> Result<Tensor> {
    let op = "extract_patches";
    if images.dtype().is_bool() {
        return Err(Error::UnsupportedDType {
            op: op.into(),
            dtype: DType::Bool,
            supported: "every dtype but bool".into(),
        });
    }
    let &[n, h, w, c] = images.shape() else {
        return Err(Error::InvalidArgument(format!(
            "{op}: images must be 4-D [batch, rows, cols, depth], got shape {:?}",
            images.shape()
        )));
    };
    let ([kr, kc], [sr, sc], [rr, rc]) =
        (spatial("sizes", sizes)?, spatial("strides", strides)?, spatial("rates", rates)?);
    let (out_r, pad_r) = window(h, kr, sr, rr, padding)?;
    let (out_c, pad_c) = window(w, kc, sc, rc, padding)?;
    let depth = checked_numel(&[kr, kc, c], op)?;
    let shape = [n, out_r, out_c, depth];
    // A fresh tensor is zero, and zero bytes are zero in every dtype, so
    // padding needs no per-type code: only in-image pixels are copied.
    let mut out = Tensor::zeros(&shape, images.dtype())?;
    let src = images.to_bytes()?;
    let Some(storage) = std::sync::Arc::get_mut(&mut out.storage) else {
        return Err(Error::Unimplemented(format!("{op}: output storage unexpectedly shared")));
    };
    let out_bytes = storage.as_bytes_mut();
    let es = images.dtype().size();
    let row = c * es; // one pixel's channels
    let mut o = 0;
    for b in 0..n {
        for orow in 0..out_r {
            for ocol in 0..out_c {
                for i in 0..kr {
                    let y = (orow * sr).checked_add(i * rr).and_then(|y| y.checked_sub(pad_r)).filter(|&y| y < h);
                    for j in 0..kc {
                        let x = (ocol * sc).checked_add(j * rc).and_then(|x| x.checked_sub(pad_c)).filter(|&x| x < w);
                        if let (Some(y), Some(x)) = (y, x) {
                            let s = ((b * h + y) * w + x) * row;
                            out_bytes[o..o + row].copy_from_slice(&src[s..s + row]);
                        }
                        o += row;
                    }
                }
            }
        }
    }
    Ok(out.with_weak(images.is_weak()))
}

/// TF's check on `max_delta` (which lets NaN through, as TF does).
fn check_max_delta(op: &str, max_delta: f64) -> Result<()> {
    if max_delta < 0.0 {
        // TF checks it in Python and raises `ValueError`
        return Err(Error::InvalidValue(format!("{op}: max_delta must be non-negative, got {max_delta}")));
    }
    Ok(())
}

/// The `delta` TF's `stateless_random_brightness` draws: a float32 uniform in
/// `[-max_delta, max_delta)`, computed as TF does in float32 with separate
/// rounding of product and sum.
fn stateless_delta(max_delta: f64, seed: [i64; 2]) -> f32 {
    let (lo, hi) = (-max_delta as f32, max_delta as f32);
    crate::random::philox::stateless_uniform_f32(seed) * (hi - lo) + lo
}

/// [`adjust_brightness`] by a random `delta` in `[-max_delta, max_delta)`,
/// deterministic in `seed` and equal to TF 2.21's values bit for bit
/// (`tf.image.stateless_random_brightness`).
///
/// The generator is TF's: the seed is scrambled into a Philox-4x32-10 key and
/// counter (`StatelessRandomGetKeyCounter`), the low 23 bits of the first
/// output word become a float32 `u` in `[0, 1)`, and `delta = u · (hi - lo) + lo`
/// in float32 with `lo = float32(-max_delta)`, `hi = float32(max_delta)`. TF
/// accepts int32 or int64 seeds; int32 seeds are sign-extended, so `[i64; 2]`
/// covers both. The result has the image's dtype and weakness.
///
/// ```
/// use lattensor::{image, Tensor};
/// let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[1, 3, 1]).unwrap();
/// let y = image::stateless_random_brightness(&x, 0.2, [1, 2]).unwrap();
/// // TF's documented example: tf.image.stateless_random_brightness(x, 0.2, (1, 2))
/// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.137_624_1, 2.137_624_3, 3.137_624_3]);
/// ```
///
/// # Errors
/// [`Error::InvalidValue`] for a negative `max_delta` (TF's `ValueError`); otherwise as
/// [`adjust_brightness`].
pub fn stateless_random_brightness(image: &Tensor, max_delta: f64, seed: [i64; 2]) -> Result<Tensor> {
    check_max_delta("stateless_random_brightness", max_delta)?;
    adjust_brightness(image, &Tensor::scalar(stateless_delta(max_delta, seed)))
}

/// A seed nobody chose: distinct per call, different from run to run.
fn fresh_seed() -> u64 {
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    // RandomState carries per-process random keys (and advances them per instance).
    std::collections::hash_map::RandomState::new().hash_one(CALLS.fetch_add(1, Ordering::Relaxed))
}

/// [`adjust_brightness`] by a random `delta` in `[-max_delta, max_delta)`
/// (`tf.image.random_brightness`).
///
/// With `Some(seed)` the result is deterministic: it is exactly
/// [`stateless_random_brightness`] with the seed `[seed as i64, 0]` (TF's
/// Philox-4x32-10 generator, see there). With `None`, a fresh seed is drawn
/// from process-random keys and a call counter, so calls differ. TF's own
/// stateful op draws from a per-op generator whose state depends on the global
/// seed and on how many times the op has run; lattensor has no global RNG
/// state, so its values are not TF's.
///
/// ```
/// use lattensor::{image, Tensor};
/// let x = Tensor::from_vec(vec![0.5f32; 4], &[2, 2, 1]).unwrap();
/// let a = image::random_brightness(&x, 0.25, Some(7)).unwrap().to_vec::<f32>().unwrap();
/// let b = image::stateless_random_brightness(&x, 0.25, [7, 0]).unwrap().to_vec::<f32>().unwrap();
/// assert_eq!(a, b);
/// assert!(a.iter().all(|&v| v == a[0] && (0.25..0.75).contains(&v)));
/// ```
///
/// # Errors
/// As [`stateless_random_brightness`].
pub fn random_brightness(image: &Tensor, max_delta: f64, seed: Option<u64>) -> Result<Tensor> {
    check_max_delta("random_brightness", max_delta)?;
    let seed = seed.unwrap_or_else(fresh_seed);
    adjust_brightness(image, &Tensor::scalar(stateless_delta(max_delta, [seed as i64, 0])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_seeds_differ() {
        assert_ne!(fresh_seed(), fresh_seed());
    }

    #[test]
    fn bad_arguments_are_errors() {
        let x = Tensor::from_vec(vec![0.5f32; 4], &[1, 2, 2, 1]).unwrap();
        let one = [1, 1, 1, 1];
        assert!(extract_patches(&x, &[1, 0, 1, 1], &one, &one, Padding::Valid).is_err());
        assert!(extract_patches(&x, &[2, 1, 1, 1], &one, &one, Padding::Valid).is_err());
        assert!(extract_patches(&x, &[1, 1, 1], &one, &one, Padding::Valid).is_err());
        assert!(extract_patches(&x, &[1, 4, 1, 1], &one, &one, Padding::Valid).is_err());
        assert!(extract_patches(&x, &[1, usize::MAX, 1, 1], &one, &[1, 3, 1, 1], Padding::Same).is_err());
        assert!(stateless_random_brightness(&x, -0.1, [0, 0]).is_err());
        assert!(adjust_brightness(&Tensor::scalar(true), 0.1).is_err());
        assert!(adjust_gamma(&x, Tensor::from_vec(vec![1.0f32, 2.0], &[2]).as_ref().unwrap(), 1.0).is_err());
        assert!(adjust_gamma(&x, f64::NAN, 1.0).is_err());
        assert!("valid".parse::<Padding>().is_err());
    }
}
