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
