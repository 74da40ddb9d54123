// A run's timelines as Chrome Trace Event Format JSON (the "JSON Object Format"), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open:
//
//   {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {"time_unit": "logical", ...}}
//
//   nlohmann::json j = ws::ChromeTraceOf(run);
//   std::ofstream("barrier.json") << j.dump();
//
// What it holds (display-free; the CLI's `export --chrome-trace` writes it):
//   - Barriers: one process per kept block that recorded __syncthreads() (pid = block + 1, named
//     "block B"), one thread per warp (tid = warp + 1, named "warp W"). Per warp and barrier
//     meeting, a complete event ("ph": "X") "waiting at __syncthreads, line N" from the warp's
//     first lane's arrival to its departure; between them, "working" spans (from the warp's first
//     record, and after the last barrier up to its last record).
//   - Blocks on SMs (runs with a block schedule: the scalability lesson): one process "SMs"
//     (pid = the launch's block count + 1, after every block's), a thread per resident slot of
//     each SM (tid = sm x slots + slot + 1, named "SM s, slot k"), a complete event "block B" per
//     block. Blocks an SM holds at once sit on its different slots, because events of one thread
//     must nest and resident blocks overlap without nesting.
//   - Metadata events ("ph": "M"): process_name, thread_name, process_sort_index and
//     thread_sort_index (args.name / args.sort_index).
//
// Times: "ts" and "dur" are microseconds. A GPU's nanoseconds are divided by 1000; the emulator's
// logical clock and the block scheduler's work units have no real duration and are written 1:1
// as microseconds, otherData.time_unit ("logical" or "ns") and otherData.sm_time_unit ("units" or
// "us") saying which. Pids and tids start at 1: Perfetto treats 0 as the kernel's idle process.
// Every event's args carry the real block, warp and SM numbers.
#pragma once

#include <nlohmann/json.hpp>

#include "warpscope/trace/lesson_run.h"

namespace ws {

// The run's barrier timelines (its main launch's kept blocks) and block schedule; an object with
// an empty traceEvents array when it has neither.
nlohmann::json ChromeTraceOf(const LessonRun& run);

// How many complete ("X") events `trace` holds: 0 means there was nothing to draw.
std::size_t ChromeTraceCompleteEvents(const nlohmann::json& trace);

}  // namespace ws
