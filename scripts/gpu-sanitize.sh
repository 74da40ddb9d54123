#!/usr/bin/env bash
# compute-sanitizer memcheck, racecheck and synccheck over every lesson's kernels on the GPU
# (run after scripts/gpu-check.sh has built build/headless). Usage: scripts/gpu-sanitize.sh OUT
# The divergent-barrier variant is skipped: it is refused before launch by design (a barrier
# that not every thread of a block reaches), so there is no kernel to check.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-sanitize.sh OUT_DIR}
mkdir -p "$out/sanitize"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=./build/headless/app/warpscope-cli
summary="$out/sanitize/summary.txt"
: > "$summary"
for lesson in $($cli lessons --json | python3 -c 'import json,sys; [print(l["id"]) for l in json.load(sys.stdin) if l["id"] != "occupancy"]'); do
  for v in $($cli lessons --json | python3 -c "import json,sys; [print(v['name']) for l in json.load(sys.stdin) if l['id']=='$lesson' for v in l['variants']]"); do
    [ "$v" = divergent-barrier ] && continue
    for tool in memcheck racecheck synccheck; do
      log="$out/sanitize/$lesson-$v-$tool.log"
      timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        $cli run "$lesson" --variant "$v" --backend cuda > "$log" 2>&1
      rc=$?
      echo "$lesson $v $tool rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)" >> "$summary"
    done
  done
done
cat "$summary"
tar czf "$out/sanitize-logs.tgz" -C "$out/sanitize" . && find "$out/sanitize" -name '*.log' -delete
