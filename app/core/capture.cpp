#include "core/capture.h"

#include "warpscope/kernels/catalog.h"

namespace ws {

TraceContents TraceOfRun(const LessonRun& run, const GpuDevice* gpu, std::time_t when) {
  return TraceOfLessonRun(run, gpu != nullptr ? GpuJson(*gpu) : nlohmann::json(), when);
}

Result<LessonRun> RunOfTrace(TraceContents c, const std::filesystem::path& file) {
  return LessonRunOfTrace(std::move(c), file, FindLesson);
}

Status SaveRunAsTrace(const LessonRun& run, const GpuDevice* gpu,
                      const std::filesystem::path& path) {
  return WriteRunTrace(run, gpu != nullptr ? GpuJson(*gpu) : nlohmann::json(), path,
                       std::time(nullptr));
}

Result<LessonRun> LoadTraceAsRun(const std::filesystem::path& path) {
  return ReadRunTrace(path, FindLesson);
}

}  // namespace ws
