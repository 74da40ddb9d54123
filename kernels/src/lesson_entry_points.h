// Internal: the per-backend entry points that catalog.cpp dispatches to.
#pragma once

#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/device_preset.h"

namespace ws {

Status RunLessonEmu(const std::string& id, const std::string& variant, const Params& params,
                    const RunOptions& options, const DevicePreset& preset, LessonRun* run);
// The occupancy calculator (no kernel, no backend); device "gpu" is GPU `gpu`.
Status RunOccupancyLesson(const Params& params, int gpu, LessonRun* run);
// The warp-scheduler latency model (no kernel, no backend).
Status RunLatencyLesson(const Params& params, LessonRun* run);
// Without the CUDA runner this says so.
Status RunLessonCuda(const std::string& id, const std::string& variant, const Params& params,
                     const RunOptions& options, LessonRun* run);
// The transfers lesson: host-device copies timed on GPU `options.gpu` (no kernel records).
// Without the CUDA runner this says so.
Status RunTransfersCuda(const std::string& variant, const Params& params, const RunOptions& options,
                        LessonRun* run);
// The uninstrumented build: the lesson's launches (shapes, no records), output check and the
// last launch's median time.
Status TimeLessonCuda(const std::string& id, const std::string& variant, const Params& params,
                      const RunOptions& options, LessonRun* run);

}  // namespace ws
