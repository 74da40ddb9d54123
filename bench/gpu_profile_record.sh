#!/usr/bin/env bash
# Where the recording pass spends its time, on the GPU machine: builds the CLI, then profiles a
# lesson's launches with Nsight Compute (warp stalls per SASS instruction, occupancy, instruction
# counts), so that the pass's cost can be read off its instructions rather than guessed.
# Usage (on the device, with .deps carried): bench/gpu_profile_record.sh OUT_DIR [LESSON ARGS...]
#   default lesson: stride-copy at stride 1, 2^24 floats (the capture bench's first case)
# Writes OUT_DIR/profile.ncu-rep, details.csv (every launch's sections), source.csv (SASS with
# its stall samples, every launch), sass.txt (the lesson's kernels as built) and summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_profile_record.sh OUT_DIR [LESSON ARGS...]}
shift
args=("$@")
[[ ${#args[@]} -gt 0 ]] ||
  args=(stride-copy --set stride=1 --set threads=1024 --set blocks=16384)
kernel=${WS_PROFILE_KERNEL:-strideCopy}
mkdir -p "$out"
cli=./build/headless/app/warpscope-cli
if [[ ! -x $cli ]]; then
  t0=$SECONDS
  WS_BUILD_TARGETS=warpscope-cli timeout 480 scripts/gpu-build.sh "$out/b" 90 || exit 1
  echo "build: $((SECONDS - t0)) s" >> "$out/summary.txt"
fi
# A call on a warm machine gets .deps afresh (carried), without the root a build unpacked.
if [[ -d .deps/debs && ! -d .deps/root/usr/lib/x86_64-linux-gnu ]]; then
  mkdir -p .deps/root
  for f in .deps/debs/*.deb; do dpkg -x "$f" .deps/root; done
fi
export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh
export CUDA_MODULE_LOADING=EAGER
$cli run "${args[@]}" --backend cuda --json > "$out/run.json" 2> "$out/run.err"
python3 - "$out/run.json" >> "$out/summary.txt" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("timing.capture:", json.dumps(j["timing"].get("capture", {})))
PY
t0=$SECONDS
timeout 200 ncu --target-processes all --kernel-name "regex:$kernel" --launch-count 16 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section InstructionStats --section SourceCounters --section MemoryWorkloadAnalysis \
  -f -o "$out/profile" $cli run "${args[@]}" --backend cuda > "$out/ncu.log" 2>&1
echo "ncu: exit $? in $((SECONDS - t0)) s" >> "$out/summary.txt"
ncu -i "$out/profile.ncu-rep" --page details --csv > "$out/details.csv" 2>&1
ncu -i "$out/profile.ncu-rep" --page source --csv --print-source sass > "$out/source.csv" 2>&1
cuobjdump -sass "$cli" 2> /dev/null | awk -v k="$kernel" '
  /Function :/ { keep = index($0, k) > 0 } keep' > "$out/sass.txt"
python3 - "$out/details.csv" >> "$out/summary.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = ("Duration", "Registers Per Thread", "Achieved Occupancy", "Executed Instructions",
        "Memory Throughput", "Compute (SM) Throughput", "Theoretical Occupancy")
seen = {}
for r in rows:
    key = (r.get("ID"), r.get("Kernel Name", "")[:60])
    if r.get("Metric Name") in want:
        seen.setdefault(key, {})[r["Metric Name"]] = r.get("Metric Value", "") + " " + r.get("Metric Unit", "")
for (i, name), m in seen.items():
    print(i, name, "; ".join("%s=%s" % (k, m[k]) for k in want if k in m))
PY
cat "$out/summary.txt"
