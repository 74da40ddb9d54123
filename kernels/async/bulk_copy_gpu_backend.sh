#!/usr/bin/env bash
# One device call: build the CLI, then
# globalToShmemAsyncCopy's eight kernels at 64 and the bulk-copy probe on --backend cuda, compared
# site by site with the emulator's reports. Run from the repository root on the device with .deps
# and gpu_in carried: gpu_in/cs holds cuda-samples c94ff366's globalToShmemAsyncCopy.cu as g2s.cu
# and its Common/ (BSD-3, not kept here); gpu_in/cmp the emulator's `run --json` reports
# (NAME.emu.json, cut to their first two launches). Output: bulk_copy_gpu_backend_h200.txt.
set -u
O=$1; mkdir -p "$O"; t0=$SECONDS
WS_BUILD_TARGETS=warpscope-cli scripts/gpu-build.sh "$O/b" 90 > "$O/build_out.txt" 2>&1 || { tail -30 "$O/b/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s" | tee "$O/summary.txt"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
source scripts/gpu-env.sh
cli=build/headless/app/warpscope-cli
run() { local n=$1; shift; local t=$SECONDS; timeout 120 $cli run --backend cuda --json --timeout 100 "$@" > gpu_in/cmp/$n.cuda.json 2> /tmp/err_$n.txt; echo "$n exit $? $((SECONDS-t)) s" >> "$O/summary.txt"; tail -3 /tmp/err_$n.txt >> "$O/summary.txt"; }
run bulk --file kernels/async/bulk_copy_probe.cu
for k in 0 1 2 3 4 5 6 7; do run g2s_$k --file gpu_in/cs/g2s.cu -I gpu_in/cs/Common --arg=-wA=64 --arg=-hA=64 --arg=-wB=64 --arg=-hB=64 --arg=-kernel=$k; done
$cli run --backend cuda --file gpu_in/cs/g2s.cu -I gpu_in/cs/Common --arg=-wA=64 --arg=-hA=64 --arg=-wB=64 --arg=-hB=64 --arg=-kernel=2 > "$O/g2s_2_text.txt" 2>&1
$cli run --backend cuda --file kernels/async/bulk_copy_probe.cu > "$O/bulk_text.txt" 2>&1
python3 - gpu_in/cmp <<'PY' >> "$O/summary.txt"
import glob, json, sys
for p in sorted(glob.glob(sys.argv[1] + "/*.emu.json")):
    e = json.load(open(p)); q = p.replace(".emu.json", ".cuda.json")
    try: g = json.load(open(q))
    except Exception as x: print(p, "no gpu json", x); continue
    print(p.split("/")[-1], "launches emu", e.get("launch_count"), "gpu", len(g.get("launches", [])), "ok", g.get("ok"))
    g["launches"] = g.get("launches", [])[:len(e["launches"])]
    json.dump(g, open(q, "w"))
PY
python3 scripts/compare_backends.py gpu_in/cmp --out "$O/compare.txt" > /dev/null; tail -15 "$O/compare.txt" >> "$O/summary.txt"
tar czf "$O/cmp.tgz" gpu_in/cmp
echo "total $((SECONDS-t0)) s" >> "$O/summary.txt"
cat "$O/summary.txt"
