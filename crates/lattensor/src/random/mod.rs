//! `tf.random`'s stateless generators: the same seed gives the same tensor,
//! on any machine and any number of threads.
//!
//! | TF | lattensor |
//! |---|---|
//! | `tf.random.stateless_uniform(shape, seed, minval, maxval, dtype)` (floats) | [`stateless_uniform`] |
//! | the same with an integer dtype and `minval`/`maxval` | [`stateless_uniform_int`] |
//! | the same with an integer dtype and no bounds | [`stateless_uniform_full_int`] |
//! | `tf.random.stateless_normal(shape, seed, mean, stddev, dtype)` | [`stateless_normal`] |
//! | `tf.random.stateless_truncated_normal(shape, seed, mean, stddev, dtype)` | [`stateless_truncated_normal`] |
//! | `tf.random.stateless_poisson(shape, seed, lam, dtype)` | [`stateless_poisson`] |
//!
//! The uniform, normal and truncated normal generators are TF 2.21's on CPU,
//! bit for bit: the
//! seed is scrambled into a Philox-4x32-10 key and counter
//! (`StatelessRandomGetKeyCounter`), each block of 128 random bits becomes
//! four float32/float16/bfloat16/int32 values or two float64/int64 values
//! (TF's `UniformDistribution`), and normals come from the Box–Muller
//! transform of pairs of uniforms (TF's `NormalDistribution`). The golden
//! tests compare them with TF's outputs bit for bit.
//!
//! The Poisson sampler follows TF's algorithms (Knuth's product of uniforms
//! for rates below 10, Hörmann's transformed rejection PTRS above) but not
//! TF's exact stream, so its values differ from TF's; its distribution is
//! tested against the Poisson law.

pub(crate) mod philox;
mod poisson;

use half::{bf16, f16};

use crate::core::error::Result;
use crate::core::layout::broadcast_shapes;
use crate::dispatch::FloatStorage;
use crate::kernels::for_chunks;
use crate::kernels::simd::simd;
use crate::ops::unary::unsupported;
use crate::{DType, Element, Tensor};
use philox::{LANES, Stream, Words, word_to_bf16, word_to_f16, word_to_f32, words_to_f64};

/// Fills a new tensor from the seed's stream in groups of `group` elements,
/// group `g` drawing from the stream `g * blocks_per_group` blocks on, as TF's
/// `FillPhiloxRandom` hands them out: so the values do not depend on how the
/// output is cut into chunks, which are filled in parallel.
fn fill<T: Element>(
    op: &str,
    shape: &[usize],
    dtype: DType,
    seed: [i64; 2],
    (group, blocks_per_group): (usize, u64),
    values: impl Fn(Stream, &mut [T]) + Sync,
) -> Result<Tensor> {
    let mut out = Tensor::for_overwrite(op, shape, dtype)?;
    let stream = Stream::from_seed(seed);
    // The parallel chunks are a multiple of 4 elements long, so each starts on a group.
    for_chunks(out.data_mut::<T>(), |start, chunk| {
        for (g, part) in chunk.chunks_mut(group).enumerate() {
            values(stream.skipped(((start / group + g) as u64).wrapping_mul(blocks_per_group)), part);
        }
    });
    Ok(out)
}

/// [`fill`] for distributions that make `P` values of each block, with the
/// blocks computed [`LANES`] at a time ([`Stream::next_lanes`]; the blocks past
/// the end of a chunk are computed and dropped).
fn fill_blocks<T: Element, const P: usize>(
    op: &str,
    shape: &[usize],
    dtype: DType,
    seed: [i64; 2],
    values: impl Fn([u32; 4], &mut [T]) + Sync,
) -> Result<Tensor> {
    let mut out = Tensor::for_overwrite(op, shape, dtype)?;
    let stream = Stream::from_seed(seed);
    // The parallel chunks are a multiple of 4 elements long, so each starts on a block.
    for_chunks(out.data_mut::<T>(), |start, chunk| {
        let mut s = stream.skipped((start / P) as u64);
        simd!({
            for batch in chunk.chunks_mut(P * LANES) {
                let w = s.next_lanes();
                for (i, g) in batch.chunks_mut(P).enumerate() {
                    values([w[0][i], w[1][i], w[2][i], w[3][i]], g);
                }
            }
        })
    });
    Ok(out)
}

