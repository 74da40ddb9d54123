#!/usr/bin/env python3
"""Variant folders of the lane log's record for bench/gpu_lane_product_micro.sh (WS_LANE_VARIANTS).

Each folder holds warpscope/kernels/ws_cuda_lane_log.h, this tree's with one change, for timing
only (their logs are not all complete: the harness's join says so):
  noapart   a whole warp's access without the lane's own row's store (issued under a false
            predicate there: what such a store costs; a row of its own is then never written, so
            only launches whose every access is a whole warp's join, as the matmuls' do)
  nohash    without the lanes' hash of their warp rows (its four instructions and a select a
            record; the log joins, but the host's check of the hashes fails)
  prior     the record before the warp rows were batched and striped (dea5db0's: each lane's word
            2 a 4-byte store, lane 0's 16-byte head after a shuffle of its key), from git, so that
            the two are timed in one call (its log does not join with this tree's reading)

What the variants of the record before answered on an H200 (docs/GPU.md, twenty-fourth to
twenty-eighth sessions): a read of %globaltimer (or %clock) at each access cost the most, since
ptxas moves no instruction across it (the record reads none at an access); a lane's own 16-byte
row at every access cost more than a warp row (rowsonly 17.4 / 13.7 / 23.0 us against 13.0 /
10.4 / 17.5); the word 2 kept in registers and written four at a time (batch4) 8.8 / 7.9 / 12.7,
and without lane 0's keys' stores (b4off) 9.3 / 6.9 / 9.7: what the record now does, with the keys
striped over the lanes.
Usage: bench/lane_variants.py OUT_DIR; prints the folders for WS_LANE_VARIANTS.
"""
import os
import subprocess
import sys

HEADER = "warpscope/kernels/ws_cuda_lane_log.h"
PRIOR = "dea5db0"  # the last commit with the record before the batches
# Fragments of the record's PTX and what each becomes where it is left out (inside LaneRow's
# macro, so each keeps its line's continuation).
APART = ('"@apart st.global.v4.u32 [row], {%0, %1, %2, %3};\\n\\t" TIME_STORE', 'TIME_STORE')
HASH = tuple((line, '""') for line in (
    '"xor.b32 h, ws_lane_hash, %0;\\n\\t"',
    '"mul.lo.u32 h, h, 16777619;\\n\\t"',
    '"xor.b32 h, h, %1;\\n\\t"',
    '"selp.b32 ws_lane_hash, h, ws_lane_hash, whole;\\n\\t"'))


def without(text, *fragments):
    for old, new in fragments:
        if old not in text:
            sys.exit("lane_variants.py: the record's fragment is not in the header: " + old)
        text = text.replace(old, new)
    return text


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: lane_variants.py OUT_DIR")
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join("kernels", "api", HEADER)
    with open(os.path.join(here, "..", path)) as f:
        tree = f.read()
    # The hash's multiply appears twice in the record: both go (its other steps once each).
    variants = {"noapart": without(tree, APART), "nohash": without(tree, *HASH)}
    prior = subprocess.run(["git", "-C", os.path.join(here, ".."), "show", f"{PRIOR}:{path}"],
                           capture_output=True, text=True)
    if prior.returncode == 0:
        # Its own row's mark, which the record format no longer has.
        variants["prior"] = without(prior.stdout, (
            "namespace ws::dev {\n",
            "namespace ws::dev {\n\ninline constexpr std::uint32_t kLaneWarpRow = kEventAffine;\n"))
    else:
        print(f"lane_variants.py: no {PRIOR} in this clone: no 'prior' variant", file=sys.stderr)
    for name, text in variants.items():
        target = os.path.join(out, name, HEADER)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as f:
            f.write(text)
    print(" ".join(os.path.join(out, name) for name in variants))


if __name__ == "__main__":
    main()
