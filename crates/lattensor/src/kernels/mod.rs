//! Element-wise kernel drivers: one generic loop per arity, any layouts, any
//! input dtypes.
//!
//! Inputs of another dtype than the computation's are converted on the fly
//! (no promoted temporary copy of a whole operand): the common cheap cases
//! (u8 and i32 in f32/f64 arithmetic, f32 in f64) inside the op's own loop,
//! the others a block at a time into a small buffer that stays in L1.
//! Contiguous inputs of the right dtype are read in place; broadcast inputs
//! become scalars. Large outputs are split across threads (`pool`) and
//! written with streaming stores.

pub(crate) mod fast;
pub(crate) mod fused_half;
#[cfg(target_arch = "x86_64")]
pub(crate) mod gemm;
pub(crate) mod matmul;
pub(crate) mod pool;
pub(crate) mod strided;
pub(crate) mod sums;

use crate::core::element::{Element, convert_slice};
use crate::core::scalar::{Operand, Scalar};
use crate::{DType, Tensor, with_dtype};
use strided::{Run, Walk};

/// Elements per block of on-the-fly conversion.
pub(crate) const BLOCK: usize = 256;
/// Outputs at least this long are computed in parallel (in tasks of
/// [`PAR_CHUNK`], shared with the pool's helpers, see [`pool`]). Measured on
/// the Zen 4 host with `examples/par_threshold_sweep.rs` (f32, back to back,
/// one thread against two): at 2¹⁷ elements two threads win for `exp`
/// (33–37 µs against 68), the sum (7–8 against 11) and `x + y` (18–22 against
/// 21–22); at 2¹⁶ only `exp` gains, and the memory-bound ops break even.
pub(crate) const PAR_MIN: usize = 1 << 17;
/// Work unit of the parallel split.
pub(crate) const PAR_CHUNK: usize = 1 << 15;

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
/// ops ran 7–12% faster with blocks of 1024 than of [`BLOCK`] (two threads, one
/// build with the block set either way in turn, four rounds, medians in µs: f32
/// `x + y` 6322 → 5629, i32 + f32 6331 → 5757, f16 3053 → 2827, bf16 3228 →
/// 2838, `x + 1.0` 4781 → 4307); 2048 was no better (5633, 5875, 2972, 2934,
/// 4153). The outer product keeps smaller blocks (see its kernel in `einsum::exec`).
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
            fast::stream_store(t, o);
        } else {
            fill(o);
        }
    }

    /// Makes the streaming stores visible to the thread that joins this one.
    pub(crate) fn finish(&self) {
        if self.stream {
            fast::store_fence();
        }
    }
}

/// Whether an op's output is written with streaming stores: when its working
/// set (the output and the inputs it reads) is at least [`fast::stream_min_bytes`].
/// Decided once per op on the whole output, before it is split between threads:
/// the threads' 32K-element chunks are all far smaller than the cache. (Deciding
/// per chunk never streamed on two threads; streaming there made 10M-element f32
/// `x + y` ~8% faster, `x + 1.0` and i32 + f32 ~25% faster, alternating calls on
/// the Zen 4 host.)
#[derive(Clone, Copy)]
pub(crate) struct Streaming(bool);

