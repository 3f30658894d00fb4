//! The fuzz harnesses, shared by the cargo-fuzz targets in `fuzz/` and by
//! `tests/fuzz_regressions.rs`, which replays every committed crash input
//! through the same code under a normal `cargo test`.
//!
//! Each harness turns arbitrary bytes into calls of the public API. The
//! library must answer every call with `Ok` or an `Err`; a panic, an abort,
//! a sanitizer report or a broken invariant (checked with `assert!` against
//! a model computed here independently) is a crash.
#![allow(dead_code)]

use arbitrary::{Result as AResult, Unstructured};
use lattensor::einsum::{Front, PathOptions, Strategy};
use lattensor::numpy as tnp;
use lattensor::ops::Axes;
use lattensor::promote::{PromotionMode, with_mode};
use lattensor::{DType, Error, Operand, Scalar, SliceArg, Tensor};

/// The per-tensor limit the harnesses run under: large enough for every
/// small case, small enough that a result the limit lets through cannot
/// exhaust a fuzzer's memory (libFuzzer's default RSS limit is 2 GiB).
pub const FUZZ_MAX_TENSOR_BYTES: u64 = 1 << 22;

fn init() {
    lattensor::set_max_tensor_bytes(FUZZ_MAX_TENSOR_BYTES);
}

fn dtype(u: &mut Unstructured) -> AResult<DType> {
    Ok(DType::CORE[u.choose_index(DType::CORE.len())?])
}

fn mode(u: &mut Unstructured) -> AResult<PromotionMode> {
    Ok(PromotionMode::ALL_MODES[u.choose_index(4)?])
}

/// A small shape: rank 0–`max_rank`, dimensions 0–`max_dim`.
fn small_shape(u: &mut Unstructured, max_rank: usize, max_dim: usize) -> AResult<Vec<usize>> {
    let rank = u.int_in_range(0..=max_rank)?;
    (0..rank).map(|_| u.int_in_range(0..=max_dim)).collect()
}

/// A dimension that is usually small but may be anything, to reach overflow paths.
fn wild_usize(u: &mut Unstructured) -> AResult<usize> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => u.arbitrary()?,
        1 => 1usize << u.int_in_range(16..=63)?,
        _ => u.int_in_range(0..=6)?,
    })
}

fn wild_isize(u: &mut Unstructured) -> AResult<isize> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => u.arbitrary()?,
        1 => [isize::MIN, isize::MAX, isize::MIN + 1, -(1 << 40), 1 << 40][u.choose_index(5)?],
        _ => u.int_in_range(-7..=7)?,
    })
}

/// A tensor of `shape` and `dtype` filled from the input (zeros when it runs out).
///
/// A shape of more than [`FUZZ_MAX_TENSOR_BYTES`] ends the case: the library
/// would rightly refuse to build it (`ResourceExhausted`), and the harness
/// would first allocate its bytes. (An einsum term of many labels can ask for
/// hundreds of MB; the limit itself is tested in `tests/resource_limits.rs`.)
fn filled(u: &mut Unstructured, shape: &[usize], dtype: DType) -> AResult<Tensor> {
    let n = shape
        .iter()
        .try_fold(dtype.size(), |bytes, &d| bytes.checked_mul(d))
        .filter(|&n| n as u64 <= FUZZ_MAX_TENSOR_BYTES)
        .ok_or(arbitrary::Error::IncorrectFormat)?;
    let mut bytes = vec![0u8; n];
    let avail = u.len().min(n);
    if let Ok(src) = u.bytes(avail) {
        bytes[..avail].copy_from_slice(src);
    }
    if dtype == DType::Bool {
        bytes.iter_mut().for_each(|b| *b &= 1);
    }
    Ok(Tensor::from_bytes(&bytes, shape, dtype).expect("from_bytes of a matching buffer within the limit"))
}

/// Optionally replaces `t` by a view with the same shape but other strides:
/// a reversed axis, a stepped slice of a larger tensor, a transposed copy
/// seen through a transpose, or a broadcast — so kernels meet every stride pattern.
fn restride(u: &mut Unstructured, t: Tensor) -> AResult<Tensor> {
    let rank = t.rank();
    Ok(match u.int_in_range(0u8..=5)? {
        1 if rank > 0 => {
            // reverse every axis twice over: x[::-1][::-1] on a reversed copy
            let rev: Vec<SliceArg> = (0..rank).map(|_| SliceArg::stepped(None, None, -1)).collect();
            let r = t.slice(&rev).and_then(|v| v.contiguous()).and_then(|c| c.slice(&rev));
            r.unwrap_or(t)
        }
        2 if rank > 0 => {
            // every other row of a tensor with each row doubled: axis 0 gets stride 2
            let mut wide = t.shape().to_vec();
            wide.insert(1, 2);
            let mut tall: Vec<isize> = t.shape().iter().map(|&d| d as isize).collect();
            tall[0] *= 2;
            let doubled = t.expand_dims(1).and_then(|e| e.broadcast_to(&wide)).and_then(|b| b.contiguous());
            doubled
                .and_then(|d| d.reshape(&tall))
                .and_then(|d| d.slice(&[SliceArg::stepped(None, None, 2)]))
                .ok()
                .filter(|s| s.shape() == t.shape())
                .unwrap_or(t)
        }
        3 if rank > 1 => {
            let perm: Vec<usize> = (0..rank).rev().collect();
            t.transpose(&perm).and_then(|v| v.contiguous()).and_then(|c| c.transpose(&perm)).unwrap_or(t)
        }
        4 if t.numel() > 0 => {
            // a broadcast: the first element's value everywhere, via a size-1 view
            let first: Vec<SliceArg> = (0..rank).map(|_| SliceArg::range(0, 1)).collect();
            t.slice(&first).and_then(|s| s.broadcast_to(t.shape())).unwrap_or(t)
        }
        _ => t,
    })
}

