#!/usr/bin/env bash
# Issue 53 on the GPU backend (--backend cuda), one device call after the build:
#   - examples/wmma_tile.cu at kSkew 0, 8 and 16, and cuda-samples' globalToShmemAsyncCopy at
#     64 x 64 with each of its eight kernels, as written, on the GPU backend; each report compared
#     site by site with the emulator's of the same program (CMP/NAME.emu.json, made beforehand on
#     the developers' machine) by scripts/compare_backends.py;
#   - cuda-samples' cudaTensorCoreGemm at 256^3 with its own check (WS_TCG_SMALL=0 to leave it out),
#     on the GPU backend and under Nsight Compute, for the comparison with the emulator's run;
#   - cuda-samples' cudaTensorCoreGemm as written (4,096 x 4,096 x 4,096) on the GPU backend, the
#     whole process timed, its compute_gemm launch's figures summed; and the same program built
#     by nvcc as written, timed and counted by Nsight Compute (shared wavefronts and conflicts,
#     ldmatrix instructions, global sectors and requests).
# WS_PROGRAMS=0: leave out the wmma and globalToShmemAsyncCopy programs; WS_DSMEM_PROBE=0: the
# distributed shared memory probe; WS_CLUSTER=0: the cluster example.
# Usage (device tool, with .deps carried and the samples in an untracked folder of the tree):
#   SAMPLES=DIR CMP=DIR OUT=DIR scripts/gpu-tensor-async.sh [build] [tests]
# "build" builds the CLI and the GPU tests first (scripts/gpu-build.sh); without it the build
# folder of an earlier call on the same machine is used. "tests" runs every GPU test at the end.
set -u
cd "$(dirname "$0")/.." || exit 1
out=${OUT:?set OUT}
samples=${SAMPLES:?set SAMPLES to the cuda-samples checkout (Samples/, Common/)}
cmp=${CMP:?set CMP to the folder of NAME.emu.json reports}
mkdir -p "$out"
summary=$out/summary.txt
if [[ "${1:-}" == build ]]; then
  t0=$SECONDS
  WS_BUILD_TARGETS=ws_gpu_test_binaries scripts/gpu-build.sh "$out/b" 90 || exit 1
  echo "build: $((SECONDS - t0)) s" >> "$summary"
  cat "$out/b/gpu.txt" >> "$summary"
  rm -rf "$out/b"
fi
if [[ -d .deps/debs && ! -d .deps/root/usr/lib/x86_64-linux-gnu ]]; then
  mkdir -p .deps/root
  for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
fi
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
cli=build/headless/app/warpscope-cli
# "tests": every GPU test, as bench/gpu_batch.sh runs them, first after the build.
# WS_TESTS_REGEX: only the GPU tests it matches.
if [[ " $* " == *" tests "* ]]; then
  t0=$SECONDS
  timeout 200 ctest --test-dir build/headless -L gpu ${WS_TESTS_REGEX:+-R "$WS_TESTS_REGEX"} -j4 \
    --timeout 180 --output-on-failure > /tmp/ws_tests.log 2>&1
  echo "tests: exit $? in $((SECONDS - t0)) s" >> "$summary"
  grep -E "tests passed|\(Failed\)|\(Timeout\)|Skipped|SKIPPED" /tmp/ws_tests.log | head -40 >> "$summary"
  grep -B5 -A40 "FAILED\|Failure" /tmp/ws_tests.log | head -150 > "$out/test_failures.txt"
  tail -c 200000 /tmp/ws_tests.log > "$out/tests.log"
fi
# kernels/cluster/dsmem_probe.cu, built by plain nvcc: what the GPU says of map_shared_rank's
# addresses rank by rank (WS_DSMEM_PROBE=0: not this time).
if [[ "${WS_DSMEM_PROBE:-1}" != 0 ]]; then
  nvcc -arch=sm_90 -o /tmp/dsmem_probe kernels/cluster/dsmem_probe.cu > "$out/dsmem_probe.txt" 2>&1 &&
    timeout 30 /tmp/dsmem_probe >> "$out/dsmem_probe.txt" 2>&1
  echo "dsmem probe: exit $?" >> "$summary"
fi
g2s=$samples/Samples/3_CUDA_Features/globalToShmemAsyncCopy
tcg=$samples/Samples/3_CUDA_Features/cudaTensorCoreGemm

run() {  # NAME ARGS...: the GPU backend's report beside the emulator's, its time noted
  local name=$1 t0=$SECONDS
  shift
  timeout 170 "$cli" run --backend cuda --json --timeout 150 "$@" > "$cmp/$name.cuda.json" \
    2> /tmp/ws_run.err
  echo "$name: exit $? in $((SECONDS - t0)) s" >> "$summary"
  { echo "== $name"; tail -5 /tmp/ws_run.err; } >> "$out/errors.txt"
}
if [[ "${WS_PROGRAMS:-1}" != 0 ]]; then
for s in 0 8 16; do run "wmma_$s" --file examples/wmma_tile.cu -D "kSkew=$s"; done
for k in 0 1 2 3 4 5 6 7; do
  run "g2s_$k" --file "$g2s/globalToShmemAsyncCopy.cu" -I "$samples/Common" --arg=-wA=64 \
    --arg=-hA=64 --arg=-wB=64 --arg=-hB=64 "--arg=-kernel=$k"