impl Streaming {
    /// For an output `out` computed from inputs of `read` bytes in all (see
    /// [`Tensor::bytes_read`]).
    pub(crate) fn of<O>(out: &[O], read: usize) -> Self {
        Streaming(std::mem::size_of_val(out).saturating_add(read) >= fast::stream_min_bytes())
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
fn gather_into<R: Element>(t: &Tensor, offset: isize, stride: isize, buf: &mut [R]) {
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
fn read_one<R: Element>(t: &Tensor, offset: isize) -> R {
    with_dtype!(t.dtype, S, t.storage_slice::<S>()[offset as usize].cast_into::<R>())
}

/// Copies `src` (any layout, any dtype) into `dst` in row-major order, converting to `D`.
pub(crate) fn copy_into<D: Element>(src: &Tensor, dst: &mut [D]) {
    let walk = Walk::new([src.layout()]);
    let body = |lo: usize, out: &mut [D]| {
        walk.runs(lo, lo + out.len(), |r: Run<1>| {
            let o = &mut out[r.out - lo..r.out - lo + r.len];
            if r.strides[0] == 0 {
                o.fill(read_one::<D>(src, r.offsets[0]));
            } else {
                gather_into(src, r.offsets[0], r.strides[0], o);
            }
        })
    };
    for_chunks(dst, body);
}

/// `src` (any layout, any dtype) converted to `D` in row-major order, as a new
/// `Vec`; its size is checked as a tensor's would be (a broadcast view may be huge).
pub(crate) fn row_major<D: Element>(src: &Tensor, op: &str) -> crate::Result<Vec<D>> {
    let bytes = src.numel().saturating_mul(std::mem::size_of::<D>());
    crate::core::storage::check_alloc(bytes, &format!("{op} (shape {:?}, {})", src.shape(), D::DTYPE))?;
    let mut v = vec![D::default(); src.numel()];
    copy_into(src, &mut v);
    Ok(v)
}

/// Whether parallel regions can help: more than one thread (see [`pool::threads`]).
/// With one, callers run the work themselves.
pub(crate) fn multithreaded() -> bool {
    pool::threads() > 1
}

/// `(0..n).map(f)`, collected in order: shared out between the caller and the
/// pool's helpers when the job touches at least [`PAR_MIN`] elements (`work`)
/// and there is more than one thread, else on the calling thread. Either way
/// the same values in the same order, so results do not depend on the thread count.
pub(crate) fn par_map<R: Send>(n: usize, work: usize, f: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    if work >= PAR_MIN && n > 1 && multithreaded() {
        pool::map(n, pool::worth_waking(work), f)
    } else {
        (0..n).map(f).collect()
    }
}

/// `f` of each item, in parallel under the same condition as [`par_map`], else
/// in order on the calling thread.
pub(crate) fn par_for_each<T: Send>(items: Vec<T>, work: usize, f: impl Fn(T) + Sync + Send) {
    if work >= PAR_MIN && items.len() > 1 && multithreaded() {
        pool::for_each_item(items, pool::worth_waking(work), f);
    } else {
        items.into_iter().for_each(f);
    }
}

/// `f` of each `chunk`-long piece of `xs` (the last may be shorter), in order:
/// [`par_map`] over the pieces, so parallel only for long slices.
pub(crate) fn par_map_chunks<T: Sync, R: Send>(xs: &[T], chunk: usize, f: impl Fn(&[T]) -> R + Sync + Send) -> Vec<R> {
    par_map(xs.len().div_ceil(chunk), xs.len(), |c| f(&xs[c * chunk..((c + 1) * chunk).min(xs.len())]))
}

/// Runs `body(start, chunk)` over `out`, in parallel for large outputs.
pub(crate) fn for_chunks<T: Send>(out: &mut [T], body: impl Fn(usize, &mut [T]) + Sync) {
    if out.len() >= PAR_MIN && multithreaded() {
        par_chunks(out, &body);
    } else if !out.is_empty() {
        body(0, out);
    }
}

/// The parallel split, behind `dyn` so that the pool's glue is instantiated once
/// per element type instead of once per op (a chunk is 32K elements, so the
/// indirect call costs nothing measurable, and compile times stay sane).
fn par_chunks<T: Send>(out: &mut [T], body: &(dyn Fn(usize, &mut [T]) + Sync)) {
    pool::chunks_mut(out, PAR_CHUNK, pool::worth_waking(out.len()), |i, c| body(i * PAR_CHUNK, c));
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
            Operand::Tensor(t) if t.shape() == shape => Input::Borrowed(t),
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

/// One operand's part of a run of [`binary_to`], as the kernel reads it.
#[derive(Clone, Copy)]
enum RunSrc<'a, R> {
    /// Read as it is: a contiguous slice of the compute type, or a broadcast element.
    Ready(Src<'a, R>),
    /// A contiguous run whose conversion to `R` is one vector instruction:
    /// converted inside the op's own loop, so that one loop reads both
    /// operands (on the Zen 4 host a 10M-element i32 + f32 add that converted a
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
            fast::simd!(match (other, m_left) {
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
    if !matches!(O::DTYPE, DType::F16 | DType::BF16) {
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
    if R::DTYPE != DType::F32 || !fused_half::available::<O>() {
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
    fast::simd!(apply_loops(a, b, out, f),)
}

/// Elements `range` of an operand (a broadcast scalar as it is).
#[inline(always)]
fn sub_src<'a, R: Copy>(x: Src<'a, R>, range: std::ops::Range<usize>) -> Src<'a, R> {
    match x {
        Src::Slice(s) => Src::Slice(&s[range]),
        Src::Scalar(v) => Src::Scalar(v),
    }
}

/// `out[i] = f(a[i], b[i])` for a streamed output, a cache line at a time, each
/// line computed in registers and written by streaming stores (no trip through
/// an L1 block buffer as in [`Sink`]). The caller fences the stores
/// (`Sink::finish`). Returns false, having written nothing, where it does not
/// apply: `out` not 64-byte aligned, elements other than 4 or 8 bytes, input
/// and output sizes that differ, short runs.
///
/// On Intel CPUs ([`fast::interleave_regions`]) the output is cut into four
/// regions written side by side, each operand's line a page ahead asked for:
/// the loop a hand-written STREAM kernel needs to reach the Xeon host's
/// bandwidth (see `bench/RESULTS.md`, session 25). Against the block-at-a-time
/// loop there, two threads, medians of 4 rounds (µs): 10M f32 `x + y` 4271 →
/// 3258, `x + 1.0` 3350 → 2205.
///
/// Elsewhere one region, in order, the hardware prefetcher left to itself: on
/// the Zen 3 host four regions had been 1.8× slower than the block loop
/// (session 26), but one region is faster than it. The same build with this
/// path switched on or off in turn, two threads, 3 rounds of 200 calls, medians
/// (µs): `x + 1.0` 1776–1810 → 1202–1210, `x + y` 2091–2125 → 1614–1617
/// (session 28).
#[inline(always)]
fn streamed_lines<R: Element, O: Element, F: Fn(R, R) -> O>(
    a: Src<'_, R>,
    b: Src<'_, R>,
    out: &mut [O],
    f: &F,
) -> bool {
    if fast::interleave_regions() {
        streamed_lines_in::<R, O, F, 4>(a, b, out, f)
    } else {
        streamed_lines_in::<R, O, F, 1>(a, b, out, f)
    }
}

/// [`streamed_lines`] in `REGIONS` regions whatever the CPU (the tests run both).
#[inline(always)]
fn streamed_lines_in<R: Element, O: Element, F: Fn(R, R) -> O, const REGIONS: usize>(
    a: Src<'_, R>,
    b: Src<'_, R>,
    out: &mut [O],
    f: &F,
) -> bool {
    if !lines_apply::<R, O>(out) {
        return false;
    }
    let done = match (a, b) {
        (Src::Slice(x), Src::Slice(y)) => lines::<R, O, F, REGIONS>(InPlace(x), InPlace(y), out, f),
        (Src::Slice(x), Src::Scalar(v)) => lines::<R, O, F, REGIONS>(InPlace(x), Splat(v), out, f),
        (Src::Scalar(v), Src::Slice(y)) => lines::<R, O, F, REGIONS>(Splat(v), InPlace(y), out, f),
        (Src::Scalar(x), Src::Scalar(y)) => lines::<R, O, F, REGIONS>(Splat(x), Splat(y), out, f),
    };
    apply(sub_src(a, done..out.len()), sub_src(b, done..out.len()), &mut out[done..], f);
    true
}

/// [`streamed_lines`] with one operand of another dtype converted in the loop
/// (`f(m[i] as R, other[i])` if `m_left`, else `f(other[i], m[i] as R)`), as
/// [`fused`] does for a block. On the Zen 3 host, 10M i32 + f32, two threads,
/// old and new builds in turn, 3 rounds of 200 calls, medians (µs): 2635–2883
/// → 2342–2498, level with f32 + f32 (`bench/RESULTS.md`, session 28).
#[inline(always)]
fn streamed_mixed_lines<R: Element, O: Element, F: Fn(R, R) -> O>(
    m: Mixed<'_>,
    other: Src<'_, R>,
    m_left: bool,
    out: &mut [O],
    f: &F,
) -> bool {
    if !const { matches!(R::DTYPE, DType::F32 | DType::F64) } || !lines_apply::<R, O>(out) {
        return false;
    }
    if fast::interleave_regions() {
        mixed_lines_in::<R, O, F, 4>(m, other, m_left, out, f);
    } else {
        mixed_lines_in::<R, O, F, 1>(m, other, m_left, out, f);
    }
    true
}

/// [`streamed_mixed_lines`] in `REGIONS` regions, once it applies.
#[inline(always)]
fn mixed_lines_in<R: Element, O: Element, F: Fn(R, R) -> O, const REGIONS: usize>(
    m: Mixed<'_>,
    other: Src<'_, R>,
    m_left: bool,
    out: &mut [O],
    f: &F,
) {
    macro_rules! with_other {
        ($m:expr) => {
            match (other, m_left) {
                (Src::Slice(y), true) => lines::<R, O, F, REGIONS>(Converted($m), InPlace(y), out, f),
                (Src::Slice(y), false) => lines::<R, O, F, REGIONS>(InPlace(y), Converted($m), out, f),
                (Src::Scalar(v), true) => lines::<R, O, F, REGIONS>(Converted($m), Splat(v), out, f),
                (Src::Scalar(v), false) => lines::<R, O, F, REGIONS>(Splat(v), Converted($m), out, f),
            }
        };
    }
    let done = match m {
        Mixed::U8(s) => with_other!(s),
        Mixed::I32(s) => with_other!(s),
        Mixed::F32(s) => with_other!(s),
    };
    let rest = out.len() - done;
    fused(m.sub(done, rest), sub_src(other, done..out.len()), m_left, &mut out[done..], f);
}

/// Whether [`lines`] can write `out`: x86-64, the compute type's size (4 or 8
/// bytes, so that a line holds whole elements of both), 64-byte aligned, and
/// long enough for the streaming to pay.
#[inline(always)]
fn lines_apply<R, O>(out: &[O]) -> bool {
    let size = std::mem::size_of::<O>();
    cfg!(target_arch = "x86_64")
        && std::mem::size_of::<R>() == size
        && matches!(size, 4 | 8)
        && out.len() >= 4096
        && (out.as_ptr() as usize).is_multiple_of(64)
}

/// An operand of [`lines`]: element `i` as the compute type `R`.
trait Lane<R>: Copy {
    /// Elements `at..at + G` (bounds checked once for the line, not per element).
    fn line<const G: usize>(self, at: usize) -> [R; G];
    /// Asks for the elements a page past `i..i + n` (see [`fast::fetch_ahead`]).
    fn fetch_ahead(self, i: usize, n: usize);
}

/// A contiguous run of the compute type, read as it is.
#[derive(Clone, Copy)]
struct InPlace<'a, R>(&'a [R]);

/// A contiguous run of another dtype, converted as [`fused`] converts it.
#[derive(Clone, Copy)]
struct Converted<'a, T>(&'a [T]);

/// A broadcast element.
#[derive(Clone, Copy)]
struct Splat<R>(R);

impl<R: Copy> Lane<R> for InPlace<'_, R> {
    #[inline(always)]
    fn line<const G: usize>(self, at: usize) -> [R; G] {
        let s = &self.0[at..at + G];
        std::array::from_fn(|l| s[l])
    }
    #[inline(always)]
    fn fetch_ahead(self, i: usize, n: usize) {
        fast::fetch_ahead(&self.0[i..i + n]);
    }
}

impl<R: Element, T: Element> Lane<R> for Converted<'_, T> {
    #[inline(always)]
    fn line<const G: usize>(self, at: usize) -> [R; G] {
        let s = &self.0[at..at + G];
        std::array::from_fn(|l| s[l].cast_into::<R>())
    }
    #[inline(always)]
    fn fetch_ahead(self, i: usize, n: usize) {
        fast::fetch_ahead(&self.0[i..i + n]);
    }
}

impl<R: Copy> Lane<R> for Splat<R> {
    #[inline(always)]
    fn line<const G: usize>(self, _: usize) -> [R; G] {
        [self.0; G]
    }
    #[inline(always)]
    fn fetch_ahead(self, _: usize, _: usize) {}
}

/// The loop of [`streamed_lines`]: lines of 64 bytes of `out` (which
/// [`lines_apply`] accepted), in `REGIONS` regions side by side (more than
/// one: each operand's line read a page ahead by software prefetches).
/// Returns how many elements it wrote, a multiple of `REGIONS` lines; the
/// caller writes the rest.
#[inline(always)]
fn lines<R: Element, O: Element, F: Fn(R, R) -> O, const REGIONS: usize>(
    a: impl Lane<R>,
    b: impl Lane<R>,
    out: &mut [O],
    f: &F,
) -> usize {
    match std::mem::size_of::<O>() {
        4 => lines_of::<R, O, F, 16, REGIONS>(a, b, out, f),
        _ => lines_of::<R, O, F, 8, REGIONS>(a, b, out, f),
    }
}

/// [`lines`] with lines of `G` elements.
#[inline(always)]
fn lines_of<R: Element, O: Element, F: Fn(R, R) -> O, const G: usize, const REGIONS: usize>(
    a: impl Lane<R>,
    b: impl Lane<R>,
    out: &mut [O],
    f: &F,
) -> usize {
    let part = out.len() / REGIONS / G * G;
    assert!(REGIONS * part <= out.len() && G * std::mem::size_of::<O>() == 64);
    let base = out.as_mut_ptr();
    #[cfg(target_arch = "x86_64")]
    fast::simd!({
        for k in (0..part).step_by(G) {
            for q in 0..REGIONS {
                let at = q * part + k;
                if REGIONS > 1 {
                    a.fetch_ahead(at, G);
                    b.fetch_ahead(at, G);
                }
                let (xs, ys) = (a.line::<G>(at), b.line::<G>(at));
                let line: [O; G] = std::array::from_fn(|l| f(xs[l], ys[l]));
                // SAFETY: at + G ≤ REGIONS·part ≤ out.len() (asserted above); base + at is
                // 64-byte aligned (base is, and at is a multiple of G elements, 64 bytes);
                // `line` is 64 bytes, a local that does not overlap `out`.
                unsafe { fast::stream_line(base.add(at), &line) };
            }
        }
    },);
    REGIONS * part
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
        fast::simd!({
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
/// f32 `exp` on the Zen 4 host, two threads, alternating calls: medians 2.86–2.97
/// ms written in place, 3.25–3.52 ms streamed). `exp` streams from inside its
/// own loop instead ([`fast::exp_f32_slice`]).
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

    use super::fast::tests::FORCE_STREAM;
    use super::{Src, apply, fast, streamed_lines_in};
    use crate::core::element::Element;
    use crate::{DType, Tensor, ops};

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
                        fast::store_fence();
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
    /// the streaming path (forced: this host's cache is larger than any test
    /// tensor) and through the plain one, against values computed here.
    #[test]
    fn streamed_outputs_equal_plain_ones() {
        // 4 × 70001: parallel (at least PAR_MIN), and the broadcast row makes runs that start off a 64-byte line
        let (rows, cols) = (4usize, 70_001usize);
        assert!(rows * cols >= super::PAR_MIN);
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
            (0..rows * cols).map(|i| super::fast::exp_f32(at(i))).collect(),
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
