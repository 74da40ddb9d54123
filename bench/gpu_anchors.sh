#!/usr/bin/env bash
# Issue 51's anchors, in one run on one GPU: what a student's other tools take on the 1024²
# tiled matmul (bench/programs/matmul_tiled_1024.cu) against Warpscope's --backend cuda.
#   plain        the program built by nvcc -O3, run as written (whole process)
#   ncu full     Nsight Compute --set full on that binary
#   racecheck    compute-sanitizer --tool racecheck on that binary
#   warpscope    warpscope-cli run --file ... --backend cuda at the CLI's defaults: cold (an empty
#                compile cache) and then warm (the compile cached), REPEATS times
# Whole-process seconds, one line per run. Run on the GPU machine after
# scripts/gpu-build.sh built build/headless.
# Usage: bench/gpu_anchors.sh OUT_DIR [REPEATS]; writes OUT_DIR/anchors.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_anchors.sh OUT_DIR [REPEATS]}
repeats=${2:-3}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The rewriter a program run calls needs clang 14's libraries (.deps/clangdebs).
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
cli=$PWD/build/headless/app/warpscope-cli
src=bench/programs/matmul_tiled_1024.cu
txt="$out/anchors.txt"
: > "$txt"
seconds() {  # LABEL COMMAND...: runs it, appends "LABEL: S s (rc)" to anchors.txt
  local label=$1
  shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$@" > "$out/$label.out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  python3 -c "import sys; print(f'{sys.argv[1]}: {float(sys.argv[3]) - float(sys.argv[2]):.2f} s (exit {sys.argv[4]})')" \
    "$label" "$t0" "$t1" "$rc" >> "$txt"
}
nvcc -O3 -lineinfo -arch=sm_90 -o "$out/matmul" "$src" >> "$out/nvcc.txt" 2>&1 || { echo "nvcc failed: see nvcc.txt" >> "$txt"; exit 1; }
for i in $(seq "$repeats"); do seconds "plain-$i" "$out/matmul"; done
seconds ncu-full ncu --set full -o "$out/ncu-full" -f "$out/matmul"
seconds racecheck compute-sanitizer --tool racecheck "$out/matmul"
cache=$(mktemp -d)
export XDG_CACHE_HOME=$cache
seconds warpscope-cold "$cli" run --file "$src" --backend cuda
for i in $(seq "$repeats"); do
  seconds "warpscope-warm-$i" "$cli" run --file "$src" --backend cuda
done
"$cli" run --file "$src" --backend cuda --json > "$out/warpscope.json" 2> "$out/warpscope.err"
rm -rf "$cache"
cat "$txt"
