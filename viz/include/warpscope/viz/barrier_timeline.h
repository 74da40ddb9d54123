// The barriers view as numbers, with no ImGui: for one block, a row per warp (or per thread of
// one warp), each a list of spans on the block's clock (working, the warp's own threads
// arriving, waiting at the barrier), and each barrier's release with its skew and longest wait.
// The panel draws this model; tests check its numbers rather than pixels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/block_view.h"

namespace ws {

struct TimelineSpan {
  enum class Kind : std::uint8_t { kWork, kArriving, kWaiting };
  Kind kind = Kind::kWork;
  std::uint64_t from = 0, to = 0;  // from < to
  friend bool operator==(const TimelineSpan&, const TimelineSpan&) = default;
};

struct TimelineRow {
  std::string label;  // "warp 2" or "t37"
  std::uint32_t warp = 0;
  std::uint32_t first_thread = 0, threads = 0;
  std::vector<TimelineSpan> spans;  // in time order
  // The time the row's threads spent of `kind`, summed over its spans.
  std::uint64_t Total(TimelineSpan::Kind kind) const;
};

struct TimelineRelease {
  std::uint32_t line = 0;  // the barrier's source line (0: not known)
  std::uint32_t tile = 0;  // a multi-warp tile's sync: its tile's threads (0: __syncthreads())
  std::uint64_t at = 0;    // the departure
  std::uint64_t skew = 0;  // last arrival - first, over the block's threads
  std::uint64_t max_wait = 0;
};

struct BarrierTimeline {
  // Set when there is nothing to draw but words: the block's records were not kept, or the
  // kernel has no __syncthreads(). The rows are then empty.
  std::string message;
  std::vector<TimelineRow> rows;
  std::uint32_t selected_warp = 0;  // the warp asked for, within the block's
  std::vector<TimelineRelease> releases;
  std::uint64_t end_time = 0;
  std::string axis;  // "0 .. 12702 logical time"
};

// The timeline of `bv` (a block of `launch`): per warp, or with `per_thread` per thread of warp
// `warp` (clamped to the block's warps).
BarrierTimeline MakeBarrierTimeline(const LaunchTrace& launch, const BlockView& bv, bool per_thread,
                                    int warp);

}  // namespace ws
