#!/usr/bin/env python3
"""Variant folders of the lane log's record for bench/gpu_lane_product_micro.sh (WS_LANE_VARIANTS).

Each folder holds warpscope/kernels/ws_cuda_lane_log.h, this tree's with one change, for timing
only (their logs are not all complete: the harness's join says so):
  nocount   no store of the lane's count when its column is full (one predicated-off store fewer)
  noown     no store of a lane's own row (one predicated-off store fewer a warp row)
  warponly  both: a whole warp's access issues its two stores alone (the file's note left the
            record in the twenty-seventh session: warponly is what "bare" was before)
  rowsonly  no warp rows: every access writes its lane's own 16-byte row (one v4 store a lane,
            512 bytes a warp, where a warp row is 144 in three stores, two of them predicated);
            the warp rows' stores left out (a meeting's log then breaks: the matmuls have none)
  rowsbare  rowsonly without the count's store and the key's shuffle from
            lane 0 (which only a warp row needs): the own row's store alone
  rowsel    every access one unpredicated v4 store a lane: its own row, or where its column is
            full, row 0 again with the count in word 1 (the out-of-room store folded into the
            row's by a selected address; timing only: the product's count is elsewhere); no
            shuffles of the key
  batch4    an access keeps its offset in registers, 4 at a time, and every 4th a lane stores
            them as one v4 (512 bytes a warp for 4 accesses, one store); lane 0 keeps the keys
            and stores them 2 at a time; no shuffle, no own row, no count (timing only: the log
            does not join; what a record could cost if a warp's accesses were batched, issue 51)
  b4off     batch4 without lane 0's keys' store

What they answered on an H200 (docs/GPU.md, twenty-fourth to twenty-eighth sessions): a
predicated-off store costs as an issued one (yet two stores with selected addresses cost
more), and a read of %globaltimer (or %clock) at each access cost the most, since ptxas moves no
instruction across it (the record now reads none at an access). The variants of the twenty-fifth session's first calls (notime, clock and their mixes)
changed the time's read, which the record no longer has: see the docs for their numbers.
batch4 and b4off could not be made a record the host reads (twenty-ninth session, 6c041f3, reverted
after it): a lane's warp rows batched and their keys striped over the lanes with a hash to check
them took 11.3 / 11.6 / 20.2 us against this record's 10.2 / 9.7 / 16.4 on one H200, and a leaner
form of it (every row batched by the lane's own count, no selects) 9.8 / 9.8 / 16.1: the batch's
gain goes to the parts a record needs that batch4 left out (which lanes ran it, and their keys).
Usage: bench/lane_variants.py OUT_DIR; prints the folders for WS_LANE_VARIANTS.
"""
import os
import sys

HEADER = "warpscope/kernels/ws_cuda_lane_log.h"
# Fragments of the record's PTX and what each becomes where it is left out (inside LaneRow's
# macro, so each keeps its line's continuation).
COUNT = ('"@!ok st.global.u32 [ws_lane_count], ws_lane_next;\\n\\t}" ::"r"(a),', '"}" ::"r"(a),')
OWN = ('"@apart st.global.v4.u32 [row], {w0, %1, %2, %3};\\n\\t" TIME_STORE', 'TIME_STORE')
WHOLE = ("active, 0u, active == ~0u ? 1u : 0u, same);", "active, 0u, 0u, same);")
WARP_STORES = ('"@warp st.global.u32 [offset+-128], %2;\\n\\t"', '""'), \
    ('"@lead st.global.v4.u32 [head+-16], {%0, %1, %4, %3};\\n\\t"', '""')


SHUFFLE = (r'''  asm volatile(
      "{\n\t.reg .u32 lo0;\n\t.reg .pred p;\n\t"
      "shfl.sync.idx.b32 lo0, %1, 0, 0x1f, %2;\n\t"
      "setp.eq.u32 p, lo0, %1;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(same)
      : "r"(lo), "r"(active));''', "  same = 1u;")
UNTIMED = 'WS_LANE_ROW("", "");'
# rowsel's access record: one store, its address and first two words selected (see above).
ROWSEL = r'''asm volatile(
        "{\n\t.reg .pred ok;\n\t.reg .u64 row;\n\t.reg .u32 w0, w1;\n\t"
        "setp.lt.u32 ok, ws_lane_next, %4;\n\t"
        "mad.wide.u32 row, ws_lane_next, 512, ws_lane_row0;\n\t"
        "add.u32 ws_lane_next, ws_lane_next, 1;\n\t"
        "selp.b64 row, row, ws_lane_row0, ok;\n\t"
        "selp.b32 w0, %0, 0, ok;\n\t"
        "selp.b32 w1, %1, ws_lane_next, ok;\n\t"
        "st.global.v4.u32 [row], {w0, w1, %2, %3};\n\t}" ::"r"(a),
        "r"(b), "r"(c), "r"(d), "r"(r.lane_cap));
    (void)t;
    (void)whole;
    (void)same;'''

