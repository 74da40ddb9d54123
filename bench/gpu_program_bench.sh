#!/usr/bin/env bash
# A program's kernel time with recording against without (issue 22's target: <= 5x for each of
# examples/transpose.cu's three kernels at 4096²), by Nsight Compute. On the GPU backend the CLI
# runs the program twice, the recording build and then the plain one (whose CUDA event times it
# reports); the plain one runs in the sandbox, where Nsight Compute does not follow it ("only 1
# process timed", 2026-12-01). So ncu times every kernel of the CLI's recorded child
# (gpu__time_duration), and the same program built by nvcc as written, with the same N, is timed
# apart as the plain side; the ratio is recorded / plain per kernel (medians over its launches:
# the recorded child's are its passes). With OLD_SHIM (another
# kernels/program/shim/ws_program_cuda.h), that shim is measured too, in the same call.
# Run on the GPU machine after scripts/gpu-build.sh built build/headless.
# Usage: bench/gpu_program_bench.sh OUT_DIR [N] [OLD_SHIM]; writes OUT_DIR/program-bench.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_program_bench.sh OUT_DIR [N] [OLD_SHIM]}
n=${2:-4096}
old=${3:-}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The rewriter a program run calls needs clang 14's libraries (.deps/clangdebs).
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
cli=$PWD/build/headless/app/warpscope-cli
shim=kernels/program/shim/ws_program_cuda.h
# The plain side: the program as written, built by nvcc with the same N (its `#define N` line set
# as the CLI's -D N sets a parameter), timed once by ncu.
plain_csv="$out/ncu-plain.csv"
rm -f "$plain_csv"
sed "s/^#define N [0-9]*/#define N $n/" examples/transpose.cu > "$out/transpose-plain.cu"
nvcc -std=c++17 -O3 -arch=sm_90 -o "$out/transpose-plain" "$out/transpose-plain.cu" \
  > "$out/nvcc-plain.txt" 2>&1 &&
  ncu --clock-control none --print-units base --metrics gpu__time_duration.sum --csv \
    "$out/transpose-plain" \
    > "$plain_csv" 2> "$out/ncu-plain.err"
measure() {  # LABEL
  local label=$1
  ncu --clock-control none --print-units base --target-processes all \
    --metrics gpu__time_duration.sum --csv \
    "$cli" run --file examples/transpose.cu -D N="$n" --backend cuda --timeout 300 \
    > "$out/ncu-$label.csv" 2> "$out/ncu-$label.err"
  python3 bench/program_bench_ratios.py "$label" "$out/ncu-$label.csv" "$plain_csv" \
    >> "$out/program-bench.txt"
}
: > "$out/program-bench.txt"
if [[ -n "$old" ]]; then
  cp "$shim" "$out/new-shim.h"
  cp "$old" "$shim"
  measure old
  cp "$out/new-shim.h" "$shim"
fi
measure new
cat "$out/program-bench.txt"
