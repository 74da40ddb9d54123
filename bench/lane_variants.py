#!/usr/bin/env python3
"""Variant folders of the lane log's record for bench/gpu_lane_product_micro.sh (WS_LANE_VARIANTS).

Each folder holds warpscope/kernels/ws_cuda_lane_log.h, this tree's with one change, for timing
only (their logs are not all complete: the harness's join says so):
  nocount   no store of the lane's count when its column is full (one predicated-off store fewer)
  noown     no stores of a lane's own row and time (two predicated-off stores fewer a warp row)
  warponly  both: a whole warp's record issues its two stores and the file's note alone
  bare      warponly without the file's note's store (predicated off but at a file's first
            record): the prototype's two stores and nothing else (8.4 us against the product's
            12.2-12.9 for the tiled matmul at 64², twenty-third session)

The question they answer (docs/GPU.md, twenty-fourth session): whether a record's stores cost by
the instructions issued, predicated off or not, rather than by the bytes written.
Usage: bench/lane_variants.py OUT_DIR; prints the folders for WS_LANE_VARIANTS.
"""
import os
import sys

HEADER = "warpscope/kernels/ws_cuda_lane_log.h"
COUNT = '      "@!ok st.global.u32 [ws_lane_count], ws_lane_next;\\n\\t}" ::"r"(a),\n'
NOTE = '      "@p st.global.u64 [%1], %2;\\n\\t"\n'
OWN = ('      "@apart st.global.v4.u32 [row], {w0, %1, %2, %3};\\n\\t"\n',
       '      "@apart st.global.u32 [time], %4;\\n\\t"\n')


def without(text, *lines):
    for line in lines:
        if text.count(line) != 1:
            sys.exit("lane_variants.py: the record's line is not in the header once: " + line)
    for line in lines:
        text = text.replace(line, '      "}" ::"r"(a),\n' if line == COUNT else "")
    return text


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: lane_variants.py OUT_DIR")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "kernels", "api", HEADER)) as f:
        tree = f.read()
    variants = {"nocount": without(tree, COUNT), "noown": without(tree, *OWN),
                "warponly": without(tree, COUNT, *OWN), "bare": without(tree, COUNT, NOTE, *OWN)}
    for name, text in variants.items():
        path = os.path.join(out, name, HEADER)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    print(" ".join(os.path.join(out, name) for name in variants))


if __name__ == "__main__":
    main()