/// Any scalar literal, including NaN payloads, infinities and the integer extremes.
fn scalar(u: &mut Unstructured) -> AResult<Scalar> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 => Scalar::Bool(u.arbitrary()?),
        1 => Scalar::Int(u.arbitrary()?),
        2 => Scalar::UInt(u.arbitrary()?),
        3 => Scalar::Float(f64::from_bits(u.arbitrary()?)),
        4 => Scalar::Float(
            [0.0, -0.0, 0.5, 1.5, -2.5, 65504.0, 65520.0, 3.4e38, 1e300, f64::INFINITY, f64::NAN, 2f64.powi(63)]
                [u.choose_index(12)?],
        ),
        _ => {
            Scalar::Complex(num_complex::Complex64::new(f64::from_bits(u.arbitrary()?), f64::from_bits(u.arbitrary()?)))
        }
    })
}

/// A panic-free check that `r` is `Ok` or an error with a message.
fn answered<T>(r: &lattensor::Result<T>) {
    if let Err(e) = r {
        assert!(!e.to_string().is_empty(), "an error without a message: {e:?}");
    }
}

// ---- einsum ----------------------------------------------------------------------

/// An equation over a small alphabet that hits every grammar rule, with an
/// occasional arbitrary character.
fn equation(u: &mut Unstructured) -> AResult<String> {
    const PIECES: [&str; 16] = ["i", "j", "k", "l", "a", "B", "i", "j", ",", ",", "->", "...", " ", ".", "-", ">"];
    let len = u.int_in_range(0..=20)?;
    let mut s = String::new();
    for _ in 0..len {
        if u.ratio(1u8, 24)? {
            s.push(u.arbitrary::<char>()?);
        } else {
            s.push_str(PIECES[u.choose_index(PIECES.len())?]);
        }
    }
    Ok(s)
}

/// Shapes that mostly fit the equation: each label gets one size (sometimes
/// 1 or a mismatch), an ellipsis 0–2 dimensions.
fn shapes_for(u: &mut Unstructured, eq: &str, count: usize) -> AResult<Vec<Vec<usize>>> {
    let inputs = eq.split("->").next().unwrap_or("");
    let terms: Vec<&str> = inputs.split(',').collect();
    let mut sizes = std::collections::HashMap::new();
    let ell: Vec<usize> = small_shape(u, 2, 3)?;
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let term = terms.get(k).copied().unwrap_or("");
        let mut shape = Vec::new();
        let mut rest = term;
        while let Some(c) = rest.chars().next() {
            if let Some(r) = rest.strip_prefix("...") {
                let keep = u.int_in_range(0..=ell.len())?;
                shape.extend_from_slice(&ell[ell.len() - keep..]);
                rest = r;
                continue;
            }
            rest = &rest[c.len_utf8()..];
            if c == ' ' || c == '.' {
                continue;
            }
            let size = *sizes.entry(c).or_insert(u.int_in_range(0..=3)?);
            shape.push(match u.int_in_range(0u8..=15)? {
                0 => 1,
                1 => u.int_in_range(0..=4)?,
                _ => size,
            });
        }
        if u.ratio(1u8, 16)? {
            shape = small_shape(u, 4, 3)?;
        }
        out.push(shape);
    }
    Ok(out)
}

/// Einsum: parser, planner and executor, all three front ends.
pub fn einsum(data: &[u8]) {
    init();
    let _ = einsum_inner(&mut Unstructured::new(data));
}

fn einsum_inner(u: &mut Unstructured) -> AResult<()> {
    let front = [Front::Raw, Front::Tf, Front::NumPy][u.choose_index(3)?];
    let eq = equation(u)?;
    let count = match front {
        Front::Raw => u.int_in_range(0..=3)?,
        _ => u.int_in_range(0..=5)?,
    };
    let shapes = shapes_for(u, &eq, count)?;
    let mut operands = Vec::with_capacity(count);
    for shape in &shapes {
        let d = dtype(u)?;
        let t = filled(u, shape, d)?;
        operands.push(restride(u, t)?);
    }
    let refs: Vec<&Tensor> = operands.iter().collect();
    let strategy = [Strategy::Auto, Strategy::Optimal, Strategy::Greedy][u.choose_index(3)?];
    let memory_limit = if u.ratio(1u8, 4)? { Some(u.int_in_range(0u128..=64)?) } else { None };
    let opts = PathOptions { strategy, memory_limit };
    let m = mode(u)?;
    let r = with_mode(m, || lattensor::einsum::einsum_front(front, &eq, &refs, opts));
    answered(&r);
    if let Ok(t) = &r {
        assert!(!t.is_weak(), "einsum results are strong");
        // the values must be readable, and the bytes must be valid for the dtype
        let _ = t.to_bytes();
    }
    if front != Front::Raw {
        let shape_refs: Vec<&[usize]> = shapes.iter().map(Vec::as_slice).collect();
        let p = lattensor::einsum::einsum_path(front, &eq, &shape_refs, opts);
        answered(&p);
        if let Ok(p) = p {
            let _ = p.to_string();
        }
    }
    // the public entry points agree with einsum_front for default options
    if opts == PathOptions::default() && m == PromotionMode::All {
        let again = match front {
            Front::Raw => lattensor::einsum::einsum_raw(&eq, &refs),
            Front::Tf => lattensor::einsum::einsum(&eq, &refs),
            Front::NumPy => lattensor::einsum::numpy_einsum(&eq, &refs),
        };
        match (&r, &again) {
            (Ok(a), Ok(b)) => assert_eq!(a.to_bytes().ok(), b.to_bytes().ok(), "{eq}: two runs differ"),
            (Err(_), Err(_)) => {}
            _ => panic!("{eq}: einsum_front and the front end disagree: {r:?} vs {again:?}"),
        }
    }
    Ok(())
}

