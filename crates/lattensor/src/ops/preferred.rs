//! `preferred_element_type`: the dtype a product accumulates in and returns
//! (JAX's name and meaning; TF's `output_type` on `matmul`), for `matmul`,
//! `einsum` and `tensordot`.
//!
//! A preferred type `P` is an explicit statement of the result, as a cast is:
//! each operand converts to `P` on its own and the operands need no join (so
//! `float8_e4m3fn × float8_e5m2 → float32` works, as JAX's does), the product
//! is computed in `P` (bf16/f16 in f32, rounded once) and the result is a
//! strong `P`. Byte integers (int8, uint8, int4, uint4) with an integer `P`
//! are not converted: their products run on the exact byte kernel, which
//! gives the bits of the converted product (int8 × int8 → int32 is exact while
//! the sum lies in int32: to depth 2¹⁷; into int64 at any depth).
//!
//! `P` is refused ([`Error::InvalidType`], Python's `TypeError`, as JAX's)
//! where the conversion would lose an operand's kind or width: a float or
//! complex operand into an integer `P`, a complex operand into a real one, a
//! strong operand into a narrower `P` (f32 into bf16: compute in f32 and cast
//! the result), and bool or the storage-only low-precision dtypes as `P`.
//! (JAX 0.10 accepts the narrowing and float-into-int cases; the refusal is
//! the guide's rule that a conversion that loses information is written out.)

use crate::core::error::{Error, Result};
use crate::{DType, Tensor};

/// The width of a dtype's values: a complex dtype's component width.
fn width(d: DType) -> usize {
    if d.is_complex() { d.size() / 2 } else { d.size() }
}

/// Checks that the product of `operands` may be accumulated in and returned as `preferred`.
///
/// # Errors
/// [`Error::InvalidType`] as the module says.
pub(crate) fn check(op: &str, operands: &[&Tensor], preferred: DType) -> Result<()> {
    if preferred.is_bool() || preferred.is_low_precision() {
        return Err(Error::InvalidType(format!(
            "{op}: preferred_element_type={preferred} cannot hold a product; use an integer, float or complex \
             dtype such as int32 or float32 and cast the result"
        )));
    }
    for t in operands {
        let d = t.dtype();
        let refuse = |why: &str| {
            Err(Error::InvalidType(format!(
                "{op}: preferred_element_type={preferred} {why} {}{d} operand; {}",
                if t.is_weak() { "weak " } else { "" },
                if d.is_complex() || d.is_float() {
                    format!("pass preferred_element_type={d} or wider, or cast the result")
                } else {
                    format!("pass a dtype at least as wide as {d}, or cast the result")
                }
            )))
        };
        if d.is_complex() && !preferred.is_complex() {
            return refuse("would drop the imaginary part of a");
        }
        if (d.is_float() || d.is_complex()) && !(preferred.is_float() || preferred.is_complex()) {
            return refuse("would truncate a");
        }
        if !t.is_weak() && width(preferred) < width(d) {
            return refuse("is narrower than a");
        }
    }
    Ok(())
}

/// Operand `t` as the product in `preferred` takes it: unchanged if it is of
/// dtype `preferred` or a byte integer for an integer `preferred`, else cast
/// (a strong tensor). `preferred` has passed [`check`].
///
/// # Errors
/// As [`Tensor::cast`].
pub(crate) fn convert(t: &Tensor, preferred: DType) -> Result<Tensor> {
    if t.dtype() == preferred || crate::kernels::matmul::keeps_bytes(t.dtype(), preferred) {
        Ok(t.clone().with_weak(false))
    } else {
        t.cast(preferred).map(|c| c.with_weak(false))
    }
}
