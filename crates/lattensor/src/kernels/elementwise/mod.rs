//! Element-wise kernel drivers: one generic loop per arity, any layouts, any
//! input dtypes.
//!
//! Inputs of another dtype than the computation's are converted on the fly
//! (no promoted temporary copy of a whole operand): the common cheap cases
//! (u8 and i32 in f32/f64 arithmetic, f32 in f64) inside the op's own loop,
//! the others a block at a time into a small buffer that stays in L1.
//! Contiguous inputs of the right dtype are read in place; broadcast inputs
//! become scalars. Large outputs are split across threads ([`super::parallel`])
//! and written with streaming stores ([`lines`] writes whole cache lines from
//! registers).

mod lines;

use super::fused_half;
use super::parallel::for_chunks;
use super::simd::{self, convert::convert_slice};
use super::strided::Walk;
use crate::core::element::Element;
use crate::core::layout::same_shape;
use crate::core::scalar::{Operand, Scalar};
use crate::{DType, Tensor, with_dtype};
use lines::{streamed_lines, streamed_mixed_lines};

/// Elements per block of on-the-fly conversion.
pub(crate) const BLOCK: usize = 256;

/// A block of one operand, ready for a kernel: a slice of `len` elements or a scalar.
#[derive(Clone, Copy)]
pub(crate) enum Src<'a, T> {
    Slice(&'a [T]),
    Scalar(T),
}

/// Where an element-wise kernel's results go. Small outputs are written in
/// place; outputs too large for the cache are computed a block at a time into
/// an L1 buffer and then written by streaming stores, which skip the
/// read-for-ownership of every output line (a quarter of an add's memory
/// traffic, a third of a unary op's).
pub(crate) struct Sink<O> {
    stream: bool,
    buf: [O; STREAM_BLOCK],
}

/// Elements per block of a streamed output whose operands are read in place.
/// Each block costs two calls (the op's loop, the streaming copy): 10M-element
/// ops ran 7–12% faster with blocks of 1024 than of [`BLOCK`] (e.g. f32 `x + y`
/// 6.32 → 5.63 ms, two threads); 2048 was no better. The outer product keeps
/// smaller blocks (see its kernel in `einsum::exec`).
pub(crate) const STREAM_BLOCK: usize = 1024;

impl<O: Element> Sink<O> {
    /// A sink for one thread's part of `whole`, the op's entire output: the
    /// choice to stream depends on the whole output's size, not the part's.
    pub(crate) fn new(whole: Streaming) -> Self {
        Sink { stream: whole.0, buf: [O::default(); STREAM_BLOCK] }
    }

    /// How many elements of a run to compute per call of [`Sink::write`]:
    /// whole runs whose operands are read without a buffer, [`STREAM_BLOCK`]s of
    /// them when streaming, [`BLOCK`]s of operands converted into a buffer.
    pub(crate) fn step(&self, in_place: bool, run: usize) -> usize {
        if !in_place {
            BLOCK
        } else if self.stream {
            STREAM_BLOCK
        } else {
            run
        }
    }

    /// Fills `o` (at most [`STREAM_BLOCK`] elements when streaming) with `fill`.
    #[inline(always)]
    pub(crate) fn write(&mut self, o: &mut [O], fill: impl FnOnce(&mut [O])) {
        if self.stream {
            let t = &mut self.buf[..o.len()];
            fill(t);
            simd::stream::stream_store(t, o);
        } else {
            fill(o);
        }
    }

    /// Makes the streaming stores visible to the thread that joins this one.
    pub(crate) fn finish(&self) {
        if self.stream {
            simd::stream::store_fence();
        }
    }
}

/// Whether an op's output is written with streaming stores: when its working
/// set (the output and the inputs it reads) is at least [`simd::cpu::stream_min_bytes`].
/// Decided once per op on the whole output, before it is split between threads:
/// the threads' 32K-element chunks are all far smaller than the cache. (Deciding
/// per chunk never streamed on two threads; streaming there made 10M-element f32
/// `x + y` ~8% faster, `x + 1.0` and i32 + f32 ~25% faster, on Zen 4.)
#[derive(Clone, Copy)]
pub(crate) struct Streaming(bool);

impl Streaming {
    /// For an output `out` computed from inputs of `read` bytes in all (see
    /// [`Tensor::bytes_read`]).
    pub(crate) fn of<O>(out: &[O], read: usize) -> Self {
        Streaming(std::mem::size_of_val(out).saturating_add(read) >= simd::cpu::stream_min_bytes())
    }

    /// Whether to stream.
    pub(crate) fn on(self) -> bool {
        self.0
    }
}

/// Reads `len` elements of `t` starting at element `offset` with `stride`,
/// as `R`: in place when possible, else converted into `buf`.
#[inline]
fn load<'a, R: Element>(t: &'a Tensor, offset: isize, stride: isize, len: usize, buf: &'a mut [R]) -> Src<'a, R> {
    if stride == 0 {
        return Src::Scalar(read_one::<R>(t, offset));
    }
    if t.dtype == R::DTYPE && stride == 1 {
        let s = t.storage_slice::<R>();
        let o = offset as usize;
        return Src::Slice(&s[o..o + len]);
    }
    gather_into(t, offset, stride, &mut buf[..len]);
    Src::Slice(&buf[..len])
}

