//! Printing tensors the way TensorFlow and NumPy do.
//!
//! `Display` gives TF's repr shape:
//! `<Tensor: shape=(2,), dtype=float32, numpy=[1.5, 2. ], weak=True>`.
//! Scalars print like Python's `repr(x.item())` (`15.0`, `4.19921875` for a
//! float16 4.2 — what TF shows); arrays follow NumPy's `array2string`
//! defaults: shortest unique digits per dtype, at most 8 fractional digits,
//! aligned decimal points, scientific notation when magnitudes call for it,
//! rows wrapped at 75 columns and summarised beyond 1000 elements.

use std::fmt;

use half::{bf16, f16};
#[cfg(test)]
use num_complex::Complex32;
use num_complex::Complex64;

use crate::core::element::Element;
use crate::{DType, Tensor};

const LINE_WIDTH: usize = 75;
const THRESHOLD: usize = 1000;
const EDGE_ITEMS: usize = 3;
const PRECISION: usize = 8;

/// `()`, `(2,)`, `(2, 3)`.
pub fn shape_str(shape: &[usize]) -> String {
    match shape {
        [] => "()".into(),
        [d] => format!("({d},)"),
        _ => format!("({})", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// The `numpy=` part: Python repr of the item for 0-d tensors, NumPy's array text otherwise.
pub fn numpy_str(t: &Tensor) -> String {
    if t.rank() == 0 {
        return match t.item::<Complex64>() {
            Ok(_) => scalar_repr(t),
            Err(e) => format!("<{e}>"),
        };
    }
    array_str(t)
}

fn scalar_repr(t: &Tensor) -> String {
    let get = |t: &Tensor| t.item::<Complex64>().unwrap_or_default();
    match t.dtype() {
        DType::Bool => py_bool(get(t).re != 0.0).into(),
        d if d.is_unsigned() => t.item::<u64>().map(|v| v.to_string()).unwrap_or_default(),
        d if d.is_integer() => t.item::<i64>().map(|v| v.to_string()).unwrap_or_default(),
        d if d.is_complex() => py_complex_repr(get(t)),
        _ => py_float_repr(get(t).re),
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// Shortest digits and decimal exponent of a finite non-zero `f64`-held value
/// `x` that round-trip to the same value of `dtype`: `("15", 1)` for 15.0 (=1.5e1).
fn shortest_digits(x: f64, dtype: DType) -> (String, i32) {
    let sci = match dtype.real_dtype() {
        DType::F64 => format!("{:e}", x.abs()),
        DType::F32 => format!("{:e}", (x as f32).abs()),
        half_type => {
            // search the shortest precision that round-trips in the half type
            let same = |s: &str| -> bool {
                let v: f64 = s.parse().unwrap_or(f64::NAN);
                match half_type {
                    DType::F16 => f16::from_f64(v) == f16::from_f64(x.abs()),
                    _ => bf16::from_f64(v) == bf16::from_f64(x.abs()),
                }
            };
            (0..17).map(|p| format!("{:.*e}", p, x.abs())).find(|s| same(s)).unwrap_or_else(|| format!("{:e}", x.abs()))
        }
    };
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let digits = digits.trim_end_matches('0').to_string();
    (if digits.is_empty() { "0".into() } else { digits }, exp.parse().unwrap_or(0))
}

/// Python's `repr(float)`.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, exp) = shortest_digits(x, DType::F64);
    if (-4..16).contains(&exp) {
        format!("{sign}{}", positional(&digits, exp, true))
    } else {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
        format!("{sign}{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

fn py_complex_repr(c: Complex64) -> String {
    let part = |x: f64| {
        let r = py_float_repr(x);
        r.strip_suffix(".0").map(str::to_string).unwrap_or(r)
    };
    if c.re == 0.0 && c.re.is_sign_positive() {
        return format!("{}j", part(c.im));
    }
    let im = part(c.im);
    let sign = if im.starts_with('-') { "" } else { "+" };
    format!("({}{sign}{im}j)", part(c.re))
}

/// Digits `d₀d₁…` with decimal exponent `exp` (value d₀.d₁… × 10^exp) written
/// positionally; `zero_frac` writes `15.0` instead of `15.`.
fn positional(digits: &str, exp: i32, zero_frac: bool) -> String {
    let n = digits.len() as i32;
    let (int, frac) = if exp >= 0 {
        if n > exp + 1 {
            (digits[..(exp + 1) as usize].to_string(), digits[(exp + 1) as usize..].to_string())
        } else {
            (format!("{digits}{}", "0".repeat((exp + 1 - n) as usize)), String::new())
        }
    } else {
        ("0".to_string(), format!("{}{digits}", "0".repeat((-exp - 1) as usize)))
    };
    if frac.is_empty() && zero_frac { format!("{int}.0") } else { format!("{int}.{frac}") }
}

/// NumPy's float formatting for a set of values of one dtype.
struct FloatFormat {
    exp: bool,
    pad_left: usize,
    pad_right: usize,
    dtype: DType,
    sign_plus: bool,
}

impl FloatFormat {
    fn new(values: &[f64], dtype: DType, sign_plus: bool) -> Self {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let nonzero: Vec<f64> = finite.iter().map(|v| v.abs()).filter(|&v| v != 0.0).collect();
        let exp = if nonzero.is_empty() {
            false
        } else {
            let max = nonzero.iter().copied().fold(f64::MIN, f64::max);
            let min = nonzero.iter().copied().fold(f64::MAX, f64::min);
            max >= 1e8 || min < 1e-4 || max / min > 1e3
        };
        let mut f = FloatFormat { exp, pad_left: 0, pad_right: 0, dtype, sign_plus };
        for &v in &finite {
            let s = f.body(v);
            let (l, r) = match s.find(['.', 'e']) {
                Some(i) if s.as_bytes()[i] == b'.' => {
                    let end = s.find('e').unwrap_or(s.len());
                    (i, end - i - 1)
                }
                Some(i) => (i, 0),
                None => (s.len(), 0),
            };
            f.pad_left = f.pad_left.max(l);
            f.pad_right = f.pad_right.max(r);
        }
        if exp {
            // exponent parts are aligned separately below; keep the mantissa padding only
            let width = finite.iter().map(|&v| f.body(v).len()).max().unwrap_or(0);
            f.pad_left = width;
            f.pad_right = 0;
        }
        for v in values.iter().filter(|v| !v.is_finite()) {
            let s = nonfinite(*v, sign_plus);
            f.pad_left = f.pad_left.max(s.len().saturating_sub(f.pad_right + usize::from(f.pad_right > 0)));
        }
        f
    }

    /// The unpadded text of a finite value.
    fn body(&self, v: f64) -> String {
        let sign = if v < 0.0 || (v == 0.0 && v.is_sign_negative()) {
            "-"
        } else if self.sign_plus {
            "+"
        } else {
            ""
        };
        if v == 0.0 {
            return if self.exp { format!("{sign}0.e+00") } else { format!("{sign}0.") };
        }
        let (mut digits, mut e) = shortest_digits(v, self.dtype);
        if self.exp {
            if digits.len() > PRECISION + 1 {
                let r = format!("{:.*e}", PRECISION, v.abs());
                let (m, ex) = r.split_once('e').unwrap_or((&r, "0"));
                digits = m.chars().filter(char::is_ascii_digit).collect::<String>().trim_end_matches('0').to_string();
                e = ex.parse().unwrap_or(e);
            }
            let (first, rest) = digits.split_at(1);
            format!("{sign}{first}.{rest}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
        } else {
            let frac_digits = digits.len() as i32 - 1 - e;
            if frac_digits > PRECISION as i32 {
                let r = format!("{:.*}", PRECISION, v.abs());
                let r = r.trim_end_matches('0');
                return format!("{sign}{r}");
            }
            format!("{sign}{}", positional(&digits, e, false))
        }
    }

    fn format(&self, v: f64) -> String {
        if !v.is_finite() {
            let s = nonfinite(v, self.sign_plus);
            let width = self.pad_left + self.pad_right + usize::from(self.pad_right > 0 || !self.exp);
            return format!("{s:>width$}");
        }
        let s = self.body(v);
        if self.exp {
            return format!("{s:>w$}", w = self.pad_left);
        }
        let dot = s.find('.').unwrap_or(s.len());
        let (int, frac) = s.split_at(dot);
        let frac = frac.trim_start_matches('.');
        format!("{int:>l$}.{frac:<r$}", l = self.pad_left, r = self.pad_right)
    }
}

fn nonfinite(v: f64, sign_plus: bool) -> String {
    if v.is_nan() {
        if sign_plus { "+nan" } else { "nan" }.into()
    } else if v > 0.0 {
        if sign_plus { "+inf" } else { "inf" }.into()
    } else {
        "-inf".into()
    }
}

/// Formats every element of `t` (row-major) as NumPy would inside an array.
fn element_strings(t: &Tensor) -> Vec<String> {
    let dtype = t.dtype();
    let pad = |v: Vec<String>| {
        let w = v.iter().map(String::len).max().unwrap_or(0);
        v.into_iter().map(|s| format!("{s:>w$}")).collect::<Vec<_>>()
    };
    match dtype {
        DType::Bool => pad(to_vec::<bool>(t).into_iter().map(|b| py_bool(b).to_string()).collect()),
        d if d.is_unsigned() => pad(to_vec::<u64>(t).into_iter().map(|v| v.to_string()).collect()),
        d if d.is_integer() => pad(to_vec::<i64>(t).into_iter().map(|v| v.to_string()).collect()),
        d if d.is_complex() => {
            let v = to_vec::<Complex64>(t);
            let re: Vec<f64> = v.iter().map(|c| c.re).collect();
            let im: Vec<f64> = v.iter().map(|c| c.im).collect();
            let (fr, fi) = (FloatFormat::new(&re, d, false), FloatFormat::new(&im, d, true));
            v.iter().map(|c| format!("{}{}j", fr.format(c.re), fi.format(c.im))).collect()
        }
        d => {
            let v = to_vec::<f64>(t);
            let f = FloatFormat::new(&v, d, false);
            v.iter().map(|&x| f.format(x)).collect()
        }
    }
}

fn to_vec<T: Element>(t: &Tensor) -> Vec<T> {
    t.to_vec::<T>().unwrap_or_default()
}

/// NumPy's array text of a tensor of rank ≥ 1 (summarised if large).
pub fn array_str(t: &Tensor) -> String {
    let summarize = t.numel() > THRESHOLD;
    // Select the printed elements (edges only when summarising) to format them together.
    let view = if summarize { summarized_view(t) } else { t.clone() };
    let strings = element_strings(&view);
    let shape = t.shape().to_vec();
    let vshape = view.shape().to_vec();
    let mut out = String::new();
    let mut pos = 0;
    write_axis(&mut out, &strings, &shape, &vshape, 0, &mut pos, summarize, 1);
    out
}

/// The tensor restricted to its first and last `EDGE_ITEMS` along every long axis.
///
/// Works axis by axis from the outside in, summarising each selected slice
/// before it is copied, so only the printed elements are ever materialised
/// (a broadcast view of 2^60 elements prints without allocating it).
fn summarized_view(t: &Tensor) -> Tensor {
    summarize_from(t, 0)
}

fn summarize_from(t: &Tensor, axis: usize) -> Tensor {
    if axis >= t.rank() || t.shape()[axis..].iter().all(|&d| d <= 2 * EDGE_ITEMS) {
        return t.clone();
    }
    let d = t.shape()[axis];
    let idx: Vec<usize> =
        if d > 2 * EDGE_ITEMS { (0..EDGE_ITEMS).chain(d - EDGE_ITEMS..d).collect() } else { (0..d).collect() };
    take_axis(t, axis, &idx)
}

fn take_axis(t: &Tensor, axis: usize, idx: &[usize]) -> Tensor {
    use crate::core::layout::SliceArg;
    let parts: Vec<Tensor> = idx
        .iter()
        .filter_map(|&i| {
            let mut args = vec![SliceArg::FULL; axis];
            args.push(SliceArg::range(i as isize, i as isize + 1));
            t.slice(&args).ok().map(|p| summarize_from(&p, axis + 1))
        })
        .collect();
    concat_axis(&parts, axis).unwrap_or_else(|| t.clone())
}

/// Concatenates small display views (used only for summaries).
fn concat_axis(parts: &[Tensor], axis: usize) -> Option<Tensor> {
    let first = parts.first()?;
    let mut shape = first.shape().to_vec();
    shape[axis] = parts.iter().map(|p| p.shape()[axis]).sum();
    crate::with_dtype!(first.dtype(), T, {
        // gather row-major: iterate over outer index, then parts
        let outer: usize = crate::core::layout::dims_product(shape[..axis].iter().copied());
        let mut data: Vec<T> = Vec::new();
        let vecs: Vec<Vec<T>> = parts.iter().map(|p| p.to_vec::<T>().unwrap_or_default()).collect();
        for o in 0..outer {
            for v in &vecs {
                let chunk = v.len() / outer.max(1);
                data.extend_from_slice(&v[o * chunk..(o + 1) * chunk]);
            }
        }
        Tensor::from_vec(data, &shape).ok()
    })
}

#[allow(clippy::too_many_arguments)]
fn write_axis(
    out: &mut String,
    strings: &[String],
    shape: &[usize],
    vshape: &[usize],
    axis: usize,
    pos: &mut usize,
    summarize: bool,
    indent: usize,
) {
    let rank = shape.len();
    out.push('[');
    let n = vshape[axis];
    let elided = summarize && shape[axis] > 2 * EDGE_ITEMS;
    if axis + 1 == rank {
        // innermost axis: elements separated by ", ", wrapped at LINE_WIDTH
        let mut line_len = indent;
        for i in 0..n {
            if elided && i == EDGE_ITEMS {
                push_word(out, "...", &mut line_len, indent, i + 1 == n);
            }
            let word = &strings[*pos];
            *pos += 1;
            push_word(out, word, &mut line_len, indent, i + 1 == n);
        }
    } else {
        let newlines = "\n".repeat(rank - axis - 1);
        for i in 0..n {
            if elided && i == EDGE_ITEMS {
                out.push_str("...,");
                out.push_str(&newlines);
                out.push_str(&" ".repeat(indent));
            }
            write_axis(out, strings, shape, vshape, axis + 1, pos, summarize, indent + 1);
            if i + 1 < n {
                out.push(',');
                out.push_str(&newlines);
                out.push_str(&" ".repeat(indent));
            }
        }
    }
    out.push(']');
}

fn push_word(out: &mut String, word: &str, line_len: &mut usize, indent: usize, last: bool) {
    let sep = if last { "" } else { ", " };
    // room for the separator's comma, or for the closing bracket after the last element
    let need = word.len() + 1;
    if *line_len + need > LINE_WIDTH && *line_len > indent {
        // strip the trailing space of the previous separator
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
        out.push_str(&" ".repeat(indent));
        *line_len = indent;
    }
    out.push_str(word);
    out.push_str(sep);
    *line_len += word.len() + sep.len();
}

impl fmt::Display for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<Tensor: shape={}, dtype={}, numpy={}", shape_str(self.shape()), self.dtype(), numpy_str(self))?;
        if self.is_weak() {
            write!(f, ", weak=True")?;
        }
        write!(f, ">")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constant;

    fn np(t: Tensor) -> String {
        numpy_str(&t)
    }

    #[test]
    fn python_float_repr() {
        assert_eq!(py_float_repr(15.0), "15.0");
        assert_eq!(py_float_repr(4.19921875), "4.19921875");
        assert_eq!(py_float_repr(1e16), "1e+16");
        assert_eq!(py_float_repr(1.5e-5), "1.5e-05");
        assert_eq!(py_float_repr(0.0001), "0.0001");
        assert_eq!(py_float_repr(123456789.0), "123456789.0");
        assert_eq!(py_complex_repr(Complex64::new(1.0, 2.0)), "(1+2j)");
        assert_eq!(py_complex_repr(Complex64::new(0.0, 2.5)), "2.5j");
        assert_eq!(py_complex_repr(Complex64::new(1.5, -2.0)), "(1.5-2j)");
    }

    #[test]
    fn scalars_print_like_tf() {
        assert_eq!(np(Tensor::scalar(f16::from_f32(4.2))), "4.19921875");
        assert_eq!(np(Tensor::scalar(15.0f32)), "15.0");
        assert_eq!(np(Tensor::scalar(true)), "True");
        assert_eq!(np(Tensor::scalar(-5i32)), "-5");
    }

    #[test]
    fn arrays_print_like_numpy() {
        assert_eq!(np(constant([5.0, 10.0, 3.0]).unwrap()), "[ 5., 10.,  3.]");
        assert_eq!(np(constant([1.5f32, 2.0]).unwrap()), "[1.5, 2. ]");
        assert_eq!(np(constant([100.0, 4.0]).unwrap()), "[100.,   4.]");
        assert_eq!(np(Tensor::from_vec(vec![0.1f32, 1.0 / 3.0], &[2]).unwrap()), "[0.1       , 0.33333334]");
        assert_eq!(np(Tensor::from_vec(vec![1e-5f64, 1e10], &[2]).unwrap()), "[1.e-05, 1.e+10]");
        assert_eq!(np(Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap()), "[[1, 2],\n [3, 4]]");
        assert_eq!(np(Tensor::from_vec(vec![true, false], &[2]).unwrap()), "[ True, False]");
        assert_eq!(np(Tensor::from_vec(vec![f32::NAN, 1.5], &[2]).unwrap()), "[nan, 1.5]");
        assert_eq!(
            np(Tensor::from_vec(vec![Complex32::new(1.0, 2.0), Complex32::new(3.0, -1.0)], &[2]).unwrap()),
            "[1.+2.j, 3.-1.j]"
        );
    }

    #[test]
    fn large_arrays_are_summarised() {
        let t = crate::arange(0, 2000, 1, None).unwrap();
        assert_eq!(np(t), "[   0,    1,    2, ..., 1997, 1998, 1999]");
    }

    #[test]
    fn long_rows_wrap_at_75_columns() {
        let t = crate::arange(0, 30, 1, None).unwrap();
        let s = np(t);
        assert!(s.lines().all(|l| l.len() <= 75), "{s}");
        assert!(s.starts_with("[ 0,  1,  2,"), "{s}");
        assert_eq!(s.lines().count(), 2, "{s}");
    }
}
