//! Streamed outputs written a cache line at a time from registers: the
//! element-wise drivers' path for outputs too large for the cache whose
//! operands are read in place (or converted in the loop).

use super::{Mixed, Src, apply, fused, sub_src};
use crate::DType;
use crate::core::element::Element;
use crate::kernels::simd::{self, cpu::interleave_regions};

/// `out[i] = f(a[i], b[i])` for a streamed output, a cache line at a time, each
/// line computed in registers and written by streaming stores (no trip through
/// an L1 block buffer as in [`Sink`]). The caller fences the stores
/// (`Sink::finish`). Returns false, having written nothing, where it does not
/// apply: `out` not 64-byte aligned, elements other than 4 or 8 bytes, input
/// and output sizes that differ, short runs.
///
/// On Intel CPUs ([`interleave_regions`]) the output is cut into four
/// regions written side by side, each operand's line a page ahead asked for:
/// the loop a hand-written STREAM kernel needs to reach a Xeon's bandwidth
/// (10M f32 `x + y`, two threads: 4.27 → 3.26 ms against the block-at-a-time
/// loop). Elsewhere one region, in order, the hardware prefetcher left to
/// itself: on Zen 3 four regions were 1.8× slower than the block loop, one
/// region faster (`x + 1.0` 1.79 → 1.21 ms, `x + y` 2.11 → 1.62 ms).
#[inline(always)]
pub(super) fn streamed_lines<R: Element, O: Element, F: Fn(R, R) -> O>(
    a: Src<'_, R>,
    b: Src<'_, R>,
    out: &mut [O],
    f: &F,
) -> bool {
    // a constant per instantiation: for other element sizes the loops are not generated
    if const { !line_sized::<R, O>() } {
        return false;
    }
    if interleave_regions() {
        streamed_lines_in::<R, O, F, 4>(a, b, out, f)
    } else {
        streamed_lines_in::<R, O, F, 1>(a, b, out, f)
    }
}

/// [`streamed_lines`] in `REGIONS` regions whatever the CPU (the tests run both).
#[inline(always)]
pub(super) fn streamed_lines_in<R: Element, O: Element, F: Fn(R, R) -> O, const REGIONS: usize>(
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
/// [`fused`] does for a block: 10M i32 + f32 on Zen 3, two threads, 2.64–2.88
/// → 2.34–2.50 ms, level with f32 + f32.
#[inline(always)]
pub(super) fn streamed_mixed_lines<R: Element, O: Element, F: Fn(R, R) -> O>(
    m: Mixed<'_>,
    other: Src<'_, R>,
    m_left: bool,
    out: &mut [O],
    f: &F,
) -> bool {
    if const { !(matches!(R::DTYPE, DType::F32 | DType::F64) && line_sized::<R, O>()) } || !lines_apply::<R, O>(out) {
        return false;
    }
    if interleave_regions() {
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
    line_sized::<R, O>() && out.len() >= 4096 && (out.as_ptr() as usize).is_multiple_of(64)
}

/// The part of [`lines_apply`] known at compile time: x86-64, and compute and
/// output types of one size, 4 or 8 bytes.
const fn line_sized<R, O>() -> bool {
    let size = std::mem::size_of::<O>();
    cfg!(target_arch = "x86_64") && std::mem::size_of::<R>() == size && matches!(size, 4 | 8)
}

/// An operand of [`lines`]: element `i` as the compute type `R`.
trait Lane<R>: Copy {
    /// Elements `at..at + G` (bounds checked once for the line, not per element).
    fn line<const G: usize>(self, at: usize) -> [R; G];
    /// Asks for the elements a page past `i..i + n` (see [`simd::stream::fetch_ahead`]).
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
        simd::stream::fetch_ahead(&self.0[i..i + n]);
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
        simd::stream::fetch_ahead(&self.0[i..i + n]);
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
    // a constant condition, so that only one width is generated
    if const { std::mem::size_of::<O>() == 4 } {
        lines_of::<R, O, F, 16, REGIONS>(a, b, out, f)
    } else {
        lines_of::<R, O, F, 8, REGIONS>(a, b, out, f)
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
    simd::simd!({
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
                unsafe { simd::stream::stream_line(base.add(at), &line) };
            }
        }
    },);
    REGIONS * part
}
