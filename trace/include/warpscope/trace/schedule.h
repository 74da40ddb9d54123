// The order in which the emulator interleaves a block's threads (a run option: CLI --schedule,
// the app's Run menu). A race changes the output under some schedule; a correct kernel gives the
// same output under all of them.
//
//   in-order   thread 0 runs until it reaches a barrier or ends, then thread 1, ... (the default,
//              and the fastest)
//   reverse    the same, from the last thread to thread 0
//   lockstep   the G80 picture: the lanes of a warp advance together, one access at a time, and
//              the warps of a block take turns, each running until it reaches a barrier or ends;
//              lanes of one warp never race each other, warps do
//   random:S   at every access a thread is picked at random among those that can go on, from a
//              generator seeded by S and the block's index: the same S gives the same run,
//              whatever the number of workers
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "warpscope/trace/status.h"

namespace ws {

struct Schedule {
  enum class Kind : std::uint8_t { kInOrder = 0, kReverse, kLockstep, kRandom };
  Kind kind = Kind::kInOrder;
  std::uint64_t seed = 0;    // kRandom only
  std::string Name() const;  // "in-order", "reverse", "lockstep", "random:42"
  // Threads stop before every access (lockstep, random), not only at barriers.
  bool StepsEachAccess() const { return kind == Kind::kLockstep || kind == Kind::kRandom; }
  friend bool operator==(const Schedule&, const Schedule&) = default;
};

// "in-order", "reverse", "lockstep" or "random:SEED" (SEED a whole number below 2^64); anything
// else is an error naming the choices.
Result<Schedule> ParseSchedule(std::string_view text);

}  // namespace ws
