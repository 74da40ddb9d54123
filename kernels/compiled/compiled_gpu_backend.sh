#!/usr/bin/env bash
# One device call (an H100 or H200, with the toolkit's nvdisasm): build the CLI, then run
# examples/matmul.cu and cuda-samples' globalToShmemAsyncCopy (kernels 0-7 at 64 x 64) on both
# backends, where each run lists the program's kernels as written (nvdisasm -g) and counts the
# shared accesses its compiled kernels serve wider (LDS.128) as those instructions; the two
# backends' reports compared site by site (first two launches), and each kernel's first launch's
# shared-load requests and wavefronts printed beside Nsight Compute's (g2s_ncu_h200.txt).
# Run from the repository root with .deps and gpu_in carried: gpu_in/cs holds globalToShmemAsyncCopy.cu
# (c94ff366) as g2s.cu and its Common/ (BSD-3, not kept here).
set -u
O=$1; mkdir -p "$O"; t0=$SECONDS
WS_BUILD_TARGETS=warpscope-cli scripts/gpu-build.sh "$O/b" 90 > "$O/build_out.txt" 2>&1 || { tail -30 "$O/b/build.log"; exit 1; }
echo "build $((SECONDS-t0)) s" | tee "$O/summary.txt"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
source scripts/gpu-env.sh
cli=build/headless/app/warpscope-cli
C=gpu_in/cmpc; rm -rf $C; mkdir -p $C
run() { local n=$1 b=$2; shift 2; local t=$SECONDS; timeout 150 $cli run --backend $b --json --timeout 120 "$@" > $C/$n.$b.json 2> /tmp/err_$n.txt; echo "$n $b exit $? $((SECONDS-t)) s" >> "$O/summary.txt"; tail -2 /tmp/err_$n.txt >> "$O/summary.txt"; }
for b in emu cuda; do
  run matmul $b --file examples/matmul.cu
  for k in 0 1 2 3 4 5 6 7; do run g2s_$k $b --file gpu_in/cs/g2s.cu -I gpu_in/cs/Common --arg=-wA=64 --arg=-hA=64 --arg=-wB=64 --arg=-hB=64 --arg=-kernel=$k; done
done
$cli run --backend cuda --file examples/matmul.cu > "$O/matmul_text.txt" 2>&1
$cli run --backend cuda --file gpu_in/cs/g2s.cu -I gpu_in/cs/Common --arg=-wA=64 --arg=-hA=64 --arg=-wB=64 --arg=-hB=64 --arg=-kernel=1 > "$O/g2s_1_text.txt" 2>&1
python3 - $C <<'PY' >> "$O/summary.txt"
import glob, json, sys
for p in sorted(glob.glob(sys.argv[1] + "/*.json")):
    j = json.load(open(p))
    ls = j.get("launches", [])
    if ls:
        l = ls[0]
        req = sum(s["requests"] for s in l["sites"] if s["space"] == "shared" and s["op"] == "load")
        wf = sum(s["wavefronts"] or 0 for s in l["sites"] if s["space"] == "shared" and s["op"] == "load")
        wide = [(s["line"], s.get("compiled_width"), s.get("source_requests")) for s in l["sites"] if s.get("compiled_width")]
        print(p.split("/")[-1], "ok", j.get("ok"), "launches", len(ls), "first launch: shared loads", req, "requests", wf, "wavefronts; compiled", wide)
    j["launches"] = ls[:2]
    json.dump(j, open(p, "w"))
PY
python3 scripts/compare_backends.py $C --out "$O/compare.txt" > /dev/null; tail -12 "$O/compare.txt" >> "$O/summary.txt"
tar czf "$O/cmpc.tgz" $C
echo "total $((SECONDS-t0)) s" >> "$O/summary.txt"
cat "$O/summary.txt"
