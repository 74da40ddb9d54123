#!/usr/bin/env bash
# The product's recording pass against the micro's (bench/gpu_tally_micro.cu) under Nsight
# Compute, kernel by kernel: duration, instructions, occupancy, stall reasons and the caches, so
# that where the product's pass is slower than the micro's same kernel (padded transpose 4096²:
# 0.327 against 0.278 ms; the 2^24-float copy 0.146 against 0.132) can be read. Run on the GPU
# machine after scripts/gpu-build.sh built build/headless (warpscope-cli at least).
# Usage: bench/gpu_ncu_compare.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_ncu_compare.sh OUT_DIR}
mkdir -p "$out"
if [[ -d .deps/debs && ! -d .deps/root/usr/lib/x86_64-linux-gnu ]]; then
  mkdir -p .deps/root
  for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
fi
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats
  --section SchedulerStats --section MemoryWorkloadAnalysis
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_requests_op_red.sum,lts__t_sector_hit_rate.pct,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active)
prof() {  # NAME REGEX SKIP COUNT COMMAND...
  local name=$1 regex=$2 skip=$3 count=$4
  shift 4
  timeout 200 ncu --kernel-name "$regex" --kernel-name-base function --launch-skip "$skip" --launch-count "$count" \
    "${sections[@]}" "$@" > "$out/$name.txt" 2>&1
  echo "$name: exit $?" >> "$out/summary.txt"
}
: > "$out/summary.txt"
nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -Ikernels/api -Itrace/device -DWS_RECORD_BUILD \
  -DWS_WARP_STATE_BUILD -DWS_OUT_OF_LINE_ROADS -maxrregcount=32 -o "$out/micro" \
  bench/gpu_tally_micro.cu || exit 1
# The micro's cases each launch their kernel 15 times: the last recorded launch of each.
# (Nsight Compute matches a kernel's base name: Transpose<false>'s 15 launches come first, as
# the recorder built in but off comes before the recorded copy.)
prof micro-transpose 'regex:^Transpose$' 29 1 "$out/micro" 16384 -1
prof micro-copy 'regex:^Copy$' 29 1 "$out/micro" 16384 -1
[[ -n ${WS_NCU_MICRO_ONLY:-} ]] && { rm -f "$out/micro"; exit 0; }
cli=./build/headless/app/warpscope-cli
# The product: the hazard pass, the recording pass and its warm rerun, the plain build's first.
prof product-padded 'transposePadded' 0 4 $cli run transpose --variant padded --set width=4096 \
  --set height=4096 --backend cuda
prof product-copy 'strideCopy' 0 4 $cli run stride-copy --set stride=1 --set threads=1024 \
  --set blocks=16384 --backend cuda
rm -f "$out/micro"