// ---- bitcast --------------------------------------------------------------------

/// Bitcast between any two dtypes of any small (possibly strided) tensor:
/// the row-major bytes never change and casting back restores the input.
pub fn bitcast(data: &[u8]) {
    init();
    let _ = bitcast_inner(&mut Unstructured::new(data));
}

fn bitcast_inner(u: &mut Unstructured) -> AResult<()> {
    let (from, to) = (dtype(u)?, dtype(u)?);
    let mut shape = small_shape(u, 4, 4)?;
    if u.ratio(1u8, 2)? && from.size() < to.size() {
        // often give a widening bitcast the last dimension it needs
        shape.push(to.size() / from.size());
    }
    let t = filled(u, &shape, from)?;
    let t = restride(u, t)?;
    let r = lattensor::bitcast(&t, to);
    answered(&r);
    let shape_ok = from.size() >= to.size() || t.shape().last() == Some(&(to.size() / from.size()));
    let allowed = from != DType::Bool && to != DType::Bool && shape_ok;
    assert_eq!(r.is_ok(), allowed, "bitcast {from} -> {to} of shape {shape:?}: {r:?}");
    let Ok(b) = r else { return Ok(()) };
    assert_eq!(b.dtype(), to);
    assert!(!b.is_weak());
    let (tb, bb) = (t.to_bytes().expect("small"), b.to_bytes().expect("small"));
    assert_eq!(tb, bb, "bitcast {from} -> {to} changed the bytes");
    let back = lattensor::bitcast(&b, from).expect("bitcast back to the input dtype");
    assert_eq!(back.shape(), t.shape(), "bitcast {from} -> {to} -> {from} changed the shape");
    assert_eq!(back.to_bytes().expect("small"), tb, "bitcast round trip changed the bytes");
    Ok(())
}

// ---- views ------------------------------------------------------------------------

/// A dense row-major model of a tensor, computed independently of the library.
#[derive(Clone, Debug)]
struct Model {
    shape: Vec<usize>,
    values: Vec<i64>,
}

fn strides_of(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1].saturating_mul(shape[i + 1]);
    }
    s
}

/// Calls `f` with every multi-index of `shape` in row-major order.
fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    if shape.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; shape.len()];
    loop {
        f(&idx);
        let mut a = shape.len();
        loop {
            if a == 0 {
                return;
            }
            a -= 1;
            idx[a] += 1;
            if idx[a] < shape[a] {
                break;
            }
            idx[a] = 0;
        }
    }
}

impl Model {
    fn gather(&self, shape: Vec<usize>, src: impl Fn(&[usize]) -> usize) -> Model {
        let mut values = Vec::new();
        for_each_index(&shape, |i| values.push(self.values[src(i)]));
        Model { shape, values }
    }

    fn transpose(&self, perm: &[usize]) -> Model {
        let st = strides_of(&self.shape);
        let shape = perm.iter().map(|&p| self.shape[p]).collect();
        self.gather(shape, |i| i.iter().zip(perm).map(|(&x, &p)| x * st[p]).sum())
    }

    fn broadcast(&self, shape: &[usize]) -> Model {
        let st = strides_of(&self.shape);
        let lead = shape.len() - self.shape.len();
        let own = self.shape.clone();
        self.gather(shape.to_vec(), |i| (0..own.len()).map(|a| if own[a] == 1 { 0 } else { i[lead + a] * st[a] }).sum())
    }

    /// Python's `range(*slice(start, stop, step).indices(len))`, by walking the axis.
    fn picks(start: Option<isize>, stop: Option<isize>, step: isize, len: usize) -> Vec<usize> {
        let len = len as i128;
        let step = step as i128;
        let norm = |v: Option<isize>, dflt: i128, lo: i128, hi: i128| match v {
            None => dflt,
            Some(v) => {
                let v = v as i128;
                (if v < 0 { v + len } else { v }).clamp(lo, hi)
            }
        };
        let (s, e) = if step > 0 {
            (norm(start, 0, 0, len), norm(stop, len, 0, len))
        } else {
            (norm(start, len - 1, -1, len - 1), norm(stop, -1, -1, len - 1))
        };
        let mut out = Vec::new();
        let mut i = s;
        while (step > 0 && i < e) || (step < 0 && i > e) {
            out.push(i as usize);
            i += step;
        }
        out
    }

