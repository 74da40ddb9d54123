#!/usr/bin/env bash
# A program's kernel time with recording against without (issue 22's target: <= 5x for each of
# examples/transpose.cu's three kernels at 4096²), by Nsight Compute. On the GPU backend the CLI
# runs the program twice, the recording build and then the plain one (whose CUDA event times it
# reports); ncu times every kernel of both children (gpu__time_duration), and the ratio is
# recorded / plain per kernel (medians over its launches). With OLD_SHIM (another
# kernels/program/shim/ws_program_cuda.h), that shim is measured too, in the same call.
# Run on the GPU machine after scripts/gpu-build.sh built build/headless.
# Usage: bench/gpu_program_bench.sh OUT_DIR [N] [OLD_SHIM]; writes OUT_DIR/program-bench.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_program_bench.sh OUT_DIR [N] [OLD_SHIM]}
n=${2:-4096}
old=${3:-}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu:$PWD/.deps/root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The rewriter a program run calls needs clang 14's libraries (.deps/clangdebs).
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
cli=$PWD/build/headless/app/warpscope-cli
shim=kernels/program/shim/ws_program_cuda.h
measure() {  # LABEL
  local label=$1
  ncu --clock-control none --target-processes all --metrics gpu__time_duration.sum --csv \
    "$cli" run --file examples/transpose.cu -D N="$n" --backend cuda --timeout 300 \
    > "$out/ncu-$label.csv" 2> "$out/ncu-$label.err"
  python3 - "$label" "$out/ncu-$label.csv" >> "$out/program-bench.txt" <<'PY'
import csv, statistics, sys
label, path = sys.argv[1], sys.argv[2]
rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
if not rows:
    print(f"{label}: no kernels timed (see ncu-{label}.err)")
    sys.exit()
h = rows[0]
pid, name, value = h.index("Process ID"), h.index("Kernel Name"), h.index("Metric Value")
procs = []  # in order of first launch: the recording child, then the plain one
times = {}
for r in rows[1:]:
    if r[pid] not in procs:
        procs.append(r[pid])
    kernel = r[name].split("(")[0].split(" ")[-1]
    times.setdefault((r[pid], kernel), []).append(float(r[value].replace(",", "")))
if len(procs) < 2:
    print(f"{label}: only {len(procs)} process timed")
    sys.exit()
rec, plain = procs[0], procs[-1]
for kernel in sorted({k for p, k in times if p == plain}):
    a, b = times.get((rec, kernel)), times.get((plain, kernel))
    if a and b:
        ra, rb = statistics.median(a), statistics.median(b)
        print(f"{label}: {kernel}: recorded {ra / 1e3:.1f} us, plain {rb / 1e3:.1f} us: "
              f"{ra / rb:.2f}x ({len(a)} / {len(b)} launches)")
PY
}
: > "$out/program-bench.txt"
if [[ -n "$old" ]]; then
  cp "$shim" "$out/new-shim.h"
  cp "$old" "$shim"
  measure old
  cp "$out/new-shim.h" "$shim"
fi
measure new
cat "$out/program-bench.txt"
