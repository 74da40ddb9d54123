#!/usr/bin/env bash
# Builds the headless CLI and tests on a GPU machine that has cmake and nvcc but no Debian
# development packages, runs every test (the `gpu` ones included) and every lesson on the GPU,
# and sweeps offset-copy / stride-copy for the bandwidth figures. Usage:
#   scripts/gpu-check.sh OUT_DIR [CUDA_ARCH]
# Needs the .deb files listed in docs/BUILD.md in .deps/debs (unpacked into .deps/root, never /).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-check.sh OUT_DIR [CUDA_ARCH]}
arch=${2:-90}
scripts/gpu-build.sh "$out" "$arch" || exit 1
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ctest --preset headless --output-on-failure > "$out/ctest.log" 2>&1
tail -5 "$out/ctest.log"
cli=./build/headless/app/warpscope-cli
: > "$out/lessons.jsonl"
for lesson in $($cli lessons --json | python3 -c 'import json,sys; [print(l["id"]) for l in json.load(sys.stdin)]'); do
  for v in $($cli lessons --json | python3 -c "import json,sys; [print(v['name']) for l in json.load(sys.stdin) if l['id']=='$lesson' for v in l['variants']]"); do
    $cli run "$lesson" --variant "$v" --backend cuda --json 2>&1 | tr -d '\n' >> "$out/lessons.jsonl"
    echo >> "$out/lessons.jsonl"
  done
done
: > "$out/sweep.jsonl"
for o in 0 1 2 4 8 16 32; do
  $cli run offset-copy --set offset=$o --set blocks=65535 --backend cuda --json | tr -d '\n' >> "$out/sweep.jsonl"
  echo >> "$out/sweep.jsonl"
done
for s in 1 2 3 4 8 16 32; do
  $cli run stride-copy --set stride=$s --set blocks=16384 --backend cuda --json | tr -d '\n' >> "$out/sweep.jsonl"
  echo >> "$out/sweep.jsonl"
done
# Small captures for assets/: a laptop with no GPU opens real-GPU data out of the box.
mkdir -p "$out/traces"
capture() {  # NAME LESSON ARGS...
  local name=$1
  shift
  $cli capture "$@" --backend cuda -o "$out/traces/$name.wstrace" > "$out/traces/$name.txt" 2>&1 ||
    echo "capture $name failed" >> "$out/traces/errors.txt"
}
capture transpose-coalesced transpose --variant coalesced
capture transpose-padded transpose --variant padded
capture offset-copy-1 offset-copy --set offset=1
capture stride-copy-4 stride-copy --set stride=4
capture bank-stride-2 bank-stride --set stride=2
capture barrier-uneven barrier --set threads=128 --set skew=100
# One archive: the device tool brings back only a few files.
tar czf "$out/traces.tgz" -C "$out" traces && rm -rf "$out/traces"
bench/gpu_capture_bench.sh "$out" 5 > /dev/null 2>&1 || echo "capture bench failed"
echo "done"
