#!/usr/bin/env bash
# Runs kernels/tensor/ldsm_probe.cu under Nsight Compute on the GPU machine (nvcc and ncu only,
# seconds): for each launch, the LDSM instructions and the shared-memory wavefronts and bank
# conflicts of its loads and stores. Writes OUT_DIR/ldsm.txt.
# Usage: scripts/gpu-ldsm-probe.sh OUT_DIR
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu-ldsm-probe.sh OUT_DIR}
mkdir -p "$out"
nvcc -std=c++17 -O2 -arch=native -o "$out/ldsm-probe" kernels/tensor/ldsm_probe.cu || exit 1
metrics=smsp__inst_executed_op_ldsm.sum
for op in ld st; do
  metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum
  metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum
done
ncu --metrics "$metrics" --csv "$out/ldsm-probe" > "$out/ldsm.csv" 2> "$out/ldsm.err"
rc=$?
rm -f "$out/ldsm-probe"
python3 - "$out/ldsm.csv" > "$out/ldsm.txt" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]
at = {k: h.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
launches = {}
for r in rows[1:]:
    d = launches.setdefault(int(r[at["ID"]]), {"kernel": r[at["Kernel Name"]].split("(")[0]})
    d[r[at["Metric Name"]].split("__")[-1].replace(".sum", "")] = r[at["Metric Value"]]
print("launch kernel ldsm wavefronts_ld conflicts_ld wavefronts_st conflicts_st")
for i, d in sorted(launches.items()):
    print(i, d["kernel"], *(d.get(k, "?") for k in (
        "inst_executed_op_ldsm", "data_pipe_lsu_wavefronts_mem_shared_op_ld",
        "data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
        "data_pipe_lsu_wavefronts_mem_shared_op_st",
        "data_bank_conflicts_pipe_lsu_mem_shared_op_st")))
PY
cat "$out/ldsm.txt"
exit $rc
