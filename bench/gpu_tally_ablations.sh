#!/usr/bin/env bash
# Where the lean build's recording time goes: bench/gpu_tally_micro.cu's recorded copy and padded
# transpose, built as the lean unit is (WS_RECORD_BUILD, WS_WARP_STATE_BUILD, 32 registers),
# against this tree's recorder with one part taken out at a time (nvcc only: no CMake build):
#   base     the recorder as it is
#   bar      a whole warp's barrier pass in a block not kept only meets (nothing counted)
#   notimer  the barrier's two %globaltimer reads gone (its waits 0)
#   req      a whole warp's affine request in a block not kept is taken after the affine test,
#            nothing hashed, looked up or counted
#   nokey    the request counted at its shape's first slot without reading the slot's key
#   disp     a lesson's access in a block not kept returns at once (no affine test, no road)
#   base64   the recorder as it is, capped at 64 registers instead of 32
# Each cut's time less base's is what that part costs (the counts of the cut ones are wrong, on
# purpose: the micro's "tallied" column says by how much). The cuts are text edits of copies of
# kernels/api and trace/device under OUT_DIR/trees; an edit whose text is no longer there stops
# the script, naming it.
# Usage (on the device): bench/gpu_tally_ablations.sh OUT_DIR [ROUNDS]; writes OUT_DIR/ablations.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:?usage: gpu_tally_ablations.sh OUT_DIR [ROUNDS]}
rounds=${2:-3}
cuts="base bar notimer req nokey disp"
mkdir -p "$out/trees"
for v in $cuts; do
  rm -rf "$out/trees/$v"
  mkdir -p "$out/trees/$v/kernels" "$out/trees/$v/trace"
  cp -r kernels/api "$out/trees/$v/kernels/" && cp -r trace/device "$out/trees/$v/trace/" || exit 1
done
python3 - "$out/trees" <<'EOF' || exit 1
import sys
root = sys.argv[1]
def cut(v, path, old, new):
    p = f"{root}/{v}/{path}"
    s = open(p).read()
    if old not in s:
        sys.exit(f"gpu_tally_ablations.sh: the cut '{v}' found no longer its text in {path}")
    open(p, "w").write(s.replace(old, new, 1))
barrier = "kernels/api/warpscope/kernels/ws_cuda_barrier.h"
tally = "kernels/api/warpscope/kernels/ws_cuda_tally.h"
cut("bar", barrier,
    "  const RecorderState& r = ws_recorder_state;\n  const std::uint64_t arrival = GlobalTimer();",
    "  const RecorderState& r = ws_recorder_state;\n"
    "  if (kWarpState && !HazardPass(r.mode) && TallyWarp() != ~0u && __activemask() == ~0u) {\n"
    "    (void)pass();\n    return;\n  }\n  const std::uint64_t arrival = GlobalTimer();")
cut("notimer", barrier, "  const std::uint64_t arrival = GlobalTimer();",
    "  const std::uint64_t arrival = 0;")
cut("notimer", barrier, "    departure = GlobalTimer();", "    departure = 0;")
cut("req", tally,
    "  if (state == ~0u) return false;\n  const unsigned long long h = AffineShapeKey(",
    "  if (state == ~0u) return false;\n  return true;\n  const unsigned long long h = AffineShapeKey(")
cut("disp", "kernels/api/warpscope/kernels/ws_cuda_device.h",
    "  if (kWholeWarpRoad && __activemask() == ~0u) {",
    "  if (kWarpState && TallyWarp() != ~0u) return;\n"
    "  if (kWholeWarpRoad && __activemask() == ~0u) {")
cut("nokey", tally,
    "  if (__all_sync(~0u, r.tally_keys[slot] == h) == 0) return false;\n"
    "  CountTalliedOnce(r, slot, state, lane);",
    "  CountTalliedOnce(r, slot, state, lane);")
EOF
build() {  # NAME TREE REGISTERS
  nvcc -std=c++17 -O3 -arch=sm_90 -I"$out/trees/$2/kernels/api" -I"$out/trees/$2/trace/device" \
    -DWS_RECORD_BUILD -DWS_WARP_STATE_BUILD -maxrregcount="$3" -diag-suppress 186 \
    -o "$out/m_$1" bench/gpu_tally_micro.cu || exit 1
}
for v in $cuts; do build "$v" "$v" 32; done
build base64 base 64
cuts="$cuts base64"
{
  nvidia-smi -L
  # The micro's cases: 0 the copy plain, 2 recorded; 17 the transpose plain, 18 recorded.
  for round in $(seq "$rounds"); do
    for v in $cuts; do
      for step in 0 2 17 18; do
        echo "$v r$round $(timeout 8 "$out/m_$v" 16384 $step 2>&1 | grep ' ms ' | head -1)"
      done
    done
  done
} 2>&1 | tee "$out/ablations.txt"
rm -rf "$out/trees"
for v in $cuts; do rm -f "$out/m_$v"; done
