#!/usr/bin/env bash
# Issue 21 on a GPU machine: builds the headless CLI with a carried rewriter (as gpu-programs.sh),
# runs the GPU tests, the agreement programs (tests/programs/agreement) on both backends, and the
# public-program corpus (where its programs were carried: they are not in git) on both backends.
# Writes everything under OUT. Usage: scripts/gpu-corpus.sh OUT_DIR [CUDA_ARCH]
# WS_GPU_TESTS: a regex of the GPU tests to run; WS_SKIP_EMU_CORPUS: the corpus on the GPU only.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-corpus.sh OUT_DIR [CUDA_ARCH]}
arch=${2:-90}
mkdir -p "$out"
. scripts/gpu-env.sh
[ -n "$ws_rewriter" ] || { echo "no .deps/rewriter/warpscope-rewrite (docs/BUILD.md)"; exit 1; }
scripts/gpu-build.sh "$out" "$arch" || exit 1
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export XDG_CACHE_HOME=$(mktemp -d)
cli=$PWD/build/headless/app/warpscope-cli
ctest --test-dir build/headless -L gpu ${WS_GPU_TESTS:+-R "$WS_GPU_TESTS"} -j4 --timeout 300 \
  > "$out/gpu-tests.txt" 2>&1
tail -15 "$out/gpu-tests.txt"
# The agreement programs: each site's requests and sectors on both backends.
for f in tests/programs/agreement/*.cu; do
  n=$(basename "$f" .cu)
  for b in emu cuda; do
    "$cli" run --file "$f" --backend $b --timeout 120 --json > "$out/agree-$n.$b.json" 2>/dev/null
  done
done
python3 - "$out" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
lines = []
for f in sorted(glob.glob(os.path.join(out, "agree-*.emu.json"))):
    n = os.path.basename(f)[len("agree-"):-len(".emu.json")]
    try:
        e, c = json.load(open(f)), json.load(open(f.replace(".emu.", ".cuda.")))
    except Exception as x:
        lines.append("%s: unreadable (%s)" % (n, x)); continue
    for le, lc in zip(e.get("launches", []), c.get("launches", [])):
        for se in le["sites"]:
            sc = [s for s in lc["sites"] if s["line"] == se["line"] and s["column"] == se["column"]
                  and s["op"] == se["op"]]
            sc = sc[0] if sc else {}
            cost = lambda s: s.get("sectors") if s.get("sectors") is not None else s.get("wavefronts")
            lines.append("%s %s line %d:%d %s %s: emu %s req %s sect/wf | gpu %s req %s sect/wf" % (
                n, le["kernel"], se["line"], se["column"], se["space"], se["op"],
                se.get("requests"), cost(se), sc.get("requests"), cost(sc)))
        be = sum(b.get("instances", 0) for b in le.get("barriers", []))
        bc = sum(b.get("instances", 0) for b in lc.get("barriers", []))
        lines.append("%s %s barriers: emu %s gpu %s; hazards emu %d gpu %d" % (
            n, le["kernel"], be, bc, len(le["hazards"].get("groups", [])),
            len(lc["hazards"].get("groups", []))))
open(os.path.join(out, "agreement.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
# The agreement programs as nvcc builds them, under Nsight Compute: the hardware's own figures.
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$ncu" ]; then
  echo "ncu: $("$ncu" --version | tail -1)" > "$out/ncu-version.txt"
  m=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  m+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  m+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum
  m+=,smsp__sass_inst_executed_op_global_ld.sum
  m+=,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum
  m+=,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum
  for f in tests/programs/agreement/*.cu; do
    n=$(basename "$f" .cu)
    nvcc -std=c++17 -O3 -lineinfo -arch=sm_$arch -o "/tmp/agree-$n" "$f" > /dev/null 2>&1 &&
      "$ncu" --clock-control none --metrics "$m" --csv --log-file "$out/agree-$n.ncu.csv" \
        "/tmp/agree-$n" > /dev/null 2>&1
  done
fi
if [ -f tests/programs/corpus/cuda-samples/vectorAdd/vectorAdd.cu ]; then
  # Both backends, each program's report kept, then compared site by site.
  python3 scripts/run_corpus.py --cli "$cli" --backend cuda --jobs 6 --timeout 240 \
    --json "$out/corpus-cuda.json" --save "$out/reports" > "$out/corpus-cuda.txt" 2>&1
  tail -3 "$out/corpus-cuda.txt"
  [ -n "${WS_SKIP_EMU_CORPUS:-}" ] || python3 scripts/run_corpus.py --cli "$cli" --backend emu --jobs 12 --timeout 240 \
    --json "$out/corpus-emu.json" --save "$out/reports" > "$out/corpus-emu.txt" 2>&1
  tail -3 "$out/corpus-emu.txt"
  python3 scripts/compare_backends.py "$out/reports" --out "$out/backends.txt" | tail -3
fi
