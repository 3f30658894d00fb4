//! What migration reports cost: small promoting ops timed with no comparison
//! and under a comparison with another mode.
//!
//!     cargo run --release -p lattensor-bench --bin compare_overhead [-- plain]
//!
//! Prints one line per op: the median of 15 blocks of ns per call. `plain`
//! times only the no-comparison column; the lines between COMPARE-BEGIN and
//! COMPARE-END are the only ones a build without comparisons lacks, so the same
//! file with them cut out times that build for an A/B run.

use std::hint::black_box;

use lattensor::{LatticeType, Tensor, ops, promote};
use lattensor_bench::sweep_timing::ns_per_call;

/// A named op to time.
type Case = (&'static str, Box<dyn Fn()>);

fn main() {
    let plain_only = std::env::args().any(|a| a == "plain");
    let i = Tensor::scalar(2i32);
    let f = Tensor::scalar(1.5f32);
    let v = Tensor::from_vec((0..1024).map(|x| x as f32).collect::<Vec<_>>(), &[1024]).unwrap();
    let types = [LatticeType::strong(lattensor::DType::I32), LatticeType::strong(lattensor::DType::F32)];
    let cases: Vec<Case> = vec![
        ("result_type i32, f32", Box::new(move || drop(black_box(promote::result_type(black_box(&types)))))),
        ("add 0-d i32 + f32", Box::new(move || drop(black_box(ops::add(&i, &f))))),
        ("add 1024 f32 + literal", Box::new(move || drop(black_box(ops::add(&v, 1.0))))),
    ];
    for (name, run) in &cases {
        let plain = ns_per_call(run);
        print!("{name:<24} no comparison {plain:7.1} ns");
        if !plain_only {
            // COMPARE-BEGIN
            let seen = std::rc::Rc::new(std::cell::Cell::new(0u64));
            let counter = seen.clone();
            let observed = promote::with_comparison(
                promote::PromotionMode::NumPy,
                move |_| counter.set(counter.get() + 1),
                || ns_per_call(run),
            );
            print!("   comparing with NumPy {observed:7.1} ns ({} divergences)", seen.get());
            // COMPARE-END
        }
        println!();
    }
}
