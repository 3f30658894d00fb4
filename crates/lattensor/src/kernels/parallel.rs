//! When to split work across the thread pool ([`super::pool`]): the size
//! thresholds and the helpers that run a job in parallel above them and on the
//! calling thread below.

use super::pool;

/// Outputs at least this long are computed in parallel (in tasks of
/// [`PAR_CHUNK`], shared with the pool's helpers, see [`pool`]): at 2¹⁷ f32
/// elements two threads beat one for `exp` (33–37 µs against 68), the sum (7–8
/// against 11) and `x + y` (18–22 against 21–22); at 2¹⁶ only `exp` gains
/// (re-measure with `bench/rust/src/bin/par_threshold_sweep.rs`).
pub(crate) const PAR_MIN: usize = 1 << 17;
/// Work unit of the parallel split.
pub(crate) const PAR_CHUNK: usize = 1 << 15;

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
