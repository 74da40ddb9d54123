#!/usr/bin/env bash
# The micro's recorded kernels (bench/gpu_tally_micro.cu, the lean unit's build: record only,
# the warp's state, the rare roads out of line, 32 registers) under Nsight Compute's source
# counters, instruction by instruction (bench/gpu_sass_counts.sh): the padded transpose's and the
# copy's last recorded launch. nvcc only: no CMake build.
# Usage: bench/gpu_micro_sass.sh OUT_DIR [EXTRA_NVCC_FLAGS...]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_micro_sass.sh OUT_DIR [FLAGS...]}
shift
mkdir -p "$out"
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -Ikernels/api -Itrace/device -DWS_RECORD_BUILD \
  -DWS_WARP_STATE_BUILD -DWS_OUT_OF_LINE_ROADS -maxrregcount=32 "$@" -o "$out/micro" \
  bench/gpu_tally_micro.cu || exit 1
# Each case launches its kernel 15 times; Transpose<false>'s 15 come before Transpose<true>'s,
# the recorder built in but off (Copy's) before the recorded copy.
bench/gpu_sass_counts.sh "$out/transpose.txt" '^Transpose$' 29 --exec "$out/micro" 16384 -1
bench/gpu_sass_counts.sh "$out/copy.txt" '^Copy$' 29 --exec "$out/micro" 16384 -1
rm -f "$out/micro"
