#!/usr/bin/env bash
# Builds and runs bench/gpu_tally_micro.cu on the GPU machine (nvcc only: no CMake build, no
# .deps), with this tree's recorder and, given OLD_DIR, with the recorder headers there in the same
# call (made here before the call, since .git does not travel: mkdir D && git archive REV
# kernels/api trace/device | tar -x -C D; put D inside the tree, untracked, or carry it), each as built and with registers capped at 32
# (two 1,024-thread blocks an SM instead of one). Each binary runs each case in a process of its
# own under a time limit, twice, interleaved A B A B.
# Usage: bench/gpu_tally_micro.sh OUT_DIR [BLOCKS] [OLD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_tally_micro.sh OUT_DIR [BLOCKS] [OLD_DIR]}
blocks=${2:-16384}
old=${3:-}
mkdir -p "$out"
build() {  # NAME INCLUDE_ROOT [FLAGS...]
  local name=$1 root=$2
  shift 2
  nvcc -std=c++17 -O3 -arch=sm_90 -I"$root/kernels/api" -I"$root/trace/device" "$@" \
    -o "$out/$name" bench/gpu_tally_micro.cu || { rm -f "$out"/{old,new,old_r32,new_r32}; exit 1; }
}
bins=(new new_r32)
build new . && build new_r32 . -maxrregcount=32
if [[ -n $old ]]; then
  build old "$old" && build old_r32 "$old" -maxrregcount=32
  bins=(old new old_r32 new_r32)
fi
{
  nvidia-smi -L
  for round in 1 2; do
    for bin in "${bins[@]}"; do
      echo "== $bin (round $round)"
      for step in $(seq 0 9); do
        timeout -k 2 8 "$out/$bin" "$blocks" "$step" > "$out/case.txt" 2>&1
        rc=$?
        grep -v '^\.\.\.\|^stride-1' "$out/case.txt"
        # A case that did not finish: its name (the "..." line) and timeout's status (124).
        [[ $rc -eq 0 ]] || echo "case $step ($(sed -n 's/^\.\.\. //p' "$out/case.txt")): exit $rc"
      done
    done
  done
} 2>&1 | tee "$out/tally-micro.txt"
rm -f "$out"/{old,new,old_r32,new_r32} "$out/case.txt"
