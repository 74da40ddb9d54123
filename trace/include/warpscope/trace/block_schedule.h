// Blocks dealt out to streaming multiprocessors (the textbook's "transparent scalability" and
// "thread block assignment to SMs" figures). A model of a GPU's block scheduler, used by the
// emulator while it runs a grid and by the scalability lesson to replay measured blocks on other
// SM counts:
//   - each SM holds at most `blocks_per_sm` blocks at once (the occupancy rules decide how many);
//   - blocks are dealt in index order; the next block goes to the slot that frees first, and
//     among SMs free at that instant to the one running the fewest blocks, then the lowest
//     number (so the first wave is dealt round-robin: block 0 to SM 0, block 1 to SM 1, ...);
//   - a block's duration does not depend on the blocks beside it (as if every resident warp had
//     the issue slots it needs: a latency-bound kernel, not a throughput-bound one).
//
//   BlockDispatcher d(2, 3);                 // 2 SMs, 3 blocks each
//   BlockPlacement p = d.Place(0);           // block 0 on SM 0 at time 0
//   d.Finish(p, p.start + 100);              // it ran 100 units
//   std::vector<BlockPlacement> all = ScheduleBlocks({100, 100, ...}, 2, 3);
#pragma once

#include <cstdint>
#include <vector>

#include "warpscope/trace/status.h"

namespace ws {

struct BlockPlacement {
  std::uint32_t block = 0;
  int sm = 0;
  double start = 0, end = 0;
  int slot = 0;  // which of the SM's resident slots (for the dispatcher)
};

class BlockDispatcher {
 public:
  // sms >= 1 and blocks_per_sm >= 1 (callers check; see CheckBlockSchedule).
  BlockDispatcher(int sms, int blocks_per_sm);
  // Where and when the next block starts. Call Finish for it before placing the next one: the
  // next placement may depend on when this block ends.
  BlockPlacement Place(std::uint32_t block);
  void Finish(const BlockPlacement& placed, double end);

 private:
  int sms_, per_sm_;
  std::vector<double> free_at_;  // per slot (sm * per_sm + k): when it is free again
};

// Refuses what the model cannot take, naming the limit and the value.
Status CheckBlockSchedule(int sms, int blocks_per_sm);

// Every block placed, given each block's duration (index = block).
std::vector<BlockPlacement> ScheduleBlocks(const std::vector<double>& durations, int sms,
                                           int blocks_per_sm);

struct ScheduleSummary {
  double makespan = 0;             // last end - first start
  std::vector<int> blocks_per_sm;  // blocks each SM ran, over the whole grid (index = SM)
  int most_resident = 0;           // most blocks running on one SM at the same instant
  double busy = 0;  // share of SM time (SMs x makespan) with at least one block: 1 = none idle
};

// `sms`: how many SMs the device has (SM numbers at or above it are counted too, in
// blocks_per_sm and in busy's SM time).
ScheduleSummary SummarizeSchedule(const std::vector<BlockPlacement>& placed, int sms);

}  // namespace ws
