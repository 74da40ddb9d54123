// One block's records reorganised for the views: its warp-level requests (the lanes of a warp at
// one site and iteration, with their addresses) and its barrier instances, plus a time-ordered
// list of steps for playback. Built from a LaunchTrace's kept records; no GL, no ImGui. The
// views draw it; it lives in trace/ because it is an analysis of the run, not a drawing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/request.h"

namespace ws {

struct BlockRequest {
  std::uint16_t site = 0;
  std::uint32_t iteration = 0;
  std::uint32_t warp = 0;
  std::uint64_t time = 0;         // the earliest lane's time
  std::vector<LaneAccess> lanes;  // sorted by lane; address as the analyses see it
};

// One (barrier site, iteration) meeting of the block's threads.
struct BarrierInstance {
  std::uint16_t site = 0;
  std::uint32_t iteration = 0;
  std::uint64_t first_arrival = 0, last_arrival = 0, departure = 0;
  std::vector<std::uint64_t> arrival;  // per thread of the block (missing: UINT64_MAX)
  std::vector<std::uint64_t> leave;    // per thread
};

// One meeting of a warp at a warp-level intrinsic (a shuffle, a vote).
struct WarpOpInstance {
  std::uint16_t site = 0;  // index into the launch's warp_op_sites
  std::uint32_t iteration = 0;
  std::uint32_t warp = 0;
  std::uint64_t time = 0;
  std::uint32_t mask = 0;        // the lanes that took part
  std::uint8_t source[32] = {};  // the lane each lane read (itself: its own value)
};

struct PlaybackStep {
  bool barrier = false;  // true: barriers[index]
  bool warp_op = false;  // true: warp_ops[index]; neither: requests[index]
  int index = 0;
  std::uint64_t time = 0;
};

struct BlockView {
  bool kept = false;  // false: the block's records were not kept (only stats)
  std::uint32_t block = 0;
  std::uint32_t threads = 0;              // threads per block
  std::vector<BlockRequest> requests;     // sorted by (site, iteration, warp)
  std::vector<BarrierInstance> barriers;  // sorted by (time, site)
  std::vector<WarpOpInstance> warp_ops;   // by (time, warp)
  std::vector<PlaybackStep> steps;        // requests, barriers and warp meetings by time
  std::vector<std::uint64_t> thread_end;  // per thread: its last recorded time
  std::uint64_t end_time = 0;             // the block's last recorded time

  // Index of the first request of `site` (and `warp`, if >= 0); -1 if none.
  int FindRequest(int site, int warp) const;
};

BlockView BuildBlockView(const LaunchTrace& trace, std::uint32_t block);

// An asynchronous copy's shared write (SiteInfo::async_copy) takes a wavefront for each global
// 128-byte line of its sources where that is more than a store's (an H200: kernels/async/
// ldgsts_lines.txt, as the launch's figures count it): the lines of the request of the same warp
// and iteration at the copy's global read (the site of the same place), or 0 where `r` is no such
// write or its read is not in the view.
std::uint32_t AsyncCopySourceLines(const LaunchTrace& trace, const BlockView& view,
                                   const BlockRequest& r);
// What the views show for a shared request: SharedRequestCost, with an asynchronous copy's write
// taking AsyncCopySourceLines where that is more.
SharedCost ViewSharedCost(const LaunchTrace& trace, const BlockView& view, const BlockRequest& r);

// Distinct 4-byte words per bank (32 banks) of one request: the heatmap's cell values. The
// largest is the conflict degree (BankConflictDegree).
std::vector<std::uint32_t> WordsPerBank(const std::vector<LaneAccess>& lanes, int banks = 32);

}  // namespace ws
