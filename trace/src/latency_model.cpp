#include "warpscope/trace/latency_model.h"

#include <algorithm>
#include <string>

namespace ws {
namespace {

Status CheckParams(const LatencyParams& p) {
  auto check = [](const char* name, int v, int lo, int hi) -> Status {
    if (v < lo || v > hi)
      return Status::Error(std::string(name) + " = " + std::to_string(v) + " is outside " +
                           std::to_string(lo) + ".." + std::to_string(hi));
    return {};
  };
  for (Status s : {check("warps", p.warps, 1, 64),
                   check("instructions_between_loads", p.instructions_between_loads, 1, 64),
                   check("latency", p.latency, 0, 10000),
                   check("issue_cycles", p.issue_cycles, 1, 64), check("rounds", p.rounds, 8, 64),
                   check("dependency_latency", p.dependency_latency, 0, 1000)}) {
    if (!s.ok()) return s;
  }
  return {};
}

// The schedule of `p` (checked) into `r`: where `segments` is set, the whole run (its segments,
// cycles, busy cycles and utilisation), else the utilisation alone, the run stopped as soon as it
// is known. The latency lesson asks for 48 to 112 utilisations a run (its curve over the warp
// count, and the search for saturation), whose segments nobody reads.
void Schedule(const LatencyParams& p, bool segments, LatencyResult* r) {
  struct Warp {
    std::int64_t ready_at = 0;  // when its next instruction may issue
    int issued = 0;             // instructions issued so far
  };
  std::vector<Warp> warps(static_cast<std::size_t>(p.warps));
  const int total = p.rounds * p.instructions_between_loads;
  // Warp 0's groups: the cycle each one's first instruction issued, and the instructions any
  // warp issued before it.
  std::vector<std::int64_t> group_start, issued_before;
  std::int64_t issues = 0;
  std::int64_t t = 0;
  int last = -1;  // the warp that issued last
  for (;;) {
    // Greedy, then oldest: the warp that issued last while it stays ready, else the warp ready
    // longest (lowest index on a tie) among those with instructions left. (A scan of the warps:
    // a heap of them was slower under the sanitizers and no faster at -O3, with 48 at most.)
    int pick = -1;
    std::int64_t next_ready = -1;
    for (int w = 0; w < p.warps; ++w) {
      const Warp& x = warps[static_cast<std::size_t>(w)];
      if (x.issued == total) continue;
      if (x.ready_at <= t &&
          (pick < 0 || x.ready_at < warps[static_cast<std::size_t>(pick)].ready_at))
        pick = w;
      if (next_ready < 0 || x.ready_at < next_ready) next_ready = x.ready_at;
    }
    if (next_ready < 0) break;  // every warp is done
    if (last >= 0) {
      const Warp& l = warps[static_cast<std::size_t>(last)];
      if (l.issued < total && l.ready_at <= t) pick = last;
    }
    if (pick < 0) {  // nobody ready: the issue slot goes unused
      if (segments) r->segments.push_back({-1, t, next_ready, WarpSegment::kIssue});
      t = next_ready;
      continue;
    }
    Warp& x = warps[static_cast<std::size_t>(pick)];
    last = pick;
    if (segments && x.ready_at < t)
      r->segments.push_back({pick, x.ready_at, t, WarpSegment::kReady});
    const bool load = p.loads && (x.issued + 1) % p.instructions_between_loads == 0;
    if (pick == 0 && x.issued % p.instructions_between_loads == 0) {
      group_start.push_back(t);
      issued_before.push_back(issues);
      // The utilisation is known once warp 0's 7th group starts: the rest only adds segments
      // and cycles.
      if (!segments && group_start.size() == 7) break;
    }
    const std::int64_t end = t + p.issue_cycles;
    if (segments)
      r->segments.push_back({pick, t, end, load ? WarpSegment::kLoad : WarpSegment::kIssue});
    r->busy_cycles += p.issue_cycles;
    ++issues;
    ++x.issued;
    x.ready_at = end;
    if (load) {
      x.ready_at = end + p.latency;
      if (segments && p.latency > 0)
        r->segments.push_back({pick, end, x.ready_at, WarpSegment::kWaiting});
    }
    // The next instruction reads this one's result: it waits out the rest of the dependency.
    const std::int64_t result = t + p.dependency_latency;
    if (x.issued < total && result > x.ready_at) {
      if (segments) r->segments.push_back({pick, x.ready_at, result, WarpSegment::kDependency});
      x.ready_at = result;
    }
    r->cycles = std::max(r->cycles, x.ready_at);
    t = end;
  }
  // Steady state: whole periods of warp 0 from its 3rd group to its 7th (the schedule repeats
  // with warp 0's period once every warp has started). One warp issues at a time, each issue
  // ending before the next starts, so the busy cycles from group 2's start to group 6's are the
  // issues between them, whole.
  const std::int64_t from = group_start[2], to = group_start[6];
  const std::int64_t busy = (issued_before[6] - issued_before[2]) * p.issue_cycles;
  r->utilisation = to > from ? static_cast<double>(busy) / static_cast<double>(to - from) : 1.0;
}

}  // namespace

Result<LatencyResult> SimulateLatency(const LatencyParams& p) {
  if (Status s = CheckParams(p); !s.ok()) return s;
  LatencyResult r;
  Schedule(p, true, &r);
  return r;
}

Result<double> SteadyUtilisation(const LatencyParams& p) {
  if (Status s = CheckParams(p); !s.ok()) return s;
  LatencyResult r;
  Schedule(p, false, &r);
  return r.utilisation;
}

int WarpsToSaturate(LatencyParams p, int max_warps, int min_warps) {
  for (int n = std::max(1, min_warps); n <= max_warps; ++n) {
    p.warps = n;
    auto u = SteadyUtilisation(p);
    if (u.ok() && *u >= 1.0 - 1e-9) return n;
  }
  return 0;
}

}  // namespace ws
