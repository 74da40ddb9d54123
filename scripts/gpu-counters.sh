#!/usr/bin/env bash
# The GPU's own counters on the GPU backend against Nsight Compute's, on one machine in one call:
# cuda-samples' globalToShmemAsyncCopy (c94ff366) at 64 x 64, each of its eight kernels, through
# `warpscope-cli run --backend cuda --json` (its kernels' gpu_counters: CUPTI's range profiler in
# the run as written, kernel_counters.cpp), and the same source built by nvcc as written under
# Nsight Compute (the first launch of the kernel, the same metrics). A table of both, and each
# kernel's recorded figure, in OUT/compare.txt.
# Usage (device tool, after scripts/gpu-build.sh or gpu_batch.sh's build, with .deps carried and
# the sample under SAMPLES: Samples/3_CUDA_Features/globalToShmemAsyncCopy/ and Common/):
#   SAMPLES=DIR [KERNELS="0 1"] [WS_COUNTER_TCG=0] scripts/gpu-counters.sh OUT   (KERNELS: which
#   of the eight, default all; cudaTensorCoreGemm at 256^3 too where its file is under SAMPLES)
set -u
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu-counters.sh OUT}
samples=${SAMPLES:?set SAMPLES}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
cli=build/headless/app/warpscope-cli
g2s=$samples/Samples/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu
args=(-wA=64 -hA=64 -wB=64 -hB=64)
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
{ nvidia-smi -L; nvcc --version | tail -1; ncu --version | tail -1; } > "$out/machine.txt" 2>&1
nvcc -O3 -arch=sm_90 -I "$samples/Common" -o "$out/g2s" "$g2s" > "$out/nvcc.txt" 2>&1
for k in ${KERNELS:-0 1 2 3 4 5 6 7}; do
  t0=$SECONDS
  cli_args=()
  for a in "${args[@]}" "-kernel=$k"; do cli_args+=("--arg=$a"); done
  timeout 90 "$cli" run --backend cuda --json --timeout 80 --file "$g2s" -I "$samples/Common" \
    "${cli_args[@]}" > "$out/k$k.json" 2> "$out/k$k.err"
  echo "k$k cli: exit $? in $((SECONDS - t0)) s" >> "$out/times.txt"
  t0=$SECONDS
  timeout 60 ncu --clock-control none -k regex:MatrixMul --launch-count 1 --metrics "$metrics" \
    --csv "$out/g2s" "${args[@]}" "-kernel=$k" > "$out/k$k.ncu.csv" 2>&1
  echo "k$k ncu: exit $? in $((SECONDS - t0)) s" >> "$out/times.txt"
done
rm -f "$out/g2s"
# cudaTensorCoreGemm (c94ff366) at 256^3 with its own check (its sizes are #defines: a copy with
# them changed, CPU_DEBUG on), where the sample is there and WS_COUNTER_TCG is not 0: its
# compute_gemm's first launch on the GPU backend and under Nsight Compute, as "kernel 8".
tcg=$samples/Samples/3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu
if [[ -f "$tcg" && "${WS_COUNTER_TCG:-1}" != 0 ]]; then
  sed -e 's/^#define M_TILES 256/#define M_TILES 16/' -e 's/^#define N_TILES 256/#define N_TILES 16/' \
    -e 's/^#define K_TILES 256/#define K_TILES 16/' -e 's/^#define CPU_DEBUG 0/#define CPU_DEBUG 1/' \
    "$tcg" > "$out/tcg256.cu"
  t0=$SECONDS
  timeout 150 "$cli" run --backend cuda --json --timeout 140 --file "$out/tcg256.cu" \
    -I "$samples/Common" > "$out/k8.json" 2> "$out/k8.err"
  echo "k8 (cudaTensorCoreGemm 256^3) cli: exit $? in $((SECONDS - t0)) s" >> "$out/times.txt"
  t0=$SECONDS
  nvcc -O3 -arch=sm_90 -I "$samples/Common" -o "$out/tcg256" "$out/tcg256.cu" >> "$out/nvcc.txt" 2>&1
  timeout 60 ncu --clock-control none -k compute_gemm --launch-count 1 --metrics "$metrics" \
    --csv "$out/tcg256" > "$out/k8.ncu.csv" 2>&1
  echo "k8 ncu: exit $? in $((SECONDS - t0)) s" >> "$out/times.txt"
  rm -f "$out/tcg256"
fi
python3 - "$out" > "$out/compare.txt" <<'EOF'
import csv, json, sys
out = sys.argv[1]
import os
for k in range(9):
    if not os.path.exists(f"{out}/k{k}.json"):
        continue
    print(f"== kernel {k}" if k < 8 else "== cudaTensorCoreGemm 256^3 (compute_gemm)")
    try:
        j = json.load(open(f"{out}/k{k}.json"))
    except Exception as e:
        print(f"  no JSON: {e}")
        continue
    if k == 8:  # its own check: a line a mismatch after "Verifying correctness"
        lines = j.get("stdout", "").splitlines()
        print("  its check:", sum("mismatch" in l for l in lines), "mismatch lines;",
              " | ".join(l for l in lines if "Verif" in l or "TFLOPS" in l)[:200])
    if j.get("kernel_counters_missing"):
        print("  counters missing:", j["kernel_counters_missing"])
    ncu = {}
    try:
        for row in csv.reader(open(f"{out}/k{k}.ncu.csv")):
            if len(row) > 14 and row[0] != "ID":
                ncu[row[-3]] = row[-1].replace(",", "")
    except Exception as e:
        print(f"  no ncu: {e}")
    for kr in j.get("kernels", []):
        for c in kr.get("gpu_counters", []):
            n = ncu.get(c["metric"], "?")
            print(f"  {kr['kernel'][:40]:40} {c['figure']:30} gpu {c['gpu']:>10.0f}  ncu {n:>10}"
                  f"  recorded {c['recorded']:>10}")
EOF
# The per-kernel files in one archive (a device call brings back a limited number of files).
(cd "$out" && shopt -s nullglob && files=(k*.json k*.err k*.ncu.csv nvcc.txt tcg256.cu) &&
  ((${#files[@]} > 0)) && tar -czf runs.tgz --ignore-failed-read "${files[@]}" 2> /dev/null &&
  rm -f "${files[@]}")
cat "$out/times.txt" "$out/compare.txt"
