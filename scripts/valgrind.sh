#!/usr/bin/env bash
# Runs the tests that exercise lattensor's unsafe code under valgrind memcheck:
# the storage and kernel unit tests (bool views of bytes, strided kernels),
# bitcast (views that reinterpret storage), the .npy reader, einsum (the GEMM
# call on strided views) and the replayed fuzz inputs. Any invalid read or
# write, use of uninitialised memory or definite leak fails the run.
#
# Usage: scripts/valgrind.sh [--quick]
#   --quick  only the unit tests and the bitcast/npy/fuzz-regression tests
#            (skips the einsum tests, the slowest under valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

# The modules of the `integration` test binary to run (each file of
# crates/lattensor/tests is one of its modules), besides `fuzz_regressions`.
modules=(bitcast:: npy::)
[ "${1:-}" = "--quick" ] || modules+=(einsum::)

# The executables `cargo test --workspace` built (this reuses them: `-p lattensor`
# alone would build the crate again with other features, about 200 s): the
# crate's unit tests (`lattensor-HASH`), the integration tests (`integration-HASH`)
# and the replayed fuzz inputs (`fuzz_regressions-HASH`).
mapfile -t built < <(cargo test --workspace --no-run 2>&1 | sed -n 's/^ *Executable \(.*\) (\(.*\))$/\1|\2/p')
exes=()
for line in "${built[@]}"; do
  source=${line%%|*} exe=${line#*|}
  case "$(basename "$exe")" in
    # (the CLI's binary is also called lattensor: its unit tests come from src/main.rs)
    lattensor-*) if [[ "$source" == *src/lib.rs ]]; then exes+=("$exe"); fi ;;
    integration-* | fuzz_regressions-*) exes+=("$exe") ;;
  esac
done
[ ${#exes[@]} -eq 3 ] || { echo "expected 3 test executables (lattensor, integration, fuzz_regressions), found: ${exes[*]:-none}" >&2; exit 1; }
# cargo prints paths relative to the workspace; the tests run from the crate's directory
for i in "${!exes[@]}"; do exes[$i]=$(realpath "${exes[$i]}"); done

vg=(valgrind --tool=memcheck --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --quiet)
status=0
for exe in "${exes[@]}"; do
  # The unit tests of the modules with unsafe code or strided access only.
  filter=()
  case "$(basename "$exe")" in
    # (not the fused mixed-operand test: 100 s under valgrind unoptimised, for loops of safe
    # code; the streaming stores it also takes are checked by streamed_outputs_equal_plain_ones)
    # (nor kernels::decomp and kernels::fft: no unsafe code of ours, faer's and rustfft's
    # loops; nor kernels::igemm: its unsafe code is the AVX-512 VNNI path, which valgrind
    # hides, so its tests would only time the safe portable loop against the naive one;
    # nor kernels::extremum: safe code, whose property tests fold thousands of vectors)
    lattensor-*) filter=(storage:: kernels:: layout:: tensor:: npy:: bitcast:: einsum::
      --skip kernels::elementwise::tests::fused_mixed_operands_equal_converted_ones
      --skip kernels::decomp:: --skip kernels::fft:: --skip kernels::igemm:: --skip kernels::extremum::) ;;
    integration-*) filter=("${modules[@]}"
      # valgrind hides AVX-512, so this test would only time the portable loop nest on 2²¹-FLOP products
      --skip einsum::large_products_match_the_loop_nest
      # 100 s under valgrind in an unoptimised build, nearly all of it the naive reference
      # loops; the property tests (raw/tf/numpy_matches_naive) still take the same gemm
      # calls on transposed and strided views, on smaller shapes
      --skip einsum::large_matmul_uses_gemm_correctly) ;;
  esac
  echo "== valgrind $(basename "$exe") ${filter[*]:-}"
  start=$(date +%s)
  if ! (cd crates/lattensor && "${vg[@]}" "$exe" --test-threads=2 "${filter[@]}" -q); then
    status=1
  fi
  echo "   $(( $(date +%s) - start ))s"
done
exit $status