/// The float types whose uniform values take one 32-bit word each.
trait FromWord: Element {
    /// A uniform value in `[0, 1)` from the word's low bits (TF's `Uint32ToFloat` and its 16-bit forms).
    fn from_word(w: u32) -> Self;
}

impl FromWord for f16 {
    fn from_word(w: u32) -> Self {
        word_to_f16(w)
    }
}

impl FromWord for bf16 {
    fn from_word(w: u32) -> Self {
        word_to_bf16(w)
    }
}

impl FromWord for f32 {
    fn from_word(w: u32) -> Self {
        word_to_f32(w)
    }
}

/// Uniform floats in `[0, 1)` of a float dtype, from the seed's stream.
fn unit_uniform(op: &str, shape: &[usize], seed: [i64; 2], dtype: DType) -> Result<Tensor> {
    if dtype == DType::F64 {
        return fill_blocks::<_, 2>(op, shape, dtype, seed, |w, g: &mut [f64]| {
            g.iter_mut().zip(w.chunks(2)).for_each(|(o, x)| *o = words_to_f64(x[0], x[1]))
        });
    }
    crate::with_f32_dtype!(dtype, S,
        fill_blocks::<_, 4>(op, shape, dtype, seed, |w, g: &mut [S]| {
            g.iter_mut().zip(w).for_each(|(o, x)| *o = S::from_word(x))
        }),
        other => Err(unsupported(op, dtype, "float16, bfloat16, float32 and float64")))
}

/// `scale * x + shift` element-wise in `dtype`'s own arithmetic, rounding after
/// the product and after the sum (as TF's separate `mul` and `add` ops do), with
/// `scale` and `shift` first converted to `dtype`.
fn affine(x: Tensor, scale: f64, shift: f64) -> Result<Tensor> {
    let dtype = x.dtype();
    let (scale, shift) = (Tensor::scalar(scale).cast(dtype)?, Tensor::scalar(shift).cast(dtype)?);
    &(&x * &scale)? + &shift
}

/// Uniform random floats in `[minval, maxval)`, deterministic in `seed`: TF
/// 2.21's `tf.random.stateless_uniform(shape, seed, minval, maxval, dtype)`
/// bit for bit, for float16, bfloat16, float32 and float64.
///
/// The unit uniforms are computed as TF does (random mantissa bits of a number in
/// `[1, 2)`, minus 1), then `minval` and `maxval` are converted to `dtype` and
/// the result is `u * (maxval - minval) + minval` in `dtype`, rounded after
/// each operation. Like TF, `minval >= maxval` is not an error. The result is
/// strong.
///
/// # Errors
/// [`Error::UnsupportedDType`](crate::Error::UnsupportedDType) for other dtypes
/// (use [`stateless_uniform_int`] for integers);
/// [`Error::ResourceExhausted`](crate::Error::ResourceExhausted) if the shape is
/// too large to allocate.
///
/// ```
/// use lattensor::{random, DType};
/// let x = random::stateless_uniform(&[3], [1, 2], 0.0, 1.0, DType::F32).unwrap();
/// // TF 2.21: tf.random.stateless_uniform([3], seed=[1, 2])
/// assert_eq!(x.to_vec::<f32>().unwrap(), [0.8440604, 0.19204533, 0.9962232]);
/// let y = random::stateless_uniform(&[3], [1, 2], 0.0, 1.0, DType::F32).unwrap();
/// assert_eq!(x.to_vec::<f32>().unwrap(), y.to_vec::<f32>().unwrap());
/// ```
pub fn stateless_uniform(shape: &[usize], seed: [i64; 2], minval: f64, maxval: f64, dtype: DType) -> Result<Tensor> {
    let u = unit_uniform("stateless_uniform", shape, seed, dtype)?;
    if minval == 0.0 && maxval == 1.0 {
        // `u * 1 + 0` is `u` in every float dtype (u >= +0); skipping the two
        // passes takes a 32 MiB float32 draw from 53 to 44 ms on one thread
        return Ok(u);
    }
    let (lo, hi) = (Tensor::scalar(minval).cast(dtype)?, Tensor::scalar(maxval).cast(dtype)?);
    &(&u * &(&hi - &lo)?)? + &lo
}

