#!/bin/bash
# On a GPU machine's toolkit (no GPU needed): programs compiled as the CLI compiles them as written
# for its compiled widths (-O2 -arch=sm_90 -cubin --resource-usage -lineinfo), listed by
# nvdisasm -g (matmul_sass_h200.txt, g2s_sass_h200.txt here: the listings of 2026-12-04, CUDA
# 13.0, made in a copy at /work/main/gpu_in/sass), and the same without -lineinfo, to check that
# line info changes no instruction. Run from the repository root with gpu_in/cs holding
# cuda-samples' globalToShmemAsyncCopy.cu (c94ff366) as g2s.cu and its Common/.
W=$(mktemp -d); O=${OUT:-/tmp/out}; mkdir -p "$O"
cp examples/matmul.cu examples/transpose.cu bench/programs/matmul_tiled_1024.cu "$W"/
cp gpu_in/cs/g2s.cu "$W"/ 2>/dev/null && cp -r gpu_in/cs/Common "$W"/
cd "$W" || exit 1
{ which nvdisasm cuobjdump nvcc; nvdisasm --version | tail -2; } > "$O/tools.txt" 2>&1
for f in g2s matmul transpose matmul_tiled_1024; do
  [ -f $f.cu ] || continue
  nvcc -std=c++17 -O2 -arch=sm_90 -w -cubin --resource-usage -lineinfo -I Common $f.cu -o $f.li.cubin > $f.res.txt 2>&1 || echo "FAIL $f" >> "$O/tools.txt"
  nvcc -std=c++17 -O2 -arch=sm_90 -w -cubin -I Common $f.cu -o $f.cubin 2>> "$O/tools.txt"
  nvdisasm -g -c $f.li.cubin > $f.sass 2>> "$O/tools.txt"
  nvdisasm -c $f.cubin | sed 's@/\*[0-9a-f]*\*/@@g; s@ *//.*@@' | grep -v '^\s*$' > $f.plain.ins
  nvdisasm -c $f.li.cubin | sed 's@/\*[0-9a-f]*\*/@@g; s@ *//.*@@' | grep -v '^\s*$' > $f.li.ins
  if cmp -s $f.plain.ins $f.li.ins; then echo "$f: same code with -lineinfo" >> "$O/tools.txt"
  else echo "$f: CODE DIFFERS with -lineinfo" >> "$O/tools.txt"; diff $f.plain.ins $f.li.ins | head -20 >> "$O/tools.txt"; fi
done
tar czf "$O/sass.tgz" *.sass *.res.txt
cat "$O/tools.txt"
