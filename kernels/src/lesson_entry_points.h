// Internal: the per-backend entry points that catalog.cpp dispatches to.
#pragma once

#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/device_preset.h"

namespace ws {

Status RunLessonEmu(const std::string& id, const std::string& variant, const Params& params,
                    const RunOptions& options, const DevicePreset& preset, LessonRun* run);
// The occupancy calculator (no kernel, no backend).
Status RunOccupancyLesson(const Params& params, LessonRun* run);
// Without the CUDA runner this says so.
Status RunLessonCuda(const std::string& id, const std::string& variant, const Params& params,
                     const RunOptions& options, LessonRun* run);

}  // namespace ws
