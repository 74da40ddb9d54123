#!/usr/bin/env bash
# Runs every lesson's kernels under Nsight Compute on the GPU machine and keeps what Warpscope
# recorded of the same runs, for scripts/ncu_compare.py (which writes docs/ncu-agreement.md).
# Run after scripts/gpu-check.sh has built build/headless. Usage: scripts/gpu-ncu.sh OUT_DIR
#
# ncu profiles the uninstrumented build only (`--uninstrumented`: no recording pass whose own
# stores would be counted), one warm-up and one timed launch per kernel; Warpscope's figures
# come from a normal capture of the same lesson, variant and parameters.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-ncu.sh OUT_DIR}
dir="$out/ncu"
mkdir -p "$dir"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=./build/headless/app/warpscope-cli
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "no ncu on this machine" | tee "$dir/errors.txt"; exit 1; }
"$ncu" --version > "$dir/ncu-version.txt" 2>&1
wanted=(
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
  smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum
  smsp__sass_inst_executed_op_global_atom.sum smsp__sass_inst_executed_op_global_red.sum
  l1tex__t_sectors_pipe_tex_mem_texture.sum l1tex__t_requests_pipe_tex_mem_texture.sum
  smsp__sass_inst_executed_op_ldc.sum
)
# Keep the metrics this ncu knows on this GPU (an unknown name fails the whole run).
"$ncu" --query-metrics > "$dir/query-metrics.txt" 2>&1
metrics=""
for m in "${wanted[@]}"; do
  base=${m%.sum}
  if grep -q "^$base " "$dir/query-metrics.txt"; then
    metrics+="${metrics:+,}$m"
  else
    echo "not available: $m" >> "$dir/skipped-metrics.txt"
  fi
done
echo "$metrics" > "$dir/metrics.txt"
# LESSONS="swizzle matmul": only those (and no per-source-line pass unless SOURCE_SPECS is set).
lessons=${LESSONS:-$($cli lessons --json | python3 -c 'import json,sys; [print(l["id"]) for l in json.load(sys.stdin) if l["id"] != "occupancy"]')}
for lesson in $lessons; do
  for v in $($cli lessons --json | python3 -c "import json,sys; [print(v['name']) for l in json.load(sys.stdin) if l['id']=='$lesson' for v in l['variants']]"); do
    [ "$v" = divergent-barrier ] && continue
    name="$lesson--$v"
    $cli run "$lesson" --variant "$v" --backend cuda --json > "$dir/$name.ws.json" 2> "$dir/$name.ws.err"
    timeout 240 "$ncu" --clock-control none --metrics "$metrics" --csv --log-file "$dir/$name.ncu.csv" \
      $cli run "$lesson" --variant "$v" --backend cuda --uninstrumented --timed-runs 1 \
      > /dev/null 2> "$dir/$name.ncu.err" || echo "$name: ncu rc=$?" >> "$dir/errors.txt"
  done
done
# Per source line, for the lessons with several sites of one kind (ncu's source page).
default_specs=("matmul tiled" "matmul naive" "vecadd chunked" "transpose coalesced" "texture-2d global"
  "divergence by-thread")
if [ -n "${SOURCE_SPECS+x}" ]; then IFS=';' read -r -a specs <<< "$SOURCE_SPECS"
elif [ -n "${LESSONS:-}" ]; then specs=()
else specs=("${default_specs[@]}"); fi
for spec in "${specs[@]}"; do
  set -- $spec
  name="$1--$2"
  timeout 240 "$ncu" --clock-control none --section SourceCounters --import-source yes \
    -o "$dir/$name" -f $cli run "$1" --variant "$2" --backend cuda --uninstrumented --timed-runs 1 \
    > /dev/null 2> "$dir/$name.src.err" &&
    "$ncu" -i "$dir/$name.ncu-rep" --page source --csv --print-source cuda \
      > "$dir/$name.source.csv" 2>> "$dir/$name.src.err" &&
    "$ncu" -i "$dir/$name.ncu-rep" --page source --csv --print-source sass \
      > "$dir/$name.sass.csv" 2>> "$dir/$name.src.err"
  rm -f "$dir/$name.ncu-rep"
done
tar czf "$out/ncu.tgz" -C "$out" ncu && rm -rf "$dir"
echo "ncu done"
