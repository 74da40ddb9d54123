// The block's tally (ws_cuda_device.h includes this where WS_BLOCK_TALLY is defined: the lean
// unit, cuda_pass_units.h). A whole warp's affine request whose shape another warp of the block
// already counted is counted in the block's shared memory, and the block adds its counts to the
// tally's counters (ws_cuda_tally.h) once, as its last threads finish.
//
// Why: a recorded request went through the tally's table in device memory at about 75 warp
// instructions (H200, bench/gpu_sass_counts.sh: the kept-block test 11, the shape's hash and
// lookup 22, the count and the warp's flag 25), so that a 2^24-float copy recorded at 2.5-2.7x
// its plain time and the padded transpose 4096² at 5x. Most of those depend only on the block or
// the warp, and the recorder ran no code at a kernel's start to work them out once. Here each
// lean kernel is a __device__ function called by a kernel of the unit's own (BlockTallied):
// - at its start, the block's threads clear the table and one works out what depends on the
//   block (kept or not, its counters' column, its warps' flags), then the block meets once;
//   every thread of a block starts the kernel, so this barrier can never part them;
// - a request whose shape is in the block's table: one shared load for the warp, one shared
//   atomic add and a byte stored by its lane 0;
// - at its end no barrier (a thread that returned early would meet the others' __syncthreads()
//   there and let them through): each group of lanes adds itself to the block's count of
//   finished threads, and the group that completes it adds the table's counts to the tally's.
//
// The table lives in the launch's dynamic shared memory, past the kernel's own
// (RecorderState::block_tally_offset): a static __shared__ array would move the kernel's own
// arrays, whose addresses are in their site keys and whose banks are the figures.
#pragma once

#include <cstdint>

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws::dev {

// BlockTally and kBlockTallyBytes: ws_cuda_record_format.h.

#if defined(__CUDACC__)

__device__ __forceinline__ BlockTally& BlockTallyOf(const RecorderState& r) {
  return *reinterpret_cast<BlockTally*>(ws_dynamic_shared + r.block_tally_offset);
}

// Every thread of the block, before the kernel's first line.
__device__ __forceinline__ void BlockTallyStart() {
  const RecorderState& r = ws_recorder_state;
  BlockTally& t = BlockTallyOf(r);
  const unsigned thread = LinearThread(), threads = blockDim.x * blockDim.y * blockDim.z;
  for (unsigned i = thread; i < kBlockTallyEntries; i += threads) {
    t.key[i] = 0;
    t.count[i] = 0;
    t.flag[i] = 0;
  }
  static_assert(sizeof(t.flag) == kBlockTallyEntries,
                "the start clears the flags with the entries");
  if (thread == 0) {
    const unsigned block = LinearBlock32();
    const bool on =
        (r.mode == kCount || r.mode == kRecord) && r.tally_keys != nullptr && !KeptBlock(r, block);
    t.on = on;
    t.done = 0;
    // CountTallied's counter and flag, for this block.
    if (on) {
      t.counters = r.tally_counts + std::size_t{block & (kTallySpread - 1u)} * r.tally_capacity;
      t.warp_flags = r.warp_tallied + static_cast<unsigned long long>(block) * r.warps_per_block;
    }
  }
  (__syncthreads)();
}

// Every thread of the block, after the kernel returned. The lanes that arrive together count
// themselves once; the group that brings the count to the block's threads writes the table out:
// each shape's count to its first slot's counter (a shape is only ever in the block's table where
// the tally's table has it at its first slot), each warp's flag.
__device__ __forceinline__ void BlockTallyFinish() {
  const RecorderState& r = ws_recorder_state;
  BlockTally& t = BlockTallyOf(r);
  if (t.on == 0) return;
  const unsigned group = __activemask();
  const unsigned lane = LaneId(), size = __popc(group);
  const int leader = __ffs(group) - 1;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned last = 0;
  __threadfence_block();  // this group's counts before its arrival
  if (static_cast<int>(lane) == leader) last = atomicAdd(&t.done, size) + size == threads;
  if (__shfl_sync(group, last, leader) == 0) return;
  __threadfence_block();  // every other group's counts after their arrivals
  const unsigned rank = __popc(group & ((1u << lane) - 1u));
  volatile BlockTally& v = t;
  for (unsigned i = rank; i < kBlockTallyEntries; i += size) {
    const unsigned n = v.count[i];
    if (n != 0) atomicAdd(t.counters + SlotOf(v.key[i], r.tally_capacity), n);
  }
  for (unsigned w = rank; w < r.warps_per_block && w < 32u; w += size)
    if (v.flag[w] != 0) t.warp_flags[w] = 1;
}

// A whole warp's affine request of `first` and `step` at site `key`, in a lean kernel
// (CountedWhole): counted in the block's table where its shape is there or can be put there,
// else as TallyWholeAffine counts it. Returns whether it was counted; where not, the general
// road records it (RecordGeneral).
__device__ __forceinline__ bool BlockTallyWhole(const RecorderState& r, std::uint64_t key,
                                                unsigned lane, unsigned first, unsigned step) {
#if __CUDA_ARCH__ >= 800
  BlockTally& t = BlockTallyOf(r);
  const unsigned long long h = AffineShapeKey(first, step, key, ~0u);
  // The multiply in AffineShapeKey carries every bit of the shape into the high half.
  const unsigned e = static_cast<unsigned>(h >> 35) & (kBlockTallyEntries - 1u);
  // One shared load for the warp: every lane holds the same answer.
  if (t.key[e] == h) {
    if (lane == 0) {
      atomicAdd(&t.count[e], 1u);
      t.flag[LinearThread() / 32u] = 1;
    }
    return true;
  }
  // A kept block, or no tally: the table stays empty.
  if (t.on == 0) return TallyWholeAffine(r, key, lane, first, step);
  const unsigned slot = SlotOf(h, r.tally_capacity);
  if (__all_sync(~0u, r.tally_keys[slot] == h) == 0) return false;  // Tally adds or finds it
  if (lane == 0) {
    const unsigned long long was = atomicCAS(&t.key[e], 0ull, h);
    if (was == 0 || was == h) {
      atomicAdd(&t.count[e], 1u);
    } else {
      atomicAdd(t.counters + slot, 1ull);  // its entry holds another shape
    }
    t.flag[LinearThread() / 32u] = 1;
  }
  return true;
#else
  (void)r, (void)key, (void)lane, (void)first, (void)step;
  return false;
#endif
}

// A lean kernel: the lesson's kernel `K`, a __device__ function in the lean unit, between the
// block's tally's start and finish. Registered under K's name (PassRegistration).
template <auto K, typename... P>
__location__(global) void BlockTallied(P... params) {
  BlockTallyStart();
  K(params...);
  BlockTallyFinish();
}
// BlockTallied's instance for K, as a template argument (kBlockTalliedOf<K>): named so, it is
// compiled for the device (named only inside a host function's body, nvcc 13 compiled none).
template <auto K, typename... P>
constexpr auto BlockTalliedOf(void (*)(P...)) {
  return &BlockTallied<K, P...>;
}
template <auto K>
inline constexpr auto kBlockTalliedOf = BlockTalliedOf<K>(K);

#endif  // __CUDACC__

}  // namespace ws::dev
