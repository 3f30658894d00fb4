#!/usr/bin/env bash
# Runs every fuzz target (or the ones named after the time) for a fixed time
# each, one after another in one process (no -jobs/-workers: the machine is shared), under AddressSanitizer with debug assertions and
# overflow checks on. Usage: scripts/fuzz.sh [seconds-per-target] [target...]
#
# Needs `cargo install cargo-fuzz`; RUSTC_BOOTSTRAP=1 lets the stable toolchain
# use the sanitizer flags. Corpora grow in fuzz/corpus/<target>/ (not committed);
# a crash lands in fuzz/artifacts/<target>/ and the script stops with its path.
# Copy the input to crates/lattensor/tests/data/fuzz_regressions/<target>/ once
# the bug is fixed, so `cargo test` replays it (see docs/hardening.md).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(einsum bitcast views npy cast)
fi
export RUSTC_BOOTSTRAP=1

cargo fuzz build -a -O
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  # The committed regression inputs seed the corpus.
  cp -n ../crates/lattensor/tests/data/fuzz_regressions/"$t"/* "corpus/$t/" 2>/dev/null || true
  echo "== fuzzing $t for ${seconds}s"
  nice -n 10 cargo fuzz run -a -O "$t" "corpus/$t" -- \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=4096 -print_final_stats=1 2>&1 | tee "artifacts/$t/last_run.log" | grep -E "stat::number_of_executed_units|Done|ERROR|SUMMARY|crash-|timeout-|oom-" || true
  if ls "artifacts/$t"/crash-* "artifacts/$t"/timeout-* "artifacts/$t"/oom-* >/dev/null 2>&1; then
    echo "!! $t: failing inputs in fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
