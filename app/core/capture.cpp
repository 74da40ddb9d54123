#include "core/capture.h"

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

nlohmann::json GpuOrNull(const GpuDevice* gpu) {
  return gpu != nullptr ? GpuJson(*gpu) : nlohmann::json();
}

}  // namespace

TraceContents TraceOfRun(const LessonRun& run, const GpuDevice* gpu, std::time_t when) {
  return TraceOfLessonRun(run, GpuOrNull(gpu), when);
}

Result<LessonRun> RunOfTrace(TraceContents c, const std::filesystem::path& file) {
  return LessonRunOfTrace(std::move(c), file, FindLesson);
}

Status SaveRunAsTrace(const LessonRun& run, const GpuDevice* gpu,
                      const std::filesystem::path& path) {
  return WriteRunTrace(run, GpuOrNull(gpu), path, std::time(nullptr));
}

Result<LessonRun> LoadTraceAsRun(const std::filesystem::path& path) {
  return ReadRunTrace(path, FindLesson);
}

}  // namespace ws