    fn slice(&self, args: &[SliceArg]) -> Option<Model> {
        let st = strides_of(&self.shape);
        // per output axis: the source axis (None for a new axis) and the picked indices
        let mut axes: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        let mut fixed = 0usize;
        let mut a = 0usize;
        for arg in args {
            match *arg {
                SliceArg::NewAxis => axes.push((None, vec![0])),
                SliceArg::Index(i) => {
                    let d = *self.shape.get(a)? as isize;
                    let i = if i < 0 { i.checked_add(d)? } else { i };
                    if i < 0 || i >= d {
                        return None;
                    }
                    fixed += i as usize * st[a];
                    a += 1;
                }
                SliceArg::Range { start, stop, step } => {
                    if step == 0 {
                        return None;
                    }
                    axes.push((Some(a), Model::picks(start, stop, step, *self.shape.get(a)?)));
                    a += 1;
                }
            }
        }
        for b in a..self.shape.len() {
            axes.push((Some(b), (0..self.shape[b]).collect()));
        }
        let shape: Vec<usize> = axes.iter().map(|(_, p)| p.len()).collect();
        Some(self.gather(shape, |i| {
            fixed + i.iter().zip(&axes).map(|(&x, (src, p))| src.map_or(0, |s| p[x] * st[s])).sum::<usize>()
        }))
    }
}

fn slice_arg(u: &mut Unstructured) -> AResult<SliceArg> {
    let opt = |u: &mut Unstructured| -> AResult<Option<isize>> {
        if u.ratio(1u8, 3)? { Ok(None) } else { Ok(Some(wild_isize(u)?)) }
    };
    Ok(match u.int_in_range(0u8..=5)? {
        0 => SliceArg::Index(wild_isize(u)?),
        1 => SliceArg::NewAxis,
        _ => SliceArg::stepped(opt(u)?, opt(u)?, wild_isize(u)?),
    })
}

/// reshape / broadcast_to / slice / transpose / expand_dims / squeeze chains on
/// arbitrary shapes, checked element by element against [`Model`].
pub fn views(data: &[u8]) {
    init();
    let _ = views_inner(&mut Unstructured::new(data));
}

fn views_inner(u: &mut Unstructured) -> AResult<()> {
    let shape = small_shape(u, 4, 5)?;
    let n: usize = shape.iter().product();
    let values: Vec<i64> = (0..n as i64).collect();
    let dt = dtype(u)?;
    // the values 0..n survive a cast to any dtype but bool, and to the 8-bit
    // ones when n ≤ 128, to bfloat16 when n ≤ 257 (n ≤ 625 always fits float16)
    let fits = match dt {
        DType::Bool => false,
        DType::U8 | DType::I8 => n <= 128,
        DType::BF16 => n <= 257,
        _ => true,
    };
    let dt = if fits { dt } else { DType::I64 };
    let mut t = Tensor::from_vec(values.clone(), &shape).expect("small").cast(dt).expect("small");
    let mut model = Some(Model { shape, values });
    for _ in 0..u.int_in_range(1..=8)? {
        let op = u.int_in_range(0u8..=7)?;
        let r: lattensor::Result<Tensor> = match op {
            0 => {
                let s: Vec<isize> = (0..u.int_in_range(0..=5)?).map(|_| wild_isize(u)).collect::<AResult<_>>()?;
                let r = t.reshape(&s);
                if let (Ok(v), Some(m)) = (&r, &mut model) {
                    assert_eq!(v.numel(), m.values.len(), "reshape {s:?} changed the element count");
                    m.shape = v.shape().to_vec();
                }
                r
            }
            1 => {
                let s: Vec<usize> = (0..u.int_in_range(0..=6)?).map(|_| wild_usize(u)).collect::<AResult<_>>()?;
                let r = t.broadcast_to(&s);
                if let Ok(v) = &r {
                    assert_eq!(v.shape(), &s[..]);
                    model = model.filter(|_| v.numel() <= 1 << 16).map(|m| m.broadcast(&s));
                }
                r
            }
            2 => {
                let args: Vec<SliceArg> = (0..u.int_in_range(0..=5)?).map(|_| slice_arg(u)).collect::<AResult<_>>()?;
                let r = t.slice(&args);
                let expect = model.as_ref().and_then(|m| m.slice(&args));
                match (&r, &model) {
                    (Ok(_), Some(_)) => assert!(expect.is_some(), "slice {args:?} of {:?} should fail", t.shape()),
                    (Err(_), Some(_)) => assert!(expect.is_none(), "slice {args:?} of {:?} should work", t.shape()),
                    _ => {}
                }
                if r.is_ok() {
                    model = expect;
                }
                r
            }
            3 => {
                let perm: Vec<usize> =
                    (0..u.int_in_range(0..=5)?).map(|_| u.int_in_range(0..=5)).collect::<AResult<_>>()?;
                let r = t.transpose(&perm);
                if r.is_ok() {
                    model = model.map(|m| m.transpose(&perm));
                }
                r
            }
            4 => {
                let axis = wild_isize(u)?;
                let r = t.expand_dims(axis);
                if let (Ok(v), Some(m)) = (&r, &mut model) {
                    m.shape = v.shape().to_vec();
                }
                r
            }
            5 => {
                let axes: Vec<isize> = (0..u.int_in_range(0..=3)?).map(|_| wild_isize(u)).collect::<AResult<_>>()?;
                let r = t.squeeze(&axes);
                if let (Ok(v), Some(m)) = (&r, &mut model) {
                    assert_eq!(v.numel(), m.values.len());
                    m.shape = v.shape().to_vec();
                }
                r
            }
            6 => t.contiguous(),
            _ => Ok(t.t()).inspect(|_| {
                if let Some(m) = &mut model {
                    let perm: Vec<usize> = (0..m.shape.len()).rev().collect();
                    *m = m.transpose(&perm);
                }
            }),
        };
        answered(&r);
        if let Ok(v) = r {
            t = v;
        }
        let got = t.to_vec::<i64>();
        if let Ok(g) = &got {
            // the bytes of a wider dtype than i64 may exceed the memory limit that to_vec's did not
            match t.to_bytes() {
                Ok(bytes) => assert_eq!(bytes.len(), g.len() * t.dtype().size()),
                Err(e) => assert!(
                    matches!(e, Error::ResourceExhausted(_)) && t.dtype().size() > 8,
                    "to_bytes of a {:?} {} view that to_vec could copy: {e}",
                    t.shape(),
                    t.dtype()
                ),
            }
        }
        match &model {
            Some(m) => {
                assert_eq!(t.shape(), &m.shape[..], "shape after op {op}");
                assert_eq!(got.as_ref().ok(), Some(&m.values), "values after op {op}, shape {:?}", m.shape);
            }
            None => assert!(
                got.is_ok() || matches!(got, Err(Error::ResourceExhausted(_))),
                "to_vec of a {:?} view: {got:?}",
                t.shape()
            ),
        }
        // The model walks every index of its shape: it follows only shapes it can
        // enumerate (a view of an empty tensor may have dimensions near usize::MAX).
        model = model.filter(|m| m.shape.iter().all(|&d| d <= 1 << 16));
    }
    Ok(())
}

