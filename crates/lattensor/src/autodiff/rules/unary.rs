//! Element-wise functions of one tensor: `g · conj(f'(x))`, with TF's
//! choices at kinks (`abs`, `sign`, `relu` have derivative 0 at 0) and no
//! gradient for the rounding functions.

use std::f64::consts::PI;

use num_complex::Complex64;

use super::{masked, times_conj};
use crate::Tensor;
use crate::core::error::{Error, Result};
use crate::ops::special as sp;
use crate::ops::{self, combine::where_};

pub(super) fn no_rule(name: &str) -> Error {
    Error::Unimplemented(format!(
        "gradient of {name}: no gradient rule is defined for {name}; wrap the computation in custom_gradient \
         to give one, or stop_gradient its input"
    ))
}

/// `-y/x` with the value at `x = 0` from the limit `lim y/x = at0`.
fn over_x(y: &Tensor, x: &Tensor, at0: f64) -> Result<Tensor> {
    let zero = ops::equal(x, 0.0)?;
    let safe_x = where_(&zero, &crate::ones_like(x, None)?, x)?;
    where_(&zero, &crate::full_like(x, at0, None)?, &ops::divide(y, &safe_x)?)
}

/// The gradient of `name`'s input; `None` where TF defines none.
pub(super) fn vjp(name: &str, x: &Tensor, y: &Tensor, g: &Tensor) -> Result<Option<Tensor>> {
    use ops::{
        add, cos, cosh, divide, exp, multiply, negative, reciprocal, rsqrt, sigmoid, sin, sinh, square, subtract,
    };
    let d = match name {
        // no gradient, as TF
        "floor" | "ceil" | "rint" | "round" => return Ok(None),
        // linear ones
        "negative" => return negative(g).map(Some),
        "conj" => return ops::conj(g).map(Some),
        "real" => return g.cast(x.dtype()).map(Some),
        "imag" if x.dtype().is_complex() => {
            return ops::multiply(&g.cast(x.dtype())?, Complex64::new(0.0, 1.0)).map(Some);
        }
        "sign" => return crate::zeros_like(g, None).map(Some),
        "angle" if x.dtype().is_complex() => {
            // d angle = (re dy - im dx)/|z|²: the gradient is g · i / conj(z)
            let gc = g.cast(x.dtype())?;
            return divide(&ops::multiply(&gc, Complex64::new(0.0, 1.0))?, &ops::conj(x)?).map(Some);
        }
        // the imaginary part and the angle of a real tensor are constants (TF: None)
        "imag" | "angle" => return Ok(None),
        "abs" if x.dtype().is_complex() => {
            // x / |x| (0 at 0), times the real gradient
            let gc = g.cast(x.dtype())?;
            return ops::multiply(&gc, &ops::divide_no_nan(x, &y.cast(x.dtype())?)?).map(Some);
        }
        "abs" => ops::sign(x)?,
        "matrix_diag" => return crate::ops::matrix::diag_part(g).map(Some),
        // activations
        "relu" => return masked(&ops::greater(x, 0.0)?, g).map(Some),
        "relu6" => return masked(&ops::logical_and(&ops::greater(x, 0.0)?, &ops::less(x, 6.0)?)?, g).map(Some),
        "elu" => return where_(&ops::greater(x, 0.0)?, g, &multiply(g, &add(y, 1.0)?)?).map(Some),
        "selu" => {
            let (scale, alpha) = (1.050_700_987_355_480_5, 1.673_263_242_354_377_3);
            let neg = multiply(g, &add(y, scale * alpha)?)?;
            return where_(&ops::greater(x, 0.0)?, &multiply(g, scale)?, &neg).map(Some);
        }
        "softsign" => reciprocal(&square(&add(&ops::abs(x)?, 1.0)?)?)?,
        "gelu" => {
            // Φ(x) + x φ(x)
            let cdf = multiply(0.5, &add(&ops::erf(&multiply(x, std::f64::consts::FRAC_1_SQRT_2)?)?, 1.0)?)?;
            let pdf = multiply(&exp(&multiply(&square(x)?, -0.5)?)?, 1.0 / (2.0 * PI).sqrt())?;
            add(&cdf, &multiply(x, &pdf)?)?
        }
        "gelu_tanh" => {
            let c = (2.0 / PI).sqrt();
            let x2 = square(x)?;
            let t = ops::tanh(&multiply(&multiply(x, &add(&multiply(&x2, 0.044_715)?, 1.0)?)?, c)?)?;
            let du = multiply(&add(&multiply(&x2, 3.0 * 0.044_715)?, 1.0)?, c)?;
            let left = multiply(&add(&t, 1.0)?, 0.5)?;
            let right = multiply(&multiply(&multiply(x, 0.5)?, &subtract(1.0, &square(&t)?)?)?, &du)?;
            add(&left, &right)?
        }
        // exponentials and logarithms
        "exp" => y.clone(),
        "expm1" => add(y, 1.0)?,
        "log" => reciprocal(x)?,
        "log1p" => reciprocal(&add(x, 1.0)?)?,
        "exp2" => multiply(y, std::f64::consts::LN_2)?,
        "log2" => reciprocal(&multiply(x, std::f64::consts::LN_2)?)?,
        "log10" => reciprocal(&multiply(x, std::f64::consts::LN_10)?)?,
        "cbrt" => divide(1.0 / 3.0, &square(y)?)?,
        "sinc" => over_x(&subtract(&cos(&multiply(x, PI)?)?, y)?, x, 0.0)?,
        "sqrt" => divide(0.5, y)?,
        "rsqrt" => multiply(&multiply(y, &square(y)?)?, -0.5)?,
        "square" => multiply(x, 2.0)?,
        "reciprocal" | "reciprocal_no_nan" => negative(&square(y)?)?,
        "sigmoid" => multiply(y, &subtract(1.0, y)?)?,
        "softplus" => sigmoid(x)?,
        "log_sigmoid" => sigmoid(&negative(x)?)?,
        // trigonometric and hyperbolic
        "sin" => cos(x)?,
        "cos" => negative(&sin(x)?)?,
        "tan" => add(&square(y)?, 1.0)?,
        "asin" => rsqrt(&subtract(1.0, &square(x)?)?)?,
        "acos" => negative(&rsqrt(&subtract(1.0, &square(x)?)?)?)?,
        "atan" => reciprocal(&add(&square(x)?, 1.0)?)?,
        "sinh" => cosh(x)?,
        "cosh" => sinh(x)?,
        "tanh" => subtract(1.0, &square(y)?)?,
        "asinh" => rsqrt(&add(&square(x)?, 1.0)?)?,
        "acosh" => reciprocal(&sinh(y)?)?,
        "atanh" => reciprocal(&subtract(1.0, &square(x)?)?)?,
        // special functions
        "erf" => multiply(&exp(&negative(&square(x)?)?)?, 2.0 / PI.sqrt())?,
        "erfc" => multiply(&exp(&negative(&square(x)?)?)?, -2.0 / PI.sqrt())?,
        "erfinv" => multiply(&exp(&square(y)?)?, PI.sqrt() / 2.0)?,
        "erfcinv" => multiply(&exp(&square(y)?)?, -PI.sqrt() / 2.0)?,
        "ndtri" => multiply(&exp(&multiply(&square(y)?, 0.5)?)?, (2.0 * PI).sqrt())?,
        "lgamma" => ops::digamma(x)?,
        "digamma" => sp::trigamma(x)?,
        "bessel_i0" => sp::bessel_i1(x)?,
        "bessel_i0e" => subtract(&sp::bessel_i1e(x)?, &multiply(&ops::sign(x)?, y)?)?,
        "bessel_i1" => subtract(&sp::bessel_i0(x)?, &over_x(y, x, 0.5)?)?,
        "bessel_i1e" => {
            let i0e = sp::bessel_i0e(x)?;
            subtract(&subtract(&i0e, &multiply(&ops::sign(x)?, y)?)?, &over_x(y, x, 0.5)?)?
        }
        "bessel_k0" => negative(&sp::bessel_k1(x)?)?,
        "bessel_k0e" => subtract(y, &sp::bessel_k1e(x)?)?,
        "bessel_k1" => negative(&add(&sp::bessel_k0(x)?, &divide(y, x)?)?)?,
        "bessel_k1e" => subtract(&subtract(y, &sp::bessel_k0e(x)?)?, &divide(y, x)?)?,
        "bessel_j0" => negative(&sp::bessel_j1(x)?)?,
        "bessel_j1" => subtract(&sp::bessel_j0(x)?, &over_x(y, x, 0.5)?)?,
        "bessel_y0" => negative(&sp::bessel_y1(x)?)?,
        "bessel_y1" => subtract(&sp::bessel_y0(x)?, &divide(y, x)?)?,
        "dawsn" => subtract(1.0, &multiply(&multiply(x, y)?, 2.0)?)?,
        "expint" => divide(&exp(x)?, x)?,
        "fresnel_cos" => cos(&multiply(&square(x)?, PI / 2.0)?)?,
        "fresnel_sin" => sin(&multiply(&square(x)?, PI / 2.0)?)?,
        "spence" => {
            // log(x) / (1 - x), -1 at x = 1 (TF's rule)
            let one = ops::equal(x, 1.0)?;
            let safe = where_(&one, &crate::full_like(x, 2.0, None)?, x)?;
            let d = divide(&ops::log(&safe)?, &subtract(1.0, &safe)?)?;
            where_(&one, &crate::full_like(x, -1.0, None)?, &d)?
        }
        other => return Err(no_rule(other)),
    };
    times_conj(g, &d).map(Some)
}

/// Element-wise functions with a real parameter.
pub(super) fn vjp_with(name: &str, p: f64, x: &Tensor, y: &Tensor, g: &Tensor) -> Result<Tensor> {
    match name {
        // the forward op multiplies by alpha rounded to float32 (TF's attribute type), so does its gradient
        "leaky_relu" => where_(&ops::greater(x, 0.0)?, g, &ops::multiply(g, p as f32 as f64)?),
        "swish" => {
            // s + p·y·(1 - s) with s = sigmoid(p x), y = x s
            let s = ops::sigmoid(&ops::multiply(x, p)?)?;
            let d = ops::add(&s, &ops::multiply(&ops::multiply(y, p)?, &ops::subtract(1.0, &s)?)?)?;
            times_conj(g, &d)
        }
        other => Err(no_rule(other)),
    }
}