/// Uniform random integers in `[minval, maxval)`, deterministic in `seed`: TF
/// 2.21's `tf.random.stateless_uniform(shape, seed, minval, maxval, dtype)` for
/// int32 and int64, bit for bit.
///
/// Each value is `minval + bits % (maxval - minval)`, with 32 random bits for
/// int32 and 64 for int64 (so ranges that do not divide 2³² or 2⁶⁴ are very
/// slightly biased towards their low end, as in TF). Strong result.
///
/// # Errors
/// [`Error::InvalidArgument`](crate::Error::InvalidArgument) unless
/// `minval < maxval` and both fit in `dtype`;
/// [`Error::UnsupportedDType`](crate::Error::UnsupportedDType) for dtypes other
/// than int32 and int64.
///
/// ```
/// use lattensor::{random, DType};
/// let x = random::stateless_uniform_int(&[4], [7, 0], -3, 3, DType::I32).unwrap();
/// assert!(x.to_vec::<i32>().unwrap().iter().all(|v| (-3..3).contains(v)));
/// ```
pub fn stateless_uniform_int(
    shape: &[usize],
    seed: [i64; 2],
    minval: i64,
    maxval: i64,
    dtype: DType,
) -> Result<Tensor> {
    let op = "stateless_uniform_int";
    crate::ensure!(minval < maxval, "{op}: need minval < maxval, got {minval} >= {maxval}");
    match dtype {
        DType::I32 => {
            let (lo, hi) = (i32::try_from(minval), i32::try_from(maxval));
            let (Ok(lo), Ok(_)) = (lo, hi) else {
                crate::bail!("{op}: minval {minval} and maxval {maxval} must fit in int32; use dtype int64")
            };
            let range = (maxval - minval) as u32;
            fill_blocks::<_, 4>(op, shape, dtype, seed, |w, g: &mut [i32]| {
                g.iter_mut().zip(w).for_each(|(o, x)| *o = lo.wrapping_add((x % range) as i32))
            })
        }
        DType::I64 => {
            // maxval - minval may overflow i64 but always fits in u64
            let range = (maxval as u64).wrapping_sub(minval as u64);
            fill_blocks::<_, 2>(op, shape, dtype, seed, |w, g: &mut [i64]| {
                g.iter_mut().zip(w.chunks(2)).for_each(|(o, x)| {
                    let bits = u64::from(x[0]) | (u64::from(x[1]) << 32);
                    *o = minval.wrapping_add((bits % range) as i64);
                })
            })
        }
        _ => Err(unsupported(op, dtype, "int32 and int64 (with bounds)")),
    }
}

/// Random integers over the whole range of `dtype`, deterministic in `seed`:
/// TF 2.21's `tf.random.stateless_uniform(shape, seed, dtype=...)` with
/// `minval=None` and `maxval=None`, for int32, int64, uint32 and uint64, bit
/// for bit. Strong result.
///
/// # Errors
/// [`Error::UnsupportedDType`](crate::Error::UnsupportedDType) for other dtypes.
///
/// ```
/// use lattensor::{random, DType};
/// let x = random::stateless_uniform_full_int(&[2], [1, 2], DType::U32).unwrap();
/// assert_eq!(x.shape(), [2]);
/// ```
pub fn stateless_uniform_full_int(shape: &[usize], seed: [i64; 2], dtype: DType) -> Result<Tensor> {
    let op = "stateless_uniform_full_int";
    let wide = |x: &[u32]| u64::from(x[0]) | (u64::from(x[1]) << 32);
    match dtype {
        DType::I32 => fill_blocks::<_, 4>(op, shape, dtype, seed, |w, g: &mut [i32]| {
            g.iter_mut().zip(w).for_each(|(o, x)| *o = x as i32)
        }),
        DType::U32 => fill_blocks::<_, 4>(op, shape, dtype, seed, |w, g: &mut [u32]| g.copy_from_slice(&w[..g.len()])),
        DType::I64 => fill_blocks::<_, 2>(op, shape, dtype, seed, |w, g: &mut [i64]| {
            g.iter_mut().zip(w.chunks(2)).for_each(|(o, x)| *o = wide(x) as i64)
        }),
        DType::U64 => fill_blocks::<_, 2>(op, shape, dtype, seed, |w, g: &mut [u64]| {
            g.iter_mut().zip(w.chunks(2)).for_each(|(o, x)| *o = wide(x))
        }),
        _ => Err(unsupported(op, dtype, "int32, int64, uint32 and uint64")),
    }
}

