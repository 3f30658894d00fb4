//! Fuzz target `ops`: see `harness::ops` (shared with tests/fuzz_regressions.rs).
#![no_main]

#[path = "../../crates/lattensor/tests/fuzz_harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::ops(data));
