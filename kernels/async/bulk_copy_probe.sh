#!/usr/bin/env bash
# Usage: bulk_copy_probe.sh OUT. Builds bulk_copy_probe.cu for sm_90, checks that every copy is a
# bulk copy in the SASS (UBLKCP), and takes Nsight Compute's counts for each kernel (two runs).
O="$1"; mkdir -p "$O"; cd "$(dirname "$0")" || exit 1
nvidia-smi -L > "$O/gpu.txt"; nvcc --version | tail -1 >> "$O/gpu.txt"; ncu --version | tail -1 >> "$O/gpu.txt"
nvcc -O3 -arch=sm_90 bulk_copy_probe.cu -o /tmp/bcp > "$O/nvcc.txt" 2>&1 || { cat "$O/nvcc.txt"; exit 1; }
/tmp/bcp > "$O/run.txt" 2>&1; cat "$O/run.txt"
cuobjdump -sass /tmp/bcp | grep -E "Function|UBLKCP|LDGSTS|SYNCS" > "$O/sass.txt"
M=l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_xbar2l1tex_read_bytes.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed_op_ldgsts.sum
for r in 1 2; do ncu --clock-control none --metrics $M --csv /tmp/bcp > "$O/ncu_r$r.csv" 2>&1; done
grep -E '^"' "$O/ncu_r1.csv" | awk -F'","' 'NR>1{print $5" | "$(NF-2)" "$NF}' | sed 's/"//g; s/(.*) |/|/'
cat "$O/sass.txt" | head -60
