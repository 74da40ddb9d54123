#!/usr/bin/env bash
# Issue 19's GPU measurements, after scripts/gpu-build.sh has built build/headless:
#   texture  the texture-2d patterns through global memory and through a CUDA texture, under
#            Nsight Compute (L1/TEX requests, sectors, hit rates, L2 sectors), and Warpscope's
#            own GPU capture of each (whose kept blocks the cache model replays);
#   constant broadcast against serialized reads of real __constant__ memory, timed, with the
#            SASS instruction that reads it;
#   zero     zero copy against copies (transfers/zero-copy) at passes 1, 2, 4, and the capture
#            the app ships for machines without a GPU.
# Usage: scripts/gpu-texture-constant.sh OUT_DIR. Writes OUT_DIR/tc/ (and a .tgz of it).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-texture-constant.sh OUT_DIR}
dir="$out/tc"
mkdir -p "$dir"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=./build/headless/app/warpscope-cli
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$ncu" --version > "$dir/ncu-version.txt" 2>&1
"$ncu" --query-metrics > "$dir/query-metrics.txt" 2>&1
wanted=(
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  l1tex__t_requests_pipe_tex_mem_texture.sum l1tex__t_sectors_pipe_tex_mem_texture.sum
  l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum
  l1tex__t_sector_hit_rate.pct lts__t_sectors_srcunit_tex_op_read.sum dram__sectors_read.sum
  smsp__sass_inst_executed_op_ldc.sum smsp__sass_inst_executed_op_global_ld.sum
  smsp__sass_inst_executed_op_texture.sum gpu__time_duration.sum
)
metrics=""
for m in "${wanted[@]}"; do
  base=${m%.sum}; base=${base%.pct}
  if grep -q "^$base " "$dir/query-metrics.txt"; then metrics+="${metrics:+,}$m"; else
    echo "not available: $m" >> "$dir/skipped-metrics.txt"; fi
done
echo "$metrics" > "$dir/metrics.txt"

# texture: 3 patterns x 2 sizes x 2 paths.
for size in "64 128" "1024 1024"; do
  set -- $size
  for pattern in blur rotate row-sums; do
    for v in global texture; do
      name="tex--$pattern--$v--$1x$2"
      sets="--set pattern=$pattern --set width=$1 --set height=$2"
      [ $v = texture ] && sets="$sets --set layout=morton"
      $cli run texture-2d --variant $v $sets --backend cuda --json > "$dir/$name.ws.json" 2> "$dir/$name.ws.err"
      timeout 200 "$ncu" --clock-control none --metrics "$metrics" --csv --log-file "$dir/$name.ncu.csv" \
        $cli run texture-2d --variant $v $sets --backend cuda --uninstrumented --timed-runs 1 \
        > /dev/null 2> "$dir/$name.ncu.err" || echo "$name: ncu rc=$?" >> "$dir/errors.txt"
    done
  done
done

# constant: timings (median of 7 by the CLI) at two grid sizes, ncu's LDC count, the SASS.
for blocks in 1024 65535; do
  for v in broadcast serialized; do
    $cli run constant --variant $v --set blocks=$blocks --set threads=256 --backend cuda --json \
      > "$dir/constant--$v--$blocks.ws.json" 2> "$dir/constant--$v--$blocks.ws.err"
  done
done
for v in broadcast serialized; do
  timeout 200 "$ncu" --clock-control none --metrics "$metrics" --csv --log-file "$dir/constant--$v.ncu.csv" \
    $cli run constant --variant $v --set blocks=65535 --set threads=256 --backend cuda --uninstrumented \
    --timed-runs 1 > /dev/null 2> "$dir/constant--$v.ncu.err" || echo "constant $v: ncu rc=$?" >> "$dir/errors.txt"
done
cuobjdump -sass "$cli" 2>/dev/null | awk '/Function : .*constant(Broadcast|Serialized)/{p=1} /Function : /&&!/constant(Broadcast|Serialized)/{p=0} p' \
  > "$dir/constant.sass.txt"

# zero copy: passes 1, 2, 4 at the default size, and the shipped capture (passes 1).
for passes in 1 2 4; do
  $cli run transfers --variant zero-copy --set passes=$passes --backend cuda --json \
    > "$dir/zero-copy--$passes.ws.json" 2> "$dir/zero-copy--$passes.ws.err"
done
$cli capture transfers --variant zero-copy --backend cuda -o "$dir/transfers-zero-copy.wstrace" \
  > "$dir/capture.txt" 2>&1
nvidia-smi -q | grep -iE "Product Name|Link Width|Link Gen|PCIe Generation" -A2 > "$dir/link.txt" 2>&1
tar czf "$out/tc.tgz" -C "$out" tc
echo "texture/constant/zero-copy done"
