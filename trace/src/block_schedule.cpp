#include "warpscope/trace/block_schedule.h"

#include <algorithm>
#include <string>

namespace ws {

BlockDispatcher::BlockDispatcher(int sms, int blocks_per_sm)
    : sms_(std::max(sms, 1)),
      per_sm_(std::max(blocks_per_sm, 1)),
      free_at_(static_cast<std::size_t>(sms_) * static_cast<std::size_t>(per_sm_), 0.0) {}

BlockPlacement BlockDispatcher::Place(std::uint32_t block) {
  const double t = *std::min_element(free_at_.begin(), free_at_.end());
  int best_sm = -1, best_slot = 0, best_running = 0;
  for (int sm = 0; sm < sms_; ++sm) {
    int running = 0, free_slot = -1;
    for (int k = 0; k < per_sm_; ++k) {
      const double f = free_at_[static_cast<std::size_t>(sm * per_sm_ + k)];
      if (f > t)
        ++running;
      else if (free_slot < 0)
        free_slot = k;
    }
    if (free_slot < 0) continue;  // this SM is full at time t
    if (best_sm < 0 || running < best_running) {
      best_sm = sm;
      best_slot = free_slot;
      best_running = running;
    }
  }
  BlockPlacement p;
  p.block = block;
  p.sm = best_sm;
  p.slot = best_slot;
  p.start = t;
  p.end = t;
  // Until Finish, the slot is taken: nothing may be placed on it.
  free_at_[static_cast<std::size_t>(best_sm * per_sm_ + best_slot)] = 1e300;
  return p;
}

void BlockDispatcher::Finish(const BlockPlacement& placed, double end) {
  free_at_[static_cast<std::size_t>(placed.sm * per_sm_ + placed.slot)] = end;
}

Status CheckBlockSchedule(int sms, int blocks_per_sm) {
  if (sms < 1 || sms > 4096)
    return Status::Error("sms = " + std::to_string(sms) + " is outside 1..4096");
  if (blocks_per_sm < 1) {
    return Status::Error("no block fits on a multiprocessor (" + std::to_string(blocks_per_sm) +
                         " resident blocks): the block is over the device's limits");
  }
  return {};
}

std::vector<BlockPlacement> ScheduleBlocks(const std::vector<double>& durations, int sms,
                                           int blocks_per_sm) {
  BlockDispatcher d(sms, blocks_per_sm);
  std::vector<BlockPlacement> placed;
  placed.reserve(durations.size());
  for (std::size_t b = 0; b < durations.size(); ++b) {
    BlockPlacement p = d.Place(static_cast<std::uint32_t>(b));
    p.end = p.start + durations[b];
    d.Finish(p, p.end);
    placed.push_back(p);
  }
  return placed;
}

ScheduleSummary SummarizeSchedule(const std::vector<BlockPlacement>& placed, int sms) {
  ScheduleSummary s;
  int top = std::max(sms, 1);
  for (const BlockPlacement& p : placed) top = std::max(top, p.sm + 1);
  s.blocks_per_sm.assign(static_cast<std::size_t>(top), 0);
  if (placed.empty()) return s;
  double first = placed.front().start, last = placed.front().end;
  // Per SM: +1 at each start, -1 at each end (ends first at equal times: a slot handed on).
  std::vector<std::vector<std::pair<double, int>>> events(static_cast<std::size_t>(top));
  for (const BlockPlacement& p : placed) {
    first = std::min(first, p.start);
    last = std::max(last, p.end);
    ++s.blocks_per_sm[static_cast<std::size_t>(p.sm)];
    events[static_cast<std::size_t>(p.sm)].push_back({p.start, +1});
    events[static_cast<std::size_t>(p.sm)].push_back({p.end, -1});
  }
  s.makespan = last - first;
  double covered = 0;
  for (auto& e : events) {
    std::sort(e.begin(), e.end());
    int running = 0;
    double since = 0;
    for (const auto& [t, d] : e) {
      if (running == 0 && d > 0) since = t;
      running += d;
      if (running == 0 && d < 0) covered += t - since;
      s.most_resident = std::max(s.most_resident, running);
    }
  }
  s.busy = s.makespan > 0 ? covered / (static_cast<double>(top) * s.makespan) : 0;
  return s;
}

}  // namespace ws
