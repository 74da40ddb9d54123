// The tally on the device (ws_cuda_device.h includes this; include that one): a whole warp's
// request at one site is counted in a table of shapes (ws_cuda_record_format.h, "The tally")
// instead of being written as an event. Split from ws_cuda_device.h, which RecordGroup calls it
// from.
#pragma once

#include <cstdint>

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws::dev {

// splitmix64's finalizer: a 64-bit hash of a 64-bit word.
__device__ __forceinline__ unsigned long long Mix64(unsigned long long x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A shape's hash in the tally's table (never 0, a free slot's).
// Any request: its lanes' hash (each lane's offset less the lowest, and the lowest's place in
// 256 bytes) with the site key and the lanes.
__device__ __forceinline__ unsigned long long ShapeKey(unsigned long long lanes, std::uint64_t key,
                                                       unsigned group) {
  return Mix64(lanes ^ Mix64(key) ^ static_cast<unsigned long long>(group) << 17) | 1ull;
}
// An affine request, the most: its step, its first offset's place in 256 bytes and its lane count
// (46 bits; the lanes of a group the tally takes are the warp's first n) in one word, times an
// odd constant, xored into the site key. Three mixings ran here before (a quarter of the 130 warp
// instructions a request took on a 2^24-float copy), then a multiply of the whole word by another
// odd constant (SlotOf mixes only the slot's bits now). The site
// key is not hashed apart: its hash was the same at every pass of a loop, and ptxas kept each
// site's in two registers across the loop (a matmul's recorded kernel went from 56 registers to
// 80 once the whole warp's count was inlined beside the general road). For one site each step is
// a bijection, so two shapes share a hash only where the low bit's OR merges them, which takes
// shapes C1^-1 apart (far past 2^46). Across sites the keys are structured; a brute force over
// 27 M realistic (key, shape) pairs found no two sharing a hash, with or without a second multiply.
// A request of a block of rows narrower than a warp (RecorderState::tally_rows, `rows` its log2
// width here) whose offsets are first + (lane mod 2^rows) x step + (lane / 2^rows) x row_step:
// the rows in bits 47..49 of the same word and the row step, times a third odd constant, xored in
// too (not at all where `rows` is 0, a constant at the affine callers: their hash is as before).
// Its requests cost the same for the reason an affine shape's do: each lane's offset less the
// first is fixed by the steps. A 16 x 16 tile's row of a wider matrix, or its column (step 0),
// took Tally's lanes' hash before, about 125 warp instructions a request against this road's 40.
__device__ __forceinline__ unsigned long long AffineShapeKey(unsigned first, unsigned step,
                                                             std::uint64_t key, unsigned group,
                                                             unsigned rows = 0,
                                                             unsigned row_step = 0) {
  return AffineShapeHash(first, step, key, static_cast<unsigned>(__popc(group)), rows, row_step);
}

// Whether a whole warp's offsets are affine in rows of 2^rows lanes (AffineShapeKey), `first` and
// `step` lane 0's offset and lane 1's less it; its row step (lane 2^rows's offset less lane 0's)
// in *row_step. Every lane of the warp runs this (a shuffle of `mask`, the whole warp).
__device__ __forceinline__ bool AffineInRows(unsigned mask, std::uint32_t offset, unsigned lane,
                                             unsigned first, unsigned step, unsigned rows,
                                             unsigned* row_step) {
  *row_step = __shfl_sync(mask, offset, 1u << rows) - first;
  return __all_sync(mask, offset == first + (lane & ((1u << rows) - 1u)) * step +
                                        (lane >> rows) * *row_step) != 0;
}
// A shape's slot in the table of `capacity` (a power of two): the hash's halves mixed in 32 bits
// (a second 64-bit multiply of the whole hash took three more instructions a request, and
// measured 1 % of a recorded copy's and transpose's time on an H200, bench/gpu_tally_micro.cu).
__device__ __forceinline__ unsigned SlotOf(unsigned long long h, unsigned capacity) {
  return ((static_cast<unsigned>(h >> 32) ^ static_cast<unsigned>(h)) * 0x9e3779b9u >> 8) &
         (capacity - 1u);
}

// Whether block `block` (its number modulo 2^32, LinearBlock32) is kept: its events are all
// written (RecorderState's kept span). The test in 32 bits (the 64-bit block number took 10
// instructions a request): past 2^32 blocks the number wraps and a block may be taken for a kept
// one, whose requests are then written as events, which the host decodes too.
__device__ __forceinline__ bool KeptBlock(const RecorderState& r, unsigned block) {
  const unsigned from_base = block - static_cast<unsigned>(r.kept_base);
  if (from_base > r.kept_last) return false;
  return r.keep_block == nullptr || r.keep_block[from_base] != 0;
}

// The first counter of a block's column (spread-major, ws_cuda_record_format.h): `number` the
// block's number (LinearBlock32). A 32-bit number (kTallyMaxCapacity).
__device__ __forceinline__ unsigned TallyColumn(const RecorderState& r, unsigned number) {
  return (number & (kTallySpread - 1u)) * r.tally_capacity;
}

// The warp's tally state, worked out once at the kernel's entry (WS_WARP_STATE_BUILD: the lean
// unit's build, lessons_cuda_lean.cu, whose lesson kernels all begin with WS_KERNEL_ENTRY) and
// kept in one register of the kernel's own that PTX lets it declare by name, as the lane log's
// (ws_cuda_lane_log.h), ws_tally_warp: ~0u where the block is kept or there is no tally; else the
// first counter of the block's column (TallyColumn: the block's number modulo kTallySpread times
// the capacity, a multiple of 2 below 2^31, so never ~0u's low bits) in bits 0..30, and bit 31 set
// once the warp has counted a request, so that the warp's flag is stored once, at its exit
// (TallyScope's destructor, at every return of the kernel). Without it every request worked out
// the block's number, its kept test, its column and the flag's address again (about 25 of the 75
// warp instructions a whole warp's request took on transpose 4096²'s lean build under its
// 32-register cap, Nsight Compute's source counters: docs/GPU.md), and the flag's test and store
// (its warp index in the register until the first count, bit 7 its pending bit) took 9 more of
// about 65 after that, the column's multiply and its 64-bit address 6. One register, not two (the
// column and the flag apart): under the lean unit's cap of 32 each register held across a kernel
// is a spill somewhere, and its local memory decides whether the lean build runs at all
// (kLeanLocalBytes, cuda_pass_units.h).
#if defined(WS_WARP_STATE_BUILD)
#if defined(WS_LANE_LOG_BUILD) || !defined(WS_RECORD_BUILD)
#error "WS_WARP_STATE_BUILD is a recording build without the lane log"
#endif
inline constexpr bool kWarpState = true;
inline constexpr unsigned kWarpCounted = 1u << 31;
static_assert(std::uint64_t{kTallySpread - 1u} * kTallyMaxCapacity < kWarpCounted,
              "ws_tally_warp keeps the column's first counter in 31 bits");
__device__ __forceinline__ unsigned TallyWarp() {
  unsigned state;
  asm volatile("mov.u32 %0, ws_tally_warp;" : "=r"(state));
  return state;
}
__device__ __forceinline__ void TallyEntry(const RecorderState& r) {
  const unsigned block = LinearBlock32();
  const unsigned state =
      r.tally_keys != nullptr && !KeptBlock(r, block) ? TallyColumn(r, block) : ~0u;
  asm volatile(
      ".reg .u32 ws_tally_warp;\n\t"
      "mov.u32 ws_tally_warp, %0;" ::"r"(state));
}
// At every exit of the kernel, by each group of lanes that leaves together (the same store).
__device__ __forceinline__ void TallyExit(const RecorderState& r) {
  const unsigned state = TallyWarp();
  if (state != ~0u && (state & kWarpCounted) != 0 &&
      static_cast<int>(LaneId()) == __ffs(__activemask()) - 1)
    r.warp_tallied[static_cast<unsigned long long>(LinearBlock32()) * r.warps_per_block +
                   LinearThread() / 32u] = 1;
}
// The entry and the exit in one object, so that every return of the kernel stores the flag.
struct TallyScope {
  __device__ __forceinline__ explicit TallyScope(const RecorderState& r) { TallyEntry(r); }
  __device__ __forceinline__ ~TallyScope() { TallyExit(ws_recorder_state); }
  TallyScope(const TallyScope&) = delete;
  TallyScope& operator=(const TallyScope&) = delete;
};
#define WS_KERNEL_ENTRY ::ws::dev::TallyScope ws_tally_scope_(ws_recorder_state);
// The leader's count at `slot` of the warp's column (`state`, TallyWarp, not ~0u) of `counts`
// (the tally's, or the direct road's: the same columns), and the warp's counted bit. Every lane of
// the warp runs it: the leader's add is predicated, not branched to.
__device__ __forceinline__ void CountOnceAt(unsigned long long* counts, unsigned slot,
                                            unsigned state, unsigned lane) {
  unsigned long long* at = counts + ((state & ~kWarpCounted) + slot);
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.eq.u32 p, %0, 0;\n\t"
      "@p red.global.add.u64 [%1], 1;\n\t"
      "or.b32 ws_tally_warp, ws_tally_warp, %2;\n\t}" ::"r"(lane),
      "l"(at), "n"(kWarpCounted)
      : "memory");
}
__device__ __forceinline__ void CountTalliedOnce(const RecorderState& r, unsigned slot,
                                                 unsigned state, unsigned lane) {
  CountOnceAt(r.tally_counts, slot, state, lane);
}
#else
inline constexpr bool kWarpState = false;
#endif

// The leader's count of a request the tally took at `slot`, and its warp's flag. The counter is
// one of the slot's kTallySpread (spread-major, ws_cuda_record_format.h) by the block's number
// (consecutive blocks run on different SMs at once; by %smid it took a special-register read a
// request), and the flag is stored, not read first: the warp's own byte (no other warp stores
// there), and a load before the store kept the lanes waiting for a round trip to L2 (Nsight Compute
// on transpose 4096²'s recorded build, H200: 8 % of the pass's stalls). The warp's number from the
// block's in 32 bits: the flags serve grids of up to 2^24 threads (the activity map), and past 2^32
// blocks a wrapped number stays in the array.
__device__ __forceinline__ void CountTallied(const RecorderState& r, unsigned slot,
                                             unsigned block) {
  atomicAdd(r.tally_counts + TallyColumn(r, block) + slot, 1ull);
  r.warp_tallied[static_cast<unsigned long long>(block) * r.warps_per_block +
                 LinearThread() / 32u] = 1;
}

// Whether the tally takes this warp's whole-warp requests and meetings (a tally, a block not
// kept), and their counters' column: `block` its number (LinearBlock32), unused where the warp
// keeps its state (TallyWarp). ~0u where not.
__device__ __forceinline__ unsigned TallyColumnOf(const RecorderState& r, unsigned block) {
#if defined(WS_WARP_STATE_BUILD)
  (void)block, (void)r;
  const unsigned state = TallyWarp();
  return state == ~0u ? ~0u : state & ~kWarpCounted;
#else
  if (r.tally_keys == nullptr || KeptBlock(r, block)) return ~0u;
  return TallyColumn(r, block);
#endif
}

// A shape's hash with an asynchronous copy's source lines or a barrier's count mixed in (0: as it
// is): Tally's and the short roads' one rule, so that both find the same slot.
__device__ __forceinline__ unsigned long long MixLines(unsigned long long h, unsigned lines) {
  return lines != 0 ? (h ^ lines * 0xd6e8feb86659fd93ull) | 1ull : h;
}

#if defined(WS_WARP_STATE_BUILD)
// The direct road (ws_cuda_record_format.h, "The direct road"), a whole warp with constant masks:
// `key`'s entry in the launch's table (constant memory), its key and step checked in the affine
// test's vote; counted at the warp's column, the entry and `first`'s place in 256 bytes. The
// lanes' keys are one (the caller's match), so their entries are one. Returns whether it counted;
// where not, the tally's roads take the request. About 35 SASS instructions where the tally's
// short road took about 50 (bench/gpu_direct_micro.cu, cuobjdump; docs/GPU.md).
__device__ __forceinline__ bool CountDirect(const RecorderState& r, std::uint64_t key,
                                            unsigned lane, unsigned offset, unsigned first,
                                            unsigned step) {
#if __CUDA_ARCH__ >= 800
  // No test of r.direct_counts: a pass without them has a table of no entries (UseDirectTable
  // clears it, and an empty entry's key, 0, is no site's), so that no request hits.
  const unsigned state = TallyWarp();
  if (state == ~0u) return false;
  const unsigned s = DirectSiteSlot(key);
  // Both words read and the three tests made by every lane, with no branch between them (`&`,
  // not `&&`: ptxas branched around the table's read, about 5 instructions a request). A step of
  // ~0u (lanes one byte apart downwards) would match a step word of 0, which no site's entry has
  // (DirectTableFor; an empty entry's key is 0, no site's key).
  const std::uint64_t entry_key = r.direct_table[s].key;
  const unsigned entry_step1 = r.direct_table[s].step1;
  const bool hit =
      (offset == first + lane * step) & (entry_key == key) & (entry_step1 == step + 1u);
  if (__all_sync(~0u, hit) == 0) return false;
  CountOnceAt(r.direct_counts, s * kDirectPlaces + (first & 255u), state, lane);
  return true;
#else
  (void)r, (void)key, (void)lane, (void)offset, (void)first, (void)step;
  return false;
#endif
}
#endif

#if __CUDA_ARCH__ >= 800

// The short roads' lookup, a whole warp with constant masks: the shape of hash `h` counted where
// it is at its first slot (its slot returned), else ~0u. Every lane reads the slot's key (one load
// for the warp); the vote makes their answer one, so that a lane can never part from the others.
// With the warp's state (WS_WARP_STATE_BUILD) the column is the warp's (TallyWarp), and `block`
// unused.
__device__ __forceinline__ unsigned CountAtFirstSlot(const RecorderState& r, unsigned long long h,
                                                     unsigned lane, unsigned block) {
  const unsigned slot = SlotOf(h, r.tally_capacity);
  if (__all_sync(~0u, r.tally_keys[slot] == h) == 0) return ~0u;
#if defined(WS_WARP_STATE_BUILD)
  (void)block;
  CountTalliedOnce(r, slot, TallyWarp(), lane);
#else
  if (lane == 0) CountTallied(r, slot, block);
#endif
  return slot;
}
#endif

// The tally's common case, a whole warp's affine request (CountedWhole): counted where its shape
// is at its first slot, whatever the table's full flag says (Tally's rule: both passes find a
// shape there; CountAtFirstSlot). Returns whether it was counted;
// where not (a kept block, a new shape, a shape past its first slot), Tally decides.
// `rows`, `row_step`: a request affine in rows (AffineShapeKey), 0 for an affine one.
__device__ __forceinline__ bool TallyWholeAffine(const RecorderState& r, std::uint64_t key,
                                                 unsigned lane, unsigned first, unsigned step,
                                                 unsigned rows = 0, unsigned row_step = 0) {
#if __CUDA_ARCH__ >= 800
#if defined(WS_WARP_STATE_BUILD)
  const unsigned state = TallyWarp();
  if (state == ~0u) return false;
  const unsigned long long h = AffineShapeKey(first, step, key, ~0u, rows, row_step);
  const unsigned slot = SlotOf(h, r.tally_capacity);
  if (__all_sync(~0u, r.tally_keys[slot] == h) == 0) return false;
  CountTalliedOnce(r, slot, state, lane);
  return true;
#else
  const unsigned block = LinearBlock32();
  if (KeptBlock(r, block)) return false;
  // Written out rather than through CountAtFirstSlot: the same code, but ptxas placed the lean
  // unit's spills differently that way (the transposes 4 bytes more of spill loads, nvcc 13),
  // and this road's cost was measured as it is.
  const unsigned long long h = AffineShapeKey(first, step, key, ~0u, rows, row_step);
  const unsigned slot = SlotOf(h, r.tally_capacity);
  if (__all_sync(~0u, r.tally_keys[slot] == h) == 0) return false;
  if (lane == 0) CountTallied(r, slot, block);
  return true;
#endif
#else
  (void)r, (void)key, (void)lane, (void)first, (void)step, (void)rows, (void)row_step;
  return false;
#endif
}

// The same short road for a whole warp's tallied meeting at a warp-level intrinsic or pass of a
// barrier in a block not kept (the caller's test): a shape of no offsets, Tally's affine hash of
// first 0, step 0 and every lane, with `lines` (a barrier's count) mixed in as Tally mixes it,
// counted where it is at its first slot, with constant masks. Returns its slot, or ~0u where Tally
// decides (a new shape, one past its first slot). A barrier pass took Tally's general road, about
// 125 warp instructions where this road's request took about 40 (docs/GPU.md, "The whole warp's
// count"); cudaTensorCoreGemm's compute_gemm meets at mma_sync 16,384 times a warp.
__device__ __forceinline__ unsigned TallyWholeMeeting(const RecorderState& r, std::uint64_t key,
                                                      unsigned lane, unsigned lines,
                                                      unsigned block) {
#if __CUDA_ARCH__ >= 800
  return CountAtFirstSlot(r, MixLines(AffineShapeKey(0, 0, key, ~0u), lines), lane, block);
#else
  (void)r, (void)key, (void)lane, (void)lines, (void)block;
  return ~0u;
#endif
}

// Whether the tally took this request (ws_cuda_record_format.h): `group` is every lane of the
// warp, in a block not kept. The lanes hash its shape together (an affine request by its step and
// its first offset's place in 256 bytes; any other by each lane's offset less the lowest, and the
// lowest's place), they find the shape in the table or the leader adds it, the leader counts it
// there, and a new shape's lanes write their offsets (its leader notes the site's `file`, where
// given). A request it does not take (no slot within
// kTallyProbes; the table is then marked full and later requests read only their first slot) is
// written as an event. The passes agree on what the counting pass counted as tallied: it adds
// shapes (its counts are cleared after it), and the planned pass after it (tally_frozen) only
// looks them up in the same table, where a shape once added stays. The other way round they may
// differ: a request the counting pass sized as an event (the table full) may find its shape,
// added meanwhile past its first slot, and be counted, writing fewer words than planned. A stale
// (L1) read of a key can only say free: the compare-and-swap then answers; a pass that only looks
// up is a launch of its own, after every key was written. Returns the shape's slot in the table, or
// ~0u where it did not take the request.
// `lines`: an asynchronous copy's write, the global 128-byte lines its lanes' sources lie in (a
// shape of its own for each count; 0 for any other request).
__device__ __forceinline__ unsigned Tally(const RecorderState& r, std::uint64_t key, unsigned group,
                                          unsigned lane, int leader, unsigned offset, bool affine,
                                          unsigned first, unsigned step, const char* file,
                                          unsigned lines = 0) {
#if __CUDA_ARCH__ >= 800
  // Only every lane of the warp (or of a block's last, partial warp). A group of 32 lanes is
  // that: the whole warp's road passes ~0u, a constant, and the test compiles away.
  if (group != ~0u) {
    const unsigned in_warp = r.threads_per_block - LinearThread() / 32u * 32u;
    if (group != (in_warp >= 32u ? ~0u : (1u << in_warp) - 1u)) return ~0u;
  }
  const unsigned block = LinearBlock32();
  if (KeptBlock(r, block)) return ~0u;
  const bool frozen = r.tally_frozen != 0;
  unsigned long long h;
  // A whole warp's request affine in rows is hashed as CountedWhole hashes it (by its steps), so
  // that the whole warp's road finds the shape this road adds.
  unsigned rows = 0, row_step = 0;
  if (!affine && group == ~0u && r.tally_rows != 0 &&
      AffineInRows(group, offset, lane, first, step, r.tally_rows, &row_step))
    rows = r.tally_rows;
  if (affine || rows != 0) {
    h = AffineShapeKey(first, step, key, group, rows, row_step);
  } else {
    const unsigned lo = __reduce_min_sync(group, offset);
    const unsigned long long mine =
        Mix64(static_cast<unsigned long long>(lane) << 32 | (offset - lo));
    h = (static_cast<unsigned long long>(
             __reduce_xor_sync(group, static_cast<unsigned>(mine >> 32)))
             << 32 |
         __reduce_xor_sync(group, static_cast<unsigned>(mine))) ^
        (lo & 255u);
    h = ShapeKey(h, key, group);
  }
  h = MixLines(h, lines);
  // Every lane of the group probes, the same words (one load for the warp each time), and takes
  // the leader's word by a shuffle, so that all of them hold one answer and none parts from the
  // others. Where the leader alone probed, the others waited at a shuffle after its branch, and
  // the compiler, unable to prove them together there, went through WARPSYNC.COLLECTIVE every
  // time (Nsight Compute on bench/gpu_tally_micro.cu, H200: 17 % of the stall samples, and about
  // 15 of a request's warp instructions).
  // The first slot is read alone: a shape found there is counted whether or not the table has
  // filled since (both passes find it: a shape once in the table stays), and the full flag is read
  // only where the first slot holds another shape or none. The flag can change while the pass
  // runs: the lanes take the leader's reading.
  const unsigned m = r.tally_capacity - 1u;
  unsigned i = SlotOf(h, r.tally_capacity);
  unsigned long long k = __shfl_sync(group, r.tally_keys[i], leader);
  unsigned slot = ~0u, fresh = 0, full = 0;
  if (k == h) {
    slot = i;
  } else {
    full = __shfl_sync(group, frozen ? 0u : *r.tally_full, leader);
    for (unsigned probe = 0; full == 0;) {
      if (k == 0) {
        if (frozen) break;
        if (static_cast<int>(lane) == leader) k = atomicCAS(r.tally_keys + i, 0ull, h);
        k = __shfl_sync(group, k, leader);
        if (k == 0) {
          fresh = 1;
          k = h;
        }
      }
      if (k == h) {
        slot = i;
        break;
      }
      if (++probe == kTallyProbes) break;
      i = (i + 1u) & m;
      k = __shfl_sync(group, r.tally_keys[i], leader);
    }
  }
  if (static_cast<int>(lane) == leader) {
    if (slot == ~0u) {
      if (full == 0 && *r.tally_full == 0) *r.tally_full = 1;
    } else {
      // Counted in the counting pass too (the host clears the counters before the next pass):
      // one test fewer a request.
      CountTallied(r, slot, block);
      if (fresh != 0 && file != nullptr) NoteFile(KeyFile(key), file);
    }
  }
  if (slot == ~0u) return ~0u;
  if (fresh != 0) {
    unsigned* shape = r.tally_shapes + std::size_t{slot} * kTallyShapeWords;
    shape[kTallyHeaderWords + lane] = offset;
    if (static_cast<int>(lane) == leader) {
      shape[0] = static_cast<std::uint32_t>(key);
      shape[1] = static_cast<std::uint32_t>(key >> 32);
      shape[2] = group;
      shape[3] = lines;
    }
  }
  return slot;
#else
  (void)r, (void)key, (void)group, (void)lane, (void)leader, (void)offset, (void)affine,
      (void)first, (void)step, (void)file, (void)lines;
  return ~0u;  // no warp reductions before compute 8.0
#endif
}

}  // namespace ws::dev
