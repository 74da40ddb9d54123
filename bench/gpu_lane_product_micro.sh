#!/usr/bin/env bash
# The lane unit's own record on the matmul lessons, against their plain kernels
# (bench/gpu_lane_product_micro.cu), with nvcc alone: seconds on the GPU machine, where the
# product's GPU build takes six minutes. Makes the matmul lesson's lesson form with the rewriter
# (a local build's, or .deps/rewriter's on the GPU machine: scripts/gpu-env.sh), builds the
# harness on this tree's record and on each variant folder named in WS_LANE_VARIANTS (a folder
# holding its own warpscope/kernels/ws_cuda_lane_log.h, or any header of kernels/api, first on the
# include path), runs each ROUNDS times in turn and prints each case's median.
# Usage: bench/gpu_lane_product_micro.sh OUT_DIR [ROUNDS]; writes OUT_DIR/lane-product.txt.
# The harnesses can be built here with nvcc and carried to the GPU machine (each build is some
# 20 s of a device call): WS_LANE_BUILD_ONLY=1 builds them into OUT_DIR (pm_NAME) and stops;
# WS_LANE_BUILT=DIR runs DIR's pm_* instead of building (nvcc and the rewriter are then not used).
# WS_LANE_NVCC_FLAGS: more nvcc flags for the builds (e.g. -maxrregcount=64, as the capped lane unit).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_lane_product_micro.sh OUT_DIR [ROUNDS]}
rounds=${2:-3}
mkdir -p "$out/form/warpscope/lesson_kernels"
out=$(cd "$out" && pwd)  # the form is #included by its path: absolute
names=()
if [[ -n "${WS_LANE_BUILT:-}" ]]; then
  for b in "$WS_LANE_BUILT"/pm_*; do
    cp "$b" "$out/" && names+=("${b##*/pm_}")
  done
  [[ ${#names[@]} -gt 0 ]] || { echo "no pm_* in $WS_LANE_BUILT" > "$out/lane-product.txt"; exit 1; }
else
  # shellcheck source=scripts/gpu-env.sh
  source scripts/gpu-env.sh
  rewriter=${ws_rewriter:-$PWD/build/release/program/warpscope-rewrite}
  form=$out/form/warpscope/lesson_kernels/matmul.cuh
  "$rewriter" --lesson-form --name matmul --dir kernels/lessons/matmul \
    --text kernels/lessons/matmul/matmul.cuh --shim kernels/program/shim --out "$form" ||
    { echo "the rewriter failed" > "$out/lane-product.txt"; exit 1; }
  build() {  # NAME [INCLUDE_DIR]
    nvcc -std=c++20 -O3 -arch=sm_90 ${WS_LANE_NVCC_FLAGS:-} ${2:+-I"$2"} -Ikernels/api -Itrace/device -Itrace/include \
      -Ikernels/include -DWS_LESSON_FORM="\"$form\"" -o "$out/pm_$1" \
      bench/gpu_lane_product_micro.cu kernels/src/gpu_lane_log.cpp kernels/src/gpu_records_words.cpp
  }
  names=(tree)
  build tree || exit 1
  for v in ${WS_LANE_VARIANTS:-}; do
    name=$(basename "$v")
    build "$name" "$v" && names+=("$name")
  done
  [[ -n "${WS_LANE_BUILD_ONLY:-}" ]] && exit 0
fi
raw=$out/lane-product-raw.txt
: > "$raw"
for r in $(seq "$rounds"); do
  for n in "${names[@]}"; do
    echo "#### $n" >> "$raw"
    "$out/pm_$n" 31 >> "$raw" 2>&1
  done
done
rm -f "$out"/pm_*
python3 - "$raw" "$rounds" > "$out/lane-product.txt" <<'PY'
import collections, re, statistics, sys
rows, name = collections.defaultdict(list), None
for line in open(sys.argv[1]):
    m = re.match(r"#### (\S+)", line)
    if m:
        name = m.group(1)
        continue
    m = re.match(r"(.+?)\s+([\d.]+) us/launch.*alone\s+([\d.]+) us", line)
    if m:
        rows[(name, m.group(1).strip())].append((float(m.group(2)), float(m.group(3))))
    elif line.startswith("the tiled-2x2 pass's log"):
        print(f"{name}: {line.strip()}")
print(f"medians of {sys.argv[2]} rounds (each a median of 31 timings): us a launch back to back, alone")
for (n, case), v in rows.items():
    print(f"{n:12s} {case:26s} {statistics.median(x[0] for x in v):7.2f} {statistics.median(x[1] for x in v):7.2f}")
PY
cat "$out/lane-product.txt"
