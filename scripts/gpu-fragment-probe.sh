#!/usr/bin/env bash
# Measures which lane holds which element of every nvcuda::wmma fragment (kernels/tensor/
# fragment_probe.cu) on the GPU machine: nvcc only, seconds. Writes OUT_DIR/fragments.tsv (the
# table to keep as kernels/tensor/fragments.tsv) and OUT_DIR/fragments.log (a line a fragment:
# elements a lane, elements held, elements held by several lanes), and OUT_DIR/shared-loads.sass:
# the shared-memory and tensor instructions that kernels/tensor/shared_loads_probe.cu compiles to.
# Usage: scripts/gpu-fragment-probe.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu-fragment-probe.sh OUT_DIR}
mkdir -p "$out"
nvcc -std=c++17 -O2 -arch=native -Ibench -o "$out/fragment-probe" kernels/tensor/fragment_probe.cu || exit 1
"$out/fragment-probe" > "$out/fragments.tsv" 2> "$out/fragments.log"
rc=$?
rm -f "$out/fragment-probe"
nvcc -std=c++17 -O2 -arch=native -cubin -o "$out/shared-loads.cubin" \
  kernels/tensor/shared_loads_probe.cu &&
  cuobjdump -sass "$out/shared-loads.cubin" | grep -E "Function|LDSM|LDS|STS|HMMA|IMMA|DMMA" \
    > "$out/shared-loads.sass"
rm -f "$out/shared-loads.cubin"
tail -1 "$out/fragments.log"
exit $rc
