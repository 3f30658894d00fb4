//! Comparisons and the logical ops.
//!
//! Comparisons promote their operands through the lattice exactly like `add`
//! does and return strong bool tensors. TF 2.21 does not promote for `<` or
//! `!=`; lattensor does (see `docs/deviations.md`).

use num_complex::Complex;

use super::binary::prepare;
use crate::core::element::Element;
#[cfg(doc)]
use crate::core::error::Error;
use crate::core::error::Result;
use crate::core::scalar::Operand;
use crate::dispatch::unsupported;
use crate::kernels::{self, Input};
use crate::{DType, Tensor};

/// Which comparison.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

fn compare<'a>(op: &str, cmp: Cmp, a: Operand<'a>, b: Operand<'a>) -> Result<Tensor> {
    let p = prepare(op, &a, &b)?;
    let d = p.result.dtype;
    let ordered = !matches!(cmp, Cmp::Eq | Cmp::Ne);
    if ordered && d.is_complex() {
        return Err(unsupported(op, d, "every dtype but complex (complex numbers are not ordered)"));
    }
    let mut out = Tensor::zeros(&p.shape, DType::Bool)?;
    fn go<T: Element + PartialOrd>(cmp: Cmp, a: &Input<'_>, b: &Input<'_>, out: &mut [bool]) {
        match cmp {
            Cmp::Eq => kernels::binary_to::<T, bool, _>(a, b, out, |x, y| x == y),
            Cmp::Ne => kernels::binary_to::<T, bool, _>(a, b, out, |x, y| x != y),
            Cmp::Lt => kernels::binary_to::<T, bool, _>(a, b, out, |x, y| x < y),
            Cmp::Le => kernels::binary_to::<T, bool, _>(a, b, out, |x, y| x <= y),
            Cmp::Gt => kernels::binary_to::<T, bool, _>(a, b, out, |x, y| x > y),
            Cmp::Ge => kernels::binary_to::<T, bool, _>(a, b, out, |x, y| x >= y),
        }
    }
    let o = out.data_mut::<bool>();
    if d.is_low_precision() {
        // every low-precision value is exactly an f32, so comparing there is exact
        go::<f32>(cmp, &p.a, &p.b, o);
        return Ok(out);
    }
    // each dtype compares in its own type; complex numbers only for (in)equality
    crate::with_ordered_dtype!(d, T, go::<T>(cmp, &p.a, &p.b, o),
        complex => crate::with_complex_dtype!(d, R,
            kernels::binary_to::<Complex<R>, bool, _>(&p.a, &p.b, o, |x, y| (x == y) == (cmp == Cmp::Eq)),
            other => unreachable!("every dtype is ordered or complex")));
    Ok(out)
}

macro_rules! comparison {
    ($(#[$doc:meta])* $name:ident, $cmp:ident) => {
        $(#[$doc])*
        ///
        /// The operands are promoted through the lattice first (one lattice for
        /// every op, unlike TF 2.21 where only `equal` promotes); the result is
        /// a strong bool tensor of the broadcast shape.
        ///
        /// # Errors
        /// [`Error::Promotion`] if the mode refuses the pair, [`Error::ShapeMismatch`]
        /// for shapes that do not broadcast; ordering comparisons refuse complex.
        pub fn $name<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
            compare(stringify!($name), Cmp::$cmp, a.into(), b.into())
        }
    };
}

comparison!(
    /// `a == b` element-wise.
    ///
    /// ```
    /// use lattensor::{ops, Tensor};
    /// let e = ops::equal(&Tensor::from_vec(vec![1i8, 2], &[2]).unwrap(), 2.0).unwrap(); // i8 ⊔ f32* = f64*
    /// assert_eq!(e.to_vec::<bool>().unwrap(), vec![false, true]);
    /// ```
    equal, Eq);
comparison!(
    /// `a != b` element-wise.
    not_equal, Ne);
comparison!(
    /// `a < b` element-wise.
    ///
    /// ```
    /// use lattensor::{ops, Tensor};
    /// // TF 2.21 raises here (int8 vs int16 do not promote for `<`); the lattice gives int16
    /// let l = ops::less(&Tensor::scalar(1i8), &Tensor::scalar(2i16)).unwrap();
    /// assert!(l.item::<bool>().unwrap());
    /// ```
    less, Lt);
comparison!(
    /// `a <= b` element-wise.
    less_equal, Le);
comparison!(
    /// `a > b` element-wise.
    greater, Gt);
comparison!(
    /// `a >= b` element-wise.
    greater_equal, Ge);

fn logical(op: &str, a: Operand<'_>, b: Operand<'_>, f: fn(bool, bool) -> bool) -> Result<Tensor> {
    for x in [&a, &b] {
        let t = x.lattice_type()?;
        if t.dtype != DType::Bool {
            return Err(unsupported(op, t.dtype, "bool"));
        }
    }
    let p = prepare(op, &a, &b)?;
    let mut out = Tensor::zeros(&p.shape, DType::Bool)?;
    kernels::binary::<bool, _>(&p.a, &p.b, out.data_mut(), f);
    Ok(out)
}

/// Logical AND of two bool tensors.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-bool operands.
pub fn logical_and<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    logical("logical_and", a.into(), b.into(), |x, y| x & y)
}

/// Logical OR of two bool tensors.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-bool operands.
pub fn logical_or<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    logical("logical_or", a.into(), b.into(), |x, y| x | y)
}

/// Logical XOR of two bool tensors.
///
/// # Errors
/// [`Error::UnsupportedDType`] for non-bool operands.
pub fn logical_xor<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    logical("logical_xor", a.into(), b.into(), |x, y| x ^ y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v<T: Element>(x: &[T]) -> Tensor {
        Tensor::from_vec(x.to_vec(), &[x.len()]).unwrap()
    }

    #[test]
    fn comparisons_promote() {
        let l = less(&v(&[1u8, 200]), &v(&[-1i8, 100])).unwrap(); // u8 ⊔ i8 = i16
        assert_eq!(l.to_vec::<bool>().unwrap(), vec![false, false]);
        let e = equal(&v(&[num_complex::Complex64::new(1.0, 1.0)]), &v(&[num_complex::Complex64::new(1.0, 1.0)]));
        assert_eq!(e.unwrap().to_vec::<bool>().unwrap(), vec![true]);
        assert!(less(&v(&[num_complex::Complex32::new(1.0, 0.0)]), 1.0).is_err());
        assert!(
            crate::promote::with_mode(crate::PromotionMode::Safe, || less(
                &Tensor::scalar(1i32),
                &Tensor::scalar(1.0f32)
            ))
            .is_err()
        );
    }

    #[test]
    fn logical_ops_need_bool() {
        let t = v(&[true, false]);
        assert_eq!(logical_xor(&t, true).unwrap().to_vec::<bool>().unwrap(), vec![false, true]);
        assert!(logical_and(&t, 1).is_err());
    }
}
