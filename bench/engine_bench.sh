#!/usr/bin/env bash
# The SIMT engine against the per-thread path (issue 49; docs/ENGINE.md): a course's tiled matmul at
# its own size, bench/programs/matmul_tiled_1024.cu (1024 x 1024, 32 x 32 tiles, 1M threads, 2.3 G
# recorded accesses), the whole `warpscope-cli run --file` process at the CLI's defaults but the
# time limit (raised: the per-thread path takes longer than the default 30 s), the two engines in
# turns, pair by pair. Quote the medians, and the machine.
#   bench/engine_bench.sh [CLI] [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/release/app/warpscope-cli}"
runs="${2:-3}"
prog="$root/bench/programs/matmul_tiled_1024.cu"
if command -v farm-bench >/dev/null; then
  exec farm-bench -n "$runs" --warmup 1 --timeout 3000 \
    --vs "$cli run --file $prog --timeout 600 --engine fiber" \
    -- "$cli" run --file "$prog" --timeout 600
fi
"$cli" run --file "$prog" --timeout 600 >/dev/null  # compiled once, out of the timings
for engine in simt fiber; do
  times=""
  for _ in $(seq "$runs"); do
    s=$(date +%s.%N)
    "$cli" run --file "$prog" --timeout 600 --engine "$engine" >/dev/null
    e=$(date +%s.%N)
    times+="$(echo "$e - $s" | bc) "
  done
  echo "$engine: median $(echo $times | tr ' ' '\n' | sort -n | sed -n "$(((runs + 1) / 2))p") s (runs: $times)"
done
