#!/usr/bin/env bash
# Issue 20 on a machine with one or more GPUs, after scripts/gpu-build.sh has built build/headless:
# the multi-gpu lesson measured on the machine's GPUs (both variants), its captures (trace files
# for assets/traces), its GPU tests, and the topology. Usage: scripts/gpu-multi-gpu.sh OUT_DIR.
# Writes OUT_DIR/mg.tar.gz (a tar: the device tool brings back few files).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-multi-gpu.sh OUT_DIR}
dir=$(mktemp -d)/mg
mkdir -p "$dir"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=./build/headless/app/warpscope-cli
{ nvidia-smi -L; nvidia-smi topo -m; } > "$dir/topology.txt" 2>&1
gpus=$(nvidia-smi -L | grep -c '^GPU')
ctest --test-dir build/headless -R 'MultiGpuOnGpus' --output-on-failure > "$dir/ctest.txt" 2>&1
# The captures the app ships (assets/traces/multi-gpu-VARIANT.wstrace): measured at 512 x 512
# planes, nz = 64; the records (what the other views draw) at 16 x 16, to keep the files small.
for variant in overlap serial; do
  name="multi-gpu-$variant"
  /usr/bin/time -f "%e s" $cli capture multi-gpu --variant $variant --set gpus=$gpus --set nz=64 \
    --set nx=16 --set ny=16 --backend cuda -o "$dir/$name.wstrace" --json > "$dir/$name.json" \
    2> "$dir/$name.err"
done
$cli run multi-gpu --variant overlap --set gpus=1 --set nz=64 --backend cuda --json \
  > "$dir/mg-overlap-1-64.json" 2> "$dir/mg-overlap-1-64.err"
tar -C "$dir/.." -czf "$out/mg.tar.gz" mg
