//! Divan benchmarks of the side-by-side workloads: element-wise
//! ops, reductions, bitcast and einsum on the same inputs `bench/peers.py`
//! gives NumPy, JAX, TF and PyTorch.
//!
//! `cargo bench -p lattensor --bench ops` (all), or with a filter:
//! `cargo bench -p lattensor --bench ops -- E1a`. For the comparison with the
//! other libraries run `bench/peers.py` (see `bench/README.md`).

mod workloads;

fn main() {
    divan::main();
}

/// One call of each workload; inputs are built once, outside the timing.
#[divan::bench(args = workloads::NAMES, sample_count = 20)]
fn workload(bencher: divan::Bencher, name: &str) {
    let Some(call) = workloads::workload(name) else { return };
    bencher.bench_local(&call);
}
