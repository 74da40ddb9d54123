// The pipeline view's model (pipeline_timeline.h): a kept block's async events gathered per warp
// into spans.
#include "warpscope/viz/pipeline_timeline.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ws {

std::vector<PipelineSpan> PipelineRow::Of(PipelineSpan::Kind kind) const {
  std::vector<PipelineSpan> out;
  for (const PipelineSpan& s : spans) {
    if (s.kind == kind) out.push_back(s);
  }
  return out;
}

namespace {

// What a warp's lanes did for one (kind, group): the earliest start, the latest end, the lanes.
struct Gathered {
  std::uint64_t from = ~std::uint64_t{0}, to = 0;
  std::uint32_t lanes = 0;
  bool began = false, ended = false;
};

}  // namespace

PipelineTimeline MakePipelineTimeline(const LaunchTrace& launch, std::uint32_t block) {
  PipelineTimeline m;
  const auto it = std::find_if(launch.blocks.begin(), launch.blocks.end(),
                               [&](const BlockRecords& b) { return b.block == block; });
  if (it == launch.blocks.end()) {
    m.message = "Block " + std::to_string(block) +
                "'s records were not kept; the lesson runs again to record them.";
    return m;
  }
  const BlockRecords& b = *it;
  if (b.async_events.empty()) {
    m.message =
        "This block made no asynchronous copy into shared memory (__pipeline_memcpy_async, "
        "cuda::memcpy_async, cooperative_groups::memcpy_async). Try cuda-samples' "
        "globalToShmemAsyncCopy or examples/pipeline.cu.";
    return m;
  }
  using Kind = PipelineSpan::Kind;
  // (warp, kind, group) -> what its lanes did; in-flight spans from issue to landing, waits and
  // acquires from their beginning to their end, holding from a wait's end to the release.
  std::map<std::tuple<std::uint32_t, Kind, std::uint32_t>, Gathered> spans;
  auto start = [&](std::uint32_t warp, Kind kind, std::uint32_t group, std::uint64_t t,
                   std::uint32_t lane) {
    Gathered& g = spans[{warp, kind, group}];
    g.from = std::min(g.from, t);
    g.lanes |= 1u << lane;
    g.began = true;
  };
  auto end = [&](std::uint32_t warp, Kind kind, std::uint32_t group, std::uint64_t t) {
    Gathered& g = spans[{warp, kind, group}];
    g.to = std::max(g.to, t);
    g.ended = true;
  };
  for (const AsyncEvent& e : b.async_events) {
    const std::uint32_t warp = e.thread / 32u, lane = e.thread % 32u;
    m.stages = std::max<std::uint32_t>(m.stages, e.stages);
    m.end_time = std::max<std::uint64_t>(m.end_time, e.time);
    switch (e.kind) {
      case AsyncEventKind::kIssue:
        ++m.copies;
        start(warp, Kind::kInFlight, e.group, e.time, lane);
        break;
      case AsyncEventKind::kLand:
        end(warp, Kind::kInFlight, e.group, e.time);
        break;
      case AsyncEventKind::kWaitBegin:
        start(warp, Kind::kWaiting, e.group, e.time, lane);
        break;
      case AsyncEventKind::kWaitEnd:
        end(warp, Kind::kWaiting, e.group, e.time);
        start(warp, Kind::kHolding, e.group, e.time, lane);
        break;
      case AsyncEventKind::kRelease:
        end(warp, Kind::kHolding, e.group, e.time);
        break;
      case AsyncEventKind::kAcquireBegin:
        start(warp, Kind::kAcquiring, e.group, e.time, lane);
        break;
      case AsyncEventKind::kAcquireEnd:
        end(warp, Kind::kAcquiring, e.group, e.time);
        break;
      case AsyncEventKind::kCommit:
        break;
    }
  }
  for (const auto& [key, g] : spans) {
    const auto& [warp, kind, group] = key;
    // A span needs both ends, and time between them: a wait that did not wait is none; holding
    // needs a release (a thread's __pipeline_wait_prior has none).
    if (!g.began || !g.ended || g.to <= g.from) continue;
    if (m.rows.empty() || m.rows.back().warp != warp)
      m.rows.push_back({"warp " + std::to_string(warp), warp, {}});
    m.rows.back().spans.push_back({kind, group, g.from, g.to, g.lanes});
  }
  // In-flight spans onto tracks: each to the lowest track whose last span ended before it began.
  for (PipelineRow& row : m.rows) {
    std::vector<std::uint64_t> track_end;
    std::vector<PipelineSpan*> flight;
    for (PipelineSpan& s : row.spans) {
      if (s.kind == Kind::kInFlight) flight.push_back(&s);
    }
    std::stable_sort(
        flight.begin(), flight.end(),
        [](const PipelineSpan* x, const PipelineSpan* y) { return x->from < y->from; });
    for (PipelineSpan* s : flight) {
      std::size_t t = 0;
      while (t < track_end.size() && track_end[t] > s->from) ++t;
      if (t == track_end.size()) track_end.push_back(0);
      track_end[t] = s->to;
      s->track = static_cast<std::uint32_t>(t);
    }
    row.tracks = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(track_end.size()));
  }
  if (m.rows.empty()) {
    m.message = "The block's asynchronous copies landed where they were issued: nothing to draw.";
    return m;
  }
  m.axis = "0 .. " + std::to_string(m.end_time) + " " +
           (launch.time_unit == "ns" ? "ns" : "logical time");
  return m;
}

}  // namespace ws
