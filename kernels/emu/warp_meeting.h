// One meeting of a warp's lanes at a warp-level intrinsic, by CUDA's rules, apart from the
// scheduler that brings the lanes together (runtime.cpp): what each lane brought, what it gets.
#pragma once

#include <cstdint>

#include "warpscope/trace/records.h"

namespace ws::emu {

struct WarpLane {
  std::uint64_t value = 0;  // a shuffle's value, a vote's predicate
  std::uint32_t mask = 0;   // the mask it passed
  int arg = 0;              // source lane, delta or lane mask (shuffles)
  int width = 32;
};

struct WarpMeeting {
  std::uint64_t result[32] = {};
  std::uint8_t source[32] = {};  // shuffles: the lane each lane read; otherwise itself
};

// A meeting whose work the caller brings (kMma: ws_program_wmma.h): each lane's value is the
// address of its own call, whose first member is this function; the meeting runs the lowest
// lane's once, with every lane's value, while all of them wait there.
using WarpCallRun = void (*)(const std::uint64_t* values, std::uint32_t group);

// The lanes of `group` (bit l set: lanes[l] took part) meet at an intrinsic of `kind`. A lane
// whose source is out of its segment or not in the group keeps its own value.
WarpMeeting MeetWarp(WarpOpKind kind, std::uint32_t group, const WarpLane (&lanes)[32]);

}  // namespace ws::emu
