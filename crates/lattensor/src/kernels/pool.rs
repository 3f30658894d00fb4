//! Fork-join parallelism for the kernels: the calling thread and up to
//! `threads() - 1` helper threads share out the indices `0..n` of a region.
//!
//! Why not rayon (which this crate used before): on the 2-vCPU host, an idle
//! vCPU halts, and the hypervisor takes hundreds of microseconds to run it again.
//! rayon's workers go to sleep microseconds after their last job, so a region
//! entered from outside the pool (as every caller of an op is) waits for that
//! wake-up, and `rayon::join` of two 5M-element halves of a sum started its
//! second half 760–910 µs after the first, i.e. after the first had finished:
//! the 10M sum ran at one thread's speed. Here, as with OpenMP (what PyTorch
//! runs on), the caller takes a share of the work itself and the helpers spin
//! for a while ([`spin_time`], 500 µs by default) after each region before they
//! park, so back-to-back ops find them awake. Measured in one process, medians
//! of 40 calls over six rounds: a 10M f32 sum, caller + one spinning helper
//! 800–1100 µs against 1500–1860 µs for `rayon::join`; a 1M sum 36 µs against 88.
//!
//! The protocol keeps a caller from ever waiting for a helper that is asleep:
//! each helper has a slot where the caller offers the region; a helper claims
//! the offer before it touches the region, and the caller, once its own share is
//! done, withdraws every offer not yet claimed and waits only for the helpers
//! that claimed theirs. A late helper finds its offer withdrawn and goes back to
//! waiting. So a region also completes in a forked child, which has no helpers.
//!
//! One region runs at a time. A region entered while another runs (a second
//! caller thread, or a parallel op inside a region's task) runs on its caller's
//! thread alone: the same results, since every task writes its own index's
//! output, and no deadlock.
//!
//! Threads: `LATTENSOR_NUM_THREADS`, else `RAYON_NUM_THREADS` (honoured for
//! scripts written for the rayon pool), else the CPUs this process may run on.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// A region's work: `f(i)` for every `i < n`. The indices are cut into one
/// contiguous range per participant (the caller is participant 0, helper `h`
/// participant `h + 1`); each runs its own range in order, then helps finish
/// the others'. Contiguous ranges keep each thread's reads one sequential
/// stream, as the hardware prefetchers and the last-level cache like: handing
/// out 32K-element chunks in turn made two threads' reads interleave.
struct Job<'a> {
    f: &'a (dyn Fn(usize) + Sync),
    n: usize,
    /// The next index of each participant's range (ranges: [`Job::bound`]).
    next: Box<[AtomicUsize]>,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

impl Job<'_> {
    fn new(f: &(dyn Fn(usize) + Sync), n: usize, parts: usize) -> Job<'_> {
        let next = (0..parts).map(|r| AtomicUsize::new(bound(n, parts, r))).collect();
        Job { f, n, next, panic: Mutex::new(None) }
    }

    /// The first index of range `r`, or one past the last of range `r - 1`.
    fn bound(&self, r: usize) -> usize {
        bound(self.n, self.next.len(), r)
    }

    /// Runs participant `p`'s range, then what is left of the others'. A
    /// panicking task stops the region's remaining tasks and is kept for the
    /// caller to resume.
    fn work(&self, p: usize) {
        let parts = self.next.len();
        for k in 0..parts {
            let r = (p + k) % parts;
            let end = self.bound(r + 1);
            loop {
                let i = self.next[r].fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                if let Err(e) = catch_unwind(AssertUnwindSafe(|| (self.f)(i))) {
                    self.next.iter().for_each(|x| x.store(self.n, Ordering::Relaxed));
                    self.panic.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                    return;
                }
            }
        }
    }
}

/// The first index of range `r` when `0..n` is cut into `parts` ranges (u128:
/// exact whatever `n`).
fn bound(n: usize, parts: usize, r: usize) -> usize {
    (n as u128 * r as u128 / parts.max(1) as u128) as usize
}