// ---- npy --------------------------------------------------------------------------

/// The `.npy` reader on arbitrary bytes (in memory and from a file): whatever
/// it accepts writes back and reads again to the same tensor.
pub fn npy(data: &[u8]) {
    init();
    let r = lattensor::npy::from_npy_bytes(data);
    answered(&r);
    if data.len() <= 1 << 12 {
        let path = std::env::temp_dir().join(format!("lattensor_fuzz_npy_{}.npy", std::process::id()));
        if std::fs::write(&path, data).is_ok() {
            let f = lattensor::npy::read_npy(&path);
            let _ = std::fs::remove_file(&path);
            match (&r, &f) {
                (Ok(a), Ok(b)) => assert_eq!((a.shape(), a.to_bytes().ok()), (b.shape(), b.to_bytes().ok())),
                (Err(_), Err(_)) => {}
                _ => panic!("from_npy_bytes and read_npy disagree: {r:?} vs {f:?}"),
            }
        }
    }
    let Ok(t) = r else { return };
    assert!(!t.is_weak());
    let bytes = lattensor::npy::to_npy_bytes(&t).expect("writing a tensor just read");
    let back = lattensor::npy::from_npy_bytes(&bytes).expect("reading what was written");
    assert_eq!(back.dtype(), t.dtype());
    assert_eq!(back.shape(), t.shape());
    assert_eq!(back.to_bytes().ok(), t.to_bytes().ok());
}

// ---- constant / cast / creation ------------------------------------------------------

/// `constant`, `constant_as`, `cast` over all dtype pairs with arbitrary
/// values, and the creation functions with arbitrary sizes.
pub fn cast(data: &[u8]) {
    init();
    let _ = cast_inner(&mut Unstructured::new(data));
}

fn cast_inner(u: &mut Unstructured) -> AResult<()> {
    let m = mode(u)?;
    match u.int_in_range(0u8..=4)? {
        0 => {
            let s = scalar(u)?;
            let c = with_mode(m, || lattensor::constant(s));
            answered(&c);
            if let Ok(c) = &c {
                assert_eq!(Ok(c.lattice_type()), s.lattice_type(), "constant({s}) has its literal's type");
            }
            for d in DType::CORE {
                answered(&with_mode(m, || lattensor::constant_as(s, d)));
                let f = lattensor::full(&[2], s, d).expect("two elements");
                assert_eq!(f.dtype(), d);
                // an integer or bool literal converts the same way as a tensor holding it
                if let (Ok(c), Scalar::Bool(_) | Scalar::Int(_) | Scalar::UInt(_)) = (&c, s) {
                    let via = c.cast(d).expect("scalar cast").to_bytes().expect("small");
                    let direct = f.slice(&[SliceArg::Index(0)]).and_then(|x| x.to_bytes()).expect("small");
                    assert_eq!(via, direct, "{s} to {d}: constant().cast() and full() differ");
                }
            }
        }
        1 => {
            let (from, to) = (dtype(u)?, dtype(u)?);
            let shape = small_shape(u, 3, 4)?;
            let t = filled(u, &shape, from)?;
            let t = restride(u, t)?;
            let c = lattensor::cast(&t, to).expect("small cast");
            assert_eq!((c.dtype(), c.shape(), c.is_weak()), (to, t.shape(), false));
            let same = lattensor::cast(&t, from).expect("small cast");
            assert_eq!(same.to_bytes().ok(), t.to_bytes().ok(), "cast to the same dtype changed bytes");
            let _ = c.cast(from).expect("small cast");
            let _ = c.to_string();
            answered(&with_mode(m, || lattensor::constant_as(&t, to)));
        }
        2 => {
            let items: Vec<Scalar> = (0..u.int_in_range(0..=6)?).map(|_| scalar(u)).collect::<AResult<_>>()?;
            let n = items.len();
            let v = lattensor::Value::List { items, shape: vec![n] };
            answered(&with_mode(m, || lattensor::constant(v.clone())));
            let d = dtype(u)?;
            answered(&with_mode(m, || lattensor::constant_as(v, d)));
        }
        3 => {
            let (a, b, c) = (scalar(u)?, scalar(u)?, scalar(u)?);
            let d = if u.arbitrary()? { Some(dtype(u)?) } else { None };
            let r = lattensor::arange(a, b, c, d);
            answered(&r);
            let (x, y) = (f64::from_bits(u.arbitrary()?), f64::from_bits(u.arbitrary()?));
            answered(&lattensor::linspace(x, y, wild_usize(u)?, d));
        }
        _ => {
            let d = dtype(u)?;
            let shape: Vec<usize> = (0..u.int_in_range(0..=4)?).map(|_| wild_usize(u)).collect::<AResult<_>>()?;
            let s = scalar(u)?;
            let r = lattensor::full(&shape, s, d);
            answered(&r);
            if let Ok(t) = &r {
                assert_eq!((t.shape(), t.dtype()), (&shape[..], d));
            }
            answered(&lattensor::zeros(&shape, d));
            answered(&lattensor::ones(&shape, d));
            let m2 = if u.arbitrary()? { Some(wild_usize(u)?) } else { None };
            answered(&lattensor::eye(wild_usize(u)?, m2, d));
        }
    }
    Ok(())
}

