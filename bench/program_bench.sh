#!/usr/bin/env bash
# A course program at its own size on the emulator (issue 22): examples/matmul.cu (the G80
# slides' tiled MatrixMulKernel) at WIDTH=1024, whole `warpscope-cli run --file` process at the
# CLI's defaults except the time limit (raised so that a slow build still finishes), 3 runs,
# median wall time. With a second CLI, both are measured in turns, in one run.
#   bench/program_bench.sh [CLI] [OTHER_CLI]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
clis=("${1:-$root/build/release/app/warpscope-cli}")
[[ $# -ge 2 ]] && clis+=("$2")
for c in "${clis[@]}"; do "$c" run --file "$root/examples/matmul.cu" -D WIDTH=64 >/dev/null; done
declare -A times
for rep in 1 2 3; do
  for c in "${clis[@]}"; do
    s=$(date +%s.%N)
    "$c" run --file "$root/examples/matmul.cu" -D WIDTH=1024 --timeout 600 >/dev/null
    e=$(date +%s.%N)
    times[$c]+="$(echo "$e - $s" | bc) "
  done
done
for c in "${clis[@]}"; do
  median=$(echo ${times[$c]} | tr ' ' '\n' | sort -n | sed -n 2p)
  echo "$c: matmul.cu WIDTH=1024: median $median s (runs: ${times[$c]})"
done
