//! What the gradient tape costs: small ops timed with no tape, under a tape
//! that tracks none of their inputs, and under a tape that records them.
//!
//!     cargo run --release -p lattensor-bench --bin tape_overhead [-- plain]
//!
//! Prints one line per op and mode: the median of 15 blocks of ns per call.
//! `plain` times only the no-tape column (so that the same file, with the
//! tape lines cut out, times a build from before the tape for an A/B run).

use std::hint::black_box;

use lattensor::{SliceArg, Tensor, ops};
use lattensor_bench::sweep_timing::ns_per_call;

type Case = (&'static str, fn(&Tensor, &Tensor));

fn cases() -> Vec<Case> {
    vec![
        ("add 0-d f32", |a: &Tensor, b: &Tensor| drop(black_box(ops::add(a, b)))),
        ("multiply by literal 0-d", |a: &Tensor, _: &Tensor| drop(black_box(ops::multiply(a, 2.0)))),
        ("exp 0-d", |a: &Tensor, _: &Tensor| drop(black_box(ops::exp(a)))),
        ("transpose view", |_: &Tensor, m: &Tensor| drop(black_box(m.transpose(&[1, 0])))),
        ("slice view", |_: &Tensor, m: &Tensor| drop(black_box(m.slice(&[SliceArg::range(1, 3)])))),
        ("reduce_sum 8x8", |_: &Tensor, m: &Tensor| drop(black_box(ops::reduce_sum(m, None, false)))),
    ]
}

fn main() {
    let plain_only = std::env::args().any(|a| a == "plain");
    let a = Tensor::scalar(1.5f32);
    let b = Tensor::scalar(2.5f32);
    let m = Tensor::from_vec((0..64).map(|i| i as f32).collect::<Vec<_>>(), &[8, 8]).unwrap();
    for (name, f) in cases() {
        let plain = ns_per_call(|| f(&a, if name.contains("0-d") { &b } else { &m }));
        print!("{name:<26} no tape {plain:7.1} ns");
        if !plain_only {
            // TAPE-BEGIN
            let other = if name.contains("0-d") { &b } else { &m };
            let tape = lattensor::GradientTape::with_options(true, false);
            let idle = tape.record(|| ns_per_call(|| f(&a, other)));
            let (ta, tm) = (a.clone(), m.clone());
            tape.watch(&ta);
            tape.watch(&tm);
            let tracked = tape.record(|| ns_per_call(|| f(&ta, if name.contains("0-d") { &b } else { &tm })));
            print!("   tape, untracked {idle:7.1} ns   tape, recording {tracked:7.1} ns");
            // TAPE-END
        }
        println!();
    }
}
