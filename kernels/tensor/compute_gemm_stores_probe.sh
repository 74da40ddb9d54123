#!/usr/bin/env bash
# Usage: compute_gemm_stores_probe.sh OUT DIR. DIR holds cuda-samples c94ff366's
# Samples/3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu as tc.cu, the same with M_TILES,
# N_TILES and K_TILES 16 as tc256.cu, and Common/ (BSD-3, not kept here). Run on an H200 on
# 2026-12-04: compute_gemm_stores_h200.txt. Part 1: each STS's source counters at 256^3, three runs.
# Part 2: at 4096^3, the per-instruction (smsp__sass_) count against the L1TEX pipe's, two runs.
O="$1"; D="$2"; mkdir -p "$O"; cd "$D" || exit 1
nvcc -O3 -arch=sm_90 -lineinfo -I Common tc.cu -o tc > "$O/nvcc.txt" 2>&1 || { cat "$O/nvcc.txt"; exit 1; }
nvcc -O3 -arch=sm_90 -lineinfo -I Common tc256.cu -o tc256 >> "$O/nvcc.txt" 2>&1 || { cat "$O/nvcc.txt"; exit 1; }
for v in tc256:1 tc256:2 tc256:3 tc:1; do b=${v%%:*}; r=${v##*:}
  timeout 150 ncu --clock-control none -k regex:compute_gemm --launch-count 1 --section SourceCounters --import-source yes -o "$O/${b}_$r" ./$b > "$O/${b}_$r.log" 2>&1
  timeout 60 ncu --import "$O/${b}_$r.ncu-rep" --page source --csv --print-source sass > "$O/${b}_$r.csv" 2>&1
  awk -F'","' '/STS|LDG|LDS|LDSM/{print $2" | exec "$6" wf "$19" ideal "$20" conflicts "$17}' "$O/${b}_$r.csv" | sed 's/"//g' > "$O/${b}_$r.txt"
  rm -f "$O/${b}_$r.ncu-rep" "$O/${b}_$r.csv"
done
tail -3 "$O/tc_1.log"; for f in "$O"/*.txt; do echo "== $f"; grep -E "STS" "$f"; done
nvcc -O3 -arch=sm_90 -lineinfo -I Common tc.cu -o tc > "$O/nvcc.txt" 2>&1 || { cat "$O/nvcc.txt"; exit 1; }
for r in 1 2; do
timeout 200 ncu --clock-control none -k regex:compute_gemm --launch-count 1 --section SourceCounters --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_st.sum --import-source yes -o "$O/tc_$r" ./tc > "$O/tc_$r.log" 2>&1
ncu --import "$O/tc_$r.ncu-rep" --page details --csv > "$O/tc_${r}_details.csv" 2>&1
grep -E "shared_op_st|op_shared_st" "$O/tc_${r}_details.csv" | awk -F'","' '{print $(NF-2)" "$NF}' | sed 's/"//g'
ncu --import "$O/tc_$r.ncu-rep" --page source --csv --print-source sass > "$O/tc_$r.csv" 2>&1
awk -F'","' '/STS/{gsub(/"/,""); e+=$6; w+=$19; i+=$20; n++}END{print "STS instructions",n,"executions",e,"wavefronts",w,"ideal",i}' "$O/tc_$r.csv"
awk -F'","' '/STS/{print $2" | exec "$6" wf "$19" ideal "$20}' "$O/tc_$r.csv" | sed 's/"//g' | sort | uniq -c | sort -rn | head -4
rm -f "$O"/*.ncu-rep "$O/tc_$r.csv"
done
