#!/usr/bin/env bash
# Usage: g2s_ncu_probe.sh OUT SAMPLE_DIR. SAMPLE_DIR holds cuda-samples c94ff366's
# Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu as g2s.cu and its Common/
# (BSD-3, not kept here). Run on an H200 on 2026-12-04 (thirtieth session): g2s_ncu_h200.txt.
O="$1"; S="$2"; mkdir -p "$O"; cd "$S" || exit 1
set -x
nvidia-smi -L > "$O/gpu.txt"; nvcc --version >> "$O/gpu.txt"; ncu --version >> "$O/gpu.txt"
nvcc -O3 -arch=sm_90 -lineinfo -I Common g2s.cu -o g2s 2> "$O/nvcc.txt" || exit 1
cuobjdump -sass g2s > "$O/sass.txt"
cuobjdump -xelf all g2s >/dev/null 2>&1; ls *.cubin > "$O/cubins.txt" 2>&1
for c in *.cubin; do (nvdisasm -g -c "$c" > "$O/lines_$c.txt" 2>&1 || echo "no nvdisasm" > "$O/lines_$c.txt"); done
ncu --query-metrics --chip gh100 2>/dev/null | grep -i -E "tma|ldgsts|bulk" > "$O/tma_metrics.txt"
M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,smsp__inst_executed_op_ldgsts.sum,smsp__inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum
for K in 0 1 2; do for r in 1 2 3; do
  timeout 60 ncu --clock-control none -k regex:MatrixMul --launch-count 1 --metrics $M --csv ./g2s -kernel=$K -wA=64 -hA=64 -wB=64 -hB=64 > "$O/k${K}_r$r.csv" 2>&1
done; done
for K in 0 1; do
  timeout 60 ncu --clock-control none --cache-control none -k regex:MatrixMul --launch-count 1 --metrics $M --csv ./g2s -kernel=$K -wA=64 -hA=64 -wB=64 -hB=64 > "$O/k${K}_nocc.csv" 2>&1
  timeout 90 ncu --clock-control none -k regex:MatrixMul --launch-count 1 --section SourceCounters --import-source yes -o "$O/src_k$K" ./g2s -kernel=$K -wA=64 -hA=64 -wB=64 -hB=64 > "$O/src_k${K}.log" 2>&1
  timeout 60 ncu --import "$O/src_k$K.ncu-rep" --page source --csv --print-source sass > "$O/src_k${K}_sass.csv" 2>&1
done
timeout 60 ncu --clock-control none -k regex:MatrixMul --launch-count 1 --metrics $M --csv ./g2s -kernel=0 -wA=128 -hA=128 -wB=128 -hB=128 > "$O/k0_128.csv" 2>&1
for K in 3 4 5 6 7; do timeout 60 ncu --clock-control none -k regex:MatrixMul --launch-count 1 --metrics $M --csv ./g2s -kernel=$K -wA=64 -hA=64 -wB=64 -hB=64 > "$O/k${K}_r1.csv" 2>&1; done
ls -la "$O"
