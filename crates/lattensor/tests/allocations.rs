//! How many heap allocations a small element-wise op makes: each one is tens
//! of nanoseconds of a call that is a few hundred from Python. This binary's
//! global allocator counts the allocations made on the calling thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use lattensor::{Tensor, ops};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counter is a thread-local `Cell` with a const initialiser, which allocates
// nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations `f` makes on this thread (after one warm-up call, which may
/// initialise thread-locals and caches).
fn allocations(f: impl Fn()) -> usize {
    f();
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn a_small_element_wise_op_allocates_its_storage_only() {
    let v = |k: f32| Tensor::from_vec((0..8).map(|x| x as f32 + k).collect::<Vec<_>>(), &[2, 4]).unwrap();
    let (a, b) = (v(0.0), v(0.5));
    let s = Tensor::scalar(1.5f32);
    // the result's storage and its `Arc`: shape and strides of rank ≤ 4 are inline
    // (operands of the output's shape, or literals, take the direct path)
    assert_eq!(allocations(|| drop(ops::add(&a, &b).unwrap())), 2);
    assert_eq!(allocations(|| drop(ops::multiply(&a, 2.0).unwrap())), 2);
    assert_eq!(allocations(|| drop(ops::negative(&a).unwrap())), 2);
    assert_eq!(allocations(|| drop(ops::add(&s, &s).unwrap())), 2);
}
