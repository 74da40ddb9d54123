#!/usr/bin/env bash
# Capture overhead on the GPU (issue 6's target: recorded time <= 3x uninstrumented time for
# stride-copy, stride 1, 2^24 floats) and record throughput against the copy's own bandwidth.
# Run on the GPU machine after scripts/gpu-check.sh built build/headless.
# Usage: bench/gpu_capture_bench.sh OUT_DIR [REPEATS] [defaults]; writes
# OUT_DIR/capture-bench.{jsonl,txt}. "defaults": the lessons at their own default sizes instead.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_capture_bench.sh OUT_DIR [REPEATS]}
repeats=${2:-5}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=./build/headless/app/warpscope-cli
# Load every kernel when CUDA starts, not at its first launch (lazy loading would put the
# module load into the counting pass's time).
export CUDA_MODULE_LOADING=EAGER
jsonl="$out/capture-bench.jsonl"
: > "$jsonl"
# WS_CAPTURE_ONLY: a regex; only the cases whose label matches it run (the rest of a list a call
# ran out of time for).
run() {  # LABEL ARGS...
  local label=$1
  shift
  [[ -n "${WS_CAPTURE_ONLY:-}" && ! "$label" =~ $WS_CAPTURE_ONLY ]] && return 0
  for i in $(seq "$repeats"); do
    local t0 t1
    t0=$(date +%s.%N)
    $cli run "$@" --backend cuda --json > "$out/one.json" 2> "$out/one.err" || {
      echo "$label failed: $(cat "$out/one.err")" >> "$out/capture-bench.txt"
      continue
    }
    t1=$(date +%s.%N)
    python3 - "$label" "$t0" "$t1" "$out/one.json" >> "$jsonl" <<'PY'
import json, sys
label, t0, t1, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
j = json.load(open(path))
bytes_moved = sum(s["bytes"] for s in j["sites"] if s["space"] == "global")
print(json.dumps({"label": label, "wall_s": t1 - t0, "timing": j["timing"],
                  "global_bytes": bytes_moved, "threads": j["launch"]["threads"],
                  "truncated": j["truncated"]}))
PY
  done
}
if [[ "${3:-}" == defaults ]]; then
  # Issue 51's "lessons' GPU pass" as a lesson runs it: each lesson at its own default sizes (a
  # lesson's grid is small by default: the copies 64 blocks of 256 threads, the transposes 256²).
  while read -r lesson variant; do
    run "$lesson $variant (defaults)" "$lesson" --variant "$variant"
  done <<'LESSONS'
offset-copy copy
stride-copy copy
bank-stride stride
transpose naive
transpose coalesced
transpose padded
swizzle as-written
vecadd chunked
picture picture
races block-transpose-fixed
divergence by-thread
constant broadcast
atomics histogram
reverse static
matmul naive
matmul tiled
matmul tiled-2x2
texture-2d global
local-memory registers
reduce divergent
reduce strided
reduce sequential
reduce shuffle
LESSONS
else
run "stride-copy s1 2^24" stride-copy --set stride=1 --set threads=1024 --set blocks=16384
run "stride-copy s2 2^23" stride-copy --set stride=2 --set threads=1024 --set blocks=8192
run "stride-copy s32 2^20" stride-copy --set stride=32 --set threads=1024 --set blocks=1024
run "offset-copy o1 2^24" offset-copy --set offset=1 --set threads=1024 --set blocks=16384
run "transpose coalesced 4096" transpose --variant coalesced --set width=4096 --set height=4096
# Issue 51's three transposes: the naive one (uncoalesced stores) and the padded tile too.
run "transpose naive 4096" transpose --variant naive --set width=4096 --set height=4096
run "transpose padded 4096" transpose --variant padded --set width=4096 --set height=4096
fi
rm -f "$out/one.json" "$out/one.err"
python3 - "$jsonl" > "$out/capture-bench.txt" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
labels = list(dict.fromkeys(r["label"] for r in rows))
print("median of %s runs each; plain = uninstrumented build (CUDA events, median of 7)" %
      ", ".join(str(sum(1 for r in rows if r["label"] == l)) for l in labels))
print("%-26s %9s %9s %9s %8s %8s %10s %9s %9s %8s %9s %8s %5s" % ("case", "plain ms", "record ms",
      "count ms", "rec/plain", "(c+r)/p", "Mrecords/s", "rec GB/s", "copy GB/s", "wall s",
      "hazard ms", "(h+r)/p", "warm"))
for l in labels:
    rs = [r for r in rows if r["label"] == l]
    med = lambda f: statistics.median(f(r) for r in rs)
    rec = med(lambda r: r["timing"]["capture"]["record_ms"])
    cnt = med(lambda r: r["timing"]["capture"]["count_ms"])
    # The uninstrumented build at the run's own size (the timing itself may be at a larger one).
    own = lambda r: r["timing"]["capture"].get("plain_ms", r["timing"]["ms"])
    plain = med(own)
    ratio = med(lambda r: r["timing"]["capture"]["record_ms"] / own(r))
    both = med(lambda r: (r["timing"]["capture"]["record_ms"] + r["timing"]["capture"]["count_ms"]) / own(r))
    rps = med(lambda r: r["timing"]["capture"]["records"] / (r["timing"]["capture"]["record_ms"] / 1e3))
    rgbs = med(lambda r: r["timing"]["capture"]["record_bytes"] / (r["timing"]["capture"]["record_ms"] / 1e3) / 1e9)
    cgbs = med(lambda r: r["global_bytes"] / (own(r) / 1e3) / 1e9)
    wall = med(lambda r: r["wall_s"])
    # The hazard check's passes, on the device before the recording pass (0 where not run).
    haz = med(lambda r: r["timing"]["capture"].get("hazard_ms", 0.0))
    whole = med(lambda r: (r["timing"]["capture"]["record_ms"] + r["timing"]["capture"].get("hazard_ms", 0.0)) / own(r))
    # How many of the runs timed the recording pass's second run, warm (capture.record_warm).
    warm = "%d/%d" % (sum(1 for r in rs if r["timing"]["capture"].get("record_warm")), len(rs))
    print("%-26s %9.4f %9.4f %9.4f %8.2fx %7.2fx %10.0f %9.1f %9.1f %8.2f %9.4f %7.2fx %5s" % (l, plain,
          rec, cnt, ratio, both, rps / 1e6, rgbs, cgbs, wall, haz, whole, warm))
PY
cat "$out/capture-bench.txt"
