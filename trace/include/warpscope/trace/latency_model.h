// A cycle-level model of one multiprocessor's warp scheduler hiding memory latency (the G80
// scheduling slides: "zero-overhead warp scheduling"; one global load every 4 instructions, 4
// cycles to issue an instruction for a warp, 200 cycles of memory latency). A model, not a
// measurement: every warp runs the same stream, `instructions_between_loads` - 1 arithmetic
// instructions then a load whose result the next group needs; one warp issues at a time, taking
// `issue_cycles`; the scheduler keeps issuing one warp until it waits, then picks the warp that
// has been ready longest ("greedy, then oldest"; zero overhead: no cycle is lost switching).
//
// A register dependency (the Optimizing CUDA slides: "an instruction's result can be read ~24
// cycles later"; hiding it takes 192 threads, 6 warps, per multiprocessor) is a second stall:
// with `dependency_latency` > 0 every instruction reads the result of the one before it, so a
// warp's next instruction issues no sooner than `dependency_latency` cycles after the previous
// one started issuing (a load's data still takes `latency` after its issue).
#pragma once

#include <cstdint>
#include <vector>

#include "warpscope/trace/status.h"

namespace ws {

struct LatencyParams {
  int warps = 8;
  int instructions_between_loads = 4;
  int latency = 200;  // cycles from the end of a load's issue to its data
  int issue_cycles = 4;
  int rounds = 8;              // loads per warp (groups of instructions)
  int dependency_latency = 0;  // cycles from an instruction's issue to its result; 0: no chain
  bool loads = true;  // false: arithmetic only (every instruction_between_loads-th is no load)
};

struct WarpSegment {
  // kWaiting: for memory; kDependency: for the previous instruction's register result.
  enum Kind : std::uint8_t { kIssue, kLoad, kWaiting, kReady, kDependency };
  int warp = 0;  // -1: an idle issue slot (no warp ready)
  std::int64_t start = 0, end = 0;
  Kind kind = kIssue;
};

struct LatencyResult {
  std::vector<WarpSegment> segments;  // every warp's issue, wait and ready spans, and idle slots
  std::int64_t cycles = 0;            // until the last warp's last load returned
  std::int64_t busy_cycles = 0;       // cycles the scheduler issued
  double utilisation = 0;  // busy fraction in steady state (whole periods of warp 0, groups 2..6)
};

Result<LatencyResult> SimulateLatency(const LatencyParams& p);

// SimulateLatency(p)'s utilisation alone (no segments kept: a curve's points, a search).
Result<double> SteadyUtilisation(const LatencyParams& p);

// The fewest warps, from `min_warps`, whose steady-state utilisation is 100 % (0 if none up to
// `max_warps`). A caller that has seen fewer warps fall short starts past them.
int WarpsToSaturate(LatencyParams p, int max_warps = 64, int min_warps = 1);

}  // namespace ws
