//! Replays every committed fuzz input through its harness: crash inputs the
//! fuzzers found (each fixed in the library, with a unit test beside the fix)
//! and a few seeds per target, so a normal `cargo test` keeps them fixed.
//!
//! Inputs live in `tests/data/fuzz_regressions/<target>/`; the harnesses are
//! the ones `fuzz/fuzz_targets/*.rs` run (`tests/fuzz_harness/mod.rs`).

mod fuzz_harness;

use std::path::PathBuf;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz_regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{target}: input {} crashes", f.display());
    }
}

#[test]
fn einsum_inputs() {
    replay("einsum", fuzz_harness::einsum);
}

#[test]
fn bitcast_inputs() {
    replay("bitcast", fuzz_harness::bitcast);
}

#[test]
fn views_inputs() {
    replay("views", fuzz_harness::views);
}

#[test]
fn npy_inputs() {
    replay("npy", fuzz_harness::npy);
}

#[test]
fn cast_inputs() {
    replay("cast", fuzz_harness::cast);
}

#[test]
fn ops_inputs() {
    replay("ops", fuzz_harness::ops);
}