# batch4's registers, declared at the kernel's entry with the column's, and its access record.
BATCH_REGS = ('".reg .pred ws_lane_lead;\\n\\t"',
              '".reg .pred ws_lane_lead;\\n\\t.reg .u32 ws_b0, ws_b1, ws_b2, ws_b3, ws_k0, ws_k1, '
              'ws_k2, ws_k3;\\n\\t"')
KEYS_STORE = '"@lead st.global.v4.u32 [head], {ws_k0, ws_k1, ws_k2, ws_k3};\\n\\t}"'
BATCH_ACCESS = r'''__device__ __forceinline__ void LaneAccess(const RecorderState& r, std::uint64_t key,
                                           std::uint32_t offset) {
  (void)r;
  const auto lo = static_cast<unsigned>(key), hi = static_cast<unsigned>(key >> 32);
  asm volatile(
      "{\n\t.reg .pred four, two, lead;\n\t.reg .u64 row, head;\n\t.reg .u32 i, g, h;\n\t"
      "mov.u32 ws_b0, ws_b1;\n\tmov.u32 ws_b1, ws_b2;\n\tmov.u32 ws_b2, ws_b3;\n\t"
      "mov.u32 ws_b3, %2;\n\t"
      "mov.u32 ws_k0, ws_k2;\n\tmov.u32 ws_k1, ws_k3;\n\tmov.u32 ws_k2, %0;\n\t"
      "mov.u32 ws_k3, %1;\n\t"
      "and.b32 i, ws_lane_warp_next, 3;\n\t"
      "setp.eq.u32 four, i, 3;\n\t"
      "and.b32 i, ws_lane_warp_next, 1;\n\t"
      "setp.eq.u32 two, i, 1;\n\t"
      "and.pred lead, two, ws_lane_lead;\n\t"
      "shr.u32 g, ws_lane_warp_next, 2;\n\t"
      "shr.u32 h, ws_lane_warp_next, 1;\n\t"
      "mad.wide.u32 row, g, 512, ws_lane_row0;\n\t"
      "mad.wide.u32 head, h, 16, ws_lane_head0;\n\t"
      "add.u32 ws_lane_warp_next, ws_lane_warp_next, 1;\n\t"
      "@four st.global.v4.u32 [row], {ws_b0, ws_b1, ws_b2, ws_b3};\n\t"
      "@lead st.global.v4.u32 [head], {ws_k0, ws_k1, ws_k2, ws_k3};\n\t}" ::"r"(lo),
      "r"(hi), "r"(offset));
}

'''


def batched(text, keys=True):
    """The tree's header with batch4's registers and access record (LaneAccess replaced)."""
    text = without(text, BATCH_REGS)
    begin = text.index("__device__ __forceinline__ void LaneAccess(")
    end = text.index("__device__ __forceinline__ void LaneMeeting(")
    access = BATCH_ACCESS if keys else without(BATCH_ACCESS, (KEYS_STORE, '"}"'))
    return text[:begin] + access + text[end:]


def without(text, *fragments):
    for old, new in fragments:
        if text.count(old) != 1:
            sys.exit("lane_variants.py: the record's fragment is not in the header once: " + old)
        text = text.replace(old, new)
    return text


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: lane_variants.py OUT_DIR")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "kernels", "api", HEADER)) as f:
        tree = f.read()
    variants = {"nocount": without(tree, COUNT), "noown": without(tree, OWN),
                "warponly": without(tree, COUNT, OWN),
                "rowsonly": without(tree, WHOLE, *WARP_STORES),
                "rowsbare": without(tree, WHOLE, COUNT, SHUFFLE, *WARP_STORES),
                "rowsel": without(tree, WHOLE, SHUFFLE, (UNTIMED, ROWSEL)),
                "batch4": batched(tree), "b4off": batched(tree, keys=False)}
    for name, text in variants.items():
        path = os.path.join(out, name, HEADER)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    print(" ".join(os.path.join(out, name) for name in variants))


if __name__ == "__main__":
    main()
