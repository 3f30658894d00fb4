//! Runs one side-by-side workload (`benches/workloads/mod.rs`) in a loop, for
//! profiling: `perf record -e cpu-clock -g target/release/examples/profile_workload E7_four 5000`.
//! Prints the mean time per call. `RAYON_NUM_THREADS=1` gives the single-threaded profile.
//!
//! `cargo build --release -p lattensor --example profile_workload`

#[path = "../benches/workloads/mod.rs"]
mod workloads;
use std::time::Instant;
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let reps: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(2000);
    let f = workloads::workload(&name).unwrap();
    for _ in 0..10 {
        std::hint::black_box(f());
    }
    let t = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(f());
    }
    eprintln!("{name}: {:.1} us/call", t.elapsed().as_secs_f64() / reps as f64 * 1e6);
}