// ---- ops -------------------------------------------------------------------------

/// The element-wise unary ops of `lattensor::ops` and friends (every real and
/// complex dtype, refusals included).
const UNARY: &[fn(&Tensor) -> lattensor::Result<Tensor>] = {
    use lattensor::ops::{self, nn, special};
    &[
        ops::abs,
        ops::acos,
        ops::acosh,
        ops::angle,
        ops::asin,
        ops::asinh,
        ops::atan,
        ops::atanh,
        ops::ceil,
        ops::conj,
        ops::cos,
        ops::cosh,
        ops::digamma,
        ops::erf,
        ops::erfc,
        ops::erfcinv,
        ops::erfinv,
        ops::exp,
        ops::expm1,
        ops::floor,
        ops::imag,
        ops::lgamma,
        ops::log1p,
        ops::log_sigmoid,
        ops::log,
        ops::ndtri,
        ops::negative,
        ops::real,
        ops::reciprocal_no_nan,
        ops::reciprocal,
        ops::rint,
        ops::round,
        ops::rsqrt,
        ops::sigmoid,
        ops::sign,
        ops::sin,
        ops::sinh,
        ops::softplus,
        ops::sqrt,
        ops::square,
        ops::tan,
        ops::tanh,
        ops::invert,
        ops::is_nan,
        ops::is_inf,
        ops::is_finite,
        ops::logical_not,
        nn::elu,
        nn::relu,
        nn::relu6,
        nn::selu,
        nn::softsign,
        special::bessel_i0,
        special::bessel_i0e,
        special::bessel_i1,
        special::bessel_i1e,
        special::bessel_j0,
        special::bessel_j1,
        special::bessel_k0,
        special::bessel_k0e,
        special::bessel_k1,
        special::bessel_k1e,
        special::bessel_y0,
        special::bessel_y1,
        special::dawsn,
        special::expint,
        special::fresnel_cos,
        special::fresnel_sin,
        special::spence,
    ]
};

/// Ops of one tensor whose result has another shape.
const SHAPED: &[fn(&Tensor) -> lattensor::Result<Tensor>] = {
    use lattensor::ops::linalg;
    &[linalg::diag, linalg::diag_part, linalg::tensor_diag_part, linalg::trace]
};

type Binary = for<'a> fn(Operand<'a>, Operand<'a>) -> lattensor::Result<Tensor>;

/// The promoting binary ops (element-wise, broadcasting).
const BINARY: &[Binary] = {
    use lattensor::ops;
    &[
        |a, b| ops::add(a, b),
        |a, b| ops::subtract(a, b),
        |a, b| ops::multiply(a, b),
        |a, b| ops::divide(a, b),
        |a, b| ops::divide_no_nan(a, b),
        |a, b| ops::multiply_no_nan(a, b),
        |a, b| ops::floordiv(a, b),
        |a, b| ops::floormod(a, b),
        |a, b| ops::pow(a, b),
        |a, b| ops::realdiv(a, b),
        |a, b| ops::truncatediv(a, b),
        |a, b| ops::truncatemod(a, b),
        |a, b| ops::maximum(a, b),
        |a, b| ops::minimum(a, b),
        |a, b| ops::equal(a, b),
        |a, b| ops::not_equal(a, b),
        |a, b| ops::less(a, b),
        |a, b| ops::less_equal(a, b),
        |a, b| ops::greater(a, b),
        |a, b| ops::greater_equal(a, b),
        |a, b| ops::atan2(a, b),
        |a, b| ops::hypot(a, b),
        |a, b| ops::heaviside(a, b),
        |a, b| ops::logical_and(a, b),
        |a, b| ops::logical_or(a, b),
        |a, b| ops::logical_xor(a, b),
        |a, b| ops::bitwise_and(a, b),
        |a, b| ops::bitwise_or(a, b),
        |a, b| ops::bitwise_xor(a, b),
        |a, b| ops::left_shift(a, b),
        |a, b| ops::right_shift(a, b),
    ]
};

type Reduction = fn(&Tensor, Axes, bool) -> lattensor::Result<Tensor>;