/// Converts the `buf.len()` elements of `t` at `offset + i * stride` into `buf`.
#[inline]
pub(super) fn gather_into<R: Element>(t: &Tensor, offset: isize, stride: isize, buf: &mut [R]) {
    with_dtype!(t.dtype, S, {
        let s = t.storage_slice::<S>();
        if stride == 1 {
            let o = offset as usize;
            convert_slice(&s[o..o + buf.len()], buf);
        } else {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = s[(offset + i as isize * stride) as usize].cast_into::<R>();
            }
        }
    })
}

#[inline]
pub(super) fn read_one<R: Element>(t: &Tensor, offset: isize) -> R {
    with_dtype!(t.dtype, S, t.storage_slice::<S>()[offset as usize].cast_into::<R>())
}

/// One input of an element-wise kernel, already broadcast to the output shape.
pub(crate) enum Input<'a> {
    Tensor(Tensor),
    Scalar(Scalar),
    #[allow(dead_code)]
    Borrowed(&'a Tensor),
}

impl<'a> Input<'a> {
    /// Broadcasts `op` to `shape` for reading.
    pub fn broadcast(op: &Operand<'a>, shape: &[usize]) -> crate::Result<Input<'a>> {
        Ok(match op {
            Operand::Scalar(s) => Input::Scalar(*s),
            Operand::Tensor(t) if same_shape(t.shape(), shape) => Input::Borrowed(t),
            Operand::Tensor(t) => Input::Tensor(t.broadcast_to(shape)?),
        })
    }

    fn tensor(&self) -> Option<&Tensor> {
        match self {
            Input::Tensor(t) => Some(t),
            Input::Borrowed(t) => Some(t),
            Input::Scalar(_) => None,
        }
    }
}

/// `out[i] = f(a[i], b[i])` in compute type `R`, over inputs of any dtype and layout.
pub(crate) fn binary<R: Element, F>(a: &Input<'_>, b: &Input<'_>, out: &mut [R], f: F)
where
    F: Fn(R, R) -> R + Sync,
{
    binary_to(a, b, out, f)
}

/// `out[i] = f(a[i], b[i])` with inputs in `R` and output in `O` (comparisons give bool).
pub(crate) fn binary_to<R: Element, O: Element, F>(a: &Input<'_>, b: &Input<'_>, out: &mut [O], f: F)
where
    F: Fn(R, R) -> O + Sync,
{
    if let (Some(x), Some(y)) = (direct(a, out.len()), direct(b, out.len()))
        && !Streaming::of(out, src_bytes(x) + src_bytes(y)).on()
    {
        apply(x, y, out, &f);
        return;
    }
    match (a.tensor(), b.tensor()) {
        (None, None) => {
            let (Input::Scalar(x), Input::Scalar(y)) = (a, b) else { return };
            out.fill(f(x.to::<R>(), y.to::<R>()));
        }
        (Some(t), None) | (None, Some(t)) => {
            let s = match (a, b) {
                (Input::Scalar(s), _) | (_, Input::Scalar(s)) => s.to::<R>(),
                _ => return,
            };
            let scalar_left = a.tensor().is_none();
            let walk = Walk::new([t.layout()]);
            let streaming = Streaming::of(out, t.bytes_read());
            for_chunks(out, |lo, out| {
                let mut buf = [R::default(); BLOCK];
                let mut sink = Sink::new(streaming);
                walk.runs(lo, lo + out.len(), |r| {
                    let out = &mut out[r.out - lo..][..r.len];
                    let x = RunSrc::<R>::of(t, r.offsets[0], r.strides[0], r.len);
                    if sink.stream {
                        let done = match (x, scalar_left) {
                            (RunSrc::Ready(xs), true) => streamed_lines(Src::Scalar(s), xs, out, &f),
                            (RunSrc::Ready(xs), false) => streamed_lines(xs, Src::Scalar(s), out, &f),
                            (RunSrc::Fused(m), left) => streamed_mixed_lines(m, Src::Scalar(s), !left, out, &f),
                            _ => false,
                        };
                        if done {
                            return;
                        }
                    }
                    let step = sink.step(x.in_place(), r.len);
                    for start in (0..r.len).step_by(step) {
                        let n = step.min(r.len - start);
                        let o = &mut out[start..start + n];
                        let x = x.block(start, n, &mut buf);
                        let s = Block::Ready(Src::Scalar(s));
                        sink.write(o, |o| if scalar_left { combine(s, x, o, &f) } else { combine(x, s, o, &f) });
                    }
                });
                sink.finish();
            });
        }
        (Some(ta), Some(tb)) => {
            let walk = Walk::new([ta.layout(), tb.layout()]);
            let streaming = Streaming::of(out, ta.bytes_read() + tb.bytes_read());
            for_chunks(out, |lo, out| {
                let mut buf_a = [R::default(); BLOCK];
                let mut buf_b = [R::default(); BLOCK];
                let mut sink = Sink::new(streaming);
                walk.runs(lo, lo + out.len(), |r| {
                    let out = &mut out[r.out - lo..][..r.len];
                    let x = RunSrc::<R>::of(ta, r.offsets[0], r.strides[0], r.len);
                    let y = RunSrc::<R>::of(tb, r.offsets[1], r.strides[1], r.len);
                    // operands read in place can take the whole run at once
                    if sink.stream {
                        let done = match (x, y) {
                            (RunSrc::Ready(xs), RunSrc::Ready(ys)) => streamed_lines(xs, ys, out, &f),
                            (RunSrc::Fused(m), RunSrc::Ready(ys)) => streamed_mixed_lines(m, ys, true, out, &f),
                            (RunSrc::Ready(xs), RunSrc::Fused(m)) => streamed_mixed_lines(m, xs, false, out, &f),
                            _ => false,
                        };
                        if done {
                            return;
                        }
                    }
                    let step = sink.step(x.in_place() && y.in_place(), r.len);
                    for start in (0..r.len).step_by(step) {
                        let n = step.min(r.len - start);
                        let o = &mut out[start..start + n];
                        let (x, y) = (x.block(start, n, &mut buf_a), y.block(start, n, &mut buf_b));
                        sink.write(o, |o| combine(x, y, o, &f));
                    }
                });
                sink.finish();
            });
        }
    }
}

/// Outputs up to this many elements whose operands need no conversion are
/// computed in one call of the op's loop, without the walk over runs, the
/// chunking and the zeroed block buffers (together about a tenth of a 0-d f32
/// add's time from Python in a perf profile). Below [`super::parallel::PAR_MIN`], and taken only when the
/// output is not streamed, so the general path would make the same single call.
const DIRECT_MAX: usize = 4096;

/// The bytes an operand of [`direct`] reads (as [`Tensor::bytes_read`]).
fn src_bytes<R>(x: Src<'_, R>) -> usize {
    match x {
        Src::Slice(s) => std::mem::size_of_val(s),
        Src::Scalar(_) => 0,
    }
}

/// An input of a small [`binary_to`] as its loop reads it, when that needs no
/// walk: a literal, a contiguous tensor of the compute type, or a one-element
/// tensor of it broadcast (a 0-d tensor in `x * t`). `None` otherwise.
#[inline]
fn direct<'a, R: Element>(x: &'a Input<'_>, len: usize) -> Option<Src<'a, R>> {
    if len > DIRECT_MAX || len == 0 {
        return None;
    }
    if let Input::Scalar(s) = x {
        return Some(Src::Scalar(s.to::<R>()));
    }
    // a one-element tensor (0-d, or [1] broadcast) is read once, as a literal is
    match x.tensor()?.as_slice::<R>()? {
        s if s.len() == len => Some(Src::Slice(s)),
        &[one] => Some(Src::Scalar(one)),
        _ => None,
    }
}

/// One operand's part of a run of [`binary_to`], as the kernel reads it.
#[derive(Clone, Copy)]
enum RunSrc<'a, R> {
    /// Read as it is: a contiguous slice of the compute type, or a broadcast element.
    Ready(Src<'a, R>),
    /// A contiguous run whose conversion to `R` is one vector instruction:
    /// converted inside the op's own loop, so that one loop reads both
    /// operands (on Zen 4 a 10M-element i32 + f32 add that converted a
    /// block into a buffer first ran 1.5× slower than f32 + f32; fused, as fast).
    Fused(Mixed<'a>),
    /// Anything else (strided, or a dtype without a cheap conversion):
    /// converted a block at a time into a buffer.
    Gather { t: &'a Tensor, offset: isize, stride: isize },
}

/// A contiguous run of a dtype that [`RunSrc::Fused`] converts in the loop:
/// the common mixed operands of float ops (images' u8, the default int, f32
/// in f64 arithmetic). The conversions are exact or rounded once, as
/// [`convert_slice`]'s are, so both routes give the same bits.
#[derive(Clone, Copy)]
enum Mixed<'a> {
    U8(&'a [u8]),
    I32(&'a [i32]),
    F32(&'a [f32]),
}

/// One operand's block of a run of [`binary_to`].
#[derive(Clone, Copy)]
enum Block<'a, R> {
    Ready(Src<'a, R>),
    Fused(Mixed<'a>),
}

impl<'a, R: Element> RunSrc<'a, R> {
    /// How to read the `len` elements of `t` at `offset + i * stride` as `R`.
    #[inline]
    fn of(t: &'a Tensor, offset: isize, stride: isize, len: usize) -> Self {
        if stride == 0 {
            return RunSrc::Ready(Src::Scalar(read_one::<R>(t, offset)));
        }
        if stride == 1 {
            let o = offset as usize;
            if t.dtype == R::DTYPE {
                return RunSrc::Ready(Src::Slice(&t.storage_slice::<R>()[o..][..len]));
            }
            match (R::DTYPE, t.dtype) {
                (DType::F32 | DType::F64, DType::U8) => {
                    return RunSrc::Fused(Mixed::U8(&t.storage_slice::<u8>()[o..][..len]));
                }
                (DType::F32 | DType::F64, DType::I32) => {
                    return RunSrc::Fused(Mixed::I32(&t.storage_slice::<i32>()[o..][..len]));
                }
                (DType::F64, DType::F32) => return RunSrc::Fused(Mixed::F32(&t.storage_slice::<f32>()[o..][..len])),
                _ => {}
            }
        }
        RunSrc::Gather { t, offset, stride }
    }

    /// Whether the run is read without a buffer (in place, or converted in the op's loop).
    fn in_place(&self) -> bool {
        matches!(self, RunSrc::Ready(_) | RunSrc::Fused(_))
    }

    /// Elements `start..start + n`; those of a [`RunSrc::Gather`] converted into `buf`.
    #[inline(always)]
    fn block<'b>(&self, start: usize, n: usize, buf: &'b mut [R; BLOCK]) -> Block<'b, R>
    where
        'a: 'b,
    {
        match *self {
            RunSrc::Ready(Src::Slice(s)) => Block::Ready(Src::Slice(&s[start..start + n])),
            RunSrc::Ready(Src::Scalar(x)) => Block::Ready(Src::Scalar(x)),
            RunSrc::Fused(m) => Block::Fused(m.sub(start, n)),
            RunSrc::Gather { t, offset, stride } => {
                gather_into(t, offset + start as isize * stride, stride, &mut buf[..n]);
                Block::Ready(Src::Slice(&buf[..n]))
            }
        }
    }
}

impl<'a> Mixed<'a> {
    fn sub(self, start: usize, n: usize) -> Self {
        match self {
            Mixed::U8(s) => Mixed::U8(&s[start..start + n]),
            Mixed::I32(s) => Mixed::I32(&s[start..start + n]),
            Mixed::F32(s) => Mixed::F32(&s[start..start + n]),
        }
    }
}

/// `o[i] = f(x[i], y[i])` over one block of each operand.
#[inline(always)]
fn combine<R: Element, O: Copy, F: Fn(R, R) -> O>(x: Block<'_, R>, y: Block<'_, R>, o: &mut [O], f: &F) {
    match (x, y) {
        (Block::Ready(x), Block::Ready(y)) => apply(x, y, o, f),
        (Block::Fused(x), Block::Ready(y)) => fused(x, y, true, o, f),
        (Block::Ready(x), Block::Fused(y)) => fused(y, x, false, o, f),
        (Block::Fused(x), Block::Fused(y)) => {
            // rare (e.g. i32 + u8 computed in f32): convert one of them first, a
            // BLOCK at a time (a block of fused operands may be a whole run)
            let mut buf = [R::default(); BLOCK];
            for start in (0..o.len()).step_by(BLOCK) {
                let n = BLOCK.min(o.len() - start);
                let bx = &mut buf[..n];
                match x.sub(start, n) {
                    Mixed::U8(s) => convert_slice(s, bx),
                    Mixed::I32(s) => convert_slice(s, bx),
                    Mixed::F32(s) => convert_slice(s, bx),
                }
                fused(y.sub(start, n), Src::Slice(bx), false, &mut o[start..start + n], f)
            }
        }
    }
}

/// `o[i] = f(m[i] as R, other[i])` if `m_left`, else `f(other[i], m[i] as R)`:
/// one loop over both operands.
#[inline(always)]
fn fused<R: Element, O: Copy, F: Fn(R, R) -> O>(m: Mixed<'_>, other: Src<'_, R>, m_left: bool, o: &mut [O], f: &F) {
    // A constant per instantiation: for other compute types (never given a
    // `Mixed`), the loops below are not even generated.
    if !const { matches!(R::DTYPE, DType::F32 | DType::F64) } {
        return;
    }
    macro_rules! loops {
        ($s:expr) => {{
            let xs = $s;
            simd::simd!(match (other, m_left) {
                (Src::Slice(ys), true) => {
                    for ((o, &x), &y) in o.iter_mut().zip(xs).zip(ys) {
                        *o = f(x.cast_into::<R>(), y);
                    }
                }
                (Src::Slice(ys), false) => {
                    for ((o, &x), &y) in o.iter_mut().zip(xs).zip(ys) {
                        *o = f(y, x.cast_into::<R>());
                    }
                }
                (Src::Scalar(y), true) => {
                    for (o, &x) in o.iter_mut().zip(xs) {
                        *o = f(x.cast_into::<R>(), y);
                    }
                }
                (Src::Scalar(y), false) => {
                    for (o, &x) in o.iter_mut().zip(xs) {
                        *o = f(y, x.cast_into::<R>());
                    }
                }
            },)
        }};
    }
    match m {
        Mixed::U8(s) => loops!(s),
        Mixed::I32(s) => loops!(s),
        Mixed::F32(s) => loops!(s),
    }
}

/// `out[i] = f(a[i], b[i])` computed in `R` and stored as `O` a block at a
/// time: f16/bf16 ops compute in f32 and convert each block with the
/// vectorised slice conversions instead of element by element, and outputs
/// too large for the cache are written with streaming stores.
pub(crate) fn binary_via<R: Element, O: Element, F>(a: &Input<'_>, b: &Input<'_>, out: &mut [O], f: F)
where
    F: Fn(R, R) -> R + Sync,
{
    let emit = |x: Src<'_, R>, y: Src<'_, R>, o: &mut [O], sink: &mut Sink<O>| {
        let mut tmp = [R::default(); BLOCK];
        let t = &mut tmp[..o.len()];
        apply(x, y, t, &f);
        sink.write(o, |o| convert_slice(t, o));
    };
    match (a.tensor(), b.tensor()) {
        (None, None) => {
            let (Input::Scalar(x), Input::Scalar(y)) = (a, b) else { return };
            let v: O = f(x.to::<R>(), y.to::<R>()).cast_into();
            out.fill(v);
        }
        (Some(t), None) | (None, Some(t)) => {
            let s = match (a, b) {
                (Input::Scalar(s), _) | (_, Input::Scalar(s)) => s.to::<R>(),
                _ => return,
            };
            let scalar_left = a.tensor().is_none();
            let walk = Walk::new([t.layout()]);
            let half_scalar = fused_half::HalfSrc::Scalar(s.cast_into::<f32>());
            let streaming = Streaming::of(out, t.bytes_read());
            for_chunks(out, |lo, out| {
                let mut buf = [R::default(); BLOCK];
                let mut sink = Sink::new(streaming);
                walk.runs(lo, lo + out.len(), |r| {
                    let o = &mut out[r.out - lo..r.out - lo + r.len];
                    if let Some(x) = half_src::<O>(t, r.offsets[0], r.strides[0], r.len) {
                        let (x, y) = if scalar_left { (half_scalar, x) } else { (x, half_scalar) };
                        if fused_half(x, y, o, &f, &mut sink) {
                            return;
                        }
                    }
                    for start in (0..r.len).step_by(BLOCK) {
                        let n = BLOCK.min(r.len - start);
                        let off = r.offsets[0] + start as isize * r.strides[0];
                        let src = load::<R>(t, off, r.strides[0], n, &mut buf);
                        let o = &mut out[r.out - lo + start..r.out - lo + start + n];
                        if scalar_left {
                            emit(Src::Scalar(s), src, o, &mut sink)
                        } else {
                            emit(src, Src::Scalar(s), o, &mut sink)
                        }
                    }
                });
                sink.finish();
            });
        }
        (Some(ta), Some(tb)) => {
            let walk = Walk::new([ta.layout(), tb.layout()]);
            let streaming = Streaming::of(out, ta.bytes_read() + tb.bytes_read());
            for_chunks(out, |lo, out| {
                let mut buf_a = [R::default(); BLOCK];
                let mut buf_b = [R::default(); BLOCK];
                let mut sink = Sink::new(streaming);
                walk.runs(lo, lo + out.len(), |r| {
                    let o = &mut out[r.out - lo..r.out - lo + r.len];
                    let x = half_src::<O>(ta, r.offsets[0], r.strides[0], r.len);
                    let y = half_src::<O>(tb, r.offsets[1], r.strides[1], r.len);
                    if let (Some(x), Some(y)) = (x, y)
                        && fused_half(x, y, o, &f, &mut sink)
                    {
                        return;
                    }
                    for start in (0..r.len).step_by(BLOCK) {
                        let n = BLOCK.min(r.len - start);
                        let oa = r.offsets[0] + start as isize * r.strides[0];
                        let ob = r.offsets[1] + start as isize * r.strides[1];
                        let sa = load::<R>(ta, oa, r.strides[0], n, &mut buf_a);
                        let sb = load::<R>(tb, ob, r.strides[1], n, &mut buf_b);
                        emit(sa, sb, &mut out[r.out - lo + start..r.out - lo + start + n], &mut sink);
                    }
                });
                sink.finish();
            });
        }
    }
}

/// An operand run of [`binary_via`] as the fused f16/bf16 loop reads it: a
/// contiguous run of the output's dtype, or a broadcast element (as f32).
#[inline]
fn half_src<'t, O: Element>(
    t: &'t Tensor,
    offset: isize,
    stride: isize,
    len: usize,
) -> Option<fused_half::HalfSrc<'t, O>> {
    if const { !matches!(O::DTYPE, DType::F16 | DType::BF16) } {
        return None;
    }
    match stride {
        0 => Some(fused_half::HalfSrc::Scalar(read_one::<f32>(t, offset))),
        1 if t.dtype == O::DTYPE => Some(fused_half::HalfSrc::Slice(&t.storage_slice::<O>()[offset as usize..][..len])),
        _ => None,
    }
}

/// One run of [`binary_via`] by the fused f16/bf16 loop ([`fused_half::binary`]) when
/// the op computes in f32, through `sink` (a block at a time when it streams);
/// returns whether it ran.
#[inline]
fn fused_half<R: Element, O: Element, F: Fn(R, R) -> R>(
    a: fused_half::HalfSrc<'_, O>,
    b: fused_half::HalfSrc<'_, O>,
    out: &mut [O],
    f: &F,
    sink: &mut Sink<O>,
) -> bool {
    // the type test is a constant, so that other types generate none of the loops
    if const { !(matches!(R::DTYPE, DType::F32) && matches!(O::DTYPE, DType::F16 | DType::BF16)) }
        || !fused_half::available::<O>()
    {
        return false;
    }
    // R is f32 here, so the casts are the identity
    let g = |x: f32, y: f32| f(x.cast_into::<R>(), y.cast_into::<R>()).cast_into::<f32>();
    // a streamed output written straight from registers where the CPU's loop can
    // (the sink's `finish` fences the stores)
    if sink.stream && fused_half::binary_streamed(a, b, out, &g) {
        return true;
    }
    let step = sink.step(true, out.len());
    // a streamed output's operands come from memory too: the loop reads them a page ahead
    let ahead = sink.stream;
    for start in (0..out.len()).step_by(step.max(1)) {
        let n = step.min(out.len() - start);
        let o = &mut out[start..start + n];
        sink.write(o, |o| {
            fused_half::binary(a.sub(start, n), b.sub(start, n), o, &g, ahead);
        });
    }
    true
}

/// The inner loops; each arm is a simple loop the compiler vectorises.
#[inline(always)]
fn apply<R: Copy, O: Copy, F: Fn(R, R) -> O>(a: Src<'_, R>, b: Src<'_, R>, out: &mut [O], f: &F) {
    simd::simd!(apply_loops(a, b, out, f),)
}

/// Elements `range` of an operand (a broadcast scalar as it is).
#[inline(always)]
fn sub_src<'a, R: Copy>(x: Src<'a, R>, range: std::ops::Range<usize>) -> Src<'a, R> {
    match x {
        Src::Slice(s) => Src::Slice(&s[range]),
        Src::Scalar(v) => Src::Scalar(v),
    }
}

#[inline(always)]
fn apply_loops<R: Copy, O: Copy, F: Fn(R, R) -> O>(a: Src<'_, R>, b: Src<'_, R>, out: &mut [O], f: &F) {
    match (a, b) {
        (Src::Slice(x), Src::Slice(y)) => {
            for ((o, &x), &y) in out.iter_mut().zip(x).zip(y) {
                *o = f(x, y);
            }
        }
        (Src::Scalar(x), Src::Slice(y)) => {
            for (o, &y) in out.iter_mut().zip(y) {
                *o = f(x, y);
            }
        }
        (Src::Slice(x), Src::Scalar(y)) => {
            for (o, &x) in out.iter_mut().zip(x) {
                *o = f(x, y);
            }
        }
        (Src::Scalar(x), Src::Scalar(y)) => out.fill(f(x, y)),
    }
}

/// `out[i] = f(a[i])` in compute type `R` over an input of any dtype and layout.
pub(crate) fn unary<R: Element, O: Element, F>(a: &Tensor, out: &mut [O], f: F)
where
    F: Fn(R) -> O + Sync,
{
    unary_slices(a, out, |x: &[R], o: &mut [O]| {
        simd::simd!({
            for (o, &x) in o.iter_mut().zip(x) {
                *o = f(x);
            }
        },)
    })
}

/// [`unary`] for kernels that take a whole block at a time: `f(x, o)` fills
/// `o` from `x` (same length), for hand-vectorised loops such as `exp`'s.
pub(crate) fn unary_slices<R: Element, O: Element, F>(a: &Tensor, out: &mut [O], f: F)
where
    F: Fn(&[R], &mut [O]) + Sync,
{
    let streaming = Streaming::of(out, a.bytes_read());
    unary_slices_with(a, out, streaming, f)
}

/// [`unary_slices`] for kernels that spend longer computing than moving memory,
/// such as `exp`'s: they write straight into the output, whole runs at a time,
/// because streaming stores would go through a block buffer and its copy,
/// which costs these kernels more than the memory traffic it saves (10M-element
/// f32 `exp` on Zen 4, two threads: 2.86–2.97 ms written in place, 3.25–3.52 ms
/// streamed). `exp` streams from inside its
/// own loop instead ([`crate::kernels::exp::exp_f32_slice`]).
pub(crate) fn unary_slices_compute_bound<R: Element, O: Element, F>(a: &Tensor, out: &mut [O], f: F)
where
    F: Fn(&[R], &mut [O]) + Sync,
{
    unary_slices_with(a, out, Streaming(false), f)
}

fn unary_slices_with<R: Element, O: Element, F>(a: &Tensor, out: &mut [O], streaming: Streaming, f: F)
where
    F: Fn(&[R], &mut [O]) + Sync,
{
    // small contiguous input of the compute type: the one call the walk would make
    if !out.is_empty()
        && out.len() <= DIRECT_MAX
        && !streaming.on()
        && let Some(x) = a.as_slice::<R>().filter(|x| x.len() == out.len())
    {
        f(x, out);
        return;
    }
    let walk = Walk::new([a.layout()]);
    for_chunks(out, |lo, out| {
        let mut buf = [R::default(); BLOCK];
        let mut sink = Sink::new(streaming);
        walk.runs(lo, lo + out.len(), |r| {
            let step = sink.step(a.dtype == R::DTYPE && r.strides[0] == 1, r.len);
            for start in (0..r.len).step_by(step) {
                let n = step.min(r.len - start);
                let off = r.offsets[0] + start as isize * r.strides[0];
                let o = &mut out[r.out - lo + start..r.out - lo + start + n];
                match load::<R>(a, off, r.strides[0], n, &mut buf) {
                    Src::Slice(x) => sink.write(o, |o| f(x, o)),
                    Src::Scalar(x) => {
                        let mut one = [O::default()];
                        f(&[x], &mut one);
                        o.fill(one[0]);
                    }
                }
            }
        });
        sink.finish();
    });
}

/// Calls `f` with the elements at positions `lo..hi` of `t`'s row-major order,
/// converted to `A`, a block at a time (contiguous `A` data is passed in place).
pub(crate) fn for_each_block<A: Element>(t: &Tensor, walk: &Walk<1>, lo: usize, hi: usize, mut f: impl FnMut(&[A])) {
    let mut buf = [A::default(); BLOCK];
    walk.runs(lo, hi, |r| {
        let step = if t.dtype == A::DTYPE && r.strides[0] == 1 { r.len } else { BLOCK };
        for start in (0..r.len).step_by(step) {
            let n = step.min(r.len - start);
            let off = r.offsets[0] + start as isize * r.strides[0];
            match load::<A>(t, off, r.strides[0], n, &mut buf) {
                Src::Slice(s) => f(s),
                Src::Scalar(x) => {
                    let mut tmp = [x; BLOCK];
                    f(&mut tmp[..n]);
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use half::f16;

    use super::lines::streamed_lines_in;
    use super::{Src, apply, simd};
    use crate::core::element::Element;
    use crate::kernels::simd::cpu::FORCE_STREAM;
    use crate::{DType, Tensor, ops};

    /// Small operands taken by the direct path (no walk over runs) give the
    /// values computed here, with offset views, literals on either side, 0-d
    /// and 1-D shapes at and just past [`super::DIRECT_MAX`], and broadcast or
    /// strided views (which take the general path) alongside.
    #[test]
    fn small_direct_operands_give_the_plain_values() {
        use crate::SliceArg;
        let val = |i: usize| (i % 13) as f32 * 0.75 - 4.0;
        let other = |i: usize| (i % 7) as f32 * 1.5 + 0.25;
        // a view of `n` elements (0 = a 0-d tensor) starting 3 elements into its storage
        let view = |n: usize, v: &dyn Fn(usize) -> f32| {
            let len = n.max(1);
            let data: Vec<f32> = (0..len + 3).map(|i| if i < 3 { f32::NAN } else { v(i - 3) }).collect();
            let big = Tensor::from_vec(data, &[len + 3]).unwrap();
            if n == 0 {
                big.slice(&[SliceArg::Index(3)]).unwrap()
            } else {
                big.slice(&[SliceArg::Range { start: Some(3), stop: None, step: 1 }]).unwrap()
            }
        };
        for n in [0, 1, 7, 8, super::DIRECT_MAX, super::DIRECT_MAX + 1] {
            let (a, b) = (view(n, &val), view(n, &other));
            let fresh = Tensor::from_vec((0..n.max(1)).map(val).collect::<Vec<_>>(), a.shape()).unwrap();
            let want = |f: &dyn Fn(usize) -> f32| (0..n.max(1)).map(f).collect::<Vec<f32>>();
            let got = |t: Tensor| {
                assert_eq!((t.dtype(), t.shape()), (DType::F32, a.shape()), "{n} elements");
                t.to_vec::<f32>().unwrap()
            };
            assert_eq!(got(ops::add(&a, &b).unwrap()), want(&|i| val(i) + other(i)), "{n}: a + b");
            assert_eq!(got(ops::multiply(&fresh, &b).unwrap()), want(&|i| val(i) * other(i)), "{n}: a * b");
            assert_eq!(got(ops::subtract(2.5, &a).unwrap()), want(&|i| 2.5 - val(i)), "{n}: 2.5 - a");
            assert_eq!(got(ops::divide(&a, 4.0).unwrap()), want(&|i| val(i) / 4.0), "{n}: a / 4");
            assert_eq!(got(ops::negative(&a).unwrap()), want(&|i| -val(i)), "{n}: -a");
            assert_eq!(got(ops::abs(&b).unwrap()), want(&|i| other(i).abs()), "{n}: abs(b)");
            if n > 0 {
                // a 0-d operand broadcast against the view, and the view read backwards
                let s = view(0, &other);
                assert_eq!(got(ops::add(&a, &s).unwrap()), want(&|i| val(i) + other(0)), "{n}: a + 0-d");
                assert_eq!(got(ops::subtract(&s, &a).unwrap()), want(&|i| other(0) - val(i)), "{n}: 0-d - a");
                let one = s.reshape(&[1]).unwrap();
                assert_eq!(got(ops::divide(&a, &one).unwrap()), want(&|i| val(i) / other(0)), "{n}: a / [1]");
                let rev = a.slice(&[SliceArg::Range { start: None, stop: None, step: -1 }]).unwrap();
                assert_eq!(got(ops::add(&rev, &b).unwrap()), want(&|i| val(n - 1 - i) + other(i)), "{n}: rev + b");
            }
        }
    }

    #[test]
    fn streamed_lines_equal_the_plain_loop() {
        // 64-byte aligned outputs of several lengths (whole lines, a part line, a part
        // region), every operand form, 4- and 8-byte elements, one region and four
        fn check<T: Element + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(from: fn(f64) -> T) {
            for n in [4096usize, 4096 + 13, 50_007, 65_536] {
                let x: Vec<T> = (0..n).map(|i| from(((i * 7919) % 2003) as f64 - 1000.5)).collect();
                let y: Vec<T> = (0..n).map(|i| from(((i * 104_729) % 997) as f64 * 0.25)).collect();
                let v = from(2.5);
                let f = |a: T, b: T| a * b + a;
                let cases = [
                    (Src::Slice(&x[..]), Src::Slice(&y[..])),
                    (Src::Slice(&x[..]), Src::Scalar(v)),
                    (Src::Scalar(v), Src::Slice(&y[..])),
                    (Src::Scalar(v), Src::Scalar(v)),
                ];
                for (a, b) in cases {
                    let mut want = vec![T::default(); n];
                    apply(a, b, &mut want, &f);
                    // an aligned window of a longer buffer
                    let mut buf = vec![T::default(); n + 64];
                    let skip = buf.as_ptr().align_offset(64).min(64);
                    let out = &mut buf[skip..skip + n];
                    for regions in [1, 4] {
                        out.fill(T::default());
                        let applies = if regions == 1 {
                            streamed_lines_in::<_, _, _, 1>(a, b, out, &f)
                        } else {
                            streamed_lines_in::<_, _, _, 4>(a, b, out, &f)
                        };
                        assert!(applies, "{n} elements: the path applies");
                        simd::stream::store_fence();
                        let same = out.iter().zip(&want).all(|(g, w)| g == w);
                        assert!(same, "{n} elements, {regions} regions, {:?}", T::DTYPE);
                    }
                }
                // where it does not apply it writes nothing
                let mut buf = vec![T::default(); n + 64];
                let skip = buf.as_ptr().align_offset(64).min(63) + 1;
                let out = &mut buf[skip..skip + n];
                assert!(!streamed_lines_in::<_, _, _, 1>(Src::Slice(&x[..]), Src::Slice(&y[..]), out, &f));
                assert!(!streamed_lines_in::<_, _, _, 4>(Src::Slice(&x[..]), Src::Slice(&y[..]), out, &f));
                assert!(out.iter().all(|&o| o == T::default()));
            }
        }
        check::<f32>(|v| v as f32);
        check::<f64>(|v| v);
        check::<i32>(|v| v as i32);
    }

    /// Mixed operands whose conversion is fused into the op's loop (u8 and
    /// i32 in f32/f64 arithmetic, f32 in f64) give exactly what the same op
    /// gives on operands cast to the compute type first, on either side,
    /// against slices, broadcast rows and scalars, in parallel and streamed.
    #[test]
    fn fused_mixed_operands_equal_converted_ones() {
        let (rows, cols) = (4usize, 70_001usize);
        let n = rows * cols;
        let v: Vec<f64> = (0..n).map(|i| ((i * 7919) % 2003) as f64 - 700.5).collect();
        let full = |d: DType| Tensor::from_vec(v.clone(), &[rows, cols]).unwrap().cast(d).unwrap();
        let row = |d: DType| Tensor::from_vec(v[..cols].to_vec(), &[cols]).unwrap().cast(d).unwrap();
        let cases = [
            (DType::U8, DType::F32),
            (DType::I32, DType::F32),
            (DType::I32, DType::F64),
            (DType::U8, DType::F64),
            (DType::F32, DType::F64),
        ];
        type Op = fn(&Tensor, &Tensor) -> Tensor;
        let ops: [(&str, Op); 3] = [
            ("add", |a, b| ops::add(a, b).unwrap()),
            ("divide", |a, b| ops::divide(a, b).unwrap()),
            ("less", |a, b| ops::less(a, b).unwrap()),
        ];
        for forced in [false, true] {
            FORCE_STREAM.store(forced, Ordering::Relaxed);
            for (mixed, compute) in cases {
                let m = full(mixed);
                for other in [full(compute), row(compute), Tensor::scalar(2.5f64).cast(compute).unwrap()] {
                    let m_cast = m.cast(compute).unwrap();
                    for (name, op) in ops {
                        for (got, want) in
                            [(op(&m, &other), op(&m_cast, &other)), (op(&other, &m), op(&other, &m_cast))]
                        {
                            assert_eq!(got.dtype(), want.dtype(), "{name} {mixed:?} with {compute:?}");
                            let (g, w) = (got.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
                            let same =
                                g.iter().zip(&w).all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()));
                            assert!(
                                same,
                                "{name} {mixed:?} with {compute:?} (other shape {:?}, streamed {forced})",
                                other.shape()
                            );
                        }
                    }
                }
            }
            // both operands converted in the loop's way: i32 / i32 computes in f64
            let (a, b) = (full(DType::I32), ops::add(&full(DType::I32), 1000).unwrap());
            let want = ops::divide(&a.cast(DType::F64).unwrap(), &b.cast(DType::F64).unwrap()).unwrap();
            assert_eq!(ops::divide(&a, &b).unwrap().to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
        }
        FORCE_STREAM.store(false, Ordering::Relaxed);
    }

    /// Every element-wise kernel that can stream, run on outputs taken through
    /// the streaming path (forced: the machine's cache may be larger than any test
    /// tensor) and through the plain one, against values computed here.
    #[test]
    fn streamed_outputs_equal_plain_ones() {
        // 4 × 70001: parallel (at least PAR_MIN), and the broadcast row makes runs that start off a 64-byte line
        let (rows, cols) = (4usize, 70_001usize);
        assert!(rows * cols >= crate::kernels::PAR_MIN);
        let a: Vec<f32> = (0..rows * cols).map(|i| (i % 1013) as f32 * 0.25 - 100.0).collect();
        let b: Vec<f32> = (0..cols).map(|i| (i % 97) as f32 * 0.5).collect();
        let ta = Tensor::from_vec(a.clone(), &[rows, cols]).unwrap();
        let tb = Tensor::from_vec(b.clone(), &[cols]).unwrap();
        let ti = Tensor::from_vec(a.iter().map(|&x| x as i32).collect::<Vec<_>>(), &[rows, cols]).unwrap();
        let th = ta.cast(DType::F16).unwrap();
        let tt = Tensor::from_vec(a.clone(), &[cols, rows]).unwrap().transpose(&[1, 0]).unwrap();
        let run = || {
            vec![
                ops::add(&ta, &tb).unwrap().to_vec::<f32>().unwrap(),
                ops::add(&ti, &tb).unwrap().to_vec::<f32>().unwrap(),
                (&ta + 1.0).unwrap().to_vec::<f32>().unwrap(),
                ops::exp(&ta).unwrap().to_vec::<f32>().unwrap(),
                ops::add(&th, &th).unwrap().cast(DType::F32).unwrap().to_vec::<f32>().unwrap(),
                ops::add(&tt, &tt).unwrap().to_vec::<f32>().unwrap(),
            ]
        };
        let plain = run();
        FORCE_STREAM.store(true, Ordering::Relaxed);
        let streamed = run();
        FORCE_STREAM.store(false, Ordering::Relaxed);

        let at = |i: usize| a[i];
        let want: Vec<Vec<f32>> = vec![
            (0..rows * cols).map(|i| at(i) + b[i % cols]).collect(),
            (0..rows * cols).map(|i| (at(i) as i32) as f32 + b[i % cols]).collect(),
            (0..rows * cols).map(|i| at(i) + 1.0).collect(),
            (0..rows * cols).map(|i| crate::kernels::exp::exp_f32(at(i))).collect(),
            (0..rows * cols).map(|i| f16::from_f32(at(i)).to_f32() * 2.0).map(|x| f16::from_f32(x).to_f32()).collect(),
            // tt[i][j] = a[j * rows + i] over a (cols × rows) buffer read transposed
            (0..rows * cols).map(|k| 2.0 * a[(k % cols) * rows + k / cols]).collect(),
        ];
        for (k, w) in want.iter().enumerate() {
            assert!(plain[k] == *w, "case {k}: plain path differs from the expected values");
            assert!(streamed[k] == *w, "case {k}: streamed path differs from the expected values");
        }
    }
}
