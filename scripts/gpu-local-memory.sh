#!/usr/bin/env bash
# Issue 19 item 5 on a GPU, after scripts/gpu-build.sh has built build/headless:
#   resources  every lesson's registers and local memory from cudaFuncGetAttributes (run --json)
#              beside the emulator's ptxas table;
#   local      the local-memory lesson's three variants, timed, and under Nsight Compute: local
#              load/store requests and sectors (the emulator's model says 4 or 32 sectors a load).
# Usage: scripts/gpu-local-memory.sh OUT_DIR. Writes OUT_DIR/lm/.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-local-memory.sh OUT_DIR}
dir="$out/lm"
mkdir -p "$dir"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=./build/headless/app/warpscope-cli
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$ncu" --query-metrics > "$dir/query-metrics.txt" 2>&1
wanted=(
  l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_local_op_st.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
  smsp__inst_executed_op_local_ld.sum smsp__inst_executed_op_local_st.sum
  sm__warps_active.avg.pct_of_peak_sustained_active gpu__time_duration.sum
)
metrics=""
for m in "${wanted[@]}"; do
  base=${m%.sum}; base=${base%.pct}; base=${base%.avg.pct_of_peak_sustained_active}
  if grep -q "^$base " "$dir/query-metrics.txt"; then metrics+="${metrics:+,}$m"; else
    echo "not available: $m" >> "$dir/skipped-metrics.txt"; fi
done
echo "$metrics" > "$dir/metrics.txt"

for case in "registers 1" "spilled 1" "indexed 0" "indexed 1"; do
  set -- $case
  for blocks in 8 4096; do
    name="lm--$1--stride$2--$blocks"
    sets="--set stride=$2 --set blocks=$blocks --set threads=256"
    $cli run local-memory --variant $1 $sets --backend cuda --json > "$dir/$name.gpu.json" 2> "$dir/$name.gpu.err"
    $cli run local-memory --variant $1 $sets --backend emu --json > "$dir/$name.emu.json" 2> "$dir/$name.emu.err"
    timeout 200 "$ncu" --clock-control none --metrics "$metrics" --csv --log-file "$dir/$name.ncu.csv" \
      $cli run local-memory --variant $1 $sets --backend cuda --uninstrumented --timed-runs 1 \
      > /dev/null 2> "$dir/$name.ncu.err" || echo "$name: ncu rc=$?" >> "$dir/errors.txt"
  done
done

# Every lesson's default run on the GPU: the compiler's figures as the GPU reports them.
for l in $($cli lessons --json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(x["id"] for x in json.load(sys.stdin)))' 2>/dev/null); do
  $cli run "$l" --backend cuda --json > "$dir/res--$l.json" 2> "$dir/res--$l.err" || true
done
python3 - "$dir" > "$dir/resources.txt" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/res--*.json")):
    try:
        j = json.load(open(f))
    except Exception as e:
        print(f, "unreadable", e); continue
    r = j.get("resources")
    print("%-14s %-26s %s" % (j.get("lesson"), j.get("kernel"), json.dumps(r)))
PY
tar czf "$out/lm.tgz" -C "$out" lm