done
fi
# examples/cluster_exchange.cu (its report beside CMP/cluster.emu.json; WS_CLUSTER=0: not this time).
[[ "${WS_CLUSTER:-1}" != 0 ]] && run cluster --file examples/cluster_exchange.cu
# The emulator's reports keep their first two launches (and their count, launch_count): the GPU's
# are cut to as many, their counts noted beside.
python3 - "$cmp" >> "$summary" <<'EOF'
import glob, json, sys
for path in sorted(glob.glob(sys.argv[1] + "/*.emu.json")):
    emu = json.load(open(path))
    try:
        gpu = json.load(open(path.replace(".emu.json", ".cuda.json")))
    except (OSError, ValueError):
        continue
    print("%s: launches emu %s, gpu %d" % (path.split("/")[-1][:-9], emu.get("launch_count"),
                                           len(gpu.get("launches", []))))
    gpu["launches"] = gpu.get("launches", [])[:len(emu["launches"])]
    json.dump(gpu, open(path.replace(".emu.json", ".cuda.json"), "w"))
EOF
python3 scripts/compare_backends.py "$cmp" --out "$out/compare.txt" > /dev/null

# Each program's output and first launch's figures on the GPU backend, one line a site.
python3 - "$cmp" > "$out/sites.txt" <<'EOF'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.cuda.json"))):
    try:
        j = json.load(open(path))
    except ValueError:
        print(os.path.basename(path), "unreadable"); continue
    print("==", os.path.basename(path), "ok" if j.get("ok") else "FAILED: %s" % j.get("failure", "")[:300])
    print("   stdout:", " | ".join(l for l in j.get("stdout", "").splitlines() if "PASS" in l or "FAIL" in l or "C[" in l or "Result" in l)[:300])
    if j.get("launches"):
        l = j["launches"][0]
        print("   launches %d, first %s coverage %s" % (len(j["launches"]), l.get("kernel"), l.get("coverage")))
        for s in l.get("sites", []):
            print("   %5d %-7s %-6s %2d req %8s sec %8s wf %8s conf %8s %s" % (
                s["line"], s["space"], s["op"], s["size"], s["requests"], s.get("sectors"),
                s.get("wavefronts"), s.get("bank_conflicts"), s.get("code", "")[:40]))
EOF

# cudaTensorCoreGemm: the GPU backend, cold (both builds compiled) and then the compile cached.
# WS_TCG_PASSES: which of the two to run (default both; "none": neither); WS_TCG_LIMIT: seconds each (default 280).
for pass in ${WS_TCG_PASSES:-cold warm}; do
  [[ $pass == none ]] && continue
  t0=$SECONDS
  limit=${WS_TCG_LIMIT:-280}
  timeout $((limit + 20)) "$cli" run --backend cuda --json --timeout "$limit" \
    --file "$tcg/cudaTensorCoreGemm.cu" \
    -I "$samples/Common" > "$out/tcg_$pass.json" 2> /tmp/ws_run.err
  echo "cudaTensorCoreGemm on the GPU backend ($pass): exit $? in $((SECONDS - t0)) s" >> "$summary"
  { echo "== tcg $pass"; tail -5 /tmp/ws_run.err; } >> "$out/errors.txt"
done
last=$(ls -t "$out"/tcg_*.json 2>/dev/null | head -1)
[[ -n "$last" ]] && python3 - "$last" >> "$summary" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
print("tcg ok", j.get("ok"), j.get("failure", "")[:300])
print("tcg stdout:", j.get("stdout", "")[-400:])
for l in j.get("launches", []):
    t = {}
    for s in l.get("sites", []):
        k = (s["space"], s["op"])
        a = t.setdefault(k, [0, 0, 0, 0])
        a[0] += s["requests"]; a[1] += s.get("sectors") or 0; a[2] += s.get("wavefronts") or 0
        a[3] += s.get("bank_conflicts") or 0
    print("tcg launch", l.get("kernel"), "coverage", l.get("coverage"), "hazards",
          l.get("hazards", {}).get("total"))
    for k, a in sorted(t.items()):
        print("   %s %s: requests %d sectors %d wavefronts %d conflicts %d" % (k + tuple(a)))
    for s in l.get("sites", []):
        print("   site %5d %-7s %-6s %2d req %10s sec %10s wf %10s conf %10s %s" % (
            s["line"], s["space"], s["op"], s["size"], s["requests"], s.get("sectors"),
            s.get("wavefronts"), s.get("bank_conflicts"), s.get("code", "")[:40]))
EOF
rm -f "$out/tcg_cold.json" "$out/tcg_warm.json"

