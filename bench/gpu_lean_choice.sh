#!/usr/bin/env bash
# The recording pass with the lean unit's build where RunLean takes it, against the recorded
# unit's (WS_GPU_LEAN=0), for lessons at size whose kernels the lean unit's local memory rule
# (kLeanLocalBytes, cuda_pass_units.h) decides: each case REPEATS times a way, interleaved, the
# median recording pass and the plain build's time from the JSON. Run on the GPU machine after
# scripts/gpu-build.sh built build/headless.
# WS_LEAN_WAYS: the WS_GPU_LEAN values to run (default "1 0": the rule, and never; a number of
# bytes past 1 runs the lean build up to that much local memory, cuda_pass_units.h).
# Usage: bench/gpu_lean_choice.sh OUT_FILE [REPEATS]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_lean_choice.sh OUT_FILE [REPEATS]}
repeats=${2:-3}
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
cli=./build/headless/app/warpscope-cli
tmp=$(mktemp -d)
: > "$tmp/rows"
while read -r label args; do
  [[ -z $label ]] && continue
  for i in $(seq "$repeats"); do
    for lean in ${WS_LEAN_WAYS:-1 0}; do
      # shellcheck disable=SC2086
      WS_GPU_LEAN=$lean timeout 120 $cli run $args --backend cuda --json > "$tmp/one.json" \
        2> "$tmp/err" || { echo "$label lean=$lean failed: $(head -c 300 "$tmp/err")" >> "$out"; continue; }
      python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["timing"]["capture"]
print(sys.argv[2], sys.argv[3], c["record_ms"], c.get("plain_ms", 0.0))' \
        "$tmp/one.json" "$label" "$lean" >> "$tmp/rows"
    done
  done
done <<'CASES'
matmul-tiled-16-1024 matmul --variant tiled --set width=1024 --set tile=16
matmul-tiled-32-1024 matmul --variant tiled --set width=1024 --set tile=32
matmul-naive-1024 matmul --variant naive --set width=1024
matmul-2x2-16-1024 matmul --variant tiled-2x2 --set width=1024 --set tile=16
reduce-strided-256x65535 reduce --variant strided --set block=3 --set blocks=65535
reduce-shuffle-256x65535 reduce --variant shuffle --set block=3 --set blocks=65535
bank-stride-4096 bank-stride --variant stride --set blocks=4096
swizzle-as-written-4096 swizzle --variant as-written --set size=4096
CASES
python3 - "$tmp/rows" ${WS_LEAN_WAYS:-1 0} >> "$out" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    label, lean, rec, plain = line.split()
    rows[(label, lean)].append((float(rec), float(plain)))
ways = sys.argv[2:]
name = {"1": "lean rule", "0": "recorded"}
print("%-28s %10s" % ("case", "plain ms") + "".join(" %22s" % ("WS_GPU_LEAN=" + w + " ms, x") for w in ways))
for label in dict.fromkeys(k[0] for k in rows):
    got = [rows.get((label, w), []) for w in ways]
    if not all(got): continue
    pm = statistics.median(x[1] for g in got for x in g)
    cells = ""
    for g in got:
        m = statistics.median(x[0] for x in g)
        cells += " %14.4f %6.2fx" % (m, m / pm if pm else 0)
    print("%-28s %10.4f" % (label, pm) + cells)
PY
rm -rf "$tmp"
cat "$out"
