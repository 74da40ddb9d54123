// How far a program's run has got: the launch under way and its blocks done out of the grid
// (issue 22). The child's emulator runtime writes a ProgressCell into a file the parent maps
// (WS_PROGRAM_PROGRESS); the parent reads it while it waits (ProgramOptions::on_progress).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace ws {

struct ProgramProgress {
  std::uint32_t launch = 0;  // 1-based; 0: no launch yet
  std::string kernel;
  std::uint64_t blocks_done = 0, blocks = 0;
  friend bool operator==(const ProgramProgress&, const ProgramProgress&) = default;
};

// "launch 2 (tiled): 1,234 of 4,096 blocks"
std::string ProgressText(const ProgramProgress& p);

// The cell both processes map (plain atomics: lock-free, address-free). The child writes the
// kernel's name first, then the grid, then `launch` (release); the parent reads `launch` first.
struct ProgressCell {
  std::atomic<std::uint64_t> blocks_done;
  std::atomic<std::uint64_t> blocks;
  std::atomic<std::uint32_t> launch;
  char kernel[52];
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "a cell shared by two processes");
static_assert(sizeof(ProgressCell) == 72, "the cell's layout is the same in both processes");

}  // namespace ws
