// Lesson runs as trace files: what `warpscope-cli capture` writes, `warpscope-cli show` prints and
// the app opens. The header carries what ran (lesson, variant, parameters), where (backend,
// device and, from a GPU, its properties), when, the timing, the output check, the lesson's
// figures and the kernel source text; the launches carry the records (trace/trace_file.h).
#pragma once

#include <ctime>
#include <filesystem>

#include "warpscope/kernels/devices.h"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/trace_file.h"

namespace ws {

// `gpu` (may be null): the device the run used, recorded with its properties.
TraceContents TraceOfRun(const LessonRun& run, const GpuDevice* gpu, std::time_t when);
// Rebuilds the run; refuses a header that lacks what the views need, naming the field.
Result<LessonRun> RunOfTrace(TraceContents contents, const std::filesystem::path& file);

Status SaveRunAsTrace(const LessonRun& run, const GpuDevice* gpu,
                      const std::filesystem::path& path);
Result<LessonRun> LoadTraceAsRun(const std::filesystem::path& path);

}  // namespace ws