/// A helper's slot: empty, claimed (the helper is running the region), or the
/// address of an offered [`Job`] (never 0 or 1: it is a reference's address).
const EMPTY: usize = 0;
const CLAIMED: usize = 1;

struct Helper {
    slot: AtomicUsize,
    parked: AtomicBool,
    thread: OnceLock<Thread>,
}

struct Pool {
    helpers: Box<[Helper]>,
    busy: AtomicBool,
    /// Regions begun, parallel or not: helpers stay awake while they come.
    regions: AtomicUsize,
    spin: Duration,
}

/// The number of threads a region may use, the caller's included (at least 1).
pub(crate) fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| {
        let env = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<usize>().ok()).filter(|&t| t > 0);
        env("LATTENSOR_NUM_THREADS")
            .or_else(|| env("RAYON_NUM_THREADS"))
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(256)
    })
}

/// How long a helper spins for the next region before it parks:
/// `LATTENSOR_SPIN_US` microseconds, 500 by default (OpenMP's default wait is
/// of the same order). Spinning costs a CPU only right after parallel work.
fn spin_time() -> Duration {
    let us = std::env::var("LATTENSOR_SPIN_US").ok().and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(500);
    Duration::from_micros(us.min(1_000_000))
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<&'static Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let helpers = (1..threads())
            .map(|_| Helper { slot: AtomicUsize::new(EMPTY), parked: AtomicBool::new(false), thread: OnceLock::new() })
            .collect();
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            helpers,
            busy: AtomicBool::new(false),
            regions: AtomicUsize::new(0),
            spin: spin_time(),
        }));
        for (i, h) in pool.helpers.iter().enumerate() {
            match std::thread::Builder::new().name(format!("lattensor-{}", i + 1)).spawn(move || helper_main(pool, i)) {
                Ok(handle) => {
                    let _ = h.thread.set(handle.thread().clone());
                }
                // no thread: its offers are never claimed, so callers withdraw them and go on
                Err(_) => break,
            }
        }
        pool
    })
}

