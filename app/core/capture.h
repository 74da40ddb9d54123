// Run records as trace files, bound to this build's catalogue (a lesson's description, its
// figures' reader) and GPU query: the file itself is the record's (warpscope/trace/run_file.h).
#pragma once

#include <ctime>
#include <filesystem>

#include "warpscope/kernels/devices.h"
#include "warpscope/trace/run_file.h"

namespace ws {

// `gpu` (may be null): the device the run used, recorded with its properties.
TraceContents TraceOfRun(const LessonRun& run, const GpuDevice* gpu, std::time_t when);
// Rebuilds the run; refuses a header that lacks what the views need, naming the field.
Result<LessonRun> RunOfTrace(TraceContents contents, const std::filesystem::path& file);

Status SaveRunAsTrace(const LessonRun& run, const GpuDevice* gpu,
                      const std::filesystem::path& path);
Result<LessonRun> LoadTraceAsRun(const std::filesystem::path& path);

}  // namespace ws
