#!/usr/bin/env bash
# Builds and runs bench/gpu_tally_micro.cu on the GPU machine (nvcc only: no CMake build, no
# .deps): this tree's recorder built for both passes, as a program's recorded build is ("new"),
# built to record only, as the recorded lessons are (WS_RECORD_BUILD, cuda_pass_units.h: "rec"),
# and that with registers capped at 32 (two 1,024-thread blocks an SM instead of one:
# "rec_r32"); given OLD_DIR, the recorder headers there too
# ("old"; made here before the call, since .git does not travel: mkdir D && git archive REV
# kernels/api kernels/include trace/device | tar -x -C D; put D inside the tree, untracked, or
# carry it). Each binary runs each case in a process of its own under a time limit, in two rounds,
# the binaries interleaved.
# Usage: bench/gpu_tally_micro.sh OUT_DIR [BLOCKS] [OLD_DIR]; writes OUT_DIR/tally-micro.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_tally_micro.sh OUT_DIR [BLOCKS] [OLD_DIR]}
blocks=${2:-16384}
old=${3:-}
mkdir -p "$out"
bins=()
build() {  # NAME INCLUDE_ROOT [FLAGS...]
  local name=$1 root=$2
  shift 2
  nvcc -std=c++17 -O3 -arch=sm_90 -I"$root/kernels/api" -I"$root/trace/device" "$@" \
    -o "$out/$name" bench/gpu_tally_micro.cu || { rm -f "${bins[@]/#/$out/}"; exit 1; }
  bins+=("$name")
}
# WS_MICRO_LEAN=1: only the builds the lean unit's kernels are made as (record only, 32
# registers), the old recorder's and this tree's: a shorter call.
if [[ -n ${WS_MICRO_LEAN:-} ]]; then
  # The old recorder as the lean unit builds it (the warp's state from the kernel's entry).
  [[ -n $old ]] && build old_r32_ws "$old" -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -maxrregcount=32
  build rec_r32 . -DWS_RECORD_BUILD -maxrregcount=32
  # The lean unit's build: the warp's state from the kernel's entry (its list, where the headers
  # have lists: WS_RECORDER_TALLY_LISTS).
  build rec_r32_ws . -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -maxrregcount=32
  # That with the roads a tallied warp seldom takes out of line (WS_OUT_OF_LINE_ROADS).
  build rec_r32_ws_ool . -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -DWS_OUT_OF_LINE_ROADS \
    -maxrregcount=32
  # That with the transpose's barrier pass counted once a block (bench/gpu_block_barrier.h).
  build rec_r32_ws_ool_bb . -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -DWS_OUT_OF_LINE_ROADS \
    -DWS_MICRO_BLOCK_BARRIER -maxrregcount=32
else
  [[ -n $old ]] && build old "$old"
  build new .
  build rec . -DWS_RECORD_BUILD
  build rec_r32 . -DWS_RECORD_BUILD -maxrregcount=32
fi
{
  nvidia-smi -L
  for round in 1 2; do
    for bin in "${bins[@]}"; do
      echo "== $bin (round $round)"
      for step in $(seq 0 18); do
        timeout -k 2 8 "$out/$bin" "$blocks" "$step" > "$out/case.txt" 2>&1
        rc=$?
        grep -v '^\.\.\.\|^stride-1' "$out/case.txt"
        # A case that did not finish: its name (the "..." line) and timeout's status (124).
        [[ $rc -eq 0 ]] || echo "case $step ($(sed -n 's/^\.\.\. //p' "$out/case.txt")): exit $rc"
      done
    done
  done
} 2>&1 | tee "$out/tally-micro.txt"
rm -f "${bins[@]/#/$out/}" "$out/case.txt"
