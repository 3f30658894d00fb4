//! The arithmetic that proves the model: add, subtract, multiply, true
//! divide and negate, promoted through the lattice.

use super::scalar_arith::{Inexact, Num};
use crate::core::error::{Error, Result};
use crate::core::layout::broadcast_shapes;
use crate::core::scalar::Operand;
use crate::kernels::{self, Input};
use crate::promote::{self, LatticeType};
use crate::{DType, Tensor, with_inexact_dtype, with_numeric_dtype};

/// The operands of a promoting binary op, broadcast and typed.
pub(crate) struct Prepared<'a> {
    pub result: LatticeType,
    pub shape: Vec<usize>,
    pub a: Input<'a>,
    pub b: Input<'a>,
}

/// Promotes two operands in the current mode and broadcasts them.
pub(crate) fn prepare<'a>(op: &str, a: &Operand<'a>, b: &Operand<'a>) -> Result<Prepared<'a>> {
    let result = promote::promote_for(op, a.lattice_type()?, b.lattice_type()?, promote::current_mode())?;
    let shape = broadcast_shapes(a.shape(), b.shape(), op)?;
    let rounded = |x: &Operand<'a>| match *x {
        Operand::Scalar(s) => Operand::Scalar(s.rounded_to(result.dtype)),
        Operand::Tensor(t) => Operand::Tensor(t),
    };
    let (a, b) = (rounded(a), rounded(b));
    Ok(Prepared { result, a: Input::broadcast(&a, &shape)?, b: Input::broadcast(&b, &shape)?, shape })
}

fn bool_refused(op: &str) -> Error {
    Error::UnsupportedDType {
        op: op.to_string(),
        dtype: DType::Bool,
        supported: "every numeric dtype (use logical_or / logical_and for bool)".to_string(),
    }
}

/// Runs a ring operation (`f` on the promoted element type).
macro_rules! ring_op {
    ($name:ident, $op:literal, $method:ident, $doc:literal) => {
        #[doc = $doc]
        ///
        /// The operands are promoted in the thread's current mode (see
        /// [`crate::promote`]); the result has the promoted dtype and is weak
        /// iff the promotion is (e.g. `i32* ⊕ i32* → i32*`, `f16 ⊕ f32* → f16`).
        /// Shapes broadcast by NumPy rules. Integers wrap on overflow.
        ///
        /// # Errors
        /// [`Error::Promotion`] if the mode refuses the pair,
        /// [`Error::ShapeMismatch`] for shapes that do not broadcast,
        /// [`Error::UnsupportedDType`] for bool (TF has no bool kernel).
        pub fn $name<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
            let p = prepare($op, &a.into(), &b.into())?;
            let mut out = Tensor::for_overwrite($op, &p.shape, p.result.dtype)?;
            match p.result.dtype {
                // computed in f32 (as Num does for them) with block-wise conversions
                DType::F16 => kernels::binary_via::<f32, half::f16, _>(&p.a, &p.b, out.data_mut(), |x, y| Num::$method(x, y)),
                DType::BF16 => kernels::binary_via::<f32, half::bf16, _>(&p.a, &p.b, out.data_mut(), |x, y| Num::$method(x, y)),
                _ => with_numeric_dtype!(p.result.dtype, T,
                    kernels::binary::<T, _>(&p.a, &p.b, out.data_mut::<T>(), |x, y| Num::$method(x, y)),
                    bool => return Err(bool_refused($op))),
            }
            Ok(out.with_weak(p.result.weak))
        }
    };
}

