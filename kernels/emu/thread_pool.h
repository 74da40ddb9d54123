// The emulator's worker threads, kept for the process's life (docs/ENGINE.md, "Memory kept across
// launches"). A new thread's thread-local block is made and zeroed when it starts: 317 KB in the
// CLI (the lessons' warp functions' per-place ranges, ws_program_simt.h's t_range), 78 pages
// faulted in, for every worker of every launch before this pool (a lesson of 16 small launches
// spent a fifth of its time so).
#pragma once

#include <functional>

namespace ws::emu {

// Runs `job(i)` for i in 0 .. n - 1, job 0 on the calling thread and each other on a thread of
// its own from the pool (made where none is free), and returns when every one has returned.
// The jobs may wait on each other: each has its own thread.
void RunOnWorkers(unsigned n, const std::function<void(unsigned)>& job);

}  // namespace ws::emu
