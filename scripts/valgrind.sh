#!/usr/bin/env bash
# Runs the tests that exercise lattensor's unsafe code under valgrind memcheck:
# the storage and kernel unit tests (bool views of bytes, strided kernels),
# bitcast (views that reinterpret storage), the .npy reader, einsum (the GEMM
# call on strided views) and the replayed fuzz inputs. Any invalid read or
# write, use of uninitialised memory or definite leak fails the run.
#
# Usage: scripts/valgrind.sh [--quick]
#   --quick  only the unit tests and the bitcast/npy/fuzz-regression tests
#            (skips the einsum suite, the slowest under valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

tests=(bitcast npy fuzz_regressions)
[ "${1:-}" = "--quick" ] || tests+=(einsum)

args=(--lib)
for t in "${tests[@]}"; do args+=(--test "$t"); done

# Build once and collect the test executables cargo reports.
mapfile -t exes < <(cargo test -p lattensor "${args[@]}" --no-run 2>&1 \
  | sed -n 's/^ *Executable .*(\(.*\))$/\1/p')
[ ${#exes[@]} -gt 0 ] || { echo "no test executables found" >&2; exit 1; }
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
    # (nor the byte-product tests at depth 2¹⁷ and the threaded ones: valgrind hides
    # AVX-512, so they would time the portable loop and the naive reference; the
    # kind, stride and edge tests still run that loop)
    # (nor kernels::decomp and kernels::fft: no unsafe code of ours, faer's and rustfft's loops)
    lattensor-*) filter=(storage:: kernels:: layout:: tensor:: npy:: bitcast:: einsum::
      --skip kernels::elementwise::tests::fused_mixed_operands_equal_converted_ones
      --skip kernels::decomp:: --skip kernels::fft::
      --skip kernels::igemm::tests::extreme_int8_sums --skip kernels::igemm::tests::i64_products
      --skip kernels::igemm::tests::threaded_and_batch_parallel) ;;
    # valgrind hides AVX-512, so this test would only time the portable loop nest on 2²¹-FLOP products
    einsum-*) filter=(--skip large_products_match_the_loop_nest
      # 100 s under valgrind in an unoptimised build, nearly all of it the naive reference
      # loops; the property tests (raw/tf/numpy_matches_naive) still take the same gemm
      # calls on transposed and strided views, on smaller shapes
      --skip large_matmul_uses_gemm_correctly) ;;
  esac
  echo "== valgrind $(basename "$exe") ${filter[*]:-}"
  start=$(date +%s)
  if ! (cd crates/lattensor && "${vg[@]}" "$exe" --test-threads=2 "${filter[@]}" -q); then
    status=1
  fi
  echo "   $(( $(date +%s) - start ))s"
done
exit $status
