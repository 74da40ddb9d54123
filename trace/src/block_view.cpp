#include "warpscope/trace/block_view.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "warpscope/trace/analysis.h"

namespace ws {

int BlockView::FindRequest(int site, int warp) const {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const BlockRequest& r = requests[i];
    if (static_cast<int>(r.site) == site && (warp < 0 || static_cast<int>(r.warp) == warp))
      return static_cast<int>(i);
  }
  return -1;
}

std::uint32_t AsyncCopySourceLines(const LaunchTrace& trace, const BlockView& view,
                                   const BlockRequest& r) {
  if (r.site >= trace.sites.size() || !trace.sites[r.site].async_copy) return 0;
  const SiteInfo& c = trace.sites[r.site];
  for (std::size_t g = 0; g < trace.sites.size(); ++g) {
    if (g == r.site || !IsCopyReadOf(trace.sites[g], c)) continue;
    for (const BlockRequest& q : view.requests)
      if (q.site == g && q.warp == r.warp && q.iteration == r.iteration) return Lines128(q.lanes);
    return 0;
  }
  return 0;
}

SharedCost ViewSharedCost(const LaunchTrace& trace, const BlockView& view, const BlockRequest& r) {
  const SiteInfo& s = trace.sites[r.site];
  if (s.bulk_copy) return SharedCost{};  // the TMA's write: no LSU wavefront (SiteInfo::bulk_copy)
  // A site the compiled code serves wider (SiteInfo::compiled_width): a run's first request is
  // the compiled instruction, a later one a part of it (nothing of its own).
  std::array<LaneAccess, 32> wide;
  switch (s.async_copy ? CompiledPlace::kSource : CompiledPlaceOf(s.compiled_width, r.lanes)) {
    case CompiledPlace::kPart:
      return SharedCost{};
    case CompiledPlace::kRun:
      return SharedRequestCost(WidenedLanes(s.compiled_width, r.lanes, &wide),
                               s.op == AccessOp::kLoad);
    default:
      break;
  }
  SharedCost c = SharedRequestCost(r.lanes, s.op == AccessOp::kLoad);
  c.wavefronts = std::max(c.wavefronts, AsyncCopySourceLines(trace, view, r));
  return c;
}

BlockView BuildBlockView(const LaunchTrace& trace, std::uint32_t block) {
  BlockView v;
  v.block = block;
  v.threads = static_cast<std::uint32_t>(trace.block.count());
  const auto it = std::find_if(trace.blocks.begin(), trace.blocks.end(),
                               [&](const BlockRecords& b) { return b.block == block; });
  if (it == trace.blocks.end()) return v;
  v.kept = true;
  v.thread_end.assign(v.threads, 0);

  std::vector<AccessRecord> records = it->accesses;
  std::sort(records.begin(), records.end(), [](const AccessRecord& a, const AccessRecord& b) {
    return std::tie(a.site, a.iteration, a.thread) < std::tie(b.site, b.iteration, b.thread);
  });
  for (const AccessRecord& r : records) {
    if (r.site >= trace.sites.size() || r.thread >= v.threads) continue;
    v.thread_end[r.thread] = std::max<std::uint64_t>(v.thread_end[r.thread], r.time);
  }
  // Requests: the same grouping the analyses use, with each request's earliest time.
  std::size_t cursor = 0;
  ForEachRequest(records, trace.sites, trace.buffers,
                 [&](std::uint16_t site, std::uint32_t iteration, std::uint32_t warp,
                     std::span<const LaneAccess> lanes) {
                   BlockRequest req{site,
                                    iteration,
                                    warp,
                                    std::numeric_limits<std::uint64_t>::max(),
                                    {lanes.begin(), lanes.end()}};
                   for (std::size_t k = 0; k < lanes.size(); ++k, ++cursor)
                     req.time = std::min<std::uint64_t>(req.time, records[cursor].time);
                   v.requests.push_back(std::move(req));
                 });

  // Barrier instances: threads meeting at one (site, iteration).
  std::map<std::pair<std::uint32_t, std::uint16_t>, BarrierInstance> meets;
  for (const BarrierRecord& b : it->barriers) {
    if (b.thread >= v.threads) continue;
    BarrierInstance& m = meets[{b.iteration, b.site}];
    if (m.arrival.empty()) {
      m.site = b.site;
      m.iteration = b.iteration;
      m.arrival.assign(v.threads, std::numeric_limits<std::uint64_t>::max());
      m.leave.assign(v.threads, std::numeric_limits<std::uint64_t>::max());
      m.first_arrival = std::numeric_limits<std::uint64_t>::max();
    }
    m.arrival[b.thread] = b.arrival;
    m.leave[b.thread] = b.departure;
    m.first_arrival = std::min(m.first_arrival, b.arrival);
    m.last_arrival = std::max(m.last_arrival, b.arrival);
    m.departure = std::max(m.departure, b.departure);
    v.thread_end[b.thread] = std::max(v.thread_end[b.thread], b.departure);
  }
  for (auto& [key, m] : meets) v.barriers.push_back(std::move(m));
  std::sort(v.barriers.begin(), v.barriers.end(),
            [](const BarrierInstance& a, const BarrierInstance& b) {
              return std::tie(a.first_arrival, a.site) < std::tie(b.first_arrival, b.site);
            });
  for (const WarpOpRecord& w : it->warp_ops) {
    if (w.site >= trace.warp_op_sites.size()) continue;
    WarpOpInstance op;
    op.site = w.site;
    op.iteration = w.iteration;
    op.warp = w.warp;
    op.time = w.time;
    op.mask = w.mask;
    std::copy(std::begin(w.source), std::end(w.source), std::begin(op.source));
    v.warp_ops.push_back(op);
  }
  std::stable_sort(v.warp_ops.begin(), v.warp_ops.end(),
                   [](const WarpOpInstance& a, const WarpOpInstance& b) {
                     return std::tie(a.time, a.warp) < std::tie(b.time, b.warp);
                   });
  for (std::uint64_t t : v.thread_end) v.end_time = std::max(v.end_time, t);

  // Playback: every request and barrier in time order (a barrier at its last arrival, when the
  // block is released); ties keep requests in (site, iteration, warp) order.
  for (std::size_t i = 0; i < v.requests.size(); ++i)
    v.steps.push_back({false, false, static_cast<int>(i), v.requests[i].time});
  for (std::size_t i = 0; i < v.barriers.size(); ++i)
    v.steps.push_back({true, false, static_cast<int>(i), v.barriers[i].last_arrival});
  for (std::size_t i = 0; i < v.warp_ops.size(); ++i)
    v.steps.push_back({false, true, static_cast<int>(i), v.warp_ops[i].time});
  std::stable_sort(v.steps.begin(), v.steps.end(),
                   [](const PlaybackStep& a, const PlaybackStep& b) { return a.time < b.time; });
  return v;
}

std::vector<std::uint32_t> WordsPerBank(const std::vector<LaneAccess>& lanes, int banks) {
  std::vector<std::set<std::uint64_t>> words(static_cast<std::size_t>(banks));
  for (const LaneAccess& l : lanes) {
    // An access wider than a word touches consecutive words (and banks).
    const std::uint64_t first = l.address / 4, last = (l.address + l.size - 1) / 4;
    for (std::uint64_t w = first; w <= last; ++w)
      words[static_cast<std::size_t>(w % static_cast<std::uint64_t>(banks))].insert(w);
  }
  std::vector<std::uint32_t> out(words.size());
  for (std::size_t b = 0; b < words.size(); ++b)
    out[b] = static_cast<std::uint32_t>(words[b].size());
  return out;
}

}  // namespace ws
