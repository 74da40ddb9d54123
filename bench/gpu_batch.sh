#!/usr/bin/env bash
# One device call's worth of GPU work (about 30 minutes a session, a call at most 10): builds the
# GPU tests' binaries as one goal, runs every GPU test, then the benches the GPU issues quote,
# each under its own time limit so that a slow one leaves the rest their turn. Everything lands
# in OUT_DIR (the device's $OUT), one summary in OUT_DIR/batch.txt.
# Usage (on the device, with .deps carried): bench/gpu_batch.sh OUT_DIR [STEPS]
#   STEPS: a comma-separated subset of micro,direct-micro,hazard-micro,ablations,lane-micro,lane-product,first-launch,build,tests,anchors,capture,capture-defaults,
#   capture-defaults-events,capture-defaults-capped,capture-nolean,capture-old,
#   program,capped,lane-cap,sass,lean-choice,same-direct,same-lean,counters,counters-probe
#   (default: build,tests,anchors,capture,program; micro is bench/gpu_tally_micro.sh, nvcc only, so
#   it can run before the build; capture-old is the capture bench with WS_GPU_HAZARD_FAST=0, the
#   hazard check as before its cheaper shadows; capped builds the recorded lessons again with
#   WARPSCOPE_RECORD_MAXRREGCOUNT=${WS_RECORD_CAP:-32} and WARPSCOPE_HAZARD_MAXRREGCOUNT=
#   ${WS_HAZARD_CAP:-64} and runs the capture bench on that build, into OUT_DIR/capped (the lane
#   units keep their own caps, WARPSCOPE_LANE_MAXRREGCOUNT and WARPSCOPE_LANE_WIDE_MAXRREGCOUNT);
#   lane-cap builds the capped lane unit again with WARPSCOPE_LANE_MAXRREGCOUNT=${WS_LANE_CAP-}
#   (empty: none; it records the launches LaneBuildFor does not give the wide unit) and runs the
#   capture bench at the lessons' defaults on that build, into
#   OUT_DIR/lane-cap (after build, a short rebuild: only the lane unit and the links);
#   capture-nolean runs the capture bench with WS_GPU_LEAN=0, the lean unit's kernels never run;
#   sass: the lean unit's SASS of the kernels WS_SASS_KERNELS names (a regex, default the
#   transposes and the copies), from the build's object, into OUT_DIR/sass.txt)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_batch.sh OUT_DIR [STEPS]}
steps=${2:-build,tests,anchors,capture,program}
mkdir -p "$out"
summary="$out/batch.txt"
: > "$summary"
want() { [[ ",$steps," == *",$1,"* ]]; }
step() {  # NAME LIMIT COMMAND...: runs it under the limit, notes its time and exit status
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  echo "$name: exit $? in $((SECONDS - t0)) s" >> "$summary"
}
# WS_MICRO_OLD: a folder in the tree (untracked) holding another recorder's headers, made here
# before the call (mkdir D && git archive REV kernels/api kernels/include trace/device | tar -x -C
# D): the micro then times it beside this tree's, in one call.
want micro && step micro 240 bench/gpu_tally_micro.sh "$out/micro" 16384 ${WS_MICRO_OLD:-}
# CUPTI's range profiler and the kernel timer's counting mode on three probe kernels
# (kernels/async/cupti_range_probe.sh: nvcc and g++ only, so it can run before the build).
want counters-probe && step counters-probe 120 kernels/async/cupti_range_probe.sh \
  "$out/cupti.txt"
# The direct road's prototype (bench/gpu_direct_micro.cu, nvcc only): a site the table holds
# counted with no lookup, against the tally's roads, the count check beside each.
want direct-micro && step direct-micro 120 bash -c "nvcc -std=c++17 -O3 -arch=sm_90 \
  -Ikernels/api -Itrace/device -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -DWS_OUT_OF_LINE_ROADS \
  -maxrregcount=32 -o '$out/direct' bench/gpu_direct_micro.cu && '$out/direct'; rm -f '$out/direct'"
