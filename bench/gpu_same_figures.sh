#!/usr/bin/env bash
# Whether two ways of recording give the same figures: each lesson case at size runs through the
# CLI on the GPU once with the environment A and once with B, and the two JSON reports are compared
# with every time left out (the "timing" object, and any key that ends in _ms, _ns or _s; a wait
# need only be zero in both or in neither and within 2x). Prints "same" or the first differences
# a case, and how many requests the direct road counted in each (capture.direct_requests: a "same"
# with 0 in both says nothing of the road). Run on the GPU machine after scripts/gpu-build.sh built
# build/headless.
# Usage: bench/gpu_same_figures.sh OUT_FILE "A" "B"
#   e.g. bench/gpu_same_figures.sh out.txt "WS_GPU_DIRECT=1" "WS_GPU_DIRECT=0"
#        bench/gpu_same_figures.sh out.txt "WS_GPU_LEAN=96" "WS_GPU_LEAN=0"
# WS_SAME_ONLY: a regex; only the cases whose label matches it run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_same_figures.sh OUT_FILE A B}
a=${2:?usage: gpu_same_figures.sh OUT_FILE A B}
b=${3:?usage: gpu_same_figures.sh OUT_FILE A B}
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
cli=${WS_CLI:-./build/headless/app/warpscope-cli}  # WS_CLI: another (a test of this script)
tmp=$(mktemp -d)
echo "A: $a; B: $b" >> "$out"
while read -r label args; do
  [[ -z $label ]] && continue
  [[ -n "${WS_SAME_ONLY:-}" && ! "$label" =~ $WS_SAME_ONLY ]] && continue
  ok=1
  for way in a b; do
    env_words=$a
    [[ $way == b ]] && env_words=$b
    # shellcheck disable=SC2086
    env $env_words timeout 120 $cli run $args --backend cuda --json < /dev/null \
      > "$tmp/$way.json" 2> "$tmp/$way.err" || { echo "$label ($way) failed: $(head -c 300 "$tmp/$way.err")" >> "$out"; ok=0; }
  done
  [[ $ok == 1 ]] || continue
  python3 - "$tmp/a.json" "$tmp/b.json" "$label" >> "$out" <<'PY'
import json, sys

def timed(key):
    k = key.lower()
    return k == "timing" or k.endswith(("_ms", "_ns", "_s"))

def wait(key):
    return "wait" in key.lower()

def walk(x, y, path, out):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if timed(k):
                continue
            u, v = x.get(k), y.get(k)
            if wait(k) and isinstance(u, (int, float)) and isinstance(v, (int, float)):
                # A wait is a time: only both zero or both not, and within 2x of each other.
                if (u == 0) != (v == 0) or (u and v and max(u, v) > 2 * min(u, v)):
                    out.append("%s.%s: %s against %s (a wait)" % (path, k, u, v))
                continue
            walk(u, v, path + "." + k, out)
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            out.append("%s: %d items against %d" % (path, len(x), len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, "%s[%d]" % (path, i), out)
    elif x != y:
        out.append("%s: %s against %s" % (path, str(x)[:60], str(y)[:60]))

diffs = []
x, y = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
walk(x, y, "", diffs)
road = lambda j: j.get("timing", {}).get("capture", {}).get("direct_requests", 0)
print("%-28s %s (direct road: A %d, B %d requests)" % (
    sys.argv[3], "same" if not diffs else "%d differences" % len(diffs), road(x), road(y)))
for d in diffs[:10]:
    print("    " + d)
PY
done <<'CASES'
transpose-padded-4096 transpose --variant padded --set width=4096 --set height=4096
transpose-coalesced-4096 transpose --variant coalesced --set width=4096 --set height=4096
transpose-naive-4096 transpose --variant naive --set width=4096 --set height=4096
matmul-tiled-16-1024 matmul --variant tiled --set width=1024 --set tile=16
matmul-tiled-32-1024 matmul --variant tiled --set width=1024 --set tile=32
matmul-naive-1024 matmul --variant naive --set width=1024
matmul-2x2-16-1024 matmul --variant tiled-2x2 --set width=1024 --set tile=16
reduce-strided-256x65535 reduce --variant strided --set block=3 --set blocks=65535
reduce-shuffle-256x65535 reduce --variant shuffle --set block=3 --set blocks=65535
bank-stride-4096 bank-stride --variant stride --set blocks=4096
swizzle-as-written-4096 swizzle --variant as-written --set size=4096
CASES
rm -rf "$tmp"
cat "$out"