ring_op!(
    add,
    "add",
    add,
    "Element-wise `a + b`.\n\n```\nuse lattensor::{constant, ops, DType, Tensor};\nlet a = Tensor::from_vec(vec![10i32], &[]).unwrap();\nlet b = Tensor::from_vec(vec![5.0f32], &[]).unwrap();\nlet c = ops::add(&a, &b).unwrap();\nassert_eq!((c.dtype(), c.is_weak()), (DType::F32, false));\nassert_eq!(c.item::<f32>().unwrap(), 15.0);\n// a literal adapts: int8 + 1 stays int8\nlet d = ops::add(&Tensor::scalar(1i8), 1).unwrap();\nassert_eq!(d.dtype(), DType::I8);\n```"
);
ring_op!(
    subtract,
    "subtract",
    sub,
    "Element-wise `a - b`.\n\n```\nuse lattensor::{ops, DType, Tensor};\nlet c = ops::subtract(&Tensor::scalar(5i16), &Tensor::scalar(1.0f32)).unwrap();\nassert_eq!(c.dtype(), DType::F32);\nassert_eq!(c.item::<f32>().unwrap(), 4.0);\n```"
);
ring_op!(
    multiply,
    "multiply",
    mul,
    "Element-wise `a * b`.\n\n```\nuse lattensor::{ops, DType, Tensor};\nlet c = ops::multiply(&Tensor::from_vec(vec![1u8, 2, 3], &[3]).unwrap(), 2).unwrap();\nassert_eq!(c.dtype(), DType::U8);\nassert_eq!(c.to_vec::<u8>().unwrap(), vec![2, 4, 6]);\n```"
);

/// TF's true-division rule for integer results: 8- and 16-bit integers
/// divide in float32, 32- and 64-bit integers in float64; weakness is kept.
pub fn truediv_type(t: LatticeType) -> Result<LatticeType> {
    let dtype = match t.dtype {
        DType::Bool => {
            return Err(Error::UnsupportedDType {
                op: "truediv".into(),
                dtype: DType::Bool,
                supported: "every numeric dtype; cast bool operands first".into(),
            });
        }
        DType::I8 | DType::I16 | DType::U8 | DType::U16 => DType::F32,
        DType::I32 | DType::I64 | DType::U32 | DType::U64 => DType::F64,
        d => d,
    };
    Ok(LatticeType::weak_or_strong(dtype, t.weak))
}

/// Element-wise true division `a / b`.
///
/// The operands are promoted first; an integer result type then becomes a
/// float by TF's rule ([`truediv_type`]): `int32 / int32 → float64`,
/// `i32* / i32* → f64*`, `int8 / 2 → float32`, `int32 / 2.0 → f64*`.
/// Float inputs keep their type (`float16 / 2 → float16`).
///
/// ```
/// use lattensor::{constant, ops, DType};
/// let q = ops::divide(&constant(1).unwrap(), &constant(2).unwrap()).unwrap();
/// assert_eq!((q.dtype(), q.is_weak()), (DType::F64, true));
/// assert_eq!(q.item::<f64>().unwrap(), 0.5);
/// ```
///
/// # Errors
/// As [`add`]; bool operands are refused.
pub fn divide<'a>(a: impl Into<Operand<'a>>, b: impl Into<Operand<'a>>) -> Result<Tensor> {
    let p = prepare("truediv", &a.into(), &b.into())?;
    let result = truediv_type(p.result)?;
    let mut out = Tensor::for_overwrite("truediv", &p.shape, result.dtype)?;
    with_inexact_dtype!(result.dtype, T,
        kernels::binary::<T, _>(&p.a, &p.b, out.data_mut::<T>(), Inexact::div),
        other => return Err(Error::Unimplemented(format!("truediv: no kernel for {}", result.dtype))));
    Ok(out.with_weak(result.weak))
}

/// Element-wise `-a`; keeps dtype and weakness (`-constant(5)` is `i32*`).
///
/// ```
/// use lattensor::{constant, ops, DType};
/// let n = ops::negative(&constant(5).unwrap()).unwrap();
/// assert_eq!((n.dtype(), n.is_weak(), n.item::<i32>().unwrap()), (DType::I32, true, -5));
/// ```
///
/// # Errors
/// [`Error::UnsupportedDType`] for bool and unsigned integers (TF has no kernel for them).
pub fn negative(a: &Tensor) -> Result<Tensor> {
    if a.dtype().is_unsigned() {
        return Err(Error::UnsupportedDType {
            op: "negative".into(),
            dtype: a.dtype(),
            supported: "int8, int16, int32, int64, bfloat16, float16, float32, float64, complex64, complex128".into(),
        });
    }
    let mut out = Tensor::for_overwrite("negative", a.shape(), a.dtype())?;
    with_numeric_dtype!(a.dtype(), T,
        kernels::unary::<T, T, _>(a, out.data_mut::<T>(), Num::neg),
        bool => return Err(bool_refused("negative")));
    Ok(out.with_weak(a.is_weak()))
}