# The hazard pass's micro (bench/gpu_hazard_micro.cu, nvcc only), against WS_MICRO_OLD's too.
want hazard-micro && step hazard-micro 120 bench/gpu_hazard_micro.sh "$out/hazard-micro" \
  ${WS_MICRO_OLD:-}
# Where the lean build's recording time goes, one part taken out at a time (nvcc only).
want ablations && step ablations 300 bench/gpu_tally_ablations.sh "$out/ablations" 3
# The lane log's micro (bench/gpu_lane_log_micro.cu, nvcc only: it can run before the build).
want lane-micro && step lane-micro 120 bash -c "nvcc -std=c++17 -O3 -arch=sm_90 \
  -o '$out/lane_micro' bench/gpu_lane_log_micro.cu && '$out/lane_micro' 31; rm -f '$out/lane_micro'"
# The lane unit's own record on the matmul lessons (bench/gpu_lane_product_micro.sh, nvcc and the
# carried rewriter only: it can run before the build), with the variant folders WS_LANE_VARIANTS
# names beside it (or WS_LANE_BUILT's harnesses, built here: bench/gpu_lane_product_micro.sh).
want lane-product && step lane-product 180 bench/gpu_lane_product_micro.sh "$out/lane-product" 3
# A first launch's extra time (bench/gpu_first_launch_micro.cu), with every kernel loaded when
# CUDA starts (CUDA_MODULE_LOADING=EAGER, as the capture bench runs the CLI), then as is (lazy
# loading, CUDA's default since 12.2: a kernel's first launch loads it) and with the stack's limit
# set first (nvcc only).
want first-launch && step first-launch 60 bash -c "nvcc -std=c++17 -O3 -arch=sm_90 \
  -o '$out/first' bench/gpu_first_launch_micro.cu && echo '== eager loading' && \
  CUDA_MODULE_LOADING=EAGER '$out/first' && echo '== lazy loading' && '$out/first' && \
  '$out/first' 4096; rm -f '$out/first'"
if want build; then
  WS_BUILD_TARGETS=ws_gpu_test_binaries step build 420 scripts/gpu-build.sh "$out/b" 90
fi
# A second call on a warm machine gets .deps afresh (carried), without the root a build unpacked.
if [[ -d .deps/debs && ! -d .deps/root/usr/lib/x86_64-linux-gnu ]]; then
  mkdir -p .deps/root
  for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
fi
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
# The GPU's own counters (kernel_counters.cpp): their GPU test, then globalToShmemAsyncCopy's
# kernels, and cudaTensorCoreGemm at 256^3, on the GPU backend beside Nsight Compute
# (scripts/gpu-counters.sh; the samples carried under .deps/samples, WS_COUNTER_KERNELS picks
# globalToShmemAsyncCopy's kernels, default 0 and 1; WS_COUNTER_TCG=0 leaves the other out).
if want counters; then
  step counters-test 90 ctest --test-dir build/headless -R "OwnCounters|EachRunOfASandboxed" --output-on-failure
  grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/counters-test.log" >> "$summary"
  if [[ -d .deps/samples/Samples ]]; then
    SAMPLES=.deps/samples KERNELS="${WS_COUNTER_KERNELS:-0 1}" step counters 420 \
      scripts/gpu-counters.sh "$out/counters"
    cat "$out/counters/compare.txt" >> "$summary" 2>/dev/null
  fi
fi
if want tests; then
  # WS_TESTS_LIMIT: the step's seconds (ctest -L gpu took over 200 s with -j4 on an H200).
  step tests "${WS_TESTS_LIMIT:-300}" ctest --test-dir build/headless -L gpu -j"${WS_TESTS_J:-6}" \
    --timeout 180 --output-on-failure
  grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/tests.log" >> "$summary"
fi
want anchors && step anchors 150 bench/gpu_anchors.sh "$out/anchors" 1
want capture && step capture 90 bench/gpu_capture_bench.sh "$out/capture" 3
# The lessons at their own default sizes (issue 51's "lessons' GPU pass" as a lesson runs it).
want capture-defaults && step capture-defaults 200 bench/gpu_capture_bench.sh \
  "$out/capture-defaults" 3 defaults
