// Recorded barriers (ws_cuda_device.h includes this; include that one): a block's
// __syncthreads() and a multi-warp tile's sync, each pass written as a barrier event or, in a block
// not kept, counted by the tally; on a hazard pass the thread's next interval; in the lane unit
// each lane's own two rows. Split from ws_cuda_device.h, whose __syncthreads() macro calls
// SyncThreads.
#pragma once

#include <cstdint>

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws::dev {

// A recorded barrier: the arrival's stamps, `pass` (the barrier, returning its count of the
// threads that brought 1: never 0), the departure's, and the barrier event (see
// ws_cuda_record_format.h; `tile_warps`: a multi-warp tile's sync, its tile's warps in word 0's
// low bits, 0 for the block's). The departure stamp must be read after the barrier releases.
// ptxas schedules special-register reads freely (a plain __syncthreads() between two reads gave
// departure == arrival on an H100), so the read depends on the barrier's result.
// One event for the lanes that arrive together, with the leader's times: grouping them by their
// time stamps split a warp into as many groups as the stamps differed, and a recording pass that
// split differently from the counting pass ran out of the words that pass reserved, losing
// barrier passes (a 1D stencil whose halo lanes branch off just before the barrier kept 768 of
// 4,096). The leader reserves the event's words before the barrier, so that the reservation's
// round trip to L2 overlaps the wait there: reserved after it, every warp of a block waited for
// its own at once (8 % of the stall samples of transpose 4096²'s recording pass, Nsight Compute,
// H200; bench/gpu_tally_micro.cu's recorded transpose 0.507 -> 0.467 ms). The arrival is stamped
// before the reservation, where the kernel reached the barrier. The barrier orders the
// reservation before any later event of the group's lanes (lanes of the warp that arrive apart
// write their own events; the host counts epochs per lane).
// A tallied pass's wait, added at its counters `at` (the column plus the shape's slot) for the
// `lanes` that passed: the waits' sum and their maximum.
__device__ __forceinline__ void AddBarrierWaitTo(unsigned long long* waits,
                                                 unsigned long long* wait_max, std::size_t at,
                                                 std::uint64_t arrival, std::uint64_t departure,
                                                 unsigned lanes) {
  const unsigned long long wait = departure >= arrival ? departure - arrival : 0ull;
  atomicAdd(waits + at, wait * static_cast<unsigned long long>(lanes));
  atomicMax(wait_max + at, wait);
}
__device__ __forceinline__ void AddBarrierWait(const RecorderState& r, std::size_t at,
                                               std::uint64_t arrival, std::uint64_t departure,
                                               unsigned lanes) {
  AddBarrierWaitTo(r.tally_waits, r.tally_wait_max, at, arrival, departure, lanes);
}

// A written pass's barrier event (ws_cuda_record_format.h), at `w`, its leader's.
__device__ __forceinline__ void WriteBarrierEvent(unsigned* w, std::uint32_t place,
                                                  std::uint32_t tile_warps, unsigned group,
                                                  std::uint32_t arrived, std::uint64_t arrival,
                                                  std::uint64_t departure, unsigned cycles) {
  w[0] = kEventBarrier | tile_warps | (arrived & 0x7ffu) << 16;
  w[1] = place;
  w[2] = group;
  w[3] = static_cast<std::uint32_t>(departure);
  w[4] = static_cast<std::uint32_t>(arrival);
  w[5] = static_cast<std::uint32_t>(arrival >> 32);
  w[6] = SmId();
  w[7] = cycles;
}

// `col`: the warp's tally column (TallyColumnOf), ~0u where the pass is written (a kept block, no
// tally, a hazard pass). kMayTally false: never counted (WrittenBarrier), the tally's code left
// out by the compiler's front end, not by folding `col`: that code reads the kernel's own
// register in the state build (TallyWholeMeeting), which a function out of line cannot name.
template <bool kMayTally = true, typename Pass>
__device__ __forceinline__ void TimedBarrierAs(std::uint32_t place, std::uint32_t tile_warps,
                                               Pass pass, const char* file, unsigned col) {
  const RecorderState& r = ws_recorder_state;
  const std::uint64_t arrival = GlobalTimer();
  // The SM clock's cycles go only into a written event: where the warp keeps its tally state
  // (kWarpState) its column is a register, so the clock is read after it and only where the pass
  // is not to be counted (a tallied pass keeps the %globaltimer wait alone). A pass the tally was
  // to count and did not take (part of a warp, the table full) is written with 0 cycles there:
  // its block is not kept, so its records, where the cycles are read, are not either.
  long long arrival_clock = kWarpState ? 0 : clock64();
  const unsigned group = __activemask();
  const unsigned lane = LaneId();
  const bool leader = static_cast<int>(lane) == __ffs(group) - 1;
  // In a block not kept, with a tally, the pass is counted after the barrier (its shape needs the
  // barrier's count) where the tally takes it; else written, its words reserved before it.
  const unsigned block = kWarpState ? 0u : LinearBlock32();
  const bool tallied = kMayTally && col != ~0u;
  const bool clocked = !kWarpState || !tallied;
  if (kWarpState && clocked) arrival_clock = clock64();
  unsigned* w = nullptr;
  if (leader && !tallied && !kLaneLogOnly) {
    if (file != nullptr) NoteFile(PlaceFile(place), file);
    w = Reserve(r, LinearWarp(r), kBarrierEventWords);
  }
  const std::uint32_t arrived = pass();
  std::uint64_t departure = 0;
  long long departure_clock = arrival_clock;
  if (arrived > 0) {
    departure = GlobalTimer();
    if (clocked) departure_clock = clock64();
  }
  if constexpr (kLaneLogOnly)  // each lane its own two rows
    return LaneBarrier(r, kEventBarrier | tile_warps | (arrived & 0x7ffu) << 16, place, group,
                       arrival, departure, unsigned(departure_clock - arrival_clock));
  if constexpr (kMayTally) {
    if (tallied) {
      const std::uint64_t key =
          static_cast<std::uint64_t>(place) << 32 | kTallyBarrier | tile_warps;
      unsigned slot = group == ~0u ? TallyWholeMeeting(r, key, lane, arrived, block) : ~0u;
      if (slot == ~0u)
        slot = Tally(r, key, group, lane, __ffs(group) - 1, 0, true, 0, 0, file, arrived);
      if (slot != ~0u) {
        if (leader) AddBarrierWait(r, std::size_t{col} + slot, arrival, departure, __popc(group));
        __syncwarp(group);
        return;
      }
      if (leader) {  // not taken (a group of part of the warp, the table full): written after all
        if (file != nullptr) NoteFile(PlaceFile(place), file);
        w = Reserve(r, LinearWarp(r), kBarrierEventWords);
      }
    }
  }
  if (leader && w != nullptr)
    WriteBarrierEvent(w, place, tile_warps, group, arrived, arrival, departure,
                      static_cast<std::uint32_t>(departure_clock - arrival_clock));
  // The lanes leave together: without this the others ran on while the leader wrote, and the
  // warp's next access was recorded as two requests, the leader's apart (a divergent
  // reduction's shared store: 220 requests where the emulator counts 188, H200).
  __syncwarp(group);
}

#if defined(WS_OUT_OF_LINE_ROADS)
// The roads a tallied warp's pass seldom takes, out of line (ws_cuda_device.h's
// RecordGeneralOutOfLine says why): a kept block's pass, written whole ...
template <typename Pass>
static __device__ __noinline__ void WrittenBarrier(std::uint32_t place, std::uint32_t tile_warps,
                                                   Pass pass, const char* file) {
  TimedBarrierAs<false>(place, tile_warps, pass, file, ~0u);
}
// ... and, after the barrier, a pass the short road did not count (part of a warp, a shape past
// its first slot): counted by Tally at the column `col`, else written, with 0 cycles as
// TimedBarrierAs writes such a pass.
static __device__ __noinline__ void CountOrWriteBarrier(
    std::uint32_t place, std::uint32_t tile_warps, unsigned group, std::uint32_t arrived,
    std::uint64_t arrival, std::uint64_t departure, const char* file, unsigned col) {
  const RecorderState& r = ws_recorder_state;
  const unsigned lane = LaneId();
  const bool leader = static_cast<int>(lane) == __ffs(group) - 1;
  const std::uint64_t key = static_cast<std::uint64_t>(place) << 32 | kTallyBarrier | tile_warps;
  const unsigned slot = Tally(r, key, group, lane, __ffs(group) - 1, 0, true, 0, 0, file, arrived);
  if (slot != ~0u) {
    if (leader) AddBarrierWait(r, std::size_t{col} + slot, arrival, departure, __popc(group));
  } else if (leader) {
    if (file != nullptr) NoteFile(PlaceFile(place), file);
    unsigned* w = Reserve(r, LinearWarp(r), kBarrierEventWords);
    if (w != nullptr)
      WriteBarrierEvent(w, place, tile_warps, group, arrived, arrival, departure, 0);
  }
  __syncwarp(group);
}
#endif

template <typename Pass>
__device__ __forceinline__ void TimedBarrier(std::uint32_t place, std::uint32_t tile_warps,
                                             Pass pass, const char* file = nullptr) {
  const RecorderState& r = ws_recorder_state;
#if defined(WS_OUT_OF_LINE_ROADS) && defined(WS_WARP_STATE_BUILD)
  if constexpr (kWarpState && !kLaneLogOnly) {
    // A tallied warp's pass inline: the barrier, its two stamps, the short road's count and the
    // waits; the rest out of line.
    const unsigned col = HazardPass(r.mode) ? ~0u : TallyColumnOf(r, 0);
    if (col == ~0u) return WrittenBarrier(place, tile_warps, pass, file);
    const std::uint64_t arrival = GlobalTimer();
    const unsigned group = __activemask();
    const unsigned lane = LaneId();
    const std::uint32_t arrived = pass();
    const std::uint64_t departure = arrived > 0 ? GlobalTimer() : 0;
    const std::uint64_t key = static_cast<std::uint64_t>(place) << 32 | kTallyBarrier | tile_warps;
    // The direct road (ws_cuda_tally.h, CountDirect): the barrier's entry in the launch's table
    // holds its key and its count of threads plus one; counted at place 0 of it, its waits
    // beside it.
    if (group == ~0u) {  // no table's entry without its counters (CountDirect)
      const unsigned s = DirectSiteSlot(key);
      const DirectSite& e = r.direct_table[s];
      if (__all_sync(~0u, e.key == key && e.step1 == arrived + 1u) != 0) {
        if (lane == 0) {
          const std::size_t at = std::size_t{col} + s * kDirectPlaces;
          atomicAdd(r.direct_counts + at, 1ull);
          AddBarrierWaitTo(r.direct_waits, r.direct_wait_max, at, arrival, departure, 32);
        }
        asm volatile("or.b32 ws_tally_warp, ws_tally_warp, %0;" ::"n"(kWarpCounted));
        __syncwarp();
        return;
      }
    }
    const unsigned slot = group == ~0u ? TallyWholeMeeting(r, key, lane, arrived, 0) : ~0u;
    if (slot == ~0u)
      return CountOrWriteBarrier(place, tile_warps, group, arrived, arrival, departure, file, col);
    if (lane == 0) AddBarrierWait(r, std::size_t{col} + slot, arrival, departure, 32);
    __syncwarp();
    return;
  }
#endif
  const unsigned block = kWarpState ? 0u : LinearBlock32();
  TimedBarrierAs(place, tile_warps, pass, file, HazardPass(r.mode) ? ~0u : TallyColumnOf(r, block));
}

// `file`: the literal the place's tag stands for, noted by the barrier event's leader.
__device__ __forceinline__ void SyncThreads(std::uint32_t place, const char* file = nullptr) {
  if (!kLaneLogOnly && ws_recorder_state.mode == kOff) {
    (__syncthreads)();
    return;
  }
  if (!kLaneLogOnly && HazardPass(ws_recorder_state.mode)) {
    (__syncthreads)();
    HazardBarrierPassed(ws_recorder_state);
    return;
  }
  // __syncthreads_count is the same block-wide barrier and returns the block's thread count.
  TimedBarrier(
      place, 0, [] { return static_cast<std::uint32_t>(__syncthreads_count(1)); }, file);
}

// A multi-warp tile's sync (cooperative groups' thread_block_tile<64..1024>): the tile's
// `threads` threads meet at named barrier 1 + their tile's rank (barrier 0 is __syncthreads()'s;
// a block has 16), recorded as a barrier event that says its tile.
__device__ __forceinline__ void TileSync(std::uint32_t threads, std::uint32_t place) {
  const std::uint32_t linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const std::uint32_t id = 1 + linear / threads;
  // The barrier's count of the threads that brought 1: its tile's.
  auto pass = [id, threads] {
    std::uint32_t arrived = 0;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, 1, 0; bar.red.popc.u32 %0, %1, %2, p; }"
                 : "=r"(arrived)
                 : "r"(id), "r"(threads)
                 : "memory");
    return arrived;
  };
  if (!kLaneLogOnly && (ws_recorder_state.mode == kOff || HazardPass(ws_recorder_state.mode))) {
    pass();  // a tile's sync counts in no thread's interval
    return;
  }
  TimedBarrier(place, threads / 32, pass);
}

}  // namespace ws::dev
