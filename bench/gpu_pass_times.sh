#!/usr/bin/env bash
# Every launch of a lesson's kernel under Nsight Compute, pass by pass (the hazard pass, the
# counting pass, the recording pass; the plain build's timing launches): its duration,
# instructions, registers and L2 atomics, so that two lessons whose recording passes differ can be
# compared launch by launch rather than by one CUDA-event timing each. Run on the GPU machine
# after scripts/gpu-build.sh built build/headless.
# Usage: bench/gpu_pass_times.sh OUT_DIR; writes OUT_DIR/passes.txt (and one CSV per case).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_pass_times.sh OUT_DIR}
mkdir -p "$out"
# A call on a warm machine gets .deps afresh (carried), without the root a build unpacked.
if [[ -d .deps/debs && ! -d .deps/root/usr/lib/x86_64-linux-gnu ]]; then
  mkdir -p .deps/root
  for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
fi
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
cli=./build/headless/app/warpscope-cli
metrics=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers
metrics+=,dram__bytes.sum
# L2's reductions and atomics, where this ncu knows the names (else the run goes on without them).
extra=,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum
case_() {  # LABEL KERNEL ARGS...
  local label=$1 kernel=$2
  shift 2
  timeout 120 ncu --target-processes all --kernel-name "regex:$kernel" --metrics "$metrics$extra" \
    --csv "$cli" run "$@" --backend cuda > "$out/$label.csv" 2> "$out/$label.err" ||
    timeout 120 ncu --target-processes all --kernel-name "regex:$kernel" --metrics "$metrics" \
      --csv "$cli" run "$@" --backend cuda > "$out/$label.csv" 2>> "$out/$label.err"
  echo "== $label (exit $?)" >> "$out/passes.txt"
  python3 - "$out/$label.csv" >> "$out/passes.txt" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit()
head = rows[0]
ID, NAME, METRIC, VALUE = (head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Value"))
launches = {}
for r in rows[1:]:
    launches.setdefault(int(r[ID]), {"name": r[NAME]})[r[METRIC]] = r[VALUE]
for i, m in sorted(launches.items()):
    print(i, m["name"][:60], " ".join(f"{k.split('__')[1]}={v}" for k, v in m.items() if k != "name"))
PY
}
case_ s1 strideCopy stride-copy --set stride=1 --set threads=1024 --set blocks=16384
case_ o1 offsetCopy offset-copy --set offset=1 --set threads=1024 --set blocks=16384
case_ t32 transposeCoalesced transpose --variant coalesced --set width=4096 --set height=4096
cat "$out/passes.txt"
