#!/usr/bin/env bash
# Builds the fuzz targets once, then runs each (or the ones named after the
# time) for a fixed time, one after another, one fuzzing process at a time,
# under `nice` (the machine is shared). Usage:
#   scripts/fuzz.sh [seconds-per-target] [target...]
#
# Needs `cargo install cargo-fuzz`; RUSTC_BOOTSTRAP=1 lets the stable toolchain
# use the sanitizer flags. The build has AddressSanitizer, debug assertions and
# overflow checks. libFuzzer runs in fork mode with one job (-fork=1), so a
# crash is recorded in fuzz/artifacts/<target>/ and fuzzing goes on for the full
# time; the script fails at the end if any target left a crash, timeout or OOM
# input. Corpora grow in fuzz/corpus/<target>/ (not committed), seeded with the
# committed regression inputs. See docs/hardening.md for what to do with a crash.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(einsum bitcast views npy cast ops)
fi
export RUSTC_BOOTSTRAP=1

cargo fuzz build --dev --debug-assertions
bin=target/x86_64-unknown-linux-gnu/debug
failed=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  cp -n ../crates/lattensor/tests/data/fuzz_regressions/"$t"/* "corpus/$t/" 2>/dev/null || true
  log="artifacts/$t/run.log"
  echo "== fuzzing $t for ${seconds}s (log: fuzz/$log)"
  # The binary runs directly (not through `cargo fuzz run`), so editing the
  # library while a target runs does not trigger a rebuild between targets.
  nice -n 10 "$bin/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 >"$log" 2>&1 || true
  # fork mode reports "#<executions>: cov: … crash: n" lines; show the last one
  grep -E "^#[0-9]+" "$log" | tail -1 || true
  # (not `ls crash-* timeout-* oom-*`: it fails when any one pattern matches nothing)
  bad=$(find "artifacts/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \))
  if [ -n "$bad" ]; then
    echo "!! $t: failing inputs:" >&2
    echo "$bad" >&2
    failed=1
  fi
done
exit $failed
