#!/usr/bin/env bash
# examples/wmma_tile.cu on the GPU machine, as written (nvcc and ncu only, seconds): builds it with
# kSkew = 0, 8 and 16, runs it, and counts its shared and global traffic with Nsight Compute and its
# memory instructions in the SASS. Writes $OUT/wmma.txt (kept as kernels/tensor/wmma_tile_h200.txt).
# Usage (device tool): OUT=DIR scripts/gpu-wmma-example.sh
set -u
cd "$(dirname "$0")/.." || exit 1
out=${OUT:?set OUT to a folder}
mkdir -p "$out"
nvidia-smi -L > $out/gpu.txt; nvcc --version | tail -1 >> $out/gpu.txt; ncu --version | tail -1 >> $out/gpu.txt
m=smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
for op in ld st; do m+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum; done
m+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
for s in 0 8 16; do
  sed "s/^constexpr int kSkew = 0;/constexpr int kSkew = $s;/" examples/wmma_tile.cu > /tmp/w$s.cu
  grep -n '^constexpr int kSkew' /tmp/w$s.cu >> $out/wmma.txt
  nvcc -std=c++17 -O3 -arch=sm_90 -o /tmp/w$s /tmp/w$s.cu >> $out/wmma.txt 2>&1
  echo "skew $s output: $(/tmp/w$s)" >> $out/wmma.txt
  ncu --print-units base --csv --metrics $m /tmp/w$s 2>/dev/null | grep '^"' | python3 -c '
import csv,sys
rows=list(csv.reader(sys.stdin)); h=rows[0]; n=h.index("Metric Name"); v=h.index("Metric Value")
for r in rows[1:]: print("  ", r[n], r[v])' >> $out/wmma.txt
  cuobjdump -sass /tmp/w$s | grep -E 'LDSM|STS|LDS|HMMA|STG' | sed 's/^ *//' | awk '{$1="";print}' | sort | uniq -c >> $out/wmma.txt
done
cat $out/wmma.txt