const REDUCTIONS: &[Reduction] = {
    use lattensor::ops;
    &[
        |x, a, k| ops::reduce_sum(x, a, k),
        |x, a, k| ops::reduce_mean(x, a, k),
        |x, a, k| ops::reduce_prod(x, a, k),
        |x, a, k| ops::reduce_max(x, a, k),
        |x, a, k| ops::reduce_min(x, a, k),
        |x, a, k| ops::reduce_variance(x, a, k),
        |x, a, k| ops::reduce_std(x, a, k),
        |x, a, k| ops::reduce_logsumexp(x, a, k),
        |x, a, k| ops::reduce_euclidean_norm(x, a, k),
        |x, a, k| tnp::amax(x, a, k),
        |x, a, k| tnp::amin(x, a, k),
        |x, a, k| tnp::sum(x, a, None, k),
        |x, a, k| tnp::prod(x, a, None, k),
        |x, a, k| tnp::mean(x, a, None, k),
        |x, a, k| tnp::nanmean(x, a, None, k),
        |x, a, k| tnp::std(x, a, 1, k),
        |x, a, k| tnp::var(x, a, None, 0, k),
    ]
};

/// A small tensor of any dtype and stride pattern, now and then a weak rank-0
/// one made from a literal.
fn tensor(u: &mut Unstructured) -> AResult<Tensor> {
    if u.ratio(1, 8)?
        && let Ok(t) = lattensor::constant(scalar(u)?)
    {
        return Ok(t);
    }
    let d = dtype(u)?;
    let shape = small_shape(u, 4, 4)?;
    let t = filled(u, &shape, d)?;
    restride(u, t)
}

/// A tensor or a literal, as binary ops take them.
fn operand<'a>(u: &mut Unstructured, t: &'a Tensor) -> AResult<Operand<'a>> {
    Ok(if u.ratio(1, 5)? { Operand::Scalar(scalar(u)?) } else { Operand::Tensor(t) })
}

/// Reduction axes: all, or up to three, usually in range, sometimes wild or repeated.
fn axes(u: &mut Unstructured) -> AResult<Axes> {
    Ok(if u.ratio(1, 4)? {
        Axes::All
    } else {
        Axes::Some((0..u.int_in_range(0..=3)?).map(|_| wild_isize(u)).collect::<AResult<_>>()?)
    })
}

fn isizes(u: &mut Unstructured, max_len: usize) -> AResult<Vec<isize>> {
    (0..u.int_in_range(0..=max_len)?).map(|_| wild_isize(u)).collect()
}

fn usizes(u: &mut Unstructured, max_len: usize) -> AResult<Vec<usize>> {
    (0..u.int_in_range(0..=max_len)?).map(|_| wild_usize(u)).collect()
}

/// An optional axis (or other integer argument), wild when present.
fn opt_isize(u: &mut Unstructured) -> AResult<Option<isize>> {
    Ok(if u.arbitrary()? { Some(wild_isize(u)?) } else { None })
}

fn opt_dtype(u: &mut Unstructured) -> AResult<Option<DType>> {
    Ok(if u.arbitrary()? { Some(dtype(u)?) } else { None })
}

/// Drives the op library: element-wise unary and binary ops, reductions, and the
/// ops with integer arguments (axes, offsets, counts, block and patch sizes) where
/// the argument checks live, on every dtype and stride pattern, under every
/// promotion mode. Every call must answer; results are checked where the shape
/// or dtype follows from the inputs alone.
pub fn ops(data: &[u8]) {
    init();
    let _ = ops_inner(&mut Unstructured::new(data));
}

