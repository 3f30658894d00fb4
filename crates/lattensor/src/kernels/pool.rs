//! Fork-join parallelism for the kernels: the calling thread and up to
//! `threads() - 1` helper threads share out the indices `0..n` of a region.
//!
//! Why not rayon (which this crate used before): on a 2-vCPU virtual machine, an idle
//! vCPU halts, and the hypervisor takes hundreds of microseconds to run it again.
//! rayon's workers go to sleep microseconds after their last job, so a region
//! entered from outside the pool (as every caller of an op is) waits for that
//! wake-up, and `rayon::join` of two 5M-element halves of a sum started its
//! second half 760–910 µs after the first, i.e. after the first had finished:
//! the 10M sum ran at one thread's speed. Here, as with OpenMP (what PyTorch
//! runs on), the caller takes a share of the work itself and the helpers spin
//! for a while ([`spin_time`], 500 µs by default) after each region before they
//! park, so back-to-back ops find them awake: a 10M f32 sum, caller + one
//! spinning helper, 0.8–1.1 ms against 1.5–1.9 ms for `rayon::join`; a 1M sum
//! 36 µs against 88.
//! A long region entered after idle wakes the napping helpers, first taking the
//! caller's CPU out of their affinity ([`steer`]): a woken thread may otherwise
//! wait behind its waker for a whole time slice.
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
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
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
    /// Napping (timed parks, see [`wait_for_offer`]): a caller may wake it.
    napping: AtomicBool,
    /// Moved off a caller's CPU by [`steer`]: it restores its affinity when it claims or naps.
    steered: AtomicBool,
    /// The helper's kernel thread id (0 until it has started), for [`steer`].
    tid: AtomicI32,
    thread: OnceLock<Thread>,
}

impl Helper {
    /// Called by the helper itself: its own affinity back, if a caller steered it.
    fn unsteer(&self, own: &affinity::Saved) {
        if self.steered.swap(false, Ordering::Relaxed) {
            own.restore();
        }
    }
}

struct Pool {
    helpers: Box<[Helper]>,
    busy: AtomicBool,
    /// Regions begun, parallel or not: helpers stay awake while they come.
    regions: AtomicUsize,
    spin: Duration,
    /// The process that started the helpers: in a forked child they do not
    /// exist, and their thread ids name the parent's threads.
    pid: u32,
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
            .map(|_| Helper {
                slot: AtomicUsize::new(EMPTY),
                parked: AtomicBool::new(false),
                napping: AtomicBool::new(false),
                steered: AtomicBool::new(false),
                tid: AtomicI32::new(0),
                thread: OnceLock::new(),
            })
            .collect();
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            helpers,
            busy: AtomicBool::new(false),
            regions: AtomicUsize::new(0),
            spin: spin_time(),
            pid: std::process::id(),
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
    let own = affinity::Saved::of_this_thread();
    h.tid.store(affinity::thread_id(), Ordering::Relaxed);
    loop {
        let offer = wait_for_offer(pool, h, &own);
        if h.slot.compare_exchange(offer, CLAIMED, Ordering::Acquire, Ordering::Relaxed).is_ok() {
            // Running now, beside the caller: free again, lest a scheduler that packs
            // threads move the caller onto this CPU, where this one could not leave it.
            h.unsteer(&own);
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
/// Only the last phase needs waking. A caller wakes a napping helper only for a
/// long region ([`worth_waking`]), after steering it off the caller's CPU
/// ([`steer`]): on the virtual machines measured, a thread woken from a timed park, by
/// its timer or by a caller, was placed on the busy CPU of the thread that
/// woke it, and ran only when that one's time slice ended, 3.8–3.9 ms later
/// (or took the CPU from it). A short region is not worth the 10–25 µs of the
/// affinity call: its napping helpers join late, or not at all if it is over.
fn wait_for_offer(pool: &Pool, h: &Helper, own: &affinity::Saved) -> usize {
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
            h.unsteer(own);
            h.napping.store(true, Ordering::SeqCst);
            if h.slot.load(Ordering::SeqCst) <= CLAIMED {
                std::thread::park_timeout(nap);
            }
            h.napping.store(false, Ordering::Relaxed);
            nap = (nap * 2).min(Duration::from_millis(20));
        } else {
            // Announce the deep sleep, then look again: a caller stores its offer
            // before it reads `parked` (both SeqCst), so either this load sees the
            // offer or the caller sees the flag and unparks (a token `park` keeps).
            h.unsteer(own);
            h.parked.store(true, Ordering::SeqCst);
            while h.slot.load(Ordering::SeqCst) <= CLAIMED {
                std::thread::park();
            }
            h.parked.store(false, Ordering::Relaxed);
        }
    }
}

/// Takes the caller's CPU out of a sleeping helper's affinity before it is
/// woken, so that the scheduler cannot queue it behind the caller. Where the
/// scheduler packs woken threads onto busy vCPUs, a thread woken from a timed
/// wait after 20 ms idle took 3.8–3.9 ms to run on the waker's CPU, unsteered,
/// and 44–120 µs on the other CPU, steered; 64 products of 128³ after 20 ms
/// idle ran their first two calls in 2.5 ms each (one thread's speed)
/// unsteered, 1.3–1.4 ms steered. The helper restores its own affinity as soon
/// as it claims the region (or when it next naps, if it came too late).
///
/// False when the helper has not started yet (it is then awake anyway), or in
/// a forked child (which has no helpers: steering would move the parent's). A
/// failed affinity call leaves the flag set: the restore it asks for is harmless.
fn steer(pool: &Pool, h: &Helper) -> bool {
    let tid = h.tid.load(Ordering::Relaxed);
    if tid == 0 || std::process::id() != pool.pid {
        return false;
    }
    h.steered.store(true, Ordering::Relaxed);
    affinity::exclude_current_cpu(tid);
    true
}

/// Thread affinity, on Linux (elsewhere nothing is steered).
mod affinity {
    /// The calling thread's kernel id.
    #[cfg(target_os = "linux")]
    pub(super) fn thread_id() -> i32 {
        // the raw system call: glibc has had a gettid wrapper only since 2.30
        // SAFETY: gettid takes no arguments and cannot fail.
        unsafe { libc::syscall(libc::SYS_gettid) as i32 }
    }