fn helper_main(pool: &'static Pool, me: usize) {
    let h = &pool.helpers[me];
    loop {
        let offer = wait_for_offer(pool, h);
        if h.slot.compare_exchange(offer, CLAIMED, Ordering::Acquire, Ordering::Relaxed).is_ok() {
            // SAFETY: `offer` is the address of the caller's `Job`, and the caller
            // does not return from `run` (ending the job's lifetime) while this
            // slot says CLAIMED: it waits for the EMPTY stored below, which
            // happens after the last use of `job`.
            let job = unsafe { &*(offer as *const Job<'static>) };
            job.work(me + 1);
            h.slot.store(EMPTY, Ordering::Release);
        }
    }
}

/// Waits for an offer in three phases, timed from the last region the pool
/// began (its `regions` count), whether or not this helper took part: it spins
/// (`spin`), then naps in timed parks of growing length (50 µs doubling to
/// 20 ms), looking again after each, and after [`DEEP_SLEEP`] without a region
/// parks until a caller unparks it.
///
/// Only the last phase needs waking: on the host, waking a parked thread's
/// halted vCPU blocked the waker in `unpark` for ~0.5 ms (the hypervisor's
/// price for the interrupt), longer than the small ops it was woken to help, so
/// callers wake nobody who napped for less than [`DEEP_SLEEP`]; a napping helper
/// joins a region late, or not at all if it is over.
fn wait_for_offer(pool: &Pool, h: &Helper) -> usize {
    let offer = || Some(h.slot.load(Ordering::Acquire)).filter(|&s| s > CLAIMED);
    let mut seen = pool.regions.load(Ordering::Relaxed);
    let mut since = Instant::now();
    let mut nap = Duration::from_micros(50);
    let mut polls = 0u32;
    loop {
        if let Some(s) = offer() {
            return s;
        }
        let regions = pool.regions.load(Ordering::Relaxed);
        if regions != seen {
            (seen, since, nap) = (regions, Instant::now(), Duration::from_micros(50));
        }
        polls = polls.wrapping_add(1);
        if !polls.is_multiple_of(128) || since.elapsed() < pool.spin {
            std::hint::spin_loop();
        } else if since.elapsed() < DEEP_SLEEP {
            std::thread::park_timeout(nap);
            nap = (nap * 2).min(Duration::from_millis(20));
        } else {
            // Announce the deep sleep, then look again: a caller stores its offer
            // before it reads `parked` (both SeqCst), so either this load sees the
            // offer or the caller sees the flag and unparks (a token `park` keeps).
            h.parked.store(true, Ordering::SeqCst);
            while h.slot.load(Ordering::SeqCst) <= CLAIMED {
                std::thread::park();
            }
            h.parked.store(false, Ordering::Relaxed);
        }
    }
}

/// Idle time after which a helper parks until woken (see [`wait_for_offer`]).
const DEEP_SLEEP: Duration = Duration::from_millis(100);

/// Runs `f(i)` for every `i < n`, shared between the calling thread and the
/// pool's helpers; returns when all have run. Serial when `n < 2`, with one
/// thread, or while another region runs. A panic in `f` is resumed here after
/// every thread has left the region.
pub(crate) fn run(n: usize, f: &(dyn Fn(usize) + Sync)) {
    let pool = pool();
    pool.regions.fetch_add(1, Ordering::Relaxed);
    if n < 2
        || pool.helpers.is_empty()
        || pool.busy.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_err()
    {
        (0..n).for_each(f);
        return;
    }
    let offered = &pool.helpers[..pool.helpers.len().min(n - 1)];
    let job = Job::new(f, n, offered.len() + 1);
    let addr = &job as *const Job<'_> as usize;
    for h in offered {
        h.slot.store(addr, Ordering::SeqCst);
        if h.parked.load(Ordering::SeqCst)
            && let Some(t) = h.thread.get()
        {
            t.unpark();
        }
    }
    job.work(0);
    for h in offered {
        // withdraw an offer not taken; wait out a helper that took it
        if h.slot.compare_exchange(addr, EMPTY, Ordering::AcqRel, Ordering::Acquire).is_err() {
            let mut polls = 0u32;
            while h.slot.load(Ordering::Acquire) != EMPTY {
                polls = polls.wrapping_add(1);
                if polls.is_multiple_of(1024) {
                    // the helper's vCPU may have been taken away mid-task
                    std::thread::yield_now();
                }
                std::hint::spin_loop();
            }
        }
    }
    pool.busy.store(false, Ordering::Release);
    if let Some(p) = job.panic.into_inner().unwrap_or_else(|e| e.into_inner()) {
        resume_unwind(p);
    }
}

/// A pointer that tasks may share: each task touches only its own elements.
struct Shared<T>(*mut T);
// SAFETY: used only to hand disjoint elements/ranges to tasks (see each use).
unsafe impl<T: Send> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The pointer (a method, so that closures capture the `Sync` wrapper, not the field).
    fn at(&self, i: usize) -> *mut T {
        self.0.wrapping_add(i)
    }
}

/// `(0..n).map(f)` collected in order, the tasks shared out by [`run`].
pub(crate) fn map<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let mut out: Vec<std::mem::MaybeUninit<R>> = Vec::with_capacity(n);
    // SAFETY: MaybeUninit needs no initialisation; capacity is n.
    unsafe { out.set_len(n) };
    let base = Shared(out.as_mut_ptr());
    run(n, &|i| {
        let v = f(i);
        // SAFETY: i < n is in bounds, and `run` hands each i to exactly one task.
        unsafe { (*base.at(i)).write(v) };
    });
    // `run` returned without resuming a panic: every element was written.
    out.into_iter()
        .map(|v| {
            // SAFETY: written above, once each.
            unsafe { v.assume_init() }
        })
        .collect()
}