/// TF's `BoxMullerFloat`: two float32 normals from two words. The angle is
/// `2π·u` computed in double and rounded once, as TF's C++ does (`M_PI` is a
/// double); logarithm, square root, sine and cosine are float32's.
fn box_muller_f32(x0: u32, x1: u32) -> (f32, f32) {
    let u1 = word_to_f32(x0).max(1.0e-7);
    let v1 = (2.0 * std::f64::consts::PI * f64::from(word_to_f32(x1))) as f32;
    let u2 = (-2.0f32 * u1.ln()).sqrt();
    let (s, c) = v1.sin_cos();
    (s * u2, c * u2)
}

/// TF's `BoxMullerDouble`: two float64 normals from four words.
fn box_muller_f64(w: [u32; 4]) -> (f64, f64) {
    let u1 = words_to_f64(w[0], w[1]).max(1.0e-7);
    let v1 = 2.0 * std::f64::consts::PI * words_to_f64(w[2], w[3]);
    let u2 = (-2.0 * u1.ln()).sqrt();
    let (s, c) = v1.sin_cos();
    (s * u2, c * u2)
}

/// Four float32 normals from a block, narrowed to `T`.
fn normals_from_block<T>(w: [u32; 4], g: &mut [T], narrow: impl Fn(f32) -> T) {
    let (a, b) = box_muller_f32(w[0], w[1]);
    let (c, d) = box_muller_f32(w[2], w[3]);
    g.iter_mut().zip([a, b, c, d]).for_each(|(o, v)| *o = narrow(v));
}

/// Normally distributed random floats, deterministic in `seed`: TF 2.21's
/// `tf.random.stateless_normal(shape, seed, mean, stddev, dtype)` bit for bit
/// (float16 and bfloat16 are float32 normals rounded once).
///
/// Standard normals come from the Box–Muller transform of pairs of uniforms;
/// the result is `z * stddev + mean` in `dtype` (rounded after each operation,
/// `mean` and `stddev` first converted to `dtype`). Strong result.
///
/// # Errors
/// [`Error::UnsupportedDType`](crate::Error::UnsupportedDType) for dtypes other
/// than the four real floats;
/// [`Error::ResourceExhausted`](crate::Error::ResourceExhausted) if the shape is
/// too large to allocate.
///
/// ```
/// use lattensor::{random, DType};
/// let z = random::stateless_normal(&[2], [1, 2], 0.0, 1.0, DType::F64).unwrap();
/// let w = random::stateless_normal(&[2], [1, 2], 10.0, 2.0, DType::F64).unwrap();
/// let (z, w) = (z.to_vec::<f64>().unwrap(), w.to_vec::<f64>().unwrap());
/// assert_eq!(w[0], z[0] * 2.0 + 10.0);
/// ```
pub fn stateless_normal(shape: &[usize], seed: [i64; 2], mean: f64, stddev: f64, dtype: DType) -> Result<Tensor> {
    let op = "stateless_normal";
    let z = if dtype == DType::F64 {
        fill_blocks::<_, 2>(op, shape, dtype, seed, |w, g: &mut [f64]| {
            let (a, b) = box_muller_f64(w);
            g.iter_mut().zip([a, b]).for_each(|(o, v)| *o = v);
        })
    } else {
        // float16/bfloat16 round the float32 normals once
        crate::with_f32_dtype!(dtype, S,
            fill_blocks::<_, 4>(op, shape, dtype, seed, |w, g: &mut [S]| normals_from_block(w, g, S::from_f32)),
            other => return Err(unsupported(op, dtype, "float16, bfloat16, float32 and float64")))
    }?;
    affine(z, stddev, mean)
}

