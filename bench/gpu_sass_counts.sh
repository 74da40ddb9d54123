#!/usr/bin/env bash
# One launch of a lesson's kernel under Nsight Compute's source counters: every SASS instruction
# with how often warps executed it, summed by opcode and listed in program order, so that a
# recorded pass's cost per request can be read instruction by instruction. Run on the GPU
# machine after scripts/gpu-build.sh built build/headless.
# Usage: bench/gpu_sass_counts.sh OUT_FILE KERNEL_REGEX SKIP LESSON ARGS...
#    or: bench/gpu_sass_counts.sh OUT_FILE KERNEL_REGEX SKIP --exec COMMAND ARGS... (any program,
#        bench/gpu_tally_micro.cu's binary for one: bench/gpu_micro_sass.sh)
#   SKIP: the kernel's launches to pass over first (the hazard pass is launch 0, the recording
#   pass launch 1 where the tally counts it, then the plain build's timing launches)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_sass_counts.sh OUT_FILE KERNEL SKIP LESSON ARGS...}
kernel=$2 skip=$3
shift 3
if [[ -d .deps/debs && ! -d .deps/root/usr/lib/x86_64-linux-gnu ]]; then
  mkdir -p .deps/root
  for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
fi
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUDA_MODULE_LOADING=EAGER
if [[ ${1:-} == --exec ]]; then
  shift
  cmd=("$@")
else
  cmd=(./build/headless/app/warpscope-cli run "$@" --backend cuda)
fi
tmp=$(mktemp -d)
timeout 150 ncu --kernel-name "regex:$kernel" --launch-skip "$skip" --launch-count 1 \
  --section SourceCounters --section LaunchStats -f -o "$tmp/p" \
  "${cmd[@]}" > "$tmp/ncu.log" 2>&1
ncu -i "$tmp/p.ncu-rep" --page source --csv --print-source sass > "$tmp/source.csv" 2>&1
python3 - "$tmp/source.csv" "$tmp/ncu.log" > "$out" <<'PY'
import csv, collections, sys
rows = list(csv.reader(open(sys.argv[1])))
head = next((i for i, r in enumerate(rows) if "Source" in r and "Address" in r), None)
if head is None:
    print("no source page:"); print(open(sys.argv[1]).read()[:2000]); print(open(sys.argv[2]).read()[-2000:]); sys.exit()
h = rows[head]
src = h.index("Source")
ex = next(i for i, k in enumerate(h) if k.startswith("Instructions Executed"))
st = next((i for i, k in enumerate(h) if k.startswith("Warp Stall Sampling (All")), None)
body = [r for r in rows[head + 1:] if len(r) > max(src, ex)]
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[ex]) for r in body)
samples = sum(num(r[st]) for r in body) if st is not None else 0
print("instructions executed (warp level): %d in %d SASS lines; stall samples %d" % (total, len(body), samples))
ops = collections.Counter()
for r in body:
    ops[r[src].split()[0].lstrip("@!P0123456789T").split(".")[0] if r[src].split() else "?"] += num(r[ex])
print("by opcode:", ", ".join("%s %d" % kv for kv in ops.most_common(40)))
print("program order (executed, stall samples, SASS), lines executed at all:")
for r in body:
    if num(r[ex]) > 0:
        print("%11d %7d  %s" % (num(r[ex]), num(r[st]) if st is not None else 0, r[src][:110]))
PY
rm -rf "$tmp"