/// `f(item)` for each item, the tasks shared out by [`run`].
pub(crate) fn for_each_item<T: Send>(items: Vec<T>, f: impl Fn(T) + Sync) {
    let mut items = std::mem::ManuallyDrop::new(items);
    let (n, cap) = (items.len(), items.capacity());
    let base = Shared(items.as_mut_ptr());
    let result = catch_unwind(AssertUnwindSafe(|| {
        run(n, &|i| {
            // SAFETY: i < n, and each i is read exactly once (moved out) by one task.
            f(unsafe { base.at(i).read() })
        })
    }));
    // SAFETY: every item was moved out above (or leaked after a panic); free the
    // buffer alone, as an empty Vec of the same allocation.
    drop(unsafe { Vec::from_raw_parts(base.0, 0, cap) });
    if let Err(p) = result {
        resume_unwind(p);
    }
}

/// `f(i, chunk)` for each `len`-long chunk of `out` (the last may be shorter), the
/// tasks shared out by [`run`].
pub(crate) fn chunks_mut<T: Send>(out: &mut [T], len: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let (total, len) = (out.len(), len.max(1));
    let base = Shared(out.as_mut_ptr());
    run(total.div_ceil(len), &|i| {
        let start = i * len;
        // SAFETY: chunk i is elements start..min(start + len, total) of `out`, which
        // `run` hands to exactly one task: the chunks are disjoint and in bounds.
        let chunk = unsafe { std::slice::from_raw_parts_mut(base.at(start), len.min(total - start)) };
        f(i, chunk)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_runs_once() {
        for n in [0, 1, 2, 3, 17, 1000] {
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            run(n, &|i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n = {n}");
        }
    }

    #[test]
    fn ranges_cover_every_index_once_whoever_takes_part() {
        // participants that never show up leave their ranges to the others
        for (n, parts) in [(0, 3), (1, 4), (7, 3), (10, 10), (1000, 7), (5, 8)] {
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            let f = |i: usize| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            };
            let job = Job::new(&f, n, parts);
            job.work(parts - 1);
            job.work(0);
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n = {n}, parts = {parts}");
            assert_eq!((0..=parts).map(|r| job.bound(r)).last(), Some(n));
            assert!((0..parts).all(|r| job.bound(r) <= job.bound(r + 1)));
        }
    }

    #[test]
    fn map_keeps_order_and_chunks_cover_the_slice() {
        assert_eq!(map(1000, |i| i * i), (0..1000).map(|i| i * i).collect::<Vec<_>>());
        let mut v = vec![0usize; 1001];
        chunks_mut(&mut v, 100, |i, c| {
            assert!(c.len() == 100 || (i == 10 && c.len() == 1));
            c.iter_mut().enumerate().for_each(|(j, x)| *x = i * 100 + j);
        });
        assert_eq!(v, (0..1001).collect::<Vec<_>>());
        let items: Vec<String> = (0..50).map(|i| i.to_string()).collect();
        let total = AtomicUsize::new(0);
        for_each_item(items, |s| {
            total.fetch_add(s.parse::<usize>().unwrap(), Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), (0..50).sum::<usize>());
    }

    #[test]
    fn nested_and_concurrent_regions_complete() {
        // a region inside a task, and regions from several threads at once, run
        // serially where the pool is taken: every index still runs once
        let outer: Vec<usize> = map(8, |i| map(100, |j| i * j).into_iter().sum());
        assert_eq!(outer, (0..8).map(|i| i * 4950).collect::<Vec<_>>());
        std::thread::scope(|s| {
            for t in 0..4 {
                s.spawn(move || {
                    for _ in 0..50 {
                        assert_eq!(map(64, |i| i + t).iter().sum::<usize>(), 64 * t + 2016);
                    }
                });
            }
        });
    }

    #[test]
    fn a_panicking_task_reaches_the_caller_and_the_pool_recovers() {
        let r = catch_unwind(|| run(100, &|i| assert!(i != 37, "task 37")));
        assert!(r.is_err());
        assert_eq!(map(100, |i| i).len(), 100);
    }
}