fn ops_inner(u: &mut Unstructured) -> AResult<()> {
    use lattensor::ops::{linalg, nn};
    let m = mode(u)?;
    let x = tensor(u)?;
    match u.int_in_range(0u8..=9)? {
        0 => {
            let f = UNARY[u.choose_index(UNARY.len())?];
            let r = with_mode(m, || f(&x));
            answered(&r);
            if let Ok(y) = &r {
                assert_eq!(y.shape(), x.shape(), "an element-wise op changed the shape");
            }
            answered(&with_mode(m, || SHAPED[u.choose_index(SHAPED.len()).unwrap_or(0)](&x)));
        }
        1 => {
            let y = tensor(u)?;
            let f = BINARY[u.choose_index(BINARY.len())?];
            let (a, b) = (operand(u, &x)?, operand(u, &y)?);
            let shapes = lattensor::broadcast_shapes(a.shape(), b.shape(), "fuzz").ok();
            let r = with_mode(m, || f(a, b));
            answered(&r);
            if let Ok(z) = &r {
                assert_eq!(Some(z.shape()), shapes.as_deref(), "a binary op's shape is not the broadcast shape");
            }
        }
        2 => {
            let f = REDUCTIONS[u.choose_index(REDUCTIONS.len())?];
            let (a, keep) = (axes(u)?, u.arbitrary()?);
            let r = with_mode(m, || f(&x, a.clone(), keep));
            answered(&r);
            if let (Ok(y), true) = (&r, keep) {
                assert_eq!(y.rank(), x.rank(), "keepdims kept the rank: {a:?}");
            }
            let d = DType::CORE[u.choose_index(DType::CORE.len())?];
            answered(&lattensor::ops::argmax(&x, wild_isize(u)?, d));
            answered(&lattensor::ops::argmin(&x, wild_isize(u)?, d));
            answered(&tnp::cumsum(&x, opt_isize(u)?, opt_dtype(u)?));
            answered(&tnp::cumprod(&x, opt_isize(u)?, opt_dtype(u)?));
            answered(&tnp::average(&x, opt_isize(u)?, None));
        }
        3 => {
            let k = wild_isize(u)?;
            let (a1, a2) = (wild_isize(u)?, wild_isize(u)?);
            answered(&tnp::diagonal(&x, k, a1, a2));
            answered(&tnp::trace(&x, k, a1, a2, opt_dtype(u)?));
            answered(&tnp::diag(&x, k));
            answered(&tnp::diagflat(&x, k));
            answered(&tnp::triu(&x, k));
            answered(&tnp::swapaxes(&x, a1, a2));
            answered(&tnp::rot90(&x, u.arbitrary()?, (a1, a2)));
            answered(&tnp::diff(&x, wild_usize(u)?, a1));
            let n = if u.arbitrary()? { Some(wild_usize(u)?) } else { None };
            answered(&tnp::vander(&x, n, u.arbitrary()?));
            answered(&tnp::sort(&x, if u.arbitrary()? { Some(a1) } else { None }));
        }
        4 => {
            let shape = isizes(u, 5)?;
            answered(&lattensor::reshape(&x, &shape));
            answered(&tnp::reshape(&x, &shape));
            answered(&lattensor::squeeze(&x, &isizes(u, 3)?));
            answered(&lattensor::expand_dims(&x, wild_isize(u)?));
            let perm: Vec<usize> = usizes(u, 5)?;
            answered(&lattensor::transpose(&x, Some(&perm), u.arbitrary()?));
            answered(&tnp::transpose(&x, Some(&isizes(u, 5)?)));
            answered(&tnp::moveaxis(&x, Axes::Some(isizes(u, 3)?), Axes::Some(isizes(u, 3)?)));
            answered(&tnp::flip(&x, axes(u)?));
            answered(&tnp::squeeze(&x, axes(u)?));
        }
        5 => {
            let repeats = usizes(u, 4)?;
            let axis = opt_isize(u)?;
            answered(&tnp::repeat(&x, &repeats, axis));
            let count = i64::try_from(wild_isize(u)?).unwrap_or(0);
            answered(&lattensor::split(&x, lattensor::Splits::Count(count), wild_isize(u)?));
            let sizes: Vec<i64> = isizes(u, 4)?.into_iter().map(|s| s as i64).collect();
            answered(&lattensor::split(&x, lattensor::Splits::Sizes(sizes), wild_isize(u)?));
            let pads: Vec<Vec<i64>> = (0..x.rank())
                .map(|_| Ok(vec![wild_isize(u)? as i64, wild_isize(u)? as i64]))
                .collect::<AResult<_>>()?;
            let mode = [lattensor::PadMode::Constant, lattensor::PadMode::Reflect, lattensor::PadMode::Symmetric]
                [u.choose_index(3)?];
            answered(&lattensor::pad(&x, pads, mode, scalar(u)?));
            answered(&tnp::append(&x, &x, opt_isize(u)?));
        }
        6 => {
            let y = tensor(u)?;
            let axis = wild_isize(u)?;
            answered(&with_mode(m, || lattensor::concat(&[&x, &y], axis)));
            answered(&with_mode(m, || lattensor::stack(&[&x, &y], axis)));
            let c = tensor(u)?;
            answered(&with_mode(m, || lattensor::where_(&c, &x, &y)));
            let r =
                with_mode(m, || linalg::matmul(&x, &y, u.arbitrary().unwrap_or(false), u.arbitrary().unwrap_or(false)));
            answered(&r);
            answered(&lattensor::gather(&x, &y, axis, wild_isize(u)?));
        }
        7 => {
            let on = tensor(u)?;
            let off = tensor(u)?;
            let depth = i64::try_from(wild_isize(u)?).unwrap_or(-1);
            answered(&lattensor::one_hot(&x, depth, &on, &off, wild_isize(u)?));
            answered(&lattensor::unique(&x, dtype(u)?));
            answered(&lattensor::unique_with_counts(&x, dtype(u)?));
        }
        8 => {
            let axis = i32::try_from(wild_isize(u)?).unwrap_or(i32::MIN);
            answered(&nn::softmax(&x, axis));
            answered(&nn::log_softmax(&x, axis));
            let block = wild_usize(u)?;
            answered(&nn::space_to_depth(&x, block));
            answered(&nn::depth_to_space(&x, block));
            let f = f64::from_bits(u.arbitrary()?);
            answered(&nn::leaky_relu(&x, f));
            answered(&nn::swish(&x, f));
            answered(&nn::gelu(&x, u.arbitrary()?));
            answered(&linalg::matrix_transpose(&x, u.arbitrary()?));
        }
        _ => {
            let (sizes, strides, rates) = (usizes(u, 4)?, usizes(u, 4)?, usizes(u, 4)?);
            let padding =
                if u.arbitrary()? { lattensor::image::Padding::Same } else { lattensor::image::Padding::Valid };
            answered(&lattensor::image::extract_patches(&x, &sizes, &strides, &rates, padding));
            let delta = tensor(u)?;
            answered(&with_mode(m, || lattensor::image::adjust_brightness(&x, &delta)));
            answered(&with_mode(m, || lattensor::image::adjust_gamma(&x, scalar(u).unwrap_or(Scalar::Int(1)), &delta)));
            let seed = [u.arbitrary()?, u.arbitrary()?];
            let max_delta = f64::from_bits(u.arbitrary()?);
            answered(&lattensor::image::stateless_random_brightness(&x, max_delta, seed));
            answered(&lattensor::image::random_brightness(&x, max_delta, Some(u.arbitrary()?)));
            answered(&lattensor::image::convert_image_dtype(&x, dtype(u)?, u.arbitrary()?));
            answered(&lattensor::debugging::check_numerics(&x, "fuzz"));
        }
    }
    Ok(())
}
