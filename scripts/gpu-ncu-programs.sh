#!/usr/bin/env bash
# The example programs, unmodified, compiled by nvcc and profiled by Nsight Compute on the GPU
# machine: per kernel, the global requests and sectors and the shared wavefronts the hardware
# counted, to hold against the emulator's figures for the same programs (scripts/ncu_programs.py
# writes the table in docs/PROGRAMS.md). Usage: scripts/gpu-ncu-programs.sh OUT_DIR [ARCH]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-ncu-programs.sh OUT_DIR [ARCH]}
arch=${2:-90}
dir="$out/ncu-programs"
mkdir -p "$dir"
work=$(mktemp -d)  # sources and binaries; only the counters go to OUT_DIR
trap 'rm -rf "$work"' EXIT
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "no ncu on this machine" | tee "$dir/errors.txt"; exit 1; }
"$ncu" --version > "$dir/ncu-version.txt" 2>&1
nvidia-smi -L > "$dir/gpu.txt" 2>&1
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
# name|file|defines|args: the sizes the emulator's side uses too (scripts/ncu_programs.py).
cases=(
  "transpose|transpose.cu|-DTILE_DIM=32 -DN=256|"
  "vecadd|vecadd.cu||4"
  "matmul|matmul.cu||"
  "picture|picture.cu||"
  "shuffle_reduce|shuffle_reduce.cu||"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name file defines args <<< "$c"
  # The programs' own #defines win over -D: patch the values in place, as Warpscope does.
  src="$work/$file"
  cp "examples/$file" "$src"
  for d in $defines; do
    kv=${d#-D}; k=${kv%%=*}; v=${kv#*=}
    sed -i -E "s/^#define $k [0-9]+/#define $k $v/" "$src"
  done
  nvcc -std=c++17 -O3 -lineinfo -arch=sm_$arch -o "$work/$name" "$src" > "$dir/$name.nvcc.txt" 2>&1 ||
    { echo "$name: nvcc failed" >> "$dir/errors.txt"; continue; }
  "$work/$name" $args > "$dir/$name.stdout" 2>&1
  timeout 240 "$ncu" --clock-control none --metrics "$metrics" --csv --log-file "$dir/$name.ncu.csv" \
    "$work/$name" $args > /dev/null 2> "$dir/$name.ncu.err" || echo "$name: ncu rc=$?" >> "$dir/errors.txt"
done
ls "$dir"
