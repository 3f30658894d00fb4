//! What one small element-wise op costs in Rust, below the Python binding:
//! `ops::add` and friends on 0-d and 8-element f32 tensors.
//!
//!     cargo run --release -p lattensor-bench --bin small_calls
//!
//! Prints one line per call: the median of 15 blocks of ns per call. With
//! `perf record -g` it shows where a small call's time goes (allocation,
//! promotion, the kernel).

use std::hint::black_box;

use lattensor::{Tensor, ops};
use lattensor_bench::sweep_timing::ns_per_call;

/// A named call to time.
type Case = (&'static str, Box<dyn Fn()>);

fn main() {
    let scalar = (Tensor::scalar(1.5f32), Tensor::scalar(2.5f32));
    let eight = (
        Tensor::from_vec((0..8).map(|x| x as f32).collect::<Vec<_>>(), &[8]).unwrap(),
        Tensor::from_vec((0..8).map(|x| x as f32 + 0.5).collect::<Vec<_>>(), &[8]).unwrap(),
    );
    let matrix = (
        Tensor::from_vec((0..8).map(|x| x as f32).collect::<Vec<_>>(), &[2, 4]).unwrap(),
        Tensor::from_vec((0..8).map(|x| x as f32 + 0.5).collect::<Vec<_>>(), &[2, 4]).unwrap(),
    );
    let cases: Vec<Case> = vec![
        ("add 0-d", Box::new(move || drop(black_box(ops::add(&scalar.0, &scalar.1))))),
        (
            "add [8]",
            Box::new({
                let e = eight.clone();
                move || drop(black_box(ops::add(&e.0, &e.1)))
            }),
        ),
        (
            "add [8] + literal",
            Box::new({
                let e = eight.clone();
                move || drop(black_box(ops::add(&e.0, 1.0)))
            }),
        ),
        (
            "negative [8]",
            Box::new({
                let e = eight.clone();
                move || drop(black_box(ops::negative(&e.0)))
            }),
        ),
        ("add [2, 4]", Box::new(move || drop(black_box(ops::add(&matrix.0, &matrix.1))))),
    ];
    let only = std::env::args().nth(1);
    for (name, run) in &cases {
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        println!("{name:<20} {:7.1} ns", ns_per_call(run));
    }
}
