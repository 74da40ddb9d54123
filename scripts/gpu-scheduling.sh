#!/usr/bin/env bash
# Issue 7's GPU runs: builds the headless CLI and tests, runs every test (the `gpu` ones
# included), then the scheduling lessons on the GPU: the block-to-SM timeline (scalability) and
# the transfer bandwidths and stream overlap (transfers). Writes the captures that
# assets/traces ships (OUT/traces.tgz) and the runs' JSON (OUT/scheduling.jsonl). Usage:
#   scripts/gpu-scheduling.sh OUT_DIR [CUDA_ARCH]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-scheduling.sh OUT_DIR [CUDA_ARCH]}
arch=${2:-90}
scripts/gpu-build.sh "$out" "$arch" || exit 1
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ctest --preset headless --output-on-failure > "$out/ctest.log" 2>&1
tail -4 "$out/ctest.log"
grep -E "^\s*[0-9]+/[0-9]+ Test.*(Gpu|gpu)" "$out/ctest.log" | grep -E "Scheduling|Transfers" || true
cli=./build/headless/app/warpscope-cli
: > "$out/scheduling.jsonl"
run() {  # ARGS...: one JSON line per run
  $cli run "$@" --backend cuda --json 2>&1 | tr -d '\n' >> "$out/scheduling.jsonl"
  echo >> "$out/scheduling.jsonl"
}
for blocks in 132 264 528 1056; do run scalability --set blocks=$blocks --set threads=1024 --set work=400; done
run scalability --set blocks=1056 --set threads=1024 --set work=400 --set skew=200
run scalability --set blocks=1056 --set threads=256 --set work=400
for v in pinned pageable; do
  for size in 4MB 64MB 256MB; do run transfers --variant $v --set size=$size; done
done
mkdir -p "$out/traces"
capture() {  # NAME LESSON ARGS...
  local name=$1
  shift
  $cli capture "$@" --backend cuda -o "$out/traces/$name.wstrace" > "$out/traces/$name.txt" 2>&1 ||
    echo "capture $name failed" >> "$out/traces/errors.txt"
}
capture scalability-h100 scalability --set blocks=1056 --set threads=1024 --set work=400
capture scalability-skew-h100 scalability --set blocks=1056 --set threads=1024 --set work=400 --set skew=200
capture transfers-pinned transfers --variant pinned
capture transfers-pageable transfers --variant pageable
# compute-sanitizer over the two new kernels' runs.
for l in scalability transfers; do
  compute-sanitizer --tool memcheck $cli run $l --backend cuda > "$out/traces/sanitize-$l.txt" 2>&1
  tail -2 "$out/traces/sanitize-$l.txt"
done
tar czf "$out/traces.tgz" -C "$out" traces && rm -rf "$out/traces"
echo "done"
