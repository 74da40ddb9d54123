#!/usr/bin/env bash
# Builds and runs bench/gpu_hazard_micro.cu on the GPU machine (nvcc only): this tree's hazard
# code built as the hazard unit builds the lessons' kernels (WS_HAZARD_BUILD), capped at 64
# registers (the unit's cap) and at 32; given OLD_DIR (an older tree's kernels/api and
# trace/device, made before the call: mkdir D && git archive REV kernels/api trace/device | tar
# -x -C D, inside the tree, untracked), that one's too. Three rounds, the builds interleaved.
# Usage: bench/gpu_hazard_micro.sh OUT_DIR [OLD_DIR]; writes OUT_DIR/hazard-micro.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_hazard_micro.sh OUT_DIR [OLD_DIR]}
old=${2:-}
mkdir -p "$out"
bins=()
build() {  # NAME INCLUDE_ROOT [FLAGS...]
  local name=$1 root=$2
  shift 2
  nvcc -std=c++17 -O3 -arch=sm_90 -I"$root/kernels/api" -I"$root/trace/device" -Ibench \
    -DWS_HAZARD_BUILD "$@" -o "$out/$name" bench/gpu_hazard_micro.cu && bins+=("$name")
}
if [[ -n $old ]]; then
  build old_r64 "$old" -maxrregcount=64
  build old_r32 "$old" -maxrregcount=32
fi
build new_r64 . -maxrregcount=64
build new_r32 . -maxrregcount=32
{
  nvidia-smi -L
  for round in 1 2 3; do
    for bin in "${bins[@]}"; do
      echo "== $bin (round $round)"
      timeout -k 2 20 "$out/$bin" 4096 || echo "$bin: exit $?"
    done
  done
} 2>&1 | tee "$out/hazard-micro.txt"
rm -f "${bins[@]/#/$out/}"
