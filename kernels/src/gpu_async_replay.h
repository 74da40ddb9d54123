// A kept block's asynchronous copy calls on the GPU (ws_cuda_record_format.h, "asynchronous copy
// calls") into the Pipeline view's events (BlockRecords::async_events), each thread's calls
// replayed as the emulator runs them (kernels/program/runtime/emu_async.cpp): which commit group a
// copy joined, which wait landed it. The GPU does not say when a copy lands: its landing is given
// the time the wait that covers it ended (the emulator's is the moment that wait lands it too).
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

struct AsyncReplay {
  std::vector<AsyncEvent> events;  // in time order
  // Copies into a group's cuda::pipeline, whose stage uses the GPU does not record: left out.
  std::uint64_t unreplayed_copies = 0;
};

// The calls of one block, each warp's in its stream's order (warps in any order), for a block of
// `threads` threads.
AsyncReplay ReplayAsyncCalls(const std::vector<AsyncCall>& calls, std::uint32_t threads);

}  // namespace ws