/// Blocks of the stream reserved for each value of a distribution that uses a
/// varying number of words per value (TF's `kReservedSamplesPerOutput`, in words,
/// over the four words of a block).
const RESERVED_BLOCKS_PER_VALUE: u64 = 256 / 4;

/// Normals rejected outside `(-2, 2)`, as TF's `TruncatedNormalDistribution`:
/// Box–Muller pairs from a group's own stretch of the stream, each kept only
/// if its magnitude is below 2, until the group is full.
fn truncated_group<T>(s: Stream, g: &mut [T], wide: bool, narrow: impl Fn(f64) -> T) {
    let mut words = Words::new(s);
    let mut filled = 0;
    // g.len() ≤ the group size, so the loop ends once enough pairs fall inside
    // (each does with probability 0.95)
    while filled < g.len() {
        let pair = if wide {
            let (a, b) = box_muller_f64([words.next(), words.next(), words.next(), words.next()]);
            [a, b]
        } else {
            let (a, b) = box_muller_f32(words.next(), words.next());
            [f64::from(a), f64::from(b)]
        };
        for v in pair {
            if v.abs() < 2.0 && filled < g.len() {
                g[filled] = narrow(v);
                filled += 1;
            }
        }
    }
}

/// Normals truncated to two standard deviations, deterministic in `seed`: TF
/// 2.21's `tf.random.stateless_truncated_normal(shape, seed, mean, stddev,
/// dtype)` bit for bit.
///
/// Standard normals outside `(-2, 2)` are drawn again (Box–Muller as in
/// [`stateless_normal`]); each group of four values (two for float64) takes its
/// words from its own stretch of the stream, as TF's kernel does, so the values
/// do not depend on the thread count. The result is `z * stddev + mean` in
/// `dtype`; strong.
///
/// # Errors
/// As [`stateless_normal`].
///
/// ```
/// use lattensor::{random, DType};
/// let z = random::stateless_truncated_normal(&[1000], [3, 4], 0.0, 1.0, DType::F32).unwrap();
/// assert!(z.to_vec::<f32>().unwrap().iter().all(|v| v.abs() < 2.0));
/// ```
pub fn stateless_truncated_normal(
    shape: &[usize],
    seed: [i64; 2],
    mean: f64,
    stddev: f64,
    dtype: DType,
) -> Result<Tensor> {
    let op = "stateless_truncated_normal";
    // float32 pairs hold exactly in f64, so `narrow` rounds once
    let narrow4 = (4, 4 * RESERVED_BLOCKS_PER_VALUE);
    let z = if dtype == DType::F64 {
        fill(op, shape, dtype, seed, (2, 2 * RESERVED_BLOCKS_PER_VALUE), |s, g: &mut [f64]| {
            truncated_group(s, g, true, |v| v)
        })
    } else {
        crate::with_f32_dtype!(dtype, S,
            fill(op, shape, dtype, seed, narrow4, |s, g: &mut [S]| truncated_group(s, g, false, S::round_f64)),
            other => return Err(unsupported(op, dtype, "float16, bfloat16, float32 and float64")))
    }?;
    affine(z, stddev, mean)
}