# The same at their defaults with the event roads only, no lane log (WS_GPU_LANE_LOG=0).
want capture-defaults-events && WS_GPU_LANE_LOG=0 step capture-defaults-events 200 \
  bench/gpu_capture_bench.sh "$out/capture-defaults-events" 3 defaults
# The same at their defaults with the lane log's capped build only (WS_GPU_LANE_WIDE=0: the
# uncapped lane unit never runs), against capture-defaults in one call.
want capture-defaults-capped && WS_GPU_LANE_WIDE=0 step capture-defaults-capped 200 \
  bench/gpu_capture_bench.sh "$out/capture-defaults-capped" 3 defaults
# The same build without the lean unit's kernels (cuda_pass_units.h: WS_GPU_LEAN=0).
want capture-nolean && WS_GPU_LEAN=0 step capture-nolean 90 bench/gpu_capture_bench.sh \
  "$out/capture-nolean" 3
# The same build with the hazard check as before its shadows got cheaper (WS_GPU_HAZARD_FAST=0).
want capture-old && WS_GPU_HAZARD_FAST=0 step capture-old 90 bench/gpu_capture_bench.sh \
  "$out/capture-old" 3
# Lessons at size whose kernels the lean unit's local memory rule decides, lean against the
# recorded unit (WS_GPU_LEAN=0), after build.
want lean-choice && step lean-choice 300 bench/gpu_lean_choice.sh "$out/lean-choice.txt" 3
# The same figures either way (bench/gpu_same_figures.sh, times left out): the direct road on and
# off, and the lean build up to ${WS_SAME_LEAN_BYTES:-96} bytes of local memory against never.
want same-direct && step same-direct 300 bench/gpu_same_figures.sh "$out/same-direct.txt" \
  "WS_GPU_DIRECT=1" "WS_GPU_DIRECT=0"
want same-lean && step same-lean 300 bench/gpu_same_figures.sh "$out/same-lean.txt" \
  "WS_GPU_LEAN=${WS_SAME_LEAN_BYTES:-96}" "WS_GPU_LEAN=0"
if want sass; then
  lean=$(find build/headless -name 'lessons_cuda_lean.cu.o' | head -1)
  step sass 60 bash -c "cuobjdump -sass '$lean' | awk -v re='${WS_SASS_KERNELS:-transpose|[Cc]opy}' \
    '/Function :/ { keep = (\$0 ~ re) } keep' > '$out/sass.txt'"
fi
want program && step program 240 bench/gpu_program_bench.sh "$out/program"
if want capped; then
  WS_CMAKE_ARGS="-DWARPSCOPE_RECORD_MAXRREGCOUNT=${WS_RECORD_CAP:-32} -DWARPSCOPE_HAZARD_MAXRREGCOUNT=${WS_HAZARD_CAP:-64}" \
    WS_BUILD_TARGETS=warpscope-cli step capped-build 420 scripts/gpu-build.sh "$out/bc" 90
  step capped 90 bench/gpu_capture_bench.sh "$out/capped" 3
fi
if want lane-cap; then
  WS_CMAKE_ARGS="-DWARPSCOPE_LANE_MAXRREGCOUNT=${WS_LANE_CAP-}" WS_BUILD_TARGETS=warpscope-cli \
    step lane-cap-build 420 scripts/gpu-build.sh "$out/bl" 90
  step lane-cap 200 bench/gpu_capture_bench.sh "$out/lane-cap" 3 defaults
fi
for f in micro/tally-micro.txt hazard-micro/hazard-micro.txt ablations/ablations.txt lane-product/lane-product.txt anchors/anchors.txt capture/capture-bench.txt \
  capture-defaults/capture-bench.txt capture-defaults-events/capture-bench.txt \
  capture-defaults-capped/capture-bench.txt capture-nolean/capture-bench.txt \
  capture-old/capture-bench.txt program/program-bench.txt capped/capture-bench.txt \
  lane-cap/capture-bench.txt; do
  [[ -f "$out/$f" ]] && { echo "== $f"; cat "$out/$f"; } >> "$summary"
done
cat "$summary"
