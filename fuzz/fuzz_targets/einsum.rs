//! Fuzz target `einsum`: see `harness::einsum` (shared with tests/fuzz_regressions.rs).
#![no_main]

#[path = "../../crates/lattensor/tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::einsum(data));