    /// Takes the calling CPU out of thread `tid`'s affinity; false when that
    /// would leave it none (or a call fails).
    #[cfg(target_os = "linux")]
    pub(super) fn exclude_current_cpu(tid: i32) -> bool {
        // SAFETY: `set` is a plain bitmask owned by this frame; the calls only read or fill it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            let size = std::mem::size_of::<libc::cpu_set_t>();
            let cpu = libc::sched_getcpu();
            if cpu < 0 || libc::sched_getaffinity(tid, size, &mut set) != 0 {
                return false;
            }
            libc::CPU_CLR(cpu as usize, &mut set);
            libc::CPU_COUNT(&set) > 0 && libc::sched_setaffinity(tid, size, &set) == 0
        }
    }

    /// A thread's affinity as it started, to return to after steering.
    pub(super) struct Saved(#[cfg(target_os = "linux")] Option<libc::cpu_set_t>);

    impl Saved {
        #[cfg(target_os = "linux")]
        pub(super) fn of_this_thread() -> Saved {
            // SAFETY: as above.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                let ok = libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0;
                Saved(ok.then_some(set))
            }
        }

        /// Gives the calling thread this affinity again.
        #[cfg(target_os = "linux")]
        pub(super) fn restore(&self) {
            if let Some(set) = &self.0 {
                // SAFETY: as above.
                unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) };
            }
        }

        #[cfg(not(target_os = "linux"))]
        pub(super) fn of_this_thread() -> Saved {
            Saved()
        }

        #[cfg(not(target_os = "linux"))]
        pub(super) fn restore(&self) {}
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn thread_id() -> i32 {
        0
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn exclude_current_cpu(_tid: i32) -> bool {
        false
    }
}

/// Idle time after which a helper parks until woken (see [`wait_for_offer`]).
const DEEP_SLEEP: Duration = Duration::from_millis(100);

/// A region's work (elements an element-wise op or reduction touches) from which
/// its caller wakes and steers napping helpers ([`steer`]) rather than letting
/// them join when their nap ends; see [`run`].
const WAKE_MIN: usize = 1 << 21;

/// Multiply-adds of a matrix product worth one element of [`WAKE_MIN`]'s work:
/// a core does ~16 f32 multiply-adds in the time a memory-bound op takes per element.
const MACS_PER_ELEMENT: u128 = 16;

/// Whether a region touching `elements` elements should wake napping helpers.
pub(crate) fn worth_waking(elements: usize) -> bool {
    elements >= WAKE_MIN
}

/// [`worth_waking`] for matrix products of `macs` multiply-adds in all.
pub(crate) fn worth_waking_macs(macs: u128) -> bool {
    macs / MACS_PER_ELEMENT >= WAKE_MIN as u128
}

