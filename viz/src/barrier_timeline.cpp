#include "warpscope/viz/barrier_timeline.h"

#include <algorithm>
#include <limits>

namespace ws {
namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

void Push(std::vector<TimelineSpan>& spans, TimelineSpan::Kind kind, std::uint64_t from,
          std::uint64_t to) {
  if (to > from) spans.push_back({kind, from, to});
}

}  // namespace

std::uint64_t TimelineRow::Total(TimelineSpan::Kind kind) const {
  std::uint64_t sum = 0;
  for (const TimelineSpan& s : spans) sum += s.kind == kind ? s.to - s.from : 0;
  return sum;
}

BarrierTimeline MakeBarrierTimeline(const LaunchTrace& launch, const BlockView& bv, bool per_thread,
                                    int warp) {
  BarrierTimeline m;
  if (!bv.kept) {
    m.message = "Block " + std::to_string(bv.block) +
                "'s records were not kept; the lesson runs again to record them.";
    return m;
  }
  if (bv.barriers.empty()) {
    m.message =
        "This kernel has no __syncthreads(). Try barrier, transpose (coalesced), reverse or "
        "matmul (tiled).";
    return m;
  }
  m.end_time = bv.end_time;
  m.axis = "0 .. " + std::to_string(bv.end_time) + " " +
           (launch.time_unit == "ns" ? "ns" : "logical time");
  const std::uint32_t warps = (bv.threads + 31) / 32;
  const auto chosen = static_cast<std::uint32_t>(std::clamp(warp, 0, static_cast<int>(warps) - 1));
  m.selected_warp = chosen;
  if (per_thread) {
    for (std::uint32_t th = chosen * 32; th < std::min(bv.threads, (chosen + 1) * 32); ++th)
      m.rows.push_back({"t" + std::to_string(th), chosen, th, 1, {}});
  } else {
    for (std::uint32_t w = 0; w < warps; ++w)
      m.rows.push_back(
          {"warp " + std::to_string(w), w, w * 32, std::min(32u, bv.threads - w * 32), {}});
  }
  for (TimelineRow& row : m.rows) {
    std::uint64_t row_end = 0;
    for (std::uint32_t th = row.first_thread; th < row.first_thread + row.threads; ++th)
      row_end = std::max(row_end, bv.thread_end[th]);
    // Work up to the row's first arrival, its threads' own spread, then waiting until release.
    std::uint64_t from = 0;
    for (const BarrierInstance& b : bv.barriers) {
      std::uint64_t first = kNone, last = 0;
      for (std::uint32_t th = row.first_thread; th < row.first_thread + row.threads; ++th) {
        if (b.arrival[th] == kNone) continue;
        first = std::min(first, b.arrival[th]);
        last = std::max(last, b.arrival[th]);
      }
      if (first == kNone) continue;
      Push(row.spans, TimelineSpan::Kind::kWork, from, first);
      Push(row.spans, TimelineSpan::Kind::kArriving, first, last);
      Push(row.spans, TimelineSpan::Kind::kWaiting, last, b.departure);
      from = b.departure;
    }
    Push(row.spans, TimelineSpan::Kind::kWork, from, row_end);
  }
  for (const BarrierInstance& b : bv.barriers) {
    TimelineRelease r;
    r.line = b.site < launch.barrier_sites.size() ? launch.barrier_sites[b.site].line : 0;
    r.tile = b.site < launch.barrier_sites.size() ? launch.barrier_sites[b.site].tile : 0;
    r.at = b.departure;
    r.skew = b.last_arrival - b.first_arrival;
    for (std::size_t th = 0; th < b.arrival.size(); ++th) {
      if (b.arrival[th] != kNone) r.max_wait = std::max(r.max_wait, b.leave[th] - b.arrival[th]);
    }
    m.releases.push_back(r);
  }
  return m;
}

}  // namespace ws
