//! Shared pieces of the performance tools in `src/bin/` (see `bench/README.md`):
//! the side-by-side workloads, defined once in the lattensor crate's divan
//! benches and included here by path, and the sweeps' timing loop.

#[path = "../../../crates/lattensor/benches/workloads/mod.rs"]
pub mod workloads;

pub mod sweep_timing;
