//! lattensor for users of TensorFlow's NumPy behaviour.
//!
//! If you know TensorFlow's NumPy behaviour
//! (`tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")`), you
//! know lattensor's model: the same lattice, the same weak types, the same
//! results. This page maps TF's Python API to the Rust crate, section by
//! section; every example on it runs as a doc test and checks its values.
//!
//! In Python the `lattensor` package mirrors TensorFlow's names: change
//! `import tensorflow as tf` to `import lattensor as tf` and
//! `tensorflow.experimental.numpy` to `lattensor.experimental.numpy` (the
//! repository's README, Python section, and `examples/type_promotion_guide.py`).
//!
//! - [Setting the promotion mode](#setting-the-promotion-mode)
//! - [Values and types](#values-and-types)
//! - [Operators](#operators)
//! - [`tf.experimental.numpy` → `lattensor::tnp`](#tfexperimentalnumpy--lattensortnp)
//! - [Modules mirroring TF](#modules-mirroring-tf)
//! - [Variables](#variables)
//! - [Errors](#errors)
//! - [Deviations](#deviations)
//!
//! # Setting the promotion mode
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")` | the default: [`PromotionMode::All`] |
//! | `…(dtype_conversion_mode="safe")` | [`with_mode`]`(PromotionMode::Safe, \|\| …)` or `let _g = `[`ModeGuard`]`::new(PromotionMode::Safe);` |
//! | `…(dtype_conversion_mode="legacy")` | [`PromotionMode::NumPy`] (NEP 50 on every op, not only operators) |
//! | NumPy behaviour off | [`PromotionMode::Strict`] (weak literals still adapt) |
//! | `flexible_dtypes.result_type(a, b)` | [`result_type_in`]`(&[a, b], mode)`, or [`result_type`]`(&[…])` in the current mode |
//!
//! | (no TF equivalent) what changes between two modes | [`migration_report`]`(PromotionMode::All, PromotionMode::NumPy, \|\| …)`, or [`with_comparison`] with an observer |
//!
//! The mode is per thread and scoped; it is never a process-wide switch.
//!
//! ```
//! use lattensor::promote::{self, LatticeType, ModeGuard, PromotionMode, with_mode};
//! use lattensor::{DType, Tensor};
//!
//! let a = Tensor::scalar(10i32);
//! let b = Tensor::scalar(5.0f32);
//! assert_eq!((&a + &b)?.dtype(), DType::F32); // ALL: the join
//! assert!(with_mode(PromotionMode::Safe, || &a + &b).is_err()); // SAFE refuses
//! {
//!     let _g = ModeGuard::new(PromotionMode::Strict);
//!     assert!((&a + &b).is_err()); // no implicit promotion between strong dtypes
//!     assert_eq!((&a + 1)?.dtype(), DType::I32); // a weak literal still adapts
//! }
//! let i8: LatticeType = "i8".parse()?;
//! let u8: LatticeType = "u8".parse()?;
//! assert_eq!(promote::result_type_in(&[i8, u8], PromotionMode::All)?.dtype, DType::I16);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # Values and types
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tf.int32`, `tf.bfloat16`, … | [`DType::I32`], [`DType::BF16`], …; `"int32".parse::<DType>()`, `"bf16".parse()` |
//! | a WeakTensor of int32 | a [`Tensor`] with `dtype() == DType::I32` and `is_weak() == true`; its lattice type prints `int32*` |
//! | `tf.constant(5)` | [`constant`]`(5)?` → `i32*` |
//! | `tf.constant([5.0, 10.0, 3])` | `constant([5.0, 10.0, 3.0])?` → `f32*` |
//! | `tf.constant(5, tf.int32)` | [`constant_as`]`(5, DType::I32)?` (strong) |
//! | `tf.constant(x, tf.float32)` for a tensor `x` | `constant_as(&x, DType::F32)?`: converts only when promotion lands on `float32` |
//! | `tf.cast(x, tf.int8)` | `x.cast(DType::I8)?` or [`cast`]`(&x, DType::I8)?` |
//! | `np.array([1, 2], np.int16)` as input | `Tensor::from_vec(vec![1i16, 2], &[2])?` (strong, like a NumPy array) |
//! | `tf.zeros`, `tf.ones`, `tf.fill` | [`zeros`]`(&shape, dtype)`, [`ones`]`(…)`, [`full`]`(&shape, value, dtype)` |
//! | `tf.zeros_like(x)` | [`zeros_like`]`(&x, None)` (keeps dtype and weakness) |
//! | `tf.range(1, 10, 3)` | [`arange`]`(1, 10, 3, None)?` |
//! | `tf.linspace`, `tf.eye` | [`linspace`]`(start, stop, n, dtype)`, [`eye`]`(n, m, dtype)` |
//! | `x.numpy()` | `x.to_vec::<T>()?`, `x.item::<T>()?`, `x.as_slice::<T>()` |
//! | `repr(x)` | `x.to_string()` → `<Tensor: shape=(2,), dtype=float32, numpy=[1.5, 2. ], weak=True>` |
//!
//! Rust literals are TF's Python literals: an integer is `i32*` (`i64*` if it
//! does not fit int32, where TF would raise), a float is `f32*` (its value keeps
//! full precision until it meets a dtype, so `f64_tensor + 0.1` adds the f64
//! 0.1), a complex is `c128*`, and `true`/`false` are strong `bool`.
//!
//! ```
//! use lattensor::{DType, Tensor, arange, constant, constant_as, zeros_like};
//!
//! let w = constant(5)?;
//! assert_eq!((w.dtype(), w.is_weak()), (DType::I32, true));
//! assert_eq!(w.lattice_type().to_string(), "int32*");
//! assert!(!constant_as(5, DType::I32)?.is_weak());
//!
//! let x = constant([1.5, 2.0])?;
//! assert_eq!(x.to_string(), "<Tensor: shape=(2,), dtype=float32, numpy=[1.5, 2. ], weak=True>");
//! assert!(zeros_like(&x, None)?.is_weak());
//!
//! assert_eq!(arange(1, 10, 3, None)?.to_vec::<i32>()?, vec![1, 4, 7]);
//!
//! // a float literal keeps its full value until it meets a dtype
//! let d = Tensor::scalar(0.0f64);
//! assert_eq!((&d + 0.1)?.item::<f64>()?, 0.1);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # Operators
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `a + b`, `a - b`, `a * b`, `a / b`, `-a` | `&a + &b`, `&a - &b`, `&a * &b`, `&a / &b`, `-&a`; each returns `Result<Tensor>` |
//! | `a + 1.0`, `2 * a` | `&a + 1.0`, `2 * &a` (i32 and f64 literals; other Rust types via [`Scalar::from`]) |
//! | `a & b`, `a \| b`, `a ^ b` (bits of integers, logic of bool) | `&a & &b`, `&a \| &b`, `&a ^ &b`, also `&a << &s`, `&a >> &s` ([`bitwise`]; they promote like `+`) |
//! | `tf.add(a, b)`, `tf.math.multiply`, `tf.math.divide`, `tf.math.negative` | [`ops::add`]`(&a, &b)`, [`ops::multiply`], [`ops::divide`] ([`ops::truediv`]), [`ops::negative`] |
//! | `x[1:, ::-2, 3]` | `x.slice(&[SliceArg::range(1, n), SliceArg::stepped(None, None, -2), SliceArg::Index(3)])?` (a view) |
//! | `tf.reshape`, `tf.transpose`, `tf.expand_dims`, `tf.squeeze`, `tf.broadcast_to` | `x.reshape(&[…])`, `x.transpose(&perm)`, `x.expand_dims(axis)`, `x.squeeze(&axes)`, `x.broadcast_to(&shape)`: views |
//!
//! True division follows TF: integer results become float (8/16-bit ints →
//! float32, 32/64-bit → float64) and keep their weakness: `constant(1) /
//! constant(2)` is `f64*` 0.5.
//!
//! ```
//! use lattensor::{DType, SliceArg, Tensor, constant};
//!
//! let a = Tensor::from_vec(vec![1i8, 2, 3], &[3])?;
//! let b = Tensor::from_vec(vec![4i16, 5, 6], &[3])?;
//! assert_eq!((&a + &b)?.dtype(), DType::I16);
//! assert_eq!((&a * 2)?.to_vec::<i8>()?, vec![2, 4, 6]); // the literal adapts to int8
//!
//! let h = (&constant(1)? / &constant(2)?)?;
//! assert_eq!((h.dtype(), h.is_weak(), h.item::<f64>()?), (DType::F64, true, 0.5));
//!
//! // x[1:, ::-2] of a 3×4 matrix: a view with a negative stride
//! let x = Tensor::from_vec((0..12).collect::<Vec<i32>>(), &[3, 4])?;
//! let v = x.slice(&[SliceArg::range(1, 3), SliceArg::stepped(None, None, -2)])?;
//! assert_eq!(v.to_vec::<i32>()?, vec![7, 5, 11, 9]);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # `tf.experimental.numpy` → `lattensor::tnp`
//!
//! Every tnp name of TF's WeakTensor guide is a function of the same name in
//! [`tnp`] (`tnp.sum` → `tnp::sum`), taking array-like input like tnp: a
//! `&Tensor` (keeps its dtype and weakness), a Rust literal (weak, like a
//! Python scalar) or a `Vec`/array of literals (weak, like a Python list).
//! Optional tnp arguments are explicit parameters, in tnp's order:
//!
//! | TF-NumPy | lattensor |
//! |---|---|
//! | `tnp.sin(x)`, `tnp.exp(3)` | `tnp::sin(&x)`, `tnp::exp(3)` → `f32*` (ints compute in float32) |
//! | `tnp.sum(x, axis=0, dtype=None, keepdims=True)` | `tnp::sum(&x, 0, None, true)` (`int8 → int32`, `uint8 → uint32`) |
//! | `tnp.mean(x)`, `tnp.amax(x, axis=(0, 1))` | `tnp::mean(&x, None, None, false)`, `tnp::amax(&x, [0, 1], false)` |
//! | `tnp.var(x, ddof=1)`, `tnp.std(x)` | `tnp::var(&x, None, None, 1, false)`, `tnp::std(&x, None, 0, false)` |
//! | `tnp.average(x, axis=1, weights=w, returned=True)` | `tnp::average_returned(&x, Some(1), Some(&w))` (`tnp::average` without the sum) |
//! | `tnp.cumsum(x, axis=None)` | `tnp::cumsum(&x, None, None)` |
//! | `tnp.around(x, decimals=2)` | `tnp::around(&x, 2)` |
//! | `tnp.angle(z, deg=True)` | `tnp::angle(&z, true)` |
//! | `tnp.flip(x)`, `tnp.flip(x, 1)` | `tnp::flip(&x, None)`, `tnp::flip(&x, 1)`: views with negative strides |
//! | `tnp.swapaxes`, `tnp.moveaxis(x, [0, 1], [2, 0])`, `tnp.transpose(x, (1, 0))` | `tnp::swapaxes(&x, 0, 1)`, `tnp::moveaxis(&x, [0, 1], [2, 0])`, `tnp::transpose(&x, Some(&[1, 0][..]))`: views |
//! | `tnp.diagonal(x, 1, 0, 1)`, `tnp.trace(x, offset=1)` | `tnp::diagonal(&x, 1, 0, 1)` (a strided view), `tnp::trace(&x, 1, 0, 1, None)` |
//! | `tnp.rot90(x, k=1, axes=(0, 1))` | `tnp::rot90(&x, 1, (0, 1))` |
//! | `tnp.repeat(x, [1, 2], axis=0)`, `tnp.sort(x, axis=None)` | `tnp::repeat(&x, &[1, 2], Some(0))`, `tnp::sort(&x, None)` |
//! | `tnp.diff(x, n=2, axis=0)`, `tnp.vander(x, N=3, increasing=True)` | `tnp::diff(&x, 2, 0)`, `tnp::vander(&x, Some(3), true)` |
//! | `tnp.array(1)`, `tnp.asarray(x, dtype=tnp.int16)`, `tnp.arange(5)` | `tnp::array(1, None, true, 0)` → `i32*`, `tnp::asarray(&x, Some(DType::I16))`, `tnp::arange(5, None, 1, None)` → `i32*` |
//! | `tnp.full_like(x, 7)` | `tnp::full_like(&x, 7, None, None)` |
//! | `tnp.dot(a, b)`, `tnp.tensordot(a, b, axes=([1], [0]))`, `tnp.cross(a, b, axis=0)` | `tnp::dot(&a, &b)`, `tnp::tensordot(&a, &b, ([1], [0]))`, `tnp::cross(&a, &b, 0, 0, 0)` (einsums: strong) |
//! | `tnp.meshgrid(x, y, indexing="ij")`, `tnp.select([c], [x], 0)` | `tnp::meshgrid(vec![x.into(), y.into()], Indexing::Ij)`, `tnp::select(vec![c.into()], vec![x.into()], 0)` |
//!
//! ```
//! use lattensor::{DType, Tensor, tnp};
//!
//! let x = Tensor::from_vec(vec![1i8, 2, 3, 4], &[2, 2])?;
//! let s = tnp::sum(&x, 0, None, true)?; // int8 sums in int32
//! assert_eq!((s.dtype(), s.shape()), (DType::I32, &[1usize, 2][..]));
//! assert_eq!(s.to_vec::<i32>()?, vec![4, 6]);
//!
//! let e = tnp::exp(0)?; // an int literal computes in float32 and stays weak
//! assert_eq!((e.dtype(), e.is_weak(), e.item::<f32>()?), (DType::F32, true, 1.0));
//!
//! assert_eq!(tnp::flip(&x, None)?.to_vec::<i8>()?, vec![4, 3, 2, 1]);
//! assert_eq!(tnp::cumsum(vec![1, 2, 3], None, None)?.to_vec::<i32>()?, vec![1, 3, 6]);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! The Python package covers more of tnp than the guide's list: tnp's dtype
//! names and constants, `concatenate`/`stack`/`where`, the creation functions
//! with tnp's defaults, NumPy's binary functions under their names,
//! `clip`, `isclose`, `argmax`, `take`, `split`, `pad`, `append`,
//! `unique`, `one_hot`, predicates, stacking and `tnp.random`; the repository's
//! `docs/tf_numpy_users.md` lists them with their rules. In Rust, the ones at
//! the crate root are [`concat`], [`stack`], [`where_`], [`split`], [`pad`],
//! [`gather`], [`unique`], [`unique_with_counts`] and [`one_hot`]; their
//! values promote through the lattice like `add`.
//!
//! ```
//! use lattensor::{DType, Tensor, concat, constant};
//!
//! let a = Tensor::from_vec(vec![1i8, 2], &[2])?;
//! let b = constant([3.5, 4.0])?; // f32*
//! let c = concat(&[&a, &b], 0)?; // i8 ⊕ f32* = f64*, as in `add`
//! assert_eq!((c.dtype(), c.is_weak()), (DType::F64, true));
//! assert_eq!(c.to_vec::<f64>()?, vec![1.0, 2.0, 3.5, 4.0]);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! Results are weak when the input is weak and no `dtype` is given. Where TF
//! 2.21's tnp breaks its own rules (bfloat16 computed as float32, `log2`
//! returning float64, `cumsum(uint8) → int32`, …) lattensor follows the rule
//! (see [Deviations](#deviations)).
//!
//! # Modules mirroring TF
//!
//! TF's namespaces have lattensor modules of the same names, so `tf.math.sqrt(x)`
//! is `lattensor::math::sqrt(&x)` and `tf.image.adjust_gamma(x, 0.5)` is
//! `lattensor::image::adjust_gamma(&x, 0.5, 1.0)`:
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `tf.math.*` (element-wise, comparisons, `reduce_*`) | [`math`] (re-exports of [`ops`]) |
//! | `tf.math.special.*` (`bessel_*`, `dawsn`, `expint`, `fresnel_*`, `spence`) | [`math::special`] |
//! | `tf.nn.*` | [`nn`] (`relu`, `gelu(x, approximate)`, `leaky_relu(x, alpha)`, `space_to_depth(x, block)`, …) |
//! | `tf.linalg.*` | [`linalg`] (`matmul(a, b, transpose_a, transpose_b)`, `trace`, `diag_part`, …) |
//! | `tf.random.stateless_uniform`, `stateless_normal`, `stateless_truncated_normal`, `stateless_poisson` | [`random`]: TF's values bit for bit for every dtype TF accepts |
//! | `tf.image.*` | [`image`] (`adjust_brightness`, `adjust_gamma`, `convert_image_dtype`, `extract_patches`, `stateless_random_brightness`, …) |
//! | `tf.bitwise.*` | [`bitwise`]; the operators `&`, `\|`, `^`, `<<`, `>>` on `&Tensor` |
//! | `tf.debugging.check_numerics(x, message)` | [`debugging::check_numerics`]`(&x, message)` |
//! | `tf.identity`, `tf.reshape`, `tf.squeeze`, `tf.transpose(a, perm, conjugate)`, `tf.expand_dims`, `tf.clip_by_value`, `tf.split`, `tf.pad`, `tf.one_hot`, `tf.unique`, … | free functions at the crate root: [`identity`]`(&x)`, [`reshape`]`(&x, &[2, -1])`, [`transpose`]`(&x, None, false)`, … |
//!
//! ```
//! use lattensor::{Tensor, linalg, math};
//!
//! let x = Tensor::from_vec(vec![4.0f32, 9.0], &[2])?;
//! assert_eq!(math::sqrt(&x)?.to_vec::<f32>()?, vec![2.0, 3.0]);
//!
//! let a = Tensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
//! let p = linalg::matmul(&a, &a, false, true)?; // a · aᵀ
//! assert_eq!(p.to_vec::<f64>()?, vec![5.0, 11.0, 11.0, 25.0]);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # Variables
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `v = tf.Variable(10)` | `let v = `[`Variable`]`::new(10)?;` (int32, strong) |
//! | `v.assign(x)`, `v.assign_add(x)`, `v.assign_sub(x)` | the same names; the value promotes with the variable's dtype and must land on it, else [`Error::VariableDType`] ("Variable dtype is immutable…") |
//! | `v.read_value()` / `v.value()` | `v.read()` |
//!
//! `&Variable` can be shared across threads; concurrent `assign_add`s never
//! lose an update.
//!
//! ```
//! use lattensor::{DType, Tensor, Variable};
//!
//! let v = Variable::new(10)?;
//! v.assign_add(&Tensor::scalar(5i16))?; // int16 promotes into int32
//! assert_eq!(v.read().item::<i32>()?, 15);
//! assert_eq!(v.read().dtype(), DType::I32);
//! assert!(v.assign_add(&Tensor::scalar(1.5f64)).is_err()); // would make it float64
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # Gradients
//!
//! | TensorFlow | lattensor |
//! |---|---|
//! | `with tf.GradientTape() as g: ...` | `let g = `[`GradientTape`]`::new(); let y = g.record(\|\| ...)?;` (or `activate()` / `deactivate()`) |
//! | `tf.GradientTape(persistent=True, watch_accessed_variables=False)` | [`GradientTape::with_options`]`(true, false)` |
//! | `g.watch(x)`, `g.stop_recording()`, `g.reset()` | `g.watch(&x)`, `g.stop_recording(\|\| ...)`, `g.reset()` |
//! | `g.gradient(y, [x, v])` | `g.gradient(&y, &[Source::from(&x), Source::from(&v)])?` — one `Option<Tensor>` per source |
//! | `g.gradient(y, x, output_gradients=w, unconnected_gradients="zero")` | [`GradientTape::gradient_with`]`(&[&y], &[(&x).into()], Some(&[w]), UnconnectedGradients::Zero)` |
//! | `g.jacobian(y, x)`, `g.batch_jacobian(y, x)` | the same names, with an [`UnconnectedGradients`] argument |
//! | `tf.stop_gradient(x)`, `@tf.custom_gradient` | [`stop_gradient`]`(&x)`, [`custom_gradient`]`(&[&x], \|\| Ok((y, vjp)))` |
//! | `tf.Variable(x, trainable=False)` | [`Variable::new`]`(x)?.with_trainable(false)` |
//!
//! ```
//! use lattensor::{ops, GradientTape, Tensor, Variable};
//!
//! let w = Variable::new(Tensor::scalar(0.0f64))?;
//! for _ in 0..100 {
//!     let tape = GradientTape::new();
//!     let loss = tape.record(|| ops::square(&ops::subtract(&w.read(), 3.0)?))?;
//!     let g = tape.gradient(&loss, &[&w])?;
//!     w.assign_sub(&ops::multiply(g[0].as_ref().unwrap(), 0.1)?)?;
//! }
//! assert!((w.read().item::<f64>()? - 3.0).abs() < 1e-8);
//! # Ok::<(), lattensor::Error>(())
//! ```
//!
//! # Errors
//!
//! TF raises `TypeError` for refused promotions and `InvalidArgumentError` for
//! bad arguments. lattensor returns `Err(`[`Error`]`)`; [`Error::category`]
//! gives the TF family ([`Category::Type`], [`Category::InvalidArgument`], …).
//! The SAFE message keeps TF's wording and adds the explicit cast that would
//! fix the call.
//!
//! ```
//! use lattensor::promote::{PromotionMode, with_mode};
//! use lattensor::{Category, Tensor};
//!
//! let (a, b) = (Tensor::scalar(10i32), Tensor::scalar(5.0f32));
//! let err = with_mode(PromotionMode::Safe, || &a + &b).unwrap_err();
//! assert_eq!(err.category(), Category::Type);
//! assert!(err.to_string().starts_with(
//!     "add: in promotion mode SAFE, implicit dtype promotion between (int32, weak=False) and (float32, weak=False) is disallowed"
//! ));
//! ```
//!
//! # Deviations
//!
//! The repository's `docs/deviations.md` lists every place lattensor
//! deliberately differs from TensorFlow 2.21, with the reason: results that do
//! not depend on operand order, tnp functions that follow their stated rule
//! where TF's do not, and random streams that are TF's bit for bit only for the
//! stateless generators.
//!
//! [`PromotionMode::All`]: crate::PromotionMode::All
//! [`PromotionMode::NumPy`]: crate::PromotionMode::NumPy
//! [`PromotionMode::Strict`]: crate::PromotionMode::Strict
//! [`with_mode`]: crate::promote::with_mode
//! [`ModeGuard`]: crate::promote::ModeGuard
//! [`migration_report`]: crate::promote::migration_report
//! [`with_comparison`]: crate::promote::with_comparison
//! [`result_type_in`]: crate::promote::result_type_in
//! [`result_type`]: crate::promote::result_type
//! [`DType::I32`]: crate::DType::I32
//! [`DType::BF16`]: crate::DType::BF16
//! [`Tensor`]: crate::Tensor
//! [`constant`]: crate::constant
//! [`constant_as`]: crate::constant_as
//! [`cast`]: crate::cast
//! [`zeros`]: crate::zeros
//! [`ones`]: crate::ones
//! [`full`]: crate::full
//! [`zeros_like`]: crate::zeros_like
//! [`arange`]: crate::arange
//! [`linspace`]: crate::linspace
//! [`eye`]: crate::eye
//! [`Scalar::from`]: crate::Scalar
//! [`bitwise`]: crate::bitwise
//! [`ops`]: crate::ops
//! [`ops::add`]: crate::ops::add
//! [`ops::multiply`]: crate::ops::multiply
//! [`ops::divide`]: crate::ops::divide
//! [`ops::truediv`]: crate::ops::truediv
//! [`ops::negative`]: crate::ops::negative
//! [`tnp`]: crate::tnp
//! [`concat`]: crate::concat
//! [`stack`]: crate::stack
//! [`where_`]: crate::where_
//! [`split`]: crate::split
//! [`pad`]: crate::pad
//! [`gather`]: crate::gather
//! [`unique`]: crate::unique
//! [`unique_with_counts`]: crate::unique_with_counts
//! [`one_hot`]: crate::one_hot
//! [`math`]: crate::math
//! [`math::special`]: crate::math::special
//! [`nn`]: crate::nn
//! [`linalg`]: crate::linalg
//! [`random`]: crate::random
//! [`image`]: crate::image
//! [`debugging::check_numerics`]: crate::debugging::check_numerics
//! [`identity`]: crate::identity
//! [`reshape`]: crate::reshape
//! [`transpose`]: crate::transpose
//! [`Variable`]: crate::Variable
//! [`Error`]: crate::Error
//! [`Error::VariableDType`]: crate::Error::VariableDType
//! [`Error::category`]: crate::Error::category
//! [`Category::Type`]: crate::Category::Type
//! [`Category::InvalidArgument`]: crate::Category::InvalidArgument
//! [`GradientTape`]: crate::GradientTape
//! [`GradientTape::with_options`]: crate::GradientTape::with_options
//! [`GradientTape::gradient_with`]: crate::GradientTape::gradient_with
//! [`UnconnectedGradients`]: crate::UnconnectedGradients
//! [`stop_gradient`]: crate::stop_gradient
//! [`custom_gradient`]: crate::custom_gradient
//! [`Variable::new`]: crate::Variable::new
