// A prototype for bench/gpu_tally_micro.cu (WS_MICRO_BLOCK_BARRIER): a tallied barrier pass
// counted once a block instead of once a warp. The thirty-fourth session's ablations put the
// padded transpose's barrier pass at about 0.05 ms of the micro's 0.29 (its lookup and count 0.03,
// its waits' two atomics 0.02). Where every thread of a block not kept arrived (the barrier's count
// is the block's threads) and the warp is whole, only the block's warp 0 looks the pass's shape up
// and counts it, as many times as the block has warps; every warp still adds its wait, but at a
// slot of the barrier's place alone (direct-mapped in the block's column of the micro's own
// arrays), with no lookup. Anything else goes the product's road (ws::dev::SyncThreads). The host
// of a product built so would read the waits by place and check that no two of a launch's barrier
// places share a slot; the micro only times it and checks the counts. Not yet a product's: the
// block's count says every thread arrived, not that every warp arrived whole (a warp may reach the
// barrier in two groups, which this would count with warp 0's and drop); a product would need a
// block-wide vote on that too (a review, thirty-fifth session). The micro's transpose has 1,024
// threads a block, every warp whole.
// Measured and not taken (H200, thirty-sixth session, two rounds, docs/GPU.md): the padded
// transpose 0.2876 / 0.2885 ms against 0.2769 / 0.2784 without it, the copy unchanged.
#pragma once

#include "warpscope/kernels/ws_cuda_device.h"

namespace micro {

constexpr unsigned kWaitSlots = 64;  // a column's direct-mapped wait slots

struct BlockBarrierState {
  unsigned long long* waits;     // [kTallySpread * kWaitSlots]
  unsigned long long* wait_max;  // [kTallySpread * kWaitSlots]
};
__constant__ BlockBarrierState block_barrier;

// The lean unit's build only (the warp's tally state, WS_WARP_STATE_BUILD).
__device__ __forceinline__ void BlockCountedBarrier(std::uint32_t place) {
  const ws::dev::RecorderState& r = ws_recorder_state;
  const unsigned col = r.mode == ws::dev::kOff ? ~0u : ws::dev::TallyColumnOf(r, 0);
  if (col == ~0u) return ws::dev::SyncThreads(place);  // a kept block (or off): the product's
  const std::uint64_t arrival = ws::dev::GlobalTimer();
  const unsigned group = __activemask();
  const auto arrived = static_cast<std::uint32_t>(__syncthreads_count(1));
  // Read after the barrier releases: the read depends on its count (ws_cuda_barrier.h says why).
  const std::uint64_t departure = arrived > 0 ? ws::dev::GlobalTimer() : arrival;
  const unsigned lane = ws::dev::LaneId();
  if (group != ~0u || arrived != r.threads_per_block) {
    // Part of a warp or of the block: each warp's pass counted as the product counts it.
    const std::uint64_t key = static_cast<std::uint64_t>(place) << 32 | ws::dev::kTallyBarrier;
    if (ws::dev::Tally(r, key, group, lane, __ffs(group) - 1, 0, true, 0, 0, nullptr, arrived) ==
        ~0u)
      return __syncwarp(group);  // the product writes it (the micro never comes here)
  } else if (ws::dev::LinearThread() < 32u) {
    const std::uint64_t key = static_cast<std::uint64_t>(place) << 32 | ws::dev::kTallyBarrier;
    const unsigned long long h =
        ws::dev::MixLines(ws::dev::AffineShapeKey(0, 0, key, ~0u), arrived);
    const unsigned slot = ws::dev::SlotOf(h, r.tally_capacity);
    unsigned long long more = r.threads_per_block / 32u;  // the block's warps, all whole
    unsigned at = slot;
    if ((__all_sync)(~0u, r.tally_keys[slot] == h) == 0) {
      // Not at its first slot (its first pass in the launch): Tally adds it and counts one.
      at = ws::dev::Tally(r, key, ~0u, lane, 0, 0, true, 0, 0, nullptr, arrived);
      more -= 1;
    }
    if (lane == 0 && at != ~0u) atomicAdd(r.tally_counts + col + at, more);
  }
  // Every warp of the block counted (its flag stored at its exit, ws_cuda_tally.h).
  asm volatile("or.b32 ws_tally_warp, ws_tally_warp, %0;" ::"n"(ws::dev::kWarpCounted));
  if (lane == 0) {
    const std::size_t w = std::size_t{col} / r.tally_capacity * kWaitSlots +
                          ((place * 0x9e3779b9u) >> 26 & (kWaitSlots - 1u));
    const unsigned long long wait = departure >= arrival ? departure - arrival : 0ull;
    atomicAdd(block_barrier.waits + w, wait * static_cast<unsigned long long>(__popc(group)));
    atomicMax(block_barrier.wait_max + w, wait);
  }
  __syncwarp(group);
}

}  // namespace micro
