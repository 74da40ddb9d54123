// A kept block's asynchronous copy calls on the GPU (ws_cuda_record_format.h, "asynchronous copy
// calls") into the Pipeline view's events (BlockRecords::async_events), each thread's calls
// replayed as the emulator runs them (kernels/program/runtime/emu_async.cpp): which commit group or
// stage use a copy joined, which wait landed it. The GPU does not say when a copy lands: its
// landing is given the time the wait that covers it ended (on the emulator that wait lands it
// too), and a group pipeline's copy the end of the block's first consumer_wait of its stage use
// (the emulator lands it at its producer's commit: a group's copies there are in flight from
// issue to commit, on the GPU until a consumer has them).
#pragma once

#include <cstdint>
#include <vector>

#include "warpscope/trace/records.h"

namespace ws {

// One event of a warp's stream: the lanes that made `call` (AsyncCall) together with `arg`.
struct AsyncCall {
  std::uint32_t warp = 0;  // in the block
  std::uint32_t mask = 0;
  std::uint32_t call = 0;
  std::uint32_t arg = 0;
  std::uint32_t time = 0;   // when the call returned, on the block's clock (ns from the launch's)
  std::uint32_t began = 0;  // when a wait began (<= time); `time` where not timed
};

// The calls of one block, each warp's in its stream's order (warps in any order), for a block of
// `threads` threads: the block's async events, in time order.
std::vector<AsyncEvent> ReplayAsyncCalls(const std::vector<AsyncCall>& calls,
                                         std::uint32_t threads);

}  // namespace ws
