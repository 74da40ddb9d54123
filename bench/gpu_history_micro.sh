#!/usr/bin/env bash
# Builds and runs bench/gpu_history_micro.cu (the warps' histories, a prototype) and, for the same
# call's baseline, bench/gpu_tally_micro.cu's copy and transpose as the lean unit builds them
# (record only, the warp's state, 32 registers). nvcc only: no CMake build, no .deps. Each case
# runs in a process of its own, in three rounds, the binaries interleaved.
# Usage: bench/gpu_history_micro.sh OUT_DIR [BLOCKS]; writes OUT_DIR/history-micro.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_history_micro.sh OUT_DIR [BLOCKS]}
blocks=${2:-16384}
mkdir -p "$out"
flags=(-std=c++17 -O3 -arch=sm_90 -Ikernels/api -Itrace/device -DWS_RECORD_BUILD -maxrregcount=32)
nvcc "${flags[@]}" -DWS_WARP_STATE_BUILD -o "$out/tally" bench/gpu_tally_micro.cu || exit 1
nvcc "${flags[@]}" -Xptxas -v -o "$out/history" bench/gpu_history_micro.cu 2> "$out/ptxas.txt" ||
  { cat "$out/ptxas.txt"; exit 1; }
variants=(history)
for v in ${HM_VARIANTS:-}; do  # e.g. HM_VARIANTS="NO_STORE NO_EXIT+NO_WAITS": an ablation each
  defs=()
  IFS=+ read -ra parts <<< "$v"
  for d in "${parts[@]}"; do defs+=("-DHM_$d"); done
  nvcc "${flags[@]}" "${defs[@]}" -Xptxas -v -o "$out/history_$v" bench/gpu_history_micro.cu \
    2> "$out/ptxas_$v.txt" || { cat "$out/ptxas_$v.txt"; exit 1; }
  echo "== $v: $(grep -A2 'Compiling entry.*Transpose.*b1' "$out/ptxas_$v.txt" | tail -1 | grep -o '[0-9]* bytes stack')" >> "$out/stacks.txt"
  variants+=("history_$v")
done
{
  nvidia-smi -L
  grep -A2 'Compiling entry' "$out/ptxas.txt" | grep -v '^--' | sed 's/_ZN[0-9A-Za-z_]*main//'
  cat "$out/stacks.txt" 2>/dev/null
  for round in 1 2 3; do
    echo "== round $round: the tally (the lean unit's recorder)"
    for step in 0 2 17 18; do
      timeout -k 2 8 "$out/tally" "$blocks" "$step" 2>&1 | grep -v '^\.\.\.\|^stride-1'
    done
    for v in "${variants[@]}"; do
      echo "== round $round: $v"
      for step in 0 1 2 3; do
        timeout -k 2 8 "$out/$v" "$blocks" "$step" 2>&1 | grep -v '^transpose registers\|^copy registers'
      done
    done
  done
} 2>&1 | tee "$out/history-micro.txt"
rm -f "$out/tally" "${variants[@]/#/$out/}"
