#include "core/capture.h"

#include "warpscope/kernels/catalog.h"

namespace ws {

TraceContents TraceOfRun(const LessonRun& run, const GpuDevice* gpu, std::time_t when) {
  return TraceOfLessonRun(run, gpu != nullptr ? GpuJson(*gpu) : nlohmann::json(), when);
}

Result<LessonRun> RunOfTrace(TraceContents c, const std::filesystem::path& file) {
  return LessonRunOfTrace(std::move(c), file, [](const std::string& id) { return FindLesson(id); });
}

Status SaveRunAsTrace(const LessonRun& run, const GpuDevice* gpu,
                      const std::filesystem::path& path) {
  return WriteTraceFile(path, TraceOfRun(run, gpu, std::time(nullptr)));
}

Result<LessonRun> LoadTraceAsRun(const std::filesystem::path& path) {
  auto c = ReadTraceFile(path);
  if (!c.ok()) return c.status();
  return RunOfTrace(std::move(c).value(), path);
}

}  // namespace ws