/// Runs `f(i)` for every `i < n`, shared between the calling thread and the
/// pool's helpers; returns when all have run. Serial when `n < 2`, with one
/// thread, or while another region runs. A panic in `f` is resumed here after
/// every thread has left the region.
///
/// `wake`: the region is long enough to wake and steer napping helpers
/// ([`worth_waking`]); helpers in their deep sleep are woken either way.
pub(crate) fn run(n: usize, wake: bool, f: &(dyn Fn(usize) + Sync)) {
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
        // steered before the offer is published, so that the helper which claims it
        // sees its `steered` flag
        let asleep = || h.napping.load(Ordering::SeqCst) || h.parked.load(Ordering::SeqCst);
        let steered = wake && asleep() && steer(pool, h);
        h.slot.store(addr, Ordering::SeqCst);
        if (steered || h.parked.load(Ordering::SeqCst))
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
pub(crate) fn map<R: Send>(n: usize, wake: bool, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let mut out: Vec<std::mem::MaybeUninit<R>> = Vec::with_capacity(n);
    // SAFETY: MaybeUninit needs no initialisation; capacity is n.
    unsafe { out.set_len(n) };
    let base = Shared(out.as_mut_ptr());
    run(n, wake, &|i| {
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
pub(crate) fn for_each_item<T: Send>(items: Vec<T>, wake: bool, f: impl Fn(T) + Sync) {
    let mut items = std::mem::ManuallyDrop::new(items);
    let (n, cap) = (items.len(), items.capacity());
    let base = Shared(items.as_mut_ptr());
    let result = catch_unwind(AssertUnwindSafe(|| {
        run(n, wake, &|i| {
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
pub(crate) fn chunks_mut<T: Send>(out: &mut [T], len: usize, wake: bool, f: impl Fn(usize, &mut [T]) + Sync) {
    let (total, len) = (out.len(), len.max(1));
    let base = Shared(out.as_mut_ptr());
    run(total.div_ceil(len), wake, &|i| {
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
        // back to back and after the helpers have gone to nap (2 ms: past the spin),
        // waking them or not
        for (n, wake) in [0, 1, 2, 3, 17, 1000].into_iter().flat_map(|n| [(n, false), (n, true)]) {
            if n == 17 {
                std::thread::sleep(Duration::from_millis(2));
            }
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            run(n, wake, &|i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "n = {n}, wake = {wake}");
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
        assert_eq!(map(1000, false, |i| i * i), (0..1000).map(|i| i * i).collect::<Vec<_>>());
        let mut v = vec![0usize; 1001];
        chunks_mut(&mut v, 100, true, |i, c| {
            assert!(c.len() == 100 || (i == 10 && c.len() == 1));
            c.iter_mut().enumerate().for_each(|(j, x)| *x = i * 100 + j);
        });
        assert_eq!(v, (0..1001).collect::<Vec<_>>());
        let items: Vec<String> = (0..50).map(|i| i.to_string()).collect();
        let total = AtomicUsize::new(0);
        for_each_item(items, false, |s| {
            total.fetch_add(s.parse::<usize>().unwrap(), Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), (0..50).sum::<usize>());
    }

    #[test]
    fn nested_and_concurrent_regions_complete() {
        // a region inside a task, and regions from several threads at once, run
        // serially where the pool is taken: every index still runs once
        let outer: Vec<usize> = map(8, true, |i| map(100, true, |j| i * j).into_iter().sum());
        assert_eq!(outer, (0..8).map(|i| i * 4950).collect::<Vec<_>>());
        std::thread::scope(|s| {
            for t in 0..4 {
                s.spawn(move || {
                    for _ in 0..50 {
                        assert_eq!(map(64, t % 2 == 0, |i| i + t).iter().sum::<usize>(), 64 * t + 2016);
                    }
                });
            }
        });
    }

    #[test]
    fn a_panicking_task_reaches_the_caller_and_the_pool_recovers() {
        let r = catch_unwind(|| run(100, true, &|i| assert!(i != 37, "task 37")));
        assert!(r.is_err());
        assert_eq!(map(100, false, |i| i).len(), 100);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn steering_takes_the_callers_cpu_out_and_restoring_puts_it_back() {
        // SAFETY (of the calls below): plain bitmasks owned by this test.
        let mask = |tid: i32| unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(libc::sched_getaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &mut set), 0);
            set
        };
        let (tid_tx, tid_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let helper = std::thread::spawn(move || {
            let own = affinity::Saved::of_this_thread();
            tid_tx.send(affinity::thread_id()).unwrap();
            go_rx.recv().unwrap();
            own.restore();
            mask(0)
        });
        let tid = tid_rx.recv().unwrap();
        let before = mask(tid);
        // SAFETY: CPU_COUNT reads a bitmask.
        let cpus = unsafe { libc::CPU_COUNT(&before) };
        let steered = affinity::exclude_current_cpu(tid);
        // the steering caller may have moved since (the kernel can migrate it): the
        // helper lost exactly one CPU, or, with a single CPU to run on, none
        let after = mask(tid);
        // SAFETY: as above.
        let left = unsafe { libc::CPU_COUNT(&after) };
        if cpus > 1 {
            assert!(steered);
            assert_eq!(left, cpus - 1);
        } else {
            assert!(!steered);
            assert_eq!(left, cpus);
        }
        go_tx.send(()).unwrap();
        let restored = helper.join().unwrap();
        // SAFETY: as above.
        assert!(unsafe { libc::CPU_EQUAL(&restored, &before) });
    }
}
