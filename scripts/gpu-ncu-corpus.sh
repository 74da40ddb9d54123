#!/usr/bin/env bash
# The corpus's cuda-samples programs (tests/programs/corpus, where its programs were carried: they
# are not in git), unmodified, compiled by nvcc and profiled by Nsight Compute: per launch, the
# global load and store requests and sectors the hardware counted. scripts/ncu_corpus.py holds
# them against Warpscope's emulator (docs/programs-ncu.md). Usage:
#   scripts/gpu-ncu-corpus.sh OUT_DIR [ARCH]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu-ncu-corpus.sh OUT_DIR [ARCH]}
arch=${2:-90}
dir="$out/ncu-corpus"
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "no ncu on this machine" | tee "$dir/errors.txt"; exit 1; }
"$ncu" --version > "$dir/ncu-version.txt" 2>&1
nvidia-smi -L > "$dir/gpu.txt" 2>&1
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
# Shared memory: a warp's instruction is Warpscope's request, its wavefronts are Warpscope's.
metrics+=,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
# The entries of corpus.json to profile, with their files, -I folders and arguments.
# WS_NCU_NAMES (space-separated) picks other entries.
WS_NCU_NAMES=${WS_NCU_NAMES:-} python3 - > "$work/cases.txt" <<'EOF'
import json, os
names = os.environ["WS_NCU_NAMES"].split() or [
         "vectorAdd", "matrixMul", "scalarProd", "simpleCooperativeGroups", "shfl_scan",
         "transpose", "threadFenceReduction", "warpAggregatedAtomicsCG", "binaryPartitionCG",
         "simpleTemplates", "clock", "simpleAtomicIntrinsics", "simpleVoteIntrinsics",
         "template", "LargeKernelParameter"]
c = {e["name"]: e for e in json.load(open("tests/programs/corpus/corpus.json"))}
for n in names:
    e = c[n]
    files = " ".join("tests/programs/corpus/" + f for f in e["files"])
    inc = " ".join("-Itests/programs/corpus/" + d for d in e.get("include_dirs", []))
    defs = " ".join("-D" + d for d in e.get("defines", []))
    args = " ".join(e.get("args", []))
    print("%s|%s|%s %s|%s" % (n, files, inc, defs, args))
EOF
while IFS='|' read -r name files flags args; do
  # shellcheck disable=SC2086
  nvcc -std=c++17 -O3 -lineinfo -arch=sm_$arch $flags -o "$work/$name" $files \
    > "$dir/$name.nvcc.txt" 2>&1 || { echo "$name: nvcc failed" >> "$dir/errors.txt"; continue; }
  # shellcheck disable=SC2086
  (cd "$(dirname "$(echo $files | cut -d' ' -f1)")" &&
    timeout 200 "$ncu" --clock-control none --launch-count 40 --metrics "$metrics" --csv \
      --log-file "$dir/$name.ncu.csv" "$work/$name" $args > /dev/null 2> "$dir/$name.ncu.err") ||
    echo "$name: ncu rc=$?" >> "$dir/errors.txt"
done < "$work/cases.txt"
ls "$dir" | wc -l