/// Poisson-distributed random counts with rates `lam`, deterministic in
/// `seed` (`tf.random.stateless_poisson(shape, seed, lam, dtype)`).
///
/// `lam` (any real dtype) is broadcast to `shape`, whose trailing dimensions it
/// must match; each element draws from its own part of the seed's stream
/// (256 blocks apart, as TF reserves), by Knuth's product of uniforms for
/// rates below 10 and Hörmann's transformed rejection (PTRS) above. The
/// values follow the Poisson law but are not TF's (see the module's notes).
/// `dtype` is int32, int64 or a real float dtype; the result is strong.
///
/// # Errors
/// [`Error::InvalidArgument`](crate::Error::InvalidArgument) if `lam` does not
/// broadcast to `shape` or a rate is negative, NaN or infinite;
/// [`Error::UnsupportedDType`](crate::Error::UnsupportedDType) for other dtypes.
///
/// ```
/// use lattensor::{random, DType, Tensor};
/// let lam = Tensor::from_vec(vec![0.0f32, 3.0, 1e6], &[3]).unwrap();
/// let k = random::stateless_poisson(&[2, 3], [4, 2], &lam, DType::I64).unwrap();
/// let k = k.to_vec::<i64>().unwrap();
/// assert_eq!((k[0], k[3]), (0, 0)); // a rate of 0 gives 0
/// assert!((k[2] - 1_000_000).abs() < 10_000); // 10 standard deviations
/// ```
pub fn stateless_poisson(shape: &[usize], seed: [i64; 2], lam: &Tensor, dtype: DType) -> Result<Tensor> {
    let op = "stateless_poisson";
    if !matches!(dtype, DType::I32 | DType::I64 | DType::F16 | DType::BF16 | DType::F32 | DType::F64) {
        return Err(unsupported(op, dtype, "int32, int64, float16, bfloat16, float32 and float64"));
    }
    if !matches!(lam.dtype(), DType::F16 | DType::BF16 | DType::F32 | DType::F64 | DType::I32 | DType::I64) {
        return Err(unsupported(op, lam.dtype(), "float16, bfloat16, float32, float64, int32 and int64 (lam)"));
    }
    crate::ensure!(
        broadcast_shapes(lam.shape(), shape, op).ok().as_deref() == Some(shape),
        "{op}: lam of shape {:?} does not broadcast to the shape {shape:?}; its shape must match the shape's last dimensions",
        lam.shape()
    );
    let rates = lam.broadcast_to(shape)?.cast(DType::F64)?.contiguous()?;
    let rates = rates.to_vec::<f64>()?;
    if let Some(bad) = rates.iter().find(|r| !(r.is_finite() && **r >= 0.0)) {
        crate::bail!("{op}: lam must be finite and non-negative, got {bad}");
    }
    if let Some(big) = rates.iter().find(|&&r| r > poisson::MAX_RATE) {
        crate::bail!(
            "{op}: lam {big} is too large (at most {:e}), its counts would not fit in int64",
            poisson::MAX_RATE
        );
    }
    let counts = poisson::sample(&rates, Stream::from_seed(seed));
    Tensor::from_vec(counts, shape)?.cast(dtype)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_floats_follow_tf_for_the_first_values() {
        // TF 2.21: tf.random.stateless_uniform([5], seed=[1, 2])
        let x = stateless_uniform(&[5], [1, 2], 0.0, 1.0, DType::F32).unwrap();
        assert_eq!(x.to_vec::<f32>().unwrap(), [0.8440604, 0.19204533, 0.9962232, 0.1603874, 0.27199018]);
        assert!(!x.is_weak());
    }

    #[test]
    fn chunks_and_threads_do_not_change_the_stream() {
        // large enough to be filled in parallel chunks; the values must equal a
        // serial walk of the stream
        let n = (1 << 18) + 3;
        let x = stateless_uniform_full_int(&[n], [3, 4], DType::U32).unwrap().to_vec::<u32>().unwrap();
        let mut s = Stream::from_seed([3, 4]);
        let serial: Vec<u32> = (0..n.div_ceil(4)).flat_map(|_| s.next_block()).take(n).collect();
        assert_eq!(x, serial);
        let y = stateless_uniform_full_int(&[n], [3, 4], DType::U64).unwrap().to_vec::<u64>().unwrap();
        assert_eq!(y[1], u64::from(serial[2]) | (u64::from(serial[3]) << 32));
    }

    #[test]
    fn batched_fills_equal_the_serial_stream_at_odd_lengths() {
        // lengths around the batch of LANES blocks (4 values a block for 32-bit
        // values, 2 for 64-bit ones), so partial blocks and partial batches occur
        let batch = 4 * philox::LANES;
        for n in [1, 2, 3, 5, batch - 1, batch, batch + 1, batch + 3, 3 * batch + 7, 1001] {
            let seed = [n as i64, -17];
            let mut s = Stream::from_seed(seed);
            let serial: Vec<u32> = (0..n.div_ceil(2)).flat_map(|_| s.next_block()).collect();
            let u = stateless_uniform_full_int(&[n], seed, DType::U32).unwrap().to_vec::<u32>().unwrap();
            assert_eq!(u, serial[..n], "u32, n = {n}");
            let f = stateless_uniform(&[n], seed, 0.0, 1.0, DType::F32).unwrap().to_vec::<f32>().unwrap();
            let want: Vec<f32> = serial[..n].iter().map(|&w| word_to_f32(w)).collect();
            assert_eq!(f, want, "f32, n = {n}");
            let d = stateless_uniform(&[n], seed, 0.0, 1.0, DType::F64).unwrap().to_vec::<f64>().unwrap();
            let want: Vec<f64> = serial[..2 * n].chunks(2).map(|w| words_to_f64(w[0], w[1])).collect();
            assert_eq!(d, want, "f64, n = {n}");
        }
    }

    #[test]
    fn integers_stay_in_range_and_refuse_bad_bounds() {
        let x = stateless_uniform_int(&[1000], [9, 9], i64::MIN, i64::MAX, DType::I64).unwrap();
        assert!(x.to_vec::<i64>().unwrap().iter().any(|&v| v < 0));
        let y = stateless_uniform_int(&[1000], [9, 9], 5, 8, DType::I32).unwrap().to_vec::<i32>().unwrap();
        assert!(y.iter().all(|v| (5..8).contains(v)) && [5, 6, 7].iter().all(|v| y.contains(v)));
        assert!(
            stateless_uniform_int(&[1], [0, 0], 3, 3, DType::I32).unwrap_err().to_string().contains("minval < maxval")
        );
        assert!(stateless_uniform_int(&[1], [0, 0], 0, 1 << 40, DType::I32).unwrap_err().to_string().contains("int64"));
        assert!(stateless_uniform_int(&[1], [0, 0], 0, 1, DType::U8).is_err());
        assert!(stateless_uniform(&[1], [0, 0], 0.0, 1.0, DType::I32).is_err());
        assert!(stateless_normal(&[1], [0, 0], 0.0, 1.0, DType::C64).is_err());
    }

    #[test]
    fn huge_shapes_are_errors() {
        let e = stateless_normal(&[1 << 40, 1 << 30], [0, 0], 0.0, 1.0, DType::F32).unwrap_err();
        assert!(e.to_string().contains("stateless_normal"), "{e}");
        assert!(stateless_uniform(&[usize::MAX, 2], [0, 0], 0.0, 1.0, DType::F64).is_err());
    }

    #[test]
    fn normals_have_the_standard_moments() {
        let z = stateless_normal(&[200_000], [5, 6], 0.0, 1.0, DType::F64).unwrap().to_vec::<f64>().unwrap();
        let n = z.len() as f64;
        let mean = z.iter().sum::<f64>() / n;
        let var = z.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        // standard errors: 1/sqrt(n) = 0.0022 for the mean, sqrt(2/n) = 0.0032 for the variance
        assert!(mean.abs() < 0.012 && (var - 1.0).abs() < 0.016, "{mean} {var}");
        let h = stateless_normal(&[8], [5, 6], 1.0, 0.5, DType::F16).unwrap().to_vec::<f16>().unwrap();
        let f = stateless_normal(&[8], [5, 6], 0.0, 1.0, DType::F32).unwrap().to_vec::<f32>().unwrap();
        let direct: Vec<f16> = f.iter().map(|&v| f16::from_f32(v) * f16::from_f32(0.5) + f16::ONE).collect();
        assert_eq!(h, direct);
    }

    #[test]
    fn poisson_checks_its_rates_and_shapes() {
        let lam = Tensor::from_vec(vec![1.0f64, 2.0], &[2]).unwrap();
        assert!(stateless_poisson(&[3, 2], [0, 0], &lam, DType::I32).is_ok());
        let e = stateless_poisson(&[2, 3], [0, 0], &lam, DType::I32).unwrap_err();
        assert!(e.to_string().contains("does not broadcast"), "{e}");
        let neg = Tensor::from_vec(vec![-1.0f32], &[1]).unwrap();
        assert!(stateless_poisson(&[1], [0, 0], &neg, DType::I64).unwrap_err().to_string().contains("non-negative"));
        let nan = Tensor::from_vec(vec![f32::NAN], &[1]).unwrap();
        assert!(stateless_poisson(&[1], [0, 0], &nan, DType::I64).is_err());
        assert!(stateless_poisson(&[1], [0, 0], &lam.slice(&[crate::SliceArg::Index(0)]).unwrap(), DType::U8).is_err());
    }
}