# cudaTensorCoreGemm at 256^3 with its own check (the size the emulator runs it at, its
# report in CMP/tcg256.emu.json where made beforehand: compared site by site above with the GPU's
# when both are there), the GPU backend's run, then Nsight Compute on nvcc's build of the same text.
if [[ "${WS_TCG_SMALL:-1}" != 0 ]]; then
  t0=$SECONDS
  timeout 200 "$cli" run --backend cuda --json --timeout 180 --file "$tcg/cudaTensorCoreGemm.cu" \
    -I "$samples/Common" -D M_TILES=16 -D N_TILES=16 -D K_TILES=16 -D CPU_DEBUG=1 \
    > "$cmp/tcg256.cuda.json" 2> /tmp/ws_run.err
  echo "cudaTensorCoreGemm 256^3 on the GPU backend: exit $? in $((SECONDS - t0)) s" >> "$summary"
  { echo "== tcg256"; tail -5 /tmp/ws_run.err; } >> "$out/errors.txt"
  [[ -f "$cmp/tcg256.emu.json" ]] && python3 scripts/compare_backends.py "$cmp" \
    --out "$out/compare.txt" > /dev/null
  sed -e 's/^#define M_TILES 256/#define M_TILES 16/' -e 's/^#define N_TILES 256/#define N_TILES 16/' \
    -e 's/^#define K_TILES 256/#define K_TILES 16/' -e 's/^#define CPU_DEBUG 0/#define CPU_DEBUG 1/' \
    "$tcg/cudaTensorCoreGemm.cu" > /tmp/tcg256.cu
  rm -f /tmp/tcg256
  if ! nvcc -std=c++17 -O3 -arch=sm_90 -I "$samples/Common" -o /tmp/tcg256 /tmp/tcg256.cu \
    >> "$out/ncu256.txt" 2>&1; then
    echo "cudaTensorCoreGemm 256^3: nvcc failed (ncu256.txt)" >> "$summary"
  fi
  # Its own check prints a line a mismatch, after "Verifying correctness".
  { echo "as written at 256^3:"; /tmp/tcg256 > /tmp/tcg256.out 2>&1; echo "exit $?";
    grep -c Verifying /tmp/tcg256.out; grep -c mismatch /tmp/tcg256.out; } >> "$out/ncu256.txt" 2>&1
  m=smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_ld.sum
  for op in ld st; do
    m+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum
    m+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum
    m+=,l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum,l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum
  done
  timeout 100 ncu --print-units base --csv -k compute_gemm --launch-count 1 --metrics "$m" \
    /tmp/tcg256 2>/dev/null | grep '^"' | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin)); h = rows[0]; n = h.index("Metric Name"); v = h.index("Metric Value")
for r in rows[1:]: print("  ", r[n], r[v])' >> "$out/ncu256.txt"
  # Per SASS instruction (the source page): each shared store's wavefronts against their ideal,
  # to see where Nsight Compute's store wavefronts past the addresses' lie (docs/ncu-agreement.md,
  # cudaTensorCoreGemm); the header and the shared memory instructions' rows only.
  timeout 120 ncu --section SourceCounters --page source --csv --print-source sass -k compute_gemm \
    --launch-count 1 /tmp/tcg256 2> "$out/tcg256_source.err" |
    awk 'NR <= 3 || /STS|LDS|LDSM/' | head -300 > "$out/tcg256_source.csv"
  ncu --query-metrics --chip gh100 2>/dev/null | grep -i -E "shared.*(ideal|wavefront)" \
    > "$out/ncu_shared_metrics.txt"
fi

# The same program as written, nvcc and Nsight Compute (WS_SKIP_NCU=1: not this time).
if [[ -z "${WS_SKIP_NCU:-}" ]]; then
nvcc -std=c++17 -O3 -arch=sm_90 -I "$samples/Common" -o /tmp/tcg "$tcg/cudaTensorCoreGemm.cu" \
  >> "$out/ncu.txt" 2>&1
{ echo "as written:"; /tmp/tcg; } >> "$out/ncu.txt" 2>&1
m=smsp__inst_executed_op_ldsm.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
for op in ld st; do
  m+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum
  m+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum
  m+=,l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum,l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum
done
t0=$SECONDS
timeout 200 ncu --print-units base --csv -k compute_gemm --launch-count 1 --metrics "$m" /tmp/tcg \
  2>/dev/null | grep '^"' | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin)); h = rows[0]; n = h.index("Metric Name"); v = h.index("Metric Value")
for r in rows[1:]: print("  ", r[n], r[v])' >> "$out/ncu.txt"
echo "ncu: $((SECONDS - t0)) s" >> "$summary"
cuobjdump -sass /tmp/tcg | grep -E 'LDSM|HMMA|LDS|STS|LDG|STG' | sed 's/^ *//' | awk '{$1=""; print $2}' \
  | sort | uniq -c >> "$out/ncu.txt"
fi
cat "$summary"
